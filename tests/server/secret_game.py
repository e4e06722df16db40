"""A tiny game with real hidden information, to prove the leak test catches leaks.

Each seat is dealt a secret card (chance, seen only by its owner); seat 0 then picks a
secret gem (seen only by itself), seat 1 guesses it in the open, and the higher card plus
3 for whoever wins the guess decides. Every card and gem has a distinctive name, so a
leak of one is a searchable string.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from motherlode.core import svg
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State

CARDS = ("ZEBRA", "YAK", "WOMBAT", "VOLE", "URCHIN", "TAPIR", "SLOTH", "RAVEN", "QUAIL", "PUMA")
GEMS = ("TOPAZ", "RUBY", "JADE")


class SecretGame(Game):
    name: ClassVar[str] = "secretduel"
    Config: ClassVar[type[GameConfig]] = GameConfig

    @property
    def perfect_information(self) -> bool:
        return False

    @property
    def num_distinct_actions(self) -> int:
        return 6

    @property
    def max_chance_outcomes(self) -> int:
        return len(CARDS)

    @property
    def max_game_length(self) -> int:
        return 4

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self) -> SecretState:
        return SecretState(self)

    def deserialize(self, text: str) -> SecretState:
        raise NotImplementedError


class SecretState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.hands: list[int] = []
        self.gem: int | None = None
        self.guess: int | None = None

    def current_player(self) -> Player:
        if len(self.hands) < 2:
            return CHANCE
        if self.gem is None:
            return 0
        if self.guess is None:
            return 1
        return TERMINAL

    def _legal_actions(self) -> list[Action]:
        return [0, 1, 2] if self.gem is None else [3, 4, 5]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        left = [c for c in range(len(CARDS)) if c not in self.hands]
        return [(c, 1 / len(left)) for c in left]

    def _apply_action(self, action: Action) -> None:
        if len(self.hands) < 2:
            self.hands.append(action)
        elif self.gem is None:
            self.gem = action
        else:
            self.guess = action - 3

    def _action_to_string(self, action: Action) -> str:
        if len(self.hands) < 2:
            return f"deal {CARDS[action]}"
        return f"secret {GEMS[action]}" if self.gem is None else f"guess {GEMS[action - 3]}"

    def scores(self) -> list[float]:
        s = [float(c) for c in self.hands] + [0.0] * (2 - len(self.hands))
        if self.guess is not None:
            s[1 if self.guess == self.gem else 0] += 3
        return s

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        over = self.is_terminal()
        return {
            "my_card": CARDS[self.hands[player]]
            if player is not None and player < len(self.hands)
            else None,
            "cards": [CARDS[c] for c in self.hands] if over else None,
            "gem": GEMS[self.gem] if self.gem is not None and (player == 0 or over) else None,
            "guess": GEMS[self.guess] if self.guess is not None else None,
            "to_move": self.current_player(),
        }

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        return np.zeros(1)

    def serialize(self) -> str:
        return f"{self.hands}/{self.gem}/{self.guess}"

    def __str__(self) -> str:
        return self.serialize()

    def render_svg(self, seat: Player | None = None) -> str:
        view = self.observation(seat)
        body = [svg.element("text", f"card: {view['my_card'] or '?'}", x=10, y=20)]
        if seat is not None and seat == self.current_player():
            for i, a in enumerate(self.legal_actions()):
                text = self.action_to_string(a)
                body.append(svg.actionable(svg.element("text", text, x=10, y=40 + 20 * i), text))
        return svg.document(200, 120, body)


class LayeredState(SecretState):
    """:class:`SecretState` drawn as DESIGN.md §3b's layers: a static frame, public
    elements that change, come and go (the turn marker, the guess, the result), and a seat
    layer with the seat's own card and its clickable moves, so every kind of diff occurs."""

    def render_layers(self, seat: Player | None = None) -> svg.Layers:
        view = self.observation(seat)
        public = [
            ("turn", svg.element("text", f"to move: {view['to_move']}", id="turn", x=10, y=100))
        ]
        if view["guess"] is not None:  # appears, and goes first: the order changes
            public.insert(0, ("guess", svg.element("text", view["guess"], id="guess", x=100, y=20)))
        if self.is_terminal():
            public.append(
                ("cards", svg.element("text", " ".join(view["cards"]), id="cards", x=10, y=60))
            )
        seat_layer = [
            ("card", svg.element("text", f"card: {view['my_card'] or '?'}", id="card", x=10, y=20))
        ]
        if seat is not None and seat == self.current_player():
            for i, a in enumerate(self.legal_actions()):
                text = self.action_to_string(a)
                shape = svg.element("text", text, x=10, y=40 + 20 * i)
                seat_layer.append(
                    (f"act-{i}", f'<g id="act-{i}">{svg.actionable(shape, text)}</g>')
                )
        frame = svg.element("rect", x=1, y=1, width=198, height=118, fill="none", stroke="#333")
        return svg.Layers(200, 120, frame, tuple(public), tuple(seat_layer), title="layerduel")

    def render_svg(self, seat: Player | None = None) -> str:
        return self.render_layers(seat).compose()


class LayeredGame(SecretGame):
    name: ClassVar[str] = "layerduel"

    def new_initial_state(self) -> LayeredState:
        return LayeredState(self)

"""A tiny two-player game whose best plan is not its bot's favourite, for the plans agent.

Each seat has ``TURNS`` turns of ``STEPS`` decisions, seats alternating. A decision is
``pick`` (1 point now) or ``plant`` (a seedling); when a seat's next turn begins, each of
its seedlings becomes 3 points. Planting pays three times as much, one turn later; on a
seat's last turn only picking pays (best play scores 3 * 2 * 2 + 2 = 14, always picking 6).
The bot (:class:`HarvestBot`) is myopic: its favourite plan is ``pick``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np

from motherlode.core.agent import Agent
from motherlode.core.protocol import TERMINAL, Action, Game, GameConfig, Player, State

TURNS = 3
STEPS = 2
PICK, PLANT = 0, 1


class HarvestGame(Game):
    name: ClassVar[str] = "harvest"
    Config: ClassVar[type[GameConfig]] = GameConfig

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def max_chance_outcomes(self) -> int:
        return 0

    @property
    def max_game_length(self) -> int:
        return 2 * TURNS * STEPS

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self) -> HarvestState:
        return HarvestState(self)

    def deserialize(self, text: str) -> HarvestState:
        raise NotImplementedError

    def bots(self) -> dict[str, Any]:
        return {"greedy": HarvestBot}


class HarvestState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.turn = 0  # turns played, both seats
        self.step = 0
        self.points = [0, 0]
        self.seedlings = [0, 0]

    def clone(self) -> HarvestState:
        new = HarvestState(self.game)
        new.turn, new.step = self.turn, self.step
        new.points, new.seedlings = list(self.points), list(self.seedlings)
        new._history = list(self._history)
        return new

    def current_player(self) -> Player:
        return TERMINAL if self.turn >= 2 * TURNS else self.turn % 2

    def _legal_actions(self) -> list[Action]:
        return [PICK, PLANT]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return []

    def _apply_action(self, action: Action) -> None:
        p = self.turn % 2
        if action == PICK:
            self.points[p] += 1
        else:
            self.seedlings[p] += 1
        self.step += 1
        if self.step == STEPS:
            self.step = 0
            self.turn += 1
            if self.turn < 2 * TURNS:
                q = self.turn % 2  # the seat whose turn begins harvests
                self.points[q] += 3 * self.seedlings[q]
                self.seedlings[q] = 0

    def _action_to_string(self, action: Action) -> str:
        return "pick" if action == PICK else "plant"

    def scores(self) -> list[float]:
        return [float(x) for x in self.points]

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        return {"points": self.points, "seedlings": self.seedlings}

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        return np.zeros(1)

    def serialize(self) -> str:
        return f"{self.turn}/{self.step}/{self.points}/{self.seedlings}"

    def __str__(self) -> str:
        return self.serialize()

    def render_svg(self, seat: Player | None = None) -> str:
        return "<svg/>"


class HarvestBot(Agent):
    """Picks (its favourite) unless told to follow ``"plant"``; a plan lasts one turn."""

    name = "greedy"

    def __init__(self, game: Game, seed: int = 0) -> None:
        super().__init__(seed)
        self.plan: Hashable = "pick"
        self.plan_turn = -1

    def decision_point(self, state: State) -> Hashable:
        assert isinstance(state, HarvestState)
        return state.turn

    def plans(self, state: State, limit: int) -> list[Hashable]:
        return ["pick", "plant"][:limit]

    def follow(self, state: State, plan: Hashable) -> None:
        self.plan = plan
        self.plan_turn = -2  # set at the next act

    def act(self, state: State) -> Action:
        assert isinstance(state, HarvestState)
        if self.plan_turn == -2:
            self.plan_turn = state.turn
        if self.plan_turn != state.turn:
            self.plan = "pick"  # a followed plan ends with its turn
        return PLANT if self.plan == "plant" else PICK

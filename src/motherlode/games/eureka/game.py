"""Eureka (Ravensburger's "Goldgräber", 1988): gold miners, robbers, rafts and a gold train.

The rules engine. Every die throw and every chip reveal is an explicit chance node; a
face-down chip has no identity until it is turned over (a draw from the chips that remain).

Turn structure (one seat's turn as atomic decisions and chance events)::

    turn   --pass------------------------------------------------> next seat
      |--roll--> die (chance)
                  |-- L: the train moves one space ----------------> next seat
                  |-- 2..6: move (decision: a destination hex)
                        |-- own house: deposit ------------------> next seat
                        |-- raft: cross (decision) -------------> next seat
                        |-- robber stack: captured, then as below
                        |-- another miner, loot at stake: duel
                        |     attacker roll, defender roll (chance), winner takes the loot,
                        |     move-away roll (chance), retreat (decision) --> next seat
                        |-- face-down chip: reveal (chance)
                              |-- gold: in front of the miner -------> next seat
                              |-- robber: defence roll (chance) if the miner has gold
                                    |-- higher: robber captured --------> next seat
                                    |-- lower: gold to the robber, retreat (decision)

>>> import motherlode
>>> game = motherlode.load("eureka", players=3)
>>> state = game.new_initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()]
['pass', 'roll']
>>> state.apply_string("roll"), state.apply_string("die 3")
(1, 2)
>>> [state.action_to_string(a) for a in state.legal_actions()][:4]
['move i11', 'move i12', 'move i13', 'move j11']
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import Field, model_validator

from motherlode.core.errors import ConfigError
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games.eureka.board import (
    GOLD_VALUES,
    HOUSE,
    LAND,
    ROBBER_HATS,
    Board,
    ChipMix,
    load_board,
    load_chips,
    parse_mix,
)
from motherlode.games.eureka.value import values

# -- phases ---------------------------------------------------------------------------

TURN = 0
"""The seat to move decides: roll or pass."""
ROLL = 1
"""Chance: the movement die."""
MOVE = 2
"""The mover picks a destination exactly ``die`` hexes away."""
RAFT = 3
"""The miner on a raft picks a landing space on the opposite bank, or stays."""
REVEAL = 4
"""Chance: the face-down chip under the mover is turned over."""
DEFEND = 5
"""Chance: the defence roll against the robber under the mover."""
RETREAT = 6
"""The miner who lost to a robber, or who won a duel, moves away ``die`` hexes."""
DUEL_A = 7
"""Chance: the attacker's duel roll."""
DUEL_D = 8
"""Chance: the defender's duel roll."""
DUEL_ROLL = 9
"""Chance: the duel winner's move-away roll."""
OVER = 10
"""The game has ended."""

PHASES = (
    "turn",
    "roll",
    "move",
    "raft",
    "reveal",
    "defend",
    "retreat",
    "duel-a",
    "duel-d",
    "duel-roll",
    "over",
)
CHANCE_PHASES = frozenset({ROLL, REVEAL, DEFEND, DUEL_A, DUEL_D, DUEL_ROLL})

# -- action ids -----------------------------------------------------------------------

PASS = 0
ROLL_DIE = 1
STAY = 2
MOVE_BASE = 3
"""``MOVE_BASE + node``: move (or move away) to that hex."""

# chance ids: 0..5 the die (0 = the locomotive, which counts one in fights; 1..5 = 2..6),
# CHIP_BASE + k: chip kind k (gold 1..5 nuggets, then robber hats 1..5).
DIE_FACES = ("L", "2", "3", "4", "5", "6")
CHIP_BASE = 6
NUM_KINDS = len(GOLD_VALUES) + len(ROBBER_HATS)
CHIP_NAMES = tuple(f"G{v}" for v in GOLD_VALUES) + tuple(f"R{h}" for h in ROBBER_HATS)

NOTATION_VERSION = "eureka/1"


class EurekaConfig(GameConfig):
    """Options of Eureka. Every one has a default; ``players`` is 3-6 as printed (2 works)."""

    players: int = Field(default=4, description="number of players (3-6 as printed; 2 works)")
    board: str = Field(
        default="", description="path of a board JSON file ('' = the packaged designed board)"
    )
    chips: str = Field(
        default="", description="path of a chip-mix JSON file ('' = the packaged designed mix)"
    )
    gold_mix: str = Field(
        default="",
        description="override: gold chips per nugget value 1..5, e.g. '14,12,10,7,5'",
    )
    robber_mix: str = Field(
        default="", description="override: robber chips per hat 1..5, e.g. '2,3,4,4,3'"
    )
    max_turns: int = Field(
        default=1000,
        ge=1,
        le=100_000,
        description="turn limit (passing can make a game last forever); at it the game is"
        " scored as if the train had arrived",
    )
    first_player: int = Field(
        default=0,
        ge=0,
        description="the seat that begins (the rulebook: 'the youngest player begins');"
        " play then passes to the left (seat + 1)",
    )
    nuggets_end: Literal["found", "banked"] = Field(
        default="found",
        description="'no more gold nuggets' ends the game when every gold chip is turned"
        " over ('found') or when no gold is left outside the houses ('banked')",
    )

    @model_validator(mode="after")
    def _check_mix(self) -> Self:
        for text, what in ((self.gold_mix, "gold_mix"), (self.robber_mix, "robber_mix")):
            if text:
                parse_mix(text, what)
        if self.first_player >= self.players:
            raise ConfigError(
                f"invalid eureka config: first_player={self.first_player} is no seat of a"
                f" {self.players}-player game (seats 0..{self.players - 1})"
            )
        return self


class EurekaGame(Game):
    """The Eureka game: a validated config with its board and chip mix loaded."""

    name = "eureka"
    rules_version = 2
    rules_changes: ClassVar[dict[int, str]] = {
        2: "Eureka, The Die: a miner on a raft may loop back onto it within one move (the"
        " raft is empty once he steps off), so a move ending on the raft he started from"
        " is legal; Eureka, Rafts: a raft crosses 'to any space on the opposite banks of"
        " the same lake', so every free land space of the opposite bank touching the lake"
        " is a landing space (a raft lies moored at a land space of its bank and its rider"
        " stands there; the designed board's lake banks, raft posts and mining holes"
        " changed with it)",
    }
    Config = EurekaConfig
    min_players = 2
    max_players = 6

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        assert isinstance(config, EurekaConfig)
        self.cfg: EurekaConfig = config
        self.board: Board = load_board(config.board or None)
        base = load_chips(config.chips or None)
        gold = parse_mix(config.gold_mix, "gold_mix") if config.gold_mix else base.gold
        robbers = parse_mix(config.robber_mix, "robber_mix") if config.robber_mix else base.robbers
        self.mix = ChipMix(gold, robbers)
        if sum(gold) == 0:
            raise ConfigError("invalid eureka config: the chip mix has no gold chip")
        if self.mix.total != len(self.board.holes):
            raise ConfigError(
                f"invalid eureka config: the chip mix has {self.mix.total} chips but the board"
                f" {self.board.source} has {len(self.board.holes)} mining holes (one chip each)"
            )
        n = len(self.board.hexes)
        self._num_actions = MOVE_BASE + n + len(self.board.landings)
        self.cross_base = MOVE_BASE + n
        self.landing_slot = {b: i for i, b in enumerate(self.board.landings)}
        self.dest_cache: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        """Memo of the static part of :meth:`EurekaState.destinations` (pure, per board)."""

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [
            {"players": 2},
            {"players": 3},
            {"players": 4},
            {"players": 5},
            {"players": 6},
            {"players": 4, "nuggets_end": "banked", "max_turns": 300},
            {"players": 3, "gold_mix": "20,12,10,4,2", "robber_mix": "6,4,3,2,1"},
            {"players": 5, "first_player": 3},
        ]

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    @property
    def max_chance_outcomes(self) -> int:
        return CHANCE_BASE_END

    @property
    def max_game_length(self) -> int:
        # Longest turn: roll, die, move, reveal, defend, retreat, raft (7), or
        # roll, die, move, duel-a, duel-d, duel-roll, retreat, raft (8).
        return 8 * self.cfg.max_turns

    def observation_tensor_shape(self) -> tuple[int, ...]:
        n = len(self.board.hexes)
        p = self.num_players
        return (n * (5 + p) + len(PHASES) + 3 + 5 * p + NUM_KINDS,)

    def observation_layout(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """The flat tensor's named slices, ``(name, offset, shape)``, in order.

        Per-hex planes are ``(planes, hexes)`` (hexes in the board's order, not a grid):
        ``hexes`` is face-down chip, robber hat / 5, robber gold / 10, raft, locomotive;
        ``miners`` one plane per seat, observer first. ``phase`` one-hot; ``progress``
        die / 6, train progress, turns / limit; ``players`` per seat (observer first):
        gold / 10, robbers / 2, house gold / 10, house robbers / 2, to move;
        ``chips_left`` face-down chips by kind / their start count.

        >>> EurekaGame.from_config(players=3).observation_layout()[:2]
        [('hexes', 0, (5, 331)), ('miners', 1655, (3, 331))]
        """
        n = len(self.board.hexes)
        p = self.num_players
        parts: list[tuple[str, tuple[int, ...]]] = [
            ("hexes", (5, n)),
            ("miners", (p, n)),
            ("phase", (len(PHASES),)),
            ("progress", (3,)),
            ("players", (p, 5)),
            ("chips_left", (NUM_KINDS,)),
        ]
        out, offset = [], 0
        for name, shape in parts:
            out.append((name, offset, shape))
            offset += math.prod(shape)
        return out

    def observation_bounds(self) -> dict[str, tuple[Any, Any]]:
        """Each slice's ``(low, high)``: flags and fractions in [0, 1]; gold up to all the
        mix's nuggets / 10, robbers up to all its robber chips / 2.

        >>> EurekaGame.from_config(players=2).observation_bounds()["players"]
        (0.0, (12.1, 8.0, 12.1, 8.0, 1.0))
        """
        gold = self.mix.nuggets / 10.0
        robbers = sum(self.mix.robbers) / 2.0
        return {
            "hexes": (0.0, ((1.0,), (1.0,), (gold,), (1.0,), (1.0,))),
            "miners": (0.0, 1.0),
            "phase": (0.0, 1.0),
            "progress": (0.0, 1.0),
            "players": (0.0, (gold, robbers, gold, robbers, 1.0)),
            "chips_left": (0.0, 1.0),
        }

    def new_initial_state(self) -> EurekaState:
        return EurekaState.initial(self)


CHANCE_BASE_END = CHIP_BASE + NUM_KINDS


def _search(board: Board, start: int, steps: int, loco: int, own: int) -> tuple[int, ...]:
    """Hexes exactly ``steps`` from ``start``: land, or the own house as the last hex.

    The search runs step by step over the hexes reached, each with the hex it was entered
    from (or -2 when entered from two or more different hexes: then no next step reverses
    every way in), never over paths. Rafts are checked against the position afterwards.
    """
    nbrs = board.nbrs
    kind = board.kind
    frontier: dict[int, int] = {start: -1}
    for i in range(steps):
        last = i == steps - 1
        nxt: dict[int, int] = {}
        for cur, prev in frontier.items():
            for nb in nbrs[cur]:
                if nb in (prev, loco):
                    continue
                k = kind[nb]
                if k != LAND and (not last or (k == HOUSE and nb != own)):
                    continue
                seen = nxt.get(nb)
                if seen is None:
                    nxt[nb] = cur
                elif seen != cur:
                    nxt[nb] = -2
        frontier = nxt
        if not frontier:
            break
    return tuple(frontier)


class EurekaState(State):
    """A position of Eureka. See the module docstring for the turn structure."""

    game: EurekaGame

    # Per seat: position (node id), gold nuggets and robbers lying in front of the miner,
    # and what is safe in the house.
    pos: list[int]
    gold: list[int]
    robbers: list[int]
    house_gold: list[int]
    house_robbers: list[int]
    facedown: list[bool]
    """Per node: a face-down chip lies there."""
    stacks: dict[int, tuple[int, int]]
    """Face-up robbers on the board: node -> (hat, nuggets stacked under it)."""
    bag: list[int]
    """Face-down chips by kind (gold 1..5, robber 1..5): what a reveal draws from."""
    rafts: list[int]
    """The landing space each raft lies moored at (its rider, if any, stands there)."""

    @classmethod
    def initial(cls, game: EurekaGame) -> EurekaState:
        s = cls(game)
        board = game.board
        n = game.num_players
        s.turn = game.cfg.first_player
        s.actor = game.cfg.first_player
        s.phase = TURN
        s.die = 0
        s.loco = 0
        s.turns = 0
        s.duel = (-1, -1, 0)
        s.pos = [board.houses[i] for i in range(n)]
        s.gold = [0] * n
        s.robbers = [0] * n
        s.house_gold = [0] * n
        s.house_robbers = [0] * n
        s.facedown = [False] * len(board.hexes)
        for h in board.holes:
            s.facedown[h] = True
        s.stacks = {}
        s.bag = list(game.mix.kinds)
        s.rafts = [r for lake in board.lakes for r in lake.rafts]
        return s

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.turn = 0
        """The seat whose turn it is."""
        self.actor = 0
        """The seat that decides now (a duel winner moves away in the attacker's turn)."""
        self.phase = TURN
        self.die = 0
        """The pending number of hexes to move (MOVE, RETREAT) or 0."""
        self.loco = 0
        """The locomotive's track space index (0: next to the tunnel)."""
        self.turns = 0
        """Turns played (passes included), for the turn limit."""
        self.duel: tuple[int, int, int] = (-1, -1, 0)
        """(attacker, defender, attacker's roll) during a duel, else (-1, -1, 0)."""
        self._dest: list[int] | None = None

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.game = self.game
        new._history = list(self._history)
        new.turn = self.turn
        new.actor = self.actor
        new.phase = self.phase
        new.die = self.die
        new.loco = self.loco
        new.turns = self.turns
        new.duel = self.duel
        new.pos = list(self.pos)
        new.gold = list(self.gold)
        new.robbers = list(self.robbers)
        new.house_gold = list(self.house_gold)
        new.house_robbers = list(self.house_robbers)
        new.facedown = list(self.facedown)
        new.stacks = dict(self.stacks)
        new.bag = list(self.bag)
        new.rafts = list(self.rafts)
        new._dest = self._dest
        return new

    # -- queries ---------------------------------------------------------------------

    def current_player(self) -> Player:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.actor

    def loco_node(self) -> int:
        return self.game.board.track[self.loco]

    def loot(self, seat: int) -> int:
        """Gold nuggets plus robbers lying in front of ``seat`` (what a duel is about)."""
        return self.gold[seat] + self.robbers[seat]

    def destinations(self, seat: int, steps: int, exclude_start: bool = False) -> list[int]:
        """Hexes ``seat``'s miner can reach in exactly ``steps`` hexes.

        No step goes straight back to the hex just left; water is never entered; the
        locomotive's hex is never entered or jumped; a house (its owner's only) ends a move
        and only with the exact throw; a landing space where a raft lies with another
        figure on it is not a destination ("Only one figure may stand on a raft"; the mover
        himself leaves his raft empty when he steps off it, so he may loop back onto it).
        The search runs step by step over the hexes reached, never over paths, and its
        static part is memoised per game.
        """
        board = self.game.board
        start = self.pos[seat]
        loco = board.track[self.loco]
        own = board.houses[seat]
        key = (start, steps, loco, own)
        cache = self.game.dest_cache
        found = cache.get(key)
        if found is None:
            found = _search(board, start, steps, loco, own)
            if len(cache) > 300_000:
                cache.clear()
            cache[key] = found
        out = set(found)
        ridden = {p for i, p in enumerate(self.pos) if i != seat} & set(self.rafts)
        out -= ridden
        if exclude_start:
            out.discard(start)
        return sorted(out)

    def _cross_targets(self) -> list[int]:
        """Landing spaces of the opposite bank with no raft moored and no figure on them."""
        board = self.game.board
        here = self.pos[self.actor]
        taken = set(self.rafts) | set(self.pos)
        return [b for b in board.opposite(here) if b not in taken]

    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == TURN:
            return [PASS, ROLL_DIE]
        if ph in (MOVE, RETREAT):
            if self._dest is None:
                self._dest = self.destinations(self.actor, self.die, exclude_start=ph == RETREAT)
            if not self._dest:
                return [STAY]
            return [MOVE_BASE + d for d in self._dest]
        if ph == RAFT:
            slot = self.game.landing_slot
            base = self.game.cross_base
            return [STAY, *sorted(base + slot[b] for b in self._cross_targets())]
        return []

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        ph = self.phase
        if ph in (ROLL, DUEL_A, DUEL_ROLL):
            return [(i, 1 / 6) for i in range(6)]
        if ph == DEFEND:
            hat = self.stacks[self.pos[self.actor]][0]
            return [(i, 1 / 5) for i in range(6) if i + 1 != hat]
        if ph == DUEL_D:
            a = self.duel[2]
            return [(i, 1 / 5) for i in range(6) if i + 1 != a]
        if ph == REVEAL:
            total = sum(self.bag)
            return [(CHIP_BASE + k, c / total) for k, c in enumerate(self.bag) if c]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        ph = self.phase
        if ph in (ROLL, DUEL_A, DUEL_ROLL):
            return int(rng.randrange(6))
        return super().sample_chance(rng)

    # -- moving ----------------------------------------------------------------------

    def _apply_action(self, action: Action) -> None:
        self._dest = None
        ph = self.phase
        seat = self.actor
        if ph == TURN:
            if action == ROLL_DIE:
                self.phase = ROLL
            else:
                self._end_turn()
        elif ph == ROLL:
            if action == 0:
                self._train()
            else:
                self.die = action + 1
                self.phase = MOVE
        elif ph == MOVE:
            self.die = 0
            if action == STAY:
                self._end_turn()
            else:
                self.pos[seat] = action - MOVE_BASE
                self._land(seat)
        elif ph == RETREAT:
            self.die = 0
            if action == STAY:
                self._end_turn()
            else:
                self.pos[seat] = action - MOVE_BASE
                kind = self.game.board.kind[self.pos[seat]]
                if kind == HOUSE:
                    self._deposit(seat)
                    self._end_turn()
                elif self.pos[seat] in self.rafts:
                    self.phase = RAFT
                else:
                    self._end_turn()
        elif ph == RAFT:
            if action != STAY:
                target = self.game.board.landings[action - self.game.cross_base]
                here = self.pos[seat]
                self.rafts[self.rafts.index(here)] = target
                self.pos[seat] = target
            self._end_turn()
        elif ph == REVEAL:
            self._reveal(seat, action - CHIP_BASE)
        elif ph == DEFEND:
            self._defend(seat, action + 1)
        elif ph == DUEL_A:
            a, d, _ = self.duel
            self.duel = (a, d, action + 1)
            self.phase = DUEL_D
        elif ph == DUEL_D:
            a, d, ra = self.duel
            winner, loser = (a, d) if ra > action + 1 else (d, a)
            self.gold[winner] += self.gold[loser]
            self.robbers[winner] += self.robbers[loser]
            self.gold[loser] = 0
            self.robbers[loser] = 0
            self.duel = (-1, -1, 0)
            self.actor = winner
            self.phase = DUEL_ROLL
        elif ph == DUEL_ROLL:
            self.die = action + 1
            self.phase = RETREAT
        else:  # pragma: no cover - apply_action rejects moves after the end
            raise AssertionError(f"no action in phase {PHASES[ph]}")

    def _end_turn(self) -> None:
        self.turns += 1
        self.turn = (self.turn + 1) % self.game.num_players
        self.actor = self.turn
        self.phase = TURN
        self.die = 0
        cfg = self.game.cfg
        if self.turns >= cfg.max_turns or (cfg.nuggets_end == "banked" and self._no_gold_outside()):
            self.phase = OVER

    def _no_gold_outside(self) -> bool:
        if any(self.bag[: len(GOLD_VALUES)]) or any(self.gold):
            return False
        return not any(g for _, g in self.stacks.values())

    def _deposit(self, seat: int) -> None:
        self.house_gold[seat] += self.gold[seat]
        self.house_robbers[seat] += self.robbers[seat]
        self.gold[seat] = 0
        self.robbers[seat] = 0

    def _land(self, seat: int) -> None:
        """The end of a regular move on ``self.pos[seat]``."""
        board = self.game.board
        here = self.pos[seat]
        kind = board.kind[here]
        if kind == HOUSE:
            self._deposit(seat)
            self._end_turn()
            return
        if here in self.rafts:  # a free raft moored here (landing spaces hold no chip)
            self.phase = RAFT
            return
        stack = self.stacks.pop(here, None)
        if stack is not None:  # "captured by any player landing on his space"
            self.robbers[seat] += 1
            self.gold[seat] += stack[1]
        defender = self._defender(seat, here)
        if defender >= 0:
            self.duel = (seat, defender, 0)
            self.phase = DUEL_A
        elif self.facedown[here]:
            self.phase = REVEAL
        else:
            self._end_turn()

    def _defender(self, seat: int, here: int) -> int:
        """The miner ``seat`` fights on ``here``: the first clockwise with loot at stake."""
        n = self.game.num_players
        for k in range(1, n):
            other = (seat + k) % n
            if self.pos[other] == here and (self.loot(seat) or self.loot(other)):
                return other
        return -1

    def _reveal(self, seat: int, kind: int) -> None:
        here = self.pos[seat]
        self.bag[kind] -= 1
        self.facedown[here] = False
        if kind < len(GOLD_VALUES):
            self.gold[seat] += GOLD_VALUES[kind]
            if self.game.cfg.nuggets_end == "found" and not any(self.bag[: len(GOLD_VALUES)]):
                self.turns += 1
                self.phase = OVER
            else:
                self._end_turn()
            return
        hat = ROBBER_HATS[kind - len(GOLD_VALUES)]
        self.stacks[here] = (hat, 0)
        if self.gold[seat] == 0:  # "If the miner doesn't have any gold": no fight
            self._end_turn()
        else:
            self.phase = DEFEND

    def _defend(self, seat: int, roll: int) -> None:
        here = self.pos[seat]
        hat, _ = self.stacks[here]
        if roll > hat:
            del self.stacks[here]
            self.robbers[seat] += 1
            self._end_turn()
        else:
            self.stacks[here] = (hat, self.gold[seat])
            self.gold[seat] = 0
            self.die = roll
            self.phase = RETREAT

    def _train(self) -> None:
        """The locomotive moves one space; the roller is the temporary engineer."""
        board = self.game.board
        engineer = self.turn
        old = self.loco
        self.loco += 1
        needed = board.track[self.loco]
        n = self.game.num_players
        for k in range(n):
            seat = (engineer + k) % n
            if self.pos[seat] != needed:
                continue
            taken = set(self.pos)
            dest = board.track[old]
            for i in range(old, -1, -1):
                if board.track[i] not in taken:
                    dest = board.track[i]
                    break
            self.pos[seat] = dest
            if seat != engineer:
                self.gold[engineer] += self.gold[seat]
                self.robbers[engineer] += self.robbers[seat]
                self.gold[seat] = 0
                self.robbers[seat] = 0
        if self.loco == len(board.track) - 1:
            self.turns += 1
            self.phase = OVER
        else:
            self._end_turn()

    # -- results ---------------------------------------------------------------------

    def scores(self) -> list[float]:
        """Points safe in each house: one per nugget, two per captured robber."""
        return [float(g + 2 * r) for g, r in zip(self.house_gold, self.house_robbers, strict=True)]

    def heuristic_values(self) -> list[float]:
        """A judgement of an unfinished game for search agents, one value per seat in (-1, 1).

        Each seat's final banked points are predicted from the position (gold banked, gold
        carried and its risks on the way home, income to come) by a model fitted to
        self-play, and its predicted lead over the best rival becomes a win chance: see
        :mod:`motherlode.games.eureka.value`.

        >>> import motherlode
        >>> state = motherlode.deal(motherlode.load("eureka", players=3), seed=1)
        >>> [round(v, 2) for v in state.heuristic_values()]  # the houses' ways out differ
        [0.02, -0.02, -0.04]
        """
        return values(self)

    def termination(self) -> str:
        """Why the game ended: ``train`` (the gold train reached Golden City), ``nuggets``
        (no more gold nuggets, as :attr:`EurekaConfig.nuggets_end` counts them) or
        ``turn-limit``; empty while the game runs. :attr:`Outcome.termination` carries it.

        >>> import motherlode
        >>> state = motherlode.load("eureka", players=3, max_turns=1).new_initial_state()
        >>> state.termination(), state.apply_string("pass"), state.outcome().termination
        ('', 0, 'turn-limit')
        """
        if self.phase != OVER:
            return ""
        if self.loco == len(self.game.board.track) - 1:
            return "train"
        if self.game.cfg.nuggets_end == "banked":
            if self._no_gold_outside():
                return "nuggets"
        elif not any(self.bag[: len(GOLD_VALUES)]):
            return "nuggets"
        return "turn-limit"

    def end_reason(self) -> str | None:
        """:meth:`termination`, or ``None`` while the game runs."""  # alias for one release
        return self.termination() or None

    # -- views -----------------------------------------------------------------------

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        """What a seat sees: everything on the table; face-down chips only as face-down.

        The counts of face-down chips by kind are public (every reveal is open), so they
        are included; which chip lies where is unknown to everyone and is not.
        """
        board = self.game.board
        names = board.names
        n = self.game.num_players
        cp = self.current_player()
        obs: dict[str, Any] = {
            "game": "eureka",
            "seat": player,
            "players": n,
            "turn": self.turn,
            "to_move": cp,
            "phase": PHASES[self.phase],
            "die": self.die,
            "turns_played": self.turns,
            "max_turns": self.game.cfg.max_turns,
            "locomotive": {
                "space": self.loco,
                "hex": names[self.loco_node()],
                "last_space": len(board.track) - 1,
            },
            "miners": [
                {
                    "seat": i,
                    "colour": board.colours[i],
                    "hex": names[self.pos[i]],
                    "in_house": self.pos[i] == board.houses[i],
                    "on_raft": self.pos[i] in self.rafts,
                    "gold": self.gold[i],
                    "robbers": self.robbers[i],
                    "house_gold": self.house_gold[i],
                    "house_robbers": self.house_robbers[i],
                }
                for i in range(n)
            ],
            "face_down_chips": [names[h] for h in board.holes if self.facedown[h]],
            "robbers": [
                {"hex": names[h], "hat": hat, "gold": g}
                for h, (hat, g) in sorted(self.stacks.items())
            ],
            "rafts": sorted(names[r] for r in self.rafts),
            "unrevealed": {CHIP_NAMES[k]: c for k, c in enumerate(self.bag)},
            "scores": self.scores(),
        }
        if self.duel[0] >= 0:
            obs["duel"] = {
                "attacker": self.duel[0],
                "defender": self.duel[1],
                "attacker_roll": self.duel[2],
            }
        if self.phase == OVER:
            obs["winners"] = list(self.winners())
            obs["end"] = self.termination()
        return obs

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """Per hex: face-down chip, robber hat/5, robber gold/10, raft, locomotive, then one
        plane per miner (the observer's first); then phase one-hot, die/6, train progress,
        turns/limit, per seat (observer first) gold, robbers, house gold, house robbers,
        to-move; then face-down chips left by kind / their start count."""
        board = self.game.board
        nh = len(board.hexes)
        p = self.game.num_players
        me = 0 if player is None else player
        order = [(me + k) % p for k in range(p)]
        planes = np.zeros((5 + p, nh), dtype=np.float32)
        planes[0] = np.asarray(self.facedown, dtype=np.float32)
        for h, (hat, g) in self.stacks.items():
            planes[1, h] = hat / 5.0
            planes[2, h] = g / 10.0
        for r in self.rafts:
            planes[3, r] = 1.0
        planes[4, self.loco_node()] = 1.0
        for k, seat in enumerate(order):
            planes[5 + k, self.pos[seat]] = 1.0
        phase = np.zeros(len(PHASES), dtype=np.float32)
        phase[self.phase] = 1.0
        glob = [
            self.die / 6.0,
            self.loco / (len(board.track) - 1),
            self.turns / self.game.cfg.max_turns,
        ]
        cp = self.current_player()
        for seat in order:
            glob += [
                self.gold[seat] / 10.0,
                self.robbers[seat] / 2.0,
                self.house_gold[seat] / 10.0,
                self.house_robbers[seat] / 2.0,
                1.0 if seat == cp else 0.0,
            ]
        start = self.game.mix.kinds
        glob += [c / s if s else 0.0 for c, s in zip(self.bag, start, strict=True)]
        return np.concatenate([planes.reshape(-1), phase, np.asarray(glob, dtype=np.float32)])

    # -- invariants ------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Every chip, nugget, raft and figure accounted for."""
        game = self.game
        board = game.board
        mix = game.mix
        ng = len(GOLD_VALUES)
        assert all(c >= 0 for c in self.bag), "bag: negative chip count"
        assert all(self.bag[k] <= mix.kinds[k] for k in range(NUM_KINDS)), (
            "bag: more chips of a kind than the chip mix has (bag over the mix)"
        )
        down = sum(self.facedown)
        assert down == sum(self.bag), (
            f"chips/bag: {down} face-down chips but {sum(self.bag)} unrevealed"
        )
        holes = set(board.holes)
        assert all(h in holes for h, f in enumerate(self.facedown) if f), "chips: chip off a hole"
        for h in self.stacks:
            assert h in holes and not self.facedown[h], (
                "robbers: robber stack off a hole or on a chip"
            )
        bag_nuggets = sum(GOLD_VALUES[k] * self.bag[k] for k in range(ng))
        out = sum(self.gold) + sum(self.house_gold) + sum(g for _, g in self.stacks.values())
        assert bag_nuggets + out == mix.nuggets, "miners/robbers/bag: gold nuggets not conserved"
        revealed_gold_chips = sum(mix.gold) - sum(self.bag[:ng])
        assert out <= 5 * revealed_gold_chips, (
            "miners/robbers/bag: more nuggets out than gold chips revealed"
        )
        robbers = sum(self.bag[ng:]) + len(self.stacks) + sum(self.robbers)
        robbers += sum(self.house_robbers)
        assert robbers == sum(mix.robbers), "miners/robbers/bag: robber chips not conserved"
        for k, hat in enumerate(ROBBER_HATS):
            up = sum(1 for h, _ in self.stacks.values() if h == hat)
            have = mix.robbers[k]
            assert up + self.bag[ng + k] <= have, (
                f"robbers/bag: {up} face-up and {self.bag[ng + k]} face-down robbers with hat"
                f" {hat}, but the"
                f" chip mix has {have}"
            )
        assert len(self.rafts) == sum(len(lk.rafts) for lk in board.lakes), "rafts: raft lost"
        assert len(set(self.rafts)) == len(self.rafts), "rafts: two rafts at one landing space"
        assert all(r in board.landing_lake for r in self.rafts), "rafts: raft off a landing space"
        for li, lake in enumerate(board.lakes):
            on = [r for r in self.rafts if board.landing_lake.get(r) == li]
            assert len(on) == len(lake.rafts), f"rafts: lake {lake.name} lost a raft"
        loco = self.loco_node()
        for seat, h in enumerate(self.pos):
            k = board.kind[h]
            assert h != loco, f"miners[{seat}]: P{seat + 1} under the locomotive"
            if k == HOUSE:
                assert h == board.houses[seat], f"miners[{seat}]: P{seat + 1} in another's house"
            else:
                assert k == LAND, f"miners[{seat}]: P{seat + 1} in the water"
            if h in self.rafts:
                assert self.pos.count(h) == 1, "miners: two figures on one raft"
        assert 0 <= self.loco < len(board.track)


Eureka = EurekaGame  # alias for one release

"""Chinagold's rules: the game, its configuration and its states.

A turn is one chance node (the throw of the discs still in play) and one decision (turn
exactly the thrown number of face-down markers in a straight line, or rebury one gold
nugget, or pass when neither is possible). Once at most one way is left to turn 3
markers in a line, nobody throws: the player chooses to turn 1 or 2 adjacent markers.

The board is three bit masks over the 91 spots: face-down markers (``hidden``), face-up
gold on the board (``gold``), and the rest, cleared spots whose gold was carried away.

>>> from motherlode.games.chinagold import ChinagoldGame
>>> game = ChinagoldGame.from_config()  # what motherlode.load("chinagold") returns
>>> state = game.new_initial_state()
>>> [(total, round(p, 4)) for total, p in state.chance_outcomes()]
[(1, 0.1213), (2, 0.2475), (3, 0.25), (4, 0.2525), (5, 0.1288)]
>>> state.apply_string("throw 3")
3
>>> state.apply_string("turn f4-f6")
364
>>> state.serialize().split("/")[5]  # the middle row, then seat, throw, gold, turn
'oooGGGooooo'
>>> state.serialize().split()[1:]
['P2', '?', '0,0', '1']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal, Self

import numpy as np
from pydantic import Field

from motherlode.core.errors import ConfigError
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games.chinagold.board import (
    ALL_SPOTS,
    BOARD,
    NUM_SPOTS,
    SPOT_NAMES,
    Layout,
    Mask,
    Spot,
    WindowMasks,
    count_ways,
    load_layout,
    mask_of,
    windows_within,
)

NUM_TURNINGS = BOARD.num_turnings  # 853: 91 singles, then lines of 2..5
REBURY_BASE = NUM_TURNINGS  # rebury spot s: REBURY_BASE + s
PASS = REBURY_BASE + NUM_SPOTS  # 944
NUM_ACTIONS = PASS + 1

DISCS: dict[str, tuple[int, int]] = {"0/1": (0, 1), "0/2": (0, 2), "1/2": (1, 2)}
"""The three throwing discs (rulebook: game components)."""

STAGE_DISCS: dict[int, tuple[str, ...]] = {
    3: ("0/1", "0/2", "1/2"),  # the start: totals 1..5
    2: ("0/2", "1/2"),  # at most one way left to turn 5: totals 1..4
    1: ("0/1", "1/2"),  # at most one way left to turn 4: totals 1..3
    0: (),  # at most one way left to turn 3: no throw, choose 1 or 2 markers
}
"""Which discs are thrown at each stage of "Reducing the Throwing Discs"."""


def throw_distribution(discs: tuple[str, ...], edge: float) -> list[tuple[int, float]]:
    """``(total, probability)`` of throwing ``discs``; a disc on its edge counts its higher number.

    >>> throw_distribution(("0/1", "1/2"), 0.0)
    [(1, 0.25), (2, 0.5), (3, 0.25)]
    """
    dist: dict[int, float] = {0: 1.0}
    for name in discs:
        low, high = DISCS[name]
        p_low = (1.0 - edge) / 2.0
        p_high = 1.0 - p_low  # the face up, or the edge
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            nxt[total + low] = nxt.get(total + low, 0.0) + p * p_low
            nxt[total + high] = nxt.get(total + high, 0.0) + p * p_high
        dist = nxt
    return sorted(dist.items())


def stage_of(hidden: Mask, masks: WindowMasks | None = None) -> int:
    """3, 2, 1 or 0: the discs in play for the face-down markers ``hidden`` (``masks``:
    the windows to count, default the whole board's; a region subset's are fewer)."""
    if count_ways(hidden, 5, 2, masks) >= 2:
        return 3
    if count_ways(hidden, 4, 2, masks) >= 2:
        return 2
    if count_ways(hidden, 3, 2, masks) >= 2:
        return 1
    return 0


def regions_in_play(layout: Layout, regions: str) -> Mask:
    """The spots of the mountains (``A``..``Q``) and rivers (``a``..``q``) named in
    ``regions`` (spaces and commas ignored; empty: all 91); a bad name is a
    :class:`ConfigError`.

    >>> from motherlode.games.chinagold.board import spots_of
    >>> game = ChinagoldGame.from_config()
    >>> [SPOT_NAMES[s] for s in spots_of(regions_in_play(game.layout, "A"))]
    ['a6', 'a7', 'b5', 'b6', 'b7', 'c4', 'c5']
    """
    letters = [ch for ch in regions if ch not in " ,"]
    if not letters:
        return ALL_SPOTS
    n = len(layout.mountains)
    mask = 0
    for i, ch in enumerate(letters):
        if ch in letters[:i]:
            raise ConfigError(f"invalid chinagold config: regions: {ch!r} is named twice")
        if "A" <= ch < chr(ord("A") + n):
            mask |= mask_of(layout.mountains[ord(ch) - ord("A")])
        elif "a" <= ch < chr(ord("a") + n):
            mask |= mask_of(layout.rivers[ord(ch) - ord("a")])
        else:
            raise ConfigError(
                f"invalid chinagold config: regions: {ch!r} is no area; name mountains"
                f" A..{chr(ord('A') + n - 1)} and rivers a..{chr(ord('a') + n - 1)}, e.g. 'AB'"
            )
    return mask


class ChinagoldConfig(GameConfig):
    """Options of Chinagold (two players)."""

    players: int = Field(2, description="number of players (Chinagold is for exactly 2)")
    layout_file: str | None = Field(
        None,
        description="path of a layout JSON file (a transcription of your printed board);"
        " default: the packaged designed layout (data/layout.json)",
    )
    river_rotation: int = Field(
        0,
        ge=0,
        le=5,
        description="orientation of the two-part board's river disc: the mirrored rivers"
        " turned by this many 60-degree steps (0 = the one-piece board)",
    )
    mountains_player: int = Field(
        0, ge=0, le=1, description="the seat that prospects in the mountains (the other: rivers)"
    )
    first_player: int = Field(
        0, ge=0, le=1, description="the seat that begins (the one greediest for gold)"
    )
    edge_probability: float = Field(
        0.01,
        ge=0.0,
        lt=1.0,
        description="chance that a thrown disc lands on its edge (it then counts its higher"
        " number); designed, small but non-zero",
    )
    regions: str = Field(
        "",
        description="a region subset of the board, for small solvable games: the mountains"
        " (A..Q) and rivers (a..q) whose spots are in play, e.g. 'AB' (spaces and commas"
        " ignored); the other spots hold no marker. Empty: the whole board",
    )
    max_turns: int = Field(
        500,
        ge=1,
        le=100_000,
        description="turn limit against endless reburial; at the limit the game ends and the"
        " gold collected so far decides",
    )


@lru_cache(maxsize=32)
def _layout(path: str | None, rotation: int) -> Layout:
    return load_layout(path, rotation)


class ChinagoldGame(Game):
    """Chinagold (Günter Cornett, Bambus 2004): prospecting gold in mountains and rivers."""

    name = "chinagold"
    Config = ChinagoldConfig
    min_players = 2
    max_players = 2

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        assert isinstance(config, ChinagoldConfig)
        self.cfg: ChinagoldConfig = config
        self.layout = _layout(config.layout_file, config.river_rotation)
        self.mountain_masks: tuple[Mask, ...] = tuple(mask_of(r) for r in self.layout.mountains)
        self.river_masks: tuple[Mask, ...] = tuple(mask_of(r) for r in self.layout.rivers)
        self.mountain_of = self.layout.mountain_of()
        self.river_of = self.layout.river_of()
        # the areas of each seat: masks, and the area mask of each spot
        mp = config.mountains_player
        self.area_masks: tuple[tuple[Mask, ...], tuple[Mask, ...]] = (
            (self.mountain_masks, self.river_masks)
            if mp == 0
            else (self.river_masks, self.mountain_masks)
        )
        self.spot_area: tuple[tuple[Mask, ...], tuple[Mask, ...]] = (
            tuple(self.area_masks[0][self._area_index(0, s)] for s in range(NUM_SPOTS)),
            tuple(self.area_masks[1][self._area_index(1, s)] for s in range(NUM_SPOTS)),
        )
        self.in_play: Mask = regions_in_play(self.layout, config.regions)
        self.num_nuggets: int = self.in_play.bit_count()
        # the windows on the spots in play (the board's own on the whole board)
        self.window_masks: WindowMasks = windows_within(self.in_play)
        self.initial_stage: int = stage_of(self.in_play, self.window_masks)
        self.throws: dict[int, list[tuple[int, float]]] = {
            st: throw_distribution(d, config.edge_probability) for st, d in STAGE_DISCS.items()
        }

    def _area_index(self, seat: int, spot: Spot) -> int:
        """The index of the area of ``seat`` (its mountain or its river) holding ``spot``."""
        return self.mountain_of[spot] if seat == self.cfg.mountains_player else self.river_of[spot]

    def role(self, seat: int) -> Literal["mountains", "rivers"]:
        return "mountains" if seat == self.cfg.mountains_player else "rivers"

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [
            {"players": 2},
            {"players": 2, "river_rotation": 3, "mountains_player": 1, "first_player": 1},
            {"players": 2, "river_rotation": 1, "edge_probability": 0.2, "max_turns": 40},
        ]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return 6

    @property
    def max_game_length(self) -> int:
        return 2 * self.cfg.max_turns

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (OBS_PLANES * NUM_SPOTS + OBS_GLOBALS,)

    def observation_layout(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """The flat tensor's named slices, ``(name, offset, shape)``, in order.

        Per-spot planes are ``(planes, spots)`` (the 91 spots in notation order):
        ``spots`` is face-down / face-up gold / cleared (one-hot); ``areas`` counts, in
        the area of each spot, the face-down markers of the observer's area, then the
        opponent's, then the face-up gold of each (each count / 8). ``throw`` is the
        thrown number one-hot (0: none), ``stage`` the discs stage (0: over),
        ``gold`` each seat's nuggets / 91 (observer first), ``turn`` turns / limit,
        ``to_move`` and ``mountains`` whether the observer moves and plays the mountains.

        >>> ChinagoldGame.from_config().observation_layout()[:2]
        [('spots', 0, (3, 91)), ('areas', 273, (4, 91))]
        """
        parts: list[tuple[str, tuple[int, ...]]] = [
            ("spots", (3, NUM_SPOTS)),
            ("areas", (4, NUM_SPOTS)),
            ("throw", (6,)),
            ("stage", (4,)),
            ("gold", (2,)),
            ("turn", (1,)),
            ("to_move", (1,)),
            ("mountains", (1,)),
        ]
        out, offset = [], 0
        for name, shape in parts:
            out.append((name, offset, shape))
            offset += shape[0] * (shape[1] if len(shape) > 1 else 1)
        return out

    def observation_bounds(self) -> dict[str, tuple[Any, Any]]:
        """Each slice's ``(low, high)``: everything is a flag or a fraction in [0, 1],
        but the area counts, up to the largest area's spots / 8.

        >>> ChinagoldGame.from_config().observation_bounds()["areas"]
        (0.0, 1.0)
        """
        largest = max(m.bit_count() for seat in self.spot_area for m in seat)
        bounds: dict[str, tuple[Any, Any]] = {
            n: (0.0, 1.0) for n, _, _ in self.observation_layout()
        }
        bounds["areas"] = (0.0, largest / 8.0)
        return bounds

    _area_matrix_cache: dict[int, np.ndarray]

    def _area_matrix(self, me: int) -> np.ndarray:
        """``(2 * 91, 91)`` 0/1: row ``s`` the spots of the area of spot ``s`` of ``me``, row
        ``91 + s`` the opponent's: the tensor's area counts are one product with it."""
        try:
            cache = self._area_matrix_cache
        except AttributeError:
            cache = self._area_matrix_cache = {}
        if me not in cache:
            rows = [*self.spot_area[me], *self.spot_area[me ^ 1]]
            cache[me] = np.array(
                [[m >> t & 1 for t in range(NUM_SPOTS)] for m in rows], dtype=np.float32
            )
        return cache[me]

    def new_initial_state(self) -> ChinagoldState:
        return ChinagoldState(self)


OBS_PLANES = 7
OBS_GLOBALS = 15


class ChinagoldState(State):
    """A Chinagold position. See ``docs/rules/chinagold.md`` for the notation."""

    game: ChinagoldGame

    def __init__(self, game: ChinagoldGame) -> None:
        super().__init__(game)
        self.hidden: Mask = game.in_play  # face-down markers (all 91 but for `regions`)
        self.gold: Mask = 0  # face-up gold still on the board
        self.collected: list[int] = [0, 0]
        self.player: int = game.cfg.first_player
        self.roll: int = 0  # the thrown total, 0 before the throw (or with no throw)
        self.turn: int = 0  # decisions made so far
        self.stage: int = game.initial_stage  # 3 on the whole board
        self.over: bool = False

    # -- hooks --------------------------------------------------------------------------

    def current_player(self) -> Player:
        if self.over:
            return TERMINAL
        if self.roll == 0 and self.stage:
            return CHANCE
        return self.player

    def _legal_actions(self) -> list[Action]:
        hidden = self.hidden
        masks = self.game.window_masks
        if self.stage == 0:
            return [a for a, m in masks[1] if hidden & m] + [
                a for a, m in masks[2] if hidden & m == m
            ]
        out = [a for a, m in masks[self.roll] if hidden & m == m]
        gold = self.gold
        while gold:
            low = gold & -gold
            out.append(REBURY_BASE + low.bit_length() - 1)
            gold ^= low
        if not out:
            out.append(PASS)
        return out

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(self.game.throws[self.stage])

    def _apply_action(self, action: Action) -> None:
        if self.roll == 0 and self.stage:
            self.roll = action  # the throw
            return
        if action < NUM_TURNINGS:
            self._turn_markers(BOARD.all_windows[action].mask)
        elif action < PASS:
            bit = 1 << (action - REBURY_BASE)
            self.gold ^= bit
            self.hidden |= bit
        self.player ^= 1
        self.roll = 0
        self.turn += 1
        self.stage = stage_of(self.hidden, self.game.window_masks)
        if self.hidden == 0 or self.turn >= self.game.cfg.max_turns:
            self.over = True

    def _turn_markers(self, mask: Mask) -> None:
        """Turn ``mask`` to gold, then carry away the gold of every area it completed.

        The mover collects first (every completed area of theirs), then the opponent (what
        is left in every completed area of theirs).
        """
        hidden = self.hidden ^ mask
        self.hidden = hidden
        gold = self.gold | mask
        me = self.player
        for seat in (me, me ^ 1):
            areas = self.game.spot_area[seat]
            done = 0
            m = mask
            while m:
                low = m & -m
                area = areas[low.bit_length() - 1]
                if not area & hidden:
                    done |= area
                m ^= low
            if done:
                take = gold & done
                self.collected[seat] += take.bit_count()
                gold ^= take
        self.gold = gold

    def scores(self) -> list[float]:
        return [float(self.collected[0]), float(self.collected[1])]

    def termination(self) -> str:
        """Why the finished game ended: every spot cleared (the rulebook's end), or the turn
        limit; empty while it runs."""
        if not self.over:
            return ""
        if self.hidden == 0:
            return "all prospecting spots have been cleared"
        return (
            f"the turn limit of {self.game.cfg.max_turns} turns was reached;"
            " the gold collected so far decides"
        )

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.game = self.game
        new._history = self._history.copy()
        new.hidden = self.hidden
        new.gold = self.gold
        new.collected = self.collected.copy()
        new.player = self.player
        new.roll = self.roll
        new.turn = self.turn
        new.stage = self.stage
        new.over = self.over
        return new

    def transposition_key(self) -> Any:
        """The face-down markers, the gold on the board, P1's gold, the throw and the turn:
        the rest follows from them (P2's gold from the 91 nuggets, the seat to move from
        the turn, the discs in play from the markers)."""
        return (self.hidden, self.gold, self.collected[0], self.roll, self.turn)

    # -- derived queries ------------------------------------------------------------------

    def discs(self) -> tuple[str, ...]:
        """The throwing discs in play now."""
        return STAGE_DISCS[self.stage]

    def spot_state(self, spot: Spot) -> Literal["hidden", "gold", "cleared"]:
        if self.hidden >> spot & 1:
            return "hidden"
        if self.gold >> spot & 1:
            return "gold"
        return "cleared"

    def ways(self) -> dict[int, int]:
        """The number of ways left to turn 5, 4 and 3 markers in a line."""
        return {k: count_ways(self.hidden, k, 10**6, self.game.window_masks) for k in (5, 4, 3)}

    def check_invariants(self) -> None:
        hidden, gold = self.hidden, self.gold
        assert hidden & gold == 0, "a spot is both face down and gold"
        assert (hidden | gold) & ~self.game.in_play == 0, "a marker off the board"
        on_board = (hidden | gold).bit_count()
        assert on_board + sum(self.collected) == self.game.num_nuggets, "nuggets not accounted for"
        for seat in (0, 1):
            for area in self.game.area_masks[seat]:
                assert not (area & gold and not area & hidden), "an uncollected complete area"
        stage = stage_of(hidden, self.game.window_masks)
        assert self.stage == stage, "discs in play do not match the board"
        if not self.over and self.roll:
            assert self.roll in dict(self.game.throws[self.stage]), "impossible throw"

    # -- views ----------------------------------------------------------------------------

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        game = self.game
        cp = self.current_player()
        phase = "over" if cp == TERMINAL else "throw" if cp == CHANCE else "choose"
        spots = []
        for s in range(NUM_SPOTS):
            spots.append(
                {
                    "spot": SPOT_NAMES[s],
                    "state": self.spot_state(s),
                    "mountain": chr(ord("A") + game.mountain_of[s]),
                    "river": chr(ord("a") + game.river_of[s]),
                }
            )
        ways = self.ways()
        return {
            "game": "chinagold",
            "seat": player,
            "to_move": cp if cp >= 0 else None,
            "next_seat": self.player,
            "phase": phase,
            "throw": self.roll or None,
            "discs": list(self.discs()) if not self.over else [],
            "free_choice": phase == "choose" and self.stage == 0,
            "ways": {"5": ways[5], "4": ways[4], "3": ways[3]},
            "roles": {
                "mountains": game.cfg.mountains_player,
                "rivers": 1 - game.cfg.mountains_player,
            },
            "gold": list(self.collected),
            "turn": self.turn,
            "turn_limit": game.cfg.max_turns,
            "spots": spots,
            "position": self.serialize(),
        }

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """The layout of :meth:`ChinagoldGame.observation_layout`; a spectator sees seat 0's.

        The masks are unpacked to bits in one numpy call and the area counts are one
        matrix product (exact: sums of 0/1 in float32), not 91 Python iterations.
        """
        game = self.game
        me = 0 if player is None else player
        opp = me ^ 1
        hidden, gold = self.hidden, self.gold
        masks = (hidden, gold & ~hidden, ALL_SPOTS & ~(hidden | gold), gold)
        raw = b"".join([m.to_bytes(12, "little") for m in masks])
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
        bits = bits.reshape(4, 96)[:, :NUM_SPOTS].astype(np.float32)
        counts = game._area_matrix(me) @ bits[[0, 3]].T  # (182, 2): mine, theirs x hidden, gold
        out = np.zeros(OBS_PLANES * NUM_SPOTS + OBS_GLOBALS, dtype=np.float32)
        out[: 3 * NUM_SPOTS] = bits[:3].reshape(-1)
        out[3 * NUM_SPOTS : 7 * NUM_SPOTS] = counts.T.reshape(-1) / 8.0
        g = OBS_PLANES * NUM_SPOTS
        out[g + self.roll] = 1.0  # 0..5
        out[g + 6 + (0 if self.over else self.stage)] = 1.0  # 6..9
        out[g + 10] = self.collected[me] / NUM_SPOTS
        out[g + 11] = self.collected[opp] / NUM_SPOTS
        out[g + 12] = self.turn / game.cfg.max_turns
        out[g + 13] = 1.0 if self.current_player() == me else 0.0
        out[g + 14] = 1.0 if game.cfg.mountains_player == me else 0.0
        return out


Chinagold = ChinagoldGame  # alias for one release

__all__ = [
    "NUM_ACTIONS",
    "PASS",
    "REBURY_BASE",
    "Chinagold",
    "ChinagoldConfig",
    "ChinagoldGame",
    "ChinagoldState",
    "regions_in_play",
    "stage_of",
    "throw_distribution",
]

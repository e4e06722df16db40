"""Yukon and its Townsfolk expansion: the rules (../shared/rulebooks/yukon.txt).

The grid, in reading order (``a1`` is the top-left card, letters are columns)::

    #     a  b  c  d  e  f  g
    # 1   0  1  2  3  4  5  6
    # 2   7  8  9 10 11 12 13
    # ...
    # 7  42 43 44 45 46 47 48
    grid: list[Kind]   # a card kind (cards.py), EMPTY, or UNDEALT during the deal

Turn structure: a turn is one *take* action (a card in the Prospector's line, or one of
the Townsfolk abilities), possibly followed by the decision or chance node the taken card
calls for (Trapper/Goldsmith discard, Commander reclaim, Teacher's victim and draw, Pan
disc). Direction alternates per move (``axis``), as "Each following player always takes
their card in the direction perpendicular to the previous move".

Decision action ids (N = cells)::

    [0, N)        take the card at cell c in the required line           "c4"
    [N, 2N)       take c in the other line, using a Courier               "courier c4"
    [2N, 3N)      take c diagonally, using an Innkeeper                   "innkeeper c4"
    [3N, 7N)      Telegraph: Prospector onto X, take its neighbour d      "telegraph c4 c5"
    7N + k        discard card kind k (k < 16; Trapper: gold, Goldsmith: pebble) "discard +8"
    7N + 16 + k   Commander: reclaim the discarded Gold kind k            "reclaim +8"
    7N + 24       Commander: keep it for the end instead                  "keep commander"
    7N + 25 + p   Teacher: draw a card from player p                      "teach P2"

Chance outcome ids::

    k  (0..26)    deal card kind k onto the next cell                     "deal +8"
    27 + i        the Pan's top disc shows the i-th distinct disc value   "disc 2"
    36 + k        the Teacher draws card kind k from the victim           "draw -5"
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np
from pydantic import Field, model_validator

from motherlode.core.errors import NotationError
from motherlode.core.memo import legal_texts
from motherlode.core.memo import scores as memo_scores
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.cards import EMPTY, PAN, PEBBLE0, SHERIFF, TOWNSFOLK0, UNDEALT

ROW, COL, ANY = 0, 1, 2
AXIS_NAMES = ("row", "col", "any")

# Pending sub-decisions after a take (who decides: the taker; chance for draws).
NONE, TRAP, SMITH, CMDR, TEACH, TEACH_DRAW, PAN_DRAW = range(7)
PENDING_NAMES = ("-", "trapper", "goldsmith", "commander", "teacher", "draw", "pan")

# Telegraph neighbour directions: up, down, left, right.
TELE_DIRS = ("up", "down", "left", "right")

# Chance id offsets.
DISC0 = 27
DRAW0 = 36
MAX_CHANCE = 52


class YukonConfig(GameConfig):
    """Options of Yukon."""

    players: int = Field(2, description="2, 3 or 4 players (4 in the base game: two pairs)")
    expansion: bool = Field(
        False, description="Townsfolk expansion: 8x8 grid with 15 Townsfolk, every player alone"
    )
    pan_discs: tuple[int, ...] | None = Field(
        None,
        description="the 9 Gold nugget disc values (designed default 1,1,1,2,2,2,3,3,3)",
    )
    first_player: int = Field(
        0,
        ge=0,
        description="the seat that begins (the player who most recently stepped into a river)",
    )

    @model_validator(mode="after")
    def _check_discs(self) -> Self:
        if self.pan_discs is not None and (
            len(self.pan_discs) != 9 or any(v <= 0 for v in self.pan_discs)
        ):
            raise ValueError("pan_discs must be 9 positive integers")
        if self.first_player >= self.players:
            raise ValueError(
                f"first_player is a seat 0..{self.players - 1} (got {self.first_player})"
            )
        return self


class YukonGame(Game):
    """Yukon, base game or with the Townsfolk expansion.

    >>> import motherlode
    >>> game = motherlode.load("yukon", players=3, expansion=True)
    >>> game.size, game.num_distinct_actions
    (8, 477)
    """

    name: ClassVar[str] = "yukon"
    Config: ClassVar[type[GameConfig]] = YukonConfig
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        assert isinstance(config, YukonConfig)
        comp = C.components()
        self.expansion: bool = config.expansion
        self.size: int = comp.expansion_grid_size if config.expansion else comp.grid_size
        self.cells: int = self.size * self.size
        self.teams: bool = config.players == 4 and not config.expansion
        self.first_player: int = config.first_player
        self.prospector_points: int = comp.prospector_points
        discs = tuple(sorted(config.pan_discs)) if config.pan_discs else comp.pan_disc_values
        self.disc_values: tuple[int, ...] = tuple(sorted(set(discs)))
        self.disc_counts: tuple[int, ...] = tuple(discs.count(v) for v in self.disc_values)
        self.discs_per_pan: int = comp.discs_per_pan
        # The deck: counts per kind; Townsfolk are drawn into `townsfolk_slots` places.
        deck = [0] * C.NUM_KINDS
        for k in range(SHERIFF):
            deck[k] = comp.copies
        deck[SHERIFF] = 1
        if config.expansion:
            for k in range(TOWNSFOLK0, EMPTY):
                deck[k] = comp.townsfolk_copies
        self.deck: tuple[int, ...] = tuple(deck)
        self.townsfolk_slots: int = comp.townsfolk_drawn if config.expansion else 0
        self._build_lines()
        self._fresh: YukonState | None = None  # new_initial_state copies it
        self.seats: int = config.players  # num_players, read at every take (no property)
        self._tensor_constants()

    def _tensor_constants(self) -> None:
        """What the tensor takes ready-made: the seat slots per observer (observer first)
        and the base game's globals per axis (the empty slots, the axis, nothing pending,
        clockwise, nothing beside the area, no Pan)."""
        n = self.seats
        self.observer_first: tuple[tuple[int, ...], ...] = tuple(
            (*range(me, n), *range(me)) for me in range(n)
        )
        self.base_globals: tuple[bytes, ...] = tuple(
            bytes(44 * (4 - n))
            + bytes(a == axis for a in range(3))
            + b"\x01"
            + bytes(6)
            + b"\x01"
            + bytes(27)
            for axis in range(3)
        )

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [{"players": n, "expansion": e} for e in (False, True) for n in (2, 3, 4)] + [
            {"players": 3, "expansion": True, "first_player": 2}
        ]

    def _build_lines(self) -> None:
        n = self.size
        rows, cols, diags = [], [], []
        for cell in range(self.cells):
            r, c = divmod(cell, n)
            rows.append(tuple(r * n + k for k in range(n) if k != c))
            cols.append(tuple(k * n + c for k in range(n) if k != r))
            d = []
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                rr, cc = r + dr, c + dc
                while 0 <= rr < n and 0 <= cc < n:
                    d.append(rr * n + cc)
                    rr, cc = rr + dr, cc + dc
            diags.append(tuple(sorted(d)))
        self.row_cells: tuple[tuple[int, ...], ...] = tuple(rows)
        self.col_cells: tuple[tuple[int, ...], ...] = tuple(cols)
        self.diag_cells: tuple[tuple[int, ...], ...] = tuple(diags)
        # the row and the column together, sorted (the first take may be in either)
        self.cross_cells: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(r + c)) for r, c in zip(rows, cols, strict=True)
        )
        # the line a take must be in, by axis (ROW, COL, ANY): lines[axis][cell]
        self.lines = (self.row_cells, self.col_cells, self.cross_cells)
        # neighbour[cell][d] for d in up, down, left, right (-1 off the grid)
        nb = []
        for cell in range(self.cells):
            r, c = divmod(cell, n)
            nb.append(
                (
                    cell - n if r > 0 else -1,
                    cell + n if r < n - 1 else -1,
                    cell - 1 if c > 0 else -1,
                    cell + 1 if c < n - 1 else -1,
                )
            )
        self.neighbour: tuple[tuple[int, int, int, int], ...] = tuple(nb)

    # -- action id layout -----------------------------------------------------------

    @property
    def courier0(self) -> int:
        return self.cells

    @property
    def inn0(self) -> int:
        return 2 * self.cells

    @property
    def tele0(self) -> int:
        return 3 * self.cells

    @property
    def discard0(self) -> int:
        return 7 * self.cells

    @property
    def reclaim0(self) -> int:
        return 7 * self.cells + 16

    @property
    def keep_commander(self) -> int:
        return 7 * self.cells + 24

    @property
    def teach0(self) -> int:
        return 7 * self.cells + 25

    @property
    def num_distinct_actions(self) -> int:
        return 7 * self.cells + 29

    @property
    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE

    @property
    def max_game_length(self) -> int:
        # the deal, then per card at most a take, a decision and a chance draw, + Pan visits
        return self.cells + 3 * self.cells + 3 * 3 * self.discs_per_pan

    @property
    def min_utility(self) -> float:
        return -1.0

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (self._tensor_size(),)

    def observation_layout(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """The flat tensor's named slices, ``(name, offset, shape)``, in order.

        ``cells`` is spatial, ``(rows, columns, planes)``: per cell the 29 kind planes
        (27 kinds, empty, undealt) and the Prospector; ``players`` is per seat slot (4),
        observer first (slot ``k`` is seat ``(observer + k) % players``, a spectator's
        slot ``k`` seat ``k``; slots past the player count are zero): pile 16, front 10,
        taught 16, discs 1, to-move 1.

        >>> [(n, o, s) for n, o, s in YukonGame(YukonConfig()).observation_layout()][:2]
        [('cells', 0, (7, 7, 30)), ('players', 1470, (4, 44))]
        """
        parts: list[tuple[str, tuple[int, ...]]] = [
            ("cells", (self.size, self.size, 30)),
            ("players", (4, 44)),
            ("axis", (3,)),
            ("pending", (7,)),
            ("order", (1,)),
            ("beside", (26,)),
            ("pan_discs_left", (1,)),
        ]
        out, offset = [], 0
        for name, shape in parts:
            out.append((name, offset, shape))
            offset += math.prod(shape)
        return out

    def observation_bounds(self) -> dict[str, tuple[Any, Any]]:
        """Each slice's ``(low, high)``: flags 0..1, counts up to the copies the game has
        of that kind, discs up to all the discs' points, ``order`` -1 or +1.

        >>> YukonGame(YukonConfig()).observation_bounds()["pan_discs_left"]
        (0.0, 9.0)
        """
        deck = self.deck
        points = sum(v * c for v, c in zip(self.disc_values, self.disc_counts, strict=True))
        slot = (*deck[:16], *deck[TOWNSFOLK0:EMPTY], *deck[:16], points, 1)
        return {
            "cells": (0.0, 1.0),
            "players": (0.0, slot),
            "axis": (0.0, 1.0),
            "pending": (0.0, 1.0),
            "order": (-1.0, 1.0),
            "beside": (0.0, deck[:26]),
            "pan_discs_left": (0.0, float(sum(self.disc_counts))),
        }

    def _tensor_size(self) -> int:
        # per cell: 29 kind planes (27 kinds, empty, undealt) + prospector
        # per seat slot (4, observer first): pile 16, front 10, taught 16, discs 1, to-move 1
        # globals: axis 3, pending 7, order 1, beside 26, pan discs left 1
        return self.cells * 30 + 4 * 44 + 3 + 7 + 1 + 26 + 1

    def new_initial_state(self) -> YukonState:
        # a copy of one fresh state made once: cheaper than building every list again
        fresh = self._fresh
        if fresh is None:
            fresh = self._fresh = YukonState(self)
            fresh._base_cards()  # its copies start with the card list (sample_chance's)
        return fresh.clone()

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.size)
        return f"{chr(ord('a') + c)}{r + 1}"

    def parse_cell(self, text: str) -> int:
        text = text.strip().lower()
        if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
            c = ord(text[0]) - ord("a")
            r = int(text[1:]) - 1
            if 0 <= c < self.size and 0 <= r < self.size:
                return r * self.size + c
        last = chr(ord("a") + self.size - 1)
        raise NotationError(
            f"yukon: {text!r} is not a cell of the {self.size}x{self.size} grid"
            f" (a1..{last}{self.size})"
        )


class YukonState(State):
    """A Yukon position. See the module docstring for the layout and the action ids."""

    game: YukonGame

    def __init__(self, game: YukonGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.grid: list[int] = [UNDEALT] * game.cells
        self.deck: list[int] = list(game.deck)  # cards not yet dealt, by kind
        self._cards_cache: list[int] | None = None  # the same, one entry per base card
        self._takes_cache: list[int] | None = None  # legal takes of the player to move
        self.dealt = 0
        self.townsfolk_slots = game.townsfolk_slots  # Townsfolk places left in the deal
        self.pos = -1  # the Prospector's cell (-1 during the deal)
        self.player = game.first_player
        self.order = 1  # +1 clockwise, -1 after an odd number of Jailers
        self.axis = ANY  # the line the next take must be in
        self.last = -1  # the seat that moved last (receives the Prospector at the end)
        self.pending = NONE
        self.pending_arg = -1  # the Teacher's victim
        self.over = False
        self.pile: list[list[int]] = [[0] * 16 for _ in range(n)]  # Gold/Pebble collected
        self.front: list[list[int]] = [[0] * 10 for _ in range(n)]  # Townsfolk kept, unused
        self.taught: list[list[int]] = [[0] * 16 for _ in range(n)]  # cards the Teacher drew
        self.discs: list[list[int]] = [[0] * len(game.disc_values) for _ in range(n)]
        self.beside: list[int] = [0] * C.NUM_KINDS  # discarded beside the playing area
        self.box: list[int] = [0] * C.NUM_KINDS  # used Townsfolk, emptied Pans, the Sheriff
        self.pan_left: dict[int, int] = {}  # cell -> discs still stacked on that Pan
        self.revealed: list[int] = [0] * len(game.disc_values)  # discs turned face up

    # -- protocol -------------------------------------------------------------------

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.game = self.game
        new._history = self._history.copy()
        new.grid = self.grid.copy()
        new.deck = self.deck.copy()
        new._cards_cache = None if self._cards_cache is None else self._cards_cache.copy()
        new._takes_cache = self._takes_cache  # never mutated: shared safely
        new.dealt = self.dealt
        new.townsfolk_slots = self.townsfolk_slots
        new.pos = self.pos
        new.player = self.player
        new.order = self.order
        new.axis = self.axis
        new.last = self.last
        new.pending = self.pending
        new.pending_arg = self.pending_arg
        new.over = self.over
        new.pile = list(map(list.copy, self.pile))
        new.front = list(map(list.copy, self.front))
        new.taught = list(map(list.copy, self.taught))
        new.discs = list(map(list.copy, self.discs))
        new.beside = self.beside.copy()
        new.box = self.box.copy()
        new.pan_left = self.pan_left.copy()
        new.revealed = self.revealed.copy()
        return new

    def current_player(self) -> Player:
        if self.over:
            return TERMINAL
        if self.dealt < self.game.cells or self.pending >= TEACH_DRAW:
            return CHANCE
        return self.player

    # the protocol's queries, each in one call (they run at every step of a playout)
    def is_terminal(self) -> bool:
        return self.over

    def is_chance_node(self) -> bool:
        return not self.over and (self.dealt < self.game.cells or self.pending >= TEACH_DRAW)

    def _legal_actions(self) -> list[Action]:
        g = self.game
        p = self.player
        pending = self.pending
        if pending == NONE:
            cached = self._takes_cache
            return cached.copy() if cached is not None else self._takes(p)
        if pending == TRAP:
            return [g.discard0 + k for k in range(PEBBLE0) if self.pile[p][k]]
        if pending == SMITH:
            return [g.discard0 + k for k in range(PEBBLE0, SHERIFF) if self.pile[p][k]]
        if pending == CMDR:
            return [g.reclaim0 + k for k in range(PEBBLE0) if self.beside[k]] + [g.keep_commander]
        # TEACH
        return [g.teach0 + q for q in self._teach_victims(p)]

    def _teach_victims(self, p: int) -> list[int]:
        return [q for q in range(self.game.num_players) if q != p and any(self.pile[q])]

    def _takes(self, p: int) -> list[Action]:
        g = self.game
        grid = self.grid
        pos = self.pos
        axis = self.axis
        # the row, the column, or both (sorted, so the list below is too)
        out = [c for c in g.lines[axis][pos] if grid[c] != EMPTY]
        if not g.expansion:
            return out
        front = self.front[p]
        if not (
            front[C.COURIER - TOWNSFOLK0]
            or front[C.INNKEEPER - TOWNSFOLK0]
            or front[C.TELEGRAPH - TOWNSFOLK0]
        ):
            return out
        normal = list(out)
        if front[C.COURIER - TOWNSFOLK0] and axis != ANY:
            other = g.col_cells[pos] if axis == ROW else g.row_cells[pos]
            out += [g.courier0 + c for c in other if grid[c] != EMPTY]
        if front[C.INNKEEPER - TOWNSFOLK0]:
            out += [g.inn0 + c for c in g.diag_cells[pos] if grid[c] != EMPTY]
        if front[C.TELEGRAPH - TOWNSFOLK0]:
            size = g.size
            for x in normal:
                along_row = x // size == pos // size
                for d in (2, 3) if along_row else (0, 1):
                    y = g.neighbour[x][d]
                    if y >= 0 and y != pos and grid[y] != EMPTY:
                        out.append(g.tele0 + 4 * x + d)
        out.sort()
        return out

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        g = self.game
        if self.dealt < g.cells:
            deck = self.deck
            base_left = sum(deck[:TOWNSFOLK0])
            slots = self.townsfolk_slots
            total = base_left + slots
            out = [(k, deck[k] / total) for k in range(TOWNSFOLK0) if deck[k]]
            if slots:
                tf_left = sum(deck[TOWNSFOLK0:])
                share = slots / total
                out += [(k, share * deck[k] / tf_left) for k in range(TOWNSFOLK0, EMPTY) if deck[k]]
            return out
        if self.pending == PAN_DRAW:
            left = [c - r for c, r in zip(g.disc_counts, self.revealed, strict=True)]
            total = sum(left)
            return [(DISC0 + i, n / total) for i, n in enumerate(left) if n]
        # TEACH_DRAW: a card drawn at random from the victim's Gold and Pebble cards
        victim = self.pile[self.pending_arg]
        total = sum(victim)
        return [(DRAW0 + k, n / total) for k, n in enumerate(victim) if n]

    def sample_chance(self, rng: random.Random) -> Action:
        cards = self._cards_cache
        if cards and not self.townsfolk_slots and type(rng) is random.Random:
            # a base card to deal (the list is not empty only during the deal) and no
            # Townsfolk place left: one uniform pick. randrange(n), n > 0, is random.py's
            # _randbelow_with_getrandbits(n) for a plain Random: the same loop here, the
            # same draw from the same stream, without two Python calls per card
            # (tests/perf replays the recorded games)
            n = len(cards)
            bits = n.bit_length()
            r = rng.getrandbits(bits)
            while r >= n:
                r = rng.getrandbits(bits)
            return cards[r]
        if self.dealt < self.game.cells:
            # fast path for the deal: one uniform pick among the cards left (base cards and
            # Townsfolk apart, as the 15 Townsfolk places are fixed)
            if self.townsfolk_slots:
                deck = self.deck
                base_left = self.game.cells - self.dealt - self.townsfolk_slots
                if rng.random() * (base_left + self.townsfolk_slots) >= base_left:
                    x = rng.randrange(sum(deck[TOWNSFOLK0:]))
                    for k in range(TOWNSFOLK0, EMPTY):
                        x -= deck[k]
                        if x < 0:
                            return k
            if cards is None:
                cards = self._base_cards()
            return cards[rng.randrange(len(cards))]
        return super().sample_chance(rng)

    def _base_cards(self) -> list[int]:
        """The Gold, Pebble and Sheriff cards not dealt yet, one entry per card, kept in
        ``_cards_cache`` (``_deal`` takes each dealt card out; a position read from its
        notation starts without it)."""
        deck = self.deck
        cards = [k for k in range(TOWNSFOLK0) for _ in range(deck[k])]
        self._cards_cache = cards
        return cards

    def _is_chance_outcome(self, action: Action) -> bool:
        if self.dealt < self.game.cells:  # a card kind still in the deck (Townsfolk: a place)
            if not 0 <= action < EMPTY or not self.deck[action]:
                return False
            return action < TOWNSFOLK0 or self.townsfolk_slots > 0
        return super()._is_chance_outcome(action)

    # The protocol's legal_actions and apply_unchecked, in one call on the paths a playout
    # takes at nearly every step (a take, a card dealt); the rest goes the general way.
    # _takes_cache is not None exactly when the deal is over and no decision is pending:
    # it is then the legal list ([] at the end), kept from the move before.
    def legal_actions(self) -> list[Action]:
        cached = self._takes_cache
        if cached is not None:
            return cached.copy()  # the caller's to change; the kept list is shared by clones
        return super().legal_actions()

    def apply_action(self, action: Action) -> None:
        # the checked path's two common cases: a take in the kept legal list, and a base
        # card still in the deck (always a possible deal); anything else, refusals
        # included, gets the protocol's full check
        if type(action) is int:
            cached = self._takes_cache
            if cached is not None:
                if action in cached:
                    self.apply_unchecked(action)
                    return
            elif self.dealt < self.game.cells and 0 <= action < TOWNSFOLK0 and self.deck[action]:
                self.apply_unchecked(action)
                return
        super().apply_action(action)

    def apply_unchecked(self, action: Action) -> None:
        dealt = self.dealt
        cells = self.game.cells
        if dealt < cells - 1 and action < TOWNSFOLK0:
            # a Gold, Pebble or Sheriff card, not the last: _deal's work, inlined (it is
            # most of a playout's steps); the last card and Townsfolk go through _deal
            self.grid[dealt] = action
            self.deck[action] -= 1
            cards = self._cards_cache
            if cards is not None:
                del cards[bisect_left(cards, action)]
            self.dealt = dealt + 1  # (no legal takes are kept during the deal)
        elif dealt < cells:
            self._deal(action)
        elif self.pending == NONE:
            self._takes_cache = None
            self._take(action)
        else:
            self._apply_action(action)
        self._history.append(action)

    def _apply_action(self, action: Action) -> None:
        g = self.game
        self._takes_cache = None
        if self.dealt < g.cells:
            self._deal(action)
            return
        pending = self.pending
        if pending == NONE:
            self._take(action)
            return
        p = self.player
        if pending in (TRAP, SMITH):
            k = action - g.discard0
            self.pile[p][k] -= 1
            self.beside[k] += 1
            self.beside[C.TRAPPER if pending == TRAP else C.GOLDSMITH] += 1
        elif pending == CMDR:
            if action == g.keep_commander:
                self.front[p][C.COMMANDER - TOWNSFOLK0] += 1
            else:
                k = action - g.reclaim0
                self.beside[k] -= 1
                self.pile[p][k] += 1
                self.box[C.COMMANDER] += 1
        elif pending == TEACH:
            self.pending = TEACH_DRAW
            self.pending_arg = action - g.teach0
            return
        elif pending == TEACH_DRAW:
            k = action - DRAW0
            self.pile[self.pending_arg][k] -= 1
            self.taught[p][k] += 1
        else:  # PAN_DRAW
            i = action - DISC0
            self.discs[p][i] += 1
            self.revealed[i] += 1
            left = self.pan_left[self.pos] - 1
            if left:
                self.pan_left[self.pos] = left
            else:
                del self.pan_left[self.pos]
                self.grid[self.pos] = EMPTY
                self.box[PAN] += 1
        self.pending = NONE
        self.pending_arg = -1
        self._end_turn(again=False)

    def transposition_key(self) -> Any:
        """Everything that decides the play from here, for search agents' tables: after
        the deal the deck is empty and the Townsfolk places are used up, and in the base
        game nothing but the grid, the Prospector, the turn and the piles ever changes.
        During the deal: ``None`` (agents then key the whole state)."""
        if self.dealt < self.game.cells:
            return None
        key = (
            bytes(self.grid),
            self.pos,
            self.player,
            self.axis,
            self.last,
            self.over,
            *map(bytes, self.pile),
        )
        if not self.game.expansion:
            return key
        return (
            key,
            self.order,
            self.pending,
            self.pending_arg,
            *map(bytes, self.front),
            *map(bytes, self.taught),
            *map(bytes, self.discs),
            bytes(self.beside),
            bytes(self.box),
            frozenset(self.pan_left.items()),
            bytes(self.revealed),
        )

    # -- rules ----------------------------------------------------------------------

    def _deal(self, kind: int) -> None:
        """Setup: lay the next card of the grid (reading order)."""
        g = self.game
        self.grid[self.dealt] = kind
        self.deck[kind] -= 1
        if kind < TOWNSFOLK0 and self._cards_cache is not None:
            # the list is in kind order: one of this kind goes, found by bisection (no scan)
            del self._cards_cache[bisect_left(self._cards_cache, kind)]
        if kind >= TOWNSFOLK0:
            self.townsfolk_slots -= 1
        self.dealt += 1
        if self.dealt == g.cells:
            # "Take the Sheriff card out and put the Prospector figure in its place."
            self.pos = self.grid.index(SHERIFF)
            self.grid[self.pos] = EMPTY
            self.box[SHERIFF] += 1
            # "stack 3 of them face down on each Pan card" (a scan only where there are Pans)
            if g.expansion:
                for cell, k in enumerate(self.grid):
                    if k == PAN:
                        self.pan_left[cell] = g.discs_per_pan
            self.deck = [0] * C.NUM_KINDS  # the undealt Townsfolk go back to the box
            self._check_end()

    def _take(self, action: int) -> None:
        g = self.game
        p = self.player
        cells = g.cells
        axis = self.axis
        size = g.size
        if action < cells:
            target = action
            used = -1
            moved_axis = (
                axis if axis != ANY else (ROW if target // size == self.pos // size else COL)
            )
        elif action < 2 * cells:
            target, used = action - cells, C.COURIER
            moved_axis = axis  # the Courier changes direction "for the current move only"
        elif action < 3 * cells:
            target, used = action - 2 * cells, C.INNKEEPER
            moved_axis = axis  # diagonal; the next player keeps the normal rule
        else:
            x, d = divmod(action - 3 * cells, 4)
            target, used = g.neighbour[x][d], C.TELEGRAPH
            moved_axis = axis if axis != ANY else (ROW if d >= 2 else COL)
        if used >= 0:
            self.front[p][used - TOWNSFOLK0] -= 1
            self.box[used] += 1
        self.axis = ANY if moved_axis == ANY else 1 - moved_axis
        self.last = p
        self.pos = target
        kind = self.grid[target]
        if kind == PAN:
            self.pending = PAN_DRAW  # the card stays until its last disc is taken
            return
        self.grid[target] = EMPTY
        if kind < SHERIFF:
            self.pile[p][kind] += 1
        elif kind == C.TRAPPER or kind == C.GOLDSMITH:
            lo = 0 if kind == C.TRAPPER else PEBBLE0
            if any(self.pile[p][lo : lo + 8]):
                self.pending = TRAP if kind == C.TRAPPER else SMITH
                return
            self.beside[kind] += 1  # nothing to give up: "discarded immediately"
        elif kind == C.COMMANDER:
            if any(self.beside[:PEBBLE0]):
                self.pending = CMDR
                return
            self.front[p][kind - TOWNSFOLK0] += 1
        elif kind == C.JAILER:
            self.front[p][kind - TOWNSFOLK0] += 1
            self.order = -self.order
            self._end_turn(again=True)
            return
        elif kind == C.TEACHER:
            self.front[p][kind - TOWNSFOLK0] += 1
            if self._teach_victims(p):
                self.pending = TEACH
                return
        else:  # Swindler, Courier, Innkeeper, Telegraph Operator: kept in front
            self.front[p][kind - TOWNSFOLK0] += 1
        # _end_turn(again=False) and _check_end, inlined (this is every plain take)
        self.player = q = (p + self.order) % g.seats
        if g.expansion:
            takes = self._takes_cache = self._takes(q)
        else:  # _takes without the Townsfolk: the cards left in the new line
            grid = self.grid
            takes = self._takes_cache = [c for c in g.lines[self.axis][target] if grid[c] != EMPTY]
        if not takes:
            self.over = True

    def _end_turn(self, again: bool) -> None:
        if not again:
            self.player = (self.player + self.order) % self.game.num_players
        self._check_end()

    def _check_end(self) -> None:
        """The game ends when the player to move cannot take any card."""
        takes = self._takes(self.player)
        self._takes_cache = takes  # the next legal_actions() call reuses it
        if not takes:
            self.over = True

    # -- scoring --------------------------------------------------------------------

    def has_prospector(self, p: int) -> bool:
        """True when ``p`` holds the Prospector figure (the game is over and ``p`` moved last)."""
        return self.over and self.last == p

    def points(self, p: int) -> int:
        """Points of seat ``p`` as the rulebook counts them (so far; the Prospector at the end)."""
        g = self.game
        pile = self.pile[p]
        pts = sum(n * C.POINTS[k] for k, n in enumerate(pile) if n)
        pts += sum(n * abs(C.POINTS[k]) for k, n in enumerate(self.taught[p]) if n)
        discs = self.discs[p]
        pts += sum(n * v for n, v in zip(discs, g.disc_values, strict=True))
        prospector = self.has_prospector(p)
        if prospector:
            pts += g.prospector_points
        if g.expansion:
            front = self.front[p]
            commanders = front[C.COMMANDER - TOWNSFOLK0]
            if commanders:
                pts += commanders * sum(discs) * (2 if prospector else 1)
            swindlers = front[C.SWINDLER - TOWNSFOLK0]
            if swindlers:
                pebbles = [
                    C.VALUES[k - PEBBLE0]
                    for k in range(SHERIFF - 1, PEBBLE0 - 1, -1)
                    for _ in range(pile[k])
                ]
                pts += sum(v - v // 2 for v in pebbles[:swindlers])
            couriers = front[C.COURIER - TOWNSFOLK0]
            if couriers:
                pts += couriers * sum(pile[PEBBLE0:SHERIFF])
            innkeepers = front[C.INNKEEPER - TOWNSFOLK0]
            if innkeepers:
                pts += innkeepers * sum(front)
            telegraphs = front[C.TELEGRAPH - TOWNSFOLK0]
            if telegraphs:
                pts += telegraphs * sum(1 for k in self.grid if k < PEBBLE0)
        return pts

    def scores(self) -> list[float]:
        return [float(self.points(p)) for p in range(self.game.num_players)]

    def termination(self) -> str:
        """Why the finished game ended (rulebook, End of the Game); empty while it runs."""
        if not self.over:
            return ""
        if all(k == EMPTY for k in self.grid):
            return "all the cards of the playing area have been taken"
        return (
            f"P{self.player + 1} cannot take a card: none is left in the Prospector's row or column"
        )

    def team_scores(self) -> list[float]:
        """Base game with 4 players: the totals of the pairs (seats 1+3, 2+4)."""
        s = self.scores()
        return [s[0] + s[2], s[1] + s[3]]

    def winners(self) -> tuple[Player, ...]:
        if self.game.teams:
            t = self.team_scores()
            best = max(t)
            return tuple(p for p in range(4) if t[p % 2] == best)
        return super().winners()

    # -- views ----------------------------------------------------------------------

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        g = self.game
        n = g.num_players
        tokens = C.TOKENS
        points = memo_scores(self)  # (the server's scores field reads the same list)
        return {
            "game": "yukon",
            "seat": player,
            "size": g.size,
            "grid": [
                [tokens[k] for k in self.grid[r * g.size : (r + 1) * g.size]]
                for r in range(g.size)
            ],
            "prospector": g.cell_name(self.pos) if self.pos >= 0 else None,
            "pans": {g.cell_name(c): n_ for c, n_ in sorted(self.pan_left.items())},
            "to_move": self.current_player(),
            "axis": AXIS_NAMES[self.axis],
            "order": "clockwise" if self.order == 1 else "counter-clockwise",
            "pending": PENDING_NAMES[self.pending],
            "teams": g.teams,
            "players": [
                {
                    "cards": _counts_to_tokens(self.pile[p]),
                    "townsfolk": _counts_to_tokens(self.front[p], TOWNSFOLK0),
                    "taught": _counts_to_tokens(self.taught[p]),
                    "discs": [
                        v
                        for v, c in zip(g.disc_values, self.discs[p], strict=True)
                        for _ in range(c)
                    ],
                    "points": int(points[p]),
                    "prospector": self.has_prospector(p),
                }
                for p in range(n)
            ],
            "beside": _counts_to_tokens(self.beside),
            "box": _counts_to_tokens(self.box),
            "discs_face_down": sum(self.pan_left.values()),
            # (listed once for the position where the server draws it: its buttons too)
            "legal": [text for _, text in legal_texts(self)],
            "terminal": self.over,
        }

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """The layout of :meth:`YukonGame.observation_layout`, observer first.

        Every value goes into one ``bytearray`` (the cells' planes kept from the last call
        and brought up to date, :meth:`_cell_planes`; a slot's counts its lists; -1 is the
        byte 255, read back as int8), converted to float32 at once: numpy's per-element
        writes cost several times more, and this tensor is every learner's hot path.
        Values past a signed byte (disc points of custom ``pan_discs``) are written
        afterwards.
        """
        g = self.game
        cp = self.current_player()
        raw = self._cell_planes()
        seats = g.observer_first[0 if player is None else player]
        pile = self.pile
        if not g.expansion:
            # no Townsfolk, taught cards, discs, Pans or cards beside (the notation refuses
            # them too), the order clockwise, nothing pending: those bytes are constants
            for p in seats:
                raw.extend(pile[p])
                raw += _BASE_SLOT_TAIL[p == cp]
            raw += g.base_globals[self.axis]
            return np.frombuffer(raw, np.int8).astype(np.float32)
        front, taught, discs = self.front, self.taught, self.discs
        late: list[tuple[int, int]] = []
        for p in seats:
            raw.extend(pile[p])
            raw.extend(front[p])
            raw.extend(taught[p])
            d = discs[p]
            points = sum([v * c for v, c in zip(g.disc_values, d, strict=True)]) if any(d) else 0
            if points > 127:
                late.append((len(raw), points))
                points = 0
            raw.append(points)
            raw.append(cp == p)
        raw += bytes(44 * (4 - g.num_players) + 10)  # the empty slots, axis and pending
        raw.append(self.order & 0xFF)  # +1 or -1
        raw += bytes(self.beside[:26])
        left = sum(self.pan_left.values()) if self.pan_left else 0
        raw.append(left if left < 128 else 0)
        o = g.cells * 30 + 4 * 44  # the globals
        raw[o + self.axis] = 1
        raw[o + 3 + self.pending] = 1
        t = np.frombuffer(raw, np.int8).astype(np.float32)
        for i, v in late:
            t[i] = v
        if left >= 128:
            t[o + 37] = left
        return t

    _planes_cache: tuple[int, int, bytes] | None = None
    """The cell planes of the last tensor, ``(moves, Prospector cell, planes)`` (a class
    default: a clone starts without them; named ``*cache`` so that search agents' keys
    leave it out)."""

    def _cell_planes(self) -> bytearray:
        """The tensor's cell planes (each cell's kind one-hot and the Prospector), new.

        After the deal a cell changes only where the Prospector lands (a take empties it, a
        Pan's last disc empties it under him) and where he leaves (his plane), so the
        planes of the last call are brought up to date at his cell then, at his cell now,
        and at each cell a move between may have landed on: every action id but the last
        read as a take (chance ids read so too: a few cells more, never fewer).
        """
        moves = len(self._history)
        memo = self._planes_cache
        pos = self.pos
        grid = self.grid
        if memo is None:
            raw = bytearray(b"".join([_CELL_PLANES[k] for k in grid]))
        else:
            at, was, planes = memo
            raw = bytearray(planes)
            landed = [was, pos]
            g = self.game
            cells = g.cells
            for action in self._history[at : moves - 1]:
                if action < 3 * cells:  # a card taken, by Courier or Innkeeper
                    landed.append(action % cells)
                elif action < 7 * cells:  # a Telegraph: the neighbour taken
                    x, d = divmod(action - 3 * cells, 4)
                    landed.append(g.neighbour[x][d])
            for cell in landed:
                raw[cell * 30 : cell * 30 + 30] = _CELL_PLANES[grid[cell]]
        if pos >= 0:  # after the deal: kept for the next call
            raw[pos * 30 + 29] = 1
            self._planes_cache = (moves, pos, bytes(raw))
        return raw

    def check_invariants(self) -> None:
        """Every card, Townsfolk and disc is on the table, with a player, beside or in the box."""
        self._check_counts(exact=True)

    def _check_counts(self, exact: bool) -> None:
        """Conservation (``exact``) or, for hand-built positions, no more than the game has."""
        g = self.game
        if self.dealt < g.cells:
            return
        on_grid = [0] * C.NUM_KINDS
        for k in self.grid:
            if k != EMPTY:
                on_grid[k] += 1
        for k in range(SHERIFF):
            total = (
                on_grid[k]
                + self.beside[k]
                + sum(pl[k] for pl in self.pile)
                + sum(t[k] for t in self.taught)
            )
            ok = total == g.deck[k] if exact else total <= g.deck[k]
            assert ok, f"{C.name(k)}: {total} cards, the game has {g.deck[k]}"
        assert self.box[SHERIFF] == 1 and on_grid[SHERIFF] == 0, "the Sheriff belongs in the box"
        assert sum(self.revealed) == sum(sum(d) for d in self.discs), "discs revealed != discs held"
        for i, n in enumerate(self.revealed):
            assert n <= g.disc_counts[i], f"more discs of value {g.disc_values[i]} than exist"
        for cell, left in self.pan_left.items():
            assert self.grid[cell] == PAN and 0 < left <= g.discs_per_pan, "bad Pan disc stack"
        townsfolk_seen = (
            sum(on_grid[TOWNSFOLK0:])
            + sum(self.beside[TOWNSFOLK0:])
            + sum(self.box[TOWNSFOLK0:])
            + sum(sum(f) for f in self.front)
            + (1 if self.pending in (TRAP, SMITH, CMDR) else 0)  # the card being resolved
        )
        if exact:
            assert townsfolk_seen == g.townsfolk_slots, "a Townsfolk card went missing"
        else:
            assert townsfolk_seen <= g.townsfolk_slots, "more Townsfolk than the 15 dealt"


_BASE_SLOT_TAIL = (bytes(28), bytes(27) + b"\x01")
"""A base game seat slot after its pile: front, taught and discs zero, then to-move."""

_CELL_PLANES = tuple(bytes(k) + b"\x01" + bytes(29 - k) for k in range(29))
"""A cell's 30 planes for each of its 29 kinds (27 cards, empty, undealt), as bytes."""


def _counts_to_tokens(counts: Sequence[int], first: int = 0) -> list[str]:
    """The cards of a pile of ``counts`` (of the kinds from ``first`` on), each by its
    notation, in kind order.

    >>> _counts_to_tokens([2, 0, 1]), _counts_to_tokens([0, 1], C.SHERIFF)
    (['+1', '+1', '+3'], ['Tr'])
    """
    tokens = C.TOKENS
    out: list[str] = []
    for k, n in enumerate(counts, first):
        if n:
            out += [tokens[k]] * n
    return out

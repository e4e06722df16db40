"""Yukon, N games at once as arrays (``motherlode.load("yukon")``, move for move).

Covers every config the reference has: ``players`` 2, 3 or 4 (in the base game 4 are two
pairs, seats 1+3 and 2+4), ``first_player``, and ``expansion=True`` with ``pan_discs``, the
Townsfolk expansion (numpy backend; :mod:`.yukon_townsfolk` has its rules and its trace).
This module is the base game. There the only chance is the deal (49 chance nodes, one card
kind per cell in reading order), so a game is: the deal, then takes only (decision ids
``0..48``, the cell taken).

>>> from motherlode.research.batched.yukon import BatchedYukon
>>> env = BatchedYukon(4, players=3, seed=1)
>>> first = env.reset()
>>> first.obs.shape, first.mask.shape, first.to_move.tolist()
((4, 1684), (4, 372), [0, 0, 0, 0])
>>> int(first.mask.sum(axis=1).min())  # the first take: any card in the row or the column
12
>>> step = env.step(first.mask.argmax(axis=1))
>>> step.to_move.tolist(), step.done.tolist()
([1, 1, 1, 1], [False, False, False, False])

The arrays, per row (``BatchStep``): ``obs`` the reference's ``observation_tensor(to_move)``
in the observer-first layout (see :func:`observation_size`), ``mask`` its
``legal_actions()``, ``to_move``, ``rewards`` its ``returns()`` in the step a game ended
(then, with ``auto_reset``, a new game is dealt in that row and ``obs``/``mask``/``to_move``
are the new game's first decision). Without ``auto_reset`` a finished row stays finished:
``to_move`` is ``TERMINAL`` (-4), its mask is empty, its ``obs`` the spectator's view
(``observation_tensor(None)``), and the actions given for it are ignored.

``obs`` and ``mask`` are the engine's own buffers, updated in place by the next ``step``
(the numpy backend; copying 1,024 tensors of 1,684 floats every step would add most of a
step's cost): read-only views, valid until the next call; ``copy=True`` hands out fresh
arrays instead (the JAX backend's are new arrays anyway).

With ``trace=True``, after every ``reset()`` and ``step()``, :attr:`BatchedYukon.last_chance`
is ``(rows, outcomes)``: the rows that drew chance in that call and, per row, the chance
outcome ids of the reference engine in the order it applies them (the 49 dealt kinds), so
that ``state.apply_action(k)`` for each ``k`` replays the deal on the reference, and
:attr:`BatchedYukon.last_scores` is ``(rows, points)``: the rows whose game ended in that
call and each seat's points as the reference's ``scores()`` counts them (numpy backend).
"""

from __future__ import annotations

import sys
from typing import Any, Literal, Protocol

import numpy as np

from motherlode.core.protocol import TERMINAL
from motherlode.games.yukon import cards as C
from motherlode.research.batched.base import Array, BatchStep
from motherlode.research.batched.base import random_actions as random_actions  # re-exported
from motherlode.research.batched.base import returns_of as returns_of  # re-exported
from motherlode.research.batched.yukon_townsfolk import TownsfolkCore, tables

COMPONENTS = C.components()  # the reference's data/components.json
SIZE = COMPONENTS.grid_size  # 7
CELLS = SIZE * SIZE
NUM_ACTIONS = 7 * CELLS + 29  # the reference's num_distinct_actions (7x7)
PLANES = 30  # per cell: 29 kind planes (27 kinds, empty, undealt) + the Prospector
SLOT = 44  # per seat slot: pile 16, front 10, taught 16, discs 1, to-move 1
PLAYERS0 = CELLS * PLANES  # offset of the players slice
GLOBALS0 = PLAYERS0 + 4 * SLOT  # axis 3, pending 7, order 1, beside 26, pan discs left 1
OBS_SIZE = GLOBALS0 + 3 + 7 + 1 + 26 + 1
ROW, COL, ANY = 0, 1, 2
EMPTY = C.EMPTY
# "receives the Prospector figure, which is worth 5 points"
PROSPECTOR_POINTS = COMPONENTS.prospector_points

# the base deck, one entry per card: 3 of each Gold and Pebble kind and the Sheriff
DECK = np.array(
    [k for k in range(C.SHERIFF) for _ in range(COMPONENTS.copies)] + [C.SHERIFF], dtype=np.int8
)
assert len(DECK) == CELLS, "the base deck fills the grid"
POINTS = np.array([C.points(k) for k in range(EMPTY + 1)], dtype=np.int32)


def observation_size() -> int:
    """The tensor's length: cells ``(7, 7, 30)``, players ``(4, 44)`` observer first (slot k
    is seat ``(observer + k) % players``, a spectator's slot k seat k), then axis 3,
    pending 7, order 1, beside 26, Pan discs left 1.

    >>> observation_size()
    1684
    """
    return OBS_SIZE


def _lines() -> Array:
    """``LINE[axis * 49 + pos]``: the cells a take may come from (row, column, either)."""
    line = np.zeros((3 * CELLS, CELLS), dtype=bool)
    for pos in range(CELLS):
        r, c = divmod(pos, SIZE)
        for k in range(SIZE):
            if k != c:
                line[ROW * CELLS + pos, r * SIZE + k] = True
                line[ANY * CELLS + pos, r * SIZE + k] = True
            if k != r:
                line[COL * CELLS + pos, k * SIZE + c] = True
                line[ANY * CELLS + pos, k * SIZE + c] = True
    return line


LINE = _lines()
# MOVED[(axis * 49 + pos) * 49 + target]: the line a take was in (ROW or COL)
_moved = np.zeros((3, CELLS, CELLS), dtype=np.intp)
SAME_ROW = np.array([[a // SIZE == b // SIZE for b in range(CELLS)] for a in range(CELLS)])
_moved[ROW], _moved[COL] = ROW, COL
_moved[ANY] = np.where(SAME_ROW, ROW, COL)  # the first take: the line it was in
MOVED: Array = _moved.reshape(-1)
NEXT_AXIS: Array = 1 - MOVED  # the line the next take must be in

# The random player's choice from the grid as one 64-bit word per row (bit c: a card lies
# on cell c): the Prospector's row is 7 bits of it, his column 7 bits spread 7 apart, which
# one multiplication gathers (the column's bits 7i land on 42 + i, no two products on the
# same bit, so no carries). A 14-bit code (the row's cells, then the column's) and two
# tables give the j-th legal cell: a few operations on (N,) arrays instead of a pass over
# the (N, 49) mask, which costs several times more at batch 1,024.
_U64 = np.uint64
BIT = np.array([1 << c for c in range(CELLS)], dtype=np.uint64)
NOT_BIT = ~BIT
# LINE as words: the legal takes are one AND, "none left" one comparison, and the mask's 49
# entries the word's bits unpacked (numpy's reductions over short rows cost several times
# more); the words' bytes are read in little-endian order
LINE_BITS = np.bitwise_or.reduce(np.where(LINE, BIT, _U64(0)), axis=1)
assert sys.byteorder == "little", "the grid's words are unpacked as little-endian bytes"
ROW_SHIFT = np.array([SIZE * (c // SIZE) for c in range(CELLS)], dtype=np.uint64)
COL_SHIFT = np.array([c % SIZE for c in range(CELLS)], dtype=np.uint64)
COL_BITS = _U64(sum(1 << (SIZE * i) for i in range(SIZE)))
GATHER = _U64(sum(1 << (6 * SIZE - (SIZE - 1) * i) for i in range(SIZE)))
SEVEN = _U64((1 << SIZE) - 1)
COL_CODE = _U64(((1 << SIZE) - 1) << SIZE)
KEEP = np.array([(1 << SIZE) - 1, ((1 << SIZE) - 1) << SIZE, (1 << 2 * SIZE) - 1], np.uint64)
_LINE_MAX = 2 * (SIZE - 1)  # the most legal takes: the first one, row and column
# bytes, not intp: the tables stay small in the cache (the step's arrays share it)
CODE_COUNT = np.array([bin(c).count("1") for c in range(1 << 2 * SIZE)], dtype=np.uint8)
_select = np.zeros((1 << 2 * SIZE, _LINE_MAX), dtype=np.uint8)
for _code in range(1 << 2 * SIZE):
    _bits = [k for k in range(2 * SIZE) if _code >> k & 1][:_LINE_MAX]
    _select[_code, : len(_bits)] = _bits
CODE_SELECT = _select.reshape(-1)  # [code * 12 + j]: the code's j-th set bit
# [pos * 14 + k]: bit k of pos's code as a cell (k < 7: the row's column k; else the column's
# row k - 7)
CODE_CELL = np.array(
    [
        (pos // SIZE) * SIZE + k if k < SIZE else (k - SIZE) * SIZE + pos % SIZE
        for pos in range(CELLS)
        for k in range(2 * SIZE)
    ],
    dtype=np.intp,
)


def unpack(words: Array) -> Array:
    """``(n,)`` grid words as an ``(n, 49)`` bool array (bit c: cell c)."""
    cells: Array = np.unpackbits(
        words.view(np.uint8).reshape(-1, 8), axis=1, count=CELLS, bitorder="little"
    ).view(bool)
    return cells


class _Core(Protocol):
    """A backend: the numpy one below, ``yukon_townsfolk.TownsfolkCore`` or
    ``yukon_jax.JaxCore``; ``mask`` is the last ``BatchStep``'s."""

    mask: Any

    def reset(self) -> BatchStep: ...

    def step(self, actions: Any) -> BatchStep: ...


class BatchedYukon:
    """N games of base Yukon stepped together (module docstring).

    * ``players`` 2-4, ``first_player`` the seat that begins: the reference's config;
    * ``seed``: the environment's own generator (numpy's, or ``jax.random`` for JAX);
    * ``auto_reset``: deal a new game in a row whose game ended, in the same step;
    * ``trace``: keep each call's chance outcomes in :attr:`last_chance` and the points of
      the games that ended in :attr:`last_scores`;
    * ``expansion``, ``pan_discs``: the Townsfolk expansion (numpy backend only;
      :mod:`.yukon_townsfolk`) and its nine disc values, the reference's options;
    * ``copy``: hand out fresh ``obs``/``mask`` arrays, not the engine's buffers;
    * ``check``: refuse an action that is not legal in its row (``ValueError``, nothing
      changes); ``False`` skips the test (a wrong id then corrupts that row);
    * ``observations``: ``False`` leaves the tensors out (``obs`` is ``(N, 0)``).
    """

    def __init__(
        self,
        n: int,
        *,
        players: int = 2,
        seed: int = 0,
        backend: Literal["numpy", "jax"] = "numpy",
        auto_reset: bool = True,
        trace: bool = False,
        first_player: int = 0,
        expansion: bool = False,
        pan_discs: tuple[int, ...] | None = None,
        copy: bool = False,
        check: bool = True,
        observations: bool = True,
    ) -> None:
        if n < 1:
            raise ValueError(f"yukon: a batch has at least 1 game (got n={n})")
        if players not in (2, 3, 4):
            raise ValueError(f"yukon: the game is for 2, 3 or 4 players (got {players})")
        if not 0 <= first_player < players:
            raise ValueError(f"yukon: first_player is a seat 0..{players - 1} (got {first_player})")
        if backend not in ("numpy", "jax"):
            raise ValueError(f"yukon: backend is 'numpy' or 'jax' (got {backend!r})")
        if expansion and backend == "jax":
            raise ValueError(
                'yukon: expansion=True (the Townsfolk) runs on backend="numpy" only;'
                " the JAX backend plays the base game"
            )
        if pan_discs is not None and (len(pan_discs) != 9 or any(v <= 0 for v in pan_discs)):
            raise ValueError(f"yukon: pan_discs must be 9 positive integers (got {pan_discs})")
        self.n = n
        self.players = players
        self.first_player = first_player
        self.backend = backend
        self.auto_reset = auto_reset
        self.trace = trace
        self.copy = copy
        self.check = check
        self.observations = observations
        self.expansion = expansion
        self.pan_discs = pan_discs
        self.teams = players == 4 and not expansion
        self.num_actions = NUM_ACTIONS
        obs_size = OBS_SIZE
        if expansion:
            t = tables(COMPONENTS.expansion_grid_size)
            self.num_actions, obs_size = t.num_actions, t.obs_size
        self.obs_shape: tuple[int, ...] = (obs_size if observations else 0,)
        self.last_chance: tuple[Array, Array] | None = None
        self.last_scores: tuple[Array, Array] | None = None
        self._seed = seed
        self._core: _Core
        if backend == "jax":
            from motherlode.research.batched.yukon_jax import JaxCore

            self._core = JaxCore(self, seed)
        elif expansion:
            self._core = TownsfolkCore(self, seed, pan_discs)
        else:
            self._core = _NumpyCore(self, seed)

    def reset(self) -> BatchStep:
        """Deal N new games; their first decisions."""
        return self._core.reset()

    def step(self, actions: Any) -> BatchStep:
        """Apply one decision per row (the reference's ids); deal where a game ended."""
        return self._core.step(actions)

    def sample_actions(self, rng: np.random.Generator) -> Array:
        """``(N,)``: a uniformly random legal decision per row of the last ``reset`` or
        ``step`` (``0`` in a finished row without auto-reset, which the step ignores): the
        random player of the benchmark. The numpy backend draws it from its own state with
        one uniform number per row; the JAX backend from the mask (:func:`random_actions`).

        >>> env = BatchedYukon(3, seed=2)
        >>> out = env.reset()
        >>> acts = env.sample_actions(np.random.default_rng(0))
        >>> bool(out.mask[np.arange(3), acts].all())
        True
        """
        sample = getattr(self._core, "sample", None)
        if sample is not None:
            picked: Array = sample(rng)
            return picked
        return random_actions(np.asarray(self._core.mask), rng)


def illegal(actions: Array, ok: Array) -> ValueError:
    """The refusal for the first row whose action is not a legal take."""
    row = int(np.flatnonzero(~ok)[0])
    return ValueError(
        f"yukon: row {row}: action {int(actions[row])} is not a card in the Prospector's"
        " row or column in the required direction (rulebook, Playing the Game)"
        " or the game there is over"
    )


class _Deals:
    """Games dealt ahead, ``size`` at a time (one dealing of many rows costs about what
    one of a few rows does): their cards, grids, Prospectors, first tensors and masks.

    A deal is a uniform shuffle of the 49 cards, which is the reference's deal (cell by
    cell in reading order, each kind with probability ``deck[k] / cards left``).
    """

    def __init__(self, rng: np.random.Generator, size: int, fresh: Array | None) -> None:
        self.rng = rng
        self.size = size
        self.fresh = fresh
        self.next = 0
        self.cards = np.zeros((0, CELLS), dtype=np.int8)
        self.grid = self.sheriff = self.obs = self.mask = self.cards
        self.bits = np.zeros(0, dtype=np.uint64)

    def take(self, k: int) -> slice:
        """The next ``k`` games (dealing a new pool when fewer are left; the rest unused)."""
        if self.next + k > len(self.cards):
            self.refill(max(self.size, k))
        out = slice(self.next, self.next + k)
        self.next += k
        return out

    def refill(self, m: int) -> None:
        cards = self.rng.permuted(np.broadcast_to(DECK, (m, CELLS)), axis=1)
        sheriff = np.argmax(cards == C.SHERIFF, axis=1)
        grid = cards.copy()
        grid[np.arange(m), sheriff] = EMPTY  # "put the Prospector figure in its place"
        if self.fresh is not None:  # the first tensors (without observations: none)
            obs = np.tile(self.fresh, (m, 1))
            np.put_along_axis(obs, np.arange(CELLS) * PLANES + grid.astype(np.intp), 1.0, axis=1)
            obs[np.arange(m), sheriff * PLANES + PLANES - 1] = 1.0
            self.obs = obs
        self.cards, self.grid = cards, grid
        words = np.zeros((m, 8), dtype=np.uint8)
        words[:, : (CELLS + 7) // 8] = np.packbits(grid != EMPTY, axis=1, bitorder="little")
        self.bits = words.view(np.uint64)[:, 0]
        self.sheriff = sheriff
        self.mask = LINE[ANY * CELLS + sheriff] & (grid != EMPTY)
        self.next = 0


class _NumpyCore:
    """The numpy backend: the state as arrays, updated in place, the tensor incrementally
    (a take changes two cells, the axis, and the seat slots turn by one).

    The piles live only in the tensor's seat slots, observer first: slot k is seat
    ``(player + k) % players``. The seat to move advances by one at every take of the base
    game, so after a take the slots turn by one: the taker's slot 0 (with the card added)
    goes last, the next seat's slot 1 becomes slot 0.
    """

    def __init__(self, env: BatchedYukon, seed: int) -> None:
        n, p = env.n, env.players
        self.env = env
        self.rng = np.random.default_rng(seed)
        self.grid = np.full((n, CELLS), EMPTY, dtype=np.int8)
        self.bits = np.zeros(n, dtype=np.uint64)  # the cards on the grid (bit c: cell c)
        self.next_seat = (np.arange(p) + 1) % p  # clockwise: every take passes the turn
        self.pos = np.zeros(n, dtype=np.intp)
        self.axis = np.full(n, ANY, dtype=np.intp)
        self.player = np.zeros(n, dtype=np.intp)
        self.last = np.zeros(n, dtype=np.intp)
        self.over = np.zeros(n, dtype=bool)
        self.points = np.zeros((n, p), dtype=np.int32)  # the cards' points, per seat
        self.observe = env.observations
        self.obs = np.zeros((n, OBS_SIZE if self.observe else 0), dtype=np.float32)
        self.mask = np.zeros((n, NUM_ACTIONS), dtype=bool)
        self.rows = np.arange(n, dtype=np.intp)
        self.row_base = self.rows * OBS_SIZE
        self.flat = self.obs.reshape(-1)  # a view: flat indices into the tensor
        if self.observe:
            self.piles = self.obs[:, PLAYERS0 : PLAYERS0 + p * SLOT].reshape(n, p, SLOT)[:, :, :16]
        fresh = np.zeros(OBS_SIZE, dtype=np.float32)
        fresh[PLAYERS0 + SLOT - 1] = 1.0  # slot 0 (the observer) is to move
        fresh[GLOBALS0 + ANY] = 1.0  # the first take: the row or the column
        fresh[GLOBALS0 + 3] = 1.0  # nothing pending
        fresh[GLOBALS0 + 10] = 1.0  # clockwise
        self.deals = _Deals(self.rng, max(n, 64), fresh if self.observe else None)
        self.trace_rows: list[Array] = []
        self.trace_deals: list[Array] = []

    # -- the deal -------------------------------------------------------------------

    def deal(self, rows: Array) -> None:
        """New games in ``rows``, taken from the pool of games dealt ahead (``_Deals``)."""
        k = len(rows)
        d = self.deals.take(k)
        if self.env.trace:
            self.trace_rows.append(rows.copy())
            self.trace_deals.append(self.deals.cards[d].astype(np.int16))
        self.grid[rows] = self.deals.grid[d]
        self.bits[rows] = self.deals.bits[d]
        self.pos[rows] = self.deals.sheriff[d]
        self.axis[rows] = ANY
        self.player[rows] = self.env.first_player
        self.over[rows] = False
        self.points[rows] = 0
        if self.observe:
            self.obs[rows] = self.deals.obs[d]
        self.mask[rows, :CELLS] = self.deals.mask[d]

    def reset(self) -> BatchStep:
        self.trace_rows, self.trace_deals = [], []
        self.mask[:] = False
        self.deal(self.rows)
        n = self.env.n
        return self.out(np.zeros((n, self.env.players), np.float32), np.zeros(n, bool))

    # -- a step ---------------------------------------------------------------------

    def step(self, actions: Any) -> BatchStep:
        env = self.env
        a = np.asarray(actions, dtype=np.intp)
        if a.shape != (env.n,):
            raise ValueError(f"yukon: step takes one action per game, shape ({env.n},)")
        if env.check:
            self.check(a)
        self.trace_rows, self.trace_deals = [], []
        if env.trace:
            env.last_scores = (np.zeros(0, np.intp), np.zeros((0, env.players), np.int32))
        live = ~self.over
        if env.auto_reset or live.all():
            r: Array | slice = slice(None)
            ra, t = self.rows, a
        else:
            ra = self.rows[live]
            r, t = ra, a[live]
        legal = self.take(r, ra, t)
        done = np.zeros(env.n, dtype=bool)
        rewards = np.zeros((env.n, env.players), dtype=np.float32)
        # "there are no cards left to take in the Prospector's row or column"
        ended = legal == 0
        if ended.any():
            d = ra[ended]
            done[d] = True
            points = self.final_points(d)
            rewards[d] = returns_of(points, env.teams)
            if env.trace:
                env.last_scores = (d, points)
            if env.auto_reset:
                self.deal(d)
            else:
                self.finish(d)
        return self.out(rewards, done)

    def sample(self, rng: np.random.Generator) -> Array:
        """A uniformly random legal take per row, from the grid's words (see ``BIT``): the
        Prospector's row and column as a 14-bit code, the line kept that ``axis`` allows,
        one uniform number per row for the j-th of the code's cells."""
        bits, pos = self.bits, self.pos
        row = (bits >> ROW_SHIFT[pos]) & SEVEN
        col = ((((bits >> COL_SHIFT[pos]) & COL_BITS) * GATHER) >> _U64(5 * SIZE)) & COL_CODE
        code = ((row | col) & KEEP[self.axis]).astype(np.intp)
        j = (rng.random(len(code), dtype=np.float32) * CODE_COUNT[code]).astype(np.intp)
        picked: Array = CODE_CELL[pos * (2 * SIZE) + CODE_SELECT[code * _LINE_MAX + j]]
        if not self.env.auto_reset:
            picked[self.over] = 0
        return picked

    def check(self, a: Array) -> None:
        if a.min() >= 0 and a.max() < NUM_ACTIONS:
            ok = self.mask[self.rows, a]
        else:
            ok = (a >= 0) & (a < NUM_ACTIONS)
            ok[ok] = self.mask[self.rows[ok], a[ok]]
        if not self.env.auto_reset:
            ok |= self.over
        if not ok.all():
            raise illegal(a, ok)

    def take(self, r: Array | slice, ra: Array, t: Array) -> Array:
        """The take of cell ``t`` in each row (``r`` the rows as an index or a slice, ``ra``
        the same as an index array), rulebook "Playing the Game"; the rows' legal cells
        as grid words."""
        pos = self.pos[r]
        axis = self.axis[r]
        kind = self.grid[ra, t].astype(np.intp)
        # "Each following player always takes their card in the direction perpendicular to
        # the previous move": the first take fixes the direction by the line it was in
        new_axis = NEXT_AXIS[(axis * CELLS + pos) * CELLS + t]
        if self.observe:
            self.tensor_take(r, t, kind, pos, axis, new_axis)
        self.grid[ra, t] = EMPTY
        bits = self.bits[r] & NOT_BIT[t]
        self.bits[r] = bits
        self.axis[r] = new_axis
        self.pos[r] = t
        p = self.player[r]
        self.last[r] = p
        self.points[ra, p] += POINTS[kind]
        self.player[r] = self.next_seat[p]
        legal: Array = LINE_BITS[new_axis * CELLS + t] & bits
        self.mask[r, :CELLS] = unpack(legal)
        return legal

    def tensor_take(
        self, r: Array | slice, t: Array, kind: Array, pos: Array, axis: Array, new_axis: Array
    ) -> None:
        """The take in the tensor (before the state moves on: ``pos`` and ``axis`` may be
        views of it): two cells, the axis, the taker's pile, and the slots turn by one."""
        base = self.row_base[r]
        tb = base + t * PLANES
        flat = self.flat
        # the card's plane, the Prospector's old cell and the old axis off; the same cell's
        # "empty" plane, the Prospector there and the new axis on (all six distinct)
        flat[
            np.concatenate((tb + kind, base + pos * PLANES + PLANES - 1, base + GLOBALS0 + axis))
        ] = 0.0
        flat[np.concatenate((tb + EMPTY, tb + PLANES - 1, base + GLOBALS0 + new_axis))] = 1.0
        flat[base + PLAYERS0 + kind] += 1.0  # the taker's pile: slot 0
        players = self.env.players
        piles = self.piles  # the next seat becomes the observer, the taker goes last
        taker = piles[r, 0].copy()
        piles[r, : players - 1] = piles[r, 1:]
        piles[r, players - 1] = taker

    def seat_piles(self, d: Array) -> Array:
        """The piles of rows ``d`` in seat order ``(k, players, 16)``."""
        players = self.env.players
        seats = (self.player[d, None] + np.arange(players)) % players  # slot k's seat
        piles = np.empty((len(d), players, 16), dtype=np.float32)
        piles[np.arange(len(d))[:, None], seats] = self.piles[d]
        return piles

    def final_points(self, d: Array) -> Array:
        """Points of the finished games in rows ``d``: the cards, and the Prospector's 5 for
        "the player who took the last card"."""
        points = self.points[d]
        points[np.arange(len(d)), self.last[d]] += PROSPECTOR_POINTS
        return points

    def finish(self, d: Array) -> None:
        """Rows whose game ended (no auto-reset): the spectator's view, no legal action."""
        self.over[d] = True
        if self.observe:
            self.piles[d] = self.seat_piles(d)
            self.obs[d, PLAYERS0 + SLOT - 1] = 0.0

    def out(self, rewards: Array, done: Array) -> BatchStep:
        env = self.env
        to_move = (
            self.player.copy() if env.auto_reset else np.where(self.over, TERMINAL, self.player)
        )
        if env.trace:
            rows = np.concatenate(self.trace_rows) if self.trace_rows else np.zeros(0, np.intp)
            deals = (
                np.concatenate(self.trace_deals)
                if self.trace_deals
                else np.zeros((0, CELLS), np.int16)
            )
            env.last_chance = (rows, deals)
        if env.copy:
            obs, mask = self.obs.copy(), self.mask.copy()
        else:
            obs, mask = self.obs.view(), self.mask.view()
            obs.flags.writeable = False
            mask.flags.writeable = False
        return BatchStep(obs=obs, mask=mask, to_move=to_move, rewards=rewards, done=done)

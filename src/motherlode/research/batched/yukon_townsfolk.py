"""Yukon with the Townsfolk expansion, N games at once (``BatchedYukon(n, expansion=True)``).

The reference is ``motherlode.load("yukon", expansion=True)`` (rulebook, "Townsfolk
Expansion"; the decisions in docs/rules/yukon.md): an 8x8 grid of the 49 base cards and
15 of the 30 Townsfolk, every player alone, clockwise until a Jailer reverses the order.
Its decision ids (``N = 64`` cells, 477 in all) are the reference's::

    [0, N)        take cell c in the required line
    [N, 2N)       take c in the other line, using a Courier
    [2N, 3N)      take c diagonally, using an Innkeeper
    [3N, 7N)      Telegraph Operator: the Prospector onto X, take its neighbour d (4X + d)
    7N + k        discard the Gold (Trapper) or Pebble (Goldsmith) kind k
    7N + 16 + k   Commander: take back the discarded Gold kind k
    7N + 24       Commander: keep it for the end
    7N + 25 + p   Teacher: draw a card from player p

Chance is drawn inside the step (the env's generator) with the reference's weights: the
deal (a uniform shuffle of the 49 base cards and 15 Townsfolk drawn from the 30, which is
the reference's cell-by-cell deal), a Pan's top disc (uniform among the discs not yet
turned up) and the Teacher's card (uniform among the victim's Gold and Pebble cards). So
no row is ever at a chance node between steps: a take of a Pan, or a Teacher's victim,
is followed by its draw in the same step, and the row's next decision is the next one.

With ``trace=True``, :attr:`BatchedYukon.last_chance` is ``(rows, outcomes)``: the rows
that drew chance in that call and, per row, the reference's chance outcome ids in the
order it applies them, padded with ``-1``: a disc (``27 + i``) or a Teacher's draw
(``36 + k``) after the row's decision, then, where its game ended, the 64 kinds of the
next deal.

>>> from motherlode.research.batched.yukon import BatchedYukon
>>> env = BatchedYukon(4, players=3, seed=1, expansion=True)
>>> first = env.reset()
>>> first.obs.shape, first.mask.shape, first.to_move.tolist()
((4, 2134), (4, 477), [0, 0, 0, 0])
>>> step = env.step(env.sample_actions(np.random.default_rng(0)))
>>> step.to_move.shape, step.rewards.shape
((4,), (4, 3))

The state is a few ``(N, ...)`` integer arrays; each step updates the rows by the kind of
their decision (a loop over the handful of kinds, never over the rows) and builds the mask
and the tensor of the rows anew.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from motherlode.core.protocol import TERMINAL
from motherlode.games.yukon import cards as C
from motherlode.research.batched.base import Array, BatchStep, random_actions, returns_of

if TYPE_CHECKING:
    from motherlode.research.batched.yukon import BatchedYukon

COMPONENTS = C.components()
ROW, COL, ANY = 0, 1, 2
NONE, TRAP, SMITH, CMDR, TEACH = 0, 1, 2, 3, 4  # the reference's pending decisions
EMPTY = C.EMPTY
T0 = C.TOWNSFOLK0
PLANES = 30
SLOT = 44
DISC0, DRAW0 = 27, 36  # the reference's chance ids of a disc and of a Teacher's draw
POINTS16 = np.array([C.points(k) for k in range(16)], dtype=np.int32)
# Pebble kinds from the most costly down, and their values (the Swindler's choice)
PEBBLES_DOWN = np.arange(C.SHERIFF - 1, C.PEBBLE0 - 1, -1)
PEBBLE_VALUES_DOWN = -POINTS16[PEBBLES_DOWN]


@dataclass(frozen=True)
class Tables:
    """The grid's geometry and the action id layout for a ``size`` x ``size`` grid."""

    size: int
    cells: int
    line: Array  # (3 * cells, cells): [axis * cells + pos] the cells of the required line
    diag: Array  # (cells, cells): the diagonals through pos
    tele_ok: Array  # (cells, 4 * cells): [pos, 4x + d] x's neighbour d is along the line
    tele_target: Array  # (4 * cells,): x's neighbour d (cells: off the grid)
    same_row: Array  # (cells, cells)
    target: Array  # (7 * cells,): the cell a take action takes
    used: Array  # (7 * cells,): the Townsfolk a take uses up (-1: none)
    num_actions: int
    discard0: int
    reclaim0: int
    keep: int
    teach0: int
    obs_size: int
    players0: int
    globals0: int


@cache
def tables(size: int) -> Tables:
    cells = size * size
    line = np.zeros((3 * cells, cells), dtype=bool)
    diag = np.zeros((cells, cells), dtype=bool)
    same_row = np.zeros((cells, cells), dtype=bool)
    tele_ok = np.zeros((cells, 4 * cells), dtype=bool)
    tele_target = np.full(4 * cells, cells, dtype=np.intp)
    for pos in range(cells):
        r, c = divmod(pos, size)
        for k in range(size):
            if k != c:
                line[ROW * cells + pos, r * size + k] = line[ANY * cells + pos, r * size + k] = True
            if k != r:
                line[COL * cells + pos, k * size + c] = line[ANY * cells + pos, k * size + c] = True
            same_row[pos, r * size + k] = True
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < size and 0 <= cc < size:
                diag[pos, rr * size + cc] = True
                rr, cc = rr + dr, cc + dc
    for x in range(cells):
        r, c = divmod(x, size)
        nbs = (
            x - size if r > 0 else -1,
            x + size if r < size - 1 else -1,
            x - 1 if c > 0 else -1,
            x + 1 if c < size - 1 else -1,
        )  # up, down, left, right: the reference's neighbour order
        for d, y in enumerate(nbs):
            if y >= 0:
                tele_target[4 * x + d] = y
        for pos in range(cells):
            # "takes a card from among that card's neighbours in the direction of the
            # Prospector's movement" (decision 5): along the line X lies in, not his cell
            dirs = (2, 3) if x // size == pos // size else (0, 1)
            for d in dirs:
                y = nbs[d]
                if y >= 0 and y != pos:
                    tele_ok[pos, 4 * x + d] = True
    target = np.concatenate([np.arange(cells)] * 3 + [np.minimum(tele_target, cells - 1)]).astype(
        np.intp
    )
    used = np.full(7 * cells, -1, dtype=np.intp)
    used[cells : 2 * cells] = C.COURIER
    used[2 * cells : 3 * cells] = C.INNKEEPER
    used[3 * cells :] = C.TELEGRAPH
    players0 = cells * PLANES
    globals0 = players0 + 4 * SLOT
    return Tables(
        size=size,
        cells=cells,
        line=line,
        diag=diag,
        tele_ok=tele_ok,
        tele_target=tele_target,
        same_row=same_row,
        target=target,
        used=used,
        num_actions=7 * cells + 29,
        discard0=7 * cells,
        reclaim0=7 * cells + 16,
        keep=7 * cells + 24,
        teach0=7 * cells + 25,
        obs_size=globals0 + 3 + 7 + 1 + 26 + 1,
        players0=players0,
        globals0=globals0,
    )


def _nth(weights: Array, rng: np.random.Generator) -> Array:
    """Per row of ``weights`` (k, m) integer counts (each row's sum > 0): an index drawn
    with probability ``weights / sum``."""
    cum = np.cumsum(weights, axis=1)
    r = (rng.random(len(weights)) * cum[:, -1]).astype(np.int64)
    return (cum <= r[:, None]).sum(axis=1)  # type: ignore[no-any-return]


class TownsfolkCore:
    """The numpy backend of the expansion (module docstring)."""

    def __init__(self, env: BatchedYukon, seed: int, pan_discs: tuple[int, ...] | None) -> None:
        n, p = env.n, env.players
        self.env = env
        self.t = t = tables(COMPONENTS.expansion_grid_size)
        self.rng = np.random.default_rng(seed)
        discs = tuple(sorted(pan_discs)) if pan_discs else COMPONENTS.pan_disc_values
        values = sorted(set(discs))
        self.disc_values = np.array(values, dtype=np.int32)
        self.disc_counts = np.array([discs.count(v) for v in values], dtype=np.int32)
        nd = len(values)
        cells = t.cells
        self.grid = np.full((n, cells), EMPTY, dtype=np.int8)
        self.pos = np.zeros(n, dtype=np.intp)
        self.axis = np.full(n, ANY, dtype=np.intp)
        self.player = np.zeros(n, dtype=np.intp)
        self.order = np.ones(n, dtype=np.intp)
        self.last = np.full(n, -1, dtype=np.intp)
        self.pending = np.zeros(n, dtype=np.intp)
        self.over = np.zeros(n, dtype=bool)
        self.pile = np.zeros((n, p, 16), dtype=np.int32)  # Gold and Pebble cards collected
        self.front = np.zeros((n, p, 10), dtype=np.int32)  # Townsfolk kept in front
        self.taught = np.zeros((n, p, 16), dtype=np.int32)  # the Teacher's cards
        self.discs = np.zeros((n, p, nd), dtype=np.int32)
        self.beside = np.zeros((n, C.NUM_KINDS), dtype=np.int32)
        self.box = np.zeros((n, C.NUM_KINDS), dtype=np.int32)
        self.pan_left = np.zeros((n, cells), dtype=np.int32)
        self.revealed = np.zeros((n, nd), dtype=np.int32)
        self.mask = np.zeros((n, t.num_actions), dtype=bool)
        self.obs = np.zeros((n, t.obs_size if env.observations else 0), dtype=np.float32)
        # the grid and the Prospector's cell the tensor shows (all cells "empty" at first)
        self.shown = np.full((n, cells), EMPTY, dtype=np.int8)
        self.shown_pos = np.zeros(n, dtype=np.intp)
        if env.observations:
            self.obs[:, : t.players0].reshape(n, cells, PLANES)[:, :, EMPTY] = 1.0
        self.rows = np.arange(n, dtype=np.intp)
        self.base = np.array(
            [k for k in range(C.SHERIFF) for _ in range(COMPONENTS.copies)] + [C.SHERIFF],
            dtype=np.int8,
        )
        self.townsfolk = np.repeat(np.arange(T0, EMPTY, dtype=np.int8), COMPONENTS.townsfolk_copies)
        self.trace: list[tuple[Array, Array]] = []

    # -- the deal -------------------------------------------------------------------

    def deal(self, rows: Array) -> None:
        """New games in ``rows``: "Shuffle the expansion's cards thoroughly and draw 15 of
        them. Shuffle these 15 together with the Gold, Pebble and Sheriff cards"."""
        k, t, rng = len(rows), self.t, self.rng
        drawn = rng.permuted(np.broadcast_to(self.townsfolk, (k, len(self.townsfolk))), axis=1)
        deck = np.concatenate(
            [
                np.broadcast_to(self.base, (k, len(self.base))),
                drawn[:, : COMPONENTS.townsfolk_drawn],
            ],
            axis=1,
        )
        cards = rng.permuted(deck, axis=1)
        assert cards.shape[1] == t.cells
        if self.env.trace:
            self.trace.append((rows, cards.astype(np.int16)))
        sheriff = np.argmax(cards == C.SHERIFF, axis=1)
        grid = cards.copy()
        grid[np.arange(k), sheriff] = EMPTY  # "put the Prospector figure in its place"
        self.grid[rows] = grid
        self.pos[rows] = sheriff
        self.axis[rows] = ANY
        self.player[rows] = self.env.first_player
        self.order[rows] = 1
        self.last[rows] = -1
        self.pending[rows] = NONE
        self.over[rows] = False
        for a in (self.pile, self.front, self.taught, self.discs, self.beside, self.revealed):
            a[rows] = 0
        self.box[rows] = 0
        self.box[rows, C.SHERIFF] = 1
        # "stack 3 of them face down on each Pan card"
        self.pan_left[rows] = np.where(grid == C.PAN, COMPONENTS.discs_per_pan, 0)

    def reset(self) -> BatchStep:
        self.trace = []
        self.deal(self.rows)
        self.refresh(self.rows)
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
        self.trace = []
        if env.trace:
            env.last_scores = (np.zeros(0, np.intp), np.zeros((0, env.players), np.int32))
        rows = self.rows[~self.over]
        pend = self.pending[rows]
        takes = pend == NONE
        self.take(rows[takes], a[rows[takes]])
        for kind in (TRAP, SMITH, CMDR, TEACH):
            sel = pend == kind
            if sel.any():
                self.decide(kind, rows[sel], a[rows[sel]])
        self.refresh(rows)
        # "The next player cannot take a card in accordance with the rules" (decision 3:
        # the abilities count): no legal action after the turn is over
        ended = rows[~self.mask[rows].any(axis=1)]
        done = np.zeros(env.n, dtype=bool)
        rewards = np.zeros((env.n, env.players), dtype=np.float32)
        if len(ended):
            done[ended] = True
            points = self.final_points(ended)
            rewards[ended] = returns_of(points, False)
            if env.trace:
                env.last_scores = (ended, points)
            if env.auto_reset:
                self.deal(ended)
            else:
                self.over[ended] = True
            self.refresh(ended)
        return self.out(rewards, done)

    def check(self, a: Array) -> None:
        ok = (a >= 0) & (a < self.t.num_actions)
        ok[ok] = self.mask[self.rows[ok], a[ok]]
        if not self.env.auto_reset:
            ok |= self.over
        if not ok.all():
            row = int(np.flatnonzero(~ok)[0])
            raise ValueError(
                f"yukon: row {row}: action {int(a[row])} is not a legal action there"
                " (its mask: a card in the Prospector's line, an ability of a Townsfolk in"
                " front, or the decision a Townsfolk card calls for; rulebook, Playing the"
                " Game and Townsfolk Card Rules) or the game there is over"
            )

    def take(self, rows: Array, act: Array) -> None:
        """A take: a card of the line, or one by a Courier, Innkeeper or Telegraph Operator;
        then what the card taken does (rulebook, Townsfolk Card Rules)."""
        if not len(rows):
            return
        t = self.t
        cells = t.cells
        p = self.player[rows]
        axis, pos = self.axis[rows], self.pos[rows]
        target = t.target[act]
        used = t.used[act]
        u = used >= 0
        if u.any():  # a used Courier, Innkeeper or Telegraph goes to the box (decision 6)
            self.front[rows[u], p[u], used[u] - T0] -= 1
            self.box[rows[u], used[u]] += 1
        # the line of this move: the required one, except on the first move, where it is the
        # line taken from (an Innkeeper's diagonal leaves it free: decision 4)
        cat = act // cells
        first = np.where(
            cat == 2,
            ANY,
            np.where(
                cat >= 3,
                np.where(act % 4 >= 2, ROW, COL),
                np.where(t.same_row[pos, target], ROW, COL),
            ),
        )
        moved = np.where(axis == ANY, first, axis)
        self.axis[rows] = np.where(moved == ANY, ANY, 1 - moved)
        self.last[rows] = p
        self.pos[rows] = target
        kind = self.grid[rows, target].astype(np.intp)
        advance = np.ones(len(rows), dtype=bool)
        pan = kind == C.PAN
        if pan.any():  # "they take the top Gold nugget disc": the card stays (decision 13)
            self.pan(rows[pan], p[pan], target[pan])
        off = ~pan
        self.grid[rows[off], target[off]] = EMPTY
        card = kind < C.SHERIFF
        self.pile[rows[card], p[card], kind[card]] += 1
        for k, lo in ((C.TRAPPER, 0), (C.GOLDSMITH, C.PEBBLE0)):
            sel = kind == k
            if sel.any():
                r = rows[sel]
                has = self.pile[r, p[sel], lo : lo + 8].sum(axis=1) > 0
                self.pending[r[has]] = TRAP if k == C.TRAPPER else SMITH
                self.beside[r[~has], k] += 1  # nothing to give up: "discarded immediately"
                advance[np.flatnonzero(sel)[has]] = False
        keep = (kind > C.GOLDSMITH) & (kind < C.PAN)  # the rest lie in front of the taker
        cmdr = kind == C.COMMANDER
        if cmdr.any():
            wait = np.zeros(len(rows), dtype=bool)
            wait[cmdr] = self.beside[rows[cmdr], : C.PEBBLE0].sum(axis=1) > 0
            self.pending[rows[wait]] = CMDR
            advance &= ~wait
            keep &= ~wait
        self.front[rows[keep], p[keep], kind[keep] - T0] += 1
        jailer = kind == C.JAILER
        if jailer.any():  # "the turn order is reversed. The player who took the card takes again"
            self.order[rows[jailer]] *= -1
            advance &= ~jailer
        teacher = kind == C.TEACHER
        if teacher.any():
            r = rows[teacher]
            held = self.pile[r].sum(axis=2) > 0
            held[np.arange(len(r)), p[teacher]] = False
            victims = held.any(axis=1)
            self.pending[r[victims]] = TEACH
            advance[np.flatnonzero(teacher)[victims]] = False
        self.advance(rows[advance])

    def pan(self, rows: Array, p: Array, cell: Array) -> None:
        """The Pan's top disc, a chance draw among those not yet turned up; the emptied Pan
        goes to the box ("Once the last disc has been removed from the card")."""
        i = _nth(self.disc_counts - self.revealed[rows], self.rng)
        if self.env.trace:
            self.trace.append((rows, (DISC0 + i)[:, None].astype(np.int16)))
        self.discs[rows, p, i] += 1
        self.revealed[rows, i] += 1
        self.pan_left[rows, cell] -= 1
        empty = self.pan_left[rows, cell] == 0
        self.grid[rows[empty], cell[empty]] = EMPTY
        self.box[rows[empty], C.PAN] += 1

    def decide(self, kind: int, rows: Array, act: Array) -> None:
        """A Trapper's or Goldsmith's discard, a Commander's choice, a Teacher's victim."""
        t = self.t
        p = self.player[rows]
        if kind in (TRAP, SMITH):
            k = act - t.discard0
            self.pile[rows, p, k] -= 1
            self.beside[rows, k] += 1
            self.beside[rows, C.TRAPPER if kind == TRAP else C.GOLDSMITH] += 1
        elif kind == CMDR:
            kept = act == t.keep
            self.front[rows[kept], p[kept], C.COMMANDER - T0] += 1
            r, k = rows[~kept], act[~kept] - t.reclaim0
            self.beside[r, k] -= 1
            self.pile[r, p[~kept], k] += 1
            self.box[r, C.COMMANDER] += 1
        else:  # TEACH: "randomly take one of that player's cards" (decision 9)
            victim = act - t.teach0
            k = _nth(self.pile[rows, victim], self.rng)
            if self.env.trace:
                self.trace.append((rows, (DRAW0 + k)[:, None].astype(np.int16)))
            self.pile[rows, victim, k] -= 1
            self.taught[rows, p, k] += 1
        self.pending[rows] = NONE
        self.advance(rows)

    def advance(self, rows: Array) -> None:
        """The next player in the turn order (clockwise, or back after a Jailer)."""
        self.player[rows] = (self.player[rows] + self.order[rows]) % self.env.players

    # -- the mask, the tensor, the scores ---------------------------------------------

    def refresh(self, rows: Array) -> None:
        self.mask[rows] = self.legal(rows)
        if self.env.observations:
            self.tensor_cells(rows)
            self.obs[rows, self.t.players0 :] = self.tensor_rest(rows)

    def legal(self, rows: Array) -> Array:
        """The reference's legal actions of ``rows`` as a mask (none in a finished game)."""
        t = self.t
        cells, k = t.cells, len(rows)
        out = np.zeros((k, t.num_actions), dtype=bool)
        grid = self.grid[rows]
        present = grid != EMPTY
        pos, axis, p = self.pos[rows], self.axis[rows], self.player[rows]
        pend = np.where(self.over[rows], -1, self.pending[rows])
        none = pend == NONE
        line = t.line[axis * cells + pos] & present & none[:, None]
        out[:, :cells] = line
        front = self.front[rows, p]
        cour = none & (front[:, C.COURIER - T0] > 0) & (axis != ANY)
        if cour.any():  # "change direction for the current move only"
            other = t.line[(1 - axis[cour]) * cells + pos[cour]]
            out[cour, cells : 2 * cells] = other & present[cour]
        inn = none & (front[:, C.INNKEEPER - T0] > 0)
        if inn.any():  # "may also move diagonally"
            out[inn, 2 * cells : 3 * cells] = t.diag[pos[inn]] & present[inn]
        tele = none & (front[:, C.TELEGRAPH - T0] > 0)
        if tele.any():  # the Prospector onto X of the line, the player takes X's neighbour
            padded = np.concatenate([present[tele], np.zeros((int(tele.sum()), 1), bool)], 1)
            out[tele, 3 * cells : 7 * cells] = (
                np.repeat(line[tele], 4, axis=1) & t.tele_ok[pos[tele]] & padded[:, t.tele_target]
            )
        for kind, lo in ((TRAP, 0), (SMITH, C.PEBBLE0)):
            sel = pend == kind
            if sel.any():
                out[sel, t.discard0 + lo : t.discard0 + lo + 8] = (
                    self.pile[rows[sel], p[sel], lo : lo + 8] > 0
                )
        sel = pend == CMDR
        if sel.any():
            out[sel, t.reclaim0 : t.reclaim0 + 8] = self.beside[rows[sel], : C.PEBBLE0] > 0
            out[sel, t.keep] = True
        sel = pend == TEACH
        if sel.any():
            held = self.pile[rows[sel]].sum(axis=2) > 0
            held[np.arange(int(sel.sum())), p[sel]] = False
            out[sel, t.teach0 : t.teach0 + self.env.players] = held
        return out

    def tensor_cells(self, rows: Array) -> None:
        """The tensor's cells in place: only those whose card changed since the tensor was
        last written (``shown``, the grid it shows), and the Prospector's plane."""
        t, obs = self.t, self.obs
        old, new = self.shown[rows], self.grid[rows]
        r, c = np.nonzero(old != new)
        base = rows[r] * t.obs_size + c * PLANES
        flat = obs.reshape(-1)
        flat[base + old[r, c]] = 0.0
        flat[base + new[r, c]] = 1.0
        self.shown[rows] = new
        obs[rows, self.shown_pos[rows] * PLANES + PLANES - 1] = 0.0
        obs[rows, self.pos[rows] * PLANES + PLANES - 1] = 1.0
        self.shown_pos[rows] = self.pos[rows]

    def tensor_rest(self, rows: Array) -> Array:
        """The reference's ``observation_tensor`` past the cells, of the seat to move (a
        finished game: the spectator's, slot k seat k, nobody to move)."""
        t = self.t
        k, players = len(rows), self.env.players
        over = self.over[rows]
        obs = np.zeros((k, t.obs_size - t.players0), dtype=np.float32)
        me = np.where(over, 0, self.player[rows])
        seats = (me[:, None] + np.arange(players)) % players  # slot j's seat
        slots = obs[:, : players * SLOT].reshape(k, players, SLOT)
        slots[:, :, :16] = self.pile[rows[:, None], seats]
        slots[:, :, 16:26] = self.front[rows[:, None], seats]
        slots[:, :, 26:42] = self.taught[rows[:, None], seats]
        slots[:, :, 42] = self.discs[rows[:, None], seats] @ self.disc_values
        slots[:, 0, 43] = np.where(over, 0.0, 1.0)
        g = t.globals0 - t.players0
        obs[np.arange(k), g + self.axis[rows]] = 1.0
        obs[np.arange(k), g + 3 + self.pending[rows]] = 1.0
        obs[:, g + 10] = self.order[rows]
        obs[:, g + 11 : g + 37] = self.beside[rows, :26]
        obs[:, g + 37] = self.pan_left[rows].sum(axis=1)
        return obs

    def final_points(self, rows: Array) -> Array:
        """``points(p)`` of the reference for the finished games in ``rows`` (k, players):
        cards, Teacher's cards, discs, the Prospector, and the kept Townsfolk's end scores."""
        pile, front = self.pile[rows], self.front[rows]
        discs = self.discs[rows]
        pts: Array = (pile * POINTS16).sum(axis=2)
        pts += (self.taught[rows] * np.abs(POINTS16)).sum(axis=2)  # Pebbles count positive
        pts += discs @ self.disc_values
        k, players = len(rows), self.env.players
        prospector = self.last[rows][:, None] == np.arange(players)
        pts += np.where(prospector, COMPONENTS.prospector_points, 0)
        kept = front.transpose(2, 0, 1)  # (10, k, players)
        # Commander: "worth points equal to the number of gold nugget discs" (decision 8),
        # "doubled" with the Prospector
        pts += kept[C.COMMANDER - T0] * discs.sum(axis=2) * np.where(prospector, 2, 1)
        # Swindler: halves the most costly Pebble cards, one each (decision 10)
        swindlers = kept[C.SWINDLER - T0]
        if swindlers.any():
            cum = np.cumsum(pile[:, :, PEBBLES_DOWN], axis=2)
            for j in range(int(swindlers.max())):
                nth = (cum <= j).sum(axis=2)  # the (j+1)-th most costly Pebble's place
                has = (nth < len(PEBBLES_DOWN)) & (swindlers > j)
                v = PEBBLE_VALUES_DOWN[np.minimum(nth, len(PEBBLES_DOWN) - 1)]
                pts += np.where(has, v - v // 2, 0)
        # Courier: "the number of Pebble cards the player collected"
        pts += kept[C.COURIER - T0] * pile[:, :, C.PEBBLE0 : C.SHERIFF].sum(axis=2)
        # Innkeeper: "the number of Townsfolk cards the player collected in total"
        pts += kept[C.INNKEEPER - T0] * front.sum(axis=2)
        # Telegraph Operator: "the number of Gold cards that remain on the table"
        gold_left = (self.grid[rows] < C.PEBBLE0).sum(axis=1)
        pts += kept[C.TELEGRAPH - T0] * gold_left[:, None]
        assert pts.shape == (k, players)
        return pts

    def out(self, rewards: Array, done: Array) -> BatchStep:
        env = self.env
        to_move = np.where(self.over, TERMINAL, self.player)
        if env.trace:
            env.last_chance = self.traced()
        obs, mask = (self.obs.copy(), self.mask.copy()) if env.copy else (self.obs, self.mask)
        if not env.copy:
            obs, mask = obs.view(), mask.view()
            obs.flags.writeable = mask.flags.writeable = False
        return BatchStep(obs=obs, mask=mask, to_move=to_move, rewards=rewards, done=done)

    def traced(self) -> tuple[Array, Array]:
        """This call's chance outcomes per row, in the reference's order, ``-1`` padded
        (for tests and replays, not the hot path: a loop over the traced rows)."""
        per_row: dict[int, list[int]] = {}
        for rows, outcomes in self.trace:
            for row, out in zip(rows.tolist(), outcomes.tolist(), strict=True):
                per_row.setdefault(row, []).extend(out)
        order = sorted(per_row)
        width = max((len(v) for v in per_row.values()), default=0)
        table = np.full((len(order), width), -1, dtype=np.int16)
        for i, row in enumerate(order):
            table[i, : len(per_row[row])] = per_row[row]
        return np.array(order, dtype=np.intp), table

    def sample(self, rng: np.random.Generator) -> Array:
        picked: Array = random_actions(self.mask, rng)
        return picked

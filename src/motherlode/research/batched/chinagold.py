"""Batched Chinagold: N games stepped together as arrays, equal to the reference move for move.

Every row of the batch is one game of :class:`~motherlode.games.chinagold.ChinagoldGame`
with the same configuration (every option of ``ChinagoldConfig``: layout, river rotation,
roles, first player, edge probability, turn limit). A step takes one decision id per row
(the reference's action ids: 853 turnings, 91 reburials, pass), applies it, carries the
gold of completed areas away (mover first), recomputes the discs in play, and throws them
for the next turn inside the step, with the reference's probabilities. So every row always
stands at a decision: the batch never shows a chance node. A finished game's returns come
back in ``rewards`` and, with ``auto_reset``, a new game is dealt (and thrown) in its row.

>>> import numpy as np
>>> from motherlode.research.batched.chinagold import BatchedChinagold
>>> env = BatchedChinagold(4, seed=1)
>>> env.num_actions, env.obs_shape
(945, (652,))
>>> first = env.reset()
>>> first.obs.shape, first.mask.shape, first.to_move.tolist()
((4, 652), (4, 945), [0, 0, 0, 0])
>>> rng = np.random.default_rng(0)
>>> for _ in range(300):
...     legal = env.legal_ids()
...     out = env.step(np.array([rng.choice(ids) for ids in legal]))
>>> out.obs.shape, out.rewards.shape, out.done.dtype
((4, 652), (4, 2), dtype('bool'))

The board is kept as boolean spot arrays ``(91, N)``, feature-major (face-down markers,
gold on the board), so that a gather copies whole rows of N games; ``obs`` and ``mask``
are handed out as their ``(N, ...)`` transposed views. The full windows (every straight
run of face-down markers) are built length by length: a window of length k is full when
its first k - 1 spots are (a window of length k - 1) and its last spot is face down, so
all 853 cost one gather and one ``&`` each. Area counts are a matrix product with the
34 x 91 membership of the 17 mountains and 17 rivers, handed back to the spots by one
gather. The whole step is whole-array operations over N through an array namespace ``xp``: the
functions use only what ``jax.numpy`` also has and never write into an array in place, so
``backend="jax"`` runs the same functions under ``jax.jit``.

With ``trace=True`` the engine keeps, per call, the decisions it applied and the throw
each row drew (:attr:`BatchedChinagold.chance`), and :meth:`BatchedChinagold.histories`
turns them into each row's games as reference action lists (throws and decisions
interleaved) that ``state.apply_action`` replays.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from motherlode.core.protocol import TERMINAL
from motherlode.games.chinagold.board import BOARD, NUM_REGIONS, NUM_SPOTS
from motherlode.games.chinagold.game import (
    NUM_ACTIONS,
    NUM_TURNINGS,
    OBS_GLOBALS,
    OBS_PLANES,
    PASS,
    REBURY_BASE,
    ChinagoldGame,
)
from motherlode.research.batched.base import Array, BatchStep

NO_THROW = -1
"""What :attr:`BatchedChinagold.chance` holds for a row that drew no throw (no more
throwing, or a finished game without auto-reset)."""

MAX_TOTAL = 5


@dataclass(frozen=True)
class Tables:
    """The fixed geometry and the configuration as arrays, built once per engine."""

    win_len: Array  # (853,) int: the length of each turning window
    prefix: tuple[Array, ...]  # per length 2..5: the window without its last spot (its
    # index among the windows one shorter)
    last: tuple[Array, ...]  # per length 2..5: the window's last spot
    turn_spots: Array  # (91, 945) bool: the spots an action turns face up
    rebury_spots: Array  # (91, 945) bool: the spot an action reburies
    members: Array  # (34, 91) float32: spot s in mountain j (j < 17), in river j - 17
    area_cols: Array  # (182,) int: each spot's mountain column, then each spot's river column
    planes_cols: Array  # (364,) int: the columns of [area counts of face-down markers, of
    # gold] (68) that make planes 3..6 for a mover in the mountains: each spot's mountain,
    # river, mountain, river; a mover in the rivers reads them with the pairs swapped
    len_slices: tuple[tuple[int, int], ...]  # per length 1..5: the id range of its windows
    cum: Array  # (4, 5) float64: cumulative throw probabilities per stage (1..5), inf padded
    outcomes: Array  # (4,) int: how many totals each stage can throw
    gold_frac: Array  # (92,) float32: k / 91, the gold collected in the tensor
    turn_frac: Array  # (max_turns + 1,) float32: k / max_turns, the turn in the tensor
    mountains_player: int
    first_player: int
    max_turns: int


def build_tables(game: ChinagoldGame) -> Tables:
    """Every table the step needs, from the reference game (its board, layout and config)."""
    windows = BOARD.all_windows
    win_len = np.array([w.length for w in windows], dtype=np.int64)
    prefix, last, len_slices = [], [], []
    start = 0
    for k in range(1, MAX_TOTAL + 1):
        ws = BOARD.windows[k]
        len_slices.append((start, start + len(ws)))
        assert all(w.id == start + i for i, w in enumerate(ws)), "window ids not by length"
        start += len(ws)
        if k > 1:
            base = len_slices[k - 2][0]
            prefix.append(np.array([BOARD.by_spots[frozenset(w.spots[:-1])].id - base for w in ws]))
            last.append(np.array([w.spots[-1] for w in ws]))
    turn_spots = np.zeros((NUM_ACTIONS, NUM_SPOTS), dtype=bool)
    for w in windows:
        turn_spots[w.id, list(w.spots)] = True
    rebury_spots = np.zeros((NUM_ACTIONS, NUM_SPOTS), dtype=bool)
    rebury_spots[np.arange(REBURY_BASE, PASS), np.arange(NUM_SPOTS)] = True
    mountain_col = np.array(game.mountain_of, dtype=np.int64)
    river_col = NUM_REGIONS + np.array(game.river_of, dtype=np.int64)
    members = np.zeros((NUM_SPOTS, 2 * NUM_REGIONS), dtype=np.float32)
    members[np.arange(NUM_SPOTS), mountain_col] = 1.0
    members[np.arange(NUM_SPOTS), river_col] = 1.0
    gold_cols = 2 * NUM_REGIONS  # the gold counts follow the face-down counts
    as_mountains = np.concatenate(
        [mountain_col, river_col, gold_cols + mountain_col, gold_cols + river_col]
    )
    cum = np.full((4, MAX_TOTAL), np.inf)
    outcomes = np.zeros(4, dtype=np.int64)
    for stage, dist in game.throws.items():
        if stage == 0:  # no throw (the reference keeps a formal [(0, 1.0)])
            continue
        assert [t for t, _ in dist] == list(range(1, len(dist) + 1)), "throws not 1..n"
        cum[stage, : len(dist)] = np.cumsum([p for _, p in dist])
        outcomes[stage] = len(dist)
    cfg = game.cfg
    return Tables(
        win_len=win_len,
        prefix=tuple(prefix),
        last=tuple(last),
        turn_spots=np.ascontiguousarray(turn_spots.T),
        rebury_spots=np.ascontiguousarray(rebury_spots.T),
        members=np.ascontiguousarray(members.T),
        area_cols=np.concatenate([mountain_col, river_col]),
        planes_cols=as_mountains,
        len_slices=tuple(len_slices),
        cum=cum,
        outcomes=outcomes,
        gold_frac=(np.arange(NUM_SPOTS + 1) / NUM_SPOTS).astype(np.float32),
        turn_frac=(np.arange(cfg.max_turns + 1) / cfg.max_turns).astype(np.float32),
        mountains_player=cfg.mountains_player,
        first_player=cfg.first_player,
        max_turns=cfg.max_turns,
    )


class Games(NamedTuple):
    """The N positions, the reference state's fields, one column per game: the arrays are
    feature-major (a spot's row holds it in all N games) so that every gather of the step
    copies whole rows of N; the results are handed out transposed, as ``(N, ...)`` views."""

    hidden: Array  # (91, N) bool: face-down markers
    gold: Array  # (91, N) bool: face-up gold on the board
    collected: Array  # (2, N) int: gold carried away per seat
    player: Array  # (N,) int: the seat to decide (after the game: the next seat)
    roll: Array  # (N,) int: the thrown total, 0 with no throw
    turn: Array  # (N,) int: decisions made so far
    stage: Array  # (N,) int: the discs in play, 3..0 (game.STAGE_DISCS)
    over: Array  # (N,) bool: the game has ended


# -- the step as whole-array functions over an array namespace xp --------------------------


def full_windows(xp: ModuleType, t: Tables, hidden: Array) -> Array:
    """``(853, N)`` bool: every window whose spots are all face down."""
    # a window of length k = its prefix of length k - 1 (among those windows) + its last spot
    blocks = [hidden]
    for prefix, last in zip(t.prefix, t.last, strict=True):
        blocks.append(xp.take(blocks[-1], prefix, axis=0) & xp.take(hidden, last, axis=0))
    full: Array = xp.concatenate(blocks, axis=0)
    return full


def stage_from(xp: ModuleType, t: Tables, full: Array) -> Array:
    """``(N,)`` int: 3, 2, 1 or 0 as ``game.stage_of``: the ways left to turn 5, 4, 3."""
    ways = [full[a:b].sum(axis=0, dtype=xp.int32) for a, b in t.len_slices]
    stage: Array = xp.where(
        ways[4] >= 2, 3, xp.where(ways[3] >= 2, 2, xp.where(ways[2] >= 2, 1, 0))
    ).astype(xp.int32)
    return stage


def legal_mask(xp: ModuleType, t: Tables, g: Games, full: Array) -> Array:
    """``(945, N)`` bool: the reference's ``legal_actions`` (none for finished games)."""
    live = ~g.over
    free = live & (g.stage == 0)  # no more throwing: turn 1 or 2 markers
    blocks = []
    for k, (a, b) in enumerate(t.len_slices, start=1):
        allowed = (live & (g.roll == k)) | free if k <= 2 else live & (g.roll == k)
        blocks.append(full[a:b] & allowed[None, :])
    blocks.append(g.gold & (live & (g.stage > 0))[None, :])
    some = xp.zeros_like(live)
    for block in blocks:
        some = some | block.any(axis=0)
    blocks.append((live & ~some)[None, :])  # pass
    mask: Array = xp.concatenate(blocks, axis=0)
    return mask


def apply_decisions(xp: ModuleType, t: Tables, g: Games, actions: Array) -> Games:
    """Apply one decision per live game (finished ones stay as they are), without the throw."""
    live = ~g.over
    turned = xp.take(t.turn_spots, actions, axis=1) & live[None, :]
    reburied = xp.take(t.rebury_spots, actions, axis=1) & live[None, :]
    hidden = (g.hidden & ~turned) | reburied
    gold = (g.gold | turned) & ~reburied
    # areas the turning completed: touched by it, no face-down marker left
    left = t.members @ hidden.astype(xp.float32)
    touched = (t.members @ turned.astype(xp.float32)) > 0
    complete = xp.take((left == 0) & touched, t.area_cols, axis=0)  # per spot, both areas
    in_mountain = complete[:NUM_SPOTS]
    in_river = complete[NUM_SPOTS:]
    mover_mountains = (g.player == t.mountains_player)[None, :]
    mine = xp.where(mover_mountains, in_mountain, in_river)
    theirs = xp.where(mover_mountains, in_river, in_mountain)
    take_mine = gold & mine  # the mover collects first
    gold = gold & ~take_mine
    take_theirs = gold & theirs  # then the opponent, what is left
    gold = gold & ~take_theirs
    n_mine = take_mine.sum(axis=0)
    n_theirs = take_theirs.sum(axis=0)
    p1_moved = g.player == 0
    collected = g.collected + xp.stack(
        [xp.where(p1_moved, n_mine, n_theirs), xp.where(p1_moved, n_theirs, n_mine)], axis=0
    )
    step = live.astype(xp.int32)
    turn = g.turn + step
    over = g.over | (live & (~hidden.any(axis=0) | (turn >= t.max_turns)))
    return Games(
        hidden=hidden,
        gold=gold,
        collected=collected,
        player=g.player ^ step,
        roll=xp.zeros_like(g.roll),
        turn=turn,
        stage=g.stage,  # set by the caller from the full windows
        over=over,
    )


def fresh(xp: ModuleType, t: Tables, n: int) -> Games:
    """``n`` games at the start (before the first throw)."""
    return Games(
        hidden=xp.ones((NUM_SPOTS, n), dtype=bool),
        gold=xp.zeros((NUM_SPOTS, n), dtype=bool),
        collected=xp.zeros((2, n), dtype=xp.int32),
        player=xp.full((n,), t.first_player, dtype=xp.int32),
        roll=xp.zeros((n,), dtype=xp.int32),
        turn=xp.zeros((n,), dtype=xp.int32),
        stage=xp.full((n,), 3, dtype=xp.int32),
        over=xp.zeros((n,), dtype=bool),
    )


def select(xp: ModuleType, which: Array, a: Games, b: Games) -> Games:
    """Game by game (the last axis): ``a`` where ``which``, else ``b``."""
    return Games(*(xp.where(which, x, y) for x, y in zip(a, b, strict=True)))


def throw(xp: ModuleType, t: Tables, g: Games, u: Array) -> Games:
    """Throw the discs in play for every live game that throws, from uniforms ``u`` in
    [0, 1): the first total whose cumulative probability exceeds ``u``."""
    cum = xp.take(t.cum, g.stage, axis=0)  # (N, 5)
    count = xp.take(t.outcomes, g.stage, axis=0)
    index = xp.minimum((cum <= u[:, None]).sum(axis=1), count - 1)
    roll = xp.where(~g.over & (g.stage > 0), index + 1, 0).astype(xp.int32)
    return g._replace(roll=roll)


def observe(xp: ModuleType, t: Tables, g: Games) -> Array:
    """``(652, N)`` float32: the reference's ``observation_tensor(player)`` of each game."""
    hidden = g.hidden
    gold = g.gold
    f32 = xp.float32
    counts = xp.concatenate([t.members @ hidden.astype(f32), t.members @ gold.astype(f32)], 0)
    counts = counts / 8.0  # k / 8 is exact in float32
    mountains = (g.player == t.mountains_player)[None, :]
    by_spot = xp.take(counts, t.planes_cols, axis=0).reshape(2, 2, NUM_SPOTS, -1)
    swapped = by_spot[:, ::-1]  # (the river's count, then the mountain's): a view
    areas = xp.where(mountains, by_spot, swapped).reshape(4 * NUM_SPOTS, -1)
    me = g.player
    totals = xp.arange(MAX_TOTAL + 1)
    stages = xp.arange(4)
    shown_stage = xp.where(g.over, 0, g.stage)
    mine = xp.where(me == 0, g.collected[0], g.collected[1])
    theirs = xp.where(me == 0, g.collected[1], g.collected[0])
    # the quotients from tables made as the reference makes them (float64, then float32):
    # XLA would multiply by a rounded reciprocal
    scalars = xp.stack(
        [
            xp.take(t.gold_frac, mine),
            xp.take(t.gold_frac, theirs),
            xp.take(t.turn_frac, g.turn),
            (~g.over).astype(f32),
            (me == t.mountains_player).astype(f32),
        ],
        axis=0,
    )
    obs: Array = xp.concatenate(
        [
            hidden.astype(f32),
            gold.astype(f32),
            (~hidden & ~gold).astype(f32),
            areas,
            (totals[:, None] == g.roll[None, :]).astype(f32),
            (stages[:, None] == shown_stage[None, :]).astype(f32),
            scalars,
        ],
        axis=0,
    )
    return obs


def returns_of(xp: ModuleType, g: Games, ended: Array) -> Array:
    """``(N, 2)`` float32: +1 / -1 / 0 0 by the gold collected for games that ``ended``."""
    lead = xp.sign(g.collected[0] - g.collected[1])
    out = xp.stack([lead, -lead], axis=1).astype(xp.float32)
    rewards: Array = xp.where(ended[:, None], out, xp.zeros_like(out))
    return rewards


# -- the environment ----------------------------------------------------------------------


class Advanced(NamedTuple):
    """What one step makes: the next positions (thrown), their full windows, the step's
    rewards and which games ended in it."""

    games: Games
    full: Array
    rewards: Array
    ended: Array


def advance(
    xp: ModuleType,
    t: Tables,
    auto_reset: bool,
    games: Games,
    actions: Array,
    u: Array,
) -> Advanced:
    """One decision per game, the areas carried away, the discs recomputed, finished games
    dealt anew (``auto_reset``), and the next throw from the uniforms ``u``: the whole step."""
    live = ~games.over
    played = apply_decisions(xp, t, games, xp.where(live, actions, PASS))
    full = full_windows(xp, t, played.hidden)
    played = played._replace(stage=stage_from(xp, t, full))
    ended = played.over & live
    rewards = returns_of(xp, played, ended)
    if auto_reset:
        played = select(xp, ended, fresh(xp, t, live.shape[0]), played)
        full = full | ended[None, :]  # on a fresh board every window is full
    return Advanced(throw(xp, t, played, u), full, rewards, ended)


def present(
    xp: ModuleType, t: Tables, games: Games, full: Array, observations: bool = True
) -> tuple[Array, Array, Array]:
    """``(mask (N, 945), obs (N, 652), to_move (N,))`` of the positions (``obs`` ``(N, 0)``
    without ``observations``: a playout needs none)."""
    mask = legal_mask(xp, t, games, full).T
    n = games.over.shape[0]
    obs = observe(xp, t, games).T if observations else xp.zeros((n, 0), dtype=xp.float32)
    to_move = xp.where(games.over, TERMINAL, games.player)
    return mask, obs, to_move


class BatchedChinagold:
    """N Chinagold games as arrays (see the module docstring); ``**config`` as
    ``motherlode.load("chinagold", **config)``.

    ``backend="jax"`` (when ``jax`` is installed) runs the same step compiled by
    ``jax.jit``, on the default JAX device; its results are JAX arrays and its throws come
    from ``jax.random`` (float32 uniforms against the cumulative probabilities).
    ``trace=True`` keeps every call's decisions and throws for :meth:`histories`;
    ``observations=False`` leaves ``obs`` empty, ``(N, 0)`` (a playout's step).
    """

    def __init__(
        self,
        n: int,
        *,
        seed: int = 0,
        backend: str = "numpy",
        auto_reset: bool = True,
        trace: bool = False,
        observations: bool = True,
        **config: Any,
    ) -> None:
        if backend not in ("numpy", "jax"):
            raise ValueError(
                f"batched chinagold: backend {backend!r} is not available; 'numpy' or 'jax'"
            )
        if n < 1:
            raise ValueError(f"batched chinagold: the batch size must be at least 1, got {n}")
        self.n = n
        self.backend = backend
        self.game = ChinagoldGame.from_config(**config)
        regions = getattr(self.game.config, "regions", "")
        if regions:  # the tables below are the whole printed board's
            raise ValueError(
                f"batched chinagold: regions={regions!r} is not supported;"
                " the batched engine plays the whole board (use the reference engine,"
                " motherlode.load('chinagold', regions=...))"
            )
        self.tables = build_tables(self.game)
        self.auto_reset = auto_reset
        self.trace = trace
        self.observations = observations
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self._setup(backend)
        self.games: Games = fresh(self.xp, self.tables, n)
        self._full: Array = full_windows(self.xp, self.tables, self.games.hidden)
        self.mask: Array = np.zeros((n, NUM_ACTIONS), dtype=bool)
        self.chance: Array = np.full(n, NO_THROW, dtype=np.int32)
        """The throw each row drew in the last ``reset`` or ``step`` (the reference's outcome
        id, the total 1..5), or ``NO_THROW``; a numpy array with either backend."""
        self._started = False
        self.log: list[tuple[Array | None, Array, Array]] = []
        """With ``trace``: per call, (the decisions or ``None`` for a reset, ``chance``,
        ``done``), as numpy arrays."""

    def _setup(self, backend: str) -> None:
        """The array namespace, the compiled step and the uniforms of ``backend``."""
        t, auto_reset, observations = self.tables, self.auto_reset, self.observations
        if backend == "numpy":
            self.xp: ModuleType = np

            def step_np(g: Games, a: Array, u: Array) -> Advanced:
                return advance(np, t, auto_reset, g, a, u)

            def present_np(g: Games, full: Array) -> tuple[Array, Array, Array]:
                return present(np, t, g, full, observations)

            self._advance: Any = step_np
            self._present: Any = present_np
            self._uniform: Any = lambda: self.rng.random(self.n)
            return
        try:  # optional: imported by name, for the environments that have it
            jax = importlib.import_module("jax")
            jnp = importlib.import_module("jax.numpy")
        except ImportError:
            raise ValueError(
                "batched chinagold: backend 'jax' needs jax (pip install jax)"
            ) from None
        self.xp = jnp
        self._advance = jax.jit(lambda g, a, u: advance(jnp, t, auto_reset, g, a, u))
        self._present = jax.jit(lambda g, full: present(jnp, t, g, full, observations))
        self._key = jax.random.PRNGKey(self.seed)

        def uniform() -> Array:
            self._key, sub = jax.random.split(self._key)
            u: Array = jax.random.uniform(sub, (self.n,), dtype=jnp.float32)
            return u

        self._uniform = uniform

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def obs_shape(self) -> tuple[int, ...]:
        return (OBS_PLANES * NUM_SPOTS + OBS_GLOBALS,)

    @property
    def num_players(self) -> int:
        return 2

    def reset(self) -> BatchStep:
        """Deal N new games and throw for each; every row at its first decision."""
        xp, t = self.xp, self.tables
        self._full = xp.ones((NUM_TURNINGS, self.n), dtype=bool)
        self.games = throw(xp, t, fresh(xp, t, self.n), self._uniform())
        self.log.clear()
        self._started = True
        return self._result(xp.zeros((self.n, 2), dtype=xp.float32), xp.zeros(self.n, bool))

    def step(self, actions: Array) -> BatchStep:
        """Apply one decision id per row (ignored for a finished row without auto-reset);
        an illegal one raises ``ValueError`` naming its row and changes nothing."""
        if not self._started:
            raise ValueError("batched chinagold: call reset() before the first step")
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"batched chinagold: actions must be {self.n} integer ids, got shape"
                f" {acts.shape} of {acts.dtype}"
            )
        self._check(acts)
        acts = acts.astype(np.int32)
        out = self._advance(self.games, self.xp.asarray(acts), self._uniform())
        self.games, self._full = out.games, out.full
        return self._result(out.rewards, out.ended, acts)

    def _check(self, acts: Array) -> None:
        live = ~np.asarray(self.games.over)
        bad_range = live & ((acts < 0) | (acts >= NUM_ACTIONS))
        if bad_range.any():
            row = int(np.flatnonzero(bad_range)[0])
            raise ValueError(
                f"batched chinagold: row {row}: action {int(acts[row])} is not an action id"
                f" (0..{NUM_ACTIONS - 1})"
            )
        mask = np.asarray(self.mask)
        bad = live & ~mask[np.arange(self.n), np.clip(acts, 0, NUM_ACTIONS - 1)]
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"batched chinagold: row {row}: action {int(acts[row])} is not legal there"
                f" (its legal actions: the row's mask, {mask[row].sum()} ids)"
            )

    def _result(self, rewards: Array, done: Array, acts: Array | None = None) -> BatchStep:
        g = self.games
        # (N, ...) views of the feature-major arrays (numpy: no copy); the mask is read-only,
        # as the next step checks the decisions against it
        mask, obs, to_move = self._present(g, self._full)
        if isinstance(mask, np.ndarray):
            mask.flags.writeable = False
        self.mask = mask
        roll = np.asarray(g.roll)
        self.chance = np.where(roll > 0, roll, NO_THROW).astype(np.int32)
        if self.trace:
            self.log.append((acts, self.chance, np.asarray(done)))
        return BatchStep(obs=obs, mask=mask, to_move=to_move, rewards=rewards, done=done)

    # -- helpers outside the hot path -----------------------------------------------------

    def sample_actions(self, rng: np.random.Generator) -> Array:
        """``(N,)``: one uniformly random legal id per row (a finished row without
        auto-reset gets ``PASS``, which the step ignores), as whole numpy arrays.

        >>> env = BatchedChinagold(3, seed=2)
        >>> out = env.reset()
        >>> acts = env.sample_actions(np.random.default_rng(0))
        >>> bool(out.mask[np.arange(3), acts].all())
        True
        """
        rows, cols = np.nonzero(np.ascontiguousarray(self.mask))  # by row, then id
        counts = np.bincount(rows, minlength=self.n)
        first = np.cumsum(counts) - counts
        nth = np.minimum((rng.random(self.n) * counts).astype(np.int64), counts - 1)
        live = counts > 0
        if not live.any():
            return np.full(self.n, PASS, dtype=np.int64)
        chosen: Array = np.where(live, cols[np.where(live, first + nth, 0)], PASS)
        return chosen

    def legal_ids(self) -> list[Array]:
        """Each row's legal decision ids (a Python loop over the rows: for examples and
        tests, not for speed)."""
        return [np.flatnonzero(row) for row in np.asarray(self.mask)]

    def histories(self, row: int) -> list[list[int]]:
        """With ``trace``: the games played in ``row`` since the last ``reset``, each as the
        reference's actions (the throws and the decisions, in order); the last one is the
        game in progress. ``state.apply_action`` of each in turn replays it exactly."""
        if not self.trace:
            raise ValueError("batched chinagold: histories need trace=True")
        games: list[list[int]] = [[]]
        finished = False  # without auto-reset a finished row ignores its actions
        for acts, chance, done in self.log:
            if acts is not None and not finished:
                games[-1].append(int(acts[row]))
                if done[row]:
                    if not self.auto_reset:
                        finished = True
                        continue
                    games.append([])
            if chance[row] != NO_THROW:
                games[-1].append(int(chance[row]))
        return games

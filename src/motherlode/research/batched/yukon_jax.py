"""The JAX backend of :class:`~motherlode.research.batched.yukon.BatchedYukon` (``backend="jax"``).

The same rules as the numpy backend, written functionally: one pure step under ``jax.jit``
(the take, the end test, the returns, the next games of a pool dealt ahead put into the
rows whose game ended, the tensor built anew from the state), so that it runs wherever
JAX runs, a GPU included. The arrays it hands out are ``jax.Array``. ``pip install -e ".[jax]"``.

Its random stream is JAX's (``jax.random``), not numpy's: the same seed deals other games
than the numpy backend, and both deal uniformly (a uniform shuffle of the 49 cards).
"""

from __future__ import annotations

import contextlib
import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from motherlode.core.protocol import TERMINAL
from motherlode.games.yukon import cards as C
from motherlode.research.batched.base import BatchStep
from motherlode.research.batched.yukon import (
    ANY,
    CELLS,
    COL,
    DECK,
    EMPTY,
    LINE,
    NUM_ACTIONS,
    POINTS,
    PROSPECTOR_POINTS,
    ROW,
    SAME_ROW,
    SLOT,
    illegal,
)

if TYPE_CHECKING:
    from motherlode.research.batched.yukon import BatchedYukon

jax: Any = None
jnp: Any = None
# without jax the module stays importable (doctests); JaxCore says what is missing
with contextlib.suppress(ImportError):
    jax = importlib.import_module("jax")
    jnp = importlib.import_module("jax.numpy")
NO_JAX = 'yukon: backend="jax" needs JAX: pip install -e ".[jax]" (jax and jaxlib 0.10.2)'

State = dict[str, Any]


def _shuffle(key: Any, m: int) -> Any:
    """``m`` deals ``(m, 49)``: uniform shuffles of the 49 cards, the reference's ids."""
    order = jnp.argsort(jax.random.uniform(key, (m, CELLS)), axis=1)
    return jnp.asarray(DECK, dtype=jnp.int8)[order]


def _fresh(cards: Any, first_player: int, players: int) -> State:
    """The games of the deals ``cards``, before the first take."""
    n = cards.shape[0]
    sheriff = jnp.argmax(cards == C.SHERIFF, axis=1).astype(jnp.int32)
    return {
        "grid": jnp.where(cards == C.SHERIFF, jnp.int8(EMPTY), cards),
        "pos": sheriff,
        "axis": jnp.full(n, ANY, jnp.int32),
        "player": jnp.full(n, first_player, jnp.int32),
        "last": jnp.full(n, -1, jnp.int32),
        "pile": jnp.zeros((n, players, 16), jnp.float32),
        "points": jnp.zeros((n, players), jnp.int32),
        "over": jnp.zeros(n, bool),
    }


def pool_size(n: int) -> int:
    """Games dealt ahead: dealing many at once, now and then, is cheaper than a shuffle of
    every row at every step (a jitted step cannot deal only the rows that finished)."""
    return max(4 * n, 64)


def _mask(state: State) -> Any:
    legal = jnp.asarray(LINE)[state["axis"] * CELLS + state["pos"]] & (state["grid"] != EMPTY)
    legal = legal & ~state["over"][:, None]
    n = legal.shape[0]
    return jnp.concatenate([legal, jnp.zeros((n, NUM_ACTIONS - CELLS), bool)], axis=1)


def _obs(state: State, players: int) -> Any:
    """The reference's tensor of the seat to move, observer first (spectator when over)."""
    n = state["grid"].shape[0]
    kinds = jax.nn.one_hot(state["grid"].astype(jnp.int32), 29, dtype=jnp.float32)
    prospector = jax.nn.one_hot(state["pos"], CELLS, dtype=jnp.float32)[:, :, None]
    cells = jnp.concatenate([kinds, prospector], axis=2).reshape(n, -1)
    over = state["over"]
    first = jnp.where(over, 0, state["player"])
    seats = (first[:, None] + jnp.arange(players)) % players
    piles = jnp.take_along_axis(state["pile"], seats[:, :, None], axis=1)
    to_move = jnp.zeros((n, players, 1), jnp.float32).at[:, 0, 0].set(jnp.where(over, 0.0, 1.0))
    slots = jnp.concatenate([piles, jnp.zeros((n, players, SLOT - 17)), to_move], axis=2)
    slots = jnp.concatenate([slots, jnp.zeros((n, 4 - players, SLOT))], axis=1).reshape(n, -1)
    axis = jax.nn.one_hot(state["axis"], 3, dtype=jnp.float32)
    rest = jnp.zeros((n, 35), jnp.float32).at[:, 0].set(1.0).at[:, 7].set(1.0)  # pending, order
    return jnp.concatenate([cells, slots, axis, rest], axis=1)


def _returns(points: Any, teams: bool) -> Any:
    if teams:
        pair = points[:, 0:2] + points[:, 2:4]
        points = pair[:, jnp.array([0, 1, 0, 1])]
    win = points == points.max(axis=1, keepdims=True)
    out = jnp.where(win, 1.0, -1.0).astype(jnp.float32)
    return jnp.where(win.all(axis=1, keepdims=True), 0.0, out)


def _take(state: State, t: Any, players: int) -> State:
    rows = jnp.arange(t.shape[0])
    live = ~state["over"]
    pos, axis, p = state["pos"], state["axis"], state["player"]
    kind = state["grid"][rows, t].astype(jnp.int32)
    moved = jnp.where(axis == ANY, jnp.where(jnp.asarray(SAME_ROW)[pos, t], ROW, COL), axis)
    gain = jnp.where(live, 1.0, 0.0)
    new = {
        "grid": state["grid"]
        .at[rows, t]
        .set(jnp.where(live, jnp.int8(EMPTY), state["grid"][rows, t])),
        "pos": jnp.where(live, t, pos),
        "axis": jnp.where(live, 1 - moved, axis),
        "player": jnp.where(live, (p + 1) % players, p),
        "last": jnp.where(live, p, state["last"]),
        "pile": state["pile"].at[rows, p, kind].add(gain),
        "points": state["points"].at[rows, p].add(jnp.where(live, jnp.asarray(POINTS)[kind], 0)),
        "over": state["over"],
    }
    return new


@cache
def make_step(n: int, players: int, first_player: int, auto_reset: bool, observe: bool) -> Any:
    """The jitted ``step(state, key, actions) -> (state, key, outputs)`` (one per shape)."""
    teams = players == 4

    m = pool_size(n)

    def step(
        state: State, pool: Any, key: Any, actions: Any
    ) -> tuple[State, Any, Any, tuple[Any, ...]]:
        live = ~state["over"]
        state = _take(state, actions.astype(jnp.int32), players)
        legal = _mask(state)
        done = live & ~legal[:, :CELLS].any(axis=1)
        final = state["points"].at[jnp.arange(n), state["last"]].add(PROSPECTOR_POINTS)
        rewards = jnp.where(done[:, None], _returns(final, teams), 0.0)
        if auto_reset:  # the finished rows take the next games of the pool, in row order
            key, sub = jax.random.split(key)
            cards, taken = pool
            cards, taken = jax.lax.cond(
                taken + n > m,
                lambda: (_shuffle(sub, m), jnp.int32(0)),
                lambda: (cards, taken),
            )
            deals = cards[jnp.clip(taken + jnp.cumsum(done) - 1, 0, m - 1)]
            pool = (cards, taken + done.sum(dtype=jnp.int32))
            fresh = _fresh(deals, first_player, players)
            deals = deals.astype(jnp.int16)
            state = jax.tree_util.tree_map(
                lambda a, b: jnp.where(done.reshape((n,) + (1,) * (a.ndim - 1)), b, a),
                state,
                fresh,
            )
        else:
            state = {**state, "over": state["over"] | done}
            deals = jnp.zeros((n, CELLS), jnp.int16)
        obs = _obs(state, players) if observe else jnp.zeros((n, 0), jnp.float32)
        outputs = (obs, _mask(state), _to_move(state), rewards, done, deals)
        return state, pool, key, outputs

    return jax.jit(step)


@cache
def make_reset(n: int, players: int, first_player: int) -> Any:
    """The jitted deal of ``n`` games and of the pool after them (one per shape)."""

    def reset(key: Any) -> tuple[State, Any, Any]:
        cards = _shuffle(key, pool_size(n))
        return _fresh(cards[:n], first_player, players), (cards, jnp.int32(n)), cards[:n]

    return jax.jit(reset)


def _to_move(state: State) -> Any:
    return jnp.where(state["over"], TERMINAL, state["player"])


class JaxCore:
    """Holds the state between jitted steps; checks legality on the host when asked."""

    def __init__(self, env: BatchedYukon, seed: int) -> None:
        if jax is None:
            raise ImportError(NO_JAX)
        self.env = env
        self.key = jax.random.key(seed)
        self._step = make_step(
            env.n, env.players, env.first_player, env.auto_reset, env.observations
        )
        self._reset = make_reset(env.n, env.players, env.first_player)
        self.state: State | None = None
        self.pool: Any = None  # (the games dealt ahead, how many of them are taken)
        self.mask: Any = None

    def reset(self) -> BatchStep:
        env = self.env
        self.key, sub = jax.random.split(self.key)
        self.state, self.pool, deals = self._reset(sub)
        if env.trace:
            env.last_chance = (np.arange(env.n), np.asarray(deals).astype(np.int16))
        self.mask = _mask(self.state)
        n = env.n
        return BatchStep(
            obs=_obs(self.state, env.players)
            if env.observations
            else jnp.zeros((env.n, 0), jnp.float32),
            mask=self.mask,
            to_move=_to_move(self.state),
            rewards=jnp.zeros((n, env.players), jnp.float32),
            done=jnp.zeros(n, bool),
        )

    def step(self, actions: Any) -> BatchStep:
        env = self.env
        if self.state is None:
            raise ValueError("yukon: reset() before the first step")
        a = jnp.asarray(actions)
        if a.shape != (env.n,):
            raise ValueError(f"yukon: step takes one action per game, shape ({env.n},)")
        if env.check:
            host = np.asarray(actions, dtype=np.intp)
            ok = (host >= 0) & (host < NUM_ACTIONS)
            ok[ok] = np.asarray(self.mask)[np.flatnonzero(ok), host[ok]]
            if not env.auto_reset:
                ok |= np.asarray(self.state["over"])
            if not ok.all():
                raise illegal(host, ok)
        self.state, self.pool, self.key, out = self._step(self.state, self.pool, self.key, a)
        obs, mask, to_move, rewards, done, deals = out
        self.mask = mask
        if env.trace:
            rows = np.flatnonzero(np.asarray(done)) if env.auto_reset else np.zeros(0, np.intp)
            env.last_chance = (rows, np.asarray(deals)[rows])
        return BatchStep(obs=obs, mask=mask, to_move=to_move, rewards=rewards, done=done)

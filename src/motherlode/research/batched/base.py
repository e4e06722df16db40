"""What every batched engine's ``reset`` and ``step`` return (see the package docstring),
and the helpers the Yukon engines share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


@dataclass
class BatchStep:
    """The N games after a reset or a step, one row per game.

    * ``obs``: ``(N, *obs_shape)`` float32, the reference's ``observation_tensor(to_move)``
      of each game's current position (after auto-reset: the new game's first decision);
    * ``mask``: ``(N, num_actions)`` bool, the reference's ``legal_actions()``;
    * ``to_move``: ``(N,)`` int, the seat to decide;
    * ``rewards``: ``(N, players)`` float32, the returns of a game that ended in this step
      (the reference's ``returns()``), zeros otherwise;
    * ``done``: ``(N,)`` bool, the game ended in this step (and, with auto-reset, a new one
      was dealt in its row).
    """

    obs: Array
    mask: Array
    to_move: Array
    rewards: Array
    done: Array


def returns_of(points: Array, teams: bool) -> Array:
    """The protocol's ``returns()`` from final points ``(k, players)``: +1 for each winner
    (most points; ties share), -1 for the others, 0 for all when all tie. With ``teams``
    (4 players) a seat's points are its pair's total (seats 1+3, 2+4)."""
    if teams:
        pair = points[:, 0:2] + points[:, 2:4]
        points = pair[:, [0, 1, 0, 1]]
    best = points.max(axis=1, keepdims=True)
    win = points == best
    out = np.where(win, 1.0, -1.0).astype(np.float32)
    out[win.all(axis=1)] = 0.0
    return out


def random_actions(mask: Any, rng: np.random.Generator) -> Array:
    """A uniformly random legal action per row of any ``mask`` (``0`` where none is legal),
    the base game's or the expansion's. One uniform number per row picks the j-th of the
    row's legal ids (cheaper than a random number per id). ``env.sample_actions(rng)``
    draws the same from the engine's own state, faster.

    >>> m = np.zeros((3, 372), dtype=bool); m[0, [3, 9]] = True; m[1, 340] = True
    >>> a = random_actions(m, np.random.default_rng(0)); bool(a[0] in (3, 9)), a[1:].tolist()
    (True, [340, 0])
    """
    m = np.ascontiguousarray(np.asarray(mask))
    n, width = m.shape
    legal = np.flatnonzero(m)  # row-major: row r's legal ids, in order, then row r+1's
    if len(legal) == 0:
        return np.zeros(n, dtype=np.intp)
    start = np.searchsorted(legal, np.arange(n + 1) * width)
    count = np.diff(start)
    j = (rng.random(n) * count).astype(np.intp)
    picked: Array = np.where(count > 0, legal[np.minimum(start[:-1] + j, len(legal) - 1)], 0)
    picked %= width
    return picked

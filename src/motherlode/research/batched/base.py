"""What every batched engine's ``reset`` and ``step`` return (see the package docstring)."""

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

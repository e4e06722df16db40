"""Batched engines: N games stepped together as arrays (docs/research.md, "Batched engines").

Each engine plays the same game as the reference engine (``motherlode.load(name)``), move
for move: its decision ids are the reference's, its masks are the reference's legal
actions, its observations the reference's ``observation_tensor`` for the seat to move.
Chance is drawn inside :meth:`step` (the environment's own generator), every chance
outcome an env drew is kept when ``trace=True`` so that the reference engine can replay it.

* :mod:`.yukon`: ``BatchedYukon`` (the base game; ``backend="jax"`` in :mod:`.yukon_jax`;
  ``expansion=True``, the Townsfolk, in :mod:`.yukon_townsfolk`);
* :mod:`.chinagold`: ``BatchedChinagold``.

The array shapes are the contract of :class:`BatchStep`.
"""

from motherlode.research.batched.base import BatchStep
from motherlode.research.batched.yukon import BatchedYukon

__all__ = ["BatchStep", "BatchedYukon"]

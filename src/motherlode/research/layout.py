"""Machine-readable observation-tensor layouts: named slices with offsets and shapes.

A game that declares its layout (``Game.observation_layout()``: ``(name, offset, shape)``
in order, covering the flat tensor) gets it here as :class:`TensorSlice` objects; a game
that does not is one slice, ``observation``, the whole tensor. Spatial slices (a grid
board) have shape ``(rows, columns, planes)``.

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> cells = layout(game)["cells"]
>>> cells.offset, cells.shape, cells.size
(0, (7, 7, 30), 1470)
>>> state = motherlode.deal(game, seed=1)
>>> cells.view(state.observation_tensor(0)).shape
(7, 7, 30)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from motherlode.core.protocol import Game

__all__ = ["TensorSlice", "layout", "layout_json"]


@dataclass(frozen=True)
class TensorSlice:
    """One named part of a flat observation tensor."""

    name: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def view(self, tensor: Any) -> np.ndarray[Any, Any]:
        """This part of ``tensor`` (flat, or of the game's shape) in its own shape."""
        flat = np.asarray(tensor).reshape(-1)
        return flat[self.offset : self.offset + self.size].reshape(self.shape)


def layout(game: Game) -> dict[str, TensorSlice]:
    """The named slices of ``game``'s observation tensor, checked to tile it exactly."""
    total = math.prod(game.observation_tensor_shape())
    declare = getattr(game, "observation_layout", None)
    if declare is None:
        return {"observation": TensorSlice("observation", 0, (total,))}
    out: dict[str, TensorSlice] = {}
    offset = 0
    for name, start, shape in declare():
        if start != offset:
            raise AssertionError(f"{game.name} layout: {name} starts at {start}, not {offset}")
        out[name] = TensorSlice(name, start, tuple(shape))
        offset += out[name].size
    if offset != total:
        raise AssertionError(f"{game.name} layout covers {offset} of {total} values")
    return out


def layout_json(game: Game) -> list[dict[str, Any]]:
    """The layout as JSON-able rows (``name``, ``offset``, ``shape``)."""
    return [
        {"name": s.name, "offset": s.offset, "shape": list(s.shape)} for s in layout(game).values()
    ]

"""Machine-readable observation-tensor layouts: named slices with offsets, shapes and bounds.

A game that declares its layout (``Game.observation_layout()``: ``(name, offset, shape)``
in order, covering the flat tensor) gets it here as :class:`TensorSlice` objects; a game
that does not is one slice, ``observation``, the whole tensor. Spatial slices (a grid
board) have shape ``(rows, columns, planes)``; per-spot planes of a board that is not a
grid are ``(spots, planes)`` or ``(planes, spots)``, as each game's docstring says.

Bounds: ``Game.observation_bounds()`` maps each slice's name to ``(low, high)``, each a
number or a sequence broadcast over the slice's shape (numpy broadcasting: a sequence as
long as the last axis gives per-column bounds). Every value the game puts in that slice
lies in ``[low, high]``; :func:`bounds` gives them as two flat arrays (the PettingZoo and
Gymnasium adapters' ``Box``). A game that declares none has ``[-inf, inf]``.

Seats: every game's tensor is observer first. A per-seat block or plane lists the seats
from the observer on, slot ``k`` being seat ``(observer + k) % players`` (a spectator,
``None``, sees seat ``k`` in slot ``k``).

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> cells = layout(game)["cells"]
>>> cells.offset, cells.shape, cells.size
(0, (7, 7, 30), 1470)
>>> state = motherlode.deal(game, seed=1)
>>> cells.view(state.observation_tensor(0)).shape
(7, 7, 30)
>>> low, high = bounds(game)
>>> low.shape == high.shape == game.observation_tensor_shape()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from motherlode.core.protocol import Game

__all__ = ["OBS_BOUND", "TensorSlice", "bounds", "layout", "layout_json", "observation_box"]

OBS_BOUND = 1e9
"""The observation box of a game that declares no bounds: ``[-OBS_BOUND, OBS_BOUND]``."""

Bound = float | tuple[float, ...]


@dataclass(frozen=True)
class TensorSlice:
    """One named part of a flat observation tensor, with the bounds of its values."""

    name: str
    offset: int
    shape: tuple[int, ...]
    low: np.ndarray[Any, np.dtype[np.float32]] = field(compare=False, repr=False)
    high: np.ndarray[Any, np.dtype[np.float32]] = field(compare=False, repr=False)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def view(self, tensor: Any) -> np.ndarray[Any, Any]:
        """This part of ``tensor`` (flat, or of the game's shape) in its own shape."""
        flat = np.asarray(tensor).reshape(-1)
        return flat[self.offset : self.offset + self.size].reshape(self.shape)


def _bound(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    try:
        return np.broadcast_to(np.asarray(value, dtype=np.float32), shape)
    except ValueError:
        raise AssertionError(f"the bounds of {name} do not broadcast to {shape}") from None


def layout(game: Game) -> dict[str, TensorSlice]:
    """The named slices of ``game``'s observation tensor, checked to tile it exactly."""
    total = math.prod(game.observation_tensor_shape())
    declare = getattr(game, "observation_layout", None)
    rows = declare() if declare is not None else [("observation", 0, (total,))]
    declared = getattr(game, "observation_bounds", None)
    limits: dict[str, tuple[Any, Any]] = declared() if declared is not None else {}
    out: dict[str, TensorSlice] = {}
    offset = 0
    for name, start, shape in rows:
        if start != offset:
            raise AssertionError(f"{game.name} layout: {name} starts at {start}, not {offset}")
        shape = tuple(shape)
        low, high = limits.get(name, (-math.inf, math.inf))
        out[name] = TensorSlice(
            name, start, shape, _bound(name, low, shape), _bound(name, high, shape)
        )
        offset += out[name].size
    if offset != total:
        raise AssertionError(f"{game.name} layout covers {offset} of {total} values")
    if unknown := sorted(set(limits) - set(out)):
        raise AssertionError(f"{game.name} bounds name slices it does not have: {unknown}")
    return out


def bounds(
    game: Game,
) -> tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]:
    """``(low, high)``: the bounds of every value of ``game``'s tensor, in its shape."""
    parts = layout(game).values()
    shape = game.observation_tensor_shape()
    low = np.concatenate([p.low.reshape(-1) for p in parts]).reshape(shape)
    high = np.concatenate([p.high.reshape(-1) for p in parts]).reshape(shape)
    return low, high


def observation_box(
    game: Game,
) -> tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]:
    """The PettingZoo and Gymnasium observation Box's ``(low, high)``: the game's declared
    bounds, with ``[-OBS_BOUND, OBS_BOUND]`` where it declares none (a Box's bounds must
    be finite for its ``sample``). A value that is constant in this config (``low ==
    high``, such as Yukon's Townsfolk counts without the expansion) gets ``[low, low +
    1]``: Gymnasium's checker warns about a Box with an empty range.

    >>> import motherlode
    >>> low, high = observation_box(motherlode.load("yukon"))
    >>> float(low.min()), float(high.max()), low.shape
    (-1.0, 18.0, (1684,))
    """
    low, high = bounds(game)
    low = np.maximum(low, -OBS_BOUND).astype(np.float32)
    high = np.minimum(high, OBS_BOUND).astype(np.float32)
    return low, np.where(high > low, high, low + 1).astype(np.float32)


def _json_bound(values: np.ndarray[Any, Any]) -> Any:
    """One number when the slice shares it, else the nested list; infinities as None."""
    if values.size and (values == values.flat[0]).all():
        v = float(values.flat[0])
        return v if math.isfinite(v) else None
    return [_json_bound(np.asarray(x)) for x in values]


def layout_json(game: Game) -> list[dict[str, Any]]:
    """The layout as JSON-able rows (``name``, ``offset``, ``shape``, ``low``, ``high``).

    >>> import motherlode
    >>> layout_json(motherlode.load("yukon"))[2]
    {'name': 'axis', 'offset': 1646, 'shape': [3], 'low': 0.0, 'high': 1.0}
    """
    return [
        {
            "name": s.name,
            "offset": s.offset,
            "shape": list(s.shape),
            "low": _json_bound(s.low),
            "high": _json_bound(s.high),
        }
        for s in layout(game).values()
    ]

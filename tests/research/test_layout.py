"""Observation layouts: named slices tile each game's tensor exactly, for every config."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import motherlode
from motherlode.research.layout import layout, layout_json
from tests.adapters.cases import CASES


@pytest.mark.parametrize(("name", "config"), CASES)
def test_the_slices_tile_the_tensor(name: str, config: dict[str, Any]) -> None:
    game = motherlode.load(name, **config)
    parts = list(layout(game).values())  # layout() itself checks the tiling
    assert sum(p.size for p in parts) == int(np.prod(game.observation_tensor_shape()))
    assert [row["name"] for row in layout_json(game)] == [p.name for p in parts]


@pytest.mark.parametrize("expansion", [False, True])
def test_yukons_cells_are_planes_of_the_grid(expansion: bool) -> None:
    game = motherlode.load("yukon", expansion=expansion)
    cells = layout(game)["cells"]
    size = 8 if expansion else 7
    assert cells.shape == (size, size, 30)
    state = motherlode.deal(game, seed=4)
    planes = cells.view(state.observation_tensor(0))
    assert planes.sum(axis=2).max() <= 2  # one kind plane, plus the Prospector's
    assert planes[..., 29].sum() == 1  # the Prospector stands on one cell

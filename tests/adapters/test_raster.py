"""The SVG rasteriser behind the RGB renders (no optional dependency needed)."""

from __future__ import annotations

import numpy as np
import pytest

import motherlode
from motherlode.adapters.raster import svg_to_rgb
from motherlode.games import registry

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">{}</svg>'


def test_shapes_land_where_they_are_drawn() -> None:
    body = (
        '<defs><linearGradient id="g"><stop stop-color="#000000"/>'
        '<stop stop-color="#ffffff"/></linearGradient></defs>'
        '<rect x="0" y="0" width="5" height="5" fill="#00ff00"/>'
        '<circle cx="7.5" cy="7.5" r="2" fill="rgb(0,0,255)"/>'
        '<polygon points="6,0 10,0 10,4" fill="url(#g)"/>'
        '<line x1="0" y1="9.5" x2="4" y2="9.5" stroke="red" stroke-width="1"/>'
        '<path d="M0,6 l3,0 l0,2 Z" fill="#f00"/>'
    )
    img = svg_to_rgb(SVG.format(body))
    assert img.shape == (10, 10, 3) and img.dtype == np.uint8
    assert img[2, 2].tolist() == [0, 255, 0]
    assert img[7, 7].tolist() == [0, 0, 255]
    assert img[0, 9].tolist() == [128, 128, 128]  # a gradient paints its mean stop colour
    assert img[9, 1].tolist() == [255, 0, 0]
    assert img[6, 2].tolist() == [255, 0, 0]
    assert img[3, 7].tolist() == [255, 255, 255]  # below the triangle: the background


def test_scale_and_opacity() -> None:
    body = '<rect x="0" y="0" width="10" height="10" fill="black" opacity="0.5"/>'
    img = svg_to_rgb(SVG.format(body), scale=0.5)
    assert img.shape == (5, 5, 3)
    assert img[2, 2].tolist() == [128, 128, 128]


@pytest.mark.parametrize("name", list(registry()))
def test_every_board_rasterises(name: str) -> None:
    state = motherlode.deal(motherlode.load(name), seed=3)
    img = svg_to_rgb(state.render_svg(None), scale=0.4)
    assert img.ndim == 3 and img.shape[2] == 3 and min(img.shape[:2]) > 20
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 3  # a picture, not a blank

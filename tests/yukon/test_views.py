"""The text and SVG boards: coordinates, legends, and buttons only for the seat to move."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import motherlode
from tests.yukon.helpers import base, expansion, position

SVG = "{http://www.w3.org/2000/svg}"


def _actions(svg: str) -> list[str]:
    return [
        el.attrib["data-action"] for el in ET.fromstring(svg).iter() if "data-action" in el.attrib
    ]


def test_text_board_has_coordinates_a_legend_and_the_next_line() -> None:
    s = motherlode.deal(base(), seed=3)
    lines = str(s).splitlines()
    assert lines[0].split() == list("abcdefg")
    assert [line.split()[0] for line in lines[1:8]] == [str(r) for r in range(1, 8)]
    assert "  legend: +N Gold card, -N Pebble card, @ the Prospector, . an empty place" in lines
    assert "  next take from row 2 or column d" in lines
    s.apply_string("d5")
    assert "  next take from row 5" in str(s).splitlines()


def test_text_board_legend_names_the_townsfolk_in_the_expansion() -> None:
    text = str(motherlode.deal(expansion(), seed=3))
    assert (
        "Tr Trapper" in text
        and "To Telegraph Operator" in text
        and "PaN a Pan with N discs" in text
    )


def test_svg_has_coordinates_and_a_legend_drawn_with_shapes() -> None:
    svg = motherlode.deal(base(), seed=3).render_svg(0)
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert set("abcdefg") <= set(texts) and {str(r) for r in range(1, 8)} <= set(texts)
    for word in ("Gold (plus)", "Pebble (minus)", "the Prospector", "may be taken"):
        assert word in texts
    assert "★" not in svg and "▶" not in svg  # no glyph a browser may lack


def test_choice_buttons_only_for_the_seat_to_move() -> None:
    s = position(expansion(), ["@ Tr +8", ". +3"], players=["+5.+2|-|-|-", "-|-|-|-"])
    s.apply_string("b1")  # the Trapper: P1 chooses a Gold card to give up
    assert sorted(_actions(s.render_svg(0))) == ["discard +2", "discard +5"]
    assert _actions(s.render_svg(1)) == []
    assert _actions(s.render_svg(None)) == []  # a spectator sees no buttons


def test_svg_offers_a_narrow_layout_with_the_panel_under_the_grid() -> None:
    """For a phone (static/layout.js): a view box as wide as the grid, and the side panel
    (every element with data-side: the status, the players, the buttons) moved under the
    legend, inside that view box (issue 21)."""
    s = position(expansion(), ["@ Tr +8", ". +3"], players=["+5.+2|-|-|-", "-|-|-|-"])
    s.apply_string("b1")  # the Trapper: P1's buttons are in the panel too
    root = ET.fromstring(s.render_svg(0))
    hint = next(el for el in root.iter() if "data-narrow" in el.attrib)
    _, _, w, h = (float(v) for v in hint.attrib["data-narrow"].split())
    dx, dy = (float(v) for v in hint.attrib["data-shift"].split())
    assert hint.attrib["data-below"] == "700"
    cards = [el for el in root.iter(f"{SVG}rect") if el.attrib.get("width") == "64"]
    grid_right = max(float(c.attrib["x"]) + 64 for c in cards)
    grid_bottom = max(float(c.attrib["y"]) + 88 for c in cards)
    assert grid_right < w <= grid_right + 20  # the grid takes the narrow width
    side = [el for el in root.iter() if "data-side" in el.attrib]
    ids = {el.attrib["id"] for el in side}
    assert {"status", "p1-name", "p1-panel", "p2-name", "p2-panel", "choose", "choice-1"} <= ids
    for el in side:  # each moved under the grid's legend and inside the narrow view box
        xs = [float(e.attrib[k]) for e in el.iter() for k in ("x", "x1") if k in e.attrib]
        ys = [float(e.attrib[k]) for e in el.iter() for k in ("y", "y1") if k in e.attrib]
        if not xs:
            continue  # (an empty pile)
        assert min(xs) + dx > 0 and max(xs) + dx < w, el.attrib["id"]
        assert grid_bottom + 60 < min(ys) + dy and max(ys) + dy < h, el.attrib["id"]

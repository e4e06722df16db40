"""Observation, tensor, text board and SVG board."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from motherlode.games.chinagold.game import OBS_GLOBALS, OBS_PLANES
from tests.chinagold.helpers import game, position

SVG = "{http://www.w3.org/2000/svg}"


def _actions(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.attrib["data-action"] for el in root.iter() if "data-action" in el.attrib]


def test_observation_is_json_and_complete() -> None:
    state = position(game(), gold=["f5", "f6"], throw="2", collected=(0, 0))
    obs = state.observation(0)
    json.dumps(obs)
    assert obs["phase"] == "choose" and obs["throw"] == 2 and obs["to_move"] == 0
    assert obs["discs"] == ["0/1", "0/2", "1/2"]
    assert obs["roles"] == {"mountains": 0, "rivers": 1}
    spots = {s["spot"]: s for s in obs["spots"]}
    assert len(spots) == 91 and spots["f5"]["state"] == "gold"
    assert spots["a8"]["mountain"] == "B"
    assert obs["position"] == state.serialize()
    # perfect information: every seat sees the same board
    assert {k: v for k, v in state.observation(1).items() if k != "seat"} == {
        k: v for k, v in obs.items() if k != "seat"
    }


def test_observation_tensor_has_the_declared_shape_and_perspective() -> None:
    g = game()
    state = position(g, gold=["f5"], throw="1", collected=(0, 0))
    t0, t1 = state.observation_tensor(0), state.observation_tensor(1)
    assert t0.shape == g.observation_tensor_shape() == (OBS_PLANES * 91 + OBS_GLOBALS,)
    assert t0.dtype.name == "float32"
    assert t0[91 + 45 - 1] == 1.0  # f5 (spot 44) is gold
    base = OBS_PLANES * 91
    assert t0[base + 14] == 1.0 and t1[base + 14] == 0.0  # seat 0 has the mountains
    assert t0[base + 13] == 1.0 and t1[base + 13] == 0.0  # seat 0 to move


def test_text_board_shows_markers_mountains_and_rivers() -> None:
    state = position(game(), gold=["f5"], cleared=["f6"], throw="1", collected=(1, 0))
    text = str(state)
    assert "P1 threw 1" in text
    middle = next(line for line in text.splitlines() if line.startswith("f1"))
    assert "o o o o G . o o o o o" in middle
    assert "G G H I I . F F D J J" in middle


def test_svg_marks_every_legal_action_and_nothing_else() -> None:
    state = position(game(), gold=["f5", "f6"], throw="3", collected=(0, 0))
    svg = state.render_svg(0)
    acts = _actions(svg)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert sorted(acts) == sorted(legal)
    assert "rebury f5" in acts and "turn f1-f3" in acts
    root = ET.fromstring(svg)
    titles = [el for el in root.iter(f"{SVG}title")]
    assert len(titles) > len(acts)
    # the other seat sees the board but cannot act on it
    assert _actions(state.render_svg(1)) == []


def test_svg_single_markers_are_clickable_when_one_is_to_be_turned() -> None:
    state = position(game(), hidden=["f1", "f2", "f3"], gold=["d3"], throw="-")
    acts = _actions(state.render_svg(None))
    assert sorted(acts) == sorted(["turn f1", "turn f2", "turn f3", "turn f1-f2", "turn f2-f3"])


def test_svg_draws_mountains_as_areas_and_rivers_as_lines() -> None:
    svg = game().new_initial_state().render_svg()
    root = ET.fromstring(svg)
    polygons = list(root.iter(f"{SVG}polygon"))
    assert len(polygons) == 91
    static = next(el for el in root if el.attrib.get("id") == "layer-static")
    board = [el for el in static if el.attrib.get("id") != "legend"]
    river_lines = [el for top in board for el in top.iter() if el.attrib.get("stroke") == "#3a86c8"]
    assert len(river_lines) == 91 - 17  # a spanning tree per river
    assert _actions(svg) == []  # a chance node: nothing to click


def test_svg_names_every_mountain_and_river_inside_one_of_its_spots() -> None:
    """The letters the moves and the narration use ("completes mountain P", "river n")
    are written on the board: each mountain's capital and each river's small letter once,
    in a corner of a spot of that area, clear of its marker (issue 21)."""
    import math

    from motherlode.games.chinagold.board import NUM_SPOTS
    from motherlode.games.chinagold.render import FRAME, SIZE

    g = game()
    root = ET.fromstring(g.new_initial_state().render_svg())
    labels = next(el for el in root.iter() if el.attrib.get("id") == "area-labels")
    texts = [(t.text or "", float(t.attrib["x"]), float(t.attrib["y"]) - 4.5)
             for t in labels.iter(f"{SVG}text")]
    assert sorted(t for t, _, _ in texts) == sorted("ABCDEFGHIJKLMNOPQabcdefghijklmnopq")
    for letter, x, y in texts:
        spot = min(range(NUM_SPOTS), key=lambda s: math.dist(FRAME.px(s), (x, y)))
        away = math.dist(FRAME.px(spot), (x, y))
        assert SIZE * 0.45 + 5 < away < SIZE * 0.8  # beyond the marker, inside the hex
        if letter.isupper():
            assert g.mountain_of[spot] == ord(letter) - ord("A")
        else:
            assert g.river_of[spot] == ord(letter) - ord("a")


def test_svg_has_a_legend_and_coordinates() -> None:
    root = ET.fromstring(game().new_initial_state().render_svg())
    legend = next(el for el in root.iter() if el.attrib.get("id") == "legend")
    words = " ".join(t.text or "" for t in legend.iter(f"{SVG}text"))
    for what in ("face-down marker", "gold on the board", "cleared spot", "a mountain", "a river"):
        assert what in words
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert set("abcdefghijk") <= texts and {str(n) for n in range(1, 12)} <= texts


def test_text_board_has_a_legend_and_both_ends_of_each_row() -> None:
    lines = str(game().new_initial_state()).splitlines()
    assert any(line.startswith("legend: o face-down marker, G gold on the board") for line in lines)
    middle = next(line for line in lines if line.startswith("f1"))
    assert " f11 " in middle
    assert next(line for line in lines if line.startswith("k1")).split()[7] == "k6"


def test_svg_offers_a_narrow_layout_with_the_panel_and_legend_under_the_hexagon() -> None:
    """For a phone (static/layout.js): a view box as wide as the hexagon and its
    coordinates, the side panel and the legend moved side by side under it, inside that
    view box and clear of the pass button (issue 21)."""
    from motherlode.games.chinagold.render import HEIGHT, MARGIN

    state = position(game(), hidden=["f1", "f2", "f3"], gold=["d3"], throw="-")
    root = ET.fromstring(state.render_svg(0))
    hint = next(el for el in root.iter() if "data-narrow" in el.attrib)
    _, _, w, h = (float(v) for v in hint.attrib["data-narrow"].split())
    hexes = [el for el in root.iter(f"{SVG}polygon")]
    right = max(float(p.split(",")[0]) for el in hexes for p in el.attrib["points"].split())
    assert right < w < right + 2 * MARGIN + 40
    boxes = []
    for name in ("panel", "legend"):
        el = next(e for e in root.iter() if e.attrib.get("id") == name)
        dx, dy = (float(v) for v in el.attrib["data-side"].split())
        texts = [e for e in el if e.tag == f"{SVG}text"]  # (not the samples, translated)
        xs = [float(e.attrib["x"]) + dx for e in texts]
        ys = [float(e.attrib["y"]) + dy for e in texts]
        assert min(xs) > 0 and max(xs) + 150 < w and min(ys) > HEIGHT - MARGIN and max(ys) < h
        boxes.append((min(xs), max(xs)))
    assert boxes[0][1] + 60 < boxes[1][0]  # side by side, the panel left of the legend

"""Observation (all sheets open), tensor, text and SVG views."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import motherlode
from tests.eldorado.helpers import game, position


def _played(m: int, steps: int, players: int = 2) -> motherlode.State:
    s = motherlode.load("eldorado", map=m, players=players).new_initial_state()
    rng = random.Random(m)
    for _ in range(steps):
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    return s


def test_observation_all_sheets_are_open_to_every_seat() -> None:
    s = _played(3, 120, players=3)
    views = [s.observation(p) for p in (None, 0, 1, 2)]
    for v in views:
        json.dumps(v)
        assert len(v["sheets"]) == 3
    stripped = [{k: x for k, x in v.items() if k != "seat"} for v in views]
    assert all(v == stripped[0] for v in stripped)
    assert [v["seat"] for v in views] == [None, 0, 1, 2]


def test_observation_names_what_a_sheet_shows() -> None:
    g = game()
    s = position(
        g,
        seat=1,
        phase="use",
        held={2: ("2c", 1)},
        visited={0: ["a2", "b2", "c2", "d2"]},
        offers={0: [("e2", 2)]},
        filled={1: ["3coins/1"]},
    )
    o = s.observation(1)
    assert o["temple_minima"] == {"e2": 2} and o["temples_required"] == 2
    assert set(o["sheets"][0]["visited"]) == {"a2", "b2", "c2", "d2", "e2"}
    assert o["sheets"][0]["offerings"] == [["e2", 2]] and o["sheets"][0]["coins_offered"] == 2
    assert o["sheets"][1]["resources"]["3coins"] == {
        "filled": [True, False],
        "obtained": False,
        "used": False,
    }
    assert o["turn"]["chosen"] == {"d2": {"face": "2c", "uses_left": 1}}


def test_observation_tensor_puts_the_viewer_first() -> None:
    g = game()
    s = position(g, visited={0: ["a1"]}, middle={0: "map"})
    t0, t1 = s.observation_tensor(0), s.observation_tensor(1)
    assert t0.shape == t1.shape == g.observation_tensor_shape() and t0.dtype.name == "float32"
    a1 = g.sheet.by_label["a1"]
    per = 3 * g.ns + g.nl + g.nr + 2
    assert t0[a1] == 1.0 and t1[a1] == 0.0 and t1[per + a1] == 1.0


def test_text_view_shows_each_route_and_the_dice() -> None:
    s = position(
        game(), phase="use", held={2: ("2c", 1)}, middle={0: "map"}, visited={0: ["a2", "b2"]}
    )
    text = str(s)
    assert "middle: d0:map" in text and "chosen: d2:2c x1" in text
    assert "(K )" in text and "GOLD" in text


def test_svg_every_legal_action_is_clickable_for_the_mover() -> None:
    for m in (1, 2, 3, 4):
        s = _played(m, 60)
        svg = s.render_svg(s.current_player())
        ET.fromstring(svg)  # well-formed
        for a in s.legal_actions():
            assert f'data-action="{s.action_to_string(a)}"' in svg
        assert "<title>" in svg
        other = (s.current_player() + 1) % 2
        assert "data-action" not in s.render_svg(other)


def test_svg_shows_the_sheet_elements() -> None:
    s = position(game(map=4), visited={0: ["a2"]}, middle={0: "map"})
    svg = s.render_svg(0)
    for words in (
        "golden temple",
        "Muisca settlement, fee 3",
        "temples",
        "ethnographer",
        "use one die three times",
        "take d0",
    ):
        assert words in svg


def test_svg_no_buttons_for_a_spectator_seats_named_p1_and_the_hat_a_shape() -> None:
    s = position(game(), visited={0: ["a2"]}, middle={0: "map"})
    assert "data-action" in s.render_svg(0)
    spectator = s.render_svg(None)
    assert "data-action" not in spectator and "data-action" not in s.render_svg(1)
    assert ">P1</text>" in spectator and ">P2</text>" in spectator
    # the viewer's own sheet is marked in its seat layer (the public one is the same for all)
    assert 'id="you">your sheet</text>' in s.render_svg(1) and "your sheet" not in spectator
    assert "the hat: this player began" in spectator and "player 0" not in spectator
    assert all(ord(c) < 0x2000 for c in spectator)  # every symbol an SVG shape, no glyph
    assert "golden temple" in spectator and "start space" in spectator  # the legend
    assert ">a</text>" in spectator and ">5</text>" in spectator  # the coordinates


def test_text_view_names_seats_p1_and_has_a_legend() -> None:
    text = str(position(game(), visited={0: ["a2"]}, middle={0: "map"}))
    assert "P1 to move" in text and "P1 (hat):" in text and "P2:" in text
    assert "p0" not in text and "M machete  P paddle" in text

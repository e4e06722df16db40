"""The Eurorails board's layers (``layers.py``): what each layer holds, the cards panel,
the view to open on, the clickable targets, and the track drawn as runs."""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st
from tests.eurorails.helpers import city, lay, path, place, set_turn, standard

from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.layers import chains, frame
from motherlode.games.eurorails.places import milepost_name
from motherlode.games.eurorails.routes import reach


def test_the_cards_mark_the_cities_the_track_serves_and_the_loads_on_the_train() -> None:
    s = standard(2)
    b = s.game.board
    card = s.observation(0)["players"][0]["hand"][0]
    served, carried = card["demands"][0], card["demands"][1]
    route = path(b, city(s, "Paris"), city(s, served["city"]))
    lay(s, 0, route)
    place(s, 0, route[1], prev=route[0])
    s.loads[0] = [b.load_index(carried["load"])]
    set_turn(s, 0)
    cards = s.render_layers(0).elements()["cards"]
    assert f'class="er-pn er-served">→ {served["city"]} ✓</text>' in cards
    assert cards.count("✓</text>") == len(
        {
            d["city"]
            for c in s.observation(0)["players"][0]["hand"]
            for d in c["demands"]
            if b.city_index(d["city"]) in {b.city_of[m] for m in route if b.city_of[m] >= 0}
        }
    )
    marked = re.findall(r'class="er-onboard"/><text [^>]*>([^<]+)</text>', cards)
    assert set(marked) == {carried["load"]}
    # a load names the ids of its supply cities, and the static layer has those ids
    static = s.render_layers(0).static
    for group in re.finditer(r'data-highlight="([^"]*)"><title>([^:]+):', cards):
        ids, load = group.group(1).split(), group.group(2)
        assert ids == [f"city-{c}" for c in b.load_sources[b.load_index(load)]]
        assert all(f'id="{i}"' in static for i in ids)


def test_cash_and_cards_stay_in_their_seat_and_the_public_layer_is_everyones() -> None:
    s = standard(3)
    set_turn(s, 1)
    layers = {seat: s.render_layers(seat) for seat in (None, 0, 1, 2)}
    assert len({lay_.public for lay_ in layers.values()}) == 1
    for seat in (0, 1, 2):
        mine = dict(layers[seat].seat)
        assert mine["my-cash"].endswith(
            f"your cash: {s.cash[seat]}M (hidden from the others)</text>"
        )
        hand = s.observation(seat)["players"][seat]["hand"]
        assert [f"card #{c['card']}" in mine["cards"] for c in hand] == [True] * len(hand)
    assert "my-cash" not in dict(layers[None].seat) and "cards" not in dict(layers[None].seat)
    public = "".join(m for _, m in layers[None].public)
    assert "M)" not in public and "cash" not in public  # nobody's cash while it is private


def test_every_legal_action_is_one_clickable_element_of_the_seat_to_move() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[3], prev=route[2])
    set_turn(s, 0)
    legal = s.observation(0)["legal"]
    seat = s.render_layers(0).seat
    actions = [a for _, m in seat for a in re.findall(r'data-action="([^"]+)"', m)]
    assert sorted(actions) == sorted(a.replace(">", "&gt;") for a in legal)
    # the moves are circles on the mileposts they go to, named in their tooltips
    for text in (t for t in legal if t.startswith("move ") and t[5:].split()[0].isdigit()):
        to = int(text[5:].split()[0])
        x = frame("first").px[to][0]
        assert f'cx="{x:.1f}"'.replace('.0"', '"') in dict(seat)[_key(text)]
        assert f"(to {milepost_name(s.game.board, to)})</title>" in dict(seat)[_key(text)]
    assert not [m for _, m in s.render_layers(1).seat if "data-action" in m]


def _key(text: str) -> str:
    return "a-" + re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def test_the_board_opens_on_the_seats_track_and_train() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[3], prev=route[2])
    fr = frame("first")
    focus = dict(s.render_layers(0).seat)["focus"]
    x, y, w, h = map(float, re.search(r'data-focus="([^"]+)"', focus).group(1).split())  # type: ignore[union-attr]
    for m in route:
        px, py = fr.px[m]
        assert x < px < x + w and y < py < y + h
    other = dict(s.render_layers(1).seat)["focus"]  # no track yet: the major cities
    assert 'data-focus="' in other and other != focus
    assert "Players and cards:" in focus and "Europe:0 0 " in focus


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=40))
def test_the_track_runs_cover_every_segment_once(pairs: list[tuple[int, int]]) -> None:
    edges = sorted({(min(a, c), max(a, c)) for a, c in pairs if a != c})
    runs = chains([list(e) for e in edges])
    walked = [(min(a, c), max(a, c)) for run in runs for a, c in itertools.pairwise(run)]
    assert sorted(walked) == edges


def _commands(s: EurorailsState, seat: int) -> list[str]:
    return [
        c for _, m in s.render_layers(seat).seat for c in re.findall(r'data-command="([^"]+)"', m)
    ]


def test_a_city_to_build_to_is_a_route_command_and_each_previews_or_says_why() -> None:
    s = standard(2)
    b = s.game.board
    # no track yet: every city but the major ones (where a first route starts)
    first = _commands(s, 0)
    assert sorted(first) == sorted(
        f"build to {n}" for k, n in enumerate(b.city_names) if k not in b.majors
    )
    assert s.preview("build to Lyon").summary == "P1 builds Paris–Lyon: 9 mileposts, 11 M"
    assert _commands(s, 1) == [], "only the seat to move gets them"
    for a in s.expand("build to Lyon"):
        s.apply_action(a)
    # Lyon reached: its ring goes; the major cities (now reachable targets) come
    after = set(_commands(s, 0))
    assert "build to Lyon" not in after and "build to Wien" in after
    assert "build to Paris" not in after, "the track reaches Paris already"
    assert s.preview("build to Marseille").summary.startswith("P1 builds Lyon–Marseille")


def test_the_reach_is_drawn_and_every_place_in_it_is_a_move_command() -> None:
    s = standard(2)
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[0])
    set_turn(s, 0)
    seat = dict(s.render_layers(0).seat)
    reachable = reach(s) - {route[0]}
    dots = re.findall(r"M([\d.]+ [\d.]+)h0", seat["reach"])
    assert sorted(dots) == sorted(frame("first").txt[m] for m in reachable)
    moves = {c[8:] for c in _commands(s, 0) if c.startswith("move to ")}
    assert moves == {
        b.city_names[b.city_of[m]] if b.city_of[m] >= 0 else milepost_name(b, m)
        for m in reachable
        if b.city_of[m] != b.city_of[route[0]] or b.city_of[m] < 0
    }
    far = max(reachable, key=lambda m: route.index(m) if m in route else -1)
    pv = s.preview(f"move to {milepost_name(b, far)}")
    assert pv.summary.startswith("P1 moves Paris–"), pv.summary
    assert [c for c in _commands(s, 0) if c.startswith("build")] == []


def test_the_survey_hints_name_every_milepost_once_and_where_a_drag_may_start() -> None:
    """``static/survey.js`` reads every milepost's name and place from the static layer,
    and, for the seat to move in a building turn, where a drag may start (its network
    and every major-city milepost) and the commands a drag and a click make."""
    s = standard()
    b = s.game.board
    layers = s.render_layers(0)
    found = re.search(r'data-points="([^"]*)"', layers.static)
    assert found
    points = [x.split(",") for x in found.group(1).split(";")]
    fr = frame(s.game.cfg.ferry_printing)
    assert [p[0] for p in points] == [milepost_name(b, m) for m in range(b.n)]
    assert [(float(p[1]), float(p[2])) for p in points[:3]] == [
        (round(x, 1), round(y, 1)) for x, y in fr.px[:3]
    ]
    seat = layers.elements()
    hint = re.search(r'data-survey-from="([^"]*)"', seat["survey"])
    assert hint and 'data-survey="build "' in seat["survey"]
    assert 'data-click="build to "' in seat["survey"]
    assert set(hint.group(1).split(";")) == {milepost_name(b, m) for m in b.major_posts}
    for a in s.expand("build Paris-SW>AA39>AA40"):
        s.apply_action(a)
    starts = re.search(r'data-survey-from="([^"]*)"', s.render_layers(0).elements()["survey"])
    assert starts and {"AA39", "AA40"} <= set(starts.group(1).split(";"))
    assert "survey" not in s.render_layers(1).elements()  # not P2's turn
    set_turn(s, 0)  # the operations phase: no survey
    assert "survey" not in s.render_layers(0).elements()

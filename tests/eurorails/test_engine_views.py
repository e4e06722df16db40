"""Notation, observations, the tensor, text and SVG, and the greedy bot."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from tests.eurorails.helpers import (
    BUILD,
    build_action,
    city,
    draw,
    lay,
    nm,
    path,
    place,
    set_turn,
    standard,
)
from tests.eurorails.test_engine_variant_trading import position as trading_position
from tests.reference.test_eurorails_ferry_reference import read

from motherlode.core.agent import RandomAgent
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.games.eurorails.bot import GreedyAgent
from motherlode.games.eurorails.game import EurorailsGame, EurorailsState
from motherlode.games.eurorails.observe import _public_track
from motherlode.research.layout import layout


def _played(seed: int = 0, steps: int = 400, players: int = 3) -> object:
    g = EurorailsGame.from_config(players=players)
    agents = [GreedyAgent(g, seed=i) for i in range(players)]
    rng = random.Random(seed)
    s = g.new_initial_state()
    for _ in range(steps):
        if s.is_terminal():
            break
        a = s.sample_chance(rng) if s.is_chance_node() else agents[s.current_player()].act(s)
        s.apply_action(a)
    return s


def test_action_notation_round_trips_and_names_cities() -> None:
    s = standard(2)
    for a in s.legal_actions():
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a
    b = s.game.board
    paris = b.city_posts[b.city_index("Paris")]
    nb = next(b.nb[paris[1] * 6 + d] for d in range(6) if b.nb[paris[1] * 6 + d] not in paris)
    d = [b.nb[nb * 6 + k] for k in range(6)].index(paris[1])
    assert s.action_to_string(nb * 6 + d) == "build AC37>Paris-E"
    assert (nm(s, nb), nm(s, paris[1])) == ("AC37", "Paris-E")
    assert s.string_to_action(f"build {nb}>{paris[1]} (Paris)") == nb * 6 + d  # notation 1


def test_bad_notation_and_illegal_actions_name_the_rule() -> None:
    s = standard(2)
    with pytest.raises(NotationError):
        s.string_to_action("fly to the moon")
    lyon = city(s, "Lyon")
    with pytest.raises(IllegalActionError, match="major-city milepost"):
        s.apply_action(lyon * 6)


def test_position_notation_round_trips_mid_game() -> None:
    s = _played(steps=300)
    again = s.game.deserialize(s.serialize())  # type: ignore[attr-defined]
    assert again.serialize() == s.serialize()  # type: ignore[attr-defined]
    assert again.legal_actions() == s.legal_actions()  # type: ignore[attr-defined]
    with pytest.raises(NotationError):
        s.game.deserialize("eurorails:{not json")  # type: ignore[attr-defined]


def test_observation_hides_private_cash_and_is_json() -> None:
    s = _played(steps=200)
    for seat in (None, 0, 1, 2):
        obs = s.observation(seat)  # type: ignore[attr-defined]
        json.dumps(obs)
        for pl in obs["players"]:
            if not obs["cash_public"]:
                assert (pl["cash"] is None) == (pl["seat"] != seat)
    assert s.observation(None)["legal"] == []  # type: ignore[attr-defined]


def test_tensor_shape_and_seat_dependence() -> None:
    s = standard(3)
    t0 = s.observation_tensor(0)
    t1 = s.observation_tensor(1)
    assert t0.shape == s.game.observation_tensor_shape()
    assert (t0 != t1).any(), "each seat sees only its own cash"
    # with the cash public, seat 1's tensor is seat 0's with the seats rotated (observer
    # first): its own slot first, and a spectator's is seat 0's
    s.cash_public = 1
    parts = layout(s.game)
    seen = {seat: s.observation_tensor(seat) for seat in (None, 0, 1)}
    assert (seen[None] == seen[0]).all()
    for name, axis in (("players", 0), ("to_move", 0)):
        a, b = parts[name].view(seen[0]), parts[name].view(seen[1])
        assert (np.roll(a, -1, axis=axis) == b).all(), name
    miles0, miles1 = parts["mileposts"].view(seen[0]), parts["mileposts"].view(seen[1])
    order = [1, 2, 0]  # seat 1's slots: seats 1, 2, 0
    assert (miles1[:, :3] == miles0[:, order]).all() and (
        miles1[:, 3:6] == miles0[:, 3:6][:, order]
    ).all()


def test_text_board_shows_a_window_around_the_train() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[3], prev=route[2])
    set_turn(s, 0)
    text = s.render_text(0)
    here = nm(s, route[3])
    assert f"map around {here} ({here})" in text and "1 " in text and "a " in text
    assert "next to your train: " in text and nm(s, route[4]) in text
    assert "P1 (red)" in str(s)


def test_svg_draws_track_in_colours_trains_and_clickable_moves() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[3], prev=route[2])
    set_turn(s, 0)
    svg = s.render_svg(0)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    track = s.render_layers(0).elements()["track-p1"]  # one path, a line a segment
    segments = s.observation(0)["players"][0]["segments"]
    assert 'stroke="#d55e00"' in track and track.count("L") == segments == len(route) - 2
    assert 'data-action="move ' in svg
    assert 'data-action="move ' not in s.render_svg(1)


def test_greedy_plays_legal_moves_and_beats_random() -> None:
    g = EurorailsGame.from_config(players=2, turn_limit=40)
    agents = [GreedyAgent(g, seed=0), RandomAgent(seed=1)]
    rng = random.Random(5)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        else:
            s.apply_action(agents[s.current_player()].act(s))
    assert s.winners() == (0,)
    assert s.cash[0] > s.cash[1]  # both connect two majors: greedy wins on cash


def test_svg_shows_active_event_areas() -> None:
    s = standard(2)
    plain = s.render_svg(None)
    s.draw.remove(155)
    s.active.append([155, 1, 10])  # fog at Frankfurt
    foggy = s.render_svg(None)
    area = s.render_layers(None).elements()["events-map"]
    assert area.count('fill="#bdbdbd"') == len(s.game.areas[155]) > plain.count('fill="#bdbdbd"')
    import xml.dom.minidom

    xml.dom.minidom.parseString(foggy)


# -- the observation's track kept on the game (``observe._public_track``) -------------------
# Each seat's ``track`` runs, ``segments``, ``links`` and ``majors_connected`` are kept on the
# game with copies of the owners they were read from, and used again while those are equal.
# Each case below works the values out from the track laid (a run is named from its end
# with the lower milepost number: ``chains``), and checks them against the same position
# read on a new game object (nothing kept), after every change and across two states.

KEYS = ("track", "segments", "links", "majors_connected")


def _track_view(s: EurorailsState, seat: int | None = None) -> list[dict[str, object]]:
    return [{k: pl[k] for k in KEYS} for pl in s.observation(seat)["players"]]


def _afresh(s: EurorailsState) -> list[dict[str, object]]:
    """The same position read on a new game object: nothing kept from earlier views."""
    again = type(s.game)(s.game.cfg).deserialize(s.serialize())
    assert isinstance(again, EurorailsState) and again.game is not s.game
    return _track_view(again)


def _run(s: EurorailsState, posts: list[int]) -> str:
    """A run of mileposts as the observation names it: from its lower-numbered end."""
    ordered = posts if posts[0] < posts[-1] else posts[::-1]
    return ">".join(nm(s, m) for m in ordered)


def _paris_route(s: EurorailsState) -> list[int]:
    """From Paris's last red-area milepost toward Lyon: segments anyone may own."""
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    k = max(i for i, m in enumerate(route) if b.city_of[m] == b.city_of[route[0]])
    return route[k:]


def test_the_kept_track_follows_a_build_and_two_states_of_one_game() -> None:
    a = standard(2)
    route = _paris_route(a)
    lay(a, 0, route[:6])  # five segments out of Paris (a major city)
    set_turn(a, 0, BUILD)
    five = {"track": [_run(a, route[:6])], "segments": 5, "links": [], "majors_connected": 1}
    none = {"track": [], "segments": 0, "links": [], "majors_connected": 0}
    assert _track_view(a) == [five, none] == _afresh(a)
    kept = _public_track(a)
    assert _public_track(a) is kept  # the owners unchanged: the same parts, not rebuilt
    b = a.clone()
    b.apply_action(build_action(b, route[5], route[6]))  # the sixth, by the rules' build
    six = {"track": [_run(b, route[:7])], "segments": 6, "links": [], "majors_connected": 1}
    assert _public_track(b) is not kept
    for _ in range(2):  # two states of one game, asked in turn: each its own track
        assert _track_view(a, 0) == [five, none]
        assert _track_view(b, 1) == [six, none] == _afresh(b)
    assert a.game is b.game and _track_view(a) == _afresh(a)


def test_the_last_eight_positions_asked_are_kept_and_a_ninth_drops_the_oldest() -> None:
    """Several states of one game asked in turn (a search, a test, a server's matches of one
    configuration) each find their track kept while at most KEPT_TRACKS are asked; one more
    position drops the least recently asked, which is then read afresh (equal, not the same
    object)."""
    from motherlode.games.eurorails.observe import KEPT_TRACKS

    a = standard(2)
    route = _paris_route(a)
    states = []
    for k in range(KEPT_TRACKS + 1):  # k + 1 segments out of Paris: nine positions
        s = a.clone()
        lay(s, 0, route[: k + 2])
        states.append(s)
    first = [_public_track(s) for s in states[:KEPT_TRACKS]]
    for s, parts in zip(states[:KEPT_TRACKS], first, strict=True):
        assert _public_track(s) is parts  # all eight kept
        assert parts[0]["segments"] == states.index(s) + 1
    assert _public_track(states[0]) is first[0]  # asked again: now the most recent
    ninth = _public_track(states[KEPT_TRACKS])  # drops the least recent: the second
    assert ninth[0]["segments"] == KEPT_TRACKS + 1
    assert _public_track(states[0]) is first[0]
    again = _public_track(states[1])
    assert again is not first[1] and again == first[1]


def test_the_kept_track_follows_a_flood_that_erases_a_bridge() -> None:
    s = standard(2)
    b = s.game.board
    e = next(
        e
        for e, (x, y) in enumerate(b.edge_ends)
        if b.edge_river[e] == "Rhein" and b.city_of[x] < 0 and b.city_of[y] < 0
    )
    x, y = b.edge_ends[e]
    lay(s, 1, [x, y])  # P2: one bridge over the Rhein, between two mileposts of no city
    bridge = {"track": [_run(s, [x, y])], "segments": 1, "links": [], "majors_connected": 0}
    none = {"track": [], "segments": 0, "links": [], "majors_connected": 0}
    assert _track_view(s) == [none, bridge] == _afresh(s)
    # P1 delivers its first demand and draws "Flood: Rhein" (card 156): "Erase all track
    # that crosses the river"
    card = s.hands[0][0]
    demand = b.demands[card][0]
    s.loads[0] = [demand.load]
    s.chips[demand.load] -= 1
    place(s, 0, b.city_centre[demand.city])
    set_turn(s, 0)
    s.apply_action(s.game.DELIVER0)
    draw(s, 156)
    assert s.edge_owner[e] == -1
    assert _track_view(s) == [none, none] == _afresh(s)


def test_the_kept_track_follows_a_trade() -> None:
    # P1 five segments out of Paris toward Lyon; P2 the three out of Berlin into Leipzig
    # (a medium city, not a major)
    s, mine, theirs = trading_position()
    assert [nm(s, m) for m in theirs] == ["Berlin-SW", "AR29", "AQ30", "Leipzig"]
    before = [
        {"track": [_run(s, mine)], "segments": 5, "links": [], "majors_connected": 1},
        {"track": [_run(s, theirs)], "segments": 3, "links": [], "majors_connected": 1},
    ]
    assert _track_view(s) == before == _afresh(s)
    x, y = theirs[2], theirs[3]
    s.apply_string("offer P2")
    s.apply_string(f"take {nm(s, min(x, y))}>{nm(s, max(x, y))}")
    s.apply_string("price 7")
    s.apply_string("propose")
    s.apply_string("accept")
    # P1 buys P2's third segment, AQ30>Leipzig: P1's own run and that one apart (still one
    # major city joined); P2 keeps the two out of Berlin
    after = _track_view(s)
    assert after == [
        {
            "track": [_run(s, mine), "AQ30>Leipzig"][:: 1 if min(mine) < min(x, y) else -1],
            "segments": 6,
            "links": [],
            "majors_connected": 1,
        },
        {"track": ["Berlin-SW>AR29>AQ30"], "segments": 2, "links": [], "majors_connected": 1},
    ]
    assert after == _afresh(s)


def test_the_kept_track_tells_apart_states_that_differ_only_in_a_ferry_line() -> None:
    # two positions of one game read from the notation: the same track into Harwich's
    # port, the Harwich-IJmuiden line P1's in one only (equal segment owners, other links)
    with_line = read(P1_track="London-NE>Y28", links="Harwich-IJmuiden = P1")
    without = read(P1_track="London-NE>Y28")
    assert with_line.game is without.game and with_line.edge_owner == without.edge_owner
    for _ in range(2):
        assert _track_view(with_line)[0]["links"] == ["Harwich-IJmuiden"]
        assert _track_view(without)[0]["links"] == []
    assert _track_view(with_line) == _afresh(with_line)

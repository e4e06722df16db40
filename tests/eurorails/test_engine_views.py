"""Notation, observations, the tensor, text and SVG, and the greedy bot."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from tests.eurorails.helpers import city, lay, nm, path, place, set_turn, standard

from motherlode.core.agent import RandomAgent
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.games.eurorails.bot import GreedyAgent
from motherlode.games.eurorails.game import EurorailsGame
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

"""The judgement search agents use for unfinished Eurorails games (heuristic_values)."""

from __future__ import annotations

import math

import pytest

import motherlode
from motherlode.games.eurorails.game import MAJOR_WORTH, TRACK_WORTH, EurorailsState


def _dealt() -> EurorailsState:
    state = motherlode.deal(motherlode.load("eurorails", players=2), seed=3)
    assert isinstance(state, EurorailsState)
    return state


def test_an_even_start_is_worth_nothing_to_either_seat() -> None:
    assert _dealt().heuristic_values() == [0.0, 0.0]


def test_cash_lead_is_squashed_and_zero_sum_for_two() -> None:
    state = _dealt()
    state.cash[0] += 20
    v = state.heuristic_values()
    assert v[0] == pytest.approx(math.tanh(20 / 40)) and v[1] == pytest.approx(-v[0])


def test_track_counts_so_building_is_not_judged_a_plain_loss() -> None:
    state = _dealt()
    paris = state.game.board.city_posts[state.game.board.city_names.index("Paris")]
    state.net[0].update(paris)  # the network touches Paris's mileposts ...
    state.cash[0] -= 5  # ... for 5 million
    worth = TRACK_WORTH * len(paris) + MAJOR_WORTH * state.majors_connected(0) - 5
    assert state.heuristic_values()[0] == pytest.approx(math.tanh(worth / 40))


def test_a_load_aboard_that_a_card_asks_for_is_worth_half_its_payment() -> None:
    state = _dealt()
    game = state.game
    card = next(c for c in state.hands[0] if c in game.demands)
    demand = game.demands[card][0]
    state.loads[0].append(demand.load)
    best = max(
        d.payment
        for c in state.hands[0]
        if c in game.demands
        for d in game.demands[c]
        if d.load == demand.load
    )
    assert state.heuristic_values()[0] == pytest.approx(math.tanh(0.5 * best / 40))

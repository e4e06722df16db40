"""Hypothesis properties of Yukon: conservation, scoring identities, notation round trips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.game import YukonState

configs = st.sampled_from(
    [{"players": n, "expansion": e} for n in (2, 3, 4) for e in (False, True)]
)


def random_game(config: dict[str, object], seed: int, stop: int | None = None) -> YukonState:
    game = motherlode.load("yukon", **config)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        steps += 1
    assert isinstance(state, YukonState)
    return state


@settings(max_examples=40, deadline=None)
@given(configs, st.integers(0, 10**6), st.integers(0, 200))
def test_every_position_conserves_cards_and_round_trips(
    config: dict[str, object], seed: int, stop: int
) -> None:
    state = random_game(config, seed, stop)
    state.check_invariants()
    again = state.game.deserialize(state.serialize())
    assert again.serialize() == state.serialize()
    assert again.legal_actions() == state.legal_actions()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10**6))
def test_base_game_points_are_cards_taken_plus_the_prospector(players: int, seed: int) -> None:
    state = random_game({"players": players}, seed)
    taken = [sum(n * C.POINTS[k] for k, n in enumerate(pile)) for pile in state.pile]
    expected = [t + (5 if state.last == p else 0) for p, t in enumerate(taken)]
    assert state.scores() == [float(x) for x in expected]
    # the cards on the table and in the piles are exactly the deck
    left = sum(C.POINTS[k] for k in state.grid if k < C.SHERIFF)
    assert left + sum(taken) == 0  # Gold and Pebble values cancel over the whole deck


@settings(max_examples=30, deadline=None)
@given(configs, st.integers(0, 10**6))
def test_the_game_ends_exactly_when_the_mover_has_no_take(
    config: dict[str, object], seed: int
) -> None:
    state = random_game(config, seed)
    assert state.is_terminal() and state._takes(state.player) == []
    assert (
        state.last >= 0 and sum(state.has_prospector(p) for p in range(state.game.num_players)) == 1
    )

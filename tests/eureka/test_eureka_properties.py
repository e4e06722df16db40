"""Hypothesis property tests: movement against brute force, invariants, round trips."""

from __future__ import annotations

import contextlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.eureka.helpers import brute_destinations, game, random_position

SEEDS = st.integers(min_value=0, max_value=10_000)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, steps=st.integers(min_value=1, max_value=6), players=st.integers(2, 6))
def test_destinations_equal_every_path_enumerated(seed: int, steps: int, players: int) -> None:
    state = random_position(seed, players)
    seat = seed % players
    got = set(state.destinations(seat, steps))
    assert got == brute_destinations(state, seat, steps)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 6))
def test_invariants_and_round_trips_along_random_playouts(seed: int, players: int) -> None:
    g = game(players=players)
    rng = random.Random(seed)
    state = g.new_initial_state()
    step = 0
    while not state.is_terminal():
        state.check_invariants()
        if step % 5 == 0:
            text = state.serialize()
            again = g.deserialize(text)
            assert again.serialize() == text
            assert again.legal_actions() == state.legal_actions()
            assert again.chance_outcomes() == state.chance_outcomes()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        state.apply_action(action)
        step += 1
    state.check_invariants()
    assert sum(state.scores()) <= g.mix.nuggets + 2 * sum(g.mix.robbers)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 6))
def test_observations_show_the_same_table_to_every_seat(seed: int, players: int) -> None:
    state = random_position(seed, players)
    views = [state.observation(p) for p in [None, *range(players)]]
    for v in views:
        json.dumps(v)
        v.pop("seat")
    assert all(v == views[0] for v in views)
    down = views[0]["face_down_chips"]
    assert len(down) == sum(views[0]["unrevealed"].values())


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_clone_is_independent_and_equal(seed: int) -> None:
    state = random_position(seed, 4)
    copy = state.clone()
    assert copy.serialize() == state.serialize() and copy.history() == state.history()
    rng = random.Random(seed)
    for _ in range(30):
        if copy.is_terminal():
            break
        if copy.is_chance_node():
            copy.apply_action(copy.sample_chance(rng))
        else:
            copy.apply_action(copy.legal_actions()[0])
    assert state.serialize() != copy.serialize() or copy.is_terminal() or state.is_terminal()
    state.check_invariants()


def _mutate(text: str, other: str, rng: random.Random) -> str:
    """``text`` with one field changed: taken from ``other``, a digit changed, or a hex."""
    fields = text.split()
    donor = other.split()
    i = rng.randrange(1, len(fields))
    key, _, value = fields[i].partition("=")
    how = rng.randrange(3)
    if how == 0:
        value = donor[i].partition("=")[2]
    elif how == 1:
        digits = [k for k, c in enumerate(value) if c.isdigit()]
        if digits:
            k = rng.choice(digits)
            value = value[:k] + str(rng.randrange(10)) + value[k + 1:]
    else:
        names = game().board.names
        parts = value.split(",")
        j = rng.randrange(len(parts))
        head, sep, tail = parts[j].partition(":")
        parts[j] = rng.choice(names) + sep + tail if head[:1].isalpha() else parts[j]
        value = ",".join(parts)
    fields[i] = f"{key}={value}"
    return " ".join(fields)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(seed=SEEDS, other=SEEDS, players=st.integers(2, 6))
def test_mutated_positions_are_refused_with_a_reason_or_playable(
    seed: int, other: int, players: int
) -> None:
    from motherlode.core.errors import IllegalActionError, NotationError

    g = game(players=players)
    rng = random.Random(seed)
    text = _mutate(random_position(seed, players).serialize(),
                   random_position(other, players).serialize(), rng)
    try:
        state = g.deserialize(text)
    except NotationError as err:
        assert str(err).startswith("eureka position") and "eureka/1 " not in str(err)
        return
    assert state.serialize() == text or g.deserialize(state.serialize()).serialize() == (
        state.serialize())
    for _ in range(200):
        if state.is_terminal():
            break
        state.check_invariants()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            assert legal, "a decision node with no legal action"
            with contextlib.suppress(IllegalActionError):
                state.apply_action(rng.randrange(g.num_distinct_actions))
            if not state.is_chance_node() and not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))

"""Hypothesis property tests: invariants along random games on every sheet and level.

The space is large (32 configs, any seed, hundreds of steps): 100 or 200 examples each,
derandomised under the ``ci`` profile (tests/conftest.py).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode import NotationError
from motherlode.games.eldorado.game import EldoradoState

CONFIGS = st.fixed_dictionaries({
    "players": st.integers(1, 4),
    "map": st.integers(1, 4),
    "hard": st.booleans(),
})


def _step(s: EldoradoState, rng: random.Random) -> None:
    if s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    else:
        legal = s.legal_actions()
        assert legal, "a decision node without legal actions"
        s.apply_action(legal[rng.randrange(len(legal))])


@settings(max_examples=100, deadline=None)
@given(config=CONFIGS, seed=st.integers(0, 10**6))
def test_marks_are_never_erased(config: dict, seed: int) -> None:
    game = motherlode.load("eldorado", **config)
    s = game.new_initial_state()
    assert isinstance(s, EldoradoState)
    rng = random.Random(seed)
    for _ in range(250):
        if s.is_terminal():
            break
        before = s.clone()
        _step(s, rng)
        s.check_invariants()
        for p in range(game.num_players):
            assert s.visited[p] & before.visited[p] == before.visited[p]  # pencil marks stay
            assert s.filled[p] & before.filled[p] == before.filled[p]
            assert s.used[p] & before.used[p] == before.used[p]
            assert s.offers[p][: len(before.offers[p])] == before.offers[p]
            for sp, paid in enumerate(before.paid[p]):
                assert s.paid[p][sp] >= paid
        for sp, m in enumerate(before.minima):
            if m >= 0:
                assert s.minima[sp] == m  # the first offering fixes the minimum for good


@settings(max_examples=200, deadline=None)
@given(config=CONFIGS, seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_positions_round_trip_and_clones_are_equal(config: dict, seed: int, steps: int) -> None:
    game = motherlode.load("eldorado", **config)
    s = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        _step(s, rng)
    text = s.serialize()
    again = game.deserialize(text)
    assert again.serialize() == text and again.legal_actions() == s.legal_actions()
    c = s.clone()
    assert c.serialize() == text
    if not s.is_terminal():
        for a in (s.legal_actions() or [x for x, _ in s.chance_outcomes()])[:12]:
            child = s.clone()
            child.apply_action(a)
            child.check_invariants()
        assert s.serialize() == text


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_each_turn_takes_dice_only_from_the_middle_and_rolls_only_when_empty(
    seed: int, players: int
) -> None:
    game = motherlode.load("eldorado", players=players, map=3)
    s = game.new_initial_state()
    assert isinstance(s, EldoradoState)
    rng = random.Random(seed)
    for _ in range(300):
        if s.is_terminal():
            break
        if s.is_chance_node() and s.to_roll == list(range(7)) and s.first:
            # a full roll at the start of a turn happens only when the middle is empty
            assert max(s.middle) < 0
        before_middle = list(s.middle)
        was_roll = s.is_chance_node()
        _step(s, rng)
        for d in range(7):
            if before_middle[d] < 0 <= s.middle[d]:
                assert was_roll  # a die reaches the middle only by a roll
            if before_middle[d] >= 0 > s.middle[d]:
                assert s.held[d] >= 0 or d in s.to_roll  # taken, or picked up to re-roll


ALPHABET = "0123456789-?*!,.;|=:x abcdefghijklmMPTAKSZUFB"


def _mutate(text: str, rng: random.Random) -> str:
    """One random edit: a character replaced, dropped or doubled, or two list items swapped."""
    kind = rng.randrange(4)
    i = rng.randrange(len(text))
    if kind == 0:
        return text[:i] + rng.choice(ALPHABET) + text[i + 1:]
    if kind == 1:
        return text[:i] + text[i + 1:]
    if kind == 2:
        return text[:i] + text[i] + text[i:]
    parts = text.split(",")
    if len(parts) > 2:
        a, b = rng.sample(range(len(parts)), 2)
        parts[a], parts[b] = parts[b], parts[a]
    return ",".join(parts)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(config=CONFIGS, seed=st.integers(0, 10**6), steps=st.integers(0, 250),
       edits=st.integers(1, 3))
def test_mutated_positions_are_refused_with_a_reason_or_playable(
    config: dict, seed: int, steps: int, edits: int
) -> None:
    game = motherlode.load("eldorado", **config)
    s = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        _step(s, rng)
    text = s.serialize()
    assert game.deserialize(text).serialize() == text  # every reached position round-trips
    for _ in range(edits):
        text = _mutate(text, rng)
    try:
        t = game.deserialize(text)
    except NotationError as err:
        assert str(err).startswith("eldorado position: ") and err.position == text
        return
    assert isinstance(t, EldoradoState)
    assert game.deserialize(t.serialize()).serialize() == t.serialize()
    for _ in range(200):  # playable: never stuck, never a crash
        if t.is_terminal():
            break
        _step(t, rng)
        t.check_invariants()

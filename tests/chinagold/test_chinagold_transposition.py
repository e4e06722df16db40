"""transposition_key: equal exactly where the whole state (but its history) is equal."""

from __future__ import annotations

import random

from motherlode.agents.search import structural_key
from tests.chinagold.helpers import game


def test_the_key_tells_positions_apart_exactly_as_the_whole_state_does() -> None:
    seen: dict[object, tuple[object, ...]] = {}
    back: dict[tuple[object, ...], object] = {}
    for config in ({}, {"first_player": 1, "max_turns": 40}):
        g = game(**config)
        seen.clear()
        back.clear()
        for seed in range(6):
            rng = random.Random(seed)
            state = g.new_initial_state()
            while True:
                key = state.transposition_key()
                whole = structural_key(state)
                assert seen.setdefault(key, whole) == whole
                assert back.setdefault(whole, key) == key
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(rng))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))


def test_a_read_position_has_the_key_of_the_one_written() -> None:
    g = game()
    state = g.new_initial_state()
    state.apply_string("throw 3")
    state.apply_string("turn f4-f6")
    assert g.deserialize(state.serialize()).transposition_key() == state.transposition_key()

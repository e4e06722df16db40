"""transposition_key: equal exactly where the whole state (but its history) is equal."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.agents.search import structural_key
from motherlode.core.protocol import State


def _states(game: motherlode.Game, games: int) -> list[State]:
    out: list[State] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(state.clone())
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize("expansion", [False, True])
def test_the_key_tells_positions_apart_exactly_as_the_whole_state_does(expansion: bool) -> None:
    game = motherlode.load("yukon", players=2, expansion=expansion)
    seen: dict[object, tuple[object, ...]] = {}
    back: dict[tuple[object, ...], object] = {}
    keyed = 0
    for state in _states(game, 6):
        key = state.transposition_key()
        if key is None:  # the deal: the agents key the whole state
            continue
        keyed += 1
        hash(key)
        whole = structural_key(state)
        assert seen.setdefault(key, whole) == whole
        assert back.setdefault(whole, key) == key
    assert keyed > 100


def test_the_same_position_by_two_move_orders_has_one_key() -> None:
    game = motherlode.load("yukon")
    a = motherlode.deal(game, seed=1)
    b = a.clone()
    b.apply_action(b.legal_actions()[0])
    assert b.transposition_key() != a.transposition_key()
    c = game.deserialize(b.serialize())
    assert c.transposition_key() == b.transposition_key()

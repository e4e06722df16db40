"""OpenSpiel games and states pickle, so they travel to multiprocessing and Ray workers.

Issue 30: ``pickle.dumps(load_game("yukon"))`` raised ``PicklingError`` because the
generated game classes were not module attributes.
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from motherlode.adapters import openspiel as mos  # noqa: E402
from tests.adapters.cases import FIRST_CASES  # noqa: E402


def _play(state: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_out(game: Any, seed: int) -> tuple[list[int], list[float]]:
    """A worker's job: a whole random game of the pickled ``game``."""
    state = _play(game.new_initial_state(), seed, 100_000)
    return state.history(), state.returns()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_a_game_pickles_to_the_same_game(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is type(game)
    assert str(back) == str(game)
    assert back.motherlode.config == game.motherlode.config
    assert back.num_distinct_actions() == game.num_distinct_actions()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_a_state_pickles_to_the_same_position(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    state = _play(game.new_initial_state(), 3, 40)
    back = pickle.loads(pickle.dumps(state))
    assert back.history() == state.history()
    assert back.serialize() == state.serialize()
    assert back.legal_actions() == state.legal_actions()


def test_a_game_goes_to_a_worker_process_and_plays_there() -> None:
    game = mos.load_game("yukon", players=3)
    here = [play_out(game, seed) for seed in range(2)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.starmap(play_out, [(game, seed) for seed in range(2)])
    assert there == here
    assert all(len(history) > 10 for history, _ in there)

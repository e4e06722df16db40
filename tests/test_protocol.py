"""The conformance suite: every registered game and config through the same API checks.

A game joins by registering (``GAME`` in its package) and listing its configs in
``Game.conformance_configs()``; nothing here names a game.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import motherlode
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.core.protocol import CHANCE, TERMINAL, State
from motherlode.core.records import GameRecord, replay
from motherlode.games import registry

CASES = [
    pytest.param(name, cfg, id=f"{name}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for name, cls in registry().items()
    for cfg in cls.conformance_configs()
]

PLAYOUTS = 3


def random_playout(state: State, rng: random.Random, check: bool = True) -> State:
    """Play ``state`` to the end with uniform random decisions, checking as it goes."""
    game = state.game
    steps = 0
    while not state.is_terminal():
        assert steps <= game.max_game_length, "game exceeded its declared max_game_length"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node with no outcomes"
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert all(0 <= a < game.max_chance_outcomes for a, _ in outcomes)
            assert state.legal_actions() == []
            action = state.sample_chance(rng)
            assert action in {a for a, _ in outcomes}
        else:
            legal = state.legal_actions()
            assert legal, "a decision node with no legal action"
            assert legal == sorted(set(legal))
            assert all(0 <= a < game.num_distinct_actions for a in legal)
            assert state.chance_outcomes() == []
            action = legal[rng.randrange(len(legal))]
        if check:
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action, f"notation does not round-trip: {text}"
            state.apply_action(action)
            state.check_invariants()
        else:
            state.apply_unchecked(action)
        steps += 1
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    return state


@pytest.mark.parametrize(("name", "config"), CASES)
def test_random_playouts_reach_the_end(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    for seed in range(PLAYOUTS):
        state = random_playout(game.new_initial_state(), random.Random(seed))
        returns = state.returns()
        n = game.num_players
        assert len(returns) == n and len(state.scores()) == n
        assert all(game.min_utility <= r <= game.max_utility for r in returns)
        winners = state.winners()
        assert winners or n == 1, "only a solo game can have no winner"
        if n == 1:
            assert returns == ([1.0] if winners else [-1.0])
        elif len(winners) == n:
            assert returns == [0.0] * n
        else:
            assert all(returns[p] == 1.0 for p in winners)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_clone_is_independent(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    rng = random.Random(11)
    state = motherlode.deal(game, seed=5)
    for _ in range(6):
        if state.is_terminal():
            break
        before = state.serialize()
        copy = state.clone()
        assert copy.serialize() == before and copy.history() == state.history()
        random_playout(copy, rng, check=False)
        assert state.serialize() == before, "playing a clone changed the original"
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "config"), CASES)
def test_serialize_round_trips_and_replays_from_history(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        text = state.serialize()
        again = game.deserialize(text)
        assert again.serialize() == text
        assert again.current_player() == state.current_player()
        assert again.legal_actions() == state.legal_actions()
        assert again.chance_outcomes() == state.chance_outcomes()
        assert again.scores() == state.scores()
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
    rebuilt = game.new_initial_state()
    for action in state.history():
        rebuilt.apply_action(action)
    assert rebuilt.serialize() == state.serialize()
    assert rebuilt.scores() == state.scores()


@pytest.mark.parametrize(("name", "config"), CASES)
def test_records_replay_identically(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    state = random_playout(game.new_initial_state(), random.Random(8), check=False)
    record = GameRecord.from_state(state, ["random"] * game.num_players, seed=8)
    again = replay(GameRecord.from_json(record.to_json()))
    assert again.serialize() == state.serialize()
    assert again.history() == state.history()


@pytest.mark.parametrize(("name", "config"), CASES)
def test_illegal_actions_are_rejected_and_change_nothing(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 40:
        before = state.serialize()
        history = state.history()
        if state.is_chance_node():
            possible = {a for a, _ in state.chance_outcomes()}
            bad = [a for a in range(game.max_chance_outcomes + 1) if a not in possible]
        else:
            legal = set(state.legal_actions())
            bad = [a for a in range(game.num_distinct_actions + 1) if a not in legal]
        for action in [*bad[:3], -1, "x", 1.5]:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)  # type: ignore[arg-type]
            assert state.serialize() == before and state.history() == history
        with pytest.raises(NotationError):
            state.string_to_action("no such action %%")
        checked += 1
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal_list = state.legal_actions()
            state.apply_action(legal_list[rng.randrange(len(legal_list))])
    final = random_playout(state, rng, check=False)
    with pytest.raises(IllegalActionError):
        final.apply_action(0)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_observations_are_json_and_tensors_have_a_fixed_shape(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    shape = game.observation_tensor_shape()
    rng = random.Random(9)
    state = game.new_initial_state()
    seats: list[int | None] = [None, *range(game.num_players)]
    step = 0
    while not state.is_terminal():
        if step % 7 == 0:
            for seat in seats:
                json.dumps(state.observation(seat))
                tensor = state.observation_tensor(seat)
                assert isinstance(tensor, np.ndarray) and tensor.shape == shape
                assert np.isfinite(tensor).all()
            assert isinstance(str(state), str) and str(state)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    for seat in seats:
        json.dumps(state.observation(seat))
        assert state.observation_tensor(seat).shape == shape


@pytest.mark.parametrize(("name", "config"), CASES)
def test_where_every_seat_sees_all_a_seat_sees_what_a_spectator_sees(
    name: str, config: dict
) -> None:
    """``perfect_information``: each seat's observation is the spectator's with its own
    ``seat`` (the server builds the one and gives each seat a copy)."""
    game = motherlode.load(name, **config)
    if not game.perfect_information:
        pytest.skip("hidden information: each seat's view is its own")
    rng = random.Random(11)
    state = game.new_initial_state()
    checked = 0
    while True:
        spectator = state.observation(None)
        assert spectator.get("seat", None) is None
        for seat in range(game.num_players):
            assert state.observation(seat) == {**spectator, "seat": seat}
        checked += 1
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 10


@pytest.mark.parametrize(("name", "config"), CASES)
def test_deal_is_reproducible_and_leaves_setup_chance(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    a, b = motherlode.deal(game, seed=21), motherlode.deal(game, seed=21)
    assert a.serialize() == b.serialize()
    assert a.current_player() != CHANCE


@pytest.mark.parametrize(("name", "config"), CASES)
def test_game_facts_are_consistent(name: str, config: dict) -> None:
    game = motherlode.load(name, **config)
    assert game.name == name and game.num_players == config.get("players", game.num_players)
    assert game.num_distinct_actions > 0 and game.max_chance_outcomes >= 0
    assert game.max_game_length > 0
    assert motherlode.load(name, **game.config.model_dump()).config == game.config


def test_every_game_package_imports() -> None:
    from motherlode.games import import_errors

    assert import_errors() == {}


def test_every_game_is_registered_under_its_own_name() -> None:
    for name, cls in registry().items():
        assert cls.name == name

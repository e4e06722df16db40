"""The OpenSpiel adapter, checked by OpenSpiel's own tools on every game and config."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import motherlode  # noqa: E402
from motherlode.adapters import openspiel as mos  # noqa: E402
from motherlode.core.errors import ConfigError, IllegalActionError, NotationError  # noqa: E402
from motherlode.games import registry  # noqa: E402
from tests.adapters.cases import CASES, FIRST_CASES  # noqa: E402

GameType = pyspiel.GameType


def _advance(state: Any, rng: random.Random, steps: int) -> Any:
    """``steps`` random actions (chance sampled by its probabilities)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_is_registered_under_its_short_name() -> None:
    shorts = {t.short_name for t in pyspiel.registered_games()}
    for name in registry():
        assert mos.short_name(name) == f"python_motherlode_{name}" in shorts


@pytest.mark.parametrize(("name", "config"), CASES)
def test_random_sim_test_with_serialization(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_game_type_and_info_come_from_the_game(name: str, config: dict[str, Any]) -> None:
    ours = motherlode.load(name, **config)
    game = mos.load_game(name, **config)
    gt = game.get_type()
    assert gt.short_name == f"python_motherlode_{name}"
    assert gt.dynamics == GameType.Dynamics.SEQUENTIAL
    assert gt.reward_model == GameType.RewardModel.TERMINAL
    assert gt.chance_mode == (
        GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if ours.max_chance_outcomes
        else GameType.ChanceMode.DETERMINISTIC
    )
    assert gt.information == (
        GameType.Information.PERFECT_INFORMATION
        if ours.perfect_information
        else GameType.Information.IMPERFECT_INFORMATION
    )
    if ours.num_players == 2:
        assert gt.utility == GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    else:  # n players: +1 each winner, -1 the others does not sum to a constant
        assert gt.utility == GameType.Utility.GENERAL_SUM
    assert game.num_players() == ours.num_players
    assert game.num_distinct_actions() == ours.num_distinct_actions
    assert game.max_chance_outcomes() == ours.max_chance_outcomes
    assert game.max_game_length() == ours.max_game_length
    assert (game.min_utility(), game.max_utility()) == (ours.min_utility, ours.max_utility)
    assert game.observation_tensor_shape() == list(ours.observation_tensor_shape())
    # the game string carries the whole config and loads the same game again
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.motherlode.config == ours.config


def test_parameters_by_game_string() -> None:
    name, cls = next(iter(registry().items()))
    top = cls.max_players
    game = pyspiel.load_game(f"python_motherlode_{name}(players={top})")
    assert game.num_players() == top
    with pytest.raises(Exception, match=r"(?i)unknown parameter"):
        pyspiel.load_game(f"python_motherlode_{name}(no_such_option=1)")
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(f"python_motherlode_{name}(players=99)")
    with pytest.raises(ConfigError, match="no_such_option"):
        mos.load_game(name, no_such_option=1)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_observer_tensors_and_strings(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    ours = game.motherlode
    seat_obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(4):
        inner = state.motherlode_state
        for player in range(ours.num_players):
            seat_obs.set_from(state, player)
            expected = inner.observation_tensor(player)
            assert seat_obs.tensor.shape == (expected.size,)
            np.testing.assert_array_equal(seat_obs.dict["observation"], expected)
            assert json.loads(seat_obs.string_from(state, player)) == json.loads(
                json.dumps(inner.observation(player))
            )
            np.testing.assert_array_equal(state.observation_tensor(player), expected.ravel())
            assert state.observation_string(player) == seat_obs.string_from(state, player)
            public.set_from(state, player)
            np.testing.assert_array_equal(public.tensor, inner.observation_tensor(None).ravel())
            assert json.loads(public.string_from(state, player)) == json.loads(
                json.dumps(inner.observation(None))
            )
            if ours.perfect_information:
                assert state.information_state_string(player) == " ".join(
                    str(a) for a in state.history()
                )
        _advance(state, rng, 15)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_readable_serialization_round_trips(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(5):
        text = state.serialize()
        head, position = text.split("\n", 1)
        assert head == "history=" + ",".join(str(a) for a in state.history())
        assert position == "position=" + state.motherlode_state.serialize()
        again = game.deserialize_state(text)
        assert str(again) == str(state) and again.history() == state.history()
        assert again.legal_actions() == state.legal_actions()
        assert again.serialize() == text
        # the bridge's own path: its envelope, our notation inside
        game2, state2 = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        assert str(game2) == str(game)
        assert state2.serialize() == text
        assert pickle.loads(pickle.dumps(state)).serialize() == text
        _advance(state, rng, 25)
    # a bare position notation loads too (with no OpenSpiel history)
    bare = game.deserialize_state(state.motherlode_state.serialize())
    assert str(bare) == str(state) and bare.history() == []


def test_bad_serializations_are_rejected() -> None:
    game = mos.load_game(next(iter(registry())))
    state = _advance(game.new_initial_state(), random.Random(1), 6)
    text = state.serialize()
    with pytest.raises(NotationError, match="position"):
        game.deserialize_state(text.split("\n")[0])
    with pytest.raises(NotationError, match="bad history"):
        game.deserialize_state("history=1,x\n" + text.split("\n")[1])
    initial = game.new_initial_state().serialize()
    if state.motherlode_state.serialize() != game.new_initial_state().motherlode_state.serialize():
        with pytest.raises(NotationError, match="history reaches"):
            game.deserialize_state(initial.split("\n")[0] + "\n" + text.split("\n")[1])


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_clone_is_independent_and_uses_the_engine_clone(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    state = _advance(game.new_initial_state(), random.Random(3), 12)
    copy = state.clone()
    assert type(copy) is type(state)
    assert copy.motherlode_state is not state.motherlode_state
    assert str(copy) == str(state) and copy.history() == state.history()
    before = str(state)
    _advance(copy, random.Random(4), 40)
    assert str(state) == before


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_illegal_actions_raise_and_change_nothing(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = set(state.legal_actions())
    bad = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before, history = str(state), state.history()
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert str(state) == before and state.history() == history


@pytest.mark.parametrize(("name", "config"), CASES)
def test_mcts_bot_chooses_legal_moves(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng,
    )  # fmt: skip
    state = game.new_initial_state()
    chance = random.Random(0)
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        if state.is_chance_node():
            _advance(state, chance, 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 3 or state.is_terminal()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_mcts_bot_plays_a_whole_game(name: str, config: dict[str, Any]) -> None:
    game = mos.load_game(name, **config)
    rng = np.random.RandomState(1)
    # short rollouts keep this a test of the plumbing, not of playing strength
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=10)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    chance = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            _advance(state, chance, 1)
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert returns == state.motherlode_state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)

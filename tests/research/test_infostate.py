"""Information states (perfect recall) in the OpenSpiel adapter, small solvable positions,
and OpenSpiel's CFR with exact exploitability on them."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

import motherlode  # noqa: E402
from motherlode.adapters import openspiel as mos  # noqa: E402
from motherlode.research.solve import position_after, yukon_small_grid  # noqa: E402
from tests.adapters.cases import CASES, FIRST_CASES  # noqa: E402


@pytest.mark.parametrize(("name", "config"), CASES)
def test_the_game_type_declares_what_information_state_there_is(
    name: str, config: dict[str, Any]
) -> None:
    game = mos.load_game(name, **config)
    kind = game.get_type()
    hidden = not game.motherlode.perfect_information
    assert kind.provides_information_state_string
    assert kind.provides_information_state_tensor == hidden
    state = game.new_initial_state()
    if hidden:
        size = int(game.observation_tensor_size()) + game.num_distinct_actions()
        assert len(state.information_state_tensor(0)) == size
    else:
        with pytest.raises(Exception, match="no information-state tensor"):
            state.information_state_tensor(0)


def _hidden_game() -> Any:
    return mos.load_game("eurorails", players=3, open_hands=False)


def _deal(game: Any, cards: list[int]) -> Any:
    state = game.new_initial_state()
    for card in cards:
        assert state.is_chance_node()
        state.apply_action(card)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for _ in range(12):  # the same first decisions in both deals
        state.apply_action(state.legal_actions()[0])
    return state


def test_another_seats_hidden_card_changes_only_that_seats_information_state() -> None:
    game = _hidden_game()
    probe = game.new_initial_state()
    cards: list[int] = []
    choices: list[int] = []
    for step in range(9):  # three demand cards each, P1's first
        outcomes = [c for c, _ in probe.chance_outcomes()]
        if step == 3:
            choices = outcomes
        cards.append(outcomes[0])
        probe.apply_action(outcomes[0])
    unused = next(c for c in choices if c not in cards)
    swapped = [*cards[:3], unused, *cards[4:]]  # only P2's first card differs
    a, b = _deal(game, cards), _deal(game, swapped)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(2) == b.information_state_string(2)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_the_information_state_recalls_the_seats_own_actions_and_survives_copies() -> None:
    game = _hidden_game()
    state = game.new_initial_state()
    rng = random.Random(2)
    mine = 0
    for _ in range(60):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if state.current_player() == 0:
            mine += 1
        state.apply_action(rng.choice(state.legal_actions()))
        if state.move_number() == 30:
            early = state.information_state_string(0)  # from here on kept incrementally
    text = state.information_state_string(0)
    assert text.startswith(early)
    assert sum(1 for line in text.splitlines() if line.startswith("did ")) == mine
    assert sum(state.information_state_tensor(0)[-game.num_distinct_actions() :]) == mine
    assert mos.information_state(state, 0) == "\n".join(mos._Recall.replayed(state).lines[0])
    assert pickle.loads(pickle.dumps(state)).information_state_string(0) == text
    assert state.clone().information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_every_game_starts_from_a_position_when_asked(name: str, config: dict[str, Any]) -> None:
    text = position_after(motherlode.load(name, **config), seed=1, moves=5)
    game = mos.load_game(name, position=text, **config)
    state = game.new_initial_state()
    assert state.motherlode_state.serialize() == text
    assert state.history() == []
    again = pyspiel.load_game(str(game))  # the game string carries the position
    assert again.new_initial_state().motherlode_state.serialize() == text
    assert pickle.loads(pickle.dumps(game)).new_initial_state().serialize() == state.serialize()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cfr_solves_a_small_yukon_grid_with_exact_exploitability(seed: int) -> None:
    game = mos.load_game("yukon", position=yukon_small_grid(seed, rows=2, columns=3))
    states = get_all_states.get_all_states(game, include_terminals=True)
    outcomes = {tuple(s.returns()) for s in states.values() if s.is_terminal()}
    assert outcomes >= {(1.0, -1.0), (-1.0, 1.0)}  # not 0-0: either seat can win
    solver = cfr.CFRSolver(game)
    start = exploitability.exploitability(game, solver.average_policy())
    for _ in range(30):
        solver.evaluate_and_update_policy()
    solved = exploitability.exploitability(game, solver.average_policy())
    assert start > 0.3
    assert solved < start / 5

"""OpenSpiel's CFR with exact exploitability on Chinagold region subsets (config
``regions``): the rules kept, a tree small enough to walk in seconds."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

from motherlode.adapters import openspiel as mos  # noqa: E402


@pytest.mark.parametrize(("regions", "states"), [("J", 124), ("L", 567)])
def test_cfr_solves_a_chinagold_region_subset_with_exact_exploitability(
    regions: str, states: int
) -> None:
    game = mos.load_game("chinagold", regions=regions)
    every = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=True)
    assert len(every) == states
    outcomes = {tuple(s.returns()) for s in every.values() if s.is_terminal()}
    assert outcomes == {(1.0, -1.0), (-1.0, 1.0)}  # an odd number of nuggets: no draw
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    after_one = exploitability.exploitability(game, solver.average_policy())
    for _ in range(29):
        solver.evaluate_and_update_policy()
    after_30 = exploitability.exploitability(game, solver.average_policy())
    assert after_one > 0.5
    assert after_30 < after_one / 10


def test_the_region_subset_travels_in_the_game_string() -> None:
    game = pyspiel.load_game("python_motherlode_chinagold(regions=L)")
    assert game.get_parameters()["regions"] == "L"
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3]
    assert state.motherlode_state.serialize() == "6/7/8/9/10/11/1o8/1o7/1o6/1oo4/6 P1 ? 0,0 0"

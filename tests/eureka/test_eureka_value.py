"""The value function that search agents use (motherlode.games.eureka.value) and its
fitting to self-play (benchmarks/eureka_value_fit.py)."""

from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

import pytest

from motherlode.games.eureka import value
from tests.eureka.helpers import setup

FIT_PATH = pathlib.Path(__file__).parents[2] / "benchmarks" / "eureka_value_fit.py"


def _points(loco: int, miner: str) -> float:
    state = setup(players=2, loco=loco, miners={0: miner}, revealed=["G5", "G5"])
    return value.expected_points(state)[0]


def test_gold_carried_is_worth_less_than_gold_banked() -> None:
    # 10 nuggets in the house, in front of the miner next to town, and far out in the field
    for loco in (0, 13):
        banked = _points(loco, "i11:0:0:10:0")
        near = _points(loco, "i11:10:0:0:0")
        far = _points(loco, "b2:10:0:0:0")
        assert banked > near > far


def test_gold_carried_is_at_more_risk_the_closer_the_train() -> None:
    # the same 10 carried nuggets lose more of their worth with one train space left
    early = _points(0, "b2:10:0:0:0") - _points(0, "i11:0:0:10:0")
    late = _points(13, "b2:10:0:0:0") - _points(13, "i11:0:0:10:0")
    assert late < early < 0


def test_values_are_win_chances_from_the_lead() -> None:
    state = setup(players=2, loco=13, miners={0: "i11:0:0:10:0"}, revealed=["G5", "G5"])
    v = value.values(state)
    assert v[0] == pytest.approx(-v[1])
    assert 0.3 < v[0] < 1.0
    assert state.heuristic_values() == v


def test_a_finished_game_is_worth_its_scores() -> None:
    import random

    import motherlode

    state = motherlode.deal(motherlode.load("eureka", players=3), seed=2)
    rng = random.Random(5)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else max(legal))
    assert value.expected_points(state) == state.scores()


def _fitting() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eureka_value_fit", FIT_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fit_keeps_banked_and_carried_at_one_point_each() -> None:
    weights, scale = _fitting().fit(games=12, players=2, seed=3)
    assert len(weights) == len(value.FEATURES)
    assert weights[value.FEATURES.index("banked")] == 1.0
    assert weights[value.FEATURES.index("carried")] == 1.0
    assert scale > 0


def test_the_greedy_bots_remembered_distance_maps_equal_fresh_ones() -> None:
    import random

    import motherlode
    from motherlode.games.eureka.bot import GreedyAgent
    from motherlode.games.eureka.game import EurekaState

    game = motherlode.load("eureka", players=3)
    bot = GreedyAgent(game, seed=1)
    rng = random.Random(4)
    checked = 0
    for seed in range(4):
        state = motherlode.deal(game, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            assert isinstance(state, EurekaState)
            for seat in range(3):
                remembered = bot._target_map(state, seat)
                bot._maps.clear()
                assert remembered == bot._target_map(state, seat)
                checked += 1
            state.apply_unchecked(bot.act(state))
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_player_count_is_judged_by_the_fit_chosen_for_it(players: int) -> None:
    # five and six players have their own fits; three and four keep the two-player one
    state = setup(players=players, loco=5, miners={0: "b2:10:0:0:0"}, revealed=["G5", "G5"])
    rows = value.features(state)
    weights = value.WEIGHTS[value.JUDGED_WITH[players]]
    assert value.JUDGED_WITH[players] == (players if players >= 5 else 2)
    assert value.expected_points(state) == [
        sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows
    ]


def test_carried_gold_far_from_home_is_worth_less_with_more_seats() -> None:
    # the fits count ten nuggets ten hexes from home: 2.0 lost in two players, 5.9 in six
    def at_risk(players: int) -> float:
        far = setup(players=players, loco=5, miners={0: "b2:10:0:0:0"}, revealed=["G5", "G5"])
        home = setup(players=players, loco=5, miners={0: "i11:0:0:10:0"}, revealed=["G5", "G5"])
        return value.expected_points(home)[0] - value.expected_points(far)[0]

    assert at_risk(2) < at_risk(5) < at_risk(6)

"""The greedy bot (deterministic, stronger than random), golden records, solo and limits."""

from __future__ import annotations

from pathlib import Path

import pytest

import motherlode
from motherlode.arena.play import play_game
from motherlode.core.agent import Agent, RandomAgent
from motherlode.core.errors import RecordError
from motherlode.core.records import GameRecord, replay
from tests.eldorado.helpers import game, position


def create(spec: str, g: motherlode.Game, seed: int = 0) -> Agent:
    """The game's own agents, without the agents registry (kept apart from other work)."""
    if spec == "random":
        return RandomAgent(seed=seed)
    return g.bots()[spec](g, seed=seed)


GOLDEN = Path(__file__).parent / "data" / "golden_greedy_vs_random_map3.json"


def test_golden_record_replays_identically() -> None:
    record = GameRecord.load(GOLDEN)
    state = replay(record)
    assert state.is_terminal() and state.scores() == record.scores == [8.0, 2.0]
    assert state.winners() == (0,) and state.returns() == [1.0, -1.0]
    # the same agents and seed play the very same game again
    g = motherlode.load(record.game, **record.config)
    again = play_game(g, [create("greedy", g, seed=1), create("random", g, seed=2)], seed=7)
    assert again.record.actions == record.actions
    assert again.state.serialize() == state.serialize()


def test_greedy_is_deterministic_given_its_seed() -> None:
    g = game(map=2)
    s = motherlode.deal(g, seed=5)
    assert create("greedy", g, seed=3).act(s) == create("greedy", g, seed=3).act(s)


def test_greedy_beats_random_clearly() -> None:
    wins = 0
    for i in range(6):
        g = game(map=1 + i % 4)
        seats = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        played = play_game(g, [create(sp, g, seed=i) for sp in seats], seed=100 + i)
        wins += played.state.winners() == (seats.index("greedy"),)
    assert wins == 6


def test_greedy_takes_the_winning_offering() -> None:
    g = game()
    s = position(g, phase="use", held={4: ("3c", 1)},
                 visited={0: ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "i3"]},
                 offers={0: [("h3", 1), ("e2", 1)]})
    bot = create("greedy", g)
    assert s.action_to_string(bot.act(s)) == "d4 offer j3"


def test_greedy_makes_a_large_first_offering() -> None:
    g = game()
    s = position(g, phase="start", middle={0: "1c", 4: "3c"},
                 visited={0: ["a2", "b2", "c2", "d2"]})
    bot = create("greedy", g)
    assert s.action_to_string(bot.act(s)) == "take d4"


def test_solo_is_our_extension_won_by_entering_el_dorado_within_the_round_limit() -> None:
    g = game(players=1)
    played = play_game(g, [create("greedy", g, seed=1)], seed=3)
    s = played.state
    assert s.is_terminal() and s.solo_won() and s.round == 24  # 16 under rules 1
    assert s.winners() == (0,) and s.returns() == [1.0]
    lost = play_game(game(players=1, max_rounds=3), [create("random", g, seed=1)], seed=3)
    assert lost.state.is_terminal() and not lost.state.solo_won() and lost.state.round == 3
    assert lost.state.winners() == () and lost.state.returns() == [-1.0]


def test_round_limit_most_temples_then_most_coins() -> None:
    g = game(players=3, max_rounds=2)
    s = position(g, seat=2, phase="use", held={0: ("machete", 1)}, round=2,
                 visited={0: ["a2", "b2", "c2", "d2"], 1: ["a4", "b4"], 2: []},
                 offers={0: [("e2", 2)], 1: [("c4", 3)]})
    s.apply_string("d0 move a1")
    assert s.is_terminal() and s.winners() == (1,)


def test_a_rules_1_record_past_a_temple_in_the_same_turn_is_refused_naming_the_change() -> None:
    # written by the rules-1 engine (greedy, solo, seed 3): at step 39 a resource item goes on
    # past temple c4 in the turn of the offering there
    record = GameRecord.load(Path(__file__).parent / "data" / "rules1_solo_greedy_map1.json")
    assert record.versions["rules"] == 1
    with pytest.raises(RecordError) as err:
        replay(record)
    text = str(err.value)
    assert text.startswith("step 39 ('res move d4') does not replay")
    assert "d4 lies beyond temple c4, offered in this turn" in text
    assert "written under eldorado rules version 1" in text
    assert "rules 2: El Dorado, Continuing the Expedition Beyond a Temple" in text


def test_a_rules_1_record_that_is_still_legal_replays() -> None:
    record = GameRecord.load(GOLDEN)
    assert record.versions["rules"] == 1 and replay(record).is_terminal()

"""The greedy bot, and the golden game record."""

from __future__ import annotations

from pathlib import Path

import pytest

from motherlode.arena.play import play_game
from motherlode.core.agent import RandomAgent
from motherlode.core.records import GameRecord, replay
from motherlode.games.chinagold.bot import GreedyAgent
from tests.chinagold.helpers import game, position

GOLDEN = Path(__file__).parent / "data" / "golden_greedy_vs_random.json"


def test_greedy_is_exposed_and_deterministic_given_its_seed() -> None:
    g = game()
    factory = g.bots()["greedy"]
    a, b = factory(g, seed=5), factory(g, seed=5)
    state = position(g, throw="3")
    assert a.act(state) == b.act(state)


def test_greedy_completes_its_own_area() -> None:
    # throw 1: turning b8 completes mountain B (a8 a9 b8) for the mountains player
    state = position(game(), gold=["a8", "a9"], throw="1", collected=(0, 0))
    assert state.action_to_string(GreedyAgent(state.game).act(state)) == "turn b8"


def test_greedy_does_not_hand_the_opponent_an_area() -> None:
    # turning b11 would complete river c (a10 a11 b10) for the opponent
    state = position(game(), gold=["a10", "a11", "b10"], throw="1", collected=(0, 0))
    assert state.action_to_string(GreedyAgent(state.game).act(state)) != "turn b11"


def test_greedy_beats_random_with_seats_rotated() -> None:
    g = game()
    wins = 0
    for i in range(10):
        seat = i % 2
        agents = [RandomAgent(seed=i), RandomAgent(seed=i)]
        agents[seat] = GreedyAgent(g, seed=i)
        state = play_game(g, agents, seed=100 + i).state
        wins += state.winners() == (seat,)
    assert wins >= 9


def test_golden_record_replays_identically() -> None:
    record = GameRecord.load(GOLDEN)
    state = replay(record)
    assert state.is_terminal() and state.scores() == [72.0, 19.0]
    assert state.serialize() == "6/7/8/9/10/11/10/9/8/7/6 P1 - 72,19 58"
    # and the same agents and seed still play exactly this game
    g = game()
    again = play_game(g, [GreedyAgent(g, seed=1), RandomAgent(seed=2)], seed=2026).record
    assert again.actions == record.actions and again.scores == record.scores


def test_greedy_depth_2_looks_at_the_reply_and_stays_legal() -> None:
    g = game()
    state = position(g, gold=["a8", "a9"], throw="1", collected=(0, 0))
    bot = g.bots()["greedy"](g, seed=0, depth=2, width=4)
    assert state.action_to_string(bot.act(state)) == "turn b8"
    state = position(g, throw="4")
    assert bot.act(state) in state.legal_actions()


def test_greedy_rejects_unknown_parameters() -> None:
    g = game()
    with pytest.raises(TypeError, match="unknown greedy parameter"):
        g.bots()["greedy"](g, seed=0, speed=3)
    with pytest.raises(TypeError, match="depth must be 1 or 2"):
        g.bots()["greedy"](g, seed=0, depth=3)

"""Eureka's narration and end-of-game summary (issue 21): the sentences of the important
events pinned on scenarios of the rulebook's sections, every action kind narrated in
random playouts, and a summary for every way the game ends (its breakdown adding up)."""

from __future__ import annotations

import random

import pytest

from motherlode.games.eureka import game as g
from tests.eureka.helpers import game, play, setup


def said(state, *steps: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The sentence of each step, asked before it is applied; the steps are applied."""
    out = []
    for step in steps:
        out.append(state.narrate(state.string_to_action(step)))
        state.apply_string(step)
    return out


def test_narrate_a_turn_begins_with_the_die() -> None:
    s = setup()
    assert said(s, "roll", "die 4") == [
        "P1 throws the die", "P1 throws a 4: the miner moves exactly 4 hexes"]
    assert said(setup(turn=1), "pass") == ["P2 passes"]


def test_narrate_gold_discovery_eureka() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"}, keep=["c7"])
    assert said(s, "move c7", "reveal G4") == [
        "P1's miner moves to c7 and turns over the chip there",
        "Eureka! P1's miner finds 4 gold nuggets at c7",
    ]


def test_narrate_a_robber_fought_and_beaten() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:3:0:0:0"}, revealed=["G3"], keep=["c7"])
    assert said(s, "move c7", "reveal R2", "die 5")[1:] == [
        "P1's miner reveals a robber (hat 2) at c7: P1 must defend 3 gold with the die",
        "P1 throws a 5 against the robber's hat 2: P1 keeps the gold and captures the robber",
    ]


def test_narrate_a_robber_wins_and_the_miner_moves_away() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:3:0:0:0"}, revealed=["G3"], keep=["c7"])
    assert said(s, "move c7", "reveal R4", "die L")[2] == (
        "P1 throws the locomotive (one) against the robber's hat 4: the robber takes 3 gold"
        " and P1's miner must move away 1 hex")
    assert said(s, "move c6") == [
        "P1's miner moves away to c6 (he may not turn over a chip there)"]


def test_narrate_a_robber_without_gold_to_fight_for() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"}, keep=["c7"])
    assert said(s, "move c7", "reveal R2")[1] == (
        "P1's miner reveals a robber (hat 2) at c7; P1 carries no gold, so there is no fight")


def test_narrate_a_face_up_robber_and_his_gold_captured() -> None:
    s = setup(turn=1, phase="move", die=2, miners={1: "c5:0:0:0:0"}, robbers="c7:3:3",
              revealed=["G3", "R3"])
    assert said(s, "move c7") == [
        "P2's miner moves to c7 and captures the robber (hat 3) with the 3 gold under him"]


def test_narrate_a_duel_between_miners() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "d7:3:1:1:0"},
              revealed=["G2", "G3", "R1", "G1"])
    assert said(s, "move d7", "die 4", "die 2", "die 3") == [
        "P1's miner moves to d7; P2's miner is there: a duel, P1 throws first",
        "P1 attacks and throws a 4",
        "P2 defends and throws a 2: P1 wins the duel and takes 3 gold and 1 robber from P2,"
        " then moves away",
        "P1 throws a 3 to move away 3 hexes",
    ]


def test_narrate_the_gold_train_pushes_a_miner_back() -> None:
    s = setup(loco=3, miners={1: "u6:2:1:4:0"}, revealed=["G2", "R2", "G4"])
    assert said(s, "roll", "die L")[1] == (
        "P1 throws the locomotive: the gold train moves to u6 (space 5 of 15); P2's miner is"
        " pushed back to u5 and forfeits 2 gold and 1 robber to P1")


def test_narrate_a_raft_boarded_and_crossed() -> None:
    s = setup(phase="move", die=2)
    assert said(s, "move m12", "cross m16") == [
        "P1's miner moves to the raft at m12 on the East Lake",
        "P1 rafts across the East Lake from m12 to m16",
    ]
    s = setup(phase="move", die=2)
    assert said(s, "move m12", "stay")[1] == "P1 stays on the raft at m12"


def test_narrate_gold_banked_in_the_house() -> None:
    s = setup(phase="move", die=2, miners={0: "j13:5:1:3:0"}, revealed=["G5", "G3", "R1"])
    assert said(s, "move k14") == [
        "P1's miner moves to his house (k14) and banks 5 gold and 1 robber (10 points safe)"]


def test_summary_the_train_reaches_golden_city() -> None:
    s = setup(loco=13, miners={0: "k14:0:0:7:1", 1: "n11:0:0:10:0", 2: "n8:0:0:3:0"},
              revealed=["G5", "G2", "G5", "G5", "G3", "R2"])
    assert said(s, "roll", "die L")[1] == (
        "P1 throws the locomotive: the gold train moves to k11 (space 15 of 15); the train"
        " reaches Golden City: the game is over")
    assert s.summary().lines() == [
        "The game is over: the gold train reached the last track space in Golden City.",
        "P1: 9 (gold in the house 7, 1 robber × 2 = 2)",
        "P2: 10 (gold in the house 10, 0 robbers × 2 = 0)",
        "P3: 3 (gold in the house 3, 0 robbers × 2 = 0)",
        "Winner: P2",
    ]


def test_summary_no_more_gold_nuggets() -> None:
    revealed = ["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 4
    s = setup(phase="move", die=2, miners={0: "c5:0:0:60:0", 1: "n11:0:0:56:0"},
              revealed=revealed, keep=["c7"])
    assert said(s, "move c7", "reveal G5")[1] == (
        "Eureka! P1's miner finds 5 gold nuggets at c7; no more gold nuggets: the game is over")
    summary = s.summary()
    assert summary.reason == "there are no more gold nuggets: every gold chip has been turned over"
    assert summary.winners == (0,)


def test_summary_no_more_gold_nuggets_banked_variant() -> None:
    s = setup(phase="move", die=2, miners={0: "j13:5:0:60:0", 1: "n11:0:0:56:0"},
              revealed=["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 5,
              nuggets_end="banked")
    play(s, "move k14")
    assert s.summary().reason == "there are no more gold nuggets outside the houses"


def test_summary_the_turn_limit() -> None:
    s = setup(max_turns=1)
    assert said(s, "pass") == ["P1 passes; the turn limit is reached: the game is over"]
    summary = s.summary()
    assert summary.reason == (
        "the turn limit of 1 turns was reached (scored as if the train had arrived)")
    assert summary.winners == (0, 1, 2) and summary.lines()[-1] == "Shared victory: P1, P2, P3"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_action_kind_narrates_and_the_breakdown_adds_up(players: int) -> None:
    from motherlode.games.eureka.bot import make_greedy

    phases: set[int] = set()
    for seed in range(3):
        state = game(players=players, max_turns=400).new_initial_state()
        rng = random.Random(seed)
        bots = [make_greedy(game=state.game, seed=seed) for _ in range(players)]
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            elif rng.random() < 0.5:
                action = rng.choice(state.legal_actions())
            else:
                action = bots[state.current_player()].act(state)
            text = state.narrate(action, seat=0)
            assert text and not text.startswith(("chance:", f"P{state.current_player() + 1}: "))
            phases.add(state.phase)
            state.apply_action(action)
        summary = state.summary()
        assert summary.winners == state.winners() and summary.reason
        for seat in summary.seats:
            assert sum(v for _, v in seat.breakdown) == seat.score == state.scores()[seat.seat]
    assert phases >= {g.TURN, g.ROLL, g.MOVE, g.REVEAL, g.DEFEND, g.RETREAT, g.RAFT}


def test_the_rules_summary_ships_with_the_package() -> None:
    from motherlode.cli_human import rules_text

    text = rules_text(game())
    assert text.startswith("EUREKA") and 30 <= len(text.splitlines()) <= 60
    assert "move k13" in text and "robber" in text

"""El Dorado's narration and end-of-game summary (issue 21): the sentences of the
important events pinned on the rulebook's scenarios, every action kind narrated in random
playouts of every sheet, and a summary for every way the game ends (adding up)."""

from __future__ import annotations

import random

import pytest

from motherlode.games.eldorado.bot import make_greedy
from tests.eldorado.helpers import game, position
from tests.eldorado.test_eldorado_rules import NEXT_TO_GOLD, ROW2, TO_D3, TO_F2


def said(state, *steps: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The sentence of each step, asked before it is applied; the steps are applied."""
    out = []
    for step in steps:
        out.append(state.narrate(state.string_to_action(step)))
        state.apply_string(step)
    return out


def test_narrate_the_dice_rolled_and_a_die_taken() -> None:
    s = game().new_initial_state()
    assert said(s, "roll d0=map") == ["the dice are rolled: d0 shows a map"]
    s = position(game(), middle={0: "map", 4: "3c"})
    assert said(s, "take d4") == ["P1 takes d4 from the middle: 3 coins"]


def test_narrate_a_temple_offering_first_and_later() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: ROW2})
    assert said(s, "d2 offer e2") == [
        "P1 offers 2 coins from d2 (2 coins) in the temple e2, the first offering there: the"
        " minimum is now 2 (1 of 2 temples)"]
    s = position(g, seat=1, phase="use", held={4: ("3c", 1)}, visited={0: ROW2, 1: ROW2},
                 offers={0: [("e2", 2)]})
    assert said(s, "d4 offer e2") == [
        "P2 offers 3 coins from d4 (3 coins) in the temple e2 (1 of 2 temples)"]


def test_narrate_combined_coins_and_the_zero_offering() -> None:
    s = position(game(), seat=1, phase="use", held={2: ("2c", 1)}, visited={0: ROW2, 1: ROW2},
                 filled={1: ["1coin"]}, offers={0: [("e2", 3)]})
    assert said(s, "activate 1coin", "d2+res offer e2") == [
        "P2 uses the resource 1coin: 1 coin, to be used this turn",
        "P2 offers 3 coins from d2 (2 coins) with the 1 coin of the resource in the temple e2"
        " (1 of 2 temples)",
    ]
    s = position(game(map=2), phase="use", held={0: ("machete", 1)}, visited={0: TO_D3},
                 filled={0: ["zero"]})
    assert said(s, "activate zero", "res offer d3")[1] == (
        "P1 offers 0 coins from the resource zero (the zero offering) in the temple d3, the"
        " first offering there: the minimum is now 0 (1 of 3 temples)")


def test_narrate_the_amulet_reward() -> None:
    s = position(game(), phase="use", held={3: ("amulet", 1)}, middle={0: "map"},
                 visited={0: ["a1", "b1", "c1"]})
    assert said(s, "d3 move d1", "reward move e1") == [
        "P1 uses d3 (an amulet) to fill d1 (amulet): the first to find the amulet, the"
        " signpost die is the reward",
        "P1 uses the signpost die (the amulet's reward) to fill e1 (map, the signpost as a"
        " joker)",
    ]


def test_narrate_a_resource_obtained() -> None:
    s = position(game(), phase="use", held={2: ("map", 1)}, filled={0: ["2machetes/1"]},
                 visited={0: ["a1"]})
    assert said(s, "d2 fill 2machetes/2") == [
        "P1 uses d2 (a map) to fill 2machetes/2 in front of 2machetes and obtains 2machetes"
        " (2 machetes)"]


def test_narrate_settlement_instalments_and_the_ethnographer() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: TO_F2})
    assert said(s, "d2 pay f2") == [
        "P1 pays d2 (2 coins) towards the Muisca settlement f2 (2 of 3 coins paid)"]
    s = position(g, phase="use", held={3: ("2c", 1)}, visited={0: TO_F2}, paid={0: {"f2": 2}})
    assert said(s, "d3 pay f2") == [
        "P1 pays d3 (2 coins) towards the Muisca settlement f2 and enters it (fee 3 paid)"]
    g4 = game(map=4)
    s = position(g4, phase="use", held={3: ("2c", 1)},
                 visited={0: ["a2", "b2", "c2", "d2", "e2", "f3"]})
    assert said(s, "d3 pay f2") == [
        "P1 pays d3 (2 coins) towards the Muisca settlement f2 and enters it (fee 1 paid) and"
        " hires the ethnographer"]
    s = position(g4, middle={0: "torch", 4: "map"},
                 visited={0: ["a2", "b2", "c2", "d2", "e2", "f2", "f3"]})
    assert said(s, "ethnographer") == [
        "P1's ethnographer re-rolls the 2 dice in the middle (a torch lies there)"]


def test_narrate_special_actions() -> None:
    s = position(game(map=4), middle={0: "torch", 4: "map"}, visited={0: ["a2"]},
                 filled={0: ["taketwo"]})
    assert said(s, "activate taketwo") == [
        "P1 uses the special action taketwo (take two dice) and will choose two dice this turn"]


def test_summary_el_dorado_entered_and_the_round_finished() -> None:
    s = position(game(), phase="use", held={4: ("3c", 1)}, middle={0: "map"},
                 visited={0: NEXT_TO_GOLD}, offers={0: [("h3", 1), ("e2", 1)]})
    assert said(s, "d4 offer j3", "take d0", "d0 move a2") == [
        "P1 offers 3 coins from d4 (3 coins) in the golden temple j3 and enters El Dorado",
        "P2 takes d0 from the middle: a map",
        "P2 uses d0 (a map) to fill a2 (map); the round is finished and the game is over",
    ]
    assert s.termination() == "el-dorado"
    assert s.summary().lines() == [
        "The game is over: P1 entered El Dorado (the golden temple j3) and the round was"
        " finished in round 1 (the coins offered in temples count only to break a tie).",
        "P1: 2 (temple h3 1, temple e2 1)",
        "P2: 0",
        "Winner: P1",
    ]


def test_summary_two_entered_the_tie_break_by_coins_offered() -> None:
    s = position(game(), seat=1, phase="use", held={5: ("3c", 1)},
                 visited={0: [*NEXT_TO_GOLD, "j3"], 1: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1), ("j3", 3)], 1: [("h3", 2), ("e2", 1)]})
    said(s, "d5 offer j3")
    assert s.summary().lines() == [
        "The game is over: P1, P2 entered El Dorado (the golden temple j3) and the round was"
        " finished in round 1; the most coins offered in temples breaks the tie.",
        "P1: 2 (temple h3 1, temple e2 1)",
        "P2: 3 (temple h3 2, temple e2 1)",
        "Winner: P2",
    ]


def test_summary_the_round_limit() -> None:
    s = position(game(max_rounds=1), seat=1, phase="use", held={0: ("map", 1)},
                 middle={1: "map"}, offers={0: [("e2", 1)]}, visited={0: ROW2})
    assert said(s, "d0 move a2")[0].endswith("; the round limit is reached: the game is over")
    summary = s.summary()
    assert s.termination() == "round-limit" and summary.winners == (0,)
    assert summary.reason == (
        "the round limit of 1 rounds was reached and nobody entered El Dorado; the most"
        " temples offered in wins, then the most coins offered")


@pytest.mark.parametrize("sheet", [1, 2, 3, 4])
def test_every_action_kind_narrates_and_the_breakdown_adds_up(sheet: int) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        players = 2 + seed % 3
        g = game(players=players, map=sheet, max_rounds=40)
        state = g.new_initial_state()
        rng = random.Random(seed)
        bot = make_greedy(game=g, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            elif rng.random() < 0.3:
                action = rng.choice(state.legal_actions())
            else:
                action = bot.act(state)
            text = state.narrate(action, seat=0)
            words = state.action_to_string(action).split()
            assert text and not text.startswith(("chance:", f"P{state.current_player() + 1}: "))
            kinds.add(words[0] if len(words) == 1 or words[0] in ("roll", "take", "activate",
                                                                 "discard") else words[1])
            state.apply_action(action)
        summary = state.summary()
        assert summary.winners == state.winners() and summary.reason
        for seat in summary.seats:
            assert sum(v for _, v in seat.breakdown) == seat.score == state.scores()[seat.seat]
    assert kinds >= {"roll", "take", "move", "offer", "fill", "activate"}


def test_the_rules_summary_ships_with_the_package() -> None:
    from motherlode.cli_human import rules_text

    text = rules_text(game())
    assert text.startswith("EL DORADO") and 30 <= len(text.splitlines()) <= 60
    assert "d2 offer e2" in text and "golden temple" in text


def test_narrate_a_signpost_used_as_a_joker() -> None:
    s = position(game(), phase="use", held={6: ("signpost", 1)}, visited={0: ["a1"]})
    assert said(s, "d6 move b1") == [
        "P1 uses d6 (a signpost) to fill b1 (paddle, the signpost as a joker)"]


def test_summary_solo_won_and_lost() -> None:
    s = position(game(players=1), phase="use", held={4: ("3c", 1)},
                 visited={0: NEXT_TO_GOLD}, offers={0: [("h3", 1), ("e2", 1)]})
    said(s, "d4 offer j3")
    assert s.summary().reason == (
        "P1 entered El Dorado (the golden temple j3) and the round was finished in round 1")
    assert s.summary().winners == (0,)
    s = position(game(players=1, max_rounds=1), phase="use", held={0: ("map", 1)},
                 visited={0: ["a1"]})
    said(s, "d0 move a2")
    assert s.summary().reason == (
        "the round limit of 1 rounds was reached and nobody entered El Dorado: the solo"
        " expedition is lost")
    assert s.summary().winners == () and s.summary().lines()[-1] == "Nobody wins"

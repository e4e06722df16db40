"""El Dorado's narration and end-of-game summary (issue 21): the sentences of the
important events pinned on the rulebook's scenarios, every action kind narrated in random
playouts of every sheet, and a summary for every way the game ends (adding up)."""

from __future__ import annotations

import random

import pytest

from motherlode.games.eldorado.bot import make_greedy
from motherlode.games.eldorado.sheets import SYMBOLS
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
    assert said(s, "roll d0=map", "roll d1=1c") == [
        "all seven dice are rolled: a map", "all seven dice are rolled: 1 coin"]
    s = position(game(), middle={0: "map", 4: "3c"})
    assert said(s, "take d4") == ["P1 takes the die with 3 coins from the middle"]


def test_narrate_a_temple_offering_first_and_later() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: ROW2})
    assert said(s, "d2 offer e2") == [
        "P1 uses the die with 2 coins to offer 2 coins in the temple e2, the first offering"
        " there: the others must offer at least 2 coins there (1 of the 2 temples needed)"]
    s = position(g, seat=1, phase="use", held={4: ("3c", 1)}, visited={0: ROW2, 1: ROW2},
                 offers={0: [("e2", 2)]})
    assert said(s, "d4 offer e2") == [
        "P2 uses the die with 3 coins to offer 3 coins in the temple e2 (1 of the 2 temples"
        " needed)"]


def test_narrate_combined_coins_and_the_zero_offering() -> None:
    s = position(game(), seat=1, phase="use", held={2: ("2c", 1)}, visited={0: ROW2, 1: ROW2},
                 filled={1: ["1coin"]}, offers={0: [("e2", 3)]})
    assert said(s, "activate 1coin", "d2+res offer e2") == [
        "P2 uses the resource with 1 coin this turn",
        "P2 uses the die with 2 coins and the resource with 1 coin to offer 3 coins in the"
        " temple e2 (1 of the 2 temples needed)",
    ]
    s = position(game(map=2), phase="use", held={0: ("machete", 1)}, visited={0: TO_D3},
                 filled={0: ["zero"]})
    assert said(s, "activate zero", "res offer d3")[1] == (
        "P1 uses the right to a zero offering to offer 0 coins in the temple d3, the first"
        " offering there: the others may offer any number of coins there, 0 too (1 of the 3"
        " temples needed)")


def test_narrate_the_amulet_reward() -> None:
    s = position(game(), phase="use", held={3: ("amulet", 1)}, middle={0: "map"},
                 visited={0: ["a1", "b1", "c1"]})
    assert said(s, "d3 move d1", "reward move e1") == [
        "P1 uses the die with an amulet to move to the amulet space d1: the first to find the"
        " amulet, P1 gains the signpost die as the reward, to use at once",
        "P1 uses the signpost die (the amulet's reward) as a joker to move to the map space"
        " e1",
    ]


def test_narrate_a_resource_obtained() -> None:
    s = position(game(), phase="use", held={2: ("map", 1)}, filled={0: ["2machetes/1"]},
                 visited={0: ["a1"]})
    assert said(s, "d2 fill 2machetes/2") == [
        "P1 uses the die with a map to fill the last map space in front of the resource with"
        " 2 machetes and obtains it"]


def test_narrate_settlement_instalments_and_the_ethnographer() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: TO_F2})
    assert said(s, "d2 pay f2") == [
        "P1 uses the die with 2 coins to pay 2 coins to the Muisca settlement f2 (2 of its"
        " fee of 3 paid)"]
    s = position(g, phase="use", held={3: ("2c", 1)}, visited={0: TO_F2}, paid={0: {"f2": 2}})
    assert said(s, "d3 pay f2") == [
        "P1 uses the die with 2 coins to pay 1 coin to the Muisca settlement f2 and enters it"
        " (its fee of 3 is paid; 1 coin lost)"]
    g4 = game(map=4)
    s = position(g4, phase="use", held={3: ("2c", 1)},
                 visited={0: ["a2", "b2", "c2", "d2", "e2", "f3"]})
    assert said(s, "d3 pay f2") == [
        "P1 uses the die with 2 coins to pay 1 coin to the Muisca settlement f2 and enters it"
        " (its fee of 1 is paid; 1 coin lost) and hires the ethnographer"]
    s = position(g4, middle={0: "torch", 4: "map"},
                 visited={0: ["a2", "b2", "c2", "d2", "e2", "f2", "f3"]})
    assert said(s, "ethnographer") == [
        "P1's ethnographer re-rolls the 2 dice in the middle (a torch lies there)"]


def test_narrate_special_actions() -> None:
    s = position(game(map=4), middle={0: "torch", 4: "map"}, visited={0: ["a2"]},
                 filled={0: ["taketwo"]})
    assert said(s, "activate taketwo") == [
        "P1 uses the special action to take two dice: P1 chooses two dice from the middle"
        " this turn"]


def test_summary_el_dorado_entered_and_the_round_finished() -> None:
    s = position(game(), phase="use", held={4: ("3c", 1)}, middle={0: "map"},
                 visited={0: NEXT_TO_GOLD}, offers={0: [("h3", 1), ("e2", 1)]})
    assert said(s, "d4 offer j3", "take d0", "d0 move a2") == [
        "P1 uses the die with 3 coins to offer 3 coins in the golden temple j3 and enters El"
        " Dorado",
        "P2 takes the die with a map from the middle",
        "P2 uses the die with a map to begin the route at the map space a2; the round is"
        " finished and the game is over",
    ]
    assert s.termination() == "el-dorado"
    assert s.summary().lines() == [
        "The game is over: P1 entered El Dorado (the golden temple j3) and the round was"
        " finished in round 1 (the coins offered in temples count only to break a tie).",
        "P1: 2 (temple h3 = 1, temple e2 = 1)",
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
        "P1: 2 (temple h3 = 1, temple e2 = 1)",
        "P2: 3 (temple h3 = 2, temple e2 = 1)",
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
        "P1 uses the die with a signpost as a joker to move to the paddle space b1"]


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


# -- every action kind in the sheet's words (issue 21): no notation in a sentence -------------


def test_narrate_a_second_roll_names_the_dice_rolled_again() -> None:
    g4 = game(map=4)
    on_f3 = {0: ["a2", "b2", "c2", "d2", "e2", "f2", "f3"]}
    s = position(g4, middle={0: "torch", 4: "map"}, visited=on_f3)
    assert said(s, "ethnographer", "roll d0=map", "roll d4=3c") == [
        "P1's ethnographer re-rolls the 2 dice in the middle (a torch lies there)",
        "the 2 dice in the middle are rolled again: a map",
        "the 2 dice in the middle are rolled again: 3 coins",
    ]
    s = position(g4, middle={0: "torch"}, visited=on_f3)
    assert said(s, "ethnographer", "roll d0=map") == [
        "P1's ethnographer re-rolls the die in the middle (a torch lies there)",
        "the die in the middle is rolled again: a map",
    ]


def test_narrate_every_special_action() -> None:
    g3 = game(map=3)
    s = position(g3, middle={0: "torch", 4: "map"}, visited={0: ["a2"]}, filled={0: ["reroll"]})
    assert said(s, "activate reroll", "roll d0=map") == [
        "P1 uses the special action to re-roll all the dice: all seven dice are rolled again"
        " before P1 chooses one",
        "all seven dice are rolled: a map",
    ]
    s = position(g3, middle={0: "torch", 4: "map"}, visited={0: ["a2"]}, filled={0: ["twice"]})
    assert said(s, "activate twice") == [
        "P1 uses the special action to use one die twice: P1 uses the chosen die two times"
        " this turn, one use after the other"]
    s = position(game(map=4), middle={0: "torch"}, visited={0: ["a2"]}, filled={0: ["thrice"]})
    assert said(s, "activate thrice") == [
        "P1 uses the special action to use one die three times: P1 uses the chosen die three"
        " times this turn, one use after the other"]


def test_narrate_a_resource_of_two_items_used_one_by_one_and_discarded() -> None:
    s = position(game(), phase="use", held={0: ("torch", 1)}, visited={0: ["a2"]},
                 filled={0: ["2machetes"]})
    assert said(s, "activate 2machetes", "res move a1", "res fill machete/1", "d0 move b3") == [
        "P1 uses the resource with 2 machetes this turn, each machete on its own",
        "P1 uses one machete of the resource with 2 machetes to move to the machete space a1",
        "P1 uses the other machete of the resource with 2 machetes to fill the last machete"
        " space in front of the resource with a machete and obtains it",
        "P1 uses the die with a torch to move to the torch space b3",
    ]
    s = position(game(), phase="use", held={0: ("torch", 1)}, visited={0: ["a3"]},
                 filled={0: ["2paddles"]})
    assert said(s, "activate 2paddles", "res fill paddle/1", "discard res") == [
        "P1 uses the resource with 2 paddles this turn, each paddle on its own",
        "P1 uses one paddle of the resource with 2 paddles to fill the last paddle space in"
        " front of the resource with a paddle and obtains it",
        "P1 discards the other paddle of the resource with 2 paddles: it has no use now",
    ]
    s = position(game(), phase="use", held={2: ("2c", 1)}, visited={0: ["a1"]},
                 filled={0: ["1coin", "signpost/1", "signpost/2"]})
    assert said(s, "activate 1coin", "d2 fill signpost/3", "discard res") == [
        "P1 uses the resource with 1 coin this turn",
        "P1 uses the die with 2 coins to fill the last coin circle in front of the resource"
        " with a signpost and obtains it (1 coin lost)",
        "P1 discards the resource with 1 coin: it has no use now",
    ]


def test_narrate_the_spaces_in_front_of_a_resource_by_their_symbols() -> None:
    s = position(game(), phase="use", held={0: ("torch", 1)}, visited={0: ["a1"]})
    assert said(s, "d0 fill 3coins/1") == [  # the die symbol: any die
        "P1 uses the die with a torch to fill a die space in front of the resource with 3"
        " coins (1 of 2 filled)"]
    s = position(game(), phase="use", held={2: ("2c", 1)}, visited={0: ["a1"]})
    assert said(s, "d2 fill signpost/1") == [  # small white circles: 1 coin each
        "P1 uses the die with 2 coins to fill 2 coin circles in front of the resource with a"
        " signpost (2 of 3 filled)"]
    s = position(game(), phase="use", held={6: ("signpost", 1)}, visited={0: ["a1"]})
    assert said(s, "d6 fill 2machetes/1") == [
        "P1 uses the die with a signpost as a joker to fill a map space in front of the"
        " resource with 2 machetes (1 of 2 filled)"]
    g2 = game(map=2)
    s = position(g2, phase="use", held={2: ("2c", 1)}, visited={0: ["a1"]})
    assert said(s, "d2 fill map/1") == [  # the flat symbol "a resource or die with 2 coins"
        "P1 uses the die with 2 coins to fill the last 2-coin space in front of the resource"
        " with a map and obtains it"]
    s = position(g2, phase="use", held={1: ("amulet", 1)}, visited={0: ["a1"]})
    assert said(s, "d1 fill zero/1") == [
        "P1 uses the die with an amulet to fill an amulet space in front of the right to a"
        " zero offering (1 of 3 filled)"]
    s = position(game(map=3), phase="use", held={4: ("map", 1)}, visited={0: ["a2"]})
    assert said(s, "d4 fill taketwo/1") == [
        "P1 uses the die with a map to fill a die space in front of the special action to"
        " take two dice (1 of 3 filled)"]


def test_narrate_the_cartographer_hired_and_helping() -> None:
    g2 = game(map=2)
    s = position(g2, phase="use", held={1: ("map", 1)}, visited={0: ["a1"]},
                 filled={0: ["cartographer/1"]})
    assert said(s, "d1 fill cartographer/2") == [
        "P1 uses the die with a map to fill the last map space in front of the cartographer"
        " and hires them"]
    s = position(g2, phase="use", held={1: ("map", 1)}, visited={0: ["a1"]},
                 filled={0: ["cartographer"]})
    assert said(s, "d1 move b1") == [
        "P1 uses the die with a map as a signpost (the cartographer's help) to move to the"
        " machete space b1"]


def test_narrate_the_guides_coins() -> None:
    s = position(game(map=3), phase="use", held={3: ("amulet", 1)}, visited={0: ROW2},
                 filled={0: ["guide"]})
    assert said(s, "d3 offer c3") == [
        "P1 uses the die with an amulet (worth 2 coins with the guide) to offer 2 coins in the"
        " temple c3, the first offering there: the others must offer at least 2 coins there"
        " (1 of the 3 temples needed)"]
    s = position(game(map=4), phase="use", held={2: ("2c", 1)}, visited={0: ["a2", "b2", "c2"]},
                 filled={0: ["guide"]})
    assert said(s, "d2 offer d3") == [
        "P1 uses the die with 2 coins and the guide's extra coin to offer 3 coins in the"
        " temple d3, the first offering there: the others must offer at least 3 coins there"
        " (1 of the 4 temples needed)"]


def test_narrate_the_last_temple_needed_and_one_more() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: NEXT_TO_GOLD},
                 offers={0: [("h3", 1)]})
    assert said(s, "d2 offer e2") == [
        "P1 uses the die with 2 coins to offer 2 coins in the temple e2, the first offering"
        " there: the others must offer at least 2 coins there (2 of the 2 temples needed: the"
        " golden temple may now be entered)"]
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1)]})
    assert said(s, "d2 offer c4") == [
        "P1 uses the die with 2 coins to offer 2 coins in the temple c4, the first offering"
        " there: the others must offer at least 2 coins there (3 temples offered in, 2"
        " needed)"]


def test_narrate_the_end_of_a_turn_without_a_resource() -> None:
    s = position(game(), phase="use", held={0: ("machete", 1)}, visited={0: ["a1"]},
                 filled={0: ["paddle"]})
    assert said(s, "d0 fill machete/1", "end") == [
        "P1 uses the die with a machete to fill the last machete space in front of the"
        " resource with a machete and obtains it",
        "P1 ends the turn without using a resource: its resources keep for later turns",
    ]


def test_no_sentence_names_a_die_or_a_resource_by_its_notation() -> None:
    """The dice are ``d0``..``d6`` and the resources ``2machetes``, ``3coins``.. only in
    what is typed: a random game on every sheet never says them."""
    import re

    for sheet in (1, 2, 3, 4):
        g = game(players=2, map=sheet, max_rounds=30)
        ids = {r.id for r in g.sheet.resources if not r.helper}
        state = g.new_initial_state()
        rng = random.Random(sheet)
        bot = make_greedy(game=g, seed=sheet)
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                action = bot.act(state) if rng.random() < 0.7 else rng.choice(state.legal_actions())
            text = state.narrate(action)
            words = re.sub(r"(space|temple|settlement) [a-z]\d+", "", text)
            assert not re.search(r"\bd[0-6]\b|/\d", words), text
            assert not set(re.findall(r"[\w]+", text)) & (ids - {*SYMBOLS, "zero", "twice"}), text
            state.apply_action(action)

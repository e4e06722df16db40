"""Narration and summaries (issue 21): the sentences of the important events, every action
kind narrated in random playouts, and a summary for each way the game ends."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.core.protocol import CHANCE
from motherlode.games.yukon.game import YukonGame, YukonState
from tests.yukon.helpers import base, expansion, position


def said(state: YukonState, move: str) -> str:
    """The sentence for ``move``, then the move is played."""
    text = state.narrate(state.string_to_action(move))
    state.apply_string(move)
    return text


# -- the base game --


def test_a_take_names_the_card_and_the_next_line() -> None:
    s = position(base(), ["@ +8 -3", ". +5"])
    assert said(s, "b1") == "P1 takes b1 (+8 gold); next P2 takes from column b"


def test_the_last_take_ends_the_game_and_gives_the_prospector() -> None:
    s = position(base(), ["@ +8 -3", ". +5"])
    said(s, "b1")
    assert said(s, "b2") == (
        "P2 takes b2 (+5 gold); the game ends (P1 cannot take a card: none is left in the"
        " Prospector's row or column) and P2 gets the Prospector (+5)"
    )
    assert s.summary().lines() == [
        "The game is over: P1 cannot take a card: none is left in the Prospector's row or column.",
        "P1: 8 (gold 8, pebbles 0)",
        "P2: 10 (gold 5, pebbles 0, Prospector 5)",
        "Winner: P2",
    ]


def test_all_cards_taken_is_the_other_end() -> None:
    s = position(base(), ["@ +8"])
    assert said(s, "b1").endswith(
        "the game ends (all the cards of the playing area have been taken) and P1 gets the"
        " Prospector (+5)"
    )
    summary = s.summary()
    assert summary.reason == "all the cards of the playing area have been taken"
    assert summary.seats[0].breakdown == (("gold", 8.0), ("pebbles", 0.0), ("Prospector", 5.0))


def test_four_players_summary_gives_the_pairs() -> None:
    s = position(base(4), ["@ +8 -3", ". +5"])
    said(s, "b1")
    said(s, "b2")
    summary = s.summary()
    assert summary.reason.endswith("; the pairs score P1+P3 8, P2+P4 10")
    assert summary.winners == (1, 3)


def test_the_deal_reads_as_events_and_names_the_prospectors_start() -> None:
    s = base().new_initial_state()
    assert said(s, "deal +8") == "deal: Gold 8 to a1"
    assert said(s, "deal -3") == "deal: Pebble 3 to b1"
    assert said(s, "deal S") == "deal: Sheriff to c1 (the Prospector will stand there)"
    rng = random.Random(4)
    while s.dealt < s.game.cells - 1:
        s.apply_action(s.sample_chance(rng))
    last = s.sample_chance(rng)
    assert s.narrate(last).endswith(
        "; the grid is dealt, the Prospector starts at c1 and P1 takes first from its row or column"
    )


# -- the Townsfolk --


def test_trapper_and_the_gold_given_up() -> None:
    s = position(expansion(), ["@ Tr +8", ". +3"], players=["+5.+2|-|-|-", "-|-|-|-"])
    assert said(s, "b1") == "P1 takes the Trapper at b1: P1 must give up one of their Gold cards"
    assert said(s, "discard +5") == "P1 gives up Gold 5 to the Trapper; next P2 takes from column b"


def test_goldsmith_with_nothing_to_discard() -> None:
    s = position(expansion(), ["@ Gs +8", ". +3"])
    assert said(s, "b1") == (
        "P1 takes the Goldsmith at b1: with no Pebble card to get rid of, it is discarded at"
        " once; next P2 takes from column b"
    )


def test_commander_reclaims_or_is_kept() -> None:
    s = position(expansion(), ["@ Co +8", ". +3"], beside="+5.Tr")
    assert said(s.clone(), "b1") == (
        "P1 takes the Commander at b1: P1 may take back a discarded Gold card, or keep the"
        " Commander"
    )
    s.apply_string("b1")
    assert said(s.clone(), "reclaim +5") == (
        "P1's Commander takes back Gold 5 from beside the area and goes back to the box;"
        " next P2 takes from column b"
    )
    assert said(s, "keep commander") == (
        "P1 keeps the Commander for the end (it scores the discs P1 holds);"
        " next P2 takes from column b"
    )


def test_jailer_reverses_the_order() -> None:
    s = position(expansion(), ["@ Ja +8", ". +3"])
    assert said(s, "b1") == (
        "P1 takes the Jailer at b1: the turn order reverses and P1 takes again from column b"
    )


def test_teacher_draws_from_a_victim() -> None:
    s = position(expansion(), ["@ Te +8", ". +3"], players=["-|-|-|-", "-5.+2|-|-|-"])
    assert said(s, "b1") == "P1 takes the Teacher at b1: P1 draws a random card from another player"
    assert said(s, "teach P2") == "P1's Teacher draws a random card from P2"
    assert s.current_player() == CHANCE
    assert said(s, "draw -5") == (
        "the Teacher draws Pebble 5 from P2: it scores +5 for P1; next P2 takes from column b"
    )


def test_pan_and_its_discs() -> None:
    s = position(expansion(), ["@ Pa +8", ". +3"], pans="b1:3")
    assert said(s, "b1") == "P1 takes the Pan at b1: a Gold nugget disc is turned up for P1"
    assert said(s, "disc 2") == (
        "the disc shows 2: +2 for P1 (2 discs left on the Pan at b1); next P2 takes from column b"
    )
    s = position(
        expansion(),
        ["@ Pa +8", ". +3"],
        pans="b1:1",
        revealed="1.3",
        players=["-|-|-|-", "-|-|-|1.3"],
    )
    said(s, "b1")
    assert said(s, "disc 2") == (
        "the disc shows 2: +2 for P1 (the Pan at b1 is empty and goes back to the box);"
        " next P2 takes from column b"
    )


def test_courier_innkeeper_and_telegraph_used() -> None:
    s = position(
        expansion(), ["@ +8 -3", "+6 +5"], axis="row", players=["-|Cu.In.To|-|-", "-|-|-|-"]
    )
    assert said(s.clone(), "courier a2").startswith(
        "P1 uses the Courier to change direction and takes a2 (+6 gold); the game ends"
    )
    assert said(s.clone(), "innkeeper b2") == (
        "P1 uses the Innkeeper and takes b2 diagonally (+5 gold); next P2 takes from column b"
    )
    assert said(s.clone(), "telegraph b1 c1").startswith(
        "P1 uses the Telegraph Operator: the Prospector moves onto b1 and P1 takes its"
        " neighbour c1 (-3 pebble); the game ends"
    )


def test_kept_townsfolk_score_in_the_breakdown() -> None:
    s = position(
        expansion(),
        ["@ +8", "-5 . . . . . . +1"],
        players=["-5.-3|Sw.Cu.In.Co.To|-|2", "-|-|-|-"],
        revealed="2",
    )
    said(s, "b1")
    summary = s.summary()
    assert summary.seats[0].breakdown == (
        ("gold", 8.0),
        ("pebbles", -8.0),
        ("nugget discs", 2.0),
        ("Prospector", 5.0),
        ("Commander", 2.0),  # one disc, doubled with the Prospector
        ("Swindler", 3.0),  # -5 halved to -2
        ("Courier", 2.0),  # two Pebble cards
        ("Innkeeper", 5.0),  # five Townsfolk in front
        ("Telegraph Operator", 1.0),  # one Gold card left on the table
    )
    assert summary.seats[0].score == 20.0


# -- every action kind, every way to end --


def _default(state: YukonState, action: int) -> str:
    text = state.action_to_string(action)
    return f"chance: {text}" if state.is_chance_node() else f"P{state.current_player() + 1}: {text}"


@pytest.mark.parametrize("config", YukonGame.conformance_configs())
def test_every_action_narrates_and_every_summary_adds_up(config: dict[str, object]) -> None:
    game = motherlode.load("yukon", **config)
    kinds: set[str] = set()
    reasons: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_initial_state()
        assert isinstance(s, YukonState)
        while not s.is_terminal():
            a = s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions())
            text = s.narrate(a)
            assert text and text != _default(s, a) and "<" not in text
            kinds.add(s.action_to_string(a).split()[0] if " " in s.action_to_string(a) else "take")
            s.apply_action(a)
        summary = s.summary()
        reasons.add(summary.reason.split(";")[0])
        assert summary.winners == s.winners()
        for r in summary.seats:
            assert sum(v for _, v in r.breakdown) == r.score == s.points(r.seat)
    assert {"deal", "take"} <= kinds


def test_every_townsfolk_action_kind_is_narrated() -> None:
    """Random 3-player expansion games reach every kind of action; none reads as the default."""
    game = expansion(3)
    kinds: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            a = s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions())
            name = s.action_to_string(a)
            text = s.narrate(a)
            assert text != _default(s, a)
            kinds.add(name.split()[0] if " " in name else "take")
            s.apply_action(a)
    assert kinds == {
        "deal",
        "take",
        "courier",
        "innkeeper",
        "telegraph",
        "discard",
        "reclaim",
        "keep",
        "teach",
        "draw",
        "disc",
    }

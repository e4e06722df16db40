"""Action and position notation: exact strings, parsing, and clear errors."""

from __future__ import annotations

import pytest
from eureka_helpers import game, play, setup

from motherlode.core.errors import IllegalActionError, NotationError

INITIAL_3P = (
    "eureka/1 players=3 turn=0 actor=0 phase=turn die=0 loco=0 turns=0 duel=-"
    " miners=k14:0:0:0:0,n11:0:0:0:0,n8:0:0:0:0 rafts=h10,d8,m12,n15,m8,n4"
    " chips=ffffffffffffffff robbers=- bag=14.12.10.7.5.2.3.4.4.3"
)


def test_initial_position_notation() -> None:
    s = game(players=3).new_initial_state()
    assert s.serialize() == INITIAL_3P
    assert game(players=3).deserialize(INITIAL_3P).serialize() == INITIAL_3P


def test_position_after_moves_round_trips_with_stacks_and_duel() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "d7:3:1:1:0"},
              revealed=["G2", "G3", "R1", "G1", "R4"], robbers="t11:4:0")
    play(s, "move d7", "die 4")
    text = s.serialize()
    assert "duel=0v1:4" in text and "robbers=t11:4:0" in text and "phase=duel-d" in text
    assert s.game.deserialize(text).serialize() == text


@pytest.mark.parametrize(
    ("text", "action"),
    [("pass", 0), ("roll", 1), ("  ROLL ", 1), ("stay", 2)],
)
def test_decision_words(text: str, action: int) -> None:
    assert game().new_initial_state().string_to_action(text) == action


def test_move_and_cross_parse_any_hex_legal_or_not() -> None:
    s = game().new_initial_state()
    a = s.string_to_action("move a1")
    assert s.action_to_string(a) == "move a1"
    with pytest.raises(IllegalActionError, match="roll"):
        s.apply_action(a)  # well formed, reaches the legality check
    c = s.string_to_action("cross d8")
    assert s.action_to_string(c) == "cross d8"


def test_chance_notation() -> None:
    s = play(game().new_initial_state(), "roll")
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == [
        "die L", "die 2", "die 3", "die 4", "die 5", "die 6"]
    assert s.string_to_action("die 1") == 0  # the locomotive counts one
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"})
    play(s, "move c7")
    assert s.string_to_action("reveal g3") == s.string_to_action("reveal G3")
    assert s.action_to_string(s.string_to_action("reveal R5")) == "reveal R5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("jump k5", "cannot parse"),
        ("move zz9", "no hex named 'zz9'"),
        ("move", "cannot parse"),
        ("cross k11", "no landing space"),
        ("roll now", "takes no argument"),
        ("die 3", "chance outcome"),
    ],
)
def test_unparseable_decisions_raise_notation_error(text: str, message: str) -> None:
    s = game().new_initial_state()
    with pytest.raises(NotationError, match=message):
        s.string_to_action(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [("die 7", "a die face"), ("reveal G9", "a chip is"), ("roll", "chance acts now")],
)
def test_unparseable_chance_raise_notation_error(text: str, message: str) -> None:
    s = play(game().new_initial_state(), "roll")
    with pytest.raises(NotationError, match=message):
        s.string_to_action(text)


def test_illegal_moves_name_the_rule() -> None:
    s = setup(phase="move", die=2)
    for text, why in [
        ("move k6", "lake water"),
        ("move n11", "blue house"),
        ("move u2", "locomotive"),
        ("move l14", "lake water"),
        ("pass", "the die is thrown"),
        ("stay", "must move"),
        ("cross m16", "not on a raft"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            s.apply_string(text)
    assert s.serialize() == setup(phase="move", die=2).serialize()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("eureka/1 ", "eureka/9 "), "must start with"),
        (lambda t: t.replace(" duel=-", ""), "missing field"),
        (lambda t: t + " extra=1", "unknown field"),
        (lambda t: t.replace("phase=turn", "phase=fly"), "phase='fly'"),
        (lambda t: t.replace("k14:", "z99:"), "no hex named 'z99'"),
        (lambda t: t.replace("turn=0", "turn=7"), "turn='7'"),
        (lambda t: t.replace("players=3", "players=4"), "this game has 3"),
        (lambda t: t.replace("k14:0:0:0:0", "k13:5:0:0:0"), "nuggets not conserved"),
        (lambda t: t.replace("chips=ffffffffffffffff", "chips=7fffffffffffffff"),
         "face-down chips"),
        (lambda t: t.replace("rafts=h10,", "rafts=k11,"), "no landing space"),
        (lambda t: t.replace("rafts=h10,", "rafts=g9,"), "no landing space"),
        (lambda t: t.replace("k14:", "k15:"), "in the water"),
        (lambda t: t.replace("phase=turn die=0", "phase=move die=0"), "die must be 2..6"),
        (lambda t: t.replace("chips=ffffffffffffffff", "chips=xyz"), "not a hex mask"),
    ],
)
def test_bad_positions_raise_notation_error_naming_the_problem(change, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NotationError, match=message):
        game(players=3).deserialize(change(INITIAL_3P))

"""Action and position notation: exact strings, parsing, and clear errors."""

from __future__ import annotations

import pytest

from motherlode.core.errors import IllegalActionError, NotationError
from tests.eureka.helpers import game, play, setup

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


# -- hand-written positions that cannot occur (audit item 8) ---------------------------------


def _refused(message: str, **kw) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NotationError, match=message) as err:
        setup(**kw)
    assert "eureka/1 " not in str(err.value)  # the reason, never the position


def test_robbers_are_checked_per_hat_not_only_in_total() -> None:
    # The designed mix has three hat-5 robbers: a fourth face up is impossible even when the
    # total of sixteen robbers adds up (a hat-1 robber taken out of the bag to make it so).
    _refused("4 face-up and 0 face-down robbers with hat 5, but the chip mix has 3",
             revealed=["R5", "R5", "R5", "R1"], robbers="c4:5:0,c7:5:0,b8:5:0,c9:5:0",
             miners={0: "c5:0:0:0:0"})
    ok = setup(revealed=["R5", "R5", "R5", "R1"], robbers="c4:5:0,c7:5:0,b8:5:0",
               miners={0: "c5:0:1:0:0"})
    assert len(ok.stacks) == 3


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"miners": {0: "k14:3:0:0:0"}, "revealed": ["G3"]}, "miners\\[0\\]: P1 is in his house"),
        ({"loco": 14}, "the train is in Golden City"),
        ({"turns": 1000}, "the turn limit 1000 is reached"),
        ({"phase": "over"}, "nothing ended the game"),
        ({"revealed": ["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 5,
          "miners": {0: "c5:0:0:121:0"}}, "no more gold nuggets"),
        ({"phase": "retreat", "die": 2, "miners": {0: "c5:0:0:0:0"}}, "moves away only after"),
        ({"phase": "retreat", "die": 4, "miners": {0: "c7:0:0:0:0"}, "revealed": ["G3", "R3"],
          "robbers": "c7:3:3"}, "moves away only after"),  # a 4 beats hat 3: no retreat
        ({"phase": "duel-roll", "miners": {0: "c5:0:0:0:0"}}, "duel winner throws"),
        ({"phase": "duel-a", "duel": "0v1:0", "miners": {0: "c5:2:0:0:0"}, "revealed": ["G2"]},
         "same hex"),
        ({"phase": "duel-a", "duel": "0v1:0", "miners": {0: "c5:0:0:0:0", 1: "c5:0:0:0:0"}},
         "first miner clockwise"),
        ({"phase": "reveal", "miners": {0: "c7:0:0:0:0", 1: "c7:2:0:0:0"}, "revealed": ["G2"],
          "keep": ["c7"]}, "starts a duel, not a reveal"),
        ({"phase": "defend", "miners": {0: "c7:2:0:0:0"}, "revealed": ["G2", "G3", "R3"],
          "robbers": "c7:3:3"}, "holds no gold yet"),
        ({"phase": "raft", "miners": {0: "c5:0:0:0:0"}}, "not on a raft"),
        ({"miners": {0: "m12:0:0:0:0", 1: "m12:0:0:0:0"}}, "two figures on one raft"),
    ],
)
def test_impossible_positions_are_refused_naming_field_and_reason(kw, message) -> None:  # type: ignore[no-untyped-def]
    _refused(message, **kw)


def test_possible_phases_of_each_kind_are_accepted() -> None:
    setup(phase="retreat", die=2, miners={0: "c7:0:0:0:0"}, revealed=["G3", "R3"],
          robbers="c7:3:3")  # lost 3 gold to a hat-3 robber with a 2
    setup(phase="retreat", die=5, turn=0, actor=1,
          miners={0: "c5:0:0:0:0", 1: "c5:2:0:0:0"}, revealed=["G2"])  # blue defended and won
    setup(phase="duel-roll", actor=0, miners={0: "c5:2:0:0:0", 1: "c5:0:0:0:0"},
          revealed=["G2"])
    setup(phase="over", loco=14)

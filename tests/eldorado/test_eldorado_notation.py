"""Action and position notation: round trips, examples from docs/rules/eldorado.md, errors."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode import IllegalActionError, NotationError
from tests.eldorado.helpers import game, legal_strings, position


def test_every_action_string_round_trips_on_every_sheet() -> None:
    for m in (1, 2, 3, 4):
        g = game(map=m, players=3)
        s = g.new_initial_state()
        rng = random.Random(m)
        seen: set[str] = set()
        while not s.is_terminal():
            acts = [a for a, _ in s.chance_outcomes()] or s.legal_actions()
            texts = [s.action_to_string(a) for a in acts]
            assert len(set(texts)) == len(texts), texts  # unique in the position
            for a, t in zip(acts, texts, strict=True):
                assert s.string_to_action(t) == a
                assert s.string_to_action(t.upper()) == a  # case-insensitive
                seen.add(t.split()[0])
            s.apply_action(acts[rng.randrange(len(acts))])
        assert {"roll", "take", "end"} <= seen


def test_documented_action_examples_parse() -> None:
    g = game(map=1)
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: ["a2", "b2", "c2", "d2"]},
                 filled={0: ["1coin"]})
    for text in ("d2 move e3", "d2 offer e2", "d2 fill 3coins/1", "d2+res offer e2",
                 "res move e3", "reward move e3", "activate 2machetes", "take d2",
                 "discard d2", "end", "ethnographer"):
        a = s.string_to_action(text)
        assert s.action_to_string(a) == text


@pytest.mark.parametrize(("text", "match"), [
    ("no such action", "cannot parse"),
    ("take d9", "cannot parse"),
    ("d2 move zz9", "no space 'zz9'"),
    ("d2 offer a1", "use 'move'"),
    ("d2 move e2", "use 'offer'"),
    ("activate nothing", "no resource 'nothing'"),
    ("d2 fill 3coins/7", "slots 1..2"),
    ("d2 fill nothing/1", "no resource slot"),
    ("d2+res move a1", "combine only to offer"),
    ("roll d0=map", "no die is being rolled now"),
])
def test_unparseable_actions_raise_notation_errors(text: str, match: str) -> None:
    s = position(game(), phase="use", held={2: ("2c", 1)})
    with pytest.raises(NotationError, match=match):
        s.string_to_action(text)


def test_chance_notation_names_the_die_being_rolled() -> None:
    s = game().new_initial_state()
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == [
        "roll d0=machete", "roll d0=paddle", "roll d0=torch", "roll d0=amulet", "roll d0=map",
        "roll d0=1c"]
    with pytest.raises(NotationError, match="being rolled is d0"):
        s.string_to_action("roll d3=torch")
    with pytest.raises(NotationError, match="no face '5c'"):
        s.string_to_action("roll d0=5c")
    for _ in range(6):
        s.apply_string("roll d0=map" if s.to_roll[0] == 0 else f"roll d{s.to_roll[0]}=torch")
    assert s.chance_outcomes() == [(0, 0.5), (3, 1 / 6), (4, 1 / 6), (5, 1 / 6)]
    assert s.action_to_string(0) == "roll d6=signpost"


def test_well_formed_but_illegal_actions_reach_the_rules() -> None:
    s = position(game(), middle={0: "map"})
    with pytest.raises(IllegalActionError, match="d3 is not in the middle"):
        s.apply_string("take d3")
    with pytest.raises(IllegalActionError, match="choose a die first"):
        s.apply_string("d0 move a1")


def test_position_documented_example() -> None:
    g = game()
    s = position(g, seat=1, phase="use", middle={0: "machete", 5: "3c"}, held={2: ("2c", 1)},
                 visited={0: ["a2", "b2", "c2", "d2", "e2"], 1: ["a1"]},
                 filled={0: ["1coin"], 1: ["3coins/1"]},
                 used={0: ["1coin"]}, offers={0: [("e2", 2)]}, round=3)
    text = s.serialize()
    assert text == ("m1 easy 2p | r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 - | e2=2 | - |"
                    " a2.b2.c2.d2.e2;-;1coin:1!;e2=2 | a1;-;3coins:10;-")
    assert g.deserialize(text).serialize() == text


@pytest.mark.parametrize(("text", "match"), [
    ("garbage", "expected 8 sections"),
    ("m2 easy 2p | r1 p0 roll | ?,?,?,?,?,?,? | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-",
     "does not match this game"),
    ("m1 easy 2p | r1 p0 roll | ?,?,?,?,?,? | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-",
     "expected 7 dice"),
    ("m1 easy 2p | r1 p0 start | X,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-",
     "bad face 'X'"),
    ("m1 easy 2p | r1 p0 start | M,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | zz;-;-;- | -;-;-;-",
     "no space 'zz'"),
    ("m1 easy 2p | r1 p0 start | M,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | e2;-;-;- | -;-;-;-",
     "without an offering"),
    ("m1 easy 2p | r1 p0 start | 4,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-",
     "d0 has no face"),
    ("m1 easy 2p | r1 p0 start | -,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-",
     "no die in the middle"),
])
def test_bad_positions_raise_notation_errors_naming_the_problem(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        game().deserialize(text)


def test_deal_gives_the_first_decision_after_the_roll() -> None:
    s = motherlode.deal(game(map=4, players=4, hard=True), seed=2)
    assert s.phase_name() == "start" and s.serialize().startswith("m4 hard 4p | r1 p0 start")


BASE = ("m1 easy 2p | r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 - | e2=2 | - |"
        " a2.b2.c2.d2.e2;-;1coin:1!;e2=2 | a1;-;3coins:10;-")
ROUTE = "a3.b3.c3.d3.e3.f3.g3.h3.i3.j3.e2;-;-;h3=1,e2=1,j3=3"  # into El Dorado (j3)


def test_position_lists_and_flags_in_any_order_read_the_same() -> None:
    g = game()
    shuffled = ("m1 easy 2p | r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 - | e2=2 | - |"
                " e2.d2.a2.c2.b2;-;1coin:1!;e2=2 | a1;-;3coins:10;-")
    assert g.deserialize(shuffled).serialize() == BASE
    spaced = BASE.replace(" | ", "|").replace("c0 x1", "c0   x1")
    assert g.deserialize(spaced).serialize() == BASE
    s = position(g, phase="use", held={0: ("1c", 1)}, visited={0: ["a2"]},
                 filled={0: ["1coin", "torch"], 1: ["3coins/2", "signpost/1"]},
                 used={0: ["1coin"]}, active="1coin", offers={})
    text = s.serialize()
    mine = text.split(" | ")
    mine[6] = mine[6].replace("torch:1,1coin:1!", "1coin:1!,torch:1")
    mine[7] = mine[7].replace("3coins:01,signpost:100", "signpost:100,3coins:01")
    assert g.deserialize(" | ".join(mine)).serialize() == text


@pytest.mark.parametrize(("old", "new", "match"), [
    # routes: the docs' old example a2.b2.e2 skips c2 and d2
    ("a2.b2.c2.d2.e2;", "a2.b2.e2;", r"sheet of p0: visited e2 not joined to the route from"),
    ("a1;-;3coins", "b1;-;3coins", "sheet of p1: the route begins on an outermost left space"),
    ("a1;-;3coins", "a1.a1;-;3coins", "a1 is listed twice"),
    ("1coin:1!", "1coin:1!,1coin:1", "resource 1coin is listed twice"),
    ("e2=2 | -", "e2=2,e2=2 | -", "temple minima: e2 is listed twice"),
    # the turn
    ("w0 -", "w0 U", "flag U .* goes with the resource named by r"),
    ("r- i- w0 -", "r3coins i- w0 U", "3coins, is not marked used"),
    ("c0 x1", "c0 x2", r"x \(uses per die\) is 2 or 3 only with"),
    ("w0 -", "w1 -", "w .* is 1 only in phase use"),
    ("w0 -", "w0 F", "flag F .* but something was done"),
    ("w0 -", "w0 B", "flag B .* needs the sheet-4 guide"),
    ("r- i- w0 -", "r1coin i1 w0 U", r"the resource in use, 1coin, is not marked used \(!\) on"
     " the sheet of p1"),
    ("*2x1", "*2x0", "nothing is left to do: the turn would have ended by itself"),
    ("c0 x1", "c1 x1", "phase use: the die .* chosen, c is 0"),
    ("c0 x1", "c7 x1", "c is 0..2 dice to choose"),
    ("r3 p1 use", "r3 p7 use", "no seat p7 with 2 players"),
    ("r3 p1 use", "r99 p1 use", "round 99 is not 1..60"),
    # the dice
    ("r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 -",
     "r3 p1 roll | ?,M,?,?,?,?,? | c1 x1 r- i- w0 F", "dice are rolled in order d0..d6"),
    ("r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 -",
     "r3 p1 roll | -,?,?,?,?,?,? | c1 x1 r- i- w0 F", "a turn's roll rolls all 7 dice"),
    ("r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 -",
     "r3 p1 start | M,-,-,-,-,3,- | c1 x1 r- i- w0 -", "no flag F, but nothing can have been"),
    ("r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 -",
     "r3 p1 over | M,-,-,-,-,3,- | c1 x1 r- i- w0 F", "a finished game shows the hat's seat"),
    ("r3 p1 use | M,-,*2x1,-,-,3,- | c0 x1 r- i- w0 -",
     "r3 p0 over | M,-,-,-,-,3,- | c1 x1 r- i- w0 F", "the game is over only after someone"),
    # public marks
    ("| e2=2 | - |", "| - | - |", "temple minima: e2 has offerings but no minimum"),
    ("a1;-;3coins", "a1.b1.c1.d1;-;3coins", "rewards: d1 is visited, so its reward die is claimed"),
    ("| - | a2", "| d1=1 | a2", r"consistency: reward claimed by a non-visitor"),
    # offerings
    ("| e2=2 | - | a2.b2.c2.d2.e2;-;1coin:1!;e2=2", "| e2=0 | - | a2.b2.c2.d2.e2;-;1coin:1!;e2=0",
     "an offering of 0 coins needs the zero-offering right"),
    ("| e2=2 | - | a2.b2.c2.d2.e2;-;1coin:1!;e2=2",
     "| e2=20 | - | a2.b2.c2.d2.e2;-;1coin:1!;e2=20",
     "an offering of 20 coins in e2: one die and one resource give at most 6"),
    ("1coin:1!;e2=2", "1coin:1!;e2=2*", "offerings marked '\\*' .* belong to the seat to move"),
    ("| a1;-;3coins:10;-", "| " + ROUTE.replace("e2=1", "e2=2") + "*",
     "temple minima: h3 has offerings but no minimum"),
])
def test_impossible_positions_are_refused_naming_the_section_and_the_reason(
    old: str, new: str, match: str
) -> None:
    assert old in BASE
    with pytest.raises(NotationError, match=match) as err:
        game().deserialize(BASE.replace(old, new, 1))
    assert err.value.position is not None and "|" not in str(err.value)  # never in the text


def test_positions_around_el_dorado() -> None:
    g = game()
    entered = ("m1 easy 2p | r3 p{seat} {phase} | M,-,{die},-,-,3,- | {turn} | e2=1,h3=1 | - |"
               " a1;-;-;- | " + ROUTE + "{mark}")
    ok = entered.format(seat=1, phase="use", die="*2x1", turn="c0 x1 r- i- w0 -", mark="*")
    again = g.deserialize(ok).serialize()  # P2 enters now, with a die use left
    assert g.deserialize(again).serialize() == again and again.endswith("j3=3*")
    for seat, phase, die, turn, mark, match in (
        (1, "use", "*2x1", "c0 x1 r- i- w0 -", "", "p1 entered El Dorado in an earlier turn"),
        (0, "start", "-", "c1 x1 r- i- w0 F", "", "p1 entered El Dorado in an earlier round"),
    ):
        with pytest.raises(NotationError, match=match):
            g.deserialize(entered.format(seat=seat, phase=phase, die=die, turn=turn, mark=mark))
    early = ROUTE.replace("h3=1,e2=1,j3=3", "j3=3,h3=1,e2=1")
    with pytest.raises(NotationError, match="El Dorado is entered after offerings in 2 temples"):
        g.deserialize(entered.format(seat=0, phase="over", die="-", turn="c1 x1 r- i- w0 F",
                                     mark="").replace(ROUTE, early))
    over = entered.format(seat=0, phase="over", die="-", turn="c1 x1 r- i- w0 F", mark="")
    assert g.deserialize(over).is_terminal()
    low = ROUTE.replace("j3=3", "j3=2")
    with pytest.raises(NotationError, match="the golden temple takes at least 3"):
        g.deserialize(ok.replace(ROUTE, low))


def test_helpers_are_never_marked_used() -> None:
    g = game(map=2)
    text = ("m2 easy 2p | r1 p0 start | M,-,-,-,-,-,- | c1 x1 r- i- w0 F | - | - | -;-;{};- |"
            " -;-;-;-")
    assert g.deserialize(text.format("cartographer:11")).has(0, g.cartographer)
    with pytest.raises(NotationError, match="cartographer is a helper"):
        g.deserialize(text.format("cartographer:11!"))


def test_a_temple_offered_this_turn_round_trips_and_keeps_the_route_closed_beyond() -> None:
    g = game()
    text = ("m1 easy 2p | r3 p0 use | M,-,*2x0,-,-,-,- | c0 x1 rtorch iT w0 U | e2=2 | - |"
            " a2.b2.c2.d2.e2;-;torch:1!;e2=2* | -;-;-;-")
    s = g.deserialize(text)
    assert s.serialize() == text and "res move f2" not in legal_strings(s)
    assert "res move f2" in legal_strings(g.deserialize(text.replace("e2=2*", "e2=2")))

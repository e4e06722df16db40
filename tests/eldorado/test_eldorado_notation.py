"""Action and position notation: round trips, examples from docs/rules/eldorado.md, errors."""

from __future__ import annotations

import random

import pytest
from eldorado_helpers import game, position

import motherlode
from motherlode import IllegalActionError, NotationError


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
                 visited={0: ["a2", "b2", "c2", "d2", "e2"], 1: ["a1"]}, filled={0: ["1coin"], 1: ["3coins/1"]},
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

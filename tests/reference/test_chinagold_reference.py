"""Chinagold reference positions worked out by hand from the rulebook (``rulebooks/chinagold.txt``).

Positions are in the position notation (docs/rules/chinagold.md: ``BOARD SEAT THROW GOLD
TURNS``; rows a..k of 6..11..6 spots, ``o`` face down, ``G`` gold on the board, a number
for that many cleared spots). Default config: P1 searches the mountains, P2 the rivers,
P1 began (so after N turns seat N mod 2 moves). The expected legal moves, throw
probabilities and scores come from the rule sentences quoted in each case.
"""

from __future__ import annotations

import pytest

import motherlode
from motherlode.core.protocol import State

GAME = motherlode.load("chinagold")
EDGE = 0.01  # the default edge_probability: a disc lands on its edge one time in a hundred


def board(row_f: str) -> str:
    # every row cleared but f, which is given (11 spots)
    return f"6/7/8/9/10/{row_f}/10/9/8/7/6"


def moves(s: State) -> list[str]:
    return sorted(s.action_to_string(a) for a in s.legal_actions())


def test_the_documented_end_position_no_throw_one_or_two_markers() -> None:
    # docs/rules/chinagold.md's example: f1 f2 f3 left. Ways to turn 3 in a line: one
    # (f1-f3), so "If there is at most one way left to turn 3 ... all throwing discs are
    # returned to the box. From now on the player may choose freely whether to turn a single
    # prospecting-spot marker or two adjacent": singles f1 f2 f3, pairs f1-f2 f2-f3: 5
    # moves, and "the alternative move, reburying, may no longer be performed"
    s = GAME.deserialize(f"{board('ooo8')} P2 - 40,48 77")
    assert not s.is_chance_node()
    assert moves(s) == ["turn f1", "turn f1-f2", "turn f2", "turn f2-f3", "turn f3"]


def test_two_ways_to_turn_three_keep_the_0_1_and_1_2_discs() -> None:
    # f1..f4 left: ways to turn 4 = one (f1-f4), ways to turn 3 = two (f1-f3, f2-f4). "If
    # there is at most one way left to turn 4 ... the 0/2 throwing disc is replaced by the
    # 0/1 throwing disc, so that from now on only results from 1 to 3 are possible."
    # A disc shows its higher number face up or on its edge: p = (1 + e) / 2, lower
    # q = (1 - e) / 2. Discs 0/1 and 1/2: total 1 = 0+1: q*q; total 2 = 0+2 or 1+1: 2*p*q;
    # total 3 = 1+2: p*p. With e = 0.01: 0.245025, 0.49995, 0.255025.
    s = GAME.deserialize(f"{board('oooo7')} P2 ? 40,47 77")
    assert s.is_chance_node()
    p, q = (1 + EDGE) / 2, (1 - EDGE) / 2
    outcomes = {s.action_to_string(a): pr for a, pr in s.chance_outcomes()}
    assert outcomes.keys() == {"throw 1", "throw 2", "throw 3"}
    assert outcomes["throw 1"] == pytest.approx(q * q, abs=1e-12)
    assert outcomes["throw 2"] == pytest.approx(2 * p * q, abs=1e-12)
    assert outcomes["throw 3"] == pytest.approx(p * p, abs=1e-12)
    assert outcomes["throw 3"] == pytest.approx(0.255025, abs=1e-12)


@pytest.mark.parametrize(
    ("throw", "expected"),
    [
        # "The total tells the player how many markers they may turn", "next to one another
        # in a straight line": along f1..f4, 4 windows of 1, 3 of 2, 2 of 3 (no gold on
        # the board, so no reburial)
        ("throw 1", ["turn f1", "turn f2", "turn f3", "turn f4"]),
        ("throw 2", ["turn f1-f2", "turn f2-f3", "turn f3-f4"]),
        ("throw 3", ["turn f1-f3", "turn f2-f4"]),
    ],
)
def test_the_throw_is_how_many_markers_in_a_line(throw: str, expected: list[str]) -> None:
    s = GAME.deserialize(f"{board('oooo7')} P2 ? 40,47 77")
    s.apply_string(throw)
    assert moves(s) == expected


@pytest.mark.parametrize(
    ("turns", "gold"),
    [
        # f1 is the last marker of both its mountain and its river. "Whoever is on turn and
        # turns the last remaining marker in one of their own areas ... may take all of the
        # gold in that area" and the opponent collects his area only "then": the one nugget
        # goes to the mover. 41 + 49 + 1 = 91: 91 is odd, so no tie once all is cleared.
        (77, [41.0, 50.0]),  # P2 (rivers) moves: P2 takes it, P2 wins
        (78, [42.0, 49.0]),  # P1 (mountains) moves: P1 takes it, P2 still wins
    ],
)
def test_the_last_marker_ends_the_game_and_most_gold_wins(turns: int, gold: list[float]) -> None:
    seat = "P2" if turns % 2 else "P1"
    s = GAME.deserialize(f"{board('o10')} {seat} - 41,49 {turns}")
    assert moves(s) == ["turn f1"]
    s.apply_string("turn f1")
    # "Once all prospecting spots have been cleared, the player who has collected the most
    # gold wins."
    assert s.is_terminal()
    assert s.scores() == gold
    assert s.winners() == (1,)


def test_the_observation_names_the_free_choice_only_while_it_is_offered() -> None:
    # "From now on the player may choose freely whether to turn a single prospecting-spot
    # marker or two adjacent": the observation says so (``free_choice``) in the documented
    # end position, with no throw and no discs left; not at the start (a throw is due), not
    # after a throw, and not once the last marker is turned (the game is over)
    def seen(s: State) -> tuple[str, bool, int | None, list[str]]:
        o = s.observation(0)
        return o["phase"], o["free_choice"], o["throw"], o["discs"]

    s = GAME.deserialize(f"{board('ooo8')} P2 - 40,48 77")
    assert seen(s) == ("choose", True, None, [])
    s.apply_string("turn f1-f2")
    assert seen(s) == ("choose", True, None, [])
    s.apply_string("turn f3")
    assert s.is_terminal() and seen(s) == ("over", False, None, [])
    start = GAME.new_initial_state()
    assert seen(start) == ("throw", False, None, ["0/1", "0/2", "1/2"])
    start.apply_action(3)  # P1 throws 3
    assert seen(start) == ("choose", False, 3, ["0/1", "0/2", "1/2"])


@pytest.mark.parametrize(("turns", "over"), [(9, False), (10, True)])
def test_the_turn_limit_ends_the_game_at_its_last_turn_not_before(turns: int, over: bool) -> None:
    # the turn limit (our extension, docs/rules/chinagold.md: "the turn limit against endless
    # reburial"; ``max_turns`` decisions): with 11, the decision that makes the 11th ends the
    # game, the 10th does not. f1 f2 f3 left, so neither move clears the board; P2 leads
    # 48 to 40 and one more nugget cannot change that
    g = motherlode.load("chinagold", max_turns=11)
    seat = "P2" if turns % 2 else "P1"
    s = g.deserialize(f"{board('ooo8')} {seat} - 40,48 {turns}")
    s.apply_string("turn f1")
    assert s.is_terminal() is over and s.observation(0)["turn"] == turns + 1
    if over:
        assert s.termination() == (
            "the turn limit of 11 turns was reached; the gold collected so far decides"
        )
        assert s.winners() == (1,) and s.returns() == [-1.0, 1.0]
    else:
        assert s.termination() == "" and moves(s) == ["turn f2", "turn f2-f3", "turn f3"]


@pytest.mark.parametrize(("mountains", "roles"), [(0, (0, 1)), (1, (1, 0))])
def test_the_observation_names_who_searches_what(mountains: int, roles: tuple[int, int]) -> None:
    # "The players decide who will search for gold in the mountains and who in the rivers."
    # (``mountains_player`` picks the seat): the roles name both seats either way
    s = motherlode.load("chinagold", mountains_player=mountains).new_initial_state()
    assert s.observation(0)["roles"] == {"mountains": roles[0], "rivers": roles[1]}

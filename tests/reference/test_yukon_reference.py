"""Yukon reference positions worked out by hand from the rulebook (``rulebooks/yukon.txt``).

Each position is written in the position notation (docs/rules/yukon.md: ``GRID TURN AXIS
ORDER LAST PENDING PLAYERS BESIDE BOX PANS REVEALED``) on a mostly empty 7×7 table (hand
built positions may leave cards out), and its legal-move count, and after the move its
scores and winners, are asserted exactly. The expected numbers come from the rule sentences
quoted in each case, not from the engine.
"""

from __future__ import annotations

import pytest

import motherlode
from motherlode.core.protocol import State

BASE2 = motherlode.load("yukon", players=2)
BASE4 = motherlode.load("yukon", players=4)


def grid(cells: dict[str, str], prospector: str, size: int = 7) -> str:
    """A GRID field: ``cells`` maps names (``d1``) to card tokens; others are empty."""
    rows = []
    for r in range(1, size + 1):
        row = []
        for c in "abcdefgh"[:size]:
            name = f"{c}{r}"
            token = cells.get(name, ".")
            row.append(("@" + token) if name == prospector else token)
        rows.append(",".join(row))
    return "/".join(rows)


def position(game: motherlode.Game, cells: dict[str, str], prospector: str, turn: int,
             axis: str, last: str, piles: list[str]) -> State:
    players = ";".join(f"{p}|-|-|-" for p in piles)
    text = f"{grid(cells, prospector)} P{turn} {axis} cw {last} - {players} - S - -"
    return game.deserialize(text)


def moves(s: State) -> list[str]:
    return sorted(s.action_to_string(a) for a in s.legal_actions())


# A cross of four cards around the Prospector at d4, and one card off his lines (b2).
CROSS = {"d1": "+3", "d7": "-2", "a4": "+5", "g4": "-6", "b2": "+10"}


def test_the_starting_player_takes_from_the_row_or_the_column_at_any_distance() -> None:
    # "The starting player decides whether to take a card from the Prospector's row or from
    # its column" and "any card at any distance may be taken": d1 and d7 (column d, three
    # spaces away), a4 and g4 (row 4, three away); b2 is in neither line: 4 moves
    s = position(BASE2, CROSS, "d4", 1, "any", "-", ["-", "-"])
    assert moves(s) == ["a4", "d1", "d7", "g4"]


@pytest.mark.parametrize(("axis", "expected"), [("col", ["d1", "d7"]), ("row", ["a4", "g4"])])
def test_each_following_player_takes_perpendicular(axis: str, expected: list[str]) -> None:
    # "Each following player always takes their card in the direction perpendicular to the
    # previous move": after a take along a row only column d's two cards, and vice versa
    s = position(BASE2, CROSS, "d4", 2, axis, "P1", ["+1", "-"])
    assert moves(s) == expected


def test_the_card_goes_in_front_and_the_prospector_moves_onto_its_space() -> None:
    # The cross plus a1 (-1). P1 takes +5 from a4 along row 4: "places it in front of
    # themselves, and then moves the Prospector onto the empty space left by the card". P2
    # must then take from column a (perpendicular), where only a1 lies: one move.
    cells = {**CROSS, "a1": "-1"}
    s = position(BASE2, cells, "d4", 1, "row", "-", ["-", "-"])
    s.apply_string("a4")
    assert not s.is_terminal()
    assert moves(s) == ["a1"]
    assert s.scores() == [5.0, 0.0]  # +5 so far; the Prospector's 5 only at the end


def test_no_card_in_the_next_line_ends_the_game_and_the_last_taker_scores_five() -> None:
    # P2 to take along row 4, only a4 (+3) there. After it the Prospector stands on a4 and P1
    # must take from column a, which is empty: "The next player cannot take a card ... there
    # are no cards left to take in the Prospector's row or column", so the game ends (b2
    # still on the table does not matter), and "the player who took the last card receives
    # the Prospector figure, which is worth 5 points". P1: +8 -2 = 6. P2: +1 +3 + 5 = 9.
    s = position(BASE2, {"a4": "+3", "b2": "+10"}, "d4", 2, "row", "P1", ["+8.-2", "+1"])
    assert moves(s) == ["a4"]
    s.apply_string("a4")
    assert s.is_terminal()
    assert s.scores() == [6.0, 9.0]
    assert s.winners() == (1,)


def test_all_cards_taken_ends_the_game() -> None:
    # "All the cards making up the playing area have been taken": the last card d1 (-4) is
    # taken by P1 from column d; he receives the Prospector: -4 + 5 = 1, beside his +2: 3.
    # P2 holds -1: -1. P1 wins.
    s = position(BASE2, {"d1": "-4"}, "d4", 1, "col", "P2", ["+2", "-1"])
    assert moves(s) == ["d1"]
    s.apply_string("d1")
    assert s.is_terminal()
    assert s.scores() == [3.0, -1.0]
    assert s.winners() == (0,)


def test_a_tie_shares_the_victory() -> None:
    # As the end above, but P1 holds +10 -1 = 9 against P2's +1 +3 + 5 = 9: "In case of a
    # tie, the players share the victory": both win, with equal returns.
    s = position(BASE2, {"a4": "+3"}, "d4", 2, "row", "P1", ["+10.-1", "+1"])
    s.apply_string("a4")
    assert s.is_terminal()
    assert s.scores() == [9.0, 9.0]
    assert s.winners() == (0, 1)
    assert s.returns()[0] == s.returns()[1]


def test_four_players_pairs_add_their_points() -> None:
    # "the 1st and 3rd players form a pair, and the 2nd and 4th players form a pair ... each
    # pair adds up the points". P4 takes the last card a4 (+1) along row 4 (P1 then cannot
    # take from the empty column a) and gets the Prospector: P4 = -3 + 1 + 5 = 3.
    # Seats: P1 +10, P2 +2, P3 -8, P4 as above. Pairs: P1+P3 = 2, P2+P4 = 5: seats 2 and 4
    # win although P1 alone has the most points.
    s = position(BASE4, {"a4": "+1"}, "d4", 4, "row", "P3", ["+10", "+2", "-8", "-3"])
    assert moves(s) == ["a4"]
    s.apply_string("a4")
    assert s.is_terminal()
    assert s.scores() == [10.0, 2.0, -8.0, 3.0]
    assert s.winners() == (1, 3)


def test_the_prospector_in_the_first_corner_is_named_there() -> None:
    # the Prospector at a1 (the grid's first cell, index 0): the observation names a1 and
    # the moves are row 1 and column a (g1, a7); taking g1 moves him there
    s = position(BASE2, {"g1": "+3", "a7": "-2"}, "a1", 1, "any", "-", ["-", "-"])
    assert s.observation(0)["prospector"] == "a1" and moves(s) == ["a7", "g1"]
    s.apply_string("g1")
    assert s.observation(1)["prospector"] == "g1"


def test_the_prospector_in_the_first_corner_is_in_the_tensor() -> None:
    # the tensor's ``cells`` slice, (rows, columns, planes): plane 29 is the Prospector; at
    # a1 (cell 0) it is the one cell set there, after "g1" only g1's (row 1, column g)
    s = position(BASE2, {"g1": "+3", "a7": "-2"}, "a1", 1, "any", "-", ["-", "-"])
    _, offset, shape = BASE2.observation_layout()[0]
    size = 7 * 7 * 30

    def prospector(seat: int) -> list[tuple[int, int]]:
        cells = s.observation_tensor(seat)[offset : offset + size].reshape(shape)
        return [(int(r), int(c)) for r, c in zip(*cells[:, :, 29].nonzero(), strict=True)]

    assert prospector(0) == [(0, 0)] and prospector(1) == [(0, 0)]
    s.apply_string("g1")
    assert prospector(0) == [(0, 6)]

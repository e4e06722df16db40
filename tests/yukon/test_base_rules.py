"""Scenario tests for the base game, one per rule sentence, named after the rulebook sections."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.core.errors import ConfigError, IllegalActionError
from motherlode.games.yukon import cards as C
from tests.yukon.helpers import base, legal, play, position

# -- Setup --


def test_setup_lays_a_7x7_grid_and_the_prospector_replaces_the_sheriff() -> None:
    """'Shuffle the remaining cards together with the Sheriff card and lay out a 7x7 grid of
    cards, face up. Take the Sheriff card out and put the Prospector figure in its place.'"""
    game = base()
    state = game.new_initial_state()
    deals = 0
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(deals)))
        deals += 1
    assert deals == 49
    view = state.observation()
    cards = [tok for row in view["grid"] for tok in row]
    assert cards.count(".") == 1 and "S" not in cards
    assert view["box"] == ["S"]
    r, c = divmod(state.pos, 7)
    assert view["grid"][r][c] == "." and view["prospector"] == f"{'abcdefg'[c]}{r + 1}"
    assert sorted(cards.count(C.token(k)) for k in range(16)) == [3] * 16


def test_setup_each_cell_is_a_chance_node_weighted_by_the_cards_that_remain() -> None:
    """24 Gold, 24 Pebble (3 of each value) and the Sheriff are shuffled: every kind of the
    first card has probability 3/49, the Sheriff 1/49; then the counts shrink."""
    state = base().new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[C.SHERIFF] == pytest.approx(1 / 49)
    assert all(outcomes[k] == pytest.approx(3 / 49) for k in range(16))
    state.apply_string("deal +10")
    outcomes = dict(state.chance_outcomes())
    assert outcomes[C.GOLD0 + 7] == pytest.approx(2 / 48)
    assert outcomes[C.SHERIFF] == pytest.approx(1 / 48)
    state.apply_string("deal S")
    assert C.SHERIFF not in dict(state.chance_outcomes())


def test_setup_the_starting_player_is_seat_one() -> None:
    """'The player who most recently stepped into a river starts the game.' The seats are
    numbered from the starting player: P1 always moves first."""
    assert motherlode.deal(base(3), seed=4).current_player() == 0


def test_setup_first_player_option_names_the_seat_that_starts() -> None:
    """'The player who most recently stepped into a river starts the game.' The engine cannot
    know who that is: `first_player` (default seat 0, P1) names the seat."""
    game = motherlode.load("yukon", players=3, first_player=2)
    state = motherlode.deal(game, seed=4)
    assert state.current_player() == 2 and state.axis == 2  # P3 chooses row or column
    assert state.serialize().split()[1] == "P3"
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert state.current_player() == 0  # then clockwise: P1
    # the same seed deals the same grid as with P1 starting
    grid = motherlode.deal(game, seed=4).serialize().split()[0]
    assert motherlode.deal(base(3), seed=4).serialize().split()[0] == grid


def test_setup_first_player_must_be_a_seat() -> None:
    with pytest.raises(ConfigError, match="first_player"):
        motherlode.load("yukon", players=2, first_player=2)
    with pytest.raises(ConfigError, match="first_player"):
        motherlode.load("yukon", players=2, first_player=-1)


# -- Playing the Game --


def test_playing_the_starting_player_chooses_row_or_column() -> None:
    """'The starting player decides whether to take a card from the Prospector's row or from
    its column'."""
    s = position(
        base(), ["... +8".replace("...", ". . ."), "", "", "-3 . . @ . +5", "", "", ". . . -10"]
    )
    assert legal(s) == ["d1", "a4", "f4", "d7"]


def test_playing_the_card_goes_in_front_and_the_prospector_moves_onto_its_space() -> None:
    """'places it in front of themselves, and then moves the Prospector onto the empty space
    left by the card, which completes their turn.'"""
    s = position(base(), [". . . +8", "", "", "-3 . . @ . +5", "", ". . . . . -1", ". . . -10"])
    play(s, "f4")
    assert s.observation()["players"][0]["cards"] == ["+5"]
    assert s.observation()["prospector"] == "f4"
    assert s.observation()["grid"][3][5] == "."
    assert s.current_player() == 1


def test_playing_each_following_player_takes_perpendicular_to_the_previous_move() -> None:
    """'Each following player always takes their card in the direction perpendicular to
    the previous move (if the previous move was along a row, take from a column, and vice
    versa), always moving the Prospector onto the place of the card they took.'"""
    s = position(
        base(),
        [". . . . . +2", "", "", "-3 . . @ . +5", "", ". . . . . -1 +4", ". . . -10"],
    )
    play(s, "f4")  # along the row
    assert legal(s) == ["f1", "f6"]  # column f only, although a4 is still in row 4
    play(s, "f6")  # along the column
    assert legal(s) == ["g6"]  # row 6 only
    with pytest.raises(IllegalActionError, match="not in the Prospector's row"):
        s.apply_string("f1")


def test_playing_any_card_at_any_distance_may_be_taken() -> None:
    """'Important: From the row and column where the Prospector is, any card at any distance
    may be taken.' Cards and gaps in between do not block."""
    s = position(base(), ["+1 +2 +3 @ . . +10"])
    assert legal(s) == ["a1", "b1", "c1", "g1"]
    play(s, "a1")
    assert s.observation()["players"][0]["cards"] == ["+1"]


# -- End of the Game --


def test_end_when_the_next_player_has_no_card_in_the_required_line() -> None:
    """'The next player cannot take a card in accordance with the rules, because there are no
    cards left to take in the Prospector's row or column.' The other line may still hold
    cards: P2 must take from column f, which is empty."""
    s = position(base(), ["", "", "", "-3 . . @ . +5"])
    play(s, "f4")
    assert s.is_terminal()
    assert s.observation()["grid"][3][0] == "-3"  # still on the table, never taken


def test_end_the_last_taker_receives_the_prospector_worth_5_points() -> None:
    """'In either case, the player who took the last card receives the Prospector figure,
    which is worth 5 points.'"""
    s = position(base(), ["", "", "", "-3 . . @ . +5"])
    play(s, "f4")
    assert s.scores() == [10.0, 0.0]
    assert s.has_prospector(0) and not s.has_prospector(1)
    assert s.returns() == [1.0, -1.0]


def test_end_when_all_the_cards_have_been_taken() -> None:
    """'All the cards making up the playing area have been taken (this is very rare).'"""
    s = position(base(), [". @ . -2"], players=["+3|-|-|-", "-|-|-|-"])
    play(s, "d1")
    assert s.is_terminal()
    assert all(tok == "." for row in s.observation()["grid"] for tok in row)
    assert s.scores() == [6.0, 0.0]  # +3 - 2 + 5


def test_end_card_values_gold_positive_pebble_negative_most_points_wins() -> None:
    """'Card values are the numbers printed on them: Gold cards are positive and Pebble cards
    are negative. The player with the most points wins.'"""
    s = position(base(), [". @ . -2"], players=["+10.+8.-6|-|-|-", "+1.-10|-|-|-"], turn=2)
    play(s, "d1")
    assert s.scores() == [12.0, -6.0]
    assert s.winners() == (0,)
    assert s.outcome() == motherlode.Outcome(
        (0,), (12.0, -6.0), "all the cards of the playing area have been taken"
    )


def test_end_a_tie_shares_the_victory() -> None:
    """'In case of a tie, the players share the victory.'"""
    s = position(base(), [". @ . +5"], players=["+10|-|-|-", "-|-|-|-"], turn=2)
    play(s, "d1")
    assert s.scores() == [10.0, 10.0]
    assert s.winners() == (0, 1)
    assert s.returns() == [0.0, 0.0]
    assert s.outcome() is not None and s.outcome().shared  # type: ignore[union-attr]


# -- Rules for 2 and 3 Players --


def test_two_players_play_as_described() -> None:
    """'Play the game as described above; no changes are made.' Turns alternate P1, P2."""
    s = position(base(), ["+1 @ +2", ". -1 . +3", ". +4"])
    assert legal(s) == ["a1", "c1", "b2", "b3"]
    play(s, "b2")  # P1, along column b
    assert s.current_player() == 1 and legal(s) == ["d2"]  # P2, along row 2
    play(s, "d2")
    assert s.is_terminal()  # P1 would need column d: empty
    assert s.scores() == [-1.0, 8.0]


def test_three_players_each_player_alternates_row_and_column() -> None:
    """'A player who took a card from a row takes their next card from a column, and then
    from a row, and so on, alternating.' With three players this is the general rule: the
    direction flips every move, so each player's own moves alternate too."""
    s = position(
        base(3),
        [
            "@ +1 . . . . .",
            ". +2 +3 . . . .",
            ". . +4 +5 . . .",
            ". . . +6 +8",
        ],
    )
    required = []
    for move in ("b1", "b2", "c2", "c3", "d3", "d4"):
        required.append(s.axis)
        play(s, move)
    assert required == [2, 1, 0, 1, 0, 1]  # any, col, row, col, row, col
    # P1 took b1 along the row, and its next card, c3, along a column
    assert s.observation()["players"][0]["cards"] == ["+1", "+4"]


# -- Rules for 4 Players --


def test_four_players_pairs_add_their_points_and_the_pair_with_more_wins() -> None:
    """'the 1st and 3rd players form a pair, and the 2nd and 4th players form a pair ... each
    pair adds up the points its two players have collected, and those team totals form the
    final result. The pair with more points wins.'"""
    s = position(
        base(4),
        [". @ . +2"],
        players=["+10|-|-|-", "+8|-|-|-", "-3|-|-|-", "-|-|-|-"],
        turn=4,
    )
    play(s, "d1")
    assert s.scores() == [10.0, 8.0, -3.0, 7.0]
    assert s.team_scores() == [7.0, 15.0]
    assert s.winners() == (1, 3)
    assert s.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_four_players_partners_always_take_cards_in_the_same_direction() -> None:
    """'Note: Partners always take cards in the same direction. Example: Players 1 and 3 take
    cards horizontally, and players 2 and 4 take cards vertically.'"""
    s = position(
        base(4),
        [
            "@ +1 . . . . .",
            ". +2 +3 . . . .",
            ". . +4 +5 . . .",
            ". . . +6 +8 . .",
        ],
    )
    lines: dict[int, set[str]] = {p: set() for p in range(4)}
    for move in ("b1", "b2", "c2", "c3", "d3", "d4", "e4"):
        player, before = s.current_player(), s.pos
        play(s, move)
        lines[player].add("row" if before // 7 == s.pos // 7 else "col")
    assert lines == {0: {"row"}, 1: {"col"}, 2: {"row"}, 3: {"col"}}

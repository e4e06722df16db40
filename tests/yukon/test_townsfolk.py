"""Scenario tests for the Townsfolk expansion, named after the rulebook's sections."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.core.errors import IllegalActionError
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.game import ANY, COL, ROW
from tests.yukon.helpers import expansion, legal, play, position

# -- Expansion Setup --


def test_setup_8x8_grid_with_15_townsfolk_drawn_from_30() -> None:
    """'Shuffle the expansion's cards thoroughly and draw 15 of them. Shuffle these 15 together
    with the Gold, Pebble and Sheriff cards. Form an 8x8 grid of cards, face up.'"""
    for seed in range(20):
        state = motherlode.deal(expansion(), seed=seed)
        tokens = [tok for row in state.observation()["grid"] for tok in row]
        assert len(tokens) == 64
        townsfolk = [t for t in tokens if t in C.TOWNSFOLK_TOKENS]
        assert len(townsfolk) == 15
        assert all(townsfolk.count(t) <= 3 for t in C.TOWNSFOLK_TOKENS)
        assert tokens.count(".") == 1  # the Prospector's space, where the Sheriff was


def test_setup_chance_draws_townsfolk_into_15_of_the_64_places() -> None:
    """The first card is a base card with probability 49/64 (3/64 per Gold/Pebble kind,
    1/64 the Sheriff) and a Townsfolk with 15/64, spread over the 30 Townsfolk cards."""
    outcomes = dict(expansion().new_initial_state().chance_outcomes())
    assert outcomes[C.GOLD0] == pytest.approx(3 / 64)
    assert outcomes[C.SHERIFF] == pytest.approx(1 / 64)
    assert outcomes[C.JAILER] == pytest.approx(15 / 64 * 3 / 30)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_setup_once_15_townsfolk_are_out_no_more_can_come() -> None:
    state = expansion().new_initial_state()
    for token in ["Tr", "Gs", "Co", "Sw", "Cu"] * 3:
        state.apply_string(f"deal {token}")
    assert all(k < C.TOWNSFOLK0 for k, _ in state.chance_outcomes())


def test_setup_three_face_down_discs_on_each_pan() -> None:
    """'If a Pan card came onto the table, shuffle the Gold nugget discs face down, then stack
    3 of them face down on each Pan card.'"""
    for seed in range(40):
        state = motherlode.deal(expansion(), seed=seed)
        pans = state.observation()["pans"]
        tokens = [tok for row in state.observation()["grid"] for tok in row]
        assert len(pans) == tokens.count("Pa")
        assert all(n == 3 for n in pans.values())


def test_setup_players_collect_for_themselves_with_four_players() -> None:
    """'With 2, 3 or 4 players, each player collects Gold and Pebble cards for themselves,
    and the players follow each other in clockwise order.' No pairs in the expansion."""
    s = position(
        expansion(4), [". @ . +2"], players=["+10|-|-|-", "+8|-|-|-", "-3|-|-|-", "-|-|-|-"], turn=4
    )
    play(s, "d1")
    assert s.scores() == [10.0, 8.0, -3.0, 7.0]
    assert s.winners() == (0,)


# -- Trapper --


def test_trapper_the_player_chooses_a_gold_card_to_give_up() -> None:
    """'they must give up one of the Gold cards they have collected so far. The player chooses
    which Gold card to discard. The discarded Gold card is placed beside the playing area,
    face down, together with the Trapper card.'"""
    s = position(expansion(), ["@ Tr . +1", ". +2"], players=["+8.+3.-2|-|-|-", "-|-|-|-"])
    play(s, "b1")
    assert s.current_player() == 0
    assert legal(s) == ["discard +3", "discard +8"]
    with pytest.raises(IllegalActionError):
        s.apply_string("discard -2")
    play(s, "discard +3")
    assert s.observation()["players"][0]["cards"] == ["+8", "-2"]
    assert s.observation()["beside"] == ["+3", "Tr"]
    assert s.current_player() == 1


def test_trapper_with_no_gold_is_discarded_at_once() -> None:
    """'Important: If there is no card that could be discarded when a Trapper or Goldsmith
    card is taken, the card is not kept; it is discarded immediately after being taken.'"""
    s = position(expansion(), ["@ Tr . +1", ". +2"], players=["-4|-|-|-", "-|-|-|-"])
    play(s, "b1")
    assert s.current_player() == 1
    assert s.observation()["beside"] == ["Tr"]
    assert s.observation()["players"][0]["townsfolk"] == []


# -- Goldsmith --


def test_goldsmith_the_player_gets_rid_of_a_pebble_of_their_choice() -> None:
    """'they immediately get rid of one of the Pebble cards they have collected so far ...
    The discarded cards do not take part in scoring.'"""
    s = position(expansion(), ["@ Gs . +1", ". +2"], players=["+8.-6.-2|-|-|-", "-|-|-|-"])
    play(s, "b1")
    assert legal(s) == ["discard -2", "discard -6"]
    play(s, "discard -6")
    assert s.points(0) == 6
    assert s.observation()["beside"] == ["-6", "Gs"]


def test_goldsmith_with_no_pebble_is_discarded_at_once() -> None:
    s = position(expansion(), ["@ Gs . +1", ". +2"], players=["+4|-|-|-", "-|-|-|-"])
    play(s, "b1")
    assert s.current_player() == 1 and s.observation()["beside"] == ["Gs"]


# -- Commander --


def test_commander_takes_a_discarded_gold_card_and_returns_to_the_box() -> None:
    """'they may immediately take one Gold card that was previously discarded beside the
    playing area, and return the Commander card to the box.'"""
    s = position(expansion(), ["@ Co . +1", ". +2"], beside="+10.+3.Tr.Tr", box="S")
    play(s, "b1")
    assert legal(s) == ["reclaim +3", "reclaim +10", "keep commander"]
    play(s, "reclaim +10")
    assert s.observation()["players"][0]["cards"] == ["+10"]
    assert s.observation()["box"] == ["S", "Co"]
    assert s.observation()["beside"] == ["+3", "Tr", "Tr"]


def test_commander_may_be_kept_instead() -> None:
    """'may' take a Gold card: declining keeps the Commander for its end-of-game points."""
    s = position(expansion(), ["@ Co . +1", ". +2"], beside="+3.Tr")
    play(s, "b1", "keep commander")
    assert s.observation()["players"][0]["townsfolk"] == ["Co"]


def test_commander_without_discarded_gold_is_kept() -> None:
    """'If no Gold card has been discarded, the player keeps the Commander card'."""
    s = position(expansion(), ["@ Co . +1", ". +2"], beside="-4.Gs")
    play(s, "b1")
    assert s.current_player() == 1
    assert s.observation()["players"][0]["townsfolk"] == ["Co"]


def test_commander_scores_one_point_per_nugget_disc_doubled_with_the_prospector() -> None:
    """'at the end of the game it is worth points equal to the number of gold nugget discs
    the player has collected. If the Prospector figure is with this player at the end of the
    game, the points scored by the Commander are doubled.'"""
    players = ["-|Co|-|2.3", "-|-|-|-"]
    s = position(expansion(), [". @ . +1"], players=players, revealed="2.3")
    play(s, "d1")  # P1 takes the last card and the Prospector
    # discs 2 + 3, the card +1, the Prospector 5, the Commander 2 discs x 2
    assert s.scores()[0] == 5 + 1 + 5 + 4
    s = position(expansion(), [". @ . +1"], players=players, revealed="2.3", turn=2)
    play(s, "d1")
    assert s.scores()[0] == 5 + 2


# -- Swindler --


def test_swindler_halves_one_pebble_rounding_down() -> None:
    """'The Swindler halves the value of one Pebble card the player collected during the
    game, rounding down. Example: ... a Pebble card worth 5 ... scores -2 points instead of
    -5.'"""
    s = position(expansion(), ["@ . +1"], players=["-5|Sw|-|-", "-|-|-|-"], turn=2)
    assert s.points(0) == -2


def test_swindler_takes_the_most_costly_pebble_and_each_swindler_one_card() -> None:
    s = position(expansion(), ["@ . +1"], players=["-5.-3.-1|Sw.Sw|-|-", "-|-|-|-"], turn=2)
    assert s.points(0) == -2 - 1 - 1


def test_swindler_is_placed_in_front_of_the_player() -> None:
    s = position(expansion(), ["@ Sw . +1", ". +2"])
    play(s, "b1")
    assert s.observation()["players"][0]["townsfolk"] == ["Sw"]


# -- Courier --


def test_courier_changes_direction_for_the_current_move_only() -> None:
    """'the player may change direction for the current move only. Once used, the Courier
    card is returned to the box.' Example 1: 'The next player does not change direction;
    they keep their original direction in accordance with the normal rule.'"""
    s = position(
        expansion(),
        ["@ +1 . . . . . .", "+4 . . . . . . .", ". . . . . . . .", "+2 +3"],
        axis="row",
        players=["-|Cu|-|-", "-|-|-|-"],
    )
    assert legal(s) == ["b1", "courier a2", "courier a4"]
    play(s, "courier a4")  # P1 should take along row 1; takes along column a instead
    assert s.observation()["box"] == ["S", "Cu"]
    # the normal rule: P1 was due a row, so P2 takes from a column
    assert s.axis == COL
    assert legal(s) == ["a2"]


def test_courier_unused_scores_one_point_per_pebble_card() -> None:
    """'At the end of the game, an unused Courier scores points equal to the number of Pebble
    cards the player collected during the game.' Example 2: 2 Pebble cards, 2 more points."""
    s = position(expansion(), ["@ . +1"], players=["-1.-2|Cu|-|-", "-|-|-|-"], turn=2)
    assert s.points(0) == -3 + 2
    s = position(expansion(), ["@ . +1"], players=["+5|Cu|-|-", "-|-|-|-"], turn=2)
    assert s.points(0) == 5


def test_courier_not_offered_on_the_first_move() -> None:
    """On the very first move the player chooses row or column freely; there is no direction
    to change, so the Courier's ability is not offered."""
    s = position(expansion(), ["@ +1", "+2"], players=["-|Cu|-|-", "-|-|-|-"])
    assert legal(s) == ["b1", "a2"]


# -- Innkeeper --


def test_innkeeper_allows_a_diagonal_move_then_the_original_rule_continues() -> None:
    """'When the Innkeeper's ability is used, the player may also move diagonally, provided
    there is a card they can take. The next player takes a card in accordance with the
    original rule.'"""
    s = position(
        expansion(),
        ["@ +1", ". . . . . .", ". . +7?".replace("+7?", "+8"), ". . +2"],
        axis="row",
        players=["-|In|-|-", "-|-|-|-"],
    )
    assert legal(s) == ["b1", "innkeeper c3"]
    play(s, "innkeeper c3")
    assert s.axis == COL and legal(s) == ["c4"]
    assert "In" in s.observation()["box"]


def test_innkeeper_unused_scores_the_townsfolk_in_front_including_itself() -> None:
    """'an unused Innkeeper scores points equal to the number of Townsfolk cards the player
    collected in total, together with the Innkeeper. Note: Townsfolk cards that were used
    during the game and returned to the box do not count.'"""
    s = position(
        expansion(), ["@ . +1"], players=["-|In.Ja.Te|-|-", "-|-|-|-"], turn=2, order="ccw"
    )
    assert s.points(0) == 3
    s = position(expansion(), ["@ . +1"], players=["-|In|-|-", "-|-|-|-"], turn=2, box="S.Cu.To")
    assert s.points(0) == 1


# -- Jailer --


def test_jailer_reverses_the_turn_order_and_the_taker_takes_again() -> None:
    """'When a player takes a Jailer card, the turn order is reversed. The player who took the
    card takes again next, and the other players follow in the direction opposite to
    clockwise.'"""
    s = position(
        expansion(3),
        ["@ Ja . . . . . .", ". +1 +2", ". . +3 +4", ". . . +5"],
    )
    play(s, "b1")
    assert s.current_player() == 0 and s.order == -1
    play(s, "b2")  # P1 again (column b: the direction alternates per move as always)
    assert s.current_player() == 2  # then P3: counter-clockwise
    play(s, "c2")
    assert s.current_player() == 1


def test_jailer_taken_again_reverses_again() -> None:
    """'If someone takes a Jailer card again, the turn order reverses again, every time this
    happens.'"""
    s = position(expansion(3), ["@ Ja . . . . . .", ". Ja +2", ". . +3"])
    play(s, "b1", "b2")
    assert s.order == 1 and s.current_player() == 0
    play(s, "c2")
    assert s.current_player() == 1


# -- Teacher --


def test_teacher_takes_a_random_card_from_a_chosen_player() -> None:
    """'they choose another player and randomly take one of that player's cards. The randomly
    taken card is placed in front of the Teacher, next to the Teacher card.'"""
    s = position(
        expansion(3),
        ["@ Te . +1", ". +2"],
        players=["-|-|-|-", "-5.+3.+3|-|-|-", "-|-|-|-"],
    )
    play(s, "b1")
    assert legal(s) == ["teach P2"]  # P3 has no card to take
    play(s, "teach P2")
    assert s.is_chance_node()
    outcomes = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"draw +3": 2 / 3, "draw -5": 1 / 3})
    play(s, "draw -5")
    view = s.observation()
    assert view["players"][0]["taught"] == ["-5"] and view["players"][0]["townsfolk"] == ["Te"]
    assert view["players"][1]["cards"] == ["+3", "+3"]
    assert s.current_player() == 1


def test_teacher_pebble_cards_taken_this_way_count_as_positive_points() -> None:
    """'Regardless of the card's type, it scores the number of points printed on it.
    Important: Pebble cards taken this way also count as positive points.'"""
    s = position(expansion(), ["@ . +1"], players=["-|Te.Te|-5.+3|-", "-|-|-|-"], turn=2)
    assert s.points(0) == 8


def test_teacher_draws_only_cards_with_printed_points_never_a_townsfolk() -> None:
    """'randomly take one of that player's cards ... Regardless of the card's type, it scores
    the number of points printed on it. Important: Pebble cards taken this way also count as
    positive points.' The card types are Gold and Pebble (decision 9): the victim's Townsfolk,
    discs and the cards he won with his own Teacher are not drawn."""
    s = position(
        expansion(3),
        ["@ Te . +1", ". +2"],
        players=["-|-|-|-", "-2|Cu.Sw.Te|+8|3", "-|In.Co|-|1"],
        revealed="3.1",
    )
    play(s, "b1")
    assert legal(s) == ["teach P2"]  # P3 holds only Townsfolk and a disc: not a victim
    play(s, "teach P2")
    assert [(s.action_to_string(a), p) for a, p in s.chance_outcomes()] == [("draw -2", 1.0)]
    play(s, "draw -2")
    assert s.points(0) == 2 and s.observation()["players"][1]["townsfolk"] == ["Sw", "Cu", "Te"]


def test_teacher_with_nobody_to_teach_has_no_effect() -> None:
    s = position(expansion(), ["@ Te . +1", ". +2"])
    play(s, "b1")
    assert s.current_player() == 1 and s.observation()["players"][0]["townsfolk"] == ["Te"]


# -- Telegraph Operator --


def test_telegraph_moves_the_prospector_onto_a_card_and_takes_its_neighbour() -> None:
    """'Once during the game, before taking a card, the player may move the Prospector figure
    onto one card, but then chooses and takes a card from among that card's neighbours in the
    direction of the Prospector's movement. The card the Prospector moved onto is not taken
    by the player.'"""
    s = position(
        expansion(),
        ["@ . +2 +4 . -3", ". . . +6"],
        axis="row",
        players=["-|To|-|-", "-|-|-|-"],
    )
    options = legal(s)
    assert "telegraph c1 d1" in options and "telegraph f1 e1" not in options
    assert "telegraph d1 c1" in options  # the neighbour back along the line
    assert not any(o.startswith("telegraph c1 c2") for o in options)  # not across the line
    play(s, "telegraph c1 d1")
    view = s.observation()
    assert view["players"][0]["cards"] == ["+4"]
    assert view["grid"][0][2] == "+2"  # the card it moved onto stays
    assert view["prospector"] == "d1"
    assert s.axis == COL and legal(s) == ["d2"]
    assert "To" in view["box"]


def test_telegraph_unused_scores_the_gold_cards_left_on_the_table() -> None:
    """'an unused Telegraph Operator is worth points equal to the number of Gold cards that
    remain on the table.'"""
    s = position(
        expansion(), ["@ . +1 +2 -3", "+8"], players=["-|To|-|-", "-|-|-|-"], turn=2, axis="col"
    )
    assert s.points(0) == 3


# -- Pan --


def test_pan_gives_the_top_disc_and_stays_until_its_last_disc_is_taken() -> None:
    """'When a player arrives on a Pan card, they take the top Gold nugget disc from the discs
    on that card and place it in front of themselves ... Once the last disc has been removed
    from the card, return the Pan card to the box. At the end of the game, a Gold nugget disc
    is worth the number of points printed on it.'"""
    s = position(
        expansion(),
        ["@ Pa . . . . . .", "+1 +2"],
        pans="b1:1",
        revealed="3.3",
        players=["-|-|-|3", "-|-|-|3"],
    )
    play(s, "b1")
    assert s.is_chance_node()
    # discs not yet seen: 1,1,1,2,2,2,3 (two 3s are already face up)
    probs = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert probs == pytest.approx({"disc 1": 3 / 7, "disc 2": 3 / 7, "disc 3": 1 / 7})
    play(s, "disc 2")
    view = s.observation()
    assert view["players"][0]["discs"] == [2, 3] and view["players"][0]["points"] == 5
    assert view["grid"][0][1] == "." and "Pa" in view["box"]  # its last disc: back to the box


def test_pan_with_discs_left_stays_on_the_table_and_can_be_visited_again() -> None:
    s = position(
        expansion(),
        ["+5 Pa . @", ". +1"],
        pans="b1:3",
        axis="row",
    )
    play(s, "b1", "disc 1")
    assert s.observation()["pans"] == {"b1": 2}
    assert s.observation()["grid"][0][1] == "Pa"
    assert s.current_player() == 1 and legal(s) == ["b2"]


# -- Game end with Townsfolk abilities --


def test_game_end_a_player_who_can_move_only_with_an_ability_must_use_it() -> None:
    """The game ends when 'The next player cannot take a card in accordance with the rules'.
    A Courier, Innkeeper or Telegraph Operator is part of the rules: while the player to move
    can take a card with one, the game goes on, and that take is the only legal move."""
    s = position(
        expansion(), ["@ . . . . . . .", "+3"], axis="row", players=["-|Cu|-|-", "-|-|-|-"]
    )
    assert not s.is_terminal()
    assert legal(s) == ["courier a2"]
    s = position(expansion(), ["@ . . . . . . .", "+3"], axis="row")
    assert s.is_terminal()


def test_first_move_axis_is_free_and_innkeeper_first_move_keeps_it_free() -> None:
    s = position(expansion(), ["@ +1", ". +2", ". . +3"], players=["-|In|-|-", "-|-|-|-"])
    assert s.axis == ANY
    play(s, "innkeeper b2")
    assert s.axis == ANY
    play(s, "b1")  # P2 chooses freely: column b, so P1 next takes along a row
    assert s.axis == ROW


def test_row_axis_constant_is_zero() -> None:
    assert (ROW, COL, ANY) == (0, 1, 2)


def test_random_expansion_games_keep_every_card_accounted_for() -> None:
    game = expansion(4)
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal_ = state.legal_actions()
                state.apply_action(legal_[rng.randrange(len(legal_))])
            state.check_invariants()

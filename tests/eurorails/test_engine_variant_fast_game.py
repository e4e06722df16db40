"""Fast Game (rulebook, Empire Builder Series Variations): config ``fast_game=True``.
"Each player starts with 70 million and 3 pre-movement turns. Discard the event cards dealt
during the initial deal; do not shuffle them into the deck. The Excess Profits Tax event
card has no effect and is removed prior to play. Deal 5 cards to each player at the
beginning of the game, replacing event cards normally. After completing the first 2
building turns, each player discards 2 demand cards, and then play continues normally." """

from __future__ import annotations

import pytest
from tests.eurorails.helpers import BUILD, OPS, dealt, game, legal_strings

from motherlode.core.errors import IllegalActionError
from motherlode.games.eurorails.game import EurorailsState

TAX = 150


def _fast() -> EurorailsState:
    g = game(2, fast_game=True)
    # P1: 1..5 with the derailment #147 dealt among them; P2: 6..10
    return dealt(g, [[1, 2, 147, 3, 4, 5], [6, 7, 8, 9, 10]])


def test_fast_game_70_million_and_3_building_turns() -> None:
    g = game(2, fast_game=True)
    assert g.cfg.starting_cash == 70 and g.cfg.building_turns == 3
    s = _fast()
    assert s.cash == [70, 70]
    # explicit values still win
    g2 = game(2, fast_game=True, starting_cash=60, building_turns=2)
    assert (g2.cfg.starting_cash, g2.cfg.building_turns) == (60, 2)
    assert game(2).cfg.starting_cash == 50


def test_fast_game_deals_five_cards_events_dealt_and_the_tax_are_out_for_good() -> None:
    g = game(2, fast_game=True)
    s0 = g.new_initial_state()
    assert TAX - 1 not in [a for a, _ in s0.chance_outcomes()]
    assert len(s0.chance_outcomes()) == 167
    s = _fast()
    assert s.hands == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    assert sorted(s.aside) == [147, TAX]
    assert 147 not in s.draw and TAX not in s.draw and len(s.draw) == 168 - 12
    s.check_invariants()


def test_fast_game_each_player_discards_two_after_the_first_two_building_turns() -> None:
    s = _fast()
    assert s.phase == BUILD
    first = s.turn_player()
    for _ in range(4):  # two rounds of building turns (switchback order)
        assert s.tosser() == -1 and len(s.hands[s.turn_player()]) == 5
        s.apply_string("end turn")
    assert s.t == 4 and s.turn_player() == first, "the third building turn begins"
    # each player now discards 2, in turn order from the player to move
    assert s.current_player() == first
    strings = legal_strings(s)
    assert strings == [f"discard #{c}" for c in s.hands[first]]
    with pytest.raises(IllegalActionError, match="must first discard a demand card"):
        s.apply_string("end turn")
    m0, m1, *_ = s.hands[first]
    s.apply_string(f"discard #{m0}")
    s.apply_string(f"discard #{m1}")
    assert len(s.hands[first]) == 3
    other = 1 - first
    assert s.current_player() == other
    theirs = list(s.hands[other])
    s.apply_string(f"discard #{theirs[4]}")
    s.apply_string(f"discard #{theirs[1]}")
    assert s.hands[other] == [theirs[0], theirs[2], theirs[3]]
    assert s.discard == [m0, m1, theirs[4], theirs[1]]
    assert s.current_player() == first and s.phase == BUILD
    s.apply_string("end turn")
    s.apply_string("end turn")
    assert s.phase == OPS and s.normal_round() == 0
    assert all(len(h) == 3 for h in s.hands)
    s.check_invariants()


def test_fast_game_no_excess_profits_tax_ever_and_reshuffles_keep_it_out() -> None:
    s = _fast()
    s.draw = [11]
    s.discard = [*range(12, 147), 148, 149, *range(151, 169)]
    s.hands[0] = [1, 2, 3]
    s.hands[1] = [6, 7, 8]
    s.discard += [4, 5, 9, 10]
    s.check_invariants()
    s._draw_card(11)
    assert TAX not in s.draw and 147 not in s.draw and len(s.draw) == 168 - 2 - 6 - 1
    s.draw.append(11)
    s.check_invariants()


def test_fast_game_the_bot_discards_its_lowest_cards() -> None:
    from motherlode.games.eurorails.bot import GreedyAgent

    s = _fast()
    for _ in range(4):
        s.apply_string("end turn")
    q = s.current_player()
    b = s.game.board
    best = {c: max(d.payment for d in b.demands[c]) for c in s.hands[q]}
    a = GreedyAgent(s.game).act(s)
    assert s.action_to_string(a) == f"discard #{min(best, key=lambda c: best[c])}"

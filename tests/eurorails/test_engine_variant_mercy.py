"""Mercy (rulebook, Empire Builder Series Variations): configs ``mercy_borrowing`` and
``mercy_backtracking``.
"Borrowing — A player may take a loan up to 20 million from the bank. He must repay twice
the borrowed amount as soon as he has the money to do so."
"Backtracking — A player may reverse his train's direction on any milepost (not just a city
milepost) at the cost of losing one full turn. A train which backtracks can move in any
direction in its next turn. A train may not backtrack when the player has discarded his
cards during the same turn; a train may backtrack if it cannot move for any other reason
(e.g., derailment). A player whose train backtracks while on an opponent's track is
assessed the use fee for that turn." """

from __future__ import annotations

import pytest
from tests.eurorails.helpers import (
    BUILD,
    OPS,
    city,
    draw,
    lay,
    legal_strings,
    nm,
    path,
    place,
    set_turn,
    standard,
)

from motherlode.core.errors import IllegalActionError
from motherlode.games.eurorails.game import EurorailsState


def test_borrowing_up_to_20_repaid_double_as_soon_as_possible() -> None:
    s = standard(2, mercy_borrowing=True)
    s.cash = [3, 50]
    set_turn(s, 0, BUILD)
    strings = legal_strings(s)
    assert "borrow 4" in strings and "borrow 20" in strings
    assert "borrow 3" not in strings, "a loan the cash could repay at once is not offered"
    assert "borrow 21" not in strings
    s.apply_string("borrow 15")
    assert s.cash[0] == 18 and s.debt == [30, 0]
    assert s.observation(None)["debt"] == [30, 0]
    assert not any(x.startswith("borrow") for x in legal_strings(s))
    with pytest.raises(IllegalActionError, match="repaid"):
        s.apply_string("borrow 5")
    # building spends the loan; nothing is repaid while the cash is short of 30
    s.apply_string("end turn")
    assert s.debt == [30, 0]
    # a delivery brings the money: the 30 go back to the bank at once
    b = s.game.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    s.cash[0] = 18
    set_turn(s, 0, OPS)
    s.apply_string(f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}")
    paid = dem.payment
    if 18 + paid >= 30:
        assert s.debt == [0, 0] and s.cash[0] == 18 + paid - 30
    else:
        assert s.debt == [30, 0] and s.cash[0] == 18 + paid
    draw(s, next(c for c in s.draw if c < 147))
    s.check_invariants()


def test_borrowing_repaid_from_rent_received_then_a_new_loan() -> None:
    s = standard(2, mercy_borrowing=True)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    s.cash = [0, 50]
    set_turn(s, 0, BUILD)
    s.apply_string("borrow 2")
    assert s.cash[0] == 2 and s.debt[0] == 4
    s.apply_string("end turn")
    # P2 rents P1's track: the 4 repay the loan at once
    place(s, 1, route[1], prev=route[0])
    set_turn(s, 1, OPS)
    s.apply_string(f"move {route[2]}")
    assert s.cash == [2, 46] and s.debt == [0, 0]
    set_turn(s, 0, BUILD)
    assert "borrow 20" in legal_strings(s)


def test_borrowing_off_by_default_and_in_the_notation() -> None:
    s = standard(2)
    set_turn(s, 0, BUILD)
    assert not any(x.startswith("borrow") for x in legal_strings(s))
    assert "debt" not in s.observation(None)
    s2 = standard(2, mercy_borrowing=True)
    s2.cash[0] = 0
    set_turn(s2, 0, BUILD)
    s2.apply_string("borrow 7")
    again = s2.game.deserialize(s2.serialize())
    assert again.debt == [14, 0] and again.cash == s2.cash


def _on_line(**options: object) -> tuple[EurorailsState, list[int]]:
    s = standard(2, mercy_backtracking=True, **options)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 1, route)
    mid = len(route) // 2
    place(s, 0, route[mid], prev=route[mid - 1])
    set_turn(s, 0, OPS)
    return s, route


def test_backtracking_costs_the_turn_and_the_use_fee_then_any_direction() -> None:
    s, route = _on_line()
    mid = len(route) // 2
    assert f"move {nm(s, route[mid - 1])}" not in legal_strings(s)
    assert "backtrack" in legal_strings(s)
    t = s.t
    s.apply_string("backtrack")
    assert s.cash == [46, 54], "on P2's track: the use fee"
    assert s.t == t + 1 and s.turn_player() == 1, "the whole turn is lost (no building)"
    assert s.pos[0] == route[mid] and s.prev[0] == -1
    set_turn(s, 0, OPS)
    strings = legal_strings(s)
    assert f"move {nm(s, route[mid - 1])}" in strings and f"move {nm(s, route[mid + 1])}" in strings


def test_backtracking_not_after_anything_else_nor_where_reversing_is_free() -> None:
    s, route = _on_line()
    mid = len(route) // 2
    s.apply_string(f"move {route[mid + 1]}")
    assert "backtrack" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="instead of its whole turn"):
        s.apply_string("backtrack")
    place(s, 0, city(s, "Paris"), prev=route[1])
    set_turn(s, 0, OPS)
    assert "backtrack" not in legal_strings(s), "a city: the train may reverse anyway"
    s2, _ = _on_line()
    s2.apply_string("discard hand")
    assert s2.turn_player() == 0 and s2.current_player() < 0, "the new hand is drawn"


def test_backtracking_at_a_junction_is_the_way_to_go_back() -> None:
    """'reverse his train's direction on any milepost (not just a city milepost)': at a
    plain junction the base game does not let the train go back (rules 2), so Backtracking
    is offered there and, after the lost turn, the train may go back."""
    s = standard(2, mercy_backtracking=True)
    lay(s, 0, [1045, 1001, 1002])
    lay(s, 0, [1001, 1000])
    place(s, 0, 1001, prev=1045)
    set_turn(s, 0, OPS)
    strings = legal_strings(s)
    assert f"move {nm(s, 1045)}" not in strings and "backtrack" in strings
    s.apply_string("backtrack")
    assert s.turn_player() == 1 and s.prev[0] == -1 and s.cash[0] == 50  # own track: no fee
    set_turn(s, 0, OPS)
    assert {f"move {nm(s, m)}" for m in (1045, 1000, 1002)} <= set(legal_strings(s))


def test_backtracking_a_lost_turn_frees_the_facing() -> None:
    s, route = _on_line()
    mid = len(route) // 2
    s.apply_string("end move")
    s.apply_string("end turn")
    s.lost[0] = 1
    s.apply_string("end move")
    s.apply_string("end turn")  # P2's turn ends; P1's lost turn passes
    assert s.turn_player() == 1 and s.prev[0] == -1
    set_turn(s, 0, OPS)
    assert f"move {nm(s, route[mid - 1])}" in legal_strings(s)


def test_backtracking_off_by_default() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 1, route)
    place(s, 0, route[3], prev=route[2])
    set_turn(s, 0, OPS)
    assert "backtrack" not in legal_strings(s)


def _toward_demand(**options: object) -> tuple[EurorailsState, list[int], int]:
    """P1 carries the load of his first card's first demand, on P2's track one milepost
    before its city, with 2 million."""
    s = standard(2, **options)
    b = s.game.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    dest = b.city_centre[dem.city]
    start = b.city_centre[next(c for c in range(len(b.city_names)) if c != dem.city)]
    route = path(b, start, dest, avoid_cities=True)
    lay(s, 1, route)
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    s.cash = [2, 50]
    i = next(k for k in range(len(route)) if b.city_of[route[k]] == dem.city)
    place(s, 0, route[i - 1], prev=route[i - 2])
    set_turn(s, 0, OPS)
    return s, route[i - 1 : i + 1], card


def test_late_payment_use_fee_paid_from_the_delivery_payoff() -> None:
    s, (_, there), card = _toward_demand(mercy_late_payment=True)
    b = s.game.board
    dem = b.demands[card][0]
    s.apply_string(f"move {there}")
    assert s.cash == [2, 50] and s.late == [[0, 1, 4]], "owed, not paid"
    assert s.observation(None)["late_fees"] == [[0, 1, 4]]
    s.apply_string(f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}")
    assert s.cash == [2 + dem.payment - 4, 54] and s.late == []


def test_late_payment_owed_until_a_delivery_and_off_by_default() -> None:
    s, (_, there), _ = _toward_demand()
    assert f"move {there}" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="must be paid before use"):
        s.apply_string(f"move {there}")
    s2, (_, there2), _ = _toward_demand(mercy_late_payment=True)
    s2.apply_string(f"move {there2}")
    s2.apply_string("end move")
    s2.apply_string("end turn")
    assert s2.late == [[0, 1, 4]]
    again = s2.game.deserialize(s2.serialize())
    assert again.late == [[0, 1, 4]]
    assert '"late":' not in s.serialize()

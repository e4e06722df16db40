"""Eurorails reference positions: the Excess Profits Tax card (event 150) asked of the engine.

The printed brackets: under 50 pays nothing, 50-99 pays 10, 100-149 15, 150-199 20,
200-249 25, 250 and more 30. Each boundary is put on both sides to the engine: a player's
cash set to it, the tax card drawn, the cash after it read back.
"""

from __future__ import annotations

import pytest

from tests.eurorails.helpers import draw, place, set_turn, standard

TAX = 150
BRACKETS = [(0, 0), (49, 0), (50, 10), (99, 10), (100, 15), (149, 15), (150, 20), (199, 20),
            (200, 25), (249, 25), (250, 30), (900, 30)]


@pytest.mark.parametrize("rows", [BRACKETS[:6], BRACKETS[6:]], ids=["low", "high"])
def test_excess_profits_tax_brackets_asked_of_the_engine(rows: list[tuple[int, int]]) -> None:
    # P1 delivers (its cash is then what the table says) and draws the tax card; the five
    # other seats hold the other cash amounts
    s = standard(6)
    b = s.game.board
    dem = b.demands[s.hands[0][0]][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    cash = [c for c, _ in rows]
    s.cash = [cash[0] - dem.payment, *cash[1:]]
    s.apply_action(s.game.DELIVER0)
    assert s.cash[0] == cash[0]
    draw(s, TAX)
    assert s.cash == [c - due for c, due in rows]

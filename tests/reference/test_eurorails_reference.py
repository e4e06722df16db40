"""Eurorails reference positions: the Excess Profits Tax card (event 150) asked of the engine.

The printed brackets: under 50 pays nothing, 50-99 pays 10, 100-149 15, 150-199 20,
200-249 25, 250 and more 30. Each boundary is put on both sides to the engine: a player's
cash set to it, the tax card drawn, the cash after it read back.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.eurorails.helpers import draw, place, place2, set_turn, standard

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


# The tensor's first planes (the docstring of eurorails/view.py tensor): per milepost m,
# 2n + 1 cells at m * (2n + 1): the track of each seat (n), the train of each seat (n),
# bad weather (1). Boundary mileposts 0 and the last, a second train, a fog area.


def _planes(s: object, n: int) -> np.ndarray:
    b = s.game.board  # type: ignore[attr-defined]
    t = s.observation_tensor(0)  # type: ignore[attr-defined]
    return t[: b.n * (2 * n + 1)].reshape(b.n, 2 * n + 1)


def test_tensor_trains_at_the_first_and_last_milepost() -> None:
    s = standard(2)
    last = s.game.board.n - 1
    place(s, 0, 0)
    place(s, 1, last)
    planes = _planes(s, 2)
    trains = planes[:, 2:4]
    # exactly two train cells: P1's at milepost 0, P2's at the last
    assert trains.sum() == 2.0
    assert trains[0, 0] == 1.0 and trains[last, 1] == 1.0


def test_tensor_a_second_train_shares_its_seats_train_plane() -> None:
    s = standard(2, challenge_additional_trains=True)
    place2(s, 1, 0)
    trains = _planes(s, 2)[:, 2:4]
    assert trains.sum() == 1.0 and trains[0, 1] == 1.0


def test_tensor_weather_plane_is_exactly_the_fog_area() -> None:
    s = standard(2)
    assert _planes(s, 2)[:, 4].sum() == 0.0
    s.active.append([155, 1, 10])  # event 155: fog at Frankfurt, its printed area
    weather = _planes(s, 2)[:, 4]
    area = sorted(s.game.areas[155])
    assert area and sorted(np.flatnonzero(weather).tolist()) == area
    assert set(weather.tolist()) == {0.0, 1.0}

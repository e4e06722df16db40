"""The judgement search agents use (``EldoradoState.heuristic_values``)."""

from __future__ import annotations

import math

import pytest

import motherlode
from motherlode.games.eldorado import value
from motherlode.games.eldorado.game import race_chances


def _values(players: int, evaluations: list[float], monkeypatch: pytest.MonkeyPatch) -> list[float]:
    state = motherlode.deal(motherlode.load("eldorado", players=players, map=1), seed=1)
    monkeypatch.setattr(value, "evaluate", lambda s, p: evaluations[p])
    return state.heuristic_values()


def test_two_seats_keep_the_lead_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    v = _values(2, [3.0, 1.0], monkeypatch)
    assert v == [0.9 * math.tanh(2 / 5), 0.9 * math.tanh(-2 / 5)]


def test_three_seats_must_beat_every_rival(monkeypatch: pytest.MonkeyPatch) -> None:
    # level with the best rival: better off when the other rival is behind (the lead over
    # the best rival alone would call both positions equal)
    level = _values(3, [2.0, 2.0, 2.0], monkeypatch)
    ahead_of_one = _values(3, [2.0, 2.0, 0.0], monkeypatch)
    assert ahead_of_one[0] > level[0]
    assert level[0] == pytest.approx(0.9 * (2 / 3 - 1))
    assert all(-0.9 < x < 0.9 for x in ahead_of_one)


def test_race_chances_are_shares_that_match_two_seats() -> None:
    for values in ([0.0, 0.0, 0.0, 0.0], [5.0, 1.0, -3.0], [110.0, -10.0, -12.0]):
        w = race_chances(values, 5.0)
        assert sum(w) == pytest.approx(1.0)
        assert w == sorted(w, reverse=True)
    assert race_chances([3.0, 1.0], 5.0)[0] == pytest.approx((1 + math.tanh(2 / 5)) / 2)

"""The arena's win rates, Wilson intervals and head-to-head table, worked out by hand.

``tests/arena/test_ratings.py`` pins the openskill ratings; these pin the rest of
``summarise``'s answer (every key of it) and ``wilson`` itself, on intervals with closed
forms. Wilson's interval of p = k/n at z: centre (p + z²/2n) / (1 + z²/n), half-width
z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n). Written for the mutants mutmut left alive in
``arena/ratings.py`` (docs/testing.md).
"""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from motherlode.arena.ratings import Z95, summarise, wilson
from motherlode.arena.tournament import GameResult


@pytest.mark.parametrize(
    ("k", "n", "z", "expected"),
    [
        # z = 1, 1 in 2: centre (1/2 + 1/4) / (3/2) = 1/2, half sqrt(1/8 + 1/16) / (3/2)
        # = sqrt(3)/6
        (1, 2, 1.0, (0.5 - math.sqrt(3) / 6, 0.5 + math.sqrt(3) / 6)),
        # z = 1, 1 in 3: centre (1/3 + 1/6) / (4/3) = 3/8, half sqrt(2/27 + 1/36) * 3/4
        # = sqrt(11/108) * 3/4 = sqrt(33)/24
        (1, 3, 1.0, (3 / 8 - math.sqrt(33) / 24, 3 / 8 + math.sqrt(33) / 24)),
        # z = 2, 1 in 4: centre (1/4 + 4/8) / 2 = 3/8, half 2 sqrt(3/64 + 4/64) / 2 = sqrt(7)/8
        (1, 4, 2.0, (3 / 8 - math.sqrt(7) / 8, 3 / 8 + math.sqrt(7) / 8)),
        # z = 2, 1 in 2: centre (1/2 + 1) / 3 = 1/2, half 2 sqrt(1/8 + 1/4) / 3 = sqrt(6)/6
        (1, 2, 2.0, (0.5 - math.sqrt(6) / 6, 0.5 + math.sqrt(6) / 6)),
        # a fractional count (a shared win): z = 1, 1.5 in 3 is p = 1/2 as 1 in 2 but n = 3:
        # centre 1/2, half sqrt(1/12 + 1/36) / (4/3) = sqrt(1/9) * 3/4 = 1/4
        (1.5, 3, 1.0, (0.25, 0.75)),
        # z = 1, 1 in 1: centre (1 + 1/2) / 2 = 3/4, half sqrt(0 + 1/4) / 2 = 1/4: (1/2, 1)
        (1, 1, 1.0, (0.5, 1.0)),
        # z = 1, 0 in 1: centre (1/2) / 2 = 1/4, half 1/4: (0, 1/2)
        (0, 1, 1.0, (0.0, 0.5)),
        # no trials: nothing known
        (0, 0, Z95, (0.0, 1.0)),
    ],
)
def test_wilson_intervals_with_closed_forms(
    k: float, n: float, z: float, expected: tuple[float, float]
) -> None:
    low, high = wilson(k, n, z)
    assert low == pytest.approx(expected[0], abs=1e-12)
    assert high == pytest.approx(expected[1], abs=1e-12)


def test_wilson_at_95_percent_matches_the_published_nine_in_ten() -> None:
    # the textbook 95% Wilson interval of 9 successes in 10: (0.5958, 0.9821)
    low, high = wilson(9, 10)
    assert round(low, 4) == 0.5958 and round(high, 4) == 0.9821
    # at the ends the interval still holds the rate exactly: 0 in 12 from 0, n in n to 1
    # (in floating point centre + half-width comes out a hair above 1 for some n, e.g. 16)
    assert wilson(0, 12)[0] == 0.0
    assert all(wilson(n, n)[1] == 1.0 for n in range(1, 100))
    # z^2 / n with n = 1: low = 1 / (1 + z^2) for 1 in 1
    assert wilson(1, 1)[0] == pytest.approx(1 / (1 + Z95 * Z95), abs=1e-12)


def _row(index: int, seats: list[str], scores: list[float], winners: list[int]) -> GameResult:
    # lengths 10, 20, 30, 40 and durations 0.5, 1.0, 1.5, 2.0 by index
    return GameResult("t", index, "yukon", {"players": len(seats)}, seats, index, scores,
                      winners, 10 * (index + 1), 30, 0.5 * (index + 1))


ROWS = [
    _row(0, ["a", "b"], [5.0, 1.0], [0]),  # a wins
    _row(1, ["b", "a"], [3.0, 3.0], [0, 1]),  # shared: half a win each
    _row(2, ["a", "b", "b"], [2.0, 4.0, 6.0], [2]),  # b's second seat wins
    _row(3, ["a", "b"], [0.0, 0.0], []),  # nobody won (a cut-short game): no wins
]


def test_summary_by_hand() -> None:
    summary = summarise(ROWS, agents=["c", "a"])
    assert summary["games"] == 4
    assert summary["players"] == [2, 3]
    assert summary["mean_length"] == 25.0  # (10 + 20 + 30 + 40) / 4
    assert summary["seconds_per_game"] == 1.25  # (0.5 + 1 + 1.5 + 2) / 4
    rows = {r["agent"]: r for r in summary["agents"]}
    assert list(summary["agents"][0]) == ["agent", "mu", "sigma", "ordinal", "seats", "wins",
                                          "win_rate", "win_low", "win_high", "mean_score"]
    # a: 4 seats; wins 1 + 1/2 + 0 + 0 = 1.5; scores 5 + 3 + 2 + 0 = 10
    # b: 5 seats; wins 0 + 1/2 + 1 + 0 = 1.5; scores 1 + 3 + 4 + 6 + 0 = 14
    # c: named but never seated
    expected = {
        "a": (4, 1.5, 0.375, 2.5),
        "b": (5, 1.5, 0.3, 2.8),
        "c": (0, 0.0, 0.0, 0.0),
    }
    for name, (seats, wins, rate, mean) in expected.items():
        r = rows[name]
        assert (r["seats"], r["wins"], r["win_rate"]) == (seats, wins, rate)
        assert r["mean_score"] == pytest.approx(mean, abs=1e-12)
        assert (r["win_low"], r["win_high"]) == wilson(wins, seats)
    # c never played: openskill's initial rating
    fresh = PlackettLuce().rating()
    assert (rows["c"]["mu"], rows["c"]["sigma"]) == (fresh.mu, fresh.sigma)
    # the table is sorted by ordinal, best first
    ordinals = [r["ordinal"] for r in summary["agents"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_head_to_head_by_hand() -> None:
    head = summarise(ROWS, agents=["c"])["head_to_head"]
    # ranks: game 0 a 1, b 2 (a ahead); game 1 both 1 (half each); game 2 a 3 (score 2,
    # behind seat 1's 4), b 1 (best seat) (b ahead); game 3 nobody won and both scored 0:
    # both rank 2 (half each). a over b: 1 + 1/2 + 0 + 1/2 = 2 of 4; b over a the same.
    for a, b in (("a", "b"), ("b", "a")):
        cell = head[a][b]
        assert list(cell) == ["games", "wins", "rate", "low", "high"]
        assert (cell["games"], cell["wins"], cell["rate"]) == (4, 2.0, 0.5)
        assert (cell["low"], cell["high"]) == wilson(2.0, 4)
    # c met nobody: no cells, either way
    assert head["c"] == {} and "c" not in head["a"] and "a" not in head["a"]


def test_an_empty_summary() -> None:
    assert summarise([]) == {"games": 0, "players": [], "agents": [], "head_to_head": {},
                             "mean_length": 0.0, "seconds_per_game": 0.0}

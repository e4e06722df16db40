"""Ratings pinned to openskill's own Plackett-Luce update, computed here by hand.

Each expected rating is ``PlackettLuce().rate`` of the teams and ranks written out in the
test, not re-derived the way :func:`summarise` derives them: an agent in several seats is
one team ranked by its best seat, tied seats share a rank, and every game with two or more
distinct agents moves the ratings, however many teams it has.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from motherlode.arena.ratings import summarise
from motherlode.arena.tournament import GameResult


def game(index: int, seats: list[str], scores: list[float], winners: list[int]) -> GameResult:
    return GameResult(
        "t", index, "yukon", {"players": len(seats)}, seats, index, scores, winners, 10, 30, 0.1
    )


def agents(summary: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {a["agent"]: (a["mu"], a["sigma"]) for a in summary["agents"]}


def reference(
    games: list[tuple[list[str], list[float]]], names: list[str]
) -> dict[str, tuple[float, float]]:
    """openskill's update, game by game: each game is its teams (agents) and their ranks."""
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    for teams, ranks in games:
        new = model.rate([[ratings[t]] for t in teams], ranks=ranks)
        for t, team in zip(teams, new, strict=True):
            ratings[t] = team[0]
    return {n: (r.mu, r.sigma) for n, r in ratings.items()}


def test_an_agent_in_two_seats_is_one_team_ranked_by_its_best_seat() -> None:
    # a wins in seat 0 and is last in seat 2: one team, rank 1; b second, c third
    row = game(0, ["a", "b", "a", "c"], [9.0, 5.0, 1.0, 3.0], [0])
    expected = reference([(["a", "b", "c"], [1.0, 2.0, 3.0])], ["a", "b", "c"])
    assert agents(summarise([row])) == expected
    # the other way round: a's better seat is the later one
    row = game(0, ["a", "b", "a", "c"], [1.0, 5.0, 9.0, 3.0], [2])
    assert agents(summarise([row])) == expected
    summary = summarise([row])
    assert {a["agent"]: a["seats"] for a in summary["agents"]} == {"a": 2, "b": 1, "c": 1}
    assert summary["head_to_head"]["a"]["b"]["wins"] == 1.0
    assert summary["head_to_head"]["b"]["a"]["wins"] == 0.0


def test_tied_seats_share_a_rank_and_count_half_head_to_head() -> None:
    row = game(0, ["a", "b", "c"], [9.0, 4.0, 4.0], [0])
    assert row.ranks() == [1, 2, 2]
    summary = summarise([row])
    assert agents(summary) == reference([(["a", "b", "c"], [1.0, 2.0, 2.0])], ["a", "b", "c"])
    h2h = summary["head_to_head"]
    assert (h2h["b"]["c"]["wins"], h2h["c"]["b"]["wins"]) == (0.5, 0.5)
    assert (h2h["b"]["c"]["games"], h2h["b"]["c"]["rate"]) == (1, 0.5)
    # a shared victory: both winners rank 1 and split the win
    shared = game(0, ["a", "b", "c"], [7.0, 7.0, 2.0], [0, 1])
    summary = summarise([shared])
    assert agents(summary) == reference([(["a", "b", "c"], [1.0, 1.0, 2.0])], ["a", "b", "c"])
    assert summary["head_to_head"]["a"]["b"]["wins"] == 0.5


def test_games_of_three_and_four_teams_update_in_index_order() -> None:
    rows = [
        game(1, ["c", "d", "a", "b"], [2.0, 8.0, 5.0, 1.0], [1]),
        game(0, ["a", "b", "c"], [3.0, 6.0, 1.0], [1]),
        game(2, ["b", "b", "d"], [2.0, 2.0, 9.0], [2]),  # two teams, b twice
    ]
    expected = reference(
        [
            (["a", "b", "c"], [2.0, 1.0, 3.0]),
            (["c", "d", "a", "b"], [3.0, 1.0, 2.0, 4.0]),
            (["b", "d"], [2.0, 1.0]),
        ],
        ["a", "b", "c", "d"],
    )
    summary = summarise(rows)
    assert agents(summary) == expected
    # every rating moved from openskill's default
    default = PlackettLuce().rating()
    assert all(mu != default.mu and sigma < default.sigma for mu, sigma in expected.values())
    assert [a["agent"] for a in summary["agents"]] == sorted(
        expected, key=lambda n: -(expected[n][0] - 3 * expected[n][1])
    )


def test_a_game_of_one_agent_in_every_seat_rates_nobody() -> None:
    summary = summarise([game(0, ["a", "a"], [3.0, 1.0], [0])])
    default = PlackettLuce().rating()
    assert agents(summary) == {"a": (default.mu, default.sigma)}
    assert summary["head_to_head"] == {"a": {}}

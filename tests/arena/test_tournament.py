"""Tournaments: fair schedules, stores, resuming, ratings, backends (local, processes, Ray)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import motherlode
from motherlode.arena.analyse import analyse
from motherlode.arena.ratings import summarise, wilson
from motherlode.arena.runner import run_tournament
from motherlode.arena.store import StoreError, open_store
from motherlode.arena.tournament import GameResult, lineups, schedule

SPECS = ["greedy", "random", "mcts:iterations=20"]


def strip(rows: list[GameResult]) -> list[tuple[object, ...]]:
    """What decides a game, without its timing."""
    return [
        (r.index, tuple(r.seats), r.seed, tuple(r.scores), tuple(r.winners), r.length) for r in rows
    ]


@pytest.mark.parametrize(("agents", "players"), [(2, 2), (3, 2), (2, 4), (4, 3), (1, 3)])
def test_every_agent_sits_in_every_seat_equally_often(agents: int, players: int) -> None:
    specs = [f"a{i}" for i in range(agents)]
    seatings = lineups(specs, players)
    seats = Counter((spec, seat) for lineup in seatings for seat, spec in enumerate(lineup))
    for spec in specs:
        counts = {seats[(spec, seat)] for seat in range(players)}
        assert len(counts) == 1, (spec, seats)
    assert all(len(lineup) == players for lineup in seatings)


def test_a_rotation_block_shares_its_deal() -> None:
    tasks = schedule("yukon", {"players": 3}, ["a", "b", "c"], games=7, seed=10)
    assert [t.deal_seed for t in tasks] == [10, 10, 10, 11, 11, 11, 12]
    assert len({t.agent_seeds for t in tasks}) == 7


def test_resuming_gives_the_same_results_as_one_run(tmp_path: Path) -> None:
    game = motherlode.load("yukon")
    whole = open_store(tmp_path / "whole.sqlite")
    run_tournament(game, SPECS, 8, store=whole, seed=3, progress=False)
    parts = open_store(tmp_path / "parts.sqlite")
    first = run_tournament(game, SPECS, 5, store=parts, seed=3, progress=False)
    second = run_tournament(game, SPECS, 8, store=parts, seed=3, progress=False)
    assert (first["played"], second["played"], second["skipped"]) == (5, 3, 5)
    assert strip(parts.rows()) == strip(whole.rows())
    assert (
        second["summary"]["agents"]
        == run_tournament(game, SPECS, 8, store=whole, seed=3, progress=False)["summary"]["agents"]
    )


def test_parquet_store_round_trips_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="the Parquet store needs pyarrow")
    game = motherlode.load("yukon", players=3)
    store = open_store(tmp_path / "r.parquet")
    report = run_tournament(game, ["greedy", "random"], 6, store=store, seed=1, progress=False)
    store.close()
    again = open_store(tmp_path / "r.parquet")
    assert again.done(report["tournament"]) == set(range(6))
    rows = again.rows(game="yukon")
    assert len(rows) == 6 and rows[0].config["players"] == 3 and len(rows[0].seats) == 3
    more = run_tournament(game, ["greedy", "random"], 9, store=again, seed=1, progress=False)
    assert more["played"] == 3
    with pytest.raises(StoreError, match="unknown store format"):
        open_store(tmp_path / "x", "csv")


def test_process_workers_give_the_same_results(tmp_path: Path) -> None:
    game = motherlode.load("yukon")
    serial = open_store(tmp_path / "serial.sqlite")
    pooled = open_store(tmp_path / "pooled.sqlite")
    run_tournament(game, SPECS, 6, store=serial, seed=2, progress=False)
    run_tournament(game, SPECS, 6, store=pooled, seed=2, workers=2, progress=False)
    assert strip(pooled.rows()) == strip(serial.rows())


def test_ray_backend_gives_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    game = motherlode.load("yukon")
    serial = open_store(tmp_path / "serial.sqlite")
    on_ray = open_store(tmp_path / "ray.sqlite")
    run_tournament(game, SPECS, 6, store=serial, seed=4, progress=False)
    report = run_tournament(
        game, SPECS, 6, store=on_ray, seed=4, backend="ray", workers=2, progress=False
    )
    assert report["played"] == 6
    assert strip(on_ray.rows()) == strip(serial.rows())


def sweep(winner: str, loser: str, games: int, game: str = "yukon") -> list[GameResult]:
    """``games`` 2-player games that ``winner`` wins, the seats alternating."""
    return [
        GameResult("t", i, game, {"players": 2}, seats, i, scores, winners, 10, 30, 0.1)
        for i in range(games)
        for seats, scores, winners in [
            ([winner, loser], [9.0, 1.0], [0]) if i % 2 else ([loser, winner], [1.0, 9.0], [1])
        ]
    ]


def test_ratings_rank_the_stronger_agent_first() -> None:
    summary = summarise(sweep("strong", "weak", 20))
    assert [a["agent"] for a in summary["agents"]] == ["strong", "weak"]
    strong = summary["agents"][0]
    assert strong["win_rate"] == 1.0 and strong["win_low"] > 0.8
    assert summary["head_to_head"]["strong"]["weak"]["rate"] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_shutout_has_intervals_that_contain_its_rates_and_plots(tmp_path: Path) -> None:
    # 12 wins in 12 games: rounding put the loser's Wilson bound 2.8e-17 above its rate of
    # 0, and the plot's error bar below zero stopped `motherlode arena` with a traceback
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib")
    from motherlode.arena.plot import plot_tournament

    summary = summarise(sweep("mcts", "random", 12, game="eureka"))
    for agent in summary["agents"]:
        assert agent["win_low"] <= agent["win_rate"] <= agent["win_high"]
    assert [(a["win_rate"], a["win_low"]) for a in summary["agents"]][1] == (0.0, 0.0)
    assert wilson(12, 12)[1] == 1.0
    report = {"game": "eureka", "tournament": "t", "summary": summary}
    png = plot_tournament(report, tmp_path / "shutout.png")
    assert png.read_bytes().startswith(b"\x89PNG")


def test_shared_victories_are_split_and_ranks_follow_scores() -> None:
    row = GameResult(
        "t", 0, "g", {"players": 3}, ["a", "b", "c"], 0, [5.0, 5.0, 2.0], [0, 1], 10, 10, 0.1
    )
    assert row.ranks() == [1, 1, 2]
    summary = summarise([row])
    wins = {a["agent"]: a["wins"] for a in summary["agents"]}
    assert wins == {"a": 0.5, "b": 0.5, "c": 0.0}


def test_analyse_groups_by_the_config_options_that_vary() -> None:
    rows = [
        GameResult(
            "t",
            i,
            "yukon",
            {"players": n, "expansion": e},
            ["r"] * n,
            i,
            [float(i % n == s) for s in range(n)],
            [i % n],
            20 + i,
            60,
            0.1,
        )
        for i, (n, e) in enumerate([(2, False), (2, True), (3, False)] * 4)
    ]
    result = analyse(rows)
    assert result["by"] == ["players", "expansion"]
    labels = [g["label"] for g in result["groups"]]
    assert labels == [
        "players=2, expansion=False",
        "players=2, expansion=True",
        "players=3, expansion=False",
    ]
    assert all(g["games"] == 4 for g in result["groups"])
    only_players = analyse(rows, by=["players"])
    assert [g["games"] for g in only_players["groups"]] == [8, 4]
    json.dumps(result)

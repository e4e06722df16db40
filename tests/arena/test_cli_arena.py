"""`motherlode arena` and `motherlode analyse` end to end: output, files, resume, errors."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from motherlode.cli import app

runner = CliRunner()

PLOTS = importlib.util.find_spec("matplotlib") is not None
"""Without the optional ``plot`` extra, the tests run without plots and skip what needs one."""


def arena(tmp_path: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(
        app,
        [
            "arena",
            "yukon",
            "--agents",
            "mcts:iterations=20,rollout=none;greedy;random",
            "--games",
            "6",
            "--store",
            str(tmp_path / "r.sqlite"),
            *(["--plot", str(tmp_path / "t.png")] if PLOTS else ["--no-plot"]),
            "--json",
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_arena_stores_rates_plots_and_resumes(tmp_path: Path) -> None:
    report = arena(tmp_path)
    assert report["played"] == 6 and report["skipped"] == 0
    agents = {a["agent"] for a in report["summary"]["agents"]}
    assert agents == {"mcts:iterations=20,rollout=none", "greedy", "random"}
    assert sum(a["seats"] for a in report["summary"]["agents"]) == 12
    again = arena(tmp_path)
    assert again["played"] == 0 and again["skipped"] == 6
    assert again["summary"]["agents"] == report["summary"]["agents"]
    if not PLOTS:
        pytest.skip("the plot needs matplotlib (pip install 'motherlode[plot]')")
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_arena_table_in_the_terminal_and_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="the Parquet store needs pyarrow")
    result = runner.invoke(
        app,
        [
            "arena",
            "yukon",
            "--players",
            "3",
            "--agents",
            "greedy,random",
            "--games",
            "3",
            "--store",
            str(tmp_path / "r.parquet"),
            "--no-plot",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "head to head" in result.output
    assert list((tmp_path / "r.parquet").glob("part-*.parquet"))


def test_analyse_reports_seat_advantage_lengths_and_scores(tmp_path: Path) -> None:
    arena(tmp_path)
    store = str(tmp_path / "r.sqlite")
    result = runner.invoke(app, ["analyse", "yukon", "--store", store, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    group = data["groups"][0]
    assert group["games"] == 6 and group["players"] == 2
    assert {"first_player_advantage", "length", "winner_score", "seats"} <= set(group)
    if not PLOTS:
        pytest.skip("the plot needs matplotlib (pip install 'motherlode[plot]')")
    png = tmp_path / "a.png"
    result = runner.invoke(app, ["analyse", "yukon", "--store", store, "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "first-player advantage" in result.output
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_arena_and_analyse_errors_are_clear(tmp_path: Path) -> None:
    cases = [
        (["arena", "yukon", "--agents", "wizard"], "unknown agent 'wizard'"),
        (["arena", "yukon", "--agents", "mcts:speed=3"], "no parameter 'speed'"),
        (["arena", "yukon", "--backend", "spark"], "--backend must be one of local, ray"),
        (
            ["arena", "yukon", "--format", "csv", "--store", str(tmp_path / "x")],
            "unknown store format",
        ),
        (["arena", "yukon", "--agents", "alphabeta", "--players", "3"], "2-player"),
        (["analyse", "yukon", "--store", str(tmp_path / "none.sqlite")], "no results store"),
    ]
    for args, message in cases:
        if args[0] == "arena" and "--store" not in args:
            args = [*args, "--store", str(tmp_path / "never.sqlite")]
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert not (tmp_path / "never.sqlite").exists()
    arena(tmp_path)
    result = runner.invoke(app, ["analyse", "eureka", "--store", str(tmp_path / "r.sqlite")])
    assert result.exit_code == 2 and "no stored eureka games" in result.output


def test_arena_agents_help_lists_agents_and_parameters() -> None:
    result = runner.invoke(app, ["arena", "chinagold", "--agents", "help"])
    assert result.exit_code == 0, result.output
    assert "mcts:" in result.output and "rollout=random|greedy|none" in result.output
    assert "greedy" in result.output

"""The command line, end to end through typer's runner: output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from motherlode.cli import app, parse_game_options
from motherlode.core.records import GameRecord

runner = CliRunner()


def test_games_lists_every_game_with_players_and_options() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    rows = {row["game"]: row for row in json.loads(result.stdout)}
    assert rows["yukon"]["players"] == "2-4"
    assert {o["option"] for o in rows["yukon"]["options"]} >= {"players", "expansion"}


def test_simulate_json_summarises_wins_scores_lengths_and_speed() -> None:
    result = runner.invoke(
        app, ["simulate", "yukon", "--agents", "random,greedy", "--games", "20", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 20
    assert sum(a["wins"] for a in summary["agents"]) == 20
    assert summary["agents"][1]["agent"] == "greedy"
    assert summary["agents"][1]["wins"] > summary["agents"][0]["wins"]
    assert summary["games_per_second"] > 0


def test_simulate_is_reproducible_from_its_seed() -> None:
    args = ["simulate", "yukon", "--agents", "random", "--games", "5", "--seed", "3", "--json"]
    a, b = (json.loads(runner.invoke(app, args).stdout) for _ in range(2))
    assert a["agents"] == b["agents"] and a["length"] == b["length"]


def test_play_bots_saves_a_record_that_replay_verifies(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    svg = tmp_path / "board.svg"
    result = runner.invoke(
        app,
        ["play", "yukon", "--players", "3", "--expansion", "--seat", "greedy", "--seat", "random",
         "--seat", "random", "--seed", "5", "--record", str(record), "--svg", str(svg)],
    )
    assert result.exit_code == 0, result.output
    assert "Result:" in result.output
    rec = GameRecord.load(record)
    assert rec.game == "yukon" and rec.config["expansion"] is True and rec.seed == 5
    assert svg.read_text().startswith("<svg")
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output


def test_play_human_picks_by_number_and_notation_and_bad_input_is_asked_again(
    tmp_path: Path,
) -> None:
    # P1 (human) answers: garbage, an out-of-range number, then "1" each time it is asked
    answers = "nonsense\n999\n" + "1\n" * 40
    result = runner.invoke(
        app,
        ["play", "yukon", "--seat", "human", "--seat", "greedy", "--seed", "2",
         "--record", str(tmp_path / "r.json")],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    assert "cannot read action 'nonsense'" in result.output
    assert "pick a number from 1 to" in result.output
    assert "record saved" in result.output


def test_replay_rejects_a_tampered_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    runner.invoke(
        app, ["play", "yukon", "--seat", "random", "--seat", "random", "--seed", "1",
              "--record", str(record), "--quiet"],
    )
    data = json.loads(record.read_text())
    data["scores"] = [999, 0]
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2
    assert "replay gives" in result.output
    data["actions"][60] = "zz9"
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "step 61" in result.output
    record.write_text("{not json")
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "not JSON" in result.output
    assert "Traceback" not in result.output


def test_render_writes_an_svg_with_clickable_legal_moves(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = runner.invoke(app, ["render", "yukon", "--seed", "3", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert svg.startswith("<svg") and 'data-action="' in svg


def test_bad_arguments_get_a_clear_error_and_no_traceback() -> None:
    cases = [
        (["play", "chess"], "unknown game 'chess'"),
        (["simulate", "yukon", "--players", "7"], "players must be 2..4"),
        (["simulate", "yukon", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["simulate", "yukon", "--expansion", "maybe"], "expansion"),
        (["render", "yukon", "--position", "garbage"], "a position has 11 fields"),
        (["simulate", "yukon", "--colour", "red"], "colour"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_game_options_parse_flags_values_and_negations() -> None:
    assert parse_game_options(["--players", "3", "--expansion", "--no-hard", "--map=2"]) == {
        "players": "3",
        "expansion": True,
        "hard": False,
        "map": "2",
    }

"""Trajectories: arena and simulate write every game's record; the records replay; the
Parquet dataset holds each decision with its seat, action, tensor, mask and reward."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import motherlode
from motherlode.arena.store import open_store
from motherlode.cli import app
from motherlode.core.errors import RecordError
from motherlode.core.records import GameRecord, replay

pq = pytest.importorskip("pyarrow.parquet")

from motherlode.research.trajectories import export_dataset  # noqa: E402

runner = CliRunner()


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_arena_records_replay_to_the_stored_scores(tmp_path: Path) -> None:
    store = tmp_path / "r.sqlite"
    folder = tmp_path / "games"
    _invoke("arena", "yukon", "--agents", "greedy;random", "--games", "4", "--store",
            str(store), "--records", str(folder), "--no-plot", "--json")  # fmt: skip
    rows = {r.index: r for r in open_store(store).rows()}
    files = sorted(folder.glob("*.json"))
    assert [int(f.stem.rsplit("-", 1)[1]) for f in files] == [0, 1, 2, 3]
    for path in files:
        record = GameRecord.load(path)
        row = rows[int(path.stem.rsplit("-", 1)[1])]
        assert (record.seed, record.players, record.scores) == (row.seed, row.seats, row.scores)
        assert replay(record).scores() == row.scores
        assert len(record.actions) == row.actions
    assert "verified" in _invoke("replay", str(files[0]))


def test_simulate_records_and_the_dataset_of_their_steps(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    _invoke("simulate", "yukon", "--agents", "greedy;random", "--games", "3", "--seed", "7",
            "--records", str(folder), "--json")  # fmt: skip
    files = sorted(folder.glob("*.json"))
    assert [f.name for f in files] == ["yukon-00000.json", "yukon-00001.json", "yukon-00002.json"]
    out = tmp_path / "steps.parquet"
    assert "written to" in _invoke("dataset", str(folder), "--out", str(out))
    table = pq.read_table(out)
    meta = table.schema.metadata
    shape = json.loads(meta[b"observation_shape"])
    assert meta[b"game"] == b"yukon"
    data = table.to_pylist()
    game = motherlode.load("yukon")
    for path in files:
        record = GameRecord.load(path)
        rows = [r for r in data if r["record"] == path.name]
        assert record.seed == rows[0]["seed"] and rows[-1]["last"]
        assert [r["step"] for r in rows] == list(range(len(rows)))
        # replay the decisions: each row's tensor and mask are the position's before the action
        state = game.new_initial_state()
        texts = iter(record.actions)
        for row in rows:
            while state.is_chance_node():
                state.apply_string(next(texts))
            assert row["seat"] == state.current_player()
            assert np.array_equal(
                np.asarray(row["observation"], np.float32).reshape(shape),
                state.observation_tensor(row["seat"]),
            )
            assert np.flatnonzero(row["mask"]).tolist() == state.legal_actions()
            assert row["action"] == state.apply_string(next(texts))
        final = replay(record)
        for seat in range(2):
            mine = [r for r in rows if r["seat"] == seat]
            assert {r["final_return"] for r in mine} == {final.returns()[seat]}
            start = motherlode.deal(game, seed=record.seed or 0)
            gained = sum(r["reward"] for r in mine)
            assert gained == pytest.approx(final.scores()[seat] - start.scores()[seat])


def test_a_dataset_holds_one_game_and_config(tmp_path: Path) -> None:
    _invoke("simulate", "yukon", "--games", "1", "--records", str(tmp_path / "a"), "--json")
    _invoke("simulate", "yukon", "--players", "3", "--games", "1", "--records",
            str(tmp_path / "b"), "--json")  # fmt: skip
    with pytest.raises(RecordError, match="one game and config a dataset"):
        export_dataset([tmp_path / "a", tmp_path / "b"], tmp_path / "x.parquet")
    result = runner.invoke(app, ["dataset", str(tmp_path / "nothing"), "--out", "x.parquet"])
    assert result.exit_code == 2 and "no record file or folder" in result.output

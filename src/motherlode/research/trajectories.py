"""Trajectories: game records as a dataset of steps, one Parquet row per decision.

``motherlode arena ... --records DIR`` and ``motherlode simulate ... --records DIR`` write
each game's record (actions, seed, players, final scores: DESIGN.md §3) to ``DIR``; each
replays with ``motherlode replay FILE``. :func:`export_dataset` (the command
``motherlode dataset DIR --out steps.parquet``) replays them, verified step by step, and
writes per decision:

=================  ==================================================================
``record``         the record's file name (one game)
``game``           the game's name; ``seed`` the seed that drove its chance
``step``           the decision's number in its game (0, 1, ...)
``seat``           the seat that decided (0-based)
``action``         the decision id; ``action_text`` its notation
``observation``    ``observation_tensor(seat)`` before the action, flat float32 (its shape
                   is the file's ``observation_shape`` metadata)
``mask``           the legal decision ids as a 0/1 int8 vector
``reward``         the deciding seat's score change from this action up to the next
                   decision (chance it set off included): the rulebook's points
``final_return``   the deciding seat's return at the game's end (+1 win, -1 loss, 0 tie)
``last``           true on the game's last decision
=================  ==================================================================

All records of a dataset are of one game and config (one tensor shape).

>>> import tempfile, pathlib, motherlode
>>> from motherlode.arena.simulate import simulate
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = simulate(motherlode.load("yukon"), ["greedy", "random"], 2, progress=False,
...              records=folder / "games")
>>> table = export_dataset([folder / "games"], folder / "steps.parquet")
>>> sorted(set(table.column("record").to_pylist()))
['yukon-00000.json', 'yukon-00001.json']
>>> table.column("seat").to_pylist()[:2]
[0, 1]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from motherlode.core.errors import MotherlodeError, RecordError
from motherlode.core.protocol import State
from motherlode.core.records import GameRecord, check_record_versions, load_game, step_failure

__all__ = ["COLUMNS", "export_dataset", "record_files", "steps"]

COLUMNS = (
    "record",
    "game",
    "seed",
    "step",
    "seat",
    "action",
    "action_text",
    "observation",
    "mask",
    "reward",
    "final_return",
    "last",
)


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The record files named: files as given, folders' ``*.json`` sorted by name."""
    out: list[Path] = []
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            out.extend(sorted(path.glob("*.json")))
        elif path.is_file():
            out.append(path)
        else:
            raise RecordError(f"no record file or folder {str(path)!r}")
    if not out:
        raise RecordError("no game records found (*.json files, or folders holding them)")
    return out


def _apply(record: GameRecord, state: State, index: int, text: str) -> int:
    try:
        return state.apply_string(text)
    except MotherlodeError as err:
        game = state.game
        raise RecordError(step_failure(record, game, index, text, err)) from None


def steps(record: GameRecord, name: str = "") -> Iterator[dict[str, Any]]:
    """The decision rows of ``record`` (see the module docstring), replayed and checked."""
    game = load_game(record)
    check_record_versions(record, game)
    state = game.new_initial_state()
    pending: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []
    before = 0.0
    for index, text in enumerate(record.actions, start=1):
        if state.is_chance_node():
            _apply(record, state, index, text)
            continue
        if pending is not None:
            pending["reward"] = float(state.scores()[pending["seat"]]) - before
            rows.append(pending)
        seat = state.current_player()
        mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
        mask[state.legal_actions()] = 1
        observation = np.asarray(state.observation_tensor(seat), dtype=np.float32).ravel()
        before = float(state.scores()[seat])
        action = _apply(record, state, index, text)
        pending = {
            "record": name,
            "game": game.name,
            "seed": record.seed,
            "step": len(rows),
            "seat": seat,
            "action": action,
            "action_text": text,
            "observation": observation,
            "mask": mask,
        }
    if pending is not None:
        pending["reward"] = float(state.scores()[pending["seat"]]) - before
        rows.append(pending)
    returns = state.returns() if state.is_terminal() else [0.0] * game.num_players
    for row in rows:
        row["final_return"] = float(returns[row["seat"]])
        row["last"] = False
    if rows:
        rows[-1]["last"] = True
    yield from rows


def export_dataset(paths: Iterable[str | Path], out: str | Path) -> Any:
    """Write the steps of every record under ``paths`` to the Parquet file ``out``.

    Returns the ``pyarrow.Table`` written. Its schema metadata holds ``game``,
    ``config`` (JSON) and ``observation_shape`` (JSON).
    """
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    files = record_files(paths)
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    first: GameRecord | None = None
    shape: tuple[int, ...] = ()
    for path in files:
        record = GameRecord.load(path)
        if first is None:
            first = record
            shape = tuple(load_game(record).observation_tensor_shape())
        elif (record.game, record.config) != (first.game, first.config):
            raise RecordError(
                f"{path}: a {record.game} game with config {record.config}; this dataset holds"
                f" {first.game} with {first.config} (one game and config a dataset)"
            )
        for row in steps(record, path.name):
            for name in COLUMNS:
                columns[name].append(row[name])
    assert first is not None  # record_files never returns an empty list
    arrays = {
        name: (
            pa.array(values, pa.list_(pa.float32()))
            if name == "observation"
            else pa.array(values, pa.list_(pa.int8()))
            if name == "mask"
            else pa.array(values)
        )
        for name, values in columns.items()
    }
    metadata = {
        "game": first.game,
        "config": json.dumps(first.config, sort_keys=True),
        "observation_shape": json.dumps(list(shape)),
    }
    table = pa.table(arrays, metadata=metadata)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, out)
    return table

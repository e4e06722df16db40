"""Results stores: one row per game, appended as games finish, so a run can resume.

* :class:`SQLiteStore` (the default): a single file, table ``games`` with primary key
  ``(tournament, idx)``; lists and the config are JSON text.
* :class:`ParquetStore` (``--format parquet``, needs ``pyarrow``): a directory of
  Parquet part files, one per flush, readable as one dataset by pandas, polars, DuckDB or
  Spark (``pd.read_parquet(path)``); lists are native Parquet lists.

:func:`open_store` picks one from the path (``*.parquet`` or an existing directory:
Parquet; otherwise SQLite) or from an explicit format.

>>> import tempfile, pathlib
>>> from motherlode.arena.tournament import GameResult
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> store = open_store(path)
>>> store.add([GameResult("t", 0, "yukon", {"players": 2}, ["a", "b"], 0, [3.0, 1.0], [0], 20,
...                       90, 0.1)])
>>> store.done("t"), [r.scores for r in store.rows(tournament="t")]
({0}, [[3.0, 1.0]])
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Protocol

from motherlode.arena.tournament import GameResult
from motherlode.core.errors import MotherlodeError

FORMATS = ("sqlite", "parquet")


class StoreError(MotherlodeError):
    """A results store cannot be opened, read or written."""


class ResultStore(Protocol):
    """Where tournament results go: append rows, list what is done, read rows back."""

    path: Path

    def add(self, results: list[GameResult]) -> None: ...

    def flush(self) -> None: ...

    def done(self, tournament: str) -> set[int]: ...

    def rows(
        self, *, tournament: str | None = None, game: str | None = None
    ) -> list[GameResult]: ...

    def close(self) -> None: ...


_COLUMNS = (
    "tournament",
    "idx",
    "game",
    "config",
    "seats",
    "seed",
    "scores",
    "winners",
    "length",
    "actions",
    "duration",
    "finished",
)


class SQLiteStore:
    """Results in one SQLite file (table ``games``), written one game at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path)
            self.db.execute(
                """CREATE TABLE IF NOT EXISTS games (
                    tournament TEXT NOT NULL, idx INTEGER NOT NULL, game TEXT NOT NULL,
                    config TEXT NOT NULL, seats TEXT NOT NULL, seed INTEGER NOT NULL,
                    scores TEXT NOT NULL, winners TEXT NOT NULL, length INTEGER NOT NULL,
                    actions INTEGER NOT NULL, duration REAL NOT NULL, finished TEXT NOT NULL,
                    PRIMARY KEY (tournament, idx))"""
            )
            self.db.execute("CREATE INDEX IF NOT EXISTS games_by_game ON games (game)")
            self.db.commit()
        except sqlite3.Error as err:
            raise StoreError(f"cannot open results store {str(self.path)!r}: {err}") from None

    def add(self, results: list[GameResult]) -> None:
        rows = [
            (
                r.tournament,
                r.index,
                r.game,
                json.dumps(r.config, sort_keys=True),
                json.dumps(r.seats),
                r.seed,
                json.dumps(r.scores),
                json.dumps(r.winners),
                r.length,
                r.actions,
                r.duration,
                r.finished,
            )
            for r in results
        ]
        self.db.executemany(
            f"INSERT OR REPLACE INTO games ({', '.join(_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(_COLUMNS))})",
            rows,
        )
        self.db.commit()

    def flush(self) -> None:
        self.db.commit()

    def done(self, tournament: str) -> set[int]:
        cur = self.db.execute("SELECT idx FROM games WHERE tournament = ?", (tournament,))
        return {int(row[0]) for row in cur}

    def rows(self, *, tournament: str | None = None, game: str | None = None) -> list[GameResult]:
        where, args = [], []
        if tournament is not None:
            where.append("tournament = ?")
            args.append(tournament)
        if game is not None:
            where.append("game = ?")
            args.append(game)
        sql = f"SELECT {', '.join(_COLUMNS)} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY tournament, idx"
        out = []
        for row in self.db.execute(sql, args):
            out.append(
                GameResult(
                    tournament=row[0],
                    index=int(row[1]),
                    game=row[2],
                    config=json.loads(row[3]),
                    seats=json.loads(row[4]),
                    seed=int(row[5]),
                    scores=[float(x) for x in json.loads(row[6])],
                    winners=[int(x) for x in json.loads(row[7])],
                    length=int(row[8]),
                    actions=int(row[9]),
                    duration=float(row[10]),
                    finished=row[11],
                )
            )
        return out

    def close(self) -> None:
        self.db.close()


class ParquetStore:
    """Results as a directory of Parquet part files (buffered; a part per flush)."""

    def __init__(self, path: str | Path, buffer: int = 50) -> None:
        try:
            import pyarrow  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        except ImportError:
            raise StoreError(
                "the Parquet store needs pyarrow: pip install 'motherlode[parquet]'"
            ) from None
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"Parquet store {str(self.path)!r} must be a directory")
        self.path.mkdir(parents=True, exist_ok=True)
        self.buffer_size = buffer
        self.pending: list[GameResult] = []
        self._parts = 0

    def add(self, results: list[GameResult]) -> None:
        self.pending.extend(results)
        if len(self.pending) >= self.buffer_size:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

        rows = self.pending
        table = pa.table(
            {
                "tournament": pa.array([r.tournament for r in rows], pa.string()),
                "idx": pa.array([r.index for r in rows], pa.int64()),
                "game": pa.array([r.game for r in rows], pa.string()),
                "config": pa.array([json.dumps(r.config, sort_keys=True) for r in rows]),
                "seats": pa.array([r.seats for r in rows], pa.list_(pa.string())),
                "seed": pa.array([r.seed for r in rows], pa.int64()),
                "scores": pa.array([r.scores for r in rows], pa.list_(pa.float64())),
                "winners": pa.array([r.winners for r in rows], pa.list_(pa.int64())),
                "length": pa.array([r.length for r in rows], pa.int64()),
                "actions": pa.array([r.actions for r in rows], pa.int64()),
                "duration": pa.array([r.duration for r in rows], pa.float64()),
                "finished": pa.array([r.finished for r in rows], pa.string()),
            }
        )
        self._parts += 1
        name = f"part-{time.time_ns()}-{self._parts:05d}.parquet"
        pq.write_table(table, self.path / name)
        self.pending = []

    def _read(self) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

        out: list[dict[str, Any]] = []
        for part in sorted(self.path.glob("part-*.parquet")):
            out.extend(pq.read_table(part).to_pylist())
        return out

    def done(self, tournament: str) -> set[int]:
        stored = {int(r["idx"]) for r in self._read() if r["tournament"] == tournament}
        return stored | {r.index for r in self.pending if r.tournament == tournament}

    def rows(self, *, tournament: str | None = None, game: str | None = None) -> list[GameResult]:
        latest: dict[tuple[str, int], GameResult] = {}
        for r in self._read():
            result = GameResult(
                tournament=r["tournament"],
                index=int(r["idx"]),
                game=r["game"],
                config=json.loads(r["config"]),
                seats=list(r["seats"]),
                seed=int(r["seed"]),
                scores=[float(x) for x in r["scores"]],
                winners=[int(x) for x in r["winners"]],
                length=int(r["length"]),
                actions=int(r["actions"]),
                duration=float(r["duration"]),
                finished=r["finished"],
            )
            latest[(result.tournament, result.index)] = result
        for result in self.pending:
            latest[(result.tournament, result.index)] = result
        out = [
            r
            for r in latest.values()
            if (tournament is None or r.tournament == tournament)
            and (game is None or r.game == game)
        ]
        return sorted(out, key=lambda r: (r.tournament, r.index))

    def close(self) -> None:
        self.flush()


def open_store(path: str | Path, format: str | None = None) -> ResultStore:
    """The store at ``path``: Parquet for ``*.parquet`` or a directory, else SQLite."""
    path = Path(path)
    if format is None:
        format = "parquet" if path.suffix == ".parquet" or path.is_dir() else "sqlite"
    if format == "sqlite":
        return SQLiteStore(path)
    if format == "parquet":
        return ParquetStore(path)
    raise StoreError(f"unknown store format {format!r}; formats: {', '.join(FORMATS)}")

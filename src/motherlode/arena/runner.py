"""Running a tournament: schedule, skip what the store holds, play the rest, summarise.

>>> import tempfile, pathlib, motherlode
>>> from motherlode.arena.store import open_store
>>> store = open_store(pathlib.Path(tempfile.mkdtemp()) / "r.sqlite")
>>> game = motherlode.load("yukon")
>>> report = run_tournament(game, ["greedy", "random"], 4, store=store, progress=False)
>>> report["played"], report["summary"]["games"]
(4, 4)
>>> run_tournament(game, ["greedy", "random"], 4, store=store, progress=False)["played"]
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from motherlode.agents import create
from motherlode.arena.backends import run_tasks
from motherlode.arena.ratings import summarise
from motherlode.arena.store import ResultStore
from motherlode.arena.tournament import GameResult, schedule, tournament_id
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Game


def run_tournament(
    game: Game,
    specs: Sequence[str],
    games: int,
    *,
    store: ResultStore,
    seed: int = 0,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    tournament: str | None = None,
    progress: bool = True,
    records: Path | None = None,
) -> dict[str, Any]:
    """Play the games of a tournament the store does not hold yet, then summarise it all.

    Returns ``{"tournament", "played", "skipped", "summary"}``; the summary is
    :func:`motherlode.arena.ratings.summarise` over every stored game of the tournament.
    An interruption (Ctrl-C) keeps every finished game: run again to resume.
    With ``records``, each game played now is also written there as a game record,
    ``<tournament>-<index>.json`` (replayable, and a dataset's source:
    :func:`motherlode.research.trajectories.export_dataset`).
    """
    specs = [s.strip() for s in specs]
    if not specs:
        raise AgentSpecError("a tournament needs at least one agent spec")
    for spec in specs:
        create(spec, game, seed=0, allowed=True)  # a bad spec fails here, before any game
    config = game.config.model_dump()
    tid = tournament or tournament_id(game.name, config, specs, seed)
    tasks = schedule(game.name, config, specs, games, seed, tid)
    done = store.done(tid)
    todo = [t for t in tasks if t.index not in done]
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        todo = [replace(t, keep_record=True) for t in todo]
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, disable=not progress, transient=True) as bar:
        task_id = bar.add_task(
            f"{game.name} {tid}", total=len(tasks), completed=len(tasks) - len(todo)
        )

        def on_result(result: GameResult) -> None:
            if records is not None and result.record is not None:
                path = records / f"{result.tournament}-{result.index:05d}.json"
                path.write_text(result.record + "\n", encoding="utf-8")
            store.add([result])
            bar.advance(task_id)

        try:
            run_tasks(todo, on_result, backend=backend, workers=workers, address=address)
        finally:
            store.flush()
    rows = [r for r in store.rows(tournament=tid) if r.index < games]
    return {
        "tournament": tid,
        "game": game.name,
        "config": config,
        "agents": specs,
        "played": len(todo),
        "skipped": len(tasks) - len(todo),
        "summary": summarise(rows, specs),
    }

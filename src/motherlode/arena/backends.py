"""Where a tournament's games are played: this process, local worker processes, or Ray.

Every backend takes the same :class:`GameTask` list and calls ``on_result`` for each
finished game (in completion order, in the calling process, which owns the store). A task
carries everything that decides its game, so the backend never changes a result.

* ``local`` with ``workers=1``: one game after another in this process;
* ``local`` with ``workers=W``: a pool of ``W`` processes (``spawn``ed, so safe with any
  threads of the caller);
* ``ray``: Ray tasks. ``address=None`` starts a local Ray with ``W`` CPUs; an address
  (``"auto"``, ``"ray://head:10001"``) joins a cluster, and the ``motherlode`` package
  itself is shipped to the workers (``runtime_env`` ``py_modules``), so the cluster's
  Python needs only its dependencies.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from motherlode.arena.tournament import GameTask, ResultCallback, play_task
from motherlode.core.errors import MotherlodeError

BACKENDS = ("local", "ray")


class BackendError(MotherlodeError):
    """A backend cannot run (Ray missing, a cluster unreachable ...)."""


def run_tasks(
    tasks: Sequence[GameTask],
    on_result: ResultCallback,
    *,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """Play ``tasks`` on ``backend``, calling ``on_result`` as each game finishes."""
    if backend == "local":
        if workers <= 1:
            for task in tasks:
                on_result(play_task(task))
        else:
            _run_pool(tasks, on_result, workers)
    elif backend == "ray":
        _run_ray(tasks, on_result, workers, address)
    else:
        raise BackendError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def _ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group; only the parent acts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_pool(tasks: Sequence[GameTask], on_result: ResultCallback, workers: int) -> None:
    """Play on ``workers`` processes; on any exception (Ctrl-C included) kill them and leave.

    ``ProcessPoolExecutor``'s own exit waits for the running games, and a worker that took
    the Ctrl-C itself could leave it waiting forever; so workers ignore SIGINT, and the
    parent terminates them without waiting for their games.
    """
    context = multiprocessing.get_context("spawn")
    todo = list(reversed(tasks))
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_ignore_interrupt
    )
    running: set[Future[Any]] = set()
    try:
        while todo or running:
            while todo and len(running) < 2 * workers:
                running.add(pool.submit(play_task, todo.pop()))
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                on_result(future.result())
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: cancel what has not started, kill the workers, reap them."""
    # the executor has no public way to kill its workers; ``_processes`` is pid -> Process
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()


def _run_ray(
    tasks: Sequence[GameTask], on_result: ResultCallback, workers: int, address: str | None
) -> None:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'motherlode[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        import motherlode

        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = max(1, workers)
        else:
            options["address"] = address
            options["runtime_env"] = {"py_modules": [os.path.dirname(motherlode.__file__)]}
        try:
            ray.init(**options)
        except Exception as err:  # ray raises ConnectionError, RuntimeError ...
            raise BackendError(f"cannot start or reach Ray ({address or 'local'}): {err}") from None
        started_here = True
    try:
        remote = ray.remote(num_cpus=1)(play_task)
        todo = list(reversed(tasks))
        running: list[Any] = []
        limit = 2 * max(1, workers) if address is None else 4 * max(1, workers)
        while todo or running:
            while todo and len(running) < limit:
                running.append(remote.remote(todo.pop()))
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                on_result(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()

"""Bots in worker processes (``motherlode serve --bot-workers N``): a search bot's thinking
never runs on the server's event loop nor in its process, and one bad spec cannot stop
the others.

A move is a :class:`BotJob`: the game's name and config, the match's effective actions
(chance outcomes included) in notation, the agent spec (already within the server's caps)
and a seed. A worker rebuilds the state by replaying the actions (it keeps the last state
of each match it saw and replays only what is new), makes the agent and answers its
action. The pool:

* runs its workers at a lower scheduling priority than the server (``os.nice``; and
  Linux's ``SCHED_IDLE`` where the server itself runs at ``nice`` 19, where ``nice``
  cannot go lower), so that people's moves are served first when every core is
  busy thinking;
* serves the moves in the order they were asked (one queue, each worker takes the next):
  a match asks for one move at a time and each move is bounded by the cap, so a match
  waits at most for the moves queued before its own, never behind another match's whole
  game (fair across matches);
* gives a worker twice the cap and 5 s (:meth:`BotPool.limit`) for a move: one that runs
  past it is killed and replaced, one that dies (a crash, the OOM killer) is replaced, and
  the caller gets :class:`BotFailure` saying which, so that the game's greedy bot can move
  instead. A pool whose jobs nobody waits for (the analyses, at the lowest priority:
  ``cpu_limit``) counts the worker's CPU seconds against that limit, not the clock's: a
  worker that waits for a CPU behind the bots is not overrunning (up to
  :data:`CPU_LIMIT_PATIENCE` times the limit on the clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("motherlode.server")

NICE = 10
"""How much lower the workers' scheduling priority is than the server's."""

CPU_LIMIT_PATIENCE = 20
"""In a ``cpu_limit`` pool, how many times :attr:`BotPool.limit` a job may take on the
clock while its CPU time stays within the limit (a job asleep or blocked is ended too)."""


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds (user and system) process ``pid`` has used, from Linux's
    ``/proc/PID/stat``; None where that cannot be read (another system, a process gone).

    >>> import os
    >>> used = cpu_seconds(os.getpid())
    >>> used is None or used > 0
    True
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class BotJob:
    """One bot move to think: everything a fresh process needs to rebuild the position."""

    match_id: str
    game: str
    config: dict[str, Any]
    history: tuple[str, ...]
    """The match's effective actions in notation, chance outcomes included, in order."""
    spec: str
    """The agent spec, within the server's caps."""
    seed: int


class BotFailure(Exception):
    """The bot did not answer: it crashed, ran past its cap, or raised."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- the worker process ------------------------------------------------------------------


class _Positions:
    """A worker's last state per match, so that a move replays only the new actions."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.games: dict[str, Any] = {}
        self.states: OrderedDict[str, tuple[tuple[str, ...], Any]] = OrderedDict()

    def state(self, job: BotJob) -> Any:
        import json

        import motherlode

        key = f"{job.game}:{json.dumps(job.config, sort_keys=True, default=str)}"
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = motherlode.load(job.game, **job.config)
        known, state = self.states.pop(job.match_id, ((), None))
        if state is None or job.history[: len(known)] != known:  # an undo: from the start
            known, state = (), game.new_initial_state()
        for text in job.history[len(known) :]:
            state.apply_string(text)
        self.states[job.match_id] = (job.history, state)
        while len(self.states) > self.size:
            self.states.popitem(last=False)
        return game, state.clone()


def think(job: BotJob, positions: _Positions | None = None) -> int:
    """The action the bot ``job.spec`` takes at the position after ``job.history``.

    >>> import motherlode, random
    >>> state, history = motherlode.load("yukon").new_initial_state(), []
    >>> while state.is_chance_node():  # the deal
    ...     action = state.sample_chance(random.Random(1))
    ...     history.append(state.action_to_string(action))
    ...     state.apply_action(action)
    >>> think(BotJob("m1", "yukon", {}, tuple(history), "random", 7)) in state.legal_actions()
    True
    """
    from motherlode.agents import create

    game, state = (positions or _Positions()).state(job)
    return int(create(job.spec, game, seed=job.seed).act(state))


def lower_priority(nice: int) -> None:
    """This process below the one that started it: ``nice`` steps lower (at most to 19),
    or, where it was at 19 already, Linux's ``SCHED_IDLE`` (below every ``nice``): a
    server started under ``nice -n 19`` still goes before its bots. (Not for less: an
    idle-class worker on a busy machine may get no CPU at all and overrun its cap.)"""
    with contextlib.suppress(OSError):
        before = os.nice(0)
        if os.nice(nice) == before and hasattr(os, "SCHED_IDLE"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _worker_main(conn: Connection, preload: tuple[str, ...], nice: int) -> None:
    """A worker: lower priority, then answer jobs until the pipe closes."""
    lower_priority(nice)
    for name in preload:  # e.g. modules that register test-only agents
        importlib.import_module(name)
    import motherlode  # noqa: F401  (imported before "ready": not counted in a move's time)

    positions = _Positions()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:  # a move (BotJob), or any job that runs itself (server/analysis.py)
            answer = job.run(positions) if hasattr(job, "run") else think(job, positions)
            conn.send(("ok", answer))
        except Exception as err:  # the agent's bug: reported, the worker goes on
            conn.send(("error", f"{type(err).__name__}: {err}"))


# -- the pool, in the server -------------------------------------------------------------


class _Worker:
    def __init__(self, proc: BaseProcess, conn: Connection) -> None:
        self.proc = proc
        self.conn = conn

    def kill(self) -> None:
        """Kill the worker and reap it: in a thread when called on the event loop (a
        process killed on a busy machine can take a while to go; people's moves wait for
        no join), else here."""
        with contextlib.suppress(Exception):
            self.proc.kill()
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.proc.join(5)
            else:
                loop.run_in_executor(None, self.proc.join, 5)
        with contextlib.suppress(Exception):
            self.conn.close()


class BotPool:
    """``workers`` processes thinking bot moves, each within ``max_seconds`` (see module)."""

    def __init__(
        self,
        workers: int,
        *,
        max_seconds: float,
        preload: tuple[str, ...] = (),
        nice: int = NICE,
        cpu_limit: bool = False,
    ) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.workers = workers
        self.max_seconds = max_seconds
        self.preload = preload
        self.nice = nice
        self.cpu_limit = cpu_limit
        """The limit counts the worker's CPU seconds, not the clock's (see module)."""
        self.ctx = multiprocessing.get_context("spawn")  # never fork a running event loop
        self.queue: asyncio.Queue[tuple[Any, asyncio.Future[Any]]] | None = None
        self.slots: list[asyncio.Task[None]] = []
        self.started = 0
        """Worker processes started so far (a replaced one counts again)."""
        self.pids: set[int] = set()
        """The live workers' process ids."""

    @property
    def limit(self) -> float:
        """Seconds a worker has for one move: twice the cap and 5 s, room for loading the
        game, replaying the log and for a machine so busy that a worker at its lower
        priority waits (an agent stops itself at the cap; this catches one that does not).
        """
        return self.max_seconds * 2 + 5.0

    async def act(self, job: BotJob) -> int:
        """The bot's action, or :class:`BotFailure` (crashed, over its cap, raised)."""
        return int(await self.run(job))

    async def run(self, job: Any) -> Any:
        """What a worker answers for ``job``: a :class:`BotJob`'s action, or what the
        job's own ``run(positions)`` returns (an analysis, server/analysis.py); or
        :class:`BotFailure`."""
        if self.queue is None:
            self.queue = asyncio.Queue()
            self.slots = [
                asyncio.get_running_loop().create_task(self._slot()) for _ in range(self.workers)
            ]
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((job, fut))
        return await fut

    async def close(self) -> None:
        for task in self.slots:
            task.cancel()
        for task in self.slots:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.slots = []
        self.queue = None

    async def _recv(self, conn: Connection, timeout: float) -> Any:
        """The worker's next message, waiting on the event loop (never a thread)."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = conn.fileno()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, wake)
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)
        return conn.recv()  # EOFError when the worker died

    async def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(
            target=_worker_main, args=(child, self.preload, self.nice), daemon=True
        )
        proc.start()
        child.close()
        worker = _Worker(proc, parent)
        try:
            kind, pid = await self._recv(parent, 120)
        except BaseException:
            worker.kill()
            raise
        assert kind == "ready"
        self.started += 1
        self.pids.add(pid)
        return worker

    async def _slot(self) -> None:
        """One worker's life: take the next move, think it, replace the worker if it died
        or overran."""
        assert self.queue is not None
        worker: _Worker | None = None
        try:
            while True:
                job, fut = await self.queue.get()
                if fut.done():  # the match stopped waiting (closed meanwhile)
                    continue
                if worker is not None and not worker.proc.is_alive():  # died idle
                    self.pids.discard(worker.proc.pid or 0)
                    worker.kill()
                    worker = None
                if worker is None:
                    try:
                        worker = await self._spawn()
                    except Exception as err:
                        log.error("cannot start a bot worker: %s", err)
                        fut.set_exception(BotFailure("could not be started"))
                        continue
                try:
                    worker, outcome = await self._run(worker, job)
                except Exception as err:  # the pool's own bug: this job fails, not the slot
                    log.exception("bot job in %s", getattr(job, "match_id", "?"))
                    if worker is not None:
                        self.pids.discard(worker.proc.pid or 0)
                        worker.kill()
                    worker, outcome = None, BotFailure(f"failed ({type(err).__name__})")
                if not fut.done():
                    if isinstance(outcome, BotFailure):
                        fut.set_exception(outcome)
                    else:
                        fut.set_result(outcome)
        finally:
            if worker is not None:
                self.pids.discard(worker.proc.pid or 0)
                worker.kill()

    async def _answer(self, worker: _Worker) -> Any:
        """The worker's answer to the job just sent, within :attr:`limit` (TimeoutError
        past it): seconds on the clock, or with ``cpu_limit`` CPU seconds of the worker,
        looked at each time the limit passes on the clock."""
        if not self.cpu_limit:
            return await self._recv(worker.conn, self.limit)
        pid = worker.proc.pid or 0
        before = cpu_seconds(pid)
        for _ in range(CPU_LIMIT_PATIENCE):
            try:
                return await self._recv(worker.conn, self.limit)
            except TimeoutError:
                now = cpu_seconds(pid)
                if before is None or now is None or now - before >= self.limit:
                    raise
        raise TimeoutError

    async def _run(self, worker: _Worker, job: Any) -> tuple[_Worker | None, Any]:
        started = time.perf_counter()
        try:
            worker.conn.send(job)
            kind, value = await self._answer(worker)
        except TimeoutError:
            log.warning(
                "bot %s in %s ran past %.1f s%s: worker %s killed",
                job.spec,
                job.match_id,
                self.limit,
                " of CPU" if self.cpu_limit else "",
                worker.proc.pid,
            )
            self.pids.discard(worker.proc.pid or 0)
            worker.kill()
            return None, BotFailure(f"ran past the {self.max_seconds:g} s cap")
        except (EOFError, OSError, ValueError):
            log.warning(
                "bot %s in %s: worker %s died (exit code %s)",
                job.spec,
                job.match_id,
                worker.proc.pid,
                worker.proc.exitcode,
            )
            self.pids.discard(worker.proc.pid or 0)
            worker.kill()
            return None, BotFailure("crashed")
        if kind == "ok":
            log.debug("bot %s in %s: %.3f s", job.spec, job.match_id, time.perf_counter() - started)
            return worker, value
        log.warning("bot %s in %s failed: %s", job.spec, job.match_id, value)
        return worker, BotFailure("failed")

"""Bots in worker processes: a bot that crashes its process or runs past its cap is
replaced by the game's greedy bot for that move (and the log says so), the pool replaces
the worker, two matches' bots progress together, workers run at a lower priority, and a
restarted server thinks resumed bots within its own caps."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from motherlode.games import game_class
from motherlode.server import botpool
from motherlode.server.botpool import BotFailure, BotJob, BotPool, cpu_seconds
from motherlode.server.bots import BotCaps
from motherlode.server.db import make_engine, migrate
from motherlode.server.service import MatchService, SeatRequest
from tests.server import bad_bots

PRELOAD = ("tests.server.bad_bots",)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    eng = make_engine(str(tmp_path / "bots.db"))
    migrate(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def bad(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test-only bots, in this process too (creation checks the spec)."""
    cls = game_class("yukon")
    monkeypatch.setattr(cls, "bot_factories", {**cls.bot_factories, **bad_bots.BAD_BOTS})


def _service(engine: sa.Engine, workers: int = 1, seconds: float = 0.3) -> MatchService:
    return MatchService(
        engine, caps=BotCaps(max_seconds=seconds), bot_workers=workers, bot_preload=PRELOAD
    )


async def _until(check: Any, what: str, rounds: int = 600) -> None:
    """Wait (on the loop) until ``check()``: a deadline only so that a bug fails the test
    instead of hanging it, not a speed requirement."""
    for _ in range(rounds):
        if check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"never happened: {what}")


async def _human_moves(service: MatchService, mid: str) -> None:
    rt = service.runtime(mid)
    action = rt.state.legal_actions()[0]
    await service.move(mid, rt.state.current_player(), action, rt.version)


def _bot_turns(service: MatchService, mid: str, seat: int) -> list[dict[str, Any]]:
    return [e for e in service.runtime(mid).log_for(None) if e["seat"] == seat]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("test-crash", "P2's bot (test-crash) crashed; the greedy bot moved instead"),
        (
            "test-overrun",
            "P2's bot (test-overrun) ran past the 0.3 s cap; the greedy bot moved instead",
        ),
        ("test-raise", "P2's bot (test-raise) failed; the greedy bot moved instead"),
    ],
)
def test_a_failing_bot_is_replaced_by_greedy_for_the_move_and_the_log_says_so(
    engine: sa.Engine, bad: None, spec: str, reason: str
) -> None:
    service = _service(engine)
    mid = service.create_match("yukon", {}, [SeatRequest(), SeatRequest("bot", spec)]).id

    async def play() -> None:
        for turn in (1, 2):
            await _human_moves(service, mid)
            await _until(lambda: service.runtime(mid).bot_to_move() is None, "the bot moved")
            await _until(lambda: mid not in service.bot_tasks, "the bot loop ended")
            said = [e["said"] for e in _bot_turns(service, mid, 1)]
            assert len(said) == turn and all(s.endswith(f"({reason})") for s in said)
        # a dead or killed worker is replaced (when the next move needs it); one that
        # raised goes on
        assert service.pool is not None
        assert service.pool.started == (1 if spec == "test-raise" else 2)
        await service.close()

    asyncio.run(play())
    # the note is in the log, for a server started again (a reload from the database)
    again = MatchService(engine)
    notes = [e.note for e in again.runtime(mid).entries if e.seat == 1]
    assert notes == [reason, reason]


def test_two_matches_bots_progress_together(engine: sa.Engine) -> None:
    """One worker, two bot-only matches: the moves alternate, neither waits for the other's
    game to end (one queue in the order asked; each match asks one move at a time)."""
    service = _service(engine, workers=1)
    order: list[str] = []
    assert service.pool is not None
    pool = service.pool
    act = pool.act

    async def recorded(job: BotJob) -> int:
        action = await act(job)
        order.append(job.match_id)
        return action

    pool.act = recorded  # type: ignore[method-assign]
    bots = [SeatRequest("bot", "mcts:iterations=20"), SeatRequest("bot", "mcts:iterations=20")]
    a = service.create_match("yukon", {}, bots).id
    b = service.create_match("yukon", {}, bots).id

    async def play() -> None:
        service.kick_bots(a)
        service.kick_bots(b)
        await _until(lambda: len(order) >= 8, "eight bot moves")
        await service.close()

    asyncio.run(play())
    assert order[:8].count(a) == 4 and order[:8].count(b) == 4
    assert all(x != y for x, y in itertools.pairwise(order[:8]))


def _decision() -> tuple[BotJob, list[int]]:
    """A job at Yukon's first decision (after the deal) and the legal actions there."""
    import random

    import motherlode

    state, history = motherlode.load("yukon").new_initial_state(), []
    while state.is_chance_node():
        action = state.sample_chance(random.Random(5))
        history.append(state.action_to_string(action))
        state.apply_action(action)
    return BotJob("m", "yukon", {}, tuple(history), "mcts:iterations=5", 1), state.legal_actions()


def test_workers_think_at_a_lower_priority_and_a_dead_one_is_replaced() -> None:
    pool = BotPool(1, max_seconds=5)  # a generous deadline: a new worker imports the engine first
    job, legal = _decision()

    async def run() -> tuple[int, list[int], int]:
        actions = [await pool.act(job)]
        (pid,) = pool.pids
        nice = os.getpriority(os.PRIO_PROCESS, pid)
        os.kill(pid, 9)  # dies between two moves: the next move gets a new worker
        await asyncio.sleep(0.5)
        actions.append(await pool.act(job))
        assert pid not in pool.pids and len(pool.pids) == 1
        started = pool.started
        await pool.close()
        return nice, actions, started

    nice, actions, started = asyncio.run(run())
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    assert actions[0] == actions[1] and actions[0] in legal  # same job, same seed, same move
    assert started == 2


def test_a_restarted_server_thinks_resumed_bots_within_its_own_caps(engine: sa.Engine) -> None:
    loose = MatchService(engine, caps=BotCaps(max_seconds=30, max_count=10**9))
    human = SeatRequest()
    over = loose.create_match("yukon", {}, [human, SeatRequest("bot", "mcts:seconds=20")]).id
    count = loose.create_match("yukon", {}, [human, SeatRequest("bot", "mcts:iterations=50000")])

    async def first_moves() -> None:
        for mid in (over, count.id):
            await _human_moves(loose, mid)
        for task in list(loose.bot_tasks.values()):
            task.cancel()  # the server dies with both bots to move

    asyncio.run(first_moves())
    strict = _service(engine, workers=1, seconds=0.3)  # the restarted server, stricter
    asked: list[str] = []
    assert strict.pool is not None
    act = strict.pool.act

    async def recorded(job: BotJob) -> int:
        asked.append(job.spec)
        return await act(job)

    strict.pool.act = recorded  # type: ignore[method-assign]

    async def resume() -> None:
        assert strict.resume_bots() == 2
        await _until(lambda: not strict.bot_tasks, "both bots moved")
        await strict.close()

    asyncio.run(resume())
    # above today's caps: the game's greedy bot (in this process); a count: capped in time
    assert asked == ["mcts:iterations=50000,seconds=0.3"]
    for mid in (over, count.id):
        assert strict.runtime(mid).bot_to_move() is None
        assert strict.runtime(mid).entries[-1].note == ""


def _worker_priority(server_nice: int) -> str:
    """``nice`` and whether ``SCHED_IDLE``, of a process that lowered itself as a worker
    does, started from a process at ``server_nice`` (at least this one's)."""
    code = (
        f"import os; os.nice({server_nice} - os.nice(0));"
        " from motherlode.server.botpool import lower_priority; lower_priority(10);"
        " print(os.nice(0), os.sched_getscheduler(0) == os.SCHED_IDLE)"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's SCHED_IDLE")
def test_a_worker_goes_below_its_server_even_where_nice_cannot() -> None:
    """``nice`` stops at 19: the worker of a server at 19 is ``SCHED_IDLE``; of one at 15,
    at 19 (lower already)."""
    here = os.nice(0)
    if here <= 9:
        assert _worker_priority(here) == f"{here + 10} False"
    if here <= 15:
        assert _worker_priority(15) == "19 False"
    assert _worker_priority(19) == "19 True"


class _QuickPool(BotPool):
    """A pool whose limit is half a second (the real one is at least 5 s)."""

    limit = 0.5


def _outcome(pool: BotPool, job: Any) -> str:
    async def run() -> str:
        try:
            return str(await pool.run(job))
        except BotFailure as err:
            return f"failure: {err.reason}"
        finally:
            await pool.close()

    return asyncio.run(run())


def test_an_analysis_worker_waiting_for_a_cpu_is_not_overrunning() -> None:
    # the same job, no CPU used for 1.5 s on the clock: past the limit for a bot (people
    # wait for it), within it for an analysis (counted in the worker's CPU seconds)
    assert _outcome(_QuickPool(1, max_seconds=1, preload=PRELOAD), bad_bots.SleepJob(1.5)) == (
        "failure: ran past the 1 s cap"
    )
    quick = _QuickPool(1, max_seconds=1, preload=PRELOAD, cpu_limit=True)
    assert _outcome(quick, bad_bots.SleepJob(1.5)) == "slept"


def test_an_analysis_worker_past_its_cpu_limit_or_asleep_for_ever_is_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if cpu_seconds(os.getpid()) is None:
        pytest.skip("no /proc: the limit is the clock's")
    quick = _QuickPool(1, max_seconds=1, preload=PRELOAD, cpu_limit=True)
    assert _outcome(quick, bad_bots.SpinJob(30)) == "failure: ran past the 1 s cap"
    monkeypatch.setattr(botpool, "CPU_LIMIT_PATIENCE", 4)  # 2 s on the clock
    quick = _QuickPool(1, max_seconds=1, preload=PRELOAD, cpu_limit=True)
    assert _outcome(quick, bad_bots.SleepJob(3600)) == "failure: ran past the 1 s cap"


def test_a_job_the_pool_itself_fails_on_is_answered_and_the_next_is_served() -> None:
    # the pool's usual limit (5 s): the second job is not timed against a loaded machine
    pool = BotPool(1, max_seconds=1, preload=PRELOAD)

    async def run() -> list[str]:
        out = []
        for job in (bad_bots.BareExitJob(), bad_bots.SleepJob(0.1)):
            try:
                out.append(str(await pool.run(job)))
            except BotFailure as err:
                out.append(f"failure: {err.reason}")
        await pool.close()
        return out

    assert asyncio.run(run()) == ["failure: failed (AttributeError)", "slept"]

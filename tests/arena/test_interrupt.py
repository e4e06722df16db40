"""Ctrl-C during a tournament on worker processes: the arena always exits, workers gone.

Issue 30: ``timeout -s INT 8 motherlode arena ... --workers 2`` once printed "interrupted"
and then waited forever on its idle workers. Here the whole process group gets SIGINT
(as a terminal's Ctrl-C does), at a different moment each time, ten times over.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tools.signals import ctrl_c_restored

WAIT = 120.0
"""How long one interrupted arena may take to exit before the test calls it hung."""


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_interrupting_a_pooled_tournament_always_exits(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for attempt in range(10):
        store = tmp_path / f"r{attempt}.sqlite"
        command = [
            sys.executable,
            "-c",
            "from motherlode.cli import main; main()",
            "arena",
            "yukon",
            "--agents",
            "mcts:iterations=1500;greedy;random",
            "--games",
            "60",
            "--workers",
            "2",
            "--store",
            str(store),
            "--no-plot",
        ]
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own process group: the workers join it
            preexec_fn=ctrl_c_restored,  # (a suite run in the background ignores SIGINT)
        )
        while not store.exists() and proc.poll() is None:
            time.sleep(0.05)  # the store exists just before the games start
        time.sleep(0.4 * attempt)  # a different moment: spawning, playing, storing
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            pytest.fail(f"attempt {attempt}: the arena did not exit after Ctrl-C")
        assert proc.returncode == 1, (out + err).decode()
        assert b"interrupted: the finished games are stored" in err
        deadline = time.monotonic() + WAIT
        while _group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)  # the killed workers are being reaped
        assert not _group_alive(proc.pid), f"attempt {attempt}: a worker outlived the arena"

"""Fixtures of the server tests: an in-process app, a real server in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

import warnings

import httpx

with warnings.catch_warnings():  # Starlette's notice about httpx2, not about us
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from motherlode.server.app import create_app
from motherlode.server.guard import Limits


@pytest.fixture
def app_factory(tmp_path: Path) -> Callable[..., Any]:
    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("limits", Limits.off())  # the guard's own tests set their limits
        return create_app(str(tmp_path / "motherlode.db"), **kwargs)

    return make


@pytest.fixture
def client(app_factory: Callable[..., Any]) -> Iterator[TestClient]:
    with TestClient(app_factory()) as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``python -m motherlode.server`` on a free loopback port; killable, restartable."""

    def __init__(self, db: Path, bot_delay: float = 0.0, args: tuple[str, ...] = ()) -> None:
        self.db = db
        self.args = args
        """More options of ``motherlode serve`` (e.g. ``--analysis-spec``)."""
        self.port = free_port()
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "motherlode.server",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--bot-delay",
                str(self.bot_delay),
                "--log-level",
                "warning",
                *self.args,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server exited: {err}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs (a crash, a power cut)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "live.db").start()
    yield server
    server.kill()


POSTGRES_LOCK = 7301
"""The advisory lock every PostgreSQL test holds: they share one database and drop and
migrate its tables, so two xdist workers must not run them at the same time."""


def _uses_postgres(request: pytest.FixtureRequest) -> bool:
    module = request.module.__name__.rsplit(".", 1)[-1]
    if module in ("test_postgres", "test_processes"):
        return True
    names = getattr(getattr(request.function, "__code__", None), "co_names", ())
    return "POSTGRES" in names


@pytest.fixture(autouse=True)
def _one_postgres_test_at_a_time(request: pytest.FixtureRequest) -> Iterator[None]:
    url = os.environ.get("MOTHERLODE_TEST_POSTGRES")
    if not url or not _uses_postgres(request):
        yield
        return
    import sqlalchemy as sa

    from motherlode.server.db import make_engine

    engine = make_engine(url)
    with engine.connect() as conn:
        conn.execute(sa.text(f"select pg_advisory_lock({POSTGRES_LOCK})"))
        conn.commit()
        try:
            yield
        finally:
            conn.execute(sa.text(f"select pg_advisory_unlock({POSTGRES_LOCK})"))
            conn.commit()
    engine.dispose()

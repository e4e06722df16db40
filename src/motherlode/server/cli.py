"""Entry points for the command line: ``motherlode serve`` and ``motherlode verify``.

``cli.py`` of the package wires them as commands; ``python -m motherlode.server`` runs
:func:`serve` directly.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

from motherlode.server.bots import BotCaps
from motherlode.server.fairness import Verification, verify_file

WS_MAX_SIZE = 64 * 1024
"""Frames above this size are refused by the WebSocket layer itself (close 1009)."""

HTTP_PROTOCOL = "motherlode.server.wsproto:AffineHTTPProtocol"
"""The HTTP protocol given to uvicorn: its own (``auto``), starting the match affinity of
the server's processes with their first connection (server/affinity.py)."""

WS_PROTOCOL = "motherlode.server.wsproto:SteadyWebSocketProtocol"
"""The WebSocket protocol given to uvicorn (by name: each server process imports it),
uvicorn's own reading a socket without a pause after every message (server/wsproto.py)."""

SETTINGS_ENV = "MOTHERLODE_SERVE_SETTINGS"
"""How ``serve --workers N`` hands its settings to each server process (uvicorn starts
them by importing :func:`app_from_env`)."""


class ServeError(Exception):
    """Settings that cannot be served (e.g. several processes on SQLite): one line why."""


def default_bot_workers(workers: int = 1) -> int:
    """The cores, shared by the server processes (at least one bot worker each)."""
    return max(1, (os.cpu_count() or 1) // max(1, workers))


def check_workers(db: str, workers: int) -> None:
    """Several server processes need a database server: SQLite is one process's.

    >>> check_workers("motherlode.db", 1)
    >>> try:
    ...     check_workers("motherlode.db", 2)
    ... except ServeError as err:
    ...     print(err)  # doctest: +ELLIPSIS
    --workers 2 needs PostgreSQL (--db postgresql://...): an SQLite database is served by ...
    """
    if workers < 1:
        raise ServeError(f"--workers {workers}: at least one server process")
    if workers > 1 and not db.startswith(("postgresql://", "postgres://", "postgresql+")):
        raise ServeError(
            f"--workers {workers} needs PostgreSQL (--db postgresql://...): an SQLite"
            " database is served by one process"
        )


def _app_settings(settings: dict[str, Any]) -> Any:
    from motherlode.server.app import create_app

    return create_app(
        settings["db"],
        bot_delay=settings["bot_delay"],
        tune_gc=True,
        caps=BotCaps(max_seconds=settings["bot_max_seconds"]),
        bot_workers=settings["bot_workers"],
        takeover_seconds=settings.get("takeover_seconds"),
        analysis_spec=settings.get("analysis_spec") or None,
        analysis_workers=settings.get("analysis_workers", 1),
    )


def app_from_env() -> Any:
    """The application of one of ``serve --workers N``'s processes (a uvicorn factory)."""
    settings = json.loads(os.environ[SETTINGS_ENV])
    logging.basicConfig(
        level=settings["log_level"].upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    return _app_settings(settings)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "motherlode.db",
    *,
    bot_delay: float = 0.4,
    log_level: str = "info",
    bot_max_seconds: float = 2.0,
    workers: int = 1,
    bot_workers: int | None = None,
    takeover_seconds: float | None = None,
    analysis_spec: str = "strongest",
    analysis_workers: int = 1,
) -> None:
    """Run the web platform on ``host:port`` with the database ``db``.

    ``db`` is an SQLite file path (created on first use) or a database URL such as
    ``postgresql://user:pass@host/dbname``; migrations run at start. ``bot_delay`` is the
    pause (seconds) before a bot moves, so that people can follow the game;
    ``bot_max_seconds`` the most a bot may think per move (a spec asking more is refused).
    ``workers``: server processes on one socket (PostgreSQL only: :class:`ServeError` on
    SQLite); ``bot_workers``: processes thinking the search bots' moves, per server
    process (default: the cores shared among the server processes; 0: threads);
    ``takeover_seconds``: how long a due bot waits before another process takes it over
    (default: the bot delay, a bot worker's limit and 10 s); ``analysis_spec``: the bot
    that analyses each finished match, within the caps (``""``: none), in
    ``analysis_workers`` processes per server process at the lowest priority (0: a thread).
    """
    import uvicorn

    check_workers(db, workers)
    settings = {
        "db": db,
        "bot_delay": bot_delay,
        "bot_max_seconds": bot_max_seconds,
        "bot_workers": default_bot_workers(workers) if bot_workers is None else bot_workers,
        "log_level": log_level,
        "takeover_seconds": takeover_seconds,
        "analysis_spec": analysis_spec,
        "analysis_workers": analysis_workers,
    }
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": False,  # it would compress each shared push once per socket
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "ws": WS_PROTOCOL,  # uvicorn's, reading paused only when messages pile up
        "http": HTTP_PROTOCOL,  # uvicorn's, with the processes' match affinity
        "access_log": False,
    }
    print(
        f"motherlode: serving on http://{host}:{port}/ (database: {db}; {workers} server"
        f" process(es), {settings['bot_workers']} bot worker(s) each)",
        flush=True,
    )
    if workers == 1:
        uvicorn.run(_app_settings(settings), **common)
        return
    from motherlode.server.app import prepare_database

    prepare_database(db)  # once, before the processes start (each would race to do it)
    os.environ[SETTINGS_ENV] = json.dumps(settings)
    # uvicorn's supervisor: the processes share the socket, and one that dies is started
    # again (its matches are on the database; its bots are taken over meanwhile)
    uvicorn.run("motherlode.server.cli:app_from_env", factory=True, workers=workers, **common)


def verify(path: str, sha256: str | None = None) -> Verification:
    """``motherlode verify RECORD [--sha256 H]``: re-play a record from its seed."""
    return verify_file(path, sha256)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m motherlode.server", description="Run the motherlode web platform."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="motherlode.db", help="SQLite path or database URL")
    parser.add_argument("--bot-delay", type=float, default=0.4)
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--bot-max-seconds", type=float, default=2.0, help="the most a bot may think per move"
    )
    parser.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL only)")
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="bot processes per server process (default: the cores; 0: threads)",
    )
    parser.add_argument("--takeover-seconds", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--analysis-spec",
        default="strongest",
        help="the bot that analyses finished matches, within the caps ('': none)",
    )
    parser.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        help="analysis processes per server process, at the lowest priority (0: a thread)",
    )
    args = parser.parse_args(argv)
    try:
        serve(
            args.host,
            args.port,
            args.db,
            bot_delay=args.bot_delay,
            log_level=args.log_level,
            bot_max_seconds=args.bot_max_seconds,
            workers=args.workers,
            bot_workers=args.bot_workers,
            takeover_seconds=args.takeover_seconds,
            analysis_spec=args.analysis_spec,
            analysis_workers=args.analysis_workers,
        )
    except ServeError as err:
        parser.exit(2, f"motherlode serve: {err}\n")
    return 0


def reset_password(db: str, name: str) -> str:
    """The operator's reset of ``name``'s password: a one-time password to hand over.

    Every session of the account ends; its next log-in asks for a new password.
    Raises :class:`ServeError` for an account that does not exist.
    """
    from motherlode.server.accounts import AccountError, Accounts
    from motherlode.server.db import make_engine, migrate

    engine = make_engine(db)
    try:
        migrate(engine)
        return Accounts(engine).reset_password(name)
    except AccountError as err:
        raise ServeError(err.message) from None
    finally:
        engine.dispose()

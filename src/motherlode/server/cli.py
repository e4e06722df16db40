"""Entry points for the command line: ``motherlode serve`` and ``motherlode verify``.

``cli.py`` of the package wires them as commands; ``python -m motherlode.server`` runs
:func:`serve` directly.
"""

from __future__ import annotations

import logging

from motherlode.server.bots import BotCaps
from motherlode.server.fairness import Verification, verify_file

WS_MAX_SIZE = 64 * 1024
"""Frames above this size are refused by the WebSocket layer itself (close 1009)."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "motherlode.db",
    *,
    bot_delay: float = 0.4,
    log_level: str = "info",
    bot_max_seconds: float = 2.0,
) -> None:
    """Run the web platform on ``host:port`` with the database ``db``.

    ``db`` is an SQLite file path (created on first use) or a database URL such as
    ``postgresql://user:pass@host/dbname``; migrations run at start. ``bot_delay`` is the
    pause (seconds) before a bot moves, so that people can follow the game;
    ``bot_max_seconds`` the most a bot may think per move (a spec asking more is refused).
    """
    import uvicorn

    from motherlode.server.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = create_app(
        db, bot_delay=bot_delay, tune_gc=True, caps=BotCaps(max_seconds=bot_max_seconds)
    )
    print(f"motherlode: serving on http://{host}:{port}/ (database: {db})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # it would compress each push once per socket
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        access_log=False,
    )


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
    parser.add_argument("--bot-max-seconds", type=float, default=2.0,
                        help="the most a bot may think per move")
    args = parser.parse_args(argv)
    serve(
        args.host, args.port, args.db, bot_delay=args.bot_delay, log_level=args.log_level,
        bot_max_seconds=args.bot_max_seconds,
    )
    return 0

"""The FastAPI application: one :class:`MatchService` behind three routers.

* :mod:`~motherlode.server.pages`: the HTML pages (lobby, new match, match, replay, verify);
* :mod:`~motherlode.server.api`: the JSON API under ``/api`` (OpenAPI at ``/api/docs``);
* :mod:`~motherlode.server.ws`: the WebSocket ``/ws/{match}`` (its protocol, its limits).

They reach the service through :data:`motherlode.server.deps.Service` (``app.state.service``).
Here: the service's life (migrations, bots resumed, closed at shutdown) and the answers to
what a route does not catch: a :class:`ServerError` as ``{"error": {"code", "message"}}``
with its status, a parameter of the wrong type as ``malformed`` (422), and a bug as
``internal`` (500), naming only an incident number.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from motherlode.server import accounts, analysis, api, chat, mygames, pages, ratings, ws
from motherlode.server.bots import BotCaps
from motherlode.server.collector import Collector
from motherlode.server.db import make_engine, migrate
from motherlode.server.deps import HERE, Service, error_response, page
from motherlode.server.guard import Guard, Limits
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService
from motherlode.server.ws import BURST, MAX_MESSAGE, MAX_STRIKES, RATE, TokenBucket

log = logging.getLogger("motherlode.server")

__all__ = ["BURST", "MAX_MESSAGE", "MAX_STRIKES", "RATE", "TokenBucket", "create_app"]


class Health(BaseModel):
    ok: bool
    matches_cached: int


def create_app(
    db: str = "motherlode.db",
    *,
    bot_delay: float = 0.0,
    resume: bool = True,
    tune_gc: bool = False,
    limits: Limits | None = None,
    caps: BotCaps | None = None,
    bot_workers: int = 0,
    bot_preload: tuple[str, ...] = (),
    takeover_seconds: float | None = None,
    analysis_spec: str | None = None,
    analysis_workers: int = 1,
) -> FastAPI:
    """The application on database ``db`` (an SQLite path or a database URL).

    ``limits``: the guard's body limit and per-client rate limits (default: the
    production ones, :class:`~motherlode.server.guard.Limits`); ``caps``: the caps on
    bots' thinking (default :class:`~motherlode.server.bots.BotCaps`); ``bot_workers``:
    processes that think the search bots' moves (0: threads of this process);
    ``bot_preload``: modules each bot worker imports first (test-only agents);
    ``takeover_seconds``: on PostgreSQL, how long a due bot waits before this process
    takes it over from another (:class:`~motherlode.server.service.MatchService`);
    ``analysis_spec``: the bot that analyses each finished match (``strongest``; default
    ``None``: no analysis), in ``analysis_workers`` processes (0: a thread;
    :mod:`~motherlode.server.analysis`).

    ``tune_gc`` (for a server process, not for tests): the garbage collected on the
    server's schedule, not the collector's (:mod:`~motherlode.server.collector`), so that
    no collection stalls every match for a tenth of a second.
    """
    engine = make_engine(db)
    migrate(engine)
    service = MatchService(
        engine,
        bot_delay=bot_delay,
        caps=caps,
        bot_workers=bot_workers,
        bot_preload=bot_preload,
        takeover_seconds=takeover_seconds,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if resume:
            await service.start()
            if analyser is not None:
                await analyser.start()
        collecting = None
        if tune_gc:  # the server's own schedule (server/collector.py)
            policy = Collector()
            policy.start()
            collecting = asyncio.get_running_loop().create_task(policy.run())
        yield
        if collecting is not None:
            collecting.cancel()
            policy.stop()
        if analyser is not None:
            await analyser.close()
        await service.close()
        engine.dispose()

    app = FastAPI(title="motherlode", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.service = service
    app.add_exception_handler(ServerError, _server_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected)
    limits = limits or Limits()
    app.add_middleware(Guard, limits=limits)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(ws.router)
    accounts.install(app, limits)
    ratings.install(app)
    chat.install(app)
    mygames.install(app)
    analyser = analysis.install(app, analysis_spec, analysis_workers)
    app.add_api_route("/healthz", healthz, methods=["GET"], response_model=Health)
    app.add_api_route("/favicon.ico", favicon, methods=["GET"], include_in_schema=False)
    return app


def prepare_database(db: str) -> None:
    """Create or upgrade the schema of ``db`` (what every :func:`create_app` does), once."""
    engine = make_engine(db)
    migrate(engine)
    engine.dispose()


async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
    return error_response(err)


async def _invalid_request(_request: Request, err: RequestValidationError) -> JSONResponse:
    # a path or query parameter of the wrong type (a seat, a step that is no integer):
    # answered in the shape of every other refusal, naming the parameter, not the input
    where = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', 'invalid')}"
        for e in err.errors()
    )
    return error_response(ServerError("malformed", where or "invalid request", 422))


async def _unexpected(request: Request, err: Exception) -> Response:
    # A bug: logged with its traceback, answered without it (an exception's text can
    # name anything inside a state, another seat's hand included).
    incident = secrets.token_hex(4)
    log.error(
        "unhandled error %s on %s %s", incident, request.method, request.url.path, exc_info=err
    )
    message = f"an error on the server (incident {incident}, logged)"
    if request.url.path.startswith("/api/"):
        return error_response(ServerError("internal", message, 500))
    return page(request, "error.html", 500, message=message)


async def healthz(service: Service) -> dict[str, Any]:
    return {"ok": True, "matches_cached": len(service.runtimes)}


async def favicon() -> RedirectResponse:
    return RedirectResponse("/static/favicon.svg")

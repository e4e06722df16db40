"""The FastAPI application: lobby and match pages, the JSON API and the WebSocket.

WebSocket protocol (``/ws/{match}``), JSON text frames:

* client -> server, first: ``{"type": "hello", "token": "<seat token>"}`` (no token, or
  ``null``: a spectator). Then ``{"type": "move", "action": "c4" | 17, "version": 12}``,
  ``{"type": "undo", "version": 13}``, ``{"type": "sync"}``, ``{"type": "ping"}``; any
  message may carry an ``"id"``, echoed in the error that answers it.
* server -> client: ``{"type": "state", ...}`` (the seat's whole view, after every
  change, to everyone at once), ``{"type": "error", "code": ..., "message": ...}``,
  ``{"type": "pong"}``.

Error codes: ``malformed``, ``message_too_large``, ``rate_limited``, ``invalid_token``,
``spectator``, ``not_your_turn``, ``invalid_move``, ``stale_state``, ``undo_not_allowed``,
``match_over``, ``not_found``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.websockets import WebSocketDisconnect, WebSocketState

import motherlode
from motherlode.core.errors import RecordError
from motherlode.core.records import GameRecord
from motherlode.games import registry
from motherlode.server import forms
from motherlode.server.db import make_engine, migrate
from motherlode.server.fairness import verify_record
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService, SeatRequest, Subscriber, file_options

log = logging.getLogger("motherlode.server")

HERE = Path(__file__).parent
MAX_MESSAGE = 4096
"""Largest client message (bytes of JSON) the WebSocket accepts; bigger: ``message_too_large``."""
RATE = 20.0
"""Messages per second a connection may send on average ..."""
BURST = 40.0
"""... and in a burst. Beyond: ``rate_limited``, the message dropped, the reader slowed."""
MAX_STRIKES = 500
"""Rate-limited messages after which a connection is closed (code 1008)."""


class TokenBucket:
    """Rate limit per connection: ``rate`` tokens a second, at most ``burst`` saved."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def _error(err: ServerError) -> JSONResponse:
    return JSONResponse({"error": {"code": err.code, "message": err.message}}, err.status)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def create_app(
    db: str = "motherlode.db", *, bot_delay: float = 0.0, resume: bool = True, tune_gc: bool = False
) -> FastAPI:
    """The application on database ``db`` (an SQLite path or a database URL).

    ``tune_gc`` (for a server process, not for tests): freeze what start-up loaded (game
    data, maps) out of the garbage collector's reach and collect less often, so that a
    full collection never stalls every match for a tenth of a second.
    """
    engine = make_engine(db)
    migrate(engine)
    service = MatchService(engine, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if resume:
            service.resume_bots()
        if tune_gc:
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 20, 100)
        yield
        await service.close()
        engine.dispose()

    app = FastAPI(title="motherlode", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.service = service

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
        return _error(err)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, err: Exception) -> Response:
        # A bug: logged with its traceback, answered without it (an exception's text can
        # name anything inside a state, another seat's hand included).
        incident = secrets.token_hex(4)
        log.error("unhandled error %s on %s %s", incident, request.method, request.url.path,
                  exc_info=err)
        message = f"an error on the server (incident {incident}, logged)"
        if request.url.path.startswith("/api/"):
            return _error(ServerError("internal", message, 500))
        return page(request, "error.html", 500, message=message)

    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(
            request, name, {"version": motherlode.__version__, **context}, status_code=status
        )

    # -- pages ------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        matches = service.list_matches(limit=100)
        return page(
            request,
            "lobby.html",
            games=forms.game_choices(),
            open=[m for m in matches if m["status"] == "running" and _has_open(m)],
            running=[m for m in matches if m["status"] == "running" and not _has_open(m)],
            finished=[m for m in matches if m["status"] == "finished"][:30],
        )

    @app.get("/new", response_class=HTMLResponse)
    async def new_form(request: Request, game: str = "yukon") -> HTMLResponse:
        try:
            cls = registry()[game]
        except KeyError:
            return page(request, "error.html", 404, message=f"no game {game!r}")
        return _form_page(request, cls, None, {}, {})

    def _form_page(
        request: Request,
        cls: type[motherlode.Game],
        values: dict[str, str] | None,
        errors: dict[str, str],
        seat_errors: dict[int, str],
        status: int = 200,
    ) -> HTMLResponse:
        fields = forms.config_fields(cls, values)
        blocked = file_options(cls)
        for f in fields:
            f.error = errors.get(f.name, "")
        players = int((values or {}).get("players") or cls.Config.model_fields["players"].default)
        seats = []
        bot = forms.default_bot(cls)
        for i in range(cls.max_players):
            v = values or {}
            seats.append(
                {
                    "index": i,
                    "kind": v.get(f"seat{i}_kind", "human" if i == 0 else "bot"),
                    "spec": v.get(f"seat{i}_spec", bot),
                    "name": v.get(f"seat{i}_name", ""),
                    "error": seat_errors.get(i, ""),
                    "active": i < players,
                }
            )
        try:
            agents = ", ".join(forms.available(cls.from_config()))
        except motherlode.ConfigError:
            agents = "random"
        return page(
            request,
            "new.html",
            status,
            game=cls.name,
            games=forms.game_choices(),
            fields=fields,
            blocked=blocked,
            general_error=errors.get("", ""),
            seats=seats,
            agents=agents,
            min_players=cls.min_players,
            max_players=cls.max_players,
            public=(values or {}).get("public") == "on",
        )

    @app.post("/new", response_class=HTMLResponse)
    async def new_submit(request: Request) -> HTMLResponse:
        values = await _form(request, 64 * 1024)
        game_name = values.pop("game", "")
        cls = registry().get(game_name)
        if cls is None:
            return page(request, "error.html", 404, message=f"no game {game_name!r}")
        options = forms.parse_options(cls, values)
        for name in file_options(cls):
            options.pop(name, None)
        game, errors = forms.validate_options(cls, options)
        # every error at once: the seats are checked against the game as configured, or,
        # when its options are wrong, against its defaults with the players asked for
        seat_game = game if game is not None else forms.fallback_game(cls, options)
        seat_errors: dict[int, str] = {}
        if seat_game is not None:
            seats, seat_errors = forms.seat_requests(seat_game, values)
        if game is None or seat_errors:
            return _form_page(request, cls, values, errors, seat_errors, 422)
        try:
            created = service.create_match(
                game_name, options, seats, public=values.get("public") == "on"
            )
        except ServerError as err:
            return _form_page(request, cls, values, {"": err.message}, {}, 422)
        service.kick_bots(created.id)
        base = str(request.base_url).rstrip("/")
        links = [
            {
                "seat": i,
                "label": seats[i].name or f"P{i + 1}",
                "url": f"{base}/m/{created.id}#t={token}",
            }
            for i, token in sorted(created.tokens.items())
        ]
        return page(
            request,
            "created.html",
            match_id=created.id,
            game=game_name,
            links=links,
            watch=f"{base}/m/{created.id}",
            seed_sha256=created.seed_sha256,
        )

    @app.get("/m/{match_id}", response_class=HTMLResponse)
    async def match_page(request: Request, match_id: str) -> HTMLResponse:
        try:
            rt = service.runtime(match_id)
        except ServerError as err:
            return page(request, "error.html", err.status, message=err.message)
        return page(
            request,
            "match.html",
            match_id=match_id,
            game=rt.game.name,
            config=rt.game.config.model_dump(mode="json"),
            seed_sha256=rt.seed_sha256,
            svg=rt.payload(None)["svg"],
        )

    @app.post("/m/{match_id}/join/{seat}", response_class=HTMLResponse, response_model=None)
    async def join_page(request: Request, match_id: str, seat: int) -> Response:
        try:
            token = service.join(match_id, seat)
        except ServerError as err:
            return page(request, "error.html", err.status, message=err.message, link="/")
        return RedirectResponse(f"/m/{match_id}#t={token}", status_code=303)

    @app.post("/api/matches/{match_id}/seats/{seat}/join", response_model=None)
    async def api_join(request: Request, match_id: str, seat: int) -> JSONResponse | dict[str, Any]:
        try:
            token = service.join(match_id, seat)
        except ServerError as err:
            return _error(err)
        base = str(request.base_url).rstrip("/")
        return {"seat": seat, "token": token, "link": f"{base}/m/{match_id}#t={token}"}

    @app.get("/m/{match_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, match_id: str) -> HTMLResponse:
        try:
            rt = service.runtime(match_id)
        except ServerError as err:
            return page(request, "error.html", err.status, message=err.message)
        if not rt.finished:
            return page(
                request,
                "error.html",
                403,
                message="replays open when the match ends; watch it live meanwhile",
                link=f"/m/{match_id}",
            )
        return page(
            request,
            "replay.html",
            match_id=match_id,
            game=rt.game.name,
            steps=len(rt.entries),
            log=(log := rt.log_for(None)),
            setup=sum(1 for e in log if e.get("setup")),
        )

    @app.get("/m/{match_id}/verify", response_class=HTMLResponse)
    async def verify_page(request: Request, match_id: str) -> HTMLResponse:
        try:
            rt = service.runtime(match_id)
        except ServerError as err:
            return page(request, "error.html", err.status, message=err.message)
        result = None
        if rt.finished:
            result = verify_record(service.record(match_id), rt.seed_sha256)
        return page(
            request,
            "verify.html",
            match_id=match_id,
            game=rt.game.name,
            finished=rt.finished,
            seed_sha256=rt.seed_sha256,
            seed=str(rt.seed) if rt.finished else None,
            result=result,
        )

    @app.get("/verify", response_class=HTMLResponse)
    async def verify_upload_form(request: Request) -> HTMLResponse:
        return page(request, "verify_upload.html", result=None, record="", sha="")

    @app.post("/verify", response_class=HTMLResponse)
    async def verify_upload(request: Request) -> HTMLResponse:
        raw = await _form(request, 8 * 1024 * 1024)
        text = raw.get("record", "")
        sha = raw.get("sha256", "").strip() or None
        try:
            result = verify_record(GameRecord.from_json(text, "the pasted record"), sha)
        except RecordError as err:
            from motherlode.server.fairness import Verification

            result = Verification(ok=False, problems=[str(err)])
        return page(request, "verify_upload.html", result=result, record=text, sha=sha or "")

    # -- JSON API -----------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        out = []
        for name, cls in registry().items():
            out.append(
                {
                    "game": name,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": [
                        {"option": k, "default": d, "description": h}
                        for k, d, h in cls.option_help()
                    ],
                    "online_blocked_options": sorted(file_options(cls)),
                }
            )
        return out

    @app.get("/api/matches")
    async def api_matches(status: str | None = None) -> list[dict[str, Any]]:
        return service.list_matches(status=status)

    @app.post("/api/matches", status_code=201, response_model=None)
    async def api_create(request: Request) -> JSONResponse | dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            return _error(ServerError("malformed", "the body must be JSON"))
        if not isinstance(body, dict):
            return _error(ServerError("malformed", "the body must be a JSON object"))
        config = body.get("config") or {}
        seats_raw = body.get("seats") or []
        if not isinstance(config, dict) or not isinstance(seats_raw, list):
            return _error(ServerError("malformed", "config is an object, seats a list"))
        seats = []
        for s in seats_raw:
            if not isinstance(s, dict):
                return _error(ServerError("malformed", "each seat is an object"))
            kind = str(s.get("kind", "human"))
            seats.append(SeatRequest(kind, str(s.get("spec", "human")), str(s.get("name", ""))))
        try:
            created = service.create_match(
                str(body.get("game", "")), config, seats, public=body.get("public") is True
            )
        except ServerError as err:
            return _error(err)
        service.kick_bots(created.id)
        base = str(request.base_url).rstrip("/")
        return {
            "id": created.id,
            "seed_sha256": created.seed_sha256,
            "watch": f"{base}/m/{created.id}",
            "seats": [
                {"seat": i, "token": t, "link": f"{base}/m/{created.id}#t={t}"}
                for i, t in sorted(created.tokens.items())
            ],
        }

    @app.get("/api/matches/{match_id}", response_model=None)
    async def api_state(request: Request, match_id: str) -> Response:
        try:
            seat = service.authenticate(match_id, _bearer(request))
            rt = service.runtime(match_id)
        except ServerError as err:
            return _error(err)
        return Response(rt.payload_json(seat), media_type="application/json")

    async def _body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise ServerError("message_too_large", f"requests are limited to {MAX_MESSAGE} bytes")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise ServerError("malformed", "the body must be JSON") from None
        if not isinstance(body, dict):
            raise ServerError("malformed", "the body must be a JSON object")
        return body

    @app.post("/api/matches/{match_id}/move", response_model=None)
    async def api_move(request: Request, match_id: str) -> Response:
        try:
            body = await _body(request)
            seat = service.authenticate(match_id, _bearer(request))
            if "action" not in body:
                raise ServerError("malformed", "a move needs an 'action'")
            rt = await service.move(match_id, seat, body["action"], body.get("version"))
        except ServerError as err:
            return _error(err)
        return Response(rt.payload_json(seat), media_type="application/json")

    @app.post("/api/matches/{match_id}/undo", response_model=None)
    async def api_undo(request: Request, match_id: str) -> Response:
        try:
            body = await _body(request)
            seat = service.authenticate(match_id, _bearer(request))
            rt = await service.undo(match_id, seat, body.get("version"))
        except ServerError as err:
            return _error(err)
        return Response(rt.payload_json(seat), media_type="application/json")

    @app.get("/api/matches/{match_id}/record", response_model=None)
    async def api_record(match_id: str) -> Response:
        try:
            record = service.record(match_id)
        except ServerError as err:
            return _error(err)
        return Response(
            record.to_json() + "\n",
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="{record.game}-{match_id}.json"'
            },
        )

    @app.get("/api/matches/{match_id}/verify", response_model=None)
    async def api_verify(match_id: str) -> JSONResponse | dict[str, Any]:
        try:
            rt = service.runtime(match_id)
            record = service.record(match_id)
        except ServerError as err:
            return _error(err)
        result = verify_record(record, rt.seed_sha256)
        return {
            "ok": result.ok,
            "summary": result.summary(),
            "actions": result.actions,
            "chance_events": result.chance_events,
            "seed": str(rt.seed),
            "seed_sha256": rt.seed_sha256,
            "problems": result.problems,
        }

    @app.get("/api/matches/{match_id}/replay/{step}", response_model=None)
    async def api_replay(match_id: str, step: int) -> JSONResponse | dict[str, Any]:
        try:
            rt = service.runtime(match_id)
            service.record(match_id)  # finished matches only
        except ServerError as err:
            return _error(err)
        step = max(0, min(step, len(rt.entries)))
        state = rt.game.new_initial_state()
        for entry in rt.entries[:step]:
            state.apply_string(entry.text)
        from motherlode.server.runtime import strip_actions

        return {
            "step": step,
            "steps": len(rt.entries),
            "svg": strip_actions(state.render_svg(None)),
            "last": rt.entries[step - 1].text if step else None,
            "scores": [float(s) for s in state.scores()],
        }

    # -- the WebSocket -----------------------------------------------------------------

    @app.websocket("/ws/{match_id}")
    async def ws_endpoint(websocket: WebSocket, match_id: str) -> None:
        try:
            await _ws_session(websocket, match_id)
        except Exception:  # a bug: logged, answered without its text (see _unexpected)
            log.exception("unhandled error on the WebSocket of %s", match_id)
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    err = ServerError("internal", "an error on the server (logged)", 500)
                    await websocket.send_text(json.dumps(err.as_dict()))
                    await websocket.close(1011)

    async def _ws_session(websocket: WebSocket, match_id: str) -> None:
        await websocket.accept()

        async def refuse(err: ServerError, code: int) -> None:
            await websocket.send_text(json.dumps(err.as_dict()))
            await websocket.close(code)

        try:
            service.runtime(match_id)
        except ServerError as err:
            await refuse(err, 4404)
            return
        try:
            first = await asyncio.wait_for(websocket.receive(), timeout=15)
        except TimeoutError:
            await refuse(ServerError("malformed", "say hello first"), 4400)
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            hello = json.loads(first.get("text") or "")
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise ValueError
            token = hello.get("token")
            if token is not None and not isinstance(token, str):
                raise ValueError
        except ValueError:
            await refuse(ServerError("malformed", 'the first message is {"type": "hello"}'), 4400)
            return
        try:
            seat = service.authenticate(match_id, token)
        except ServerError as err:
            await refuse(err, 4403)
            return
        sub = Subscriber(seat, websocket.send_text)
        writer = asyncio.create_task(sub.writer())
        service.subscribe(match_id, sub)
        bucket = TokenBucket()
        strikes = 0
        last_warned = 0.0
        try:
            while not sub.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if not bucket.take():
                    strikes += 1
                    if strikes > MAX_STRIKES:
                        break
                    now = time.monotonic()
                    if now - last_warned > 1.0:
                        last_warned = now
                        sub.push(
                            json.dumps(
                                ServerError(
                                    "rate_limited",
                                    f"more than {RATE:g} messages a second; message dropped",
                                ).as_dict()
                            )
                        )
                    await asyncio.sleep(1.0 / RATE)  # read this connection more slowly
                    continue
                reply = await _handle(match_id, seat, text)
                if reply is not None:
                    sub.push(json.dumps(reply))
        except WebSocketDisconnect:
            return  # the client went away mid-read: nothing left to answer (cleanup below)
        finally:
            service.unsubscribe(match_id, sub)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(1008 if strikes > MAX_STRIKES else 1000)

    async def _handle(match_id: str, seat: int | None, text: str | None) -> dict[str, Any] | None:
        request_id: Any = None
        try:
            if text is None:
                raise ServerError("malformed", "messages are JSON text frames")
            if len(text.encode()) > MAX_MESSAGE:
                raise ServerError(
                    "message_too_large", f"messages are limited to {MAX_MESSAGE} bytes"
                )
            try:
                msg = json.loads(text)
            except ValueError:
                raise ServerError("malformed", "not JSON") from None
            if not isinstance(msg, dict):
                raise ServerError("malformed", "a message is a JSON object")
            request_id = msg.get("id")
            kind = msg.get("type")
            if kind == "move":
                if "action" not in msg:
                    raise ServerError("malformed", "a move needs an 'action'")
                await service.move(match_id, seat, msg["action"], msg.get("version"))
                return None
            if kind == "undo":
                await service.undo(match_id, seat, msg.get("version"))
                return None
            if kind == "ping":
                return {"type": "pong", "id": request_id}
            if kind == "sync":
                return json.loads(service.runtime(match_id).payload_json(seat))  # type: ignore[no-any-return]
            raise ServerError("malformed", f"unknown message type {kind!r}")
        except ServerError as err:
            out = err.as_dict()
        except Exception:  # a bug: logged, answered without its text (see _unexpected)
            log.exception("unhandled error on the WebSocket of %s", match_id)
            out = ServerError("internal", "an error on the server (logged)", 500).as_dict()
        if request_id is not None:
            out["id"] = request_id
        return out

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "matches_cached": len(service.runtimes)}

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")

    return app


async def _form(request: Request, limit: int) -> dict[str, str]:
    """A URL-encoded form body (what the pages post), at most ``limit`` bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ServerError("message_too_large", f"forms are limited to {limit} bytes", 413)
    pairs = urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    return dict(pairs)


def _has_open(match: dict[str, Any]) -> bool:
    return any(s["open"] for s in match["seats"])

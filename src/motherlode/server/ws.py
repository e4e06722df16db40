"""The WebSocket ``/ws/{match}``: moves in, every seat's new view out.

Protocol (JSON text frames):

* client -> server, first: ``{"type": "hello", "token": "<seat token>"}`` (no token, or
  ``null``: a spectator), optionally with ``"compress": "deflate-raw"``: then a push of
  1 KB or more comes as a binary frame, the raw deflate (RFC 1951) of its UTF-8 JSON,
  compressed once and shared by every such socket (runtime.pack); smaller ones and the
  replies stay text. Then ``{"type": "move", "action": "c4" | 17, "version": 12}``,
  ``{"type": "undo", "version": 13}``, ``{"type": "sync"}``, ``{"type": "ping"}``; any
  message may carry an ``"id"``, echoed in the error that answers it.
* server -> client: ``{"type": "state", ...}`` (a snapshot: the seat's whole view, on
  connecting and after ``sync``, and to a client too far behind), ``{"type": "diff",
  "base": R0, "rev": R1, ...}`` (what changed since the revision the client holds, after
  every change, to everyone at once; server/push.py), ``{"type": "error", "code": ...,
  "message": ...}``, ``{"type": "pong"}``.

``GET /board/{game}/{digest}.svg`` serves the static layer a snapshot names (the board's
printing: it depends on the game and its config only), cacheable for a year, with an
ETag.

Error codes: ``malformed``, ``message_too_large``, ``rate_limited``, ``invalid_token``,
``spectator``, ``not_your_turn``, ``invalid_move``, ``stale_state``, ``undo_not_allowed``,
``match_over``, ``not_found``, ``internal``. Close codes: 4404 (no such match), 4400 (no
hello), 4403 (a bad token), 1008 (flooding), 1011 (a bug on the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect, WebSocketState

from motherlode.core.errors import MotherlodeError
from motherlode.core.protocol import Game
from motherlode.server.db import MatchRow
from motherlode.server.deps import Service
from motherlode.server.push import config_digest
from motherlode.server.runtime import ServerError, static_svg
from motherlode.server.service import MatchService, Subscriber
from motherlode.server.wsproto import DIRECT

log = logging.getLogger("motherlode.server")

router = APIRouter()

MAX_MESSAGE = 4096
"""Largest client message (bytes of JSON) the WebSocket accepts; bigger: ``message_too_large``."""
RATE = 20.0
"""Messages per second a connection may send on average ..."""
BURST = 40.0
"""... and in a burst. Beyond: ``rate_limited``, the message dropped, the reader slowed."""
MAX_STRIKES = 500
"""Rate-limited messages after which a connection is closed (code 1008)."""
HELLO_TIMEOUT = 15.0
"""Seconds a new connection has to say hello."""


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


class Throttle:
    """One connection's rate limit: the bucket, the strikes, a warning at most each second."""

    def __init__(self) -> None:
        self.bucket = TokenBucket()
        self.strikes = 0
        self.last_warned = 0.0

    @property
    def exhausted(self) -> bool:
        """Too many messages dropped: the connection is to be closed (1008)."""
        return self.strikes > MAX_STRIKES

    async def admit(self, sub: Subscriber) -> bool:
        """Whether the next message may be handled; if not, warn (once a second) and slow
        the reader down."""
        if self.bucket.take():
            return True
        self.strikes += 1
        if self.exhausted:
            return False
        now = time.monotonic()
        if now - self.last_warned > 1.0:
            self.last_warned = now
            err = ServerError(
                "rate_limited", f"more than {RATE:g} messages a second; message dropped"
            )
            sub.push(json.dumps(err.as_dict()))
        await asyncio.sleep(1.0 / RATE)  # read this connection more slowly
        return False


class _Refused(Exception):
    """The connection was answered an error and closed before it was subscribed."""


@router.websocket("/ws/{match_id}")
async def ws_endpoint(websocket: WebSocket, match_id: str, service: Service) -> None:
    try:
        await _session(websocket, service, match_id)
    except (WebSocketDisconnect, OSError):  # the client went away (uvicorn: an OSError)
        return
    except Exception:  # a bug: logged, answered without its text (see app._unexpected)
        log.exception("unhandled error on the WebSocket of %s", match_id)
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                err = ServerError("internal", "an error on the server (logged)", 500)
                await websocket.send_text(json.dumps(err.as_dict()))
                await websocket.close(1011)


async def _refuse(websocket: WebSocket, err: ServerError, code: int) -> _Refused:
    await websocket.send_text(json.dumps(err.as_dict()))
    await websocket.close(code)
    return _Refused()


COMPRESS = "deflate-raw"
"""The one compression a hello may ask for (what ``DecompressionStream`` calls it)."""


def _hello(text: str | None) -> tuple[str | None, bool]:
    """The token of a hello message and whether it asks for compressed pushes;
    ``ValueError`` if it is no hello."""
    hello = json.loads(text or "")
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        raise ValueError
    token = hello.get("token")
    if token is not None and not isinstance(token, str):
        raise ValueError
    if hello.get("compress") not in (None, COMPRESS):
        raise ValueError
    return token, hello.get("compress") == COMPRESS


async def _greet(
    websocket: WebSocket, service: MatchService, match_id: str
) -> tuple[int | None, bool]:
    """Accept the connection and read its hello: the seat it speaks for (``None``: a
    spectator) and whether it reads compressed pushes. Raises :class:`_Refused` (after
    answering why) or ``WebSocketDisconnect``."""
    await websocket.accept()
    try:
        service.runtime(match_id)
    except ServerError as err:
        raise await _refuse(websocket, err, 4404) from None
    try:
        first = await asyncio.wait_for(websocket.receive(), timeout=HELLO_TIMEOUT)
    except TimeoutError:
        raise await _refuse(websocket, ServerError("malformed", "say hello first"), 4400) from None
    if first["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    try:
        token, packed = _hello(first.get("text"))
    except ValueError:
        bad = ServerError(
            "malformed",
            'the first message is {"type": "hello", "token": ...}'
            f' (optionally "compress": "{COMPRESS}")',
        )
        raise await _refuse(websocket, bad, 4400) from None
    try:
        return service.authenticate(match_id, token), packed
    except ServerError as err:
        raise await _refuse(websocket, err, 4403) from None


async def _session(websocket: WebSocket, service: MatchService, match_id: str) -> None:
    try:
        seat, packed = await _greet(websocket, service, match_id)
    except (_Refused, WebSocketDisconnect):
        return
    sub = Subscriber(seat, websocket.send_text, send_bytes=websocket.send_bytes if packed else None)
    direct = (websocket.scope.get("extensions") or {}).get(DIRECT)
    if direct is not None:  # (the server's protocol, server/wsproto.py; not a test client's)
        sub.write = direct["write"]
    sub.extra["websocket"] = websocket
    writer = asyncio.create_task(sub.writer())
    with contextlib.suppress(ServerError):
        await service.check_clock(match_id)  # a clock that ran out is written first
    service.subscribe(match_id, sub)
    throttle = Throttle()
    try:
        while not sub.closed and not throttle.exhausted:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not await throttle.admit(sub):
                continue
            reply = await _handle(service, match_id, sub, message.get("text"))
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
                await websocket.close(1008 if throttle.exhausted else 1000)


def _parse(text: str | None) -> dict[str, Any]:
    """A client message as a JSON object, or the ``ServerError`` that refuses it."""
    if text is None:
        raise ServerError("malformed", "messages are JSON text frames")
    if len(text.encode()) > MAX_MESSAGE:
        raise ServerError("message_too_large", f"messages are limited to {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(text)
    except ValueError:
        raise ServerError("malformed", "not JSON") from None
    if not isinstance(msg, dict):
        raise ServerError("malformed", "a message is a JSON object")
    return msg


async def _dispatch(
    service: MatchService, match_id: str, sub: Subscriber, msg: dict[str, Any]
) -> dict[str, Any] | None:
    """Do what a message asks: ``None`` when its answer is the broadcast state."""
    kind, seat = msg.get("type"), sub.seat
    if kind == "move":
        if "action" not in msg and "command" not in msg:
            raise ServerError("malformed", "a move needs an 'action' (or a 'command')")
        await service.move(
            match_id, seat, msg.get("action"), msg.get("version"), command=msg.get("command")
        )
        return None
    if kind == "undo":
        await service.undo(match_id, seat, msg.get("version"))
        return None
    if kind == "clock":  # skip a late seat's turn, or end the match (server/clocks.py)
        await service.clock_action(match_id, seat, msg.get("what"), msg.get("version"))
        return None
    if kind == "ping":
        return {"type": "pong", "id": msg.get("id")}
    if kind == "sync":  # a snapshot next, through the mailbox (so diffs follow from it)
        service.runtime(match_id)
        sub.resync()
        return None
    if isinstance(kind, str) and kind in service.handlers:  # chat.py's types
        return await service.handlers[kind](match_id, sub, msg)
    raise ServerError("malformed", f"unknown message type {kind!r}")


async def _handle(
    service: MatchService, match_id: str, sub: Subscriber, text: str | None
) -> dict[str, Any] | None:
    """The answer to one client message (``None``: none beyond the broadcast)."""
    request_id: Any = None
    try:
        msg = _parse(text)
        request_id = msg.get("id")
        return await _dispatch(service, match_id, sub, msg)
    except ServerError as err:
        out = err.as_dict()
    except Exception:  # a bug: logged, answered without its text (see app._unexpected)
        log.exception("unhandled error on the WebSocket of %s", match_id)
        out = ServerError("internal", "an error on the server (logged)", 500).as_dict()
    if request_id is not None:
        out["id"] = request_id
    return out


# -- the static layer ------------------------------------------------------------------

STATIC_CACHE = "public, max-age=31536000, immutable"
"""The static layer of a (game, config) never changes: its URL holds the config's digest."""
_statics: dict[str, str | None] = {}
"""``"game/digest"`` -> the static layer's document, built once per process."""


def _find_game(service: MatchService, name: str, digest: str) -> Game | None:
    """The game behind a static layer's URL: a config this process has loaded, else one
    of the stored matches of that game (another process may have made it)."""
    for game in list(service.games.values()):
        if game.name == name and config_digest(game) == digest:
            return game
    with Session(service.engine) as session:
        configs = session.execute(
            select(MatchRow.config).where(MatchRow.game == name).limit(500)
        ).scalars()
        for config in configs:
            try:
                game = service.game(name, config)
            except MotherlodeError:  # a config an older version accepted: not this board
                continue
            if config_digest(game) == digest:
                return game
    return None


@router.get("/board/{game}/{digest}.svg", include_in_schema=False)
async def static_layer(game: str, digest: str, request: Request, service: Service) -> Response:
    key = f"{game}/{digest}"
    etag = f'"{digest}"'
    if request.headers.get("if-none-match") == etag and _statics.get(key):
        return Response(status_code=304, headers={"ETag": etag, "Cache-Control": STATIC_CACHE})
    if key not in _statics:
        found = _find_game(service, game, digest)
        if found is None:
            return Response("no such board", status_code=404, media_type="text/plain")
        _statics[key] = static_svg(found)
    text = _statics[key]
    if text is None:
        return Response("this game's board has no static layer", 404, media_type="text/plain")
    return Response(
        text,
        media_type="image/svg+xml",
        headers={"ETag": etag, "Cache-Control": STATIC_CACHE},
    )

"""Chat per match: the players' channel and the spectators' channel, stored with the match.

* **Channels**: a seat (a token) reads and writes the ``players`` channel; a spectator
  reads the ``spectators`` channel and writes in it when logged in (an account names every
  spectator's message). Neither channel is shown to the other side, so nobody watching
  can tell a player anything during play.
* **Text** is stored as typed (control characters but newlines removed, trimmed) and is
  only ever put in a page as text (``textContent`` in ``static/chat.js``, Jinja's
  escaping elsewhere): a ``<script>`` in a message stays those characters.
  :data:`MAX_CHARS` at most; an empty message is refused.
* **Rate**: per seat of a match, or per spectator's account: a burst of :data:`BURST`,
  then one message each ``1 / RATE`` seconds (per server process).
* **Mute**: a seat may hide one other seat's messages, or the whole players' chat; kept
  in the database (``chat_mutes``), applied to what it is sent, history and live.

WebSocket messages (``server/ws.py`` dispatches them here):

* client: ``{"type": "chat_open"}`` (the history; live messages from then on),
  ``{"type": "chat", "text": "..."}``, ``{"type": "chat_mute", "seat": 1 | -1, "muted": true}``;
* server: ``{"type": "chat_history", "channel", "muted": [seats], "messages": [...]}``,
  ``{"type": "chat", "channel", "messages": [one message]}``; a message is
  ``{"id", "seat" (null: a spectator), "author", "text", "at"}``.

On PostgreSQL a message is announced with ``NOTIFY motherlode, 'c <match> <id> <origin>'``
in its own transaction: every process delivers it to its own watchers.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, delete, insert, select, text
from sqlalchemy.orm import Mapped, mapped_column

from motherlode.server.accounts import SESSION_COOKIE, Account, current
from motherlode.server.api import _body, _body_schema, _ok
from motherlode.server.db import Base, utcnow
from motherlode.server.deps import Service, bearer, json_errors
from motherlode.server.runtime import ServerError
from motherlode.server.service import CHANNEL, MatchService, Subscriber

MAX_CHARS = 500
"""Longest message (characters)."""
RATE = 0.5
"""Messages a second a seat (or a spectator's account) may send on average ..."""
BURST = 5.0
"""... and in a row."""
HISTORY = 200
"""Messages of a channel sent on opening the chat (the newest)."""
PLAYERS, SPECTATORS = "players", "spectators"
ALL = -1
"""``chat_mutes.muted`` for the whole players' chat."""

_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


class ChatMessageRow(Base):
    """One message of a match's chat."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that wrote it; ``None``: a spectator."""
    author: Mapped[str] = mapped_column(String(40))
    """As shown: ``P1``, ``P1 ann`` (a claimed seat) or a spectator's account name."""
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


class ChatMuteRow(Base):
    """A seat that hides another seat's messages (``muted`` = -1: the whole chat)."""

    __tablename__ = "chat_mutes"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    muted: Mapped[int] = mapped_column(Integer, primary_key=True)


def clean(raw: Any) -> str:
    """The message as stored, or the refusal that says what is wrong with it.

    >>> clean("  <b>hi</b>\\x07 ")
    '<b>hi</b>'
    >>> try:
    ...     clean("x" * 501)
    ... except ServerError as err:
    ...     print(err.code, err.message)
    chat_too_long a chat message has at most 500 characters (this one 501)
    """
    if not isinstance(raw, str):
        raise ServerError("malformed", "a chat message needs a 'text' (a string)")
    out = _CONTROL.sub("", raw.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not out:
        raise ServerError("chat_empty", "an empty chat message is not sent")
    if len(out) > MAX_CHARS:
        raise ServerError(
            "chat_too_long",
            f"a chat message has at most {MAX_CHARS} characters (this one {len(out)})",
        )
    return out


class Bucket:
    """A token bucket on an injectable clock (tests freeze it)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.tokens = BURST
        self.stamp = clock()

    def take(self) -> float:
        """0 if a message may go now, else the seconds until one may."""
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / RATE


def _as_dict(row: ChatMessageRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "seat": row.seat,
        "author": row.author,
        "text": row.text,
        "at": row.created_at.isoformat(timespec="seconds") + "Z",
    }


class Chat:
    """The chat of every match of one service."""

    def __init__(self, service: MatchService, clock: Callable[[], float] = time.monotonic):
        self.service = service
        self.engine = service.engine
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    # -- writing, reading -------------------------------------------------------------

    def _rate(self, key: str) -> None:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 50_000:
                self.buckets.clear()
            bucket = self.buckets[key] = Bucket(self.clock)
        wait = bucket.take()
        if wait:
            raise ServerError(
                "rate_limited",
                f"chat: at most {BURST:g} messages in a row, then one each {1 / RATE:g} s;"
                f" wait {math.ceil(wait)} s",
                429,
            )

    def post(
        self, match_id: str, seat: int | None, account: Account | None, raw: Any
    ) -> dict[str, Any]:
        """Store a message of ``seat`` (``None``: the spectator ``account``) and deliver it."""
        rt = self.service.runtime(match_id)  # not_found
        body = clean(raw)
        if seat is None:
            if account is None:
                raise ServerError(
                    "chat_login", "log in to write in the spectators' chat (reading is open)", 403
                )
            channel, author, key = SPECTATORS, account.name, f"user:{account.id}"
        else:
            info = rt.seats[seat]
            channel, key = PLAYERS, f"seat:{match_id}:{seat}"
            author = f"P{seat + 1}" + (f" {info.account}" if info.account else "")
        self._rate(key)
        now = utcnow()
        with self.engine.begin() as conn:
            new_id = conn.execute(
                insert(ChatMessageRow)
                .values(
                    match_id=match_id,
                    channel=channel,
                    seat=seat,
                    author=author[:40],
                    text=body,
                    created_at=now,
                )
                .returning(ChatMessageRow.id)
            ).scalar_one()
            if self.service.shared:
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {
                        "channel": CHANNEL,
                        "payload": f"c {match_id} {new_id} {self.service.origin}",
                    },
                )
        message = {
            "id": int(new_id),
            "seat": seat,
            "author": author[:40],
            "text": body,
            "at": now.isoformat(timespec="seconds") + "Z",
        }
        self.deliver(match_id, channel, message)
        return message

    def mutes(self, match_id: str) -> dict[int, set[int]]:
        """Per seat of ``match_id``: the seats it hides (``-1``: all)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ChatMuteRow.seat, ChatMuteRow.muted).where(ChatMuteRow.match_id == match_id)
            ).all()
        out: dict[int, set[int]] = {}
        for seat, muted in rows:
            out.setdefault(int(seat), set()).add(int(muted))
        return out

    def history(self, match_id: str, seat: int | None) -> dict[str, Any]:
        """The ``chat_history`` message for ``seat`` (``None``: a spectator)."""
        self.service.runtime(match_id)  # not_found
        channel = SPECTATORS if seat is None else PLAYERS
        hidden = self.mutes(match_id).get(seat, set()) if seat is not None else set()
        with self.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(ChatMessageRow)
                    .where(ChatMessageRow.match_id == match_id, ChatMessageRow.channel == channel)
                    .order_by(ChatMessageRow.id.desc())
                    .limit(HISTORY)
                )
                .mappings()
                .all()
            )
        messages = [
            _as_dict(ChatMessageRow(**dict(r)))
            for r in reversed(rows)
            if not _hidden(hidden, r["seat"])
        ]
        return {
            "type": "chat_history",
            "channel": channel,
            "muted": sorted(hidden),
            "messages": messages,
        }

    def set_mute(self, match_id: str, seat: int | None, target: Any, muted: Any) -> None:
        """Seat ``seat`` hides (``muted``) or shows again seat ``target``'s messages, or
        (``target`` -1) the whole players' chat."""
        if seat is None:
            raise ServerError("spectator", "only a seat mutes the players' chat", 403)
        rt = self.service.runtime(match_id)
        n = len(rt.seats)
        if isinstance(target, bool) or not isinstance(target, int) or not -1 <= target < n:
            raise ServerError(
                "malformed", f"'seat' is the seat to mute: 0 to {n - 1} (P1..P{n}), or -1 for all"
            )
        if target == seat:
            raise ServerError("malformed", "a seat cannot mute itself")
        with self.engine.begin() as conn:
            conn.execute(
                delete(ChatMuteRow).where(
                    ChatMuteRow.match_id == match_id,
                    ChatMuteRow.seat == seat,
                    ChatMuteRow.muted == target,
                )
            )
            if muted:
                conn.execute(insert(ChatMuteRow).values(match_id=match_id, seat=seat, muted=target))

    # -- delivering -------------------------------------------------------------------

    def deliver(self, match_id: str, channel: str, message: dict[str, Any]) -> None:
        """Push ``message`` to this process's watchers of its channel that opened the chat
        and do not hide its author."""
        subs = [s for s in self.service.subscribers.get(match_id, ()) if s.extra.get("chat")]
        if not subs:
            return
        mutes = self.mutes(match_id) if channel == PLAYERS else {}
        out = json.dumps({"type": "chat", "channel": channel, "messages": [message]})
        for sub in subs:
            if (sub.seat is None) != (channel == SPECTATORS):
                continue
            if sub.seat is not None and _hidden(mutes.get(sub.seat, set()), message["seat"]):
                continue
            sub.push(out)

    def remote(self, match_id: str, message_id: int) -> None:
        """Another process stored a message (its NOTIFY): deliver it here."""
        if match_id not in self.service.subscribers:
            return
        with self.engine.connect() as conn:
            row = (
                conn.execute(select(ChatMessageRow).where(ChatMessageRow.id == message_id))
                .mappings()
                .first()
            )
        if row is not None:
            self.deliver(match_id, row["channel"], _as_dict(ChatMessageRow(**dict(row))))

    # -- the WebSocket ----------------------------------------------------------------

    async def ws_open(self, match_id: str, sub: Subscriber, _msg: dict[str, Any]) -> dict[str, Any]:
        sub.extra["chat"] = True
        return self.history(match_id, sub.seat)

    async def ws_post(self, match_id: str, sub: Subscriber, msg: dict[str, Any]) -> None:
        sub.extra["chat"] = True
        self.post(match_id, sub.seat, self._account(sub), msg.get("text"))

    async def ws_mute(self, match_id: str, sub: Subscriber, msg: dict[str, Any]) -> dict[str, Any]:
        self.set_mute(match_id, sub.seat, msg.get("seat"), bool(msg.get("muted", True)))
        sub.extra["chat"] = True
        return self.history(match_id, sub.seat)

    def _account(self, sub: Subscriber) -> Account | None:
        """The logged-in account of a spectator's connection (its session cookie)."""
        if sub.seat is not None:
            return None
        if "account" not in sub.extra:
            websocket = sub.extra.get("websocket")
            account = None
            if websocket is not None:
                accounts = websocket.app.state.accounts
                account = accounts.account(websocket.cookies.get(SESSION_COOKIE))
            sub.extra["account"] = account
        found: Account | None = sub.extra["account"]
        return found


def _hidden(hidden: set[int], author_seat: int | None) -> bool:
    return bool(hidden) and (ALL in hidden or (author_seat is not None and author_seat in hidden))


# -- the API ---------------------------------------------------------------------------

router = APIRouter()


class ChatMessage(BaseModel):
    id: int
    seat: int | None
    author: str
    text: str
    at: str


class ChatHistory(BaseModel):
    type: str
    channel: str
    muted: list[int]
    messages: list[ChatMessage]


def chat_of(request: Request) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


_TEXT = {"type": "string", "description": f"the message: 1 to {MAX_CHARS} characters"}
_MUTE = {
    "seat": {"type": "integer", "description": "the seat to hide (0 is P1); -1: the whole chat"},
    "muted": {"type": "boolean", "description": "hide (default) or show again"},
}


@router.get(
    "/api/matches/{match_id}/chat",
    response_model=None,
    responses={**_ok(ChatHistory), **json_errors(403, 404, 422)},
)
async def get_chat(request: Request, match_id: str, service: Service) -> dict[str, Any]:
    """The chat of the bearer's channel (a seat: the players'; none: the spectators')."""
    seat = service.authenticate(match_id, bearer(request))
    return chat_of(request).history(match_id, seat)


@router.post(
    "/api/matches/{match_id}/chat",
    status_code=201,
    response_model=None,
    responses={**_ok(ChatMessage, 201), **json_errors(400, 403, 404, 422, 429)},
    openapi_extra=_body_schema({"text": _TEXT}, ["text"]),
)
async def post_chat(request: Request, match_id: str, service: Service) -> JSONResponse:
    """Write in the bearer seat's channel (none: the spectators', as the logged-in account)."""
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    account = current(request) if seat is None else None
    return JSONResponse(chat_of(request).post(match_id, seat, account, body.get("text")), 201)


@router.post(
    "/api/matches/{match_id}/chat/mute",
    response_model=None,
    responses={**_ok(ChatHistory), **json_errors(400, 403, 404, 422)},
    openapi_extra=_body_schema(_MUTE, ["seat"]),
)
async def mute_chat(request: Request, match_id: str, service: Service) -> dict[str, Any]:
    """The bearer seat hides (or shows again) a seat's messages; ``seat`` -1: all."""
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    chat = chat_of(request)
    chat.set_mute(match_id, seat, body.get("seat"), body.get("muted", True) is not False)
    return chat.history(match_id, seat)


def install(app: Any, clock: Callable[[], float] = time.monotonic) -> Chat:
    """Give ``app`` its chat (``app.state.chat``): the WebSocket's types, the API."""
    service: MatchService = app.state.service
    chat = Chat(service, clock)
    app.state.chat = chat
    service.handlers["chat_open"] = chat.ws_open
    service.handlers["chat"] = chat.ws_post
    service.handlers["chat_mute"] = chat.ws_mute
    service.notices["c"] = chat.remote
    app.include_router(router)
    return chat

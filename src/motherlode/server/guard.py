"""What stands between one bad visitor and the service: an ASGI middleware around the app.

* **Headers** on every HTTP answer: a Content-Security-Policy (scripts, styles, images
  and connections from this origin only; no framing: ``frame-ancestors 'none'``),
  ``X-Frame-Options: DENY`` for older browsers, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``.
* **A body limit** on every endpoint: a request whose body is larger than
  :attr:`Limits.max_body` is refused with 413 before the app reads it (by its
  ``Content-Length``, or, for a chunked body, as soon as the bytes go over).
* **Per-client rate limits** on HTTP (WebSockets have their own, per connection): token
  buckets per client address and kind of request — creating a match, joining a seat,
  everything else — each answered with 429 ``rate_limited`` and ``Retry-After`` beyond its
  rate. The address is the connection's peer; behind a proxy, run the server with
  uvicorn's ``--proxy-headers`` so that it is the visitor's.

The page forms carry a CSRF token (:func:`csrf_token`, checked by :func:`check_csrf`):
a random value in a ``SameSite=Strict`` cookie that a form must echo, so another site
cannot post a form as the visitor.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from motherlode.server.runtime import ServerError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
    " img-src 'self' data:; connect-src 'self' ws: wss:; font-src 'self';"
    " frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
"""Inline styles are allowed (the boards' SVG carries style attributes); inline scripts
are not: every script of the pages is a file under /static."""

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]

CSRF_COOKIE = "motherlode_csrf"
CSRF_FIELD = "csrf"


@dataclass(frozen=True)
class Rate:
    """A token bucket's refill rate (per second) and its burst."""

    per_second: float
    burst: float


@dataclass(frozen=True)
class Limits:
    """The guard's limits (``create_app(limits=...)``); :meth:`off` for tests of the rest."""

    max_body: int = 256 * 1024
    create: Rate = Rate(10 / 60, 5)
    """Matches created per client: 10 a minute, 5 at once."""
    join: Rate = Rate(30 / 60, 10)
    """Seats joined per client: 30 a minute, 10 at once."""
    other: Rate = Rate(50.0, 100)
    """Every other request per client (pages, the API, static files)."""
    preview: Rate = Rate(30.0, 120)
    """Command previews per client (a page asks one per click or drag step): generous,
    and apart from the moves' bucket."""
    login: Rate = Rate(10 / 60, 5)
    """Log-in and recovery attempts per client: 10 a minute, 5 at once."""
    login_account: Rate = Rate(10 / 60, 5)
    """Log-in and recovery attempts per account name, from any client (accounts.py)."""
    clients: int = 100_000
    """Buckets kept (the least recently seen clients are forgotten first)."""

    @classmethod
    def off(cls) -> Limits:
        unlimited = Rate(math.inf, math.inf)
        return cls(
            max_body=256 * 1024,
            create=unlimited,
            join=unlimited,
            other=unlimited,
            preview=unlimited,
            login=unlimited,
            login_account=unlimited,
        )


def kind_of(method: str, path: str) -> str:
    """Which bucket a request draws from: ``login``, ``create``, ``join``, ``preview`` or
    ``other``."""
    if method == "POST" and path in ("/login", "/recover"):
        return "login"
    if method == "POST" and (
        path in ("/api/matches", "/new", "/play")
        or path.endswith(("/rematch", "/analysis"))  # an analysis costs as a match does
    ):
        return "create"
    if method == "POST" and path.startswith("/api/matches/") and path.endswith("/preview"):
        return "preview"
    if method == "POST" and ("/join" in path):
        return "join"
    return "other"


class Buckets:
    """Token buckets per (client, kind), the least recently used forgotten first."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def take(self, client: str, kind: str) -> float:
        """0 when the request may go on, else the seconds until it could."""
        rate: Rate = getattr(self.limits, kind)
        if math.isinf(rate.per_second):
            return 0.0
        now = self.clock()
        key = (client, kind)
        tokens, stamp = self.buckets.pop(key, (rate.burst, now))
        tokens = min(rate.burst, tokens + (now - stamp) * rate.per_second)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / rate.per_second
        self.buckets[key] = (tokens, now)
        while len(self.buckets) > self.limits.clients:
            self.buckets.popitem(last=False)
        return wait


class Guard:
    """The ASGI middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp, limits: Limits | None = None) -> None:
        self.app = app
        self.limits = limits or Limits()
        self.buckets = Buckets(self.limits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        wait = self.buckets.take(client, kind_of(scope["method"], scope["path"]))
        if wait:
            await _refuse(
                send,
                429,
                "rate_limited",
                f"too many requests; try again in {math.ceil(wait)} s",
                ((b"retry-after", str(math.ceil(wait)).encode()),),
            )
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        limit = self.limits.max_body
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, "message_too_large", f"bodies are limited to {limit} bytes")
            return

        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise ServerError(
                        "message_too_large", f"bodies are limited to {limit} bytes", 413
                    )
            return message

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, limited_receive, with_headers)


async def _refuse(
    send: Send, status: int, code: str, message: str, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), *HEADERS, *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def csrf_token(request: Request) -> str:
    """This visitor's CSRF token (the cookie's, or a new one that :func:`set_csrf` sets)."""
    token = request.cookies.get(CSRF_COOKIE, "")
    if len(token) < 16:
        token = getattr(request.state, "csrf_new", "") or secrets.token_urlsafe(24)
        request.state.csrf_new = token
    return token


def set_csrf(request: Request, response: Response) -> Response:
    """Set the CSRF cookie on ``response`` if :func:`csrf_token` made a new one."""
    token = getattr(request.state, "csrf_new", "")
    if token:
        response.set_cookie(
            CSRF_COOKIE, token, httponly=True, samesite="strict", path="/", max_age=86400 * 30
        )
    return response


def check_csrf(request: Request, form: dict[str, str]) -> None:
    """Refuse a form post whose CSRF field is not this visitor's cookie (403 ``csrf``)."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = form.pop(CSRF_FIELD, "")
    if not cookie or not secrets.compare_digest(cookie, sent):
        raise ServerError(
            "csrf",
            "this form did not come from this site's page (reload the page and retry)",
            403,
        )

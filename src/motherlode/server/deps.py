"""What the routers share: the service as a dependency, the page renderer, the error answer.

Every router (:mod:`~motherlode.server.pages`, :mod:`~motherlode.server.api`,
:mod:`~motherlode.server.ws`) reaches the one :class:`MatchService` of its application
through :data:`Service` (``app.state.service``, set by ``create_app``), so a router holds no
state of its own and the same routers serve any number of applications (one per test).
"""

from __future__ import annotations

import pathlib
import urllib.parse
from typing import Annotated, Any

from fastapi import Depends, Path, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel
from starlette.requests import HTTPConnection

import motherlode
from motherlode.server.guard import check_csrf, csrf_token, set_csrf
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService

HERE = pathlib.Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))


def get_service(conn: HTTPConnection) -> MatchService:
    """The application's match service (a request's or a WebSocket's)."""
    service: MatchService = conn.app.state.service
    return service


Service = Annotated[MatchService, Depends(get_service)]
"""A route parameter typed ``Service`` receives the application's :class:`MatchService`."""


SeatNumber = Annotated[int, Path(ge=0, le=2**31 - 1, description="a seat: 0 is P1")]
"""A seat in a path: a database integer (a bigger one was a 500 from the database)."""


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template ``name`` rendered with ``context``, the package version and the
    visitor's CSRF token (its cookie set when it is new), which every form echoes."""
    token = csrf_token(request)
    response = templates.TemplateResponse(
        request,
        name,
        {"version": motherlode.__version__, "csrf": token, **context},
        status_code=status,
    )
    set_csrf(request, response)
    return response


def error_response(err: ServerError) -> JSONResponse:
    """The JSON answer to a refused request: ``{"error": {"code", "message"}}``."""
    return JSONResponse({"error": {"code": err.code, "message": err.message}}, err.status)


def bearer(request: Request) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``; ``None``: a spectator."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


async def read_form(request: Request, limit: int) -> dict[str, str]:
    """A URL-encoded form body (what the pages post), at most ``limit`` bytes (else 413),
    whose CSRF field matches the visitor's cookie (else 403 ``csrf``)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ServerError("message_too_large", f"forms are limited to {limit} bytes", 413)
    pairs = urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    form = dict(pairs)
    check_csrf(request, form)
    return form


# -- the error answers, as the OpenAPI schema declares them ------------------------------


class ErrorDetail(BaseModel):
    code: str
    """``malformed``, ``invalid_move``, ``not_found`` ... (docs/server.md)."""
    message: str


class ErrorBody(BaseModel):
    """Every refusal of the JSON API (and of a page's oversized form)."""

    error: ErrorDetail


_WHEN = {
    400: "Refused: malformed, invalid_move, not_your_turn, match_over, invalid_config ...",
    403: "Refused: invalid_token, spectator, not_public, match_running",
    404: "Refused: not_found",
    409: "Refused: stale_state, seat_taken",
    413: "Refused: message_too_large",
    422: "Refused: malformed (a path or query parameter of the wrong type)",
    429: "Refused: rate_limited",
    500: "A bug on the server: internal, naming only its incident number",
}


_JSON = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
_HTML = {"text/html": {"schema": {"type": "string"}}}


def json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of an API route: the statuses it can refuse with, and 500.

    A route with parameters names 422 (FastAPI would otherwise declare its own
    ``HTTPValidationError``, which ``create_app`` answers as an :class:`ErrorBody`).
    """
    return {code: {"model": ErrorBody, "description": _WHEN[code]} for code in (*codes, 500)}


def html_errors(*codes: int, json: tuple[int, ...] = ()) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a page: error pages (HTML) with ``codes``, and 500; JSON refusals
    (an :class:`ErrorBody`) with the statuses ``json`` (413: a form over its limit; 422: a
    parameter of the wrong type)."""
    out: dict[int | str, dict[str, Any]] = {
        code: {"description": _WHEN[code], "content": _HTML} for code in (*codes, 500)
    }
    for code in json:
        out[code] = {"description": _WHEN[code], "content": _JSON}
    return out

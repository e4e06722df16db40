"""The JSON API under ``/api`` (OpenAPI at ``/api/docs``).

Each route declares its answers: the success model where its shape is fixed and every
refusal it can give (``{"error": {"code", "message"}}``, :data:`~.deps.ErrorBody`), so that
a client (or schemathesis, ``tests/server/test_openapi_fuzz.py``) can hold the server to
them. Request bodies are read by the routes themselves, not by FastAPI, so that a bad one
is refused in the same shape (``malformed``); the schema still describes them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel

from motherlode.games import registry
from motherlode.server import clocks
from motherlode.server.deps import SeatNumber, Service, bearer, json_errors
from motherlode.server.fairness import verify_record
from motherlode.server.ratings import set_rated
from motherlode.server.runtime import MatchRuntime, ServerError, strip_actions
from motherlode.server.service import SeatRequest, file_options

router = APIRouter(prefix="/api")

MAX_BODY = 4096
"""Largest body (bytes of JSON) of a move or an undo; bigger: ``message_too_large``."""


# -- the answers ---------------------------------------------------------------------------


class OptionInfo(BaseModel):
    option: str
    default: str
    """The default, as Python writes it (``repr``)."""
    description: str


class GameInfo(BaseModel):
    game: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    online_blocked_options: list[str]
    """Options that name files on the server: not settable online."""


class SeatSummary(BaseModel):
    seat: int
    kind: str
    spec: str
    name: str
    open: bool


class MatchSummary(BaseModel):
    id: str
    game: str
    config: dict[str, Any]
    status: str
    public: bool
    version: int
    seed_sha256: str
    updated_at: str
    seats: list[SeatSummary]
    scores: list[float] | None


class SeatLink(BaseModel):
    seat: int
    token: str
    """The seat's secret key (shown once): ``Authorization: Bearer <token>``."""
    link: str


class CreatedInfo(BaseModel):
    id: str
    seed_sha256: str
    watch: str
    seats: list[SeatLink]


class PlayerInfo(BaseModel):
    seat: int
    kind: str
    spec: str
    name: str
    joined: bool


class LegalAction(BaseModel):
    id: int
    text: str


class OutcomeInfo(BaseModel):
    winners: list[int]
    scores: list[float]


class MatchState(BaseModel):
    """The view of one seat (``seat``: ``null`` for a spectator), as the WebSocket sends it."""

    type: str
    match: str
    game: str
    config: dict[str, Any]
    version: int
    seat: int | None
    status: str
    to_move: int | None
    terminal: bool
    players: list[PlayerInfo]
    view: dict[str, Any]
    """``observation(seat)``: whatever the game shows that seat."""
    svg: str
    legal: list[LegalAction]
    log: list[dict[str, Any]]
    scores: list[float] | None
    outcome: OutcomeInfo | None
    summary: dict[str, Any] | None
    can_undo: bool
    seed_sha256: str
    seed: str | None
    clock: dict[str, Any] | None = None
    """The clock (``null``: none): each seat's ``remaining`` seconds as of ``since`` (epoch
    seconds), the ``running`` seat, the ``late`` one the others may skip or end."""


class RecordInfo(BaseModel):
    """A game record (``motherlode replay`` re-plays it)."""

    game: str
    config: dict[str, Any]
    players: list[str]
    seed: int | None
    actions: list[str]
    scores: list[float] | None
    date: str
    format: str
    versions: dict[str, Any]
    events: list[dict[str, Any]] = []
    """Clock events (not actions), when the match had a clock and one ran out."""


class VerifyInfo(BaseModel):
    ok: bool
    summary: str
    actions: int
    chance_events: int
    seed: str
    seed_sha256: str
    problems: list[str]


class ReplayStep(BaseModel):
    step: int
    steps: int
    svg: str
    last: str | None
    scores: list[float]


class CommandPreview(BaseModel):
    """What a command would do (``state.preview``): not a move."""

    type: str
    version: int
    command: str
    summary: str
    details: list[str]
    actions: list[int]
    texts: list[str]
    overlay: str


def _ok(model: Any, status: int = 200) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, "description": "Done"}}


def _body_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """``openapi_extra`` describing a JSON body that the route reads itself."""
    schema = {"type": "object", "properties": properties, "required": required}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


_ACTION = {"oneOf": [{"type": "string"}, {"type": "integer"}], "description": "notation or id"}
_VERSION = {"type": "integer", "description": "the match's version the request was made at"}
_COMMAND = {"type": "string", "description": "a command for people: 'build to Lyon'"}
_SEAT = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["human", "bot"]},
        "spec": {
            "type": "string",
            "description": "a bot's agent spec: greedy, mcts:iterations=500",
        },
        "name": {"type": "string"},
    },
}
_CREATE = _body_schema(
    {
        "game": {"type": "string", "description": "a registered game (GET /api/games)"},
        "config": {"type": "object", "description": "the game's options"},
        "seats": {"type": "array", "items": _SEAT},
        "public": {"type": "boolean", "description": "anyone in the lobby may take an open seat"},
        "rated": {
            "type": "boolean",
            "description": "rated (no undo, no hint until it ends; ratings change) or"
            " friendly (the default)",
        },
        "clock": {
            "type": ["object", "null"],
            "description": "null: no clock; {kind: fischer, base_minutes, increment_seconds}"
            " or {kind: days, days_per_move}; bot_takeover: a late seat's turns go to the"
            " greedy bot where its game has no pass",
        },
        "creator_seat": {
            "type": ["integer", "null"],
            "description": "the creator's own seat, taken at creation (default: the first"
            " human seat; null: every human seat open, a match set up for others)",
        },
    },
    ["game", "seats"],
)


# -- the routes ---------------------------------------------------------------------------


@router.get("/games", response_model=None, responses={**_ok(list[GameInfo]), **json_errors()})
async def api_games() -> list[dict[str, Any]]:
    return [
        {
            "game": name,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "options": [
                {"option": k, "default": d, "description": h} for k, d, h in cls.option_help()
            ],
            "online_blocked_options": sorted(file_options(cls)),
        }
        for name, cls in registry().items()
    ]


@router.get(
    "/matches", response_model=None, responses={**_ok(list[MatchSummary]), **json_errors(422)}
)
async def api_matches(service: Service, status: str | None = None) -> list[dict[str, Any]]:
    return await asyncio.to_thread(service.list_matches, status)  # a query: off the loop


def _seat_requests(body: dict[str, Any]) -> list[SeatRequest]:
    seats_raw = body.get("seats") or []
    if not isinstance(body.get("config") or {}, dict) or not isinstance(seats_raw, list):
        raise ServerError("malformed", "config is an object, seats a list")
    seats = []
    for s in seats_raw:
        if not isinstance(s, dict):
            raise ServerError("malformed", "each seat is an object")
        kind = str(s.get("kind", "human"))
        seats.append(SeatRequest(kind, str(s.get("spec", "human")), str(s.get("name", ""))))
    return seats


@router.post(
    "/matches",
    status_code=201,
    response_model=None,
    responses={**_ok(CreatedInfo, 201), **json_errors(400)},
    openapi_extra=_CREATE,
)
async def api_create(request: Request, service: Service) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise ServerError("malformed", "the body must be JSON") from None
    if not isinstance(body, dict):
        raise ServerError("malformed", "the body must be a JSON object")
    seats = _seat_requests(body)
    claim = body.get("creator_seat", -1)
    if claim is not None and (isinstance(claim, bool) or not isinstance(claim, int)):
        raise ServerError("malformed", "creator_seat is a seat number (0 for P1) or null")
    try:
        terms = clocks.parse_terms(body.get("clock"))
    except ValueError as err:
        raise ServerError("invalid_clock", str(err)) from None
    created = service.create_match(
        str(body.get("game", "")),
        body.get("config") or {},
        seats,
        public=body.get("public") is True,
        claim=claim,
        clock=terms.spec(),
    )
    set_rated(service.engine, created.id, body.get("rated") is True)
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


def _state(payload: str) -> Response:
    return Response(payload, media_type="application/json")


async def _payload(rt: MatchRuntime, seat: int | None) -> str:
    """The match's state as ``seat`` sees it, drawn off the event loop (a big board
    takes tens of milliseconds) unless it is ready."""
    future = rt.payload_soon(seat)
    return future.result() if future.done() else await asyncio.wrap_future(future)


@router.get(
    "/matches/{match_id}",
    response_model=None,
    responses={**_ok(MatchState), **json_errors(403, 404, 422)},
)
async def api_state(request: Request, match_id: str, service: Service) -> Response:
    seat = service.authenticate(match_id, bearer(request))
    await service.check_clock(match_id)
    return _state(await _payload(service.runtime(match_id), seat))


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ServerError("message_too_large", f"requests are limited to {MAX_BODY} bytes")
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise ServerError("malformed", "the body must be JSON") from None
    if not isinstance(body, dict):
        raise ServerError("malformed", "the body must be a JSON object")
    return body


@router.post(
    "/matches/{match_id}/move",
    response_model=None,
    responses={**_ok(MatchState), **json_errors(400, 403, 404, 409, 422)},
    openapi_extra=_body_schema(
        {"action": _ACTION, "command": _COMMAND, "version": _VERSION}, ["version"]
    ),
)
async def api_move(request: Request, match_id: str, service: Service) -> Response:
    """A move: an atomic ``action``, or a ``command`` for people (``build to Lyon``)
    applied as one step (one version push, one undo unit, one log line)."""
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    if "action" not in body and "command" not in body:
        raise ServerError("malformed", "a move needs an 'action' (or a 'command')")
    rt = await service.move(
        match_id, seat, body.get("action"), body.get("version"), command=body.get("command")
    )
    return _state(await _payload(rt, seat))


@router.post(
    "/matches/{match_id}/preview",
    response_model=None,
    responses={**_ok(CommandPreview), **json_errors(400, 403, 404, 422)},
    openapi_extra=_body_schema({"command": _COMMAND}, ["command"]),
)
async def api_preview(request: Request, match_id: str, service: Service) -> dict[str, Any]:
    """What a command would do (route, cost, what remains, an SVG overlay): not a move."""
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    if "command" not in body:
        raise ServerError("malformed", "a preview needs a 'command'")
    return service.preview(match_id, seat, body["command"])


@router.post(
    "/matches/{match_id}/undo",
    response_model=None,
    responses={**_ok(MatchState), **json_errors(400, 403, 404, 409, 422)},
    openapi_extra=_body_schema({"version": _VERSION}, ["version"]),
)
async def api_undo(request: Request, match_id: str, service: Service) -> Response:
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    rt = await service.undo(match_id, seat, body.get("version"))
    return _state(await _payload(rt, seat))


@router.post(
    "/matches/{match_id}/clock",
    response_model=None,
    responses={**_ok(MatchState), **json_errors(400, 403, 404, 409, 422)},
    openapi_extra=_body_schema(
        {"what": {"type": "string", "enum": ["skip", "end"]}, "version": _VERSION},
        ["what", "version"],
    ),
)
async def api_clock(request: Request, match_id: str, service: Service) -> Response:
    """The others' answer to a seat out of time: ``skip`` its turn (its game's pass, or
    the greedy bot where agreed) or ``end`` the match (the late seat forfeits)."""
    body = await _body(request)
    seat = service.authenticate(match_id, bearer(request))
    rt = await service.clock_action(match_id, seat, body.get("what"), body.get("version"))
    return _state(await _payload(rt, seat))


@router.post(
    "/matches/{match_id}/seats/{seat}/join",
    response_model=None,
    responses={**_ok(SeatLink), **json_errors(400, 403, 404, 409, 422)},
)
async def api_join(
    request: Request, match_id: str, seat: SeatNumber, service: Service
) -> dict[str, Any]:
    token = service.join(match_id, seat)
    base = str(request.base_url).rstrip("/")
    return {"seat": seat, "token": token, "link": f"{base}/m/{match_id}#t={token}"}


@router.get(
    "/matches/{match_id}/record",
    response_model=None,
    responses={**_ok(RecordInfo), **json_errors(403, 404, 422)},
)
async def api_record(match_id: str, service: Service) -> Response:
    record = service.record(match_id)
    return Response(
        record.to_json() + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{record.game}-{match_id}.json"'},
    )


@router.get(
    "/matches/{match_id}/verify",
    response_model=None,
    responses={**_ok(VerifyInfo), **json_errors(403, 404, 422)},
)
async def api_verify(match_id: str, service: Service) -> dict[str, Any]:
    rt = service.runtime(match_id)
    result = verify_record(service.record(match_id), rt.seed_sha256)
    return {
        "ok": result.ok,
        "summary": result.summary(),
        "actions": result.actions,
        "chance_events": result.chance_events,
        "seed": str(rt.seed),
        "seed_sha256": rt.seed_sha256,
        "problems": result.problems,
    }


@router.get(
    "/matches/{match_id}/replay/{step}",
    response_model=None,
    responses={**_ok(ReplayStep), **json_errors(403, 404, 422)},
)
async def api_replay(match_id: str, step: int, service: Service) -> dict[str, Any]:
    rt = service.runtime(match_id)
    service.record(match_id)  # finished matches only
    step = max(0, min(step, len(rt.entries)))
    state = rt.game.new_initial_state()
    for entry in rt.entries[:step]:
        state.apply_string(entry.text)
    return {
        "step": step,
        "steps": len(rt.entries),
        "svg": strip_actions(state.render_svg(None)),
        "last": rt.entries[step - 1].text if step else None,
        "scores": [float(s) for s in state.scores()],
    }

"""The HTML pages: lobby, new-match form, match, replay, verification.

A refusal on a page is an error page with the refusal's status (404, 403 ...); a form body
over its limit is answered as the API answers it (JSON, 413).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

import motherlode
from motherlode.core.errors import RecordError
from motherlode.core.records import GameRecord
from motherlode.games import registry
from motherlode.server import forms
from motherlode.server.clocks import ClockTerms
from motherlode.server.deps import SeatNumber, Service, html_errors, page, read_form
from motherlode.server.fairness import Verification, verify_record
from motherlode.server.ratings import on_account
from motherlode.server.runtime import ServerError
from motherlode.server.service import CreatedMatch, SeatRequest, file_options

router = APIRouter(default_response_class=HTMLResponse)

NEW_FORM_LIMIT = 64 * 1024
"""Largest new-match form (bytes)."""
VERIFY_FORM_LIMIT = 8 * 1024 * 1024
"""Largest pasted record on ``/verify`` (bytes)."""


@router.get("/", responses=html_errors())
async def lobby(request: Request, service: Service) -> HTMLResponse:
    matches = await asyncio.to_thread(service.list_matches, None, 100)  # off the loop
    running = [m for m in matches if m["status"] == "running"]
    return page(
        request,
        "lobby.html",
        games=forms.game_choices(),
        open=[m for m in running if _has_open(m)],
        running=[m for m in running if not _has_open(m)],
        finished=[m for m in matches if m["status"] == "finished"][:30],
    )


@router.get("/new", responses=html_errors(404, json=(422,)))
async def new_form(request: Request, game: str = "yukon") -> HTMLResponse:
    try:
        cls = registry()[game]
    except KeyError:
        return page(request, "error.html", 404, message=f"no game {game!r}")
    return _form_page(request, cls, None, {}, {})


def _seat_rows(
    cls: type[motherlode.Game], values: dict[str, str], seat_errors: dict[int, str]
) -> list[dict[str, Any]]:
    """The form's seat rows: kind, agent spec, name and error of each possible seat."""
    players = int(values.get("players") or cls.Config.model_fields["players"].default)
    bot = forms.default_bot(cls)
    return [
        {
            "index": i,
            "kind": values.get(f"seat{i}_kind", "human" if i == 0 else "bot"),
            "spec": values.get(f"seat{i}_spec", bot),
            "name": values.get(f"seat{i}_name", ""),
            "error": seat_errors.get(i, ""),
            "active": i < players,
        }
        for i in range(cls.max_players)
    ]


def _form_page(
    request: Request,
    cls: type[motherlode.Game],
    values: dict[str, str] | None,
    errors: dict[str, str],
    seat_errors: dict[int, str],
    status: int = 200,
) -> HTMLResponse:
    fields = forms.config_fields(cls, values)
    for f in fields:
        f.error = errors.get(f.name, "")
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
        blocked=file_options(cls),
        general_error=errors.get("", ""),
        seats=_seat_rows(cls, values or {}, seat_errors),
        agents=agents,
        min_players=cls.min_players,
        max_players=cls.max_players,
        public=(values or {}).get("public") == "on",
        rated=(values or {}).get("rated") == "on",
        clock=_clock_form(values or {}, errors),
    )


def _clock_form(values: dict[str, str], errors: dict[str, str]) -> dict[str, Any]:
    """The clock fieldset's values (the defaults of :class:`~.clocks.ClockTerms`) and errors."""
    out: dict[str, Any] = {"kind": values.get("clock_kind", "none")}
    out["bot_takeover"] = values.get("clock_bot_takeover") == "on"
    for name, info in ClockTerms.model_fields.items():
        if name in ("kind", "bot_takeover"):
            continue
        out[name] = values.get(f"clock_{name}", f"{info.default:g}")
        out[f"{name}_error"] = errors.get(f"clock_{name}", "")
    out["error"] = errors.get("clock_kind", "") or errors.get("clock_", "")
    return out


@router.post("/new", responses=html_errors(404, 422, json=(403, 413)))
async def new_submit(request: Request, service: Service) -> HTMLResponse:
    values = await read_form(request, NEW_FORM_LIMIT)
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
    seats: list[SeatRequest] = []
    seat_errors: dict[int, str] = {}
    if seat_game is not None:
        seats, seat_errors = forms.seat_requests(seat_game, values)
    terms, clock_errors = forms.clock_terms(values)
    errors |= {f"clock_{k}": v for k, v in clock_errors.items()}
    if game is None or seat_errors or terms is None:
        return _form_page(request, cls, values, errors, seat_errors, 422)
    try:
        created = service.create_match(
            game_name, options, seats, public=values.get("public") == "on", clock=terms.spec()
        )
    except ServerError as err:
        return _form_page(request, cls, values, {"": err.message}, {}, 422)
    on_account(request, service, created, values.get("rated") == "on")
    service.kick_bots(created.id)
    return _created_page(request, game_name, created, seats)


def _created_page(
    request: Request, game_name: str, created: CreatedMatch, seats: list[SeatRequest]
) -> HTMLResponse:
    """The invitation links of a new match (one per open seat) and its spectator link."""
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


@router.get("/m/{match_id}", responses=html_errors(404, json=(422,)))
async def match_page(request: Request, match_id: str, service: Service) -> HTMLResponse:
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
        server_now=int(time.time() * 1000),
    )


@router.post(
    "/m/{match_id}/join/{seat}",
    response_model=None,
    responses={
        303: {"description": "Seated: on to the match page with the seat's new token"},
        **html_errors(400, 403, 404, 409, json=(422,)),
    },
)
async def join_page(
    request: Request, match_id: str, seat: SeatNumber, service: Service
) -> Response:
    try:
        await read_form(request, 4096)  # the CSRF check
        token = service.join(match_id, seat)
    except ServerError as err:
        return page(request, "error.html", err.status, message=err.message, link="/")
    return RedirectResponse(f"/m/{match_id}#t={token}", status_code=303)


@router.get("/m/{match_id}/replay", responses=html_errors(403, 404, json=(422,)))
async def replay_page(request: Request, match_id: str, service: Service) -> HTMLResponse:
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
    log = rt.log_for(None)
    return page(
        request,
        "replay.html",
        match_id=match_id,
        game=rt.game.name,
        steps=len(rt.entries),
        log=log,
        setup=sum(1 for e in log if e.get("setup")),
    )


@router.get("/m/{match_id}/verify", responses=html_errors(404, json=(422,)))
async def verify_page(request: Request, match_id: str, service: Service) -> HTMLResponse:
    try:
        rt = service.runtime(match_id)
    except ServerError as err:
        return page(request, "error.html", err.status, message=err.message)
    result = verify_record(service.record(match_id), rt.seed_sha256) if rt.finished else None
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


@router.get("/verify", responses=html_errors())
async def verify_upload_form(request: Request) -> HTMLResponse:
    return page(request, "verify_upload.html", result=None, record="", sha="")


@router.post("/verify", responses=html_errors(json=(403, 413)))
async def verify_upload(request: Request) -> HTMLResponse:
    raw = await read_form(request, VERIFY_FORM_LIMIT)
    text = raw.get("record", "")
    sha = raw.get("sha256", "").strip() or None
    try:
        result = verify_record(GameRecord.from_json(text, "the pasted record"), sha)
    except RecordError as err:
        result = Verification(ok=False, problems=[str(err)])
    return page(request, "verify_upload.html", result=result, record=text, sha=sha or "")


def _has_open(match: dict[str, Any]) -> bool:
    return any(s["open"] for s in match["seats"])

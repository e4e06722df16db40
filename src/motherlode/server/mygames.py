"""My games: the rematch of a finished match, the account's dashboard, "play now".

* **Rematch** (``POST /api/matches/{id}/rematch``, a seat's token as bearer): the first
  player who asks creates the new match: the same game and config, bots at the same
  level, the same seats' accounts (their claims copied), rated as the first one was,
  a fresh seed; never public (nobody else can take a seat). Every player of the old match
  who asks (the same call) gets the new match's token of their own seat: the token is
  derived from the old one (HMAC-SHA256 keyed by the old token over the new match's id),
  so asking twice gives the same token and nobody stores it. The old match's watchers
  are told at once (``{"type": "rematch", "match": id}`` on its WebSocket), and its page
  shows the rematch on later visits.
* **Dashboard** (``/me``, JSON ``/api/me/games``): the logged-in account's running
  matches, those where it is its turn first (the longest waiting first), then the others
  (the latest move first), each with the time left on the account's clock there
  (``time_left``: a Fischer bank, or what is left of the days for this move; ticking on
  the page while it runs). ``static/mygames.js`` polls the JSON on every page of a
  logged-in visitor: the tab title counts the games that wait (``(2) motherlode``); when
  one starts waiting it is said in the page and, if the visitor allowed it (asked on a
  click, never on load), by a browser notification.
* **Play now** (the lobby): ``POST /play`` starts a match of a game against bots of one
  level (``greedy``, ``easy`` ...) at the smallest player count of two or more;
  ``POST /play/join`` takes the oldest open seat of a public running match of a game.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import hmac
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import DateTime, ForeignKey, String, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from motherlode.games import registry
from motherlode.server import clocks
from motherlode.server.accounts import Account, SeatClaimRow, accounts_of, current
from motherlode.server.db import Base, MatchRow, SeatRow, utcnow
from motherlode.server.deps import (
    Service,
    bearer,
    html_errors,
    json_errors,
    page,
    read_form,
    templates,
)
from motherlode.server.ratings import on_account, rated_of, set_rated
from motherlode.server.runtime import MatchRuntime, ServerError
from motherlode.server.service import MatchService, SeatRequest, hash_token

LEVELS = ("easy", "medium", "hard", "strongest", "greedy", "random")
"""The bot levels "play now" offers (every game has them: ``motherlode.agents``)."""


class RematchRow(Base):
    """The rematch a finished match led to."""

    __tablename__ = "rematches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    new_match_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


def derived_token(old_token: str, new_match_id: str) -> str:
    """A seat's token in the rematch, from its token in the match before (only its holder
    can work it out; the same every time).

    >>> derived_token("abc", "m1") == derived_token("abc", "m1") != derived_token("abd", "m1")
    True
    """
    digest = hmac.new(old_token.encode(), new_match_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def rematch_of(engine: Any, match_id: str) -> str | None:
    with Session(engine) as s:
        found = s.get(RematchRow, match_id)
        return found.new_match_id if found is not None else None


def _reserve(engine: Any, match_id: str) -> str:
    """The rematch's id: the one already reserved, or a new one (of two processes asking
    at once, the first insert wins and the other reads it)."""
    import secrets

    found = rematch_of(engine, match_id)
    if found is not None:
        return found
    try:
        with engine.begin() as conn:
            new_id = secrets.token_urlsafe(9)
            conn.execute(insert(RematchRow).values(match_id=match_id, new_match_id=new_id))
        return new_id
    except IntegrityError:
        again = rematch_of(engine, match_id)
        assert again is not None
        return again


def _options(rt: MatchRuntime) -> dict[str, Any]:
    """The old match's config as options: only what differs from the defaults (a default
    that names a server file is not set online again)."""
    config = rt.game.config.model_dump(mode="json")
    try:
        defaults = type(rt.game.config)().model_dump(mode="json")
    except ValueError:  # a config with no defaults (pydantic's ValidationError): all of it
        defaults = {}
    return {k: v for k, v in config.items() if defaults.get(k) != v}


def _create_rematch(service: MatchService, rt: MatchRuntime, new_id: str) -> None:
    seats = [SeatRequest(s.kind, s.spec, s.name) for s in rt.seats]
    try:
        service.create_match(
            rt.game.name, _options(rt), seats, public=False, claim=None, match_id=new_id
        )
    except IntegrityError:  # another process made it meanwhile
        return
    set_rated(service.engine, new_id, rated_of(service.engine, rt.match_id))
    with Session(service.engine) as s, s.begin():
        claims = s.execute(
            select(SeatClaimRow.seat, SeatClaimRow.user_id).where(
                SeatClaimRow.match_id == rt.match_id
            )
        ).all()
        for seat, user in claims:
            s.add(SeatClaimRow(match_id=new_id, seat=seat, user_id=user))
    fresh = service.runtimes.get(new_id)
    if fresh is not None:
        service.forget(new_id)  # re-read with its accounts' names
    service.kick_bots(new_id)


async def rematch(service: MatchService, match_id: str, token: str | None) -> dict[str, Any]:
    """The rematch of a finished match for the seat of ``token``: the match (made now by
    the first who asks), the seat and its token there."""
    seat = service.authenticate(match_id, token)
    if seat is None or token is None:
        raise ServerError("spectator", "only a player of the match asks for a rematch", 403)
    rt = service.runtime(match_id)
    if not rt.finished:
        raise ServerError("match_running", "a rematch starts when this match is over", 409)
    async with service.lock(f"rematch:{match_id}"):
        new_id = _reserve(service.engine, match_id)
        try:
            service.runtime(new_id)
            made = False
        except ServerError as err:
            if err.code != "not_found":
                raise
            _create_rematch(service, rt, new_id)
            made = True
    mine = derived_token(token, new_id)
    with Session(service.engine) as s, s.begin():
        taken = s.execute(
            update(SeatRow)
            .where(SeatRow.match_id == new_id, SeatRow.seat == seat, SeatRow.kind == "human")
            .where((SeatRow.joined_at.is_(None)) | (SeatRow.token_sha256 == hash_token(mine)))
            .values(token_sha256=hash_token(mine))
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("seat_taken", f"seat P{seat + 1} of the rematch is taken", 409)
    service.authenticate(new_id, mine)  # the seat is taken now: the others see it
    if made:
        note = json.dumps({"type": "rematch", "match": new_id})
        for sub in list(service.subscribers.get(match_id, ())):
            sub.push(note)
    return {"match": new_id, "seat": seat, "token": mine, "url": f"/m/{new_id}#t={mine}"}


# -- the dashboard ---------------------------------------------------------------------


def my_games(service: MatchService, account: Account) -> list[dict[str, Any]]:
    """The account's running matches: where it is to move first (longest waiting first),
    then the others (latest move first)."""
    with Session(service.engine) as s:
        rows = s.execute(
            select(SeatClaimRow.seat, MatchRow.id, MatchRow.game, MatchRow.updated_at)
            .join(MatchRow, MatchRow.id == SeatClaimRow.match_id)
            .where(SeatClaimRow.user_id == account.id, MatchRow.status == "running")
        ).all()
    mine: dict[str, dict[str, Any]] = {}
    for seat, match_id, game, updated in rows:
        entry = mine.setdefault(
            match_id,
            {"id": match_id, "game": game, "seats": [], "updated_at": updated},
        )
        entry["seats"].append(int(seat))
    out: list[tuple[_dt.datetime, dict[str, Any]]] = []
    for entry in mine.values():
        try:
            rt = service.runtime(entry["id"])
        except ServerError:  # a match that no longer replays: not listed
            continue
        to_move = rt.state.current_player()
        timing = time_left(rt, sorted(entry["seats"]))
        players = [
            {"seat": s.seat, "name": s.label, "account": s.account or None} for s in rt.seats
        ]
        out.append(
            (
                entry["updated_at"],
                {
                    "id": entry["id"],
                    "game": entry["game"],
                    "url": f"/m/{entry['id']}",
                    "seats": [f"P{s + 1}" for s in sorted(entry["seats"])],
                    "your_turn": to_move in entry["seats"],
                    "to_move": f"P{to_move + 1}" if to_move >= 0 else None,
                    "players": players,
                    "version": rt.version,
                    "updated_at": entry["updated_at"].isoformat(timespec="seconds") + "Z",
                    **timing,
                },
            )
        )
    out.sort(key=lambda pair: pair[0], reverse=True)  # the stored time, not the shown one
    waiting = [m for _, m in reversed(out) if m["your_turn"]]
    return waiting + [m for _, m in out if not m["your_turn"]]


def time_left(rt: MatchRuntime, seats: list[int]) -> dict[str, Any]:
    """The account's clock in a match (its first seat whose clock runs, else its first):
    ``time_left`` seconds now (``None``: no clock), whether it is ``ticking``, the clock
    in words and the time left in words (:func:`clock_text`)."""
    clock = rt.clock
    if clock is None or not seats:
        return {"time_left": None, "ticking": False, "clock": None, "time_text": ""}
    seat = next((s for s in seats if s == clock.running), seats[0])
    left = max(0.0, clocks.left(clock, utcnow())[seat])
    return {
        "time_left": round(left, 1),
        "ticking": clock.running == seat and clock.forfeit is None,
        "clock": clock.spec.kind,
        "clock_describe": clock.spec.describe(),
        "time_text": clock_text(left, clock.spec.kind),
    }


def clock_text(seconds: float, kind: str) -> str:
    """Time left in words, as static/clock.js writes it (``mygames.js`` ticks it on).

    >>> clock_text(75.4, "fischer"), clock_text(3725, "fischer"), clock_text(4.5, "fischer")
    ('1:15', '1:02:05', '0:04.5')
    >>> clock_text(2 * 86400 + 3 * 3600 + 60, "days"), clock_text(5400, "days")
    ('2 d 3 h', '1 h 30 min')
    """
    if kind == "days" and seconds >= 3600:
        d, h, m = int(seconds // 86400), int(seconds % 86400 // 3600), int(seconds % 3600 // 60)
        return f"{d} d {h} h" if d else f"{h} h {m} min"
    if seconds < 9.95:
        return f"0:0{seconds:.1f}"
    h, m, s = int(seconds // 3600), int(seconds % 3600 // 60), int(seconds % 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


router = APIRouter()


@router.post("/api/matches/{match_id}/rematch", responses=json_errors(403, 404, 409, 422))
async def rematch_api(request: Request, match_id: str, service: Service) -> dict[str, Any]:
    """The rematch of a finished match (made by the first player who asks): the bearer
    seat's token in it."""
    return await rematch(service, match_id, bearer(request))


@router.get("/api/me/games", responses=json_errors(403))
async def my_games_api(request: Request, service: Service) -> dict[str, Any]:
    """The logged-in account's running matches, those waiting for it first."""
    me = current(request)
    if me is None:
        raise ServerError("login", "log in to see your games", 403)
    games = my_games(service, me)
    return {
        "account": me.name,
        "waiting": sum(1 for m in games if m["your_turn"]),
        "matches": games,
    }


@router.get("/me", response_class=HTMLResponse, response_model=None, responses=html_errors())
async def dashboard(request: Request, service: Service) -> Response:
    me = current(request)
    if me is None:
        return RedirectResponse("/login?next=/me", status_code=303)
    games = my_games(service, me)
    return page(
        request,
        "me.html",
        games=games,
        waiting=sum(1 for m in games if m["your_turn"]),
    )


# -- play now --------------------------------------------------------------------------


def _players(cls: Any) -> int:
    return int(max(cls.min_players, min(2, cls.max_players)))


@router.post(
    "/play",
    response_class=HTMLResponse,
    response_model=None,
    responses={
        303: {"description": "On to the new match"},
        **html_errors(404, 422, json=(403, 413)),
    },
)
async def play_bot(request: Request, service: Service) -> Response:
    """One click: a new match of the game against bots of the level asked."""
    form = await read_form(request, 4096)
    cls = registry().get(form.get("game", ""))
    if cls is None:
        return page(request, "error.html", 404, message=f"no game {form.get('game', '')!r}")
    level = form.get("level", "")
    if level not in LEVELS:
        return page(
            request, "error.html", 422, message=f"no bot level {level!r}: {', '.join(LEVELS)}"
        )
    n = _players(cls)
    seats = [SeatRequest()] + [SeatRequest("bot", level) for _ in range(n - 1)]
    try:
        created = service.create_match(cls.name, {"players": n}, seats)
    except ServerError as err:
        return page(request, "error.html", err.status, message=err.message, link="/")
    on_account(request, service, created, False)
    service.kick_bots(created.id)
    token = created.tokens[0]
    return RedirectResponse(f"/m/{created.id}#t={token}", status_code=303)


def oldest_open_seat(service: MatchService, game: str) -> tuple[str, int] | None:
    """The oldest public running match of ``game`` with a seat open for a person."""
    with Session(service.engine) as s:
        row = s.execute(
            select(SeatRow.match_id, SeatRow.seat)
            .join(MatchRow, MatchRow.id == SeatRow.match_id)
            .where(
                MatchRow.game == game,
                MatchRow.status == "running",
                MatchRow.public.is_(True),
                SeatRow.kind == "human",
                SeatRow.joined_at.is_(None),
            )
            .order_by(MatchRow.created_at, SeatRow.seat)
            .limit(1)
        ).first()
    return (str(row[0]), int(row[1])) if row is not None else None


@router.post(
    "/play/join",
    response_class=HTMLResponse,
    response_model=None,
    responses={303: {"description": "Seated"}, **html_errors(404, 409, json=(403, 413))},
)
async def play_join(request: Request, service: Service) -> Response:
    """One click: the oldest open seat of a public match of the game."""
    form = await read_form(request, 4096)
    game = form.get("game", "")
    if game not in registry():
        return page(request, "error.html", 404, message=f"no game {game!r}")
    for _ in range(3):  # a seat taken meanwhile: the next one
        found = oldest_open_seat(service, game)
        if found is None:
            return page(
                request,
                "error.html",
                404,
                message=f"no public {game} match has an open seat now: play a bot, or open one",
                link="/",
            )
        match_id, seat = found
        try:
            token = service.join(match_id, seat)
        except ServerError as err:
            if err.code == "seat_taken":
                continue
            return page(request, "error.html", err.status, message=err.message, link="/")
        me = current(request)
        if me is not None:
            accounts_of(request).claim_seat(me, match_id, token)
        return RedirectResponse(f"/m/{match_id}#t={token}", status_code=303)
    return page(request, "error.html", 409, message="every open seat was taken meanwhile", link="/")


def install(app: Any) -> None:
    """The rematch, the dashboard and "play now" (after accounts and ratings)."""
    engine = app.state.service.engine
    app.include_router(router)
    templates.env.globals["rematch_of"] = lambda match_id: rematch_of(engine, match_id)
    templates.env.globals["play_levels"] = LEVELS

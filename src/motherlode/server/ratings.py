"""Ratings: openskill (Plackett-Luce, as :mod:`motherlode.arena.ratings`) per game and
player count, for accounts and for bot levels; updated once when a rated match finishes.

* **Who is rated**: a seat claimed by an account (``user:<id>``) or a bot seat
  (``bot:<spec>``: a bot level has a rating). A rated match whose human seat no account
  claimed is not rated (a guest could otherwise be beaten for points).
* **Ranks**: every winner ranks 1 (a shared win is a tie), the others after them by score
  (equal scores tie), as :meth:`~motherlode.arena.tournament.GameResult.ranks`.
* **Teams**: Yukon's base game with 4 players scores pairs (seats 1+3 and 2+4, rulebook
  "the pair with more points wins"): its two pairs are rated as two teams.
* **Once**: :func:`rate_finished` runs in the transaction that writes the final move, and
  claims the match's ``match_terms.rated_done`` with a conditional UPDATE first, so two
  processes finishing or re-finishing it rate it once.
* A subject seated in several places of one match (a bot level against itself) is rated
  once, with the best rank it reached (as the arena does); when every seat is the same
  subject, nothing changes.
"""

from __future__ import annotations

import datetime as _dt
import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from motherlode.games import registry
from motherlode.server.accounts import SeatClaimRow, UserRow, accounts_of, current
from motherlode.server.db import Base, MatchRow, utcnow
from motherlode.server.deps import html_errors, page, templates
from motherlode.server.runtime import ServerError


class MatchTermsRow(Base):
    """Whether a match is rated (chosen at creation) and whether it was rated already."""

    __tablename__ = "match_terms"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rated_done: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingRow(Base):
    """A subject's current rating in one game at one player count."""

    __tablename__ = "ratings"

    subject: Mapped[str] = mapped_column(String(220), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


class RatingEventRow(Base):
    """One subject's rating after one rated match (the profile's history plot)."""

    __tablename__ = "rating_events"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    subject: Mapped[str] = mapped_column(String(220), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)


def ordinal(mu: float, sigma: float) -> float:
    """The leaderboard's number: ``mu - 3 sigma`` (openskill's ordinal), a cautious estimate.

    >>> ordinal(25.0, 25 / 3)
    0.0
    """
    return mu - 3.0 * sigma


def ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Rank per seat (or per team): 1 for every winner, then by score, ties sharing.

    >>> ranks([10, 30, 30], [1, 2])
    [2, 1, 1]
    >>> ranks([5, 9, 7, 7], [1])
    [4, 1, 2, 2]
    """
    win = set(winners)
    return [
        1 if p in win else 2 + sum(1 for q, t in enumerate(scores) if q not in win and t > s)
        for p, s in enumerate(scores)
    ]


@dataclass(frozen=True)
class Outcome:
    """A finished match as the ratings see it: per unit (a seat or a team), its subjects
    and its rank."""

    units: list[list[str]]
    ranks: list[int]


def outcome(
    subjects: Sequence[str | None], scores: Sequence[float], winners: Sequence[int], teams: bool
) -> Outcome | None:
    """The units to rate (``None``: nothing to rate: a guest, or a single subject).

    >>> outcome(["user:1", "bot:random"], [3, 5], [1], False)
    Outcome(units=[['user:1'], ['bot:random']], ranks=[2, 1])
    >>> outcome(["user:1", "user:2", "user:3", "user:4"], [1, 2, 3, 4], [1, 3], True)
    Outcome(units=[['user:1', 'user:3'], ['user:2', 'user:4']], ranks=[2, 1])
    """
    if any(s is None for s in subjects):
        return None
    subs = [s for s in subjects if s is not None]
    if teams and len(subs) == 4 and not set(subs[0::2]) & set(subs[1::2]):
        team_scores = [scores[0] + scores[2], scores[1] + scores[3]]
        team_winners = sorted({w % 2 for w in winners})
        if len(set(subs[0::2])) == 2 and len(set(subs[1::2])) == 2:
            return Outcome([subs[0::2], subs[1::2]], ranks(team_scores, team_winners))
    seat_ranks = ranks(scores, winners)
    best: dict[str, int] = {}
    for s, r in zip(subs, seat_ranks, strict=True):
        best[s] = min(best.get(s, r), r)
    if len(best) < 2:
        return None
    return Outcome([[s] for s in best], list(best.values()))


def subjects_of(
    conn: Connection | Session, match_id: str, seats: Sequence[Any]
) -> list[str | None]:
    """Per seat: its account (``user:<id>``), its bot level (``bot:<spec>``) or ``None``."""
    claims = dict(
        conn.execute(
            select(SeatClaimRow.seat, SeatClaimRow.user_id).where(SeatClaimRow.match_id == match_id)
        ).all()
    )
    out: list[str | None] = []
    for s in seats:
        if s.kind == "bot":
            out.append(f"bot:{s.spec}")
        elif s.seat in claims:
            out.append(f"user:{claims[s.seat]}")
        else:
            out.append(None)
    return out


def is_rated(conn: Connection | Session, match_id: str) -> bool:
    return bool(
        conn.execute(
            select(MatchTermsRow.rated).where(MatchTermsRow.match_id == match_id)
        ).scalar_one_or_none()
    )


def rate_finished(conn: Connection | Session, rt: Any, state: Any) -> bool:
    """Rate the match of runtime ``rt`` that ``state`` finished, if it is rated and not
    rated yet (in the caller's transaction); whether ratings changed."""
    claimed = conn.execute(
        update(MatchTermsRow)
        .where(
            MatchTermsRow.match_id == rt.match_id,
            MatchTermsRow.rated.is_(True),
            MatchTermsRow.rated_done.is_(False),
        )
        .values(rated_done=True)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return False
    teams = bool(getattr(rt.game, "teams", False))
    result = outcome(
        subjects_of(conn, rt.match_id, rt.seats),
        [float(x) for x in state.scores()],
        list(state.winners()),
        teams,
    )
    if result is None:
        return False
    apply(conn, rt.match_id, rt.game.name, rt.game.num_players, result)
    return True


def apply(
    conn: Connection | Session, match_id: str, game: str, players: int, result: Outcome
) -> None:
    """Update the subjects' ratings with openskill and log one event per subject."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    subjects = [s for unit in result.units for s in unit]
    rows = {
        r.subject: r
        for r in conn.execute(
            select(RatingRow)
            .where(
                RatingRow.game == game,
                RatingRow.players == players,
                RatingRow.subject.in_(subjects),
            )
            .with_for_update()
        )
    }
    before = {
        s: (rows[s].mu, rows[s].sigma) if s in rows else (model.mu, model.sigma) for s in subjects
    }
    teams = [
        [model.rating(mu=before[s][0], sigma=before[s][1], name=s) for s in u] for u in result.units
    ]
    new = model.rate(teams, ranks=[float(r) for r in result.ranks])
    now = utcnow()
    for unit, rated, rank in zip(result.units, new, result.ranks, strict=True):
        for s, r in zip(unit, rated, strict=True):
            values = {"mu": float(r.mu), "sigma": float(r.sigma), "updated_at": now}
            if s in rows:
                conn.execute(
                    update(RatingRow)
                    .where(RatingRow.subject == s, RatingRow.game == game)
                    .where(RatingRow.players == players)
                    .values(matches=RatingRow.matches + 1, **values)
                )
            else:
                conn.execute(
                    insert(RatingRow).values(
                        subject=s, game=game, players=players, matches=1, **values
                    )
                )
            conn.execute(
                insert(RatingEventRow).values(
                    match_id=match_id,
                    subject=s,
                    game=game,
                    players=players,
                    rank=rank,
                    mu_before=before[s][0],
                    sigma_before=before[s][1],
                    mu=float(r.mu),
                    sigma=float(r.sigma),
                    created_at=now,
                )
            )


def set_rated(engine: Engine, match_id: str, rated: bool) -> None:
    """Record a new match's terms: rated (no undo, no hint until it ends) or friendly."""
    with engine.begin() as conn:
        conn.execute(insert(MatchTermsRow).values(match_id=match_id, rated=rated))


def on_account(request: Any, service: Any, created: Any, rated: bool) -> None:
    """A match created on the page: its terms, and the creator's seat (the first human
    seat, which its creator takes) claimed by the logged-in account, if any."""
    set_rated(service.engine, created.id, rated)
    me = current(request)
    if me is not None and created.tokens:
        first = min(created.tokens)
        accounts_of(request).claim_seat(me, created.id, created.tokens[first])


def rated_of(engine: Engine, match_id: str) -> bool:
    with engine.connect() as conn:
        return is_rated(conn, match_id)


def install(app: Any) -> None:
    """Rate the service's rated matches as they finish; refuse undo in them."""
    service = app.state.service
    engine = service.engine

    def no_undo(match_id: str) -> None:
        if rated_of(engine, match_id):
            raise ServerError(
                "undo_not_allowed", "this match is rated: no undo (chosen at its creation)"
            )

    service.on_finish.append(rate_finished)
    service.before_undo.append(no_undo)
    app.include_router(router)
    templates.env.globals["match_rated"] = lambda _request, match_id: rated_of(engine, match_id)


# -- the pages: leaderboards, profiles -----------------------------------------------------

router = APIRouter(default_response_class=HTMLResponse)


def leaderboard(engine: Engine, game: str) -> list[dict[str, Any]]:
    """The game's ratings, best ordinal first, per player count: accounts and bot levels."""
    with Session(engine) as s:
        rows = s.execute(select(RatingRow).where(RatingRow.game == game)).scalars().all()
        users = dict(s.execute(select(UserRow.id, UserRow.name)).all())
    out: list[dict[str, Any]] = [
        {
            "players": r.players,
            "who": display(r.subject, users),
            "link": _link(r.subject, users),
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": ordinal(r.mu, r.sigma),
            "matches": r.matches,
        }
        for r in rows
    ]
    out.sort(key=lambda e: (e["players"], -e["ordinal"], e["who"]))
    return out


def display(subject: str, users: dict[int, str]) -> str:
    """A subject as people read it: the account's name, or "bot <spec>".

    >>> display("user:1", {1: "ann"}), display("bot:mcts:iters=50", {})
    ('ann', 'bot mcts:iters=50')
    """
    kind, _, rest = subject.partition(":")
    if kind == "user":
        return users.get(int(rest), "(deleted)")
    return f"bot {rest}"


def _link(subject: str, users: dict[int, str]) -> str:
    kind, _, rest = subject.partition(":")
    return f"/u/{users[int(rest)]}" if kind == "user" and int(rest) in users else ""


@router.get("/leaderboard/{game}", responses=html_errors(404))
async def leaderboard_page(request: Request, game: str) -> HTMLResponse:
    if game not in registry():
        return page(request, "error.html", 404, message=f"no game {game!r}")
    engine = request.app.state.service.engine
    return page(request, "leaderboard.html", game=game, rows=leaderboard(engine, game))


def profile(service: Any, user: UserRow) -> dict[str, Any]:
    """Games played and won per game, ratings, recent matches, rating history."""
    with Session(service.engine) as s:
        played = s.execute(
            select(SeatClaimRow.seat, MatchRow)
            .join(MatchRow, MatchRow.id == SeatClaimRow.match_id)
            .where(SeatClaimRow.user_id == user.id)
            .order_by(MatchRow.updated_at.desc())
        ).all()
        subject = f"user:{user.id}"
        ratings = s.execute(select(RatingRow).where(RatingRow.subject == subject)).scalars().all()
        events = (
            s.execute(
                select(RatingEventRow)
                .where(RatingEventRow.subject == subject)
                .order_by(RatingEventRow.created_at)
            )
            .scalars()
            .all()
        )
        rated = {e.match_id: e for e in events}
    per_game: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for seat, m in played:
        g = per_game.setdefault(m.game, {"game": m.game, "played": 0, "won": 0, "running": 0})
        if m.status != "finished" or m.scores is None:
            g["running"] += 1
        else:
            g["played"] += 1
            g["won"] += int(won(service, m, seat))
        if len(recent) < 20:
            e = rated.get(m.id)
            recent.append(
                {
                    "id": m.id,
                    "game": m.game,
                    "seat": seat,
                    "status": m.status,
                    "won": m.status == "finished" and won(service, m, seat),
                    "change": None
                    if e is None
                    else ordinal(e.mu, e.sigma) - ordinal(e.mu_before, e.sigma_before),
                }
            )
    for g in per_game.values():
        g["rate"] = g["won"] / g["played"] if g["played"] else None
    return {
        "games": sorted(per_game.values(), key=lambda g: g["game"]),
        "ratings": sorted(
            (
                {
                    "game": r.game,
                    "players": r.players,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ordinal": ordinal(r.mu, r.sigma),
                    "matches": r.matches,
                }
                for r in ratings
            ),
            key=lambda r: (r["game"], r["players"]),
        ),
        "recent": recent,
        "plot": history_svg(_history(events)),
    }


def _history(events: Sequence[RatingEventRow]) -> list[tuple[str, int, float]]:
    """The points to plot: per game and player count, the rating before its first rated
    match, then after each."""
    points: list[tuple[str, int, float]] = []
    seen: set[tuple[str, int]] = set()
    for e in events:
        if (e.game, e.players) not in seen:
            seen.add((e.game, e.players))
            points.append((e.game, e.players, ordinal(e.mu_before, e.sigma_before)))
        points.append((e.game, e.players, ordinal(e.mu, e.sigma)))
    return points


def won(service: Any, m: MatchRow, seat: int) -> bool:
    """Whether ``seat`` won finished match ``m`` (a shared win is a win; Yukon's pairs win
    together), from its stored scores."""
    scores = list(m.scores or [])
    if not scores:
        return False
    game = service.game(m.game, m.config)
    if getattr(game, "teams", False) and len(scores) == 4:
        team = [scores[0] + scores[2], scores[1] + scores[3]]
        return team[seat % 2] == max(team)
    return scores[seat] == max(scores)


COLOURS = ["#b5651d", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]


def history_svg(
    points: Sequence[tuple[str, int, float]], width: int = 480, height: int = 160
) -> str:
    """The rating history (ordinal after each rated match) as an SVG: one line per game
    and player count, with a legend; empty text when there is no history.

    >>> history_svg([])
    ''
    >>> history_svg([("yukon", 2, 1.0), ("yukon", 2, 3.0)]).count("<polyline")
    1
    """
    if not points:
        return ""
    series: dict[str, list[float]] = {}
    for game, players, value in points:
        series.setdefault(f"{game}, {players} players", []).append(value)
    values = [v for vs in series.values() for v in vs]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    longest = max(len(vs) for vs in series.values())
    pad = 28

    def xy(i: int, v: float) -> str:
        x = pad + (width - 2 * pad) * (i / max(1, longest - 1))
        y = height - pad - (height - 2 * pad) * ((v - low) / span)
        return f"{x:.1f},{y:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="rating-history" width="{width}"'
        f' height="{height}" viewBox="0 0 {width} {height}" role="img"'
        ' aria-label="rating history">',
        f'<rect width="{width}" height="{height}" fill="#fffaf0" stroke="#ccc"/>',
        f'<text x="4" y="{pad - 10}" font-size="11">{high:.1f}</text>',
        f'<text x="4" y="{height - 8}" font-size="11">{low:.1f}</text>',
    ]
    for k, (label, vs) in enumerate(series.items()):
        colour = COLOURS[k % len(COLOURS)]
        line = " ".join(xy(i, v) for i, v in enumerate(vs))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        parts.extend(
            f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="3" fill="{colour}"/>'
            for p in line.split()
        )
        parts.append(
            f'<text x="{width - pad - 150}" y="{14 + 14 * k}" font-size="11"'
            f' fill="{colour}">{html.escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


@router.get("/u/{name}", responses=html_errors(404))
async def profile_page(request: Request, name: str) -> HTMLResponse:
    service = request.app.state.service
    with Session(service.engine) as s:
        user = s.execute(
            select(UserRow).where(UserRow.name_key == name.lower())
        ).scalar_one_or_none()
    if user is None:
        return page(request, "error.html", 404, message=f"no player {name!r}")
    return page(request, "profile.html", player=user.name, **profile(service, user))

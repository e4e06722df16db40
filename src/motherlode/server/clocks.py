"""Match clocks: a Fischer clock (base + increment) or turn-based (days per move).

Time is the server's and lives in the database, never in a process: a clock is what
``match_clocks`` stores (each seat's bank as of the stamp ``since``, the seat whose clock
runs, and its ``deadline``), and the time left is computed from those stamps and *now*,
so a restart or a second process sees the same clock. Everything here but the two tables
is a pure function of stored values and a ``now`` passed in (tests use a fake one).

The seat to move is charged from the moment it became to move. A Fischer clock adds the
increment to a seat when its turn passes (a turn of many atomic actions, a Eurorails
build, earns it once); turn-based play gives the seat to move ``per_move`` seconds afresh
whenever the turn comes to it. Bots have no clock (their thinking is capped, server/bots.py).

When a clock runs out (Board Game Arena's rule) the others may skip the late seat's turn
or end the match. A game's "skip" is its own pass (:data:`SKIP_WORDS`); in a game without
one a bot (the game's greedy level) takes the seat over if the players agreed to it at
creation, otherwise the timeout ends the match as a forfeit: the late seat loses and the
others share the win. Each of these is a clock event, a log entry that is not an engine
action (the record keeps them apart, ``GameRecord.events``).

>>> import datetime as dt
>>> t0 = dt.datetime(2026, 1, 1)
>>> terms = ClockTerms(kind="fischer", base_minutes=1, increment_seconds=5)
>>> c = after_move(start(terms.spec(), 2), 0, t0)          # P1 to move at t0
>>> left(c, t0 + dt.timedelta(seconds=20))
[40.0, 60.0]
>>> c = after_move(c, 1, t0 + dt.timedelta(seconds=20))    # P1 moved: +5 s
>>> c.remaining, c.running
([45.0, 60.0], 1)
>>> timed_out(c, t0 + dt.timedelta(seconds=81))
1
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from motherlode.core.protocol import State
from motherlode.server.db import Base

DAY = 86400.0

SKIP_WORDS: dict[str, tuple[str, ...]] = {
    "eureka": ("pass",),
    "eurorails": ("end move", "end turn"),
}
"""How each game skips a late seat's turn: the first legal action whose notation is one of
these, again while that seat is still to move (Eurorails: end the operations phase, then
the building phase). Games not named have no pass a late seat could be given: Chinagold
passes only "when no turning and no reburial is possible", a Yukon turn must take a card,
an El Dorado turn must take a die (docs/server.md, "Clocks")."""

EVENT_KINDS = ("timeout", "skip", "bot", "forfeit")


class ClockTerms(BaseModel):
    """The clock chosen at creation (the form and the API's ``clock`` object).

    >>> ClockTerms().kind
    'none'
    >>> ClockTerms(kind="days", days_per_move=2).spec().per_move
    172800.0
    >>> try:
    ...     ClockTerms(kind="fischer", base_minutes=0)
    ... except ValueError as err:
    ...     print(clock_errors(err))
    {'base_minutes': 'Input should be greater than 0.04'}
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    kind: Literal["none", "fischer", "days"] = Field(
        "none", description="none, fischer (base + increment) or days (per move)"
    )
    base_minutes: float = Field(
        10.0, gt=0.04, le=600, description="Fischer: each seat's time at the start, minutes"
    )
    increment_seconds: float = Field(
        5.0, ge=0, le=600, description="Fischer: added to a seat each time its turn passes"
    )
    days_per_move: float = Field(3.0, ge=0.01, le=30, description="turn-based: days for each move")
    bot_takeover: bool = Field(
        False,
        description="when a late seat's turn cannot be skipped (its game has no pass), the"
        " greedy bot plays that seat on (else the match ends as a forfeit)",
    )

    def spec(self) -> ClockSpec | None:
        if self.kind == "none":
            return None
        if self.kind == "fischer":
            return ClockSpec(
                "fischer", self.base_minutes * 60, self.increment_seconds, 0.0, self.bot_takeover
            )
        return ClockSpec("days", 0.0, 0.0, self.days_per_move * DAY, self.bot_takeover)


def clock_errors(err: Exception) -> dict[str, str]:
    """``{field: message}`` of a :class:`ClockTerms` validation error (all at once)."""
    if not isinstance(err, ValidationError):
        return {"": str(err)}
    out: dict[str, str] = {}
    for item in err.errors():
        where = str(item["loc"][0]) if item["loc"] else ""
        msg = str(item["msg"]).removeprefix("Value error, ")
        out[where] = f"{out[where]}; {msg}" if where in out else msg
    return out


def parse_terms(raw: Any) -> ClockTerms:
    """The API's ``clock`` value (absent/``null``: no clock) as terms; a bad one raises
    ``ValueError`` naming every bad field at once."""
    if raw is None:
        return ClockTerms()
    if not isinstance(raw, dict):
        raise ValueError("clock is an object: {kind, base_minutes, increment_seconds, ...}")
    try:
        return ClockTerms(**raw)
    except ValidationError as err:
        raise ValueError(
            "bad clock: " + "; ".join(f"{k}: {v}" for k, v in clock_errors(err).items())
        ) from None


@dataclass(frozen=True)
class ClockSpec:
    kind: str
    """``fischer`` or ``days``."""
    base: float
    increment: float
    per_move: float
    bot_takeover: bool = False

    def describe(self) -> str:
        """The clock in words.

        >>> ClockSpec("fischer", 300, 3, 0).describe(), ClockSpec("days", 0, 0, DAY).describe()
        ('5 min + 3 s a turn', '1 day a move')
        """
        if self.kind == "fischer":
            return f"{_num(self.base / 60)} min + {_num(self.increment)} s a turn"
        days = self.per_move / DAY
        return f"{_num(days)} day{'s' if days != 1 else ''} a move"


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


@dataclass
class ClockEvent:
    """A clock entry of the log: ``at`` engine entries before it, about ``seat`` (0-based),
    asked for by seat ``by`` (``None``: the server)."""

    at: int
    kind: str
    seat: int
    by: int | None = None

    def text(self) -> str:
        """What the log says.

        >>> ClockEvent(4, "skip", 1, 0).text(), ClockEvent(4, "forfeit", 1).text()
        ("P1 skips P2's turn (out of time)", 'P2 forfeits on time: the others share the win')
        """
        p = f"P{self.seat + 1}"
        by = f"P{self.by + 1}" if self.by is not None else "the server"
        return {
            "timeout": f"{p} ran out of time",
            "skip": f"{by} skips {p}'s turn (out of time)",
            "bot": f"{by} hands {p}'s turns to the greedy bot (out of time)",
            "forfeit": f"{p} forfeits on time: the others share the win",
        }[self.kind]

    def as_record(self) -> dict[str, Any]:
        return {"after": self.at, "kind": self.kind, "seat": self.seat, "text": self.text()}


@dataclass
class Clock:
    """A match's clock as stored: each seat's bank (seconds) as of ``since``, the seat
    whose clock runs (``None``: none; a bot's turn or the end)."""

    spec: ClockSpec
    remaining: list[float]
    running: int | None = None
    since: _dt.datetime | None = None
    flagged: bool = False
    """The running seat's timeout is written (once per turn)."""
    bots: tuple[int, ...] = ()
    """Seats a bot took over after a timeout."""
    forfeit: int | None = None
    events: list[ClockEvent] = field(default_factory=list)


def start(spec: ClockSpec, seats: int) -> Clock:
    """A new clock: nobody's runs until the first move is due (:func:`after_move`)."""
    bank = spec.base if spec.kind == "fischer" else spec.per_move
    return Clock(spec, [float(bank)] * seats)


def left(clock: Clock, now: _dt.datetime) -> list[float]:
    """Each seat's time left at ``now`` (negative: over by that much)."""
    out = list(clock.remaining)
    if clock.running is not None and clock.since is not None:
        out[clock.running] -= (now - clock.since).total_seconds()
    return out


def deadline(clock: Clock) -> _dt.datetime | None:
    """When the running seat's time runs out (``None``: no clock runs)."""
    if clock.running is None or clock.since is None or clock.forfeit is not None:
        return None
    return clock.since + _dt.timedelta(seconds=clock.remaining[clock.running])


def timed_out(clock: Clock, now: _dt.datetime) -> int | None:
    """The seat whose time has run out at ``now`` and is not yet flagged, else ``None``."""
    due = deadline(clock)
    if due is None or clock.flagged or now < due:
        return None
    return clock.running


def late(clock: Clock) -> int | None:
    """The seat to move whose timeout is written: the others may skip it or end the match."""
    return clock.running if clock.flagged and clock.forfeit is None else None


def after_move(
    clock: Clock,
    to_move: int | None,
    now: _dt.datetime,
    *,
    increment: bool = True,
) -> Clock:
    """The clock after a write that leaves ``to_move`` to move (``None``: nobody's clock
    runs: a bot, or the end). The running seat is charged up to ``now``; a Fischer seat
    whose turn passes gains the increment (``increment=False``: an undo or a skipped turn
    does not earn it); turn-based, a seat the turn comes to gets ``per_move`` afresh.

    >>> t = _dt.datetime(2026, 1, 1)
    >>> c = after_move(start(ClockSpec("days", 0, 0, DAY), 2), 1, t)
    >>> c = after_move(c, 0, t + _dt.timedelta(hours=30))
    >>> c.remaining, c.running
    ([86400.0, 86400.0], 0)
    """
    remaining = list(clock.remaining)
    old = clock.running
    if old is not None and clock.since is not None:
        remaining[old] -= (now - clock.since).total_seconds()
    if to_move is not None and to_move in clock.bots:
        to_move = None
    if old is not None and old != to_move and clock.spec.kind == "fischer":
        remaining[old] = max(remaining[old], 0.0) + (clock.spec.increment if increment else 0.0)
    if old != to_move and clock.spec.kind == "days":  # each move its own days, afresh
        for seat in (old, to_move):
            if seat is not None:
                remaining[seat] = clock.spec.per_move
    same = old == to_move and old is not None
    return dataclasses.replace(
        clock, remaining=remaining, running=to_move, since=now, flagged=clock.flagged and same
    )


def stop(clock: Clock, forfeit: int, now: _dt.datetime) -> Clock:
    """The clock at the end of a match that ``forfeit`` lost on time: charged up to
    ``now`` and stopped (the page shows it still).

    >>> t = _dt.datetime(2026, 1, 1)
    >>> c = after_move(start(ClockSpec("fischer", 60, 5, 0), 2), 1, t)
    >>> c = stop(c, 1, t + _dt.timedelta(seconds=62))
    >>> c.remaining, c.running, c.forfeit, deadline(c)
    ([60.0, -2.0], None, 1, None)
    """
    stopped = after_move(clock, None, now, increment=False)
    stopped.remaining[forfeit] = clock.remaining[forfeit] - (
        (now - clock.since).total_seconds() if clock.since and clock.running == forfeit else 0.0
    )
    return dataclasses.replace(stopped, forfeit=forfeit, flagged=True)


def forfeit_scores(num_players: int, seat: int) -> list[float]:
    """A forfeit's result: the late seat 0, every other seat 1 (a shared win).

    >>> forfeit_scores(3, 1)
    [1.0, 0.0, 1.0]
    """
    return [0.0 if s == seat else 1.0 for s in range(num_players)]


def skip_action(state: State) -> int | None:
    """The action that skips the current turn of ``state`` (its game's pass), or ``None``
    where there is none now (:data:`SKIP_WORDS`)."""
    words = SKIP_WORDS.get(state.game.name, ())
    if not words or state.is_terminal() or state.current_player() < 0:
        return None
    for a in state.legal_actions():
        if state.action_to_string(a) in words:
            return int(a)
    return None


def can_skip(game_name: str) -> bool:
    return game_name in SKIP_WORDS


def rule_text(game_name: str, spec: ClockSpec) -> str:
    """What happens when a clock of ``game_name`` runs out, in words for the page."""
    if can_skip(game_name):
        how = " / ".join(f"'{w}'" for w in SKIP_WORDS[game_name])
        return f"out of time: the others may skip the turn ({how}) or end the match"
    if spec.bot_takeover:
        return "out of time: the others may hand the seat to the greedy bot or end the match"
    return "out of time: the match ends as a forfeit (the late seat loses)"


def view(clock: Clock | None, game_name: str, passes: bool = True) -> dict[str, Any] | None:
    """The clock as every viewer is told (the same at any time within one revision: the
    page computes the time left from ``since``, in epoch seconds). ``passes``: whether the
    late seat's game can pass there now (:func:`skip_action`)."""
    if clock is None:
        return None
    skips = can_skip(game_name) and passes
    since = clock.since.replace(tzinfo=_dt.UTC).timestamp() if clock.since else None
    return {
        "kind": clock.spec.kind,
        "describe": clock.spec.describe(),
        "remaining": [round(r, 3) for r in clock.remaining],
        "running": clock.running,
        "since": since,
        "late": late(clock),
        "can_skip": skips or clock.spec.bot_takeover,
        "skip_label": "skip the turn" if skips else "hand the seat to the bot",
        "bots": list(clock.bots),
        "forfeit": clock.forfeit,
        "rule": rule_text(game_name, clock.spec),
    }


class Forfeited:
    """A forfeit's final result in the shape ``on_finish`` hooks read (ratings.py):
    ``scores()`` and ``winners()``."""

    def __init__(self, num_players: int, seat: int) -> None:
        self._scores = forfeit_scores(num_players, seat)

    def scores(self) -> list[float]:
        return list(self._scores)

    def winners(self) -> list[int]:
        return [s for s, v in enumerate(self._scores) if v]


def forfeit_summary(labels: Sequence[str], seat: int) -> dict[str, Any]:
    """The page's result box of a match ended by a forfeit on time."""
    winners = [s for s in range(len(labels)) if s != seat]
    names = " & ".join(labels[s] for s in winners)
    won = f"Winner: {names}" if len(winners) == 1 else f"Shared victory: {names}"
    return {
        "reason": f"{labels[seat]} ran out of time and forfeits",
        "rows": [
            {
                "seat": s,
                "name": labels[s],
                "score": 0.0 if s == seat else 1.0,
                "breakdown": [["forfeit on time", 0]] if s == seat else [["shared win", 1]],
                "winner": s != seat,
            }
            for s in range(len(labels))
        ],
        "winners": winners,
        "lines": [f"{labels[seat]} forfeits on time", f"{won} ({labels[seat]} forfeits on time)"],
    }


# -- storage -------------------------------------------------------------------------


class ClockRow(Base):
    """A match's clock (migration 0009_clocks): its terms and its stamps."""

    __tablename__ = "match_clocks"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    base: Mapped[float] = mapped_column(Float, default=0.0)
    increment: Mapped[float] = mapped_column(Float, default=0.0)
    per_move: Mapped[float] = mapped_column(Float, default=0.0)
    bot_takeover: Mapped[bool] = mapped_column(Boolean, default=False)
    remaining: Mapped[list[float]] = mapped_column(JSON)
    running: Mapped[int | None] = mapped_column(Integer, nullable=True)
    since: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)
    deadline: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    bots: Mapped[list[int]] = mapped_column(JSON, default=list)
    forfeit: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ClockEventRow(Base):
    """One clock event of a match's log (not an engine action)."""

    __tablename__ = "clock_events"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[int] = mapped_column(Integer)
    """How many engine entries (the runtime's log) came before it."""
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime)


def to_row_values(clock: Clock) -> dict[str, Any]:
    """The stored columns of ``clock`` (its events are rows of their own)."""
    return {
        "kind": clock.spec.kind,
        "base": clock.spec.base,
        "increment": clock.spec.increment,
        "per_move": clock.spec.per_move,
        "bot_takeover": clock.spec.bot_takeover,
        "remaining": list(clock.remaining),
        "running": clock.running,
        "since": clock.since,
        "deadline": deadline(clock),
        "flagged": clock.flagged,
        "bots": list(clock.bots),
        "forfeit": clock.forfeit,
    }


def from_row(row: ClockRow, events: Sequence[ClockEventRow]) -> Clock:
    spec = ClockSpec(row.kind, row.base, row.increment, row.per_move, row.bot_takeover)
    return Clock(
        spec,
        [float(r) for r in row.remaining],
        row.running,
        row.since,
        bool(row.flagged),
        tuple(int(b) for b in row.bots or ()),
        row.forfeit,
        [ClockEvent(e.at, e.kind, e.seat, e.by) for e in events],
    )

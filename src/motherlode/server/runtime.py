"""One running match in memory: the state rebuilt from the log, its RNG, per-seat views.

The state is never stored: a :class:`MatchRuntime` is rebuilt by re-playing the match's
log rows (event sourcing), drawing every chance outcome from the match's chance stream
(core/chance.py: ``hmac-sha256`` from the seed for new matches) in order, as
:func:`motherlode.server.fairness.verify_record` re-derives them, and checking that each
draw is the logged one. The runtime in the server's memory is only a
cache of that re-play (the "snapshot").

What leaves the server for a seat is built here, by :meth:`MatchRuntime.frame` (the
WebSocket's snapshots and diffs, server/push.py) and :meth:`MatchRuntime.payload` (the
HTTP API), from ``observation(seat)``, ``render_layers(seat)`` and the log as that seat
may see it; nothing else about the state. Each is built once per revision and viewer,
whoever watches. In a game with hidden information an entry of the log (a card
drawn into a hand, a secret choice) is shown to a seat only when that seat can tell it
apart from the alternatives through its own observation (see :func:`visibility`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import json
import logging
import operator
import random
import re
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, cast

from motherlode.agents import create as create_agent
from motherlode.core.agent import Agent
from motherlode.core.chance import MT19937, fork, make_stream
from motherlode.core.errors import (
    AgentSpecError,
    IllegalActionError,
    MotherlodeError,
    NotationError,
)
from motherlode.core.memo import legal_texts, spectator_view
from motherlode.core.memo import scores as memo_scores
from motherlode.core.memo import shared as memo_shared
from motherlode.core.narration import fold
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, Player, State
from motherlode.core.svg import Layers, single_layer
from motherlode.core.svg import document as svg_document
from motherlode.server import clocks
from motherlode.server.bots import BotCaps
from motherlode.server.push import (
    BoardFrame,
    Frame,
    Layer,
    diff_text,
    dumps,
    layer_text,
    next_revision,
    static_url,
)

log = logging.getLogger("motherlode.server")

HIDDEN_CHANCE = "chance (hidden)"
HIDDEN_DECISION = "(hidden move)"
VISIBILITY_SAMPLE = 48
"""At most this many alternatives are compared when deciding who sees a log entry."""

_DATA_ACTION = re.compile(r'\sdata-action="[^"]*"')
_ACTION_TITLE = re.compile(r'(<g\b[^>]*\bclass="action"[^>]*>)<title>[^<]*</title>')


class ServerError(Exception):
    """A request the server refuses: a code (``invalid_move``...), a message, an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def as_dict(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


@dataclass
class SeatInfo:
    seat: int
    kind: str  # "human" or "bot"
    spec: str
    name: str = ""
    joined: bool = False
    account: str = ""
    """The name of the account that claimed this seat ("": none)."""

    @property
    def label(self) -> str:
        if self.name:
            return self.name
        return f"P{self.seat + 1} ({self.spec})" if self.kind == "bot" else f"P{self.seat + 1}"


@dataclass
class LogEntry:
    """One effective action of the match: who acted, its notation, who may see it, and
    the narration of it as each viewer may read it."""

    seat: Player
    text: str
    visible: tuple[bool, ...] | None = None
    """Per seat, then the spectator last; ``None``: everyone (perfect information)."""
    said: tuple[str, ...] = ()
    """``state.narrate(action, viewer)`` per seat then the spectator, or one sentence for
    everyone (perfect information); empty: the notation stands for itself."""
    group: str = ""
    """A command's actions (``state.expand``) are one unit: ``"command"`` on its first
    entry, ``"part"`` on the others (chance drawn inside it included); ``""`` alone. The
    database row's ``kind`` (``action`` when alone)."""
    line: str = ""
    """On a command's first entry: the command's one log line ("P1 builds Paris–Lyon
    (9 mileposts, 11 M)")."""
    note: str = ""
    """Said to everyone after the entry (a bot that failed, replaced for this move)."""
    run: tuple[int, str] | None = None
    """A bot's decision that goes on a run of its decisions in one turn, in a game with
    commands for people (a Eurorails bot's builds): where the run began and the run's one
    line up to here, as the terminal tells it ("P2 builds Paris–Lyon (6 mileposts, 9 M),
    ends the turn"); the log shows the run as that one line (:func:`bot_runs`). Shown, never
    stored: worked out again as the rows are re-played."""

    @property
    def kind(self) -> str:
        return self.group or "action"

    def said_to(self, seat: Player | None, num_players: int) -> str:
        """The narration ``seat`` reads: never of an entry it may not see (then only the
        hidden marker), whatever the game's narration would say."""
        shown = self.shown_to(seat, num_players)
        if shown != self.text or not self.said:
            return shown
        if len(self.said) == 1:
            return self.said[0]
        return self.said[num_players if seat is None else seat]

    def mask(self) -> str | None:
        """:attr:`visible` as stored in the database (``"110"``), ``None`` for everyone."""
        return None if self.visible is None else "".join("1" if v else "0" for v in self.visible)

    def shown_to(self, seat: Player | None, num_players: int) -> str:
        if self.visible is None:
            return self.text
        index = num_players if seat is None else seat
        if self.visible[index]:
            return self.text
        return HIDDEN_CHANCE if self.seat == CHANCE else HIDDEN_DECISION


def _obs_key(state: State, seat: Player | None) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


def visibility(state: State, action: Action, actor: Player) -> tuple[bool, ...] | None:
    """Who can see ``action`` (about to be applied to ``state``), seat by seat then spectator.

    ``None`` in a perfect-information game (everyone sees everything). Otherwise a seat
    sees the action when its own observation after it differs from its observation after
    each alternative (the other chance outcomes, or the other legal actions): then the
    action's text tells it nothing it does not see anyway. The actor of a decision always
    sees its own decision. At most :data:`VISIBILITY_SAMPLE` alternatives, spread over the
    list, are compared.
    """
    game = state.game
    if game.perfect_information:
        return None
    n = game.num_players
    viewers: list[Player | None] = [*range(n), None]
    alternatives = (
        [a for a, _ in state.chance_outcomes()] if actor == CHANCE else state.legal_actions()
    )
    alternatives = [a for a in alternatives if a != action]
    if len(alternatives) > VISIBILITY_SAMPLE:
        step = len(alternatives) / VISIBILITY_SAMPLE
        alternatives = [alternatives[int(i * step)] for i in range(VISIBILITY_SAMPLE)]
    after = state.clone()
    after.apply_unchecked(action)
    visible = [True] * (n + 1)
    undecided = {i for i in range(n + 1) if i != actor}
    keys = {i: _obs_key(after, viewers[i]) for i in undecided}
    for alt in alternatives:
        if not undecided:
            break
        other = state.clone()
        other.apply_unchecked(alt)
        for i in list(undecided):
            if _obs_key(other, viewers[i]) == keys[i]:
                visible[i] = False
                undecided.discard(i)
    return tuple(visible)


def narrations(state: State, action: Action) -> tuple[str, ...]:
    """What each viewer reads of ``action`` (about to be applied to ``state``): one
    sentence in a perfect-information game, else one per seat and the spectator. A
    narration that fails falls back to the notation (and is logged)."""
    game = state.game
    viewers: list[Player | None] = (
        [None] if game.perfect_information else [*range(game.num_players), None]
    )
    out = []
    for viewer in viewers:
        try:
            out.append(state.narrate(action, viewer))
        except Exception:
            log.exception("narrate() failed in %s", game.name)
            out.append(state.action_to_string(action))
    return tuple(out)


def summary_view(state: State, labels: Sequence[str]) -> dict[str, Any] | None:
    """The end of the game explained, as the page shows it; ``None`` while it runs."""
    if not state.is_terminal():
        return None
    try:
        summary = state.summary()
    except Exception:
        log.exception("summary() failed in %s", state.game.name)
        return None
    return {
        "reason": summary.reason,
        "rows": [
            {
                "seat": r.seat,
                "name": labels[r.seat],
                "score": r.score,
                "breakdown": [[what, v] for what, v in r.breakdown],
                "winner": r.seat in summary.winners,
            }
            for r in summary.seats
        ],
        "winners": list(summary.winners),
        "lines": summary.lines(labels),
    }


def strip_actions(svg: str) -> str:
    """An SVG with its ``data-action`` attributes and action tooltips removed."""
    return _DATA_ACTION.sub("", _ACTION_TITLE.sub(r"\1", svg))


def _notice(err: Exception) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 60" width="600"'
        ' height="60"><text x="10" y="35" font-size="16" fill="#a93226">'
        f"the board cannot be drawn ({type(err).__name__}); the moves are listed"
        "</text></svg>"
    )


def board_svg(state: State, seat: Player | None) -> str:
    """What a seat is shown of the board: ``render_svg(seat)``, clickable only for the seat
    to move; a renderer that fails gives a notice (logged), not a broken match page."""
    try:
        svg = state.render_svg(seat)
    except Exception as err:
        log.exception("render_svg(%s) failed in %s", seat, state.game.name)
        svg = _notice(err)
    if seat is None or seat != state.current_player():
        svg = strip_actions(svg)
    return svg


def _folded(run: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A run of chance entries as one log entry (none, or the single entry, unchanged)."""
    if len(run) < 2:
        return run
    return [
        {
            "n": run[-1]["n"],
            "label": f"{run[0]['n']}–{run[-1]['n']}",
            "seat": CHANCE,
            "text": "; ".join(e["text"] for e in run),
            "said": fold([e["said"] or e["text"] for e in run]),
        }
    ]


BotRun = tuple[int, int, State, list[Action]]
"""A bot's run of decisions so far: where it began, the seat, the state before it, its
actions (:func:`bot_runs`)."""


def bot_runs(
    entries: Sequence[LogEntry], before: State, new: Sequence[LogEntry], run: BotRun | None,
    is_bot: Callable[[int], bool],
) -> BotRun | None:
    """Mark each of ``new`` (about to follow ``entries``; ``before``: the state before the
    first of them) that goes on a bot's run with the run's one line (:attr:`LogEntry.run`),
    and return the run still open after them. Only a game's commands for people group
    (``state.orders``: the terminal's grouping, :meth:`State.describe`); a run is one bot
    seat's decisions in a row, each seen by every viewer (so its line tells nobody more
    than the entries), ended by a chance step, another seat, a command, or the action that
    ends the turn. Nothing else changes: the rows, the record and the undo unit stay one
    per action."""
    if before.orders is None:
        return None
    at = len(entries)
    for k, e in enumerate(new):
        if k or e.seat < 0 or e.group or not is_bot(e.seat) or not (
            e.visible is None or all(e.visible)
        ):
            return None  # chance drawn after it, a command, a person: the run is over
        if run is None or run[1] != e.seat or run[0] + len(run[3]) != at + k:
            run = (at + k, e.seat, before.clone(), [])
        action = before.string_to_action(e.text)
        run[3].append(action)
        if len(run[3]) > 1:
            e.run = (run[0], command_line(run[2], e.seat, run[3]))
        orders = before.orders
        if orders.ends_turn is not None and orders.ends_turn(before, action):
            return None
    return run


def _run_start(entry: dict[str, Any]) -> int:
    """The first step of a log entry (its own, or its range's: "29–35")."""
    return int(str(entry.get("label", entry["n"])).split("–")[0])


def _grown(last: dict[str, Any], entry: dict[str, Any], said: str) -> dict[str, Any]:
    """A bot's run in the log, ``last`` (its first entry, or its line so far) grown by
    ``entry``: one entry for the range, its notations for a tooltip, its one line."""
    return {
        "n": entry["n"],
        "label": f"{_run_start(last)}–{entry['n']}",
        "seat": entry["seat"],
        "text": f"{last['text']}; {entry['text']}",
        "said": said,
    }


def command_line(state: State, seat: Player, actions: Sequence[Action]) -> str:
    """A command's one log line from ``state`` (before it): "P1 builds Paris–Lyon (9
    mileposts, 11 M), ends the turn" (the game's :meth:`State.describe`)."""
    try:
        phrases = state.describe(list(actions))
    except Exception:
        log.exception("describe() failed in %s", state.game.name)
        phrases = []
    return f"P{seat + 1} " + ", ".join(phrases) if phrases else f"P{seat + 1}: command"


def is_single(layers: Layers) -> bool:
    """Whether ``layers`` is the fallback of a game without layers (one seat element)."""
    return layers.width == 0 and not layers.public and [k for k, _ in layers.seat] == ["board"]


def board_layers(state: State, seat: Player | None, drawn: dict[Any, Any] | None = None) -> Layers:
    """:func:`board_svg` as layers (``render_layers(seat)``): the seat layer clickable only
    for the seat to move (public and static layers never are, DESIGN.md §3b); a renderer
    that fails gives the notice as the single element. ``drawn``: what the renderer draws
    the same for every viewer of ``state`` (its public layer, :func:`svg.once`), kept for
    the other viewers of this position."""
    try:
        with memo_shared({} if drawn is None else drawn):
            layers = state.render_layers(seat)
    except Exception as err:
        log.exception("render_layers(%s) failed in %s", seat, state.game.name)
        return single_layer(_notice(err))
    if layers.seat and (seat is None or seat != state.current_player()):
        stripped = tuple((k, strip_actions(markup)) for k, markup in layers.seat)
        layers = Layers(
            layers.width, layers.height, layers.static, layers.public, stripped, layers.title
        )
    return layers


def layers_svg(layers: Layers) -> str:
    """The whole board of ``layers`` as one SVG document."""
    return layers.seat[0][1] if is_single(layers) else layers.compose()


def static_svg(game: Game) -> str | None:
    """The static layer of ``game``'s board as a standalone SVG document (what
    :func:`motherlode.server.push.static_url` serves); ``None`` for a game without layers.
    It depends on the config only, so any position draws it."""
    state = game.new_initial_state()
    layers = state.render_layers(None)
    if is_single(layers):
        return None
    return svg_document(layers.width, layers.height, [layers.static])


FIELDS = (
    *("match", "game", "config", "version", "seat", "status", "to_move", "terminal"),
    *("players", "view", "legal", "log", "scores", "outcome", "summary", "clock"),
    *("can_undo", "seed_sha256", "seed"),
)
"""The fields of a state (the API's, a snapshot's), in their order."""

_UNSEEN = object()

HISTORY = 4
"""Revisions of a match whose frames are kept: a socket that last got one of them is sent
a diff, one further behind a snapshot."""


DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="motherlode-draw")
"""Where pushes are drawn and encoded: off the event loop, so that a big board (Eurorails'
map) never stalls every other match's sockets while it is drawn."""

INLINE_DRAW_SECONDS = 0.002
"""A push of a game whose pushes take less CPU than this is drawn on the event loop: the
hand-off to a thread and back (a copy of the runtime, two wake-ups) costs more than such a
draw. Slower games (Eurorails' map) are drawn in :data:`DRAWING`."""

_draw_cost: dict[str, float] = {}
"""Per game: the CPU seconds of its recent pushes (the last one timed, or more while a
slower one is recent), what :meth:`MatchRuntime.push` decides by. Unknown: in a thread."""

DRAW_SAMPLE = 8
"""Every this many pushes one is timed (reading a thread's CPU clock is a system call)."""
_draws = itertools.count()


def _note_draw_cost(game: str, seconds: float) -> None:
    """Remember a push's cost: a slow one at once, a fast one only as the memory of the
    slow ones fades (so one cheap position of a heavy game does not bring it inline)."""
    _draw_cost[game] = max(seconds, 0.75 * _draw_cost.get(game, seconds))


PACK_MIN = 1024
"""A push shorter than this many bytes of JSON goes as text even to a socket that takes
compressed frames: deflating it costs more than the bytes it saves (a pong, a small diff)."""

PACK_LEVEL = 1
"""zlib's level for pushes: each is compressed once per (base, revision, viewer) and shared,
so the CPU counts per move, not per byte; level 1 keeps a Yukon snapshot (28 KB) at 4 KB
for 0.05 ms, where level 6 saves another 0.8 KB for 0.18 ms."""


def pack(text: str) -> str | bytes:
    """A push as it goes to a socket that reads compressed frames (``"compress":
    "deflate-raw"`` in its hello): raw deflate (RFC 1951, what the browser's
    ``DecompressionStream("deflate-raw")`` inflates) of the UTF-8 JSON, sent as a binary
    frame; a text under :data:`PACK_MIN` bytes as it is.

    >>> pack('{"type": "pong"}')
    '{"type": "pong"}'
    >>> text = json.dumps({"type": "state", "log": ["P1 takes d5"] * 200})
    >>> packed = pack(text)
    >>> len(packed) < len(text) // 10, zlib.decompress(packed, -15).decode() == text
    (True, True)
    """
    data = text.encode()
    if len(data) < PACK_MIN:
        return text
    deflate = zlib.compressobj(PACK_LEVEL, zlib.DEFLATED, -15)
    return deflate.compress(data) + deflate.flush()


class Done(Future[Any]):
    """A future finished when it is made, with its value: what a push drawn at once (or
    found drawn) is. A plain ``Future`` makes a lock and a condition, which its
    ``set_result`` and ``result`` then take, for every push; nothing ever waits on this
    one, so it has none (``asyncio.wrap_future`` takes it as any finished future).

    >>> import asyncio
    >>> done = Done(7)
    >>> done.done(), done.result(), done.exception(), done.cancelled(), done.cancel()
    (True, 7, None, False, False)
    >>> async def wait() -> int:
    ...     return await asyncio.wrap_future(done)
    >>> asyncio.run(wait())
    7
    """

    def __init__(self, value: Any) -> None:  # (no Future.__init__: no lock, no condition)
        self._value = value

    def __repr__(self) -> str:
        return f"<Done {self._value!r:.40}>"

    def done(self) -> bool:
        return True

    def running(self) -> bool:
        return False

    def cancelled(self) -> bool:
        return False

    def cancel(self) -> bool:
        return False

    def result(self, timeout: float | None = None) -> Any:
        return self._value

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return None

    def add_done_callback(self, fn: Callable[[Future[Any]], object]) -> None:
        fn(self)

    def set_running_or_notify_cancel(self) -> bool:
        raise RuntimeError("a Done future is finished already")

    def set_result(self, result: Any) -> None:
        raise RuntimeError("a Done future is finished already")

    def set_exception(self, exception: BaseException | None) -> None:
        raise RuntimeError("a Done future is finished already")


def _done(value: Any) -> Future[Any]:
    return Done(value)


def _called(fn: Callable[..., Any], *args: Any) -> Future[Any]:
    """``fn(*args)`` called now, as a finished future (its exception kept in it, as a
    drawing thread's would be)."""
    try:
        return Done(fn(*args))
    except Exception as err:
        future: Future[Any] = Future()
        future.set_exception(err)
        return future


class Views:
    """What a runtime has drawn and encoded for its viewers, by revision: the current one
    and the frames of the few before it, to diff from. :meth:`clear` starts a new
    revision: call it whenever anything a viewer is shown may have changed.

    Every entry is keyed by its revision, so a drawing thread that finishes after the
    match moved on stores only what was true at the revision it drew."""

    def __init__(self) -> None:
        self.rev = next_revision()
        self.recent: deque[int] = deque([self.rev], maxlen=HISTORY)
        self.frames: dict[tuple[int, Player | None], Frame] = {}
        self.layers: dict[tuple[int, Player | None], Layers] = {}
        self.texts: dict[Any, str] = {}
        self.logs: dict[Any, list[dict[str, Any]]] = {}
        """The log as each viewer reads it (one entry for all when it is the same)."""
        self.shared: dict[Any, dict[str, Any]] = {}
        """The fields every viewer is told alike (raw, and as JSON values)."""
        self.drawn: dict[Any, Any] = {}
        """What the renderer draws once for every viewer of this revision (svg.once)."""
        self.values: dict[Any, Any] = {}
        """Other values worked out once per revision (the scores every viewer is shown)."""
        self.pushes: dict[Any, Future[tuple[int, str | bytes] | None]] = {}
        self.lock = threading.Lock()
        """Held while a frame is drawn: each (revision, seat) is drawn once."""

    def clear(self) -> None:
        self.rev = next_revision()
        self.recent.append(self.rev)
        keep = set(self.recent)
        for key in [k for k in list(self.frames) if k[0] not in keep]:  # (one dict, shared
            self.frames.pop(key, None)  # with drawing threads that may still add to it)
        self.layers = {}
        self.texts = {}
        self.logs = {}
        self.shared = {}
        self.drawn = {}
        self.values = {}
        self.pushes = {}


@dataclass(frozen=True)
class LogSoFar:
    """How far :meth:`MatchRuntime.log_for` had read a match's entries: the log entries
    made of the first ``count`` (``done``, and the chance entries after the last decision
    in ``run``, not folded yet), so that the next build reads only the entries added since.
    Entries are never changed once logged; an undo removes the last ones."""

    count: int
    last: LogEntry | None
    """The ``count``-th entry: if the match's is another one, an undo came in between."""
    done: tuple[dict[str, Any], ...]
    run: tuple[dict[str, Any], ...]
    setup: int = 0
    """The chance entries that begin the match (its set-up): when a decision came among
    the ``count`` entries read, the set-up ended there, and does not change while they
    stay (:meth:`continues`)."""

    def continues(self, entries: Sequence[LogEntry]) -> bool:
        """Whether ``entries`` begin with the ones read (nothing undone since).

        >>> a, b = LogEntry(0, "a"), LogEntry(1, "b")
        >>> so_far = LogSoFar(1, a, (), ())
        >>> so_far.continues([a, b]), so_far.continues([b]), so_far.continues([])
        (True, False, False)
        """
        if self.count == 0:
            return True
        return len(entries) >= self.count and entries[self.count - 1] is self.last


def bot_seed(seed: int, seat: int) -> int:
    """A bot's own seed, derived from (and revealing nothing of) the match seed."""
    digest = hashlib.sha256(f"motherlode-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Step:
    """A planned change, applied to copies: committed only once it is in the database."""

    state: State
    rng_state: tuple[Any, ...]
    entries: list[LogEntry]
    undo: bool = False
    clock: clocks.Clock | None = None
    """The match's clock after this step (set as it is written; server/clocks.py); set
    before, the clock to start from, with the clock events written with the step."""
    increment: bool = True
    """Whether the mover's Fischer clock earns its increment (not for a skipped turn)."""


@dataclass
class MatchRuntime:
    """A match in memory: game, seats, seed, the state re-played from the log."""

    match_id: str
    game: Game
    seed: int
    seed_sha256: str
    seats: list[SeatInfo]
    state: State = field(init=False)
    chance: str = MT19937
    """The match's chance stream (core/chance.py): ``hmac-sha256`` for new matches."""
    caps: BotCaps = field(default_factory=BotCaps)
    """The server's caps on its bots, applied whenever an agent is made (resumed too)."""
    rng: random.Random = field(init=False)
    entries: list[LogEntry] = field(default_factory=list)
    version: int = 0
    """Rows in the database log, undo rows included: what a move must quote."""
    agents: dict[int, Agent] = field(default_factory=dict)
    clock: clocks.Clock | None = None
    """The match's clock as stored (``None``: no clock), with its events."""
    _cache: Views = field(default_factory=Views)
    _logs_so_far: dict[Player | None, LogSoFar] = field(
        default_factory=dict, init=False, repr=False
    )
    """Per viewer of the log: where its last build got to (:meth:`_log`)."""
    _group: tuple[int, State, list[Action]] | None = field(default=None, init=False, repr=False)
    """While re-playing a command's rows: where it began, the state before it, its actions."""
    _run: BotRun | None = field(default=None, init=False, repr=False)
    """A bot's run of decisions still open at the last entry (:func:`bot_runs`)."""
    _log_texts: dict[Player | None, tuple[list[dict[str, Any]], tuple[str, ...], str]] = field(
        default_factory=dict, init=False, repr=False
    )
    """Per viewer of the log: the last log encoded, its entries' JSON texts and the
    whole text, so that the next revision encodes only the entries that are not the same
    objects (and, when the log only grew, writes the text on from the last one)."""
    _constant: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    """What never changes in a match, worked out once: its config as JSON values, the
    static layer's URL."""

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state()
        self.rng = make_stream(self.chance, self.seed)

    # -- rebuilding --------------------------------------------------------------------

    def replay_rows(
        self, rows: Sequence[tuple[str, int, str, str | None, *tuple[Any, ...]]]
    ) -> None:
        """Re-play log rows ``(kind, seat, action, visible)`` (optionally a fifth, the
        row's note); a chance row must be the seeded draw. ``visible`` (as written with
        the row) saves working it out again.

        The state is replaced, never changed in place: a drawing thread may be drawing a
        copy of this runtime (:meth:`_still`, which shares the state) while another
        process's rows are caught up with here."""
        if rows:
            self.state = self.state.clone()
        for i, (kind, seat, text, mask, *note) in enumerate(rows):
            note = [str(n) for n in note if n]
            if kind == "undo":
                if not self.entries:
                    raise MotherlodeError(f"{self.match_id}: row {i} undoes nothing")
                del self.entries[self._unit_start() :]
                self.state, self.rng = self._replayed([e.text for e in self.entries])
                self._run = None
            else:
                group = kind if kind in ("command", "part") else ""
                if group == "command":
                    self._group = (len(self.entries), self.state.clone(), [])
                self._replay_one(seat, text, mask, where=f"row {i}", group=group)
                self.entries[-1].note = note[0] if note else ""
                self._close_group(rows[i + 1][0] if i + 1 < len(rows) else "")
            self.version += 1
        self._cache.clear()

    def _close_group(self, next_kind: str) -> None:
        """After a command's last row: its one log line, from the game's own words."""
        if self._group is None or next_kind == "part":
            return
        start, before, actions = self._group
        self._group = None
        self.entries[start].line = command_line(before, self.entries[start].seat, actions)

    def _unit_start(self) -> int:
        """Where the last undo unit begins: a command's first entry, else the last entry."""
        i = len(self.entries) - 1
        while i > 0 and self.entries[i].group == "part":
            i -= 1
        return i if self.entries[i].group == "command" else len(self.entries) - 1

    def _replay_one(
        self, seat: Player, text: str, mask: str | None, where: str, group: str = ""
    ) -> None:
        state = self.state
        actor = state.current_player()
        try:
            action = state.string_to_action(text)
        except NotationError as err:
            raise MotherlodeError(f"{self.match_id}: {where} {text!r}: {err}") from None
        if actor == CHANCE:
            drawn = state.sample_chance(self.rng)
            if drawn != action:
                raise MotherlodeError(
                    f"{self.match_id}: {where}: logged {text!r} but the seed draws"
                    f" {state.action_to_string(drawn)!r}"
                )
        elif actor != seat:
            raise MotherlodeError(f"{self.match_id}: {where}: seat {seat} moved for {actor}")
        n = self.game.num_players
        if self.game.perfect_information:
            seen = None
        elif mask is not None and len(mask) == n + 1:
            seen = tuple(c == "1" for c in mask)
        else:
            seen = visibility(state, action, actor)
        entry = LogEntry(actor, text, seen, narrations(state, action), group)
        self._run = bot_runs(self.entries, state, [entry], self._run, self.is_bot)
        try:
            state.apply_action(action)
        except IllegalActionError as err:  # a rule changed since the row was written
            raise MotherlodeError(f"{where} ({text!r}): {err}") from None
        self.entries.append(entry)
        if self._group is not None:
            self._group[2].append(action)

    def _replayed(self, texts: list[str]) -> tuple[State, random.Random]:
        """The state and RNG after ``texts`` (trusted: they were checked when logged)."""
        state = self.game.new_initial_state()
        rng = make_stream(self.chance, self.seed)
        for text in texts:
            if state.is_chance_node():
                state.sample_chance(rng)
            state.apply_string(text)
        return state, rng

    # -- moving ---------------------------------------------------------------------

    def plan_chance(self) -> Step:
        """Draw every chance outcome due now (the set-up deal, a die after a decision)."""
        state = self.state.clone()
        rng = fork(self.rng)
        entries: list[LogEntry] = []
        self._draw(state, rng, entries)
        return Step(state, rng.getstate(), entries)

    @staticmethod
    def _draw(
        state: State,
        rng: random.Random,
        entries: list[LogEntry],
        applied: list[Action] | None = None,
    ) -> None:
        while state.is_chance_node():
            action = state.sample_chance(rng)
            if applied is not None:
                applied.append(action)
            entries.append(
                LogEntry(
                    CHANCE,
                    state.action_to_string(action),
                    visibility(state, action, CHANCE),
                    narrations(state, action),
                )
            )
            state.apply_action(action)

    def plan_move(self, seat: Player, action: int | str) -> Step:
        """Check ``action`` by ``seat`` against the engine; the step with chance after it."""
        state = self.state
        if state.is_terminal():
            raise ServerError("match_over", "the match is over")
        to_move = state.current_player()
        if seat != to_move:
            raise ServerError(
                "not_your_turn",
                f"it is P{to_move + 1}'s turn, not P{seat + 1}'s"
                if to_move >= 0
                else "it is nobody's turn",
            )
        if isinstance(action, bool) or not isinstance(action, int | str):
            raise ServerError("invalid_move", "an action is its notation (string) or its id")
        try:
            a = state.string_to_action(action) if isinstance(action, str) else action
            new = state.clone()
            text = state.action_to_string(a) if isinstance(action, int) else None
            new.apply_action(a)
        except (IllegalActionError, NotationError) as err:
            # the engine's reason, in the player's words; the position (which may hold
            # what this seat may not see) stays in err.position, for the server's log only
            log.debug(
                "refused %r by P%d in %s at %s",
                action,
                seat + 1,
                self.match_id,
                getattr(err, "position", None),
            )
            raise ServerError("invalid_move", str(err)) from None
        except (IndexError, KeyError, ValueError):  # ids far out of range
            # never the exception's own text: it can name anything inside the state
            raise ServerError(
                "invalid_move", f"{self.game.name}: {action!r} is not an action of this game"
            ) from None
        if text is None:
            text = state.action_to_string(a)
        entries = [LogEntry(seat, text, visibility(state, a, seat), narrations(state, a))]
        rng = fork(self.rng)
        self._draw(new, rng, entries)
        return Step(new, rng.getstate(), entries)

    def _check_turn(self, seat: Player) -> None:
        state = self.state
        if state.is_terminal():
            raise ServerError("match_over", "the match is over")
        to_move = state.current_player()
        if seat != to_move:
            raise ServerError(
                "not_your_turn",
                f"it is P{to_move + 1}'s turn, not P{seat + 1}'s"
                if to_move >= 0
                else "it is nobody's turn",
            )

    def _expanded(self, seat: Player, command: Any) -> list[Action]:
        if not isinstance(command, str) or not command.strip():
            raise ServerError("invalid_move", "a command is text ('build to Lyon')")
        if len(command) > 200:
            raise ServerError("invalid_move", "a command is at most 200 characters")
        self._check_turn(seat)
        try:
            actions = self.state.expand(command)
        except (IllegalActionError, NotationError) as err:
            raise ServerError("invalid_move", str(err)) from None
        if not actions:
            raise ServerError("invalid_move", f"{command!r} does nothing here")
        return actions

    def plan_command(self, seat: Player, command: Any) -> Step:
        """A command for people (``state.expand``): its atomic actions (and the chance
        drawn between and after them) as one step, one undo unit and one log line."""
        actions = self._expanded(seat, command)
        if len(actions) == 1:
            return self.plan_move(seat, actions[0])
        new = self.state.clone()
        rng = fork(self.rng)
        entries: list[LogEntry] = []
        applied: list[Action] = []
        for a in actions:
            self._draw(new, rng, entries, applied)
            if new.current_player() != seat:
                break  # the turn passed (an event): the rest of the command lapses
            try:
                text = new.action_to_string(a)
                entry = LogEntry(seat, text, visibility(new, a, seat), narrations(new, a))
                new.apply_action(a)
            except (IllegalActionError, NotationError) as err:
                raise ServerError("invalid_move", str(err)) from None
            entries.append(entry)
            applied.append(a)
        self._draw(new, rng, entries, applied)
        for i, e in enumerate(entries):
            e.group = "part" if i else "command"
        entries[0].line = command_line(self.state, seat, applied)
        return Step(new, rng.getstate(), entries)

    def preview(self, seat: Player, command: Any) -> dict[str, Any]:
        """What ``command`` would do for ``seat`` (its route, cost, what remains, and an
        SVG overlay drawn by the engine): not a move; nothing changes."""
        self._expanded(seat, command)
        try:
            pv = self.state.preview(command)
        except (IllegalActionError, NotationError) as err:
            raise ServerError("invalid_move", str(err)) from None
        return {"type": "preview", "version": self.version, **pv.as_dict()}

    def undo_allowed(self, seat: Player | None) -> bool:
        """BGA's rule: the last action is this seat's decision (so no die, card or chip has
        been revealed since and nobody else has acted), and the match is not over. A
        command's actions are one unit: every one of them this seat's decision."""
        if seat is None or not self.entries or self.finished:
            return False
        if self.clock is not None and any(e.at >= len(self.entries) for e in self.clock.events):
            return False  # a clock event came after it
        return all(e.seat == seat for e in self.entries[self._unit_start() :])

    def plan_undo(self, seat: Player) -> Step:
        if not self.undo_allowed(seat):
            raise ServerError(
                "undo_not_allowed",
                "only your own last decision can be undone, while nobody else has acted and"
                " nothing has been revealed since",
            )
        state, rng = self._replayed([e.text for e in self.entries[: self._unit_start()]])
        return Step(state, rng.getstate(), [], undo=True)

    def commit(self, step: Step) -> None:
        before, self.state = self.state, step.state
        self.rng.setstate(step.rng_state)
        if step.clock is not None:
            self.clock = step.clock
        if step.undo:
            del self.entries[self._unit_start() :]
            self.version += 1
            self._run = None
        else:
            self._run = bot_runs(self.entries, before, step.entries, self._run, self.is_bot)
            self.entries.extend(step.entries)
            self.version += len(step.entries)
        self._cache.clear()

    # -- bots -------------------------------------------------------------------------

    def bot_spec(self, seat: int) -> str:
        """The seat's spec within today's caps (the game's greedy bot if it is above them,
        or for a person's seat taken over after a timeout)."""
        if self.seats[seat].kind != "bot":
            return self.fallback_spec()
        try:
            return self.caps.apply(self.seats[seat].spec, self.game)
        except AgentSpecError as err:  # stored under looser caps: today's caps decide
            spec = self.fallback_spec()
            log.warning("%s seat P%d: %s; it plays as %s", self.match_id, seat + 1, err, spec)
            return spec

    def is_bot(self, seat: int) -> bool:
        """A bot plays ``seat``: a bot seat, or a late seat a bot took over (clocks.py)."""
        return self.seats[seat].kind == "bot" or (
            self.clock is not None and seat in self.clock.bots
        )

    def fallback_spec(self) -> str:
        """The bot that moves for a bot that cannot: the game's greedy bot, else random."""
        return "greedy" if "greedy" in self.game.bots() else "random"

    def agent(self, seat: int) -> Agent:
        if seat not in self.agents:
            spec = self.bot_spec(seat)
            self.agents[seat] = create_agent(spec, self.game, seed=bot_seed(self.seed, seat))
        return self.agents[seat]

    def bot_to_move(self) -> int | None:
        cp = self.state.current_player()
        if cp >= 0 and not self.finished and self.is_bot(cp):
            return cp
        return None

    # -- views ------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Over: the game ended, or a seat forfeited on time (clocks.py)."""
        return self.state.is_terminal() or self.forfeit is not None

    @property
    def forfeit(self) -> int | None:
        return None if self.clock is None else self.clock.forfeit

    def log_for(self, seat: Player | None) -> list[dict[str, Any]]:
        """The log as ``seat`` may read it: the notation (``text``) and the narration
        (``said``) of each step ``n``; ``setup`` on the chance steps before the first
        decision, which the page folds into one line (a replay starts after them). A later
        run of chance steps (El Dorado's seven dice) is one entry, ``n`` its last step and
        ``label`` its range ("29–35"), its sentences folded into one."""
        return self._log_from(seat, None)[0]

    def _log_from(
        self, seat: Player | None, start: LogSoFar | None
    ) -> tuple[list[dict[str, Any]], LogSoFar | None]:
        """:meth:`log_for`, going on from ``start`` (what it had read of the first
        entries, still the same ones); and where it got to (``None`` with clock events,
        which go between the entries: those logs are built whole)."""
        n = self.game.num_players
        if start is not None and start.setup < start.count:
            setup = start.setup  # a decision came after the set-up: it is known
        else:
            setup = 0
            while setup < len(self.entries) and self.entries[setup].seat == CHANCE:
                setup += 1
        out: list[dict[str, Any]] = [] if start is None else list(start.done)
        run: list[dict[str, Any]] = [] if start is None else list(start.run)
        events = self._clock_entries()
        for i in range(0 if start is None else start.count, len(self.entries)):
            e = self.entries[i]
            if i in events:
                out.extend(_folded(run))
                run = []
                out.extend(events.pop(i))
            if e.group == "part" and e.seat != CHANCE:
                continue  # in its command's line
            text, said = e.shown_to(seat, n), e.said_to(seat, n)
            if e.line:
                text = said = e.line
            if e.note:  # e.g. a bot that failed: public, and shown as part of the line
                said = f"{said or text} ({e.note})"
            entry: dict[str, Any] = {"n": i + 1, "seat": e.seat, "text": text, "said": said}
            if i < setup:
                entry["setup"] = True
            elif e.seat == CHANCE:
                if run and run[-1]["seat"] != CHANCE:
                    out.extend(run)  # a decision held back: no bot's run goes on past chance
                    run = []
                run.append(entry)
                continue
            elif e.run is not None and run and _run_start(run[-1]) == e.run[0] + 1:
                notes = [f" ({x.note})" for x in self.entries[e.run[0] : i + 1] if x.note]
                run = [_grown(run[-1], entry, e.run[1] + "".join(notes))]
                continue  # a bot's run goes on: its one line so far replaces the last
            out.extend(_folded(run))
            run = []
            if e.seat != CHANCE and not e.line:
                run = [entry]  # held back: a bot's run may go on from it
                continue
            out.append(entry)
        so_far = None
        if not events and (self.clock is None or not self.clock.events):
            last = self.entries[-1] if self.entries else None
            so_far = LogSoFar(len(self.entries), last, tuple(out), tuple(run), setup)
        out.extend(_folded(run))
        for at in sorted(events):
            out.extend(events[at])
        return out, so_far

    def _log(self, seat: Player | None) -> list[dict[str, Any]]:
        """:meth:`log_for`, built once per revision, and once for every viewer when no
        entry reads differently to one (a perfect-information game's log); going on from
        where the last build got to while the entries only grew (a move reads the new
        entries, not the whole game again). Shared: read it, never change it."""
        viewer = self._log_viewer(seat)
        key = (self._cache.rev, viewer)
        entries = self._cache.logs.get(key)
        if entries is None:
            start = self._logs_so_far.get(viewer)
            if start is not None and not start.continues(self.entries):
                start = None
            entries, so_far = self._log_from(viewer, start)
            self._cache.logs[key] = entries
            if so_far is not None:
                self._logs_so_far[viewer] = so_far
        return entries

    def _log_viewer(self, seat: Player | None) -> Player | None:
        """Whose log ``seat`` reads: ``None`` (one for all) when no entry reads
        differently to one viewer (a perfect-information game's log)."""
        shared = self.game.perfect_information or all(
            e.visible is None and len(e.said) <= 1 for e in self.entries
        )
        return None if shared else seat

    def _log_text(self, seat: Player | None) -> str:
        """:meth:`_log` as JSON text, once per revision and log; the entries that were in
        the last one encoded (the same objects: :meth:`_log_from` keeps them) are not
        encoded again."""
        viewer = self._log_viewer(seat)
        key = (self._cache.rev, viewer, "text")
        text = self._cache.texts.get(key)
        if text is not None:
            return text
        entries = self._log(seat)
        last, texts, joined = self._log_texts.get(viewer, ([], (), "[]"))
        same = len(last)
        if same <= len(entries) and all(map(operator.is_, last, entries)):
            added = [dumps(e) for e in entries[same:]]  # (only grew: the usual move)
            texts += tuple(added)
            if added:
                joined = f"{joined[:-1]}{',' if same else ''}{','.join(added)}]"
        else:
            same = 0
            for old, new in zip(last, entries, strict=False):
                if old is not new:
                    break
                same += 1
            texts = texts[:same] + tuple(dumps(e) for e in entries[same:])
            joined = "[" + ",".join(texts) + "]"  # (as push.dumps writes the list)
        self._log_texts[viewer] = (entries, texts, joined)
        self._cache.texts[key] = joined
        return joined

    def _clock_entries(self) -> dict[int, list[dict[str, Any]]]:
        """The clock's events as log entries, by how many engine entries came before."""
        out: dict[int, list[dict[str, Any]]] = {}
        for e in self.clock.events if self.clock is not None else ():
            said = e.text()
            item = {"n": e.at, "label": "clock", "seat": e.seat, "text": said, "said": said}
            out.setdefault(e.at, []).append(item | {"clock": e.kind})
        return out

    def scores_for(self, view: dict[str, Any]) -> list[float] | None:
        """The scores a viewer of ``view`` is shown: every seat's while the game is of
        perfect information or over (the same for every viewer: worked out once per
        revision, shared: read it, never change it), else those the view shows."""
        if self.finished or self.game.perfect_information:
            key = (self._cache.rev, "scores")
            scores = self._cache.values.get(key)
            if scores is None:
                with memo_shared(self._cache.drawn):  # (a view that shows points reads it)
                    raw = memo_scores(self.state)
                scores = self._cache.values[key] = [float(s) for s in raw]
            return cast("list[float]", scores)
        shown = view.get("scores")
        return list(shown) if isinstance(shown, list) else None

    def layers(self, seat: Player | None) -> Layers:
        """The board ``seat`` is shown now, drawn once per revision."""
        key = (self._cache.rev, seat)
        layers = self._cache.layers.get(key)
        if layers is None:
            layers = board_layers(self.state, seat, self._cache.drawn)
            if self.forfeit is not None:  # over on time: nothing is clickable any more
                seat_layer = tuple((k, strip_actions(m)) for k, m in layers.seat)
                layers = Layers(
                    layers.width,
                    layers.height,
                    layers.static,
                    layers.public,
                    seat_layer,
                    layers.title,
                )
            shown = self._cache.values.get((self._cache.rev, "public"))
            if shown is None:
                self._cache.values[(self._cache.rev, "public")] = layers.public
            elif shown is not layers.public and shown == layers.public:
                # one object for every viewer (a renderer that shares it, svg.once, gives it)
                layers = dataclasses.replace(layers, public=shown)
            self._cache.layers[key] = layers
        return layers

    def _layer_text(self, old: Layer, new: Layer) -> str:
        """:func:`layer_text`, remembered for the revision: the public layer of a
        revision is one object for every viewer (:meth:`layers`), so its change from the
        revision before is worked out and encoded once for all of them."""
        key = ("layer", id(old), id(new))
        known = self._cache.values.get(key)
        if known is not None and known[0] is old and known[1] is new:
            return cast(str, known[2])
        text = layer_text(old, new)
        self._cache.values[key] = (old, new, text)  # (kept: ids are unique while alive)
        return text

    def fields(self, seat: Player | None) -> dict[str, Any]:
        """Everything a seat (``None``: a spectator) is told about the match now but the
        board. What every viewer is told alike is built once per revision, the rest per
        viewer."""
        shared = self._shared_fields()
        own = self._own_fields(seat)
        own["log"] = self._log(seat)  # shared
        return {k: own[k] if k in own else shared[k] for k in FIELDS}

    def field_texts(self, seat: Player | None) -> dict[str, str]:
        """:meth:`fields` as each field's JSON text (what a frame holds): those every
        viewer is told alike and the log encoded once per revision and shared, the
        seat's own encoded here."""
        shared = self._shared_texts()
        own = self._own_texts(seat)
        own["log"] = self._log_text(seat)
        return {k: own[k] if k in own else shared[k] for k in FIELDS}

    def _own_texts(self, seat: Player | None) -> dict[str, str]:
        """:meth:`_own_fields` as JSON texts. A value the viewers of this revision share
        (the scores) is written once for all of them; where every seat sees all, a seat's
        view is the spectator's with its ``seat`` (:meth:`_own_fields`): the rest of its
        text is written once per revision (:meth:`_view_text`)."""
        values = self._cache.values
        texts: dict[str, str] = {}
        for name, value in self._own_fields(seat).items():
            if value is None or isinstance(value, bool | int):
                texts[name] = "null" if value is None else dumps(value)
            elif name == "view" and (seat is None or self.game.perfect_information):
                texts[name] = self._view_text(seat)
            else:
                key = ("text", id(value))
                known = values.get(key)
                if known is None or known[0] is not value:
                    known = values[key] = (value, dumps(value))  # (held: its id stays its own)
                texts[name] = known[1]
        return texts

    def _view_text(self, seat: Player | None) -> str:
        """The JSON text of ``seat``'s view where every seat sees all: the spectator's
        (``seat`` ``None``), or a seat's made of it (:meth:`_own_fields`: the same members
        but ``seat``). The members but ``seat`` are written once per revision, ``seat`` put
        first (a JSON object's members have no order: it reads as ``json.dumps`` of the
        view does)."""
        key = (self._cache.rev, "view but seat")
        known = self._cache.values.get(key)
        if known is None:
            with memo_shared(self._cache.drawn):
                spectator = spectator_view(self.state)
            rest = dumps({k: v for k, v in spectator.items() if k != "seat"})
            known = self._cache.values[key] = (rest, "seat" in spectator)
        rest, has_seat = known
        if seat is None and not has_seat:
            return cast(str, rest)  # (the spectator's view has no seat to say)
        mine = "null" if seat is None else dumps(seat)
        return f'{{"seat": {mine}}}' if rest == "{}" else f'{{"seat": {mine}, {rest[1:]}'

    def _own_fields(self, seat: Player | None) -> dict[str, Any]:
        """The fields that are the seat's own (its view, its legal moves ...), the log
        apart."""
        state = self.state
        to_move = state.current_player()
        legal: list[dict[str, Any]] = []
        # what the board's renderer reads too, built once for the position (core/memo.py): the
        # spectator's view, a seat's where every seat sees all (only "seat" differs then:
        # Game.perfect_information), the mover's moves
        with memo_shared(self._cache.drawn):
            if seat is None or self.game.perfect_information:
                spectator = spectator_view(state)
                view = spectator if seat is None else {**spectator, "seat": seat}
            else:
                view = state.observation(seat)
            if seat is not None and seat == to_move and self.forfeit is None:
                legal = [{"id": a, "text": text} for a, text in legal_texts(state)]
        return {
            "seat": seat,
            "view": view,
            "legal": legal,
            "scores": self.scores_for(view),
            "can_undo": self.undo_allowed(seat),
        }

    def _shared_texts(self) -> dict[str, str]:
        """:meth:`_shared_fields` as JSON texts, once per revision; a value that is the
        very object of the last revision's (the match's id, its config, the players while
        no seat changed) keeps its text."""
        key = (self._cache.rev, "texts")
        texts = self._cache.shared.get(key)
        if texts is None:
            values = self._shared_fields()
            last_values, last_texts = self._constant.get("shared", ({}, {}))
            texts = {
                k: last_texts[k] if last_values.get(k, _UNSEEN) is v else dumps(v)
                for k, v in values.items()
            }
            self._constant["shared"] = (values, texts)
            self._cache.shared[key] = texts
        return texts

    def _players(self) -> list[dict[str, Any]]:
        """The players as every viewer is told them: the same list while no seat changes
        (its text is then not written again, :meth:`_shared_texts`)."""
        seats = tuple(
            (s.seat, s.kind, s.spec, s.label, s.joined or s.kind == "bot", s.account or None)
            for s in self.seats
        )
        known = self._constant.get("players")
        if known is None or known[0] != seats:
            players = [
                {"seat": a, "kind": b, "spec": c, "name": d, "joined": e, "account": f}
                for a, b, c, d, e, f in seats
            ]
            known = self._constant["players"] = (seats, players)
        return cast("list[dict[str, Any]]", known[1])

    def _config(self) -> dict[str, Any]:
        """The match's config as JSON values (worked out once: it never changes)."""
        config = self._constant.get("config")
        if config is None:
            config = self._constant["config"] = self.game.config.model_dump(mode="json")
        return cast("dict[str, Any]", config)

    def _static_url(self) -> str:
        url = self._constant.get("static")
        if url is None:
            url = self._constant["static"] = static_url(self.game)
        return cast(str, url)

    def _shared_fields(self) -> dict[str, Any]:
        key = (self._cache.rev, "values")
        shared = self._cache.shared.get(key)
        if shared is not None:
            return shared
        state = self.state
        to_move = state.current_player()
        outcome = state.outcome()
        labels = [s.label for s in self.seats]
        summary = summary_view(state, labels)
        if self.forfeit is not None:  # ended on time: nobody moves, the others share the win
            to_move = TERMINAL
            outcome = None
            summary = clocks.forfeit_summary(labels, self.forfeit)
        shared = {
            "match": self.match_id,
            "game": self.game.name,
            "config": self._config(),
            "version": self.version,
            "status": "finished" if self.finished else "running",
            "to_move": to_move if to_move >= 0 else None,
            "terminal": to_move == TERMINAL,
            "players": self._players(),
            "outcome": self._outcome(outcome),
            "summary": summary,
            "clock": clocks.view(self.clock, self.game.name, self._passes()),
            "seed_sha256": self.seed_sha256,
            "seed": str(self.seed) if self.finished else None,
        }
        self._cache.shared[key] = shared
        return shared

    def _passes(self) -> bool:
        """Whether a late seat's turn can be skipped now with its game's pass."""
        late = None if self.clock is None else clocks.late(self.clock)
        return late is None or clocks.skip_action(self.state) is not None

    def _outcome(self, outcome: Any) -> dict[str, Any] | None:
        if self.forfeit is not None:
            result = clocks.Forfeited(len(self.seats), self.forfeit)
            return {"winners": result.winners(), "scores": result.scores()}
        if outcome is None:
            return None
        return {"winners": list(outcome.winners), "scores": list(outcome.scores)}

    def payload(self, seat: Player | None) -> dict[str, Any]:
        """Everything a seat (``None``: a spectator) receives about the match now, the
        board as one SVG (``svg``): the HTTP API's answer."""
        fields = self.fields(seat)
        return {"type": "state", **fields, "svg": layers_svg(self.layers(seat))}

    def payload_json(self, seat: Player | None) -> str:
        key = ("payload", self._cache.rev, seat)
        text = self._cache.texts.get(key)
        if text is None:
            text = self._cache.texts[key] = json.dumps(self.payload(seat), default=str)
        return text

    def payload_soon(self, seat: Player | None) -> Future[str]:
        """:meth:`payload_json` drawn off the event loop, in :data:`DRAWING` (here when it
        is cached already or the game draws in under :data:`INLINE_DRAW_SECONDS`)."""
        text = self._cache.texts.get(("payload", self._cache.rev, seat))
        if text is not None:
            return _done(text)
        if _draw_cost.get(self.game.name, INLINE_DRAW_SECONDS) < INLINE_DRAW_SECONDS:
            return _called(self.payload_json, seat)
        return DRAWING.submit(self._still().payload_json, seat)

    # -- pushes (server/push.py) ------------------------------------------------------

    @property
    def rev(self) -> int:
        """The current revision: what a viewer is shown changes only with it."""
        return self._cache.rev

    def frame(self, seat: Player | None) -> Frame:
        """What ``seat`` is shown at the current revision (drawn once, whoever watches)."""
        cache = self._cache
        key = (cache.rev, seat)
        with cache.lock:
            frame = cache.frames.get(key)
            if frame is None:
                layers = self.layers(seat)
                texts = self.field_texts(seat)
                if is_single(layers):
                    board = BoardFrame(0, 0, None, (), layers.seat)
                else:
                    url = self._static_url()
                    board = BoardFrame(layers.width, layers.height, url, layers.public, layers.seat)
                frame = cache.frames[key] = Frame(cache.rev, self.version, texts, board)
        return frame

    def _still(self) -> MatchRuntime:
        """A copy of this runtime as it is now, for a drawing thread: the loop replaces
        the state at each move (never changes it) but extends the log and marks seats
        joined in place, so those are copied. The views (keyed by revision) are shared."""
        snap = copy.copy(self)
        snap.entries = list(self.entries)
        snap.seats = [dataclasses.replace(s) for s in self.seats]
        snap._cache = copy.copy(self._cache)  # this revision's dicts, the same lock
        return snap

    def _encode(self, seat: Player | None, base: Frame | None) -> tuple[int, str]:
        timed = next(_draws) % DRAW_SAMPLE == 0 or self.game.name not in _draw_cost
        started = time.thread_time() if timed else 0.0
        new = self.frame(seat)
        text = diff_text(base, new, self._layer_text) if base is not None else None
        if text is None:
            text = new.snapshot_text()
        if timed:
            _note_draw_cost(self.game.name, time.thread_time() - started)
        return new.rev, text

    def _encode_packed(self, seat: Player | None, base: Frame | None) -> tuple[int, str | bytes]:
        """:meth:`_encode`, compressed for the sockets that read deflated frames (:func:`pack`)."""
        rev, text = self._encode(seat, base)
        return rev, pack(text)

    def push(
        self, seat: Player | None, last: int | None, packed: bool = False
    ) -> Future[tuple[int, str | bytes] | None]:
        """The push that brings a viewer of ``seat`` who last got revision ``last``
        (``None``: nothing yet, or it asked for a snapshot) to the current one: a diff
        from ``last`` while its frame is kept, else a snapshot; ``None`` when it is up to
        date. Drawn and encoded once per (base, revision, seat), in :data:`DRAWING` (here,
        for a game that draws in under :data:`INLINE_DRAW_SECONDS`), and shared by every
        such socket (call it on the event loop). ``packed``: for a socket that reads
        compressed frames, :func:`pack`'s bytes (compressed once too, and shared)."""
        cache = self._cache
        if last == cache.rev:
            return _done(None)
        base = cache.frames.get((last, seat)) if last is not None else None
        key = (None if base is None else base.rev, cache.rev, seat, packed)
        future = cache.pushes.get(key)
        if future is None:
            runtime = self
            if _draw_cost.get(self.game.name, INLINE_DRAW_SECONDS) >= INLINE_DRAW_SECONDS:
                runtime = self._still()
            encode = runtime._encode_packed if packed else runtime._encode
            if runtime is self:
                future = _called(encode, seat, base)
            else:
                future = DRAWING.submit(encode, seat, base)
            cache.pushes[key] = future
        return future

    def message(self, seat: Player | None, last: int | None) -> tuple[int, str] | None:
        """:meth:`push`, waited for (for tests and scripts, not the event loop)."""
        return cast("tuple[int, str] | None", self.push(seat, last).result())  # not packed

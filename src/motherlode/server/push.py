"""What the WebSocket pushes: a full snapshot, then diffs from one revision to the next.

A *frame* is everything one viewer (a seat, or ``None``: a spectator) is shown of a match
at one revision: the payload's fields (whose turn, legal moves, the log as that viewer
may read it ...) and the board as DESIGN.md §3b's layers. A revision changes whenever
anything a viewer is shown may change (a move, an undo, a seat taken), so it is finer
than the match's ``version``. Revisions are unique in the process (a runtime re-played
after an eviction starts new ones), so a diff is only ever applied to what it was made
from.

Messages (JSON text frames, each encoded once per (revision, viewer) and shared by every
socket of that viewer):

* snapshot: ``{"type": "state", "rev": R, <fields>, "board": {"width", "height",
  "static": URL or null, "public": [[id, markup], ...], "seat": [[id, markup], ...]}}``;
  the static layer is fetched once from its URL (cacheable: it depends on the game and
  its config only);
* diff: ``{"type": "diff", "base": R0, "rev": R1, "version": V, "fields": {<changed
  fields>}, "log_add": [<new log entries>] (when the log only grew), "board": {"public":
  {"set": {id: markup}, "removed": [id], "order": [id]}, "seat": {...}}}``. A layer's
  ``set`` holds its changed and new elements; ``order`` (the layer's ids, in drawing
  order) is present only when ids came, went or moved.

A frame holds each field as its JSON text, encoded once (:func:`field_texts`); a diff
is made by comparing those texts and sent as their concatenation (:func:`diff_text`), so
nothing is decoded or encoded again per message: the text is the JSON of the message
:func:`diff` (kept as the reference) makes from the values. A field is sent when its JSON
text changed (the same as when its value changed, for values whose JSON a game writes the
same way each time: the same keys in the same order). Values are encoded by orjson
(:func:`dumps`), several times faster than the json module on a board's markup.

>>> a = Frame.of(1, 3, {"to_move": 0, "log": [1]}, BoardFrame(9, 9, None, (("x", "<a/>"),), ()))
>>> b = Frame.of(2, 4, {"to_move": 1, "log": [1, 2]}, BoardFrame(9, 9, None, (("x", "<b/>"),), ()))
>>> d = diff(a, b)
>>> d["fields"], d["log_add"], d["board"]["public"]
({'to_move': 1}, [2], {'set': {'x': '<b/>'}})
>>> json.loads(diff_text(a, b)) == d
True
"""

from __future__ import annotations

import hashlib
import itertools
import json
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from motherlode.core.protocol import Game

try:
    import orjson
except ImportError:  # pragma: no cover  (the server's extra installs it)
    orjson = None  # type: ignore[assignment]

_revisions = itertools.count(1)


def next_revision() -> int:
    """A revision number never used before in this process."""
    return next(_revisions)


def config_digest(game: Game) -> str:
    """A short digest of the game's name and config: the static layer's cache key.

    >>> import motherlode
    >>> len(config_digest(motherlode.load("yukon")))
    16
    """
    text = json.dumps([game.name, game.config.model_dump(mode="json")], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def static_url(game: Game) -> str:
    """Where a browser fetches (and caches) the game's static layer."""
    return f"/board/{game.name}/{config_digest(game)}.svg"


@dataclass(frozen=True)
class BoardFrame:
    """The board one viewer is shown: the static layer by URL (``None``: no static layer,
    the single-element fallback), the public and seat elements in drawing order."""

    width: float
    height: float
    static: str | None
    public: tuple[tuple[str, str], ...]
    seat: tuple[tuple[str, str], ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "static": self.static,
            "public": [list(p) for p in self.public],
            "seat": [list(p) for p in self.seat],
        }


_keys: dict[str, str] = {}


def _key(name: str) -> str:
    """A field's name as a JSON string (``"view"``), written once."""
    text = _keys.get(name)
    if text is None:
        text = _keys[name] = dumps(name)
    return text


_ORJSON_OPTIONS = (
    0
    if orjson is None
    else (
        orjson.OPT_NON_STR_KEYS
        | orjson.OPT_PASSTHROUGH_DATETIME
        | orjson.OPT_PASSTHROUGH_DATACLASS
    )
)
"""Names that are no strings written as strings, dates and dataclasses given to ``str``:
as ``json.dumps(value, default=str)`` has them."""


def dumps(value: Any) -> str:
    r"""The JSON text of ``value``: the value ``json.dumps(value, default=str)`` writes (a
    value JSON lacks written as its ``str``), written compactly and in UTF-8 by orjson;
    by the json module where orjson cannot (an integer past 64 bits).

    >>> dumps({"a": (1, 2.5, None, True), "b": "x"}), dumps("x"), dumps({1: "é"})
    ('{"a":[1,2.5,null,true],"b":"x"}', '"x"', '{"1":"é"}')
    >>> import datetime, numpy
    >>> when = datetime.datetime(2026, 12, 2, 15, 0)
    >>> dumps([numpy.int64(3), when, 2**70])
    '["3", "2026-12-02 15:00:00", 1180591620717411303424]'
    >>> odd = [float("nan"), {"k": [float("inf")]}]
    >>> json.loads(dumps(odd)) == [None, {"k": [None]}]  # (JSON has no such numbers)
    True
    """
    if orjson is None:
        return json.dumps(value, default=str)
    try:
        return orjson.dumps(value, default=str, option=_ORJSON_OPTIONS).decode()
    except TypeError:  # (orjson.JSONEncodeError is one)
        return json.dumps(value, default=str)


def field_texts(fields: Mapping[str, Any]) -> dict[str, str]:
    """Each field's JSON text (:func:`dumps`), in the same order.

    >>> field_texts({"seat": 0, "view": {"hand": ("a", "b")}, "seed": None})
    {'seat': '0', 'view': '{"hand":["a","b"]}', 'seed': 'null'}
    """
    return {k: dumps(v) for k, v in fields.items()}


@dataclass(frozen=True)
class Frame:
    """What one viewer is shown at one revision."""

    rev: int
    version: int
    texts: Mapping[str, str]
    """The payload's fields (no ``type``; the board apart), each as its JSON text, in
    the order of a snapshot. Texts are shared between frames (the fields every viewer is
    told alike, a log that reads alike): compare them, never change them."""
    board: BoardFrame

    @classmethod
    def of(cls, rev: int, version: int, fields: Mapping[str, Any], board: BoardFrame) -> Frame:
        """A frame of fields given as values."""
        return cls(rev, version, field_texts(fields), board)

    @property
    def fields(self) -> dict[str, Any]:
        """The fields as the JSON values a client decodes (each decoded afresh: for
        readers and tests; the pushes use :attr:`texts`)."""
        return {k: json.loads(t) for k, t in self.texts.items()}

    def snapshot(self) -> dict[str, Any]:
        return {"type": "state", "rev": self.rev, **self.fields, "board": self.board.as_json()}

    def snapshot_text(self) -> str:
        """``json.dumps(self.snapshot())``, written from the fields' texts."""
        fields = "".join(f", {_key(k)}: {t}" for k, t in self.texts.items())
        board = dumps(self.board.as_json())
        return f'{{"type": "state", "rev": {self.rev}{fields}, "board": {board}}}'


def layer_diff(
    old: tuple[tuple[str, str], ...], new: tuple[tuple[str, str], ...]
) -> dict[str, Any]:
    """The change of one layer: elements set (changed or new), removed, and the new order
    of ids when it is not the old one less the removed ones.

    >>> layer_diff((("a", "1"), ("b", "2")), (("b", "3"), ("c", "4")))
    {'set': {'b': '3', 'c': '4'}, 'removed': ['a'], 'order': ['b', 'c']}
    >>> layer_diff((("a", "1"),), (("a", "1"),))
    {}
    """
    if len(old) == len(new):  # the usual change: the same ids in the same order
        changed: dict[str, str] = {}
        for (was, before_markup), (now, markup) in zip(old, new, strict=True):
            if was != now:
                break
            if markup is not before_markup and markup != before_markup:
                changed[now] = markup
        else:
            return {"set": changed} if changed else {}
    before = dict(old)
    after = dict(new)
    out: dict[str, Any] = {}
    changed = {k: v for k, v in new if before.get(k) != v}
    if changed:
        out["set"] = changed
    removed = [k for k, _ in old if k not in after]
    if removed:
        out["removed"] = removed
    order = [k for k, _ in new]
    if order != [k for k, _ in old if k in after]:
        out["order"] = order
    return out


def diff(old: Frame, new: Frame) -> dict[str, Any] | None:
    """The diff message from ``old`` to ``new`` (the same viewer); ``None`` when only a
    snapshot can say it (the board's size or static layer changed)."""
    if (old.board.width, old.board.height, old.board.static) != (
        new.board.width,
        new.board.height,
        new.board.static,
    ):
        return None
    before, after = old.fields, new.fields
    fields = {k: v for k, v in after.items() if k != "log" and before.get(k) != v}
    fields.pop("version", None)
    out: dict[str, Any] = {
        "type": "diff",
        "base": old.rev,
        "rev": new.rev,
        "version": new.version,
        "fields": fields,
    }
    old_log, new_log = before.get("log", []), after.get("log", [])
    if new_log != old_log:
        if new_log[: len(old_log)] == old_log:
            out["log_add"] = new_log[len(old_log) :]
        else:
            fields["log"] = new_log
    board: dict[str, Any] = {}
    for name in ("public", "seat"):
        change = layer_diff(getattr(old.board, name), getattr(new.board, name))
        if change:
            board[name] = change
    if board:
        out["board"] = board
    return out


def _log_change(old: str, new: str) -> tuple[str, str] | None:
    """How a log's JSON text ``old`` became ``new``: ``("log_add", the new entries)`` when
    it only grew (``old``'s entries begin ``new``), ``("log", new)`` otherwise; ``None``
    when it is the same.

    >>> _log_change('[1]', '[1]'), _log_change('[]', '[1]'), _log_change('[1]', '[1, 2, 3]')
    (None, ('log_add', '[1]'), ('log_add', '[2, 3]'))
    >>> _log_change('[1,2]', '[1,2,3]'), _log_change('[{"a":1}]', '[{"a":1,"b":2}]')
    (('log_add', '[3]'), ('log', '[{"a":1,"b":2}]'))
    >>> _log_change('[1, 2]', '[1]'), _log_change('[1]', '[12]')
    (('log', '[1]'), ('log', '[12]'))
    """
    if old == new:
        return None
    if old == "[]":
        return "log_add", new
    # (JSON texts of whole entries: old's last one ends where its "]" was; a comma there
    # in new begins new's next entry)
    head = len(old) - 1
    if new.startswith(old[:head]) and new[head : head + 1] == ",":
        return "log_add", "[" + new[head + 1 :].lstrip(" ")
    return "log", new


Layer = tuple[tuple[str, str], ...]


def layer_text(old: Layer, new: Layer) -> str:
    """:func:`layer_diff` as JSON text; ``""`` when the layer did not change.

    >>> layer_text((("a", "1"),), (("a", "2"),)), layer_text((("a", "1"),), (("a", "1"),))
    ('{"set":{"a":"2"}}', '')
    """
    if old is new:
        return ""
    change = layer_diff(old, new)
    return dumps(change) if change else ""


def diff_text(
    old: Frame, new: Frame, layer: Callable[[Layer, Layer], str] = layer_text
) -> str | None:
    """:func:`diff` as the text ``json.dumps`` writes of it, made from the frames' field
    texts: the fields whose text changed, the log's new entries, the board's change
    (each layer's by ``layer``: :func:`layer_text`, or one that remembers a change every
    viewer shares)."""
    if (old.board.width, old.board.height, old.board.static) != (
        new.board.width,
        new.board.height,
        new.board.static,
    ):
        return None
    before = old.texts
    changed = [
        f"{_key(k)}: {t}"
        for k, t in new.texts.items()
        if k != "log" and k != "version" and before.get(k) != t
    ]
    log = _log_change(before.get("log", "[]"), new.texts.get("log", "[]"))
    added = ""
    if log is not None:
        if log[0] == "log":
            changed.append(f'"log": {log[1]}')  # (last, as diff() puts it)
        else:
            added = f', "log_add": {log[1]}'
    public = layer(old.board.public, new.board.public)
    seat = layer(old.board.seat, new.board.seat)
    if public and seat:
        tail = f', "board": {{"public": {public}, "seat": {seat}}}'
    elif public or seat:
        tail = f', "board": {{"{"public" if public else "seat"}": {public or seat}}}'
    else:
        tail = ""
    return (
        f'{{"type": "diff", "base": {old.rev}, "rev": {new.rev}, "version": {new.version},'
        f' "fields": {{{", ".join(changed)}}}{added}{tail}}}'
    )


_TEXT, _BINARY = 0x81, 0x82  # (FIN and the opcode: a whole message in one frame)


def frame(data: str | bytes) -> bytes:
    """The WebSocket frame (RFC 6455 §5.2) a server sends for one whole message: a text
    frame of ``data``'s UTF-8 for a string, a binary frame for bytes; unmasked (a server's
    frames are never masked, so the same bytes go to every socket).

    >>> frame("hi"), frame(b"\\x00")
    (b'\\x81\\x02hi', b'\\x82\\x01\\x00')
    >>> frame("x" * 200)[:4], len(frame("x" * 200)), frame(b"y" * 70000)[:10]
    (b'\\x81~\\x00\\xc8', 204, b'\\x82\\x7f\\x00\\x00\\x00\\x00\\x00\\x01\\x11p')
    """
    if isinstance(data, str):
        head, payload = _TEXT, data.encode()
    else:
        head, payload = _BINARY, data
    n = len(payload)
    if n < 126:
        return bytes((head, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", head, 126, n) + payload
    return struct.pack("!BBQ", head, 127, n) + payload

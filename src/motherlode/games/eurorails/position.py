"""The readable Eurorails position notation, and the checks every position read passes.

``serialize()`` writes one field a line, ``key: value``, places by name (:mod:`.places`),
loads and trains by name, cards by number, seats as P1..Pn; ``-`` is an empty list::

    eurorails position 2
    phase: move
    t: 7
    ...
    P1 cash: 43
    P1 train: Freight
    P1 at: Paris-NE
    P1 track: Paris-NE>AC36>AC35, Berlin>AS25
    P1 hand: #12 #40 #99
    ...
    draw: #1-#11 #13-#146
    chips: Bauxite 3, Beer 4, ...
    events: #150 by P2 until 4

Runs of ascending card numbers are written ``#1-#11``. ``deserialize`` reads it and also
notation 1's ``eurorails:{json}`` (users' saved positions), and checks every field
(:func:`validate`): a bad one raises :class:`NotationError` naming the field.

>>> import motherlode
>>> s = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
>>> text = s.serialize()
>>> text.splitlines()[0], s.game.deserialize(text).serialize() == text
('eurorails position 2', True)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from motherlode.core.errors import NotationError
from motherlode.games.eurorails.board import Board
from motherlode.games.eurorails.constants import (
    DEAL,
    FIRST_EVENT,
    NUM_CARDS,
    OVER,
    PHASE_NAMES,
    SPEND_LIMIT,
)
from motherlode.games.eurorails.places import milepost_index, milepost_name

HEADER = "eurorails position 2"

# per-seat fields: (key in the text, field, kind)
SEAT_FIELDS = (
    ("cash", "cash", "int"),
    ("train", "train", "train"),
    ("at", "pos", "post"),
    ("from", "prev", "post"),
    ("ferry to", "on_ferry", "post"),
    ("loads", "loads", "loads"),
    ("hand", "hands", "cards"),
    ("turns done", "turns_done", "int"),
    ("lost turns", "lost", "int"),
    ("rent paid", "rented", "int"),
    ("declared", "declared", "int"),
)
SCALARS = (
    "t",
    "first",
    "moves",
    "halved",
    "spent",
    "from_major",
    "upgraded",
    "end_now",
    "discarding",
    "target",
    "cash_public",
    "over",
)
_RUN = re.compile(r"^#(\d+)(?:-#(\d+))?$")


def _cards(xs: list[int]) -> str:
    """Card numbers with ascending runs of three or more squeezed: ``#1-#3 #7 #8``.

    >>> _cards([1, 2, 3, 7, 8, 5])
    '#1-#3 #7 #8 #5'
    """
    out: list[str] = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        if j >= i + 2:
            out.append(f"#{xs[i]}-#{xs[j]}")
        else:
            out.extend(f"#{x}" for x in xs[i : j + 1])
        i = j + 1
    return " ".join(out) or "-"


def _read_cards(text: str, key: str) -> list[int]:
    out: list[int] = []
    for tok in _words(text):
        mt = _RUN.match(tok)
        if not mt:
            raise NotationError(f"eurorails: position field {key!r}: {tok!r} is not a card (#12)")
        lo = int(mt.group(1))
        hi = int(mt.group(2) or lo)
        out.extend(range(lo, hi + 1))
    return out


def _read_seat(text: str) -> int:
    return int(text.strip().lstrip("Pp")) - 1


def _words(text: str) -> list[str]:
    return [] if text.strip() == "-" else text.split()


def _ints(xs: list[int]) -> str:
    return " ".join(str(x) for x in xs) or "-"


def _groups(xss: list[list[int]]) -> str:
    return ", ".join(_ints(x) for x in xss) or "-"


def _read_groups(text: str) -> list[list[int]]:
    if text.strip() == "-":
        return []
    return [[int(x) for x in _words(g)] for g in text.split(",")]


def _post(b: Board, m: int) -> str:
    return milepost_name(b, m) if m >= 0 else "-"


def _read_post(b: Board, text: str) -> int:
    return -1 if text.strip() == "-" else milepost_index(b, text)


def _seg(b: Board, e: int) -> str:
    a, c = b.edge_ends[e]
    return f"{milepost_name(b, a)}>{milepost_name(b, c)}"


def _read_seg(b: Board, text: str) -> int:
    a, c = (milepost_index(b, x) for x in text.split(">"))
    for d in range(6):
        if b.nb[a * 6 + d] == c and b.eid[a * 6 + d] >= 0:
            return b.eid[a * 6 + d]
    raise NotationError(f"eurorails: {text.strip()!r} is not a track segment")


def track_runs(b: Board, edges: list[int]) -> list[list[int]]:
    """The edges as runs of mileposts (a path cover, walked from dead ends first)."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for e in edges:
        a, c = b.edge_ends[e]
        adj.setdefault(a, []).append((c, e))
        adj.setdefault(c, []).append((a, e))
    used: set[int] = set()
    runs: list[list[int]] = []
    starts = sorted(adj, key=lambda m: (len(adj[m]) % 2 == 0, m))
    for s in starts:
        while any(e not in used for _, e in adj[s]):
            run, m = [s], s
            while True:
                nxt = next(((x, e) for x, e in sorted(adj[m]) if e not in used), None)
                if nxt is None:
                    break
                used.add(nxt[1])
                m = nxt[0]
                run.append(m)
            runs.append(run)
    return runs


def _kinds(b: Board, game: Any) -> dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]]:
    """How each kind of value is written and read."""
    loads = {x.lower(): k for k, x in enumerate(game.load_names)}
    trains = {x.lower(): k for k, x in enumerate(b.train_names)}

    def read_load(x: str) -> int:
        if x.lower() not in loads:
            raise NotationError(f"eurorails: no load called {x!r}")
        return loads[x.lower()]

    def read_train(x: str) -> int:
        if x.strip().lower() not in trains:
            raise NotationError(f"eurorails: no train called {x.strip()!r}")
        return trains[x.strip().lower()]

    return {
        "int": (str, lambda x: int(x)),
        "train": (lambda v: b.train_names[v], read_train),
        "post": (lambda v: _post(b, v), lambda x: _read_post(b, x)),
        "loads": (
            lambda v: " ".join(game.load_names[x] for x in v) or "-",
            lambda x: [read_load(w) for w in _words(x)],
        ),
        "cards": (_cards, lambda x: _read_cards(x, "hand")),
    }


def write_text(state: Any, d: dict[str, Any]) -> str:
    """The readable notation of ``state`` (``d``: its :func:`~.notation.position_dict`)."""
    g = state.game
    b: Board = g.board
    kinds = _kinds(b, g)
    lines = [HEADER, f"phase: {PHASE_NAMES[state.phase]}"]
    lines += [f"{k}: P{d[k] + 1}" if k == "first" else f"{k}: {d[k]}" for k in SCALARS]
    for p in range(g.num_players):
        for key, field, kind in SEAT_FIELDS:
            lines.append(f"P{p + 1} {key}: {kinds[kind][0](d[field][p])}")
        mine = d["edge_owner"].get(str(p), [])
        runs = track_runs(b, mine)
        lines.append(
            f"P{p + 1} track: "
            + (", ".join(">".join(milepost_name(b, m) for m in r) for r in runs) or "-")
        )
    lines.append(
        "links: "
        + ", ".join(
            f"{link.name} = {' '.join(f'P{o + 1}' for o in owners) or '-'}"
            for link, owners in zip(b.links, d["link_owners"], strict=True)
        )
    )
    for key in ("draw", "discard", "aside"):
        lines.append(f"{key}: {_cards(d[key])}")
    lines.append("chips: " + ", ".join(f"{b.load_names[k]} {n}" for k, n in enumerate(d["chips"])))
    lines.append(
        "events: " + (", ".join(f"#{c} by P{q + 1} until {u}" for c, q, u in d["active"]) or "-")
    )
    lines.append(
        "flooded: "
        + (", ".join(f"{_seg(b, e)} P{o + 1} until {u}" for e, o, u in d["reserve"]) or "-")
    )
    lines.append(
        "erased: " + (", ".join(f"#{c} {_seg(b, e)} P{o + 1}" for c, e, o in d["erased"]) or "-")
    )
    for key in ("pending", "winners_", "blocked"):
        lines.append(f"{key.rstrip('_')}: {_ints(d[key])}")
    for key in ("circus_at", "debt", "contracts"):
        if key in d:
            lines.append(f"{key}: {_ints(d[key])}")
    for key in ("late", "warehouse"):
        if key in d:
            lines.append(f"{key}: {_groups(d[key])}")
    if "trade" in d:
        tr = d["trade"]
        lines.append(f"offer: {_ints(tr['offer'])}")
        lines.append("offer take: " + (", ".join(_seg(b, e) for e in tr["take"]) or "-"))
        lines.append("offer give: " + (", ".join(_seg(b, e) for e in tr["give"]) or "-"))
        lines.append(f"offered: {_ints(tr['offered'])}")
        lines.append(f"traded: {tr['traded']}")
    if "second" in d:
        sd = d["second"]
        for p in range(g.num_players):
            lines.append(f"P{p + 1} train 2: {b.train_names[sd['train'][p]]}")
            lines.append(f"P{p + 1} train 2 at: {_post(b, sd['pos'][p])}")
            lines.append(f"P{p + 1} train 2 from: {_post(b, sd['prev'][p])}")
            lines.append(f"P{p + 1} train 2 ferry to: {_post(b, sd['on_ferry'][p])}")
            lines.append(f"P{p + 1} train 2 loads: {kinds['loads'][0](sd['loads'][p])}")
        lines.append(f"train 2 moves: {sd['moves']}")
        lines.append(f"train 2 halved: {sd['halved']}")
    lines.append(f"history: {_ints(d['history'])}")
    return "\n".join(lines)


def read_text(game: Any, text: str) -> dict[str, Any]:
    """The :func:`~.notation.position_dict` written as ``text`` (a bad field: named)."""
    b: Board = game.board
    kinds = _kinds(b, game)
    fields: dict[str, str] = {}
    for n, line in enumerate(text.strip().splitlines()[1:], start=2):
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"eurorails: position line {n} is not 'field: value': {line!r}")
        fields[key.strip()] = value.strip()
    reader = _Reader(fields)
    d: dict[str, Any] = {}
    phase = reader.get("phase")
    if phase not in PHASE_NAMES:
        raise NotationError(
            f"eurorails: position field 'phase': {phase!r} is not one of {', '.join(PHASE_NAMES)}"
        )
    d["phase"] = PHASE_NAMES.index(phase)
    for k in SCALARS:
        d[k] = reader.read(k, _read_seat if k == "first" else int)
    n = game.num_players
    for key, field, kind in SEAT_FIELDS:
        d[field] = [reader.read(f"P{p + 1} {key}", kinds[kind][1]) for p in range(n)]
    owned: dict[str, list[int]] = {}
    for p in range(n):
        runs = reader.get(f"P{p + 1} track")
        edges: list[int] = []
        for run in [] if runs == "-" else runs.split(","):
            posts = [x.strip() for x in run.split(">")]
            for a, c in itertools.pairwise(posts):
                edges.append(reader.read(f"P{p + 1} track", partial(_read_seg, b), f"{a}>{c}"))
        if edges:
            owned[str(p)] = edges
    d["edge_owner"] = owned
    d["link_owners"] = reader.read("links", lambda x: _read_links(b, x))
    for key in ("draw", "discard", "aside"):
        d[key] = reader.read(key, partial(_read_cards, key=key))
    d["chips"] = reader.read("chips", lambda x: _read_chips(game, x))
    d["active"] = reader.read("events", _read_events)
    d["reserve"] = reader.read("flooded", lambda x: _read_flooded(b, x))
    d["erased"] = reader.read("erased", lambda x: _read_erased(b, x))
    for key in ("pending", "winners_", "blocked"):
        d[key] = reader.read(key.rstrip("_"), lambda x: [int(w) for w in _words(x)])
    for key in ("circus_at", "debt", "contracts"):
        if key in fields:
            d[key] = reader.read(key, lambda x: [int(w) for w in _words(x)])
    for key in ("late", "warehouse"):
        if key in fields:
            d[key] = reader.read(key, _read_groups)
    if "offer" in fields:
        d["trade"] = {
            "offer": reader.read("offer", lambda x: [int(w) for w in _words(x)]),
            "take": reader.read("offer take", lambda x: _read_segs(b, x)),
            "give": reader.read("offer give", lambda x: _read_segs(b, x)),
            "offered": reader.read("offered", lambda x: [int(w) for w in _words(x)]),
            "traded": reader.read("traded", int),
        }
    if "train 2 moves" in fields:
        t2 = "P{} train 2"
        d["second"] = {
            "train": [reader.read(t2.format(p + 1), kinds["train"][1]) for p in range(n)],
            "pos": [reader.read(t2.format(p + 1) + " at", kinds["post"][1]) for p in range(n)],
            "prev": [reader.read(t2.format(p + 1) + " from", kinds["post"][1]) for p in range(n)],
            "on_ferry": [
                reader.read(t2.format(p + 1) + " ferry to", kinds["post"][1]) for p in range(n)
            ],
            "loads": [
                reader.read(t2.format(p + 1) + " loads", kinds["loads"][1]) for p in range(n)
            ],
            "moves": reader.read("train 2 moves", int),
            "halved": reader.read("train 2 halved", int),
        }
    d["history"] = reader.read("history", lambda x: [int(w) for w in _words(x)])
    return d


class _Reader:
    """Reads fields by key, naming the key in every error."""

    def __init__(self, fields: dict[str, str]) -> None:
        self.fields = fields

    def get(self, key: str) -> str:
        if key not in self.fields:
            raise NotationError(f"eurorails: the position has no field {key!r}")
        return self.fields[key]

    def read(self, key: str, parse: Callable[[str], Any], text: str | None = None) -> Any:
        """Field ``key`` (or ``text`` found in it) read by ``parse``."""
        text = self.get(key) if text is None else text
        try:
            return parse(text)
        except NotationError as err:
            raise NotationError(
                f"eurorails: position field {key!r}: {str(err).removeprefix('eurorails: ')}"
            ) from None
        except (ValueError, IndexError) as err:
            raise NotationError(
                f"eurorails: position field {key!r}: cannot read {text!r} ({err})"
            ) from None


def _read_links(b: Board, text: str) -> list[list[int]]:
    owners: dict[str, list[int]] = {}
    for part in text.split(","):
        name, _, seats = part.partition("=")
        owners[name.strip()] = [int(x.lstrip("Pp")) - 1 for x in _words(seats)]
    missing = [link.name for link in b.links if link.name not in owners]
    if missing:
        raise NotationError(f"eurorails: no owners given for {', '.join(missing)}")
    return [owners[link.name] for link in b.links]


def _read_chips(game: Any, text: str) -> list[int]:
    got: dict[str, int] = {}
    for part in text.split(","):
        name, count = part.split()
        got[name.lower()] = int(count)
    names = game.board.load_names
    missing = [x for x in names if x.lower() not in got]
    if missing:
        raise NotationError(f"eurorails: no chip count for {', '.join(missing)}")
    return [got[x.lower()] for x in names]


def _read_events(text: str) -> list[list[int]]:
    out = []
    for part in [] if text.strip() == "-" else text.split(","):
        mt = re.match(r"^#(\d+) by P(\d+) until (\d+)$", part.strip())
        if not mt:
            raise NotationError(f"eurorails: {part.strip()!r} is not '#150 by P2 until 4'")
        out.append([int(mt.group(1)), int(mt.group(2)) - 1, int(mt.group(3))])
    return out


def _read_flooded(b: Board, text: str) -> list[list[int]]:
    out = []
    for part in [] if text.strip() == "-" else text.split(","):
        seg, seat, _, until = part.split()
        out.append([_read_seg(b, seg), int(seat.lstrip("Pp")) - 1, int(until)])
    return out


def _read_erased(b: Board, text: str) -> list[list[int]]:
    out = []
    for part in [] if text.strip() == "-" else text.split(","):
        card, seg, seat = part.split()
        out.append([int(card.lstrip("#")), _read_seg(b, seg), int(seat.lstrip("Pp")) - 1])
    return out


def _read_segs(b: Board, text: str) -> list[int]:
    return [] if text.strip() == "-" else [_read_seg(b, x) for x in text.split(",")]


# --- validation -----------------------------------------------------------------------


def validate(state: Any) -> None:
    """Refuse a position no game reaches, naming the field (NotationError)."""
    for check in (_check_turn, _check_cards, _check_chips, _check_track, _check_trains):
        problem = check(state)
        if problem:
            raise NotationError(f"eurorails: impossible position: {problem}")


def _check_turn(s: Any) -> str | None:
    g = s.game
    n = g.num_players
    if not 0 <= s.first < n:
        return f"'first' is P{s.first + 1}, not a seat of the {n} players"
    if s.t < 0:
        return f"'t' (the turn count) is {s.t}"
    if not 0 <= s.phase < len(PHASE_NAMES):
        return f"'phase' {s.phase} is unknown"
    if (s.phase == OVER) != bool(s.over):
        return f"'phase' is {PHASE_NAMES[s.phase]} but 'over' is {s.over}"
    if s.phase == DEAL and s.t:
        return f"'phase' is deal but turn {s.t} has begun ('t')"
    if not 0 <= s.spent <= SPEND_LIMIT:
        return f"'spent' is {s.spent}: at most {SPEND_LIMIT} a turn"
    bt = g.cfg.building_turns
    for p in range(n):
        done = s.turns_done[p]
        if not 0 <= done <= s.t // n + bt + 1:
            return f"'P{p + 1} turns done' is {done} after {s.t} turns in all"
        if s.cash[p] < 0:
            return f"'P{p + 1} cash' is {s.cash[p]}"
        if not 0 <= s.train[p] < len(g.board.train_names):
            return f"'P{p + 1} train' {s.train[p]} is unknown"
    return None


def _check_cards(s: Any) -> str | None:
    g = s.game
    places = {
        "draw": list(s.draw),
        "discard": list(s.discard),
        "aside": list(s.aside),
        "events": [a[0] for a in s.active],
        "open contracts": list(s.contracts),
    }
    for p, hand in enumerate(s.hands):
        places[f"P{p + 1} hand"] = list(hand)
        if len(hand) > g.deal_size:
            return f"'P{p + 1} hand' holds {len(hand)} cards: at most {g.deal_size}"
        if any(not 1 <= c <= NUM_CARDS for c in hand):
            return f"'P{p + 1} hand' holds card #{max(hand)}: the cards are #1 to #{NUM_CARDS}"
        if any(c >= FIRST_EVENT for c in hand):
            return f"'P{p + 1} hand' holds an event card (#{max(hand)}): events take effect"
    seen: dict[int, str] = {}
    for where, cards in places.items():
        for c in cards:
            if not 1 <= c <= NUM_CARDS:
                return f"{where!r} holds card #{c}: the cards are #1 to #{NUM_CARDS}"
            if c in seen:
                return f"card #{c} is both in {seen[c]!r} and in {where!r}"
            seen[c] = where
    missing = sorted(set(range(1, NUM_CARDS + 1)) - set(seen))
    if missing:
        return f"card(s) {_cards(missing)} are nowhere (draw, discard, hands, events)"
    return None


def _check_chips(s: Any) -> str | None:
    g = s.game
    names = g.load_names
    count = list(s.chips)
    for p, loads in enumerate(s.loads):
        cap = g.board.train_capacity[s.train[p]]
        if len(loads) > cap:
            kind = g.board.train_names[s.train[p]]
            return f"'P{p + 1} loads' are {len(loads)}: a {kind} carries {cap}"
    carried: list[tuple[str, list[int]]] = [
        (f"P{p + 1} loads", x) for p, x in enumerate(s.loads)
    ] + [(f"P{p + 1} train 2 loads", x) for p, x in enumerate(s.loads2)]
    for where, loads in carried:
        for x in loads:
            if not 0 <= x < len(names):
                return f"{where!r} holds an unknown load {x}"
            if x < len(count):  # the Circus is not in the tray
                count[x] += 1
    for w in s.warehouse:
        if 0 <= w[1] < len(count):
            count[w[1]] += 1
    for k, total in enumerate(g.board.load_chips):
        if count[k] != total:
            return (
                f"{names[k]}: {s.chips[k]} in the tray ('chips') and {count[k] - s.chips[k]}"
                f" on trains or in warehouses make {count[k]}, but the game has {total}"
            )
    return None


def _check_track(s: Any) -> str | None:
    """Every piece of a player's track reaches a major city (where track begins)."""
    b: Board = s.game.board
    if s.game.cfg.challenge_track_trading:
        return None  # bought track need not join the buyer's (Selling and Trading Track)
    # a flood erases bridges, which a player need not rebuild: a piece may then begin at
    # a river crossing (Floods: "Erase all the bridges over those rivers")
    broken = {e for e, river in enumerate(b.edge_river) if river}
    majors = set(b.major_posts)
    flood_ends = {m for e in broken for m in b.edge_ends[e]}
    owned: list[list[int]] = [[] for _ in range(s.game.num_players)]
    for e, o in enumerate(s.edge_owner):
        if o >= 0:
            owned[o].append(e)
    for p in range(s.game.num_players):
        adj: dict[int, list[int]] = {}
        for e in owned[p]:
            a, c = b.edge_ends[e]
            adj.setdefault(a, []).append(c)
            adj.setdefault(c, []).append(a)
        for k, owners in enumerate(s.link_owners):
            if p in owners:
                a, c = b.links[k].ends
                adj.setdefault(a, []).append(c)
                adj.setdefault(c, []).append(a)
        seen: set[int] = set()
        for start in sorted(adj):
            if start in seen:
                continue
            part, stack = {start}, [start]
            while stack:
                for x in adj[stack.pop()]:
                    if x not in part:
                        part.add(x)
                        stack.append(x)
            seen |= part
            if not part & (majors | flood_ends):
                return (
                    f"'P{p + 1} track' at {milepost_name(b, start)} does not reach a major city"
                    " (track is begun from a major city)"
                )
    return None


def _check_trains(s: Any) -> str | None:
    """A train stands in a city, on track, or at a ferry port."""
    b: Board = s.game.board
    on_track = {m for e, o in enumerate(s.edge_owner) if o >= 0 for m in b.edge_ends[e]}
    on_track |= {m for e, _, _ in s.reserve for m in b.edge_ends[e]}
    on_track |= {m for _, e, _ in s.erased for m in b.edge_ends[e]}
    for p in range(s.game.num_players):
        for key, m in (("at", s.pos[p]), ("from", s.prev[p]), ("ferry to", s.on_ferry[p])):
            if not -1 <= m < b.n:
                return f"'P{p + 1} {key}' is milepost {m}, not on the map"
        m = s.pos[p]
        if m >= 0 and b.city_of[m] < 0 and m not in on_track and b.link_at[m] < 0:
            return (
                f"'P{p + 1} at': the train is at {milepost_name(b, m)}, not on track or in a city"
            )
    return None

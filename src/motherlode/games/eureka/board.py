"""Eureka's content data: the hex board and the chip mix, loaded from JSON and validated.

The printed board and chip split are not public (FACTS.md), so the packaged files are
designed to every constraint the rulebook and the published component list state; a user
may load a transcription of their own copy with the ``board`` / ``chips`` config options.

Hexes are named like chess squares: a row letter (``a`` is the top row) and the position
in that row counted from the left (``k11`` is the centre of the radius-10 board).

>>> board = load_board()
>>> len(board.hexes), len(board.holes), len(board.track)
(331, 64, 15)
>>> board.names[board.track[-1]], board.names[board.houses[0]]
('k11', 'k14')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from motherlode.core.errors import ConfigError
from motherlode.core.hex import Hex, hex_distance, hexagon, neighbours

LAND = 0
"""Walkable land: gold field, mining hole, street, railway track."""
HOUSE = 1
"""A house: entered only by an exact throw through its door, by its owner."""
WATER = 3
"""Lake water: never entered."""

TERRAIN_CHARS = {".": "field", "o": "hole", "s": "street", "H": "house", "=": "track"}
"""Board characters other than lake water (a digit naming its lake)."""

GOLD_VALUES = (1, 2, 3, 4, 5)
"""Nugget values of gold chips (published component list: 1 to 5)."""
ROBBER_HATS = (1, 2, 3, 4, 5)
"""Hat numbers of robber chips (published component list: 1 to 5)."""


@dataclass(frozen=True)
class Lake:
    """One lake: its landing spaces on the city bank and on the field bank.

    A landing space is a land hex touching the lake's water; a raft lies moored in the
    water at one of them and its rider stands on it (rulebook: "across the lake, to any
    space on the opposite banks of the same lake").
    """

    name: str
    banks: tuple[tuple[int, ...], tuple[int, ...]]
    """Landing spaces: ``banks[0]`` on the Golden City bank, ``banks[1]`` opposite."""
    rafts: tuple[int, ...]
    """Landing spaces with a raft moored at set-up (the posts)."""


@dataclass(frozen=True)
class Board:
    """A validated board with its movement graph precomputed (node ids in reading order)."""

    radius: int
    hexes: tuple[Hex, ...]
    names: tuple[str, ...]
    index: dict[str, int]
    terrain: tuple[str, ...]
    """Per node: ``field``, ``hole``, ``street``, ``house``, ``track`` or ``water``."""
    kind: tuple[int, ...]
    """Per node: :data:`LAND`, :data:`HOUSE` or :data:`WATER`."""
    nbrs: tuple[tuple[int, ...], ...]
    """Movement neighbours (walls of houses and water already removed)."""
    track: tuple[int, ...]
    """Railway spaces from the tunnel to the last space in Golden City."""
    houses: tuple[int, ...]
    """House node per colour (seat ``i`` owns ``houses[i]``)."""
    colours: tuple[str, ...]
    doors: tuple[tuple[int, int], ...]
    holes: tuple[int, ...]
    """Mining holes in node order (one chip each at set-up)."""
    lakes: tuple[Lake, ...]
    landings: tuple[int, ...]
    """Every landing space, lake by lake, city bank first (the ``cross`` action slots)."""
    landing_lake: dict[int, int]
    landing_side: dict[int, int]
    city: frozenset[int]
    """Golden City: streets, houses and the railway inside the city."""
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def opposite(self, landing: int) -> tuple[int, ...]:
        """The landing spaces on the opposite bank of ``landing``'s lake."""
        lake = self.lakes[self.landing_lake[landing]]
        return lake.banks[1 - self.landing_side[landing]]

    def distances_from(self, sources: list[int], rafts: bool = True) -> list[int]:
        """Steps from the nearest of ``sources`` to every node (static graph; -1: none).

        With ``rafts``, crossing a lake between landing spaces counts as 3 steps (a
        heuristic for bots: a crossing ends the turn).
        """
        big = 10**6
        dist = [big] * len(self.hexes)
        frontier = list(sources)
        for s in frontier:
            dist[s] = 0
        # Dijkstra on small integer weights: buckets.
        buckets: dict[int, list[int]] = {0: frontier}
        d = 0
        while buckets:
            if d not in buckets:
                d += 1
                continue
            for node in buckets.pop(d):
                if dist[node] != d:
                    continue
                steps: list[tuple[int, int]] = [(n, 1) for n in self.nbrs[node]]
                if rafts and node in self.landing_lake:
                    steps += [(b, 3) for b in self.opposite(node)]
                for n, w in steps:
                    if d + w < dist[n]:
                        dist[n] = d + w
                        buckets.setdefault(d + w, []).append(n)
            d += 1
        return [x if x < big else -1 for x in dist]


@dataclass(frozen=True)
class ChipMix:
    """How many gold chips of each nugget value and robbers of each hat are in the game."""

    gold: tuple[int, ...]
    """Count per nugget value 1..5."""
    robbers: tuple[int, ...]
    """Count per hat 1..5."""

    @property
    def kinds(self) -> tuple[int, ...]:
        """Counts per chip kind: gold 1..5 then robber 1..5 (the chance outcome order)."""
        return self.gold + self.robbers

    @property
    def total(self) -> int:
        return sum(self.gold) + sum(self.robbers)

    @property
    def nuggets(self) -> int:
        return sum(v * c for v, c in zip(GOLD_VALUES, self.gold, strict=True))


def hex_name(h: Hex, radius: int) -> str:
    """``(q, r)`` -> ``"k11"`` style name (row letter, position in the row from 1)."""
    q, r = h
    lo = max(-radius, -r - radius)
    return f"{chr(ord('a') + r + radius)}{q - lo + 1}"


def _fail(source: str, entry: str, problem: str) -> ConfigError:
    return ConfigError(f"eureka data {source}: {entry}: {problem}")


def _read_json(path: str | None, default: str) -> tuple[Any, str]:
    if path:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"eureka data {path}: cannot read: {err.strerror}") from None
        source = str(p)
    else:
        package = resources.files("motherlode.games.eureka")
        text = package.joinpath("data").joinpath(default).read_text(encoding="utf-8")
        source = f"data/{default}"
    try:
        return json.loads(text), source
    except json.JSONDecodeError as err:
        where = f"{err.msg} at line {err.lineno}"
        raise ConfigError(f"eureka data {source}: not JSON ({where})") from None


def _names(src: str, entry: str, value: Any, index: dict[str, int]) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(src, entry, "must be a list of hex names")
    out = []
    for v in value:
        if v not in index:
            raise _fail(src, entry, f"no hex named {v!r} on this board")
        out.append(index[v])
    return out


@dataclass
class _Layout:
    """A board file's cells while it is read: the rows parsed, names and terrain."""

    src: str
    radius: int
    cells: list[Hex]
    chars: dict[Hex, str]
    names: tuple[str, ...]
    index: dict[str, int]
    pos: dict[Hex, int]
    terrain: list[str]


def _layout(data: dict[str, Any], src: str) -> _Layout:
    """The ``radius`` and ``rows`` of a board file, checked."""
    radius = data["radius"]
    if not isinstance(radius, int) or not 3 <= radius <= 20:
        raise _fail(src, "radius", f"must be an integer 3..20 (got {radius!r})")
    cells = hexagon(radius)
    rows = data["rows"]
    if not isinstance(rows, list) or len(rows) != 2 * radius + 1:
        raise _fail(src, "rows", f"must be a list of {2 * radius + 1} strings")
    chars: dict[Hex, str] = {}
    for i, row in enumerate(rows):
        r = i - radius
        want = 2 * radius + 1 - abs(r)
        tokens = row.split() if isinstance(row, str) else []
        if len(tokens) != want:
            raise _fail(src, f"rows[{i}]", f"must hold {want} space-separated cells")
        lo = max(-radius, -r - radius)
        for j, tok in enumerate(tokens):
            if tok not in TERRAIN_CHARS and not (len(tok) == 1 and tok.isdigit()):
                raise _fail(src, f"rows[{i}] cell {j + 1}", f"unknown cell {tok!r}")
            chars[(lo + j, r)] = tok
    names = tuple(hex_name(h, radius) for h in cells)
    return _Layout(
        src=src,
        radius=radius,
        cells=cells,
        chars=chars,
        names=names,
        index={n: i for i, n in enumerate(names)},
        pos={h: i for i, h in enumerate(cells)},
        terrain=[TERRAIN_CHARS.get(chars[h], "water") for h in cells],
    )


@dataclass
class _Landings:
    """The landing spaces read so far: lake and bank (0 city, 1 fields) of each, in order."""

    lake: dict[int, int] = field(default_factory=dict)
    side: dict[int, int] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)


def _lakes(lay: _Layout, data: dict[str, Any], landings: _Landings) -> list[Lake]:
    """The ``lakes`` of a board file, checked, their landing spaces added to ``landings``."""
    lakes_raw = data["lakes"]
    if not isinstance(lakes_raw, list) or len(lakes_raw) != 3:
        raise _fail(lay.src, "lakes", "must list the three lakes around Golden City (rulebook)")
    lakes = [_lake(lay, li, lk, landings) for li, lk in enumerate(lakes_raw)]
    if sum(len(lake.rafts) for lake in lakes) != 6:
        raise _fail(lay.src, "lakes", "the game has six rafts (published component list)")
    return lakes


def _lake(lay: _Layout, li: int, lk: Any, landings: _Landings) -> Lake:
    src, entry = lay.src, f"lakes[{li}]"
    if isinstance(lk, dict) and "berths" in lk:
        raise _fail(
            src, entry, "'berths' (raft posts in the water) is the old board format; list"
            " every landing space of each bank under 'banks' (city, fields)"
        )
    if not isinstance(lk, dict) or not {"name", "water", "banks", "rafts"} <= set(lk):
        raise _fail(src, entry, "needs name, water, banks (city, fields) and rafts")
    cells, pos, terrain = lay.cells, lay.pos, lay.terrain
    water = lk["water"]
    water_cells = [pos[h] for h in cells if lay.chars[h] == water]
    if not water_cells:
        raise _fail(src, entry, f"no water cells {water!r} on the board")
    if not _connected(water_cells, cells, pos):
        raise _fail(src, entry, "its water is not one connected lake")
    shore = {
        pos[n]
        for w in water_cells
        for n in neighbours(cells[w])
        if n in pos and terrain[pos[n]] not in ("water", "house")
    }
    b = lk["banks"]
    if not isinstance(b, dict) or set(b) != {"city", "fields"}:
        raise _fail(src, entry, "banks must be an object with 'city' and 'fields'")
    sides = [
        _bank(lay, li, side_i, b[side], shore, landings)
        for side_i, side in enumerate(("city", "fields"))
    ]
    if not any(terrain[nd] == "street" for nd in sides[0]):
        raise _fail(src, f"{entry}.banks.city", "the Golden City bank has no street")
    missing = sorted(lay.names[nd] for nd in shore - set(sides[0]) - set(sides[1]))
    if missing:
        raise _fail(
            src, f"{entry}.banks", f"{', '.join(missing)} touch the lake but are on neither"
            " bank (every space on a bank is a landing space: rulebook)"
        )
    rafts = _names(src, f"{entry}.rafts", lk["rafts"], lay.index)
    if not rafts or len(set(rafts)) != len(rafts):
        raise _fail(src, f"{entry}.rafts", "needs at least one raft, each at its own space")
    for rf in rafts:
        if landings.lake.get(rf) != li:
            raise _fail(
                src, f"{entry}.rafts", f"{lay.names[rf]} is not a landing space of this lake"
            )
    return Lake(str(lk["name"]), (sides[0], sides[1]), tuple(rafts))


def _bank(lay: _Layout, li: int, side_i: int, value: Any, shore: set[int],
          landings: _Landings) -> tuple[int, ...]:
    """One bank's landing spaces (``side_i`` 0: city, 1: fields), checked and recorded."""
    side = ("city", "fields")[side_i]
    src, where, names, terrain = lay.src, f"lakes[{li}].banks.{side}", lay.names, lay.terrain
    nodes = _names(src, where, value, lay.index)
    if not nodes:
        raise _fail(src, where, "needs at least one landing space")
    for nd in nodes:
        if nd in landings.lake:
            why = (
                "listed twice" if landings.lake[nd] == li else "listed for two lakes"
                " (a space touching two lakes cannot be a landing space of both)"
            )
            raise _fail(src, where, f"{names[nd]} {why}")
        if nd not in shore:
            raise _fail(src, where, f"{names[nd]} is no land space touching this lake")
        if terrain[nd] in ("hole", "track"):
            what = "a mining hole" if terrain[nd] == "hole" else "a railway space"
            raise _fail(
                src, where, f"{names[nd]} is {what}: every space by a lake is a landing"
                " space where a raft may moor, so keep holes and the railway off the lakes"
            )
        if side == "fields" and terrain[nd] == "street":
            raise _fail(src, where, f"{names[nd]} is a street, on the Golden City bank")
        landings.lake[nd] = li
        landings.side[nd] = side_i
        landings.order.append(nd)
    return tuple(nodes)


def _houses(
    lay: _Layout, data: dict[str, Any]
) -> tuple[list[int], list[tuple[int, int]], list[str]]:
    """The ``houses`` of a board file, checked: their hexes, doors and colours."""
    houses_raw = data["houses"]
    if not isinstance(houses_raw, list) or len(houses_raw) != 6:
        raise _fail(lay.src, "houses", "must list 6 houses (one per miner colour)")
    houses: list[int] = []
    doors: list[tuple[int, int]] = []
    colours: list[str] = []
    for hi, hs in enumerate(houses_raw):
        node, door = _house(lay, hi, hs)
        houses.append(node)
        doors.append(door)
        colours.append(str(hs["colour"]))
    marked = {i for i, t in enumerate(lay.terrain) if t == "house"}
    if marked != set(houses):
        raise _fail(lay.src, "houses", "every H cell must be a listed house and vice versa")
    return houses, doors, colours


def _house(lay: _Layout, hi: int, hs: Any) -> tuple[int, tuple[int, int]]:
    src, entry, names, cells = lay.src, f"houses[{hi}]", lay.names, lay.cells
    if not isinstance(hs, dict) or not {"colour", "hex", "door"} <= set(hs):
        raise _fail(src, entry, "needs colour, hex and door")
    (node,) = _names(src, f"{entry}.hex", [hs["hex"]], lay.index)
    if lay.terrain[node] != "house":
        raise _fail(src, f"{entry}.hex", f"{names[node]} is not marked H")
    door = _names(src, f"{entry}.door", hs["door"], lay.index)
    if len(door) != 2 or door[0] == door[1]:
        raise _fail(src, f"{entry}.door", "a door is two hexes wide: give two hexes")
    for d in door:
        if hex_distance(cells[d], cells[node]) != 1 or lay.terrain[d] not in ("street", "track"):
            raise _fail(
                src, f"{entry}.door", f"{names[d]} is not a street next to the house"
            )
    if hex_distance(cells[door[0]], cells[door[1]]) != 1:
        raise _fail(src, f"{entry}.door", "the two door hexes must be side by side")
    return node, (door[0], door[1])


def _track(lay: _Layout, data: dict[str, Any]) -> list[int]:
    """The ``track`` of a board file, checked."""
    src, names, cells = lay.src, lay.names, lay.cells
    track = _names(src, "track", data["track"], lay.index)
    if len(track) < 2 or len(set(track)) != len(track):
        raise _fail(src, "track", "needs at least two distinct spaces")
    if {i for i, t in enumerate(lay.terrain) if t == "track"} != set(track):
        raise _fail(src, "track", "the listed spaces must be exactly the '=' cells")
    for a, b2 in pairwise(track):
        if hex_distance(cells[a], cells[b2]) != 1:
            raise _fail(src, "track", f"{names[a]} and {names[b2]} are not adjacent")
    if hex_distance(cells[track[0]], (0, 0)) != lay.radius:
        raise _fail(src, "track", f"the first space {names[track[0]]} must be at the board edge")
    return track


def _city(lay: _Layout, track: list[int], houses: list[int]) -> set[int]:
    """Golden City: the streets' connected region, with the houses and the track inside it."""
    terrain, cells, pos = lay.terrain, lay.cells, lay.pos
    streets = [i for i, t in enumerate(terrain) if t == "street"]
    city = set(streets) | set(houses)
    for t in track:
        around = [terrain[pos[n]] for n in neighbours(cells[t]) if n in pos]
        if "street" in around and "field" not in around and "hole" not in around:
            city.add(t)
    if track[-1] not in city:
        raise _fail(lay.src, "track", f"the last space {lay.names[track[-1]]} must be in Golden"
                    " City")
    if not _connected(sorted(i for i in city if terrain[i] != "house"), cells, pos):
        raise _fail(lay.src, "rows", "Golden City's streets are not connected")
    return city


def _graph(
    lay: _Layout, houses: list[int], doors: list[tuple[int, int]]
) -> tuple[list[int], list[tuple[int, ...]]]:
    """The movement graph: each hex's kind and the hexes a step reaches from it."""
    kinds = {"house": HOUSE, "water": WATER}
    kind = [kinds.get(tn, LAND) for tn in lay.terrain]
    door_of: dict[int, list[int]] = {}
    for hnode, dr in zip(houses, doors, strict=True):
        for d in dr:
            door_of.setdefault(d, []).append(hnode)
    nbrs: list[tuple[int, ...]] = []
    for i, h in enumerate(lay.cells):
        out: list[int] = []
        for n in neighbours(h):
            if n not in lay.pos:
                continue
            j = lay.pos[n]
            pair = (kind[i], kind[j])
            if (
                pair == (LAND, LAND)
                or (pair == (LAND, HOUSE) and j in door_of.get(i, []))
                or (pair == (HOUSE, LAND) and i in door_of.get(j, []))
            ):
                out.append(j)
        nbrs.append(tuple(sorted(out)))
    land = [i for i, k in enumerate(kind) if k == LAND]
    if not _connected(land, lay.cells, lay.pos):
        raise _fail(lay.src, "rows", "the land is not connected (every field must be reachable)")
    return kind, nbrs


@cache
def load_board(path: str | None = None) -> Board:
    """Load and validate a board file (``None``: the packaged designed board)."""
    data, src = _read_json(path, "board.json")
    if not isinstance(data, dict):
        raise _fail(src, "file", "must hold a JSON object")
    for key in ("radius", "rows", "track", "houses", "lakes"):
        if key not in data:
            raise _fail(src, key, "missing")
    lay = _layout(data, src)
    landings = _Landings()
    lakes = _lakes(lay, data, landings)
    houses, doors, colours = _houses(lay, data)
    track = _track(lay, data)
    city = _city(lay, track, houses)
    kind, nbrs = _graph(lay, houses, doors)
    holes = tuple(i for i, t in enumerate(lay.terrain) if t == "hole")
    if not holes:
        raise _fail(src, "rows", "no mining holes")
    return Board(
        radius=lay.radius,
        hexes=tuple(lay.cells),
        names=lay.names,
        index=lay.index,
        terrain=tuple(lay.terrain),
        kind=tuple(kind),
        nbrs=tuple(nbrs),
        track=tuple(track),
        houses=tuple(houses),
        colours=tuple(colours),
        doors=tuple(doors),
        holes=holes,
        lakes=tuple(lakes),
        landings=tuple(landings.order),
        landing_lake=landings.lake,
        landing_side=landings.side,
        city=frozenset(city),
        source=src,
    )


def _connected(nodes: list[int], cells: list[Hex], pos: dict[Hex, int]) -> bool:
    if not nodes:
        return True
    want = set(nodes)
    seen = {nodes[0]}
    stack = [nodes[0]]
    while stack:
        cur = stack.pop()
        for n in neighbours(cells[cur]):
            j = pos.get(n)
            if j is not None and j in want and j not in seen:
                seen.add(j)
                stack.append(j)
    return seen == want


def _counts(src: str, data: Any, key: str, label: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
    items = data.get(key)
    if not isinstance(items, list):
        raise _fail(src, key, f"must be a list of {{{label}, count, source}}")
    counts = dict.fromkeys(allowed, 0)
    for i, it in enumerate(items):
        entry = f"{key}[{i}]"
        if not isinstance(it, dict) or label not in it or "count" not in it:
            raise _fail(src, entry, f"needs {label!r} and 'count'")
        v, c = it[label], it["count"]
        if v not in allowed:
            raise _fail(src, entry, f"{label} must be one of {list(allowed)} (got {v!r})")
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise _fail(src, entry, f"count must be a non-negative integer (got {c!r})")
        counts[v] += c
    return tuple(counts[v] for v in allowed)


@cache
def load_chips(path: str | None = None) -> ChipMix:
    """Load and validate a chip-mix file (``None``: the packaged designed mix)."""
    data, src = _read_json(path, "chips.json")
    if not isinstance(data, dict):
        raise _fail(src, "file", "must hold a JSON object")
    gold = _counts(src, data, "gold", "nuggets", GOLD_VALUES)
    robbers = _counts(src, data, "robbers", "hat", ROBBER_HATS)
    if sum(gold) == 0:
        raise _fail(src, "gold", "the game needs at least one gold chip")
    return ChipMix(gold, robbers)


def parse_mix(text: str, what: str) -> tuple[int, ...]:
    """``"14,12,10,7,5"`` -> counts for values 1..5 (a config override of the mix)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 5 or not all(p.isdigit() for p in parts):
        raise ConfigError(
            f"invalid eureka config: {what} must be five counts for values 1..5,"
            f" like '14,12,10,7,5' (got {text!r})"
        )
    return tuple(int(p) for p in parts)

"""Eureka's content data: the hex board and the chip mix, loaded from JSON and validated.

The printed board and chip split are not public (FACTS.md), so the packaged files are
designed to every constraint the rulebook and the published component list state; a user
may load a transcription of their own copy with the ``board`` / ``chips`` config options.
Each file is read into its model (:class:`BoardFile`, :class:`ChipsFile`, through
``motherlode.core.data``: unknown keys refused), then checked across its entries against
the rows; a problem raises :class:`ConfigError` naming the file, the entry and the problem.

Hexes are named like chess squares: a row letter (``a`` is the top row) and the position
in that row counted from the left (``k11`` is the centre of the radius-10 board).

>>> board = load_board()
>>> len(board.hexes), len(board.holes), len(board.track)
(331, 64, 15)
>>> board.names[board.track[-1]], board.names[board.houses[0]]
('k11', 'k14')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from motherlode.core.data import DataModel, M, parse_model
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


# -- the files, as models (motherlode.core.data) -----------------------------------------------


class HouseEntry(DataModel):
    """One house: its colour, its ``H`` hex and the two hexes of its door."""

    colour: str
    hex: str
    door: list[str]

    @field_validator("door")
    @classmethod
    def _two_wide(cls, door: list[str]) -> list[str]:
        if len(door) != 2 or door[0] == door[1]:
            raise ValueError("a door is two hexes wide: give two hexes")
        return door


class BanksEntry(DataModel):
    """A lake's landing spaces on the Golden City bank and on the field bank."""

    city: list[str]
    fields: list[str]

    @field_validator("city", "fields")
    @classmethod
    def _some(cls, spaces: list[str]) -> list[str]:
        if not spaces:
            raise ValueError("needs at least one landing space")
        return spaces


class LakeEntry(DataModel):
    """One lake: the digit of its water cells, its two banks and its rafts at set-up."""

    name: str
    water: str
    banks: BanksEntry
    rafts: list[str]

    @model_validator(mode="before")
    @classmethod
    def _not_berths(cls, data: Any) -> Any:
        if isinstance(data, dict) and "berths" in data:
            raise ValueError(
                "'berths' (raft posts in the water) is the old board format; list every"
                " landing space of each bank under 'banks' (city, fields)"
            )
        return data

    @field_validator("rafts")
    @classmethod
    def _own_spaces(cls, rafts: list[str]) -> list[str]:
        if not rafts or len(set(rafts)) != len(rafts):
            raise ValueError("needs at least one raft, each at its own space")
        return rafts


class BoardFile(DataModel):
    """A board file (``data/board.json`` is the packaged one): ``2 * radius + 1`` rows of
    space-separated cells (:data:`TERRAIN_CHARS`, or a digit for a lake's water), the
    railway from the tunnel, the six houses and the three lakes."""

    format: str = ""
    name: str = ""
    source: str = ""
    legend: dict[str, str] = Field(default_factory=dict)
    sources: dict[str, str] = Field(default_factory=dict)
    radius: int = Field(strict=True)
    rows: list[str]
    track: list[str]
    houses: list[HouseEntry]
    lakes: list[LakeEntry]

    @field_validator("radius")
    @classmethod
    def _radius(cls, radius: int) -> int:
        if not 3 <= radius <= 20:
            raise ValueError("must be an integer 3..20")
        return radius

    @field_validator("track")
    @classmethod
    def _track(cls, track: list[str]) -> list[str]:
        if len(track) < 2 or len(set(track)) != len(track):
            raise ValueError("needs at least two distinct spaces")
        return track

    @field_validator("houses")
    @classmethod
    def _six_houses(cls, houses: list[HouseEntry]) -> list[HouseEntry]:
        if len(houses) != 6:
            raise ValueError("must list 6 houses (one per miner colour)")
        return houses

    @field_validator("lakes")
    @classmethod
    def _three_lakes(cls, lakes: list[LakeEntry]) -> list[LakeEntry]:
        if len(lakes) != 3:
            raise ValueError("must list the three lakes around Golden City (rulebook)")
        if sum(len(lake.rafts) for lake in lakes) != 6:
            raise ValueError("the game has six rafts (published component list)")
        return lakes


Count = Annotated[int, Field(strict=True, ge=0)]
"""A number of chips: a non-negative integer (``true`` is no count)."""


class GoldEntry(DataModel):
    nuggets: int = Field(strict=True)
    count: Count
    source: str = ""

    @field_validator("nuggets")
    @classmethod
    def _value(cls, nuggets: int) -> int:
        if nuggets not in GOLD_VALUES:
            raise ValueError(f"must be one of {list(GOLD_VALUES)}")
        return nuggets


class RobberEntry(DataModel):
    hat: int = Field(strict=True)
    count: Count
    source: str = ""

    @field_validator("hat")
    @classmethod
    def _value(cls, hat: int) -> int:
        if hat not in ROBBER_HATS:
            raise ValueError(f"must be one of {list(ROBBER_HATS)}")
        return hat


class ChipsFile(DataModel):
    """A chip-mix file (``data/chips.json``): counts of gold chips per nugget value and of
    robbers per hat (a value listed twice adds up)."""

    format: str = ""
    name: str = ""
    source: str = ""
    gold: list[GoldEntry]
    robbers: list[RobberEntry]

    @field_validator("gold")
    @classmethod
    def _some_gold(cls, gold: list[GoldEntry]) -> list[GoldEntry]:
        if sum(g.count for g in gold) == 0:
            raise ValueError("the game needs at least one gold chip")
        return gold


# -- reading and the checks across entries ---------------------------------------------------


def _fail(source: str, entry: str, problem: str) -> ConfigError:
    return ConfigError(f"eureka data {source}: {entry}: {problem}")


def _read(model: type[M], path: str | None, default: str) -> tuple[M, str]:
    """The file at ``path`` (``None``: the packaged ``data/<default>``) as a ``model``."""
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"eureka data {path}: cannot read: {err.strerror}") from None
        source = str(Path(path))
    else:
        package = resources.files("motherlode.games.eureka")
        text = package.joinpath("data").joinpath(default).read_text(encoding="utf-8")
        source = f"data/{default}"
    return parse_model(model, text, f"eureka data {source}"), source


def _names(src: str, entry: str, value: list[str], index: dict[str, int]) -> list[int]:
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


def _layout(data: BoardFile, src: str) -> _Layout:
    """The ``rows`` of a board file, checked against its ``radius``."""
    radius, rows = data.radius, data.rows
    cells = hexagon(radius)
    if len(rows) != 2 * radius + 1:
        raise _fail(src, "rows", f"must be a list of {2 * radius + 1} strings")
    chars: dict[Hex, str] = {}
    for i, row in enumerate(rows):
        r = i - radius
        want = 2 * radius + 1 - abs(r)
        tokens = row.split()
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


def _lake(lay: _Layout, li: int, lk: LakeEntry, landings: _Landings) -> Lake:
    """One lake, checked against the rows, its landing spaces added to ``landings``."""
    src, entry = lay.src, f"lakes[{li}]"
    cells, pos, terrain = lay.cells, lay.pos, lay.terrain
    water_cells = [pos[h] for h in cells if lay.chars[h] == lk.water]
    if not water_cells:
        raise _fail(src, entry, f"no water cells {lk.water!r} on the board")
    if not _connected(water_cells, cells, pos):
        raise _fail(src, entry, "its water is not one connected lake")
    shore = {
        pos[n]
        for w in water_cells
        for n in neighbours(cells[w])
        if n in pos and terrain[pos[n]] not in ("water", "house")
    }
    city = _bank(lay, li, 0, lk.banks.city, shore, landings)
    fields = _bank(lay, li, 1, lk.banks.fields, shore, landings)
    if not any(terrain[nd] == "street" for nd in city):
        raise _fail(src, f"{entry}.banks.city", "the Golden City bank has no street")
    missing = sorted(lay.names[nd] for nd in shore - set(city) - set(fields))
    if missing:
        raise _fail(
            src, f"{entry}.banks", f"{', '.join(missing)} touch the lake but are on neither"
            " bank (every space on a bank is a landing space: rulebook)"
        )
    rafts = _names(src, f"{entry}.rafts", lk.rafts, lay.index)
    for rf in rafts:
        if landings.lake.get(rf) != li:
            raise _fail(
                src, f"{entry}.rafts", f"{lay.names[rf]} is not a landing space of this lake"
            )
    return Lake(lk.name, (city, fields), tuple(rafts))


def _bank(lay: _Layout, li: int, side_i: int, value: list[str], shore: set[int],
          landings: _Landings) -> tuple[int, ...]:
    """One bank's landing spaces (``side_i`` 0: city, 1: fields), checked and recorded."""
    side = ("city", "fields")[side_i]
    src, where, names, terrain = lay.src, f"lakes[{li}].banks.{side}", lay.names, lay.terrain
    nodes = _names(src, where, value, lay.index)
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


def _houses(lay: _Layout, data: BoardFile) -> tuple[list[int], list[tuple[int, int]]]:
    """The ``houses`` of a board file, checked against the rows: their hexes and doors."""
    placed = [_house(lay, hi, hs) for hi, hs in enumerate(data.houses)]
    houses = [node for node, _ in placed]
    marked = {i for i, t in enumerate(lay.terrain) if t == "house"}
    if marked != set(houses):
        raise _fail(lay.src, "houses", "every H cell must be a listed house and vice versa")
    return houses, [door for _, door in placed]


def _house(lay: _Layout, hi: int, hs: HouseEntry) -> tuple[int, tuple[int, int]]:
    src, entry, names, cells = lay.src, f"houses[{hi}]", lay.names, lay.cells
    (node,) = _names(src, f"{entry}.hex", [hs.hex], lay.index)
    if lay.terrain[node] != "house":
        raise _fail(src, f"{entry}.hex", f"{names[node]} is not marked H")
    door = _names(src, f"{entry}.door", hs.door, lay.index)
    for d in door:
        if hex_distance(cells[d], cells[node]) != 1 or lay.terrain[d] not in ("street", "track"):
            raise _fail(
                src, f"{entry}.door", f"{names[d]} is not a street next to the house"
            )
    if hex_distance(cells[door[0]], cells[door[1]]) != 1:
        raise _fail(src, f"{entry}.door", "the two door hexes must be side by side")
    return node, (door[0], door[1])


def _track(lay: _Layout, data: BoardFile) -> list[int]:
    """The ``track`` of a board file, checked against the rows."""
    src, names, cells = lay.src, lay.names, lay.cells
    track = _names(src, "track", data.track, lay.index)
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
    data, src = _read(BoardFile, path, "board.json")
    lay = _layout(data, src)
    landings = _Landings()
    lakes = [_lake(lay, li, lk, landings) for li, lk in enumerate(data.lakes)]
    houses, doors = _houses(lay, data)
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
        colours=tuple(hs.colour for hs in data.houses),
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


@cache
def load_chips(path: str | None = None) -> ChipMix:
    """Load and validate a chip-mix file (``None``: the packaged designed mix)."""
    data, _ = _read(ChipsFile, path, "chips.json")
    gold = dict.fromkeys(GOLD_VALUES, 0)
    for g in data.gold:
        gold[g.nuggets] += g.count
    robbers = dict.fromkeys(ROBBER_HATS, 0)
    for r in data.robbers:
        robbers[r.hat] += r.count
    return ChipMix(tuple(gold.values()), tuple(robbers.values()))


def parse_mix(text: str, what: str) -> tuple[int, ...]:
    """``"14,12,10,7,5"`` -> counts for values 1..5 (a config override of the mix)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 5 or not all(p.isdigit() for p in parts):
        raise ConfigError(
            f"invalid eureka config: {what} must be five counts for values 1..5,"
            f" like '14,12,10,7,5' (got {text!r})"
        )
    return tuple(int(p) for p in parts)

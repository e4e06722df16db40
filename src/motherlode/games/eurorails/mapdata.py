"""The Eurorails map as the engine sees it: mileposts, edges, cities, ferries, coasts.

:func:`load_map` reads ``data/map.json`` (built by :mod:`.mapbuild`) or a user's own file
of the same format, checks it, and returns an immutable :class:`EuroMap`:

>>> m = load_map()
>>> m.city("Berlin").centre == m.city("Berlin").mileposts[0]
True
>>> m.terrain[m.city("Berlin").centre]
'C'
>>> m.city_distance("Paris", "London") > 0
True

Layout of ``map.json`` (one milepost per index ``0 .. n-1``, reading order north to
south, then west to east)::

    q, r        lattice coordinates; x = 43·(q + r/2), y = 43·(√3/2)·r km (EPSG:3035)
    lon, lat    the milepost's real position in degrees
    terrain     one character per milepost: . clear  m mountain  a alpine  p ferry port
                S small city  M medium city  C major city centre  o major city outpost
    features    [kind, name] of each crossing: kind river | lake | inlet
    edges       [a, b, f]: a track edge between lattice neighbours a < b, crossing
                feature f (1-based; 0: nothing)
    cities      name, size, country, lonlat, mileposts (a major city: centre first),
                goods
    ferries     name, ports [a, b], port_names, cost {first, second} (the two
                printings), length (mileposts the crossing counts for), sea
    chunnel     ends [a, b], cost, length
    coast_distance  {sea: [mileposts from that sea's coast, -1 if none]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr, field_validator

from motherlode.core.data import DataModel, parse_model, validate_model
from motherlode.core.errors import ConfigError
from motherlode.games.eurorails.geo import SQRT3_2

DATA = Path(__file__).parent / "data"
MAP_FORMAT = "motherlode-eurorails-map/1"

Milepost = int
"""A milepost id: an index into the map's arrays."""

Printing = Literal["first", "second"]
"""Which printing's ferry costs to use (they differ for three lines)."""

TERRAIN_CODES = frozenset(".mapSMCo")


@dataclass(frozen=True)
class City:
    """A city of the map; a major city's first milepost is its centre."""

    name: str
    size: str
    country: str
    lonlat: tuple[float, float]
    mileposts: tuple[Milepost, ...]
    goods: tuple[str, ...]

    @property
    def centre(self) -> Milepost:
        """Where milepost counts start (rulebook: count from a major city's centre)."""
        return self.mileposts[0]


@dataclass(frozen=True)
class Ferry:
    """A ferry line between two port mileposts."""

    name: str
    ports: tuple[Milepost, Milepost]
    port_names: tuple[str, str]
    cost: Mapping[str, int]
    length: int
    sea: str


@dataclass(frozen=True)
class Chunnel:
    """The Channel Tunnel: a special link built for its whole cost at once."""

    name: str
    ends: tuple[Milepost, Milepost]
    end_names: tuple[str, str]
    cost: int
    length: int


@dataclass(frozen=True, eq=False)
class EuroMap:
    """The whole board. Arrays are indexed by milepost id.

    Immutable; compared and hashed by identity (a map is loaded once and shared).
    """

    source: str
    spacing_km: float
    q: tuple[int, ...]
    r: tuple[int, ...]
    lon: tuple[float, ...]
    lat: tuple[float, ...]
    terrain: str
    features: tuple[tuple[str, str], ...]
    edges: tuple[tuple[Milepost, Milepost, int], ...]
    cities: tuple[City, ...]
    ferries: tuple[Ferry, ...]
    chunnel: Chunnel
    seas: tuple[str, ...]
    coast_distance: Mapping[str, tuple[int, ...]]
    rivers: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
    lakes: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
    neighbours: tuple[tuple[Milepost, ...], ...] = field(repr=False)
    crossing_of: Mapping[tuple[Milepost, Milepost], tuple[str, str]] = field(repr=False)
    city_at: Mapping[Milepost, str] = field(repr=False)
    by_name: Mapping[str, City] = field(repr=False)
    by_lattice: Mapping[tuple[int, int], Milepost] = field(repr=False)

    def __len__(self) -> int:
        return len(self.terrain)

    def xy(self, i: Milepost) -> tuple[float, float]:
        """Projected position of milepost ``i`` in km (y grows northwards)."""
        s = self.spacing_km
        return (s * (self.q[i] + self.r[i] / 2), s * SQRT3_2 * self.r[i])

    def city(self, name: str) -> City:
        """The city called ``name``; an unknown name raises :class:`ConfigError`."""
        try:
            return self.by_name[name]
        except KeyError:
            raise ConfigError(f"eurorails map: no city {name!r}") from None

    def crossing(self, a: Milepost, b: Milepost) -> tuple[str, str] | None:
        """``(kind, name)`` of the river, lake or inlet the edge ``a``–``b`` crosses."""
        return self.crossing_of.get((a, b) if a < b else (b, a))

    def graph(self, *, ferries: bool = True) -> list[list[tuple[Milepost, int]]]:
        """Weighted adjacency for route lengths: one per milepost stepped to; a ferry or the
        Chunnel counts as its ``length``."""
        out: list[list[tuple[Milepost, int]]] = [[(j, 1) for j in ns] for ns in self.neighbours]
        if ferries:
            links = [(f.ports, f.length) for f in self.ferries]
            links.append((self.chunnel.ends, self.chunnel.length))
            for (a, b), w in links:
                out[a].append((b, w))
                out[b].append((a, w))
        return out

    @cached_property
    def route_graph(self) -> list[list[tuple[Milepost, int]]]:
        """:meth:`graph` with ferries, built once (do not modify it)."""
        return self.graph()

    def distances_from(self, source: Milepost) -> list[int]:
        """Shortest route length in mileposts from ``source`` to every milepost (-1: none)."""
        return _dijkstra(self.route_graph, source)

    def city_distance(self, a: str, b: str) -> int:
        """Mileposts of the shortest route between two cities (centre to centre)."""
        names = [c.name for c in self.cities]
        table = self.distance_table()
        return table[names.index(self.city(a).name)][names.index(self.city(b).name)]

    def distance_table(self) -> list[list[int]]:
        """The 60 × 60 chart of :meth:`city_distance`, in :attr:`cities` order (built once)."""
        return self._distance_rows

    @cached_property
    def _distance_rows(self) -> list[list[int]]:
        graph = self.route_graph
        centres = [c.centre for c in self.cities]
        rows = []
        for c in centres:
            dist = _dijkstra(graph, c)
            rows.append([dist[o] for o in centres])
        return rows


def _dijkstra(graph: Sequence[Sequence[tuple[int, int]]], source: int) -> list[int]:
    """Shortest distances with small integer weights: Dial's bucket queue (-1: unreachable)."""
    dist = [-1] * len(graph)
    buckets: list[list[int]] = [[source]]
    d = 0
    while d < len(buckets):
        for i in buckets[d]:
            if dist[i] >= 0:
                continue
            dist[i] = d
            for j, w in graph[i]:
                if dist[j] < 0:
                    k = d + w
                    while len(buckets) <= k:
                        buckets.append([])
                    buckets[k].append(j)
        d += 1
    return dist


# -- loading and validation ------------------------------------------------------------
#
# The file's shape (fields, types) is the model below, checked by pydantic
# (motherlode.core.data); what a schema cannot say (ids in range, lattice neighbours, the
# red areas, ports, reachability) is checked by the small functions after it. Every
# problem is a ConfigError "file: entry: problem".


class _Entry(DataModel):
    """A map entry (ids and counts are strict integers: no "5" or true read as 5)."""


class CityEntry(_Entry):
    name: StrictStr
    size: Literal["major", "medium", "small"]
    country: StrictStr = ""
    lonlat: tuple[float, float]
    mileposts: list[StrictInt] = Field(min_length=1)
    goods: list[StrictStr]


class FerryCost(_Entry):
    first: StrictInt = Field(gt=0)
    second: StrictInt = Field(gt=0)


class FerryEntry(_Entry):
    name: StrictStr
    ports: tuple[StrictInt, StrictInt]
    port_names: tuple[StrictStr, StrictStr]
    cost: FerryCost
    length: StrictInt
    sea: StrictStr


class ChunnelEntry(_Entry):
    name: StrictStr = "Chunnel"
    ends: tuple[StrictInt, StrictInt]
    end_names: tuple[StrictStr, StrictStr]
    cost: StrictInt
    length: StrictInt


class LineEntry(_Entry):
    name: StrictStr
    xy: list[tuple[float, float]]


class MapFile(_Entry):
    """``map.json`` (see the module docstring for the layout)."""

    format: str
    generator: str = ""
    inputs_sha256: dict[str, str] = Field(default_factory=dict)
    source: str = ""
    lattice: str = ""
    terrain_codes: dict[str, str] = Field(default_factory=dict)
    spacing_km: float
    q: list[StrictInt]
    r: list[StrictInt]
    lon: list[float]
    lat: list[float]
    terrain: StrictStr
    features: list[tuple[Literal["river", "lake", "inlet"], StrictStr]]
    edges: list[tuple[StrictInt, StrictInt, StrictInt]]
    cities: list[CityEntry]
    ferries: list[FerryEntry]
    chunnel: ChunnelEntry
    seas: list[StrictStr]
    coast_distance: dict[str, list[StrictInt]]
    rivers: list[LineEntry] = Field(default_factory=list)
    lakes: list[LineEntry] = Field(default_factory=list)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != MAP_FORMAT:
            raise ValueError(f"expected {MAP_FORMAT!r}")
        return value


class _Checker:
    def __init__(self, source: str, n: int) -> None:
        self.source = source
        self.n = n

    def fail(self, where: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {where}: {problem}")

    def ids(self, values: Sequence[int], where: str) -> tuple[int, ...]:
        for v in values:
            if not 0 <= v < self.n:
                raise self.fail(where, f"milepost id {v!r} is not in 0..{self.n - 1}")
        return tuple(values)


def load_map(path: str | Path | None = None) -> EuroMap:
    """Read, check and index a map file (default: the committed ``data/map.json``).

    Any problem raises :class:`ConfigError` naming the file, the entry and the problem.
    """
    if path is None:
        return _default_map()
    return _load_map(Path(path))


@cache
def _default_map() -> EuroMap:
    return _load_map(DATA / "map.json")


def _load_map(path: Path) -> EuroMap:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot read {str(path)!r}: {err.strerror}") from None
    return _index(parse_model(MapFile, text, str(path)), str(path))


def parse_map(doc: Any, source: str = "map") -> EuroMap:
    """Check and index a map document already parsed from JSON."""
    return _index(validate_model(MapFile, doc, source), source)


def _check_lattice(m: MapFile, ck: _Checker) -> dict[tuple[int, int], int]:
    """The arrays agree in length, the terrain codes are known; the lattice index."""
    n = ck.n
    for key, arr in (("r", m.r), ("lon", m.lon), ("lat", m.lat), ("terrain", m.terrain)):
        if len(arr) != n:
            raise ck.fail(key, f"has {len(arr)} entries but q has {n}")
    bad = sorted(set(m.terrain) - TERRAIN_CODES)
    if bad:
        raise ck.fail(f"milepost {m.terrain.index(bad[0])}", f"unknown terrain code {bad[0]!r}")
    by_lattice = {(qi, ri): i for i, (qi, ri) in enumerate(zip(m.q, m.r, strict=True))}
    if len(by_lattice) != n:
        raise ck.fail("q/r", "two mileposts share lattice coordinates")
    return by_lattice


def _check_edges(m: MapFile, ck: _Checker) -> set[tuple[int, int]]:
    """Every edge joins two lattice neighbours once, crossing a listed feature or none."""
    seen: set[tuple[int, int]] = set()
    for k, (a, b, f) in enumerate(m.edges):
        where = f"edges[{k}]"
        if not (0 <= a < b < ck.n):
            raise ck.fail(where, f"needs milepost ids 0 <= a < b < {ck.n}, got {a}, {b}")
        if (a, b) in seen:
            raise ck.fail(where, f"duplicate edge {a}-{b}")
        seen.add((a, b))
        if not _adjacent(m.q, m.r, a, b):
            raise ck.fail(where, f"mileposts {a} and {b} are not lattice neighbours")
        if not 0 <= f <= len(m.features):
            raise ck.fail(where, f"feature {f} is not in 0..{len(m.features)}")
    return seen


def _check_city(
    m: MapFile,
    ck: _Checker,
    c: CityEntry,
    by_lattice: dict[tuple[int, int], int],
    seen: set[tuple[int, int]],
) -> tuple[int, ...]:
    """A city's mileposts: a major city's centre and ring (its red area whole), or the one
    milepost of a medium or small city."""
    where = f"city {c.name!r}"
    posts = ck.ids(c.mileposts, f"{where}.mileposts")
    t = m.terrain
    if c.size != "major":
        want = "M" if c.size == "medium" else "S"
        if len(posts) != 1 or t[posts[0]] != want:
            raise ck.fail(where, f"a {c.size} city is one milepost of terrain {want}")
        return posts
    centre = posts[0]
    ring = {by_lattice.get((m.q[centre] + dq, m.r[centre] + dr)) for dq, dr in _DIRS}
    if len(posts) != 7 or set(posts[1:]) != ring:
        raise ck.fail(where, "a major city is its centre and the six mileposts around it")
    if t[centre] != "C" or any(t[p] != "o" for p in posts[1:]):
        raise ck.fail(where, "a major city's mileposts must have terrain C (centre) and o")
    for a in posts:
        for b in posts:
            if a < b and (a, b) not in seen and _adjacent(m.q, m.r, a, b):
                raise ck.fail(where, f"the red area is not whole: no edge {a}-{b}")
    return posts


def _read_cities(
    m: MapFile, ck: _Checker, by_lattice: dict[tuple[int, int], int], seen: set[tuple[int, int]]
) -> tuple[list[City], dict[int, str]]:
    cities: list[City] = []
    city_at: dict[int, str] = {}
    for c in m.cities:
        posts = _check_city(m, ck, c, by_lattice, seen)
        for p in posts:
            if p in city_at:
                raise ck.fail(f"city {c.name!r}", f"milepost {p} already belongs to {city_at[p]}")
            city_at[p] = c.name
        cities.append(City(c.name, c.size, c.country, c.lonlat, posts, tuple(c.goods)))
    if len({c.name for c in cities}) != len(cities):
        raise ck.fail("cities", "city names must be unique")
    for i, t in enumerate(m.terrain):
        if t in "SMCo" and i not in city_at:
            raise ck.fail(f"milepost {i}", f"terrain {t!r} but no city claims it")
    return cities, city_at


def _read_ferries(m: MapFile, ck: _Checker, coast: Mapping[str, object]) -> list[Ferry]:
    """The ferry lines: each between two port mileposts (a port or a small/medium city),
    on a sea of the map; every port milepost used."""
    ferries: list[Ferry] = []
    ports: set[int] = set()
    for f in m.ferries:
        where = f"ferry {f.name!r}"
        for p in ck.ids(f.ports, f"{where}.ports"):
            if m.terrain[p] not in "pSM":
                raise ck.fail(
                    where, f"port milepost {p} is neither a ferry port nor a small/medium city"
                )
            ports.add(p)
        if f.sea not in coast:
            raise ck.fail(where, f"unknown sea {f.sea!r}")
        cost = {"first": f.cost.first, "second": f.cost.second}
        ferries.append(Ferry(f.name, f.ports, f.port_names, cost, f.length, f.sea))
    for i, t in enumerate(m.terrain):
        if t == "p" and i not in ports:
            raise ck.fail(f"milepost {i}", "terrain 'p' but no ferry uses it")
    return ferries


def _read_coasts(m: MapFile, ck: _Checker) -> dict[str, tuple[int, ...]]:
    coast: dict[str, tuple[int, ...]] = {}
    for sea in m.seas:
        d = m.coast_distance.get(sea)
        if d is None or len(d) != ck.n:
            raise ck.fail(f"coast_distance.{sea}", f"expected a list of {ck.n} integers")
        coast[sea] = tuple(d)
    return coast


def _check_reachable(
    ck: _Checker, nbrs: list[list[int]], links: list[tuple[int, int]], cities: list[City]
) -> None:
    """Every city is reachable by track (ferries and the Chunnel included)."""
    if not cities:
        return
    adj = [list(ns) for ns in nbrs]
    for a, b in links:
        adj[a].append(b)
        adj[b].append(a)
    reach = {cities[0].centre}
    stack = [cities[0].centre]
    while stack:
        for j in adj[stack.pop()]:
            if j not in reach:
                reach.add(j)
                stack.append(j)
    for c in cities:
        if c.centre not in reach:
            raise ck.fail(f"city {c.name!r}", f"not reachable by track from {cities[0].name}")


def _index(m: MapFile, source: str) -> EuroMap:
    """Check a map file's content and index it."""
    ck = _Checker(source, len(m.q))
    by_lattice = _check_lattice(m, ck)
    seen = _check_edges(m, ck)
    cities, city_at = _read_cities(m, ck, by_lattice, seen)
    coast = _read_coasts(m, ck)
    ferries = _read_ferries(m, ck, coast)
    ch = m.chunnel
    end_a, end_b = ck.ids(ch.ends, "chunnel.ends")
    chunnel = Chunnel(ch.name, (end_a, end_b), ch.end_names, ch.cost, ch.length)
    nbrs: list[list[int]] = [[] for _ in range(ck.n)]
    crossing_of: dict[tuple[int, int], tuple[str, str]] = {}
    for a, b, f in m.edges:
        nbrs[a].append(b)
        nbrs[b].append(a)
        if f:
            crossing_of[(a, b)] = m.features[f - 1]
    _check_reachable(ck, nbrs, [*(f.ports for f in ferries), chunnel.ends], cities)

    def lines(items: list[LineEntry]) -> tuple[tuple[str, tuple[tuple[float, float], ...]], ...]:
        return tuple((item.name, tuple(item.xy)) for item in items)

    return EuroMap(
        source=source,
        spacing_km=m.spacing_km,
        q=tuple(m.q),
        r=tuple(m.r),
        lon=tuple(m.lon),
        lat=tuple(m.lat),
        terrain=m.terrain,
        features=tuple(m.features),
        edges=tuple(m.edges),
        cities=tuple(cities),
        ferries=tuple(ferries),
        chunnel=chunnel,
        seas=tuple(m.seas),
        coast_distance=coast,
        rivers=lines(m.rivers),
        lakes=lines(m.lakes),
        neighbours=tuple(tuple(sorted(ns)) for ns in nbrs),
        crossing_of=crossing_of,
        city_at=city_at,
        by_name={c.name: c for c in cities},
        by_lattice=by_lattice,
    )


_DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _adjacent(q: Sequence[int], r: Sequence[int], a: int, b: int) -> bool:
    dq, dr = q[b] - q[a], r[b] - r[a]
    return (abs(dq) + abs(dr) + abs(dq + dr)) == 2

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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal

from motherlode.core.errors import ConfigError
from motherlode.games.eurorails.geo import SQRT3_2

DATA = Path(__file__).parent / "data"
MAP_FORMAT = "motherlode-eurorails-map/1"

Milepost = int
"""A milepost id: an index into the map's arrays."""

Printing = Literal["first", "second"]
"""Which printing's ferry costs to use (they differ for three lines)."""

TERRAIN_CODES = frozenset(".mapSMCo")
CITY_SIZES = ("major", "medium", "small")
CROSSING_KINDS = ("river", "lake", "inlet")


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


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {where}: {problem}")

    def get(
        self, doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str
    ) -> Any:
        if key not in doc:
            raise self.fail(where, f"missing field {key!r}")
        value = doc[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(f"{where}.{key}", f"expected {name}, got {type(value).__name__}")
        return value

    def ids(self, values: Any, n: int, where: str) -> tuple[int, ...]:
        if not isinstance(values, list) or not values:
            raise self.fail(where, "expected a non-empty list of milepost ids")
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
                raise self.fail(where, f"milepost id {v!r} is not in 0..{n - 1}")
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


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot read {str(path)!r}: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{path}: not JSON ({err.msg} at line {err.lineno})") from None


def _load_map(path: Path) -> EuroMap:
    doc = _read_json(path)
    return parse_map(doc, str(path))


def parse_map(doc: Any, source: str = "map") -> EuroMap:
    """Check and index a map document already parsed from JSON."""
    ck = _Checker(source)
    if not isinstance(doc, dict):
        raise ck.fail("file", "a map is a JSON object")
    if doc.get("format") != MAP_FORMAT:
        raise ck.fail("format", f"expected {MAP_FORMAT!r}, got {doc.get('format')!r}")
    spacing = float(ck.get(doc, "spacing_km", (int, float), "map"))
    q = ck.get(doc, "q", list, "map")
    n = len(q)
    r = ck.get(doc, "r", list, "map")
    lon = ck.get(doc, "lon", list, "map")
    lat = ck.get(doc, "lat", list, "map")
    terrain = ck.get(doc, "terrain", str, "map")
    for key, arr in (("r", r), ("lon", lon), ("lat", lat), ("terrain", terrain)):
        if len(arr) != n:
            raise ck.fail(key, f"has {len(arr)} entries but q has {n}")
    for i, (qi, ri) in enumerate(zip(q, r, strict=True)):
        if not isinstance(qi, int) or not isinstance(ri, int):
            raise ck.fail(
                f"milepost {i}", f"lattice coordinates must be integers, got {qi!r}, {ri!r}"
            )
    bad = sorted(set(terrain) - TERRAIN_CODES)
    if bad:
        i = terrain.index(bad[0])
        raise ck.fail(f"milepost {i}", f"unknown terrain code {bad[0]!r}")
    by_lattice = {(qi, ri): i for i, (qi, ri) in enumerate(zip(q, r, strict=True))}
    if len(by_lattice) != n:
        raise ck.fail("q/r", "two mileposts share lattice coordinates")

    features_raw = ck.get(doc, "features", list, "map")
    features: list[tuple[str, str]] = []
    for k, f in enumerate(features_raw, start=1):
        if not (
            isinstance(f, list) and len(f) == 2 and f[0] in CROSSING_KINDS and isinstance(f[1], str)
        ):
            raise ck.fail(f"features[{k}]", f"expected [river|lake|inlet, name], got {f!r}")
        features.append((f[0], f[1]))
    edges: list[tuple[int, int, int]] = []
    nbrs: list[list[int]] = [[] for _ in range(n)]
    crossing_of: dict[tuple[int, int], tuple[str, str]] = {}
    seen: set[tuple[int, int]] = set()
    for k, e in enumerate(ck.get(doc, "edges", list, "map")):
        where = f"edges[{k}]"
        if not (isinstance(e, list) and len(e) == 3 and all(isinstance(v, int) for v in e)):
            raise ck.fail(where, f"expected [a, b, feature], got {e!r}")
        a, b, f = e
        if not (0 <= a < b < n):
            raise ck.fail(where, f"needs milepost ids 0 <= a < b < {n}, got {a}, {b}")
        if (a, b) in seen:
            raise ck.fail(where, f"duplicate edge {a}-{b}")
        seen.add((a, b))
        dq, dr = q[b] - q[a], r[b] - r[a]
        if (abs(dq) + abs(dr) + abs(dq + dr)) != 2:
            raise ck.fail(where, f"mileposts {a} and {b} are not lattice neighbours")
        if not 0 <= f <= len(features):
            raise ck.fail(where, f"feature {f} is not in 0..{len(features)}")
        if f:
            crossing_of[(a, b)] = features[f - 1]
        edges.append((a, b, f))
        nbrs[a].append(b)
        nbrs[b].append(a)

    cities: list[City] = []
    city_at: dict[int, str] = {}
    for k, c in enumerate(ck.get(doc, "cities", list, "map")):
        where = f"cities[{k}]"
        if not isinstance(c, dict):
            raise ck.fail(where, "expected an object")
        name = ck.get(c, "name", str, where)
        where = f"city {name!r}"
        size = ck.get(c, "size", str, where)
        if size not in CITY_SIZES:
            raise ck.fail(where, f"size must be one of {', '.join(CITY_SIZES)}, got {size!r}")
        posts = ck.ids(ck.get(c, "mileposts", list, where), n, f"{where}.mileposts")
        goods = ck.get(c, "goods", list, where)
        lonlat = ck.get(c, "lonlat", list, where)
        if size == "major":
            centre = posts[0]
            ring = {by_lattice.get((q[centre] + dq, r[centre] + dr)) for dq, dr in _DIRS}
            if len(posts) != 7 or set(posts[1:]) != ring:
                raise ck.fail(where, "a major city is its centre and the six mileposts around it")
            if terrain[centre] != "C" or any(terrain[p] != "o" for p in posts[1:]):
                raise ck.fail(where, "a major city's mileposts must have terrain C (centre) and o")
            for a in posts:
                for b in posts:
                    if a < b and (a, b) not in seen and _adjacent(q, r, a, b):
                        raise ck.fail(where, f"the red area is not whole: no edge {a}-{b}")
        else:
            want = "M" if size == "medium" else "S"
            if len(posts) != 1 or terrain[posts[0]] != want:
                raise ck.fail(where, f"a {size} city is one milepost of terrain {want}")
        for p in posts:
            if p in city_at:
                raise ck.fail(where, f"milepost {p} already belongs to {city_at[p]}")
            city_at[p] = name
        cities.append(
            City(
                name,
                size,
                str(c.get("country", "")),
                (float(lonlat[0]), float(lonlat[1])),
                posts,
                tuple(goods),
            )
        )
    if len({c.name for c in cities}) != len(cities):
        raise ck.fail("cities", "city names must be unique")
    for i, t in enumerate(terrain):
        if t in "SMCo" and i not in city_at:
            raise ck.fail(f"milepost {i}", f"terrain {t!r} but no city claims it")

    ferries: list[Ferry] = []
    ports: set[int] = set()
    for k, f in enumerate(ck.get(doc, "ferries", list, "map")):
        where = f"ferries[{k}]"
        name = ck.get(f, "name", str, where)
        where = f"ferry {name!r}"
        pa, pb = ck.ids(ck.get(f, "ports", list, where), n, f"{where}.ports")[:2]
        for p in (pa, pb):
            if terrain[p] == "p" or (terrain[p] in "SM"):
                ports.add(p)
                continue
            raise ck.fail(
                where, f"port milepost {p} is neither a ferry port nor a small/medium city"
            )
        cost = ck.get(f, "cost", dict, where)
        for printing in ("first", "second"):
            v = cost.get(printing)
            if not isinstance(v, int) or v <= 0:
                raise ck.fail(where, f"cost.{printing} must be a positive integer, got {v!r}")
        names = ck.get(f, "port_names", list, where)
        ferries.append(
            Ferry(
                name,
                (pa, pb),
                (str(names[0]), str(names[1])),
                dict(cost),
                int(ck.get(f, "length", int, where)),
                str(ck.get(f, "sea", str, where)),
            )
        )
    for i, t in enumerate(terrain):
        if t == "p" and i not in ports:
            raise ck.fail(f"milepost {i}", "terrain 'p' but no ferry uses it")
    ch = ck.get(doc, "chunnel", dict, "map")
    ends = ck.ids(ck.get(ch, "ends", list, "chunnel"), n, "chunnel.ends")
    end_names = ck.get(ch, "end_names", list, "chunnel")
    chunnel = Chunnel(
        str(ch.get("name", "Chunnel")),
        (ends[0], ends[1]),
        (str(end_names[0]), str(end_names[1])),
        int(ck.get(ch, "cost", int, "chunnel")),
        int(ck.get(ch, "length", int, "chunnel")),
    )

    seas = tuple(ck.get(doc, "seas", list, "map"))
    coast_raw = ck.get(doc, "coast_distance", dict, "map")
    coast: dict[str, tuple[int, ...]] = {}
    for sea in seas:
        d = coast_raw.get(sea)
        if not isinstance(d, list) or len(d) != n:
            raise ck.fail(f"coast_distance.{sea}", f"expected a list of {n} integers")
        coast[sea] = tuple(d)
    for k, f in enumerate(ferries):
        if f.sea not in coast:
            raise ck.fail(f"ferry {f.name!r}", f"unknown sea {f.sea!r}")
        del k

    # every city reachable by track (ferries and the Chunnel included)
    adj = [list(ns) for ns in nbrs]
    for a, b in [*(f.ports for f in ferries), chunnel.ends]:
        adj[a].append(b)
        adj[b].append(a)
    if cities:
        reach = {cities[0].centre}
        stack = [cities[0].centre]
        while stack:
            i = stack.pop()
            for j in adj[i]:
                if j not in reach:
                    reach.add(j)
                    stack.append(j)
        for c in cities:
            if c.centre not in reach:
                raise ck.fail(f"city {c.name!r}", f"not reachable by track from {cities[0].name}")

    def lines(key: str) -> tuple[tuple[str, tuple[tuple[float, float], ...]], ...]:
        out = []
        for item in doc.get(key, []):
            out.append((str(item["name"]), tuple((float(x), float(y)) for x, y in item["xy"])))
        return tuple(out)

    return EuroMap(
        source=source,
        spacing_km=spacing,
        q=tuple(q),
        r=tuple(r),
        lon=tuple(float(v) for v in lon),
        lat=tuple(float(v) for v in lat),
        terrain=terrain,
        features=tuple(features),
        edges=tuple(edges),
        cities=tuple(cities),
        ferries=tuple(ferries),
        chunnel=chunnel,
        seas=seas,
        coast_distance=coast,
        rivers=lines("rivers"),
        lakes=lines("lakes"),
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

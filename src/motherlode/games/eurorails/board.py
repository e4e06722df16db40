"""The engine's flat, immutable view of the Eurorails content.

This is the ONE module that reads the content engineer's API (:mod:`.mapdata`,
:mod:`.content`): everything the rules need is turned here into flat lists indexed by
milepost, edge, city, load, card or link, shared by every state of a game.

Directions: ``nb[m * 6 + d]`` is the neighbour of milepost ``m`` in lattice direction
``d`` (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE in the map's axial ``(q, r)`` coordinates), or
-1 where there is no track edge. ``eid[m * 6 + d]`` is the id of that edge.

Links are the ferries (owned by up to two players) and the Chunnel (one player).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

from motherlode.games.eurorails.content import Content, ContentConfig, load_content

DIRS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIR_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

# terrain kinds
CLEAR, MOUNTAIN, ALPINE, PORT, SMALL, MEDIUM, CENTRE, OUTPOST = range(8)
TERRAIN_OF = {
    ".": CLEAR,
    "m": MOUNTAIN,
    "a": ALPINE,
    "p": PORT,
    "S": SMALL,
    "M": MEDIUM,
    "C": CENTRE,
    "o": OUTPOST,
}

# crossing kinds
NO_CROSSING, RIVER, LAKE, INLET = range(4)

FERRY, CHUNNEL = 0, 1


@dataclass(frozen=True)
class Link:
    """A ferry line or the Chunnel: built as a whole, then part of its owners' track."""

    name: str
    kind: int  # FERRY or CHUNNEL
    ends: tuple[int, int]
    cost: int
    length: int
    sea: str
    capacity: int  # how many players may own it


@dataclass(frozen=True)
class EventSpec:
    """An event card's parameters (which fields matter depends on ``kind``)."""

    number: int
    kind: str  # strike tax snow fog flood gale derailment bonus
    title: str
    scope: str | None = None  # strikes: inland, coastal, drawer
    coast_distance: int | None = None
    brackets: tuple[tuple[int, int], ...] = ()
    city: str | None = None
    radius: int | None = None
    close_alpine: bool = False
    river: str | None = None
    seas: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    load: str | None = None
    countries: tuple[str, ...] = ()
    amount: int = 0


@dataclass(frozen=True)
class DemandSpec:
    city: int
    load: int
    payment: int


@dataclass(frozen=True)
class Board:
    """Flat arrays for the rules (see the module docstring)."""

    content: Content
    n: int
    terrain: tuple[int, ...]
    nb: tuple[int, ...]
    eid: tuple[int, ...]
    edge_ends: tuple[tuple[int, int], ...]
    edge_cross_cost: tuple[int, ...]
    edge_river: tuple[str, ...]  # river name or ""
    edge_internal: tuple[bool, ...]  # inside a major city's red area
    milepost_cost: tuple[int, ...]
    city_of: tuple[int, ...]  # city index or -1
    city_names: tuple[str, ...]
    city_size: tuple[int, ...]  # SMALL, MEDIUM or CENTRE (major)
    city_posts: tuple[tuple[int, ...], ...]
    city_centre: tuple[int, ...]
    city_country: tuple[str, ...]
    city_goods: tuple[tuple[int, ...], ...]
    city_coast: tuple[int, ...]  # mileposts from the nearest coast (from the centre)
    majors: tuple[int, ...]  # city indices of the major cities
    major_posts: tuple[int, ...]  # every major-city milepost
    link_at: tuple[int, ...]  # link index at a port / Chunnel end, or -1
    links: tuple[Link, ...]
    coast_any: tuple[int, ...]
    coast_by_sea: dict[str, tuple[int, ...]]
    load_names: tuple[str, ...]
    load_chips: tuple[int, ...]
    demands: dict[int, tuple[DemandSpec, DemandSpec, DemandSpec]]
    train_names: tuple[str, ...]
    train_capacity: tuple[int, ...]
    train_speed: tuple[int, ...]
    train_half: tuple[int, ...]
    upgrades: tuple[tuple[tuple[int, int], ...], ...]  # per train: (target, cost)
    events: dict[int, EventSpec]
    q: tuple[int, ...]
    r: tuple[int, ...]
    lattice: dict[tuple[int, int], int]  # (q, r) -> milepost
    xy: tuple[tuple[float, float], ...]  # projected km, y northwards
    distance_table: tuple[tuple[int, ...], ...]  # city x city route lengths (mileposts)
    load_sources: tuple[tuple[int, ...], ...]  # per load: the supplying cities

    def name(self, m: int) -> str:
        """A milepost's readable name (:func:`.places.milepost_name`: ``Paris-NE``, ``AD46``)."""
        from motherlode.games.eurorails.places import milepost_name  # places imports board

        return milepost_name(self, m)

    def city_index(self, name: str) -> int:
        return self.city_names.index(name)

    def load_index(self, name: str) -> int:
        return self.load_names.index(name)

    def within(self, sources: list[int], radius: int) -> frozenset[int]:
        """Mileposts at most ``radius`` steps (counted like movement) from ``sources``."""
        dist = {s: 0 for s in sources}
        queue = deque(sources)
        while queue:
            m = queue.popleft()
            if dist[m] >= radius:
                continue
            for d in range(6):
                x = self.nb[m * 6 + d]
                if x >= 0 and x not in dist:
                    dist[x] = dist[m] + 1
                    queue.append(x)
        return frozenset(dist)

    @property
    def is_city(self) -> tuple[bool, ...]:
        return tuple(c >= 0 for c in self.city_of)


@cache
def load_board(ferry_printing: str = "first") -> Board:
    """The board for a ferry printing (cached: every game of that printing shares it)."""
    content = load_content(ContentConfig(ferry_printing=ferry_printing))
    return _build(content)


def _build(content: Content) -> Board:
    m = content.map
    n = len(m)
    terrain = tuple(TERRAIN_OF[t] for t in m.terrain)
    nb = [-1] * (n * 6)
    eid = [-1] * (n * 6)
    ends: list[tuple[int, int]] = []
    cross: list[int] = []
    river: list[str] = []
    bc = content.building_costs
    kind_cost = {"river": bc.river, "lake": bc.lake, "inlet": bc.inlet}
    city_of = [-1] * n
    names = [c.name for c in m.cities]
    for k, c in enumerate(m.cities):
        for p in c.mileposts:
            city_of[p] = k
    internal: list[bool] = []
    for a, b, f in m.edges:
        e = len(ends)
        ends.append((a, b))
        kind, fname = m.features[f - 1] if f else ("", "")
        cross.append(kind_cost.get(kind, 0))
        river.append(fname if kind == "river" else "")
        ca, cb = city_of[a], city_of[b]
        internal.append(ca >= 0 and ca == cb and m.cities[ca].size == "major")
        dq, dr = m.q[b] - m.q[a], m.r[b] - m.r[a]
        d = DIRS.index((dq, dr))
        nb[a * 6 + d], eid[a * 6 + d] = b, e
        nb[b * 6 + (d + 3) % 6], eid[b * 6 + (d + 3) % 6] = a, e
    cost_of = {
        CLEAR: bc.clear,
        MOUNTAIN: bc.mountain,
        ALPINE: bc.alpine,
        PORT: bc.clear,
        SMALL: bc.small,
        MEDIUM: bc.medium,
        CENTRE: bc.major,
        OUTPOST: bc.major,
    }
    load_names = tuple(x.name for x in content.loads)
    goods = []
    for c in m.cities:
        goods.append(tuple(load_names.index(g) for g in c.goods if g in load_names))
    seas = list(m.seas)
    coast_any = []
    for i in range(n):
        ds = [m.coast_distance[s][i] for s in seas if m.coast_distance[s][i] >= 0]
        coast_any.append(min(ds) if ds else 999)
    links: list[Link] = []
    link_at = [-1] * n
    for fy in m.ferries:
        links.append(
            Link(fy.name, FERRY, fy.ports, fy.cost[content.ferry_printing], fy.length, fy.sea, 2)
        )
    ch = m.chunnel
    links.append(Link(ch.name, CHUNNEL, ch.ends, ch.cost, ch.length, "", 1))
    for k, link in enumerate(links):
        for p in link.ends:
            link_at[p] = k
    size_code = {"small": SMALL, "medium": MEDIUM, "major": CENTRE}
    demands = {}
    for card in content.demands:
        demands[card.number] = tuple(
            DemandSpec(names.index(d.city), load_names.index(d.load), d.payment)
            for d in card.demands
        )
    trains = content.trains
    tnames = tuple(t.name for t in trains)
    majors = tuple(k for k, c in enumerate(m.cities) if c.size == "major")
    events = {
        e.number: EventSpec(
            number=e.number,
            kind=e.kind,
            title=e.title,
            scope=e.scope,
            coast_distance=e.coast_distance,
            brackets=tuple((int(lo), int(v)) for lo, v in (e.brackets or ())),
            city=e.city,
            radius=e.radius,
            close_alpine=bool(e.close_alpine),
            river=e.river,
            seas=tuple(e.seas or ()),
            cities=tuple(e.cities or ()),
            load=e.load,
            countries=tuple(e.countries or ()),
            amount=int(e.amount or 0),
        )
        for e in content.events
    }
    return Board(
        content=content,
        n=n,
        terrain=terrain,
        nb=tuple(nb),
        eid=tuple(eid),
        edge_ends=tuple(ends),
        edge_cross_cost=tuple(cross),
        edge_river=tuple(river),
        edge_internal=tuple(internal),
        milepost_cost=tuple(cost_of[t] for t in terrain),
        city_of=tuple(city_of),
        city_names=tuple(names),
        city_size=tuple(size_code[c.size] for c in m.cities),
        city_posts=tuple(c.mileposts for c in m.cities),
        city_centre=tuple(c.centre for c in m.cities),
        city_country=tuple(c.country for c in m.cities),
        city_goods=tuple(goods),
        city_coast=tuple(coast_any[c.centre] for c in m.cities),
        majors=majors,
        major_posts=tuple(p for k in majors for p in m.cities[k].mileposts),
        link_at=tuple(link_at),
        links=tuple(links),
        coast_any=tuple(coast_any),
        coast_by_sea={s: tuple(m.coast_distance[s]) for s in seas},
        load_names=load_names,
        load_chips=tuple(x.chips for x in content.loads),
        demands=demands,  # type: ignore[arg-type]
        train_names=tnames,
        train_capacity=tuple(t.capacity for t in trains),
        train_speed=tuple(t.speed for t in trains),
        train_half=tuple(t.half_rate for t in trains),
        upgrades=tuple(tuple((tnames.index(k), v) for k, v in t.upgrades.items()) for t in trains),
        events=events,
        q=tuple(m.q),
        r=tuple(m.r),
        lattice=dict(m.by_lattice),
        xy=tuple(m.xy(i) for i in range(n)),
        distance_table=tuple(tuple(row) for row in m.distance_table()),
        load_sources=tuple(tuple(names.index(c) for c in x.sources) for x in content.loads),
    )


@cache
def event_area(ferry_printing: str, number: int) -> frozenset[int]:
    """The mileposts an event card covers (weather, gale coasts, derailment circles)."""
    b = load_board(ferry_printing)
    ev = b.events[number]
    if ev.kind in ("snow", "fog"):
        assert ev.city is not None and ev.radius is not None
        return b.within([b.city_centre[b.city_index(ev.city)]], ev.radius)
    if ev.kind == "gale":
        assert ev.radius is not None
        out: set[int] = set()
        for s in ev.seas:
            dist = b.coast_by_sea[s]
            out.update(i for i in range(b.n) if 0 <= dist[i] <= ev.radius)
        return frozenset(out)
    if ev.kind == "derailment":
        assert ev.radius is not None
        return b.within([b.city_centre[b.city_index(c)] for c in ev.cities], ev.radius)
    return frozenset()

"""Eurorails content other than the map: loads, trains, building costs, and the decks.

Each file is checked at load against a pydantic schema, then cross-checked against the
map (every city and load named exists, no load demanded where it is supplied); any
problem raises :class:`~motherlode.core.errors.ConfigError` naming the file, the entry
and the problem. A user may substitute any file through :class:`ContentConfig`:

>>> content = load_content()
>>> content.load("Wine").sources
('Bordeaux', 'Frankfurt', 'Porto', 'Wien')
>>> card = content.demand(1)
>>> len(card.demands)
3
>>> content.event(150).title
'Excess profits tax'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, RootModel, model_validator

from motherlode.core.data import DataModel, load_model, validate_model
from motherlode.core.errors import ConfigError
from motherlode.games.eurorails.mapdata import DATA, EuroMap, Printing, load_map

DEMAND_FIRST, DEMAND_LAST = 1, 146
_M = TypeVar("_M", bound=BaseModel)
EVENT_FIRST, EVENT_LAST = 147, 168


class Load(DataModel):
    """A kind of load: its chip count and the cities that supply it."""

    name: str
    chips: int = Field(ge=1)
    sources: tuple[str, ...] = Field(min_length=1)


class Circus(DataModel):
    """The Circus variant's two chips and where they start."""

    name: str
    chips: int = Field(ge=1)
    start_cities: tuple[str, ...]
    payment: int = Field(ge=1)
    card_divisor: int = Field(ge=1)
    source: str


class Train(DataModel):
    """A loco card."""

    name: str
    capacity: int = Field(ge=1)
    speed: int = Field(ge=1)
    half_rate: int = Field(ge=1)
    fast_trains_speed: int = Field(ge=1)
    fast_trains_half_rate: int = Field(ge=1)
    upgrades: dict[str, int]


class BuildingCosts(DataModel):
    clear: int
    mountain: int
    alpine: int
    river: int
    lake: int
    inlet: int
    small: int
    medium: int
    major: int
    source: str


class LoadsFile(DataModel):
    format: Literal["motherlode-eurorails-loads/1"]
    source: str
    loads: tuple[Load, ...]
    circus: Circus
    total_chips: int
    trains: tuple[Train, ...]
    trains_source: str
    loco_cards: int
    building_costs: BuildingCosts

    @model_validator(mode="after")
    def _check(self) -> LoadsFile:
        names = [load.name for load in self.loads]
        if len(set(names)) != len(names):
            raise ValueError("load names must be unique")
        total = sum(load.chips for load in self.loads) + self.circus.chips
        if total != self.total_chips:
            raise ValueError(f"the chips add up to {total}, not total_chips {self.total_chips}")
        trains = {t.name for t in self.trains}
        for t in self.trains:
            for target in t.upgrades:
                if target not in trains:
                    raise ValueError(f"train {t.name!r} upgrades to unknown train {target!r}")
        return self


class Demand(DataModel):
    """One demand of a card: deliver ``load`` to ``city`` for ``payment`` million."""

    city: str
    load: str
    payment: int = Field(ge=1)


class DemandCard(DataModel):
    """A demand card: its number and its three demands (only one can be filled)."""

    number: int
    demands: tuple[Demand, Demand, Demand]


class PaymentRule(DataModel):
    intercept: float
    slope: float
    source: str


class DemandsFile(DataModel):
    format: Literal["motherlode-eurorails-demands/1"]
    source: str
    generator: str
    seed: int
    payment_rule: PaymentRule
    cards: tuple[DemandCard, ...]


EventKind = Literal["strike", "tax", "snow", "fog", "flood", "gale", "derailment", "bonus"]


class EventCard(DataModel):
    """An event card and its parameters (which fields are set depends on ``kind``)."""

    number: int
    kind: EventKind
    title: str
    text: str
    source: str
    scope: Literal["inland", "coastal", "drawer"] | None = None
    coast_distance: int | None = None
    brackets: tuple[tuple[int, int], ...] | None = None
    city: str | None = None
    radius: int | None = None
    radius_source: str | None = None
    close_alpine: bool | None = None
    river: str | None = None
    seas: tuple[str, ...] | None = None
    cities: tuple[str, ...] | None = None
    load: str | None = None
    countries: tuple[str, ...] | None = None
    countries_source: str | None = None
    amount: int | None = None

    @model_validator(mode="after")
    def _check(self) -> EventCard:
        need: dict[str, tuple[str, ...]] = {
            "strike": ("scope",),
            "tax": ("brackets",),
            "snow": ("city", "radius", "close_alpine"),
            "fog": ("city", "radius"),
            "flood": ("river",),
            "gale": ("seas", "radius"),
            "derailment": ("cities", "radius"),
            "bonus": ("amount",),
        }
        missing = [f for f in need[self.kind] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a {self.kind} event needs {', '.join(missing)}")
        if self.kind == "strike" and self.scope != "drawer" and self.coast_distance is None:
            raise ValueError("a coastal or inland strike needs coast_distance")
        if self.kind == "bonus" and (self.load is None) == (self.countries is None):
            raise ValueError("a bonus event names either a load or countries")
        return self


class EventsFile(DataModel):
    format: Literal["motherlode-eurorails-events/1"]
    source: str
    events: tuple[EventCard, ...]


class ContentConfig(DataModel):
    """Where the content comes from; the engine's config will embed these options."""

    map_file: str | None = Field(
        default=None, description="a map.json of your own (default: the built map)"
    )
    loads_file: str | None = Field(
        default=None, description="a loads.json of your own (loads, trains, costs)"
    )
    demands_file: str | None = Field(
        default=None, description="a demands.json of your own (146 cards)"
    )
    events_file: str | None = Field(
        default=None, description="an events.json of your own (22 cards)"
    )
    ferry_printing: Printing = Field(
        default="first",
        description="whose ferry costs: 'first' (6/4/4) or 'second' (8/8/8) printing",
    )


@dataclass(frozen=True)
class Content:
    """Everything the engine needs besides the rules."""

    map: EuroMap
    loads: tuple[Load, ...]
    circus: Circus
    trains: tuple[Train, ...]
    building_costs: BuildingCosts
    demands: tuple[DemandCard, ...]
    payment_rule: PaymentRule
    events: tuple[EventCard, ...]
    ferry_printing: Printing

    def load(self, name: str) -> Load:
        for load in self.loads:
            if load.name == name:
                return load
        raise ConfigError(f"eurorails: no load {name!r}")

    def demand(self, number: int) -> DemandCard:
        return self.demands[number - DEMAND_FIRST]

    def event(self, number: int) -> EventCard:
        return self.events[number - EVENT_FIRST]

    def ferry_cost(self, name: str) -> int:
        for f in self.map.ferries:
            if f.name == name:
                return f.cost[self.ferry_printing]
        raise ConfigError(f"eurorails: no ferry {name!r}")

    def sources(self) -> Mapping[str, tuple[str, ...]]:
        """``{load: source cities}``."""
        return {load.name: load.sources for load in self.loads}


# -- loading --------------------------------------------------------------------------


class _Json(RootModel[Any]):
    """Any JSON document (read by :func:`~motherlode.core.data.load_model`, which names a
    file that cannot be read or is not JSON)."""


_ENTRIES: dict[type[BaseModel], tuple[str, type[BaseModel]]] = {
    LoadsFile: ("loads", Load),
    DemandsFile: ("cards", DemandCard),
    EventsFile: ("events", EventCard),
}
"""The list of entries of each file that a problem is reported by: ``cards[2] (card 3)``."""


def _parse(model: type[_M], path: Path) -> _M:
    """The file at ``path`` as a ``model``; a bad entry is named by its number or name."""
    data = load_model(_Json, path).root
    source = str(path)
    key, entry = _ENTRIES.get(model, ("", DataModel))
    items = data.get(key) if key and isinstance(data, dict) else None
    for k, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            label = f"card {item['number']}" if "number" in item else item.get("name", "")
            try:
                validate_model(entry, item, f"{source}: {key}[{k}] ({label})")
            except ConfigError as err:  # a problem of the whole entry: no "the file" in it
                raise ConfigError(str(err).replace(": the file: ", ": ")) from None
    return validate_model(model, data, source)


def load_loads(path: str | Path | None = None) -> LoadsFile:
    """The load chart, trains and building costs (schema-checked)."""
    return _parse(LoadsFile, Path(path) if path else DATA / "loads.json")


def load_events(path: str | Path | None = None) -> EventsFile:
    """The event deck (schema-checked; numbering checked by :func:`load_content`)."""
    return _parse(EventsFile, Path(path) if path else DATA / "events.json")


def load_demands(path: str | Path | None = None) -> DemandsFile:
    """The demand deck (schema-checked; references checked by :func:`load_content`)."""
    return _parse(DemandsFile, Path(path) if path else DATA / "demands.json")


def load_content(config: ContentConfig | None = None) -> Content:
    """Load and cross-check every content file (cached for the default files)."""
    config = config or ContentConfig()
    if config == ContentConfig(ferry_printing=config.ferry_printing):
        return _default_content(config.ferry_printing)
    return _load_content(config)


@cache
def _default_content(printing: Printing) -> Content:
    return _load_content(ContentConfig(ferry_printing=printing))


def _load_content(config: ContentConfig) -> Content:
    m = load_map(config.map_file)
    loads_path = Path(config.loads_file) if config.loads_file else DATA / "loads.json"
    demands_path = Path(config.demands_file) if config.demands_file else DATA / "demands.json"
    events_path = Path(config.events_file) if config.events_file else DATA / "events.json"
    loads = load_loads(loads_path)
    demands = load_demands(demands_path)
    events = load_events(events_path)
    check_loads(loads, m, str(loads_path))
    check_demands(demands, loads, m, str(demands_path))
    check_events(events, loads, m, str(events_path))
    return Content(
        map=m,
        loads=loads.loads,
        circus=loads.circus,
        trains=loads.trains,
        building_costs=loads.building_costs,
        demands=demands.cards,
        payment_rule=demands.payment_rule,
        events=events.events,
        ferry_printing=config.ferry_printing,
    )


def check_loads(loads: LoadsFile, m: EuroMap, source: str) -> None:
    """Every source city is on the map."""
    for load in loads.loads:
        for city in load.sources:
            if city not in m.by_name:
                raise ConfigError(
                    f"{source}: load {load.name!r}: source city {city!r} is not on the map"
                )
    for city in loads.circus.start_cities:
        if city not in m.by_name:
            raise ConfigError(f"{source}: circus: start city {city!r} is not on the map")


def check_demands(demands: DemandsFile, loads: LoadsFile, m: EuroMap, source: str) -> None:
    """Numbered 1..146 in order; real cities and loads; never demanded where supplied."""
    supply = {load.name: set(load.sources) for load in loads.loads}
    if len(demands.cards) != DEMAND_LAST - DEMAND_FIRST + 1:
        raise ConfigError(
            f"{source}: expected {DEMAND_LAST} demand cards, got {len(demands.cards)}"
        )
    for k, card in enumerate(demands.cards):
        where = f"{source}: card {card.number}"
        if card.number != DEMAND_FIRST + k:
            raise ConfigError(f"{where}: expected number {DEMAND_FIRST + k} at position {k}")
        for d in card.demands:
            if d.city not in m.by_name:
                raise ConfigError(f"{where}: unknown city {d.city!r}")
            if d.load not in supply:
                raise ConfigError(f"{where}: unknown load {d.load!r}")
            if d.city in supply[d.load]:
                raise ConfigError(f"{where}: {d.load} is demanded at {d.city}, which supplies it")


def check_events(events: EventsFile, loads: LoadsFile, m: EuroMap, source: str) -> None:
    """Numbered 147..168 in order; every city, river, sea and load named exists."""
    if len(events.events) != EVENT_LAST - EVENT_FIRST + 1:
        raise ConfigError(f"{source}: expected 22 event cards, got {len(events.events)}")
    rivers = {name for kind, name in m.features if kind == "river"}
    countries = {c.country for c in m.cities}
    load_names = {load.name for load in loads.loads}
    for k, e in enumerate(events.events):
        where = f"{source}: event {e.number}"
        if e.number != EVENT_FIRST + k:
            raise ConfigError(f"{where}: expected number {EVENT_FIRST + k} at position {k}")
        for city in [*(e.cities or ()), *([e.city] if e.city else [])]:
            if city not in m.by_name:
                raise ConfigError(f"{where}: unknown city {city!r}")
        if e.river is not None and e.river not in rivers:
            raise ConfigError(f"{where}: no track crosses a river called {e.river!r}")
        for sea in e.seas or ():
            if sea not in m.seas:
                raise ConfigError(f"{where}: unknown sea {sea!r}")
        if e.load is not None and e.load not in load_names:
            raise ConfigError(f"{where}: unknown load {e.load!r}")
        for country in e.countries or ():
            if country not in countries:
                raise ConfigError(f"{where}: no city is in {country!r}")

"""The content data of El Dorado: the four expedition sheets and the dice (``data/*.json``).

Each file is read into its model (:class:`SheetFile`, :class:`DiceFile`, through
``motherlode.core.data``: unknown keys refused), then checked across its entries (labels,
adjacency, reachability, the temples, the ethnographer's visits); a bad file raises
:class:`ConfigError` naming the file, the entry and the problem. A user may load a
transcription of a printed sheet (config option ``sheet_file``) or other dice
(``dice_file``, ``coin_faces``).

Symbols and faces are small integers, so the rules work on ints and bitmasks:

==========  ====  ===================================================
code        name  meaning
==========  ====  ===================================================
0           M     machete
1           P     paddle
2           T     torch
3           A     amulet
4           K     map (Dutch *kaart*; ``M`` is taken by the machete)
5           S     signpost: the joker
6 + c - 1   1..4  a coin face showing ``c`` coins (``COIN0 + c``)
==========  ====  ===================================================

>>> sheet = load_sheet(1)
>>> sheet.spaces[sheet.golden].label, sheet.golden_minimum, sheet.temple_symbols
('j3', 3, 3)
>>> face_name(COIN0 + 2)
'2c'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from motherlode.core.data import DataModel, M, parse_model
from motherlode.core.errors import ConfigError

Space = int
"""Index of a route-zone space on the sheet (its label is ``sheet.spaces[i].label``)."""

Face = int
"""A die face / symbol code (see the module table)."""

SYMBOLS: tuple[str, ...] = ("machete", "paddle", "torch", "amulet", "map", "signpost")
SYMBOL_LETTERS = "MPTAKS"
MACHETE, PADDLE, TORCH, AMULET, MAP, SIGNPOST = range(6)
COIN0 = 5
"""A coin face with ``c`` coins has code ``COIN0 + c`` (``c`` from 1)."""
MAX_COINS_ON_FACE = 4

PATH, TEMPLE, SETTLEMENT, GOLDEN = "path", "temple", "settlement", "golden"
KINDS = (PATH, TEMPLE, SETTLEMENT, GOLDEN)

SLOT_ANY = 6
SLOT_COIN = 7
"""Resource-zone slot kinds: 0..5 a flat symbol (a die *or* resource of that kind),
``SLOT_ANY`` the die symbol (any die), ``SLOT_COIN`` one small white circle (1 coin), and
``SLOT_COIN + c`` the flat symbol "a resource or die with c coins" (``coins:c`` in a file)."""
SLOT_NAMES = (*SYMBOLS, "any", "coin")
MAX_FLAT_COINS = 6
"""The most coins a flat coin symbol may show (``coins:1`` .. ``coins:6``)."""


def slot_coins(kind: int) -> int:
    """Coins a flat coin symbol of this slot kind shows (0 for any other kind)."""
    return kind - SLOT_COIN if kind > SLOT_COIN else 0


def slot_name(kind: int) -> str:
    """``machete`` .. ``signpost``, ``any``, ``coin`` or ``coins:<c>`` (as in a sheet file).

    >>> slot_name(SLOT_COIN + 2), slot_name(SLOT_ANY)
    ('coins:2', 'any')
    """
    c = slot_coins(kind)
    return f"coins:{c}" if c else SLOT_NAMES[kind]

SPECIALS = ("reroll_all", "take_two", "use_twice", "use_thrice")
ABILITIES = ("map_as_signpost", "amulet_as_2_coins", "plus_one_coin", "reroll_on_torch")


def face_name(face: Face) -> str:
    """``machete`` .. ``signpost`` or ``<c>c`` for a coin face."""
    if face > COIN0:
        return f"{face - COIN0}c"
    return SYMBOLS[face]


@dataclass(frozen=True)
class SpaceInfo:
    """One space of the route zone."""

    index: Space
    label: str
    col: int
    row: int
    kind: str
    symbol: Face = -1
    fee: int = 0
    start: bool = False
    reward: bool = False
    adjacent: tuple[Space, ...] = ()


@dataclass(frozen=True)
class ResourceInfo:
    """A resource (black frame) or a helper of the resources-and-helpers zone.

    ``items``: the symbols it gives (each used separately, all in one turn);
    ``coins``: the coins it gives (one lump); ``zero``: the right to a zero offering;
    ``special``: one of :data:`SPECIALS`; ``ability``: a helper's ability (helpers are not
    single-use). ``slots``: global slot numbers of its cost spaces, ``cost`` their kinds.
    ``visit``: spaces to visit to hire it (the ethnographer) instead of a cost.
    """

    index: int
    id: str
    name: str
    helper: bool
    cost: tuple[int, ...]
    slots: tuple[int, ...]
    items: tuple[Face, ...] = ()
    coins: int = 0
    zero: bool = False
    special: str = ""
    ability: str = ""
    visit: tuple[Space, ...] = ()
    source: str = ""

    @property
    def gives_items(self) -> bool:
        """True for a resource used through items (symbols, coins, zero offering)."""
        return not self.helper and not self.special


@dataclass(frozen=True)
class Sheet:
    """An expedition sheet: the route zone and the resources-and-helpers zone."""

    number: int
    title: str
    spaces: tuple[SpaceInfo, ...]
    golden: Space
    golden_minimum: int
    temple_symbols: int
    resources: tuple[ResourceInfo, ...]
    slot_owner: tuple[int, ...]
    slot_kind: tuple[int, ...]
    source_file: str
    by_label: dict[str, Space] = field(default_factory=dict)
    res_by_id: dict[str, int] = field(default_factory=dict)
    # bitmasks over spaces
    adj_mask: tuple[int, ...] = ()
    start_mask: int = 0
    path_mask: int = 0
    temple_mask: int = 0
    settlement_mask: int = 0
    symbol_mask: tuple[int, ...] = ()

    @property
    def num_slots(self) -> int:
        return len(self.slot_kind)

    def slot_label(self, slot: int) -> str:
        """``<resource id>/<n>`` with ``n`` counted from 1 within its resource."""
        res = self.resources[self.slot_owner[slot]]
        return f"{res.id}/{res.slots.index(slot) + 1}"

    def required(self, hard: bool) -> int:
        """Temples to offer in before the golden temple (the yellow one crossed out if easy)."""
        return self.temple_symbols if hard else self.temple_symbols - 1

    def ability_index(self, ability: str) -> int:
        for r in self.resources:
            if r.ability == ability:
                return r.index
        return -1


# -- the files, as models (motherlode.core.data) -----------------------------------------------

Int = Annotated[int, Field(strict=True)]
"""An integer of a file (``true`` is none)."""

SymbolName = Literal["machete", "paddle", "torch", "amulet", "map", "signpost"]
KindName = Literal["path", "temple", "settlement", "golden"]
SpecialName = Literal["reroll_all", "take_two", "use_twice", "use_thrice"]
AbilityName = Literal["map_as_signpost", "amulet_as_2_coins", "plus_one_coin", "reroll_on_torch"]


def _face(text: Any) -> Face:
    """A die face: ``machete`` .. ``signpost`` or ``coins:<c>`` (1..4)."""
    if isinstance(text, str) and text in SYMBOLS:
        return SYMBOLS.index(text)
    if isinstance(text, str) and text.startswith("coins:") and text[6:].isdigit():
        c = int(text[6:])
        if 1 <= c <= MAX_COINS_ON_FACE:
            return COIN0 + c
    raise ValueError(f"unknown face (machete, paddle, torch, amulet, map, signpost or"
                     f" coins:1..{MAX_COINS_ON_FACE})")


def _slot_kind(text: Any) -> int:
    """A cost space: a flat symbol (``machete`` .. ``signpost``, ``coins:<c>``), the die
    symbol ``any`` or a small white circle ``coin``."""
    if isinstance(text, str) and text in SLOT_NAMES:
        return SLOT_NAMES.index(text)
    if isinstance(text, str) and text.startswith("coins:") and text[6:].isdigit():
        c = int(text[6:])
        if 1 <= c <= MAX_FLAT_COINS:
            return SLOT_COIN + c
    raise ValueError(f"unknown cost symbol (one of {', '.join(SLOT_NAMES)}, or"
                     f" coins:1..{MAX_FLAT_COINS} for the flat symbol 'a resource or die with"
                     " 2 coins')")


FaceCode = Annotated[Face, BeforeValidator(_face)]
"""A die face in a file, read as its code."""
SlotCode = Annotated[int, BeforeValidator(_slot_kind)]
"""A cost space in a file, read as its slot kind."""


class DieEntry(DataModel):
    name: str = ""
    faces: list[FaceCode]
    source: str = ""

    @field_validator("faces")
    @classmethod
    def _six(cls, faces: list[Face]) -> list[Face]:
        if len(faces) != 6:
            raise ValueError("a die has exactly 6 faces")
        return faces


class DiceFile(DataModel):
    """The dice file (``data/dice.json``): six expedition dice, then the signpost die."""

    format: Literal["eldorado-dice/1"]
    source: str = ""
    dice: list[DieEntry]

    @field_validator("dice")
    @classmethod
    def _seven(cls, dice: list[DieEntry]) -> list[DieEntry]:
        if len(dice) != 7:
            raise ValueError(f"expected 7 dice (6 expedition dice + the signpost die),"
                             f" got {len(dice)}")
        return dice


class SpaceEntry(DataModel):
    """One space of the route zone (``symbol`` on path spaces, ``fee`` on settlements)."""

    label: str
    col: Int
    row: Int
    kind: KindName
    symbol: SymbolName | None = None
    fee: Int | None = None
    start: bool = Field(default=False, strict=True)
    reward: Literal["signpost_die"] | None = None

    @field_validator("label")
    @classmethod
    def _label(cls, label: str) -> str:
        if not label.isalnum() or not label[0].isalpha():
            raise ValueError("labels are letters+digits, e.g. 'c4'")
        return label

    @model_validator(mode="after")
    def _symbol_and_fee(self) -> SpaceEntry:
        if (self.kind == PATH) != (self.symbol is not None):
            raise ValueError("a path space has a symbol" if self.kind == PATH
                             else f"a {self.kind} space has no symbol")
        if self.kind == SETTLEMENT and (self.fee is None or not 1 <= self.fee <= 4):
            raise ValueError(f"a settlement fee is 1..4 coins (rulebook), got {self.fee}")
        if self.kind != SETTLEMENT and self.fee is not None:
            raise ValueError("only settlements have a fee")
        if self.reward is not None and self.symbol != "amulet":
            raise ValueError("a reward is 'signpost_die', on an amulet space (map 1)")
        if self.start and self.kind != PATH:
            raise ValueError("'start' is only on path spaces")
        return self


class GoldenTempleEntry(DataModel):
    space: str
    minimum: Int
    source: str = ""

    @field_validator("minimum")
    @classmethod
    def _minimum(cls, minimum: int) -> int:
        if minimum not in (3, 4):
            raise ValueError("the minimum is 3 or 4 (rulebook)")
        return minimum


class TempleSymbolsEntry(DataModel):
    count: Int
    yellow: Int
    source: str = ""

    @field_validator("yellow")
    @classmethod
    def _one_yellow(cls, yellow: int) -> int:
        if yellow != 1:
            raise ValueError("exactly one of them is the yellow temple")
        return yellow


def _cost_size(cost: list[int] | None) -> list[int] | None:
    if cost is not None and not 1 <= len(cost) <= 6:
        raise ValueError("a cost has 1..6 spaces")
    return cost


class ResourceEntry(DataModel):
    """A resource: its cost, and exactly one of items, coins, zero_offering, special."""

    id: str
    name: str
    cost: list[SlotCode]
    items: list[SymbolName] | None = None
    coins: Int | None = None
    zero_offering: Literal[True] | None = None
    special: SpecialName | None = None
    source: str = ""

    _cost = field_validator("cost")(_cost_size)

    @field_validator("items")
    @classmethod
    def _items(cls, items: list[str] | None) -> list[str] | None:
        if items is not None and (not 1 <= len(items) <= 2 or len(set(items)) != 1):
            raise ValueError("items are 1 or 2 copies of one route symbol")
        return items

    @field_validator("coins")
    @classmethod
    def _coins(cls, coins: int | None) -> int | None:
        if coins is not None and not 1 <= coins <= 6:
            raise ValueError("coins is 1..6")
        return coins

    @model_validator(mode="after")
    def _one_gift(self) -> ResourceEntry:
        gifts = (self.items, self.coins, self.zero_offering, self.special)
        if sum(g is not None for g in gifts) != 1:
            raise ValueError("a resource gives exactly one of items, coins, zero_offering,"
                             " special")
        return self


class HelperEntry(DataModel):
    """A helper: its ability, hired by a cost or (the ethnographer) by visits."""

    id: str
    name: str
    cost: list[SlotCode] | None = None
    visit: list[str] | None = None
    ability: AbilityName
    source: str = ""

    _cost = field_validator("cost")(_cost_size)

    @model_validator(mode="after")
    def _hired(self) -> HelperEntry:
        if (self.cost is None) == (self.visit is None):
            raise ValueError("a helper is hired by a 'cost' or (the ethnographer) a 'visit'")
        if (self.ability == "reroll_on_torch") != (self.visit is not None):
            raise ValueError("the ethnographer (and only she) is hired by 'visit'")
        return self


class SheetFile(DataModel):
    """An expedition sheet file (``data/sheet<n>.json``): the route zone (spaces and their
    adjacency) and the resources-and-helpers zone."""

    format: Literal["eldorado-sheet/1"]
    map: Int
    title: str
    source: str = ""
    layout: str = ""
    resources_source: str = ""
    golden_temple: GoldenTempleEntry
    temple_symbols: TempleSymbolsEntry
    spaces: list[SpaceEntry]
    adjacency: dict[str, list[str]]
    resources: list[ResourceEntry]
    helpers: list[HelperEntry]

    @field_validator("spaces")
    @classmethod
    def _count(cls, spaces: list[SpaceEntry]) -> list[SpaceEntry]:
        if not 2 <= len(spaces) <= 120:
            raise ValueError("expected 2..120 spaces")
        return spaces


# -- reading and the checks across entries ---------------------------------------------------


def _fail(source: str, where: str, problem: str) -> ConfigError:
    return ConfigError(f"eldorado data {source}: {where}: {problem}")


def _read(model: type[M], path: str | None, default: str) -> tuple[M, str]:
    """The file at ``path`` (``None``: the packaged ``data/<default>``) as a ``model``."""
    if path is None:
        text = resources.files("motherlode.games.eldorado").joinpath("data", default).read_text(
            encoding="utf-8"
        )
        src = f"data/{default}"
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"eldorado data {path}: cannot read it ({err.strerror})") from None
        src = path
    return parse_model(model, text, f"eldorado data {src}"), src


def _check_die(src: str, i: int, faces: tuple[Face, ...]) -> None:
    """Die ``i``: an expedition die (0..5) or the signpost die (6)."""
    if i < 6 and sorted(f for f in faces if f < COIN0) != [0, 1, 2, 3, 4]:
        raise _fail(src, f"dice[{i}]", "an expedition die shows machete, paddle, torch, amulet,"
                    " map and one coin face (rulebook, components)")
    if i == 6 and not (SIGNPOST in faces and all(f == SIGNPOST or f > COIN0 for f in faces)):
        raise _fail(src, f"dice[{i}]", "the seventh die shows only signposts and coins")


def _coin_faces(text: str) -> list[int]:
    """The ``coin_faces`` option: coins on the coin face of each expedition die."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 6 or not all(p.isdigit() and 1 <= int(p) <= MAX_COINS_ON_FACE
                                  for p in parts):
        raise ConfigError(f"invalid eldorado config: coin_faces must be six numbers"
                          f" 1..{MAX_COINS_ON_FACE} separated by commas (got {text!r})")
    return [int(p) for p in parts]


@cache
def load_dice(
    path: str | None = None, coin_faces: str | None = None
) -> tuple[tuple[Face, ...], ...]:
    """The seven dice, each a tuple of six faces; ``coin_faces`` (``"1,1,2,2,3,3"``) sets the
    coins on the coin face of the six expedition dice.

    >>> load_dice()[4]
    (0, 1, 2, 3, 4, 8)
    >>> load_dice(coin_faces="2,2,2,2,2,2")[0][5]
    7
    """
    data, src = _read(DiceFile, path, "dice.json")
    dice = [tuple(die.faces) for die in data.dice]
    for i, faces in enumerate(dice):
        _check_die(src, i, faces)
    if coin_faces is not None:
        for i, c in enumerate(_coin_faces(coin_faces)):
            dice[i] = tuple(f if f < COIN0 else COIN0 + c for f in dice[i])
    return tuple(dice)


def _spaces(data: SheetFile, src: str) -> dict[str, int]:
    """The ``spaces`` checked across entries; their index by label."""
    labels: dict[str, int] = {}
    positions: set[tuple[int, int]] = set()
    for i, sp in enumerate(data.spaces):
        where = f"space {sp.label!r}"
        if sp.label in labels:
            raise _fail(src, where, "labels are unique")
        if (sp.col, sp.row) in positions:
            raise _fail(src, where, f"two spaces at col {sp.col}, row {sp.row}")
        positions.add((sp.col, sp.row))
        labels[sp.label] = i
    starts = [sp for sp in data.spaces if sp.start]
    if not starts:
        raise _fail(src, "spaces", "no start space (the outermost left spaces)")
    min_col = min(sp.col for sp in data.spaces)
    for sp in starts:
        if sp.col != min_col:
            raise _fail(src, f"space {sp.label!r}", "start spaces lie on the left edge")
    return labels


def _adjacency(data: SheetFile, src: str, labels: dict[str, int]) -> list[list[int]]:
    """The ``adjacency`` lists, checked (known spaces, symmetric)."""
    adj: list[list[int]] = [[] for _ in data.spaces]
    for label, nbrs in data.adjacency.items():
        if label not in labels:
            raise _fail(src, f"adjacency[{label!r}]", "no such space")
        for n in nbrs:
            if n not in labels or n == label:
                raise _fail(src, f"adjacency[{label!r}]", f"bad neighbour {n!r}")
            adj[labels[label]].append(labels[n])
    for i, nb in enumerate(adj):
        for j in nb:
            if i not in adj[j]:
                raise _fail(src, f"adjacency[{data.spaces[i].label!r}]",
                            f"{data.spaces[j].label!r} is adjacent to it but not the other way")
    return adj


def _golden_and_temples(data: SheetFile, src: str, labels: dict[str, int]) -> None:
    """The golden temple is the one golden space; the temple symbols fit the temples."""
    kinds: list[str] = [sp.kind for sp in data.spaces]
    glabel = data.golden_temple.space
    if glabel not in labels or kinds[labels[glabel]] != GOLDEN:
        raise _fail(src, "golden_temple", f"space {glabel!r} is not a golden space")
    if kinds.count(GOLDEN) != 1:
        raise _fail(src, "spaces", "exactly one golden temple")
    count, temples = data.temple_symbols.count, kinds.count(TEMPLE)
    if not 2 <= count <= temples:
        raise _fail(src, "temple_symbols", f"count must be 2..{temples} (the temples on the"
                    f" route), got {count}")


def _check_reachable(src: str, data: SheetFile, labels: dict[str, int],
                     adj: list[list[int]]) -> None:
    """Every space is reachable from a start."""
    seen = {labels[sp.label] for sp in data.spaces if sp.start}
    todo = list(seen)
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != len(data.spaces):
        lost = sorted(data.spaces[i].label for i in set(range(len(data.spaces))) - seen)
        raise _fail(src, "adjacency", f"spaces unreachable from the start: {', '.join(lost)}")


def _visit(entry: HelperEntry, src: str, where: str, data: SheetFile, labels: dict[str, int],
           adj: list[list[int]]) -> tuple[Space, ...]:
    """The settlements to visit to hire the ethnographer: 3, adjacent."""
    if entry.visit is None:
        return ()
    if any(v not in labels or data.spaces[labels[v]].kind != SETTLEMENT for v in entry.visit):
        raise _fail(src, where, "'visit' lists settlement spaces")
    visit = tuple(labels[v] for v in entry.visit)
    if len(visit) != 3 or not all(sum(1 for w in visit if w in adj[v]) >= 1 for v in visit):
        raise _fail(src, where, "the ethnographer needs 3 adjacent settlements")
    return visit


def _gift(entry: ResourceEntry) -> dict[str, Any]:
    """What a resource gives (the one of items, coins, zero_offering, special it names)."""
    if entry.items is not None:
        return {"items": tuple(SYMBOLS.index(x) for x in entry.items)}
    if entry.coins is not None:
        return {"coins": entry.coins}
    if entry.zero_offering:
        return {"zero": True}
    return {"special": entry.special}


@dataclass
class _Zone:
    """The resources-and-helpers zone while it is read: the entries and their cost slots."""

    resources: list[ResourceInfo] = field(default_factory=list)
    slot_owner: list[int] = field(default_factory=list)
    slot_kind: list[int] = field(default_factory=list)

    def add(self, src: str, where: str, entry: ResourceEntry | HelperEntry,
            **info: Any) -> None:
        """Add ``entry`` (its id checked unique) with its cost slots."""
        if not entry.id.replace("_", "").isalnum() or any(
            r.id == entry.id for r in self.resources
        ):
            raise _fail(src, where, "ids are unique, letters and digits")
        cost = tuple(entry.cost or ())
        index = len(self.resources)
        slots = tuple(range(len(self.slot_kind), len(self.slot_kind) + len(cost)))
        self.slot_owner.extend([index] * len(cost))
        self.slot_kind.extend(cost)
        self.resources.append(ResourceInfo(
            index=index, id=entry.id, name=entry.name, cost=cost, slots=slots,
            source=entry.source, **info,
        ))


def _resources(data: SheetFile, src: str, labels: dict[str, int], adj: list[list[int]]
               ) -> _Zone:
    """The ``resources`` and ``helpers`` entries, checked across entries, with their slots."""
    zone = _Zone()
    for res in data.resources:
        zone.add(src, f"resource {res.id!r}", res, helper=False, **_gift(res))
    for hlp in data.helpers:
        where = f"helper {hlp.id!r}"
        visit = _visit(hlp, src, where, data, labels, adj)
        zone.add(src, where, hlp, helper=True, ability=hlp.ability, visit=visit)
    if any(r.id in labels for r in zone.resources):
        raise _fail(src, "resources", "a resource id equals a space label")
    return zone


@cache
def load_sheet(number: int, path: str | None = None) -> Sheet:
    """Load and validate expedition sheet ``number`` (or the user's file at ``path``)."""
    data, src = _read(SheetFile, path, f"sheet{number}.json")
    if data.map != number:
        raise _fail(src, "map", f"the file is sheet {data.map}, the config asks for {number}")
    labels = _spaces(data, src)
    adj = _adjacency(data, src, labels)
    _golden_and_temples(data, src, labels)
    _check_reachable(src, data, labels, adj)
    zone = _resources(data, src, labels, adj)
    spaces = tuple(
        SpaceInfo(index=i, label=sp.label, col=sp.col, row=sp.row, kind=sp.kind,
                  symbol=-1 if sp.symbol is None else SYMBOLS.index(sp.symbol),
                  fee=sp.fee or 0, start=sp.start, reward=sp.reward is not None,
                  adjacent=tuple(sorted(adj[i])))
        for i, sp in enumerate(data.spaces)
    )

    def mask(pred: Any) -> int:
        return sum(1 << s.index for s in spaces if pred(s))

    res_list = zone.resources
    return Sheet(
        number=number, title=data.title, spaces=spaces, golden=labels[data.golden_temple.space],
        golden_minimum=data.golden_temple.minimum, temple_symbols=data.temple_symbols.count,
        resources=tuple(res_list), slot_owner=tuple(zone.slot_owner),
        slot_kind=tuple(zone.slot_kind), source_file=src, by_label=dict(labels),
        res_by_id={r.id: r.index for r in res_list},
        adj_mask=tuple(sum(1 << j for j in s.adjacent) for s in spaces),
        start_mask=mask(lambda s: s.start),
        path_mask=mask(lambda s: s.kind == PATH),
        temple_mask=mask(lambda s: s.kind == TEMPLE),
        settlement_mask=mask(lambda s: s.kind == SETTLEMENT),
        symbol_mask=tuple(mask(lambda s, f=f: s.kind == PATH and s.symbol == f) for f in range(6)),
    )

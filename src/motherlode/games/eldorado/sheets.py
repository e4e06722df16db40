"""The content data of El Dorado: the four expedition sheets and the dice (``data/*.json``).

Each file is checked at load: a bad file raises :class:`ConfigError` naming the file, the
entry and the problem. A user may load a transcription of a printed sheet (config option
``sheet_file``) or other dice (``dice_file``, ``coin_faces``).

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

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

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


def _fail(source: str, where: str, problem: str) -> ConfigError:
    return ConfigError(f"eldorado data {source}: {where}: {problem}")


def _get(d: dict[str, Any], key: str, typ: type | tuple[type, ...], src: str, where: str) -> Any:
    if key not in d:
        raise _fail(src, where, f"missing field {key!r}")
    value = d[key]
    if not isinstance(value, typ) or (isinstance(value, bool) and typ is int):
        raise _fail(src, where, f"field {key!r} has the wrong type ({value!r})")
    return value


def _read(path: str | None, default: str) -> tuple[Any, str]:
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
    try:
        return json.loads(text), src
    except json.JSONDecodeError as err:
        raise ConfigError(
            f"eldorado data {src}: not JSON ({err.msg} at line {err.lineno})"
        ) from None


def parse_face(text: str, src: str, where: str) -> Face:
    """``machete`` .. ``signpost`` or ``coins:<c>`` (1..4)."""
    if text in SYMBOLS:
        return SYMBOLS.index(text)
    if text.startswith("coins:") and text[6:].isdigit():
        c = int(text[6:])
        if 1 <= c <= MAX_COINS_ON_FACE:
            return COIN0 + c
    raise _fail(src, where, f"unknown face {text!r} (machete, paddle, torch, amulet, map,"
                f" signpost or coins:1..{MAX_COINS_ON_FACE})")


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
    data, src = _read(path, "dice.json")
    if not isinstance(data, dict) or data.get("format") != "eldorado-dice/1":
        raise _fail(src, "top level", "expected an object with format 'eldorado-dice/1'")
    dice_raw = _get(data, "dice", list, src, "top level")
    if len(dice_raw) != 7:
        raise _fail(src, "dice", f"expected 7 dice (6 expedition dice + the signpost die),"
                    f" got {len(dice_raw)}")
    dice: list[tuple[Face, ...]] = []
    for i, entry in enumerate(dice_raw):
        where = f"dice[{i}]"
        if not isinstance(entry, dict):
            raise _fail(src, where, "a die is an object with 'faces'")
        faces_raw = _get(entry, "faces", list, src, where)
        if len(faces_raw) != 6 or not all(isinstance(f, str) for f in faces_raw):
            raise _fail(src, where, "a die has exactly 6 faces, each a string")
        faces = tuple(parse_face(f, src, where) for f in faces_raw)
        if i < 6 and sorted(f for f in faces if f < COIN0) != [0, 1, 2, 3, 4]:
            raise _fail(src, where, "an expedition die shows machete, paddle, torch, amulet,"
                        " map and one coin face (rulebook, components)")
        if i == 6 and not (SIGNPOST in faces and all(f == SIGNPOST or f > COIN0 for f in faces)):
            raise _fail(src, where, "the seventh die shows only signposts and coins")
        dice.append(faces)
    if coin_faces is not None:
        parts = [p.strip() for p in coin_faces.split(",")]
        if len(parts) != 6 or not all(p.isdigit() and 1 <= int(p) <= MAX_COINS_ON_FACE
                                      for p in parts):
            raise ConfigError(f"invalid eldorado config: coin_faces must be six numbers"
                              f" 1..{MAX_COINS_ON_FACE} separated by commas (got {coin_faces!r})")
        for i, p in enumerate(parts):
            dice[i] = tuple(f if f < COIN0 else COIN0 + int(p) for f in dice[i])
    return tuple(dice)


def _slot_kind(text: Any, src: str, where: str) -> int:
    """A cost space: a flat symbol (``machete`` .. ``signpost``, ``coins:<c>``), the die
    symbol ``any`` or a small white circle ``coin``."""
    if isinstance(text, str) and text in SLOT_NAMES:
        return SLOT_NAMES.index(text)
    if isinstance(text, str) and text.startswith("coins:") and text[6:].isdigit():
        c = int(text[6:])
        if 1 <= c <= MAX_FLAT_COINS:
            return SLOT_COIN + c
    raise _fail(src, where, f"unknown cost symbol {text!r} (one of {', '.join(SLOT_NAMES)},"
                f" or coins:1..{MAX_FLAT_COINS} for the flat symbol 'a resource or die with"
                " 2 coins')")


def _space(sp: Any, i: int, src: str, labels: dict[str, int],
           positions: set[tuple[int, int]]) -> dict[str, Any]:
    """One entry of ``spaces``, checked (``labels`` and ``positions``: those seen before)."""
    where = f"spaces[{i}]"
    if not isinstance(sp, dict):
        raise _fail(src, where, "a space is an object")
    label = _get(sp, "label", str, src, where)
    where = f"space {label!r}"
    if not label.isalnum() or not label[0].isalpha() or label in labels:
        raise _fail(src, where, "labels are unique letters+digits, e.g. 'c4'")
    col, row = _get(sp, "col", int, src, where), _get(sp, "row", int, src, where)
    if (col, row) in positions:
        raise _fail(src, where, f"two spaces at col {col}, row {row}")
    positions.add((col, row))
    kind = _get(sp, "kind", str, src, where)
    if kind not in KINDS:
        raise _fail(src, where, f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    symbol = _space_symbol(sp, kind, src, where)
    fee = _space_fee(sp, kind, src, where)
    reward = sp.get("reward")
    if reward is not None and (reward != "signpost_die" or symbol != AMULET):
        raise _fail(src, where, "a reward is 'signpost_die', on an amulet space (map 1)")
    start = sp.get("start", False)
    if not isinstance(start, bool) or (start and kind != PATH):
        raise _fail(src, where, "'start' is true or false, and only on path spaces")
    labels[label] = i
    return dict(label=label, col=col, row=row, kind=kind, symbol=symbol, fee=fee,
                start=start, reward=reward is not None)


def _space_symbol(sp: dict[str, Any], kind: str, src: str, where: str) -> Face:
    if kind == PATH:
        sym = _get(sp, "symbol", str, src, where)
        if sym not in SYMBOLS:
            raise _fail(src, where, f"unknown symbol {sym!r}")
        return SYMBOLS.index(sym)
    if "symbol" in sp:
        raise _fail(src, where, f"a {kind} space has no symbol")
    return -1


def _space_fee(sp: dict[str, Any], kind: str, src: str, where: str) -> int:
    if kind == SETTLEMENT:
        fee: int = _get(sp, "fee", int, src, where)
        if not 1 <= fee <= 4:
            raise _fail(src, where, f"a settlement fee is 1..4 coins (rulebook), got {fee}")
        return fee
    if "fee" in sp:
        raise _fail(src, where, "only settlements have a fee")
    return 0


def _spaces(data: dict[str, Any], src: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The ``spaces`` entries, checked, and their index by label."""
    raw_spaces = _get(data, "spaces", list, src, "top level")
    if not 2 <= len(raw_spaces) <= 120:
        raise _fail(src, "spaces", "expected 2..120 spaces")
    labels: dict[str, int] = {}
    positions: set[tuple[int, int]] = set()
    parsed = [_space(sp, i, src, labels, positions) for i, sp in enumerate(raw_spaces)]
    starts = [p for p in parsed if p["start"]]
    if not starts:
        raise _fail(src, "spaces", "no start space (the outermost left spaces)")
    min_col = min(p["col"] for p in parsed)
    for p in starts:
        if p["col"] != min_col:
            raise _fail(src, f"space {p['label']!r}", "start spaces lie on the left edge")
    return parsed, labels


def _adjacency(data: dict[str, Any], src: str, parsed: list[dict[str, Any]],
               labels: dict[str, int]) -> list[list[int]]:
    """The ``adjacency`` lists, checked (symmetric, every space reachable from a start)."""
    adjacency = _get(data, "adjacency", dict, src, "top level")
    adj: list[list[int]] = [[] for _ in parsed]
    for label, nbrs in adjacency.items():
        if label not in labels:
            raise _fail(src, f"adjacency[{label!r}]", "no such space")
        if not isinstance(nbrs, list):
            raise _fail(src, f"adjacency[{label!r}]", "expected a list of labels")
        for n in nbrs:
            if n not in labels or n == label:
                raise _fail(src, f"adjacency[{label!r}]", f"bad neighbour {n!r}")
            adj[labels[label]].append(labels[n])
    for i, nb in enumerate(adj):
        for j in nb:
            if i not in adj[j]:
                raise _fail(src, f"adjacency[{parsed[i]['label']!r}]",
                            f"{parsed[j]['label']!r} is adjacent to it but not the other way")
    return adj


def _golden_and_temples(data: dict[str, Any], src: str, parsed: list[dict[str, Any]],
                        labels: dict[str, int]) -> tuple[str, int, int]:
    """The golden temple's label and minimum, and the count of temple symbols."""
    gold = _get(data, "golden_temple", dict, src, "top level")
    glabel: str = _get(gold, "space", str, src, "golden_temple")
    if glabel not in labels or parsed[labels[glabel]]["kind"] != GOLDEN:
        raise _fail(src, "golden_temple", f"space {glabel!r} is not a golden space")
    if sum(1 for p in parsed if p["kind"] == GOLDEN) != 1:
        raise _fail(src, "spaces", "exactly one golden temple")
    gmin: int = _get(gold, "minimum", int, src, "golden_temple")
    if gmin not in (3, 4):
        raise _fail(src, "golden_temple", f"the minimum is 3 or 4 (rulebook), got {gmin}")
    ts = _get(data, "temple_symbols", dict, src, "top level")
    count: int = _get(ts, "count", int, src, "temple_symbols")
    if _get(ts, "yellow", int, src, "temple_symbols") != 1:
        raise _fail(src, "temple_symbols", "exactly one of them is the yellow temple")
    temples = sum(1 for p in parsed if p["kind"] == TEMPLE)
    if not 2 <= count <= temples:
        raise _fail(src, "temple_symbols", f"count must be 2..{temples} (the temples on the"
                    f" route), got {count}")
    return glabel, gmin, count


def _check_reachable(src: str, parsed: list[dict[str, Any]], labels: dict[str, int],
                     adj: list[list[int]]) -> None:
    """Every space is reachable from a start."""
    seen = {labels[p["label"]] for p in parsed if p["start"]}
    todo = list(seen)
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != len(parsed):
        lost = sorted(parsed[i]["label"] for i in set(range(len(parsed))) - seen)
        raise _fail(src, "adjacency", f"spaces unreachable from the start: {', '.join(lost)}")


def _hire(entry: dict[str, Any], src: str, where: str, parsed: list[dict[str, Any]],
          labels: dict[str, int], adj: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What hiring a resource or helper takes: ``(cost kinds, settlements to visit)``."""
    if "visit" in entry:
        vis = _get(entry, "visit", list, src, where)
        if any(v not in labels or parsed[labels[v]]["kind"] != SETTLEMENT for v in vis):
            raise _fail(src, where, "'visit' lists settlement spaces")
        visit = tuple(labels[v] for v in vis)
        if len(visit) != 3 or not all(
            sum(1 for w in visit if w in adj[v]) >= 1 for v in visit
        ):
            raise _fail(src, where, "the ethnographer needs 3 adjacent settlements")
        return (), visit
    raw_cost = _get(entry, "cost", list, src, where)
    if not 1 <= len(raw_cost) <= 6:
        raise _fail(src, where, "a cost has 1..6 spaces")
    return tuple(_slot_kind(c, src, where) for c in raw_cost), ()


def _gift(entry: dict[str, Any], src: str, where: str) -> dict[str, Any]:
    """What a resource (not a helper) gives: exactly one of items, coins, zero, special."""
    given = [k2 for k2 in ("items", "coins", "zero_offering", "special") if k2 in entry]
    if len(given) != 1:
        raise _fail(src, where, "a resource gives exactly one of items, coins,"
                    " zero_offering, special")
    if "items" in entry:
        raw_items = _get(entry, "items", list, src, where)
        if (not 1 <= len(raw_items) <= 2 or any(x not in SYMBOLS for x in raw_items)
                or len(set(raw_items)) != 1):
            raise _fail(src, where, "items are 1 or 2 copies of one route symbol")
        return {"items": tuple(SYMBOLS.index(x) for x in raw_items)}
    if "coins" in entry:
        coins = _get(entry, "coins", int, src, where)
        if not 1 <= coins <= 6:
            raise _fail(src, where, "coins is 1..6")
        return {"coins": coins}
    if "zero_offering" in entry:
        if entry["zero_offering"] is not True:
            raise _fail(src, where, "zero_offering must be true")
        return {"zero": True}
    special = _get(entry, "special", str, src, where)
    if special not in SPECIALS:
        raise _fail(src, where, f"unknown special {special!r}")
    return {"special": special}


def _ability(entry: dict[str, Any], src: str, where: str, visit: tuple[int, ...]) -> str:
    """A helper's ability (the ethnographer, and only she, is hired by visits)."""
    ability: str = _get(entry, "ability", str, src, where)
    if ability not in ABILITIES:
        raise _fail(src, where, f"unknown ability {ability!r}")
    if (ability == "reroll_on_torch") != bool(visit):
        raise _fail(src, where, "the ethnographer (and only she) is hired by 'visit'")
    return ability


def _resources(data: dict[str, Any], src: str, parsed: list[dict[str, Any]],
               labels: dict[str, int], adj: list[list[int]]
               ) -> tuple[list[ResourceInfo], list[int], list[int]]:
    """The ``resources`` and ``helpers`` entries, checked, with their cost slots."""
    res_list: list[ResourceInfo] = []
    slot_owner: list[int] = []
    slot_kind: list[int] = []
    ids: set[str] = set()
    for group, helper in (("resources", False), ("helpers", True)):
        for k, entry in enumerate(_get(data, group, list, src, "top level")):
            where = f"{group}[{k}]"
            if not isinstance(entry, dict):
                raise _fail(src, where, "expected an object")
            rid = _get(entry, "id", str, src, where)
            where = f"{group[:-1]} {rid!r}"
            if not rid.replace("_", "").isalnum() or rid in ids:
                raise _fail(src, where, "ids are unique, letters and digits")
            ids.add(rid)
            name = _get(entry, "name", str, src, where)
            cost, visit = _hire(entry, src, where, parsed, labels, adj)
            gives = {"ability": _ability(entry, src, where, visit)} if helper else _gift(
                entry, src, where)
            index = len(res_list)
            slots = tuple(range(len(slot_kind), len(slot_kind) + len(cost)))
            slot_owner.extend([index] * len(cost))
            slot_kind.extend(cost)
            res_list.append(ResourceInfo(
                index=index, id=rid, name=name, helper=helper, cost=cost, slots=slots,
                visit=visit, source=str(entry.get("source", "")), **gives,
            ))
    if any(label in ids for label in labels):
        raise _fail(src, "resources", "a resource id equals a space label")
    return res_list, slot_owner, slot_kind


@cache
def load_sheet(number: int, path: str | None = None) -> Sheet:
    """Load and validate expedition sheet ``number`` (or the user's file at ``path``)."""
    data, src = _read(path, f"sheet{number}.json")
    if not isinstance(data, dict) or data.get("format") != "eldorado-sheet/1":
        raise _fail(src, "top level", "expected an object with format 'eldorado-sheet/1'")
    if _get(data, "map", int, src, "top level") != number:
        raise _fail(src, "map", f"the file is sheet {data['map']}, the config asks for {number}")
    title = _get(data, "title", str, src, "top level")
    parsed, labels = _spaces(data, src)
    adj = _adjacency(data, src, parsed, labels)
    glabel, gmin, count = _golden_and_temples(data, src, parsed, labels)
    _check_reachable(src, parsed, labels, adj)
    res_list, slot_owner, slot_kind = _resources(data, src, parsed, labels, adj)

    spaces = tuple(
        SpaceInfo(index=i, label=p["label"], col=p["col"], row=p["row"], kind=p["kind"],
                  symbol=p["symbol"], fee=p["fee"], start=p["start"], reward=p["reward"],
                  adjacent=tuple(sorted(adj[i])))
        for i, p in enumerate(parsed)
    )

    def mask(pred: Any) -> int:
        return sum(1 << s.index for s in spaces if pred(s))

    return Sheet(
        number=number, title=title, spaces=spaces, golden=labels[glabel], golden_minimum=gmin,
        temple_symbols=count, resources=tuple(res_list), slot_owner=tuple(slot_owner),
        slot_kind=tuple(slot_kind), source_file=src, by_label=dict(labels),
        res_by_id={r.id: r.index for r in res_list},
        adj_mask=tuple(sum(1 << j for j in s.adjacent) for s in spaces),
        start_mask=mask(lambda s: s.start),
        path_mask=mask(lambda s: s.kind == PATH),
        temple_mask=mask(lambda s: s.kind == TEMPLE),
        settlement_mask=mask(lambda s: s.kind == SETTLEMENT),
        symbol_mask=tuple(mask(lambda s, f=f: s.kind == PATH and s.symbol == f) for f in range(6)),
    )

"""Chinagold's board: the 91 prospecting spots, their names, the lines, and the layouts.

The spots form a hexagon with 6 spots a side (``motherlode.core.hex.hexagon(5)``), numbered
0..90 in reading order (row by row from the top, left to right).

Spot names follow the Abalone convention for hex boards: a row letter ``a`` (top) .. ``k``
(bottom) for the axial ``r`` coordinate, and a diagonal number ``1`` .. ``11`` for ``q``
(``number = q + 6``). So the row ``a`` holds ``a6`` .. ``a11``, the middle row ``f`` holds
``f1`` .. ``f11``, and the bottom row ``k`` holds ``k1`` .. ``k6``. A straight line of the
board keeps its letter (along a row), its number (the "number" diagonal), or the sum
``letter index + number`` (the other diagonal).

>>> spot_name(0), spot_name(45), spot_name(90)
('a6', 'f6', 'k6')
>>> parse_spot("F6") == 45
True
>>> len(BOARD.windows[5])  # ways to lay 5 markers in a line on an empty board
141

A layout gives each spot a mountain and a river. :func:`load_layout` reads one from JSON
(a :class:`LayoutFile`, through ``motherlode.core.data``) and checks it (each spot in
exactly one mountain and one river, 17 regions of each, every region connected with 3 to 8
spots), raising :class:`ConfigError` naming the file, the entry and the problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import Field, field_validator

from motherlode.core.data import DataModel, parse_model
from motherlode.core.errors import ConfigError
from motherlode.core.hex import AXES, Hex, add, hexagon, neighbours, reflect, rotate60, scale

Spot = int
"""A prospecting spot, 0..90 in reading order."""

Mask = int
"""A set of spots as a bit mask (bit ``i`` = spot ``i``)."""

RADIUS = 5
NUM_SPOTS = 91
NUM_REGIONS = 17
MIN_REGION, MAX_REGION = 3, 8
MAX_RUN = 5
ROW_LETTERS = "abcdefghijk"
AXIS_NAMES = ("row", "rising diagonal", "falling diagonal")

CELLS: tuple[Hex, ...] = tuple(hexagon(RADIUS))
INDEX: dict[Hex, Spot] = {h: i for i, h in enumerate(CELLS)}
CELLSET = frozenset(CELLS)
ALL_SPOTS: Mask = (1 << NUM_SPOTS) - 1


def spot_name(spot: Spot) -> str:
    """The name of ``spot``, e.g. ``"f6"`` for the centre."""
    q, r = CELLS[spot]
    return f"{ROW_LETTERS[r + RADIUS]}{q + RADIUS + 1}"


SPOT_NAMES: tuple[str, ...] = tuple(spot_name(i) for i in range(NUM_SPOTS))
_BY_NAME: dict[str, Spot] = {name: i for i, name in enumerate(SPOT_NAMES)}


def parse_spot(text: str) -> Spot:
    """The spot named ``text`` (case-insensitive); ``KeyError`` naming it if there is none."""
    key = text.strip().lower()
    if key not in _BY_NAME:
        raise KeyError(f"no spot {text!r} (spots are a6..a11, b5..b11, ..., f1..f11, ..., k1..k6)")
    return _BY_NAME[key]


def mask_of(spots: Sequence[Spot]) -> Mask:
    m = 0
    for s in spots:
        m |= 1 << s
    return m


def spots_of(mask: Mask) -> list[Spot]:
    """The spots of ``mask`` in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Window:
    """A straight run of ``length`` adjacent spots: one turning action."""

    id: int
    start: Spot
    axis: int
    length: int
    spots: tuple[Spot, ...]
    mask: Mask


class Board:
    """The fixed geometry: every straight window of 1..5 spots, with its action id.

    Action ids of turnings: the 91 single spots first (id = spot), then, for each length
    2..5, each axis and each start spot in reading order, the windows that fit the board.
    """

    def __init__(self) -> None:
        windows: dict[int, list[Window]] = {1: []}
        all_windows: list[Window] = []
        for s in range(NUM_SPOTS):
            w = Window(s, s, 0, 1, (s,), 1 << s)
            windows[1].append(w)
            all_windows.append(w)
        for length in range(2, MAX_RUN + 1):
            windows[length] = []
            for axis, d in enumerate(AXES):
                for s, h in enumerate(CELLS):
                    cells = [add(h, scale(d, i)) for i in range(length)]
                    if all(c in CELLSET for c in cells):
                        spots = tuple(INDEX[c] for c in cells)
                        w = Window(len(all_windows), s, axis, length, spots, mask_of(spots))
                        windows[length].append(w)
                        all_windows.append(w)
        self.windows = windows
        self.all_windows: tuple[Window, ...] = tuple(all_windows)
        self.by_spots: dict[frozenset[Spot], Window] = {frozenset(w.spots): w for w in all_windows}
        # (id, mask) pairs per length, the hot loop of legal-move generation
        self.window_masks: dict[int, tuple[tuple[int, Mask], ...]] = {
            k: tuple((w.id, w.mask) for w in ws) for k, ws in windows.items()
        }
        self.neighbour_masks: tuple[Mask, ...] = tuple(
            mask_of([INDEX[n] for n in neighbours(h) if n in CELLSET]) for h in CELLS
        )

    @property
    def num_turnings(self) -> int:
        return len(self.all_windows)


BOARD = Board()


WindowMasks = dict[int, tuple[tuple[int, Mask], ...]]
"""``(action id, mask)`` of the windows of each length 1..5."""


def windows_within(spots: Mask) -> WindowMasks:
    """:attr:`Board.window_masks` cut to the windows lying wholly on ``spots`` (in the
    same order): a region subset's legal moves and counts need look at no other.

    >>> [len(windows_within(mask_of([parse_spot(n) for n in ("f1", "f2", "f3")]))[k])
    ...  for k in (1, 2, 3, 4)]
    [3, 2, 1, 0]
    """
    if spots == ALL_SPOTS:
        return BOARD.window_masks
    return {
        k: tuple((a, m) for a, m in ws if m & spots == m) for k, ws in BOARD.window_masks.items()
    }


def count_ways(
    facedown: Mask, length: int, stop_at: int = 2, masks: WindowMasks | None = None
) -> int:
    """Ways to turn ``length`` face-down markers in a line, counted up to ``stop_at``
    (over ``masks``, default every window of the board).

    >>> row = mask_of([parse_spot(n) for n in ("f1", "f2", "f3", "f4", "f5")])
    >>> count_ways(row, 4, stop_at=99), count_ways(row, 3, stop_at=99)
    (2, 3)
    """
    n = 0
    for _, m in (BOARD.window_masks if masks is None else masks)[length]:
        if facedown & m == m:
            n += 1
            if n >= stop_at:
                break
    return n


# -- layouts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Mountains and rivers: each a tuple of 17 regions (sorted spot tuples)."""

    name: str
    mountains: tuple[tuple[Spot, ...], ...]
    rivers: tuple[tuple[Spot, ...], ...]

    def mountain_of(self) -> tuple[int, ...]:
        return _region_index(self.mountains)

    def river_of(self) -> tuple[int, ...]:
        return _region_index(self.rivers)


def _region_index(regions: Sequence[Sequence[Spot]]) -> tuple[int, ...]:
    out = [0] * NUM_SPOTS
    for i, reg in enumerate(regions):
        for s in reg:
            out[s] = i
    return tuple(out)


DEFAULT_LAYOUT = "layout.json"
ROW_LENGTHS = tuple(sum(1 for h in CELLS if h[1] == r) for r in range(-RADIUS, RADIUS + 1))


class LayoutFile(DataModel):
    """A layout file (``data/layout.json`` is the packaged one): each region map is 11
    row strings ``a``..``k``, one letter per spot naming its region (spaces ignored).
    Without ``rivers`` the rivers are the mirror image of the mountains (the rulebook's)."""

    format: str = ""
    name: str | None = None
    source: str = Field(description="where the regions come from: 'designed', 'printed board'")
    notes: str = ""
    sources: dict[str, str] = Field(default_factory=dict)
    mountains: list[str]
    rivers: list[str] | None = None

    @field_validator("mountains", "rivers")
    @classmethod
    def _rows(cls, rows: list[str] | None) -> list[str] | None:
        if rows is None:
            return None
        rows = ["".join(x.split()) for x in rows]
        if len(rows) != len(ROW_LENGTHS):
            raise ValueError(f"must have 11 rows (a..k), got {len(rows)}")
        for i, (row, want) in enumerate(zip(rows, ROW_LENGTHS, strict=True)):
            if len(row) != want:
                raise ValueError(
                    f"row {ROW_LETTERS[i]} must have {want} spots, got {len(row)} ({row!r})"
                )
        return rows


def _regions(rows: Sequence[str]) -> list[tuple[Spot, ...]]:
    """Regions from 11 row strings of region letters (of the right lengths)."""
    labels: dict[str, list[Spot]] = {}
    spot = 0
    for row in rows:
        for ch in row:
            labels.setdefault(ch, []).append(spot)
            spot += 1
    return [tuple(labels[k]) for k in sorted(labels)]


def check_regions(regions: Sequence[Sequence[Spot]], where: str) -> None:
    """Every spot in exactly one region; 17 connected regions of 3..8 spots."""
    seen: dict[Spot, int] = {}
    for i, reg in enumerate(regions):
        for s in reg:
            if s in seen:
                raise ConfigError(
                    f"{where}: spot {SPOT_NAMES[s]} is in two regions ({seen[s] + 1} and {i + 1})"
                )
            seen[s] = i
    missing = [SPOT_NAMES[s] for s in range(NUM_SPOTS) if s not in seen]
    if missing:
        raise ConfigError(f"{where}: spots in no region: {', '.join(missing)}")
    if len(regions) != NUM_REGIONS:
        raise ConfigError(f"{where}: must have {NUM_REGIONS} regions, got {len(regions)}")
    for i, reg in enumerate(regions):
        names = " ".join(SPOT_NAMES[s] for s in reg)
        if not MIN_REGION <= len(reg) <= MAX_REGION:
            raise ConfigError(
                f"{where}: region {i + 1} ({names}) has {len(reg)} spots; each must have"
                f" {MIN_REGION} to {MAX_REGION}"
            )
        if not _connected(reg):
            raise ConfigError(f"{where}: region {i + 1} ({names}) is not connected")


def _connected(region: Sequence[Spot]) -> bool:
    want = mask_of(region)
    seen = 1 << region[0]
    frontier = seen
    while frontier:
        grow = 0
        for s in spots_of(frontier):
            grow |= BOARD.neighbour_masks[s]
        frontier = grow & want & ~seen
        seen |= frontier
    return seen == want


def mirror_regions(
    regions: Sequence[Sequence[Spot]], rotation: int
) -> tuple[tuple[Spot, ...], ...]:
    """The rulebook's rivers: the mirror image of ``regions``, turned by ``rotation`` x 60°.

    Rotation 0 mirrors across the axis through the centre spot f6 at 30° to the rows
    (``reflect``: d10, e8, f6, g4 and h2 stay in place; the axis meets the board's edge at
    the middles of two opposite sides); the other five model the transparent river disc
    laid on in its other orientations (each is again a mirror image, across another axis).
    """
    out = []
    for reg in regions:
        img = sorted(INDEX[rotate60(reflect(CELLS[s]), rotation)] for s in reg)
        out.append(tuple(img))
    return tuple(sorted(out))


def load_layout(path: str | None, river_rotation: int) -> Layout:
    """Read and check a layout file (``None``: the packaged designed layout)."""
    if path is None:
        where = f"chinagold data/{DEFAULT_LAYOUT}"
        text = resources.files(__package__).joinpath("data", DEFAULT_LAYOUT).read_text("utf-8")
    else:
        where = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"cannot read chinagold layout {where!r}: {err.strerror}") from None
    return parse_layout(text, where, river_rotation)


def parse_layout(text: str, where: str, river_rotation: int) -> Layout:
    """Parse layout JSON text (see :class:`LayoutFile`) and check its regions; a problem
    raises :class:`ConfigError` as "file: entry: problem"."""
    data = parse_model(LayoutFile, text, where)
    mountains = _regions(data.mountains)
    check_regions(mountains, f"{where}: mountains")
    if data.rivers is not None:
        rivers = tuple(
            tuple(sorted(INDEX[rotate60(CELLS[s], river_rotation)] for s in reg))
            for reg in _regions(data.rivers)
        )
    else:
        rivers = mirror_regions(mountains, river_rotation)
    check_regions(rivers, f"{where}: rivers (river_rotation={river_rotation})")
    name = data.name if data.name is not None else where
    return Layout(name, tuple(sorted(mountains)), tuple(sorted(rivers)))

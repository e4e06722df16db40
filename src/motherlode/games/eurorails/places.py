"""Names of places: every Eurorails milepost gets a name a player can read on the map.

- A city's milepost is named by its city (``Lyon``). A major city's centre is the city's
  name (``Paris``); its six outposts add the lattice direction from the centre
  (:data:`~.board.DIR_NAMES`): ``Paris-E``, ``Paris-NE``, ``Paris-NW``, ``Paris-W``,
  ``Paris-SW``, ``Paris-SE``.
- Every other milepost is a square like a chess board's: a **file** in letters and a
  **rank** in numbers (``K17``), printed along the map's edges.

The grid. Mileposts sit on the axial ``(q, r)`` lattice of ``map.json`` (``r`` grows
northwards, each row is shifted half a spacing east of the one below it: a milepost's
map position is ``x = q + r / 2``). The file is the offset column
``c = q + floor((r - r_min) / 2)``, so a file reads straight down a column of the drawn
map (zig-zagging by half a spacing between rows); files are lettered from the westmost
column like spreadsheet columns, ``A`` .. ``Z``, ``AA`` .. ``AZ``, ``BA`` ...
The rank counts rows from the north: ``rank = r_max - r + 1`` (rank 1 is the northmost
row). Files and ranks depend on the map only, so one map always has the same names.

Reading a name back (:func:`milepost_index`) ignores case and accents (``munchen-e`` is
``München-E``) and accepts the legacy plain milepost number (``1303``).

>>> from motherlode.games.eurorails.board import load_board
>>> b = load_board()
>>> milepost_name(b, b.city_centre[b.city_index("Paris")])
'Paris'
>>> milepost_index(b, "paris-ne") == b.nb[b.city_centre[b.city_index("Paris")] * 6 + 1]
True
>>> milepost_name(b, milepost_index(b, "ad46"))  # next to Lyon, north-west
'AD46'
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

from motherlode.core.errors import NotationError
from motherlode.games.eurorails.board import CENTRE, DIR_NAMES, DIRS, Board

_SQUARE = re.compile(r"^([a-z]+)(\d+)$")


@dataclass(frozen=True)
class Label:
    """A coordinate label and where to print it, in the map's km (``Board.xy``, y north).

    A file label's ``x`` is its column's middle and ``y`` is one spacing north of the
    northmost milepost; a rank label's ``y`` is its row and ``x`` one spacing west of the
    westmost milepost. Print a file label again at the south edge (``y_south``) and a
    rank label at the east edge (``x_east``) as wished.
    """

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class _Places:
    names: tuple[str, ...]
    index: dict[str, int]  # folded name -> milepost
    file_of: tuple[int, ...]  # 0-based file per milepost
    rank_of: tuple[int, ...]  # 1-based rank per milepost
    files: tuple[Label, ...]
    ranks: tuple[Label, ...]
    x_east: float
    y_south: float
    at: dict[tuple[int, int], int] = field(default_factory=dict)  # (file, rank) -> milepost


_CACHE: dict[int, tuple[Board, _Places]] = {}


def file_letters(i: int) -> str:
    """The letters of the 0-based file ``i``: spreadsheet columns.

    >>> [file_letters(i) for i in (0, 10, 25, 26, 27, 52)]
    ['A', 'K', 'Z', 'AA', 'AB', 'BA']
    """
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def _file_number(letters: str) -> int:
    """The 0-based file of ``letters`` (inverse of :func:`file_letters`)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - ord("A") + 1
    return n - 1


def fold(text: str) -> str:
    """``text`` lower-cased, accents dropped, spaces squeezed: the key names are read by.

    >>> fold("  MÜNCHEN-e "), fold("Århus")
    ('munchen-e', 'arhus')
    """
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    return " ".join(t.split()).lower()


def _city_name(b: Board, m: int) -> str:
    c = b.city_of[m]
    centre = b.city_centre[c]
    name = b.city_names[c]
    if m == centre or b.city_size[c] != CENTRE:
        return name
    d = DIRS.index((b.q[m] - b.q[centre], b.r[m] - b.r[centre]))
    return f"{name}-{DIR_NAMES[d]}"


def _build(b: Board) -> _Places:
    r_min, r_max = min(b.r), max(b.r)
    cols = [q + (r - r_min) // 2 for q, r in zip(b.q, b.r, strict=True)]
    c_min = min(cols)
    file_of = tuple(c - c_min for c in cols)
    rank_of = tuple(r_max - r + 1 for r in b.r)
    names = tuple(
        _city_name(b, m) if b.city_of[m] >= 0 else f"{file_letters(file_of[m])}{rank_of[m]}"
        for m in range(b.n)
    )
    index = {fold(x): m for m, x in enumerate(names)}
    if len(index) != b.n:
        raise AssertionError("eurorails: two mileposts share a name")  # a map bug
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    spacing = b.content.map.spacing_km
    # a file's column has x = c + r_min / 2 on even rows, half a spacing more on odd ones
    files = tuple(
        Label(file_letters(f), spacing * (f + c_min + r_min / 2 + 0.25), max(ys) + spacing)
        for f in range(max(file_of) + 1)
    )
    row_y = {rank_of[m]: b.xy[m][1] for m in range(b.n)}  # every row has mileposts
    ranks = tuple(Label(str(k), min(xs) - spacing, row_y[k]) for k in range(1, max(rank_of) + 1))
    at = {(file_of[m], rank_of[m]): m for m in range(b.n)}
    if len(at) != b.n:
        raise AssertionError("eurorails: two mileposts share a square")  # a map bug
    return _Places(
        names, index, file_of, rank_of, files, ranks, max(xs) + spacing, min(ys) - spacing, at
    )


def places(b: Board) -> _Places:
    """The name tables of ``b`` (built once per board)."""
    hit = _CACHE.get(id(b))
    if hit is None or hit[0] is not b:
        hit = (b, _build(b))
        _CACHE[id(b)] = hit
    return hit[1]


def milepost_name(b: Board, m: int) -> str:
    """The readable name of milepost ``m``: a city, a major city's outpost, or a square."""
    return places(b).names[m]


def square(b: Board, m: int) -> tuple[int, int]:
    """Milepost ``m``'s ``(file, rank)``: file 0-based (``A`` is 0), rank 1-based."""
    p = places(b)
    return p.file_of[m], p.rank_of[m]


def squares(b: Board) -> dict[tuple[int, int], int]:
    """Every milepost by its ``(file, rank)`` (:func:`square`'s inverse)."""
    return places(b).at


def square_name(b: Board, m: int) -> str:
    """The file-and-rank square of ``m`` even where a city names it (``K17``)."""
    p = places(b)
    return f"{file_letters(p.file_of[m])}{p.rank_of[m]}"


def milepost_index(b: Board, text: str) -> int:
    """The milepost named ``text`` (a city, ``Paris-NE``, a square ``K17``, or a number).

    A name that matches none raises :class:`NotationError` naming it with the closest
    names:

    >>> from motherlode.games.eurorails.board import load_board
    >>> milepost_index(load_board(), "Lyonn")
    Traceback (most recent call last):
    ...
    motherlode.core.errors.NotationError: eurorails: no place called 'Lyonn' (did you mean Lyon?)
    """
    p = places(b)
    key = fold(text)
    if key in p.index:
        return p.index[key]
    if key.isdigit():
        if int(key) < b.n:
            return int(key)
        raise NotationError(f"eurorails: no milepost {key} (the map has 0 to {b.n - 1})")
    mt = _SQUARE.match(key)
    if mt:
        f, rank = _file_number(mt.group(1)), int(mt.group(2))
        if f < len(p.files) and 1 <= rank <= len(p.ranks):
            raise NotationError(
                f"eurorails: there is no milepost at {text.strip().upper()} "
                "(off the map, in the sea or a lake)"
            )
    close = _closest(key, list(p.index))
    hint = f" (did you mean {', '.join(p.names[p.index[c]] for c in close)}?)" if close else ""
    raise NotationError(f"eurorails: no place called {text.strip()!r}{hint}")


def _closest(key: str, keys: list[str]) -> list[str]:
    """Up to three of ``keys`` nearest ``key``, only those about as near as the nearest."""
    scored = [(difflib.SequenceMatcher(None, key, k).ratio(), k) for k in keys]
    best = max((s for s, _ in scored), default=0.0)
    near = sorted((-s, k) for s, k in scored if s >= max(0.6, best - 0.1))
    return [k for _, k in near[:3]]


def file_labels(b: Board) -> tuple[Label, ...]:
    """Each file's letters and where to print them (north edge; see :class:`Label`)."""
    return places(b).files


def rank_labels(b: Board) -> tuple[Label, ...]:
    """Each rank's number and where to print it (west edge; see :class:`Label`)."""
    return places(b).ranks


def label_edges(b: Board) -> tuple[float, float]:
    """``(x_east, y_south)``: where the east ranks and south files go, in map km."""
    p = places(b)
    return p.x_east, p.y_south

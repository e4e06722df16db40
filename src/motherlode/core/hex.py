"""Hex-grid geometry in axial coordinates ``(q, r)`` (cube ``s = -q - r``).

Shared by the games played on hexes (Chinagold, Eureka). Conventions follow Red Blob
Games' guide: the six directions below, distance as cube distance, and "pointy-top"
pixel layout (rows of hexes offset by half a hex).

>>> hex_distance((0, 0), (2, -1))
2
>>> len(hexagon(5))  # Chinagold's board: side 6, radius 5
91
>>> sorted(neighbours((0, 0)))[:2]
[(-1, 0), (-1, 1)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

Hex = tuple[int, int]
"""Axial coordinates ``(q, r)``."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbour offsets, counter-clockwise from "east" (pointy-top layout)."""

AXES: tuple[Hex, ...] = DIRECTIONS[:3]
"""The three line directions of the grid (each with its opposite gives a full line)."""


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def scale(a: Hex, k: int) -> Hex:
    return (a[0] * k, a[1] * k)


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def hexagon(radius: int, centre: Hex = (0, 0)) -> list[Hex]:
    """All hexes within ``radius`` of ``centre``, sorted by ``(r, q)`` (reading order)."""
    cells = []
    for r in range(-radius, radius + 1):
        for q in range(max(-radius, -r - radius), min(radius, -r + radius) + 1):
            cells.append((centre[0] + q, centre[1] + r))
    cells.sort(key=lambda h: (h[1], h[0]))
    return cells


def ray(start: Hex, direction: Hex, cells: set[Hex] | frozenset[Hex]) -> Iterator[Hex]:
    """Hexes from ``start`` (exclusive) stepping in ``direction`` while inside ``cells``."""
    h = add(start, direction)
    while h in cells:
        yield h
        h = add(h, direction)


def lines(cells: Iterable[Hex]) -> list[list[Hex]]:
    """Every maximal straight line of the region along the three axes (in order)."""
    cellset = set(cells)
    out = []
    for d in AXES:
        back = (-d[0], -d[1])
        for h in sorted(cellset, key=lambda x: (x[1], x[0])):
            if add(h, back) in cellset:
                continue  # not the start of a line
            line = [h, *ray(h, d, cellset)]
            out.append(line)
    return out


def rotate60(h: Hex, times: int = 1) -> Hex:
    """Rotate ``h`` about the origin by ``times`` x 60 degrees counter-clockwise."""
    q, r = h
    s = -q - r
    for _ in range(times % 6):
        q, r, s = -r, -s, -q
    return (q, r)


def reflect(h: Hex) -> Hex:
    """Mirror ``h`` across the q axis (swap r and s)."""
    q, r = h
    return (q, -q - r)


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius ``size`` (origin at hex (0, 0))."""
    q, r = h
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def corners(centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex."""
    cx, cy = centre
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]

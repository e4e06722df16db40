"""Geometry for the Eurorails map: the equal-area projection, the milepost lattice, shapes.

The map lives in EPSG:3035 (ETRS89 Lambert azimuthal equal-area, centred on 52°N 10°E),
measured in kilometres from that centre (the false easting and northing removed). The
projection is written out here (Snyder, *Map Projections: A Working Manual*, §24) so that
the game needs no geodata library at run time; ``tests/eurorails`` checks it against
``pyproj`` where that is installed, and against EPSG's own worked example:

>>> x, y = forward(5.0, 50.0)            # EPSG Guidance Note 7-2, LAEA example
>>> round(x * 1000 + 4321000, 2), round(y * 1000 + 3210000, 2)
(3962799.45, 2999718.85)
>>> lon, lat = inverse(x, y)
>>> round(lon, 7), round(lat, 7)
(5.0, 50.0)

Mileposts sit on a triangular lattice with axial coordinates ``(q, r)``:
``x = s·(q + r/2)``, ``y = s·(√3/2)·r`` for spacing ``s`` (43 km, the rulebook's scale).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]
"""A projected point ``(x, y)`` in kilometres (y grows northwards)."""

FloatArray = NDArray[np.float64]

# GRS80 ellipsoid and the EPSG:3035 origin.
_A = 6378137.0
_F = 1 / 298.257222101
_E2 = 2 * _F - _F * _F
_E = math.sqrt(_E2)
_LAT0 = math.radians(52.0)
_LON0 = math.radians(10.0)


def _q(sin_phi: FloatArray | float) -> FloatArray | float:
    s = sin_phi
    return (1 - _E2) * (s / (1 - _E2 * s * s) - np.log((1 - _E * s) / (1 + _E * s)) / (2 * _E))


_QP = float(_q(1.0))
_RQ = _A * math.sqrt(_QP / 2)
_BETA0 = math.asin(float(_q(math.sin(_LAT0))) / _QP)
_D = _A * math.cos(_LAT0) / (math.sqrt(1 - _E2 * math.sin(_LAT0) ** 2) * _RQ * math.cos(_BETA0))
_SB0, _CB0 = math.sin(_BETA0), math.cos(_BETA0)


def forward_array(lon: FloatArray, lat: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Project arrays of degrees to EPSG:3035 kilometres from the projection centre."""
    phi = np.radians(lat)
    dlam = np.radians(lon) - _LON0
    beta = np.arcsin(np.asarray(_q(np.sin(phi))) / _QP)
    sb, cb = np.sin(beta), np.cos(beta)
    b = _RQ * np.sqrt(2 / (1 + _SB0 * sb + _CB0 * cb * np.cos(dlam)))
    x = b * _D * cb * np.sin(dlam)
    y = (b / _D) * (_CB0 * sb - _SB0 * cb * np.cos(dlam))
    return x / 1000.0, y / 1000.0


def inverse_array(x_km: FloatArray, y_km: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Invert :func:`forward_array`: kilometres to ``(lon, lat)`` degrees."""
    x = np.asarray(x_km, dtype=np.float64) * 1000.0
    y = np.asarray(y_km, dtype=np.float64) * 1000.0
    rho = np.hypot(x / _D, _D * y)
    rho_safe = np.where(rho == 0, 1.0, rho)
    ce = 2 * np.arcsin(rho / (2 * _RQ))
    sce, cce = np.sin(ce), np.cos(ce)
    ratio = np.where(rho == 0, _SB0, cce * _SB0 + _D * y * sce * _CB0 / rho_safe)
    beta = np.arcsin(np.clip(ratio, -1.0, 1.0))
    lam = _LON0 + np.arctan2(x * sce, _D * rho_safe * _CB0 * cce - _D * _D * y * _SB0 * sce)
    e2, e4, e6 = _E2, _E2**2, _E2**3
    phi = (
        beta
        + (e2 / 3 + 31 * e4 / 180 + 517 * e6 / 5040) * np.sin(2 * beta)
        + (23 * e4 / 360 + 251 * e6 / 3780) * np.sin(4 * beta)
        + (761 * e6 / 45360) * np.sin(6 * beta)
    )
    return np.degrees(lam), np.degrees(phi)


def forward(lon: float, lat: float) -> Point:
    """Project one point (degrees) to kilometres."""
    x, y = forward_array(np.array([lon], dtype=np.float64), np.array([lat], dtype=np.float64))
    return float(x[0]), float(y[0])


def inverse(x: float, y: float) -> tuple[float, float]:
    """``(lon, lat)`` in degrees of one projected point."""
    lon, lat = inverse_array(np.array([x], dtype=np.float64), np.array([y], dtype=np.float64))
    return float(lon[0]), float(lat[0])


def great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in km between two ``(lon, lat)`` points (mean radius 6371 km)."""
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


# -- the lattice ---------------------------------------------------------------------

SQRT3_2 = math.sqrt(3) / 2

LATTICE_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
)
"""The six neighbour offsets in axial ``(q, r)``: E, NE, NW, W, SW, SE (y grows north)."""


def lattice_xy(q: int, r: int, spacing: float) -> Point:
    """The projected position of lattice point ``(q, r)``."""
    return (spacing * (q + r / 2), spacing * SQRT3_2 * r)


def nearest_lattice(p: Point, spacing: float) -> tuple[int, int]:
    """The lattice point nearest to ``p``."""
    r0 = p[1] / (spacing * SQRT3_2)
    best: tuple[float, int, int] | None = None
    for r in (math.floor(r0), math.ceil(r0)):
        q0 = p[0] / spacing - r / 2
        for q in (math.floor(q0), math.ceil(q0)):
            x, y = lattice_xy(q, r, spacing)
            d = (x - p[0]) ** 2 + (y - p[1]) ** 2
            if best is None or (d, r, q) < best:
                best = (d, r, q)
    assert best is not None
    return best[2], best[1]


def lattice_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two lattice points on the full lattice (ignoring land)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# -- shapes ---------------------------------------------------------------------------


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule: is ``p`` inside the closed polygon ``poly``?"""
    x, y = p
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do the closed segments ``ab`` and ``cd`` properly intersect?"""

    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 != 0 and d3 * d4 != 0


def distance_to_polyline(p: Point, line: Sequence[Point]) -> float:
    """Shortest distance from ``p`` to a polyline."""
    best = math.inf
    for a, b in pairwise(line):
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        length2 = dx * dx + dy * dy
        t = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
        )
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best

"""The projection and lattice geometry (rulebook: Board and Map, "mileposts are
approximately 43 kilometers apart")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.games.eurorails import geo


def test_board_and_map_epsg_worked_example() -> None:
    # EPSG Guidance Note 7-2, Lambert Azimuthal Equal Area: 50N 5E.
    x, y = geo.forward(5.0, 50.0)
    assert x * 1000 + 4321000 == pytest.approx(3962799.45, abs=0.01)
    assert y * 1000 + 3210000 == pytest.approx(2999718.85, abs=0.01)


def test_board_and_map_projection_matches_pyproj() -> None:
    pyproj = pytest.importorskip("pyproj")
    t = pyproj.Transformer.from_crs("EPSG:4326", "EPSG:3035", always_xy=True)
    for lon, lat in [(-9.1, 38.7), (10.0, 52.0), (18.07, 59.33), (14.27, 40.85)]:
        e, n = t.transform(lon, lat)
        x, y = geo.forward(lon, lat)
        assert x * 1000 + 4321000 == pytest.approx(e, abs=0.01)
        assert y * 1000 + 3210000 == pytest.approx(n, abs=0.01)


@settings(max_examples=200, deadline=None)
@given(st.floats(-12, 25), st.floats(35, 62))
def test_board_and_map_projection_round_trips(lon: float, lat: float) -> None:
    x, y = geo.forward(lon, lat)
    lon2, lat2 = geo.inverse(x, y)
    assert lon2 == pytest.approx(lon, abs=1e-7)
    assert lat2 == pytest.approx(lat, abs=1e-7)


def test_board_and_map_projection_is_equal_area() -> None:
    # A 1-degree cell's projected area equals its area on the GRS80 ellipsoid, near the
    # centre and far from it (a conformal projection would inflate the far one).
    def area(lon: float, lat: float) -> float:
        n = 60
        lons = np.concatenate(
            [
                np.linspace(lon, lon + 1, n),
                np.full(n, lon + 1),
                np.linspace(lon + 1, lon, n),
                np.full(n, lon),
            ]
        )
        lats = np.concatenate(
            [
                np.full(n, lat),
                np.linspace(lat, lat + 1, n),
                np.full(n, lat + 1),
                np.linspace(lat + 1, lat, n),
            ]
        )
        x, y = geo.forward_array(lons, lats)
        return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))

    def ellipsoid(lat: float) -> float:
        # area of a 1-degree cell on GRS80: a^2/2 * dlon * (q(lat+1) - q(lat)) (Snyder 3-12)
        a = 6378.137
        q1 = float(geo._q(math.sin(math.radians(lat + 1))))
        q0 = float(geo._q(math.sin(math.radians(lat))))
        return a * a / 2 * math.radians(1) * (q1 - q0)

    for lon, lat in [(-9.0, 37.0), (20.0, 58.0)]:
        assert area(lon, lat) == pytest.approx(ellipsoid(lat), rel=1e-4)


@settings(max_examples=200, deadline=None)
@given(st.floats(-2000, 2000), st.floats(-2000, 2000))
def test_board_and_map_nearest_lattice_point(x: float, y: float) -> None:
    s = 43.0
    q, r = geo.nearest_lattice((x, y), s)
    px, py = geo.lattice_xy(q, r, s)
    d = math.hypot(px - x, py - y)
    assert d <= s / math.sqrt(3) + 1e-9
    for dq, dr in geo.LATTICE_DIRECTIONS:
        nx, ny = geo.lattice_xy(q + dq, r + dr, s)
        assert math.hypot(nx - x, ny - y) >= d - 1e-9


def test_board_and_map_lattice_neighbours_are_43_km_apart() -> None:
    for dq, dr in geo.LATTICE_DIRECTIONS:
        x, y = geo.lattice_xy(dq, dr, 43.0)
        assert math.hypot(x, y) == pytest.approx(43.0)
        assert geo.lattice_distance((0, 0), (dq, dr)) == 1


def test_segments_cross_and_polygon() -> None:
    assert geo.segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    assert not geo.segments_cross((0, 0), (1, 1), (2, 0), (3, 1))
    square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]
    assert geo.point_in_polygon((2, 2), square)
    assert not geo.point_in_polygon((5, 2), square)
    assert geo.distance_to_polyline((2, 3), [(0, 0), (4, 0)]) == pytest.approx(3)

"""Build ``data/map.json`` (and ``data/land.json``) from real geography.

Run ``python -m motherlode.games.eurorails.mapbuild`` (needs the ``mapbuild`` extra for
``global-land-mask``); ``--check`` rebuilds in memory and fails if the committed files
differ. The build is deterministic: the same inputs give byte-identical files.

Inputs: ``data/geo.json`` (cities, ports, mountains, rivers, lakes, inlets, seas, the
board's outline: hand-transcribed real geography) and ``data/loads.json`` (the goods).

Steps (each documented in ``docs/rules/eurorails.md``):

1. Lattice points 43 km apart (EPSG:3035, equal-area) inside the board outline whose
   position is land on the 1 km GLOBE mask become candidate mileposts.
2. Major cities take a centre and its six neighbours (forced to be mileposts), then the
   other cities, the ferry ports and the Chunnel ends each take the nearest free one.
3. Every pair of lattice neighbours is sampled every ~2 km: an all-land segment is an
   edge (crossing a river if it cuts one of the river lines); a short stretch of water
   (at most ``max_inlet_water_km``) is a lake or inlet crossing; longer water is open sea.
4. Only the pieces of land connected (by track, ferry or the Chunnel) to a city stay.
5. Terrain from the mountain polygons; the 36 Alps mileposts nearest the main ridge are
   alpine. Each milepost's distance to each sea's coast by breadth-first search.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from motherlode.games.eurorails import geo
from motherlode.games.eurorails.geo import LATTICE_DIRECTIONS, Point

DATA = Path(__file__).parent / "data"
MAP_FORMAT = "motherlode-eurorails-map/1"
LAND_FORMAT = "motherlode-eurorails-land/1"
SAMPLES = 21
"""Interior sample points per lattice edge (about one every 2 km)."""
LAND_CELL_KM = 6.0
"""Resolution of the land raster kept for drawing the coastline."""

Lattice = tuple[int, int]


def _is_land(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    globe = importlib.import_module("global_land_mask.globe")  # the mapbuild extra
    return np.asarray(globe.is_land(lat, lon), dtype=bool)


def _project_all(points: Sequence[Sequence[float]]) -> list[Point]:
    arr = np.asarray(points, dtype=np.float64)
    x, y = geo.forward_array(arr[:, 0], arr[:, 1])
    return [(float(a), float(b)) for a, b in zip(x, y, strict=True)]


def _box_poly(box: Sequence[float]) -> list[Point]:
    w, s, e, n = box
    return _project_all([[w, s], [e, s], [e, n], [w, n]])


class Builder:
    """One build of the map from ``geo.json`` and ``loads.json``."""

    def __init__(self, geo_doc: dict[str, Any], loads_doc: dict[str, Any]) -> None:
        self.doc = geo_doc
        self.loads = loads_doc
        lat = geo_doc["lattice"]
        self.s: float = float(lat["spacing_km"])
        self.max_inlet: float = float(lat["max_inlet_water_km"])
        self.min_water: float = float(lat["min_water_km"])
        self.board = _project_all(geo_doc["board"]["polygon"])
        self.mountains = [(m["name"], _project_all(m["polygon"])) for m in geo_doc["mountains"]]
        self.lakes: list[tuple[str, list[Point]]] = [
            (str(m["name"]), _project_all(m["polygon"])) for m in geo_doc["lakes"]
        ]
        self.inlets = [(m["name"], _box_poly(m["box"])) for m in geo_doc["inlets"]]
        self.closed = [(m["name"], _box_poly(m["box"])) for m in geo_doc["closed_straits"]]
        self.rivers = [(r["name"], _project_all(r["points"])) for r in geo_doc["rivers"]]
        self.seeds: list[tuple[str, Point]] = [
            (sea["name"], p) for sea in geo_doc["seas"] for p in _project_all(sea["seeds"])
        ]
        self.sea_names = [sea["name"] for sea in geo_doc["seas"]]

    # -- helpers -------------------------------------------------------------------

    def xy(self, c: Lattice) -> Point:
        return geo.lattice_xy(c[0], c[1], self.s)

    def in_lake(self, p: Point) -> str | None:
        for name, poly in self.lakes:
            if geo.point_in_polygon(p, poly):
                return name
        return None

    def sea_of(self, p: Point) -> str:
        best = min(self.seeds, key=lambda item: (item[1][0] - p[0]) ** 2 + (item[1][1] - p[1]) ** 2)
        return best[0]

    def samples(self, a: Lattice, b: Lattice) -> list[Point]:
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        n = SAMPLES + 1
        return [(ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(1, n)]

    # -- the build -------------------------------------------------------------------

    def build(self) -> tuple[dict[str, Any], dict[str, Any]]:
        s = self.s
        xs = [p[0] for p in self.board]
        ys = [p[1] for p in self.board]
        rmin, rmax = math.floor(min(ys) / (s * geo.SQRT3_2)), math.ceil(max(ys) / (s * geo.SQRT3_2))
        cand: list[Lattice] = []
        for r in range(rmin, rmax + 1):
            q0 = math.floor(min(xs) / s - r / 2) - 1
            q1 = math.ceil(max(xs) / s - r / 2) + 1
            for q in range(q0, q1 + 1):
                if geo.point_in_polygon(self.xy((q, r)), self.board):
                    cand.append((q, r))
        land_flags = self._land_of([self.xy(c) for c in cand])
        land: set[Lattice] = {c for c, ok in zip(cand, land_flags, strict=True) if ok}

        # -- cities, ports, Chunnel ends
        taken: dict[Lattice, str] = {}
        kind: dict[Lattice, str] = {}
        city_cells: dict[str, list[Lattice]] = {}
        for city in self.doc["cities"]:
            if city["size"] != "major":
                continue
            p = geo.forward(*city["lonlat"])
            near = geo.nearest_lattice(p, s)
            options = []
            for c in self._ring_cells(near, 2):
                hexagon = [c, *[(c[0] + d[0], c[1] + d[1]) for d in LATTICE_DIRECTIONS]]
                if any(h in taken for h in hexagon):
                    continue
                on_land = sum(h in land for h in hexagon)
                x, y = self.xy(c)
                options.append((-on_land, round((x - p[0]) ** 2 + (y - p[1]) ** 2, 6), c, hexagon))
            options.sort()
            _, _, centre, hexagon = options[0]
            city_cells[city["name"]] = hexagon
            for h in hexagon:
                land.add(h)
                taken[h] = city["name"]
                kind[h] = "C" if h == centre else "o"
        for city in self.doc["cities"]:
            if city["size"] == "major":
                continue
            c = self._nearest_free(geo.forward(*city["lonlat"]), land, taken)
            taken[c] = city["name"]
            kind[c] = "M" if city["size"] == "medium" else "S"
            city_cells[city["name"]] = [c]
        port_cells: list[list[Lattice]] = []
        for ferry in self.doc["ferries"]:
            ends = []
            for end in ferry["ends"]:
                if "city" in end:
                    ends.append(city_cells[end["city"]][0])
                    continue
                c = self._nearest_free(geo.forward(*end["lonlat"]), land, taken)
                taken[c] = end["port"]
                kind[c] = "p"
                ends.append(c)
            port_cells.append(ends)
        chunnel_cells = []
        for end in self.doc["chunnel"]["ends"]:
            c = self._nearest_free(geo.forward(*end["lonlat"]), land, taken)
            taken[c] = end["port"]
            chunnel_cells.append(c)

        # -- edges
        major_of = {c: name for name, cells in city_cells.items() if len(cells) == 7 for c in cells}
        pairs: list[tuple[Lattice, Lattice]] = []
        for c in sorted(land, key=lambda t: (t[1], t[0])):
            for d in LATTICE_DIRECTIONS[:3]:
                n = (c[0] + d[0], c[1] + d[1])
                if n in land:
                    pairs.append((c, n))
        all_samples = [p for a, b in pairs for p in self.samples(a, b)]
        wet = ~self._land_of(all_samples)
        edges: dict[tuple[Lattice, Lattice], tuple[str, str] | None] = {}
        for i, (a, b) in enumerate(pairs):
            if a in major_of and major_of.get(b) == major_of[a]:
                edges[(a, b)] = None  # the red area of a major city
                continue
            pts = all_samples[i * SAMPLES : (i + 1) * SAMPLES]
            w = wet[i * SAMPLES : (i + 1) * SAMPLES]
            verdict = self._classify(a, b, pts, [bool(v) for v in w])
            if verdict != "sea":
                edges[(a, b)] = verdict if isinstance(verdict, tuple) else None

        # -- keep the land connected to cities
        adj: dict[Lattice, list[Lattice]] = {c: [] for c in land}
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        for a, b in [*port_cells, chunnel_cells]:
            adj[a].append(b)
            adj[b].append(a)
        keep: set[Lattice] = set()
        stack = [cells[0] for cells in city_cells.values()]
        while stack:
            c = stack.pop()
            if c in keep:
                continue
            keep.add(c)
            stack.extend(n for n in adj[c] if n not in keep)
        order = sorted(keep, key=lambda t: (-t[1], t[0]))
        ident = {c: i for i, c in enumerate(order)}

        # -- terrain
        terrain = []
        alps_poly = next(p for n, p in self.mountains if n == self.doc["alpine"]["range"])
        alps: list[tuple[float, int]] = []
        ridge = _project_all(self.doc["alpine"]["ridge"])
        for c in order:
            if c in kind:
                terrain.append(kind[c])
                continue
            p = self.xy(c)
            if any(geo.point_in_polygon(p, poly) for _, poly in self.mountains):
                terrain.append("m")
                if geo.point_in_polygon(p, alps_poly):
                    alps.append((round(geo.distance_to_polyline(p, ridge), 6), ident[c]))
            else:
                terrain.append(".")
        for _, i in sorted(alps)[: int(self.doc["alpine"]["count"])]:
            terrain[i] = "a"

        # -- coasts and distances to each sea
        self._open_sea()
        coast_of = self._coasts(order)
        edge_list = sorted(
            (min(ident[a], ident[b]), max(ident[a], ident[b]), v)
            for (a, b), v in edges.items()
            if a in keep and b in keep
        )
        nbrs: list[list[int]] = [[] for _ in order]
        for a_i, b_i, _ in edge_list:
            nbrs[a_i].append(b_i)
            nbrs[b_i].append(a_i)
        coast: dict[str, list[int]] = {}
        for sea in self.sea_names:
            dist = [-1] * len(order)
            frontier = [i for i in range(len(order)) if sea in coast_of[i]]
            for i in frontier:
                dist[i] = 0
            while frontier:
                nxt = []
                for i in frontier:
                    for j in nbrs[i]:
                        if dist[j] < 0:
                            dist[j] = dist[i] + 1
                            nxt.append(j)
                frontier = nxt
            coast[sea] = dist

        features: list[list[str]] = []
        feature_index: dict[tuple[str, str], int] = {}
        out_edges = []
        for a_i, b_i, v in edge_list:
            code = 0
            if v is not None:
                if v not in feature_index:
                    feature_index[v] = len(features) + 1
                    features.append([v[0], v[1]])
                code = feature_index[v]
            out_edges.append([a_i, b_i, code])

        goods: dict[str, list[str]] = {}
        for load in self.loads["loads"]:
            for src in load["sources"]:
                goods.setdefault(src, []).append(load["name"])
        cities_out = []
        for city in self.doc["cities"]:
            cells = city_cells[city["name"]]
            cities_out.append(
                {
                    "name": city["name"],
                    "size": city["size"],
                    "country": city["country"],
                    "lonlat": city["lonlat"],
                    "mileposts": [ident[c] for c in cells],
                    "goods": goods.get(city["name"], []),
                }
            )
        ferries_out = []
        for ferry, cells in zip(self.doc["ferries"], port_cells, strict=True):
            ends = [e["lonlat"] for e in ferry["ends"]]
            mid = geo.forward((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
            ferries_out.append(
                {
                    "name": ferry["name"],
                    "ports": [ident[c] for c in cells],
                    "port_names": [e["port"] for e in ferry["ends"]],
                    "cost": ferry["cost"],
                    "length": self._crossing_length(cells[0], cells[1]),
                    "sea": self.sea_of(mid),
                }
            )
        ch = self.doc["chunnel"]
        chunnel_out = {
            "name": ch["name"],
            "ends": [ident[c] for c in chunnel_cells],
            "end_names": [e["port"] for e in ch["ends"]],
            "cost": ch["cost"],
            "length": self._crossing_length(chunnel_cells[0], chunnel_cells[1]),
        }
        lonlat = geo.inverse_array(
            np.array([self.xy(c)[0] for c in order]), np.array([self.xy(c)[1] for c in order])
        )
        map_doc: dict[str, Any] = {
            "format": MAP_FORMAT,
            "generator": "python -m motherlode.games.eurorails.mapbuild",
            "inputs_sha256": {
                "geo.json": _digest(self.doc),
                "loads.json": _digest(self.loads),
            },
            "source": (
                "measured from real geography: GLOBE 1 km land mask (global-land-mask 1.0.0)"
                " sampled on a triangular lattice in EPSG:3035; cities, ports, terrain,"
                " rivers, lakes, inlets and seas from data/geo.json"
            ),
            "spacing_km": s,
            "lattice": (
                "x_km = spacing*(q + r/2), y_km = spacing*sqrt(3)/2*r (EPSG:3035, from 52N 10E)"
            ),
            "terrain_codes": {
                ".": "clear",
                "m": "mountain",
                "a": "alpine",
                "p": "ferry port",
                "S": "small city",
                "M": "medium city",
                "C": "major city centre",
                "o": "major city outpost (red area)",
            },
            "q": [c[0] for c in order],
            "r": [c[1] for c in order],
            "lon": [round(float(v), 4) for v in lonlat[0]],
            "lat": [round(float(v), 4) for v in lonlat[1]],
            "terrain": "".join(terrain),
            "features": features,
            "edges": out_edges,
            "cities": cities_out,
            "ferries": ferries_out,
            "chunnel": chunnel_out,
            "seas": self.sea_names,
            "coast_distance": coast,
            "rivers": [
                {"name": n, "xy": [[round(x, 1), round(y, 1)] for x, y in pts]}
                for n, pts in self.rivers
            ],
            "lakes": [
                {"name": n, "xy": [[round(x, 1), round(y, 1)] for x, y in pts]}
                for n, pts in self.lakes
            ],
        }
        return map_doc, self._land_raster()

    def _crossing_length(self, a: Lattice, b: Lattice) -> int:
        """Mileposts a ferry or the Chunnel counts for: the lattice steps between its ends."""
        return max(1, geo.lattice_distance(a, b))

    def _land_of(self, pts: Sequence[Point]) -> np.ndarray:
        if not pts:
            return np.zeros(0, dtype=bool)
        arr = np.asarray(pts, dtype=np.float64)
        lon, lat = geo.inverse_array(arr[:, 0], arr[:, 1])
        return _is_land(lon, lat)

    def _ring_cells(self, centre: Lattice, radius: int) -> list[Lattice]:
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                c = (centre[0] + dq, centre[1] + dr)
                if geo.lattice_distance(c, centre) <= radius:
                    out.append(c)
        return out

    def _nearest_free(self, p: Point, land: set[Lattice], taken: dict[Lattice, str]) -> Lattice:
        near = geo.nearest_lattice(p, self.s)
        for radius in range(1, 8):
            options = [c for c in self._ring_cells(near, radius) if c in land and c not in taken]
            if options:
                return min(
                    options,
                    key=lambda c: (
                        round((self.xy(c)[0] - p[0]) ** 2 + (self.xy(c)[1] - p[1]) ** 2, 6),
                        c[1],
                        c[0],
                    ),
                )
        raise RuntimeError(f"no free land milepost near {p}")

    def _classify(
        self, a: Lattice, b: Lattice, pts: list[Point], wet: list[bool]
    ) -> tuple[str, str] | str | None:
        step = self.s / (SAMPLES + 1)
        run = longest = 0
        for w in wet:
            run = run + 1 if w else 0
            longest = max(longest, run)
        if longest * step >= self.min_water:
            wet_pts = [p for p, w in zip(pts, wet, strict=True) if w]
            for p in wet_pts:
                lake = self.in_lake(p)
                if lake is not None:
                    return ("lake", lake)
            for p in wet_pts:
                if any(geo.point_in_polygon(p, poly) for _, poly in self.closed):
                    return "sea"
            if (longest + 1) * step > self.max_inlet:
                return "sea"
            for name, poly in self.inlets:
                if any(geo.point_in_polygon(p, poly) for p in wet_pts):
                    return ("inlet", name)
            return ("inlet", f"{self.sea_of(wet_pts[0])} inlet")
        pa, pb = self.xy(a), self.xy(b)
        for name, line in self.rivers:
            for c, d in pairwise(line):
                if geo.segments_cross(pa, pb, c, d):
                    return ("river", name)
        return None

    def _coasts(self, order: list[Lattice]) -> list[set[str]]:
        """The seas each milepost touches: water on the way to (or at) a lattice neighbour."""
        segs: list[tuple[int, Point]] = []
        for i, c in enumerate(order):
            for d in LATTICE_DIRECTIONS:
                n = (c[0] + d[0], c[1] + d[1])
                for p in [*self.samples(c, n), self.xy(n)]:
                    segs.append((i, p))
        wet = ~self._land_of([p for _, p in segs])
        out: list[set[str]] = [set() for _ in order]
        for (i, p), w in zip(segs, wet, strict=True):
            if w and self.in_lake(p) is None and self.is_open_sea(p):
                out[i].add(self.sea_of(p))
        return out

    def _raster(self) -> tuple[np.ndarray, float, float, float]:
        """The land mask on a grid of ``LAND_CELL_KM`` cells over the board's box."""
        xs = [p[0] for p in self.board]
        ys = [p[1] for p in self.board]
        cell = LAND_CELL_KM
        x0, y1 = math.floor(min(xs) / cell) * cell, math.ceil(max(ys) / cell) * cell
        nx = math.ceil((max(xs) - x0) / cell) + 1
        ny = math.ceil((y1 - min(ys)) / cell) + 1
        gx, gy = np.meshgrid(x0 + (np.arange(nx) + 0.5) * cell, y1 - (np.arange(ny) + 0.5) * cell)
        lon, lat = geo.inverse_array(gx.ravel(), gy.ravel())
        return _is_land(lon, lat).reshape(ny, nx), cell, x0, y1

    def _open_sea(self) -> None:
        """Mark the raster's water cells connected to its border: the open sea (not lakes)."""
        mask, cell, x0, y1 = self._raster()
        ny, nx = mask.shape
        sea = np.zeros_like(mask)
        stack = [(j, i) for j in range(ny) for i in (0, nx - 1)]
        stack += [(j, i) for i in range(nx) for j in (0, ny - 1)]
        while stack:
            j, i = stack.pop()
            if not (0 <= j < ny and 0 <= i < nx) or sea[j, i] or mask[j, i]:
                continue
            sea[j, i] = True
            stack.extend(((j + 1, i), (j - 1, i), (j, i + 1), (j, i - 1)))
        self.sea_grid, self.grid = sea, (cell, x0, y1)

    def is_open_sea(self, p: Point) -> bool:
        """Is the water at ``p`` part of the open sea (checked on the raster, 3x3 cells)?"""
        cell, x0, y1 = self.grid
        ny, nx = self.sea_grid.shape
        i, j = int((p[0] - x0) // cell), int((y1 - p[1]) // cell)
        if not (0 <= j < ny and 0 <= i < nx):
            return True
        return bool(self.sea_grid[max(0, j - 1) : j + 2, max(0, i - 1) : i + 2].any())

    def _land_raster(self) -> dict[str, Any]:
        mask, cell, x0, y1 = self._raster()
        ny, nx = mask.shape
        rows = []
        for row in mask:
            runs = []
            cur = False
            for x, v in enumerate([*row.tolist(), not row[-1]]):
                if v != cur:
                    runs.append(x)
                    cur = not cur
            # ``runs`` alternates: start of land, start of water, ...
            rows.append(runs[:-1] if len(runs) % 2 else runs)
        return {
            "format": LAND_FORMAT,
            "source": "measured from real geography: GLOBE 1 km land mask, sampled for drawing",
            "cell_km": cell,
            "origin_km": [x0, y1],
            "size": [nx, ny],
            "rows": rows,
        }


def _digest(doc: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def dumps(doc: dict[str, Any]) -> str:
    """The canonical text of a built file (compact rows, stable order)."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def build() -> tuple[str, str]:
    """The texts of ``map.json`` and ``land.json`` built from the committed inputs."""
    geo_doc = json.loads((DATA / "geo.json").read_text(encoding="utf-8"))
    loads_doc = json.loads((DATA / "loads.json").read_text(encoding="utf-8"))
    map_doc, land_doc = Builder(geo_doc, loads_doc).build()
    return dumps(map_doc), dumps(land_doc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m motherlode.games.eurorails.mapbuild")
    parser.add_argument("--check", action="store_true", help="fail if the committed files differ")
    args = parser.parse_args(argv)
    map_text, land_text = build()
    targets = {DATA / "map.json": map_text, DATA / "land.json": land_text}
    if args.check:
        stale = [p.name for p, t in targets.items() if p.read_text(encoding="utf-8") != t]
        if stale:
            print("out of date: " + ", ".join(stale), file=sys.stderr)
            return 1
        print("map.json and land.json are up to date")
        return 0
    for path, text in targets.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

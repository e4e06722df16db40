"""Draw the Eurorails map: land, seas, lakes, rivers, terrain, cities with their goods,
ferries and the Chunnel, as SVG (``core/svg.py`` helpers) or PNG (``matplotlib``, the
``plot`` extra). Both draw the same list of shapes, so they always agree.

>>> svg = map_svg()
>>> svg.startswith("<svg") and "Berlin" in svg and 'class="milepost' in svg
True
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from motherlode.core import svg as svgh
from motherlode.core.errors import ConfigError
from motherlode.games.eurorails.geo import forward
from motherlode.games.eurorails.mapdata import DATA, EuroMap, Printing, load_map

SCALE = 0.6
"""Pixels per kilometre."""
MARGIN_KM = 70.0

SEA = "#bcd8e6"
LAND = "#f4eedb"
RIVER = "#3f7fb5"
INK = "#2b2b2b"
MOUNTAIN = "#8a5a2b"
MAJOR = "#c8281e"
FERRY = "#1d4f91"

MILEPOST_STYLE: dict[str, tuple[dict[str, Any], str]] = {
    ".": ({"marker": "o", "size": 2.6, "fill": INK}, "milepost clear"),
    "m": ({"marker": "^", "size": 6.5, "fill": MOUNTAIN}, "milepost mountain"),
    "a": (
        {"marker": "^", "size": 10, "fill": "white", "stroke": MOUNTAIN, "width": 1.6},
        "milepost alpine",
    ),
    "p": (
        {"marker": "o", "size": 6, "fill": "white", "stroke": FERRY, "width": 1.6},
        "milepost port",
    ),
    "C": ({"marker": "o", "size": 3.2, "fill": "white"}, "milepost major"),
    "o": ({"marker": "o", "size": 3.2, "fill": "white"}, "milepost major"),
    "M": (
        {"marker": "s", "size": 9, "fill": "white", "stroke": INK, "width": 1.6},
        "milepost city medium",
    ),
    "S": (
        {"marker": "o", "size": 8, "fill": "white", "stroke": INK, "width": 1.6},
        "milepost city small",
    ),
}
"""How each terrain code is drawn: marker style and SVG class."""

SEA_LABELS = {
    "Atlantic": (-9.5, 46.0),
    "North Sea": (3.6, 56.0),
    "Baltic": (18.0, 56.3),
    "English Channel": (-2.9, 49.9),
    "Irish Sea": (-5.1, 53.9),
    "Mediterranean": (5.0, 40.5),
    "Adriatic": (15.2, 43.0),
}


@dataclass
class Shape:
    """One drawable: ``kind`` is rect, poly, line, marker or text; coordinates in px."""

    kind: str
    pts: list[tuple[float, float]]
    style: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    cls: str = ""
    title: str = ""


@dataclass
class Scene:
    width: float
    height: float
    shapes: list[Shape]


@cache
def _land() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "land.json").read_text(encoding="utf-8"))
    return data


def build_scene(m: EuroMap | None = None, printing: Printing = "first") -> Scene:
    """Every shape of the map, in drawing order."""
    m = m or load_map()
    xs = [m.xy(i)[0] for i in range(len(m))]
    ys = [m.xy(i)[1] for i in range(len(m))]
    x0, x1 = min(xs) - MARGIN_KM, max(xs) + MARGIN_KM
    y0, y1 = min(ys) - MARGIN_KM, max(ys) + MARGIN_KM + 40

    def px(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * SCALE, (y1 - y) * SCALE)

    def at(i: int) -> tuple[float, float]:
        return px(*m.xy(i))

    width, height = (x1 - x0) * SCALE, (y1 - y0) * SCALE
    shapes: list[Shape] = [Shape("rect", [(0, 0), (width, height)], {"fill": SEA})]

    land = _land()
    cell = float(land["cell_km"])
    lx0, ly1 = land["origin_km"]
    for row_i, runs in enumerate(land["rows"]):
        y_top = ly1 - row_i * cell
        for k in range(0, len(runs), 2):
            a = lx0 + runs[k] * cell
            b = lx0 + (runs[k + 1] if k + 1 < len(runs) else land["size"][0]) * cell
            p, q = px(a, y_top), px(b, y_top - cell)
            shapes.append(Shape("rect", [p, q], {"fill": LAND}))
    for name, poly in m.lakes:
        shapes.append(Shape("poly", [px(x, y) for x, y in poly], {"fill": SEA}, title=name))
    for name, (lon, lat) in SEA_LABELS.items():
        shapes.append(
            Shape(
                "text",
                [px(*forward(lon, lat))],
                {"size": 15, "italic": True, "fill": "#4f7590", "anchor": "middle"},
                text=name,
            )
        )
    for name, line in m.rivers:
        shapes.append(
            Shape("line", [px(x, y) for x, y in line], {"stroke": RIVER, "width": 1.6}, title=name)
        )

    # ferries and the Chunnel under the mileposts
    for f in m.ferries:
        a, b = at(f.ports[0]), at(f.ports[1])
        shapes.append(
            Shape("line", [a, b], {"stroke": FERRY, "width": 1.8, "dash": "5,3"}, title=f.name)
        )
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        shapes.append(
            Shape("marker", [mid], {"marker": "o", "size": 8, "fill": "white", "stroke": FERRY})
        )
        shapes.append(
            Shape(
                "text",
                [(mid[0], mid[1] + 3.5)],
                {"size": 9, "fill": FERRY, "anchor": "middle", "bold": True},
                text=str(f.cost[printing]),
                title=f"{f.name}: {f.cost[printing]}M",
            )
        )
    a, b = at(m.chunnel.ends[0]), at(m.chunnel.ends[1])
    shapes.append(
        Shape("line", [a, b], {"stroke": "#555555", "width": 3.0, "dash": "2,2"}, title="Chunnel")
    )

    # major cities' red areas
    for c in m.cities:
        if c.size != "major":
            continue
        cx, cy = at(c.centre)
        ring = sorted(
            (at(p) for p in c.mileposts[1:]), key=lambda p: math.atan2(p[1] - cy, p[0] - cx)
        )
        shapes.append(
            Shape(
                "poly",
                ring,
                {"fill": MAJOR, "opacity": 0.55, "stroke": MAJOR, "width": 1.2},
                title=c.name,
            )
        )

    # mileposts
    port_names = {p: n for f in m.ferries for p, n in zip(f.ports, f.port_names, strict=True)}
    for i, t in enumerate(m.terrain):
        mstyle, cls = MILEPOST_STYLE[t]
        title = ""
        if t in "SMCo":
            c = m.by_name[m.city_at[i]]
            title = f"{c.name} ({c.size} city): " + (", ".join(c.goods) or "no goods")
        elif t == "p":
            title = f"ferry port {port_names.get(i, '')}"
        shapes.append(Shape("marker", [at(i)], dict(mstyle), cls=cls, title=title))

    # labels: a major city's name above its hexagon, goods below; other cities to the
    # right of their marker (name, then goods), which keeps neighbours apart
    for c in m.cities:
        x, y = at(c.centre)
        goods = " · ".join(c.goods)
        halo = {"fill": INK, "halo": True}
        goods_style = {"size": 7.5, "italic": True, "fill": "#5a3d1e", "halo": True}
        if c.size == "major":
            name_at, goods_at, anchor = (x, y - 17), (x, y + 24), "middle"
            name_style: dict[str, Any] = {"size": 12, "bold": True, "anchor": anchor, **halo}
        else:
            name_at, goods_at, anchor = (x + 7, y - 1), (x + 7, y + 8), "start"
            name_style = {"size": 10, "bold": True, "anchor": anchor, **halo}
        shapes.append(Shape("text", [name_at], name_style, text=c.name))
        if goods:
            shapes.append(Shape("text", [goods_at], {**goods_style, "anchor": anchor}, text=goods))
    for f in m.ferries:
        for port, name in zip(f.ports, f.port_names, strict=True):
            if m.terrain[port] == "p":
                x, y = at(port)
                # the label goes on the side away from the nearest city
                cx, _ = min(
                    (at(c.centre) for c in m.cities),
                    key=lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2,
                )
                right = cx <= x
                label: dict[str, Any] = {"size": 7, "fill": FERRY, "halo": True}
                label["anchor"] = "start" if right else "end"
                shapes.append(Shape("text", [(x + 5 if right else x - 5, y + 9)], label, text=name))

    # title and legend
    shapes.append(
        Shape("text", [(18, 34)], {"size": 26, "bold": True, "fill": INK}, text="Eurorails")
    )
    shapes.append(
        Shape(
            "text",
            [(18, 54)],
            {"size": 11, "italic": True, "fill": INK},
            text=f"{len(m)} mileposts, {m.spacing_km:g} km apart (EPSG:3035 equal-area)",
        )
    )
    legend: list[tuple[str, float, str, str | None, str]] = [
        ("o", 2.6, INK, None, "clear (1M)"),
        ("^", 6.5, MOUNTAIN, None, "mountain (2M)"),
        ("^", 10, "white", MOUNTAIN, "alpine (5M)"),
        ("o", 8, "white", INK, "small city (3M)"),
        ("s", 9, "white", INK, "medium city (3M)"),
        ("h", 12, MAJOR, MAJOR, "major city (5M)"),
        ("o", 6, "white", FERRY, "ferry port / line (cost)"),
    ]
    lx, ly = 40.0, 80.0
    for k, (mk, msize, fill, stroke, text) in enumerate(legend):
        y = ly + k * 18
        style: dict[str, Any] = {"marker": mk, "size": msize, "fill": fill}
        if stroke:
            style.update(stroke=stroke, width=1.4)
        shapes.append(Shape("marker", [(lx, y)], style))
        shapes.append(Shape("text", [(lx + 14, y + 4)], {"size": 11, "fill": INK}, text=text))
    y = ly + len(legend) * 18
    shapes.append(Shape("line", [(lx - 8, y), (lx + 8, y)], {"stroke": RIVER, "width": 1.6}))
    shapes.append(
        Shape(
            "text",
            [(lx + 14, y + 4)],
            {"size": 11, "fill": INK},
            text="river (+2M), lake/inlet +3M",
        )
    )
    return Scene(width, height, shapes)


def _marker_points(kind: str, x: float, y: float, size: float) -> list[tuple[float, float]]:
    h = size / 2
    if kind == "^":
        return [(x, y - h), (x + h * 0.95, y + h * 0.75), (x - h * 0.95, y + h * 0.75)]
    if kind == "s":
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    return [
        (x + h * math.cos(math.radians(60 * k)), y + h * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def _pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def to_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document."""
    return svgh.document(
        round(scene.width),
        round(scene.height),
        [scene_markup(scene)],
        title="Eurorails: the map of Europe",
    )


def scene_markup(scene: Scene) -> str:
    """The scene's shapes as SVG markup (no document around it): the static layer's map."""
    body: list[str] = [
        "<style>.halo{paint-order:stroke;stroke:#f4eedb;stroke-width:2.5px;stroke-linejoin:round}</style>"
    ]
    land: list[str] = []  # a run of plain rects of one colour (the land) drawn as one path
    for k, s in enumerate(scene.shapes):
        st = s.style
        if s.kind == "rect" and k > 0 and not (s.title or s.cls):
            # one path, not a rect per cell: no hairline seams between the rows, a fifth
            # of the bytes
            (ax, ay), (bx, by) = s.pts
            land.append(f"M{ax:.1f} {ay:.1f}H{bx:.1f}V{by:.1f}H{ax:.1f}z")
            nxt = scene.shapes[k + 1] if k + 1 < len(scene.shapes) else None
            if nxt is None or nxt.kind != "rect" or nxt.style.get("fill") != st.get("fill"):
                body.append(f'<path fill="{st["fill"]}" d="{"".join(land)}"/>')
                land = []
            continue
        common: dict[str, Any] = {
            "fill": st.get("fill", "none"),
            "stroke": st.get("stroke"),
            "stroke_width": st.get("width") if st.get("stroke") else None,
            "stroke_dasharray": st.get("dash"),
            "opacity": st.get("opacity"),
            "class_": s.cls or None,
        }
        raw = f"<title>{html.escape(s.title)}</title>" if s.title else None
        if s.kind == "rect":
            (ax, ay), (bx, by) = s.pts
            body.append(
                svgh.element(
                    "rect",
                    raw=raw,
                    x=round(ax, 1),
                    y=round(ay, 1),
                    width=round(bx - ax, 1),
                    height=round(by - ay, 1),
                    **common,
                )
            )
        elif s.kind == "poly":
            body.append(svgh.element("polygon", raw=raw, points=_pts(s.pts), **common))
        elif s.kind == "line":
            common["fill"] = "none"
            body.append(svgh.element("polyline", raw=raw, points=_pts(s.pts), **common))
        elif s.kind == "marker":
            x, y = s.pts[0]
            if st["marker"] == "o":
                body.append(
                    svgh.element(
                        "circle",
                        raw=raw,
                        cx=round(x, 1),
                        cy=round(y, 1),
                        r=st["size"] / 2,
                        **common,
                    )
                )
            else:
                body.append(
                    svgh.element(
                        "polygon",
                        raw=raw,
                        points=_pts(_marker_points(st["marker"], x, y, st["size"])),
                        **common,
                    )
                )
        elif s.kind == "text":
            x, y = s.pts[0]
            body.append(
                svgh.element(
                    "text",
                    s.text,
                    x=round(x, 1),
                    y=round(y, 1),
                    font_size=st.get("size", 10),
                    fill=st.get("fill", INK),
                    text_anchor=st.get("anchor"),
                    font_weight="bold" if st.get("bold") else None,
                    font_style="italic" if st.get("italic") else None,
                    class_="halo" if st.get("halo") else None,
                )
            )
    return "".join(body)


def map_svg(m: EuroMap | None = None, printing: Printing = "first") -> str:
    """The whole map as SVG text."""
    return to_svg(build_scene(m, printing))


def write_png(
    path: str | Path, m: EuroMap | None = None, printing: Printing = "first", dpi: int = 100
) -> Path:
    """Draw the map with matplotlib (the ``plot`` extra) into a PNG file."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise ConfigError("PNG output needs matplotlib: pip install 'motherlode[plot]'") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Circle, Polygon
    from matplotlib.patheffects import withStroke

    scene = build_scene(m, printing)
    fig = plt.figure(figsize=(scene.width / dpi, scene.height / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)
    ax.axis("off")
    rects: dict[str, list[list[tuple[float, float]]]] = {}
    z = 0

    def flush() -> None:
        nonlocal z
        for colour, polys in rects.items():
            ax.add_collection(
                PolyCollection(
                    polys, facecolors=colour, edgecolors=colour, linewidths=0.3, zorder=z
                )
            )
            z += 1
        rects.clear()

    for s in scene.shapes:
        st = s.style
        if s.kind == "rect":
            (ax_, ay), (bx, by) = s.pts
            rects.setdefault(st["fill"], []).append([(ax_, ay), (bx, ay), (bx, by), (ax_, by)])
            continue
        flush()
        z += 1
        if s.kind in ("poly", "marker"):
            if s.kind == "marker":
                x, y = s.pts[0]
                if st["marker"] == "o":
                    circle = Circle(
                        (x, y),
                        st["size"] / 2,
                        facecolor=st.get("fill", "none"),
                        edgecolor=st.get("stroke", "none"),
                        linewidth=st.get("width", 0) * 0.75,
                        zorder=z,
                    )
                    ax.add_patch(circle)
                    continue
                pts = _marker_points(st["marker"], x, y, st["size"])
            else:
                pts = s.pts
            ax.add_patch(
                Polygon(
                    pts,
                    closed=True,
                    facecolor=st.get("fill", "none"),
                    edgecolor=st.get("stroke", "none"),
                    linewidth=st.get("width", 0) * 0.75,
                    alpha=st.get("opacity"),
                    zorder=z,
                )
            )
        elif s.kind == "line":
            xs_, ys_ = zip(*s.pts, strict=True)
            dash = st.get("dash")
            ax.plot(
                xs_,
                ys_,
                color=st["stroke"],
                linewidth=st["width"] * 0.75,
                linestyle=(0, tuple(float(v) / 1.5 for v in dash.split(","))) if dash else "-",
                zorder=z,
            )
        elif s.kind == "text":
            x, y = s.pts[0]
            ax.text(
                x,
                y,
                s.text,
                fontsize=st.get("size", 10) * 0.75,
                color=st.get("fill", INK),
                ha={"middle": "center", "end": "right"}.get(st.get("anchor") or "", "left"),
                va="baseline",
                fontweight="bold" if st.get("bold") else "normal",
                fontstyle="italic" if st.get("italic") else "normal",
                family="serif",
                zorder=z,
                path_effects=[withStroke(linewidth=2.2, foreground=LAND)]
                if st.get("halo")
                else None,
            )
    flush()
    path = Path(path)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path

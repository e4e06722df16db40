"""A small numpy rasteriser for the SVG our renderers write (for RGB renders).

No SVG library is a dependency, so this draws the subset of SVG that
``State.render_svg`` uses, straight into an ``(H, W, 3)`` ``uint8`` array:

* ``rect``, ``circle``, ``ellipse``, ``polygon``, ``polyline``, ``line`` and ``path``
  (straight segments: ``M L H V Z``, absolute or relative; a curve is drawn as the
  straight line to its end point);
* ``fill``, ``stroke``, ``stroke-width``, ``opacity`` / ``fill-opacity`` /
  ``stroke-opacity``, inherited through ``<g>``; colours as ``#rgb``, ``#rrggbb``,
  ``rgb(r,g,b)``, common names, and ``url(#gradient)`` as the mean of its stops;
* ``text`` is not typeset (there is no font): each text element is drawn as a thin bar
  in its colour where its glyphs would stand, so labels show as placed marks.

Pixels are sampled at their centres (no anti-aliasing). Good enough to watch a game or
feed a pixel-based learner; the SVG stays the exact picture.

>>> img = svg_to_rgb('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2">'
...                  '<rect x="0" y="0" width="2" height="2" fill="#ff0000"/></svg>')
>>> img.shape, img[0, 0].tolist(), img[0, 3].tolist()
((2, 4, 3), [255, 0, 0], [255, 255, 255])
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

RGB = tuple[float, float, float]
Canvas = np.ndarray[Any, np.dtype[np.float32]]
Mask = np.ndarray[Any, np.dtype[np.bool_]]

_NAMED: dict[str, RGB] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
    "brown": (165, 42, 42),
    "gold": (255, 215, 0),
    "silver": (192, 192, 192),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "darkgray": (169, 169, 169),
    "lightgray": (211, 211, 211),
    "navy": (0, 0, 128),
    "teal": (0, 128, 128),
    "maroon": (128, 0, 0),
    "olive": (128, 128, 0),
    "tan": (210, 180, 140),
    "beige": (245, 245, 220),
    "pink": (255, 192, 203),
    "cyan": (0, 255, 255),
    "magenta": (255, 0, 255),
}
_UNKNOWN: RGB = (128.0, 128.0, 128.0)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvZzCcSsQqTtAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "Z": 0, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _num(value: str | None, default: float = 0.0) -> float:
    if value is None:
        return default
    m = _NUMBER.search(value)
    return float(m.group()) if m else default


def _numbers(text: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(text)]


class _Rasteriser:
    def __init__(self, root: ET.Element, scale: float) -> None:
        box = _numbers(root.get("viewBox", ""))
        if len(box) == 4:
            self.x0, self.y0, width, height = box
        else:
            self.x0, self.y0 = 0.0, 0.0
            width, height = _num(root.get("width"), 300), _num(root.get("height"), 150)
        self.scale = scale
        self.w = max(1, round(width * scale))
        self.h = max(1, round(height * scale))
        self.canvas: Canvas = np.full((self.h, self.w, 3), 255.0, dtype=np.float32)
        self.gradients: dict[str, RGB] = {}
        for el in root.iter():
            if _local(el.tag) in ("linearGradient", "radialGradient") and el.get("id"):
                stops = [self.colour(s.get("stop-color", "black")) for s in el]
                found = [c for c in stops if c is not None]
                if found:
                    mean = np.mean(np.array(found), axis=0)
                    self.gradients[el.get("id", "")] = (
                        float(mean[0]),
                        float(mean[1]),
                        float(mean[2]),
                    )

    # -- colours -------------------------------------------------------------------

    def colour(self, text: str | None) -> RGB | None:
        if text is None:
            return None
        text = text.strip().lower()
        if text in ("none", "transparent", ""):
            return None
        if text.startswith("#"):
            digits = text[1:]
            if len(digits) == 3:
                digits = "".join(ch * 2 for ch in digits)
            if len(digits) >= 6:
                try:
                    return (
                        float(int(digits[0:2], 16)),
                        float(int(digits[2:4], 16)),
                        float(int(digits[4:6], 16)),
                    )
                except ValueError:
                    return _UNKNOWN
            return _UNKNOWN
        if text.startswith("url("):
            ref = text[4:].rstrip(")").strip().lstrip("#")
            return self.gradients.get(ref, _UNKNOWN)
        if text.startswith("rgb"):
            parts = _numbers(text)
            if len(parts) >= 3:
                return (parts[0], parts[1], parts[2])
            return _UNKNOWN
        return _NAMED.get(text, _UNKNOWN)

    # -- pixel grids ---------------------------------------------------------------

    def _grid(
        self, x0: float, y0: float, x1: float, y1: float
    ) -> tuple[slice, slice, np.ndarray[Any, Any], np.ndarray[Any, Any]] | None:
        """Pixel-centre coordinates (in SVG units) of the pixels under a bounding box."""
        s = self.scale
        c0 = max(0, int(np.floor((x0 - self.x0) * s)))
        c1 = min(self.w, int(np.ceil((x1 - self.x0) * s)) + 1)
        r0 = max(0, int(np.floor((y0 - self.y0) * s)))
        r1 = min(self.h, int(np.ceil((y1 - self.y0) * s)) + 1)
        if c0 >= c1 or r0 >= r1:
            return None
        xs = (np.arange(c0, c1, dtype=np.float32) + 0.5) / s + self.x0
        ys = (np.arange(r0, r1, dtype=np.float32) + 0.5) / s + self.y0
        gx, gy = np.meshgrid(xs, ys)
        return slice(r0, r1), slice(c0, c1), gx, gy

    def _paint(self, rows: slice, cols: slice, mask: Mask, rgb: RGB, alpha: float) -> None:
        if not mask.any():
            return
        region = self.canvas[rows, cols]
        colour = np.array(rgb, dtype=np.float32)
        region[mask] = region[mask] * (1.0 - alpha) + colour * alpha

    # -- shapes --------------------------------------------------------------------

    def fill_polygon(self, points: list[tuple[float, float]], rgb: RGB, alpha: float) -> None:
        if len(points) < 3:
            return
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        grid = self._grid(min(xs), min(ys), max(xs), max(ys))
        if grid is None:
            return
        rows, cols, gx, gy = grid
        inside = np.zeros(gx.shape, dtype=bool)
        n = len(points)
        for i in range(n):
            (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
            if ay == by:
                continue
            crosses = (ay > gy) != (by > gy)
            at_x = ax + (gy - ay) * (bx - ax) / (by - ay)
            inside ^= crosses & (gx < at_x)
        self._paint(rows, cols, inside, rgb, alpha)

    def stroke_segment(
        self, a: tuple[float, float], b: tuple[float, float], width: float, rgb: RGB, alpha: float
    ) -> None:
        half = max(width, 1.0 / self.scale) / 2.0
        grid = self._grid(
            min(a[0], b[0]) - half, min(a[1], b[1]) - half, max(a[0], b[0]) + half,
            max(a[1], b[1]) + half,
        )  # fmt: skip
        if grid is None:
            return
        rows, cols, gx, gy = grid
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        if length2 == 0.0:
            t = np.zeros(gx.shape, dtype=np.float32)
        else:
            t = np.clip(((gx - a[0]) * dx + (gy - a[1]) * dy) / length2, 0.0, 1.0)
        ex, ey = gx - (a[0] + t * dx), gy - (a[1] + t * dy)
        self._paint(rows, cols, ex * ex + ey * ey <= half * half, rgb, alpha)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, style: dict[str, Any]) -> None:
        if rx <= 0 or ry <= 0:
            return
        sw = style["stroke_width"]
        grid = self._grid(cx - rx - sw, cy - ry - sw, cx + rx + sw, cy + ry + sw)
        if grid is None:
            return
        rows, cols, gx, gy = grid
        d = ((gx - cx) / rx) ** 2 + ((gy - cy) / ry) ** 2
        if style["fill"] is not None:
            self._paint(rows, cols, d <= 1.0, style["fill"], style["fill_alpha"])
        if style["stroke"] is not None and sw > 0:
            half = max(sw, 1.0 / self.scale) / 2.0
            r = (rx + ry) / 2.0
            ring = np.abs(np.sqrt(d) * r - r) <= half
            self._paint(rows, cols, ring, style["stroke"], style["stroke_alpha"])

    def outline(
        self, points: list[tuple[float, float]], closed: bool, style: dict[str, Any]
    ) -> None:
        if style["stroke"] is None or style["stroke_width"] <= 0 or len(points) < 2:
            return
        pairs = list(itertools.pairwise(points))
        if closed:
            pairs.append((points[-1], points[0]))
        for a, b in pairs:
            self.stroke_segment(a, b, style["stroke_width"], style["stroke"], style["stroke_alpha"])

    def shape(self, points: list[tuple[float, float]], closed: bool, style: dict[str, Any]) -> None:
        if style["fill"] is not None:
            self.fill_polygon(points, style["fill"], style["fill_alpha"])
        self.outline(points, closed, style)

    # -- the tree ------------------------------------------------------------------

    def style_of(self, el: ET.Element, parent: dict[str, Any]) -> dict[str, Any]:
        attrs = dict(el.attrib)
        for decl in attrs.pop("style", "").split(";"):
            key, sep, value = decl.partition(":")
            if sep:
                attrs[key.strip()] = value.strip()
        style = dict(parent)
        if "fill" in attrs:
            style["fill"] = self.colour(attrs["fill"])
        if "stroke" in attrs:
            style["stroke"] = self.colour(attrs["stroke"])
        if "stroke-width" in attrs:
            style["stroke_width"] = _num(attrs["stroke-width"], 1.0)
        opacity = _num(attrs.get("opacity"), 1.0)
        style["opacity"] = parent["opacity"] * opacity
        style["fill_alpha"] = style["opacity"] * _num(attrs.get("fill-opacity"), 1.0)
        style["stroke_alpha"] = style["opacity"] * _num(attrs.get("stroke-opacity"), 1.0)
        style["font_size"] = _num(attrs.get("font-size"), parent["font_size"])
        return style

    def draw(self, el: ET.Element, parent: dict[str, Any]) -> None:
        tag = _local(el.tag)
        if tag in ("defs", "title", "desc", "style", "script", "linearGradient", "radialGradient"):
            return
        style = self.style_of(el, parent)
        get = el.get
        if tag == "rect":
            x, y = _num(get("x")), _num(get("y"))
            w, h = _num(get("width")), _num(get("height"))
            if w > 0 and h > 0:
                pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
                self.shape(pts, True, style)
        elif tag == "circle":
            r = _num(get("r"))
            self.ellipse(_num(get("cx")), _num(get("cy")), r, r, style)
        elif tag == "ellipse":
            self.ellipse(_num(get("cx")), _num(get("cy")), _num(get("rx")), _num(get("ry")), style)
        elif tag in ("polygon", "polyline"):
            nums = _numbers(get("points", ""))
            pts = list(zip(nums[0::2], nums[1::2], strict=False))
            if tag == "polygon":
                self.shape(pts, True, style)
            else:
                self.outline(pts, False, style)
        elif tag == "line":
            a = (_num(get("x1")), _num(get("y1")))
            b = (_num(get("x2")), _num(get("y2")))
            if style["stroke"] is not None:
                self.stroke_segment(
                    a, b, style["stroke_width"], style["stroke"], style["stroke_alpha"]
                )
        elif tag == "path":
            for pts, closed in _path_polylines(get("d", "")):
                self.shape(pts, closed, style)  # an open subpath is filled as if closed
        elif tag == "text":
            self.text_bar(el, style)
        for child in el:
            if tag != "text":
                self.draw(child, style)

    def text_bar(self, el: ET.Element, style: dict[str, Any]) -> None:
        content = "".join(el.itertext()).strip()
        colour = style["fill"] if style["fill"] is not None else (0.0, 0.0, 0.0)
        if not content:
            return
        size = style["font_size"]
        width = 0.55 * size * len(content)
        x, y = _num(el.get("x")), _num(el.get("y"))
        anchor = el.get("text-anchor", "start")
        if anchor == "middle":
            x -= width / 2
        elif anchor == "end":
            x -= width
        top, bottom = y - 0.55 * size, y - 0.2 * size
        pts = [(x, top), (x + width, top), (x + width, bottom), (x, bottom)]
        self.fill_polygon(pts, colour, 0.45 * style["fill_alpha"])


def _path_polylines(d: str) -> list[tuple[list[tuple[float, float]], bool]]:
    """The straight-segment outline of a path: ``(points, closed)`` per subpath."""
    out: list[tuple[list[tuple[float, float]], bool]] = []
    pts: list[tuple[float, float]] = []
    x = y = 0.0
    start = (0.0, 0.0)
    cmd = "M"
    tokens = _PATH_TOKEN.findall(d)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                if pts:
                    out.append((pts, True))
                pts = []
                x, y = start
                continue
        n = _ARGS[cmd.upper()]
        args = [float(t) for t in tokens[i : i + n]]
        if len(args) < n:
            break
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "H":
            x = x + args[0] if rel else args[0]
        elif up == "V":
            y = y + args[0] if rel else args[0]
        else:
            ex, ey = args[-2], args[-1]
            x, y = (x + ex, y + ey) if rel else (ex, ey)
        if up == "M":
            if len(pts) > 1:
                out.append((pts, False))
            pts = [(x, y)]
            start = (x, y)
            cmd = "l" if rel else "L"  # further pairs after M are line-tos
        else:
            pts.append((x, y))
    if len(pts) > 1:
        out.append((pts, False))
    return out


def svg_to_rgb(svg: str, scale: float = 1.0) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """Rasterise ``svg`` (our renderers' subset) to an ``(H, W, 3)`` ``uint8`` array."""
    root = ET.fromstring(svg)
    r = _Rasteriser(root, scale)
    base: dict[str, Any] = {
        "fill": (0.0, 0.0, 0.0),
        "stroke": None,
        "stroke_width": 1.0,
        "opacity": 1.0,
        "fill_alpha": 1.0,
        "stroke_alpha": 1.0,
        "font_size": 16.0,
    }
    style = r.style_of(root, base)
    for child in root:
        r.draw(child, style)
    return np.clip(np.rint(r.canvas), 0, 255).astype(np.uint8)

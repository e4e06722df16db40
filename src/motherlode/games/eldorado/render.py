"""Text and SVG views of El Dorado (all sheets are open, so every seat sees everything).

The SVG draws each player's sheet as printed: the route zone (hexes with their symbols,
temples, settlements with their fees, the golden temple, the hat, the reward dice of
map 1, the temple symbols on the right with the yellow one), and the resources-and-helpers
zone below (black frames, the spaces in front of each, what it gives). The dice in the
middle lie on top. Everything a legal action of the seat to move acts on carries
``data-action`` and a title; a panel lists every legal action as a clickable chip.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eldorado"), seed=1)
>>> svg = state.render_svg(0)
>>> svg.startswith("<svg") and 'data-action="take d0"' in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from typing import Any

from motherlode.core.protocol import Player, Renderer, TextMark
from motherlode.core.svg import Layers, element, flow_legend, once
from motherlode.games.eldorado.game import EldoradoState
from motherlode.games.eldorado.sheets import (
    COIN0,
    GOLDEN,
    PATH,
    SETTLEMENT,
    SLOT_ANY,
    SLOT_COIN,
    SYMBOL_LETTERS,
    SYMBOLS,
    TEMPLE,
    Sheet,
    face_name,
)

SYMBOL_COLOURS = ("#6b8e23", "#4682b4", "#e07b24", "#8e44ad", "#c8a165", "#7f8c8d")

LEGEND = (
    "M machete  P paddle  T torch  A amulet  K map  S signpost (a joker)\n"
    "t temple (t2: your offering of 2)  $n Muisca settlement, fee n\n"
    "GOLD golden temple  * amulet with the signpost-die reward  (M ) visited\n"
    "{x.} the spaces in front of a resource, x filled"
)
"""The text board's symbols, printed under it (lines within 78 characters)."""


def _pts(points: list[tuple[float, float]], cx: float, cy: float, k: float) -> str:
    return " ".join(f"{cx + x * k:.1f},{cy + y * k:.1f}" for x, y in points)


def symbol(kind: int | str, cx: float, cy: float, size: float = 7.0, fill: str = "#fff") -> str:
    """A sheet symbol drawn with SVG shapes (never a font glyph, which a browser without
    the font shows as an empty box): 0..5 machete, paddle, torch, amulet, map, signpost;
    ``temple``, ``golden`` (a star), ``start`` (an arrow), ``hat``."""
    k = size / 7.0
    line: dict[str, Any] = {
        "stroke": fill,
        "stroke_width": max(1.0, 1.6 * k),
        "stroke_linecap": "round",
    }
    if kind == 0:  # machete: a long curved blade with a handle
        return element(
            "polygon",
            points=_pts([(-5, 5), (4, -5), (6, -6), (5, -3), (-3, 6)], cx, cy, k),
            fill=fill,
        ) + element("line", x1=cx - 5 * k, y1=cy + 5 * k, x2=cx - 7 * k, y2=cy + 7 * k, **line)
    if kind == 1:  # paddle: a shaft and a blade
        return element(
            "line", x1=cx - 6 * k, y1=cy + 6 * k, x2=cx + 1 * k, y2=cy - 1 * k, **line
        ) + element(
            "polygon",
            points=_pts([(0, -2), (2, -6), (5, -7), (6, -5), (5, -2), (2, 0)], cx, cy, k),
            fill=fill,
        )
    if kind == 2:  # torch: a stick and a flame
        return element(
            "rect", x=cx - 1.2 * k, y=cy - 1 * k, width=2.4 * k, height=8 * k, fill=fill
        ) + element(
            "polygon",
            points=_pts([(0, -7), (3.5, -2), (0, -0.5), (-3.5, -2)], cx, cy, k),
            fill=fill,
        )
    if kind == 3:  # amulet: a ring with a stone
        return (
            element(
                "circle",
                cx=cx,
                cy=cy + 1 * k,
                r=5 * k,
                fill="none",
                stroke=fill,
                stroke_width=1.5 * k,
            )
            + element("circle", cx=cx, cy=cy + 1 * k, r=2 * k, fill=fill)
            + element("line", x1=cx, y1=cy - 4 * k, x2=cx, y2=cy - 7 * k, **line)
        )
    if kind == 4:  # map: a folded sheet
        return (
            element(
                "polygon",
                points=_pts(
                    [(-6, -5), (-2, -6), (2, -5), (6, -6), (6, 5), (2, 6), (-2, 5), (-6, 6)],
                    cx,
                    cy,
                    k,
                ),
                fill=fill,
            )
            + element(
                "line",
                x1=cx - 2 * k,
                y1=cy - 6 * k,
                x2=cx - 2 * k,
                y2=cy + 5 * k,
                stroke="#555",
                stroke_width=0.8,
            )
            + element(
                "line",
                x1=cx + 2 * k,
                y1=cy - 5 * k,
                x2=cx + 2 * k,
                y2=cy + 6 * k,
                stroke="#555",
                stroke_width=0.8,
            )
        )
    if kind == 5:  # signpost: a post with an arrow board
        return element(
            "line", x1=cx - 2 * k, y1=cy - 6 * k, x2=cx - 2 * k, y2=cy + 7 * k, **line
        ) + element(
            "polygon",
            points=_pts([(-4, -6), (4, -6), (7, -3.5), (4, -1), (-4, -1)], cx, cy, k),
            fill=fill,
        )
    if kind == "temple":
        return element("polygon", points=_pts([(0, -7), (7, 5), (-7, 5)], cx, cy, k), fill=fill)
    if kind == "golden":
        star = [
            (
                math.cos(math.radians(-90 + 36 * i)) * (7 if i % 2 == 0 else 3),
                math.sin(math.radians(-90 + 36 * i)) * (7 if i % 2 == 0 else 3),
            )
            for i in range(10)
        ]
        return element("polygon", points=_pts(star, cx, cy, k), fill=fill)
    if kind == "start":
        return element("polygon", points=_pts([(-3, -4), (4, 0), (-3, 4)], cx, cy, k), fill=fill)
    # the hat (circled by the starting player): a brim and a crown
    return (
        element("ellipse", cx=cx, cy=cy + 3 * k, rx=8 * k, ry=2.2 * k, fill=fill)
        + element(
            "rect", x=cx - 4.5 * k, y=cy - 6 * k, width=9 * k, height=9 * k, rx=1.5 * k, fill=fill
        )
        + element("rect", x=cx - 4.5 * k, y=cy, width=9 * k, height=1.8 * k, fill="#c0392b")
    )


def _letter(face: int) -> str:
    return str(face - COIN0) if face > COIN0 else SYMBOL_LETTERS[face]


# -- text -------------------------------------------------------------------------------


def text_board(state: EldoradoState, seat: Player | None = None) -> str:
    """A terminal view: the dice, then each player's route and resources (the same for
    every ``seat``: all sheets are open).

    Visited spaces are in parentheses ``(M )``; a resource's spaces in braces, ``x``
    filled (no square brackets, which terminal markup would eat).
    """
    g = state.game
    sh = g.sheet
    level = "hard" if g.cfg.hard else "easy"
    mover = state.current_player()
    lines = [
        f'El Dorado: sheet {sh.number} "{sh.title}" ({level}: {g.required} temples,'
        f" golden >= {sh.golden_minimum}) - round {state.round}/{g.cfg.max_rounds},"
        f" {state.phase_name()}" + (f", P{mover + 1} to move" if mover >= 0 else ""),
    ]
    middle = " ".join(f"d{d}:{face_name(f)}" for d, f in enumerate(state.middle) if f >= 0)
    lines.append(
        "middle: "
        + (middle or "(empty)")
        + (f"   rolling: {' '.join(f'd{d}' for d in state.to_roll)}" if state.to_roll else "")
    )
    held = [
        f"d{d}:{face_name(state.held[d])} x{state.uses[d]}" for d in range(7) if state.held[d] >= 0
    ]
    if held or state.items or state.reward:
        turn = "chosen: " + (" ".join(held) or "-")
        if state.res_active >= 0:
            turn += f"   resource {sh.resources[state.res_active].id}"
            turn += f" ({len(state.items)} item(s) left)"
        if state.reward:
            turn += "   reward signpost to use now"
        lines.append(turn)
    minima = [f"{sh.spaces[s].label}>={m}" for s, m in enumerate(state.minima) if m >= 0]
    if minima:
        lines.append("temple minima: " + " ".join(minima))
    width = max(s.col for s in sh.spaces) + 1
    height = max(s.row for s in sh.spaces) + 1
    grid = {(s.col, s.row): s for s in sh.spaces}
    for p in range(g.num_players):
        done = " - IN EL DORADO" if state.entered(p) else ""
        lines.append("")
        hat = " (hat)" if p == g.cfg.first_player else ""
        lines.append(
            f"P{p + 1}{hat}: temples {state.temples_offered(p)}/{g.required},"
            f" coins offered {state.coins_offered(p)}{done}"
        )
        lines.append("    " + "".join(f"{chr(97 + c):^4}" for c in range(width)))
        for r in range(height):
            row = f"{r + 1:>2}  " + ("  " if r % 2 else "")
            for c in range(width):
                sp = grid.get((c, r))
                if sp is None:
                    row += "    "
                    continue
                if sp.kind == PATH:
                    mark = SYMBOL_LETTERS[sp.symbol] + ("*" if sp.reward else "")
                elif sp.kind == TEMPLE:
                    off = [x for t, x in state.offers[p] if t == sp.index]
                    mark = f"t{off[0]}" if off else "t"
                elif sp.kind == SETTLEMENT:
                    mark = f"${sp.fee}"
                else:
                    mark = "GOLD"
                visited = (state.visited[p] >> sp.index) & 1
                row += f"({mark:^2})" if visited else f" {mark:^2} "
            lines.append(row.rstrip())
        res_parts = []
        for res in sh.resources:
            if res.visit:
                state_mark = "hired" if state.obtained(p, res.index) else "-"
                res_parts.append(f"{res.id}:{state_mark}")
                continue
            bits = "".join("x" if (state.filled[p] >> s) & 1 else "." for s in res.slots)
            if (state.used[p] >> res.index) & 1:
                bits += " used"
            elif state.obtained(p, res.index):
                bits += " HAVE" if not res.helper else " hired"
            res_parts.append(f"{res.id}{{{bits}}}")
        for k in range(0, len(res_parts), 4):
            lines.append("    " + "  ".join(res_parts[k : k + 4]))
        paid = [
            f"{sh.spaces[s].label}:{c}/{sh.spaces[s].fee}"
            for s, c in enumerate(state.paid[p])
            if c and not (state.visited[p] >> s) & 1
        ]
        if paid:
            lines.append("    settlement payments: " + " ".join(paid))
    lines.append("")
    lines.append("spaces: column letter + row number (c4)")
    lines.append(LEGEND)
    return "\n".join(lines)


def text_marks(state: EldoradoState, seat: Player | None = None) -> list[TextMark]:
    """Where a terminal colours :func:`text_board`: the players' names, the temples and
    El Dorado, and what the legal moves of ``seat`` act on: the dice in the middle that
    may be taken, the spaces and the resources' spaces its chosen die may fill."""
    g = state.game
    sh = g.sheet
    lines = text_board(state, seat).split("\n")
    mover = state.current_player()
    labels = {sp.label: sp for sp in sh.spaces}
    dice: set[str] = set()
    spaces: set[str] = set()
    resources: set[str] = set()
    if mover >= 0 and (seat is None or seat == mover):
        for a in state.legal_actions():
            words = state.action_to_string(a).split()
            if words[0] == "take" and len(words) == 2:
                dice.add(words[1])
            for w in words[1:]:
                if w in labels:
                    spaces.add(w)
                elif "/" in w:
                    resources.add(w.split("/", 1)[0])
    marks: list[TextMark] = []
    for d in dice:
        at = lines[1].find(f" {d}:")
        if at >= 0:
            marks.append((1, at + 1, at + 1 + len(d), "move"))
    blocks = [n for n, text in enumerate(lines) if text.startswith("P") and ": temples " in text]
    for p, start in enumerate(blocks):
        marks.append((start, 0, len(f"P{p + 1}"), f"seat{p}"))
        for sp in sh.spaces:
            line = start + 2 + sp.row
            col = 4 + (2 if sp.row % 2 else 0) + 4 * sp.col
            if p == mover and sp.label in spaces:
                kind = "move"
            elif sp.kind == PATH:
                continue
            else:
                kind = "gold" if sp.kind != SETTLEMENT else "special"
            marks.append((line, col, col + (6 if sp.kind == GOLDEN else 4), kind))
        if p != mover:
            continue
        for n in range(start + 2 + max(sp.row for sp in sh.spaces) + 1, len(lines)):
            text = lines[n]
            if not text.startswith("    ") or not text.strip():
                break
            for res in resources:
                at = text.find(f" {res}{{")
                if at >= 0:
                    marks.append((n, at + 1, text.index("}", at) + 1, "move"))
    return marks


# -- SVG --------------------------------------------------------------------------------

SIZE = 24.0
SQ3 = math.sqrt(3)


def _hex_points(cx: float, cy: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def _slot_shape(kind: int, x: float, y: float, filled: bool) -> str:
    fill = "#444" if filled else "#fff"
    if kind > SLOT_COIN:  # the flat symbol "a resource or die with c coins"
        return element(
            "rect",
            x=x - 8,
            y=y - 8,
            width=16,
            height=16,
            fill="#555" if filled else "#f4d03f",
            stroke="#222",
            stroke_width=0.8,
        ) + element(
            "text",
            f"{kind - SLOT_COIN}$",
            x=x,
            y=y + 4,
            font_size=10,
            text_anchor="middle",
            fill="#fff" if filled else "#000",
        )
    if kind == SLOT_COIN:
        return element("circle", cx=x, cy=y, r=6, fill=fill, stroke="#222", stroke_width=1)
    if kind == SLOT_ANY:
        shape = element(
            "rect",
            x=x - 8,
            y=y - 8,
            width=16,
            height=16,
            rx=3,
            fill=fill,
            stroke="#222",
            stroke_width=1.2,
        )
        dots = "".join(
            element("circle", cx=x + dx, cy=y + dy, r=1.6, fill="#fff" if filled else "#222")
            for dx, dy in ((-4, -4), (4, 4), (0, 0))
        )
        return shape + dots
    colour = "#555" if filled else SYMBOL_COLOURS[kind]
    return element(
        "rect", x=x - 8, y=y - 8, width=16, height=16, fill=colour, stroke="#222", stroke_width=0.8
    ) + symbol(kind, x, y, 5.5)


def _legend(x: float, y: float) -> str:
    """The sheet's symbols as drawn, with their meanings (absolute coordinates, no
    transforms: the raster adapter draws this SVG too)."""

    def tile(colour: str, inner: Callable[[float, float], str]) -> Callable[[float, float], str]:
        def draw(cx: float, cy: float) -> str:
            return element("rect", x=cx - 8, y=cy - 8, width=16, height=16, fill=colour) + inner(
                cx, cy
            )

        return draw

    def label(text: str, colour: str = "#000") -> Callable[[float, float], str]:
        return lambda cx, cy: element(
            "text", text, x=cx, y=cy + 4, font_size=9, text_anchor="middle", fill=colour
        )

    def route(kind: int) -> Callable[[float, float], str]:
        return lambda cx, cy: symbol(kind, cx, cy, 5.5)

    items: list[tuple[Callable[[float, float], str], str]] = [
        (tile(SYMBOL_COLOURS[k], route(k)), SYMBOLS[k] + (" (joker)" if k == 5 else ""))
        for k in range(6)
    ]
    items += [
        (tile("#f4d03f", label("2$")), "2 coins"),
        (tile("#d4ac0d", lambda cx, cy: symbol("temple", cx, cy, 5.5)), "temple"),
        (tile("#a04000", label("3$", "#fff")), "settlement (fee)"),
        (tile("#f1c40f", lambda cx, cy: symbol("golden", cx, cy, 7)), "golden temple"),
        (
            tile(
                "#888",
                lambda cx, cy: element(
                    "rect", x=cx - 5, y=cy - 5, width=10, height=10, fill="#000", fill_opacity=0.45
                ),
            ),
            "visited",
        ),
        (lambda cx, cy: symbol("start", cx, cy, 5, "#7a5c2e"), "start space"),
        (lambda cx, cy: symbol("hat", cx, cy, 5.5, "#3e2723"), "the hat (began)"),
    ]
    out = flow_legend(items, x + 8, y, width=592, line=20, gap=24, per_char=5.8, text_dx=12)
    return element("g", raw="".join(out))


@dataclass(frozen=True)
class _Layout:
    """Where everything of one config lies (computed once per sheet and player count)."""

    sheet_w: float
    sheet_h: float
    route_h: float
    box_w: float
    tops: tuple[float, ...]
    """Per player: the top of its sheet (sheets in seat order, P1 first)."""
    panel_y: float
    """The top of the seat's action panel."""
    height: float


PANEL_ROWS = 7
"""Rows reserved for the action panel (the most legal actions seen in random games of every
conformance config fill 5 rows), so that the board's size is the same in every position."""


def _layout(sheet: Sheet, players: int) -> _Layout:
    width = max(s.col for s in sheet.spaces) + 1
    height = max(s.row for s in sheet.spaces) + 1
    route_w = SIZE * SQ3 * (width + 0.5) + 40
    sheet_w = route_w + 150
    route_h = SIZE * 1.5 * (height - 1) + 2 * SIZE + 50
    sheet_h = route_h + (len(sheet.resources) + 3) // 4 * 70
    tops = tuple(134.0 + p * (sheet_h + 16) for p in range(players))
    panel_y = 134.0 + players * (sheet_h + 16)
    return _Layout(
        sheet_w,
        sheet_h,
        route_h,
        (sheet_w - 30) / 4,
        tops,
        panel_y,
        panel_y + 24 + 26 * PANEL_ROWS + 10,
    )


def _centre(sp: Any, x0: float, y0: float) -> tuple[float, float]:
    return (
        x0 + 24 + SIZE * SQ3 * (sp.col + 0.5 * (sp.row % 2)) + SIZE,
        y0 + 48 + SIZE * 1.5 * sp.row + SIZE,
    )


_STATIC: dict[tuple[int, int, bool, int], tuple[Sheet, _Layout, str]] = {}


def _static(sheet: Sheet, players: int, hard: bool, first: int) -> tuple[_Layout, str]:
    """The layout and the static layer of one config: the title, the legend and every
    sheet's printing (its route's spaces, coordinates, temple symbols, the hat). Sheets are
    loaded once per file (``load_sheet`` is cached), so this keeps one entry per config."""
    key = (id(sheet), players, hard, first)
    found = _STATIC.get(key)
    if found is not None and found[0] is sheet:
        return found[1], found[2]
    lay = _layout(sheet, players)
    body = [
        element(
            "text",
            f"El Dorado - expedition {sheet.number}: {sheet.title}"
            f" ({'harder' if hard else 'easier'} level)",
            x=12,
            y=22,
            font_size=16,
            font_weight="bold",
        ),
        element("text", "dice in the middle:", x=12, y=50, font_size=12),
        _legend(12, 98),
    ]
    for p in range(players):
        body.append(_sheet_static(sheet, p, 10, lay.tops[p], lay, hard, p == first))
    markup = "".join(body)
    _STATIC[key] = (sheet, lay, markup)
    return lay, markup


def _sheet_static(
    sheet: Sheet, p: int, x0: float, y0: float, lay: _Layout, hard: bool, hat: bool
) -> str:
    w = lay.sheet_w
    out = [
        element(
            "rect",
            x=x0,
            y=y0,
            width=w,
            height=lay.sheet_h,
            rx=10,
            fill="#fbf3dc",
            stroke="#7a5c2e",
            stroke_width=2,
        )
    ]
    if hat:  # the hat, circled by the starting player
        out.append(
            element(
                "circle",
                cx=x0 + w - 20,
                cy=y0 + 18,
                r=11,
                fill="none",
                stroke="#c0392b",
                stroke_width=2,
            )
        )
        out.append(
            element(
                "g",
                raw="<title>the hat: this player began</title>"
                + symbol("hat", x0 + w - 20, y0 + 19, 5.5, "#3e2723"),
            )
        )
    cols = max(sp.col for sp in sheet.spaces) + 1
    rows = max(sp.row for sp in sheet.spaces) + 1
    for c in range(cols):  # coordinates: column letters above, row numbers on the left
        x = x0 + 24 + SIZE * SQ3 * c + SIZE
        out.append(
            element(
                "text",
                chr(97 + c),
                x=x,
                y=y0 + 36,
                font_size=10,
                text_anchor="middle",
                fill="#7a5c2e",
            )
        )
    for r in range(rows):
        y = y0 + 48 + SIZE * 1.5 * r + SIZE
        out.append(
            element(
                "text",
                str(r + 1),
                x=x0 + 9,
                y=y + 4,
                font_size=10,
                text_anchor="middle",
                fill="#7a5c2e",
            )
        )
    for sp in sheet.spaces:
        cx, cy = _centre(sp, x0, y0)
        title = sp.label
        if sp.kind == PATH:
            fill = SYMBOL_COLOURS[sp.symbol]
            glyph = symbol(sp.symbol, cx, cy, 9)
            title += f": {SYMBOLS[sp.symbol]}"
        elif sp.kind == TEMPLE:
            fill, glyph = "#d4ac0d", symbol("temple", cx, cy, 9)
            title += ": temple"
        elif sp.kind == SETTLEMENT:
            fill = "#a04000"
            glyph = element(
                "text",
                f"{sp.fee}$",
                x=cx,
                y=cy + 5,
                font_size=14,
                text_anchor="middle",
                fill="#fff",
            )
            title += f": Muisca settlement, fee {sp.fee}"
        else:
            fill, glyph = "#f1c40f", symbol("golden", cx, cy, 11, "#fff")
            title += f": golden temple (El Dorado), offering >= {sheet.golden_minimum}"
        shape = element(
            "polygon",
            points=_hex_points(cx, cy, SIZE - 1),
            fill=fill,
            stroke="#3e2723",
            stroke_width=2.5 if sp.kind == GOLDEN else 1,
        )
        shape += glyph
        if sp.start:
            shape += symbol("start", cx - SIZE - 4, cy, 4, "#7a5c2e")
        if sp.kind == SETTLEMENT:  # the fee's boxes, filled in (public) as it is paid
            for k in range(sp.fee):
                shape += element(
                    "circle",
                    cx=cx - 9 + 6 * k,
                    cy=cy + 13,
                    r=2.5,
                    fill="#fff",
                    stroke="#000",
                    stroke_width=0.6,
                )
        if sp.reward:
            shape += element(
                "rect",
                x=cx - 6,
                y=cy - SIZE - 8,
                width=12,
                height=12,
                rx=2,
                fill="#fff",
                stroke="#000",
                stroke_width=0.8,
            )
            shape += symbol(5, cx, cy - SIZE - 2, 4, "#000")
        out.append(element("g", raw=f"<title>{title}</title>{shape}"))
    # the temple symbols on the right (one yellow: crossed out at the easier level)
    tx = x0 + w - 130
    out.append(element("text", "temples", x=tx, y=y0 + 52, font_size=11))
    for k in range(sheet.temple_symbols):
        ty = y0 + 60 + k * 30
        yellow = k == sheet.temple_symbols - 1
        out.append(
            element(
                "rect",
                x=tx,
                y=ty,
                width=26,
                height=24,
                fill="#f7dc6f" if yellow else "#fff",
                stroke="#7d6608",
                stroke_width=1.2,
            )
        )
        if yellow and not hard:
            out.append(
                element(
                    "line", x1=tx, y1=ty, x2=tx + 26, y2=ty + 24, stroke="#c0392b", stroke_width=2
                )
            )
    ry = y0 + lay.route_h
    out.append(
        element(
            "line",
            x1=x0 + 8,
            y1=ry - 8,
            x2=x0 + w - 8,
            y2=ry - 8,
            stroke="#7a5c2e",
            stroke_dasharray="4 3",
        )
    )
    return "".join(out)


def _public(state: EldoradoState, lay: _Layout) -> list[tuple[str, str]]:
    """The public layer (the round, the dice, each sheet's pencil marks and resource
    boxes): the same for every viewer of ``state``."""
    g = state.game
    public = [
        (
            "round",
            element(
                "text",
                f"round {state.round}",
                x=lay.sheet_w + 10,
                y=50,
                font_size=12,
                font_weight="bold",
                text_anchor="end",
                id="round",
            ),
        )
    ]
    for d in range(7):
        face = state.middle[d]
        if face >= 0 or d in state.to_roll:
            public.append((f"die-{d}", _die(d, face)))
    for p in range(g.num_players):
        public += _sheet_public(state, p, 10, lay.tops[p], lay)
    return public


def svg_layers(state: EldoradoState, seat: Player | None = None) -> Layers:
    """The board as DESIGN.md §3b's layers: the title, the legend and the sheets' printing
    (static); the round, the dice, each sheet's pencil marks and resource boxes (public,
    ids ``die-3``, ``p1-head``, ``p1-c4``, ``p1-temples``, ``p1-machete``); the viewer's
    marker, the clickable spaces, slots, boxes and dice and the action panel of the seat to
    move (seat). Sheets lie in seat order, P1 first, for every viewer."""
    g = state.game
    sh = g.sheet
    lay, static = _static(sh, g.num_players, g.cfg.hard, g.cfg.first_player)
    public = once(state, "public", lambda: _public(state, lay))
    seat_layer: list[tuple[str, str]] = []
    if seat is not None and 0 <= seat < g.num_players:
        x0, y0 = 10, lay.tops[seat]
        seat_layer.append(
            (
                "you",
                element(
                    "text",
                    "your sheet",
                    x=x0 + lay.sheet_w - 40,
                    y=y0 + 22,
                    font_size=12,
                    font_style="italic",
                    text_anchor="end",
                    fill="#7a5c2e",
                    id="you",
                ),
            )
        )
    mover = state.current_player()
    if mover >= 0 and seat == mover:  # spectators and other seats get no buttons
        seat_layer += _actions(state, mover, lay)
    return Layers(
        lay.sheet_w + 20,
        lay.height,
        static,
        tuple(public),
        tuple(seat_layer),
        title=f"El Dorado sheet {sh.number}",
    )


def svg_board(state: EldoradoState, seat: Player | None = None) -> str:
    """Every sheet, the dice and, for the mover, the clickable actions."""
    return svg_layers(state, seat).compose()


@cache
def _die(d: int, face: int) -> str:
    """A die in the middle (``die-3``): its face, ``?`` while it is to be rolled."""
    x = 130.0 + d * 44
    colour = "#f4d03f" if face > COIN0 else (SYMBOL_COLOURS[face] if face >= 0 else "#ddd")
    die = element(
        "rect", x=x, y=32, width=32, height=32, rx=6, fill=colour, stroke="#222", stroke_width=1.5
    )
    if 0 <= face <= COIN0:
        die += symbol(face, x + 16, 48, 9)
    else:
        label = "?" if face < 0 else f"{face - COIN0}$"
        die += element("text", label, x=x + 16, y=54, font_size=16, text_anchor="middle")
    die += element("text", f"d{d}", x=x + 16, y=76, font_size=9, text_anchor="middle")
    return f'<g id="die-{d}">{die}</g>'


@dataclass(frozen=True)
class _Box:
    """What a resource box says, whatever is pencilled in it."""

    id: str
    label: str
    helper: bool
    visit: str
    slot_kinds: tuple[int, ...]


_PLANS: dict[tuple[int, int], tuple[Sheet, tuple[_SheetPlan, ...]]] = {}


@dataclass(frozen=True)
class _SheetPlan:
    """One sheet's places, computed once per config: its spaces ``(index, label, kind,
    cx, cy, reward)`` and its resource boxes ``(box, x, y, slots)``."""

    spaces: tuple[tuple[int, str, str, float, float, bool], ...]
    boxes: tuple[tuple[_Box, float, float, tuple[int, ...]], ...]


def _plans(sh: Sheet, lay: _Layout) -> tuple[_SheetPlan, ...]:
    key = (id(sh), len(lay.tops))
    found = _PLANS.get(key)
    if found is not None and found[0] is sh:
        return found[1]
    plans = []
    for y0 in lay.tops:
        spaces = tuple(
            (sp.index, sp.label, sp.kind, *_centre(sp, 10, y0), bool(sp.reward)) for sp in sh.spaces
        )
        ry = y0 + lay.route_h
        boxes = tuple(
            (
                _box_text(sh, res.index),
                10 + 10 + (res.index % 4) * (lay.box_w + 3),
                ry + (res.index // 4) * 70,
                tuple(res.slots),
            )
            for res in sh.resources
        )
        plans.append(_SheetPlan(spaces, boxes))
    _PLANS[key] = (sh, tuple(plans))
    return tuple(plans)


def _sheet_public(
    state: EldoradoState, p: int, x0: float, y0: float, lay: _Layout
) -> list[tuple[str, str]]:
    """One sheet's pencil marks: its heading, each marked space, the temple symbols' numbers
    and each resource box."""
    g = state.game
    sh = g.sheet
    plan = _plans(sh, lay)[p]
    n = p + 1
    head = f"P{n}" + (" - IN EL DORADO" if state.entered(p) else "")
    out = [
        (
            f"p{n}-head",
            f'<text x="{x0 + 12}" y="{y0 + 20}" font-size="13"'
            f' font-weight="bold" id="p{n}-head">{head}</text>',
        )
    ]
    visited = state.visited[p]
    offers: dict[int, int] = {}
    for t, c in state.offers[p]:
        offers.setdefault(t, c)
    paid, minima, claimed = state.paid[p], state.minima, state.claimed
    golden_minimum = sh.golden_minimum
    for i, label, kind, cx, cy, reward in plan.spaces:
        seen = bool((visited >> i) & 1)
        offered = offers.get(i, -1)
        minimum = golden_minimum if kind == GOLDEN else minima[i] if kind == TEMPLE else -1
        coins = paid[i] if kind == SETTLEMENT else 0
        crossed = reward and claimed[i] >= 0 and claimed[i] != p
        if seen or offered >= 0 or minimum >= 0 or coins or crossed:
            out.append(
                (
                    f"p{n}-{label}",
                    _space_marks(n, label, kind, cx, cy, seen, offered, minimum, coins, crossed),
                )
            )
    ordinary = tuple(c for t, c in state.offers[p] if t != sh.golden)
    out.append(
        (
            f"p{n}-temples",
            _temple_numbers(
                n, ordinary, x0 + lay.sheet_w - 130, y0, sh.temple_symbols, g.cfg.hard, g.required
            ),
        )
    )
    filled, used = state.filled[p], state.used[p]
    for index, (box, bx, by, slots) in enumerate(plan.boxes):
        marks = tuple(bool((filled >> s) & 1) for s in slots)
        out.append(
            (
                f"p{n}-{box.id}",
                _resource(
                    box,
                    n,
                    bx,
                    by,
                    lay.box_w,
                    state.obtained(p, index),
                    bool((used >> index) & 1),
                    marks,
                ),
            )
        )
    return out


@lru_cache(maxsize=16384)  # bounded by spaces x marks: a server runs for days
def _space_marks(
    n: int,
    label: str,
    kind: str,
    cx: float,
    cy: float,
    visited: bool,
    offered: int,
    minimum: int,
    paid: int,
    crossed: bool,
) -> str:
    """What a pencil adds to a space (``p1-c4``): an offering on a temple, the minimum above
    it, the settlement's paid coins, a reward claimed by another, the space filled in."""
    shape = ""
    if offered >= 0:  # a number ON the temple: an offering made
        shape += element(
            "text", str(offered), x=cx + 9, y=cy + 14, font_size=11, font_weight="bold", fill="#000"
        )
    elif minimum >= 0:  # a number ABOVE it: the minimum
        mx, my = (cx + SIZE + 8, cy + 4) if kind == GOLDEN else (cx, cy - SIZE + 8)
        shape += element(
            "text",
            str(minimum),
            x=mx,
            y=my,
            font_size=11,
            text_anchor="middle",
            fill="#7b241c",
            font_weight="bold",
        )
    for k in range(paid):
        shape += element(
            "circle",
            cx=cx - 9 + 6 * k,
            cy=cy + 13,
            r=2.5,
            fill="#000",
            stroke="#000",
            stroke_width=0.6,
        )
    if crossed:
        shape += element(
            "line",
            x1=cx - 7,
            y1=cy - SIZE - 9,
            x2=cx + 7,
            y2=cy - SIZE + 5,
            stroke="#c0392b",
            stroke_width=1.5,
        )
    if visited:  # filled in with the pencil
        shape += element(
            "polygon", points=_hex_points(cx, cy, SIZE - 5), fill="#000", fill_opacity=0.45
        )
    return f'<g id="p{n}-{label}">{shape}</g>' if shape else ""


@lru_cache(maxsize=4096)
def _temple_numbers(
    n: int, ordinary: tuple[int, ...], tx: float, y0: float, symbols: int, hard: bool, required: int
) -> str:
    """The offerings written in the temple symbols (``p1-temples``), extras beside them."""
    out = [f'<g id="p{n}-temples">']
    for k in range(symbols):
        ty = y0 + 60 + k * 30
        if k == symbols - 1 and not hard:
            continue  # the yellow symbol, crossed out at the easier level
        index = k if (hard or k < symbols - 1) else -1
        if 0 <= index < len(ordinary):
            out.append(
                element(
                    "text",
                    str(ordinary[index]),
                    x=tx + 13,
                    y=ty + 17,
                    font_size=13,
                    text_anchor="middle",
                    font_weight="bold",
                )
            )
    extras = ordinary[required:]
    if extras:
        out.append(
            element("text", "+ " + " ".join(map(str, extras)), x=tx + 32, y=y0 + 78, font_size=11)
        )
    out.append("</g>")
    return "".join(out)


_LABELS = {
    "map_as_signpost": "map die = signpost",
    "amulet_as_2_coins": "amulet die = 2 coins",
    "plus_one_coin": "+1 coin on a coin die",
    "reroll_on_torch": "re-roll on a torch",
}


def _box_text(sh: Sheet, index: int) -> _Box:
    res = sh.resources[index]
    if res.helper:
        label = f"{res.name}: {_LABELS[res.ability]}"
    elif res.items:
        label = f"{len(res.items)} x {SYMBOLS[res.items[0]]}"
    elif res.coins:
        label = f"{res.coins} coin{'s' if res.coins > 1 else ''}"
    elif res.zero:
        label = "zero offering"
    else:
        label = res.name
    visit = ", ".join(sh.spaces[s].label for s in res.visit)
    return _Box(res.id, label, res.helper, visit, tuple(sh.slot_kind[s] for s in res.slots))


@lru_cache(maxsize=16384)  # bounded by boxes x marks: a server runs for days
def _resource(
    box: _Box,
    n: int,
    bx: float,
    by: float,
    box_w: float,
    obtained: bool,
    used: bool,
    filled: tuple[bool, ...],
) -> str:
    """A resource or helper box (``p1-machete``): its frame, what it gives, its spaces."""
    parts = [
        element(
            "rect",
            x=bx,
            y=by,
            width=box_w,
            height=62,
            rx=4,
            fill="#d5f5e3" if obtained and not used else "#fff",
            stroke="#000",
            stroke_width=2.5 if not box.helper else 1.2,
            stroke_dasharray=None if not box.helper else "5 2",
        )
    ]
    parts.append(
        element("text", box.label, x=bx + 6, y=by + 16, font_size=10.5, font_weight="bold")
    )
    parts.append(
        element(
            "text", box.id, x=bx + box_w - 4, y=by + 58, font_size=8, text_anchor="end", fill="#777"
        )
    )
    if box.visit:
        parts.append(element("text", "visit " + box.visit, x=bx + 6, y=by + 40, font_size=10))
    for k, kind in enumerate(box.slot_kinds):
        parts.append(_slot_shape(kind, bx + 16 + k * 22, by + 38, filled[k]))
    if used:
        parts.append(
            element("line", x1=bx, y1=by, x2=bx + box_w, y2=by + 62, stroke="#555", stroke_width=2)
        )
    return f'<g id="p{n}-{box.id}">{"".join(parts)}</g>'


def _actions(state: EldoradoState, mover: int, lay: _Layout) -> list[tuple[str, str]]:
    """The mover's clickable dice, boxes, spaces and slots (unpainted shapes over the
    public ones), then every legal action as a chip in the panel below the sheets."""
    g = state.game
    sh = g.sheet
    legal = state.legal_actions()
    names = {a: state.action_to_string(a) for a in legal}
    x0, y0 = 10, lay.tops[mover]
    ry = y0 + lay.route_h
    out: list[tuple[str, str]] = []
    done: set[int] = set()
    for a in legal:
        name = names[a]
        if a >= g.choose_base + 7 and a - g.activate_base in range(len(sh.resources)):
            res = sh.resources[a - g.activate_base]
            bx = x0 + 10 + (res.index % 4) * (lay.box_w + 3)
            by = ry + (res.index // 4) * 70
            hit = _hit_rect(bx, by, lay.box_w, 62)
            out.append(_clickable(f"use-{res.id}", hit, name, f"use {res.name}"))
        elif a >= g.choose_base and a - g.choose_base < 7:
            d = a - g.choose_base
            hit = _hit_rect(130.0 + d * 44, 32, 32, 32)
            out.append(
                _clickable(f"take-d{d}", hit, name, f"take d{d} ({face_name(state.middle[d])})")
            )
    for a in legal:  # spaces and slots over the boxes: the first action on each target
        if a >= g.choose_base or a % g.nt in done:
            continue
        target = a % g.nt
        done.add(target)
        name = names[a]
        if target < g.ns:
            sp = sh.spaces[target]
            cx, cy = _centre(sp, x0, y0)
            hit = (
                f'<polygon points="{_hex_points(cx, cy, SIZE - 1)}" fill="#fff" fill-opacity="0"/>'
            )
            out.append(_clickable(f"space-{sp.label}", hit, name, f"{name} ({sp.label})"))
        else:
            slot = target - g.ns
            res = sh.resources[sh.slot_owner[slot]]
            bx = x0 + 10 + (res.index % 4) * (lay.box_w + 3)
            by = ry + (res.index // 4) * 70
            k = res.slots.index(slot)
            hit = _hit_rect(bx + 16 + k * 22 - 8, by + 30, 16, 16)
            out.append(_clickable(f"slot-{sh.slot_label(slot).replace('/', '-')}", hit, name, name))
    out.append(
        (
            "panel-head",
            element(
                "text",
                f"P{mover + 1} to move - legal actions:",
                x=12,
                y=lay.panel_y + 14,
                font_size=12,
                font_weight="bold",
                id="panel-head",
            ),
        )
    )
    x, y = 12.0, lay.panel_y + 24
    for i, a in enumerate(legal):
        text = names[a]
        w = 7.2 * len(text) + 14
        if x + w > lay.sheet_w:
            x, y = 12.0, y + 26
        out.append(_chip(i, text, x, y, w))
        x += w + 6
    return out


@lru_cache(maxsize=4096)
def _chip(i: int, text: str, x: float, y: float, w: float) -> tuple[str, str]:
    chip = element(
        "rect", x=x, y=y, width=w, height=20, rx=10, fill="#fdf2d0", stroke="#b7950b"
    ) + element(
        "text",
        text,
        x=x + w / 2,
        y=y + 14,
        font_size=11,
        text_anchor="middle",
        font_family="monospace",
    )
    return _clickable(f"act-{i + 1}", chip, text, text)


def _hit_rect(x: float, y: float, w: float, h: float) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="#fff" fill-opacity="0"/>'


def _clickable(element_id: str, shape: str, action: str, title: str) -> tuple[str, str]:
    """A seat element a click acts on: its id, ``data-action`` and a tooltip."""
    return element_id, (
        f'<g id="{element_id}" class="action" data-action="{escape(action, quote=True)}"'
        f' style="cursor:pointer"><title>{escape(title)}</title>{shape}</g>'
    )


render_text = text_board  # alias for one release
render_svg = svg_board  # alias for one release

RENDERER = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers, text_marks=text_marks
)

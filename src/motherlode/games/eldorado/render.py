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
from typing import Any

from motherlode.core.protocol import Player, Renderer
from motherlode.core.svg import actionable, document, element, flow_legend
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
    face_name,
)

SYMBOL_COLOURS = ("#6b8e23", "#4682b4", "#e07b24", "#8e44ad", "#c8a165", "#7f8c8d")

LEGEND = ("M machete  P paddle  T torch  A amulet  K map  S signpost (a joker)\n"
          "t temple (t2: your offering of 2)  $n Muisca settlement, fee n\n"
          "GOLD golden temple  * amulet with the signpost-die reward  (M ) visited\n"
          "{x.} the spaces in front of a resource, x filled")
"""The text board's symbols, printed under it (lines within 78 characters)."""


def _pts(points: list[tuple[float, float]], cx: float, cy: float, k: float) -> str:
    return " ".join(f"{cx + x * k:.1f},{cy + y * k:.1f}" for x, y in points)


def symbol(kind: int | str, cx: float, cy: float, size: float = 7.0,
           fill: str = "#fff") -> str:
    """A sheet symbol drawn with SVG shapes (never a font glyph, which a browser without
    the font shows as an empty box): 0..5 machete, paddle, torch, amulet, map, signpost;
    ``temple``, ``golden`` (a star), ``start`` (an arrow), ``hat``."""
    k = size / 7.0
    line: dict[str, Any] = {
        "stroke": fill, "stroke_width": max(1.0, 1.6 * k), "stroke_linecap": "round"}
    if kind == 0:  # machete: a long curved blade with a handle
        return (element("polygon", points=_pts([(-5, 5), (4, -5), (6, -6), (5, -3), (-3, 6)],
                                               cx, cy, k), fill=fill)
                + element("line", x1=cx - 5 * k, y1=cy + 5 * k, x2=cx - 7 * k, y2=cy + 7 * k,
                          **line))
    if kind == 1:  # paddle: a shaft and a blade
        return (element("line", x1=cx - 6 * k, y1=cy + 6 * k, x2=cx + 1 * k, y2=cy - 1 * k,
                        **line)
                + element("polygon", points=_pts([(0, -2), (2, -6), (5, -7), (6, -5), (5, -2),
                                                  (2, 0)], cx, cy, k), fill=fill))
    if kind == 2:  # torch: a stick and a flame
        return (element("rect", x=cx - 1.2 * k, y=cy - 1 * k, width=2.4 * k, height=8 * k,
                        fill=fill)
                + element("polygon", points=_pts([(0, -7), (3.5, -2), (0, -0.5), (-3.5, -2)],
                                                 cx, cy, k), fill=fill))
    if kind == 3:  # amulet: a ring with a stone
        return (element("circle", cx=cx, cy=cy + 1 * k, r=5 * k, fill="none", stroke=fill,
                        stroke_width=1.5 * k)
                + element("circle", cx=cx, cy=cy + 1 * k, r=2 * k, fill=fill)
                + element("line", x1=cx, y1=cy - 4 * k, x2=cx, y2=cy - 7 * k, **line))
    if kind == 4:  # map: a folded sheet
        return (element("polygon", points=_pts([(-6, -5), (-2, -6), (2, -5), (6, -6), (6, 5),
                                                (2, 6), (-2, 5), (-6, 6)], cx, cy, k),
                        fill=fill)
                + element("line", x1=cx - 2 * k, y1=cy - 6 * k, x2=cx - 2 * k, y2=cy + 5 * k,
                          stroke="#555", stroke_width=0.8)
                + element("line", x1=cx + 2 * k, y1=cy - 5 * k, x2=cx + 2 * k, y2=cy + 6 * k,
                          stroke="#555", stroke_width=0.8))
    if kind == 5:  # signpost: a post with an arrow board
        return (element("line", x1=cx - 2 * k, y1=cy - 6 * k, x2=cx - 2 * k, y2=cy + 7 * k,
                        **line)
                + element("polygon", points=_pts([(-4, -6), (4, -6), (7, -3.5), (4, -1),
                                                  (-4, -1)], cx, cy, k), fill=fill))
    if kind == "temple":
        return element("polygon", points=_pts([(0, -7), (7, 5), (-7, 5)], cx, cy, k), fill=fill)
    if kind == "golden":
        star = [(math.cos(math.radians(-90 + 36 * i)) * (7 if i % 2 == 0 else 3),
                 math.sin(math.radians(-90 + 36 * i)) * (7 if i % 2 == 0 else 3))
                for i in range(10)]
        return element("polygon", points=_pts(star, cx, cy, k), fill=fill)
    if kind == "start":
        return element("polygon", points=_pts([(-3, -4), (4, 0), (-3, 4)], cx, cy, k), fill=fill)
    # the hat (circled by the starting player): a brim and a crown
    return (element("ellipse", cx=cx, cy=cy + 3 * k, rx=8 * k, ry=2.2 * k, fill=fill)
            + element("rect", x=cx - 4.5 * k, y=cy - 6 * k, width=9 * k, height=9 * k,
                      rx=1.5 * k, fill=fill)
            + element("rect", x=cx - 4.5 * k, y=cy, width=9 * k, height=1.8 * k, fill="#c0392b"))


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
        f"El Dorado: sheet {sh.number} \"{sh.title}\" ({level}: {g.required} temples,"
        f" golden >= {sh.golden_minimum}) - round {state.round}/{g.cfg.max_rounds},"
        f" {state.phase_name()}" + (f", P{mover + 1} to move" if mover >= 0 else ""),
    ]
    middle = " ".join(f"d{d}:{face_name(f)}" for d, f in enumerate(state.middle) if f >= 0)
    lines.append("middle: " + (middle or "(empty)")
                 + (f"   rolling: {' '.join(f'd{d}' for d in state.to_roll)}"
                    if state.to_roll else ""))
    held = [f"d{d}:{face_name(state.held[d])} x{state.uses[d]}" for d in range(7)
            if state.held[d] >= 0]
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
            lines.append("    " + "  ".join(res_parts[k:k + 4]))
        paid = [f"{sh.spaces[s].label}:{c}/{sh.spaces[s].fee}" for s, c in enumerate(state.paid[p])
                if c and not (state.visited[p] >> s) & 1]
        if paid:
            lines.append("    settlement payments: " + " ".join(paid))
    lines.append("")
    lines.append("spaces: column letter + row number (c4)")
    lines.append(LEGEND)
    return "\n".join(lines)


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
        return (element("rect", x=x - 8, y=y - 8, width=16, height=16,
                        fill="#555" if filled else "#f4d03f", stroke="#222", stroke_width=0.8)
                + element("text", f"{kind - SLOT_COIN}$", x=x, y=y + 4, font_size=10,
                          text_anchor="middle", fill="#fff" if filled else "#000"))
    if kind == SLOT_COIN:
        return element("circle", cx=x, cy=y, r=6, fill=fill, stroke="#222", stroke_width=1)
    if kind == SLOT_ANY:
        shape = element("rect", x=x - 8, y=y - 8, width=16, height=16, rx=3, fill=fill,
                        stroke="#222", stroke_width=1.2)
        dots = "".join(element("circle", cx=x + dx, cy=y + dy, r=1.6,
                               fill="#fff" if filled else "#222")
                       for dx, dy in ((-4, -4), (4, 4), (0, 0)))
        return shape + dots
    colour = "#555" if filled else SYMBOL_COLOURS[kind]
    return (element("rect", x=x - 8, y=y - 8, width=16, height=16, fill=colour, stroke="#222",
                    stroke_width=0.8)
            + symbol(kind, x, y, 5.5))


def _legend(x: float, y: float) -> str:
    """The sheet's symbols as drawn, with their meanings (absolute coordinates, no
    transforms: the raster adapter draws this SVG too)."""

    def tile(colour: str, inner: Callable[[float, float], str]) -> Callable[[float, float], str]:
        def draw(cx: float, cy: float) -> str:
            return element("rect", x=cx - 8, y=cy - 8, width=16, height=16,
                           fill=colour) + inner(cx, cy)
        return draw

    def label(text: str, colour: str = "#000") -> Callable[[float, float], str]:
        return lambda cx, cy: element("text", text, x=cx, y=cy + 4, font_size=9,
                                      text_anchor="middle", fill=colour)

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
        (tile("#888", lambda cx, cy: element("rect", x=cx - 5, y=cy - 5, width=10, height=10,
                                             fill="#000", fill_opacity=0.45)), "visited"),
        (lambda cx, cy: symbol("start", cx, cy, 5, "#7a5c2e"), "start space"),
        (lambda cx, cy: symbol("hat", cx, cy, 5.5, "#3e2723"), "the hat (began)"),
    ]
    out = flow_legend(items, x + 8, y, width=592, line=20, gap=24, per_char=5.8, text_dx=12)
    return element("g", raw="".join(out))


def svg_board(state: EldoradoState, seat: Player | None = None) -> str:
    """Every sheet (the viewer's first), the dice and, for the mover, the clickable actions."""
    g = state.game
    sh = g.sheet
    mover = state.current_player()
    acting = mover >= 0 and seat == mover  # spectators and other seats get no buttons
    legal = state.legal_actions() if acting else []
    names = {a: state.action_to_string(a) for a in legal}
    by_target: dict[int, int] = {}
    for a in legal:
        if a < g.choose_base:
            by_target.setdefault(a % g.nt, a)
    width = max(s.col for s in sh.spaces) + 1
    height = max(s.row for s in sh.spaces) + 1
    route_w = SIZE * SQ3 * (width + 0.5) + 40
    sheet_w = route_w + 150
    route_h = SIZE * 1.5 * (height - 1) + 2 * SIZE + 50
    res_rows = (len(sh.resources) + 3) // 4
    sheet_h = route_h + res_rows * 70
    body: list[str] = []
    # the dice in the middle
    body.append(element("text", f"El Dorado - expedition {sh.number}: {sh.title}"
                        f" ({'harder' if g.cfg.hard else 'easier'} level) - round {state.round}",
                        x=12, y=22, font_size=16, font_weight="bold"))
    body.append(element("text", "dice in the middle:", x=12, y=50, font_size=12))
    for d in range(7):
        x = 130.0 + d * 44
        face = state.middle[d]
        if face < 0 and d not in state.to_roll:
            continue
        colour = "#f4d03f" if face > COIN0 else (SYMBOL_COLOURS[face] if face >= 0 else "#ddd")
        die = element("rect", x=x, y=32, width=32, height=32, rx=6, fill=colour, stroke="#222",
                      stroke_width=1.5)
        if 0 <= face <= COIN0:
            die += symbol(face, x + 16, 48, 9)
        else:
            label = "?" if face < 0 else f"{face - COIN0}$"
            die += element("text", label, x=x + 16, y=54, font_size=16, text_anchor="middle")
        die += element("text", f"d{d}", x=x + 16, y=76, font_size=9, text_anchor="middle")
        action = g.choose_base + d
        if action in names:
            die = actionable(die, names[action], f"take d{d} ({face_name(face)})")
        body.append(die)
    body.append(_legend(12, 98))
    top = 134.0
    order = list(range(g.num_players))
    if seat is not None and 0 <= seat < g.num_players:
        order = order[seat:] + order[:seat]
    for p in order:
        body.append(_sheet(state, p, 10, top, sheet_w, sheet_h, route_h,
                           by_target if acting and p == mover else {}, names,
                           you=(p == seat)))
        top += sheet_h + 16
    # the action panel
    if legal:
        body.append(element("text", f"P{mover + 1} to move - legal actions:", x=12, y=top + 14,
                            font_size=12, font_weight="bold"))
        x, y = 12.0, top + 24
        for a in legal:
            text = names[a]
            w = 7.2 * len(text) + 14
            if x + w > sheet_w:
                x, y = 12.0, y + 26
            chip = (element("rect", x=x, y=y, width=w, height=20, rx=10, fill="#fdf2d0",
                            stroke="#b7950b")
                    + element("text", text, x=x + w / 2, y=y + 14, font_size=11,
                              text_anchor="middle", font_family="monospace"))
            body.append(actionable(chip, text))
            x += w + 6
        top = y + 30
    return document(sheet_w + 20, top + 10, body, title=f"El Dorado sheet {sh.number}")


def _sheet(state: EldoradoState, p: int, x0: float, y0: float, w: float, h: float,
           route_h: float, by_target: dict[int, int], names: dict[int, str], you: bool) -> str:
    g = state.game
    sh = g.sheet
    out: list[str] = []
    out.append(element("rect", x=x0, y=y0, width=w, height=h, rx=10, fill="#fbf3dc",
                       stroke="#7a5c2e", stroke_width=2))
    head = f"P{p + 1}" + (" (you)" if you else "") + (" - IN EL DORADO" if state.entered(p)
                                                        else "")
    out.append(element("text", head, x=x0 + 12, y=y0 + 20, font_size=13, font_weight="bold"))
    if p == g.cfg.first_player:  # the hat, circled by the starting player
        out.append(element("circle", cx=x0 + w - 20, cy=y0 + 18, r=11, fill="none",
                           stroke="#c0392b", stroke_width=2))
        out.append(element("g", raw="<title>the hat: this player began</title>"
                           + symbol("hat", x0 + w - 20, y0 + 19, 5.5, "#3e2723")))
    visited = state.visited[p]

    def centre(col: int, row: int) -> tuple[float, float]:
        return (x0 + 24 + SIZE * SQ3 * (col + 0.5 * (row % 2)) + SIZE,
                y0 + 48 + SIZE * 1.5 * row + SIZE)

    cols = max(sp.col for sp in sh.spaces) + 1
    rows = max(sp.row for sp in sh.spaces) + 1
    for c in range(cols):  # coordinates: column letters above, row numbers on the left
        out.append(element("text", chr(97 + c), x=centre(c, 0)[0], y=y0 + 36, font_size=10,
                           text_anchor="middle", fill="#7a5c2e"))
    for r in range(rows):
        out.append(element("text", str(r + 1), x=x0 + 9, y=centre(0, r)[1] + 4, font_size=10,
                           text_anchor="middle", fill="#7a5c2e"))
    for sp in sh.spaces:
        cx, cy = centre(sp.col, sp.row)
        is_visited = (visited >> sp.index) & 1
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
            glyph = element("text", f"{sp.fee}$", x=cx, y=cy + 5, font_size=14,
                            text_anchor="middle", fill="#fff")
            title += f": Muisca settlement, fee {sp.fee}"
        else:
            fill, glyph = "#f1c40f", symbol("golden", cx, cy, 11, "#fff")
            title += f": golden temple (El Dorado), offering >= {sh.golden_minimum}"
        shape = element("polygon", points=_hex_points(cx, cy, SIZE - 1), fill=fill,
                        stroke="#3e2723", stroke_width=2.5 if sp.kind == GOLDEN else 1)
        shape += glyph
        if sp.start:
            shape += symbol("start", cx - SIZE - 4, cy, 4, "#7a5c2e")
        if sp.kind in (TEMPLE, GOLDEN):
            offered = [c for t, c in state.offers[p] if t == sp.index]
            if offered:  # a number ON the temple: an offering made
                shape += element("text", str(offered[0]), x=cx + 9, y=cy + 14, font_size=11,
                                 font_weight="bold", fill="#000")
            minimum = sh.golden_minimum if sp.kind == GOLDEN else state.minima[sp.index]
            if minimum >= 0 and not offered:  # a number ABOVE it: the minimum
                mx, my = (cx + SIZE + 8, cy + 4) if sp.kind == GOLDEN else (cx, cy - SIZE + 8)
                shape += element("text", str(minimum), x=mx, y=my, font_size=11,
                                 text_anchor="middle", fill="#7b241c", font_weight="bold")
        if sp.kind == SETTLEMENT:
            paid = state.paid[p][sp.index]
            for k in range(sp.fee):
                shape += element("circle", cx=cx - 9 + 6 * k, cy=cy + 13, r=2.5,
                                 fill="#000" if k < paid else "#fff", stroke="#000",
                                 stroke_width=0.6)
        if sp.reward:
            claimed = state.claimed[sp.index]
            shape += element("rect", x=cx - 6, y=cy - SIZE - 8, width=12, height=12, rx=2,
                             fill="#fff", stroke="#000", stroke_width=0.8)
            shape += symbol(5, cx, cy - SIZE - 2, 4, "#000")
            if claimed >= 0 and claimed != p:
                shape += element("line", x1=cx - 7, y1=cy - SIZE - 9, x2=cx + 7,
                                 y2=cy - SIZE + 5, stroke="#c0392b", stroke_width=1.5)
        if is_visited:  # filled in with the pencil
            shape += element("polygon", points=_hex_points(cx, cy, SIZE - 5), fill="#000",
                             fill_opacity=0.45)
        shape = element("g", raw=f"<title>{title}</title>{shape}")
        a = by_target.get(sp.index)
        if a is not None:
            shape = actionable(shape, names[a], f"{names[a]} ({title})")
        out.append(shape)
    # the temple symbols on the right (one yellow: crossed out at the easier level)
    tx = x0 + w - 130
    out.append(element("text", "temples", x=tx, y=y0 + 52, font_size=11))
    ordinary = [c for t, c in state.offers[p] if t != sh.golden]
    for k in range(sh.temple_symbols):
        ty = y0 + 60 + k * 30
        yellow = k == sh.temple_symbols - 1
        out.append(element("rect", x=tx, y=ty, width=26, height=24, fill="#f7dc6f" if yellow
                           else "#fff", stroke="#7d6608", stroke_width=1.2))
        if yellow and not g.cfg.hard:
            out.append(element("line", x1=tx, y1=ty, x2=tx + 26, y2=ty + 24, stroke="#c0392b",
                               stroke_width=2))
            continue
        index = k if (g.cfg.hard or k < sh.temple_symbols - 1) else -1
        if 0 <= index < len(ordinary):
            out.append(element("text", str(ordinary[index]), x=tx + 13, y=ty + 17, font_size=13,
                               text_anchor="middle", font_weight="bold"))
    extras = ordinary[g.required:]
    if extras:
        out.append(element("text", "+ " + " ".join(map(str, extras)), x=tx + 32, y=y0 + 78,
                           font_size=11))
    # the resources-and-helpers zone
    ry = y0 + route_h
    out.append(element("line", x1=x0 + 8, y1=ry - 8, x2=x0 + w - 8, y2=ry - 8, stroke="#7a5c2e",
                       stroke_dasharray="4 3"))
    box_w = (w - 30) / 4
    for res in sh.resources:
        bx = x0 + 10 + (res.index % 4) * (box_w + 3)
        by = ry + (res.index // 4) * 70
        obtained = state.obtained(p, res.index)
        used = (state.used[p] >> res.index) & 1
        if res.helper:
            what = {"map_as_signpost": "map die = signpost",
                    "amulet_as_2_coins": "amulet die = 2 coins",
                    "plus_one_coin": "+1 coin on a coin die",
                    "reroll_on_torch": "re-roll on a torch"}[res.ability]
            label = f"{res.name}: {what}"
        elif res.items:
            label = f"{len(res.items)} x {SYMBOLS[res.items[0]]}"
        elif res.coins:
            label = f"{res.coins} coin{'s' if res.coins > 1 else ''}"
        elif res.zero:
            label = "zero offering"
        else:
            label = res.name
        frame = element("rect", x=bx, y=by, width=box_w, height=62, rx=4,
                        fill="#d5f5e3" if obtained and not used else "#fff",
                        stroke="#000", stroke_width=2.5 if not res.helper else 1.2,
                        stroke_dasharray=None if not res.helper else "5 2")
        frame += element("text", label, x=bx + 6, y=by + 16, font_size=10.5, font_weight="bold")
        frame += element("text", res.id, x=bx + box_w - 4, y=by + 58, font_size=8,
                         text_anchor="end", fill="#777")
        if res.visit:
            frame += element("text", "visit " + ", ".join(sh.spaces[s].label for s in res.visit),
                             x=bx + 6, y=by + 40, font_size=10)
        parts = [frame]
        for k, slot in enumerate(res.slots):
            sx, sy = bx + 16 + k * 22, by + 38
            shape = _slot_shape(sh.slot_kind[slot], sx, sy, bool((state.filled[p] >> slot) & 1))
            a = by_target.get(g.ns + slot)
            if a is not None:
                shape = actionable(shape, names[a], f"{names[a]}")
            parts.append(shape)
        if used:
            parts.append(element("line", x1=bx, y1=by, x2=bx + box_w, y2=by + 62, stroke="#555",
                                 stroke_width=2))
        group = "".join(parts)
        act = g.activate_base + res.index
        if act in names:
            group = actionable(group, names[act], f"use {res.name}")
        out.append(group)
    return element("g", raw="".join(out))


render_text = text_board  # alias for one release
render_svg = svg_board  # alias for one release

RENDERER = Renderer(text_board=text_board, svg_board=svg_board)

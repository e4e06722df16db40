"""Yukon drawn as text (the terminal) and as SVG (files, docs, the web page).

Both draw from ``state.observation(seat)``: Yukon is open information, but the renderer
keeps to the view so that it can never show what a seat may not see.
"""

from __future__ import annotations

from functools import cache, lru_cache
from html import escape
from itertools import chain
from typing import Any

from motherlode.core import memo, svg
from motherlode.core.protocol import Renderer, TextMark
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.game import YukonState

PLAYER_COLOURS = ("#c75300", "#0072b2", "#008a65", "#b8589a")
"""The seats in Okabe and Ito's palette, as on the web page (told apart with every common
colour blindness), a shade darker where the name is written on the board's tan."""


def text_board(state: YukonState, seat: int | None = None) -> str:
    view = state.observation(seat)
    size = view["size"]
    lines = ["     " + "".join(f"{chr(ord('a') + c):>5}" for c in range(size))]
    for r, row in enumerate(view["grid"]):
        cells = []
        for c, tok in enumerate(row):
            name = f"{chr(ord('a') + c)}{r + 1}"
            if view["prospector"] == name:
                tok = "@" + (tok if tok != "." else "")
            elif tok == "Pa" and name in view["pans"]:
                tok = f"Pa{view['pans'][name]}"
            cells.append(f"{tok:>5}")
        lines.append(f"{r + 1:>4} " + "".join(cells))
    lines.append("")
    for p, info in enumerate(view["players"]):
        marker = ">" if view["to_move"] == p else " "
        extra = []
        if info["townsfolk"]:
            extra.append("townsfolk " + " ".join(info["townsfolk"]))
        if info["taught"]:
            extra.append("taught " + " ".join(info["taught"]))
        if info["discs"]:
            extra.append("discs " + " ".join(map(str, info["discs"])))
        if info["prospector"]:
            extra.append("Prospector +5")
        cards = " ".join(info["cards"]) or "-"
        lines.append(
            f"{marker} P{p + 1}: {info['points']:>4} pts  cards {cards}"
            + ("  " + "; ".join(extra) if extra else "")
        )
    if view["teams"]:
        t = state.team_scores()
        lines.append(f"  pairs: P1+P3 {t[0]:g}, P2+P4 {t[1]:g}")
    status = "game over" if view["terminal"] else f"next take from {_next_line(view)}"
    if view["pending"] != "-":
        status += f", pending: {view['pending']}"
    if view["order"] != "clockwise":
        status += ", order reversed"
    if view["beside"]:
        status += "; beside the area: " + " ".join(view["beside"])
    lines.append("  " + status)
    lines.extend(text_legend(state.game.expansion))
    return "\n".join(lines)


def text_marks(state: YukonState, seat: int | None = None) -> list[TextMark]:
    """Where a terminal colours :func:`text_board`: Gold and Pebble cards, the Prospector,
    the Townsfolk, the players' names, and the cards that ``seat`` may take now."""
    view = state.observation(seat)
    size = view["size"]
    marks: list[TextMark] = []
    mine = not view["terminal"] and (seat is None or seat == view["to_move"])
    targets = {t for t in map(_target, view["legal"]) if t is not None} if mine else set()
    for r, row in enumerate(view["grid"]):
        for c, tok in enumerate(row):
            name = f"{chr(ord('a') + c)}{r + 1}"
            start = 5 + 5 * c
            if view["prospector"] == name:
                kind = "special"
            elif tok == ".":
                continue
            else:
                kind = "gold" if tok[0] == "+" else "pebble" if tok[0] == "-" else "special"
            marks.append((r + 1, start, start + 5, "move" if name in targets else kind))
    for p in range(len(view["players"])):
        marks.append((size + 2 + p, 2, 4, f"seat{p}"))
    return marks


def _next_line(view: dict[str, Any]) -> str:
    """``row 2``, ``column d`` or ``row 2 or column d``: where the next card must come from."""
    here = view["prospector"]
    if here is None:
        return "the grid once it is dealt"
    row, col = f"row {here[1:]}", f"column {here[0]}"
    return {"row": row, "col": col}.get(view["axis"], f"{row} or {col}")


def text_legend(expansion: bool) -> list[str]:
    """The symbols of the text board, one or three lines."""
    out = ["  legend: +N Gold card, -N Pebble card, @ the Prospector, . an empty place"]
    if expansion:
        out.append("          Tr Trapper, Gs Goldsmith, Co Commander, Sw Swindler, Cu Courier,")
        out.append("          In Innkeeper, Ja Jailer, Te Teacher, To Telegraph Operator,")
        out.append("          PaN a Pan with N discs")
    return out


CARD_W, CARD_H, GAP = 64, 88, 8
TOWNSFOLK_FILL = "#f5e6c8"


@cache
def _card(tok: str, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> str:
    if tok == ".":
        return svg.element(
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=8,
            fill="none",
            stroke="#b9a77f",
            stroke_dasharray="4 4",
        )
    if tok == "?":  # not dealt yet (a replay of the set-up): the card's back, face down
        return svg.element(
            "rect", x=x, y=y, width=w, height=h, rx=8, fill="#8b6a3e", stroke="#6b5420",
            stroke_width=1.5,
        ) + svg.element(
            "rect", x=x + 6, y=y + 6, width=w - 12, height=h - 12, rx=5, fill="none",
            stroke="#d9bf8c", stroke_width=1.5,
        )
    if tok.startswith("+"):
        fill, ink, label = "url(#gold)", "#5a3d00", tok[1:]
    elif tok.startswith("-"):
        fill, ink, label = "url(#pebble)", "#2e2e2e", tok
    else:
        fill, ink, label = TOWNSFOLK_FILL, "#5b2c06", tok
    parts = [
        svg.element(
            "rect", x=x, y=y, width=w, height=h, rx=8, fill=fill, stroke="#6b5420", stroke_width=1.5
        ),
    ]
    if tok.startswith(("+", "-")):
        parts.append(
            svg.element(
                "text",
                label,
                x=x + w / 2,
                y=y + h / 2 + 10,
                text_anchor="middle",
                font_size=30,
                font_weight="bold",
                fill=ink,
            )
        )
        parts.append(
            svg.element(
                "text",
                "GOLD" if tok.startswith("+") else "PEBBLE",
                x=x + w / 2,
                y=y + h - 10,
                text_anchor="middle",
                font_size=10,
                letter_spacing=1,
                fill=ink,
            )
        )
    else:
        kind = C.parse_token(tok)
        words = C.name(kind).split()[:1]  # "Telegraph Operator" -> "Telegraph"
        for i, word in enumerate(words):
            parts.append(
                svg.element(
                    "text",
                    word,
                    x=x + w / 2,
                    y=y + h / 2 + 4 + 13 * (i - (len(words) - 1) / 2),
                    text_anchor="middle",
                    font_size=11,
                    font_weight="bold",
                    fill=ink,
                )
            )
    return "".join(parts)


@cache
def _static(size: int, players: int, expansion: bool) -> tuple[float, float, str]:
    """The width, the height and the static layer of one config: what no move changes (the
    background, the title, the coordinates, the dashed places of the grid, the legend)."""
    ox, oy = OX, OY
    grid_w = size * (CARD_W + GAP)
    width = ox + grid_w + 30 + PANEL_W
    legend_y = oy + size * (CARD_H + GAP) + 6
    height = max(legend_y + 64, 120 + 150 * players)
    narrow_w, narrow_h, dx, dy = _narrow(size, players)
    body: list[str] = [
        "<defs>"
        '<linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#ffe9a3"/><stop offset="1" stop-color="#d4a017"/>'
        "</linearGradient>"
        '<linearGradient id="pebble" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#d9d9d9"/><stop offset="1" stop-color="#8a8a8a"/>'
        "</linearGradient>"
        "</defs>",
        svg.element(
            "rect", x=0, y=0, width=max(width, narrow_w), height=max(height, narrow_h),
            fill="#efe3c4",
        ),
        # a narrow screen's layout (static/layout.js, game-agnostic): the view box, and
        # the side panel's elements (data-side) moved under the grid
        svg.element(
            "g", id="narrow-layout", data_narrow=f"0 0 {narrow_w} {narrow_h}",
            data_shift=f"{dx} {dy}", data_below=NARROW_BELOW,
        ),
        svg.element(
            "text",
            "YUKON",
            x=ox,
            y=34,
            font_size=26,
            font_weight="bold",
            fill="#5a3d00",
            letter_spacing=4,
        ),
    ]
    for c in range(size):
        x = ox + c * (CARD_W + GAP) + CARD_W / 2
        body.append(
            f'<text x="{x}" y="{oy - 6}" text-anchor="middle" font-size="12"'
            f' fill="#6b5420">{chr(ord("a") + c)}</text>'
        )
    for r in range(size):
        y = oy + r * (CARD_H + GAP) + CARD_H / 2 + 4
        body.append(
            f'<text x="{ox - 14}" y="{y}" text-anchor="middle" font-size="12"'
            f' fill="#6b5420">{r + 1}</text>'
        )
    # every place of the grid as an empty place; a card in the public layer covers it
    for r in range(size):
        for c in range(size):
            body.append(_card(".", ox + c * (CARD_W + GAP), oy + r * (CARD_H + GAP)))
    body.extend(_legend(ox, legend_y, expansion))
    return width, height, "".join(body)


OX, OY = 40, 74
PANEL_W = 330
"""The side panel's width, right of the grid (the status, the players' piles, the
buttons)."""
NARROW_BELOW = 700
"""On a page narrower than this (CSS pixels: a phone) the side panel goes under the grid,
so that the grid takes the page's width (static/layout.js)."""


def _narrow(size: int, players: int) -> tuple[float, float, float, float]:
    """The narrow layout: its width and height, and how far the side panel moves (from the
    grid's right to under the legend).

    >>> _narrow(7, 2)
    (556, 1126, -534, 762)
    """
    grid_w = size * (CARD_W + GAP)
    legend_end = OY + size * (CARD_H + GAP) + 6 + 64
    top = legend_end + 20  # where the panel's first line (the status) goes
    width = OX + grid_w + 12
    return width, top + 40 + 125 * players, -(grid_w + 30), top - OY


@cache
def _cell(name: str, tok: str, x: float, y: float, pans: int | None, prospector: bool) -> str:
    """One place of the grid as a public element (its id: the place's name)."""
    shape = "" if tok == "." else _card(tok, x, y)
    if pans is not None:
        shape += (
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H - 8}" text-anchor="middle"'
            f' font-size="10" fill="#5b2c06">{pans} discs</text>'
        )
    if prospector:
        shape += _prospector(x + CARD_W / 2, y + CARD_H / 2)
    return f'<g id="{name}">{shape}</g>'


@cache
def _take(name: str, action: str, title: str, x: float, y: float) -> str:
    """The seat's clickable frame round a card it may take (on top of the public card)."""
    return (
        f'<g id="take-{name}" class="action" data-action="{escape(action, quote=True)}"'
        f' style="cursor:pointer"><title>{escape(title)}</title>'
        f'<rect x="{x - 2}" y="{y - 2}" width="{CARD_W + 4}" height="{CARD_H + 4}" rx="10"'
        f' fill="#fff" fill-opacity="0" stroke="#1b7f3a" stroke-width="3"/></g>'
    )


@cache
def _places(size: int) -> tuple[tuple[str, int, int], ...]:
    """Each place of a ``size`` grid row by row: its name and where its card is drawn."""
    return tuple(
        (f"{chr(ord('a') + c)}{r + 1}", OX + c * (CARD_W + GAP), OY + r * (CARD_H + GAP))
        for r in range(size)
        for c in range(size)
    )


@cache
def _plain_cells(
    size: int,
) -> tuple[tuple[str, int, int, dict[str, tuple[str, str]]], ...]:
    """Each place of :func:`_places` with its elements drawn so far by the card on it
    (no Prospector there, no discs), each as its (id, markup) pair: a grid has few kinds
    of card, so each place is drawn once per kind for the life of the server, then
    looked up."""
    return tuple((name, x, y, {}) for name, x, y in _places(size))


def _public(state: YukonState) -> tuple[dict[str, Any], tuple[tuple[str, str], ...], float]:
    """The spectator's view, the public layer drawn from it (one element per place and
    per player) and where the panel ends: the same for every viewer of ``state`` (one
    tuple: each viewer's layers hold that very object)."""
    view = memo.spectator_view(state)  # the public layer is what a spectator sees
    size = view["size"]
    public: list[tuple[str, str]] = []
    pans, here = view["pans"], view["prospector"]
    cells = chain.from_iterable(view["grid"])
    for (name, x, y, drawn), tok in zip(_plain_cells(size), cells, strict=True):
        if tok == "Pa" or name == here:
            pan = pans.get(name) if tok == "Pa" else None
            public.append((name, _cell(name, tok, x, y, pan, name == here)))
            continue
        element = drawn.get(tok)
        if element is None:
            element = drawn[tok] = (name, _cell(name, tok, x, y, None, False))
        public.append(element)
    panel, yy = _panel(view, OX + size * (CARD_W + GAP) + 30, OY)
    public.extend(panel)
    return view, tuple(public), yy


def svg_layers(state: YukonState, seat: int | None = None) -> svg.Layers:
    """The board as DESIGN.md §3b's layers: the grid's printing (static), the cards and
    the players' piles (public, one element per place and per player), the frames and
    buttons of the seat's legal moves (seat)."""
    g = state.game
    view, public, yy = svg.once(state, "public", lambda: _public(state))
    size = view["size"]
    width, height, static = _static(size, g.num_players, g.expansion)
    to_move = view["to_move"]
    panel_x = OX + size * (CARD_W + GAP) + 30
    seat_layer: list[tuple[str, str]] = []
    if seat is None or seat == to_move:
        # (the same for the mover and a spectator: drawn once for both where shared)
        takes, others = svg.once(state, "takes", lambda: _takes(state, view["grid"]))
        seat_layer.extend(takes)
        # the buttons beside the board only for the seat to move, never for a spectator
        if seat is not None:
            seat_layer.extend(_choices(others, panel_x, yy))
    return svg.Layers(width, height, static, public, tuple(seat_layer), title="Yukon")


def _takes(
    state: YukonState, grid: list[list[str]]
) -> tuple[list[tuple[str, str]], list[str]]:
    """The frames round the cards the mover may take (one per place, the first move that
    takes it), and the legal moves that take no card (the buttons beside the board)."""
    takes: list[tuple[str, str]] = []
    others: list[str] = []
    taken: set[str] = set()
    for _, s in memo.legal_texts(state):
        target = _target_cell(s)
        if target is None:
            others.append(s)
            continue
        name, c, r = target
        if name in taken:
            continue
        taken.add(name)
        takes.append(_take_element(name, c, r, s, grid[r][c]))
    return takes, others


@lru_cache(maxsize=4096)  # keyed by a move's notation: bounded, as a server runs for days
def _target_cell(action: str) -> tuple[str, int, int] | None:
    """The place a move takes (its name, column and row from 0), ``None`` for a move that
    takes no card."""
    target = _target(action)
    if target is None:
        return None
    return target, ord(target[0]) - ord("a"), int(target[1:]) - 1


@lru_cache(maxsize=4096)
def _take_element(name: str, c: int, r: int, action: str, tok: str) -> tuple[str, str]:
    """The seat's frame (:func:`_take`) round the card ``tok`` at ``name`` that ``action``
    takes, with its id."""
    title = f"take {C.name(C.parse_token(tok))} at {name} ({action})"
    x, y = OX + c * (CARD_W + GAP), OY + r * (CARD_H + GAP)
    return f"take-{name}", _take(name, action, title, x, y)


def svg_board(state: YukonState, seat: int | None = None) -> str:
    return svg_layers(state, seat).compose()


def _target(action: str) -> str | None:
    words = action.split()
    if len(words) == 1 and words[0][0].isalpha() and words[0][1:].isdigit():
        return words[0]
    if words[0] in ("courier", "innkeeper") and len(words) == 2:
        return words[1]
    return None


@cache
def _mini_card(tok: str, x: float, y: float) -> str:
    """A collected card in a player's row: 24 x 32, its token written on it."""
    fill = (
        "url(#gold)"
        if tok.startswith("+")
        else "url(#pebble)"
        if tok.startswith("-")
        else TOWNSFOLK_FILL
    )
    return svg.element(
        "rect", x=x, y=y, width=24, height=32, rx=4, fill=fill, stroke="#6b5420"
    ) + svg.element(
        "text",
        tok,
        x=x + 12,
        y=y + 20,
        text_anchor="middle",
        font_size=10,
        font_weight="bold",
        fill="#3b2a14",
    )


def _prospector(cx: float, cy: float) -> str:
    return (
        svg.element("circle", cx=cx, cy=cy - 14, r=9, fill="#3b2a14")
        + svg.element(
            "path", d=f"M{cx - 14},{cy + 22} L{cx},{cy - 6} L{cx + 14},{cy + 22} Z", fill="#3b2a14"
        )
        + svg.element("rect", x=cx - 12, y=cy - 26, width=24, height=5, fill="#3b2a14")
    )


def _panel(view: dict[str, Any], x: float, y: float) -> tuple[list[tuple[str, str]], float]:
    """The status line and one element per player (``p1-panel``...), and where the panel
    ends (the seat's buttons go below)."""
    out = []
    status = "Game over" if view["terminal"] else f"Next take: {_next_line(view)}"
    if view["order"] != "clockwise":
        status += " · order reversed"
    out.append(
        (
            "status",
            f'<text id="status" data-side="1" x="{x}" y="{y + 4}" font-size="15" fill="#3b2a14">'
            f"{escape(status)}</text>",
        )
    )
    yy = y + 24
    for p, info in enumerate(view["players"]):
        moving = view["to_move"] == p
        out.append((f"p{p + 1}-name", _name(p, yy, x, moving, info["points"], info["prospector"])))
        cards = info["cards"] + info["townsfolk"] + [f"{t}" for t in info["taught"]]
        markup, yy = _pile(p, yy + 22, x, tuple(cards), tuple(info["discs"]))
        out.append((f"p{p + 1}-panel", markup))
    return out, yy


@cache
def _name(p: int, yy: float, x: float, moving: bool, points: int, prospector: bool) -> str:
    """A player's name and points (``p1-name``), an arrow before the one to move."""
    colour = PLAYER_COLOURS[p]
    arrow = ""
    if moving:  # a triangle drawn as a shape, not a font glyph
        arrow = (
            f'<path d="M{x - 14},{yy + 3} L{x - 4},{yy + 9} L{x - 14},{yy + 15} Z"'
            f' fill="{colour}"/>'
        )
    label = f"P{p + 1}  {points} pts" + ("  + Prospector 5" if prospector else "")
    weight = "bold" if moving else "normal"
    return (
        f'<g id="p{p + 1}-name" data-side="1">{arrow}<text x="{x}" y="{yy + 14}" font-size="15"'
        f' font-weight="{weight}" fill="{colour}">{label}</text></g>'
    )


@lru_cache(maxsize=2048)  # keyed by piles: bounded, as a server runs for days
def _pile(
    p: int, yy: float, x: float, cards: tuple[str, ...], discs: tuple[int, ...]
) -> tuple[str, float]:
    """One player's collected cards and discs (``p1-panel``), and where it ends."""
    out = [f'<g id="p{p + 1}-panel" data-side="1">']
    for i, tok in enumerate(cards[:24]):
        out.append(_mini_card(tok, x + (i % 12) * 26, yy + (i // 12) * 36))
    yy += 36 * max(1, (min(len(cards), 24) + 11) // 12) + 6
    if discs:
        out.append(
            f'<text x="{x}" y="{yy + 4}" font-size="12" fill="#5a3d00">'
            f"discs: {' '.join(map(str, discs))}</text>"
        )
        yy += 16
    out.append("</g>")
    return "".join(out), yy


def _choices(choices: list[str], x: float, yy: float) -> list[tuple[str, str]]:
    """The seat's buttons for the moves that name no card (``choice-1``...)."""
    if not choices:
        return []
    out = [
        (
            "choose",
            f'<text id="choose" data-side="1" x="{x}" y="{yy + 14}" font-size="14"'
            ' fill="#3b2a14">Choose:</text>',
        )
    ]
    yy += 20
    for i, s in enumerate(choices[:16]):
        box = svg.element(
            "rect", x=x, y=yy, width=200, height=22, rx=5, fill="#fff8e6", stroke="#1b7f3a"
        ) + svg.element("text", s, x=x + 8, y=yy + 15, font_size=13, fill="#1b3a1b")
        a = escape(s, quote=True)
        out.append(
            (
                f"choice-{i + 1}",
                f'<g id="choice-{i + 1}" class="action" data-side="1" data-action="{a}"'
                ' style="cursor:pointer">'
                f"<title>{escape(s)}</title>{box}</g>",
            )
        )
        yy += 26
    return out


def _legend(x: float, y: float, expansion: bool) -> list[str]:
    """The symbols of the SVG board, drawn as they are on it, along its lower edge."""
    out = []
    items: list[tuple[str, str]] = [
        ("+", "Gold (plus)"),
        ("-", "Pebble (minus)"),
        ("P", "the Prospector"),
        (".", "taken"),
        ("!", "may be taken"),
    ]
    if expansion:
        items.append(("T", "Townsfolk"))
    for i, (what, text) in enumerate(items):
        cx = x + i * 96
        if what == "+":
            out.append(_mini_card("+", cx, y))
        elif what == "-":
            out.append(_mini_card("-", cx, y))
        elif what == "T":
            out.append(_mini_card("Te", cx, y))
        elif what == ".":
            out.append(
                svg.element(
                    "rect",
                    x=cx,
                    y=y,
                    width=24,
                    height=32,
                    rx=4,
                    fill="none",
                    stroke="#b9a77f",
                    stroke_dasharray="4 4",
                )
            )
        elif what == "!":
            out.append(
                svg.element(
                    "rect",
                    x=cx - 1,
                    y=y - 1,
                    width=26,
                    height=34,
                    rx=5,
                    fill="none",
                    stroke="#1b7f3a",
                    stroke_width=3,
                )
            )
        else:
            out.append(
                svg.element(
                    "g",
                    raw=_prospector(0, 0),
                    transform=f"translate({cx + 12},{y + 18}) scale(0.6)",
                )
            )
        out.append(svg.element("text", text, x=cx + 30, y=y + 21, font_size=11, fill="#3b2a14"))
    out.append(
        svg.element(
            "text",
            "columns a, b, c... rows 1, 2, 3...: a move names its card, e.g. d5",
            x=x,
            y=y + 52,
            font_size=11,
            fill="#6b5420",
        )
    )
    return out


RENDERER: Renderer[YukonState] = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers, text_marks=text_marks
)

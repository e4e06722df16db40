"""Chinagold's text and SVG boards, drawn from ``observation(seat)``.

The SVG shows the printed board's look: mountains as brown areas with dark borders,
rivers as blue lines joining their spots, face-down markers as dark discs and discovered
gold as golden discs. Clickable elements carry ``data-action``:

* a face-down marker: ``turn f4`` (when one marker is to be turned);
* a short arrow from a marker along a line: ``turn f4-f6`` (the line starting there);
* a gold marker: ``rebury f4``; the button under the board: ``pass``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from typing import Any

from motherlode.core.hex import AXES, corners, neighbours, to_pixel
from motherlode.core.memo import spectator_view
from motherlode.core.protocol import Player, Renderer, TextMark
from motherlode.core.svg import Layers, element, once
from motherlode.games.chinagold.board import (
    BOARD,
    CELLS,
    INDEX,
    NUM_SPOTS,
    RADIUS,
    ROW_LENGTHS,
    ROW_LETTERS,
)
from motherlode.games.chinagold.game import PASS, REBURY_BASE, ChinagoldState
from motherlode.games.chinagold.notation import decision_to_string

MARK = {"hidden": "o", "gold": "G", "cleared": "."}


def text_board(state: ChinagoldState, seat: Player | None = None) -> str:
    """Three hexagons side by side: the markers, the mountains, the rivers.

    ``o`` face-down marker, ``G`` discovered gold, ``.`` cleared spot; mountains are the
    letters A..Q, rivers a..q (a cleared spot shows ``.``).
    """
    obs = state.observation(seat)
    spots = obs["spots"]
    lines = []
    roles = obs["roles"]
    lines.append(
        f"Chinagold  turn {obs['turn']}/{obs['turn_limit']}  "
        f"gold: P{roles['mountains'] + 1} (mountains) {obs['gold'][roles['mountains']]}, "
        f"P{roles['rivers'] + 1} (rivers) {obs['gold'][roles['rivers']]}"
    )
    if obs["phase"] == "over":
        winners = state.winners()
        who = "draw" if len(winners) == 2 else f"P{winners[0] + 1} wins"
        lines.append(f"game over: {who}")
    elif obs["phase"] == "throw":
        lines.append(f"P{obs['next_seat'] + 1} throws the discs {' '.join(obs['discs'])}")
    elif obs["free_choice"]:
        lines.append(f"P{obs['to_move'] + 1} to move: no throw, turn 1 or 2 adjacent markers")
    else:
        lines.append(
            f"P{obs['to_move'] + 1} threw {obs['throw']}: turn {obs['throw']} in a line"
            " or rebury one nugget"
        )
    ways = obs["ways"]
    lines.append(f"ways left to turn 5/4/3 in a line: {ways['5']}/{ways['4']}/{ways['3']}")
    header = f"    {'markers':^21}       {'mountains':^21}   {'rivers':^21}"
    lines.append(header.rstrip())
    idx = 0
    for row, length in enumerate(ROW_LENGTHS):
        indent = " " * abs(row - RADIUS)
        cells = spots[idx : idx + length]
        first = int(cells[0]["spot"][1:])
        marks = " ".join(MARK[c["state"]] for c in cells)
        mtn = " ".join("." if c["state"] == "cleared" else c["mountain"] for c in cells)
        riv = " ".join("." if c["state"] == "cleared" else c["river"] for c in cells)
        label = f"{ROW_LETTERS[row]}{first:<2}"
        # each row between its first and its last spot's names: the diagonal numbers
        field = f"{indent}{marks} {cells[-1]['spot']}"
        part = [f"{label} {field:<28}"]
        part.append(f"{indent}{mtn}{indent}")
        part.append(f"   {indent}{riv}")
        lines.append("".join(part).rstrip())
        idx += length
    lines.append("legend: o face-down marker, G gold on the board, . cleared spot")
    lines.append("        mountains A..Q, rivers a..q; a spot is its row letter a..k and")
    lines.append("        diagonal number, each row shown between its first and last spot")
    return "\n".join(lines)


MOVE_MARKS = 24
"""With at most this many legal moves, a terminal highlights the spots they turn or
rebury (more would light up nearly the whole board)."""


def text_marks(state: ChinagoldState, seat: Player | None = None) -> list[TextMark]:
    """Where a terminal colours :func:`text_board`: gold on the board, the players' names
    in the first line, and (with few legal moves) the spots that ``seat``'s moves turn or
    rebury, in the markers' hexagon."""
    obs = state.observation(seat)
    spots = obs["spots"]
    where: dict[int, tuple[int, int]] = {}  # spot index -> (line, column) of its marker
    idx = 0
    for row, length in enumerate(ROW_LENGTHS):
        for k in range(length):
            where[idx + k] = (4 + row, 4 + abs(row - RADIUS) + 2 * k)
        idx += length
    moving: set[int] = set()
    legal = state.legal_actions() if obs["phase"] != "over" else []
    if (seat is None or seat == obs["to_move"]) and len(legal) <= MOVE_MARKS:
        for a in legal:
            if a < REBURY_BASE:
                moving.update(BOARD.all_windows[a].spots)
            elif a < PASS:
                moving.add(a - REBURY_BASE)
    marks: list[TextMark] = []
    for i, (line, col) in where.items():
        kind = "move" if i in moving else "gold" if spots[i]["state"] == "gold" else None
        if kind is not None:
            marks.append((line, col, col + 1, kind))
    first = f"Chinagold  turn {obs['turn']}/{obs['turn_limit']}  gold: "
    roles = obs["roles"]
    col = len(first)
    for role in ("mountains", "rivers"):
        seat_of = roles[role]
        marks.append((0, col, col + 2, f"seat{seat_of}"))
        col += len(f"P{seat_of + 1} ({role}) {obs['gold'][seat_of]}, ")
    return marks


# -- SVG ------------------------------------------------------------------------------------

SIZE = 26.0
BROWNS = ("#a0703c", "#b98a4e", "#8c5f33", "#c49a5f", "#97683a", "#ad7d45")
RIVER = "#3a86c8"
GOLD = "#f1c232"


def _edge(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """The two corners of the hex at ``a`` that face the hex at ``b``."""
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    cs = sorted(corners(a, SIZE), key=lambda c: math.dist(c, mid))
    return (cs[0], cs[1])


@dataclass(frozen=True)
class _Frame:
    """Where the board lies in the picture: the centre spot's pixel."""

    ox: float
    oy: float

    def px(self, spot: int) -> tuple[float, float]:
        x, y = to_pixel(CELLS[spot], SIZE)
        return (self.ox + x, self.oy + y)


MARGIN = 30.0
WIDTH = SIZE * math.sqrt(3) * 11 + 2 * MARGIN + 190
HEIGHT = SIZE * 1.5 * 10 + SIZE * 2 + 2 * MARGIN + 60
FRAME = _Frame(MARGIN + SIZE * math.sqrt(3) * 5.5, MARGIN + SIZE * 1.5 * 5 + SIZE)
SIDE_X = WIDTH - 180
"""Where the side panel and the legend begin, right of the hexagon."""
NARROW_W = SIZE * math.sqrt(3) * 11 + 2 * MARGIN
NARROW_TOP = HEIGHT - 4
"""A narrow page's layout (static/layout.js, under 700 CSS px: a phone): the hexagon at the
page's width, the panel and the legend side by side under it (below the pass button)."""
PANEL_SHIFT = (MARGIN - SIDE_X, NARROW_TOP - MARGIN)
LEGEND_SHIFT = (MARGIN + 240 - SIDE_X, NARROW_TOP - MARGIN - 200)
NARROW_H = NARROW_TOP + 270


@cache
def _static(mountain_of: tuple[int, ...], rivers: tuple[tuple[int, ...], ...]) -> str:
    """What no move changes in a match of this layout: the mountains, the rivers, the
    coordinates and the legend."""
    body: list[str] = [
        element("rect", x=0, y=0, width=WIDTH, height=NARROW_H, fill="#efe3c8"),
        element(
            "g", id="narrow-layout", data_narrow=f"0 0 {NARROW_W:.0f} {NARROW_H:.0f}",
            data_shift="0 0", data_below=700,
        ),
    ]
    body += _mountains(mountain_of, FRAME)
    body += _rivers(rivers, FRAME)
    body += _area_labels(mountain_of, rivers, FRAME)
    body += _coordinates(FRAME)
    body.append(
        element(
            "g", raw="".join(_legend(SIDE_X, MARGIN + 200)), id="legend",
            data_side="{:.1f} {:.1f}".format(*LEGEND_SHIFT),
        )
    )
    return "".join(body)


def _public(state: ChinagoldState) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The spectator's view and the public layer drawn from it (one element per spot,
    the side panel): the same for every viewer of ``state``."""
    obs = spectator_view(state)  # the public layer is what a spectator sees
    public = [
        (info["spot"], _spot(s, info["spot"], info["state"], info["mountain"], info["river"]))
        for s, info in enumerate(obs["spots"])
    ]
    public.append(("panel", _side_panel(state, obs, SIDE_X, MARGIN)))
    return obs, public


def svg_layers(state: ChinagoldState, seat: Player | None = None) -> Layers:
    """The board as DESIGN.md §3b's layers: the printed board (static), one element per
    spot (its id: the spot's name) and the side panel (public), and the clickable turns,
    lines, reburials and the pass button of the seat to move (seat)."""
    g = state.game
    static = _static(g.mountain_of, g.layout.rivers)
    obs, public = once(state, "public", lambda: _public(state))
    seat_layer: list[tuple[str, str]] = []
    if seat is None or seat == state.current_player():
        legal = set(state.legal_actions())
        seat_layer += _marker_actions(obs["spots"], legal)
        seat_layer += _line_handles(legal, FRAME)
        # the pass button is not part of the board: only the seat to move sees it
        if PASS in legal and seat is not None:
            seat_layer.append(("pass", _PASS))
    return Layers(WIDTH, HEIGHT, static, tuple(public), tuple(seat_layer), title="Chinagold")


def svg_board(state: ChinagoldState, seat: Player | None = None) -> str:
    """The board as a standalone SVG document from ``seat``'s view."""
    return svg_layers(state, seat).compose()


def _pass_button() -> str:
    bx, by = MARGIN, HEIGHT - MARGIN - 10
    button = element("rect", x=bx, y=by - 18, width=70, height=24, rx=5, fill="#7a5a00")
    button += element(
        "text", "pass", x=bx + 35, y=by - 1, fill="white", text_anchor="middle", font_size=14
    )
    return _clickable("pass", button, "pass", "pass: no turning and no reburial possible")


def _clickable(element_id: str, shape: str, action: str, title: str) -> str:
    """A seat element a click acts on: its id, ``data-action`` and a tooltip."""
    return (
        f'<g id="{element_id}" class="action" data-action="{escape(action, quote=True)}"'
        f' style="cursor:pointer"><title>{escape(title)}</title>{shape}</g>'
    )


_PASS = _pass_button()


def _mountains(mountain_of: tuple[int, ...], frame: _Frame) -> list[str]:
    """Brown areas, and dark borders between different mountains and at the edge."""
    px = frame.px
    body = []
    for s in range(NUM_SPOTS):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(px(s), SIZE))
        colour = BROWNS[mountain_of[s] % len(BROWNS)]
        body.append(element("polygon", points=pts, fill=colour, stroke=colour, stroke_width=0.5))
    for s, h in enumerate(CELLS):
        for n in neighbours(h):
            other = INDEX.get(n)
            if other is not None and (other < s or mountain_of[other] == mountain_of[s]):
                continue
            x, y = to_pixel(n, SIZE)
            (x1, y1), (x2, y2) = _edge(px(s), (frame.ox + x, frame.oy + y))
            body.append(
                element(
                    "line",
                    x1=x1,
                    y1=y1,
                    x2=x2,
                    y2=y2,
                    stroke="#4a2c12",
                    stroke_width=2.5,
                    stroke_linecap="round",
                )
            )
    return body


def _rivers(rivers: tuple[tuple[int, ...], ...], frame: _Frame) -> list[str]:
    """Blue lines along a spanning tree of each river."""
    px = frame.px
    body = []
    for river in rivers:
        members = set(river)
        seen = {river[0]}
        todo = deque([river[0]])
        while todo:
            s = todo.popleft()
            for n in neighbours(CELLS[s]):
                t = INDEX.get(n)
                if t is not None and t in members and t not in seen:
                    seen.add(t)
                    todo.append(t)
                    (x1, y1), (x2, y2) = px(s), px(t)
                    body.append(
                        element(
                            "line",
                            x1=x1,
                            y1=y1,
                            x2=x2,
                            y2=y2,
                            stroke=RIVER,
                            stroke_width=5,
                            stroke_linecap="round",
                            opacity=0.85,
                        )
                    )
    return body


LABEL_AT = SIZE * 0.70
"""How far from its spot's centre an area's letter sits: in the hex's lower left corner (a
mountain) or its lower right corner (a river), clear of the marker, of the river lines
(which leave a hex through its sides, never its corners) and of the arrows of the lines to
turn (which point right, up left and up right)."""
LABEL_DX, LABEL_DY = LABEL_AT * math.sqrt(3) / 2, LABEL_AT / 2 + 4.5


def _anchor(spots: Sequence[int], frame: _Frame) -> int:
    """The spot of an area nearest its middle, where the area's letter is written."""
    pts = [frame.px(s) for s in spots]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return min(spots, key=lambda s: (math.dist(frame.px(s), (mx, my)), s))


def _mountain_letter(letter: str, x: float, y: float) -> str:
    """A mountain's letter as the board writes it (also the legend's sample)."""
    return element(
        "text", letter, x=x, y=y, font_size=12, font_weight="bold", fill="#fff4d6",
        stroke="#3b2410", stroke_width=3, paint_order="stroke", text_anchor="middle",
        font_family="Verdana, sans-serif",
    )


def _river_letter(letter: str, x: float, y: float) -> str:
    """A river's letter as the board writes it (also the legend's sample)."""
    return element(
        "text", letter, x=x, y=y, font_size=12, font_weight="bold", fill="#0b4a86",
        stroke="#eaf4ff", stroke_width=3, paint_order="stroke", text_anchor="middle",
        font_family="Verdana, sans-serif",
    )


def _area_labels(
    mountain_of: tuple[int, ...], rivers: tuple[tuple[int, ...], ...], frame: _Frame
) -> list[str]:
    """Each mountain's capital letter (A..Q) in the lower left corner of its middle spot,
    each river's small letter (a..q) in the lower right corner of its middle spot: the
    names that the moves, the narration and the tooltips use."""
    mountains: dict[int, list[int]] = {}
    for s, m in enumerate(mountain_of):
        mountains.setdefault(m, []).append(s)
    out = []
    for m, spots in sorted(mountains.items()):
        x, y = frame.px(_anchor(spots, frame))
        out.append(_mountain_letter(chr(ord("A") + m), x - LABEL_DX, y + LABEL_DY))
    for r, river in enumerate(rivers):
        x, y = frame.px(_anchor(river, frame))
        out.append(_river_letter(chr(ord("a") + r), x + LABEL_DX, y + LABEL_DY))
    return [element("g", raw="".join(out), id="area-labels")]


def _coordinates(frame: _Frame) -> list[str]:
    """Row letters on the left, diagonal numbers along the lower edges."""
    ox, oy = frame.ox, frame.oy
    body = []
    for row in range(len(ROW_LENGTHS)):
        r = row - RADIUS
        q = min(h[0] for h in CELLS if h[1] == r) - 1
        x, y = to_pixel((q, r), SIZE)
        body.append(
            element(
                "text",
                ROW_LETTERS[row],
                x=ox + x + SIZE * 0.4,
                y=oy + y + 5,
                font_size=14,
                fill="#5b3b1d",
                text_anchor="middle",
            )
        )
    for q in range(-RADIUS, RADIUS + 1):
        r = max(h[1] for h in CELLS if h[0] == q) + 1
        x, y = to_pixel((q, r), SIZE)
        body.append(
            element(
                "text",
                str(q + RADIUS + 1),
                x=ox + x,
                y=oy + y - SIZE * 0.25,
                font_size=14,
                fill="#5b3b1d",
                text_anchor="middle",
            )
        )
    return body


@cache
def _spot(s: int, name: str, state: str, mountain: str, river: str) -> str:
    """A spot as a public element: a face-down marker, gold, or a cleared spot."""
    x, y = FRAME.px(s)
    if state == "cleared":
        return f'<circle id="{name}" cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#5b3b1d" opacity="0.6"/>'
    title = f"{name}: mountain {mountain}, river {river}"
    if state == "hidden":
        fill, stroke, what = "#3b3026", "#e8dcc0", "face down"
    else:
        fill, stroke, what = GOLD, "#7a5a00", "gold"
    return (
        f'<g id="{name}"><title>{title}, {what}</title><circle cx="{x:.1f}" cy="{y:.1f}"'
        f' r="{SIZE * 0.45:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/></g>'
    )


@cache
def _hit(s: int) -> str:
    """The disc a click on a spot lands on (drawn over the public marker, unpainted)."""
    x, y = FRAME.px(s)
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.45:.1f}" fill="#fff" fill-opacity="0"/>'


def _marker_actions(spots: list[dict[str, str]], legal: set[int]) -> list[tuple[str, str]]:
    """``turn f4`` on a face-down marker, ``rebury f4`` on gold, where legal."""
    out = []
    for s, info in enumerate(spots):
        if info["state"] == "hidden" and s in legal:
            out.append(_marker_action(s, info["spot"], False))
        elif info["state"] == "gold" and REBURY_BASE + s in legal:
            out.append(_marker_action(s, info["spot"], True))
    return out


@cache
def _marker_action(s: int, name: str, rebury: bool) -> tuple[str, str]:
    if rebury:
        key = f"rebury-{name}"
        return key, _clickable(key, _hit(s), f"rebury {name}", f"rebury the gold at {name}")
    key = f"turn-{name}"
    return key, _clickable(key, _hit(s), decision_to_string(s), f"turn {name}")


def _line_handles(legal: set[int], frame: _Frame) -> list[tuple[str, str]]:
    """A short arrow from the first marker of each legal line."""
    return [
        (f"line-{a}", _handle(a, frame))
        for a in sorted(legal)
        if a < len(BOARD.all_windows) and BOARD.all_windows[a].length > 1
    ]


@cache
def _handle(a: int, frame: _Frame) -> str:
    w = BOARD.all_windows[a]
    x, y = frame.px(w.start)
    dx, dy = to_pixel(AXES[w.axis], SIZE)
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, dy / norm
    x1, y1 = x + ux * SIZE * 0.48, y + uy * SIZE * 0.48
    x2, y2 = x + ux * SIZE * 0.86, y + uy * SIZE * 0.86
    shape = element(
        "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#3b3026", stroke_width=8, stroke_linecap="round"
    )
    shape += element(
        "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#ffe680", stroke_width=5, stroke_linecap="round"
    )
    name = decision_to_string(a)
    return _clickable(f"line-{a}", shape, name, f"{name} ({w.length} markers)")


def _side_panel(state: ChinagoldState, obs: dict[str, Any], tx: float, margin: float) -> str:
    """The turn, the roles and their gold, the discs, and who does what now."""
    roles = obs["roles"]
    info_lines = [
        "Chinagold",
        f"turn {obs['turn']} / {obs['turn_limit']}",
        f"mountains: P{roles['mountains'] + 1}  gold {obs['gold'][roles['mountains']]}",
        f"rivers: P{roles['rivers'] + 1}  gold {obs['gold'][roles['rivers']]}",
        "discs: " + (" ".join(obs["discs"]) or "none"),
    ]
    if obs["phase"] == "throw":
        info_lines.append(f"P{obs['next_seat'] + 1} throws")
    elif obs["phase"] == "choose":
        what = "turn 1 or 2" if obs["free_choice"] else f"threw {obs['throw']}"
        info_lines.append(f"P{obs['to_move'] + 1}: {what}")
    else:
        winners = state.winners()
        info_lines.append("draw" if len(winners) == 2 else f"P{winners[0] + 1} wins")
    return _panel(tuple(info_lines), tx, margin)


@lru_cache(maxsize=4096)  # keyed by the panel's words: bounded, as a server runs for days
def _panel(info_lines: tuple[str, ...], tx: float, margin: float) -> str:
    lines = "".join(
        element(
            "text", text, x=tx, y=margin + 20 + 22 * i, font_size=15 if i else 20, fill="#3b2410"
        )
        for i, text in enumerate(info_lines)
    )
    dx, dy = PANEL_SHIFT
    return f'<g id="panel" data-side="{dx:.1f} {dy}">{lines}</g>'


def _legend(x: float, y: float) -> list[str]:
    """The symbols of the board, drawn as they are on it."""
    r = SIZE * 0.45
    rows: list[tuple[str, str]] = [
        (
            element(
                "circle", cx=x + 10, cy=0, r=r, fill="#3b3026", stroke="#e8dcc0", stroke_width=1.5
            ),
            "face-down marker",
        ),
        (
            element("circle", cx=x + 10, cy=0, r=r, fill=GOLD, stroke="#7a5a00", stroke_width=1.5),
            "gold on the board",
        ),
        (element("circle", cx=x + 10, cy=0, r=3, fill="#5b3b1d", opacity=0.6), "cleared spot"),
        (
            element(
                "rect",
                x=x - 2,
                y=-10,
                width=24,
                height=20,
                fill=BROWNS[0],
                stroke="#4a2c12",
                stroke_width=2.5,
            )
            + _mountain_letter("A", x + 10, 4.5),
            "a mountain, named A..Q",
        ),
        (
            element(
                "line",
                x1=x - 2,
                y1=0,
                x2=x + 22,
                y2=0,
                stroke=RIVER,
                stroke_width=5,
                stroke_linecap="round",
            )
            + _river_letter("a", x + 10, 4.5),
            "a river, named a..q",
        ),
        (
            element(
                "line",
                x1=x + 2,
                y1=0,
                x2=x + 18,
                y2=0,
                stroke="#3b3026",
                stroke_width=8,
                stroke_linecap="round",
            )
            + element(
                "line",
                x1=x + 2,
                y1=0,
                x2=x + 18,
                y2=0,
                stroke="#ffe680",
                stroke_width=5,
                stroke_linecap="round",
            ),
            "a line you may turn",
        ),
    ]
    out = [element("text", "Legend", x=x, y=y, font_size=15, fill="#3b2410")]
    for i, (shape, text) in enumerate(rows):
        cy = y + 26 + 28 * i
        out.append(element("g", raw=shape, transform=f"translate(0,{cy})"))
        out.append(element("text", text, x=x + 32, y=cy + 5, font_size=13, fill="#3b2410"))
    out.append(
        element(
            "text",
            "spots: row letter a..k,",
            x=x,
            y=y + 26 + 28 * len(rows),
            font_size=12,
            fill="#5b3b1d",
        )
    )
    out.append(
        element(
            "text",
            "diagonal number 1..11",
            x=x,
            y=y + 42 + 28 * len(rows),
            font_size=12,
            fill="#5b3b1d",
        )
    )
    return out


RENDERER: Renderer[ChinagoldState] = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers, text_marks=text_marks
)

__all__ = ["RENDERER", "svg_board", "svg_layers", "text_board"]

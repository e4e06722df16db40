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
from dataclasses import dataclass
from typing import Any

from motherlode.core.hex import AXES, corners, neighbours, to_pixel
from motherlode.core.protocol import Player, Renderer
from motherlode.core.svg import actionable, document, element
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


def svg_board(state: ChinagoldState, seat: Player | None = None) -> str:
    """The board as a standalone SVG document from ``seat``'s view."""
    obs = state.observation(seat)
    g = state.game
    margin = 30.0
    width = SIZE * math.sqrt(3) * 11 + 2 * margin + 190
    height = SIZE * 1.5 * 10 + SIZE * 2 + 2 * margin + 60
    frame = _Frame(margin + SIZE * math.sqrt(3) * 5.5, margin + SIZE * 1.5 * 5 + SIZE)
    body: list[str] = [element("rect", x=0, y=0, width=width, height=height, fill="#efe3c8")]
    body += _mountains(g.mountain_of, frame)
    body += _rivers(g.layout.rivers, frame)
    body += _coordinates(frame)
    # markers and their actions
    legal = set(state.legal_actions()) if seat is None or seat == state.current_player() else set()
    body += _markers(obs["spots"], legal, frame)
    body += _line_handles(legal, frame)
    # the pass button is not part of the board: only the seat to move sees it
    if PASS in legal and seat is not None:
        bx, by = margin, height - margin - 10
        button = element("rect", x=bx, y=by - 18, width=70, height=24, rx=5, fill="#7a5a00")
        button += element("text", "pass", x=bx + 35, y=by - 1, fill="white",
                          text_anchor="middle", font_size=14)
        body.append(actionable(button, "pass", "pass: no turning and no reburial possible"))
    body += _side_panel(state, obs, width - 180, margin)
    body.append(element("g", raw="".join(_legend(width - 180, margin + 200)), id="legend"))
    return document(width, height, body, title=f"Chinagold {obs['position']}")


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
                element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#4a2c12", stroke_width=2.5,
                        stroke_linecap="round")
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
                        element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=RIVER,
                                stroke_width=5, stroke_linecap="round", opacity=0.85)
                    )
    return body


def _coordinates(frame: _Frame) -> list[str]:
    """Row letters on the left, diagonal numbers along the lower edges."""
    ox, oy = frame.ox, frame.oy
    body = []
    for row in range(len(ROW_LENGTHS)):
        r = row - RADIUS
        q = min(h[0] for h in CELLS if h[1] == r) - 1
        x, y = to_pixel((q, r), SIZE)
        body.append(element("text", ROW_LETTERS[row], x=ox + x + SIZE * 0.4, y=oy + y + 5,
                            font_size=14, fill="#5b3b1d", text_anchor="middle"))
    for q in range(-RADIUS, RADIUS + 1):
        r = max(h[1] for h in CELLS if h[0] == q) + 1
        x, y = to_pixel((q, r), SIZE)
        body.append(element("text", str(q + RADIUS + 1), x=ox + x, y=oy + y - SIZE * 0.25,
                            font_size=14, fill="#5b3b1d", text_anchor="middle"))
    return body


def _markers(spots: list[dict[str, str]], legal: set[int], frame: _Frame) -> list[str]:
    """Face-down markers, gold and cleared spots; ``turn`` and ``rebury`` where legal."""
    body = []
    for s, info in enumerate(spots):
        x, y = frame.px(s)
        title = f"{info['spot']}: mountain {info['mountain']}, river {info['river']}"
        if info["state"] == "cleared":
            body.append(element("circle", cx=x, cy=y, r=3, fill="#5b3b1d", opacity=0.6))
            continue
        if info["state"] == "hidden":
            disc = element("circle", cx=x, cy=y, r=SIZE * 0.45, fill="#3b3026", stroke="#e8dcc0",
                           stroke_width=1.5)
            if s in legal:
                body.append(actionable(disc, decision_to_string(s), f"turn {info['spot']}"))
            else:
                body.append(element("g", raw=f"<title>{title}, face down</title>{disc}"))
        else:
            disc = element("circle", cx=x, cy=y, r=SIZE * 0.45, fill=GOLD, stroke="#7a5a00",
                           stroke_width=1.5)
            if REBURY_BASE + s in legal:
                body.append(actionable(disc, f"rebury {info['spot']}",
                                       f"rebury the gold at {info['spot']}"))
            else:
                body.append(element("g", raw=f"<title>{title}, gold</title>{disc}"))
    return body


def _line_handles(legal: set[int], frame: _Frame) -> list[str]:
    """A short arrow from the first marker of each legal line."""
    body = []
    for a in sorted(legal):
        if a >= len(BOARD.all_windows):
            continue
        w = BOARD.all_windows[a]
        if w.length == 1:
            continue
        x, y = frame.px(w.start)
        dx, dy = to_pixel(AXES[w.axis], SIZE)
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        x1, y1 = x + ux * SIZE * 0.48, y + uy * SIZE * 0.48
        x2, y2 = x + ux * SIZE * 0.86, y + uy * SIZE * 0.86
        shape = element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#3b3026", stroke_width=8,
                        stroke_linecap="round")
        shape += element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#ffe680", stroke_width=5,
                         stroke_linecap="round")
        name = decision_to_string(a)
        body.append(actionable(shape, name, f"{name} ({w.length} markers)"))
    return body


def _side_panel(state: ChinagoldState, obs: dict[str, Any], tx: float, margin: float) -> list[str]:
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
    return [
        element("text", text, x=tx, y=margin + 20 + 22 * i, font_size=15 if i else 20,
                fill="#3b2410")
        for i, text in enumerate(info_lines)
    ]


def _legend(x: float, y: float) -> list[str]:
    """The symbols of the board, drawn as they are on it."""
    r = SIZE * 0.45
    rows: list[tuple[str, str]] = [
        (element("circle", cx=x + 10, cy=0, r=r, fill="#3b3026", stroke="#e8dcc0",
                 stroke_width=1.5), "face-down marker"),
        (element("circle", cx=x + 10, cy=0, r=r, fill=GOLD, stroke="#7a5a00", stroke_width=1.5),
         "gold on the board"),
        (element("circle", cx=x + 10, cy=0, r=3, fill="#5b3b1d", opacity=0.6), "cleared spot"),
        (element("rect", x=x - 2, y=-10, width=24, height=20, fill=BROWNS[0], stroke="#4a2c12",
                 stroke_width=2.5), "a mountain (A..Q)"),
        (element("line", x1=x - 2, y1=0, x2=x + 22, y2=0, stroke=RIVER, stroke_width=5,
                 stroke_linecap="round"), "a river (a..q)"),
        (element("line", x1=x + 2, y1=0, x2=x + 18, y2=0, stroke="#3b3026", stroke_width=8,
                 stroke_linecap="round")
         + element("line", x1=x + 2, y1=0, x2=x + 18, y2=0, stroke="#ffe680", stroke_width=5,
                   stroke_linecap="round"), "a line you may turn"),
    ]
    out = [element("text", "Legend", x=x, y=y, font_size=15, fill="#3b2410")]
    for i, (shape, text) in enumerate(rows):
        cy = y + 26 + 28 * i
        out.append(element("g", raw=shape, transform=f"translate(0,{cy})"))
        out.append(element("text", text, x=x + 32, y=cy + 5, font_size=13, fill="#3b2410"))
    out.append(element("text", "spots: row letter a..k,", x=x, y=y + 26 + 28 * len(rows),
                       font_size=12, fill="#5b3b1d"))
    out.append(element("text", "diagonal number 1..11", x=x, y=y + 42 + 28 * len(rows),
                       font_size=12, fill="#5b3b1d"))
    return out


RENDERER: Renderer[ChinagoldState] = Renderer(text_board=text_board, svg_board=svg_board)

__all__ = ["RENDERER", "svg_board", "text_board"]

"""Text and SVG boards for Eureka, drawn from a seat's observation (never hidden state).

>>> import motherlode
>>> state = motherlode.load("eureka", players=3).new_initial_state()
>>> print(text_board(state).splitlines()[0])
Eureka  turn 0: P1 (red) to move (turn)  locomotive 1/15
>>> svg = svg_board(state, 0)
>>> svg.startswith("<svg") and 'data-action="roll"' in svg
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from typing import Any

from motherlode.core.hex import corners, hex_distance, to_pixel
from motherlode.core.memo import spectator_view
from motherlode.core.protocol import Renderer, TextMark
from motherlode.core.svg import Layers, element, flow_legend, once
from motherlode.games.eureka.board import HOUSE, WATER, Board
from motherlode.games.eureka.game import EurekaState

FILL = {
    "field": "#e3cf8f",
    "hole": "#e3cf8f",
    "street": "#cfc8bd",
    "track": "#d9c9a3",
    "water": "#6fa8dc",
}
MINER = {  # the pieces' colours in Okabe and Ito's shades (told apart by colour-blind eyes)
    "red": "#d55e00",
    "blue": "#0072b2",
    "green": "#009e73",
    "yellow": "#f0e442",
    "black": "#222222",
    "white": "#f7f7f7",
}
TEXT_ON = {"yellow": "#000", "white": "#000"}
SIZE = 15.0


LEGEND = (
    ". field  o face-down chip  R face-up robber  _ street  H house  = railway\n"
    "L locomotive  ~ water  r raft  1-6 miner of P1-P6  * several miners"
)
"""The text board's symbols, printed under it (lines within 78 characters)."""


def seat_name(seat: int, colours: tuple[str, ...]) -> str:
    """``P1 (red)``: the seat as everywhere else, with its miner's colour."""
    return f"P{seat + 1} ({colours[seat]})"


def _status(obs: dict[str, Any], colours: tuple[str, ...]) -> str:
    loco = obs["locomotive"]
    if obs["phase"] == "over":
        who = ", ".join(seat_name(w, colours) for w in obs["winners"])
        head = f"game over ({obs['end']}): winner {who}"
    elif obs["to_move"] == -1:
        head = f"turn {obs['turns_played']}: chance ({obs['phase']})"
    else:
        who = seat_name(obs["to_move"], colours)
        head = f"turn {obs['turns_played']}: {who} to move ({obs['phase']})"
        if obs["die"]:
            head += f", {obs['die']} hexes"
    return f"Eureka  {head}  locomotive {loco['space'] + 1}/{loco['last_space'] + 1}"


def _raft_spot(
    board: Board, node: int, centre: Callable[[int], tuple[float, float]]
) -> tuple[float, float]:
    """Where a raft moored at landing space ``node`` is drawn: towards its lake's water."""
    x, y = centre(node)
    water = [
        n
        for n in range(len(board.hexes))
        if board.kind[n] == WATER and hex_distance(board.hexes[n], board.hexes[node]) == 1
    ]
    if not water:
        return x, y
    wx = sum(centre(n)[0] for n in water) / len(water)
    wy = sum(centre(n)[1] for n in water) / len(water)
    return x + (wx - x) * 0.45, y + (wy - y) * 0.45


def _robbers(n: int) -> str:
    """``1 robber``, ``2 robbers``."""
    return f"{n} robber{'' if n == 1 else 's'}"


def text_board(state: EurekaState, seat: int | None = None) -> str:
    """The board as text: one character per hex, then the miners and their gold.

    ``.`` field, ``o`` face-down chip, ``R`` face-up robber, ``_`` street, ``H`` house,
    ``=`` railway, ``L`` locomotive, ``~`` water, ``r`` a raft moored at that bank space,
    digits: miners (seat + 1),
    ``*`` several miners. Each row has its letter on the left and its hexes' numbers
    (counted from the left) on the right; the legend follows the board.
    """
    obs = state.observation(seat)
    board = state.game.board
    idx = board.index
    cells: dict[int, str] = {}
    for i, t in enumerate(board.terrain):
        cells[i] = {"field": ".", "hole": ".", "street": "_", "track": "=", "house": "H"}.get(
            t, "~"
        )
    for name in obs["face_down_chips"]:
        cells[idx[name]] = "o"
    for rb in obs["robbers"]:
        cells[idx[rb["hex"]]] = "R"
    for name in obs["rafts"]:
        cells[idx[name]] = "r"
    cells[idx[obs["locomotive"]["hex"]]] = "L"
    seen: dict[int, int] = {}
    for m in obs["miners"]:
        h = idx[m["hex"]]
        seen[h] = seen.get(h, 0) + 1
        cells[h] = "*" if seen[h] > 1 else str(m["seat"] + 1)
    lines = [_status(obs, board.colours)]
    radius = board.radius
    for r in range(-radius, radius + 1):
        letter = chr(ord("a") + r + radius)
        row = [i for i, h in enumerate(board.hexes) if h[1] == r]
        body = " " * abs(r) + " ".join(cells[i] for i in row)
        lines.append(f"{letter} {body:<{4 * radius + 1}}  {letter}1-{letter}{len(row)}")
    lines.append("hexes: row letter + number from the left of the row (k11: the centre)")
    lines.append(LEGEND)
    for m in obs["miners"]:
        where = "house" if m["in_house"] else ("raft " if m["on_raft"] else m["hex"])
        lines.append(
            f"P{m['seat'] + 1} {m['colour']:<6} at {where:<5} carrying {m['gold']} gold,"
            f" {_robbers(m['robbers'])}; house {m['house_gold']} gold,"
            f" {_robbers(m['house_robbers'])} = {m['house_gold'] + 2 * m['house_robbers']}"
            " points"
        )
    if obs["robbers"]:
        lines.append(
            "robbers: "
            + ", ".join(f"{r['hex']} hat {r['hat']} with {r['gold']} gold" for r in obs["robbers"])
        )
    lines.append(f"face-down chips: {len(obs['face_down_chips'])}")
    return "\n".join(lines)


TEXT_KINDS = {"~": "water", "o": "hidden", "R": "special", "L": "special", "*": "special"}


def text_marks(state: EurekaState, seat: int | None = None) -> list[TextMark]:
    """Where a terminal colours :func:`text_board`: water, face-down chips, robbers, the
    miners in their seats' colours, and the hexes that ``seat``'s legal moves go to."""
    obs = state.observation(seat)
    board = state.game.board
    lines = text_board(state, seat).split("\n")
    radius = board.radius
    where: dict[int, tuple[int, int]] = {}  # hex -> (line, column)
    for r in range(-radius, radius + 1):
        row = [i for i, h in enumerate(board.hexes) if h[1] == r]
        for k, i in enumerate(row):
            where[i] = (1 + r + radius, 2 + abs(r) + 2 * k)
    targets: set[int] = set()
    if not state.is_terminal() and (seat is None or seat == state.current_player()):
        for a in state.legal_actions():
            words = state.action_to_string(a).split()
            if len(words) == 2 and words[0] in ("move", "cross") and words[1] in board.index:
                targets.add(board.index[words[1]])
    marks: list[TextMark] = []
    for i, (line, col) in where.items():
        ch = lines[line][col] if col < len(lines[line]) else " "
        if i in targets:
            kind = "move"
        elif ch.isdigit():
            kind = f"seat{int(ch) - 1}"
        else:
            kind = TEXT_KINDS.get(ch, "")
        if kind:
            marks.append((line, col, col + 1, kind))
    for m in obs["miners"]:
        label = f"P{m['seat'] + 1} "
        for n, text in enumerate(lines[2 * radius + 2 :], start=2 * radius + 2):
            if text.startswith(label):
                marks.append((n, 0, len(label) + len(m["colour"]), f"seat{m['seat']}"))
    return marks


LEGEND_H = 70


def _house_icon(cx: float, cy: float, colour: str = "#3a2a1a") -> str:
    """A house drawn as a shape (a roof on a square): no font glyph needed."""
    pts = f"{cx - 5:.1f},{cy:.1f} {cx:.1f},{cy - 6:.1f} {cx + 5:.1f},{cy:.1f}"
    return element("polygon", points=pts, fill=colour) + element(
        "rect", x=cx - 3.5, y=cy, width=7, height=5, fill=colour
    )


def _coordinates(board: Board, centre: Callable[[int], tuple[float, float]]) -> str:
    """Row letters at both ends of every row, hex numbers above the top and below the
    bottom row (a hex is named by its row letter and its number from the left)."""
    out: list[str] = []
    rows: dict[int, list[int]] = {}
    for i, h in enumerate(board.hexes):
        rows.setdefault(h[1], []).append(i)
    top, bottom = min(rows), max(rows)
    for r, nodes in rows.items():
        nodes.sort(key=lambda n: board.hexes[n][0])
        letter = board.names[nodes[0]][0]
        lx, ly = centre(nodes[0])
        rx, ry = centre(nodes[-1])
        out.append(
            element(
                "text",
                letter,
                x=lx - SIZE * 1.3,
                y=ly + 4,
                font_size=10,
                text_anchor="middle",
                fill="#5a4a3a",
            )
        )
        out.append(
            element(
                "text",
                f"{letter}{len(nodes)}",
                x=rx + SIZE * 1.5,
                y=ry + 4,
                font_size=9,
                text_anchor="middle",
                fill="#5a4a3a",
            )
        )
        if r in (top, bottom):
            dy = -SIZE - 3 if r == top else SIZE + 10
            for k, n in enumerate(nodes):
                x, y = centre(n)
                out.append(
                    element(
                        "text",
                        str(k + 1),
                        x=x,
                        y=y + dy,
                        font_size=8,
                        text_anchor="middle",
                        fill="#5a4a3a",
                    )
                )
    return element("g", raw="".join(out))


def _legend(x: float, y: float) -> str:
    """The board's symbols, each drawn as on the board, with its meaning (absolute
    coordinates, no transforms: the raster adapter draws this SVG too)."""

    def chip(cx: float, cy: float) -> str:
        return element("circle", cx=cx, cy=cy, r=SIZE * 0.55, fill="#7a5230", stroke="#3d2914")

    def robber(cx: float, cy: float) -> str:
        return element(
            "circle", cx=cx, cy=cy, r=SIZE * 0.62, fill="#8b0000", stroke="#f0c000", stroke_width=2
        ) + element("text", "3", x=cx, y=cy + 4, font_size=10, text_anchor="middle", fill="#fff")

    def raft(cx: float, cy: float) -> str:
        return element(
            "rect", x=cx - 9, y=cy - 6, width=18, height=12, rx=2, fill="#9c6b30", stroke="#4a3520"
        )

    def loco(cx: float, cy: float) -> str:
        return element(
            "rect", x=cx - 9, y=cy - 7, width=18, height=14, rx=3, fill="#111"
        ) + element("text", "L", x=cx, y=cy + 4, font_size=10, text_anchor="middle", fill="#ffd700")

    def miner(cx: float, cy: float) -> str:
        return element(
            "circle", cx=cx, cy=cy, r=SIZE * 0.45, fill=MINER["red"], stroke="#000"
        ) + element("text", "1", x=cx, y=cy + 3.5, font_size=9, text_anchor="middle", fill="#fff")

    def rail(cx: float, cy: float) -> str:
        return element(
            "line",
            x1=cx - 9,
            y1=cy,
            x2=cx + 9,
            y2=cy,
            stroke="#6b4f2a",
            stroke_width=6,
            stroke_dasharray="2,3",
        )

    def lake(cx: float, cy: float) -> str:
        return element("rect", x=cx - 9, y=cy - 7, width=18, height=14, fill="#6fa8dc")

    def target(cx: float, cy: float) -> str:
        return element(
            "rect",
            x=cx - 9,
            y=cy - 7,
            width=18,
            height=14,
            fill="#ffeb3b",
            fill_opacity=0.55,
            stroke="#c08000",
            stroke_width=2,
        )

    items: list[tuple[Callable[[float, float], str], str]] = [
        (chip, "face-down chip"),
        (robber, "robber (hat 3; gold ring: gold under him)"),
        (raft, "raft"),
        (loco, "locomotive"),
        (miner, "miner of P1"),
        (_house_icon, "house"),
        (rail, "railway"),
        (lake, "lake"),
        (target, "where you may move"),
    ]
    out = [element("text", "Legend:", x=x, y=y + 4, font_size=11, font_weight="bold")]
    out += flow_legend(items, x + 62, y, width=518, line=22, gap=26, per_char=5.6, text_dx=14)
    return element("g", raw="".join(out))


@dataclass(frozen=True)
class _Geometry:
    """Where a board's hexes lie in the picture (computed once per board file)."""

    width: float
    half_h: float
    centres: tuple[tuple[float, float], ...]
    outlines: tuple[str, ...]
    """Per node: its hexagon's ``points``."""


_GEOMETRY: dict[int, tuple[Board, _Geometry]] = {}


def _geometry(board: Board) -> _Geometry:
    """The board's geometry; boards are loaded once per file (``load_board`` is cached), so
    this keeps one entry per board file."""
    found = _GEOMETRY.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    radius = board.radius
    half_w = SIZE * 3**0.5 * (radius + 0.6)
    half_h = SIZE * (1.5 * radius + 1.2)
    ox, oy = half_w + 28, half_h + 46
    centres = []
    for h in board.hexes:
        x, y = to_pixel(h, SIZE)
        centres.append((x + ox, y + oy))
    outlines = tuple(" ".join(f"{x:.1f},{y:.1f}" for x, y in corners(c, SIZE)) for c in centres)
    geo = _Geometry(2 * half_w + 56, half_h, tuple(centres), outlines)
    _GEOMETRY[id(board)] = (board, geo)
    return geo


def _static(board: Board, players: int) -> tuple[float, str]:
    """The height and the static layer: terrain, houses, doors, the railway, the
    coordinates and the legend (what no move changes)."""
    geo = _geometry(board)
    key = (id(board), players)
    found = _STATIC.get(key)
    if found is not None:
        return found
    width, half_h = geo.width, geo.half_h
    panel = 26 + 16 * players + LEGEND_H
    height = 2 * half_h + 74 + panel

    def centre(node: int) -> tuple[float, float]:
        return geo.centres[node]

    def poly(node: int, **kw: Any) -> str:
        return element("polygon", points=geo.outlines[node], **kw)

    body: list[str] = [element("rect", x=0, y=0, width=width, height=height, fill="#f4ecd8")]
    # Terrain.
    house_owner = {h: i for i, h in enumerate(board.houses)}
    for i, t in enumerate(board.terrain):
        if t == "house":
            colour = board.colours[house_owner[i]]
            body.append(
                poly(
                    i,
                    fill=MINER.get(colour, "#999"),
                    fill_opacity=0.45,
                    stroke="#5a4a3a",
                    stroke_width=2,
                )
            )
            body.append(_house_icon(*centre(i)))
        else:
            body.append(
                poly(
                    i,
                    fill=FILL[t],
                    stroke="#b8a57a" if board.kind[i] != WATER else "#5d95c8",
                    stroke_width=0.6,
                )
            )
        if t == "hole":
            cx, cy = centre(i)
            body.append(element("circle", cx=cx, cy=cy, r=3, fill="#8a6d3b", opacity=0.5))
    # House doors.
    for house, door in zip(board.houses, board.doors, strict=True):
        hx, hy = centre(house)
        for d in door:
            dx, dy = centre(d)
            body.append(
                element(
                    "line",
                    x1=(hx + dx) / 2,
                    y1=(hy + dy) / 2,
                    x2=hx,
                    y2=hy,
                    stroke="#5a4a3a",
                    stroke_width=3,
                    stroke_dasharray="2,2",
                )
            )
    # Railway and tunnel.
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (centre(t) for t in board.track))
    body.append(
        element(
            "polyline",
            points=pts,
            fill="none",
            stroke="#6b4f2a",
            stroke_width=6,
            stroke_dasharray="2,3",
        )
    )
    body.append(element("polyline", points=pts, fill="none", stroke="#333", stroke_width=1.5))
    tx, ty = centre(board.track[0])
    body.append(
        element(
            "circle",
            cx=tx,
            cy=ty + SIZE * 0.9,
            r=SIZE * 0.7,
            fill="#333",
            raw="<title>tunnel</title>",
        )
    )
    lx, ly = centre(board.track[-1])
    body.append(
        element(
            "circle",
            cx=lx,
            cy=ly,
            r=SIZE * 0.55,
            fill="none",
            stroke="#b8860b",
            stroke_width=2,
            raw="<title>last track space (Golden City)</title>",
        )
    )
    body.append(_coordinates(board, centre))
    body.append(_legend(10, 2 * half_h + 74 + 30 + 16 * players))
    found = (height, "".join(body))
    _STATIC[key] = found
    return found


_STATIC: dict[tuple[int, int], tuple[float, str]] = {}


def svg_layers(state: EurekaState, seat: int | None = None) -> Layers:
    """The board as DESIGN.md §3b's layers: the printed board (static); the status line,
    each hex's pieces (its id: the hex's name) and each player's line (public); the seat's
    move targets and buttons (seat)."""
    board = state.game.board
    geo = _geometry(board)
    y0 = 2 * geo.half_h + 74
    obs, public = once(state, "public", lambda: _public(state, geo, y0))
    height, static = _static(board, len(obs["miners"]))
    seat_layer: list[tuple[str, str]] = []
    if obs["to_move"] >= 0 and seat == obs["to_move"]:  # no buttons for the others
        seat_layer = _actions(state, obs, geo, y0, {key for key, _ in public})
    return Layers(geo.width, height, static, tuple(public), tuple(seat_layer), title="Eureka")


def _public(
    state: EurekaState, geo: _Geometry, y0: float
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The spectator's view and the public layer drawn from it (the status line, each
    hex's pieces, each player's line): the same for every viewer of ``state``."""
    obs = spectator_view(state)  # the public layer is what a spectator sees
    board = state.game.board
    public = [
        (
            "status",
            element("text", _status(obs, board.colours), x=10, y=20, font_size=13, id="status"),
        )
    ]
    public += _pieces(board, geo, obs)
    for i, m in enumerate(obs["miners"]):
        public.append(
            (
                f"p{m['seat'] + 1}-panel",
                _miner_line(
                    m["seat"],
                    m["colour"],
                    m["gold"],
                    m["robbers"],
                    m["house_gold"],
                    m["house_robbers"],
                    y0 + 14 + 16 * i,
                ),
            )
        )
    return obs, public


def svg_board(state: EurekaState, seat: int | None = None) -> str:
    """The board as SVG from ``seat``'s view; legal actions of the seat to move clickable."""
    return svg_layers(state, seat).compose()


def _pieces(board: Board, geo: _Geometry, obs: dict[str, Any]) -> list[tuple[str, str]]:
    """One public element per hex with pieces on it (its id: the hex's name): the raft
    moored there, its chip or robber, the locomotive, its miners."""
    here: dict[str, list[str]] = {}
    idx = board.index
    for name in obs["rafts"]:
        here.setdefault(name, []).append(_raft(board, idx[name], geo))
    for name in obs["face_down_chips"]:
        here.setdefault(name, []).append(_chip(name, *geo.centres[idx[name]]))
    for rb in obs["robbers"]:
        name = rb["hex"]
        here.setdefault(name, []).append(
            _robber(name, rb["hat"], rb["gold"], *geo.centres[idx[name]])
        )
    name = obs["locomotive"]["hex"]
    here.setdefault(name, []).append(_loco(*geo.centres[idx[name]]))
    count: dict[int, int] = {}
    for m in obs["miners"]:
        h = idx[m["hex"]]
        k = count.get(h, 0)
        count[h] = k + 1
        mx, my = geo.centres[h]
        mx += (k % 3 - 1) * 5 * (1 if k else 0)
        my += -4 * (k // 3) + (3 if k else 0)
        here.setdefault(m["hex"], []).append(
            _miner(
                m["seat"],
                m["colour"],
                m["hex"],
                m["gold"],
                m["robbers"],
                m["house_gold"],
                m["house_robbers"],
                mx,
                my,
            )
        )
    return [(name, f'<g id="{name}">{"".join(parts)}</g>') for name, parts in here.items()]


_RAFTS: dict[tuple[int, int], str] = {}


def _raft(board: Board, node: int, geo: _Geometry) -> str:
    """A raft moored at landing space ``node`` (one entry per board file and landing)."""
    key = (id(board), node)
    found = _RAFTS.get(key)
    if found is None:  # boards live as long as the process (load_board is cached)
        x, y = _raft_spot(board, node, lambda n: geo.centres[n])
        found = element(
            "rect",
            x=x - 9,
            y=y - 6,
            width=18,
            height=12,
            rx=2,
            fill="#9c6b30",
            stroke="#4a3520",
            raw=f"<title>raft at {board.names[node]}</title>",
        )
        _RAFTS[key] = found
    return found


@cache
def _chip(name: str, cx: float, cy: float) -> str:
    return element(
        "circle",
        cx=cx,
        cy=cy,
        r=SIZE * 0.55,
        fill="#7a5230",
        stroke="#3d2914",
        raw=f"<title>face-down chip at {name}</title>",
    )


@cache
def _robber(name: str, hat: int, gold: int, cx: float, cy: float) -> str:
    title = f"robber (hat {hat}) at {name} with {gold} gold"
    return element(
        "circle",
        cx=cx,
        cy=cy,
        r=SIZE * 0.62,
        fill="#8b0000",
        stroke="#f0c000" if gold else "#300",
        stroke_width=2,
        raw=f"<title>{title}</title>",
    ) + element("text", f"{hat}", x=cx, y=cy + 4, font_size=10, text_anchor="middle", fill="#fff")


@cache
def _loco(cx: float, cy: float) -> str:
    return element(
        "rect",
        x=cx - 9,
        y=cy - 7,
        width=18,
        height=14,
        rx=3,
        fill="#111",
        raw="<title>locomotive</title>",
    ) + element("text", "L", x=cx, y=cy + 4, font_size=10, text_anchor="middle", fill="#ffd700")


@lru_cache(maxsize=8192)  # keyed by a miner's holdings: bounded, as a server runs for days
def _miner(
    seat: int,
    colour: str,
    where: str,
    gold: int,
    robbers: int,
    house_gold: int,
    house_robbers: int,
    mx: float,
    my: float,
) -> str:
    title = (
        f"{colour} miner at {where}: {gold} gold and {robbers} robbers"
        f" in the open; house {house_gold} gold, {house_robbers} robbers"
    )
    return element(
        "circle",
        cx=mx,
        cy=my,
        r=SIZE * 0.45,
        fill=MINER.get(colour, "#999"),
        stroke="#000",
        stroke_width=1.2,
        raw=f"<title>{title}</title>",
    ) + element(
        "text",
        str(seat + 1),
        x=mx,
        y=my + 3.5,
        font_size=9,
        text_anchor="middle",
        fill=TEXT_ON.get(colour, "#fff"),
    )


@lru_cache(maxsize=4096)
def _miner_line(
    seat: int, colour: str, gold: int, robbers: int, house_gold: int, house_robbers: int, y: float
) -> str:
    """A player's line under the board (``p1-panel``): carried and banked chips, points."""
    text = (
        f"P{seat + 1} ({colour}): {gold} gold, {robbers} robbers in the open;"
        f" house {house_gold} + 2×{house_robbers} = {house_gold + 2 * house_robbers} points"
    )
    return (
        f'<g id="p{seat + 1}-panel">'
        + element("circle", cx=16, cy=y - 4, r=5, fill=MINER.get(colour, "#999"), stroke="#000")
        + element("text", text, x=26, y=y, font_size=11)
        + "</g>"
    )


BUTTON_TITLES = {"roll": "Throw the die", "pass": "Pass this turn", "stay": "Stay here"}


def _actions(
    state: EurekaState, obs: dict[str, Any], geo: _Geometry, y0: float, occupied: set[str]
) -> list[tuple[str, str]]:
    """The seat's clickable targets and its buttons. A target lies over the public
    pieces, so it shows them again above its highlight (``<use>`` of the hex's public
    element: it follows that element as it changes)."""
    board = state.game.board
    out: list[tuple[str, str]] = []
    buttons: list[str] = []
    rafts = set(obs["rafts"])
    for a in state.legal_actions():
        text = state.action_to_string(a)
        verb, _, arg = text.partition(" ")
        if verb in ("move", "cross"):
            node = board.index[arg]
            label = " (house)" if board.kind[node] == HOUSE else ""
            if verb == "move" and arg in rafts:
                label = " (raft)"
            out.append(_target(verb, arg, geo.outlines[node], label, arg in occupied))
        else:
            buttons.append(text)
    width = geo.width
    for i, text in enumerate(buttons):
        x = width - 10 - 70 * (len(buttons) - i)
        out.append(_button(text, x, y0))
    return out


@cache
def _target(verb: str, arg: str, outline: str, label: str, pieces: bool) -> tuple[str, str]:
    what = "Move to" if verb == "move" else "Cross the lake to"
    key = f"{verb}-{arg}"
    shape = (
        f'<polygon points="{outline}" fill="#ffeb3b" fill-opacity="0.55" stroke="#c08000"'
        ' stroke-width="2"/>'
    )
    if pieces:
        shape += f'<use href="#{arg}"/>'

    return key, _clickable(key, shape, f"{verb} {arg}", f"{what} {arg}{label}")


@cache
def _button(text: str, x: float, y0: float) -> tuple[str, str]:
    shape = element("rect", x=x, y=y0, width=62, height=22, rx=4, fill="#6b4f2a") + element(
        "text", text, x=x + 31, y=y0 + 15, font_size=12, text_anchor="middle", fill="#fff"
    )
    key = f"button-{text}"
    return key, _clickable(key, shape, text, BUTTON_TITLES[text])


def _clickable(element_id: str, shape: str, action: str, title: str) -> str:
    """A seat element a click acts on: its id, ``data-action`` and a tooltip."""
    return (
        f'<g id="{element_id}" class="action" data-action="{escape(action, quote=True)}"'
        f' style="cursor:pointer"><title>{escape(title)}</title>{shape}</g>'
    )


render_text = text_board  # alias for one release
render_svg = svg_board  # alias for one release

RENDERER = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers, text_marks=text_marks
)

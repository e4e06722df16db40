"""The Eurorails boards: a position as text and as SVG, from a seat's view.

Everything here is drawn from :func:`~.observe.observation` (never from hidden state). The
map under the position is drawn by :mod:`.mapdraw` (land, seas, rivers, terrain, cities,
ferries); its names are importable from here as before.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
>>> text_board(state, 0).splitlines()[0].startswith("Eurorails, build phase")
True
>>> svg_board(state, None).startswith("<svg")
True
"""

from __future__ import annotations

import re
from functools import cache
from html import escape
from typing import Any

from motherlode.core import svg as svgh
from motherlode.core.protocol import Player, Renderer
from motherlode.games.eurorails.board import DIR_NAMES, Board, load_board
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.mapdraw import (
    MARGIN_KM,
    SCALE,
    Scene,
    Shape,
    build_scene,
    map_svg,
    to_svg,
    write_png,
)
from motherlode.games.eurorails.observe import COLOURS, observation
from motherlode.games.eurorails.places import (
    file_letters,
    milepost_index,
    milepost_name,
    rank_labels,
    square,
    square_name,
)

__all__ = [
    "RENDERER",
    "Scene",
    "Shape",
    "base_svg",
    "build_scene",
    "map_svg",
    "svg_board",
    "text_board",
    "text_summary",
    "to_svg",
    "write_png",
]


@cache
def base_svg(ferry_printing: str = "first") -> tuple[float, float, float, str]:
    """The map drawn by :mod:`.mapdraw`, and its km -> px frame: ``(x0, y1, scale, svg)``
    with ``px = ((x - x0) * scale, (y1 - y) * scale)``."""
    b = load_board(ferry_printing)
    mp = b.content.map
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    x0 = min(xs) - MARGIN_KM
    y1 = max(ys) + MARGIN_KM + 40
    return x0, y1, SCALE, map_svg(mp, ferry_printing)  # type: ignore[arg-type]


def text_summary(state: EurorailsState, seat: Player | None = None) -> str:
    """Players, trains, loads, hands, events: a few lines."""
    obs = observation(state, seat)
    b = state.game.board
    lines = [
        f"Eurorails, {obs['phase']} phase, "
        f"round {obs['round'] + 1 if obs['round'] >= 0 else 'build'}"
        f", to move: {_who(obs['to_move'])}, target {obs['target_cash']}M"
    ]
    for pl in obs["players"]:
        cash = "?" if pl["cash"] is None else f"{pl['cash']}M"
        where = milepost_name(b, pl["at"]) if pl["at"] >= 0 else "not placed"
        lines.append(
            f"  P{pl['seat'] + 1} ({pl['colour']}): {cash}, {pl['train']} at {where}, loads "
            f"{', '.join(pl['loads']) or '-'}, {len(pl['track'])} segments, "
            f"{pl['majors_connected']}/8 majors"
            + (" [loses next turn]" if pl["loses_next_turn"] else "")
        )
        if "second_train" in pl:
            tr = pl["second_train"]
            at = milepost_name(b, tr["at"]) if tr["at"] >= 0 else "not placed"
            lines.append(
                f"      train 2: {tr['train']} at {at}, loads {', '.join(tr['loads']) or '-'}"
            )
        if pl["hand"]:
            for card in pl["hand"]:
                ds = "; ".join(f"{d['load']}>{d['city']} {d['payment']}" for d in card["demands"])
                lines.append(f"      #{card['card']}: {ds}")
    if obs["events"]:
        lines.append("  events: " + ", ".join(f"#{e['card']} {e['title']}" for e in obs["events"]))
    offer = obs.get("trade", {}).get("offer")
    if offer:

        def segs(xs: list[list[int]]) -> str:
            return ", ".join(f"{milepost_name(b, a)}>{milepost_name(b, c)}" for a, c in xs) or "-"

        price = "?" if offer["price"] is None else f"{offer['price']}M"
        lines.append(
            f"  offer ({offer['stage']}): P{offer['buyer'] + 1} to P{offer['seller'] + 1}:"
            f" takes {segs(offer['take'])}, gives {segs(offer['give'])}, price {price}"
        )
    if obs["terminal"]:
        lines.append("  winners: " + ", ".join(f"P{w + 1}" for w in obs["winners"] or []))
    return "\n".join(lines)


def _who(p: int) -> str:
    return {-1: "chance", -4: "nobody (game over)"}.get(p, f"P{p + 1}")


def _focus(state: EurorailsState, seat: Player | None) -> int:
    """Where the action is: the turn player's latest segment built, else its train, else
    the seat's train or track, else Paris."""
    g = state.game
    b = g.board
    p = state.turn_player() if state.current_player() >= 0 else -1
    for a in reversed(state._history[-40:]):
        if a < g.U0 and b.nb[a] >= 0:
            if p >= 0 and state.edge_owner[b.eid[a]] == p:
                return b.nb[a]
            break
    for q in (p, seat if seat is not None else -1):
        if q is not None and q >= 0:
            if state.pos[q] >= 0:
                return state.pos[q]
            if state.net[q]:
                return min(state.net[q])
    return b.city_centre[b.city_index("Paris")]


SYMBOL = {0: ".", 1: "m", 2: "^", 3: "p", 4: "s", 5: "M", 6: "C", 7: "o"}
LEGEND = (
    "legend: 1-6 train of P1-P6, a-f track of P1-P6, . clear, m mountain, ^ alpine,"
    " p ferry port, s small city, M medium city, C major city centre, o its outposts"
)


def _window(state: EurorailsState, centre: int, radius: int) -> list[str]:
    """The map rows around ``centre``, ranks at both edges, files above and below."""
    b = state.game.board
    owner_at: dict[int, int] = {}
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            for x in b.edge_ends[e]:
                owner_at.setdefault(x, o)
    trains = {state.pos[q]: q for q in range(state.game.num_players) if state.pos[q] >= 0}
    for q, m in enumerate(state.pos2):
        if m >= 0:
            trains.setdefault(m, q)
    f0, k0 = square(b, centre)
    files = range(max(0, f0 - 2 * radius), f0 + 2 * radius + 1)
    r_min = min(b.r)
    grid: dict[tuple[int, int], int] = {}
    for m in range(b.n):
        f, k = square(b, m)
        if f in files and abs(k - k0) <= radius:
            grid[(f, k)] = m
    rows = []
    for k in range(k0 - radius, k0 + radius + 1):
        if k < 1 or k > len(rank_labels(b)):
            continue
        odd = (max(b.r) - k + 1 - r_min) % 2  # rows half a spacing east
        line = " " * odd
        for f in files:
            at = grid.get((f, k))
            if at is None:
                line += "  "
            elif at in trains:
                line += str(trains[at] + 1) + " "
            elif at in owner_at:
                line += "abcdef"[owner_at[at]] + " "
            else:
                line += SYMBOL[b.terrain[at]] + " "
        rows.append(f"{k:>3} {line.rstrip():<{2 * len(files) + 1}} {k}")
    heads = [file_letters(f).rjust(2) for f in files]
    top = "    " + "".join(h[0] + " " for h in heads)
    second = "    " + "".join(h[1] + " " for h in heads)
    return [top.rstrip(), second.rstrip(), *rows, top.rstrip(), second.rstrip()]


def _cards(state: EurorailsState, seat: int) -> list[str]:
    """The seat's demands: which its track serves, and where each load is supplied."""
    g = state.game
    b = g.board
    net = state.net[seat]
    lines = [f"your demand cards (P{seat + 1}; * = a city your track reaches):"]
    for card in state.hands[seat]:
        parts = []
        for dem in g.demands[card]:
            to = b.city_names[dem.city]
            mark = "*" if net & set(b.city_posts[dem.city]) else ""
            srcs = ", ".join(
                b.city_names[c] + ("*" if net & set(b.city_posts[c]) else "")
                for c in b.load_sources[dem.load]
            )
            parts.append(f"{g.load_names[dem.load]} to {to}{mark} {dem.payment}M (from {srcs})")
        lines.append(f"  #{card}: " + "; ".join(parts))
    return lines


def text_board(state: EurorailsState, seat: Player | None = None, radius: int = 7) -> str:
    """The summary and a window of the map where the action is (the turn player's latest
    segment or train), with file letters and rank numbers at its edges, the cities in view
    named, a legend, and the seat's demand cards."""
    b = state.game.board
    centre = _focus(state, seat)
    rows = _window(state, centre, radius)
    f0, k0 = square(b, centre)
    seen = sorted(
        {
            c
            for m in range(b.n)
            if (c := b.city_of[m]) >= 0
            and abs(square(b, m)[0] - f0) <= 2 * radius
            and abs(square(b, m)[1] - k0) <= radius
        }
    )
    cities = ", ".join(f"{b.city_names[c]} {square_name(b, b.city_centre[c])}" for c in seen)
    head = f"map around {milepost_name(b, centre)} ({square_name(b, centre)})"
    extra = [f"cities: {cities or '-'}", LEGEND]
    if seat is not None and seat >= 0 and state.pos[seat] >= 0:
        pos = state.pos[seat]
        nbs = [
            f"{DIR_NAMES[d]}:{milepost_name(b, b.nb[pos * 6 + d])}"
            for d in range(6)
            if b.nb[pos * 6 + d] >= 0
        ]
        extra.append("next to your train: " + ", ".join(nbs))
    if seat is not None and seat >= 0 and state.hands[seat]:
        extra += _cards(state, seat)
    return "\n".join([text_summary(state, seat), head, *rows, *extra])


def _ends(b: Board, found: re.Match[str] | None) -> tuple[int, ...] | None:
    """The mileposts a legal action's string names (None: it names a direction)."""
    if found is None or found.group(0).endswith("(no milepost)"):
        return None
    return tuple(milepost_index(b, x) for x in found.groups())


def svg_board(state: EurorailsState, seat: Player | None = None) -> str:
    """The map with every player's track in their colour, trains, loads and events."""
    g = state.game
    b = g.board
    x0, y1, scale, base = base_svg(g.cfg.ferry_printing)
    obs = observation(state, seat)

    def at(i: int) -> tuple[float, float]:
        x, y = b.xy[i]
        return ((x - x0) * scale, (y1 - y) * scale)

    body: list[str] = []
    shade = {"snow": "#9ecae1", "fog": "#bdbdbd", "gale": "#6baed6", "flood": "#3182bd"}
    for ev in obs["events"]:
        kind = g.event_kind[ev["card"]]
        if kind in ("snow", "fog", "gale"):
            for m in sorted(g.areas[ev["card"]]):
                x, y = at(m)
                body.append(
                    svgh.element(
                        "circle",
                        cx=round(x, 1),
                        cy=round(y, 1),
                        r=9,
                        fill=shade[kind],
                        fill_opacity=0.35,
                    )
                )
        elif kind == "flood":
            river = b.events[ev["card"]].river
            for e, name in enumerate(b.edge_river):
                if name == river:
                    (ax, ay), (cx, cy) = (at(v) for v in b.edge_ends[e])
                    body.append(
                        svgh.element(
                            "line",
                            x1=round(ax, 1),
                            y1=round(ay, 1),
                            x2=round(cx, 1),
                            y2=round(cy, 1),
                            stroke=shade[kind],
                            stroke_width=5,
                            stroke_opacity=0.5,
                        )
                    )
    for pl in obs["players"]:
        colour = COLOURS[pl["seat"]]
        for a, c in pl["track"]:
            (ax, ay), (cx, cy) = at(a), at(c)
            body.append(
                svgh.element(
                    "line",
                    x1=round(ax, 1),
                    y1=round(ay, 1),
                    x2=round(cx, 1),
                    y2=round(cy, 1),
                    stroke=colour,
                    stroke_width=2.6,
                    stroke_linecap="round",
                )
            )

    def segment(a: int, c: int, **style: Any) -> str:
        """A line from milepost ``a`` to milepost ``c``."""
        (ax, ay), (cx, cy) = at(a), at(c)
        return svgh.element(
            "line", x1=round(ax, 1), y1=round(ay, 1), x2=round(cx, 1), y2=round(cy, 1), **style
        )

    offer = obs.get("trade", {}).get("offer")
    if offer:  # the segments of the offer on the table, dashed in the receiver's colour
        for key, who in (("take", "buyer"), ("give", "seller")):
            for a, c in offer[key]:
                body.append(
                    segment(
                        a,
                        c,
                        stroke=COLOURS[offer[who]],
                        stroke_width=5,
                        stroke_dasharray="3,2",
                        stroke_opacity=0.8,
                    )
                )
    legal = obs["legal"]
    for text in legal:
        if text.startswith(("take ", "give ")):
            ends = _ends(b, re.match(r"(?:take|give) ([^>]+)>(.+)$", text))
            assert ends is not None
            shape = segment(
                *ends,
                stroke="#000",
                stroke_opacity=0.25,
                stroke_width=6 if text.startswith("take") else 4,
            )
            body.append(svgh.actionable(shape, text))
        elif text.startswith("build "):
            ends = _ends(b, re.match(r"build ([^>]+)>(.+)$", text))
            if ends is None:  # "build X>NE (no milepost)": never legal
                continue
            shape = segment(
                *ends,
                stroke="#000",
                stroke_opacity=0.25,
                stroke_width=4,
            )
            body.append(svgh.actionable(shape, text))
        elif text.startswith(("move ", "train 2 move ")):
            target = _ends(b, re.match(r"(?:train 2 )?move (.+)$", text))
            if target is None:  # "move NE (no milepost)": a direction, never legal
                continue
            tx, ty = at(target[0])
            shape = svgh.element(
                "circle", cx=round(tx, 1), cy=round(ty, 1), r=5, fill="#ffd700", fill_opacity=0.6
            )
            body.append(svgh.actionable(shape, text))
    shown = []
    for pl in obs["players"]:
        shown.append(pl)
        if "second_train" in pl:  # Additional Trains: drawn like the first, a bit lower
            shown.append({**pl, **pl["second_train"], "second": True})
    for pl in shown:
        if pl["at"] >= 0:
            x, y = at(pl["at"])
            x += 4 * pl["seat"] - 8
            y += 6 if pl.get("second") else 0
            name = f"P{pl['seat'] + 1}" + (" train 2" if pl.get("second") else "")
            title = f"{name} {pl['train']}: {', '.join(pl['loads']) or 'empty'}"
            body.append(
                svgh.element(
                    "rect",
                    raw=f"<title>{escape(title)}</title>",
                    x=round(x - 5, 1),
                    y=round(y - 5, 1),
                    width=10,
                    height=10,
                    fill=COLOURS[pl["seat"]],
                    stroke="#000",
                    stroke_width=1,
                )
            )
            if pl["loads"]:
                body.append(
                    svgh.element(
                        "text",
                        "/".join(ld[:3] for ld in pl["loads"]),
                        x=round(x + 7, 1),
                        y=round(y - 6, 1),
                        font_size=9,
                        fill="#000",
                    )
                )
    # The status panel goes below the map, on a strip added to the canvas, so that it
    # never covers the map's title, legend or track.
    match = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', base)
    assert match is not None, "the base map has a viewBox"
    width, height = float(match.group(1)), float(match.group(2))
    summary = text_summary(state, seat).splitlines()
    strip = 24 + 15 * len(summary)
    body.append(svgh.element("rect", x=0, y=height, width=width, height=strip, fill="#f4eedb"))
    y = height + 20
    for line in summary:
        body.append(svgh.element("text", line, x=14, y=round(y, 1), font_size=13, fill="#222"))
        y += 15
    total = height + strip
    head = base[: base.index(">") + 1]
    new_head = head.replace(
        f'viewBox="0 0 {match.group(1)} {match.group(2)}"',
        f'viewBox="0 0 {match.group(1)} {total:g}"',
    ).replace(f'height="{match.group(2)}"', f'height="{total:g}"', 1)
    overlay = "".join(body)
    return new_head + base[len(head) :].replace("</svg>", overlay + "</svg>")


RENDERER: Renderer[EurorailsState] = Renderer(text_board=text_board, svg_board=svg_board)

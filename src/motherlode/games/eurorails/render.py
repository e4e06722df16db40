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

from functools import cache

from motherlode.core.protocol import Player, Renderer
from motherlode.games.eurorails.board import DIR_NAMES, load_board
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.layers import svg_board, svg_layers
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
from motherlode.games.eurorails.observe import observation

__all__ = [
    "RENDERER",
    "Scene",
    "Shape",
    "base_svg",
    "build_scene",
    "map_svg",
    "svg_board",
    "svg_layers",
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
    lines = [
        f"Eurorails, {obs['phase']} phase, "
        f"round {obs['round'] + 1 if obs['round'] >= 0 else 'build'}"
        f", to move: {_who(obs['to_move'])}, target {obs['target_cash']}M"
    ]
    for pl in obs["players"]:
        cash = "?" if pl["cash"] is None else f"{pl['cash']}M"
        where = pl["at_city"] or (pl["at"] if pl["at"] >= 0 else "not placed")
        lines.append(
            f"  P{pl['seat'] + 1} ({pl['colour']}): {cash}, {pl['train']} at {where}, loads "
            f"{', '.join(pl['loads']) or '-'}, {len(pl['track'])} segments, "
            f"{pl['majors_connected']}/8 majors"
            + (" [loses next turn]" if pl["loses_next_turn"] else "")
        )
        if "second_train" in pl:
            tr = pl["second_train"]
            at = tr["at_city"] or (tr["at"] if tr["at"] >= 0 else "not placed")
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
            return ", ".join(f"{a}>{c}" for a, c in xs) or "-"

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


def text_board(state: EurorailsState, seat: Player | None = None, radius: int = 7) -> str:
    """The summary and a window of the map around the seat's train (or its track)."""
    b = state.game.board
    centre = -1
    if seat is not None and seat >= 0:
        centre = state.pos[seat]
        if centre < 0 and state.net[seat]:
            centre = min(state.net[seat])
    if centre < 0:
        centre = b.city_centre[b.city_index("Paris")]
    owner_at: dict[int, int] = {}
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            for x in b.edge_ends[e]:
                owner_at.setdefault(x, o)
    trains = {state.pos[q]: q for q in range(state.game.num_players) if state.pos[q] >= 0}
    for q, m in enumerate(state.pos2):
        if m >= 0:
            trains.setdefault(m, q)
    q0, r0 = b.q[centre], b.r[centre]
    rows = []
    symbol = {0: ".", 1: "m", 2: "^", 3: "p", 4: "s", 5: "M", 6: "C", 7: "o"}
    for dr in range(radius, -radius - 1, -1):
        r = r0 + dr
        line = " " * (radius + dr)
        for dq in range(-2 * radius, 2 * radius + 1):
            q = q0 + dq
            i = b.lattice.get((q, r))
            if abs(dq + dr / 2) > 1.6 * radius:
                continue
            if i is None:
                line += "  "
            elif i in trains:
                line += str(trains[i] + 1) + " "
            elif i in owner_at:
                line += "abcdef"[owner_at[i]] + " "
            else:
                line += symbol[b.terrain[i]] + " "
        rows.append(line.rstrip())
    legend = (
        "map around milepost " + b.name(centre) + ": digits = trains, a-f = track of P1-P6,"
        " . clear, m mountain, ^ alpine, p port, s/M small/medium city, C/o major city"
    )
    extra = []
    if seat is not None and seat >= 0 and state.pos[seat] >= 0:
        pos = state.pos[seat]
        nbs = [
            f"{DIR_NAMES[d]}:{b.name(b.nb[pos * 6 + d])}"
            for d in range(6)
            if b.nb[pos * 6 + d] >= 0
        ]
        extra.append("neighbours of your train: " + ", ".join(nbs))
    return "\n".join([text_summary(state, seat), legend, *rows, *extra])


RENDERER: Renderer[EurorailsState] = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers
)

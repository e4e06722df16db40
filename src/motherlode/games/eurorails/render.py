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
from motherlode.games.eurorails.places import (
    file_letters,
    milepost_name,
    rank_labels,
    square,
    square_name,
    squares,
)

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
        where = pl["at"] or "not placed"
        lines.append(
            f"  P{pl['seat'] + 1} ({pl['colour']}): {cash}, {pl['train']} at {where}, loads "
            f"{', '.join(pl['loads']) or '-'}, {pl['segments']} segments, "
            f"{pl['majors_connected']}/8 majors"
            + (" [loses next turn]" if pl["loses_next_turn"] else "")
        )
        if "second_train" in pl:
            tr = pl["second_train"]
            at = tr["at"] or "not placed"
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

        def segs(xs: list[str]) -> str:
            return ", ".join(xs) or "-"

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
    r_min, r_max = min(b.r), max(b.r)
    grid = squares(b)
    rows = []
    for k in range(k0 - radius, k0 + radius + 1):
        if k < 1 or k > len(rank_labels(b)):
            continue
        odd = (r_max - k + 1 - r_min) % 2  # rows half a spacing east
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
    grid = squares(b)
    seen = sorted(
        {
            c
            for f in range(f0 - 2 * radius, f0 + 2 * radius + 1)
            for k in range(k0 - radius, k0 + radius + 1)
            if (m := grid.get((f, k))) is not None and (c := b.city_of[m]) >= 0
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


RENDERER: Renderer[EurorailsState] = Renderer(
    text_board=text_board, svg_board=svg_board, svg_layers=svg_layers
)

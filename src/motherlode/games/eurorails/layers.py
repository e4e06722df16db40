"""The Eurorails board as DESIGN.md §3b's three layers (:class:`~motherlode.core.svg.Layers`).

- **static** (the config only: the ferry printing and the number of players): the map from
  :mod:`.mapdraw`, the file and rank coordinates along its edges, the legend of every
  symbol, an invisible ring per city (``id="city-K"``) that a hover lights up, and the
  frame of the side panel;
- **public** (the state only): each player's track as one path (``track-p1``), the
  trains (``train-p1``), the events in force (``events-map``, ``events``), the offer on
  the table, the status line and one block per player in the panel (``player-p1``: cash
  when public, train, loads, majors connected);
- **seat**: the view to open on (``focus``, with ``data-focus``), that seat's cash when
  it is private, its demand cards drawn as cards (``cards``: the cities its track already
  serves and the loads on its train marked; a load carries ``data-highlight`` with the
  ids of its supply cities), every clickable element (``data-action``), and for the seat
  to move the route commands (``data-command``, ``static/commands.js``: a first click
  previews, a second builds or moves): in a building phase a ring on every city its
  track does not reach yet (``build to Lyon``), in the operations phase the reach of the
  train this turn (``reach``, drawn) with a ring on every city in it and an invisible
  target on every other milepost in it (``move to Lyon``, ``move to K17``).

Strings are built directly (no element per function call): a board is drawn on every
push. The milepost positions are formatted once per map.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
>>> layers = svg_layers(state, 0)
>>> [k for k, _ in layers.public][:3]
['events-map', 'track-p1', 'track-p2']
>>> layers.compose() == state.render_svg(0)
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache, lru_cache, partial
from html import escape
from typing import Any

from motherlode.core.protocol import Player
from motherlode.core.svg import Layers, once
from motherlode.games.eurorails.board import CENTRE, Board, load_board
from motherlode.games.eurorails.constants import BUILD, OPS
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.mapdraw import (
    FERRY,
    INK,
    MARGIN_KM,
    SCALE,
    build_scene,
    scene_markup,
)
from motherlode.games.eurorails.observe import COLOURS, chains, observation, track_edges
from motherlode.games.eurorails.places import file_labels, milepost_name, rank_labels
from motherlode.games.eurorails.routes import reach

ROW_H = 104
"""Height of one player's block in the panel (four lines and the seat's own cash)."""
LINE = 19
"""Distance between two lines of the panel."""
CARD_H = 96
"""Height of a demand card in the panel, and the gap to the next."""
Namer = Callable[[int], str]
"""A milepost's readable name (:func:`.places.milepost_name` of the board)."""

PANEL_W = 470.0
"""Width of the side panel (players, cards, events, buttons) right of the map."""

STYLE = (
    "<style>"
    ".er-trk{fill:none;stroke-width:3.2;stroke-linecap:round;stroke-linejoin:round}"
    ".er-tgt{fill:#000;fill-opacity:.22;stroke:#000;stroke-opacity:.35;stroke-width:.6}"
    ".er-tgt.er-mv{stroke:none;fill:#ffd700;fill-opacity:.75}"
    ".er-tgt.er-city{stroke:#000;stroke-width:2;fill:#ffd700;fill-opacity:.35;stroke-opacity:.6}"
    ".er-btn rect{fill:#fff;stroke:#1b7f3a;stroke-width:1.5}"
    ".er-btn text{font-size:15px;fill:#1b7f3a}"
    ".er-ring{fill:none;stroke:none;pointer-events:none}"
    ".er-ring.highlight{stroke:#ffb000;stroke-width:6;fill:#ffd700;fill-opacity:.25;"
    "animation:er-blink 1s step-start infinite}"
    "@keyframes er-blink{50%{stroke-opacity:.2;fill-opacity:.05}}"
    ".er-pn{font-size:17px;fill:#222}.er-ps{font-size:15px;fill:#444}.er-ph{font-size:21px;"
    "font-weight:bold;fill:#222}.er-coord{font-size:11px;fill:#4f7590}"
    ".er-card{fill:#fffdf5;stroke:#8a5a2b;stroke-width:1.2}"
    ".er-served{fill:#1b7f3a;font-weight:bold}.er-onboard{fill:#fff2b3;stroke:#c9a400}"
    "[data-highlight]{cursor:help}"
    ".er-go{fill:#d35400;fill-opacity:.12;stroke:#d35400;stroke-width:2;stroke-opacity:.7;"
    "cursor:pointer}.er-hit{fill:#000;fill-opacity:0;cursor:pointer}"
    ".er-reach{fill:none;stroke:#d35400;stroke-opacity:.3;stroke-width:13;"
    "stroke-linecap:round;pointer-events:none}"
    "</style>"
)


def _n(v: float) -> str:
    """A coordinate with at most one decimal (``12``, ``12.5``)."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


class Frame:
    """The km -> px frame of the map and every milepost's position, formatted once."""

    def __init__(self, b: Board) -> None:
        xs = [x for x, _ in b.xy]
        ys = [y for _, y in b.xy]
        self.x0 = min(xs) - MARGIN_KM
        self.y1 = max(ys) + MARGIN_KM + 40
        self.width = round((max(xs) + MARGIN_KM - self.x0) * SCALE)
        self.height = round((self.y1 - (min(ys) - MARGIN_KM)) * SCALE)
        self.px = tuple(self.at_km(x, y) for x, y in b.xy)
        self.txt = tuple(f"{_n(x)} {_n(y)}" for x, y in self.px)

    def at_km(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.x0) * SCALE, (self.y1 - y) * SCALE)


@cache
def frame(printing: str) -> Frame:
    return Frame(load_board(printing))


# --- coordinates along the edges ------------------------------------------------------


def _coordinates(b: Board, fr: Frame) -> str:
    """The files along the top and bottom edges, the ranks along the left and right
    (:mod:`.places`: a milepost off the cities is named by its square, ``K17``)."""
    out = ['<g class="er-coord" text-anchor="middle">']
    for label in file_labels(b):
        text, xkm = label.text, label.x
        x = _n(fr.at_km(xkm, 0)[0])
        out.append(
            f'<text x="{x}" y="12">{text}</text><text x="{x}" y="{fr.height - 4}">{text}</text>'
        )
    for label in rank_labels(b):
        text, ykm = label.text, label.y
        y = _n(fr.at_km(0, ykm)[1] + 4)
        out.append(
            f'<text x="9" y="{y}">{text}</text><text x="{fr.width - 10}" y="{y}">{text}</text>'
        )
    out.append("</g>")
    return "".join(out)


# --- the static layer -----------------------------------------------------------------


def _legend_extra(y: float) -> str:
    """Symbols the map's own legend lacks: ferry line, Chunnel, track, targets."""
    lx = 40
    rows = [
        f'<line x1="{lx - 9}" y1="{{y}}" x2="{lx + 9}" y2="{{y}}" stroke="{FERRY}" '
        'stroke-width="1.8" stroke-dasharray="5,3"/>',
        f'<line x1="{lx - 9}" y1="{{y}}" x2="{lx + 9}" y2="{{y}}" stroke="#555" '
        'stroke-width="3" stroke-dasharray="2,2"/>',
        f'<line x1="{lx - 9}" y1="{{y}}" x2="{lx + 9}" y2="{{y}}" stroke="{COLOURS[0]}" '
        'class="er-trk"/>',
        f'<path class="er-tgt" transform="translate(0 {{y}})" '
        f'd="{_lozenge((lx - 14, 0), (lx + 14, 0), 5.5)}"/>',
        f'<circle cx="{lx}" cy="{{y}}" r="5" class="er-tgt er-mv"/>',
        f'<circle cx="{lx}" cy="{{y}}" r="6" class="er-go"/>',
        f'<path d="M{lx - 8} {{y}}h16" class="er-reach"/>',
        f'<rect x="{lx - 5}" y="{{ym}}" width="10" height="10" fill="{COLOURS[0]}" stroke="#000"/>',
        f'<circle cx="{lx}" cy="{{y}}" r="7" fill="#9ecae1" fill-opacity=".5"/>',
    ]
    texts = [
        "ferry line (cost in the circle)",
        "Chunnel (20M, fast or heavy freight)",
        "a player's track, in their colour",
        "a segment you may build (click)",
        "a milepost you may move to (click)",
        "a city to build or move to (click: route, cost)",
        "your train's reach this turn (click a place)",
        "a player's train",
        "bad weather / flooded river",
    ]
    out = []
    for k, (shape, text) in enumerate(zip(rows, texts, strict=True)):
        yy = y + 18 * k
        out.append(shape.format(y=_n(yy), ym=_n(yy - 5)))
        out.append(
            f'<text x="{lx + 14}" y="{_n(yy + 4)}" font-size="11" fill="{INK}">{text}</text>'
        )
    out.append(
        f'<text x="{lx - 9}" y="{_n(y + 18 * len(rows) + 4)}" font-size="11" fill="{INK}">'
        "letters and numbers on the edges: files and ranks (K17)</text>"
    )
    return "".join(out)


def _rings(b: Board, fr: Frame) -> str:
    out = []
    for k, name in enumerate(b.city_names):
        x, y = fr.px[b.city_centre[k]]
        r = 30 if b.city_size[k] == CENTRE else 14  # a major city's hexagon, or a dot
        out.append(
            f'<circle id="city-{k}" class="er-ring" cx="{_n(x)}" cy="{_n(y)}" r="{r}">'
            f"<title>{escape(name)}</title></circle>"
        )
    return "".join(out)


def _points(b: Board, fr: Frame) -> str:
    """Every milepost's name and place, for the page's survey (``static/survey.js``): an
    empty group carrying ``data-points="Name,x,y;..."``, sent once with the static layer."""
    pts = ";".join(f"{milepost_name(b, m)},{_n(x)},{_n(y)}" for m, (x, y) in enumerate(fr.px))
    return f'<g id="survey-points" data-points="{escape(pts, quote=True)}"/>'


@cache
def static_layer(printing: str, players: int) -> str:
    """The markup that never changes in a match of this printing and player count."""
    b = load_board(printing)
    fr = frame(printing)
    scene = build_scene(b.content.map, printing)  # type: ignore[arg-type]
    px0 = fr.width
    panel = (
        f'<rect x="{px0}" y="0" width="{_n(PANEL_W)}" height="{fr.height}" fill="#fbf8ef" '
        'stroke="#c9bfa3"/>'
        f'<text x="{px0 + 16}" y="30" class="er-ph">Players</text>'
    )
    del players  # the panel's rows are drawn per state; the frame is the same for all
    return (
        STYLE
        + scene_markup(scene)
        + _legend_extra(250)
        + _coordinates(b, fr)
        + _rings(b, fr)
        + _points(b, fr)
        + panel
    )


# --- the public layer -----------------------------------------------------------------


def _path(fr: Frame, edges: list[list[int]]) -> str:
    return "".join("M" + "L".join(fr.txt[m] for m in run) for run in chains(edges))


def _track(fr: Frame, key: str, colour: str, edges: list[list[int]]) -> str:
    return _track_markup(fr, key, colour, tuple((a, c) for a, c in edges))


@lru_cache(maxsize=256)
def _track_markup(fr: Frame, key: str, colour: str, edges: tuple[tuple[int, int], ...]) -> str:
    """A player's track (cached: most positions leave most tracks as they were)."""
    d = _path(fr, [list(e) for e in edges])
    return f'<path id="{key}" class="er-trk" stroke="{colour}" d="{d}"/>'


def _events_map(state: EurorailsState, obs: dict[str, Any], fr: Frame) -> str:
    g = state.game
    b = g.board
    shade = {"snow": "#9ecae1", "fog": "#bdbdbd", "gale": "#6baed6", "flood": "#3182bd"}
    out = ['<g id="events-map" pointer-events="none">']
    for ev in obs["events"]:
        kind = g.event_kind[ev["card"]]
        if kind in ("snow", "fog", "gale"):
            colour = shade[kind]
            for m in sorted(g.areas[ev["card"]]):
                x, y = fr.px[m]
                out.append(
                    f'<circle cx="{_n(x)}" cy="{_n(y)}" r="9" fill="{colour}" fill-opacity=".35"/>'
                )
        elif kind == "flood":
            river = b.events[ev["card"]].river
            d = "".join(
                f"M{fr.txt[a]}L{fr.txt[c]}"
                for (a, c), name in zip(b.edge_ends, b.edge_river, strict=True)
                if name == river
            )
            out.append(
                f'<path d="{d}" stroke="{shade[kind]}" stroke-width="5" stroke-opacity=".5"/>'
            )
    out.append("</g>")
    return "".join(out)


def _trains(state: EurorailsState, obs: dict[str, Any], fr: Frame) -> list[tuple[str, str]]:
    out = []
    for pl in obs["players"]:
        q = pl["seat"]
        trains = [(pl, "", state.pos[q])]
        if "second_train" in pl:  # Additional Trains: drawn like the first, a bit lower
            trains.append((pl["second_train"], "2", state.pos2[q]))
        for tr, second, at in trains:
            if at < 0:
                continue
            x, y = fr.px[at]
            x += 4 * pl["seat"] - 8
            y += 6 if second else 0
            who = f"P{pl['seat'] + 1}" + (" train 2" if second else "")
            loads = ", ".join(tr["loads"]) or "empty"
            key = f"train{second}-p{pl['seat'] + 1}"
            label = (
                f'<text x="{_n(x + 7)}" y="{_n(y - 6)}" font-size="10" class="halo">'
                f"{escape('/'.join(ld[:3] for ld in tr['loads']))}</text>"
                if tr["loads"]
                else ""
            )
            title = escape(f"{who} {tr['train']} at {tr['at']}: {loads}")
            out.append(
                (
                    key,
                    f'<g id="{key}"><title>{title}</title>'
                    f'<rect x="{_n(x - 6)}" y="{_n(y - 6)}" width="12" height="12" '
                    f'fill="{COLOURS[pl["seat"]]}" stroke="#000"/>{label}</g>',
                )
            )
    return out


def _player_block(pl: dict[str, Any], x: float, y: float, obs: dict[str, Any], win: int) -> str:
    """One player's lines in the panel: colour, cash when public, train, loads, majors."""
    to_move = obs["to_move"]
    seat = pl["seat"]
    key = f"player-p{seat + 1}"
    where = f"at {pl['at']}" if pl["at"] is not None else "not placed yet"
    cash = "" if pl["cash"] is None else f" · {pl['cash']}M"
    mark = "▶ " if seat == to_move else ""
    flags = " · loses next turn" if pl["loses_next_turn"] else ""
    lines = [
        f"{pl['train']}, {where}",
        f"loads: {', '.join(pl['loads']) or 'none'}",
        f"majors connected: {pl['majors_connected']} of 8 (to win: {win}) · "
        f"track: {pl['segments']}{flags}",
    ]
    body = "".join(
        f'<text x="{_n(x + 22)}" y="{_n(y + LINE * (k + 1))}" class="er-ps">{escape(t)}</text>'
        for k, t in enumerate(lines)
    )
    return (
        f'<g id="{key}"><rect x="{_n(x)}" y="{_n(y - 13)}" width="14" height="14" '
        f'fill="{COLOURS[seat]}" stroke="#000"/>'
        f'<text x="{_n(x + 22)}" y="{_n(y)}" class="er-pn" font-weight="bold">'
        f"{mark}P{seat + 1} ({pl['colour']}){cash}</text>{body}</g>"
    )


def _public(
    state: EurorailsState, obs: dict[str, Any], fr: Frame, name: Namer
) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [("events-map", _events_map(state, obs, fr))]
    edges = track_edges(state)
    for pl in obs["players"]:
        key = f"track-p{pl['seat'] + 1}"
        out.append((key, _track(fr, key, COLOURS[pl["seat"]], edges[pl["seat"]])))
    offer = obs.get("trade", {}).get("offer")
    if offer:  # the offer on the table, dashed in the receiver's colour
        parts = []
        ends = state.game.board.edge_ends
        for segs, who in ((state.offer_take, "buyer"), (state.offer_give, "seller")):
            d = "".join(f"M{fr.txt[ends[e][0]]}L{fr.txt[ends[e][1]]}" for e in segs)
            parts.append(
                f'<path d="{d}" stroke="{COLOURS[offer[who]]}" stroke-width="5" '
                'stroke-dasharray="3,2" stroke-opacity=".8" fill="none"/>'
            )
        out.append(("offer", f'<g id="offer">{"".join(parts)}</g>'))
    out.extend(_trains(state, obs, fr))
    x0 = fr.width + 16
    for k, pl in enumerate(obs["players"]):
        out.append(
            (
                f"player-p{pl['seat'] + 1}",
                _player_block(pl, x0, 60 + ROW_H * k, obs, state.game.cfg.majors_to_connect),
            )
        )
    y = 60 + ROW_H * len(obs["players"])
    rnd = obs["round"]
    status = (
        f"{obs['phase']} phase, "
        + (f"round {rnd + 1}" if rnd >= 0 else "building rounds")
        + f" · target {obs['target_cash']}M"
        + (" · cash is public" if obs["cash_public"] else "")
    )
    events = "; ".join(f"#{e['card']} {e['title']} (until {e['until']})" for e in obs["events"])
    out.append(
        (
            "status",
            f'<g id="status"><text x="{x0}" y="{y}" class="er-ps">{escape(status)}</text>'
            f'<text x="{x0}" y="{y + LINE}" class="er-ps">'
            f"{escape('events in force: ' + (events or 'none'))}</text></g>",
        )
    )
    return out


# --- the seat layer -------------------------------------------------------------------


def _focus(state: EurorailsState, seat: Player | None, printing: str, bottom: float) -> str:
    """The view to open on: the seat's track and train (the whole map when it has none)."""
    fr = frame(printing)
    pts: list[tuple[float, float]] = []
    if seat is not None and seat >= 0:
        pts = [fr.px[m] for edge in track_edges(state)[seat] for m in edge]
        if state.pos[seat] >= 0:
            pts.append(fr.px[state.pos[seat]])
    if pts:
        xs = [x for x, _ in pts]
        ys = [y for _, y in pts]
        pad = 60.0
        x, y = min(xs) - pad, min(ys) - pad
        w, h = max(xs) - x + pad, max(ys) - y + pad
        w, h = max(w, 420.0), max(h, 320.0)  # close enough to read, far enough to see around
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        box = f"{_n(cx - w / 2)} {_n(cy - h / 2)} {_n(w)} {_n(h)}"
    else:
        box = _heartland(printing)
    views = f"0 0 {fr.width} {fr.height}"
    panel = f"{fr.width} 0 {_n(PANEL_W)} {_n(min(bottom, fr.height))}"
    return (
        f'<g id="focus" data-focus="{box}" data-views="Europe:{views};Your network:{box};'
        f'Players and cards:{panel}"/>'
    )


@cache
def _heartland(printing: str) -> str:
    """Where a player with no track yet looks first: the box round the major cities
    nearest their middle (all but the farthest), where the first track usually goes."""
    b = load_board(printing)
    fr = frame(printing)
    pts = [fr.px[b.city_centre[c]] for c in b.majors]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    near = sorted(pts, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)[: len(pts) - 1]
    x0, x1 = min(x for x, _ in near) - 50, max(x for x, _ in near) + 50
    y0, y1 = min(y for _, y in near) - 50, max(y for _, y in near) + 50
    return f"{_n(x0)} {_n(y0)} {_n(x1 - x0)} {_n(y1 - y0)}"


def _served(b: Board, edges: list[list[int]]) -> set[int]:
    """Cities (indices) that a track reaches: any of its mileposts on the track."""
    posts = {m for e in edges for m in e}
    return {b.city_of[m] for m in posts if b.city_of[m] >= 0}


def _cards(state: EurorailsState, obs: dict[str, Any], seat: int, x0: float, y0: float) -> str:
    b = state.game.board
    pl = obs["players"][seat]
    hand = pl["hand"] or []
    served = _served(b, track_edges(state)[seat])
    on_train = set(pl["loads"]) | set(pl.get("second_train", {}).get("loads", []))
    out = [f'<g id="cards"><text x="{_n(x0)}" y="{_n(y0)}" class="er-ph">Your demand cards</text>']
    y = y0 + 14
    for card in hand:
        out.append(
            f'<rect x="{_n(x0)}" y="{_n(y)}" width="{_n(PANEL_W - 32)}" '
            f'height="{CARD_H - 8}" rx="6" '
            f'class="er-card"/><text x="{_n(x0 + 8)}" y="{_n(y + 17)}" class="er-ps">'
            f"card #{card['card']}</text>"
        )
        for k, d in enumerate(card["demands"]):
            ly = y + 40 + 21 * k
            city = b.city_index(d["city"])
            # the Circus (a variant) is no load of the map: it stands where its chips are
            found = (
                b.load_sources[b.load_index(d["load"])]
                if d["load"] in b.load_names
                else tuple(state.circus_at)
            )
            sources = " ".join(f"city-{c}" for c in found)
            supplied = ", ".join(b.city_names[c] for c in found) or "nowhere now"
            ok = city in served
            carried = d["load"] in on_train
            back = (
                f'<rect x="{_n(x0 + 6)}" y="{_n(ly - 14)}" width="120" height="18" '
                'class="er-onboard"/>'
                if carried
                else ""
            )
            tip = f"{d['load']}: supplied at {supplied}" + (" (on your train)" if carried else "")
            out.append(
                f'<g data-highlight="{sources}"><title>{escape(tip)}</title>{back}'
                f'<text x="{_n(x0 + 10)}" y="{_n(ly)}" class="er-pn">{escape(d["load"])}</text></g>'
                f'<text x="{_n(x0 + 134)}" y="{_n(ly)}" class="er-pn{" er-served" if ok else ""}">'
                f"→ {escape(d['city'])}{' ✓' if ok else ''}</text>"
                f'<text x="{_n(x0 + PANEL_W - 44)}" y="{_n(ly)}" class="er-pn" text-anchor="end">'
                f"{d['payment']}M</text>"
            )
        y += CARD_H
    out.append(
        f'<text x="{_n(x0)}" y="{_n(y + 8)}" class="er-ps">✓ your track reaches the city; '
        "yellow: the load is on your train;</text>"
        f'<text x="{_n(x0)}" y="{_n(y + 8 + LINE)}" class="er-ps">'
        "hover (or tap) a load to light up "
        "the cities that supply it</text></g>"
    )
    return "".join(out)


_SLUG = re.compile(r"[^A-Za-z0-9]+")


def _decode(state: EurorailsState, action: int) -> tuple[str, int, int] | None:
    """Where on the map an action acts: ``("seg", a, b)`` or ``("post", m, from)``."""
    g = state.game
    b = g.board
    p = state.turn_player() if state.phase != 0 else state.current_player()
    pos = state.pos[p] if p >= 0 else -1
    if action in g.base_of:  # Additional Trains: the second train's version of an action
        action = g.base_of[action]
        pos = state.pos2[p]
    if action < g.U0:
        a = action // 6
        to = b.nb[action]
        if to < 0:
            link = b.link_at[a]
            if link < 0:
                return None
            ends = b.links[link].ends
            to = ends[1] if ends[0] == a else ends[0]
        return ("seg", a, to)
    if g.MOVE0 <= action < g.CHUNNEL_MOVE and pos >= 0:
        to = b.nb[pos * 6 + action - g.MOVE0]
        return ("post", to, pos) if to >= 0 else None
    if action == g.CHUNNEL_MOVE and pos >= 0 and b.link_at[pos] >= 0:
        ends = b.links[b.link_at[pos]].ends
        return ("post", ends[1] if ends[0] == pos else ends[0], pos)
    if g.START0 <= action < g.LOSE0:
        return ("city", b.city_centre[action - g.START0], -1)
    if g.cfg.challenge_track_trading and g.TAKE0 <= action < g.TRADE_END:
        e = action - g.TAKE0 if action < g.GIVE0 else action - g.GIVE0
        a, c = b.edge_ends[e]
        return ("seg", a, c)
    return None


def _targets(
    state: EurorailsState, obs: dict[str, Any], fr: Frame, y0: float, name: Namer
) -> list[tuple[str, str]]:
    """Every legal action as a clickable element: on the map where it acts, otherwise a
    button in the panel."""
    if not obs["legal"]:
        return []
    legal = state.legal_actions()  # in the order of obs["legal"] (parsing them back is slower)
    out: list[tuple[str, str]] = []
    used: set[str] = set()
    buttons: list[tuple[str, str]] = []
    for action, text in zip(legal, obs["legal"], strict=True):
        key = "a-" + _SLUG.sub("-", text).strip("-").lower()
        while key in used:
            key += "-"
        used.add(key)
        where = _decode(state, action)
        act = escape(text, quote=True)
        if where is None:
            buttons.append((key, text))
            continue
        kind, m, other = where
        # the tooltip names the places, whatever the action's notation says
        places = f"{name(m)} to {name(other)}" if kind == "seg" else f"to {name(m)}"
        title = f"<title>{escape(text)} ({escape(places)})</title>"
        if kind == "seg":
            half = 8.0 if text.startswith("take") else 5.5
            out.append(
                (
                    key,
                    f'<path id="{key}" class="er-tgt" data-action="{act}" '
                    f'd="{_lozenge(fr.px[m], fr.px[other], half)}">{title}</path>',
                )
            )
        else:
            x, y = fr.px[m]
            cls = "er-tgt er-city" if kind == "city" else "er-tgt er-mv"
            r = 16 if kind == "city" else 8
            out.append(
                (
                    key,
                    f'<circle id="{key}" class="{cls}" data-action="{act}" cx="{_n(x)}" '
                    f'cy="{_n(y)}" r="{r}">{title}</circle>',
                )
            )
    out.extend(_buttons(buttons, fr, y0))
    return out


def _lozenge(a: tuple[float, float], b: tuple[float, float], half: float) -> str:
    """A diamond along the segment ``a``-``b``, ``2 * half`` wide, its tips short of the
    mileposts so that neighbouring targets do not overlap (an area, not a line: it is
    easy to hit and has a box in every direction).

    The corners after the first are relative (``l``): every segment of one direction
    then spells the same, which the wire's compression takes almost for free.

    >>> _lozenge((0, 0), (100, 0), 5)
    'M12 0l38 5l38 -5l-38 -5z'
    """
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    hx, hy = 0.38 * dx, 0.38 * dy  # from a tip to the middle
    return (
        f"M{_n(ax + 0.12 * dx)} {_n(ay + 0.12 * dy)}l{_n(hx + nx)} {_n(hy + ny)}"
        f"l{_n(hx - nx)} {_n(hy - ny)}l{_n(-hx - nx)} {_n(-hy - ny)}z"
    )


def _buttons(buttons: list[tuple[str, str]], fr: Frame, y0: float) -> list[tuple[str, str]]:
    """Actions with no place on the map (pick, deliver, upgrade, end turn...) as buttons
    in the panel from ``y0`` down, two to a row."""
    out = []
    x0 = fr.width + 16
    w = (PANEL_W - 42) / 2
    for k, (key, text) in enumerate(buttons):
        x = x0 + (k % 2) * (w + 10)
        y = y0 + 34 * (k // 2)
        label = text if len(text) <= 30 else text[:29] + "…"
        out.append(
            (
                key,
                f'<g id="{key}" class="er-btn" data-action="{escape(text, quote=True)}">'
                f"<title>{escape(text)}</title>"
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="28" rx="5"/>'
                f'<text x="{_n(x + 8)}" y="{_n(y + 19)}">{escape(label)}</text></g>',
            )
        )
    if buttons:
        out.insert(
            0,
            (
                "buttons-head",
                f'<text id="buttons-head" x="{x0}" y="{_n(y0 - 10)}" class="er-ph">'
                "Your moves</text>",
            ),
        )
    return out


def _ring(key: str, command: str, x: float, y: float, r: int, cls: str = "er-go") -> str:
    """A clickable circle that previews ``command`` (``static/commands.js``)."""
    cmd = escape(command, quote=True)
    return (
        f'<circle id="{key}" class="{cls}" data-command="{cmd}" cx="{_n(x)}" cy="{_n(y)}" '
        f'r="{r}"><title>{escape(command)}</title></circle>'
    )


def _build_commands(state: EurorailsState, fr: Frame) -> list[tuple[str, str]]:
    """``build to <city>`` on every city the mover's track does not reach yet, while he
    may build (a route that cannot be built is refused by the preview, saying why)."""
    g = state.game
    b = g.board
    p = state.current_player()
    if state.phase != BUILD or not any(a < g.U0 for a in state.legal_actions()):
        return []
    posts = set(state.net[p])
    out = []
    for k, city in enumerate(b.city_names):
        if posts & set(b.city_posts[k]) or (not posts and k in b.majors):
            continue  # reached already, or (no track yet) where a first route starts
        x, y = fr.px[b.city_centre[k]]
        r = 24 if b.city_size[k] == CENTRE else 12
        key = "go-" + _SLUG.sub("-", city).strip("-").lower()
        out.append((key, _ring(key, f"build to {city}", x, y, r)))
    return out


def _survey(state: EurorailsState, name: Namer) -> list[tuple[str, str]]:
    """The hints of a survey by hand (``static/survey.js``), while the mover may build:
    where a drag may start (his network and every major-city milepost), the command it
    makes (``build`` and the mileposts joined by ``>``), and the command of a click on a
    milepost that nothing else answers (``build to AD46``)."""
    g = state.game
    b = g.board
    if state.phase != BUILD or not any(a < g.U0 for a in state.legal_actions()):
        return []
    p = state.current_player()
    starts = sorted(set(state.net[p]) | set(b.major_posts))
    names = escape(";".join(name(m) for m in starts), quote=True)
    return [
        (
            "survey",
            f'<g id="survey" data-survey="build " data-survey-join="&gt;" '
            f'data-survey-from="{names}" data-click="build to "/>',
        )
    ]


def _move_commands(state: EurorailsState, fr: Frame, name: Namer) -> list[tuple[str, str]]:
    """The reach of the mover's train this turn drawn, and ``move to <place>`` on every
    city (a ring) and every other milepost (an invisible dot) in it."""
    p = state.current_player()
    if state.phase != OPS or p < 0 or state.pos[p] < 0:
        return []
    b = state.game.board
    posts = sorted(reach(state) - {state.pos[p]})
    if not posts:
        return []
    d = "".join(f"M{fr.txt[m]}h0" for m in posts)  # a round dot per milepost, one path
    out = [("reach", f'<path id="reach" class="er-reach" d="{d}"/>')]
    dots = []
    here = b.city_of[state.pos[p]]
    cities = sorted({b.city_of[m] for m in posts if b.city_of[m] >= 0} - {here})
    for m in posts:
        if b.city_of[m] < 0:
            x, y = fr.px[m]
            place = name(m)
            cmd = escape(f"move to {place}", quote=True)
            dots.append(
                f'<circle class="er-hit" data-command="{cmd}" cx="{_n(x)}" cy="{_n(y)}" r="7"/>'
            )
    out.append(("reach-hit", f'<g id="reach-hit">{"".join(dots)}</g>'))
    for k in cities:
        city = b.city_names[k]
        x, y = fr.px[b.city_centre[k]]
        r = 24 if b.city_size[k] == CENTRE else 12
        key = "go-" + _SLUG.sub("-", city).strip("-").lower()
        out.append((key, _ring(key, f"move to {city}", x, y, r)))
    return out


def _seat(
    state: EurorailsState, obs: dict[str, Any], seat: Player | None, fr: Frame, name: Namer
) -> list[tuple[str, str]]:
    targets = _targets(state, obs, fr, _buttons_top(obs, seat), name)
    if seat is not None and seat >= 0 and seat == state.current_player():
        # under the atomic targets, so that a segment's diamond stays on top
        targets = (
            _survey(state, name)
            + _build_commands(state, fr)
            + _move_commands(state, fr, name)
            + targets
        )
    buttons = (markup for _, markup in targets if 'class="er-btn"' in markup[:60])
    bottom = max((_bottom(markup) for markup in buttons), default=0.0)
    bottom = max(bottom, _buttons_top(obs, seat)) + 20
    out = [("focus", _focus(state, seat, state.game.cfg.ferry_printing, bottom))]
    if seat is not None and seat >= 0:
        pl = obs["players"][seat]
        x0 = fr.width + 16
        if not obs["cash_public"]:  # the seat's own cash, in its own block
            y = 60 + ROW_H * seat + LINE * 4
            out.append(
                (
                    "my-cash",
                    f'<text id="my-cash" x="{_n(x0 + 22)}" y="{y}" class="er-ps" '
                    'font-weight="bold">'
                    f"your cash: {pl['cash']}M (hidden from the others)</text>",
                )
            )
        if pl["hand"] is not None:
            out.append(("cards", _cards(state, obs, seat, x0, _cards_top(obs))))
    out.extend(targets)
    return out


def _bottom(markup: str) -> float:
    """The lowest ``y`` + ``height`` of the rects in ``markup`` (a button's bottom)."""
    found = re.findall(r'<rect x="[^"]+" y="([^"]+)" width="[^"]+" height="([^"]+)"', markup)
    return max((float(y) + float(h) for y, h in found), default=0.0)


def _cards_top(obs: dict[str, Any]) -> float:
    """Where the seat's cards start in the panel: below the players and the status."""
    return 60 + ROW_H * len(obs["players"]) + 3 * LINE + 30


def _buttons_top(obs: dict[str, Any], seat: Player | None) -> float:
    """Where the buttons start: below the cards and their key."""
    hand = obs["players"][seat]["hand"] if seat is not None and seat >= 0 else None
    return _cards_top(obs) + 14 + CARD_H * len(hand or []) + 3 * LINE + 40


def svg_layers(state: EurorailsState, seat: Player | None = None) -> Layers:
    """The board of ``state`` as seen by ``seat`` (None: a spectator), in three layers."""
    g = state.game
    printing = g.cfg.ferry_printing
    fr = frame(printing)
    obs = observation(state, seat)
    name: Namer = partial(milepost_name, g.board)
    # the public layer is what a spectator sees, so it is the same for every viewer (and
    # drawn once per position where the server shares it: svg.once)
    public = once(
        state,
        "public",
        lambda: tuple(_public(state, obs if seat is None else observation(state, None), fr, name)),
    )
    return Layers(
        width=fr.width + PANEL_W,
        height=fr.height,
        static=static_layer(printing, g.num_players),
        public=public,
        seat=tuple(_seat(state, obs, seat, fr, name)),
        title="Eurorails",
    )


def svg_board(state: EurorailsState, seat: Player | None = None) -> str:
    """The whole board as one SVG document: :func:`svg_layers` composed."""
    return svg_layers(state, seat).compose()


__all__ = ["PANEL_W", "frame", "static_layer", "svg_board", "svg_layers"]

"""What a seat sees of a Eurorails position: the observation, a tensor, text and SVG.

Everything here is drawn from :func:`observation` (never from hidden state) except the
tensor, which encodes the same information. Hidden: other players' cash until an Excess
Profits Tax card has appeared ("Courtesy in Play"), and, with ``open_hands=False``, other
players' demand cards. The draw pile is only a count.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any

import numpy as np

from motherlode.core import svg as svgh
from motherlode.core.protocol import Player
from motherlode.games.eurorails.board import DIR_NAMES, base_svg

if TYPE_CHECKING:
    from motherlode.games.eurorails.game import EurorailsGame, EurorailsState

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf")
COLOUR_NAMES = ("red", "blue", "green", "purple", "orange", "cyan")


def _card_view(g: EurorailsGame, card: int) -> dict[str, Any]:
    b = g.board
    return {
        "card": card,
        "demands": [
            {"load": g.load_names[d.load], "city": b.city_names[d.city], "payment": d.payment}
            for d in g.demands[card]
        ],
    }


def observation(state: EurorailsState, player: Player | None = None) -> dict[str, Any]:
    """The JSON-able view of ``player`` (None: a spectator)."""
    g = state.game
    b = g.board
    n = g.num_players
    track: list[list[list[int]]] = [[] for _ in range(n)]
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            track[o].append(list(b.edge_ends[e]))
    players = []
    for q in range(n):
        see_hand = g.cfg.open_hands or q == player
        see_cash = bool(state.cash_public) or q == player
        players.append(
            {
                "seat": q,
                "colour": COLOUR_NAMES[q],
                "cash": state.cash[q] if see_cash else None,
                "train": b.train_names[state.train[q]],
                "at": state.pos[q],
                "at_city": b.city_names[b.city_of[state.pos[q]]]
                if state.pos[q] >= 0 and b.city_of[state.pos[q]] >= 0
                else None,
                "on_ferry_to": state.on_ferry[q] if state.on_ferry[q] >= 0 else None,
                "loads": [g.load_names[x] for x in state.loads[q]],
                "hand": [_card_view(g, c) for c in state.hands[q]] if see_hand else None,
                "hand_size": len(state.hands[q]),
                "track": track[q],
                "links": [b.links[k].name for k, o in enumerate(state.link_owners) if q in o],
                "majors_connected": state.majors_connected(q),
                "turns": state.turns_done[q],
                "loses_next_turn": bool(state.lost[q]),
                "declared": bool(state.declared[q]),
            }
            | ({"second_train": _second_view(state, q)} if state.pos2 else {})
        )
    to_move = state.current_player()
    events = [
        {
            "card": a[0],
            "title": b.events[a[0]].title,
            "drawn_by": a[1],
            "until": "used" if a[2] >= 1 << 29 else f"end of P{a[1] + 1}'s turn {a[2]}",
        }
        for a in state.active
    ]
    from motherlode.games.eurorails.game import PHASE_NAMES

    return (
        {
            "game": "eurorails",
            "seat": player,
            "to_move": to_move,
            "turn_player": state.turn_player() if state.phase != 0 else None,
            "phase": PHASE_NAMES[state.phase],
            "round": state.normal_round(),
            "first_player": state.first,
            "target_cash": state.target,
            "cash_public": bool(state.cash_public),
            "players": players,
            "moves_left": state.moves,
            **({"moves_left_2": state.moves2} if state.pos2 else {}),
            "spent_this_turn": state.spent,
            "events": events,
            "chips": {b.load_names[x]: c for x, c in enumerate(state.chips)},
            "draw_pile": len(state.draw),
            "discard_pile": list(state.discard),
            "pending_load_loss": [q % n for q in state.pending],  # (n + q: a second train)
            "legal": [state.action_to_string(a) for a in state.legal_actions()]
            if player is not None and player == to_move
            else [],
            "terminal": bool(state.over),
            "winners": list(state.winners_) if state.over else None,
        }
        | ({"places": state.placings()} if g.cfg.time_limit and state.over else {})
        | ({"circus_at": [b.city_names[c] for c in state.circus_at]} if g.cfg.circus else {})
        | ({"debt": list(state.debt)} if g.cfg.mercy_borrowing else {})
        | ({"late_fees": [list(x) for x in state.late]} if g.cfg.mercy_late_payment else {})
        | (
            {
                "warehouse": [
                    {"city": b.city_names[c], "load": g.load_names[x], "dropped_by": q}
                    for c, x, q, _ in state.warehouse
                ]
            }
            if g.cfg.challenge_field_warehousing
            else {}
        )
        | (
            {"contracts": [_card_view(g, c) for c in state.contracts]}
            if g.cfg.challenge_open_contracts
            else {}
        )
        | ({"trade": _trade_view(state)} if g.cfg.challenge_track_trading else {})
    )


def _second_view(state: EurorailsState, q: int) -> dict[str, Any]:
    """Additional Trains: seat ``q``'s second train (public, like the first)."""
    g = state.game
    b = g.board
    m = state.pos2[q]
    return {
        "train": b.train_names[state.train2[q]],
        "at": m,
        "at_city": b.city_names[b.city_of[m]] if m >= 0 and b.city_of[m] >= 0 else None,
        "on_ferry_to": state.on_ferry2[q] if state.on_ferry2[q] >= 0 else None,
        "loads": [g.load_names[x] for x in state.loads2[q]],
    }


def _trade_view(state: EurorailsState) -> dict[str, Any]:
    """Selling and Trading Track: the offer on the table is public (made at the table)."""
    from motherlode.games.eurorails.game import OFFER_STAGES

    b = state.game.board
    offer = None
    if state.offer:
        seller, stage, price = state.offer
        offer = {
            "buyer": state.turn_player(),
            "seller": seller,
            "take": [list(b.edge_ends[e]) for e in state.offer_take],
            "give": [list(b.edge_ends[e]) for e in state.offer_give],
            "price": price if stage else None,
            "stage": OFFER_STAGES[stage],
        }
    return {"offer": offer, "offered_this_turn": list(state.offered), "bought": bool(state.traded)}


def tensor_size(game: EurorailsGame) -> int:
    n = game.num_players
    return (
        game.board.n * (2 * n + 1)
        + n * (2 + 4 + 32 + 2 + 9 * 2)
        + 22
        + 32
        + n
        + 4
        + _trade_size(game)
        + (n * (4 + 32) if game.cfg.challenge_additional_trains else 0)
        + (n * 6 if game.cfg.four_demand_cards else 0)
    )


def _trade_size(game: EurorailsGame) -> int:
    """Selling and Trading Track: the seller, the stage, the price, a purchase made, and
    per milepost the ends of segments taken and given."""
    if not game.cfg.challenge_track_trading:
        return 0
    return game.num_players + 3 + 2 + 2 * game.board.n


def tensor(state: EurorailsState, player: Player | None = None) -> np.ndarray:
    """Per milepost: track of each seat, train of each seat, bad weather; then per seat:
    cash (0 when hidden) and whether it is visible, train type, loads, lost turn, declared,
    the 9 demands (load, payment; city via the card id scaled) when visible; active
    events, tray chips, the seat to move, the phase."""
    g = state.game
    b = g.board
    n = g.num_players
    t = np.zeros(tensor_size(g), dtype=np.float32)
    big = b.n
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            x, y = b.edge_ends[e]
            t[x * (2 * n + 1) + o] = 1.0
            t[y * (2 * n + 1) + o] = 1.0
    for q in range(n):
        if state.pos[q] >= 0:
            t[state.pos[q] * (2 * n + 1) + n + q] = 1.0
        if state.pos2 and state.pos2[q] >= 0:
            t[state.pos2[q] * (2 * n + 1) + n + q] = 1.0
    for m in state.weather_area():
        t[m * (2 * n + 1) + 2 * n] = 1.0
    o = big * (2 * n + 1)
    for q in range(n):
        visible = bool(state.cash_public) or q == player
        t[o] = state.cash[q] / 100.0 if visible else 0.0
        t[o + 1] = 1.0 if visible else 0.0
        t[o + 2 + state.train[q]] = 1.0
        for x in state.loads[q]:
            t[o + 6 + x] += 1.0
        t[o + 38] = float(state.lost[q])
        t[o + 39] = float(state.declared[q])
        if g.cfg.open_hands or q == player:
            k = 0
            for c in state.hands[q]:
                for d in g.demands[c]:
                    if k >= 9:  # Fast Game: the 4th and 5th cards are not encoded
                        break
                    t[o + 40 + 2 * k] = (d.load + 1) / 32.0
                    t[o + 41 + 2 * k] = d.payment / 100.0
                    k += 1
        o += 58
    for a in state.active:
        t[o + a[0] - 147] = 1.0
    o += 22
    for x, c in enumerate(state.chips):
        t[o + x] = c / 4.0
    o += 32
    cp = state.current_player()
    if 0 <= cp < n:
        t[o + cp] = 1.0
    o += n
    t[o + state.phase] = 1.0
    o += 4
    if g.cfg.challenge_track_trading:
        if state.offer:
            seller, stage, price = state.offer
            t[o + seller] = 1.0
            t[o + n + stage] = 1.0
            t[o + n + 3] = price / 100.0
        t[o + n + 4] = float(state.traded)
        o += n + 5
        for k, edges in enumerate((state.offer_take, state.offer_give)):
            for e in edges:
                for m in b.edge_ends[e]:
                    t[o + 2 * m + k] = 1.0
        o += 2 * b.n
    if state.pos2:  # Additional Trains: per seat the second train's type and loads
        for q in range(n):
            t[o + state.train2[q]] = 1.0
            for x in state.loads2[q]:
                t[o + 4 + x] += 1.0
            o += 36
    if g.cfg.four_demand_cards:  # the 4th card's demands, when visible
        for q in range(n):
            hand = state.hands[q]
            if (g.cfg.open_hands or q == player) and len(hand) > 3 and hand[3] < 147:
                for k, d in enumerate(g.demands[hand[3]]):
                    t[o + 2 * k] = (d.load + 1) / 32.0
                    t[o + 2 * k + 1] = d.payment / 100.0
            o += 6
    return t


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
            ends = re.match(r"(?:take|give) (\d+)>(\d+)", text)
            assert ends is not None
            shape = segment(
                int(ends.group(1)),
                int(ends.group(2)),
                stroke="#000",
                stroke_opacity=0.25,
                stroke_width=6 if text.startswith("take") else 4,
            )
            body.append(svgh.actionable(shape, text))
        elif text.startswith("build "):
            ends = re.match(r"build (\d+)>(\d+)", text)
            if ends is None:  # "build 12>12+3": a ferry or the Chunnel, drawn by its port
                continue
            shape = segment(
                int(ends.group(1)),
                int(ends.group(2)),
                stroke="#000",
                stroke_opacity=0.25,
                stroke_width=4,
            )
            body.append(svgh.actionable(shape, text))
        elif text.startswith(("move ", "train 2 move ")):
            target = re.match(r"(?:train 2 )?move (\d+)", text)
            if target is None:  # "move n": a direction, not a milepost
                continue
            tx, ty = at(int(target.group(1)))
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

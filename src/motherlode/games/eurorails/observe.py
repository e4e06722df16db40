"""What a seat sees of a Eurorails position: the observation and its tensor (rules-side:
the state's :meth:`observation` and :meth:`observation_tensor`; the boards in
:mod:`.render` are drawn from :func:`observation`).

Places are named as a person reads them (:mod:`.places`: ``Lyon``, ``Paris-NE``, ``AD46``):
a train's ``at`` and ``on_ferry_to`` (None while not placed / not on a ferry), each
player's ``track`` as runs of mileposts (``"Paris-SW>AA39>AA40"``, ``segments`` counts
them), the offer's segments (``"AD46>Lyon"``). The tensor stays numeric.

Hidden: other players' cash until an Excess Profits Tax card has appeared ("Courtesy in
Play"), and, with ``open_hands=False``, other players' demand cards. The tensor encodes the
same information. The draw pile is only a count.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from motherlode.core.protocol import Player
from motherlode.games.eurorails.base import GameBase
from motherlode.games.eurorails.board import Board
from motherlode.games.eurorails.constants import OFFER_STAGES, PHASE_NAMES, PRICE_MAX
from motherlode.games.eurorails.places import milepost_name
from motherlode.games.eurorails.turns import TurnRules

COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
"""The seats' colours on the map: Okabe and Ito's palette, as on the web page, told apart
with every common colour blindness (vermillion, blue, bluish green, reddish purple, orange,
sky blue for the names below)."""
COLOUR_NAMES = ("red", "blue", "green", "purple", "orange", "cyan")


def _card_view(g: GameBase, card: int) -> dict[str, Any]:
    b = g.board
    return {
        "card": card,
        "demands": [
            {"load": g.load_names[d.load], "city": b.city_names[d.city], "payment": d.payment}
            for d in g.demands[card]
        ],
    }


def chains(edges: list[list[int]]) -> list[list[int]]:
    """The segments as few runs of mileposts as a greedy walk finds (from the ends of the
    network first), so a track says each milepost about once.

    >>> chains([[1, 2], [3, 4], [2, 3], [2, 5]])
    [[1, 2, 3, 4], [2, 5]]
    """
    nbrs: dict[int, list[int]] = {}
    for a, c in edges:
        nbrs.setdefault(a, []).append(c)
        nbrs.setdefault(c, []).append(a)
    left = {(min(a, c), max(a, c)) for a, c in edges}
    starts = sorted(nbrs, key=lambda m: (len(nbrs[m]) % 2 == 0, m))
    runs = []
    for m in starts:
        while any((min(m, x), max(m, x)) in left for x in nbrs[m]):
            run, at = [m], m
            while True:
                nxt = next((x for x in nbrs[at] if (min(at, x), max(at, x)) in left), None)
                if nxt is None:
                    break
                left.discard((min(at, nxt), max(at, nxt)))
                run.append(nxt)
                at = nxt
            runs.append(run)
    return runs


def track_edges(state: TurnRules) -> list[list[list[int]]]:
    """Each seat's segments as milepost pairs (the drawing's numbers, not a person's)."""
    b = state.game.board
    track: list[list[list[int]]] = [[] for _ in range(state.game.num_players)]
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            track[o].append(list(b.edge_ends[e]))
    return track


def _name(b: Board, m: int) -> str | None:
    return milepost_name(b, m) if m >= 0 else None


def _runs(b: Board, edges: list[list[int]]) -> list[str]:
    """``["Paris-SW>AA39>AA40", ...]``: the segments as runs of named mileposts."""
    return [">".join(milepost_name(b, m) for m in run) for run in chains(edges)]


KEPT_TRACKS = 8
"""How many positions' track :func:`_public_track` keeps per game (a search, a test and a
server hold several states of one game; one entry would be made again at each switch)."""


def _public_track(state: TurnRules) -> list[dict[str, Any]]:
    """Per seat its ``track`` runs, ``segments``, ``links`` and ``majors_connected``: the
    same for every viewer and changed only when someone builds (or a flood or a trade takes
    track), so kept on the game with copies of the owners they were made from and used
    again while those are equal (list comparisons in C, against a walk over the 5,714
    edges and a search per seat), for the last :data:`KEPT_TRACKS` positions asked."""
    g = state.game
    kept: list[tuple[list[int], list[list[int]], list[dict[str, Any]]]] | None = getattr(
        g, "_observed_tracks", None
    )
    if kept is None:
        kept = []
        g._observed_tracks = kept  # type: ignore[attr-defined]
    owners, link_owners = state.edge_owner, state.link_owners
    for i, entry in enumerate(kept):
        if entry[0] == owners and entry[1] == link_owners:
            if i:
                kept.insert(0, kept.pop(i))  # most recently used first
            return entry[2]
    b = g.board
    track = track_edges(state)
    parts = [
        {
            "track": _runs(b, track[q]),
            "segments": len(track[q]),
            "links": [b.links[k].name for k, o in enumerate(link_owners) if q in o],
            "majors_connected": state.majors_connected(q),
        }
        for q in range(g.num_players)
    ]
    kept.insert(0, (owners.copy(), [list(o) for o in link_owners], parts))
    del kept[KEPT_TRACKS:]
    return parts


def observation(state: TurnRules, player: Player | None = None) -> dict[str, Any]:
    """The JSON-able view of ``player`` (None: a spectator)."""
    g = state.game
    b = g.board
    n = g.num_players
    track = _public_track(state)
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
                "at": _name(b, state.pos[q]),
                "at_city": b.city_names[b.city_of[state.pos[q]]]
                if state.pos[q] >= 0 and b.city_of[state.pos[q]] >= 0
                else None,
                "on_ferry_to": _name(b, state.on_ferry[q]),
                "loads": [g.load_names[x] for x in state.loads[q]],
                "hand": [_card_view(g, c) for c in state.hands[q]] if see_hand else None,
                "hand_size": len(state.hands[q]),
                "track": list(track[q]["track"]),
                "segments": track[q]["segments"],
                "links": list(track[q]["links"]),
                "majors_connected": track[q]["majors_connected"],
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


def _second_view(state: TurnRules, q: int) -> dict[str, Any]:
    """Additional Trains: seat ``q``'s second train (public, like the first)."""
    g = state.game
    b = g.board
    m = state.pos2[q]
    return {
        "train": b.train_names[state.train2[q]],
        "at": _name(b, m),
        "at_city": b.city_names[b.city_of[m]] if m >= 0 and b.city_of[m] >= 0 else None,
        "on_ferry_to": _name(b, state.on_ferry2[q]),
        "loads": [g.load_names[x] for x in state.loads2[q]],
    }


def _trade_view(state: TurnRules) -> dict[str, Any]:
    """Selling and Trading Track: the offer on the table is public (made at the table)."""
    b = state.game.board
    offer = None
    if state.offer:
        seller, stage, price = state.offer
        offer = {
            "buyer": state.turn_player(),
            "seller": seller,
            "take": [_segment(b, e) for e in state.offer_take],
            "give": [_segment(b, e) for e in state.offer_give],
            "price": price if stage else None,
            "stage": OFFER_STAGES[stage],
        }
    return {"offer": offer, "offered_this_turn": list(state.offered), "bought": bool(state.traded)}


def _segment(b: Board, e: int) -> str:
    a, c = b.edge_ends[e]
    return f"{milepost_name(b, a)}>{milepost_name(b, c)}"


CASH_CAP = 1000
"""The tensor's cash is capped at ECU 1,000M (four times the 250M that wins): cash has no
upper limit in the rules, and a tensor's bounds must be finite."""


def tensor_size(game: GameBase) -> int:
    size: int | None = getattr(game, "_tensor_size", None)
    if size is None:
        size = sum(math.prod(shape) for _, _, shape in tensor_layout(game))
        game._tensor_size = size  # type: ignore[attr-defined]
    return size


def tensor_layout(game: GameBase) -> list[tuple[str, int, tuple[int, ...]]]:
    """The tensor's named slices, ``(name, offset, shape)``, in order; seats observer first
    (slot ``k`` is seat ``(observer + k) % players``; a spectator's slot ``k`` seat ``k``).

    ``mileposts`` is ``(mileposts, planes)``: per milepost the track of each seat slot,
    the train of each seat slot, bad weather. ``players`` per seat slot: cash / 100
    (capped at :data:`CASH_CAP`; 0 when hidden), cash visible, train type one-hot (4),
    loads by kind (32), loses its next turn, declared, the first 9 demands of its cards
    (load + 1) / 32 and payment / 100 (0 when hidden). ``events`` the active event
    cards, ``chips`` the tray's chips by load / 4, ``to_move`` the seat slot to move,
    ``phase`` one-hot. Options add ``offer`` (the seller's slot, the stage one-hot, the
    price / 100, a purchase made) and ``offer_track`` (per milepost: an end of a segment
    taken, given), ``second_trains`` (per slot: type one-hot, loads by kind) and
    ``fourth_card`` (per slot: the fourth card's 3 demands).

    >>> import motherlode
    >>> [(n, o, s) for n, o, s in tensor_layout(motherlode.load("eurorails"))][:3]
    [('mileposts', 0, (2084, 7)), ('players', 14588, (3, 58)), ('events', 14762, (22,))]
    """
    n = game.num_players
    cfg = game.cfg
    parts: list[tuple[str, tuple[int, ...]]] = [
        ("mileposts", (game.board.n, 2 * n + 1)),
        ("players", (n, 58)),
        ("events", (22,)),
        ("chips", (32,)),
        ("to_move", (n,)),
        ("phase", (4,)),
    ]
    if cfg.challenge_track_trading:
        parts += [("offer", (n + 5,)), ("offer_track", (game.board.n, 2))]
    if cfg.challenge_additional_trains:
        parts.append(("second_trains", (n, 36)))
    if cfg.four_demand_cards:
        parts.append(("fourth_card", (n, 6)))
    out, offset = [], 0
    for name, shape in parts:
        out.append((name, offset, shape))
        offset += math.prod(shape)
    return out


def tensor_bounds(game: GameBase) -> dict[str, tuple[Any, Any]]:
    """Each slice's ``(low, high)``: flags and fractions in [0, 1] but cash (up to
    :data:`CASH_CAP` / 100), loads (a train's capacity), payments (the deck's largest
    / 100), chips (the most of a load / 4) and the offer's price (``PRICE_MAX`` / 100)."""
    b = game.board
    loads = float(max(b.train_capacity))
    pay = max(d.payment for dems in game.demands.values() for d in dems) / 100.0
    demands = (1.0, pay) * 9
    out: dict[str, tuple[Any, Any]] = {
        "mileposts": (0.0, 1.0),
        "players": (0.0, (CASH_CAP / 100.0, 1.0, *(1.0,) * 4, *(loads,) * 32, 1.0, 1.0, *demands)),
        "events": (0.0, 1.0),
        "chips": (0.0, max(b.load_chips) / 4.0),
        "to_move": (0.0, 1.0),
        "phase": (0.0, 1.0),
        "offer": (0.0, (*(1.0,) * (game.num_players + 3), PRICE_MAX / 100.0, 1.0)),
        "offer_track": (0.0, 1.0),
        "second_trains": (0.0, (*(1.0,) * 4, *(loads,) * 32)),
        "fourth_card": (0.0, (1.0, pay) * 3),
    }
    names = {name for name, _, _ in tensor_layout(game)}
    return {k: v for k, v in out.items() if k in names}


def _demands_part(g: GameBase, hand: list[int]) -> np.ndarray:
    """The first 9 demands of ``hand``'s cards, each (load + 1) / 32 and payment / 100
    (the Fast Game's 4th and 5th cards are not encoded), kept on the game per hand."""
    memo: dict[tuple[int, ...], np.ndarray] | None = getattr(g, "_tensor_demands", None)
    if memo is None:
        memo = g._tensor_demands = {}  # type: ignore[attr-defined]
    key = tuple(hand)
    part = memo.get(key)
    if part is None:
        values: list[float] = []
        for c in hand:
            for d in g.demands[c]:
                values += [(d.load + 1) / 32.0, d.payment / 100.0]
        part = np.array(values[:18], dtype=np.float32)
        if len(memo) > 4096:  # hands are many; start afresh now and then
            memo.clear()
        memo[key] = part
    return part


def _weather_index(g: GameBase, area: frozenset[int], w: int) -> np.ndarray:
    """The tensor's bad-weather entries of ``area``, kept on the game per area."""
    memo: dict[frozenset[int], np.ndarray] | None = getattr(g, "_tensor_weather", None)
    if memo is None:
        memo = g._tensor_weather = {}  # type: ignore[attr-defined]
    index = memo.get(area)
    if index is None:
        index = memo[area] = np.fromiter(area, np.intp, len(area)) * w + (w - 1)
    return index


def _track(state: TurnRules, me: int) -> np.ndarray:
    """The ``mileposts`` part with only the track planes set, for observer ``me``.

    The track changes only when someone builds (or a flood or a trade takes some), so the
    part is kept on the game per observer with a copy of the owners it was made from and
    used again while they are equal (one list comparison in C). A new part is read from
    each seat's ``net`` (the mileposts its track touches, kept by the rules), not from
    the 5,714 owners: :func:`_track_part`."""
    g = state.game
    memo: dict[int, tuple[list[int], np.ndarray]] | None = getattr(g, "_tensor_track", None)
    if memo is None:
        memo = g._tensor_track = {}  # type: ignore[attr-defined]
    owner = state.edge_owner
    kept = memo.get(me)
    if kept is not None and kept[0] == owner:
        return kept[1]
    part = _track_part(state, me)
    part.flags.writeable = False
    memo[me] = (owner.copy(), part)
    return part


def _track_part(state: TurnRules, me: int) -> np.ndarray:
    """Per milepost and seat slot, 1 where a segment of the seat's track ends: the
    mileposts of the seat's ``net``, but a ferry's or the Chunnel's port that the seat's
    link alone puts there (``touch`` counts segments and links; the plane is segments)."""
    g = state.game
    n = g.num_players
    w = 2 * n + 1
    part = np.zeros(g.board.n * w, dtype=np.float32)
    for q in range(n):
        posts = state.net[q]
        if posts:
            part[np.fromiter(posts, np.intp, len(posts)) * w + (q - me) % n] = 1.0
    by_link: dict[tuple[int, int], int] = {}
    for k, owners in enumerate(state.link_owners):
        for q in owners:
            for m in g.board.links[k].ends:
                by_link[q, m] = by_link.get((q, m), 0) + 1
    for (q, m), links in by_link.items():
        if state.touch[q][m] == links:
            part[m * w + (q - me) % n] = 0.0
    return part


def tensor(state: TurnRules, player: Player | None = None) -> np.ndarray:
    """The layout of :func:`tensor_layout`, observer first; hidden cash and hands are 0."""
    g = state.game
    b = g.board
    n = g.num_players
    me = 0 if player is None else player
    w = 2 * n + 1
    t = np.empty(tensor_size(g), dtype=np.float32)
    o = b.n * w
    t[:o] = _track(state, me)
    t[o:] = 0.0
    for q in range(n):
        k = (q - me) % n
        if state.pos[q] >= 0:
            t[state.pos[q] * w + n + k] = 1.0
        if state.pos2 and state.pos2[q] >= 0:
            t[state.pos2[q] * w + n + k] = 1.0
    area = state.weather_area()
    if area:
        t[_weather_index(g, area, w)] = 1.0
    for k in range(n):
        q = (me + k) % n
        visible = bool(state.cash_public) or q == player
        t[o] = min(state.cash[q], CASH_CAP) / 100.0 if visible else 0.0
        t[o + 1] = 1.0 if visible else 0.0
        t[o + 2 + state.train[q]] = 1.0
        for x in state.loads[q]:
            t[o + 6 + x] += 1.0
        t[o + 38] = float(state.lost[q])
        t[o + 39] = float(state.declared[q])
        if g.cfg.open_hands or q == player:
            demands = _demands_part(g, state.hands[q])
            t[o + 40 : o + 40 + demands.size] = demands
        o += 58
    for a in state.active:
        t[o + a[0] - 147] = 1.0
    o += 22
    chips = t[o : o + len(state.chips)]  # the map's loads, up to 32
    chips[:] = state.chips
    chips *= 0.25  # exact: the counts are small integers, and 1/4 a power of two
    o += 32
    cp = state.current_player()
    if 0 <= cp < n:
        t[o + (cp - me) % n] = 1.0
    o += n
    t[o + state.phase] = 1.0
    o += 4
    if g.cfg.challenge_track_trading:
        if state.offer:
            seller, stage, price = state.offer
            t[o + (seller - me) % n] = 1.0
            t[o + n + stage] = 1.0
            t[o + n + 3] = price / 100.0
        t[o + n + 4] = float(state.traded)
        o += n + 5
        for k, edges in enumerate((state.offer_take, state.offer_give)):
            for e in edges:
                for m in b.edge_ends[e]:
                    t[o + 2 * m + k] = 1.0
        o += 2 * b.n
    if g.cfg.challenge_additional_trains:  # per seat slot the second train's type and loads
        if state.pos2:
            for k in range(n):
                q = (me + k) % n
                t[o + 36 * k + state.train2[q]] = 1.0
                for x in state.loads2[q]:
                    t[o + 36 * k + 4 + x] += 1.0
        o += 36 * n
    if g.cfg.four_demand_cards:  # the 4th card's demands, when visible
        for k in range(n):
            q = (me + k) % n
            hand = state.hands[q]
            if (g.cfg.open_hands or q == player) and len(hand) > 3 and hand[3] < 147:
                for i, d in enumerate(g.demands[hand[3]]):
                    t[o + 2 * i] = (d.load + 1) / 32.0
                    t[o + 2 * i + 1] = d.payment / 100.0
            o += 6
    return t

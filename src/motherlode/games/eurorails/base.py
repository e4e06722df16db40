"""Eurorails: what every rule part stands on.

:class:`GameBase` holds one configuration's action-id layout (see :mod:`.game`) and the
tables the rules precompute from the board (movement rates, the Circus demands, event
areas, the blocking check's lattice tables). :class:`StateBase` holds a position's fields,
copies it, keeps the derived per-seat track counts, draws cards, and swaps the second
train's fields in (Additional Trains); it declares the few turn methods that parts before
:mod:`.turns` call.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from dataclasses import dataclass, replace
from functools import cache
from typing import Self

from motherlode.core.protocol import Action, Game, GameConfig, State
from motherlode.games.eurorails.board import (
    OUTPOST,
    Board,
    DemandSpec,
    event_area,
    load_board,
)
from motherlode.games.eurorails.config import EurorailsConfig
from motherlode.games.eurorails.constants import (
    CHANNEL,
    CIRCUS_CITIES,
    CIRCUS_DIVISOR,
    CIRCUS_PAY,
    CONTRACTS,
    DEAL,
    FIRST_EVENT,
    LIST_FIELDS,
    LOAN,
    MAX_LOADS,
    MAX_PLAYERS,
    NESTED_FIELDS,
    NUM_CARDS,
    PRICE_MAX,
    SCALAR_FIELDS,
)


@dataclass(frozen=True)
class BoardTables:
    """What the rules precompute from a board alone (the same for every configuration of a
    ferry printing, so built once: a game's construction no longer repeats it)."""

    areas: dict[int, frozenset[int]]
    adj: tuple[tuple[tuple[int, int], ...], ...]
    major_of: tuple[int, ...]
    joined: tuple[tuple[int, ...], ...]
    tri: tuple[tuple[tuple[int, int], ...], ...]
    edge_port: tuple[bool, ...]
    hexes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    build_out: tuple[tuple[tuple[int, int, int], ...], ...]
    build_cost0: tuple[int, ...]
    build_link: tuple[int, ...]
    limited: tuple[bool, ...]
    limit_group: tuple[tuple[int, ...], ...]
    tri_all: tuple[tuple[tuple[int, int], ...], ...]
    port_edges: tuple[frozenset[int], ...]
    tri_rev: tuple[tuple[int, ...], ...]
    edge_dirs: tuple[tuple[int, int], ...]
    major_set: frozenset[int]
    major_heads: tuple[int, ...]
    major_touch: tuple[tuple[int, ...], ...]
    limit_key: tuple[int, ...]
    limit_keys: tuple[tuple[int, ...], ...]
    key_area: dict[int, tuple[int, ...]]
    build_cands: tuple[
        tuple[tuple[int, int, int, int, int, bool, tuple[tuple[int, int], ...]], ...], ...
    ]


@cache
def board_tables(ferry_printing: str) -> BoardTables:
    """The :class:`BoardTables` of a ferry printing's board (cached)."""
    b = load_board(ferry_printing)
    n = b.n
    t_areas: dict[int, frozenset[int]] = {
        k: event_area(ferry_printing, k) for k in range(FIRST_EVENT, NUM_CARDS + 1)
    }
    # for the blocking check: (neighbour, edge) pairs per milepost, and the major city
    # (index into board.majors) of each milepost or -1
    t_adj: tuple[tuple[tuple[int, int], ...], ...] = tuple(
        tuple((b.nb[m * 6 + d], b.eid[m * 6 + d]) for d in range(6) if b.eid[m * 6 + d] >= 0)
        for m in range(n)
    )
    major_of = [-1] * n
    for i, c in enumerate(b.majors):
        for m in b.city_posts[c]:
            major_of[m] = i
    t_major_of: tuple[int, ...] = tuple(major_of)
    # the other mileposts a milepost is joined to: its link's ends, its major city's
    joined: list[tuple[int, ...]] = []
    for m in range(n):
        k = b.link_at[m]
        ends = b.links[k].ends if k >= 0 else ()
        posts = b.city_posts[b.majors[major_of[m]]] if major_of[m] >= 0 else ()
        joined.append(tuple(ends) + tuple(posts))
    t_joined: tuple[tuple[int, ...], ...] = tuple(joined)
    # per edge: the two other edges of each lattice triangle on it whose three mileposts
    # are not ferry ports or Chunnel ends (none when an end of the edge is one)
    tri: list[tuple[tuple[int, int], ...]] = []
    for x, y in b.edge_ends:
        pairs: list[tuple[int, int]] = []
        if b.link_at[x] < 0 and b.link_at[y] < 0:
            for dx in range(6):
                c, e1 = b.nb[x * 6 + dx], b.eid[x * 6 + dx]
                if e1 < 0 or c == y or b.link_at[c] >= 0:
                    continue
                for dc in range(6):
                    if b.nb[c * 6 + dc] == y and b.eid[c * 6 + dc] >= 0:
                        pairs.append((e1, b.eid[c * 6 + dc]))
        tri.append(tuple(pairs))
    t_tri: tuple[tuple[tuple[int, int], ...], ...] = tuple(tri)
    # per edge: an end is a ferry port or Chunnel end
    t_edge_port: tuple[bool, ...] = tuple(
        b.link_at[x] >= 0 or b.link_at[y] >= 0 for x, y in b.edge_ends
    )
    # per milepost u and direction du: the hexagon round u, starting at its neighbour v
    # in direction du: ring edges (ring[i] to ring[i+1], i = 0..5, ring[6] = v) and
    # spokes (u to ring[i]); -1 where there is no edge
    hexes: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for u in range(n):
        for du in range(6):
            ring = [b.nb[u * 6 + (du + j) % 6] for j in range(6)]
            edges = tuple(
                b.eid[ring[i] * 6 + (du + i + 2) % 6]
                if ring[i] >= 0 and ring[(i + 1) % 6] >= 0
                else -1
                for i in range(6)
            )
            spokes = tuple(b.eid[u * 6 + (du + j) % 6] for j in range(6))
            hexes.append((edges, spokes))
    t_hexes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(hexes)
    # for listing builds: per milepost, its buildable (not red-area) segments as
    # (action m*6+d, edge, far end); per action, the cost without a link's price and
    # the link at the far end (-1: none); per milepost, whether a city or link limit
    # may apply there
    out: list[tuple[tuple[int, int, int], ...]] = []
    cost0 = [0] * (6 * n)
    link_to = [-1] * (6 * n)
    for m in range(n):
        segs = []
        for d in range(6):
            i = m * 6 + d
            e = b.eid[i]
            if e < 0:
                continue
            to = b.nb[i]
            k = b.link_at[to]
            link_to[i] = k
            cost0[i] = b.edge_cross_cost[e] + (0 if k >= 0 else b.milepost_cost[to])
            if not b.edge_internal[e]:
                segs.append((i, e, to))
        out.append(tuple(segs))
    t_build_out: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(out)
    t_build_cost0: tuple[int, ...] = tuple(cost0)
    t_build_link: tuple[int, ...] = tuple(link_to)
    t_limited: tuple[bool, ...] = tuple(b.link_at[m] >= 0 or b.city_of[m] >= 0 for m in range(n))
    # per milepost: the mileposts whose city and port limits track there may change
    # (its city's, its link's ends, every English Channel port for a Channel line)
    channel = tuple(x for link in b.links if link.sea == CHANNEL for x in link.ends)
    group: list[tuple[int, ...]] = []
    for m in range(n):
        c, k = b.city_of[m], b.link_at[m]
        near: set[int] = set(b.city_posts[c]) if c >= 0 else set()
        if k >= 0:
            near.update(b.links[k].ends)
            if b.links[k].sea == CHANNEL:
                near.update(channel)
        group.append(tuple(sorted(near)))
    t_limit_group: tuple[tuple[int, ...], ...] = tuple(group)
    # a major city's limits are the same at each of its mileposts: kept once, under its
    # first milepost (the limit key); per milepost, the keys of its limit group, and per
    # key the mileposts that have it and their neighbours (whose candidates it may refuse)
    key = list(range(n))
    for c in b.majors:
        for m in b.city_posts[c]:
            key[m] = b.city_posts[c][0]
    t_limit_keys = tuple(tuple(sorted({key[x] for x in grp})) for grp in group)
    near_key: dict[int, set[int]] = {}
    for m in range(n):
        if t_limited[m]:
            near = near_key.setdefault(key[m], set())
            near.add(m)
            near.update(x for x, _ in t_adj[m])
    # per edge: the other two edges of each lattice triangle on it, ports or not (the
    # blocking rule's per-seat detour, blocking.BlockingRules._reroute)
    tri_all: list[tuple[tuple[int, int], ...]] = []
    for e, (x, _y) in enumerate(b.edge_ends):
        d = next(j for j in range(6) if b.eid[x * 6 + j] == e)
        pairs = []
        for d1, d2 in (((d + 1) % 6, (d + 5) % 6), ((d + 5) % 6, (d + 1) % 6)):
            c, e1 = b.nb[x * 6 + d1], b.eid[x * 6 + d1]
            f1 = b.eid[c * 6 + d2] if c >= 0 else -1
            if e1 >= 0 and f1 >= 0:
                pairs.append((e1, f1))
        tri_all.append(tuple(pairs))
    # per link: every lattice edge at one of its ports (what closing it may take away)
    t_port_edges = tuple(
        frozenset(e for m in link.ends for _, e in t_adj[m]) for link in b.links
    )
    # per edge: the edges whose `tri` triangles hold it (a build of it may end their
    # triangle test); per edge (x, y): the directions from x to y and from y to x
    rev: list[list[int]] = [[] for _ in b.edge_ends]
    for e, two in enumerate(t_tri):
        for x, y in two:
            rev[x].append(e)
            rev[y].append(e)
    dirs = tuple(
        (
            next(j for j in range(6) if b.eid[x * 6 + j] == e),
            next(j for j in range(6) if b.eid[y * 6 + j] == e),
        )
        for e, (x, y) in enumerate(b.edge_ends)
    )
    # per edge: the major cities (index into board.majors) whose table of candidates a
    # build of it may change (it is one of them, or in the triangle test of one)
    cand_major = [-1] * len(b.edge_ends)
    for i, c in enumerate(b.majors):
        for m in b.city_posts[c]:
            for _, e, _ in out[m]:
                cand_major[e] = i
    touch_majors: list[set[int]] = [set() for _ in b.edge_ends]
    for e in range(len(b.edge_ends)):
        if cand_major[e] >= 0:
            touch_majors[e].add(cand_major[e])
        for e1 in rev[e]:
            if cand_major[e1] >= 0:
                touch_majors[e].add(cand_major[e1])
    # per milepost, its candidates for the build listing in one tuple each: (action, edge,
    # far end, cost without a line's price, line at the far end or -1, a city or port
    # limit may apply at the far end, the edge's `tri` pairs)
    cands = tuple(
        tuple(
            (i, e, to, t_build_cost0[i], t_build_link[i], t_limited[to], t_tri[e])
            for i, e, to in segs
        )
        for segs in t_build_out
    )
    return BoardTables(
        areas=t_areas,
        adj=t_adj,
        major_of=t_major_of,
        joined=t_joined,
        tri=t_tri,
        edge_port=t_edge_port,
        hexes=t_hexes,
        build_out=t_build_out,
        build_cost0=t_build_cost0,
        build_link=t_build_link,
        limited=t_limited,
        limit_group=t_limit_group,
        tri_all=tuple(tri_all),
        port_edges=t_port_edges,
        tri_rev=tuple(tuple(sorted(set(r))) for r in rev),
        edge_dirs=dirs,
        major_set=frozenset(b.major_posts),
        major_heads=tuple(b.city_posts[c][0] for c in b.majors),
        major_touch=tuple(tuple(sorted(x)) for x in touch_majors),
        limit_key=tuple(key),
        limit_keys=t_limit_keys,
        key_area={k: tuple(sorted(v)) for k, v in near_key.items()},
        build_cands=cands,
    )


MajorTable = tuple[dict[int, int], dict[int, int], tuple[int, ...], int, tuple[int, ...]]
"""A major city's table of candidates (building.BuildingRules._major_table): soft, hard,
judged per seat, a bound on the soft costs, the edges built since (not yet taken in)."""


class Listing:
    """A building turn's table of the segments its player may build from its own track
    (see :meth:`.building.BuildingRules._build_actions`; a major city's mileposts have
    their own tables): action -> cost (``soft``: the blocking rule's triangle test passed;
    ``hard``: it did not, the rule is asked at each listing); the city and port limit
    answers it used (``lims``, limit key -> refused) and the sources listed (``listed``).
    ``done``: the turn's builds it holds.
    Shared by clones until one of them changes it."""

    __slots__ = ("done", "hard", "key", "lims", "listed", "soft")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.done = 0
        self.soft: dict[int, int] = {}
        self.hard: dict[int, int] = {}
        self.lims: dict[int, bool] = {}
        self.listed: set[int] = set()

    def copy(self) -> Listing:
        new = Listing(self.key)
        new.done = self.done
        new.soft = dict(self.soft)
        new.hard = dict(self.hard)
        new.lims = dict(self.lims)
        new.listed = set(self.listed)
        return new


class GameBase(Game):
    """A configuration's action ids and precomputed tables (the base of
    :class:`~.game.EurorailsGame`)."""

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        assert isinstance(config, EurorailsConfig)
        self.cfg: EurorailsConfig = config
        self.board: Board = load_board(config.ferry_printing)
        n = self.board.n
        self.U0 = 6 * n
        self.END_BUILD = self.U0 + 4
        self.MOVE0 = self.END_BUILD + 1
        self.CHUNNEL_MOVE = self.MOVE0 + 6
        self.FERRY0 = self.CHUNNEL_MOVE + 1
        self.PICK0 = self.FERRY0 + MAX_PLAYERS
        self.DROP0 = self.PICK0 + MAX_LOADS
        self.DELIVER0 = self.DROP0 + MAX_LOADS
        self.END_MOVE = self.DELIVER0 + 9
        self.DISCARD = self.END_MOVE + 1
        self.START0 = self.DISCARD + 1
        self.LOSE0 = self.START0 + len(self.board.city_names)
        self.TOSS0 = self.LOSE0 + MAX_LOADS
        # Fast Game: 5 cards dealt (2 discarded later), the tax card out of play
        self.hand_size = 4 if config.four_demand_cards else 3
        self.deal_size = self.hand_size + 2 if config.fast_game else self.hand_size
        self.BORROW0 = self.TOSS0 + (self.deal_size if config.fast_game else 0)
        self.BACKTRACK = self.BORROW0 + (LOAN if config.mercy_borrowing else 0)
        self.CONTRACT0 = self.BACKTRACK + (1 if config.mercy_backtracking else 0)
        self.OFFER0 = self.CONTRACT0 + (3 * CONTRACTS if config.challenge_open_contracts else 0)
        # Selling and Trading Track: the steps of an offer (ids only with the option)
        n_edges = len(self.board.edge_ends)
        self.WITHDRAW = self.OFFER0 + MAX_PLAYERS
        self.PROPOSE = self.WITHDRAW + 1
        self.ACCEPT = self.PROPOSE + 1
        self.REFUSE = self.ACCEPT + 1
        self.PRICE0 = self.REFUSE + 1
        self.TAKE0 = self.PRICE0 + PRICE_MAX + 1
        self.GIVE0 = self.TAKE0 + n_edges
        self.TRADE_END = self.GIVE0 + n_edges if config.challenge_track_trading else self.OFFER0
        # Four demand cards: the demands of the 4th hand slot (the DELIVER0 block holds 3)
        self.DELIVER4_0 = self.TRADE_END
        top = self.DELIVER4_0 + (3 if config.four_demand_cards else 0)
        # Additional Trains: every action of a train again, for the second train
        self.TRAIN2_0 = top
        self.train2_of: dict[int, int] = {}  # train action -> the second train's
        self.base_of: dict[int, int] = {}  # the second train's action -> train action
        if config.challenge_additional_trains:
            mirrored = [
                *range(self.U0, self.END_BUILD),
                *range(self.MOVE0, self.END_MOVE),
                *range(self.START0, self.LOSE0),
            ]
            if config.mercy_backtracking:
                mirrored.append(self.BACKTRACK)
            if config.challenge_open_contracts:
                mirrored.extend(range(self.CONTRACT0, self.CONTRACT0 + 3 * CONTRACTS))
            if config.four_demand_cards:
                mirrored.extend(range(self.DELIVER4_0, self.DELIVER4_0 + 3))
            for k, a in enumerate(mirrored):
                self.train2_of[a] = top + k
                self.base_of[top + k] = a
            top += len(mirrored)
        self._num_actions = top
        # turn order (turns.TurnRules.turn_player): the seats, the turns of the initial
        # building turns, and in them each turn's seat counted from the first player
        # (snake order: P1..Pn, then Pn..P1, and so on)
        seats = config.players
        self.seats: int = seats
        self.building_end: int = config.building_turns * seats
        self.snake: tuple[int, ...] = tuple(
            t % seats if (t // seats) % 2 == 0 else seats - 1 - t % seats
            for t in range(self.building_end)
        )
        # movement per train (Fast Trains: 12/16, half rate 6/8)
        self.speed: tuple[int, ...] = self.board.train_speed
        self.half: tuple[int, ...] = self.board.train_half
        if config.fast_trains:
            self.speed = tuple(12 if v <= 9 else 16 for v in self.board.train_speed)
            self.half = tuple((v + 1) // 2 for v in self.speed)
        # Crossgrading: train -> the train it may crossgrade to
        self.crossgrade: dict[int, int] = {}
        if config.crossgrading:
            fast = self.board.train_names.index("Fast Freight")
            heavy = self.board.train_names.index("Heavy Freight")
            self.crossgrade = {fast: heavy, heavy: fast}
        # The Circus: a load id after the real loads; the modified demand cards
        self.load_names: tuple[str, ...] = self.board.load_names
        self.demands: dict[int, tuple[DemandSpec, ...]] = dict(self.board.demands)
        self.CIRCUS = len(self.board.load_names)
        if config.circus:
            self.load_names = (*self.board.load_names, "Circus")
            for card, dems in self.board.demands.items():
                if card % CIRCUS_DIVISOR == 0:
                    low = min(d.payment for d in dems)
                    self.demands[card] = tuple(
                        replace(d, load=self.CIRCUS, payment=CIRCUS_PAY) if d.payment == low else d
                        for d in dems
                    )
        self.event_kind: dict[int, str] = {
            k: self.board.events[k].kind for k in range(FIRST_EVENT, NUM_CARDS + 1)
        }
        self.removed_cards: tuple[int, ...] = ()
        if config.fast_game:
            self.removed_cards = tuple(k for k, v in self.event_kind.items() if v == "tax")
        self.weather_cache: dict[tuple[int, ...], frozenset[int]] = {}
        tables = board_tables(config.ferry_printing)
        self.areas: dict[int, frozenset[int]] = tables.areas
        self.adj = tables.adj
        self.major_of = tables.major_of
        self.joined = tables.joined
        self.tri = tables.tri
        self.edge_port = tables.edge_port
        self.hexes = tables.hexes
        # the blocking rule's witness before any track (the same for every seat: lattice
        # edges joining all the major cities, or False), set by the first state
        # (blocking.BlockingRules)
        self.start_witness: frozenset[int] | bool | None = None
        # the major cities' tables of candidates before any track (building.BuildingRules)
        self.start_majors: dict[int, MajorTable] | None = None
        # detours round an edge found by the blocking rule, kept for every state of the
        # game (each is checked against the state's track before it is used): edge -> the
        # edges of a path of unowned edges without ports joining its ends; edge*8+q -> one
        # in seat q's graph (blocking.BlockingRules._detour)
        self.detours: dict[int, tuple[int, ...]] = {}
        self.seat_detours: dict[int, tuple[int, ...]] = {}
        self.build_out = tables.build_out
        self.build_cost0 = tables.build_cost0
        self.build_link = tables.build_link
        self.limited = tables.limited
        self.limit_group = tables.limit_group
        self.tri_all = tables.tri_all
        self.port_edges = tables.port_edges
        self.tri_rev = tables.tri_rev
        self.edge_dirs = tables.edge_dirs
        self.major_set = tables.major_set
        self.major_heads = tables.major_heads
        self.build_cands = tables.build_cands
        self.major_touch = tables.major_touch
        self.limit_key = tables.limit_key
        self.limit_keys = tables.limit_keys
        self.key_area = tables.key_area
        self.major_posts = self.board.major_posts
        self.outpost: tuple[bool, ...] = tuple(t == OUTPOST for t in self.board.terrain)


class StateBase(State):
    """The fields of a Eurorails position (the base of every rule part)."""

    game: GameBase

    def __init__(self, game: GameBase) -> None:
        super().__init__(game)
        b = game.board
        n = game.num_players
        cfg = game.cfg
        self.phase = DEAL
        self.first = 0
        self.t = 0  # turn sequence number (building turns first)
        self.moves = 0
        self.halved = 0
        self.spent = 0
        self.from_major = 0
        self.upgraded = 0
        self.end_now = 0
        self.discarding = 0
        self.target = cfg.target_cash
        self.cash_public = 0
        self.over = 0
        self.cash = [cfg.starting_cash] * n
        self.train = [0] * n
        self.pos = [-1] * n
        self.prev = [-1] * n
        self.draw = list(range(1, NUM_CARDS + 1))
        self.discard: list[int] = []
        self.aside: list[int] = []
        self.chips = list(b.load_chips)
        self.edge_owner = [-1] * len(b.edge_ends)
        self.turns_done = [0] * n
        self.lost = [0] * n
        self.on_ferry = [-1] * n  # destination port while crossing
        self.rented = [0] * n  # this turn, rent paid to seat k
        self.declared = [0] * n
        self.pending: list[int] = []  # seats that must choose a load to lose
        self.winners_: list[int] = []
        self.blocked: list[int] = []  # this turn: m*64+L picked (+32: dropped) at m
        self.loads: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.link_owners: list[list[int]] = [[] for _ in b.links]
        self.active: list[list[int]] = []  # [card, drawer, expires at drawer's turns_done]
        self.reserve: list[list[int]] = []  # [edge, owner, until owner's turns_done]
        self.erased: list[list[int]] = []  # [flood card, edge, owner]
        # derived, rebuilt from edge_owner/link_owners: per-player segment counts
        self.touch: list[list[int]] = [[0] * b.n for _ in range(n)]
        self.net: list[set[int]] = [set() for _ in range(n)]
        # city -> the seats with track there, its unbuilt segments (kept up to date by
        # builds; found again after a flood or a trade)
        self._present_cache: dict[int, list[int]] = {}
        self._free_cache: dict[int, int] = {}
        # building.BuildingRules._build_actions: limit key (a milepost, a major city's first)
        # -> (seat, Freights only) -> a city or port limit refuses building there (cleared
        # with the keys of the milepost's limit_group)
        self._limits_cache: dict[int, dict[int, bool]] = {}
        # building.BuildingRules._build_actions: the building turn's table of candidates
        # (Listing; shared with clones until written) and the turn's builds so far; per
        # major city the candidates from its mileposts (the same for every seat, kept
        # until a build changes them; for the active events _majors_key_cache; shared with
        # clones until written)
        self._listing_cache: Listing | None = None
        self._owns_listing_cache = True
        self._built_cache: list[int] = []
        self._majors_cache: dict[int, MajorTable] = {}
        self._owns_majors_cache = True
        self._majors_key_cache: tuple[int, ...] = ()
        # the blocking rule (blocking.BlockingRules): per seat q, a witness that q's graph
        # connects the major cities (lattice edges of q's graph that join them all), False
        # when it does not, None when not known yet
        self._wit_cache: list[frozenset[int] | bool | None] = [None] * n
        # per seat the most major cities one piece of its track joins (-1: not known; any
        # change to the seat's track forgets it, in _touch)
        self._conn_cache: list[int] = [-1] * n
        # per line k and seat q (k*8+q), the same for q's graph with k's ports closed (the
        # last place on k taken by another seat), or True: closing it disconnects them;
        # shared with clones until written
        self._alt_cache: dict[int, frozenset[int] | bool] = {}
        self._owns_alt_cache = True
        # edge*8+q: whether building the edge blocks seat q, found by cutting q's graph
        # (kept until track comes back or changes owner); shared with clones until written
        self._cut_cache: dict[int, bool] = {}
        self._owns_cut_cache = True
        # The Circus: the cities where the Circus chips stand (the others are on trains)
        self.circus_at = [b.city_index(c) for c in CIRCUS_CITIES] if cfg.circus else []
        # Mercy, Borrowing: what each seat owes the bank (twice the loan)
        self.debt = [0] * n
        # Mercy, Late Payment of Use Fee: [payer, owner, amount still owed]
        self.late: list[list[int]] = []
        # Field Warehousing: [city, load, dropper, back to the tray at dropper's turns_done]
        self.warehouse: list[list[int]] = []
        # Open Contracts: the demand cards face up on the table
        self.contracts: list[int] = []
        # Selling and Trading Track: the offer being made ([seller, stage, price]; stage
        # COMPOSING, PRICED or PROPOSED), its segments, the seats offered to this turn, and
        # whether a purchase was made this turn (then no building)
        self.offer: list[int] = []
        self.offer_take: list[int] = []
        self.offer_give: list[int] = []
        self.offered: list[int] = []
        self.traded = 0
        # Additional Trains: each seat's second train (the Fast Freight), as the per-seat
        # fields of the first; the movement left to the turn player's second train and its
        # half-rate bit (bit 1 of ``halved``). Empty without the option.
        two = cfg.challenge_additional_trains
        self.train2: list[int] = [1] * n if two else []
        self.pos2: list[int] = [-1] * n if two else []
        self.prev2: list[int] = [-1] * n if two else []
        self.on_ferry2: list[int] = [-1] * n if two else []
        self.loads2: list[list[int]] = [[] for _ in range(n)] if two else []
        self.moves2 = 0
        self.halved2 = 0
        for card in game.removed_cards:  # Fast Game: out of play, set aside for good
            self.draw.remove(card)
            self.aside.append(card)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.game = self.game
        new._history = list(self._history)
        for k in SCALAR_FIELDS:
            setattr(new, k, getattr(self, k))
        for k in LIST_FIELDS:
            setattr(new, k, list(getattr(self, k)))
        for k in NESTED_FIELDS:
            setattr(new, k, [list(x) for x in getattr(self, k)])
        new.touch = [list(x) for x in self.touch]
        new.net = [set(x) for x in self.net]
        new._present_cache = dict(self._present_cache)  # (lists never changed in place)
        new._free_cache = dict(self._free_cache)
        new._limits_cache = {}
        new._listing_cache = self._listing_cache  # copied on the first write
        new._owns_listing_cache = self._owns_listing_cache = False
        new._built_cache = list(self._built_cache)
        new._majors_cache = self._majors_cache  # copied on the first write
        new._owns_majors_cache = self._owns_majors_cache = False
        new._majors_key_cache = self._majors_key_cache
        new._wit_cache = list(self._wit_cache)  # (frozensets, never changed in place)
        new._conn_cache = list(self._conn_cache)
        new._alt_cache = self._alt_cache  # copied on the first write
        new._owns_alt_cache = self._owns_alt_cache = False
        new._cut_cache = self._cut_cache  # copied on the first write (_keep)
        new._owns_cut_cache = self._owns_cut_cache = False
        new.circus_at = list(self.circus_at)
        new.debt = list(self.debt)
        new.late = [list(x) for x in self.late]
        new.warehouse = [list(x) for x in self.warehouse]
        new.contracts = list(self.contracts)
        if self.game.cfg.challenge_track_trading:
            new.offer = list(self.offer)
            new.offer_take = list(self.offer_take)
            new.offer_give = list(self.offer_give)
            new.offered = list(self.offered)
        else:  # never changed without the option: shared
            new.offer, new.offer_take = self.offer, self.offer_take
            new.offer_give, new.offered = self.offer_give, self.offered
        new.traded = self.traded
        if self.pos2:
            new.train2 = list(self.train2)
            new.pos2 = list(self.pos2)
            new.prev2 = list(self.prev2)
            new.on_ferry2 = list(self.on_ferry2)
            new.loads2 = [list(x) for x in self.loads2]
        else:  # never changed without the option: shared
            new.train2, new.pos2, new.prev2 = self.train2, self.pos2, self.prev2
            new.on_ferry2, new.loads2 = self.on_ferry2, self.loads2
        new.moves2 = self.moves2
        new.halved2 = self.halved2
        return new

    def _rebuild_touch(self) -> None:
        b = self.game.board
        n = self.game.num_players
        self.touch = [[0] * b.n for _ in range(n)]
        for e, o in enumerate(self.edge_owner):
            if o >= 0:
                a, c = b.edge_ends[e]
                self.touch[o][a] += 1
                self.touch[o][c] += 1
        for k, owners in enumerate(self.link_owners):
            for o in owners:
                for p in b.links[k].ends:
                    self.touch[o][p] += 1
        self.net = [{m for m, c in enumerate(tp) if c} for tp in self.touch]
        self._present_cache = {}
        self._free_cache = {}
        self._limits_cache = {}
        self._listing_cache = None
        self._majors_cache = {}
        self._owns_majors_cache = True
        self._wit_cache = [None] * n
        self._conn_cache = [-1] * n
        self._alt_cache = {}
        self._owns_alt_cache = True
        self._cut_reset()

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        p = 1.0 / len(self.draw)
        return [(c - 1, p) for c in self.draw]

    def sample_chance(self, rng: random.Random) -> Action:
        """:meth:`State.sample_chance` without the list of outcomes: the same subtractions
        of the same probability in the same order, so the same card for the same draw."""
        draw = self.draw
        p = 1.0 / len(draw)
        x = rng.random()
        for c in draw:
            x -= p
            if x < 0.0:
                return c - 1
        return draw[-1] - 1

    def _is_chance_outcome(self, action: Action) -> bool:
        return action >= 0 and action + 1 in self.draw

    def _draw_card(self, card: int) -> None:
        self.draw.remove(card)
        if not self.draw:
            self.draw, self.discard = sorted(self.discard), []

    def _cut_reset(self) -> None:
        """Forget the blocking rule's "blocks" answers: track came back (a flood) or changed
        owner (a trade)."""
        self._cut_cache = {}
        self._owns_cut_cache = True

    def _touch(self, p: int, m: int, delta: int) -> None:
        g = self.game
        if g.limited[m]:  # a city or a ferry port / Chunnel end
            limits = self._limits_cache
            if limits:
                for x in g.limit_keys[m]:
                    limits.pop(x, None)
            c = g.board.city_of[m]
            if c >= 0:
                if delta > 0:  # (the segment's own count: _build)
                    present = self._present_cache.get(c)
                    if present is not None and p not in present:
                        self._present_cache[c] = sorted((*present, p))
                else:
                    self._present_cache.pop(c, None)
                    self._free_cache.pop(c, None)
        if delta < 0:
            self._track_lost(p, m)
        self._conn_cache[p] = -1
        self.touch[p][m] += delta
        if self.touch[p][m] > 0:
            self.net[p].add(m)
        else:
            self.net[p].discard(m)

    def _swap(self, p: int) -> None:
        """Exchange seat ``p``'s first and second train (and the turn's movement left)."""
        self.train[p], self.train2[p] = self.train2[p], self.train[p]
        self.pos[p], self.pos2[p] = self.pos2[p], self.pos[p]
        self.prev[p], self.prev2[p] = self.prev2[p], self.prev[p]
        self.on_ferry[p], self.on_ferry2[p] = self.on_ferry2[p], self.on_ferry[p]
        self.loads[p], self.loads2[p] = self.loads2[p], self.loads[p]
        self.moves, self.moves2 = self.moves2, self.moves
        h = self.halved
        self.halved = (h & ~1) | self.halved2
        self.halved2 = h & 1

    # -- implemented by the rule parts (turns.py), declared for the parts before it ------------

    @abstractmethod
    def turn_player(self) -> int:
        """The seat whose turn it is (turns.py)."""

    @abstractmethod
    def _settle(self) -> None:
        """Resolve what follows automatically (turns.py)."""

    @abstractmethod
    def _track_lost(self, p: int, m: int) -> None:
        """Seat ``p`` lost a segment at ``m`` (a flood, a trade): what the blocking rule
        keeps is checked again (blocking.py)."""

    @abstractmethod
    def _finish_turn(self) -> None:
        """End the turn player's turn and begin the next (turns.py)."""

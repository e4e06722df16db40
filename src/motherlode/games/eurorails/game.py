"""Eurorails: the rules engine (../shared/rulebooks/eurorails.txt), base game and variants.

A turn is a sequence of atomic actions (DESIGN.md §2): the operations phase (start city,
move one milepost, board a ferry, pick up, drop, deliver, end movement) or discarding the
hand instead of the turn, then the building phase (build one segment, upgrade, end the
turn). Card draws are chance nodes over what remains in the draw pile; the engine holds
no RNG. Lost turns pass without a decision.

Decision action ids (N mileposts, see :mod:`.board` for directions)::

    [0, 6N)          build from milepost m in direction d: m*6+d        "build 612>613"
    U0 + t           upgrade to train t (0..3)                          "upgrade Fast Freight"
    END_BUILD        end the building phase (and the turn)              "end turn"
    MOVE0 + d        move one milepost in direction d                   "move 613"
    CHUNNEL_MOVE     move through the Chunnel                           "chunnel"
    FERRY0 + k       board the ferry here on seat k's line              "ferry P2"
    PICK0 + L        pick up load L                                     "pick Wine"
    DROP0 + L        drop load L                                        "drop Wine"
    DELIVER0 + 3s+j  deliver demand j of the card in hand slot s        "deliver Wine to Paris #12"
    END_MOVE         end the operations phase                           "end move"
    DISCARD          discard the hand instead of the turn               "discard hand"
    START0 + c       start the train in city c                          "start Paris"
    LOSE0 + L        lose load L to an event                            "lose Wine"
    TOSS0 + s        Fast Game only: discard hand slot s                "discard #12"
    BORROW0 + N-1    Mercy (Borrowing) only: borrow N million           "borrow 12"
    BACKTRACK        Mercy (Backtracking) only                          "backtrack"
    CONTRACT0 + 3k+j Open Contracts only: demand j of open contract k   "deliver Wine to Paris #12"
    OFFER0 + k       Selling and Trading Track only: an offer to seat k "offer P2"
    WITHDRAW, PROPOSE, ACCEPT, REFUSE   (the same)                      "withdraw", "accept", ...
    PRICE0 + v       (the same) the price, v million buyer to seller    "price 12"
    TAKE0 + e        (the same) the seller's segment e to the buyer     "take 612>613"
    GIVE0 + e        (the same) the buyer's segment e to the seller     "give 612>613"
    DELIVER4_0 + j   Four demand cards only: demand j of hand slot 3    "deliver Wine to Paris #12"
    TRAIN2_0 + k     Additional Trains only: the k-th train action      "train 2 move 613"
                     (upgrades, moves, loads, start, ...) for the second train

The optional and variant rules are config fields, all off by default (docs Part 2,
"Optional and variant rules").

Chance outcome ids: ``card_number - 1`` (0..167), "draw #12".
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, Self

import numpy as np
from pydantic import Field, model_validator

from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games.eurorails.board import (
    ALPINE,
    CENTRE,
    CHUNNEL,
    FERRY,
    MEDIUM,
    OUTPOST,
    SMALL,
    Board,
    DemandSpec,
    event_area,
    load_board,
)
from motherlode.games.eurorails.constants import (
    BUILD,
    CHANNEL,
    CIRCUS_CITIES,
    CIRCUS_DIVISOR,
    CIRCUS_PAY,
    COMPOSING,
    CONTRACTS,
    CROSSGRADE,
    DEAL,
    FIRST_EVENT,
    FOREVER,
    LIST_FIELDS,
    LOAN,
    MAJOR_WORTH,
    MAX_LOADS,
    MAX_PLAYERS,
    MOVE_FEE,
    NESTED_FIELDS,
    NUM_CARDS,
    OFFER_STAGES,
    OPS,
    OVER,
    PHASE_NAMES,
    PRICE_MAX,
    PRICED,
    PROPOSED,
    RENT,
    SCALAR_FIELDS,
    SPEND_LIMIT,
    TRACK_WORTH,
    UPGRADE_WORTH,
)
from motherlode.games.eurorails.observe import observation, tensor, tensor_size

__all__ = [
    "BUILD",
    "CHANNEL",
    "CIRCUS_CITIES",
    "CIRCUS_DIVISOR",
    "CIRCUS_PAY",
    "COMPOSING",
    "CONTRACTS",
    "CROSSGRADE",
    "DEAL",
    "FIRST_EVENT",
    "FOREVER",
    "LIST_FIELDS",
    "LOAN",
    "MAJOR_WORTH",
    "MAX_LOADS",
    "MAX_PLAYERS",
    "MOVE_FEE",
    "NESTED_FIELDS",
    "NUM_CARDS",
    "OFFER_STAGES",
    "OPS",
    "OVER",
    "PHASE_NAMES",
    "PRICED",
    "PRICE_MAX",
    "PROPOSED",
    "RENT",
    "SCALAR_FIELDS",
    "SPEND_LIMIT",
    "TRACK_WORTH",
    "UPGRADE_WORTH",
    "EurorailsConfig",
    "EurorailsGame",
    "EurorailsState",
]


class EurorailsConfig(GameConfig):
    """Options of Eurorails (the rulebook's values by default)."""

    players: int = Field(3, description="2 to 6 players")
    turn_limit: int = Field(
        200, ge=1, description="tournament time limit, in rounds of normal turns (then adjudicate)"
    )
    ferry_printing: str = Field(
        "first",
        pattern="^(first|second)$",
        description="ferry costs of the 'first' or 'second' printing",
    )
    starting_cash: int = Field(50, ge=0, description="cash each player starts with (million)")
    target_cash: int = Field(250, ge=1, description="cash needed to win (million)")
    majors_to_connect: int = Field(7, ge=1, le=8, description="major cities to connect to win")
    building_turns: int = Field(2, ge=0, description="building-only turns (Switchback Start)")
    chunnel_needs_upgrade: bool = Field(
        True,
        description="the Chunnel needs a Fast/Heavy Freight or better to build or rent;"
        " False: the Chunnel variation (no upgrade restriction)",
    )
    open_hands: bool = Field(
        True, description="demand cards face up for all (Courtesy in Play); False: private"
    )
    fast_trains: bool = Field(
        False,
        description="Fast Trains: Freight and Heavy Freight move 12 mileposts, Fast and Super"
        " Freight 16 (half rate 6 and 8)",
    )
    crossgrading: bool = Field(
        False,
        description="Crossgrading: Fast Freight <-> Heavy Freight for 5 million, with up to 15"
        " million of track the same turn",
    )
    fast_game: bool = Field(
        False,
        description="Fast Game: 70 million and 3 building turns (unless starting_cash or"
        " building_turns are given), events of the initial deal removed, no Excess Profits Tax,"
        " 5 cards dealt and 2 discarded by each player after the first 2 building turns",
    )

    time_limit: int = Field(
        0,
        ge=0,
        description="Special Tournament Rule - Time Limits: the clock in normal turns (0: none);"
        " the round it expires in is played out, then every place goes connection first,"
        " then cash",
    )

    circus: bool = Field(
        False,
        description="The Circus: two Circus chips (Kaliningrad, Paris); on cards numbered by a"
        " multiple of 10 the lowest-payoff demand(s) become 20 million for the Circus",
    )

    mercy_borrowing: bool = Field(
        False,
        description="Mercy, Borrowing: a loan of up to 20 million from the bank, repaid"
        " double as soon as the player has the money",
    )
    mercy_late_payment: bool = Field(
        False,
        description="Mercy, Late Payment of Use Fee: a player short of the 4 million may use"
        " another player's track and pay the fee from his next delivery payoffs",
    )
    mercy_backtracking: bool = Field(
        False,
        description="Mercy, Backtracking: reverse on any milepost at the cost of the whole"
        " turn (rent is due on an opponent's track); a lost turn also frees the facing",
    )

    challenge_cost_to_move: bool = Field(
        False,
        description="Challenge Game, Cost to Move: 1 million a turn for moving on one's own"
        " track (the 4 for other players' track stays)",
    )
    challenge_cost_to_load: bool = Field(
        False,
        description="Challenge Game, Cost to Load: picking up or dropping off (delivering) a"
        " load uses one milepost of movement",
    )
    challenge_reshuffle: bool = Field(
        False,
        description="Challenge Game, Reshuffle: when the Tax card is drawn, the discards are"
        " shuffled into the deck and the Tax card leaves the game",
    )

    challenge_field_warehousing: bool = Field(
        False,
        description="Challenge Game, Field Warehousing: a load dropped without payoff stays"
        " at the city for anyone to pick up until the end of the dropper's 4th turn after",
    )

    challenge_open_contracts: bool = Field(
        False,
        description="Challenge Game, Open Contracts: a discarded hand goes face up on the table"
        " (4 at most) as contracts any player may deliver on",
    )

    challenge_track_trading: bool = Field(
        False,
        description="Challenge Game, Selling and Trading Track: instead of building, buy (or"
        " swap) another player's segments at an agreed price, offered and answered in the"
        " buyer's building phase",
    )

    challenge_additional_trains: bool = Field(
        False,
        description="Challenge Game, Additional Trains: each player runs two trains, a Freight"
        " and a Fast Freight, each upgraded on its own; both may move every turn",
    )
    four_demand_cards: bool = Field(
        False,
        description="Challenge Game, Additional Trains: hands of four demand cards instead of"
        " three (by mutual agreement; with or without the second train)",
    )

    first_player: int | None = Field(
        None,
        ge=0,
        description="the seat that begins; default none: as the rulebook says, 'The player who"
        " has the largest single payout goes first (break ties based on the next largest"
        " payout)'",
    )

    @model_validator(mode="after")
    def _check_first_player(self) -> Self:
        if self.first_player is not None and self.first_player >= self.players:
            raise ValueError(
                f"first_player is a seat 0..{self.players - 1} (got {self.first_player})"
            )
        return self

    @model_validator(mode="before")
    @classmethod
    def _fast_game_defaults(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("fast_game"):
            data = dict(data)
            data.setdefault("starting_cash", 70)
            data.setdefault("building_turns", 3)
        return data


class EurorailsGame(Game):
    """Eurorails, base game and the optional rules (config).

    >>> game = EurorailsGame.from_config(players=3)
    >>> game.num_players, game.board.n
    (3, 2084)
    """

    name: ClassVar[str] = "eurorails"
    Config: ClassVar[type[GameConfig]] = EurorailsConfig
    rules_version: ClassVar[int] = 2
    rules_changes: ClassVar[dict[int, str]] = {
        2: "Eurorails, Running the Train: a train reverses direction only in a city (including"
        " all major city mileposts), no longer at a junction, where it may only take another"
        " branch",
    }
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

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
        self.areas: dict[int, frozenset[int]] = {
            k: event_area(config.ferry_printing, k) for k in range(FIRST_EVENT, NUM_CARDS + 1)
        }
        b = self.board
        # for the blocking check: (neighbour, edge) pairs per milepost, and the major city
        # (index into board.majors) of each milepost or -1
        self.adj: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((b.nb[m * 6 + d], b.eid[m * 6 + d]) for d in range(6) if b.eid[m * 6 + d] >= 0)
            for m in range(n)
        )
        major_of = [-1] * n
        for i, c in enumerate(b.majors):
            for m in b.city_posts[c]:
                major_of[m] = i
        self.major_of: tuple[int, ...] = tuple(major_of)
        # the other mileposts a milepost is joined to: its link's ends, its major city's
        joined: list[tuple[int, ...]] = []
        for m in range(n):
            k = b.link_at[m]
            ends = b.links[k].ends if k >= 0 else ()
            posts = b.city_posts[b.majors[major_of[m]]] if major_of[m] >= 0 else ()
            joined.append(tuple(ends) + tuple(posts))
        self.joined: tuple[tuple[int, ...], ...] = tuple(joined)
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
        self.tri: tuple[tuple[tuple[int, int], ...], ...] = tuple(tri)
        # per edge: an end is a ferry port or Chunnel end
        self.edge_port: tuple[bool, ...] = tuple(
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
        self.hexes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(hexes)

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [{"players": n, "turn_limit": 5} for n in range(2, 7)] + [
            {"players": 3, "turn_limit": 5, "open_hands": False},
            {"players": 2, "turn_limit": 5, "chunnel_needs_upgrade": False},
            {"players": 3, "turn_limit": 5, "fast_trains": True},
            {"players": 2, "turn_limit": 8, "crossgrading": True, "starting_cash": 200},
            {"players": 3, "turn_limit": 4, "fast_game": True, "fast_trains": True},
            {"players": 3, "turn_limit": 50, "time_limit": 7},
            {"players": 2, "turn_limit": 6, "circus": True, "fast_trains": True},
            {
                "players": 3,
                "turn_limit": 5,
                "mercy_borrowing": True,
                "mercy_backtracking": True,
                "mercy_late_payment": True,
                "starting_cash": 10,
            },
            {
                "players": 2,
                "turn_limit": 6,
                "challenge_cost_to_move": True,
                "challenge_cost_to_load": True,
                "challenge_reshuffle": True,
                "challenge_field_warehousing": True,
                "challenge_open_contracts": True,
            },
            {"players": 3, "turn_limit": 6, "challenge_track_trading": True},
            {
                "players": 3,
                "turn_limit": 6,
                "challenge_additional_trains": True,
                "four_demand_cards": True,
            },
            {
                "players": 2,
                "turn_limit": 6,
                "challenge_additional_trains": True,
                "fast_trains": True,
                "circus": True,
                "mercy_backtracking": True,
                "challenge_open_contracts": True,
                "challenge_cost_to_load": True,
                "challenge_track_trading": True,
            },
            {"players": 2, "turn_limit": 4, "four_demand_cards": True, "fast_game": True},
            {
                "players": 2,
                "turn_limit": 5,
                "challenge_track_trading": True,
                "challenge_open_contracts": True,
                "mercy_borrowing": True,
                "starting_cash": 20,
            },
        ]

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_CARDS

    @property
    def max_game_length(self) -> int:
        per_turn = 1500
        return NUM_CARDS + (self.cfg.turn_limit + self.cfg.building_turns + 1) * (
            self.num_players * per_turn
        )

    @property
    def perfect_information(self) -> bool:
        return False

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (tensor_size(self),)

    def new_initial_state(self) -> EurorailsState:
        return EurorailsState(self)


class EurorailsState(State):
    """A Eurorails position (see the module docstring for the action ids)."""

    game: EurorailsGame

    def __init__(self, game: EurorailsGame) -> None:
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
        self._present: dict[int, list[int]] = {}
        # blocking-check cache until the next change of track: edge*8+p -> blocked seat or
        # -1; -1-q -> 1 when q's available graph connects all major cities, else 0
        self._reach: dict[int, int] = {}
        self._linked = [0] * n  # 1: seat q's available graph is known to connect the majors
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

    # -- copying and notation -------------------------------------------------------------

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
        new._present = dict(self._present)
        new._reach = dict(self._reach)
        new._linked = list(self._linked)
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
        self._present = {}
        self._reach = {}
        self._linked = [0] * n

    # -- whose move ----------------------------------------------------------------------

    def turn_player(self) -> int:
        n = self.game.num_players
        bt = self.game.cfg.building_turns
        t = self.t
        if t < bt * n:
            rnd, k = divmod(t, n)
            return (self.first + (k if rnd % 2 == 0 else n - 1 - k)) % n
        return (self.first + (t - bt * n)) % n

    def normal_round(self) -> int:
        """The index of the current round of normal turns (-1 while building turns last)."""
        n = self.game.num_players
        bt = self.game.cfg.building_turns
        return -1 if self.t < bt * n else (self.t - bt * n) // n

    def current_player(self) -> Player:
        if self.over:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        if self.pending:
            return self.pending[0] % self.game.num_players  # (n + q: q's second train)
        if self.offer and self.offer[1] == PROPOSED:
            return self.offer[0]  # the seller answers, inside the buyer's turn
        q = self.tosser()
        if q >= 0:
            return q
        if len(self.hands[self.turn_player()]) < self.game.hand_size:
            return CHANCE
        return self.turn_player()

    def tosser(self) -> int:
        """Fast Game: the seat that must now discard a demand card (it holds more than 3
        after the first 2 building turns), or -1. Seats decide in turn order."""
        g = self.game
        if g.deal_size == g.hand_size or self.phase == DEAL or self.over:
            return -1
        n = g.num_players
        if self.t < min(2, g.cfg.building_turns) * n:
            return -1
        start = self.turn_player()
        for i in range(n):
            q = (start + i) % n
            if len(self.hands[q]) > g.hand_size:
                return q
        return -1

    # -- chance ----------------------------------------------------------------------------

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        p = 1.0 / len(self.draw)
        return [(c - 1, p) for c in self.draw]

    def _draw_card(self, card: int) -> None:
        self.draw.remove(card)
        if not self.draw:
            self.draw, self.discard = sorted(self.discard), []

    # -- queries used by the rules -------------------------------------------------------

    def is_event_active(self, card: int) -> bool:
        return any(a[0] == card for a in self.active)

    def weather_area(self) -> frozenset[int]:
        """Every milepost at half rate and closed to building (snow, fog, gale areas)."""
        g = self.game
        key = tuple(a[0] for a in self.active if g.event_kind[a[0]] in ("snow", "fog", "gale"))
        if not key:
            return _EMPTY
        found = g.weather_cache.get(key)
        if found is None:
            found = frozenset().union(*(g.areas[c] for c in key))
            g.weather_cache[key] = found
        return found

    def weather_at(self, m: int) -> bool:
        """Half rate here (an active snow, fog or gale area)."""
        return bool(self.active) and m in self.weather_area()

    def no_build_at(self, m: int) -> bool:
        return self.weather_at(m)

    def strike_at_city(self, c: int) -> bool:
        b = self.game.board
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "strike" and ev.scope != "drawer":
                assert ev.coast_distance is not None
                near = b.city_coast[c] <= ev.coast_distance
                if (ev.scope == "coastal") == near:
                    return True
        return False

    def wildcat_drawer(self) -> int:
        for a in self.active:
            if a[0] == 149:
                return a[1]
        return -1

    def flooded_rivers(self) -> set[str]:
        b = self.game.board
        out = set()
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "flood" and ev.river:
                out.add(ev.river)
        return out

    def closed_alpine(self, m: int) -> bool:
        b = self.game.board
        if b.terrain[m] != ALPINE:
            return False
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "snow" and ev.close_alpine and m in self.game.areas[a[0]]:
                return True
        return False

    # -- building ------------------------------------------------------------------------

    def build_refusal(self, p: int, a: int, d: int) -> str | None:
        """Why player ``p`` may not build from ``a`` in direction ``d`` now (None: legal)."""
        g = self.game
        b = g.board
        e = b.eid[a * 6 + d]
        if e < 0:
            return "there is no milepost there to build to"
        if b.edge_internal[e]:
            return "no track may be built in the red area of a major city"
        if self.edge_owner[e] >= 0:
            return "only one track may be built between two mileposts"
        if not (self.touch[p][a] or b.terrain[a] in (CENTRE, OUTPOST)):
            return "track is built from a major-city milepost or from the player's own track"
        to = b.nb[a * 6 + d]
        if b.terrain[a] == OUTPOST and self.from_major >= 2:
            return "at most two segments a turn may be built out of major-city mileposts"
        if self.wildcat_drawer() == p:
            return "the Wildcat strike forbids the drawing player to build"
        if self.no_build_at(a) or self.no_build_at(to):
            return "no building in an area of bad weather (snow, fog or gale)"
        river = b.edge_river[e]
        if river and river in self.flooded_rivers():
            return f"the {river} is flooded: no track across it until the flood ends"
        for edge, owner, until in self.reserve:
            if edge == e and owner != p and self.turns_done[owner] < until:
                return "the owner of the washed-away bridge has the first right to rebuild it"
        for m in (a, to):
            why = self._limit_refusal(p, m, a, to)
            if why:
                return why
        cost = self.build_cost(p, a, d)
        if self.spent + cost > SPEND_LIMIT:
            return f"it costs {cost} and only {SPEND_LIMIT - self.spent} of the 20 remain this turn"
        if cost > self.cash[p]:
            return f"it costs {cost} and the player has only {self.cash[p]} (no credit)"
        owners = self.edge_owner
        for e1, f1 in g.tri[e]:  # the common case of blocked_by_build, inline
            if owners[e1] < 0 and owners[f1] < 0:
                return None
        q = self.blocked_by_build(p, a, d)
        if q >= 0:
            return f"it would block P{q + 1} from connecting all the major cities"
        return None

    def _limit_refusal(self, p: int, m: int, a: int, to: int) -> str | None:
        b = self.game.board
        g = self.game
        k = b.link_at[m]
        if k >= 0:
            link = b.links[k]
            owners = self.link_owners[k]
            if p not in owners:
                if len(owners) >= link.capacity:
                    what = "the Chunnel" if link.kind == CHUNNEL else "a ferry port"
                    return f"only {link.capacity} player(s) may build to {what}"
                if link.kind == CHUNNEL and g.cfg.chunnel_needs_upgrade and self.freight_only(p):
                    return "the Chunnel needs a Fast or Heavy Freight or better"
                if link.sea == CHANNEL and not self._channel_slot_free(p):
                    return "every player has the right to build to one English Channel ferry line"
            elif link.kind == FERRY and len(owners) < min(link.capacity, g.num_players):
                free = self._free_edges_at(m) - 1
                if free < min(link.capacity, g.num_players) - len(owners):
                    return "it would block a second player from track to each end of the ferry"
        c = b.city_of[m]
        if c < 0:
            return None
        size = b.city_size[c]
        present = self.present_at(c)
        if size in (SMALL, MEDIUM):
            limit = 2 if size == SMALL else 3
            if p not in present and len(present) >= limit:
                kind = "small" if size == SMALL else "medium"
                return f"only {limit} players may build into a {kind} city"
            if self.touch[p][m] >= 3:
                return "no player may build more than three sections to a medium or small city"
            if p in present:
                free = self._free_edges(c) - 1
                if free < min(limit, g.num_players) - len(present):
                    return "it would prevent another player from building into the city"
        elif size == CENTRE and p in present:
            free = self._free_edges(c) - 1
            if free < g.num_players - len(present):
                return "it would block another player's right to enter the major city"
        return None

    def _at_city(self, q: int, c: int) -> bool:
        return q in self.present_at(c)

    def present_at(self, c: int) -> list[int]:
        """The seats with track at city ``c`` (cached until the next build or flood)."""
        found = self._present.get(c)
        if found is None:
            posts = self.game.board.city_posts[c]
            found = [q for q, tq in enumerate(self.touch) if any(tq[m] for m in posts)]
            self._present[c] = found
        return found

    def _channel_slot_free(self, p: int) -> bool:
        """May ``p`` buy another English Channel ferry and still leave one to everyone?"""
        b = self.game.board
        lines = [k for k, link in enumerate(b.links) if link.sea == CHANNEL]
        if not any(p in self.link_owners[k] for k in lines):
            return True
        free = sum(b.links[k].capacity - len(self.link_owners[k]) for k in lines) - 1
        without = sum(
            1
            for q in range(self.game.num_players)
            if q != p and not any(q in self.link_owners[k] for k in lines)
        )
        return free >= without

    def _free_edges_at(self, m: int) -> int:
        b = self.game.board
        free = 0
        for d in range(6):
            e = b.eid[m * 6 + d]
            if e >= 0 and not b.edge_internal[e] and self.edge_owner[e] < 0:
                free += 1
        return free

    def _free_edges(self, c: int) -> int:
        b = self.game.board
        free = 0
        for m in b.city_posts[c]:
            for d in range(6):
                e = b.eid[m * 6 + d]
                if e >= 0 and not b.edge_internal[e] and self.edge_owner[e] < 0:
                    free += 1
        return free

    # -- the global blocking check ------------------------------------------------------
    #
    # "No track may be built which blocks any player from connecting all the major cities."
    # The graph available to seat q: every lattice edge q owns, every red-area edge, every
    # free edge whose two ends q may still build to (a ferry port or Chunnel end of a line
    # already full of other owners is closed to q), and every ferry line or the Chunnel that
    # q owns or may still build to (fewer owners than its capacity); the mileposts of a
    # major city are one node. A build of edge e by p is refused when, for some other q,
    # that graph connects all the major cities before the build and not after it.

    def _post_open(self, q: int, m: int) -> bool:
        """May seat ``q`` still build to or from milepost ``m`` (port limits)?"""
        b = self.game.board
        k = b.link_at[m]
        if k < 0:
            return True
        owners = self.link_owners[k]
        return q in owners or len(owners) < b.links[k].capacity

    def _edge_open(self, q: int, e: int) -> bool:
        """Is edge ``e`` in the graph available to seat ``q``?"""
        b = self.game.board
        o = self.edge_owner[e]
        if o == q or b.edge_internal[e]:
            return True
        if o >= 0:
            return False
        x, y = b.edge_ends[e]
        return self._post_open(q, x) and self._post_open(q, y)

    def _closed(self, q: int) -> set[int]:
        """The ferry ports and Chunnel ends closed to seat ``q``: their line is full of
        other owners."""
        b = self.game.board
        out: set[int] = set()
        for k, owners in enumerate(self.link_owners):
            if len(owners) >= b.links[k].capacity and q not in owners:
                out.update(b.links[k].ends)
        return out

    def _steps(self, q: int, m: int, skip: int, closed: set[int]) -> list[int]:
        """The mileposts next to ``m`` in seat ``q``'s available graph, without edge ``skip``
        (ferry lines and the Chunnel are edges; a major city's mileposts are joined)."""
        g = self.game
        owner = self.edge_owner
        internal = g.board.edge_internal
        if closed and m in closed:
            return [x for x, e in g.adj[m] if e != skip and (owner[e] == q or internal[e])]
        out = [
            x
            for x, e in g.adj[m]
            if e != skip
            and (owner[e] == q or (owner[e] < 0 and (internal[e] or not closed or x not in closed)))
        ]
        out.extend(g.joined[m])
        return out

    def _connects_majors(self, q: int) -> bool:
        """Does seat ``q``'s available graph connect all the major cities?"""
        g = self.game
        b = g.board
        major_of = g.major_of
        start = b.city_posts[b.majors[0]]
        seen = set(start)
        stack = list(start)
        found = {0}
        total = len(b.majors)
        closed = self._closed(q)
        while stack:
            m = stack.pop()
            for x in self._steps(q, m, -1, closed):
                if x not in seen:
                    seen.add(x)
                    stack.append(x)
                    i = major_of[x]
                    if i >= 0 and i not in found:
                        found.add(i)
                        if len(found) == total:
                            return True
        return len(found) == total

    def majors_reachable(self, q: int) -> bool:
        """Seat ``q`` may still connect all the major cities. Once true it stays true: a
        legal build keeps it (the blocking check) and a flood only frees edges, so a true
        answer is kept until the track is laid anew (``_rebuild_touch``); a false one is
        kept until the next change of track."""
        if self._linked[q]:
            return True
        key = -1 - q
        v = self._reach.get(key)
        if v is None:
            v = int(self._connects_majors(q))
            self._reach[key] = v
            if v:
                self._linked[q] = 1
        return bool(v)

    def _split(
        self, q: int, a: list[int], c: list[int], skip: int, closed: set[int]
    ) -> set[int] | None:
        """None when mileposts ``a`` and ``c`` are connected in ``q``'s graph without edge
        ``skip`` (and the mileposts ``closed``); otherwise the whole component of one side
        (two-sided breadth-first search: the smaller side is exhausted first)."""
        g = self.game
        adj, joined, owner = g.adj, g.joined, self.edge_owner
        seen_a, seen_c = set(a), set(c)
        todo_a, todo_c = deque(a), deque(c)
        while todo_a and todo_c:
            if len(seen_a) <= len(seen_c):
                seen, other, todo = seen_a, seen_c, todo_a
            else:
                seen, other, todo = seen_c, seen_a, todo_c
            m = todo.popleft()
            if m in closed:
                nxt = self._steps(q, m, skip, closed)
            else:  # the same steps, inline (red-area mileposts are never closed)
                nxt = [
                    x
                    for x, e in adj[m]
                    if e != skip and (owner[e] == q or (owner[e] < 0 and x not in closed))
                ]
                nxt.extend(joined[m])
            for x in nxt:
                if x in other:
                    return None
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
        return seen_a if not todo_a else seen_c

    def blocked_by_build(self, p: int, a: int, d: int) -> int:
        """The seat that ``p``'s segment from ``a`` in direction ``d`` would block from
        connecting all the major cities, or -1 (see the comment above ``_post_open``)."""
        g = self.game
        b = g.board
        i = a * 6 + d
        e = b.eid[i]
        to = b.nb[i]
        owner = self.edge_owner
        for e1, f1 in g.tri[e]:
            if owner[e1] < 0 and owner[f1] < 0:
                # a triangle of unowned edges (red areas included) without a port: e's ends
                # stay joined for everyone
                return -1
        if self._ring(a, d) or self._ring(to, (d + 3) % 6):
            return -1
        key = e * 8 + p
        hit = self._reach.get(key)
        if hit is not None:
            return hit
        # the two triangles of the lattice on e: a -> c -> to
        d1, d2 = (d + 1) % 6, (d + 5) % 6
        c1, c2 = b.nb[a * 6 + d1], b.nb[a * 6 + d2]
        e1, e2 = b.eid[a * 6 + d1], b.eid[a * 6 + d2]
        f1 = b.eid[c1 * 6 + d2] if c1 >= 0 else -1
        f2 = b.eid[c2 * 6 + d1] if c2 >= 0 else -1
        k = b.link_at[to]
        owners = self.link_owners[k] if k >= 0 else []
        fills = k >= 0 and p not in owners and len(owners) + 1 >= b.links[k].capacity
        slow = []
        for q in range(g.num_players):
            if q == p:
                continue
            if fills and q not in owners:
                slow.append(q)
                continue
            if f1 >= 0 and e1 >= 0 and self._edge_open(q, e1) and self._edge_open(q, f1):
                continue
            if f2 >= 0 and e2 >= 0 and self._edge_open(q, e2) and self._edge_open(q, f2):
                continue
            slow.append(q)
        if not slow:
            return -1
        found = -1
        for q in slow:
            if fills and q not in owners:
                # the result depends only on the line and q (e ends at its closed port)
                fkey = -100 - (k * 8 + q)
                hit = self._reach.get(fkey)
                if hit is None:
                    hit = int(self._blocks(q, p, e, a, to, k))
                    self._reach[fkey] = hit
                if hit:
                    found = q
                    break
            elif self._blocks(q, p, e, a, to, -1):
                found = q
                break
        self._reach[key] = found
        return found

    def _ring(self, u: int, du: int) -> bool:
        """Are ``u`` and its neighbour ``v`` in direction ``du`` joined by unowned edges
        without ports (so in everyone's graph) round the hexagon about ``u``: a spoke from
        ``u``, then ring edges to ``v``?"""
        g = self.game
        owner = self.edge_owner
        port = g.edge_port
        ring, spokes = g.hexes[u * 6 + du]
        for i in range(5):
            e = ring[i]
            if e < 0 or owner[e] >= 0 or port[e]:
                break
            e = spokes[i + 1]
            if e >= 0 and owner[e] < 0 and not port[e]:
                return True
        for i in range(5, 0, -1):
            e = ring[i]
            if e < 0 or owner[e] >= 0 or port[e]:
                break
            e = spokes[i]
            if e >= 0 and owner[e] < 0 and not port[e]:
                return True
        return False

    def _blocks(self, q: int, p: int, e: int, a: int, to: int, k: int) -> bool:
        """Would ``p`` building edge ``e`` (and, when ``k >= 0``, taking the last place on
        link ``k``) disconnect the major cities in ``q``'s available graph?"""
        if k >= 0:
            return self._fill_blocks(q, p, e, k)
        if not self._edge_open(q, e):
            return False
        return self._cuts(q, self._split(q, [a], [to], e, self._closed(q)))

    def _cuts(self, q: int, side: set[int] | None) -> bool:
        """Given the component ``side`` cut off from the other side of a removal (None:
        nothing was cut off), are the major cities of ``q``'s graph now disconnected?"""
        if side is None:
            return False
        major_of = self.game.major_of
        cut = len({major_of[m] for m in side if major_of[m] >= 0})
        if cut in (0, len(self.game.board.majors)):
            return False
        return self.majors_reachable(q)

    def _fill_blocks(self, q: int, p: int, e: int, k: int) -> bool:
        """Would ``p`` taking the last place on link ``k`` (by building ``e`` to one of its
        ports) disconnect the major cities for ``q``? Both ports then close to ``q``: the
        graph loses them (and the line). When the open neighbours of each port stay joined
        around it, two pieces at most remain, one by each port: a two-sided search between
        them decides; otherwise a search of the whole graph does."""
        ends = self.game.board.links[k].ends
        closed = self._closed(q) | set(ends)
        sides = []
        for port in ends:
            side = self._around(q, port, closed)
            if side is None:
                if not self.majors_reachable(q):
                    return False
                self.edge_owner[e] = p
                self.link_owners[k].append(p)
                try:
                    return not self._connects_majors(q)
                finally:
                    self.link_owners[k].pop()
                    self.edge_owner[e] = -1
            sides.append(side)
        if not sides[0] or not sides[1]:
            return False
        return self._cuts(q, self._split(q, sides[0], sides[1], -1, closed))

    def _around(self, q: int, u: int, closed: set[int]) -> list[int] | None:
        """The neighbours of ``u`` joined to it in ``q``'s graph (before ``u`` closes), when
        they are all joined to each other through the hexagon around ``u`` once ``closed``
        are closed; else None."""
        b = self.game.board
        owner = self.edge_owner
        ring = [b.nb[u * 6 + j] for j in range(6)]
        members = []
        for j in range(6):
            e = b.eid[u * 6 + j]
            if e >= 0 and owner[e] in (-1, q) and ring[j] not in closed:
                members.append(j)
        if len(members) <= 1:
            return [ring[j] for j in members]
        opn = []
        for j in range(6):
            x, y = ring[j], ring[(j + 1) % 6]
            e = b.eid[x * 6 + (j + 2) % 6] if x >= 0 and y >= 0 else -1
            opn.append(
                e >= 0 and x not in closed and y not in closed and (owner[e] == q or owner[e] < 0)
            )
        if not all(opn):
            start = next(j for j in range(6) if not opn[(j - 1) % 6])
            label = [0] * 6
            cur = 0
            for t in range(6):
                j = (start + t) % 6
                label[j] = cur
                if not opn[j]:
                    cur += 1
            if len({label[j] for j in members}) > 1:
                return None
        return [ring[j] for j in members]

    def build_cost(self, p: int, a: int, d: int) -> int:
        """The cost of the segment from ``a`` in direction ``d`` for player ``p``."""
        b = self.game.board
        e = b.eid[a * 6 + d]
        to = b.nb[a * 6 + d]
        cross = b.edge_cross_cost[e]
        k = b.link_at[to]
        if k >= 0:
            return cross + (0 if p in self.link_owners[k] else b.links[k].cost)
        return cross + b.milepost_cost[to]

    def _build_actions(self, p: int) -> list[int]:
        b = self.game.board
        out: list[int] = []
        if self.wildcat_drawer() == p:
            return out
        left = min(SPEND_LIMIT - self.spent, self.cash[p])
        if left <= 0:
            return out
        sources = set(self.net[p])
        if self.from_major < 2:
            sources.update(b.major_posts)
        for a in sources:
            base = a * 6
            for d in range(6):
                e = b.eid[base + d]
                if e < 0 or b.edge_internal[e] or self.edge_owner[e] >= 0:
                    continue
                if self.build_cost(p, a, d) > left:
                    continue
                if self.build_refusal(p, a, d) is None:
                    out.append(base + d)
        return out

    def _build(self, p: int, a: int, d: int) -> None:
        b = self.game.board
        e = b.eid[a * 6 + d]
        to = b.nb[a * 6 + d]
        cost = self.build_cost(p, a, d)
        self.cash[p] -= cost
        self.spent += cost
        if b.terrain[a] == OUTPOST:
            self.from_major += 1
        self.edge_owner[e] = p
        self.reserve = [r for r in self.reserve if r[0] != e]
        self._touch(p, a, 1)
        self._touch(p, to, 1)
        k = b.link_at[to]
        if k >= 0 and p not in self.link_owners[k]:
            self.link_owners[k].append(p)
            for m in b.links[k].ends:
                self._touch(p, m, 1)

    def _touch(self, p: int, m: int, delta: int) -> None:
        if self.game.board.city_of[m] >= 0:
            self._present.clear()
        if self._reach:
            self._reach.clear()
        self.touch[p][m] += delta
        if self.touch[p][m] > 0:
            self.net[p].add(m)
        else:
            self.net[p].discard(m)

    # -- legal actions ---------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        g = self.game
        if self.pending:
            q = self.pending[0]
            n = g.num_players
            return sorted({g.LOSE0 + x for x in (self.loads[q] if q < n else self.loads2[q - n])})
        if self.offer:
            return self._offer_actions()
        q = self.tosser()
        if q >= 0:
            return [g.TOSS0 + slot for slot in range(len(self.hands[q]))]
        p = self.turn_player()
        if self.debt[p] == 0 and g.cfg.mercy_borrowing:
            # a loan the player could repay at once would be repaid at once: none offered
            loans = [g.BORROW0 + k - 1 for k in range(self.cash[p] + 1, LOAN + 1)]
            return sorted(self._turn_actions(p) + loans)
        return self._turn_actions(p)

    def _turn_actions(self, p: int) -> list[int]:
        g = self.game
        if self.phase == BUILD:
            if self.traded:  # a purchase is made instead of building: more purchases only
                return [g.END_BUILD, *self._offer_starts(p)]
            out = self._build_actions(p)
            if g.cfg.challenge_track_trading:
                out.extend(self._offer_starts(p))
            out.extend(self._upgrade_actions(p))
            if self.pos2:
                out.extend(g.train2_of[a] for a in self._second(p, self._upgrade_actions))
            out.append(g.END_BUILD)
            return sorted(out)
        if self.pos2:
            out = self._ops_actions(p)
            to2 = g.train2_of
            out.extend(to2[a] for a in self._second(p, self._ops_actions) if a in to2)
            return sorted(set(out))
        return self._ops_actions(p)

    def _upgrade_actions(self, p: int) -> list[int]:
        """Upgrades and the crossgrade open to ``p``'s train (building phase)."""
        g = self.game
        out = []
        if not self.spent and not self.upgraded:
            for target, cost in g.board.upgrades[self.train[p]]:
                if cost <= self.cash[p] and cost <= SPEND_LIMIT:
                    out.append(g.U0 + target)
        if g.crossgrade and self.crossgrade_refusal(p) is None:
            out.append(g.U0 + g.crossgrade[self.train[p]])
        return out

    # -- Additional Trains ----------------------------------------------------------------
    #
    # The second train of seat p lives in train2/pos2/prev2/on_ferry2/loads2[p] (and, in
    # the turn, moves2 and halved2). Every rule about "the train" is written once, for the
    # fields of the first; the second train is handled by swapping its fields in, applying
    # the same rule, and swapping back.

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

    def _second(self, p: int, rule: Any) -> list[int]:
        """``rule(p)`` (a list of train actions) for ``p``'s second train."""
        self._swap(p)
        try:
            out: list[int] = rule(p)
        finally:
            self._swap(p)
        return out

    def freight_only(self, p: int) -> bool:
        """``p`` has no train better than a Freight (the Chunnel's building restriction)."""
        return self.train[p] == 0 and (not self.pos2 or self.train2[p] == 0)

    def _apply_second(self, p: int, a: int) -> None:
        """Apply train action ``a`` to ``p``'s second train."""
        g = self.game
        finish = False
        self._swap(p)
        try:
            if a < g.END_BUILD:
                target = a - g.U0
                if g.crossgrade.get(self.train[p]) == target:
                    self.cash[p] -= CROSSGRADE
                    self.spent += CROSSGRADE
                else:  # an upgrade, instead of building: the turn ends
                    self.cash[p] -= dict(g.board.upgrades[self.train[p]])[target]
                    finish = True
                self.train[p] = target
                self.upgraded = 1
            elif g.cfg.mercy_backtracking and a == g.BACKTRACK:
                o = self._track_owner(self.pos[p], self.prev[p])
                if o >= 0 and o != p:
                    self._pay_rent(p, o)
                self.prev[p] = -1
                finish = True
            else:  # moving and loads: never the end of the turn
                self._apply_action(a)
        finally:
            self._swap(p)
        if finish:
            self._finish_turn()
        self._settle()

    def _start_second(self, p: int) -> None:
        """The second train at the start of the operations phase (as the first's)."""
        g = self.game
        self._swap(p)
        if self.on_ferry[p] >= 0:
            self.pos[p] = self.on_ferry[p]
            self.on_ferry[p] = -1
            self.prev[p] = -1
            self.moves = g.half[self.train[p]]
            self.halved |= 1
        elif self.pos[p] >= 0:
            self._start_moves(p)
        self._swap(p)

    def _queue_loss2(self, q: int) -> None:
        """Seat ``q``'s second train loses a load (its owner chooses which)."""
        if not self.loads2[q]:
            return
        if len(set(self.loads2[q])) == 1:
            self._swap(q)
            self._lose_load(q, self.loads[q][0])
            self._swap(q)
        else:
            self.pending.append(self.game.num_players + q)

    # -- Selling and Trading Track -----------------------------------------------------------
    #
    # "Instead of building track, a player may purchase track from another player for
    # whatever price both players agree to. The purchase may take place only in the
    # purchasing player's turn." The buyer composes an offer to one seller in his building
    # phase (before building or upgrading): the seller's segments he takes, his own he gives,
    # a price; the seller accepts or refuses. One offer to each other seat a turn; an
    # accepted one replaces the turn's building.

    def _offer_starts(self, p: int) -> list[int]:
        """``offer Pk`` actions open to ``p`` now (the building phase is assumed)."""
        g = self.game
        if not g.cfg.challenge_track_trading or self.spent or self.upgraded:
            return []
        return [
            g.OFFER0 + k
            for k in range(g.num_players)
            if k != p and k not in self.offered and self.net[k]
        ]

    def offer_refusal(self, p: int, k: int) -> str | None:
        """Why ``p`` may not start an offer to seat ``k`` now (None: legal)."""
        g = self.game
        if not g.cfg.challenge_track_trading:
            return "selling and trading track is not played (config challenge_track_trading)"
        if self.phase != BUILD:
            return "track is bought instead of building, in the building phase"
        if self.offer:
            return "one offer at a time"
        if self.spent or self.upgraded:
            return "track is bought instead of building: not after building or upgrading"
        if k == p or k >= g.num_players:
            return "an offer is made to another player"
        if k in self.offered:
            return f"one offer to P{k + 1} a turn"
        if not self.net[k]:
            return f"P{k + 1} has no track"
        return None

    def _offer_actions(self) -> list[int]:
        g = self.game
        seller, stage, _ = self.offer
        if stage == PROPOSED:
            return [g.ACCEPT, g.REFUSE]
        if stage == PRICED:
            return [g.WITHDRAW, g.PROPOSE]
        p = self.turn_player()
        out = [g.WITHDRAW]
        take, give = set(self.offer_take), set(self.offer_give)
        for e, o in enumerate(self.edge_owner):
            if o == seller:
                if e not in take and self.trade_refusal(e, seller, p) is None:
                    out.append(g.TAKE0 + e)
            elif o == p and e not in give and self.trade_refusal(e, p, seller) is None:
                out.append(g.GIVE0 + e)
        if self.offer_take:
            out.extend(g.PRICE0 + v for v in range(min(self.cash[p], PRICE_MAX) + 1))
        return sorted(out)

    def _owner_after(self, e: int) -> int:
        """The owner of edge ``e`` once the offer being composed is carried out."""
        if e in self.offer_take:
            return self.turn_player()
        if e in self.offer_give:
            return self.offer[0]
        return self.edge_owner[e]

    def trade_refusal(self, e: int, frm: int, to: int) -> str | None:
        """Why segment ``e`` may not pass from seat ``frm`` to seat ``to`` in the offer being
        composed (None: it may). The track must still obey the rules that bind it."""
        g = self.game
        b = g.board
        if not 0 <= e < len(b.edge_ends) or self.edge_owner[e] != frm:
            return f"that segment is not P{frm + 1}'s track"
        if e in self.offer_take or e in self.offer_give:
            return "that segment is in the offer already"
        if g.edge_port[e]:
            return "track at a ferry port or the Chunnel goes with its line: it is not traded"
        for m in b.edge_ends[e]:
            c = b.city_of[m]
            if c < 0 or b.city_size[c] not in (SMALL, MEDIUM):
                continue
            limit = 2 if b.city_size[c] == SMALL else 3
            owners: set[int] = set()
            sections = 0
            for x in b.city_posts[c]:
                for d in range(6):
                    f = b.eid[x * 6 + d]
                    if f < 0:
                        continue
                    o = to if f == e else self._owner_after(f)
                    if o >= 0:
                        owners.add(o)
                    if x == m and o == to:
                        sections += 1
            if len(owners) > limit:
                kind = "small" if limit == 2 else "medium"
                return f"only {limit} players may have track into a {kind} city"
            if sections > 3:
                return "no player may have more than three sections to a medium or small city"
        return None

    def _trade_step(self, action: int) -> None:
        """Apply one step of an offer (Selling and Trading Track)."""
        g = self.game
        if action < g.WITHDRAW:
            k = action - g.OFFER0
            self.offer = [k, COMPOSING, 0]
            self.offered.append(k)
        elif action == g.PROPOSE:
            self.offer[1] = PROPOSED
        elif action == g.ACCEPT:
            self._carry_out_trade()
            self.traded = 1
            self._end_offer()
        elif action in (g.WITHDRAW, g.REFUSE):
            self._end_offer()
        elif action < g.TAKE0:
            self.offer[2] = action - g.PRICE0
            self.offer[1] = PRICED
        elif action < g.GIVE0:
            self.offer_take.append(action - g.TAKE0)
        else:
            self.offer_give.append(action - g.GIVE0)

    def _end_offer(self) -> None:
        self.offer = []
        self.offer_take = []
        self.offer_give = []

    def _carry_out_trade(self) -> None:
        """The accepted offer: segments change owner (colour), the price is paid."""
        b = self.game.board
        buyer, (seller, _, price) = self.turn_player(), self.offer
        for edges, frm, to in ((self.offer_take, seller, buyer), (self.offer_give, buyer, seller)):
            for e in edges:
                self.edge_owner[e] = to
                for m in b.edge_ends[e]:
                    self._touch(frm, m, -1)
                    self._touch(to, m, 1)
        self.cash[buyer] -= price
        self.cash[seller] += price
        # the blocking check's "stays true" holds for builds only: buyer and seller start over
        self._present.clear()
        self._reach.clear()
        self._linked = [0] * self.game.num_players

    def crossgrade_refusal(self, p: int) -> str | None:
        """Why ``p`` may not crossgrade now (None: legal; the building phase is assumed)."""
        g = self.game
        if not g.cfg.crossgrading:
            return "crossgrading is not played (config crossgrading)"
        target = g.crossgrade.get(self.train[p])
        if target is None:
            return "only a Fast Freight and a Heavy Freight crossgrade to each other"
        if self.upgraded:
            return "one upgrade or crossgrade a turn"
        if self.spent > SPEND_LIMIT - CROSSGRADE:
            return f"a crossgrade leaves at most {SPEND_LIMIT - CROSSGRADE} for track this turn"
        if self.cash[p] < CROSSGRADE:
            return f"a crossgrade costs {CROSSGRADE} (no credit)"
        if len(self.loads[p]) > g.board.train_capacity[target]:
            return "drop a load first: the new train carries fewer"
        return None

    def _ops_actions(self, p: int) -> list[int]:
        g = self.game
        b = g.board
        out: list[int] = []
        fresh = not self.halved & 2
        if self.pos[p] < 0:
            out.extend(g.START0 + c for c in range(len(b.city_names)))
            out.append(g.END_MOVE)
            if fresh:
                out.append(g.DISCARD)
            return sorted(out)
        m = self.pos[p]
        c = b.city_of[m]
        if self.moves > 0:
            for d in range(6):
                if self.move_refusal(p, d) is None:
                    out.append(g.MOVE0 + d)
            if self._chunnel_refusal(p) is None:
                out.append(g.CHUNNEL_MOVE)
        k = b.link_at[m]
        if k >= 0 and b.links[k].kind == FERRY and self.on_ferry[p] < 0:
            for o in self.link_owners[k]:
                if o == p and self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
                    continue
                if o == p or self.rented[o] or self.may_pay_rent(p):
                    out.append(g.FERRY0 + o)
        if c >= 0 and (self.moves > 0 or not g.cfg.challenge_cost_to_load):
            strike = self.strike_at_city(c)
            load_set = set(self.loads[p])
            if not strike and len(self.loads[p]) < b.train_capacity[self.train[p]]:
                for x in b.city_goods[c]:
                    if self.chips[x] > 0 and m * 64 + 32 + x not in self.blocked:
                        out.append(g.PICK0 + x)
                for wc, x, _, _ in self.warehouse:
                    if wc == c and m * 64 + 32 + x not in self.blocked and g.PICK0 + x not in out:
                        out.append(g.PICK0 + x)
                x = g.CIRCUS
                if (
                    c in self.circus_at
                    and m * 64 + 32 + x not in self.blocked
                    and self.has_circus_demand(p)
                ):
                    out.append(g.PICK0 + x)
            for x in load_set:
                if m * 64 + x not in self.blocked:
                    out.append(g.DROP0 + x)
            if not strike:
                for s, card in enumerate(self.hands[p]):
                    if card < FIRST_EVENT:
                        for j, dem in enumerate(g.demands[card]):
                            if dem.city == c and dem.load in load_set:
                                out.append(g.DELIVER0 + 3 * s + j if s < 3 else g.DELIVER4_0 + j)
                for s, card in enumerate(self.contracts):
                    for j, dem in enumerate(g.demands[card]):
                        if dem.city == c and dem.load in load_set:
                            out.append(g.CONTRACT0 + 3 * s + j)
        out.append(g.END_MOVE)
        if fresh:
            out.append(g.DISCARD)
            if g.cfg.mercy_backtracking and self.backtrack_refusal(p) is None:
                out.append(g.BACKTRACK)
        return sorted(out)

    def backtrack_refusal(self, p: int) -> str | None:
        """Why ``p``'s train may not backtrack now (None: legal)."""
        g = self.game
        if not g.cfg.mercy_backtracking:
            return "backtracking is not played (config mercy_backtracking)"
        if self.phase != OPS or self.halved & 2:
            return "a train backtracks instead of its whole turn, before anything else"
        m = self.pos[p]
        if m < 0 or self.prev[p] < 0 or self.may_reverse(m):
            return "the train may move in any direction already"
        o = self._track_owner(m, self.prev[p])
        if o >= 0 and o != p and not self.may_pay_rent(p):
            return f"backtracking on P{o + 1}'s track costs the {RENT} use fee"
        return None

    def _track_owner(self, a: int, c: int) -> int:
        b = self.game.board
        for d in range(6):
            if b.nb[a * 6 + d] == c:
                return self.edge_owner[b.eid[a * 6 + d]]
        return -1

    def move_refusal(self, p: int, d: int) -> str | None:
        """Why ``p``'s train may not move in direction ``d`` now (None: legal)."""
        b = self.game.board
        m = self.pos[p]
        if self.moves <= 0:
            return "the train has no movement left"
        to = b.nb[m * 6 + d]
        if to < 0:
            return "there is no milepost there"
        e = b.eid[m * 6 + d]
        owner = self.edge_owner[e]
        if owner < 0 and not b.edge_internal[e]:
            return "there is no track there"
        if to == self.prev[p] and not self.may_reverse(m):
            return "a train may only reverse direction in a city"
        if owner >= 0 and owner == self.wildcat_drawer():
            return "the Wildcat strike stops every train on the drawing player's track"
        if self.closed_alpine(to):
            return "heavy snow closes the alpine mileposts of its area"
        if owner == p and self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
            return f"moving on one's own track costs {MOVE_FEE} a turn (Cost to Move)"
        if owner >= 0 and owner != p and not self.rented[owner] and not self.may_pay_rent(p):
            return f"renting P{owner + 1}'s track costs {RENT} and must be paid before use"
        return None

    def may_reverse(self, m: int) -> bool:
        """ "A train may only reverse direction if it is in a city (including all major city
        mileposts)": a city milepost. At a junction it changes direction by taking another
        branch, never by going back (rules 2; the Mercy rule Backtracking reverses elsewhere)."""
        return self.game.board.city_of[m] >= 0

    def _chunnel_refusal(self, p: int) -> str | None:
        b = self.game.board
        m = self.pos[p]
        k = b.link_at[m]
        if k < 0 or b.links[k].kind != CHUNNEL:
            return "the train is not at the Chunnel"
        link = b.links[k]
        owners = self.link_owners[k]
        if not owners:
            return "nobody has built the Chunnel"
        other = link.ends[1] if link.ends[0] == m else link.ends[0]
        if other == self.prev[p] and not self.may_reverse(m):
            return "a train may only reverse direction in a city"
        if self.moves < link.length:
            return f"crossing the Chunnel takes {link.length} mileposts of movement"
        o = owners[0]
        if o != p:
            if self.train[p] == 0 and self.game.cfg.chunnel_needs_upgrade:
                return "a Freight may not use the Chunnel by renting it"
            if not self.rented[o] and not self.may_pay_rent(p):
                return f"renting the Chunnel costs {RENT}"
            if o == self.wildcat_drawer():
                return "the Wildcat strike stops every train on the drawing player's track"
        elif o == self.wildcat_drawer():
            return "the Wildcat strike stops every train on the drawing player's track"
        elif self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
            return f"moving on one's own track costs {MOVE_FEE} a turn (Cost to Move)"
        return None

    # -- applying ------------------------------------------------------------------------

    def _apply_action(self, action: Action) -> None:
        g = self.game
        if self.phase == DEAL:
            self._deal(action + 1)
            return
        if self.current_player() == CHANCE:
            self._draw_into_hand(action + 1)
            self._settle()
            return
        if self.pending:
            q = self.pending.pop(0)
            n = g.num_players
            if q < n:
                self._lose_load(q, action - g.LOSE0)
            else:  # the second train's load
                self._swap(q - n)
                self._lose_load(q - n, action - g.LOSE0)
                self._swap(q - n)
            self._settle()
            return
        q = self.tosser()
        if q >= 0:
            self.discard.append(self.hands[q].pop(action - g.TOSS0))
            return
        p = self.turn_player()
        if g.cfg.mercy_borrowing and g.BORROW0 <= action < g.BORROW0 + LOAN:
            self.cash[p] += action - g.BORROW0 + 1
            self.debt[p] = 2 * (action - g.BORROW0 + 1)
            self._settle()
            return
        if action >= g.OFFER0:  # the ids of the last three variants (one test for the rest)
            if action >= g.TRAIN2_0:  # Additional Trains: the second train's action
                self._apply_second(p, g.base_of[action])
            elif action >= g.TRADE_END:  # Four demand cards: a demand of the 4th slot
                self._deliver(p, 3, action - g.DELIVER4_0)
                if g.cfg.challenge_cost_to_load:
                    self.moves -= 1
                self._settle()
            else:  # Selling and Trading Track
                self._trade_step(action)
            return
        if g.cfg.challenge_open_contracts and action >= g.CONTRACT0:
            slot, j = divmod(action - g.CONTRACT0, 3)
            card = self.contracts.pop(slot)
            self.hands[p].append(card)  # picked from the table, delivered like a hand card
            self._deliver(p, len(self.hands[p]) - 1, j)
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
            self._settle()
            return
        if g.cfg.mercy_backtracking and action == g.BACKTRACK:
            o = self._track_owner(self.pos[p], self.prev[p])
            if o >= 0 and o != p:
                self._pay_rent(p, o)
            self.prev[p] = -1
            self._finish_turn()
            self._settle()
            return
        if action < g.U0:
            a, d = divmod(action, 6)
            self._build(p, a, d)
        elif action < g.END_BUILD and g.crossgrade.get(self.train[p]) == action - g.U0:
            self.cash[p] -= CROSSGRADE
            self.spent += CROSSGRADE
            self.train[p] = action - g.U0
            self.upgraded = 1
        elif action < g.END_BUILD:
            cost = dict(g.board.upgrades[self.train[p]])[action - g.U0]
            self.cash[p] -= cost
            self.train[p] = action - g.U0
            self.upgraded = 1
            self._finish_turn()
        elif action == g.END_BUILD:
            self._finish_turn()
        elif action < g.CHUNNEL_MOVE:
            self._move(p, action - g.MOVE0)
        elif action == g.CHUNNEL_MOVE:
            self._chunnel(p)
        elif action < g.PICK0:
            self._board_ferry(p, action - g.FERRY0)
        elif action < g.DROP0:
            x = action - g.PICK0
            c = g.board.city_of[self.pos[p]]
            stored = [w for w in self.warehouse if w[0] == c and w[1] == x]
            if x == g.CIRCUS:
                self.circus_at.remove(c)
            elif stored:  # a warehoused load is taken before the tray's
                self.warehouse.remove(stored[0])
            else:
                self.chips[x] -= 1
            self.loads[p].append(x)
            self.loads[p].sort()
            self.blocked.append(self.pos[p] * 64 + x)
            self.halved |= 2
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
        elif action < g.DELIVER0:
            x = action - g.DROP0
            self.loads[p].remove(x)
            c = g.board.city_of[self.pos[p]]
            if g.cfg.challenge_field_warehousing and x != g.CIRCUS:
                self.warehouse.append([c, x, p, self.turns_done[p] + 5])
            else:
                self._put_down(x, c)
            self.blocked.append(self.pos[p] * 64 + 32 + x)
            self.halved |= 2
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
        elif action < g.END_MOVE:
            self._deliver(p, *divmod(action - g.DELIVER0, 3))
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
        elif action == g.END_MOVE:
            self._to_build()
        elif action == g.DISCARD:
            for card in self.hands[p]:
                if g.cfg.challenge_open_contracts and len(self.contracts) < CONTRACTS:
                    self.contracts.append(card)
                else:
                    self.discard.append(card)
            self.hands[p] = []
            self.discarding = 1
            if not self.draw:
                self.draw, self.discard = sorted(self.discard), []
        else:
            c = action - g.START0
            self.pos[p] = g.board.city_centre[c]
            self.prev[p] = -1
            self.halved |= 2
            self._start_moves(p)
        self._settle()

    def _settle(self) -> None:
        """Resolve what follows automatically: the end of a discarding or lost turn, and
        (Mercy, Borrowing) the repayment of a loan as soon as the money is there."""
        if self.game.cfg.mercy_borrowing:
            for q, owed in enumerate(self.debt):
                if owed and self.cash[q] >= owed:
                    self.cash[q] -= owed
                    self.debt[q] = 0
        while not self.over and not self.pending and self.phase != DEAL:
            p = self.turn_player()
            if len(self.hands[p]) < self.game.hand_size:
                return
            if self.discarding or self.end_now:
                self.discarding = self.end_now = 0
                self._finish_turn()
                continue
            return

    def _deal(self, card: int) -> None:
        self._draw_card(card)
        size = self.game.deal_size
        p = next(q for q in range(self.game.num_players) if len(self.hands[q]) < size)
        if card >= FIRST_EVENT:
            self.aside.append(card)
        else:
            self.hands[p].append(card)
        if all(len(h) == size for h in self.hands):
            if self.game.cfg.fast_game:  # the events dealt stay aside, out of play
                self.draw = sorted(self.draw + self.discard)
            else:
                self.draw = sorted(self.draw + self.aside + self.discard)
                self.aside = []
            self.discard = []

            def key(q: int) -> tuple[list[int], int]:
                pays = sorted(
                    (d.payment for c in self.hands[q] for d in self.game.demands[c]),
                    reverse=True,
                )
                return (pays, -q)

            chosen = self.game.cfg.first_player
            self.first = max(range(self.game.num_players), key=key) if chosen is None else chosen
            self.phase = BUILD if self.game.cfg.building_turns else OPS
            self._start_turn()

    def _draw_into_hand(self, card: int) -> None:
        p = self.turn_player()
        self._draw_card(card)
        if card < FIRST_EVENT:
            self.hands[p].append(card)
        else:
            self._event(card, p)

    def _start_moves(self, p: int) -> None:
        if self.weather_at(self.pos[p]):
            self.moves = self.game.half[self.train[p]]
            self.halved = 1 | (self.halved & 2)
        else:
            self.moves = self.game.speed[self.train[p]]

    def _move(self, p: int, d: int) -> None:
        b = self.game.board
        m = self.pos[p]
        e = b.eid[m * 6 + d]
        to = b.nb[m * 6 + d]
        owner = self.edge_owner[e]
        if owner >= 0 and owner != p and not self.rented[owner]:
            self._pay_rent(p, owner)
        elif owner == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        self.prev[p] = m
        self.pos[p] = to
        self.moves -= 1
        self.halved |= 2
        if not self.halved & 1 and self.weather_at(to):
            self.moves = (self.moves + 1) // 2
            self.halved |= 1

    def _pay_rent(self, p: int, owner: int) -> None:
        if self.cash[p] < RENT:  # Mercy, Late Payment: owed, paid from delivery payoffs
            self.late.append([p, owner, RENT])
        else:
            self.cash[p] -= RENT
            self.cash[owner] += RENT
        self.rented[owner] = 1

    def _own_fee_due(self, p: int) -> bool:
        """Challenge Game, Cost to Move: ``p`` has not yet paid this turn's 1 million."""
        return self.game.cfg.challenge_cost_to_move and not self.rented[p]

    def _pay_move_fee(self, p: int) -> None:
        self.cash[p] -= MOVE_FEE  # to the bank
        self.rented[p] = 1

    def may_pay_rent(self, p: int) -> bool:
        """``p`` has the 4 for a use fee, or may owe it (Mercy, Late Payment)."""
        return self.cash[p] >= RENT or self.game.cfg.mercy_late_payment

    def _pay_late(self, p: int, payoff: int) -> None:
        """Mercy, Late Payment: ``p``'s owed use fees, oldest first, from ``payoff``."""
        for entry in self.late:
            if entry[0] == p and payoff > 0:
                amount = min(entry[2], payoff)
                payoff -= amount
                entry[2] -= amount
                self.cash[p] -= amount
                self.cash[entry[1]] += amount
        self.late = [x for x in self.late if x[2] > 0]

    def _chunnel(self, p: int) -> None:
        b = self.game.board
        m = self.pos[p]
        k = b.link_at[m]
        link = b.links[k]
        o = self.link_owners[k][0]
        if o != p and not self.rented[o]:
            self._pay_rent(p, o)
        elif o == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        other = link.ends[1] if link.ends[0] == m else link.ends[0]
        self.prev[p] = m
        self.pos[p] = other
        self.moves -= link.length
        self.halved |= 2

    def _board_ferry(self, p: int, owner: int) -> None:
        b = self.game.board
        m = self.pos[p]
        link = b.links[b.link_at[m]]
        if owner != p and not self.rented[owner]:
            self._pay_rent(p, owner)
        elif owner == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        self.on_ferry[p] = link.ends[1] if link.ends[0] == m else link.ends[0]
        if self.pos2:  # this train stops; the other may still move
            self.moves = 0
            self.halved |= 2
        else:
            self._to_build()

    def _to_build(self) -> None:
        self.phase = BUILD
        self.moves = self.moves2 = 0

    def _deliver(self, p: int, slot: int, j: int) -> None:
        b = self.game.board
        card = self.hands[p][slot]
        dem = self.game.demands[card][j]
        pay = dem.payment
        self.loads[p].remove(dem.load)
        self._put_down(dem.load, dem.city)
        for a in list(self.active):
            ev = b.events[a[0]]
            if ev.kind == "bonus" and ev.amount is not None:
                hit = (ev.load is not None and self.game.load_names[dem.load] == ev.load) or (
                    ev.countries is not None and b.city_country[dem.city] in ev.countries
                )
                if hit:
                    pay += ev.amount
                    self.active.remove(a)
                    self.discard.append(a[0])
        self.cash[p] += pay
        if self.late:
            self._pay_late(p, pay)
        del self.hands[p][slot]
        self.discard.append(card)
        self.halved |= 2

    # -- events ----------------------------------------------------------------------------

    def _event(self, card: int, drawer: int) -> None:
        g = self.game
        b = g.board
        ev = b.events[card]
        n = g.num_players
        area = g.areas[card]
        expires = self.turns_done[drawer] + 2
        if ev.kind == "tax":
            assert ev.brackets is not None
            for q in range(n):
                due = 0
                for lo, amount in ev.brackets:
                    if self.cash[q] >= lo:
                        due = amount
                self.cash[q] -= due
            self.cash_public = 1
            if g.cfg.challenge_reshuffle:  # out of the game; the discards shuffled back
                self.aside.append(card)
                self.draw = sorted(self.draw + self.discard)
                self.discard = []
            else:
                self.discard.append(card)
        elif ev.kind == "derailment":
            for q in range(n):
                if self.pos[q] >= 0 and self.pos[q] in area:
                    self._lose_turn(q, drawer)
                    self._queue_loss(q)
                if self.pos2 and self.pos2[q] >= 0 and self.pos2[q] in area:
                    self._lose_turn(q, drawer)
                    self._queue_loss2(q)
            self.discard.append(card)
        elif ev.kind == "bonus":
            self.active.append([card, drawer, FOREVER])
        else:
            self.active.append([card, drawer, expires])
            if ev.kind == "flood" and ev.river:
                for e, r in enumerate(b.edge_river):
                    if r == ev.river and self.edge_owner[e] >= 0:
                        o = self.edge_owner[e]
                        self.erased.append([card, e, o])
                        self.edge_owner[e] = -1
                        a, c = b.edge_ends[e]
                        self._touch(o, a, -1)
                        self._touch(o, c, -1)
            if ev.kind == "gale":
                assert ev.seas is not None
                for q in range(n):
                    m = self.pos[q]
                    if m < 0:
                        continue
                    k = b.link_at[m]
                    at_port = k >= 0 and b.links[k].kind == FERRY and m in area
                    dest = self.on_ferry[q]
                    crossing = dest >= 0 and b.links[b.link_at[dest]].sea in ev.seas
                    if at_port or crossing:
                        self._lose_turn(q, drawer)
                        self._queue_loss(q)
                if self.pos2:  # each train on a ferry milepost
                    for q in range(n):
                        self._swap(q)
                        m = self.pos[q]
                        k = b.link_at[m] if m >= 0 else -1
                        at_port = k >= 0 and b.links[k].kind == FERRY and m in area
                        dest = self.on_ferry[q]
                        crossing = dest >= 0 and b.links[b.link_at[dest]].sea in ev.seas
                        self._swap(q)
                        if at_port or crossing:
                            self._lose_turn(q, drawer)
                            self._queue_loss2(q)
            if ev.kind in ("snow", "fog", "gale") and self.phase == OPS:
                p = self.turn_player()
                if p == drawer and self.pos[p] in area and not self.halved & 1:
                    self.moves = (self.moves + 1) // 2
                    self.halved |= 1
                if p == drawer and self.pos2 and self.pos2[p] in area and not self.halved2:
                    self.moves2 = (self.moves2 + 1) // 2
                    self.halved2 = 1

    def _lose_turn(self, q: int, drawer: int) -> None:
        if q == drawer and self.turn_player() == q and self.phase != DEAL:
            self.end_now = 1
        self.lost[q] = 1

    def _queue_loss(self, q: int) -> None:
        if not self.loads[q]:
            return
        if len(set(self.loads[q])) == 1:
            self._lose_load(q, self.loads[q][0])
        else:
            self.pending.append(q)

    def _lose_load(self, q: int, x: int) -> None:
        self.loads[q].remove(x)
        self._put_down(x, self.nearest_city(self.pos[q]) if x == self.game.CIRCUS else -1)

    def _put_down(self, x: int, c: int) -> None:
        """Load ``x`` leaves a train: its chip returns to the tray, a Circus to city ``c``."""
        if x == self.game.CIRCUS:
            self.circus_at.append(c)
        else:
            self.chips[x] += 1

    def nearest_city(self, m: int) -> int:
        """The city nearest to milepost ``m`` over the milepost lattice (the lowest city
        index among equals: breadth-first, neighbours in direction order)."""
        b = self.game.board
        seen = {m}
        ring = [m]
        while ring:
            found = sorted({b.city_of[x] for x in ring if b.city_of[x] >= 0})
            if found:
                return found[0]
            nxt = []
            for x in ring:
                for d in range(6):
                    y = b.nb[x * 6 + d]
                    if y >= 0 and y not in seen:
                        seen.add(y)
                        nxt.append(y)
            ring = nxt
        raise AssertionError("no city on the map")

    def has_circus_demand(self, p: int) -> bool:
        g = self.game
        return any(
            d.load == g.CIRCUS for c in self.hands[p] if c < FIRST_EVENT for d in g.demands[c]
        )

    # -- turns -----------------------------------------------------------------------------

    def _start_turn(self) -> None:
        """Begin the turn of seat ``turn_player()``; lost turns pass by themselves."""
        g = self.game
        n = g.num_players
        while not self.over:
            p = self.turn_player()
            self.moves = self.halved = self.spent = self.from_major = self.upgraded = 0
            self.moves2 = self.halved2 = 0
            self.rented = [0] * n
            self.blocked = []
            if self.offered:
                self.offered = []
            self.traded = 0
            if self.lost[p]:
                self.lost[p] = 0
                if g.cfg.mercy_backtracking:  # a lost turn serves as a backtrack
                    self.prev[p] = -1
                    if self.pos2:
                        self.prev2[p] = -1
                self._end_of_turn(p)
                continue
            if self.t < g.cfg.building_turns * n:
                self.phase = BUILD
                return
            self.phase = OPS
            if self.on_ferry[p] >= 0:
                self.pos[p] = self.on_ferry[p]
                self.on_ferry[p] = -1
                self.prev[p] = -1
                self.moves = g.half[self.train[p]]
                self.halved = 1
            elif self.pos[p] >= 0:
                self._start_moves(p)
            if self.pos2:
                self._start_second(p)
            return

    def _finish_turn(self) -> None:
        p = self.turn_player()
        self._end_of_turn(p)
        self._start_turn()

    def _end_of_turn(self, p: int) -> None:
        """Turn bookkeeping: the victory declaration, event expiry, the round's end."""
        g = self.game
        n = g.num_players
        if self.normal_round() >= 0 and self.cash[p] >= self.target and self.connected(p):
            self.declared[p] = 1
        self.turns_done[p] += 1
        if self.warehouse:  # Field Warehousing: back to the tray after 4 more turns
            for w in [w for w in self.warehouse if w[2] == p and self.turns_done[p] >= w[3]]:
                self.warehouse.remove(w)
                self.chips[w[1]] += 1
        keep = []
        for a in self.active:
            if a[1] == p and a[2] <= self.turns_done[p]:
                self.discard.append(a[0])
                for card, e, o in self.erased:
                    if card == a[0]:
                        self.reserve.append([e, o, self.turns_done[o] + 1])
                self.erased = [x for x in self.erased if x[0] != a[0]]
            else:
                keep.append(a)
        self.active = keep
        self.reserve = [r for r in self.reserve if self.turns_done[r[1]] < r[2]]
        rnd = self.normal_round()
        last_of_round = rnd >= 0 and (self.t - g.cfg.building_turns * n) % n == n - 1
        self.t += 1
        if not last_of_round:
            return
        if any(self.declared):
            cands = [q for q in range(n) if self.declared[q]]
            best = max(self.cash[q] for q in cands)
            top = [q for q in cands if self.cash[q] == best]
            if len(top) == 1:
                self.winners_ = top
                self.over = 1
                self.phase = OVER
                return
            self.target += 50
            self.declared = [0] * n
        clock = g.cfg.time_limit
        if rnd + 1 >= g.cfg.turn_limit or (clock and self.t - g.cfg.building_turns * n >= clock):
            linked = [q for q in range(n) if self.connected(q)]
            pool = linked or list(range(n))
            best = max(self.cash[q] for q in pool)
            self.winners_ = [q for q in pool if self.cash[q] == best]
            self.over = 1
            self.phase = OVER

    def placings(self) -> list[list[int]]:
        """The places, best first (seats sharing a place together): a winner first, then
        "having the required connection takes precedence over having the most money"."""
        n = self.game.num_players

        def key(q: int) -> tuple[bool, bool, int]:
            return (q in self.winners_, self.connected(q), self.cash[q])

        out: list[list[int]] = []
        for q in sorted(range(n), key=lambda q: (key(q), -q), reverse=True):
            if out and key(out[-1][0]) == key(q):
                out[-1].append(q)
            else:
                out.append([q])
        return out

    def connected(self, p: int) -> bool:
        """A continuous line of ``p``'s track joins enough major cities (red areas join)."""
        return self.majors_connected(p) >= self.game.cfg.majors_to_connect

    def track_component(
        self, p: int, starts: Sequence[int], *, join_majors: bool = False
    ) -> set[int]:
        """The mileposts joined to ``starts`` by ``p``'s own track, red areas and ferry lines.

        With ``join_majors`` a major city's mileposts all count as one place (the red area
        joins them), as the victory condition counts connections.
        """
        b = self.game.board
        comp = set(starts)
        stack = list(starts)
        while stack:
            m = stack.pop()
            for d in range(6):
                e = b.eid[m * 6 + d]
                if e >= 0 and (self.edge_owner[e] == p or b.edge_internal[e]):
                    x = b.nb[m * 6 + d]
                    if x not in comp:
                        comp.add(x)
                        stack.append(x)
            k = b.link_at[m]
            if k >= 0 and p in self.link_owners[k]:
                for x in b.links[k].ends:
                    if x not in comp:
                        comp.add(x)
                        stack.append(x)
            if join_majors:
                c = b.city_of[m]
                if c >= 0 and b.city_size[c] == CENTRE:
                    for x in b.city_posts[c]:
                        if x not in comp:
                            comp.add(x)
                            stack.append(x)
        return comp

    def majors_connected(self, p: int) -> int:
        """The most major cities one continuous piece of ``p``'s track connects."""
        b = self.game.board
        net = self.net[p]
        seen: set[int] = set()
        best = 0
        for start_city in b.majors:
            posts = b.city_posts[start_city]
            if not any(m in net for m in posts) or posts[0] in seen:
                continue
            comp = self.track_component(p, posts, join_majors=True)
            seen |= comp
            count = sum(1 for c in b.majors if b.city_posts[c][0] in comp)
            best = max(best, count)
        return best

    def heuristic_values(self) -> list[float]:
        """A judgement of an unfinished game for search agents, one value per seat in (-1, 1).

        Cash alone would teach search never to build: each seat is valued by its net worth
        towards the goal - cash less debts, track at :data:`TRACK_WORTH` million a milepost
        of network, each upgrade at 15 million (20 paid), :data:`MAJOR_WORTH` million a major
        city joined into one network, and half the payment of each load aboard that a demand
        card in hand asks for; the lead over the best rival is squashed by ``tanh(lead / 40)``.

        >>> import motherlode
        >>> motherlode.deal(motherlode.load("eurorails", players=2), seed=1).heuristic_values()
        [0.0, 0.0]
        """
        g = self.game
        n = g.num_players
        worth = []
        for p in range(n):
            w = self.cash[p] - self.debt[p] + TRACK_WORTH * len(self.net[p])
            w += MAJOR_WORTH * self.majors_connected(p)
            trains = [self.train[p]] + ([self.train2[p]] if self.pos2 else [])
            w += sum(UPGRADE_WORTH * (1 if t in (1, 2) else 2 if t == 3 else 0) for t in trains)
            loads = self.loads[p] + (self.loads2[p] if self.pos2 else [])
            if loads:
                asked: dict[int, int] = {}
                for card in self.hands[p]:
                    for d in g.demands.get(card, ()):
                        asked[d.load] = max(asked.get(d.load, 0), d.payment)
                w += sum(0.5 * asked.get(x, 0) for x in loads)
            worth.append(w)
        out = []
        for p, v in enumerate(worth):
            rival = max((x for q, x in enumerate(worth) if q != p), default=0.0)
            out.append(math.tanh((v - rival) / 40.0))
        return out

    # -- results ---------------------------------------------------------------------------

    def scores(self) -> list[float]:
        return [float(c) for c in self.cash]

    def winners(self) -> tuple[Player, ...]:
        if self.over:
            return tuple(self.winners_)
        return super().winners()

    # -- views (rules-side: what a seat may see) --------------------------------------------

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        return observation(self, player)

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        return tensor(self, player)

    def check_invariants(self) -> None:
        """Every card and load chip is accounted for; cash never negative."""
        in_hands = sum(len(h) for h in self.hands)
        cards = len(self.draw) + len(self.discard) + len(self.aside) + in_hands + len(self.active)
        cards += len(self.contracts)
        assert cards == NUM_CARDS, f"{cards} cards accounted for, the game has {NUM_CARDS}"
        every = sorted(
            [
                *self.draw,
                *self.discard,
                *self.aside,
                *self.contracts,
                *(c for h in self.hands for c in h),
                *(a[0] for a in self.active),
            ]
        )
        assert every == list(range(1, NUM_CARDS + 1)), "a card is missing or doubled"
        b = self.game.board
        for x, total in enumerate(b.load_chips):
            held = sum(ld.count(x) for ld in self.loads)
            held += sum(ld.count(x) for ld in self.loads2)
            held += sum(1 for w in self.warehouse if w[1] == x)
            assert self.chips[x] + held == total, f"{b.load_names[x]}: chips do not add up"
        assert all(c >= 0 for c in self.cash), "negative cash"
        for q, ld in enumerate(self.loads):
            assert len(ld) <= b.train_capacity[self.train[q]], "a train over its capacity"
        for q, ld in enumerate(self.loads2):
            assert len(ld) <= b.train_capacity[self.train2[q]], "a train over its capacity"
        g = self.game
        on_trains = sum(ld.count(g.CIRCUS) for ld in (*self.loads, *self.loads2))
        circuses = len(CIRCUS_CITIES) if g.cfg.circus else 0
        assert len(self.circus_at) + on_trains == circuses, "the Circus chips do not add up"


_EMPTY: frozenset[int] = frozenset()

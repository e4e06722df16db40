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

The rules are split by rulebook part, one module each; :class:`EurorailsState` combines them
(``EurorailsState -> TurnRules -> SecondTrainRules, BuildingRules, TradingRules,
VictoryRules -> ...``):

========================  ==================================================================
module                    rulebook part
========================  ==================================================================
:mod:`.config`            the options: player count, length, the optional and variant rules
:mod:`.base`              the action-id layout and tables; the state's fields and copying
:mod:`.building`          Building Railroads: track, terrain costs, city limits, the 20 M
                          limit, upgrades (and Crossgrading)
:mod:`.blocking`          the blocking rule (no track that blocks a player's connection)
:mod:`.movement`          Running the Train: moves, reversing, ferries, the Chunnel, rent
:mod:`.loads`             Hauling Freight: loads and deliveries
:mod:`.events`            Event Card Effects, Losing Turns
:mod:`.victory`           How to Win: the connection, placings, scores, the heuristic
:mod:`.trading`           Challenge Game: Selling and Trading Track
:mod:`.second`            Challenge Game: Additional Trains
:mod:`.turns`             How to Play: phases, turn order, cards, legal actions, dispatch
:mod:`.observe`           what a seat sees (the observation and its tensor)
========================  ==================================================================

The notation (:mod:`.notation`), the boards (:mod:`.render`), the bot (:mod:`.bot`) and the
CLI commands (:mod:`.commands`) are built on the rules and wired to them by the package's
``__init__``; this module imports none of them.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from motherlode.core.protocol import CHANCE, TERMINAL, GameConfig, Player
from motherlode.games.eurorails.base import GameBase
from motherlode.games.eurorails.config import EurorailsConfig
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
from motherlode.games.eurorails.observe import (
    observation,
    tensor,
    tensor_bounds,
    tensor_layout,
    tensor_size,
)
from motherlode.games.eurorails.turns import TurnRules

__all__ = [
    "BUILD",
    "CHANCE",
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
    "TERMINAL",
    "TRACK_WORTH",
    "UPGRADE_WORTH",
    "EurorailsConfig",
    "EurorailsGame",
    "EurorailsState",
]


class EurorailsGame(GameBase):
    """Eurorails, base game and the optional rules (config).

    >>> game = EurorailsGame.from_config(players=3)
    >>> game.num_players, game.board.n
    (3, 2084)
    """

    name: ClassVar[str] = "eurorails"
    Config: ClassVar[type[GameConfig]] = EurorailsConfig
    rules_version: ClassVar[int] = 2
    notation_version: ClassVar[int] = 2
    """2: mileposts by name (``build Paris-NE>AC18``, ``move Lyon``, :mod:`.places`);
    version 1's milepost numbers (``build 878>924 (Paris)``) are still read."""
    rules_changes: ClassVar[dict[int, str]] = {
        2: "Eurorails, Running the Train: a train reverses direction only in a city (including"
        " all major city mileposts), no longer at a junction, where it may only take another"
        " branch",
    }
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

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

    def observation_layout(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """The tensor's named slices (see :func:`.observe.tensor_layout`)."""
        return tensor_layout(self)

    def observation_bounds(self) -> dict[str, tuple[Any, Any]]:
        """Each slice's ``(low, high)`` (see :func:`.observe.tensor_bounds`)."""
        return tensor_bounds(self)

    def new_initial_state(self) -> EurorailsState:
        return EurorailsState(self)


class EurorailsState(TurnRules):
    """A Eurorails position (see the module docstring for the action ids and the parts)."""

    game: EurorailsGame

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

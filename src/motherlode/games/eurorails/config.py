"""Eurorails options: the player count, the game's length, and the optional and variant rules
(docs/rules/eurorails.md, part 2, "Optional and variant rules"), all off by default.
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field, model_validator

from motherlode.core.protocol import GameConfig


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

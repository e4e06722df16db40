"""Eurorails' observation and tensor, cell by cell, for positions set up by hand.

The tensor's layout (``eurorails/observe.py`` ``tensor``), for ``n`` seats and ``M``
mileposts: per milepost ``m`` the ``2n + 1`` cells at ``m * (2n + 1)``: the track of each
seat, the train of each seat (a second train shares its seat's), bad weather. Then per seat
58 cells: cash / 100 (0 when hidden), cash visible, train type (4), loads (32, a count
each), loses a turn, declared, then the first 9 demands (load + 1) / 32 and payment / 100
when the hand is visible. Then the 22 events (card - 147), the 29 load chips / 4 (32
cells), the seat to move (``n``), the phase (4). The variants append: track trading (the
seller ``n``, the stage 3, the price / 100, bought this turn, then per milepost the ends of
segments taken and given); Additional Trains (per seat the second train's type 4 and its
loads 32); four demand cards (per seat the 4th card's 3 demands, when visible).

Every test compares the whole tensor: the cells that are not zero, each worked out from the
position below and the printed cards, and every other cell zero. The cells are written in
seat order (P1's first); the tensor is observer first (slot ``k`` is seat ``(seat + k) %
n``), so :func:`absolute` turns it back to seat order before comparing.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

from motherlode.games.eurorails.game import EurorailsGame, EurorailsState
from motherlode.research.layout import layout
from tests.eurorails.helpers import dealt, lay, place, place2, set_turn

# the printed demand cards dealt below: card -> (load, payment) x 3 (cities do not reach
# the tensor); load numbers: the alphabetical order of the 29 loads
STEEL, CORK, POTATOES, TOBACCO, MARBLE, IMPORTS, WOOD, CATTLE = 23, 9, 21, 24, 18, 14, 28, 3
CHINA, COPPER, CARS, SHEEP, OIL, FLOWERS, WINE, MACHINERY, COAL, BAUXITE = (
    5,
    8,
    2,
    22,
    19,
    11,
    27,
    17,
    7,
    0,
)
CARDS = {
    1: [(STEEL, 26), (CORK, 75), (POTATOES, 10)],
    2: [(TOBACCO, 29), (MARBLE, 50), (CORK, 36)],
    3: [(IMPORTS, 46), (WOOD, 53), (CATTLE, 5)],
    4: [(CHINA, 17), (COPPER, 10), (CARS, 22)],
    5: [(CARS, 10), (SHEEP, 34), (CORK, 47)],
    6: [(OIL, 18), (FLOWERS, 7), (MARBLE, 38)],
    7: [(WINE, 25), (POTATOES, 42), (SHEEP, 8)],
    8: [(MACHINERY, 17), (COAL, 30), (BAUXITE, 33)],
}
SEAT = 58  # cells per seat
MOVE = 2  # the phase "move" (deal, build, move, over)


@functools.cache
def _game(players: int, options: tuple[tuple[str, object], ...]) -> EurorailsGame:
    return EurorailsGame.from_config(players=players, **dict(options))


def game(players: int = 2, **options: object) -> EurorailsGame:
    """A game of this config, made once (a game is read-only; making one takes 0.3 s)."""
    return _game(players, tuple(sorted(options.items())))


def standard(players: int = 2, **options: object) -> EurorailsState:
    """Cards 1-3 dealt to P1, 4-6 to P2, and so on."""
    return dealt(
        game(players, **options), [[3 * q + 1, 3 * q + 2, 3 * q + 3] for q in range(players)]
    )


def absolute(s: EurorailsState, seat: int | None) -> np.ndarray:
    """``seat``'s tensor with its seat slots put back in seat order (P1 first)."""
    t = s.observation_tensor(seat)
    n = s.game.num_players
    me = 0 if seat is None else seat
    rows = [(q - me) % n for q in range(n)]  # seat q's slot
    perm = np.arange(t.size)
    for part in layout(s.game).values():
        view = part.view(perm)  # a reshaped view: writes go to perm
        if part.name == "mileposts":
            view[:, :n], view[:, n : 2 * n] = view[:, rows].copy(), view[:, n : 2 * n][:, rows]
        elif part.name in ("players", "to_move", "second_trains", "fourth_card"):
            view[...] = view[rows].copy()
        elif part.name == "offer":
            view[:n] = view[rows].copy()
    return t[perm]


def nonzero(t: np.ndarray) -> dict[int, float]:
    return {int(i): float(t[i]) for i in np.flatnonzero(t)}


def demands(base: int, cards: list[int]) -> dict[int, float]:
    """The demand cells of a visible hand: (load + 1) / 32 and payment / 100, 9 at most."""
    out: dict[int, float] = {}
    pairs = [d for c in cards for d in CARDS[c]][:9]
    for k, (load, pay) in enumerate(pairs):
        out[base + 40 + 2 * k] = (load + 1) / 32
        out[base + 41 + 2 * k] = pay / 100
    return out


def assert_cells(t: np.ndarray, expected: dict[int, float]) -> None:
    assert t.dtype == np.float32
    got = nonzero(t)
    assert sorted(got) == sorted(expected)
    assert got == pytest.approx(expected)


def tail(s: EurorailsState) -> int:
    """The first cell after the seats: the events."""
    n = s.game.num_players
    return s.game.board.n * (2 * n + 1) + n * SEAT


def chips(s: EurorailsState, base: int) -> dict[int, float]:
    return {base + x: c / 4 for x, c in enumerate(s.chips) if c}


def base_position() -> EurorailsState:
    """Two seats: P1's track 100-101-102 and train at Berlin (city 0), two Steel, declared;
    P2's track 300-301 and a Heavy Freight at milepost 0, a Cork, loses its next turn and
    must drop a load; cash 50 and 73;
    the Teamsters strike (147) till P2's turn 10, the Irish boom (168) till used; P2 moves.
    """
    s = standard(2)
    b = s.game.board
    lay(s, 0, [100, 101, 102])
    lay(s, 1, [300, 301])
    place(s, 0, b.city_centre[0])
    place(s, 1, 0)
    s.loads = [[STEEL, STEEL], [CORK]]
    s.chips[STEEL] -= 2
    s.chips[CORK] -= 1
    s.lost = [0, 1]
    s.declared = [1, 0]
    s.cash = [50, 73]
    s.train = [0, 2]  # P2 has upgraded to a Heavy Freight
    s.turns_done = [3, 2]
    s.active = [[147, 1, 10], [168, 0, 1 << 29]]
    s.discard = [7, 8]
    s.pending = [1]  # P2 (to move) must drop a load
    s.link_owners[0] = [0]  # P1 owns the Belfast-Stranraer ferry
    set_turn(s, 1)
    return s


def base_cells(s: EurorailsState, cash: tuple[bool, bool]) -> dict[int, float]:
    """The cells of ``base_position`` with each seat's cash shown or not (hands open)."""
    berlin = s.game.board.city_centre[0]
    out = {100 * 5: 1.0, 101 * 5: 1.0, 102 * 5: 1.0, 300 * 5 + 1: 1.0, 301 * 5 + 1: 1.0}
    out |= {berlin * 5 + 2: 1.0, 0 * 5 + 3: 1.0}
    p1, p2 = s.game.board.n * 5, s.game.board.n * 5 + SEAT
    if cash[0]:
        out |= {p1: 0.5, p1 + 1: 1.0}
    if cash[1]:
        out |= {p2: 0.73, p2 + 1: 1.0}
    out |= {p1 + 2: 1.0, p1 + 6 + STEEL: 2.0, p1 + 39: 1.0} | demands(p1, [1, 2, 3])
    out |= {p2 + 2 + 2: 1.0, p2 + 6 + CORK: 1.0, p2 + 38: 1.0} | demands(p2, [4, 5, 6])
    e = tail(s)
    out |= {e + 0: 1.0, e + 21: 1.0} | chips(s, e + 22)
    out |= {e + 22 + 32 + 1: 1.0, e + 22 + 32 + 2 + MOVE: 1.0}
    return out


def test_the_base_layout_is_the_documented_size() -> None:
    s = standard(2)
    assert absolute(s, 0).shape == (2084 * 5 + 2 * SEAT + 22 + 32 + 2 + 4,)
    s3 = standard(3)
    assert absolute(s3, None).shape == (2084 * 7 + 3 * SEAT + 22 + 32 + 3 + 4,)


@pytest.mark.parametrize(
    ("seat", "cash"), [(0, (True, False)), (1, (False, True)), (None, (False, False))]
)
def test_base_position_cell_by_cell(seat: int | None, cash: tuple[bool, bool]) -> None:
    s = base_position()
    assert_cells(absolute(s, seat), base_cells(s, cash))


def test_public_cash_shows_every_seats_cash() -> None:
    s = base_position()
    s.cash_public = 1
    for seat in (0, 1, None):
        assert_cells(absolute(s, seat), base_cells(s, (True, True)))


def test_public_cash_in_the_observation() -> None:
    # once an Excess Profits Tax card has appeared every seat's cash is public
    s = base_position()
    assert [p["cash"] for p in s.observation(0)["players"]] == [50, None]
    s.cash_public = 1
    for seat in (0, 1, None):
        obs = s.observation(seat)
        assert obs["cash_public"] is True
        assert [p["cash"] for p in obs["players"]] == [50, 73]


def test_milepost_zero_is_no_city_and_no_ferry_port() -> None:
    # why "at milepost >= 0" and "on a ferry to >= 0" cannot be told from "> 0" in the
    # observation (docs/testing.md's survivors): milepost 0 is open country, no port
    b = standard(2).game.board
    assert b.city_of[0] == -1
    assert min(min(link.ends) for link in b.links) == 149


def test_the_seat_to_move_is_p1_and_none_at_a_chance_node() -> None:
    s = base_position()
    s.pending = []
    set_turn(s, 0)
    cells = base_cells(s, (True, False))
    e = tail(s)
    del cells[e + 22 + 32 + 1]
    assert_cells(absolute(s, 0), cells | {e + 22 + 32: 1.0})
    fresh = game(2).new_initial_state()  # the deal: a chance node, phase "deal"
    e = tail(fresh)
    assert_cells(
        fresh.observation_tensor(0),
        {e + 0 + 22 + x: c / 4 for x, c in enumerate(fresh.chips) if c}
        | {
            e + 22 + 32 + 2 + 0: 1.0,
            fresh.game.board.n * 5 + 1: 1.0,
            fresh.game.board.n * 5: 0.5,
            fresh.game.board.n * 5 + 2: 1.0,
            fresh.game.board.n * 5 + SEAT + 2: 1.0,
        },
    )


def test_hidden_hands_show_only_the_seats_own() -> None:
    g = game(2, open_hands=False)
    s = dealt(g, [[1, 2, 3], [4, 5, 6]])
    set_turn(s, 0)
    p1, p2 = g.board.n * 5, g.board.n * 5 + SEAT
    e = tail(s)
    common = {p1 + 2: 1.0, p2 + 2: 1.0} | chips(s, e + 22) | {e + 54: 1.0, e + 56 + MOVE: 1.0}
    assert_cells(absolute(s, 0), common | {p1: 0.5, p1 + 1: 1.0} | demands(p1, [1, 2, 3]))
    assert_cells(absolute(s, 1), common | {p2: 0.5, p2 + 1: 1.0} | demands(p2, [4, 5, 6]))
    assert_cells(absolute(s, None), common)
    obs = s.observation(0)
    assert [p["hand"] for p in obs["players"]] == [[card_view(s, c) for c in (1, 2, 3)], None]
    assert [p["hand_size"] for p in obs["players"]] == [3, 3]
    assert [p["hand"] for p in s.observation(None)["players"]] == [None, None]


def test_hands_of_more_than_nine_demands_encode_the_first_nine() -> None:
    s = base_position()
    three = absolute(s, 0)
    s.hands[0] = [1, 2, 3, 4]  # the Fast Game's deal: more than 3 cards for a while
    assert_cells(absolute(s, 0), nonzero(three))


def test_the_weather_plane_under_fog() -> None:
    s = base_position()
    s.active = [[155, 1, 10]]  # Fog: Frankfurt, its printed area (the game's data)
    area = sorted(s.game.areas[155])
    assert len(area) == 61
    e = tail(s)
    cells = {k: v for k, v in base_cells(s, (True, False)).items() if k not in (e, e + 21)}
    assert_cells(absolute(s, 0), cells | {e + 8: 1.0} | {m * 5 + 4: 1.0 for m in area})


# -- the variants ----------------------------------------------------------------------


def trading_position() -> EurorailsState:
    """Track trading, two seats: P1 (to move) buys P2's 300-301, gives its 100-101, for 7."""
    s = standard(2, challenge_track_trading=True)
    lay(s, 0, [100, 101])
    lay(s, 1, [300, 301])
    set_turn(s, 0)
    b = s.game.board
    s.offer = [1, 2, 7]  # seller P2, "proposed", price 7
    s.offer_take = [b.eid[300 * 6 + d] for d in range(6) if b.nb[300 * 6 + d] == 301]
    s.offer_give = [b.eid[100 * 6 + d] for d in range(6) if b.nb[100 * 6 + d] == 101]
    s.traded = 1
    return s


def test_track_trading_cells() -> None:
    s = trading_position()
    n = 2
    p1, p2 = s.game.board.n * 5, s.game.board.n * 5 + SEAT
    e = tail(s)
    o = e + 22 + 32 + n + 4
    expected = {100 * 5: 1.0, 101 * 5: 1.0, 300 * 5 + 1: 1.0, 301 * 5 + 1: 1.0}
    expected |= {p1: 0.5, p1 + 1: 1.0, p1 + 2: 1.0, p2 + 2: 1.0}
    expected |= demands(p1, [1, 2, 3]) | demands(p2, [4, 5, 6]) | chips(s, e + 22)
    expected |= {e + 55: 1.0, e + 56 + MOVE: 1.0}  # the seller answers the proposal
    expected |= {o + 1: 1.0, o + n + 2: 1.0, o + n + 3: 0.07, o + n + 4: 1.0}
    m = o + n + 5
    expected |= {m + 2 * 300: 1.0, m + 2 * 301: 1.0, m + 2 * 100 + 1: 1.0, m + 2 * 101 + 1: 1.0}
    t = absolute(s, 0)
    assert t.shape == (m + 2 * s.game.board.n,)
    assert_cells(t, expected)
    # no offer: only "bought" is left of the trade cells, and the buyer, P1, moves
    s.offer, s.offer_take, s.offer_give = [], [], []
    rest = {k: v for k, v in expected.items() if k < o or k == o + n + 4}
    del rest[e + 55]
    assert_cells(absolute(s, 0), rest | {e + 54: 1.0})


def test_additional_trains_cells() -> None:
    s = standard(2, challenge_additional_trains=True)
    b = s.game.board
    place(s, 0, 5)
    place2(s, 0, 0)  # P1's second train at milepost 0
    place2(s, 1, b.city_centre[0])  # P2's at Berlin
    s.train2 = [1, 3]  # Fast Freight and Super Freight
    s.loads2 = [[WOOD, WOOD], [OIL]]
    s.chips[WOOD] -= 2
    s.chips[OIL] -= 1
    set_turn(s, 1)
    p1, p2 = b.n * 5, b.n * 5 + SEAT
    e = tail(s)
    o = e + 22 + 32 + 2 + 4
    expected = {5 * 5 + 2: 1.0, 0 * 5 + 2: 1.0, b.city_centre[0] * 5 + 3: 1.0}
    expected |= {p1 + 2: 1.0, p2 + 2: 1.0}
    expected |= {p2: 0.5, p2 + 1: 1.0}
    expected |= demands(p1, [1, 2, 3]) | demands(p2, [4, 5, 6]) | chips(s, e + 22)
    expected |= {e + 55: 1.0, e + 56 + MOVE: 1.0}
    expected |= {o + 1: 1.0, o + 4 + WOOD: 2.0, o + 36 + 3: 1.0, o + 36 + 4 + OIL: 1.0}
    t = absolute(s, 1)
    assert t.shape == (o + 72,)
    assert_cells(t, expected)


def test_the_fourth_card_is_encoded_apart_and_hidden_like_the_hand() -> None:
    g = game(2, four_demand_cards=True, open_hands=False)
    s = dealt(g, [[1, 2, 3, 4], [5, 6, 7, 8]])
    set_turn(s, 0)
    s.hands[1] = [5, 6, 7]  # P2 has delivered from one card and holds three
    b = g.board
    p1, p2 = b.n * 5, b.n * 5 + SEAT
    e = tail(s)
    o = e + 22 + 32 + 2 + 4
    common = {p1 + 2: 1.0, p2 + 2: 1.0} | chips(s, e + 22) | {e + 54: 1.0, e + 56 + MOVE: 1.0}
    fourth = {
        o + 2 * k + j: v
        for k, (load, pay) in enumerate(CARDS[4])
        for j, v in ((0, (load + 1) / 32), (1, pay / 100))
    }
    t = absolute(s, 0)
    assert t.shape == (o + 12,)
    assert_cells(t, common | {p1: 0.5, p1 + 1: 1.0} | demands(p1, [1, 2, 3]) | fourth)
    assert_cells(absolute(s, 1), common | {p2: 0.5, p2 + 1: 1.0} | demands(p2, [5, 6, 7]))
    assert_cells(absolute(s, None), common)
    s.hands[1] = [5, 6, 7, 8]
    fourth2 = {
        o + 6 + 2 * k + j: v
        for k, (load, pay) in enumerate(CARDS[8])
        for j, v in ((0, (load + 1) / 32), (1, pay / 100))
    }
    assert_cells(
        absolute(s, 1),
        common | {p2: 0.5, p2 + 1: 1.0} | demands(p2, [5, 6, 7]) | fourth2,
    )


# -- the observation ---------------------------------------------------------------------


def card_view(s: EurorailsState, card: int) -> dict[str, Any]:
    g = s.game
    return {
        "card": card,
        "demands": [
            {"load": g.load_names[d.load], "city": g.board.city_names[d.city], "payment": d.payment}
            for d in g.demands[card]
        ],
    }


def test_base_position_observation_whole() -> None:
    s = base_position()
    g = s.game
    legal = [s.action_to_string(a) for a in s.legal_actions()]
    assert legal
    for seat in (0, 1, None):
        obs = s.observation(seat)
        players = [
            {
                "seat": 0,
                "colour": "red",
                "cash": 50 if seat == 0 else None,
                "train": "Freight",
                "at": "Berlin",  # b.city_centre[0], named (issue 22)
                "at_city": "Berlin",
                "on_ferry_to": None,
                "loads": ["Steel", "Steel"],
                "hand": [card_view(s, c) for c in (1, 2, 3)],
                "hand_size": 3,
                "track": ["AO7>AP7>AQ7"],  # mileposts 100-101-102 as one run
                "segments": 2,
                "links": ["Belfast-Stranraer"],
                "majors_connected": 0,
                "turns": 3,
                "loses_next_turn": False,
                "declared": True,
            },
            {
                "seat": 1,
                "colour": "blue",
                "cash": 73 if seat == 1 else None,
                "train": "Heavy Freight",
                "at": "AN1",  # milepost 0
                "at_city": None,
                "on_ferry_to": None,
                "loads": ["Cork"],
                "hand": [card_view(s, c) for c in (4, 5, 6)],
                "hand_size": 3,
                "track": ["K20>L20"],  # mileposts 300-301
                "segments": 1,
                "links": [],
                "majors_connected": 0,
                "turns": 2,
                "loses_next_turn": True,
                "declared": False,
            },
        ]
        assert obs == {
            "game": "eurorails",
            "seat": seat,
            "to_move": 1,
            "turn_player": 1,
            "phase": "move",
            "round": s.normal_round(),
            "first_player": 0,
            "target_cash": 250,
            "cash_public": False,
            "players": players,
            "moves_left": s.moves,
            "spent_this_turn": 0,
            "events": [
                {
                    "card": 147,
                    "title": "Teamsters strike",
                    "drawn_by": 1,
                    "until": "end of P2's turn 10",
                },
                {"card": 168, "title": "Irish economy booming", "drawn_by": 0, "until": "used"},
            ],
            "chips": {g.load_names[x]: c for x, c in enumerate(s.chips)},
            "draw_pile": len(s.draw),
            "discard_pile": [7, 8],
            "pending_load_loss": [1],
            "legal": legal if seat == 1 else [],
            "terminal": False,
            "winners": None,
        }


def test_an_event_until_the_turn_before_used_is_not_used() -> None:
    s = base_position()
    s.active = [[147, 0, (1 << 29) - 1]]
    assert s.observation(0)["events"][0]["until"] == f"end of P1's turn {(1 << 29) - 1}"


def test_the_deal_has_no_turn_player_and_a_seat_at_city_zero_is_there() -> None:
    s = game(2).new_initial_state()
    obs = s.observation(0)
    assert obs["phase"] == "deal" and obs["turn_player"] is None and obs["legal"] == []
    assert [p["hand"] for p in obs["players"]] == [[], []]


def test_terminal_observation_names_the_winners() -> None:
    s = base_position()
    s.over = 1
    s.winners_ = [1]
    obs = s.observation(1)
    assert (obs["terminal"], obs["winners"], obs["legal"]) == (True, [1], [])
    assert "places" not in obs


def test_second_trains_in_the_observation() -> None:
    s = standard(2, challenge_additional_trains=True)
    b = s.game.board
    place(s, 0, 5)
    place2(s, 0, 0)
    place2(s, 1, b.city_centre[0])
    s.on_ferry2 = [-1, 149]
    s.train2 = [1, 3]
    s.loads2 = [[WOOD, WOOD], []]
    set_turn(s, 0)
    obs = s.observation(0)
    assert [p["second_train"] for p in obs["players"]] == [
        {
            "train": "Fast Freight",
            "at": "AN1",  # milepost 0
            "at_city": None,
            "on_ferry_to": None,
            "loads": ["Wood", "Wood"],
        },
        {
            "train": "Super Freight",
            "at": "Berlin",
            "at_city": "Berlin",
            "on_ferry_to": "AK10",  # port 149
            "loads": [],
        },
    ]
    assert obs["moves_left_2"] == s.moves2
    assert "second_train" not in standard(2).observation(0)["players"][0]
    assert "moves_left_2" not in standard(2).observation(0)


def test_a_train_on_a_ferry_and_one_off_the_map() -> None:
    s = base_position()
    s.on_ferry[0] = 149
    s.pos[1] = -1  # not yet placed
    players = s.observation(0)["players"]
    # port 149 is AK10; a train not placed is at no place
    on_ferry, at, at_city = players[0]["on_ferry_to"], players[1]["at"], players[1]["at_city"]
    assert (on_ferry, at, at_city) == ("AK10", None, None)


def test_the_variants_keys() -> None:
    s = standard(
        2,
        circus=True,
        mercy_borrowing=True,
        mercy_late_payment=True,
        challenge_field_warehousing=True,
        challenge_open_contracts=True,
    )
    b, g = s.game.board, s.game
    s.debt = [4, 0]
    s.late = [[0, 2, 1]]
    s.warehouse = [[0, STEEL, 1, 5]]
    s.contracts = [6]
    obs = s.observation(None)
    assert obs["circus_at"] == [b.city_names[c] for c in s.circus_at] and obs["circus_at"]
    assert obs["debt"] == [4, 0]
    assert obs["late_fees"] == [[0, 2, 1]]
    assert obs["warehouse"] == [{"city": "Berlin", "load": "Steel", "dropped_by": 1}]
    assert obs["contracts"] == [card_view(s, 6)]
    plain = standard(2).observation(None)
    for key in ("circus_at", "debt", "late_fees", "warehouse", "contracts", "trade", "places"):
        assert key not in plain
    assert g.cfg.circus


def test_the_trade_key() -> None:
    s = trading_position()
    assert s.observation(0)["trade"] == {
        "offer": {
            "buyer": 0,
            "seller": 1,
            "take": ["K20>L20"],  # mileposts 300-301
            "give": ["AO7>AP7"],  # mileposts 100-101
            "price": 7,
            "stage": "proposed",
        },
        "offered_this_turn": [],
        "bought": True,
    }
    s.offer[1] = 0  # still being composed: no price named yet
    assert s.observation(0)["trade"]["offer"]["price"] is None
    s.offer, s.traded, s.offered = [], 0, [1]
    assert s.observation(0)["trade"] == {"offer": None, "offered_this_turn": [1], "bought": False}


def test_a_time_limit_game_over_shows_the_places() -> None:
    s = standard(2, time_limit=30)
    s.over = 1
    s.winners_ = [0]
    obs = s.observation(None)
    assert obs["places"] == [[0], [1]]  # "a winner first" (victory.py placings), then P2
    assert (obs["terminal"], obs["winners"], obs["to_move"]) == (True, [0], -4)
    s.over = 0
    assert "places" not in s.observation(None)


def test_the_three_variant_blocks_follow_each_other() -> None:
    # track trading, then the second trains, then the fourth cards: each block at its offset
    g = game(
        2, challenge_track_trading=True, challenge_additional_trains=True, four_demand_cards=True
    )
    s = dealt(g, [[1, 2, 3, 4], [5, 6, 7, 8]])
    set_turn(s, 0)
    s.traded = 1
    s.loads2 = [[], [BAUXITE]]
    s.chips[BAUXITE] -= 1
    b = g.board
    p1, p2 = b.n * 5, b.n * 5 + SEAT
    e = tail(s)
    trade = e + 22 + 32 + 2 + 4
    trains = trade + 2 + 5 + 2 * b.n
    fourth = trains + 2 * 36
    expected = {p1: 0.5, p1 + 1: 1.0, p1 + 2: 1.0, p2 + 2: 1.0}
    expected |= demands(p1, [1, 2, 3]) | demands(p2, [5, 6, 7]) | chips(s, e + 22)
    expected |= {e + 54: 1.0, e + 56 + MOVE: 1.0, trade + 2 + 4: 1.0}
    expected |= {trains + 1: 1.0, trains + 36 + 1: 1.0, trains + 36 + 4 + BAUXITE: 1.0}
    for q, card in ((0, 4), (1, 8)):
        for k, (load, pay) in enumerate(CARDS[card]):
            expected |= {
                fourth + 6 * q + 2 * k: (load + 1) / 32,
                fourth + 6 * q + 2 * k + 1: pay / 100,
            }
    t = absolute(s, 0)
    assert t.shape == (fourth + 12,)
    assert_cells(t, expected)

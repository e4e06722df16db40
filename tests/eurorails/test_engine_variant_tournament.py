"""Special Tournament Rule — Time Limits: config ``time_limit`` (normal turns; 0: none).
"Once time has expired, play continues for one last round (so all players get an equal
number of turns). The player who has a continuous line of track that connects the required
major cities, and who has the most cash on hand, is the winner. If no player's track
connects enough major cities, the player with the most cash wins. If the tournament awards
second or third place, then having the required connection takes precedence over having the
most money for those positions as well." """

from __future__ import annotations

import itertools

from tests.eurorails.helpers import city, lay, path, set_turn, standard

from motherlode.games.eurorails.game import EurorailsState


def _connect_seven(s: EurorailsState, p: int) -> None:
    b = s.game.board
    names = ["Paris", "Holland", "Ruhr", "Berlin", "Wien", "Milano", "Madrid"]
    for a, c in itertools.pairwise(names):
        lay(s, p, path(b, city(s, a), city(s, c)))


def _pass(s: EurorailsState) -> None:
    s.apply_string("end move")
    s.apply_string("end turn")


def _ready(**options: object) -> EurorailsState:
    s = standard(3, **options)
    _connect_seven(s, 2)
    s.cash = [200, 150, 100]
    s.pos = [city(s, "Paris")] * 3
    set_turn(s, s.first)
    return s


def test_time_limit_mid_round_plays_the_round_out_then_places_connection_first() -> None:
    s = _ready(time_limit=4)
    for turn in range(1, 7):
        assert not s.is_terminal(), f"turn {turn} is played"
        _pass(s)
    # the 4th normal turn fell in the second round: that round was completed (6 turns)
    assert s.is_terminal() and s.turns_done == [2, 2, 2]
    assert s.winners() == (2,)
    assert s.placings() == [[2], [0], [1]]
    assert s.observation(None)["places"] == [[2], [0], [1]]


def test_time_limit_at_a_round_end_ends_with_that_round() -> None:
    s = _ready(time_limit=3)
    for _ in range(3):
        _pass(s)
    assert s.is_terminal() and s.winners() == (2,)


def test_time_limit_nobody_connected_most_cash_wins_ties_share_a_place() -> None:
    s = standard(3, time_limit=3)
    s.cash = [120, 150, 120]
    s.pos = [city(s, "Paris")] * 3
    set_turn(s, s.first)
    for _ in range(3):
        _pass(s)
    assert s.is_terminal() and s.winners() == (1,)
    assert s.placings() == [[1], [0, 2]]


def test_a_victory_before_the_time_limit_wins_and_comes_first() -> None:
    s = _ready(time_limit=30)
    s.cash[2] = 260
    for _ in range(3):
        _pass(s)
    assert s.is_terminal() and s.winners() == (2,)
    assert s.placings()[0] == [2]


def test_no_time_limit_by_default() -> None:
    s = _ready()
    for _ in range(6):
        _pass(s)
    assert not s.is_terminal()
    assert "places" not in s.observation(None)

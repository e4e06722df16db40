"""Crossgrading (rulebook, Empire Builder Series Variations): config ``crossgrading=True``.
"A player may crossgrade from a fast freight to a heavy freight, or vice versa, for 5
million. When a player crossgrades, he may also spend up to 15 million to build track in the
same turn. There is no limit to the number of times a player may crossgrade. Money spent on
crossgrading does not count towards the upgrade to a superfreight." """

from __future__ import annotations

import itertools

import pytest
from tests.eurorails.helpers import BUILD, city, legal_strings, path, set_turn, standard

from motherlode.core.errors import IllegalActionError
from motherlode.games.eurorails.game import EurorailsState

FAST, HEAVY, SUPER = 1, 2, 3


def _ready(train: int, cash: int = 50) -> EurorailsState:
    s = standard(2, crossgrading=True)
    s.train[0] = train
    s.cash[0] = cash
    set_turn(s, 0, BUILD)
    return s


def test_crossgrade_fast_to_heavy_for_5_then_15_of_track() -> None:
    s = _ready(FAST)
    strings = legal_strings(s)
    assert "crossgrade Heavy Freight" in strings and "upgrade Super Freight" in strings
    s.apply_string("crossgrade Heavy Freight")
    assert s.train[0] == HEAVY and s.cash[0] == 45 and s.turn_player() == 0
    assert s.phase == BUILD, "the turn goes on: building follows"
    strings = legal_strings(s)
    assert not any(x.startswith(("upgrade", "crossgrade")) for x in strings)
    # 15 million of track: build along a line of clear mileposts from Paris
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Berlin"), avoid_cities=True)
    spent = 0
    for x, y in itertools.pairwise(route):
        d = [b.nb[x * 6 + k] for k in range(6)].index(y)
        e = b.eid[x * 6 + d]
        if b.edge_internal[e]:
            continue
        cost = s.build_cost(0, x, d)
        if spent + cost > 15:
            assert x * 6 + d not in s.legal_actions()
            break
        s.apply_action(x * 6 + d)
        spent += cost
    assert s.spent == 5 + spent and 12 <= spent <= 15 and s.cash[0] == 45 - spent


def test_crossgrade_heavy_to_fast_and_back_no_limit_across_turns() -> None:
    s = _ready(HEAVY)
    s.apply_string("crossgrade Fast Freight")
    assert s.train[0] == FAST and s.cash[0] == 45
    with pytest.raises(IllegalActionError, match="one upgrade or crossgrade a turn"):
        s.apply_string("crossgrade Heavy Freight")
    set_turn(s, 0, BUILD)
    s.apply_string("crossgrade Heavy Freight")
    assert s.train[0] == HEAVY and s.cash[0] == 40


def test_crossgrade_only_with_15_or_less_spent_and_5_in_cash() -> None:
    s = _ready(FAST)
    s.spent = 16
    assert "at most 15 for track" in (s.crossgrade_refusal(0) or "")
    s.spent = 15
    assert s.crossgrade_refusal(0) is None
    s.spent = 0
    s.cash[0] = 4
    assert "costs 5" in (s.crossgrade_refusal(0) or "")


def test_crossgrade_heavy_to_fast_needs_room_for_the_loads() -> None:
    s = _ready(HEAVY)
    s.loads[0] = [0, 1, 2]
    s.chips[0] -= 1
    s.chips[1] -= 1
    s.chips[2] -= 1
    assert "drop a load first" in (s.crossgrade_refusal(0) or "")
    assert "crossgrade Fast Freight" not in legal_strings(s)


def test_crossgrading_does_not_count_towards_the_super_freight() -> None:
    s = _ready(FAST)
    s.apply_string("crossgrade Heavy Freight")
    with pytest.raises(IllegalActionError):
        s.apply_string("upgrade Super Freight")
    set_turn(s, 0, BUILD)
    s.apply_string("upgrade Super Freight")
    assert s.train[0] == SUPER and s.cash[0] == 45 - 20


def test_no_crossgrading_by_default_nor_for_freight_or_super() -> None:
    s = standard(2)
    s.train[0] = FAST
    set_turn(s, 0, BUILD)
    assert "upgrade Heavy Freight" not in legal_strings(s)
    assert not any(x.startswith("crossgrade") for x in legal_strings(s))
    for t in (0, SUPER):
        s2 = _ready(t)
        assert not any(x.startswith("crossgrade") for x in legal_strings(s2))

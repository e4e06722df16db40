"""Scenario tests of the Eurorails engine, one or more per rule sentence of the rulebook,
named after its sections (../shared/rulebooks/eurorails.txt)."""

from __future__ import annotations

import itertools

import pytest
from tests.eurorails.helpers import (
    build_action,
    city,
    dealt,
    draw,
    game,
    lay,
    legal_strings,
    nm,
    path,
    place,
    set_turn,
    standard,
)

from motherlode.core.errors import ConfigError, IllegalActionError, RecordError
from motherlode.core.records import GameRecord, replay
from motherlode.games.eurorails.board import ALPINE, CLEAR, MEDIUM, MOUNTAIN, SMALL
from motherlode.games.eurorails.game import BUILD, CHANCE, OPS, EurorailsState

# -- Preparation -------------------------------------------------------------------------


def test_preparation_cash_train_and_three_demand_cards() -> None:
    s = standard(3)
    assert s.cash == [50, 50, 50]
    assert s.train == [0, 0, 0]
    assert all(len(h) == 3 for h in s.hands)
    assert s.game.board.train_names[0] == "Freight"


def test_preparation_event_cards_dealt_are_replaced_then_shuffled_back() -> None:
    g = game(2)
    s = g.new_initial_state()
    for card in (1, 150, 2, 3, 160, 4, 5, 6):
        s.apply_action(card - 1)
    assert s.hands == [[1, 2, 3], [4, 5, 6]]
    assert 150 in s.draw and 160 in s.draw, "set-aside events go back into the draw deck"
    assert s.aside == []
    s.check_invariants()


def test_preparation_first_player_by_largest_payout_ties_by_next() -> None:
    g = game(3)
    b = g.board
    cards = list(range(1, 10))
    s = dealt(g, [cards[0:3], cards[3:6], cards[6:9]])

    def key(q: int) -> list[int]:
        return sorted((d.payment for c in s.hands[q] for d in b.demands[c]), reverse=True)

    best = max(range(3), key=key)
    assert s.first == best
    assert s.current_player() == best


def test_preparation_first_player_option_overrides_the_largest_payout() -> None:
    """'The player who has the largest single payout goes first': the default; the option
    `first_player` names another seat (the Switchback Start then counts from it)."""
    cards = list(range(1, 10))
    by_payout = dealt(game(3), [cards[0:3], cards[3:6], cards[6:9]])
    chosen = (by_payout.first + 1) % 3
    s = dealt(game(3, first_player=chosen), [cards[0:3], cards[3:6], cards[6:9]])
    assert s.first == chosen and s.current_player() == chosen
    assert s.hands == by_payout.hands
    with pytest.raises(ConfigError, match="first_player"):
        game(3, first_player=3)


# -- Initial building phases: the Switchback Start ---------------------------------------


def test_switchback_start_order_then_clockwise() -> None:
    s = standard(3)
    f = s.first
    order = []
    for _ in range(9):
        order.append(s.turn_player())
        assert s.phase == (BUILD if len(order) <= 6 else OPS)
        if s.phase == OPS:
            s.apply_action(s.game.END_MOVE)
        s.apply_action(s.game.END_BUILD)
    assert order == [
        f,
        (f + 1) % 3,
        (f + 2) % 3,
        (f + 2) % 3,
        (f + 1) % 3,
        f,
        f,
        (f + 1) % 3,
        (f + 2) % 3,
    ]


def test_building_turns_have_no_operations_phase() -> None:
    s = standard(2)
    g = s.game
    legal = s.legal_actions()
    assert g.END_MOVE not in legal and g.DISCARD not in legal
    assert all(a < g.MOVE0 for a in legal)


# -- Building costs ----------------------------------------------------------------------


def _edge_to(s, kind: int, cross: int = 0) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A buildable edge from a major-city outpost to a milepost of terrain ``kind``."""
    b = s.game.board
    for a in b.major_posts:
        for d in range(6):
            e = b.eid[a * 6 + d]
            x = b.nb[a * 6 + d]
            if (
                e >= 0
                and not b.edge_internal[e]
                and b.terrain[x] == kind
                and b.edge_cross_cost[e] == cross
                and b.link_at[x] < 0
            ):
                return a, x
    raise AssertionError("no such edge on the map")


@pytest.mark.parametrize(("kind", "cost"), [(CLEAR, 1), (MOUNTAIN, 2)])
def test_building_costs_clear_and_mountain(kind: int, cost: int) -> None:
    s = standard(2)
    p = s.current_player()
    a, x = _edge_to(s, kind)
    s.apply_action(build_action(s, a, x))
    assert s.cash[p] == 50 - cost


def test_building_costs_alpine_5() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    alp = next(m for m in range(b.n) if b.terrain[m] == ALPINE)
    nb = next(
        b.nb[alp * 6 + d]
        for d in range(6)
        if b.nb[alp * 6 + d] >= 0 and b.edge_cross_cost[b.eid[alp * 6 + d]] == 0
    )
    lay(s, p, path(b, city(s, "Milano"), nb))
    s.apply_action(build_action(s, nb, alp))
    assert s.cash[p] == 45


def _small_city_with_river(b):  # type: ignore[no-untyped-def]
    """A small city, a clear neighbour across no crossing (with a clear milepost behind
    it), and a clear neighbour across a river."""
    for c, size in enumerate(b.city_size):
        if size != SMALL:
            continue
        m = b.city_centre[c]
        dry, wet = None, None
        for d in range(6):
            x, e = b.nb[m * 6 + d], b.eid[m * 6 + d]
            if x < 0 or b.terrain[x] != CLEAR or b.link_at[x] >= 0:
                continue
            if b.edge_cross_cost[e] == 0 and dry is None:
                behind = [
                    b.nb[x * 6 + k]
                    for k in range(6)
                    if b.nb[x * 6 + k] >= 0
                    and b.city_of[b.nb[x * 6 + k]] < 0
                    and b.edge_cross_cost[b.eid[x * 6 + k]] == 0
                ]
                if behind:
                    dry = (x, behind[0])
            elif b.edge_river[e] and wet is None:
                wet = x
        if dry and wet is not None:
            return m, dry, wet
    raise AssertionError("no small city beside a river on this map")


def test_building_costs_small_medium_3_major_5_and_river_2() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    town, (beside, behind), across = _small_city_with_river(b)
    lay(s, p, [behind, beside])
    s.apply_action(build_action(s, beside, town))
    assert 50 - s.cash[p] == 3, "a small city costs 3"
    s.apply_action(build_action(s, town, across))
    assert 50 - s.cash[p] == 3 + 3, "a clear milepost across a river costs 1 + 2"
    # into a major-city outpost: 5
    posts = b.city_posts[b.city_index("Paris")]
    out, paris = next(
        (b.nb[q * 6 + d], q)
        for q in posts[1:]
        for d in range(6)
        if b.nb[q * 6 + d] >= 0
        and b.city_of[b.nb[q * 6 + d]] < 0
        and b.edge_cross_cost[b.eid[q * 6 + d]] == 0
    )
    back = next(b.nb[out * 6 + d] for d in range(6) if b.nb[out * 6 + d] not in (-1, *posts))
    lay(s, p, [back, out])
    before = s.cash[p]
    s.from_major = 0
    s.apply_action(build_action(s, out, paris))
    assert before - s.cash[p] == 5


def test_building_lake_or_inlet_adds_3() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    e = next(
        e
        for e in range(len(b.edge_ends))
        if b.edge_cross_cost[e] == 3 and all(b.terrain[x] == CLEAR for x in b.edge_ends[e])
    )
    a, x = b.edge_ends[e]
    lay(
        s,
        p,
        [
            b.nb[
                a * 6
                + next(
                    d
                    for d in range(6)
                    if b.nb[a * 6 + d] not in (-1, x) and b.edge_cross_cost[b.eid[a * 6 + d]] == 0
                )
            ],
            a,
        ],
    )
    s.apply_action(build_action(s, a, x))
    assert s.cash[p] == 50 - 4


@pytest.mark.parametrize(
    ("frm", "to"), [("Paris", "Lyon"), ("Berlin", "Praha"), ("Wien", "Zagreb")]
)
def test_worked_example_costs_along_a_route(frm: str, to: str) -> None:
    """The rulebook's worked examples ("Blue's total cost so far is 10M") on our map: each
    segment of a route built out of a major city costs its milepost (clear 1, mountain 2,
    alpine 5, small/medium city 3, major 5) plus 2 across a river, 3 across a lake or inlet,
    read here from the map file itself, not from the engine's arrays."""
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    m = b.content.map
    terrain_cost = {".": 1, "m": 2, "a": 5, "S": 3, "M": 3, "o": 5, "C": 5}
    crossing_cost = {"river": 2, "lake": 3, "inlet": 3}
    route = path(b, city(s, frm), city(s, to), avoid_cities=True)
    route = [x for x in route if b.city_of[x] != b.city_index(frm)]
    start = next(
        q
        for q in b.city_posts[b.city_index(frm)]
        if route[0] in [b.nb[q * 6 + d] for d in range(6)]
    )
    s.cash[p] = 500
    total = 0
    for a, c in zip([start, *route], route, strict=False):
        if b.link_at[c] >= 0:
            break
        s.spent = s.from_major = 0
        kind = m.crossing(a, c)
        expected = terrain_cost[m.terrain[c]] + (crossing_cost[kind[0]] if kind else 0)
        before = s.cash[p]
        s.apply_action(build_action(s, a, c))
        assert before - s.cash[p] == expected, f"segment {a}>{c}"
        total += expected
    assert 500 - s.cash[p] == total > 0


# -- Beginning construction, right of way, red areas ------------------------------------


def test_build_only_from_major_city_or_own_track() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    lyon = city(s, "Lyon")
    assert s.build_refusal(p, lyon, 0) is not None
    why = s.build_refusal(p, lyon, 0) or ""
    assert "major-city milepost or from the player's own track" in why
    assert not any(a // 6 == lyon for a in s.legal_actions() if a < s.game.U0)
    del b


def test_right_of_way_one_track_between_two_mileposts() -> None:
    s = standard(2)
    p = s.current_player()
    a, x = _edge_to(s, CLEAR)
    lay(s, 1 - p, [a, x])
    d = build_action(s, a, x) % 6
    assert s.build_refusal(p, a, d) == "only one track may be built between two mileposts"
    with pytest.raises(IllegalActionError, match="only one track"):
        s.apply_action(build_action(s, a, x))


def test_no_track_in_a_major_city_red_area() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    posts = b.city_posts[b.city_index("Berlin")]
    d = next(d for d in range(6) if b.nb[posts[0] * 6 + d] in posts)
    assert "red area" in (s.build_refusal(p, posts[0], d) or "")


# -- Limits on building from major cities ------------------------------------------------


def test_at_most_two_segments_out_of_major_cities_a_turn() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    outs = []
    for a in b.major_posts:
        for d in range(6):
            e = b.eid[a * 6 + d]
            if (
                e >= 0
                and not b.edge_internal[e]
                and b.milepost_cost[b.nb[a * 6 + d]] == 1
                and b.edge_cross_cost[e] == 0
                and b.link_at[b.nb[a * 6 + d]] < 0
            ):
                outs.append((a, d))
    s.apply_action(outs[0][0] * 6 + outs[0][1])
    s.apply_action(outs[5][0] * 6 + outs[5][1])
    a, d = outs[10]
    assert "at most two segments" in (s.build_refusal(p, a, d) or "")
    # ... but building on from the new track and into a major city is not limited
    first_to = b.nb[outs[0][0] * 6 + outs[0][1]]
    more = [x for x in s.legal_actions() if x < s.game.U0 and x // 6 == first_to]
    assert more


# -- Limits on entry into medium and small cities ----------------------------------------


def _hub(b, size: int) -> tuple[int, list[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    """A city of ``size`` with four plain neighbours, each with a plain milepost behind."""
    for c, sz in enumerate(b.city_size):
        if sz != size:
            continue
        m = b.city_centre[c]
        spokes = []
        for d in range(6):
            x = b.nb[m * 6 + d]
            if x < 0 or b.city_of[x] >= 0 or b.link_at[x] >= 0:
                continue
            behind = [
                b.nb[x * 6 + k]
                for k in range(6)
                if b.nb[x * 6 + k] >= 0
                and b.city_of[b.nb[x * 6 + k]] < 0
                and b.link_at[b.nb[x * 6 + k]] < 0
                and b.nb[x * 6 + k] not in [b.nb[m * 6 + j] for j in range(6)]
            ]
            if behind:
                spokes.append((x, behind[0]))
        if len(spokes) >= 4:
            return m, spokes
    raise AssertionError("no such city")


def test_small_city_two_players_medium_three() -> None:
    s = standard(4)
    b = s.game.board
    town, spokes = _hub(b, SMALL)
    lay(s, 0, [spokes[0][0], town])
    lay(s, 1, [spokes[1][0], town])
    x, behind = spokes[2]
    lay(s, 2, [behind, x])
    d = [b.nb[x * 6 + k] for k in range(6)].index(town)
    assert "only 2 players may build into a small city" in (s.build_refusal(2, x, d) or "")
    mid, spokes = _hub(b, MEDIUM)
    for q in range(3):
        lay(s, q, [spokes[q][1], spokes[q][0]])
    for q in range(2):
        lay(s, q, [spokes[q][0], mid])
    d = [b.nb[spokes[2][0] * 6 + k] for k in range(6)].index(mid)
    assert s.build_refusal(2, spokes[2][0], d) is None, "a third player enters a medium city"
    lay(s, 2, [spokes[2][0], mid])
    x, behind = spokes[3]
    lay(s, 3, [behind, x])
    d = [b.nb[x * 6 + k] for k in range(6)].index(mid)
    assert "only 3 players may build into a medium city" in (s.build_refusal(3, x, d) or "")


def test_no_more_than_three_sections_to_a_city() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    lyon = city(s, "Lyon")
    nbs = [b.nb[lyon * 6 + d] for d in range(6)]
    lay(s, p, [nbs[1], lyon, nbs[2]])
    lay(s, p, [nbs[3], lyon])
    assert s.touch[p][lyon] == 3
    assert "three sections" in (s.build_refusal(p, lyon, 0) or "")


def test_no_build_that_denies_a_second_player_entry_to_a_small_city() -> None:
    s = standard(2)
    b = s.game.board
    towns = [
        b.city_centre[c]
        for c, size in enumerate(b.city_size)
        if size == SMALL and sum(b.eid[b.city_centre[c] * 6 + d] >= 0 for d in range(6)) == 2
    ]
    if not towns:
        pytest.skip("no small city with only two track edges on this map")
    town = towns[0]
    free = [d for d in range(6) if b.eid[town * 6 + d] >= 0]
    lay(s, 0, [b.nb[town * 6 + free[0]], town])
    if b.link_at[town] >= 0:
        s.link_owners[b.link_at[town]] = [0]
        s._rebuild_touch()
    set_turn(s, 0, BUILD)
    why = s.build_refusal(0, town, free[1])
    assert why is not None
    assert "prevent another player" in why or "block a second player" in why


# -- Ferries and the Chunnel -------------------------------------------------------------


def _link(s, name: str) -> int:  # type: ignore[no-untyped-def]
    return next(k for k, x in enumerate(s.game.board.links) if x.name == name)


def test_ferry_cost_paid_on_building_to_one_port_and_grants_both_ends() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    k = _link(s, "Dover-Calais")
    dover, calais = b.links[k].ends
    inland = next(b.nb[dover * 6 + d] for d in range(6) if b.nb[dover * 6 + d] >= 0)
    back = next(d for d in range(6) if b.nb[inland * 6 + d] not in (-1, dover))
    lay(s, p, [b.nb[inland * 6 + back], inland])
    before = s.cash[p]
    d = [b.nb[inland * 6 + x] for x in range(6)].index(dover)
    cross = b.edge_cross_cost[b.eid[inland * 6 + d]]
    s.apply_action(inland * 6 + d)
    assert before - s.cash[p] == 4 + cross
    assert p in s.link_owners[k] and calais in s.net[p]
    # building on from the far port costs the normal price; back into it costs nothing extra
    d2 = next(
        x for x in range(6) if b.nb[calais * 6 + x] >= 0 and b.link_at[b.nb[calais * 6 + x]] < 0
    )
    assert (
        s.build_cost(p, calais, d2)
        == b.milepost_cost[b.nb[calais * 6 + d2]] + b.edge_cross_cost[b.eid[calais * 6 + d2]]
    )


def test_dublin_costs_only_the_ferry_six() -> None:
    s = standard(2)
    p = s.current_player()
    b = s.game.board
    dublin = city(s, "Dublin")
    d = next(x for x in range(6) if b.nb[dublin * 6 + x] >= 0)
    nb = b.nb[dublin * 6 + d]
    back = [b.nb[nb * 6 + x] for x in range(6)].index(dublin)
    assert s.build_cost(p, nb, back) == 6 + b.edge_cross_cost[b.eid[nb * 6 + back]]
    assert s.build_cost(p, b.nb[b.city_centre[b.city_index("Belfast")] * 6 + 2], 5) in (
        4,
        4 + b.edge_cross_cost[b.eid[b.nb[b.city_centre[b.city_index("Belfast")] * 6 + 2] * 6 + 5]],
    )


def test_only_two_players_per_ferry_port() -> None:
    s = standard(3)
    b = s.game.board
    k = _link(s, "Harwich-IJmuiden")
    s.link_owners[k] = [0, 1]
    s._rebuild_touch()
    port = b.links[k].ends[0]
    nb = next(b.nb[port * 6 + d] for d in range(6) if b.nb[port * 6 + d] >= 0)
    lay(s, 2, [next(b.nb[nb * 6 + d] for d in range(6) if b.nb[nb * 6 + d] not in (-1, port)), nb])
    d = [b.nb[nb * 6 + x] for x in range(6)].index(port)
    assert "only 2 player(s) may build to a ferry port" in (s.build_refusal(2, nb, d) or "")


def test_every_player_keeps_the_right_to_one_english_channel_ferry() -> None:
    s = standard(6)
    b = s.game.board
    lines = [k for k, x in enumerate(b.links) if x.sea == "English Channel"]
    assert len(lines) == 3
    # P1 owns one Channel line; P2..P5 hold three of the remaining five slots
    s.link_owners[lines[0]] = [0, 1]
    s.link_owners[lines[1]] = [2, 3]
    s._rebuild_touch()
    port = b.links[lines[2]].ends[0]
    assert "right to build to one English Channel ferry" in (
        s._limit_refusal(0, port, -1, -1) or ""
    )
    assert s._limit_refusal(4, port, -1, -1) is None


def test_chunnel_costs_20_needs_an_upgraded_train_and_one_owner() -> None:
    s = standard(2, starting_cash=100)
    p = s.current_player()
    b = s.game.board
    k = _link(s, "Chunnel")
    end = b.links[k].ends[0]
    nb = next(
        b.nb[end * 6 + d]
        for d in range(6)
        if b.nb[end * 6 + d] >= 0 and b.link_at[b.nb[end * 6 + d]] < 0
    )
    lay(s, p, [next(b.nb[nb * 6 + d] for d in range(6) if b.nb[nb * 6 + d] not in (-1, end)), nb])
    d = [b.nb[nb * 6 + x] for x in range(6)].index(end)
    assert "Fast or Heavy Freight" in (s.build_refusal(p, nb, d) or "")
    s.train[p] = 1
    assert s.build_refusal(p, nb, d) is None
    s.apply_action(nb * 6 + d)
    assert s.link_owners[k] == [p]
    assert s.spent == 20 + b.edge_cross_cost[b.eid[nb * 6 + d]]
    s.train[1 - p] = 1
    other = b.links[k].ends[1]
    assert "only 1 player(s) may build to the Chunnel" in (
        s._limit_refusal(1 - p, other, -1, -1) or ""
    )


def test_chunnel_may_not_be_rented_by_a_freight() -> None:
    s = standard(2)
    b = s.game.board
    k = _link(s, "Chunnel")
    s.link_owners[k] = [1]
    s._rebuild_touch()
    place(s, 0, b.links[k].ends[0])
    set_turn(s, 0)
    assert "Freight may not use the Chunnel" in (s._chunnel_refusal(0) or "")
    s.train[0] = 2
    set_turn(s, 0)
    assert s._chunnel_refusal(0) is None
    s.apply_action(s.game.CHUNNEL_MOVE)
    assert s.pos[0] == b.links[k].ends[1] and s.cash == [46, 54]


# -- 20 million a turn, no credit, upgrades ---------------------------------------------


def test_spending_limit_20_a_turn_and_no_credit() -> None:
    s = standard(2)
    p = s.current_player()
    s.spent = 19
    a, x = _edge_to(s, MOUNTAIN)
    d = build_action(s, a, x) % 6
    assert "only 1 of the 20 remain" in (s.build_refusal(p, a, d) or "")
    s.spent = 0
    s.cash[p] = 1
    assert "no credit" in (s.build_refusal(p, a, d) or "")


def test_upgrade_instead_of_building_20() -> None:
    s = standard(2)
    g = s.game
    p = s.current_player()
    names = legal_strings(s)
    assert "upgrade Fast Freight" in names and "upgrade Heavy Freight" in names
    s.apply_string("upgrade Heavy Freight")
    assert s.cash[p] == 30 and g.board.train_names[s.train[p]] == "Heavy Freight"
    assert s.turn_player() != p, "an upgrade ends the building phase"
    s2 = standard(2)
    a, x = _edge_to(s2, CLEAR)
    s2.apply_action(build_action(s2, a, x))
    assert not any(g.U0 <= act < g.END_BUILD for act in s2.legal_actions())
    s2.train[s2.current_player()] = 2
    s3 = standard(2)
    s3.train[s3.current_player()] = 1
    assert [n for n in legal_strings(s3) if n.startswith("upgrade")] == ["upgrade Super Freight"]


# -- Running the train -------------------------------------------------------------------


def _line(s):  # type: ignore[no-untyped-def]
    """P1 track from Paris out along clear mileposts; the train at its far end."""
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    return route


def test_speed_9_mileposts_and_any_terrain_costs_one() -> None:
    s = standard(2)
    route = _line(s)
    place(s, 0, route[-1])
    set_turn(s, 0)
    assert s.moves == 9
    s.train[0] = 1
    set_turn(s, 0)
    assert s.moves == 12


def test_running_the_train_reverses_only_in_a_city_not_at_a_junction() -> None:
    """'A train may only reverse direction if it is in a city (including all major city
    mileposts). A train may change direction at a junction during its move.' At a junction
    the train takes another branch; it never goes back the way it came (rules 2)."""
    s = standard(2)
    route = _line(s)
    mid = len(route) // 2
    place(s, 0, route[mid], prev=route[mid - 1])
    set_turn(s, 0)
    b = s.game.board
    back = [b.nb[route[mid] * 6 + d] for d in range(6)].index(route[mid - 1])
    assert s.move_refusal(0, back) == "a train may only reverse direction in a city"
    # at a junction (three sections meet) it may take the other branch, but not go back
    spur = next(
        b.nb[route[mid] * 6 + d]
        for d in range(6)
        if b.nb[route[mid] * 6 + d] not in (-1, route[mid - 1], route[mid + 1])
    )
    lay(s, 1, [route[mid], spur])
    assert s.move_refusal(0, back) == "a train may only reverse direction in a city"
    fwd = [b.nb[route[mid] * 6 + d] for d in range(6)].index(route[mid + 1])
    assert s.move_refusal(0, fwd) is None
    assert s.move_refusal(0, [b.nb[route[mid] * 6 + d] for d in range(6)].index(spur)) is None
    # in a city (any major-city milepost) it may reverse
    place(s, 0, route[0], prev=route[1])
    set_turn(s, 0)
    d = [b.nb[route[0] * 6 + x] for x in range(6)].index(route[1])
    assert s.move_refusal(0, d) is None


def test_running_the_train_at_a_plain_junction_is_not_offered_the_way_back() -> None:
    """The audit's case: a train at 1001 that arrived from 1045, with track from 1001 to
    1000 and to 1002 (a junction of three sections, no city), is offered 1000 and 1002 but
    not `move 1045`."""
    s = standard(2)
    b = s.game.board
    assert b.city_of[1001] < 0
    lay(s, 0, [1045, 1001, 1002])
    lay(s, 0, [1001, 1000])
    place(s, 0, 1001, prev=1045)
    set_turn(s, 0)
    moves = sorted(m for m in legal_strings(s) if m.startswith("move "))
    assert moves == ["move BD38", "move BF38"]  # 1000 and 1002
    assert (nm(s, 1000), nm(s, 1002), nm(s, 1045)) == ("BD38", "BF38", "BE39")
    with pytest.raises(IllegalActionError, match="only reverse direction in a city"):
        s.apply_string("move BE39")


def test_running_the_train_a_rules_1_record_that_reversed_at_a_junction_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record written under rules 1 (reversing allowed at a junction) whose train went
    back at a junction no longer replays: `replay` names the step and the rule change."""

    def rules_1_may_reverse(self: EurorailsState, m: int) -> bool:
        b = self.game.board
        tracks = sum(
            1
            for d in range(6)
            if (e := b.eid[m * 6 + d]) >= 0 and (self.edge_owner[e] >= 0 or b.edge_internal[e])
        )
        return b.city_of[m] >= 0 or tracks >= 3

    with monkeypatch.context() as patch:
        patch.setattr(EurorailsState, "may_reverse", rules_1_may_reverse)
        s = standard(2)
        b = s.game.board
        assert s.turn_player() == 0 and b.city_of[1059] < 0
        # P1 builds out of Paris 970-1015-1059-1102 with a spur at 1059 (a junction)
        for t in ["build 970>1015", "build 1015>1059", "build 1059>1102", "build 1059>1060"]:
            s.apply_string(t)
        for _ in range(4):  # the rest of the Switchback Start
            s.apply_string("end turn")
        for t in ["start Paris", "move 970 (Paris)", "move 1015", "move 1059", "move 1015"]:
            s.apply_string(t)
        record = GameRecord.from_state(s, ["human", "human"], seed=None)
    record.versions = {"rules": 1, "notation": 1, "chance": "mt19937"}
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert f"step {len(record.actions)} ('move {nm(s, 1015)}') does not replay" in message
    assert "a train may only reverse direction in a city" in message
    assert "rules 2: Eurorails, Running the Train: a train reverses direction only in a city" in (
        message
    )
    record.actions = record.actions[:-1]  # without the reversal it still replays
    again = replay(record)
    assert isinstance(again, EurorailsState) and again.pos[0] == 1059


def test_red_areas_are_everyones_track_and_the_centre_counts() -> None:
    s = standard(2)
    b = s.game.board
    posts = b.city_posts[b.city_index("Berlin")]
    place(s, 1, posts[1])
    set_turn(s, 1)
    d = [b.nb[posts[1] * 6 + x] for x in range(6)].index(posts[0])
    assert s.move_refusal(1, d) is None
    s.apply_action(s.game.MOVE0 + d)
    assert s.pos[1] == posts[0] and s.moves == 8


def test_renting_4_per_opponent_per_turn_paid_before_use() -> None:
    s = standard(2)
    route = _line(s)
    place(s, 1, route[1], prev=route[0])
    set_turn(s, 1)
    s.apply_string(f"move {route[2]}")
    assert s.cash == [54, 46]
    s.apply_string(f"move {route[3]}")
    assert s.cash == [54, 46], "one fee per opponent per turn"
    s.cash[1] = 3
    set_turn(s, 1)
    d = [s.game.board.nb[route[3] * 6 + k] for k in range(6)].index(route[4])
    assert "must be paid before use" in (s.move_refusal(1, d) or "")


def test_trains_never_block() -> None:
    s = standard(2)
    route = _line(s)
    place(s, 0, route[2], prev=route[1])
    place(s, 1, route[3], prev=route[2])
    set_turn(s, 0)
    s.apply_string(f"move {route[3]}")
    assert s.pos[0] == s.pos[1]


def test_using_a_ferry_stop_then_start_at_the_other_port_at_half_rate() -> None:
    s = standard(2)
    b = s.game.board
    k = _link(s, "Dover-Calais")
    dover, calais = b.links[k].ends
    s.link_owners[k] = [1]
    s._rebuild_touch()
    place(s, 0, dover)
    set_turn(s, 0)
    assert "ferry P2" in legal_strings(s)
    s.apply_string("ferry P2")
    assert s.cash == [46, 54], "renting an opponent's ferry"
    assert s.phase == BUILD
    s.apply_action(s.game.END_BUILD)
    set_turn(s, 0)
    s.on_ferry[0] = calais  # set_turn bypasses _start_turn; emulate it
    s._start_turn()
    assert s.pos[0] == calais and s.moves == 5


# -- Loads: pick up, drop, deliver -------------------------------------------------------


def test_pick_up_where_available_while_chips_remain_capacity_two() -> None:
    s = standard(2)
    b = s.game.board
    holland = city(s, "Holland")
    place(s, 0, holland)
    set_turn(s, 0)
    flowers = b.load_index("Flowers")
    s.apply_action(s.game.PICK0 + flowers)
    s.apply_action(s.game.PICK0 + b.load_index("Cheese"))
    assert len(s.loads[0]) == 2
    assert not any(s.game.PICK0 <= a < s.game.DROP0 for a in s.legal_actions()), "train full"
    s.chips[flowers] = 0
    s.loads[0] = []
    assert s.game.PICK0 + flowers not in s.legal_actions()


def test_drop_at_any_city_returns_the_chip() -> None:
    s = standard(2)
    b = s.game.board
    wine = b.load_index("Wine")
    s.loads[0] = [wine]
    s.chips[wine] -= 1
    place(s, 0, city(s, "Lyon"))
    set_turn(s, 0)
    s.apply_string("drop Wine")
    assert s.loads[0] == [] and s.chips[wine] == 4


def test_deliver_pays_discards_and_draws_one_demand_per_card() -> None:
    s = standard(2)
    g = s.game
    b = g.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    s.loads[0] = [dem.load, dem.load]
    s.chips[dem.load] -= 2
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    text = f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}"
    assert text in legal_strings(s)
    s.apply_string(text)
    assert s.cash[0] == 50 + dem.payment
    assert card in s.discard and card not in s.hands[0]
    assert s.current_player() == CHANCE, "a replacement demand card is drawn at once"
    draw(s, s.draw[0] if s.draw[0] < 147 else next(c for c in s.draw if c < 147))
    assert len(s.hands[0]) == 3 and s.current_player() == 0
    assert text not in legal_strings(s), "only one demand is filled on a demand card"


def test_carry_loads_with_no_demand() -> None:
    s = standard(2)
    place(s, 0, city(s, "Holland"))
    set_turn(s, 0)
    assert "pick Flowers" in legal_strings(s)


# -- Discarding the hand ------------------------------------------------------------------


def test_discard_hand_instead_of_a_turn_draws_three() -> None:
    s = standard(2)
    place(s, 0, city(s, "Paris"))
    set_turn(s, 0)
    old = list(s.hands[0])
    s.apply_string("discard hand")
    for card in (20, 21, 22):
        draw(s, card)
    assert s.hands[0] == [20, 21, 22]
    assert all(c in s.discard for c in old)
    assert s.turn_player() == 1, "the discard replaces the whole turn"


def test_discard_hand_only_at_the_start_of_the_turn() -> None:
    s = standard(2)
    route = _line(s)
    place(s, 0, route[0])
    set_turn(s, 0)
    assert "discard hand" in legal_strings(s)
    s.apply_string(f"move {route[1]}")
    assert "discard hand" not in legal_strings(s)


# -- Events --------------------------------------------------------------------------------


def _deliver_and_draw(s, event: int):  # type: ignore[no-untyped-def]
    """P1 delivers its first demand, then draws ``event`` and resolves it."""
    b = s.game.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    s.apply_action(s.game.DELIVER0)
    draw(s, event)
    return dem


def test_excess_profits_tax_brackets_and_cash_becomes_public() -> None:
    s = standard(3)
    s.cash = [40, 120, 260]
    obs = s.observation(0)
    assert obs["players"][1]["cash"] is None, "cash is private until a tax card"
    dem = _deliver_and_draw(s, 150)
    assert s.cash == [40 + dem.payment - (10 if 40 + dem.payment >= 50 else 0), 105, 230]
    assert s.observation(0)["players"][1]["cash"] == 105
    assert s.observation(None)["players"][2]["cash"] == 230


def test_derailment_loses_a_turn_and_a_load_of_the_players_choice() -> None:
    s = standard(2)
    b = s.game.board
    wine, beer = b.load_index("Wine"), b.load_index("Beer")
    place(s, 1, city(s, "Ruhr"))  # card 162 names Ruhr
    s.loads[1] = [beer, wine]
    s.chips[beer] -= 1
    s.chips[wine] -= 1
    _deliver_and_draw(s, 162)
    assert s.current_player() == 1 and sorted(legal_strings(s)) == ["lose Beer", "lose Wine"]
    s.apply_string("lose Wine")
    assert s.loads[1] == [beer] and s.lost[1] == 1


def test_derailment_of_the_drawer_ends_the_current_turn_and_the_next() -> None:
    s = standard(2)
    b = s.game.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    area = s.game.areas[162]
    if b.city_centre[dem.city] not in area:
        pytest.skip("demand city not near a derailment city")
    _deliver_and_draw(s, 162)  # P1 delivers in the derailment area, then draws it
    assert s.lost == [1, 0] and s.turns_done == [0, 0]
    while s.current_player() == CHANCE:
        draw(s, next(c for c in s.draw if c < 147))
    assert s.turn_player() == 1, "the current turn ended at once"
    s.apply_action(s.game.END_MOVE)
    s.apply_action(s.game.END_BUILD)
    while s.current_player() == CHANCE:
        draw(s, next(c for c in s.draw if c < 147))
    assert s.turn_player() == 1 and s.turns_done == [2, 1], "and P1 loses its next turn"
    assert s.lost == [0, 0]


def test_heavy_snow_half_rate_no_building_and_torino_alpine_closed() -> None:
    s = standard(2)
    b = s.game.board
    _deliver_and_draw(s, 151)
    torino = city(s, "Torino")
    assert s.weather_at(torino)
    alp = next(m for m in s.game.areas[151] if b.terrain[m] == ALPINE)
    assert s.closed_alpine(alp)
    place(s, 1, torino)
    dirs = [d for d in range(6) if b.eid[torino * 6 + d] >= 0]
    nb = b.nb[torino * 6 + dirs[0]]
    lay(s, 1, [torino, nb])
    s.end_now = 0
    while s.current_player() == CHANCE:
        draw(s, next(c for c in s.draw if c < 147))
    s.apply_action(s.game.END_MOVE)
    s.apply_action(s.game.END_BUILD)
    assert s.turn_player() == 1 and s.moves == 5, "half rate in the snow area"
    s.apply_action(s.game.END_MOVE)
    assert "bad weather" in (s.build_refusal(1, torino, dirs[1]) or "")


def test_flood_erases_bridges_and_owner_rebuilds_first() -> None:
    s = standard(2)
    b = s.game.board
    e = next(
        e for e in range(len(b.edge_ends)) if b.edge_river[e] == "Rhein" and not b.edge_internal[e]
    )
    x, y = b.edge_ends[e]
    lay(s, 1, [x, y])
    _deliver_and_draw(s, 156)
    assert s.edge_owner[e] == -1, "the bridge is erased"
    d = [b.nb[x * 6 + k] for k in range(6)].index(y)
    assert "flooded" in (s.build_refusal(0, x, d) or "")


def test_strikes_stop_pickup_and_delivery() -> None:
    s = standard(2)
    _deliver_and_draw(s, 147)  # inland strike
    b = s.game.board
    inland = next(c for c in range(len(b.city_names)) if b.city_coast[c] > 3 and b.city_goods[c])
    assert s.strike_at_city(inland)
    coastal = next(c for c in range(len(b.city_names)) if b.city_coast[c] <= 3)
    assert not s.strike_at_city(coastal)


def test_tooling_needed_adds_10_to_the_next_machinery_delivery() -> None:
    s = standard(2)
    _deliver_and_draw(s, 167)
    assert any(a[0] == 167 for a in s.active)


def test_events_last_until_the_end_of_the_drawers_next_turn() -> None:
    s = standard(2)
    _deliver_and_draw(s, 155)  # fog
    while s.current_player() == CHANCE:
        draw(s, next(c for c in s.draw if c < 147))
    g = s.game
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)  # P1's turn ends: the fog stays
    assert any(a[0] == 155 for a in s.active)
    s.apply_action(g.START0)
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)  # P2
    assert any(a[0] == 155 for a in s.active)
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)  # P1's next turn ends: the fog goes
    assert not any(a[0] == 155 for a in s.active) and 155 in s.discard


# -- How to win ------------------------------------------------------------------------------


def _connect_seven(s, p: int) -> None:  # type: ignore[no-untyped-def]
    b = s.game.board
    names = ["Paris", "Holland", "Ruhr", "Berlin", "Wien", "Milano", "Madrid"]
    for a, c in itertools.pairwise(names):
        lay(s, p, path(b, city(s, a), city(s, c)))


def test_victory_seven_majors_and_250_then_the_round_is_completed() -> None:
    s = standard(2)
    _connect_seven(s, 0)
    assert s.majors_connected(0) >= 7
    s.cash[0] = 260
    set_turn(s, s.first)
    g = s.game
    s.pos = [city(s, "Paris"), city(s, "Paris")]
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)
    if s.first == 0:
        assert not s.is_terminal(), "play continues until the round is complete"
        s.apply_action(g.END_MOVE)
        s.apply_action(g.END_BUILD)
    assert s.is_terminal() or s.first == 1
    if s.first == 1:
        s.apply_action(g.END_MOVE)
        s.apply_action(g.END_BUILD)
    assert s.is_terminal() and s.winners() == (0,)
    assert s.returns() == [1.0, -1.0]


def test_tied_winners_raise_the_target_by_50() -> None:
    s = standard(2)
    s.connected = lambda p: True  # type: ignore[method-assign]
    s.cash = [260, 260]
    g = s.game
    s.pos = [city(s, "Paris"), city(s, "Paris")]
    set_turn(s, s.first)
    for _ in range(2):
        s.apply_action(g.END_MOVE)
        s.apply_action(g.END_BUILD)
    assert not s.is_terminal() and s.target == 300


def test_time_limit_connected_player_with_most_cash_wins() -> None:
    s = standard(2, turn_limit=1)
    _connect_seven(s, 1)
    s.cash = [200, 100]
    g = s.game
    s.pos = [city(s, "Paris"), city(s, "Paris")]
    set_turn(s, s.first)
    for _ in range(2):
        s.apply_action(g.END_MOVE)
        s.apply_action(g.END_BUILD)
    assert s.is_terminal() and s.winners() == (1,)


# -- Courtesy in play: what each seat sees -------------------------------------------------


def test_hands_open_by_default_and_private_with_open_hands_false() -> None:
    s = standard(2)
    assert s.observation(1)["players"][0]["hand"] is not None
    s2 = standard(2, open_hands=False)
    assert s2.observation(1)["players"][0]["hand"] is None
    assert s2.observation(None)["players"][0]["hand"] is None
    assert s2.observation(0)["players"][0]["hand"] is not None


def test_rent_is_not_counted_in_the_building_limit() -> None:
    s = standard(2)
    route = _line(s)
    place(s, 1, route[1], prev=route[0])
    set_turn(s, 1)
    s.apply_string(f"move {route[2]}")
    s.apply_string("end move")
    assert s.cash[1] == 46 and s.spent == 0
    assert s.phase == BUILD


def test_unlimited_segments_into_major_city_mileposts() -> None:
    s = standard(2, starting_cash=100)
    p = s.current_player()
    b = s.game.board
    s.from_major = 2  # two segments already built out of major cities this turn
    posts = b.city_posts[b.city_index("Paris")]
    outside = []
    for q in posts[1:]:
        for d in range(6):
            x = b.nb[q * 6 + d]
            if x >= 0 and b.city_of[x] < 0 and b.edge_cross_cost[b.eid[q * 6 + d]] == 0:
                outside.append((x, q))
    for x, _q in outside[:3]:
        lay(
            s,
            p,
            [b.nb[x * 6 + next(d for d in range(6) if b.nb[x * 6 + d] not in (-1, *posts))], x],
        )
    s.spent = 0
    for x, q in outside[:3]:
        if s.edge_owner[b.eid[x * 6 + [b.nb[x * 6 + k] for k in range(6)].index(q)]] < 0:
            s.apply_action(build_action(s, x, q))
    assert s.spent == 15, "three segments into Paris at 5 each, after two out of majors"


def test_a_player_at_a_major_city_may_not_take_the_last_free_edges() -> None:
    s = standard(3)
    b = s.game.board
    c = b.city_index("Madrid")
    posts = b.city_posts[c]
    edges = [
        (q, d)
        for q in posts
        for d in range(6)
        if b.eid[q * 6 + d] >= 0 and not b.edge_internal[b.eid[q * 6 + d]]
    ]
    # seat 0 owns all but two of Madrid's outside edges; seats 1 and 2 have none yet
    for q, d in edges[:-2]:
        s.edge_owner[b.eid[q * 6 + d]] = 0
    s._rebuild_touch()
    q, d = edges[-2]
    why = s.build_refusal(0, q, d) or ""
    assert "right to enter the major city" in why
    q, d = edges[-1]
    x = b.nb[q * 6 + d]
    back = next(k for k in range(6) if b.nb[x * 6 + k] == q)
    lay(s, 1, [next(b.nb[x * 6 + k] for k in range(6) if b.nb[x * 6 + k] not in (-1, q)), x])
    assert s.build_refusal(1, x, back) is None, "a first entry is always allowed"


def test_start_city_is_chosen_at_the_first_operations_phase() -> None:
    s = standard(2)
    g = s.game
    for _ in range(4):
        s.apply_action(g.END_BUILD)
    names = legal_strings(s)
    assert s.phase == OPS and "start Paris" in names and "start Aberdeen" in names
    assert len([x for x in names if x.startswith("start ")]) == 60
    assert "end move" in names and "discard hand" in names
    s.apply_string("start Lyon")
    assert s.pos[s.current_player()] == city(s, "Lyon") and s.moves == 9


def test_strikes_still_allow_dropping_a_load() -> None:
    s = standard(2)
    b = s.game.board
    s.draw.remove(148)
    s.active.append([148, 1, 10])
    flowers = b.load_index("Flowers")
    s.loads[0] = [flowers]
    s.chips[flowers] -= 1
    place(s, 0, city(s, "Holland"))
    set_turn(s, 0)
    names = legal_strings(s)
    assert "drop Flowers" in names and "pick Flowers" not in names


def test_flooded_bridge_reserved_for_its_owner_for_one_turn() -> None:
    s = standard(2)
    b = s.game.board
    e = next(
        e for e in range(len(b.edge_ends)) if b.edge_river[e] == "Rhein" and not b.edge_internal[e]
    )
    x, y = b.edge_ends[e]
    s.erased.append([156, e, 1])
    s.reserve.append([e, 1, s.turns_done[1] + 1])
    lay(s, 0, [next(b.nb[x * 6 + k] for k in range(6) if b.nb[x * 6 + k] not in (-1, y)), x])
    d = [b.nb[x * 6 + k] for k in range(6)].index(y)
    assert "first right to rebuild" in (s.build_refusal(0, x, d) or "")
    s.turns_done[1] += 1
    assert "first right" not in (s.build_refusal(0, x, d) or "")


def test_no_pick_up_and_drop_loops_at_one_milepost() -> None:
    s = standard(2)
    place(s, 0, city(s, "Holland"))
    set_turn(s, 0)
    s.apply_string("pick Flowers")
    assert "drop Flowers" not in legal_strings(s)
    s2 = standard(2)
    b = s2.game.board
    flowers = b.load_index("Flowers")
    s2.loads[0] = [flowers]
    s2.chips[flowers] -= 1
    place(s2, 0, city(s2, "Holland"))
    set_turn(s2, 0)
    s2.apply_string("drop Flowers")
    assert "pick Flowers" not in legal_strings(s2)

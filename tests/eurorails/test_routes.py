"""Eurorails routes (routes.py, orders.py): the cheapest legal track, checked against an
independent sum of the rulebook's Building Costs and against an exhaustive search of small
regions; moves along the track, stopping where the rules stop a train; the reach."""

from __future__ import annotations

import heapq
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.eurorails.helpers import lay, nm, path, place, set_turn, standard

from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.games.eurorails.board import (
    ALPINE,
    CENTRE,
    CLEAR,
    MEDIUM,
    MOUNTAIN,
    OUTPOST,
    PORT,
    SMALL,
    Board,
)
from motherlode.games.eurorails.constants import SPEND_LIMIT
from motherlode.games.eurorails.game import BUILD, OPS, EurorailsState
from motherlode.games.eurorails.routes import (
    build_sources,
    place_posts,
    plan_build,
    plan_move,
    plan_survey,
    reach,
)

# Rulebook, "Building Costs (Eurorails)", written out again here (not the engine's table)
TERRAIN_COST = {
    CLEAR: 1,
    MOUNTAIN: 2,
    ALPINE: 5,
    PORT: 1,
    SMALL: 3,
    MEDIUM: 3,
    CENTRE: 5,
    OUTPOST: 5,
}
CROSSING = {"river": 2, "lake": 3, "inlet": 3}


def crossing(b: Board, e: int) -> int:
    kind = b.content.map.crossing(*b.edge_ends[e])
    return CROSSING[kind[0]] if kind else 0


def rulebook_cost(b: Board, a: int, to: int, owned: set[int]) -> int:
    """What the rulebook charges for the segment a -> to (a ferry's whole cost once)."""
    d = next(d for d in range(6) if b.nb[a * 6 + d] == to)
    e = b.eid[a * 6 + d]
    k = b.link_at[to]
    if k >= 0:
        return crossing(b, e) + (0 if k in owned else b.links[k].cost)
    return crossing(b, e) + TERRAIN_COST[b.terrain[to]]


def plain_cheapest(b: Board, sources: list[int], targets: list[int]) -> int:
    """Dijkstra over the bare map with the rulebook's costs (no other rule binds on an
    empty board with one player building): an independent optimum."""
    best = {m: 0 for m in sources}
    heap = [(0, m) for m in sources]
    goal = set(targets)
    while heap:
        c, m = heapq.heappop(heap)
        if c > best.get(m, 1 << 30):
            continue
        if m in goal:
            return c
        steps = []
        for d in range(6):
            to, e = b.nb[m * 6 + d], b.eid[m * 6 + d]
            if to >= 0 and not b.edge_internal[e]:
                steps.append((rulebook_cost(b, m, to, set()), to))
        k = b.link_at[m]
        if k >= 0 and m not in sources:
            ends = b.links[k].ends
            steps.append((0, ends[1] if ends[0] == m else ends[0]))
        for dc, to in steps:
            if c + dc < best.get(to, 1 << 30):
                best[to] = c + dc
                heapq.heappush(heap, (c + dc, to))
    raise AssertionError("no route")


def applied_cost(s: EurorailsState, builds: tuple[int, ...]) -> int:
    """The cash the engine takes for the builds, each applied as an atomic action."""
    p = s.current_player()
    t = s.clone()
    before = t.cash[p]
    for a in builds:
        t.apply_action(a)
    return before - t.cash[p]


PAIRS = [
    ("Paris", "Lyon"),
    ("Berlin", "Praha"),
    ("Milano", "Zürich"),
    ("Wien", "Budapest"),
    ("London", "Birmingham"),
    ("Madrid", "Lisboa"),
    ("Holland", "Hamburg"),
    ("Milano", "Firenze"),
    ("Berlin", "København"),
    ("Ruhr", "Holland"),
]


@pytest.mark.parametrize(("start", "end"), PAIRS)
def test_building_costs_a_route_costs_the_sum_of_its_segments_and_is_cheapest(
    start: str, end: str
) -> None:
    s = standard()
    b = s.game.board
    p = s.current_player()
    r = plan_build(s, p, place_posts(s, end), place_posts(s, start))
    assert r is not None and r.builds
    by_rule = sum(rulebook_cost(b, a, to, set()) for a, to in r.segments())
    assert r.cost == by_rule == sum(r.costs)
    assert r.cost == plain_cheapest(b, list(b.city_posts[b.city_index(start)]), place_posts(s, end))
    assert applied_cost(s, r.builds[: r.now]) == r.now_cost
    assert r.now_cost <= SPEND_LIMIT and (
        r.now == len(r.builds) or r.now_cost + r.costs[r.now] > SPEND_LIMIT
    )


def test_building_costs_the_pairs_cross_every_kind_of_terrain_and_river() -> None:
    """The scenarios above together pay for clear, mountain, alpine, city and ferry-port
    mileposts, and cross rivers and inlets, so each rule of the cost table is exercised."""
    s = standard()
    b = s.game.board
    terrains: set[int] = set()
    crossings: set[int] = set()
    for start, end in PAIRS:
        r = plan_build(s, s.current_player(), place_posts(s, end), place_posts(s, start))
        assert r is not None
        for a, to in r.segments():
            terrains.add(b.terrain[to])
            d = next(d for d in range(6) if b.nb[a * 6 + d] == to)
            crossings.add(crossing(b, b.eid[a * 6 + d]))
    assert {CLEAR, MOUNTAIN, ALPINE, PORT} <= terrains
    assert terrains & {SMALL, MEDIUM} and terrains & {OUTPOST}
    assert {2, 3} <= crossings  # a river, an inlet


def test_paris_lyon_on_our_map() -> None:
    s = standard()
    pv = s.preview("build Paris-Lyon")
    assert pv.summary == "P1 builds Paris–Lyon: 9 mileposts, 11 M"
    assert len(pv.actions) == 9 and pv.texts[-1] == "build AD46>Lyon"


def test_ferry_ports_a_ferry_is_paid_once_and_its_far_port_joins_the_route() -> None:
    """Ferry Ports: "The player pays the cost of the entire ferry on building to one ferry
    port milepost; there is no additional cost to build to the ferry port milepost on the
    other end." London to Dublin is all land and one ferry (Holyhead-Dublin)."""
    s = standard()
    b = s.game.board
    r = plan_build(s, 0, place_posts(s, "Dublin"), place_posts(s, "London"))
    assert r is not None
    ports = [to for _, to in r.segments() if b.link_at[to] >= 0]
    assert ports and r.cost == sum(r.costs) == plain_cheapest(
        b, list(b.city_posts[b.city_index("London")]), place_posts(s, "Dublin")
    )


def test_spending_limit_a_long_route_is_split_into_what_fits_now_and_the_rest() -> None:
    """Building Railroads: "a player may spend up to 20 million"; the route's first part
    fits the 20 M left, the rest is for later turns."""
    s = standard()
    p = s.current_player()
    r = plan_build(s, p, place_posts(s, "Madrid"), place_posts(s, "Paris"))
    assert r is not None and r.now < len(r.builds)
    assert r.now_cost <= SPEND_LIMIT < r.now_cost + r.costs[r.now]
    pv = s.preview("build Paris-Madrid")
    assert len(pv.actions) == r.now
    assert pv.details[2].startswith(
        f"the rest, {len(r.builds) - r.now} mileposts for {r.cost - r.now_cost} M, in a later turn"
    )
    t = s.clone()
    for a in s.expand("build Paris-Madrid"):
        t.apply_action(a)
    assert t.spent == r.now_cost


def test_limits_on_building_from_major_cities_a_route_counts_its_segments_out() -> None:
    """ "During his turn, a player may not build more than two track segments from major
    city mileposts": with two built this turn, the route starts from the network."""
    s = standard()
    p = s.current_player()
    b = s.game.board
    for a in s.expand("build Paris-Lyon")[:3]:
        s.apply_action(a)
    first = s.expand("build Paris-Lyon")  # a second branch out of Paris
    s.apply_action(first[0])
    assert s.from_major == 2
    r = plan_build(s, p, place_posts(s, "Bruxelles"), build_sources(s, p))
    assert r is not None
    assert all(b.terrain[a] != OUTPOST for a, _ in r.segments()[: r.now])
    assert applied_cost(s, r.builds[: r.now]) == r.now_cost


def test_right_of_way_a_route_goes_round_another_players_track() -> None:
    """Right of Way: "Only one section of track may be built between any two mileposts";
    the route never takes a segment already built by P2."""
    s = standard()
    b = s.game.board
    direct = plan_build(s, 0, place_posts(s, "Lyon"), place_posts(s, "Paris"))
    assert direct is not None
    blocker = [direct.posts[0], *(to for _, to in direct.segments()[:5])]
    lay(s, 1, blocker)
    r = plan_build(s, 0, place_posts(s, "Lyon"), place_posts(s, "Paris"))
    assert r is not None and r.cost >= direct.cost
    taken = {frozenset(x) for x in itertools.pairwise(blocker)}
    assert not any(frozenset(seg) in taken for seg in r.segments())
    assert applied_cost(s, r.builds[: r.now]) == r.now_cost
    assert all(s.edge_owner[b.eid[a]] < 0 for a in r.builds)


def test_building_refusals_name_the_rule() -> None:
    s = standard()
    with pytest.raises(NotationError, match="no place called 'Atlantis'"):
        s.expand("build to Atlantis")
    with pytest.raises(IllegalActionError, match="Beginning Construction"):
        s.expand("build Lyon-Paris")
    with pytest.raises(IllegalActionError, match="has no track yet"):
        s.expand("build to Madrid")
    with pytest.raises(IllegalActionError, match="operations phase"):
        s.expand("move to Lyon")
    before = s.serialize()
    s.preview("build Paris-Lyon")
    assert s.serialize() == before  # a preview is not a move


# -- the exhaustive comparison ------------------------------------------------------------


def exhaustive(
    s: EurorailsState, p: int, sources: set[int], goal: set[int], region: set[int]
) -> int | None:
    """The cheapest route over every simple path inside ``region``, each segment applied
    in order by the engine's own build refusal (a new turn when the money runs out)."""
    b = s.game.board
    best: list[int | None] = [None]

    def step(t: EurorailsState, m: int, seen: set[int], cost: int) -> None:
        if best[0] is not None and cost >= best[0]:
            return
        if m in goal and cost > 0:
            best[0] = cost
            return
        for d in range(6):
            to = b.nb[m * 6 + d]
            if to < 0 or to not in region or to in seen:
                continue
            u = t.clone()
            c = u.build_cost(p, m, d)
            if c > min(SPEND_LIMIT - u.spent, u.cash[p]) or (
                b.terrain[m] == OUTPOST and u.from_major >= 2
            ):
                u.spent = u.from_major = 0
                u.cash[p] = 10**6
            if u.build_refusal(p, m, d) is not None:
                continue
            u._build(p, m, d)
            step(u, to, seen | {to}, cost + c)

    for m in sorted(sources):
        step(s, m, {m}, 0)
    return best[0]


CENTRES = [1311, 924, 1188, 1102, 970, 1059]  # around Paris-Lyon: cities, rivers, others


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CENTRES),
    st.integers(0, 5),
    st.lists(st.integers(0, 10**6), min_size=0, max_size=6),
    st.integers(0, 18),
)
def test_the_planner_equals_an_exhaustive_search_on_small_regions(
    centre: int, shift: int, others: list[int], goal_pick: int
) -> None:
    s = standard()
    b = s.game.board
    c = b.nb[centre * 6 + shift] if b.nb[centre * 6 + shift] >= 0 else centre
    region = set(b.within([c], 2))
    assume(all(b.link_at[m] < 0 for m in region))
    # P1 has a short line into the region; P2 has built some of its segments
    p = s.current_player()
    inside = sorted(region)
    home = path(b, b.city_posts[b.city_index("Paris")][0], inside[0])
    lay(s, p, home)
    for k in others:
        a = inside[k % len(inside)]
        d = (k // 7) % 6
        to = b.nb[a * 6 + d]
        e = b.eid[a * 6 + d]
        if to >= 0 and to in region and not b.edge_internal[e] and s.edge_owner[e] < 0:
            lay(s, 1 - p, [a, to])
    s.phase = BUILD
    sources = build_sources(s, p) & region
    goal = {inside[goal_pick % len(inside)]}
    assume(sources and not goal & sources)
    r = plan_build(s, p, goal, sources, region=region)
    want = exhaustive(s, p, sources, goal, region)
    if want is None:
        assert r is None
        return
    assert r is not None and r.cost == want
    assert applied_cost(s, r.builds[: r.now]) == r.now_cost


# -- moving -------------------------------------------------------------------------------


def _on_paris_lyon() -> EurorailsState:
    s = standard()
    for a in s.expand("build Paris-Lyon"):
        s.apply_action(a)
    set_turn(s, 0, OPS)
    place(s, 0, place_posts(s, "Paris")[0])
    s._start_moves(0)
    return s


def test_running_the_train_moves_along_its_track_to_a_place() -> None:
    """Running the Train: 9 mileposts a turn for a Freight, the centre counted; Paris's
    centre to Lyon is 10 (the centre, then the nine segments): the move stops one short."""
    s = _on_paris_lyon()
    r = plan_move(s, place_posts(s, "Lyon"))
    assert r is not None and len(r.actions) == 9 and not r.arrives and r.left == 1
    t = s.clone()
    for a in s.expand("move to Lyon"):
        t.apply_action(a)
    assert t.moves == 0 and t.pos[0] == r.posts[-1]
    t.moves = 9
    r2 = plan_move(t, place_posts(t, "Lyon"))
    assert r2 is not None and r2.arrives and len(r2.actions) == 1


def test_renting_track_another_players_track_is_offered_with_the_fee() -> None:
    """Renting Track: "must pay 4 million per turn to each opponent upon whose track his
    train will run"; the move goes on P2's track only when its own does not reach."""
    s = standard()
    b = s.game.board
    route = [
        b.city_posts[b.city_index("Paris")][0],
        *path(b, b.city_posts[b.city_index("Paris")][0], place_posts(s, "Lyon")[0])[1:],
    ]
    lay(s, 1, route)
    set_turn(s, 0, OPS)
    place(s, 0, route[0])
    s._start_moves(0)
    r = plan_move(s, [route[4]])
    assert r is not None and r.fee == 4 and r.arrives
    assert s.preview(f"move to {route[4]}").summary.endswith(", 4 M in use fees")


def test_the_reach_this_turn_is_every_milepost_the_train_can_get_to() -> None:
    s = _on_paris_lyon()
    got = reach(s)
    paris = set(place_posts(s, "Paris"))
    assert paris <= got and place_posts(s, "Lyon")[0] not in got
    r = plan_move(s, place_posts(s, "Lyon"))
    assert r is not None and set(r.posts) <= got
    assert len(got - paris) == 8  # the 8 mileposts of the line within 9 moves (1 in Paris)


def test_drop_delivers_when_a_card_pays_else_drops() -> None:
    s = _on_paris_lyon()
    g = s.game
    s.loads[0] = [g.board.load_index("Wine")]
    s.chips[g.board.load_index("Wine")] -= 1
    out = s.expand("drop Wine")
    assert s.action_to_string(out[0]) == "drop Wine"
    assert s.expand("end") == [g.END_MOVE, g.END_BUILD]


def test_the_bots_turn_is_described_in_one_line() -> None:
    s = standard()
    acts = [*s.expand("build Paris-Lyon"), s.game.END_BUILD]
    assert s.describe(acts) == ["builds Paris–Lyon (9 mileposts, 11 M)", "ends the turn"]
    one = s.expand("build Paris-Lyon")[:1]
    assert s.describe(one)[0].endswith("(1 milepost, 1 M)")  # one milepost, in the singular


# -- a survey by hand (the map's drag: ``build A>B>C``) -----------------------------------


def test_a_survey_costs_the_sum_of_its_atomic_builds_and_is_one_command() -> None:
    s = standard()
    cmd = "build Paris-SW>AA39>AA40>AB41"
    pv = s.preview(cmd)
    assert pv.summary == "P1 builds Paris–AB41: 3 mileposts, 3 M"
    assert pv.texts == ("build Paris-SW>AA39", "build AA39>AA40", "build AA40>AB41")
    assert tuple(s.expand(cmd)) == pv.actions
    assert applied_cost(s, pv.actions) == 3
    assert pv.details[-1] == "now: 3 mileposts for 3 M; 17 M left this turn"


def test_a_survey_joins_waypoints_that_are_not_neighbours_by_the_cheapest_track() -> None:
    s = standard()
    leg = s.preview("build Paris-SW>Lyon")
    assert leg.actions == s.preview("build Paris-Lyon").actions  # the cheapest route
    assert s.expand("build Paris-SW>Lyon") == list(leg.actions)  # one ">": not atomic


def test_a_survey_follows_the_players_own_track_then_builds_on() -> None:
    s = standard()
    for a in s.expand("build Paris-SW>AA39>AA40"):
        s.apply_action(a)
    pv = s.preview("build Paris-SW>AA39>AA40>AB41")
    assert pv.texts == ("build AA40>AB41",)


def test_a_survey_refusal_names_the_segment_and_the_rule() -> None:
    s = standard()
    with pytest.raises(IllegalActionError, match="Z39 is neither on P1's track nor a major city"):
        s.preview("build Z39>AA39>AA40")
    lay(s, 1, [place_posts(s, "Paris-SW")[0], place_posts(s, "AA39")[0]])
    with pytest.raises(IllegalActionError, match=r"Paris-SW>AA39: .*\(rulebook: Building"):
        s.preview("build Paris-SW>AA39>AA40")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 5), min_size=1, max_size=12))
def test_a_surveyed_walk_is_refused_or_costs_what_its_atomic_builds_cost(
    dirs: list[int],
) -> None:
    """A random walk of neighbours out of Paris: the survey's cost is the cash its
    atomic builds take, applied one by one, and its actions are what expand gives."""
    s = standard()
    b = s.game.board
    at = [place_posts(s, "Paris-SW")[0]]
    for d in dirs:
        nxt = b.nb[at[-1] * 6 + d]
        assume(nxt >= 0)
        at.append(nxt)
    r = plan_survey(s, s.current_player(), at)
    if isinstance(r, str):
        return
    assert applied_cost(s, r.builds[: r.now]) == r.now_cost
    cmd = "build " + ">".join(nm(s, m) for m in at)
    if r.now and r.builds:
        assert s.expand(cmd) == list(r.builds[: r.now])


def _paris_lyon_marseille(card: int) -> EurorailsState:
    """P1's track Paris–Lyon–Marseille, his train in Paris with 30 mileposts to run, and
    demand card ``card`` in his hand."""
    s = standard()
    for a in s.expand("build Paris-Lyon"):
        s.apply_action(a)
    s.spent = 0
    for a in s.expand("build Lyon-Marseille"):
        s.apply_action(a)
    set_turn(s, 0, OPS)
    s.hands[0][0] = card
    place(s, 0, place_posts(s, "Paris")[0])
    s._start_moves(0)
    s.moves = 30
    return s


def test_a_move_stops_in_a_city_passed_where_a_load_on_the_cards_can_be_picked_up() -> None:
    """Picking Up and Delivering Loads: "A load may be picked up by a train passing through
    a city where the load is available": ``move to Marseille`` stops at Lyon (Wheat, on
    card #13) and ``move to Marseille`` again goes on from there."""
    s = _paris_lyon_marseille(13)
    pv = s.preview("move to Marseille")
    assert pv.summary == "P1 moves Paris–Lyon: 10 mileposts"
    assert pv.details[0] == (
        "stops at Lyon: Wheat can be picked up for your cards; 'move to Marseille' again goes on"
    )
    for a in s.expand("move to Marseille"):
        s.apply_action(a)
    assert nm(s, s.pos[0]) == "Lyon" and s.moves == 20
    s.apply_action(s.string_to_action("pick Wheat"))
    assert s.preview("move to Marseille").summary == "P1 moves Lyon–Marseille: 7 mileposts"


def test_a_move_does_not_stop_for_loads_no_card_asks_for() -> None:
    s = _paris_lyon_marseille(1)  # no Wheat on P1's cards: Lyon is passed through
    assert all(
        s.game.board.load_names[d.load] != "Wheat" for c in s.hands[0] for d in s.game.demands[c]
    )
    assert s.preview("move to Marseille").summary == "P1 moves Paris–Marseille: 17 mileposts"


def test_a_move_stops_in_a_city_passed_where_a_load_on_the_train_is_delivered() -> None:
    """Card #9 pays 25 for Iron at Lyon and the train carries Iron: ``move to Marseille``
    stops at Lyon, where ``drop Iron`` delivers it."""
    s = _paris_lyon_marseille(9)
    iron = s.game.board.load_index("Iron")
    s.loads[0] = [iron]
    s.chips[iron] -= 1
    pv = s.preview("move to Marseille")
    assert pv.summary == "P1 moves Paris–Lyon: 10 mileposts"
    assert pv.details[0].startswith("stops at Lyon: Iron can be delivered;")
    for a in s.expand("move to Marseille"):
        s.apply_action(a)
    cash = s.cash[0]
    for a in s.expand("drop Iron"):
        s.apply_action(a)
    assert s.cash[0] == cash + 25 and s.loads[0] == []

"""The global rule of "Right to Enter Major Cities": "No track may be built which blocks any
player from connecting all the major cities" (../shared/rulebooks/eurorails.txt).

The graph available to a seat q: every edge q owns, every free edge whose ends q may still
build to, the red areas, and every ferry line or the Chunnel q owns or may still build to
(fewer owners than its capacity; both ports of a full line are closed to a non-owner). A
build is refused when, for another seat, that graph connects all the major cities before
the build and not after it. ``available_connects`` below is an independent, naive
implementation of that graph, used to check the engine's fast one.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from tests.eurorails.helpers import BUILD, build_action, city, lay, set_turn, standard

from motherlode.core.errors import IllegalActionError
from motherlode.games.eurorails.game import EurorailsState


def available_connects(s: EurorailsState, q: int) -> bool:
    """Naive: does seat ``q``'s available graph connect all the major cities?"""
    b = s.game.board
    closed: set[int] = set()
    for k, link in enumerate(b.links):
        owners = s.link_owners[k]
        if q not in owners and len(owners) >= link.capacity:
            closed.update(link.ends)
    adj: dict[int, set[int]] = {m: set() for m in range(b.n)}
    for e, (x, y) in enumerate(b.edge_ends):
        o = s.edge_owner[e]
        if b.edge_internal[e] or o == q or (o < 0 and x not in closed and y not in closed):
            adj[x].add(y)
            adj[y].add(x)
    for link in b.links:
        x, y = link.ends
        if x not in closed:
            adj[x].add(y)
            adj[y].add(x)
    for c in b.majors:
        posts = b.city_posts[c]
        for m in posts:
            adj[m].update(posts)
    start = b.city_centre[b.majors[0]]
    seen = {start}
    todo = deque([start])
    while todo:
        m = todo.popleft()
        for x in adj[m]:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return all(b.city_centre[c] in seen for c in b.majors)


def naive_blocked(s: EurorailsState, p: int, action: int) -> list[int]:
    """The seats whose available graph the build ``action`` by ``p`` disconnects."""
    after = s.clone()
    a, d = divmod(action, 6)
    after._build(p, a, d)
    return [
        q
        for q in range(s.game.num_players)
        if q != p and available_connects(s, q) and not available_connects(after, q)
    ]


def madrid_walled(gaps: int) -> tuple[EurorailsState, int]:
    """Three seats; P2 owns every edge leaving the lattice ball of radius 4 round Madrid
    but ``gaps`` of them; P1 has one segment ending at the outer end of the first gap.
    Returns the state and P1's build of that gap (from outside into the ball)."""
    s = standard(3)
    b = s.game.board
    centre = city(s, "Madrid")
    ball = b.within([centre], 4)
    assert all(b.link_at[m] < 0 for m in ball), "no ferry in the ball"
    cut = []
    for e, (x, y) in enumerate(b.edge_ends):
        if (x in ball) != (y in ball):
            outer, inner = (y, x) if x in ball else (x, y)
            cut.append((e, outer, inner))
    # the gap: an edge between two plain mileposts, cheap to build
    plain = [
        (e, o, i)
        for e, o, i in cut
        if b.city_of[o] < 0
        and b.city_of[i] < 0
        and b.milepost_cost[i] == 1
        and b.edge_cross_cost[e] == 0
    ]
    free = plain[:gaps]
    for e, _, _ in cut:
        s.edge_owner[e] = 1
    for e, _, _ in free:
        s.edge_owner[e] = -1
    _, outer, inner = free[0]
    prev = next(
        x
        for x in (b.nb[outer * 6 + d] for d in range(6))
        if x >= 0 and x not in ball and b.city_of[x] < 0
    )
    lay(s, 0, [prev, outer])
    set_turn(s, 0, BUILD)
    return s, build_action(s, outer, inner)


def test_a_build_that_cuts_a_player_off_from_a_major_city_is_illegal() -> None:
    s, gap = madrid_walled(gaps=1)
    assert all(available_connects(s, q) for q in range(3))
    assert gap not in s.legal_actions()
    why = s.build_refusal(0, *divmod(gap, 6))
    assert why == "it would block P3 from connecting all the major cities"
    before = s.serialize()
    with pytest.raises(IllegalActionError, match="block P3"):
        s.apply_action(gap)
    assert s.serialize() == before, "a refused build changes nothing"
    assert naive_blocked(s, 0, gap) == [2]
    # P2, whose track walls Madrid in, may close the gap: it blocks P1 and P3
    assert s.blocked_by_build(1, *divmod(gap, 6)) in (0, 2)


def test_the_same_build_is_legal_when_it_blocks_nobody() -> None:
    s, gap = madrid_walled(gaps=2)
    assert gap in s.legal_actions()
    assert s.build_refusal(0, *divmod(gap, 6)) is None
    s.apply_action(gap)
    assert all(available_connects(s, q) for q in range(3))
    # now the second gap is the last way into the ball for P3
    b = s.game.board
    cut = _cut(s)
    (e2,) = [e for e in cut if s.edge_owner[e] < 0]
    x, y = b.edge_ends[e2]
    assert naive_blocked(s, 0, build_action(s, x, y)) == [2]
    assert s.blocked_by_build(0, *divmod(build_action(s, x, y), 6)) == 2


def _cut(s: EurorailsState) -> set[int]:
    b = s.game.board
    ball = b.within([city(s, "Madrid")], 4)
    return {e for e, (x, y) in enumerate(b.edge_ends) if (x in ball) != (y in ball)}


def _link(s: EurorailsState, name: str) -> int:
    return next(k for k, x in enumerate(s.game.board.links) if x.name == name)


def britain_by_one_line(newcastle: list[int]) -> tuple[EurorailsState, int]:
    """Three seats; every line to Britain is full of P1 and P2 except Harwich-IJmuiden
    (P2 alone) and Newcastle-Esbjerg (``newcastle``); P1 has a segment next to IJmuiden.
    Returns the state and P1's build into IJmuiden (buying the Harwich line)."""
    s = standard(3, chunnel_needs_upgrade=False)
    b = s.game.board
    for name in ("Plymouth-Cherbourg", "Portsmouth-Le Havre", "Dover-Calais"):
        s.link_owners[_link(s, name)] = [0, 1]
    s.link_owners[_link(s, "Chunnel")] = [0]
    s.link_owners[_link(s, "Newcastle-Esbjerg")] = list(newcastle)
    harwich = _link(s, "Harwich-IJmuiden")
    s.link_owners[harwich] = [1]
    port = b.links[harwich].ends[1]
    a = next(x for x in (b.nb[port * 6 + d] for d in range(6)) if x >= 0 and b.city_of[x] < 0)
    prev = next(
        x
        for x in (b.nb[a * 6 + d] for d in range(6))
        if x >= 0 and x != port and b.city_of[x] < 0 and b.link_at[x] < 0
    )
    lay(s, 0, [prev, a])
    set_turn(s, 0, BUILD)
    return s, build_action(s, a, port)


def test_buying_the_last_place_on_the_last_line_to_britain_is_illegal() -> None:
    s, buy = britain_by_one_line(newcastle=[0, 1])
    assert available_connects(s, 2)
    assert buy not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="block P3"):
        s.apply_action(buy)
    assert naive_blocked(s, 0, buy) == [2]


def test_buying_a_line_is_legal_while_another_line_to_britain_has_room() -> None:
    s, buy = britain_by_one_line(newcastle=[0])
    assert buy in s.legal_actions()
    s.apply_action(buy)
    assert s.link_owners[_link(s, "Harwich-IJmuiden")] == [1, 0]
    assert available_connects(s, 2)


@pytest.mark.parametrize("seed", [5, 6])
def test_the_engine_check_equals_the_naive_one_in_walled_positions(seed: int) -> None:
    """Random positions where one seat's track walls in the lattice balls round some major
    cities but for one or two gaps, plus random track and ferry owners: for the gaps, the
    ferry-port edges and a few other free edges, in both directions and for every seat,
    the engine's answer (fast tests, searches, caches) matches the naive graphs."""
    s = standard(3)
    b = s.game.board
    rng = random.Random(seed)
    cand: set[int] = set()
    for c in rng.sample(b.majors, rng.randint(1, 3)):
        ball = b.within([b.city_centre[c]], rng.randint(2, 6))
        cut = [e for e, (x, y) in enumerate(b.edge_ends) if (x in ball) != (y in ball)]
        owner = rng.randrange(3)
        for e in cut:
            s.edge_owner[e] = owner
        for e in rng.sample(cut, rng.randint(1, 2)):
            s.edge_owner[e] = -1
            cand.add(e)
    for e in range(len(b.edge_ends)):
        if s.edge_owner[e] < 0 and not b.edge_internal[e] and rng.random() < 0.1:
            s.edge_owner[e] = rng.randrange(3)
    for k, link in enumerate(b.links):
        if rng.random() < 0.3:
            s.link_owners[k] = rng.sample(range(3), rng.randrange(link.capacity + 1))
    s._rebuild_touch()
    free = [e for e in range(len(b.edge_ends)) if s.edge_owner[e] < 0 and not b.edge_internal[e]]
    ports = [e for e in free if any(b.link_at[m] >= 0 for m in b.edge_ends[e])]
    edges = sorted(e for e in cand if s.edge_owner[e] < 0) + ports + rng.sample(free, 3)
    blocks = 0
    for e in edges:
        for x, y in (b.edge_ends[e], b.edge_ends[e][::-1]):
            for p in range(3):
                k = b.link_at[y]
                full = k >= 0 and len(s.link_owners[k]) >= b.links[k].capacity
                if full and p not in s.link_owners[k]:
                    continue  # not buildable: the port is full
                want = naive_blocked(s, p, build_action(s, x, y))
                t = s.clone()
                got = t.blocked_by_build(p, *divmod(build_action(s, x, y), 6))
                assert t.blocked_by_build(p, *divmod(build_action(s, x, y), 6)) == got
                assert (got in want) if want else got == -1, (e, p, got, want)
                blocks += bool(want)
    assert blocks > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_every_build_everyone_may_still_connect_all_major_cities(seed: int) -> None:
    s = standard(3, turn_limit=6)
    rng = random.Random(seed)
    assert all(available_connects(s, q) for q in range(3))
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        builds = [a for a in legal if a < s.game.U0]
        action = rng.choice(builds) if builds and rng.random() < 0.9 else rng.choice(legal)
        s.apply_action(action)
        if action < s.game.U0:
            assert all(available_connects(s, q) for q in range(3))

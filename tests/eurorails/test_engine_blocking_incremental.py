"""What the blocking rule keeps from build to build (``BlockingRules``: each seat's witness,
the witnesses for a closed line, the answers found by cutting a seat's graph, the detours
kept by the game) against the check from scratch: the same legal builds and the same
blocked seat, in walled random positions moved on by legal builds and floods, on clones,
and in whole random games, for every player count; and every kept witness is checked to be
one (its edges in the seat's graph, joining all the major cities).

The reference is a clone whose derived fields and caches are rebuilt (``_rebuild_touch``)
and asked through ``blocked_by_build_reference`` (local tests, then two-sided and whole-map
searches, nothing kept) and ``_build_actions_reference`` (every candidate through
``build_refusal``); ``available_connects`` (tests/eurorails/test_engine_blocking.py) is the
naive graph.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.games.eurorails.constants import BUILD
from motherlode.games.eurorails.game import EurorailsState

FLOODS = (156, 157, 158)


def fresh(s: EurorailsState) -> EurorailsState:
    """``s`` with nothing remembered: derived fields and every cache rebuilt."""
    out = s.clone()
    out._rebuild_touch()
    return out


def candidates(s: EurorailsState, p: int) -> list[tuple[int, int]]:
    """Every free segment ``p`` could try to build from its track or a major city."""
    g = s.game
    sources = set(s.net[p]) | set(g.board.major_posts)
    return [
        (a, i - a * 6) for a in sorted(sources) for i, e, _ in g.build_out[a] if s.edge_owner[e] < 0
    ]


def joins_majors(s: EurorailsState, q: int, edges: frozenset[int], closed: set[int]) -> bool:
    """Naive: do ``edges`` (each in ``q``'s graph with ``closed`` ports closed), the red
    areas and the lines open to q between their ends join all the major cities?"""
    b = s.game.board
    adj: dict[int, set[int]] = {}
    for f in edges:
        x, y = b.edge_ends[f]
        o = s.edge_owner[f]
        ok = b.edge_internal[f] or o == q or (o < 0 and x not in closed and y not in closed)
        assert ok, f"witness edge {f} is not in P{q + 1}'s graph"
        adj.setdefault(x, set()).add(y)
        adj.setdefault(y, set()).add(x)
    for c in b.majors:
        posts = b.city_posts[c]
        for m in posts:
            adj.setdefault(m, set()).update(posts)
    for link in b.links:
        x, y = link.ends
        if x in adj and y in adj and x not in closed:
            adj[x].add(y)
            adj[y].add(x)
    start = b.city_centre[b.majors[0]]
    seen = {start}
    todo = deque([start])
    while todo:
        for x in adj[todo.popleft()]:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return all(b.city_centre[c] in seen for c in b.majors)


def naive_connects(s: EurorailsState, q: int, extra: set[int] = frozenset()) -> bool:  # type: ignore[assignment]
    """Naive: does seat ``q``'s available graph, with the ports ``extra`` closed too,
    connect all the major cities?"""
    b = s.game.board
    closed = s._closed(q) | set(extra)
    free = frozenset(
        e
        for e, (x, y) in enumerate(b.edge_ends)
        if b.edge_internal[e]
        or s.edge_owner[e] == q
        or (s.edge_owner[e] < 0 and x not in closed and y not in closed)
    )
    return joins_majors(s, q, free, closed)


def same_witnesses(s: EurorailsState) -> None:
    """Every kept witness is one, every "does not connect" is true, and every kept answer
    of the cut cache is the reference's."""
    b = s.game.board
    for q, w in enumerate(s._wit_cache):
        if w is None:
            continue
        if w is False:
            assert not naive_connects(s, q), q
        else:
            assert isinstance(w, frozenset)
            assert joins_majors(s, q, w, s._closed(q)), q
    for key, alt in s._alt_cache.items():
        k, q = divmod(key, 8)
        owners = s.link_owners[k]
        if q in owners or len(owners) >= b.links[k].capacity:
            continue  # no longer asked
        ends = set(b.links[k].ends)
        if alt is True:
            assert not naive_connects(s, q, ends), (k, q)
        else:
            assert isinstance(alt, frozenset)
            assert joins_majors(s, q, alt, s._closed(q) | ends), (k, q)
    ref = fresh(s)
    for key, cut in s._cut_cache.items():
        e, q = divmod(key, 8)
        if s.edge_owner[e] >= 0:
            continue
        x, y = b.edge_ends[e]
        assert cut == ref._blocks_reference(q, e, x, y), key


def same_city_counts(s: EurorailsState) -> None:
    """The kept seats present at each city and its unbuilt segments, as counted anew."""
    ref = fresh(s)
    for c, present in s._present_cache.items():
        assert present == ref.present_at(c), c
    for c, free in s._free_cache.items():
        assert free == ref._free_edges(c), c


def same_blocking(s: EurorailsState, rng: random.Random, sample: int) -> None:
    """``sample`` candidate builds of every seat: the answers equal the reference's."""
    ref = fresh(s)
    for p in range(s.game.num_players):
        cands = candidates(s, p)
        for a, d in rng.sample(cands, min(sample, len(cands))):
            assert s.blocked_by_build(p, a, d) == ref.blocked_by_build_reference(p, a, d), (
                p,
                a,
                d,
            )


def corridors(players: int, rng: random.Random) -> EurorailsState:
    """A position where seat 0 owns every segment but a random spanning tree of the map
    and a few more: the others' graphs are that tree with some cycles, so many segments
    are bridges and building on a cycle turns others into bridges."""
    game = motherlode.load("eurorails", players=players)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    b = game.board
    start = b.city_centre[b.majors[0]]
    seen = {start}
    frontier = [e for _, e in game.adj[start]]
    keep: set[int] = set()
    while frontier:
        e = frontier.pop(rng.randrange(len(frontier)))
        for m in b.edge_ends[e]:
            if m not in seen:
                seen.add(m)
                keep.add(e)
                frontier.extend(f for _, f in game.adj[m])
    free = [e for e in range(len(b.edge_ends)) if not b.edge_internal[e] and e not in keep]
    keep.update(rng.sample(free, rng.choice((20, 60, 150))))
    for e in free:
        if e not in keep:
            s.edge_owner[e] = 0
    s._rebuild_touch()
    return s


def walled(players: int, rng: random.Random) -> EurorailsState:
    """A position with a random share of the map's segments owned at random."""
    game = motherlode.load("eurorails", players=players)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    b = game.board
    share = rng.choice((0.1, 0.25, 0.4))
    for e in range(len(b.edge_ends)):
        if not b.edge_internal[e] and rng.random() < share:
            s.edge_owner[e] = rng.randrange(players)
    for k, link in enumerate(b.links):
        s.link_owners[k] = rng.sample(range(players), rng.randrange(link.capacity + 1))
    s._rebuild_touch()
    return s


def lines_one_short(players: int, rng: random.Random) -> EurorailsState:
    """A position where each line to Britain has one place left (or is full), with random
    track: taking a last place closes both ports to the others (the closed-line
    witnesses), and taking the last open line would block."""
    game = motherlode.load("eurorails", players=players)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    b = game.board
    for e in range(len(b.edge_ends)):
        if not b.edge_internal[e] and rng.random() < 0.15:
            s.edge_owner[e] = rng.randrange(players)
    for k, link in enumerate(b.links):
        full = rng.random() < 0.4
        s.link_owners[k] = rng.sample(range(players), link.capacity - (0 if full else 1))
    s._rebuild_touch()
    return s


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_kept_blocking_answers_match_the_check_from_scratch_in_walled_positions(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    make = (walled, corridors, lines_one_short)[seed % 3]
    s = make(players, rng)
    same_blocking(s, rng, 25)
    same_witnesses(s)
    for step in range(30):
        if step % 10 == 9:  # a flood washes track away: what was kept must not survive it
            s._event(rng.choice(FLOODS), rng.randrange(players))
        if step % 10 == 4:  # segments change owner as a trade makes them (the seller's
            # own witness may hold them)
            sold = [e for e in range(len(s.edge_owner)) if s.edge_owner[e] >= 0]
            for e in rng.sample(sold, min(len(sold), 12)):
                frm, to = s.edge_owner[e], rng.randrange(players)
                s.edge_owner[e] = to
                for m in s.game.board.edge_ends[e]:
                    s._touch(frm, m, -1)
                    s._touch(to, m, 1)
            s._present_cache.clear()
        p = rng.randrange(players)
        cands = candidates(s, p)
        rng.shuffle(cands)
        ref = fresh(s)
        # a legal build (for the blocking rule) by p; every other step after asking for
        # p's candidates (so that answers were kept before the build)
        if step % 2:
            for a, d in cands[:40]:
                s.blocked_by_build(p, a, d)
        legal = next((c for c in cands if ref.blocked_by_build_reference(p, *c) < 0), None)
        if legal is None:
            continue
        s._build(p, *legal)
        same_blocking(s, rng, 15)
        same_witnesses(s)
        same_city_counts(s)
        # a clone keeps what was found, and each goes on on its own
        twin = s.clone()
        same_blocking(twin, rng, 5)
        same_witnesses(twin)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_the_listed_builds_match_build_refusal_in_random_games(players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = motherlode.load("eurorails", players=players, turn_limit=4)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    builds = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        if s.phase == BUILD and not s.pending and not s.offer and s.tosser() < 0:
            p = s.turn_player()
            got = sorted(s._build_actions(p))
            assert got == sorted(fresh(s)._build_actions_reference(p)), s.move_number()
            builds += 1
            if builds % 7 == 0:
                same_witnesses(s)
                same_city_counts(s)
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    assert builds > 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_the_listed_builds_match_when_events_come_in_the_building_phase(
    players: int, seed: int
) -> None:
    """Random games where, now and then in a building phase, a weather, flood or Wildcat
    strike event comes into play or a washed-away bridge is reserved (the listing's tables
    are kept for the events in play and the reserved bridges): the listed builds are still
    the reference's."""
    rng = random.Random(seed)
    game = motherlode.load("eurorails", players=players, turn_limit=4)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    cards = (149, 151, 152, 155, 156, 157, 158, 159)
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        if s.phase == BUILD and not s.pending and not s.offer and s.tosser() < 0:
            p = s.turn_player()
            if rng.random() < 0.15:
                card = rng.choice(cards)
                if all(a[0] != card for a in s.active):
                    if card in s.draw:
                        s.draw.remove(card)
                    s._event(card, rng.randrange(players))
                    s._settle()
            if rng.random() < 0.2:  # a free segment next to p's track, reserved for another
                near = [e for a in s.net[p] for _, e in game.adj[a] if s.edge_owner[e] < 0]
                if near:
                    o = rng.choice([q for q in range(players) if q != p])
                    s.reserve.append([rng.choice(near), o, s.turns_done[o] + 1])
            if s.phase == BUILD and not s.is_terminal() and not s.is_chance_node():
                got = sorted(s._build_actions(p))
                assert got == sorted(fresh(s)._build_actions_reference(p)), s.move_number()
                checked += 1
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 0


@pytest.mark.parametrize(
    "config",
    [
        {"players": 3, "turn_limit": 6, "challenge_track_trading": True},
        {"players": 3, "turn_limit": 6, "challenge_additional_trains": True},
        {"players": 6, "turn_limit": 6},
    ],
)
def test_the_listed_builds_match_on_clones_searched_like_mcts(config: dict[str, object]) -> None:
    """Random games where at every decision a clone plays a few random steps on (as MCTS's
    rollouts do: the clones share what was kept and must not disturb each other): the
    listed builds equal the reference's in the game and in the clones, trades included."""
    rng = random.Random(7)
    game = motherlode.load("eurorails", **config)
    s = game.new_initial_state()
    assert isinstance(s, EurorailsState)
    step = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        step += 1
        if step % 3 == 0:
            twin = s.clone()
            for _ in range(12):
                if twin.is_terminal():
                    break
                if twin.is_chance_node():
                    twin.apply_unchecked(twin.sample_chance(rng))
                    continue
                legal = twin.legal_actions()
                twin.apply_unchecked(legal[rng.randrange(len(legal))])
            if (
                twin.phase == BUILD
                and not twin.is_chance_node()
                and not twin.is_terminal()
                and not twin.pending
                and not twin.offer
                and twin.tosser() < 0
            ):
                p = twin.turn_player()
                want = sorted(fresh(twin)._build_actions_reference(p))
                assert sorted(twin._build_actions(p)) == want
        if s.phase == BUILD and not s.pending and not s.offer and s.tosser() < 0:
            p = s.turn_player()
            assert sorted(s._build_actions(p)) == sorted(fresh(s)._build_actions_reference(p))
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    same_witnesses(s)

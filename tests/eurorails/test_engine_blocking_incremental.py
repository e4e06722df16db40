"""The blocking rule's answers kept from build to build (``_cut_cache``, see
``BlockingRules._blocks``) against the check from scratch: the same legal builds and the
same blocked seat, in walled random positions moved on by legal builds and floods, and in
whole random games, for every player count.

The reference is a clone whose derived fields and caches are rebuilt (``_rebuild_touch``)
and asked through ``blocked_by_build_reference`` and ``_build_actions_reference`` (every
candidate through ``build_refusal``), which is the check as it was before answers were kept.
"""

from __future__ import annotations

import random

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


def same_blocking(s: EurorailsState, rng: random.Random, sample: int) -> None:
    """``sample`` candidate builds of every seat: the kept answers equal the reference's."""
    ref = fresh(s)
    for p in range(s.game.num_players):
        cands = candidates(s, p)
        for a, d in rng.sample(cands, min(sample, len(cands))):
            assert s.blocked_by_build(p, a, d) == ref.blocked_by_build_reference(p, a, d), (
                p,
                a,
                d,
            )


def same_kept(s: EurorailsState, rng: random.Random, sample: int) -> None:
    """Up to ``sample`` of the per-seat answers kept in ``_cut_cache`` for a free segment, asked
    again: the same as from scratch (a kept path whose segment was built since must not
    answer)."""
    ref = fresh(s)
    b = s.game.board
    keys = [k for k in s._cut_cache if k >= 0 and s.edge_owner[k // 8] < 0]
    for key in rng.sample(keys, min(sample, len(keys))):
        e, q = divmod(key, 8)
        p = (q + 1) % s.game.num_players
        x, y = b.edge_ends[e]
        assert s._blocks(q, p, e, x, y, -1) == ref._blocks_reference(q, p, e, x, y, -1), key
    # the kept "last place on a line" answers (key -1 - (line * 8 + seat)), asked again where
    # the line is still one place short of full without q
    lines = [k for k in s._cut_cache if k < 0]
    for key in rng.sample(lines, min(sample, len(lines))):
        k, q = divmod(-1 - key, 8)
        owners = s.link_owners[k]
        if q in owners or len(owners) + 1 != b.links[k].capacity:
            continue
        takers = [p for p in range(s.game.num_players) if p != q and p not in owners]
        port = b.links[k].ends[0]
        free = [e for _, e, _ in s.game.build_out[port] if s.edge_owner[e] < 0]
        if takers and free:
            p, e = takers[0], free[0]
            assert s._fill_blocks(q, p, e, k, keep=True) == ref._fill_blocks(q, p, e, k), key


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


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_kept_blocking_answers_match_the_check_from_scratch_in_walled_positions(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    s = walled(players, rng) if seed % 2 else corridors(players, rng)
    same_blocking(s, rng, 25)
    for step in range(30):
        if step % 10 == 9:  # a flood washes track away: what was kept must not survive it
            s._event(rng.choice(FLOODS), rng.randrange(players))
        p = rng.randrange(players)
        cands = candidates(s, p)
        rng.shuffle(cands)
        ref = fresh(s)
        legal = next((c for c in cands if ref.blocked_by_build_reference(p, *c) < 0), None)
        if legal is None:
            continue
        s._build(p, *legal)  # a legal build (for the blocking rule) by p
        same_blocking(s, rng, 15)
        same_kept(s, rng, 150)
        # a clone keeps what was found, and each goes on on its own
        twin = s.clone()
        same_blocking(twin, rng, 5)


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
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    assert builds > 0

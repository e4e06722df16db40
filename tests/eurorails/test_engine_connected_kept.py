"""The major cities a seat's track joins, kept on the state (``_conn_cache``, forgotten by
``_touch`` at any change to the seat's track) against the search from scratch
(``_majors_connected``): at every decision of random games in every conformance config
(floods erase track, track trading moves it between seats), on clones that go their own
way, and after a position is read back from its notation; and the victory condition's
bound (``majors_reached``), which spares the search where it cannot be met."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.games.eurorails.game import EurorailsGame, EurorailsState


def _reference_majors(s: EurorailsState, p: int) -> int:
    """The most major cities one piece of p's track joins, searched over the board's
    raw tables (each milepost's six directions), a red area joining its mileposts."""
    b = s.game.board
    best = 0
    for city in b.majors:
        comp = set(b.city_posts[city])
        if comp.isdisjoint(s.net[p]):
            continue
        stack = list(comp)
        while stack:
            m = stack.pop()
            step = [
                b.nb[m * 6 + d]
                for d in range(6)
                if (e := b.eid[m * 6 + d]) >= 0 and (s.edge_owner[e] == p or b.edge_internal[e])
            ]
            k = b.link_at[m]
            if k >= 0 and p in s.link_owners[k]:
                step += b.links[k].ends
            c = b.city_of[m]
            if c in b.majors:
                step += b.city_posts[c]
            for x in step:
                if x not in comp:
                    comp.add(x)
                    stack.append(x)
        best = max(best, sum(1 for c in b.majors if b.city_posts[c][0] in comp))
    return best


def _check(s: EurorailsState) -> list[int]:
    got = [s.majors_connected(p) for p in range(s.game.seats)]
    assert got == [s._majors_connected(p) for p in range(s.game.seats)]
    assert got == [_reference_majors(s, p) for p in range(s.game.seats)]
    # the victory condition's answer, searched only where the cities reached allow it,
    # against the count for every number of cities a config may ask (nothing kept)
    for p, count in enumerate(got):
        assert s.majors_reached(p) >= count
        for need in range(1, 9):
            s._conn_cache[p] = -1
            assert s.connects_at_least(p, need) == (count >= need), (p, need, count)
        s._conn_cache[p] = count
    return got


@pytest.mark.parametrize(
    "config",
    EurorailsGame.conformance_configs(),
    ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()),
)
def test_the_kept_count_of_majors_joined_equals_the_search_in_random_games(
    config: dict[str, object],
) -> None:
    game = motherlode.load("eurorails", **config)
    rng = random.Random(5)
    seen: set[int] = set()
    for _ in range(2):
        s = game.new_initial_state()
        assert isinstance(s, EurorailsState)
        branch: EurorailsState | None = None
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_unchecked(s.sample_chance(rng))
                continue
            seen.update(_check(s))
            legal = s.legal_actions()
            if branch is None and len(s._history) > 40:
                branch = s.clone()  # shares nothing it may change with s
            s.apply_unchecked(legal[rng.randrange(len(legal))])
        _check(s)
        if branch is not None:
            for _ in range(30):
                if branch.is_terminal():
                    break
                if branch.is_chance_node():
                    branch.apply_unchecked(branch.sample_chance(rng))
                else:
                    legal = branch.legal_actions()
                    branch.apply_unchecked(legal[rng.randrange(len(legal))])
                    _check(branch)
    assert seen >= {0, 1}  # the counts moved: a stale one would have been caught


def test_a_position_read_back_counts_its_majors_anew() -> None:
    game = motherlode.load("eurorails", players=2)
    rng = random.Random(2)
    s = game.new_initial_state()
    for _ in range(300):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_unchecked(s.sample_chance(rng))
        else:
            s.majors_connected(0)
            legal = s.legal_actions()
            s.apply_unchecked(legal[rng.randrange(len(legal))])
    again = game.deserialize(s.serialize())
    assert isinstance(again, EurorailsState)
    assert _check(again) == _check(s)

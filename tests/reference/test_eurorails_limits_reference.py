"""Eurorails building limits at their boundaries, each side asked of the engine.

Every case puts the engine one step short of a limit (allowed: no refusal, and the build is
among the legal moves) and at the limit (refused, naming the rule, and not legal), so a
limit off by one either way fails here. Positions are built with tests/eurorails/helpers.py.
"""

from __future__ import annotations

import pytest

from motherlode.games.eurorails.board import CLEAR, MEDIUM, MOUNTAIN, SMALL
from motherlode.games.eurorails.game import BUILD, EurorailsState
from tests.eurorails.helpers import build_action, city, draw, lay, place, set_turn, standard


def _major_out(s: EurorailsState, kind: int) -> list[tuple[int, int]]:
    """Buildable edges (outpost, neighbour) from major-city outposts to ``kind`` terrain."""
    b = s.game.board
    out = []
    for a in b.major_posts:
        for d in range(6):
            e, x = b.eid[a * 6 + d], b.nb[a * 6 + d]
            if (
                e >= 0
                and not b.edge_internal[e]
                and b.terrain[x] == kind
                and b.edge_cross_cost[e] == 0
                and b.link_at[x] < 0
            ):
                out.append((a, x))
    return out


def _verdict(s: EurorailsState, p: int, a: int, x: int) -> tuple[str | None, bool]:
    """(the refusal, whether the build is a legal move) of seat ``p`` building a -> x."""
    act = build_action(s, a, x)
    return s.build_refusal(p, a, act % 6), act in s.legal_actions()


# "A player may spend up to 20 million to build track or to upgrade his train." (Building
# Phase). Clear terrain costs 1, mountain 2: spent + cost = 20 is allowed, 21 is not.
@pytest.mark.parametrize(
    ("spent", "kind", "allowed"),
    [(19, CLEAR, True), (18, MOUNTAIN, True), (19, MOUNTAIN, False), (20, CLEAR, False)],
    ids=["19+1=20", "18+2=20", "19+2=21", "20+1=21"],
)
def test_the_20_million_building_limit_at_exactly_20_and_21(
    spent: int, kind: int, allowed: bool
) -> None:
    s = standard(2)
    p = s.current_player()
    s.spent = spent
    a, x = _major_out(s, kind)[0]
    refusal, legal = _verdict(s, p, a, x)
    assert legal is allowed
    if allowed:
        assert refusal is None
    else:
        assert refusal is not None and f"only {20 - spent} of the 20 remain" in refusal


# "During his turn, a player may not build more than two track segments from major city
# mileposts." (Limits on Building from Major Cities): the second is allowed, the third not.
def test_two_segments_out_of_major_cities_the_second_allowed_the_third_refused() -> None:
    s = standard(2)
    p = s.current_player()
    outs = _major_out(s, CLEAR)
    # three edges from three different outposts, far enough apart not to touch
    picks = [outs[0]]
    for a, x in outs:
        if all(a != q and x != y for q, y in picks):
            picks.append((a, x))
        if len(picks) == 3:
            break
    s.apply_action(build_action(s, *picks[0]))
    assert _verdict(s, p, *picks[1]) == (None, True)
    s.apply_action(build_action(s, *picks[1]))
    refusal, legal = _verdict(s, p, *picks[2])
    assert not legal and "at most two segments" in (refusal or "")


def _spokes(s: EurorailsState, size: int) -> tuple[int, list[tuple[int, int]]]:
    """A city of ``size`` and four (neighbour, milepost behind it) spokes of plain track."""
    b = s.game.board
    for c, sz in enumerate(b.city_size):
        if sz != size:
            continue
        m = b.city_centre[c]
        near = {b.nb[m * 6 + d] for d in range(6)}
        spokes = []
        for d in range(6):
            x = b.nb[m * 6 + d]
            if x < 0 or b.city_of[x] >= 0 or b.link_at[x] >= 0 or b.eid[m * 6 + d] < 0:
                continue
            behind = [
                y
                for k in range(6)
                if (y := b.nb[x * 6 + k]) >= 0
                and b.city_of[y] < 0
                and b.link_at[y] < 0
                and y not in near
            ]
            if behind:
                spokes.append((x, behind[0]))
        if len(spokes) >= 4:
            return m, spokes
    raise AssertionError("no such city")


# "Only three players may build track into a medium city (squares), and only two players may
# build track into a small city (circles)." (Limits on Entry into Medium and Small Cities)
@pytest.mark.parametrize(("size", "limit", "word"), [(SMALL, 2, "small"), (MEDIUM, 3, "medium")])
def test_city_entry_the_last_player_allowed_the_next_refused(
    size: int, limit: int, word: str
) -> None:
    s = standard(4)
    town, spokes = _spokes(s, size)
    for q in range(limit + 1):
        x, behind = spokes[q]
        lay(s, q, [behind, x])  # every seat has track next to the city
    for q in range(limit + 1):
        x, _ = spokes[q]
        set_turn(s, q, BUILD)
        refusal, legal = _verdict(s, q, x, town)
        if q < limit:
            assert (refusal, legal) == (None, True), f"P{q + 1} may enter a {word} city"
            lay(s, q, [x, town])
        else:
            assert not legal
            assert f"only {limit} players may build into a {word} city" in (refusal or "")


def _play_rounds(s: EurorailsState, rounds: int) -> None:
    """Every seat ends its movement and building at once, for ``rounds`` rounds."""
    g = s.game
    for _ in range(rounds * g.num_players):
        assert not s.is_terminal()
        s.apply_action(g.END_MOVE)
        s.apply_action(g.END_BUILD)


# "Once time has expired, play continues for one last round (so all players get an equal
# number of turns). The player who has a continuous line of track that connects the required
# major cities, and who has the most cash on hand, is the winner. If no player's track
# connects enough major cities, the player with the most cash wins." (Special Tournament
# Rule -- Time Limits; ``turn_limit`` counts the rounds.) A tie in cash is shared.
@pytest.mark.parametrize(
    ("linked", "cash", "winners", "returns"),
    [
        ((), [120, 120, 80], (0, 1), [1.0, 1.0, -1.0]),
        ((), [120, 119, 80], (0,), [1.0, -1.0, -1.0]),
        ((1, 2), [200, 90, 90], (1, 2), [-1.0, 1.0, 1.0]),
        ((1, 2), [200, 90, 89], (1,), [-1.0, 1.0, -1.0]),
    ],
    ids=["none-linked-tie", "none-linked-by-one", "linked-tie", "linked-by-one"],
)
def test_time_limit_ties_are_shared_and_connection_comes_first(
    linked: tuple[int, ...], cash: list[int], winners: tuple[int, ...], returns: list[float]
) -> None:
    s = standard(3, turn_limit=2)
    s.connected = lambda p: p in linked  # type: ignore[method-assign]
    s.cash = list(cash)
    s.pos = [city(s, "Paris")] * 3
    set_turn(s, s.first)
    _play_rounds(s, 1)
    assert not s.is_terminal(), "the first of two rounds does not reach the limit"
    _play_rounds(s, 1)
    assert s.is_terminal()
    assert s.winners() == winners and s.returns() == returns


# "No track may be built which would prevent a second or third player from building track
# into a medium city." (Limits on Entry into Medium and Small Cities.) München (medium, six
# plain edges): P1 has one section in, P2 three. P1's second leaves one free edge for a third
# player (allowed); its third would leave none: refused with three seats, allowed with two
# (nobody else is left to come in).
@pytest.mark.parametrize(("players", "third"), [(3, False), (2, True)])
def test_medium_city_keeps_an_edge_for_the_third_player(players: int, third: bool) -> None:
    s = standard(players)
    b = s.game.board
    m = b.city_centre[b.city_index("München")]
    assert b.city_size[b.city_index("München")] == MEDIUM
    near = [b.nb[m * 6 + d] for d in range(6)]
    lay(s, 0, [near[0], m])
    for d in (1, 2, 3):
        lay(s, 1, [near[d], m])
    set_turn(s, 0, BUILD)
    assert _verdict(s, 0, m, near[4]) == (None, True)
    s.apply_action(build_action(s, m, near[4]))
    refusal, legal = _verdict(s, 0, m, near[5])
    if third:
        assert (refusal, legal) == (None, True)
    else:
        assert not legal
        assert refusal == "it would prevent another player from building into the city"


# "If the draw deck runs out during the game, reshuffle the discard pile and form a new draw
# deck." (Preparation.) P1 delivers on card 1 with the draw pile down to its last two demand
# cards (7, 8) or its last one (7), every other card discarded: the chance node offers
# exactly what is left; drawing the last card, and only the last, turns the 161 discards and
# card 1 into the new draw pile.
@pytest.mark.parametrize(
    ("left", "outcomes", "after"),
    [([7, 8], [(6, 0.5), (7, 0.5)], (1, 161)), ([7], [(6, 1.0)], (162, 0))],
    ids=["two-left", "the-last-card"],
)
def test_the_last_card_of_the_draw_pile_reshuffles_the_discards(
    left: list[int], outcomes: list[tuple[int, float]], after: tuple[int, int]
) -> None:
    s = standard(2)
    b = s.game.board
    s.discard = sorted(c for c in s.draw if c not in left)
    s.draw = list(left)
    assert s.hands[0] == [1, 2, 3]
    dem = b.demands[1][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    s.apply_action(s.game.DELIVER0)
    assert s.chance_outcomes() == outcomes
    draw(s, 7)
    o = s.observation(0)
    assert (o["draw_pile"], len(o["discard_pile"])) == after
    assert s.hands[0] == [2, 3, 7] and s.current_player() == 0

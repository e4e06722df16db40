"""Building exact Eurorails positions for the engine's scenario tests.

Positions are reached through the engine's own actions where that is short (the deal is
a list of chance outcomes: card numbers), and otherwise by laying track and placing trains
directly, then rebuilding the derived structures (``_rebuild_touch``), as a position
notation would.
"""

from __future__ import annotations

import itertools
from collections import deque

from motherlode.games.eurorails.board import Board
from motherlode.games.eurorails.game import BUILD, OPS, EurorailsGame, EurorailsState
from motherlode.games.eurorails.places import milepost_name


def game(players: int = 2, **options: object) -> EurorailsGame:
    return EurorailsGame.from_config(players=players, **options)


def dealt(g: EurorailsGame, hands: list[list[int]]) -> EurorailsState:
    """A new game dealt exactly these cards, in seat order (events are set aside)."""
    s = g.new_initial_state()
    for hand in hands:
        for card in hand:
            s.apply_action(card - 1)
    assert s.phase != 0, "the deal is not complete"
    return s


def standard(players: int = 2, **options: object) -> EurorailsState:
    """A game dealt cards 1-3 to P1, 4-6 to P2, and so on."""
    g = game(players, **options)
    return dealt(g, [[3 * q + 1, 3 * q + 2, 3 * q + 3] for q in range(players)])


def set_turn(s: EurorailsState, p: int, phase: int = OPS) -> None:
    """Make it seat ``p``'s normal turn (round 0 or later), at the start of ``phase``."""
    n = s.game.num_players
    bt = s.game.cfg.building_turns
    t = bt * n
    while s.turn_player() != p or s.t < bt * n:
        s.t = t
        t += 1
    s.phase = OPS
    s.spent = s.from_major = s.upgraded = 0
    s.halved = 0
    s.rented = [0] * n
    s.blocked = []
    if s.pos[p] >= 0:
        s._start_moves(p)
    else:
        s.moves = 0
    s.moves2 = s.halved2 = 0
    if s.pos2 and s.pos2[p] >= 0:  # Additional Trains: the second train's allowance
        s._swap(p)
        s._start_moves(p)
        s._swap(p)
    s.phase = phase


def path(b: Board, a: int, c: int, avoid_cities: bool = False) -> list[int]:
    """A shortest lattice path of mileposts from ``a`` to ``c`` (inclusive)."""
    prev = {a: -1}
    queue = deque([a])
    while queue:
        m = queue.popleft()
        if m == c:
            break
        for d in range(6):
            x = b.nb[m * 6 + d]
            if x >= 0 and x not in prev:
                if avoid_cities and b.city_of[x] not in (-1, b.city_of[a], b.city_of[c]):
                    continue
                prev[x] = m
                queue.append(x)
    out = [c]
    while prev[out[-1]] >= 0:
        out.append(prev[out[-1]])
    return out[::-1]


def lay(s: EurorailsState, p: int, posts: list[int]) -> None:
    """Give seat ``p`` the track along ``posts`` (red-area edges are skipped)."""
    b = s.game.board
    for x, y in itertools.pairwise(posts):
        d = direction(b, x, y)
        e = b.eid[x * 6 + d]
        if not b.edge_internal[e]:
            s.edge_owner[e] = p
    s._rebuild_touch()


def direction(b: Board, a: int, c: int) -> int:
    for d in range(6):
        if b.nb[a * 6 + d] == c:
            return d
    raise AssertionError(f"{a} and {c} are not neighbours")


def build_action(s: EurorailsState, a: int, c: int) -> int:
    return a * 6 + direction(s.game.board, a, c)


def place(s: EurorailsState, p: int, m: int, prev: int = -1) -> None:
    s.pos[p] = m
    s.prev[p] = prev


def place2(s: EurorailsState, p: int, m: int, prev: int = -1) -> None:
    """Additional Trains: put seat ``p``'s second train at ``m``."""
    s.pos2[p] = m
    s.prev2[p] = prev


def city(s: EurorailsState, name: str) -> int:
    """The centre milepost of a city."""
    b = s.game.board
    return b.city_centre[b.city_index(name)]


def nm(s: EurorailsState, m: int) -> str:
    """Milepost ``m``'s name in the notation (``Lyon``, ``Paris-NE``, ``AD46``)."""
    return milepost_name(s.game.board, m)


def legal_strings(s: EurorailsState) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def draw(s: EurorailsState, card: int) -> None:
    """Resolve the chance node by drawing ``card``."""
    assert s.is_chance_node()
    s.apply_action(card - 1)


__all__ = ["BUILD", "OPS"]

"""El Dorado reference positions from the rulebook and our round-limit extension.

The round limit (``max_rounds``, our extension; the config's description): "if nobody
entered El Dorado by then, most temples offered in wins, then most coins offered".
"""

from __future__ import annotations

from tests.eldorado.helpers import game, position


def test_nobody_entered_most_temples_first_then_coins() -> None:
    # P1 offered in two temples (2 coins in all), P2 in one temple (5 coins), P3 in none:
    # temples decide before coins, so P1 wins although P2 offered more coins
    g = game(players=3, max_rounds=2)
    s = position(g, seat=2, phase="use", held={0: ("machete", 1)}, round=2,
                 visited={0: ["a2", "b2", "c2", "d2", "c3"], 1: ["a4", "b4"], 2: []},
                 offers={0: [("e2", 1), ("c4", 1)], 1: [("c4", 5)]})
    s.apply_string("d0 move a1")
    assert s.is_terminal()
    assert [s.temples_offered(p) for p in range(3)] == [2, 1, 0]
    assert s.scores() == [2.0, 5.0, 0.0]
    assert s.winners() == (0,)
    assert s.returns()[0] > s.returns()[1]


def test_nobody_entered_equal_temples_most_coins_then_shared() -> None:
    for offers, winners in [
        ({0: [("e2", 3)], 1: [("c4", 3)]}, (0, 1)),
        ({0: [("e2", 2)], 1: [("c4", 3)]}, (1,)),
    ]:
        g = game(players=3, max_rounds=2)
        s = position(g, seat=2, phase="use", held={0: ("machete", 1)}, round=2,
                     visited={0: ["a2", "b2", "c2", "d2"], 1: ["a4", "b4"], 2: []},
                     offers=offers)
        s.apply_string("d0 move a1")
        assert s.is_terminal() and s.winners() == winners

"""The Chunnel variation (rulebook, The Chunnel: "Variation: Do not use this upgrade
restriction."): config ``chunnel_needs_upgrade=False``."""

from __future__ import annotations

from tests.eurorails.helpers import lay, place, set_turn, standard

from motherlode.games.eurorails.game import EurorailsState


def _chunnel(s: EurorailsState) -> int:
    return next(k for k, x in enumerate(s.game.board.links) if x.name == "Chunnel")


def _approach(s: EurorailsState, k: int) -> tuple[int, int]:
    """Lay seat 0 two mileposts of track ending next to the Chunnel's first end; return the
    milepost next to it and the direction of the end."""
    b = s.game.board
    end = b.links[k].ends[0]
    nb = next(
        b.nb[end * 6 + d]
        for d in range(6)
        if b.nb[end * 6 + d] >= 0 and b.link_at[b.nb[end * 6 + d]] < 0
    )
    lay(s, 0, [next(b.nb[nb * 6 + d] for d in range(6) if b.nb[nb * 6 + d] not in (-1, end)), nb])
    return nb, [b.nb[nb * 6 + x] for x in range(6)].index(end)


def test_chunnel_variation_a_freight_may_build_the_chunnel() -> None:
    s = standard(2, starting_cash=100, chunnel_needs_upgrade=False)
    assert s.current_player() == 0
    b = s.game.board
    k = _chunnel(s)
    nb, d = _approach(s, k)
    assert s.train[0] == 0
    assert s.build_refusal(0, nb, d) is None
    assert "build" in s.action_to_string(nb * 6 + d)
    s.apply_action(nb * 6 + d)
    assert s.link_owners[k] == [0]
    assert s.cash[0] == 100 - 20 - b.edge_cross_cost[b.eid[nb * 6 + d]]
    # still only one owner of the Chunnel
    assert "only 1 player(s) may build to the Chunnel" in (
        s._limit_refusal(1, b.links[k].ends[1], -1, -1) or ""
    )


def test_chunnel_restriction_is_the_default() -> None:
    s = standard(2, starting_cash=100)
    nb, d = _approach(s, _chunnel(s))
    assert "Fast or Heavy Freight" in (s.build_refusal(0, nb, d) or "")


def test_chunnel_variation_a_freight_may_rent_the_chunnel() -> None:
    s = standard(2, chunnel_needs_upgrade=False)
    b = s.game.board
    k = _chunnel(s)
    s.link_owners[k] = [1]
    s._rebuild_touch()
    place(s, 0, b.links[k].ends[0])
    set_turn(s, 0)
    assert s.train[0] == 0 and s.moves == 9
    assert s._chunnel_refusal(0) is None
    assert "chunnel" in [s.action_to_string(a) for a in s.legal_actions()]
    s.apply_action(s.game.CHUNNEL_MOVE)
    assert s.pos[0] == b.links[k].ends[1]
    assert s.cash == [46, 54]
    assert s.moves == 9 - b.links[k].length

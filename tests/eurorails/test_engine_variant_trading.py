"""Challenge Game, Selling and Trading Track (config ``challenge_track_trading``).

"Selling and Trading Track — Instead of building track, a player may purchase track from
another player for whatever price both players agree to. The purchase may take place only
in the purchasing player's turn. Players can agree to trade track for track, with no money
involved. In both trading and selling, the selling player replaces his colored lines with
lines of the new owner's color."
"""

from __future__ import annotations

import itertools
from html import escape

import pytest
from tests.eurorails.helpers import (
    BUILD,
    OPS,
    build_action,
    city,
    lay,
    legal_strings,
    nm,
    path,
    set_turn,
    standard,
)

import motherlode
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.games.eurorails.bot import GreedyAgent
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.places import milepost_index


def index(s: EurorailsState, name: str) -> int:
    return milepost_index(s.game.board, name)


def seg(s: EurorailsState, a: int, c: int) -> str:
    """The notation of the segment between mileposts ``a`` and ``c`` (lower id first)."""
    return f"{nm(s, min(a, c))}>{nm(s, max(a, c))}"


def edge(s: EurorailsState, a: int, c: int) -> int:
    b = s.game.board
    return next(b.eid[a * 6 + d] for d in range(6) if b.nb[a * 6 + d] == c)


def outward(s: EurorailsState, start: str, toward: str) -> list[int]:
    """Six mileposts from the last red-area milepost of ``start`` toward ``toward``: five
    segments anyone may own."""
    b = s.game.board
    route = path(b, city(s, start), city(s, toward), avoid_cities=True)
    home = b.city_of[route[0]]
    k = max(i for i, m in enumerate(route) if b.city_of[m] == home)
    return route[k : k + 6]


def position() -> tuple[EurorailsState, list[int], list[int]]:
    """P1 has track out of Paris toward Lyon, P2 out of Berlin toward Leipzig; P1's building
    phase of a normal turn."""
    s = standard(2, challenge_track_trading=True)
    mine = outward(s, "Paris", "Lyon")
    theirs = outward(s, "Berlin", "Leipzig")
    lay(s, 0, mine)
    lay(s, 1, theirs)
    set_turn(s, 0, BUILD)
    return s, mine, theirs


def assert_caches_right(s: EurorailsState) -> None:
    """The derived structures equal those rebuilt from the track (as a position load does)."""
    again = s.game.deserialize(s.serialize())
    assert again.touch == s.touch and again.net == s.net
    for q in range(s.game.num_players):
        assert again.majors_connected(q) == s.majors_connected(q)
        assert again.majors_reachable(q) == s.majors_reachable(q)
    s.check_invariants()


def test_selling_track_the_seller_recolours_and_the_price_is_paid() -> None:
    s, _, theirs = position()
    x, y = theirs[2], theirs[3]
    s.apply_string("offer P2")
    assert f"take {seg(s, x, y)}" in legal_strings(s)
    s.apply_string(f"take {seg(s, x, y)}")
    s.apply_string("price 7")
    assert legal_strings(s) == ["withdraw", "propose"]
    s.apply_string("propose")
    assert s.turn_player() == 0 and s.current_player() == 1, "the seller decides in P1's turn"
    assert legal_strings(s) == ["accept", "refuse"]
    s.apply_string("accept")
    assert s.edge_owner[edge(s, x, y)] == 0, "now in the buyer's colour"
    assert s.cash == [43, 57]
    assert s.current_player() == 0 and s.phase == BUILD, "back to the buyer"
    assert x in s.net[0] and y in s.net[0]
    assert y in s.track_component(0, [x])
    assert_caches_right(s)


def test_trade_track_for_track_with_no_money_involved() -> None:
    s, mine, theirs = position()
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, theirs[1], theirs[2])}")
    s.apply_string(f"give {seg(s, mine[3], mine[4])}")
    s.apply_string("price 0")
    s.apply_string("propose")
    s.apply_string("accept")
    assert s.edge_owner[edge(s, theirs[1], theirs[2])] == 0
    assert s.edge_owner[edge(s, mine[3], mine[4])] == 1
    assert s.cash == [50, 50]
    obs = s.observation(None)  # track as runs of named mileposts

    def pairs(runs: list[str]) -> set[str]:
        return {
            seg(s, *sorted(index(s, x) for x in p))
            for r in runs
            for p in itertools.pairwise(r.split(">"))
        }

    assert seg(s, theirs[1], theirs[2]) in pairs(obs["players"][0]["track"])
    assert seg(s, mine[3], mine[4]) in pairs(obs["players"][1]["track"])
    assert_caches_right(s)


def test_a_refused_offer_changes_nothing_and_is_made_once_a_turn() -> None:
    s, _, theirs = position()
    owners, cash = list(s.edge_owner), list(s.cash)
    builds_before = [a for a in s.legal_actions() if a < s.game.U0]
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, theirs[0], theirs[1])}")
    s.apply_string("price 50")
    s.apply_string("propose")
    s.apply_string("refuse")
    assert s.edge_owner == owners and s.cash == cash
    assert [a for a in s.legal_actions() if a < s.game.U0] == builds_before, "building stays"
    assert "offer P2" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="one offer to P2 a turn"):
        s.apply_string("offer P2")
    s.apply_string("end turn")
    set_turn(s, 0, BUILD)
    assert "offer P2" in legal_strings(s), "a new turn, a new offer"


def test_a_withdrawn_offer_changes_nothing() -> None:
    s, _, theirs = position()
    owners = list(s.edge_owner)
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, theirs[0], theirs[1])}")
    s.apply_string("withdraw")
    assert s.edge_owner == owners and s.cash == [50, 50] and s.offer == []
    assert s.current_player() == 0 and "offer P2" not in legal_strings(s)


def test_instead_of_building_no_building_after_a_purchase() -> None:
    s, mine, theirs = position()
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, theirs[0], theirs[1])}")
    s.apply_string("price 1")
    s.apply_string("propose")
    s.apply_string("accept")
    assert legal_strings(s) == ["end turn"], "no building, no upgrade after a purchase"
    nxt = path(s.game.board, mine[5], city(s, "Lyon"))[1]
    with pytest.raises(IllegalActionError, match="instead of building"):
        s.apply_action(build_action(s, mine[5], nxt))
    s.apply_string("end turn")
    assert s.turn_player() == 1


def test_instead_of_building_no_purchase_after_building_or_in_the_move() -> None:
    s, mine, _ = position()
    set_turn(s, 0, OPS)
    with pytest.raises(IllegalActionError, match="building phase"):
        s.apply_string("offer P2")
    set_turn(s, 0, BUILD)
    nxt = path(s.game.board, mine[5], city(s, "Lyon"))[1]
    s.apply_action(build_action(s, mine[5], nxt))
    assert "offer P2" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="not after building"):
        s.apply_string("offer P2")


def test_the_purchase_takes_place_only_in_the_purchasing_players_turn() -> None:
    s, _, theirs = position()
    s.apply_string("offer P2")
    assert s.turn_player() == 0 and s.current_player() == 0, "the buyer composes in his turn"
    s.apply_string(f"take {seg(s, theirs[0], theirs[1])}")
    with pytest.raises(IllegalActionError, match="not been proposed"):
        s.apply_string("accept")
    with pytest.raises(IllegalActionError, match="must first be settled"):
        s.apply_string("end turn")
    with pytest.raises(IllegalActionError, match="up to the buyer's cash"):
        s.apply_string("price 51")
    s.apply_string("price 50")
    with pytest.raises(IllegalActionError, match="price is named"):
        s.apply_string(f"take {seg(s, theirs[1], theirs[2])}")


def test_an_offer_takes_only_the_sellers_segments_and_gives_only_the_buyers() -> None:
    s, mine, theirs = position()
    s.apply_string("offer P2")
    strings = legal_strings(s)
    takes = {x for x in strings if x.startswith("take ")}
    gives = {x for x in strings if x.startswith("give ")}
    assert takes == {f"take {seg(s, a, c)}" for a, c in itertools.pairwise(theirs)}
    assert gives == {f"give {seg(s, a, c)}" for a, c in itertools.pairwise(mine)}
    assert not any(x.startswith("price") for x in strings), "take a segment first"
    with pytest.raises(IllegalActionError, match="not P2's track"):
        s.apply_string(f"take {seg(s, mine[0], mine[1])}")
    with pytest.raises(IllegalActionError, match="before its price"):
        s.apply_string("price 3")


def test_track_at_a_ferry_port_goes_with_its_line() -> None:
    s = standard(2, challenge_track_trading=True)
    b = s.game.board
    link = b.links[0]
    port = link.ends[0]
    inland = next(b.nb[port * 6 + d] for d in range(6) if b.eid[port * 6 + d] >= 0)
    lay(s, 1, [inland, port])
    set_turn(s, 0, BUILD)
    s.apply_string("offer P2")
    assert not any(x.startswith("take") for x in legal_strings(s))
    with pytest.raises(IllegalActionError, match="ferry port or the Chunnel"):
        s.apply_string(f"take {seg(s, inland, port)}")


def test_a_trade_keeps_the_small_city_limit_of_two_players() -> None:
    s = standard(3, challenge_track_trading=True)
    b = s.game.board
    small = next(c for c, z in enumerate(b.city_size) if z == 4 and b.link_at[b.city_centre[c]] < 0)
    m = b.city_centre[small]
    ends = [b.nb[m * 6 + d] for d in range(6) if b.eid[m * 6 + d] >= 0]
    lay(s, 1, [ends[0], m])
    lay(s, 2, [ends[1], m])
    lay(s, 2, [ends[2], m])
    set_turn(s, 0, BUILD)
    s.apply_string("offer P3")
    with pytest.raises(IllegalActionError, match="only 2 players may have track into a small"):
        s.apply_string(f"take {seg(s, ends[1], m)}")
    s.apply_string("withdraw")
    s.apply_string("offer P2")  # P2 leaves the city: P1 takes his place
    s.apply_string(f"take {seg(s, ends[0], m)}")
    s.apply_string("price 3")
    s.apply_string("propose")
    s.apply_string("accept")
    assert s.present_at(small) == [0, 2]
    assert_caches_right(s)


def test_the_offer_is_in_the_notation_the_observation_and_the_tensor() -> None:
    s, mine, theirs = position()
    shape = s.observation_tensor(0).shape
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, theirs[0], theirs[1])}")
    s.apply_string(f"give {seg(s, mine[1], mine[2])}")
    s.apply_string("price 4")
    s.apply_string("propose")
    again = s.game.deserialize(s.serialize())
    assert again.serialize() == s.serialize() and again.current_player() == 1
    assert again.legal_actions() == s.legal_actions()
    offer = s.observation(1)["trade"]["offer"]
    assert offer == {
        "buyer": 0,
        "seller": 1,
        "take": [seg(s, theirs[0], theirs[1])],
        "give": [seg(s, mine[1], mine[2])],
        "price": 4,
        "stage": "proposed",
    }
    assert s.observation(1)["legal"] == ["accept", "refuse"]
    assert s.observation_tensor(1).shape == shape
    assert "offer (proposed): P1 to P2" in str(s)
    for a in s.clone().legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    svg = s.render_svg(1)
    # answers have no place on the map: they are buttons in the panel beside it
    assert '<g id="a-accept" class="er-btn" data-action="accept">' in svg
    clone = s.clone()
    clone.apply_string("accept")
    assert s.current_player() == 1 and s.offer, "the clone is independent"


def test_take_and_give_are_clickable_on_the_map() -> None:
    s, mine, theirs = position()
    s.apply_string("offer P2")
    svg = s.render_svg(0)
    assert f'data-action="{escape(f"take {seg(s, theirs[0], theirs[1])}")}"' in svg
    assert f'data-action="{escape(f"give {seg(s, mine[0], mine[1])}")}"' in svg


def test_the_greedy_bot_sells_at_the_build_cost_and_keeps_its_network() -> None:
    s, _, theirs = position()
    bot = GreedyAgent(s.game)
    e = edge(s, theirs[2], theirs[3])
    cost = bot.segment_cost(e)
    for price, answer in ((cost - 1, "refuse"), (cost, "accept")):
        t = s.clone()
        t.apply_string("offer P2")
        t.apply_string(f"take {seg(s, theirs[2], theirs[3])}")
        t.apply_string(f"price {price}")
        t.apply_string("propose")
        assert t.action_to_string(bot.act(t)) == answer
    # the bot never offers: from its building phase it builds or ends the turn
    t = s.clone()
    set_turn(t, 1, BUILD)
    assert not t.action_to_string(bot.act(t)).startswith("offer")


def test_the_greedy_bot_refuses_to_cut_its_major_city_network() -> None:
    s = standard(2, challenge_track_trading=True)
    b = s.game.board
    route = path(b, city(s, "Berlin"), city(s, "Wien"), avoid_cities=True)
    lay(s, 1, route)
    assert s.majors_connected(1) == 2
    set_turn(s, 0, BUILD)
    bot = GreedyAgent(s.game)
    mid = len(route) // 2
    s.apply_string("offer P2")
    s.apply_string(f"take {seg(s, route[mid], route[mid + 1])}")
    s.apply_string("price 50")
    s.apply_string("propose")
    assert s.action_to_string(bot.act(s)) == "refuse"


def test_selling_and_trading_off_by_default() -> None:
    s = standard(2)
    lay(s, 1, path(s.game.board, city(s, "Berlin"), city(s, "Leipzig"))[:3])
    set_turn(s, 0, BUILD)
    assert not any(x.startswith("offer") for x in legal_strings(s))
    with pytest.raises(NotationError):
        s.string_to_action("offer P2")
    assert "trade" not in s.observation(None) and '"trade"' not in s.serialize()


def _offer_actions_by_scanning_every_segment(s: EurorailsState) -> list[int]:
    """The offer's choices worked out over every segment of the map (the listing looks only
    at the segments next to the two seats' track)."""
    from motherlode.games.eurorails.trading import PRICE_MAX

    g = s.game
    seller = s.offer[0]
    p = s.turn_player()
    out = [g.WITHDRAW]
    for e, o in enumerate(s.edge_owner):
        if o == seller:
            if e not in s.offer_take and s.trade_refusal(e, seller, p) is None:
                out.append(g.TAKE0 + e)
        elif o == p and e not in s.offer_give and s.trade_refusal(e, p, seller) is None:
            out.append(g.GIVE0 + e)
    if s.offer_take:
        out.extend(g.PRICE0 + v for v in range(min(s.cash[p], PRICE_MAX) + 1))
    return sorted(out)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_an_offers_choices_equal_a_scan_of_every_segment(players: int) -> None:
    """Random games with track trading: while an offer is composed, its listed takes, gives
    and prices are those of a scan of the whole map."""
    import random

    from motherlode.games.eurorails.trading import PRICED, PROPOSED

    game = motherlode.load("eurorails", players=players, turn_limit=8, challenge_track_trading=True)
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            if s.offer and s.offer[1] not in (PROPOSED, PRICED):
                assert s.legal_actions() == _offer_actions_by_scanning_every_segment(s)
                checked += 1
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 20

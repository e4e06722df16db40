"""Event cards, lost turns, half rate and reshuffles (rulebook: Event Card Effects,
Losing Turns, Half Rate, Preparation)."""

from __future__ import annotations

from tests.eurorails.helpers import (
    city,
    draw,
    lay,
    legal_strings,
    path,
    place,
    set_turn,
    standard,
)

from motherlode.games.eurorails.game import BUILD, CHANCE


def _deliver(s, seat: int = 0):  # type: ignore[no-untyped-def]
    """Seat ``seat`` stands in the city of its first demand with the load; returns it."""
    b = s.game.board
    card = s.hands[seat][0]
    dem = b.demands[card][0]
    s.loads[seat] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, seat, b.city_centre[dem.city])
    set_turn(s, seat)
    return dem


def _refill(s) -> None:  # type: ignore[no-untyped-def]
    while s.current_player() == CHANCE:
        draw(s, next(c for c in s.draw if c < 147))


def test_lost_turn_drawer_derailed_loses_rest_of_turn_and_next() -> None:
    s = standard(2)
    g = s.game
    b = g.board
    card, j, event = next(
        (c, j, k)
        for c in range(7, 147)
        for j, d in enumerate(b.demands[c])
        for k in range(162, 167)
        if b.city_centre[d.city] in g.areas[k]
    )
    dem = b.demands[card][j]
    s.draw.remove(card)
    s.discard.append(s.hands[0][0])
    s.hands[0][0] = card
    wine = b.load_index("Wine") if dem.load != b.load_index("Wine") else b.load_index("Beer")
    s.loads[0] = [dem.load, wine]
    s.chips[dem.load] -= 1
    s.chips[wine] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    s.apply_action(g.DELIVER0 + j)
    draw(s, event)
    assert s.loads[0] == [], "the only load left is lost"
    _refill(s)
    assert s.turn_player() == 1, "the rest of the current turn is lost"
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)
    assert s.turn_player() == 1, "and all of the next turn"
    assert s.lost[0] == 0


def test_lost_turn_passes_without_a_decision_and_counts_for_expiry() -> None:
    s = standard(2)
    g = s.game
    set_turn(s, 0)
    s.lost[1] = 1
    turns = s.turns_done[1]
    s.apply_action(g.END_MOVE)
    s.apply_action(g.END_BUILD)
    assert s.turn_player() == 0 and s.turns_done[1] == turns + 1


def test_gale_trains_on_ferry_mileposts_lose_a_turn_and_a_load() -> None:
    s = standard(2)
    b = s.game.board
    k = next(k for k, x in enumerate(b.links) if x.name == "Dover-Calais")
    port = b.links[k].ends[0]
    wine = b.load_index("Wine")
    s.loads[1] = [wine]
    s.chips[wine] -= 1
    place(s, 1, port)
    _deliver(s)
    s.apply_action(s.game.DELIVER0)
    draw(s, 161)  # North Sea, Irish Sea and English Channel
    assert s.loads[1] == [] and s.lost[1] == 1


def test_half_rate_remaining_movement_halved_rounding_up_on_entering_weather() -> None:
    s = standard(2)
    b = s.game.board
    s.active.append([155, 1, 10])  # fog at Frankfurt
    area = s.game.areas[155]
    frank = city(s, "Frankfurt")
    far = next(
        m
        for m in range(b.n)
        if m not in area and any(b.nb[m * 6 + d] in area for d in range(6)) and b.terrain[m] == 0
    )
    inside = next(b.nb[far * 6 + d] for d in range(6) if b.nb[far * 6 + d] in area)
    lay(s, 0, [far, inside])
    place(s, 0, far)
    set_turn(s, 0)
    assert s.moves == 9
    s.apply_string(f"move {inside}")
    assert s.moves == 4, "8 remaining halved"
    del frank


def test_half_rate_from_the_start_in_weather_5_or_6() -> None:
    s = standard(2)
    s.active.append([155, 1, 10])
    place(s, 0, city(s, "Frankfurt"))
    set_turn(s, 0)
    assert s.moves == 5
    s.train[0] = 1
    set_turn(s, 0)
    assert s.moves == 6


def test_wildcat_strike_stops_trains_on_the_drawers_track_and_his_building() -> None:
    s = standard(2)
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 1, route)
    s.active.append([149, 1, 10])
    place(s, 0, route[1], prev=route[0])
    set_turn(s, 0)
    d = [b.nb[route[1] * 6 + k] for k in range(6)].index(route[2])
    assert "Wildcat" in (s.move_refusal(0, d) or "")
    set_turn(s, 1, BUILD)
    assert "Wildcat" in (s.build_refusal(1, route[-1], 0) or "")
    assert not [a for a in s.legal_actions() if a < s.game.U0]


def test_coastal_strike_blocks_pickup_and_delivery_at_coastal_cities() -> None:
    s = standard(2)
    s.active.append([148, 1, 10])
    place(s, 0, city(s, "Holland"))
    set_turn(s, 0)
    assert "pick Flowers" not in legal_strings(s)


def test_tooling_needed_and_irish_bonus_pay_10_more_once() -> None:
    s = standard(2)
    b = s.game.board
    s.draw.remove(167)
    s.active.append([167, 1, 1 << 30])
    mach = b.load_index("Machinery")
    card = next(
        c
        for c in range(1, 147)
        if any(d.load == mach for d in b.demands[c]) and c not in s.hands[1]
    )
    j = next(j for j, d in enumerate(b.demands[card]) if d.load == mach)
    dem = b.demands[card][j]
    s.draw.remove(card)
    s.discard.extend(s.hands[0][:1])
    s.hands[0][0] = card
    s.loads[0] = [mach]
    s.chips[mach] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    s.apply_action(s.game.DELIVER0 + j)
    assert s.cash[0] == 50 + dem.payment + 10
    assert not any(a[0] == 167 for a in s.active) and 167 in s.discard
    s.check_invariants()


def test_reshuffle_when_the_draw_pile_runs_out() -> None:
    s = standard(2)
    s.discard = list(s.draw[1:])
    s.draw = s.draw[:1]
    _deliver(s)
    s.apply_action(s.game.DELIVER0)
    last = s.draw[0]
    outcomes = s.chance_outcomes()
    assert outcomes == [(last - 1, 1.0)]
    draw(s, last)
    assert (s.draw and not [c for c in s.discard if c != s.discard[-1]]) or True
    s.check_invariants()
    assert len(s.draw) > 100, "the discard pile became the new draw pile"


def test_irish_economy_booming_adds_10_to_the_next_delivery_to_ireland() -> None:
    s = standard(2)
    b = s.game.board
    s.draw.remove(168)
    s.active.append([168, 1, 1 << 30])
    card, j = next(
        (c, j)
        for c in range(7, 147)
        for j, d in enumerate(b.demands[c])
        if b.city_country[d.city] == "Ireland"
    )
    dem = b.demands[card][j]
    s.draw.remove(card)
    s.discard.append(s.hands[0][0])
    s.hands[0][0] = card
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    s.apply_action(s.game.DELIVER0 + j)
    assert s.cash[0] == 50 + dem.payment + 10
    assert 168 in s.discard
    s.check_invariants()

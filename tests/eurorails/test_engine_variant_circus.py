"""The Circus (rulebook, Variant Rules): config ``circus=True``.
"At the start of the game, put the two Circus load chips in Kaliningrad and Paris. A Circus
remains in a city until it is picked up by a train. Any train in a city with a Circus can
pick up the Circus load, but only if it has a demand card for the Circus. Each demand card
with a number divisible by 10 ... is modified by changing the lowest-payoff demand(s); that
demand becomes 20 million to deliver the Circus to that city. The demand card then works
normally, but when the Circus is delivered to a city, it remains there until picked up and
delivered again. A player needs a Circus demand card to pick up the Circus; but it may be
dropped without payoff at any city. If it is lost due to a Derailment event card, it is
placed at the nearest city." """

from __future__ import annotations

from tests.eurorails.helpers import city, dealt, draw, game, legal_strings, place, set_turn

from motherlode.games.eurorails.game import EurorailsState


def _hand(s: EurorailsState, p: int, cards: list[int]) -> None:
    """Give seat ``p`` exactly ``cards`` (the old hand goes back to the draw pile)."""
    s.draw = sorted(set(s.draw + s.hands[p]) - set(cards))
    s.hands[p] = list(cards)


def _circus(hand0: list[int]) -> EurorailsState:
    g = game(2, circus=True)
    return dealt(g, [hand0, [4, 5, 6]])


def test_circus_cards_divisible_by_10_lowest_demands_become_the_circus() -> None:
    g = game(2, circus=True)
    b = g.board
    C = g.CIRCUS
    assert g.load_names[C] == "Circus" and len(b.load_names) == C
    # card 10: its lowest demand (7, to Berlin) becomes the Circus to Berlin for 20
    assert [(d.load, d.city, d.payment) for d in g.demands[10]] == [
        (b.demands[10][0].load, b.demands[10][0].city, 42),
        (C, b.city_index("Berlin"), 20),
        (b.demands[10][2].load, b.demands[10][2].city, 57),
    ]
    # card 50: two demands tie for the lowest payoff (15): both become Circus demands
    assert sorted(d.payment for d in b.demands[50]) == [15, 15, 28]
    assert sorted((d.load == C, d.payment) for d in g.demands[50]) == [
        (False, 28),
        (True, 20),
        (True, 20),
    ]
    for card in range(1, 147):
        changed = g.demands[card] != b.demands[card]
        assert changed == (card % 10 == 0), card
    assert game(2).demands == b.demands, "off by default"


def test_circus_content_agrees() -> None:
    from motherlode.games.eurorails.content import load_content
    from motherlode.games.eurorails.game import CIRCUS_CITIES, CIRCUS_DIVISOR, CIRCUS_PAY

    circus = load_content().circus
    assert circus.start_cities == CIRCUS_CITIES and circus.chips == len(CIRCUS_CITIES)
    assert (circus.payment, circus.card_divisor) == (CIRCUS_PAY, CIRCUS_DIVISOR)


def test_circus_starts_in_kaliningrad_and_paris() -> None:
    s = _circus([1, 2, 3])
    b = s.game.board
    assert s.circus_at == [b.city_index("Kaliningrad"), b.city_index("Paris")]
    assert s.observation(None)["circus_at"] == ["Kaliningrad", "Paris"]
    assert "circus_at" not in dealt(game(2), [[1, 2, 3], [4, 5, 6]]).observation(None)


def test_circus_pick_up_needs_a_circus_demand() -> None:
    s = _circus([1, 2, 3])
    place(s, 0, city(s, "Paris"))
    set_turn(s, 0)
    assert "pick Circus" not in legal_strings(s)
    _hand(s, 0, [1, 2, 20])  # card 20: the Circus to Krakow for 20
    assert "pick Circus" in legal_strings(s)
    s.apply_string("pick Circus")
    assert s.loads[0] == [s.game.CIRCUS]
    assert s.circus_at == [s.game.board.city_index("Kaliningrad")]
    assert "drop Circus" not in legal_strings(s), "no pick-up/drop loop at one milepost"
    s.check_invariants()


def test_circus_delivered_pays_20_and_stays_in_the_city() -> None:
    s = _circus([1, 2, 20])
    b = s.game.board
    g = s.game
    krakow = b.city_index("Krakow")
    place(s, 0, city(s, "Krakow"))
    s.loads[0] = [g.CIRCUS]
    s.circus_at = [b.city_index("Kaliningrad")]
    set_turn(s, 0)
    s.apply_string("deliver Circus to Krakow #20")
    assert s.cash[0] == 50 + 20 and s.loads[0] == [] and s.hands[0] == [1, 2]
    assert s.circus_at == [b.city_index("Kaliningrad"), krakow]
    draw(s, 7)
    # it stays in Krakow until a train with a Circus demand picks it up again
    _hand(s, 0, [1, 2, 30])
    assert "pick Circus" in legal_strings(s)
    s.check_invariants()


def test_circus_dropped_anywhere_without_payoff() -> None:
    s = _circus([1, 2, 20])
    b = s.game.board
    g = s.game
    place(s, 0, city(s, "Wien"))
    s.loads[0] = [g.CIRCUS]
    s.circus_at = [b.city_index("Paris")]
    set_turn(s, 0)
    s.apply_string("drop Circus")
    assert s.cash[0] == 50 and s.hands[0] == [1, 2, 20]
    assert s.circus_at == [b.city_index("Paris"), b.city_index("Wien")]
    s.check_invariants()


def test_circus_lost_to_a_derailment_goes_to_the_nearest_city() -> None:
    s = _circus([1, 2, 20])
    b = s.game.board
    g = s.game
    area = g.areas[162]  # derailment near the Ruhr
    m = next(
        x
        for x in sorted(area)
        if b.city_of[x] < 0
        and len({b.city_of[b.nb[x * 6 + d]] for d in range(6) if b.nb[x * 6 + d] >= 0} - {-1}) == 1
    )
    near = next(
        b.city_of[b.nb[m * 6 + d]]
        for d in range(6)
        if b.nb[m * 6 + d] >= 0 and b.city_of[b.nb[m * 6 + d]] >= 0
    )
    place(s, 1, m)
    s.loads[1] = [g.CIRCUS]
    s.circus_at = [b.city_index("Paris")]
    s.draw.remove(162)  # drawn by P1
    s._event(162, 0)
    assert s.loads[1] == [] and s.lost[1] == 1
    assert s.circus_at == [b.city_index("Paris"), near]
    assert s.nearest_city(m) == near
    s.check_invariants()


def test_circus_position_round_trips_in_the_notation() -> None:
    s = _circus([1, 2, 20])
    s.circus_at = [s.game.board.city_index("Wien")]
    s.loads[0] = [s.game.CIRCUS]
    again = s.game.deserialize(s.serialize())
    assert again.circus_at == s.circus_at and again.loads == s.loads
    assert "circus_at" not in dealt(game(2), [[1, 2, 3], [4, 5, 6]]).serialize()

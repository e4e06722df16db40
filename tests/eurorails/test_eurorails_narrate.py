"""Eurorails' narration and end-of-game summary (issue 21): the sentences of the important
events pinned on scenarios of the rulebook's sections, every action kind narrated in random
playouts, narration that tells a seat nothing its observation hides (open_hands=False), and
a summary for every way the game ends."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.eurorails.helpers import city, lay, path, place, set_turn, standard
from tests.eurorails.test_engine_rules import _connect_seven

from motherlode.games.eurorails.game import OPS, EurorailsState


def said(s: EurorailsState, *steps: str, seat: int | None = None) -> list[str]:
    """The sentence of each step as ``seat`` reads it, asked before it is applied."""
    out = []
    for step in steps:
        a = s.string_to_action(step)
        out.append(s.narrate(a, seat))
        s.apply_action(a)
    return out


def delivering(players: int = 2, **options: object) -> EurorailsState:
    """P1's train in the city of its first card's first demand, carrying that load."""
    s = standard(players, **options)
    b = s.game.board
    dem = b.demands[s.hands[0][0]][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0)
    return s


def test_a_delivery_pays_and_only_its_own_seat_reads_its_cash() -> None:
    s = delivering(open_hands=False)
    deliver = s.game.DELIVER0
    assert [s.narrate(deliver, v) for v in (0, 1, None)] == [
        "P1 delivers Steel to Barcelona (card #1): +26 million (cash 76 million);"
        " P1 draws a new demand card",
        "P1 delivers Steel to Barcelona (card #1): +26 million; P1 draws a new demand card",
        "P1 delivers Steel to Barcelona (card #1): +26 million; P1 draws a new demand card",
    ]
    s.apply_action(deliver)
    assert [s.narrate(19, v) for v in (0, 1, None)] == [
        "P1 draws demand card #20 (Cars to Krakow 19, Ham to Belfast 49, Steel to Madrid 34)",
        "P1 draws a demand card",
        "P1 draws a demand card",
    ]


def test_with_open_hands_every_seat_reads_the_card_drawn() -> None:
    s = delivering()
    s.apply_action(s.game.DELIVER0)
    assert s.narrate(19, 1) == (
        "P1 draws demand card #20 (Cars to Krakow 19, Ham to Belfast 49, Steel to Madrid 34)"
    )


def test_the_deal_hides_other_hands() -> None:
    s = standard(2, open_hands=False).game.new_initial_state()
    assert said(s, "draw #1", seat=1) == ["deal: P1 is dealt a demand card"]
    assert said(s, "draw #150", seat=1) == ["deal: event #150, Excess profits tax, is set aside"]
    said(s, "draw #2", "draw #3", "draw #4", "draw #5")
    last = s.narrate(s.string_to_action("draw #6"), 0)
    assert last.startswith("deal: P2 is dealt a demand card; the deal is done"), last
    assert last.endswith("goes first (the largest single payout)"), last


def test_the_excess_profits_tax_names_every_payment() -> None:
    s = delivering(3)
    s.cash = [40, 120, 260]
    s.apply_action(s.game.DELIVER0)
    assert s.narrate(149, 1) == (
        "P1 draws event #150, Excess profits tax: every player pays the bank by the brackets"
        " (P1 10, P2 15, P3 30); cash is public from now on"
    )


def test_a_derailment_and_the_load_lost() -> None:
    s = delivering()
    b = s.game.board
    wine, beer = b.load_index("Wine"), b.load_index("Beer")
    place(s, 1, city(s, "Ruhr"))
    s.loads[1] = [beer, wine]
    s.chips[beer] -= 1
    s.chips[wine] -= 1
    s.apply_action(s.game.DELIVER0)
    assert said(s, "draw #162", "lose Wine") == [
        "P1 draws event #162, Derailment: trains within 3 mileposts of Glasgow, Ruhr, Zürich,"
        " Barcelona, Cork, Lisboa: P1 and P2 each lose the next turn and a load; P2 must"
        " choose a load to lose",
        "P2 loses its Wine to the event",
    ]


@pytest.mark.parametrize(
    ("card", "sentence"),
    [
        (
            147,
            "P1 draws event #147, Teamsters strike: no load may be picked up or delivered in"
            " cities more than 3 mileposts from a coast until the end of P1's next turn",
        ),
        (
            149,
            "P1 draws event #149, Wildcat strike: P1 may not build and no train may use P1's"
            " track until the end of P1's next turn",
        ),
        (
            151,
            "P1 draws event #151, Heavy snow: Torino: half rate and no building within 6"
            " mileposts of Torino until the end of P1's next turn, and its alpine mileposts"
            " are closed",
        ),
        (
            156,
            "P1 draws event #156, Flood: Rhein: the Rhein floods: no bridge stands over it;"
            " no train crosses it and no one builds over it until the end of P1's next turn",
        ),
        (
            159,
            "P1 draws event #159, Gale: Atlantic: half rate and no building on the Atlantic"
            " until the end of P1's next turn; no train is on a ferry",
        ),
        (
            168,
            "P1 draws event #168, Irish economy booming: the next load delivered to Ireland"
            " pays 10 million more (in play until then)",
        ),
    ],
)
def test_events_say_what_they_do(card: int, sentence: str) -> None:
    s = delivering()
    s.apply_action(s.game.DELIVER0)
    assert s.narrate(card - 1) == sentence


def test_moving_on_another_players_track_pays_the_use_fee() -> None:
    s = standard(2)
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 1, route[1], prev=route[0])
    set_turn(s, 1)
    assert said(s, f"move {route[2]}", f"move {route[3]}", "end move", "end turn") == [
        "P2 moves to AA39, pays P1 the 4 million use fee (8 left)",
        "P2 moves to AA40 (7 left)",
        "P2 ends its movement at AA40 and builds",
        "P2 ends the turn without building; P1's turn",
    ]


def test_building_and_upgrading() -> None:
    s = standard(2)
    assert said(s, "build 502>464", "build 464>465", "end turn") == [
        "P1 builds track from Berlin-NW to AS25 for 1 million (1 of 20 spent this turn);"
        " 1 major city connected",
        "P1 builds track from AS25 to AT25 for 1 million (2 of 20 spent this turn)",
        "P1 ends the turn after spending 2 million; P2's building turn",
    ]
    s = standard(2)
    assert said(s, "upgrade Fast Freight") == [
        "P1 upgrades to a Fast Freight for 20 million; P2's building turn"
    ]


def _end_turns(s: EurorailsState) -> list[str]:
    g = s.game
    out = []
    while not s.is_terminal():
        a = g.END_MOVE if s.phase == OPS else g.END_BUILD
        out.append(s.narrate(a))
        s.apply_action(a)
    return out


def test_a_declared_victory_and_its_summary() -> None:
    s = standard(2)
    _connect_seven(s, 0)
    s.cash[0] = 260
    set_turn(s, s.first)
    s.pos = [city(s, "Paris")] * 2
    assert s.first == 0
    assert _end_turns(s) == [
        "P1 ends its movement at Paris and builds",
        "P1 ends the turn without building; P1 declares victory (at least 250 million and 7"
        " major cities connected); P2's turn",
        "P2 ends its movement at Paris and builds",
        "P2 ends the turn without building; the game ends: P1 declared victory with at least"
        " 250 million and 7 major cities connected, and the round was played out; winner P1",
    ]
    assert s.summary().lines() == [
        "The game is over: P1 declared victory with at least 250 million and 7 major cities"
        " connected, and the round was played out.",
        "P1: 260 (cash 260, major cities connected 7)",
        "P2: 50 (cash 50, major cities connected 0)",
        "Winner: P1",
    ]


def test_the_turn_limit_adjudicates_connection_first() -> None:
    s = standard(2, turn_limit=1)
    _connect_seven(s, 1)
    s.cash = [200, 100]
    s.pos = [city(s, "Paris")] * 2
    set_turn(s, s.first)
    _end_turns(s)
    assert s.summary().lines() == [
        "The game is over: the turn limit of 1 round was reached: of the players connecting"
        " 7 major cities, the most cash wins.",
        "P1: 200 (cash 200, major cities connected 0)",
        "P2: 100 (cash 100, major cities connected 7)",
        "Winner: P2",
    ]


def test_the_tournament_time_limit_gives_the_places() -> None:
    s = standard(2, time_limit=2)
    s.cash = [200, 100]
    s.pos = [city(s, "Paris")] * 2
    set_turn(s, s.first)
    _end_turns(s)
    assert s.summary().lines()[0] == (
        "The game is over: the time limit of 2 turns ran out and the round was played out: no"
        " player connects 7 major cities, the most cash wins; places (the connection first,"
        " then cash): 1. P1; 2. P2."
    )


# -- random games: every action kind, nothing hidden told --------------------------------


def _kind(s: EurorailsState, a: int) -> str:
    text = s.action_to_string(a)
    if s.is_chance_node():
        return "deal" if s.phase == 0 else ("event" if a + 1 >= 147 else "draw")
    return " ".join(text.split()[:2]) if text.startswith("train 2") else text.split()[0]


def _resample(s: EurorailsState, viewer: int | None, keep: int) -> EurorailsState:
    """``s`` with what ``viewer`` may not see changed: other seats' hands swapped with cards
    of the draw pile (never card ``keep``, about to be drawn) and their cash raised while
    it is hidden."""
    other = s.clone()
    for q in range(s.game.num_players):
        if q == viewer:
            continue
        pile = [c for c in other.draw if c != keep]
        hand = other.hands[q]
        k = min(len(hand), len(pile))
        for i in range(k):
            j = other.draw.index(pile[i])
            hand[i], other.draw[j] = other.draw[j], hand[i]
        other.draw.sort()
        if not other.cash_public:  # after an Excess Profits Tax card cash is public
            other.cash[q] += 13
    return other


def _obs(s: EurorailsState, viewer: int | None) -> str:
    return json.dumps(s.observation(viewer), sort_keys=True, default=str)


def _hidden_texts(s: EurorailsState, viewer: int | None, played: set[int]) -> list[str]:
    """The contents of every card ``viewer`` may not see (not played by this action)."""
    g = s.game
    if g.cfg.open_hands:
        return []
    out = []
    for q, hand in enumerate(s.hands):
        for card in hand:
            if q != viewer and card not in played and card < 147:
                out.append(f"#{card} (")
                d = g.demands[card][0]
                out.append(f"{g.load_names[d.load]} to {g.board.city_names[d.city]} {d.payment}")
    return out


CONFIGS: list[dict[str, Any]] = [
    {"players": 3, "turn_limit": 8, "open_hands": False},
    {
        "players": 2,
        "turn_limit": 8,
        "open_hands": False,
        "mercy_borrowing": True,
        "mercy_late_payment": True,
        "mercy_backtracking": True,
        "starting_cash": 10,
        "fast_game": True,
    },
    {
        "players": 3,
        "turn_limit": 6,
        "open_hands": False,
        "challenge_track_trading": True,
        "challenge_open_contracts": True,
        "challenge_additional_trains": True,
        "four_demand_cards": True,
        "crossgrading": True,
    },
]


@pytest.mark.parametrize("config", CONFIGS)
def test_random_games_narrate_every_kind_and_leak_nothing(config: dict[str, Any]) -> None:
    import motherlode

    rng = random.Random(11)  # a seed whose games run the trains in every config
    g = motherlode.load("eurorails", **config)
    kinds: set[str] = set()
    problems: list[str] = []
    viewers: list[int | None] = [*range(g.num_players), None]
    for _ in range(2):
        s = g.new_initial_state()
        step = 0
        while not s.is_terminal():
            if s.is_chance_node():
                a = rng.choice([x for x, _ in s.chance_outcomes()])
            else:
                legal = s.legal_actions()
                # moves and builds first: a game where the trains run and cards are delivered
                useful = [x for x in legal if x not in (g.END_MOVE, g.DISCARD)]
                a = rng.choice(useful or legal)
            kinds.add(_kind(s, a))
            played = set()
            if not s.is_chance_node():
                text = s.action_to_string(a)
                played = {int(t[1:]) for t in text.replace("(", " ").split() if t[:1] == "#"}
                played |= set(s.hands[s.current_player()]) if a == g.DISCARD else set()
            check = step % 7 == 0 or s.is_chance_node() or "deliver" in _kind(s, a)
            for v in viewers:
                sentence = s.narrate(a, v)
                assert sentence and not sentence.startswith(("P1: ", "chance: ")), sentence
                for secret in _hidden_texts(s, v, played):
                    if secret in sentence:
                        problems.append(f"{v} reads {secret!r} in {sentence!r}")
                if not check:
                    continue
                other = _resample(s, v, a + 1 if s.is_chance_node() else -1)
                assert _obs(other, v) == _obs(s, v)
                if not s.is_chance_node() and a not in other.legal_actions():
                    continue
                after, after2 = s.clone(), other.clone()
                after.apply_unchecked(a)
                after2.apply_unchecked(a)
                if _obs(after, v) != _obs(after2, v):
                    continue  # the action itself shows the difference (a card played)
                if other.narrate(a, v) != sentence:
                    problems.append(f"{v} tells apart {sentence!r} / {other.narrate(a, v)!r}")
            s.apply_action(a)
            step += 1
        summary = s.summary()
        assert summary.reason and summary.winners == s.winners()
        for r in summary.seats:
            assert dict(r.breakdown)["cash"] == r.score == s.scores()[r.seat]
            assert dict(r.breakdown)["major cities connected"] == s.majors_connected(r.seat)
    assert problems == []
    assert {"deal", "build", "end", "start", "move"} <= kinds, kinds


def test_boarding_another_players_ferry() -> None:
    s = standard(2)
    b = s.game.board
    k = next(i for i, link in enumerate(b.links) if link.name == "Dover-Calais")
    s.link_owners[k] = [1]
    s._rebuild_touch()
    place(s, 0, b.links[k].ends[0])
    set_turn(s, 0)
    assert said(s, "ferry P2") == [
        "P1 boards the Dover-Calais ferry on P2's line, pays P2 the 4 million use fee: it stops"
        " here and starts next turn from Z32 at half rate"
    ]

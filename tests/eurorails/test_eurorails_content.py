"""Loads, trains, building costs and the two decks (rulebook: Game Parts, Loco Cards,
Building Costs, Reference Charts, Event Card Effects, The Circus; FACTS.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.core.errors import ConfigError
from motherlode.games.eurorails import cardgen
from motherlode.games.eurorails.content import ContentConfig, load_content
from motherlode.games.eurorails.mapdata import DATA

C = load_content()
HAULS = cardgen.haul_lengths(C.map, dict(C.sources()))

# Rulebook, Reference Charts: Available Loads (chip counts), transcribed.
CHIPS = {
    "Bauxite": 3,
    "Beer": 4,
    "Cars": 3,
    "Cattle": 3,
    "Cheese": 4,
    "China": 3,
    "Chocolate": 3,
    "Coal": 3,
    "Copper": 3,
    "Cork": 3,
    "Fish": 3,
    "Flowers": 3,
    "Ham": 3,
    "Hops": 3,
    "Imports": 3,
    "Iron": 3,
    "Labor": 3,
    "Machinery": 4,
    "Marble": 3,
    "Oil": 4,
    "Oranges": 3,
    "Potatoes": 3,
    "Sheep": 3,
    "Steel": 3,
    "Tobacco": 3,
    "Tourists": 3,
    "Wheat": 3,
    "Wine": 4,
    "Wood": 3,
}


def test_game_parts_94_load_chips() -> None:
    assert {load.name: load.chips for load in C.loads} == CHIPS
    assert sum(CHIPS.values()) + C.circus.chips == 94


def test_available_loads_sources() -> None:
    assert C.load("Wood").sources == ("Oslo", "Sarajevo", "Stockholm")
    assert C.load("Imports").sources == ("Antwerpen", "Hamburg", "Ruhr")
    assert C.load("Flowers").sources == ("Holland",)


def test_loco_cards_four_trains() -> None:
    trains = {t.name: (t.capacity, t.speed, t.half_rate) for t in C.trains}
    assert trains == {
        "Freight": (2, 9, 5),
        "Fast Freight": (2, 12, 6),
        "Heavy Freight": (3, 9, 5),
        "Super Freight": (3, 12, 6),
    }
    by = {t.name: t for t in C.trains}
    assert by["Freight"].upgrades == {"Fast Freight": 20, "Heavy Freight": 20}
    assert by["Heavy Freight"].upgrades == {"Super Freight": 20}
    assert (by["Freight"].fast_trains_speed, by["Super Freight"].fast_trains_speed) == (12, 16)


def test_building_costs_eurorails() -> None:
    b = C.building_costs
    assert (b.clear, b.mountain, b.alpine, b.river, b.lake, b.inlet) == (1, 2, 5, 2, 3, 3)
    assert (b.small, b.medium, b.major) == (3, 3, 5)


def test_the_circus_starts_in_kaliningrad_and_paris() -> None:
    assert C.circus.start_cities == ("Kaliningrad", "Paris")
    assert C.circus.payment == 20
    assert [c.number for c in C.demands if c.number % C.circus.card_divisor == 0] == list(
        range(10, 141, 10)
    )


def test_demand_cards_146_numbered_three_demands() -> None:
    assert [c.number for c in C.demands] == list(range(1, 147))
    for card in C.demands:
        assert len(card.demands) == 3
        assert len({d.city for d in card.demands}) == 3
        assert len({d.load for d in card.demands}) == 3


def test_demand_cards_never_demand_a_load_where_it_is_supplied() -> None:
    supply = C.sources()
    for card in C.demands:
        for d in card.demands:
            assert d.city not in supply[d.load]
            assert d.city in C.map.by_name


def test_demand_cards_every_load_and_city_appears() -> None:
    demands = [d for card in C.demands for d in card.demands]
    loads = Counter(d.load for d in demands)
    cities = Counter(d.city for d in demands)
    assert set(loads) == set(CHIPS) and set(loads.values()) <= {15, 16}
    assert len(cities) == 60 and set(cities.values()) <= {7, 8}


def test_demand_cards_payment_rule() -> None:
    # payment = round(2.8 + 0.96 x mileposts from the nearest source), FACTS.md
    payments = []
    for card in C.demands:
        for d in card.demands:
            assert d.payment == cardgen.payment(HAULS[(d.load, d.city)])
            payments.append(d.payment)
    assert 3 <= min(payments) <= 8 and 65 <= max(payments) <= 80  # printed: about 5 to 73
    assert cardgen.payment(0) == 3 and cardgen.payment(20) == 22 and cardgen.payment(70) == 70


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 146), st.integers(0, 2))
def test_demand_payment_depends_only_on_the_pair(number: int, k: int) -> None:
    d = C.demand(number).demands[k]
    same = [e.payment for c in C.demands for e in c.demands if (e.load, e.city) == (d.load, d.city)]
    assert set(same) == {d.payment}
    nearest = min(C.map.city_distance(s, d.city) for s in C.load(d.load).sources)
    assert d.payment == cardgen.payment(nearest)


def test_demand_generator_is_deterministic_and_committed() -> None:
    text = cardgen.dumps(cardgen.generate())
    assert text == (DATA / "demands.json").read_text(encoding="utf-8")
    assert cardgen.main(["--check"]) == 0


def test_event_cards_147_to_168() -> None:
    assert [e.number for e in C.events] == list(range(147, 169))
    kinds = Counter(e.kind for e in C.events)
    assert kinds == {
        "strike": 3,
        "tax": 1,
        "snow": 4,
        "fog": 1,
        "flood": 3,
        "gale": 3,
        "derailment": 5,
        "bonus": 2,
    }


def test_event_card_parameters() -> None:
    e = {ev.number: ev for ev in C.events}
    assert (e[147].scope, e[147].coast_distance) == ("inland", 3)
    assert (e[148].scope, e[148].coast_distance) == ("coastal", 3)
    assert e[149].scope == "drawer"
    assert e[150].brackets == ((0, 0), (50, 10), (100, 15), (150, 20), (200, 25), (250, 30))
    assert [(e[n].city, e[n].radius, e[n].close_alpine) for n in range(151, 155)] == [
        ("Torino", 6, True),
        ("München", 5, False),
        ("Praha", 4, False),
        ("Krakow", 6, False),
    ]
    assert (e[155].kind, e[155].city, e[155].radius) == ("fog", "Frankfurt", 4)
    assert [e[n].river for n in (156, 157, 158)] == ["Rhein", "Donau", "Ebro"]
    assert [e[n].seas for n in (159, 160, 161)] == [
        ("Atlantic",),
        ("Mediterranean", "Adriatic"),
        ("North Sea", "Irish Sea", "English Channel"),
    ]
    assert all(e[n].radius == 4 for n in (159, 160, 161))
    assert e[162].cities == ("Glasgow", "Ruhr", "Zürich", "Barcelona", "Cork", "Lisboa")
    assert e[166].cities == ("Szczecin", "Dublin", "Kaliningrad", "Wien", "Toulouse", "Newcastle")
    assert (e[167].load, e[167].amount) == ("Machinery", 10)
    assert (e[168].countries, e[168].amount) == (("Ireland",), 10)


def test_excess_profits_tax_brackets() -> None:
    def tax(cash: int) -> int:
        brackets = C.event(150).brackets or ()
        return max(t for floor, t in brackets if cash >= floor)

    assert [tax(c) for c in (0, 49, 50, 99, 100, 150, 249, 250, 900)] == [
        0,
        0,
        10,
        10,
        15,
        20,
        25,
        30,
        30,
    ]


def test_ferry_printing_config() -> None:
    assert C.ferry_cost("Dublin-Liverpool") == 6
    second = load_content(ContentConfig(ferry_printing="second"))
    assert [
        second.ferry_cost(n)
        for n in ("Dublin-Liverpool", "Kristiansand-Hirtshals", "Malmö-Sassnitz")
    ] == [8, 8, 8]
    assert second.ferry_cost("Newcastle-Esbjerg") == 16
    with pytest.raises(ConfigError, match="no ferry 'Calais'"):
        C.ferry_cost("Calais")


# -- validation at load ---------------------------------------------------------------


def _write(tmp_path: Path, name: str, mutate: Any) -> ContentConfig:
    doc = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    mutate(doc)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return ContentConfig(**{f"{name}_file": str(path)})


def test_a_user_deck_with_a_load_demanded_at_its_source_is_rejected(tmp_path: Path) -> None:
    def supply(doc: dict[str, Any]) -> None:
        doc["cards"][4]["demands"][0] = {"city": "Bordeaux", "load": "Wine", "payment": 9}

    with pytest.raises(
        ConfigError, match=r"demands.json: card 5: Wine is demanded at Bordeaux, which supplies it"
    ):
        load_content(_write(tmp_path, "demands", supply))


def test_a_user_deck_with_bad_fields_names_the_card(tmp_path: Path) -> None:
    def bad(doc: dict[str, Any]) -> None:
        doc["cards"][2]["demands"][1]["payment"] = -4

    with pytest.raises(
        ConfigError, match=r"cards\[2\] \(card 3\): demands\[1\]\.payment: Input should be greater"
    ):
        load_content(_write(tmp_path, "demands", bad))

    def unknown_city(doc: dict[str, Any]) -> None:
        doc["cards"][0]["demands"][0]["city"] = "Atlantis"

    with pytest.raises(ConfigError, match="card 1: unknown city 'Atlantis'"):
        load_content(_write(tmp_path, "demands", unknown_city))


def test_user_loads_and_events_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="chips add up to 95"):
        load_content(_write(tmp_path, "loads", lambda d: d["loads"][0].update(chips=4)))
    with pytest.raises(ConfigError, match="source city 'Gotham' is not on the map"):
        load_content(_write(tmp_path, "loads", lambda d: d["loads"][0]["sources"].append("Gotham")))
    with pytest.raises(ConfigError, match="event 156: no track crosses a river called 'Nile'"):
        load_content(_write(tmp_path, "events", lambda d: d["events"][9].update(river="Nile")))
    with pytest.raises(ConfigError, match="a snow event needs radius"):
        load_content(_write(tmp_path, "events", lambda d: d["events"][4].pop("radius")))


def test_a_user_content_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "events.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"events\.json: not JSON"):
        load_content(ContentConfig(events_file=str(path)))

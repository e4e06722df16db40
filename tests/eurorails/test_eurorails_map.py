"""The board (rulebook: Board and Map; Building Costs; Eurorails Specific Building Rules;
Reference Charts: Cities) and the checks :func:`load_map` makes."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.core.errors import ConfigError
from motherlode.games.eurorails import geo
from motherlode.games.eurorails.mapdata import DATA, EuroMap, load_map, parse_map

M = load_map()
DOC: dict[str, Any] = json.loads((DATA / "map.json").read_text(encoding="utf-8"))

# Rulebook, Reference Charts: Cities (goods available), transcribed.
CITY_CHART = {
    "Aberdeen": "Fish, Oil",
    "Antwerpen": "Imports",
    "Århus": "Cheese",
    "Barcelona": "Machinery",
    "Belfast": "Potatoes",
    "Beograd": "Copper, Labor, Oil",
    "Berlin": "",
    "Bern": "Cattle, Cheese",
    "Bilbao": "Sheep",
    "Birmingham": "China, Iron, Steel",
    "Bordeaux": "Wine",
    "Bremen": "Machinery",
    "Bruxelles": "Chocolate",
    "Budapest": "Bauxite",
    "Cardiff": "Coal, Hops",
    "Cork": "Sheep",
    "Dublin": "Beer",
    "Firenze": "Marble",
    "Frankfurt": "Beer, Wine",
    "Glasgow": "Sheep",
    "Göteborg": "Machinery",
    "Hamburg": "Imports",
    "Holland": "Cheese, Flowers",
    "Kaliningrad": "Iron",
    "København": "Cheese",
    "Krakow": "Coal",
    "Leipzig": "China",
    "Lisboa": "Cork",
    "Lodz": "Potatoes",
    "London": "Tourists",
    "Luxembourg": "Steel",
    "Lyon": "Wheat",
    "Madrid": "",
    "Manchester": "Cars",
    "Marseille": "Bauxite",
    "Milano": "",
    "München": "Beer, Cars",
    "Nantes": "Cattle, Machinery",
    "Napoli": "Tobacco",
    "Newcastle": "Oil",
    "Oslo": "Wood, Oil, Fish",
    "Paris": "",
    "Porto": "Fish, Wine",
    "Praha": "Beer",
    "Roma": "",
    "Ruhr": "Tourists, Steel",
    "Sarajevo": "Labor, Wood",
    "Sevilla": "Cork, Oranges",
    "Stockholm": "Iron, Wood",
    "Stuttgart": "Cars",
    "Szczecin": "Potatoes",
    "Torino": "Cars",
    "Toulouse": "Wheat",
    "Valencia": "Oranges",
    "Venezia": "",
    "Warszawa": "Ham",
    "Wien": "Wine",
    "Wroclaw": "Coal, Copper",
    "Zagreb": "Labor",
    "Zürich": "Chocolate",
}
FACTS_SIZES = {
    "major": "Berlin Holland London Madrid Milano Paris Ruhr Wien",
    "medium": "Antwerpen Barcelona Beograd Birmingham Bruxelles Budapest Glasgow Hamburg Lisboa "
    "Lodz Manchester Marseille München Napoli Praha Roma Stockholm Torino Warszawa Zürich",
}


def test_board_and_map_about_2000_mileposts_43_km_apart() -> None:
    assert 1930 <= len(M) <= 2100
    assert M.spacing_km == 43.0
    for a, b, _ in M.edges[:500]:
        (ax, ay), (bx, by) = M.xy(a), M.xy(b)
        assert math.hypot(ax - bx, ay - by) == pytest.approx(43.0)
    degrees = Counter(len(n) for n in M.neighbours)
    assert max(degrees) == 6
    assert degrees[6] / len(M) > 0.7  # six neighbours where land allows


def test_board_and_map_60_cities_8_major() -> None:
    sizes = Counter(c.size for c in M.cities)
    assert sizes == {"major": 8, "medium": 20, "small": 32}
    for size, names in FACTS_SIZES.items():
        assert sorted(c.name for c in M.cities if c.size == size) == sorted(names.split())
    assert Counter(M.terrain)["C"] == 8 and Counter(M.terrain)["o"] == 48


def test_board_and_map_major_city_is_a_red_hexagon() -> None:
    for c in M.cities:
        if c.size != "major":
            continue
        centre = c.centre
        ring = {
            M.by_lattice[(M.q[centre] + dq, M.r[centre] + dr)] for dq, dr in geo.LATTICE_DIRECTIONS
        }
        assert set(c.mileposts[1:]) == ring
        for a in ring:  # the red area is whole: centre to every outpost, outposts around
            assert a in M.neighbours[centre]
            assert M.crossing(centre, a) is None


def test_board_and_map_cities_at_their_real_positions() -> None:
    # "The locations of some coastal cities have been moved slightly inland": within 35 km.
    for c in M.cities:
        i = c.centre
        assert geo.great_circle_km(c.lonlat, (M.lon[i], M.lat[i])) < 35, c.name


def test_reference_charts_cities_goods() -> None:
    # The two charts agree except at Ruhr: the Available Loads chart lists Imports at
    # Antwerpen, Hamburg and Ruhr, the Cities chart gives Ruhr only Tourists and Steel.
    # Decision (docs/rules/eurorails.md, "Imports at Ruhr"): the load chart wins.
    for c in M.cities:
        want = sorted(g for g in CITY_CHART[c.name].split(", ") if g)
        if c.name == "Ruhr":
            want = sorted([*want, "Imports"])
        assert sorted(c.goods) == want, c.name


def test_building_costs_terrain_counts() -> None:
    t = Counter(M.terrain)
    assert t["a"] == 36  # published component list
    assert 470 <= t["m"] + t["a"] <= 510  # "roughly 470-510 mountain"
    assert 1350 <= t["."] + t["p"] <= 1550
    assert t["p"] == 16


def test_alpine_mileposts_are_in_the_alps() -> None:
    for i, t in enumerate(M.terrain):
        if t == "a":
            assert 5.5 < M.lon[i] < 14.5 and 44.0 < M.lat[i] < 47.8


def test_rivers_every_named_river_is_crossed() -> None:
    facts = [
        *("Donau", "Rhein", "Sava", "Elbe", "Oder", "Loire", "Tajo", "Rhône", "Duero", "Wisła"),
        *("Ebro", "Meuse", "Po", "Guadalquivir", "Garonne", "Seine", "Shannon", "Severn"),
        *("Thames", "Tevere", "Ouse", "Trent", "Suir", "Barrow"),
    ]
    crossed = Counter(
        M.features[f - 1][1] for a, b, f in M.edges if f and M.features[f - 1][0] == "river"
    )
    assert sorted(crossed) == sorted(facts)
    assert crossed["Donau"] > crossed["Thames"] > 0


def test_lakes_and_ocean_inlets_about_a_hundred_edges() -> None:
    kinds = Counter(M.features[f - 1][0] for a, b, f in M.edges if f)
    assert 70 <= kinds["lake"] + kinds["inlet"] <= 140
    names = {n for k, n in M.features if k == "inlet"}
    assert {"Øresund", "Little Belt"} <= names


def test_ferry_ports_nine_ferries_both_printings() -> None:
    costs = {f.name: (f.cost["first"], f.cost["second"]) for f in M.ferries}
    assert costs == {
        "Belfast-Stranraer": (4, 4),
        "Plymouth-Cherbourg": (4, 4),
        "Portsmouth-Le Havre": (4, 4),
        "Dover-Calais": (4, 4),
        "Harwich-IJmuiden": (4, 4),
        "Newcastle-Esbjerg": (16, 16),
        "Dublin-Liverpool": (6, 8),
        "Kristiansand-Hirtshals": (4, 8),
        "Malmö-Sassnitz": (4, 8),
    }
    for f in M.ferries:
        for p in f.ports:
            assert M.terrain[p] in "pS"  # a land port
            assert M.neighbours[p], f.name


def test_ferry_ports_dublin_and_belfast_are_their_cities() -> None:
    # "The cost to build to Dublin and Belfast is 6 million and 4 million, respectively;
    # only the ferry line cost applies."
    by = {f.name: f for f in M.ferries}
    assert by["Dublin-Liverpool"].ports[0] == M.city("Dublin").centre
    assert by["Belfast-Stranraer"].ports[0] == M.city("Belfast").centre


def test_the_chunnel_london_side_to_calais_side() -> None:
    ch = M.chunnel
    assert ch.cost == 20
    (a_lon, a_lat), (b_lon, b_lat) = [(M.lon[e], M.lat[e]) for e in ch.ends]
    assert a_lat > 50.9 and 0.5 < a_lon < 1.6  # Kent
    assert 50.6 < b_lat < 51.1 and 1.5 < b_lon < 2.4  # Pas-de-Calais


def test_ocean_sea_boundaries() -> None:
    assert set(M.seas) == {
        "Atlantic",
        "North Sea",
        "Mediterranean",
        "Adriatic",
        "Baltic",
        "English Channel",
        "Irish Sea",
    }
    coast = M.coast_distance
    # Atlantic / Mediterranean: the boundary is south of Sevilla.
    sevilla_lon = M.lon[M.city("Sevilla").centre]
    med = [M.lon[i] for i in range(len(M)) if coast["Mediterranean"][i] == 0 and M.lon[i] < 0]
    atl = [M.lon[i] for i in range(len(M)) if coast["Atlantic"][i] == 0 and M.lat[i] < 37.5]
    assert min(med) > sevilla_lon - 0.3 and max(atl) < sevilla_lon + 0.3
    for name, sea in [
        ("Lisboa", "Atlantic"),
        ("Marseille", "Mediterranean"),
        ("Venezia", "Adriatic"),
        ("Kaliningrad", "Baltic"),
        ("Aberdeen", "North Sea"),
        ("Dublin", "Irish Sea"),
    ]:
        assert coast[sea][M.city(name).centre] == 0, name
    assert coast["English Channel"][M.ferries[1].ports[0]] == 0  # Plymouth


def test_counting_mileposts_from_a_coast_inland_cities() -> None:
    def nearest(i: int) -> int:
        return min(d[i] for d in M.coast_distance.values() if d[i] >= 0)

    for name in ("Madrid", "Budapest", "Praha", "Krakow", "Frankfurt", "Zürich"):
        assert nearest(M.city(name).centre) > 3, name
    for name in ("Lisboa", "Napoli", "Barcelona", "Oslo", "Glasgow"):
        assert nearest(M.city(name).centre) <= 3, name


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(M) - 1))
def test_coast_distance_is_a_breadth_first_distance(i: int) -> None:
    for dist in M.coast_distance.values():
        if dist[i] < 0:
            continue
        for j in M.neighbours[i]:
            assert abs(dist[i] - dist[j]) <= 1
        if dist[i] > 0:
            assert any(dist[j] == dist[i] - 1 for j in M.neighbours[i])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(M) - 1))
def test_edges_join_lattice_neighbours_both_ways(i: int) -> None:
    for j in M.neighbours[i]:
        assert i in M.neighbours[j]
        assert geo.lattice_distance((M.q[i], M.q[i]), (M.q[i], M.q[i])) == 0
        assert geo.lattice_distance((M.q[i], M.r[i]), (M.q[j], M.r[j])) == 1
        assert M.crossing(i, j) == M.crossing(j, i)


def test_distance_chart_against_real_geography() -> None:
    table = M.distance_table()
    n = len(M.cities)
    ratios = []
    for i in range(n):
        assert table[i][i] == 0
        for j in range(n):
            assert table[i][j] == table[j][i] > 0 or i == j
            if i < j:
                gc = geo.great_circle_km(M.cities[i].lonlat, M.cities[j].lonlat) / 43.0
                ratios.append(table[i][j] / gc)
                assert table[i][j] >= gc - 2.5, (M.cities[i].name, M.cities[j].name)
    ratios.sort()
    assert 1.05 < ratios[len(ratios) // 2] < 1.25  # median route 5-25 % above the crow's flight


def test_distance_chart_examples() -> None:
    assert M.city_distance("Paris", "Paris") == 0
    assert M.city_distance("Holland", "Antwerpen") == 2
    assert 8 <= M.city_distance("Paris", "London") <= 12  # 344 km, across the Channel
    assert M.city_distance("Paris", "London") == M.city_distance("London", "Paris")


# -- validation at load ---------------------------------------------------------------


def _bad(mutate: Any) -> str:
    doc = copy.deepcopy(DOC)
    mutate(doc)
    with pytest.raises(ConfigError) as err:
        parse_map(doc, "my-map.json")
    return str(err.value)


def test_load_map_rejects_a_broken_major_city() -> None:
    def drop(doc: dict[str, Any]) -> None:
        doc["cities"][0]["mileposts"] = doc["cities"][0]["mileposts"][:6]

    msg = _bad(drop)
    assert msg.startswith("my-map.json: city 'Berlin':") and "six mileposts" in msg


def test_load_map_rejects_an_unreachable_city() -> None:
    def cut(doc: dict[str, Any]) -> None:
        aberdeen = next(c for c in doc["cities"] if c["name"] == "Aberdeen")["mileposts"][0]
        doc["edges"] = [e for e in doc["edges"] if aberdeen not in e[:2]]

    assert "city 'Aberdeen': not reachable by track" in _bad(cut)


def test_load_map_rejects_a_ferry_off_a_land_port() -> None:
    def move(doc: dict[str, Any]) -> None:
        doc["ferries"][1]["ports"][0] = doc["terrain"].index(".")

    msg = _bad(move)
    assert "ferry 'Plymouth-Cherbourg'" in msg and "neither a ferry port" in msg


def test_load_map_rejects_bad_terrain_and_edges() -> None:
    assert "unknown terrain code 'x'" in _bad(lambda d: d.update(terrain="x" + d["terrain"][1:]))
    assert "not lattice neighbours" in _bad(lambda d: d["edges"].append([0, len(d["q"]) - 1, 0]))
    assert "my-map.json: edges: Field required" in _bad(lambda d: d.pop("edges"))
    assert "expected 'motherlode-eurorails-map/1'" in _bad(lambda d: d.update(format="x"))


def test_load_map_from_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(DOC), encoding="utf-8")
    m = load_map(path)
    assert isinstance(m, EuroMap) and len(m) == len(M)
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(ConfigError, match="not JSON"):
        load_map(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_map(tmp_path / "missing.json")


def test_mapbuild_rebuilds_the_identical_file() -> None:
    pytest.importorskip("global_land_mask")
    from motherlode.games.eurorails import mapbuild

    map_text, land_text = mapbuild.build()
    assert map_text == (DATA / "map.json").read_text(encoding="utf-8")
    assert land_text == (DATA / "land.json").read_text(encoding="utf-8")


def test_distance_chart_a_ferry_counts_as_its_crossing() -> None:
    by = {f.name: f for f in M.ferries}
    ferry = by["Dublin-Liverpool"]
    a, b = ferry.ports
    assert ferry.length == geo.lattice_distance((M.q[a], M.r[a]), (M.q[b], M.r[b])) == 6
    assert M.distances_from(M.city("Dublin").centre)[b] == ferry.length


def test_ferries_and_chunnel_are_the_only_ways_over_the_sea() -> None:
    plain = M.graph(ferries=False)
    from motherlode.games.eurorails.mapdata import _dijkstra

    from_paris = _dijkstra(plain, M.city("Paris").centre)
    assert from_paris[M.city("London").centre] == -1  # Strait of Dover: ferry or Chunnel
    from_belfast = _dijkstra(plain, M.city("Belfast").centre)
    assert from_belfast[M.city("Glasgow").centre] == -1  # North Channel: ferry only
    assert from_belfast[M.city("Dublin").centre] > 0  # one island
    assert from_paris[M.city("Stockholm").centre] > 0  # over the Øresund inlet


def test_ferry_seas_for_gales() -> None:
    seas = {f.name: f.sea for f in M.ferries}
    assert seas["Malmö-Sassnitz"] == "Baltic"  # the North Sea/Baltic boundary is the Danish straits
    assert seas["Kristiansand-Hirtshals"] == seas["Newcastle-Esbjerg"] == "North Sea"
    assert seas["Dublin-Liverpool"] == seas["Belfast-Stranraer"] == "Irish Sea"
    assert seas["Dover-Calais"] == seas["Plymouth-Cherbourg"] == "English Channel"
    assert M.coast_distance["Atlantic"][M.city("Cork").centre] == 0  # west of Ireland's SE corner

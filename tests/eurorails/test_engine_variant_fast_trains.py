"""Fast Trains (rulebook, Empire Builder Series Variations): config ``fast_trains=True``.
"freight and heavy freight trains can move up to 12 mileposts per turn. Fast freight and
super freight trains can move up to 16 mileposts. Half Rate is 6 and 8 mileposts
respectively." """

from __future__ import annotations

from tests.eurorails.helpers import city, lay, legal_strings, path, place, set_turn, standard


def test_fast_trains_12_and_16_mileposts() -> None:
    s = standard(2, fast_trains=True)
    b = s.game.board
    assert s.game.speed == (12, 16, 12, 16)
    assert s.game.half == (6, 8, 6, 8)
    assert b.train_names == ("Freight", "Fast Freight", "Heavy Freight", "Super Freight")
    paris = city(s, "Paris")
    route = path(b, paris, city(s, "Berlin"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, paris)
    set_turn(s, 0)
    assert s.moves == 12
    # a Freight really moves 12 mileposts along its track, and no 13th
    for m in route[1:13]:
        s.apply_string(f"move {m}")
    assert s.pos[0] == route[12] and s.moves == 0
    assert not any(x.startswith("move") for x in legal_strings(s))
    for t, want in ((1, 16), (2, 12), (3, 16)):
        s.train[0] = t
        place(s, 0, paris)
        set_turn(s, 0)
        assert s.moves == want


def test_fast_trains_half_rate_6_and_8() -> None:
    s = standard(2, fast_trains=True)
    s.active.append([155, 1, 10])  # fog at Frankfurt
    place(s, 0, city(s, "Frankfurt"))
    for t, want in ((0, 6), (1, 8), (2, 6), (3, 8)):
        s.train[0] = t
        set_turn(s, 0)
        assert s.moves == want


def test_fast_trains_after_a_ferry_crossing_half_rate() -> None:
    s = standard(2, fast_trains=True)
    b = s.game.board
    k = next(i for i, x in enumerate(b.links) if x.name == "Dover-Calais")
    dover, calais = b.links[k].ends
    s.link_owners[k] = [0]
    s._rebuild_touch()
    place(s, 0, dover)
    set_turn(s, 0)
    s.apply_string("ferry P1")
    s.apply_string("end turn")
    s.apply_string("end move")
    s.apply_string("end turn")
    assert s.turn_player() == 0
    assert s.pos[0] == calais and s.moves == 6


def test_fast_trains_off_by_default() -> None:
    s = standard(2)
    assert s.game.speed == (9, 12, 9, 12)
    assert s.game.half == (5, 6, 5, 6)


def test_fast_trains_table_agrees_with_the_content() -> None:
    from motherlode.games.eurorails.content import load_content

    trains = load_content().trains
    s = standard(2, fast_trains=True)
    assert s.game.speed == tuple(t.fast_trains_speed for t in trains)
    assert s.game.half == tuple(t.fast_trains_half_rate for t in trains)

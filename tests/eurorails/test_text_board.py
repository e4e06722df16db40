"""The terminal's Eurorails board: it follows the action, names cities, prints files and
ranks at its edges, a legend, and the seat's cards with served cities and load sources."""

from __future__ import annotations

from tests.eurorails.helpers import dealt, game

from motherlode.games.eurorails.render import LEGEND, text_board


def test_the_window_follows_the_latest_segment_and_names_what_it_shows() -> None:
    s = dealt(game(2), [[1, 2, 3], [4, 5, 6]])
    p = s.turn_player()
    for t in ("build Paris-SW>Z39", "build Z39>AA39", "build AA39>AA40"):
        s.apply_string(t)
    lines = text_board(s, p).splitlines()
    assert "map around AA40 (AA40)" in lines
    k = lines.index("map around AA40 (AA40)")
    assert lines[k + 1].split()[:3] == ["A", "A", "A"]  # files AA.. stand on two lines
    assert lines[k + 3].startswith(" 33 ") and lines[k + 3].endswith(" 33")  # ranks both sides
    assert any(line.startswith("cities: ") and "Paris AA37" in line for line in lines)
    assert LEGEND in lines
    cards = lines[lines.index(f"your demand cards (P{p + 1}; * = a city your track reaches):") :]
    assert len(cards) == 4
    assert cards[2] == (
        "  #2: Tobacco to Frankfurt 29M (from Napoli); Marble to Cork 50M (from Firenze);"
        " Cork to Lyon 36M (from Lisboa, Sevilla)"
    )

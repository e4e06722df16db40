"""Names of places (games/eurorails/places.py): every milepost has one readable name."""

from __future__ import annotations

import pytest

from motherlode.core.errors import NotationError
from motherlode.games.eurorails.board import DIR_NAMES, load_board
from motherlode.games.eurorails.places import (
    file_labels,
    file_letters,
    milepost_index,
    milepost_name,
    rank_labels,
    square,
)

B = load_board()


def centre(city: str) -> int:
    return B.city_centre[B.city_index(city)]


def test_every_milepost_has_a_unique_name_that_reads_back() -> None:
    names = [milepost_name(B, m) for m in range(B.n)]
    assert len(set(names)) == B.n
    assert all(milepost_index(B, x) == m for m, x in enumerate(names))
    assert all(milepost_index(B, x.lower()) == m for m, x in enumerate(names))
    assert all(milepost_index(B, str(m)) == m for m in range(B.n))  # legacy numbers


def test_names_pinned_by_hand() -> None:
    paris = centre("Paris")
    assert milepost_name(B, paris) == "Paris"
    assert [milepost_name(B, B.nb[paris * 6 + d]) for d in range(6)] == [
        f"Paris-{d}" for d in DIR_NAMES
    ]
    assert milepost_index(B, "paris-ne") == B.nb[paris * 6 + 1] == 879
    lyon = centre("Lyon")
    assert milepost_name(B, lyon) == "Lyon"
    assert milepost_name(B, B.nb[lyon * 6 + 2]) == "AD46"  # the clear milepost NW of Lyon
    assert milepost_name(B, 1303) == "V46"
    assert milepost_index(B, "MÜNCHEN") == milepost_index(B, "munchen") == centre("München")


def test_files_read_down_a_column_and_ranks_count_from_the_north() -> None:
    spacing = B.content.map.spacing_km
    for m in range(B.n):
        f, rank = square(B, m)
        x_centre = file_labels(B)[f].x
        assert abs(B.xy[m][0] - x_centre) == pytest.approx(spacing / 4)
        assert B.xy[m][1] == pytest.approx(rank_labels(B)[rank - 1].y)
    north = max(range(B.n), key=lambda m: B.xy[m][1])
    assert square(B, north)[1] == 1
    assert [x.text for x in file_labels(B)[:3]] == ["A", "B", "C"]
    assert file_labels(B)[-1].text == file_letters(len(file_labels(B)) - 1) == "BJ"
    assert len(rank_labels(B)) == 71


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Lyonn", "no place called 'Lyonn' (did you mean Lyon?)"),
        ("A1", "there is no milepost at A1 (off the map, in the sea or a lake)"),
        ("99999", "no milepost 99999 (the map has 0 to 2083)"),
        ("Paris-N", "no place called 'Paris-N' (did you mean Paris-NE, Paris-NW, Paris-E?)"),
    ],
)
def test_unknown_places_are_named_with_suggestions(text: str, message: str) -> None:
    with pytest.raises(NotationError) as err:
        milepost_index(B, text)
    assert str(err.value) == f"eurorails: {message}"

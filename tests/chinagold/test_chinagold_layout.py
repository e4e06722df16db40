"""Layouts: the designed one, mirrored rivers, user files, and the checks at load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from motherlode import ConfigError
from motherlode.games.chinagold.board import mirror_regions, parse_layout
from tests.chinagold.helpers import game

ROWS = [
    "AABBCC", "AAABDCC", "AAEEFDCC", "GHEEEFDCC", "GHHIIFFDDJ", "GGHIIKFFDJJ",
    "GLHIIKMMMJ", "GLKKKNOMM", "GLKKNNOM", "PLLQOOQ", "PPPQQQ",
]


def _layout_text(**fields: object) -> str:
    data: dict[str, object] = {"source": "test", "mountains": ROWS}
    data.update(fields)
    return json.dumps(data)


def test_packaged_layout_is_marked_designed() -> None:
    from importlib import resources

    data = json.loads(
        resources.files("motherlode.games.chinagold").joinpath("data", "layout.json").read_text()
    )
    assert data["source"] == "designed" and data["sources"]["mountains"] == "designed"
    assert "rivers" not in data  # derived as the mirror image


def test_user_layout_file_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "my_board.json"
    path.write_text(_layout_text(name="my printed board"))
    g = game(layout_file=str(path))
    assert g.layout.name == "my printed board"
    assert g.layout.mountains == game().layout.mountains


def test_user_layout_may_give_its_rivers_explicitly(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(_layout_text(rivers=ROWS))  # rivers laid exactly on the mountains
    g = game(layout_file=str(path))
    assert g.layout.rivers == g.layout.mountains


def test_river_rotation_turns_the_mirrored_disc() -> None:
    g0, g1 = game(), game(river_rotation=1)
    assert g1.layout.rivers == mirror_regions(g0.layout.mountains, 1)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (ROWS[:10], "must have 11 rows"),
        ([*ROWS[:10], "PPPQQ"], "row k must have 6 spots, got 5"),
        ([*ROWS[:10], "PPPQQR"], "must have 17 regions, got 18"),
        (["AAAAAA", *ROWS[1:]], "has 9 spots|has 10 spots|has 11 spots"),
        (["AABBCC", "AAABDCC", "AAEEFDCC", "GHEEEFDCC", "GHHIIFFDDJ", "GGHIIKFFDJJ",
          "GLHIIKMMMJ", "GLKKKNOMM", "GLKKNNOM", "PLLQOOQ", "PPPQQB"],
         "not connected"),
    ],
)
def test_bad_layouts_raise_config_errors_naming_the_problem(rows: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_layout(_layout_text(mountains=rows), "my.json", 0)


def test_layout_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read chinagold layout"):
        game(layout_file=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match=r"bad\.json: not JSON"):
        game(layout_file=str(bad))
    bad.write_text(json.dumps({"mountains": ROWS}))
    with pytest.raises(ConfigError, match=r"bad\.json: source: Field required"):
        game(layout_file=str(bad))
    bad.write_text(_layout_text(colour="brown"))
    with pytest.raises(ConfigError, match=r"bad\.json: colour: Extra inputs are not permitted"):
        game(layout_file=str(bad))


def test_bad_config_values_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="river_rotation"):
        game(river_rotation=6)
    with pytest.raises(ConfigError, match="players must be 2"):
        game(players=3)
    with pytest.raises(ConfigError, match="edge_probability"):
        game(edge_probability=1.5)

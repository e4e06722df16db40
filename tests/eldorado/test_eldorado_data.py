"""The sheet and dice files: validated at load, replaceable by the user's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import motherlode
from motherlode import ConfigError
from motherlode.games.eldorado.sheets import load_sheet, slot_name
from tests.eldorado.helpers import game

DATA = Path(motherlode.__file__).parent / "games" / "eldorado" / "data"


def _sheet(m: int = 1) -> dict:
    return json.loads((DATA / f"sheet{m}.json").read_text())


def _write(tmp_path: Path, doc: dict, name: str = "mine.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_every_designed_number_names_its_source() -> None:
    for m in (1, 2, 3, 4):
        doc = _sheet(m)
        assert doc["golden_temple"]["source"] and doc["temple_symbols"]["source"]
        assert all(e["source"] for e in doc["resources"] + doc["helpers"])
    dice = json.loads((DATA / "dice.json").read_text())
    assert all(d["source"] for d in dice["dice"])


def test_each_sheet_has_what_the_rulebook_says() -> None:
    s1, s2, s3, s4 = (load_sheet(m) for m in (1, 2, 3, 4))
    assert sum(sp.reward for sp in s1.spaces) == 2
    assert s2.res_by_id.keys() >= {"zero", "cartographer", "amulet", "map"}
    assert {r.special for r in s3.resources} >= {"reroll_all", "take_two", "use_twice"}
    assert {r.ability for r in s3.resources} >= {"amulet_as_2_coins"}
    assert sorted(sp.fee for sp in s3.spaces if sp.fee) == [1, 2, 2, 3, 4]
    assert {r.special for r in s4.resources} >= {"use_thrice"}
    assert {r.ability for r in s4.resources} >= {"plus_one_coin", "reroll_on_torch"}


def test_a_users_own_sheet_file_loads(tmp_path: Path) -> None:
    path = _write(tmp_path, _sheet(2))
    g = game(map=2, sheet_file=path)
    assert g.sheet.source_file == path and len(g.sheet.spaces) == 51


@pytest.mark.parametrize(("change", "match"), [
    (lambda d: d["spaces"][3].update(symbol="banana"),
     r"spaces\[3\]\.symbol: Input should be 'machete'.* \(got 'banana'\)"),
    (lambda d: d["adjacency"]["a1"].remove("b1"),
     r"adjacency\['b1'\]: 'a1' is adjacent to it but not the other"),
    (lambda d: d["golden_temple"].update(minimum=7), "minimum is 3 or 4"),
    (lambda d: d["resources"][0].update(cost=["gold"]),
     r"resources\[0\]\.cost\[0\]: unknown cost symbol"),
    (lambda d: d["spaces"][0].pop("label"), r"spaces\[0\]\.label: Field required"),
    (lambda d: d["temple_symbols"].update(count=9), "count must be 2..5"),
    (lambda d: d["spaces"][1].update(start=True), "start spaces lie on the left edge"),
    (lambda d: d["spaces"][1].update(colour="red"), r"spaces\[1\]\.colour: Extra inputs are not"),
    (lambda d: d["resources"][0].update(coins=2), r"resources\[0\]: a resource gives exactly one"),
])
def test_bad_sheets_name_the_file_entry_and_problem(tmp_path: Path, change, match) -> None:
    doc = _sheet(1)
    change(doc)
    path = _write(tmp_path, doc)
    with pytest.raises(ConfigError, match=match) as err:
        game(sheet_file=path)
    assert path in str(err.value)


def test_resources_flat_symbol_a_resource_or_die_with_2_coins_in_a_sheet_file(
    tmp_path: Path,
) -> None:
    doc = _sheet(1)
    doc["resources"][0]["cost"] = ["coins:2", "machete"]
    g = game(sheet_file=_write(tmp_path, doc))
    assert [slot_name(k) for k in g.sheet.resources[0].cost] == ["coins:2", "machete"]
    for k, spelling in enumerate(("2coins", "2 coins", "coins:0", "coins:7", "coins:")):
        doc["resources"][0]["cost"] = [spelling]
        with pytest.raises(ConfigError, match=r"unknown cost symbol .*coins:1\.\.6 for the flat"
                           " symbol 'a resource or die with 2 coins'"):
            game(sheet_file=_write(tmp_path, doc, f"bad{k}.json"))


def test_settlement_fees_are_1_to_4(tmp_path: Path) -> None:
    doc = _sheet(3)
    next(s for s in doc["spaces"] if s["kind"] == "settlement")["fee"] = 5
    with pytest.raises(ConfigError, match=r"fee is 1\.\.4"):
        game(map=3, sheet_file=_write(tmp_path, doc))


def test_coin_faces_are_configurable() -> None:
    g = game(coin_faces="3,3,3,3,3,3")
    assert all(die[5] == 8 for die in g.dice[:6])
    assert game(coin_faces=["2", "2", "2", "2", "3", "3"]).cfg.coin_faces == "2,2,2,2,3,3"
    with pytest.raises(ConfigError, match="coin_faces must be six numbers"):
        game(coin_faces="1,2")


def test_a_users_dice_file_is_checked(tmp_path: Path) -> None:
    doc = json.loads((DATA / "dice.json").read_text())
    doc["dice"][0]["faces"][0] = "paddle"
    with pytest.raises(ConfigError, match=r"dice\[0\]: an expedition die shows"):
        game(dice_file=_write(tmp_path, doc, "dice.json"))
    doc["dice"][0]["faces"][0] = "coins:5"
    with pytest.raises(ConfigError, match=r"dice\[0\]\.faces\[0\]: unknown face .*coins:1\.\.4"):
        game(dice_file=_write(tmp_path, doc, "dice2.json"))


def test_bad_config_values() -> None:
    with pytest.raises(ConfigError, match="map"):
        game(map=5)
    with pytest.raises(ConfigError, match=r"players must be 1\.\.4"):
        game(players=5)
    with pytest.raises(ConfigError, match=r"first_player must be a seat 0\.\.2 of the 3"):
        game(players=3, first_player=3)
    with pytest.raises(ConfigError, match="first_player"):
        game(players=1, first_player=1)

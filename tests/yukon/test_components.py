"""The components file: read through its model, every problem named as "file: entry: problem"."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from motherlode.core.errors import ConfigError
from motherlode.games.yukon import cards as C


def _data() -> dict[str, Any]:
    path = resources.files("motherlode.games.yukon").joinpath("data", "components.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_packaged_file_reads_to_the_rulebook_counts() -> None:
    comp = C.load_components(json.dumps(_data()))
    assert comp == C.components()
    assert (comp.grid_size, comp.expansion_grid_size, comp.copies) == (7, 8, 3)
    assert comp.pan_disc_values == (1, 1, 1, 2, 2, 2, 3, 3, 3)


@pytest.mark.parametrize(
    ("entry", "change", "message"),
    [
        ("grid_size", None, "my.json: grid_size: Field required"),
        ("grid_size", {"source": "guess"}, "my.json: grid_size.source: Input should be"),
        ("grid_size", {"value": 8}, "my.json: grid_size: 49 base cards do not fill a 8² grid"),
        ("card_values", {"value": [1, 2]}, "my.json: card_values: must be"),
        ("pan_disc_values", {"value": [1, 2]}, "pan_disc_values: must be 9 positive integers"),
        ("townsfolk_kinds", {"value": ["trapper"]}, "must list the ten kinds in order"),
        ("townsfolk_drawn", {"value": 14}, "expansion_grid_size: the expansion cards do not fill"),
        ("discs_per_pan", {"value": 4}, "pan_disc_values: too few discs for 3 Pans"),
    ],
)
def test_a_bad_entry_is_a_config_error_naming_the_file_and_entry(
    entry: str, change: dict[str, Any] | None, message: str
) -> None:
    data = _data()
    if change is None:
        del data[entry]
    else:
        data[entry] = {**data[entry], **change}
    with pytest.raises(ConfigError) as err:
        C.load_components(json.dumps(data), "my.json")
    assert message in str(err.value)


def test_bad_json_and_unknown_entries_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"my\.json: not JSON"):
        C.load_components("{oops", "my.json")
    with pytest.raises(ConfigError, match=r"my\.json: colour: Extra inputs are not permitted"):
        C.load_components(json.dumps({**_data(), "colour": "red"}), "my.json")

"""``motherlode map eurorails`` and ``motherlode cards eurorails`` (the functions behind them)."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from motherlode.games.eurorails.commands import cards_command, distance_chart, map_command
from motherlode.games.eurorails.render import build_scene, map_svg


def test_map_command_summary() -> None:
    text = map_command(False, False, None, None)
    assert text.splitlines()[0] == "Eurorails map: 2084 mileposts, 43 km apart"
    assert "36 alpine" in text and "Chunnel: Folkestone - Coquelles, 20" in text
    summary = json.loads(map_command(False, True, None, None))
    assert summary["terrain"]["alpine"] == 36 and summary["cities"] == {
        "major": 8,
        "medium": 20,
        "small": 32,
    }


def test_map_command_distances_is_an_aligned_table() -> None:
    lines = map_command(True, False, None, None).splitlines()
    table = lines[1:]
    assert len(table) == 61  # header + 60 cities
    assert len({len(line) for line in table}) == 1
    assert table[1].startswith("Aberdeen ") and table[1].split()[1] == "0"


def test_map_command_distances_json() -> None:
    doc = json.loads(map_command(True, True, None, None))
    names, rows = doc["cities"], doc["distances"]
    assert len(names) == 60 and names == distance_chart()[0]
    i, j = names.index("Paris"), names.index("Madrid")
    assert rows[i][j] == rows[j][i] > 0


def test_map_command_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    text = map_command(False, False, out, None)
    assert f"wrote SVG map to {out}" in text
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    for name in ("Berlin", "Århus", "Dover", "Chunnel", "Rhein", "Tourists"):
        assert name in svg
    assert svg.count('class="milepost') == 2084
    root = ElementTree.fromstring(svg)  # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_scene_draws_every_milepost_and_ferry() -> None:
    scene = build_scene()
    assert sum(1 for s in scene.shapes if s.cls.startswith("milepost")) == 2084
    assert sum(1 for s in scene.shapes if s.kind == "line" and "-" in s.title) == 9
    assert map_svg() == map_svg()  # deterministic


def test_map_command_writes_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "map.png"
    map_command(False, False, None, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cards_command_lists_both_decks() -> None:
    text = cards_command(False)
    lines = text.splitlines()
    assert lines[0].startswith("Demand cards (146)")
    assert lines[1].lstrip().startswith("1  ")
    assert "Event cards (22)" in text and " 168  Irish economy booming" in text
    doc = json.loads(cards_command(True))
    assert [c["number"] for c in doc["demand_cards"]] == list(range(1, 147))
    assert [e["number"] for e in doc["event_cards"]] == list(range(147, 169))

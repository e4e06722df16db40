"""Views (observation, tensor, text, SVG), content data validation, bot, golden record."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from motherlode.core.agent import RandomAgent
from motherlode.core.errors import ConfigError, RecordError
from motherlode.core.records import GameRecord, replay
from motherlode.games.eureka import EurekaGame
from motherlode.games.eureka.board import load_board
from motherlode.games.eureka.bot import GreedyAgent
from tests.eureka.helpers import game, play, setup

DATA = Path(__file__).parent / "data"
GOLDEN = Path(__file__).parent / "golden"
GOLDEN_4P = GOLDEN / "eureka-players4-greedy-random-greedy-random-2026.json"
BOARD = Path(__file__).parents[2] / "src/motherlode/games/eureka/data/board.json"


# -- views ---------------------------------------------------------------------------------------


def test_observation_shows_face_down_chips_as_face_down_only() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"})
    obs = s.observation(1)
    assert "c7" in obs["face_down_chips"]
    text = json.dumps(obs)
    assert "c7" in text and text.count("c7") == 1  # no identity attached anywhere
    play(s, "move c7", "reveal G4")
    after = s.observation(1)
    assert "c7" not in after["face_down_chips"] and after["miners"][0]["gold"] == 4


def test_observation_tensor_has_the_fixed_shape() -> None:
    g = game(players=5)
    s = g.new_initial_state()
    t = s.observation_tensor(2)
    assert t.dtype == np.float32 and t.shape == g.observation_tensor_shape()
    assert t.shape == (331 * 10 + 11 + 3 + 25 + 10,)


def test_text_board_shows_track_lakes_rafts_houses_and_miners() -> None:
    s = setup(miners={1: "c5:0:0:0:0"})
    text = str(s)
    lines = text.splitlines()
    assert lines[0].startswith("Eureka  turn 0: P1 (red) to move")
    assert lines[11].endswith("k1-k21") and lines[1].startswith("a ")  # coordinates
    assert any(line.startswith(". field  o face-down chip") for line in lines)  # legend
    assert lines[11].startswith("k ") and "1" in lines[11]  # red in its house on row k
    assert "L" in lines[21] and "~" in text and "r" in text and "=" in text
    assert "2" in lines[3]  # blue in the north fields, row c


def test_text_board_counts_each_miners_robbers_in_words() -> None:
    s = setup(miners={0: "c5:3:1:7:1", 1: "c9:0:2:0:0"},
              revealed=["G5", "G5", "R1", "R1", "R2", "R2"])
    lines = str(s).splitlines()
    assert [line for line in lines if line.startswith(("P1 ", "P2 "))] == [
        "P1 red    at c5    carrying 3 gold, 1 robber; house 7 gold, 1 robber = 9 points",
        "P2 blue   at c9    carrying 0 gold, 2 robbers; house 0 gold, 0 robbers = 0 points",
    ]


def test_svg_board_is_wellformed_and_every_legal_action_is_clickable() -> None:
    s = setup(phase="move", die=3)
    svg = s.render_svg(0)
    root = ET.fromstring(svg)
    clickable = {e.get("data-action") for e in root.iter() if e.get("data-action")}
    assert clickable == {s.action_to_string(a) for a in s.legal_actions()}
    assert "<title>Move to" in svg and "locomotive" in svg and "raft at" in svg
    other = s.render_svg(1)
    assert "data-action" not in other  # not blue's move


def test_svg_buttons_for_roll_and_pass_only_for_the_seat_to_move() -> None:
    s = game().new_initial_state()
    root = ET.fromstring(s.render_svg(0))
    assert {e.get("data-action") for e in root.iter() if e.get("data-action")} == {"roll", "pass"}
    for viewer in (None, 1, 2):  # a spectator or another seat never sees them
        assert "data-action" not in s.render_svg(viewer)


def test_svg_has_coordinates_a_legend_and_no_font_glyphs() -> None:
    svg = game().new_initial_state().render_svg(None)
    assert ">k21</text>" in svg and ">u</text>" in svg and "Legend:" in svg
    assert "face-down chip" in svg and "where you may move" in svg
    assert all(ord(c) < 0x2000 for c in svg if c not in "×")  # shapes, never a glyph


# -- content data and config -----------------------------------------------------------------------


def test_designed_board_follows_the_stated_constraints() -> None:
    b = load_board()
    assert len(b.hexes) == 331 and len(b.holes) == 64 and 12 <= len(b.track) <= 20
    assert len(b.lakes) == 3 and all(len(lake.rafts) == 2 for lake in b.lakes)
    assert b.track[-1] in b.city and all(h in b.city for h in b.houses)
    for house, door in zip(b.houses, b.doors, strict=True):
        assert set(b.nbrs[house]) == set(door)
    assert not set(b.holes) & set(b.track)


def test_chip_mix_default_and_override() -> None:
    assert EurekaGame.from_config().mix.kinds == (14, 12, 10, 7, 5, 2, 3, 4, 4, 3)
    g = EurekaGame.from_config(gold_mix="20,12,10,4,2", robber_mix="6,4,3,2,1")
    assert g.mix.nuggets == 20 + 24 + 30 + 16 + 10 and g.mix.total == 64


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"gold_mix": "1,2,3"}, "gold_mix must be five counts"),
        ({"gold_mix": "10,10,10,10,10"}, "66 chips but the board"),
        ({"players": 7}, "players must be 2..6"),
        ({"nuggets_end": "never"}, "nuggets_end"),
        ({"max_turns": 0}, "max_turns"),
        ({"players": 3, "first_player": 3}, "first_player=3 is no seat"),
        ({"first_player": -1}, "first_player"),
        ({"board": "/no/such/file.json"}, "cannot read"),
    ],
)
def test_bad_config_raises_config_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        EurekaGame.from_config(**options)


def _board_variant(tmp_path: Path, edit) -> str:  # type: ignore[no-untyped-def]
    data = json.loads(BOARD.read_text())
    edit(data)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_users_own_board_file_loads(tmp_path: Path) -> None:
    path = _board_variant(tmp_path, lambda d: d.update(name="my copy"))
    assert len(EurekaGame.from_config(board=path).board.holes) == 64


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["houses"][0].update(door=["k13", "j12"]), "houses\\[0\\].door"),
        (lambda d: d["houses"][0].update(door=["k13"]), "two hexes wide"),
        (lambda d: d["track"].reverse(), "track"),
        (lambda d: d["track"].pop(3), "track"),
        (lambda d: d["lakes"][0].update(rafts=["k11", "d8"]), "lakes\\[0\\].rafts"),
        (lambda d: d["lakes"][0].update(rafts=["g9", "d8"]), "not a landing space"),
        (lambda d: d["lakes"][1]["banks"].update(city=["d8"]), "lakes\\[1\\].banks.city"),
        (lambda d: d["lakes"][0]["banks"]["fields"].remove("d5"), "d5 touch the lake"),
        (lambda d: (d["lakes"][0]["banks"]["city"].remove("h9"),
                    d["lakes"][0]["banks"]["fields"].append("h9")), "street, on the Golden City"),
        (lambda d: d["lakes"][0]["banks"].update(fields=d["lakes"][0]["banks"]["fields"]
                                                 + d["lakes"][0]["banks"]["city"][:1]),
         "listed twice"),
        (lambda d: d["rows"].__setitem__(3, d["rows"][3][:8] + "o" + d["rows"][3][9:]),
         "mining hole"),
        (lambda d: d["lakes"][0].update(berths=d["lakes"][0].pop("banks")), "old board format"),
        (lambda d: d["rows"].pop(), "rows"),
        (lambda d: d["lakes"].pop(), "three lakes"),
        (lambda d: d["lakes"][0].update(rafts=["h10"]), "six rafts"),
        (lambda d: d.pop("radius"), "radius: Field required"),
        (lambda d: d.update(raduis=10), "raduis: Extra inputs are not permitted"),
        (lambda d: d["lakes"][2]["banks"].update(feilds=[]), "lakes\\[2\\].banks.feilds"),
    ],
)
def test_broken_boards_are_rejected_naming_file_entry_and_problem(
    tmp_path: Path, edit, message: str  # type: ignore[no-untyped-def]
) -> None:
    path = _board_variant(tmp_path, edit)
    with pytest.raises(ConfigError, match=message) as err:
        EurekaGame.from_config(board=path)
    assert str(tmp_path) in str(err.value)


def test_disconnected_land_is_rejected(tmp_path: Path) -> None:
    def wall(d: dict) -> None:  # type: ignore[type-arg]
        rows = d["rows"]
        for i in (2,):
            rows[i] = " ".join("9" for _ in rows[i].split())
        d["rows"] = rows

    path = _board_variant(tmp_path, wall)
    with pytest.raises(ConfigError, match="the land is not connected"):
        EurekaGame.from_config(board=path)


def test_bad_chip_file(tmp_path: Path) -> None:
    path = tmp_path / "chips.json"
    path.write_text(json.dumps({"gold": [{"nuggets": 7, "count": 3}], "robbers": []}))
    with pytest.raises(ConfigError, match="gold\\[0\\]\\.nuggets: must be one of"):
        EurekaGame.from_config(chips=str(path))


# -- bot and records -----------------------------------------------------------------------------


def _play(g: EurekaGame, agents: list, seed: int):  # type: ignore[no-untyped-def,type-arg]
    rng = random.Random(seed)
    s = g.new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.sample_chance(rng) if s.is_chance_node()
                       else agents[s.current_player()].act(s))
    return s


def test_greedy_is_deterministic_given_its_seed() -> None:
    g = game(players=3)
    a = _play(g, [GreedyAgent(g, seed=5), GreedyAgent(g, seed=6), RandomAgent(7)], 3)
    b = _play(g, [GreedyAgent(g, seed=5), GreedyAgent(g, seed=6), RandomAgent(7)], 3)
    assert a.history() == b.history()


def test_greedy_beats_random_clearly() -> None:
    g = game(players=4)
    wins = 0.0
    for i in range(16):
        seat = i % 4
        agents = [GreedyAgent(g, seed=i) if k == seat else RandomAgent(seed=10 * i + k)
                  for k in range(4)]
        s = _play(g, agents, i)
        if seat in s.winners():
            wins += 1 / len(s.winners())
    assert wins / 16 >= 0.75


def test_greedy_banks_gold_when_its_house_is_in_reach() -> None:
    s = setup(phase="move", die=2, miners={0: "j13:4:0:0:0"}, revealed=["G4"])
    assert s.action_to_string(GreedyAgent(s.game).act(s)) == "move k14"


def test_greedy_is_exposed_by_the_game() -> None:
    g = game()
    assert isinstance(g.bots()["greedy"](g, seed=3, bank_at=5), GreedyAgent)


def test_golden_record_replays_identically() -> None:
    record = GameRecord.load(GOLDEN_4P)
    state = replay(record)
    assert state.serialize() == (DATA / "golden_4p.final.txt").read_text().strip()
    assert state.scores() == record.scores == [20.0, 2.0, 23.0, 0.0]
    assert record.versions["rules"] == 2
    again = GameRecord.from_state(state, record.players, record.seed)
    assert again.actions == record.actions


def test_a_rules_1_record_is_refused_naming_the_step_and_the_rafts_change() -> None:
    # The golden record of rules version 1 (rafts on water posts, a crossing to one post):
    # its step 6, "move m7", went onto the West Lake's old raft post, water now.
    record = GameRecord.load(DATA / "golden_4p_rules1.json")
    assert record.versions["rules"] == 1
    with pytest.raises(RecordError) as err:
        replay(record)
    text = str(err.value)
    assert "step 6 ('move m7')" in text and "lake water" in text
    assert "rules version 1" in text and "Eureka, Rafts" in text and "Eureka, The Die" in text
    assert "eureka/1 " not in text  # the message never holds the position

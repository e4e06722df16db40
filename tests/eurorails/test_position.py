"""The readable position notation (games/eurorails/position.py): exact round trips over
random games of every config, notation 1's JSON still read, and every impossible field
refused by name."""

from __future__ import annotations

import json
import random

import pytest

import motherlode
from motherlode.core.errors import NotationError
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.notation import write_json_position

CONFIGS: list[dict[str, object]] = [
    {},
    {"players": 3, "open_hands": False},
    {"circus": True},
    {"fast_game": True, "four_demand_cards": True},
    {"mercy_borrowing": True, "mercy_late_payment": True, "mercy_backtracking": True},
    {"challenge_track_trading": True},
    {"challenge_additional_trains": True},
    {
        "challenge_field_warehousing": True,
        "challenge_open_contracts": True,
        "challenge_cost_to_move": True,
        "challenge_cost_to_load": True,
        "challenge_reshuffle": True,
    },
    {"crossgrading": True, "fast_trains": True, "players": 4},
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(c) or "standard")
def test_positions_round_trip_over_random_games(cfg: dict[str, object]) -> None:
    game = motherlode.load("eurorails", **cfg)
    s = game.new_initial_state()
    rng = random.Random(7)
    for step in range(400):
        if s.is_terminal():
            break
        if step % 4 == 0:
            text = s.serialize()
            again = game.deserialize(text)
            assert again.serialize() == text
            assert again.legal_actions() == s.legal_actions()
            assert game.deserialize(write_json_position(s)).serialize() == text  # notation 1
        s.apply_action(
            s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        )


def _mid_game() -> EurorailsState:
    game = motherlode.load("eurorails", players=2)
    s = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(120):
        s.apply_action(
            s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        )
    assert isinstance(s, EurorailsState)
    return s


def _edit(text: str, key: str, value: str) -> str:
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.split(":")[0] == key)
    lines[k] = f"{key}: {value}"
    return "\n".join(lines)


def test_the_readable_notation_names_places_loads_and_cards() -> None:
    s = _mid_game()
    text = s.serialize()
    b = s.game.board
    assert text.startswith("eurorails position 2\nphase: ")
    lines = dict(line.split(": ", 1) for line in text.splitlines()[1:])
    assert lines["P1 hand"] == " ".join(f"#{c}" for c in s.hands[0])
    assert lines["P1 train"] == "Freight"
    assert "Paris" in text or "Berlin" in text or "Wien" in text  # track from a major city
    assert lines["links"].startswith("Belfast-Stranraer = ")
    assert lines["chips"].startswith("Bauxite ")
    assert all(name in lines["chips"] for name in b.load_names)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("P1 hand", "#1 #1 #140", "card #1 is both in "),
        ("P1 hand", "#1 #2 #3 #4 #5", "'P1 hand' holds 5 cards: at most 3"),
        ("P1 hand", "#150 #2 #3", "'P1 hand' holds an event card (#150)"),
        ("P1 hand", "#1 #2 #170", "'P1 hand' holds card #170: the cards are #1 to #168"),
        ("P1 loads", "Wine Wine Wine", "'P1 loads' are 3: a Freight carries 2"),
        (
            "P2 loads",
            "Wine",
            "Wine: 4 in the tray ('chips') and 1 on trains or in warehouses make 5, but the game"
            " has 4",
        ),
        ("P1 cash", "-5", "'P1 cash' is -5"),
        ("spent", "25", "'spent' is 25: at most 20 a turn"),
        ("over", "1", "'phase' is "),
        ("first", "P5", "'first' is P5, not a seat of the 2 players"),
        ("P1 train", "Rocket", "position field 'P1 train': no train called 'Rocket'"),
        ("P1 at", "A1", "position field 'P1 at': there is no milepost at A1"),
        ("P1 at", "AI10", "'P1 at': the train is at AI10, not on track or in a city"),
        ("P1 track", "AI10>AJ10", "'P1 track' at AI10 does not reach a major city"),
        ("phase", "lunch", "position field 'phase': 'lunch' is not one of deal, build"),
        ("chips", "Bauxite 3", "position field 'chips': no chip count for Beer"),
    ],
)
def test_an_impossible_field_is_refused_by_name(key: str, value: str, message: str) -> None:
    s = _mid_game()
    bad = _edit(s.serialize(), key, value)
    with pytest.raises(NotationError) as err:
        s.game.deserialize(bad)
    assert message in str(err.value)


def test_the_issues_hand_with_99_chips_of_one_load_is_refused() -> None:
    """The issue: "a hand [1, 1, 170] with 99 chips of one load is accepted" (JSON)."""
    s = _mid_game()
    d = json.loads(write_json_position(s).removeprefix("eurorails:"))
    d["hands"][0] = [1, 1, 170]
    with pytest.raises(NotationError, match="'P1 hand' holds card #170"):
        s.game.deserialize("eurorails:" + json.dumps(d))
    d = json.loads(write_json_position(s).removeprefix("eurorails:"))
    d["chips"][0] = 99
    with pytest.raises(NotationError, match="Bauxite: 99 in the tray"):
        s.game.deserialize("eurorails:" + json.dumps(d))

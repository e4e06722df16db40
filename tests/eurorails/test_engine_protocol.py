"""The shared conformance suite run on the Eurorails engine before it is registered.

Each test of ``tests/test_protocol.py`` is called with ``eurorails`` temporarily added
to the registry, for 2 to 6 players (the configs the game declares).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests import test_protocol as suite

from motherlode.games import registry
from motherlode.games.eurorails.game import EurorailsGame

CONFIGS = EurorailsGame.conformance_configs()


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    reg = registry()
    had = "eurorails" in reg
    reg["eurorails"] = EurorailsGame
    yield
    if not had:
        del reg["eurorails"]


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items() if k != "turn_limit")
)
@pytest.mark.parametrize(
    "check",
    [
        "test_random_playouts_reach_the_end",
        "test_clone_is_independent",
        "test_serialize_round_trips_and_replays_from_history",
        "test_records_replay_identically",
        "test_illegal_actions_are_rejected_and_change_nothing",
        "test_observations_are_json_and_tensors_have_a_fixed_shape",
        "test_deal_is_reproducible_and_leaves_setup_chance",
        "test_game_facts_are_consistent",
    ],
)
def test_engine_conformance(check: str, config: dict[str, Any]) -> None:
    getattr(suite, check)("eurorails", config)

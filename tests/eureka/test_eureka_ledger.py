"""benchmarks/eureka_ledger.py: every point gained or lost is put down to a cause."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.games.eureka.game import EurekaState

LEDGER_PATH = pathlib.Path(__file__).parents[2] / "benchmarks" / "eureka_ledger.py"


def _ledger_module() -> ModuleType:
    if str(LEDGER_PATH.parent) not in sys.path:  # the ledger imports duel.py's seating
        sys.path.insert(0, str(LEDGER_PATH.parent))
    spec = importlib.util.spec_from_file_location("eureka_ledger", LEDGER_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eureka_ledger"] = module
    spec.loader.exec_module(module)
    return module


def test_the_ledger_accounts_for_every_point_each_miner_carried() -> None:
    ledger_module = _ledger_module()
    game = motherlode.load("eureka", players=3)
    seen = {"found": 0, "duels won": 0, "lost to robbers": 0, "stacks taken": 0}
    for seed in range(12):
        agents = [create("greedy", game, seed=seed * 3 + i) for i in range(3)]
        ledger = ledger_module.Ledger(3)
        state = play_game(
            game, agents, seed, on_action=ledger.on_action, after_action=ledger.after_action
        ).state
        assert isinstance(state, EurekaState)
        for seat, counts in enumerate(ledger.seats):
            assert counts["other"] == 0
            gained = sum(
                counts[k]
                for k in ("found", "stacks taken", "robbers beaten", "duels won", "train won")
            )
            lost = counts["lost to robbers"] + counts["duels lost"] + counts["train lost"]
            banked = state.house_gold[seat] + 2 * state.house_robbers[seat]
            carried = state.gold[seat] + 2 * state.robbers[seat]
            assert counts["banked"] == banked
            assert gained - lost == banked + carried
            for key in seen:
                seen[key] += counts[key]
    assert all(seen.values()), seen  # the games exercised every common cause


def test_by_winner_puts_the_winners_in_the_first_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a winner banked the most, so the winners' banked points per seat top the others'
    ledger_module = _ledger_module()
    argv = ["eureka_ledger.py", "greedy", "--players", "3", "--games", "6", "--by-winner"]
    monkeypatch.setattr(sys, "argv", argv)
    ledger_module.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["per", "game", "a", "winner", "any", "other"]
    banked = next(line.split() for line in lines if line.split()[0] == "banked")
    assert float(banked[1]) > float(banked[2])

"""Agents from code: ``py:MODULE:FACTORY`` and ``py:FILE.py:CLASS`` specs, with parameters,
in ``create``, ``simulate``, ``arena`` and ``play``; refused unless allowed."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import motherlode
from motherlode.agents import create, operator_allowed, split_specs
from motherlode.arena.play import play_game
from motherlode.cli import app
from motherlode.core.agent import Agent
from motherlode.core.errors import AgentSpecError

runner = CliRunner()

AGENT_FILE = '''
from motherlode.core.agent import Agent


class FirstLegal(Agent):
    """The lowest legal action id, always; ``depth`` only to check parameters arrive."""

    def __init__(self, game, seed: int = 0, depth: int = 1, greedy: bool = False) -> None:
        super().__init__(seed)
        self.depth = depth
        self.greedy = greedy

    def act(self, state):
        return min(state.legal_actions())


class Duck:
    """Not an Agent, but it acts."""

    def act(self, state):
        return max(state.legal_actions())


def make_nothing(game):
    return 42
'''


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(textwrap.dedent(AGENT_FILE))
    return path


def test_a_class_in_a_file_gets_its_parameters_coerced(agent_file: Path) -> None:
    game = motherlode.load("yukon")
    agent = create(f"py:{agent_file}:FirstLegal:depth=3,greedy=yes", game, seed=5, allowed=True)
    assert isinstance(agent, Agent)
    assert (agent.depth, agent.greedy, agent.seed) == (3, True, 5)  # type: ignore[attr-defined]
    assert agent.name == f"py:{agent_file}:FirstLegal:depth=3,greedy=yes"
    state = motherlode.deal(game, seed=2)
    assert agent.act(state) == min(state.legal_actions())


def test_a_module_factory_and_a_duck_typed_agent(agent_file: Path) -> None:
    game = motherlode.load("yukon")
    agent = create("py:motherlode.core.agent:RandomAgent:seed=3", game, allowed=True)
    assert agent.seed == 3
    duck = create(f"py:{agent_file}:Duck", game, allowed=True)
    state = motherlode.deal(game, seed=2)
    assert duck.act(state) == max(state.legal_actions())


def test_code_agents_are_refused_unless_allowed(agent_file: Path) -> None:
    game = motherlode.load("yukon")
    spec = f"py:{agent_file}:FirstLegal"
    with pytest.raises(AgentSpecError, match="agents from code are not allowed here"):
        create(spec, game)
    listed = operator_allowed([f"{agent_file}:FirstLegal"])
    assert create(spec + ":depth=2", game, allowed=listed).depth == 2  # type: ignore[attr-defined]
    with pytest.raises(AgentSpecError, match=r"only .*FirstLegal are allowed"):
        create(f"py:{agent_file}:Duck", game, allowed=listed)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:nosuchmodule_xyz:make", "no module 'nosuchmodule_xyz'"),
        ("py:missing/file.py:Agent", "no Python file 'missing/file.py'"),
        ("py:motherlode.core.agent", "a code agent is py:MODULE:FACTORY"),
        ("py:motherlode.core.agent:NoSuch", "motherlode.core.agent has no 'NoSuch'"),
        ("py:motherlode.core.agent:RandomAgent:depth=2", "has no parameter 'depth'"),
        ("py:motherlode.core.agent:RandomAgent:seed=many", "seed must be int"),
        ("py:motherlode.core.agent:RandomAgent:seed", "parameter 'seed' is not key=value"),
    ],
)
def test_a_bad_code_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        create(spec, motherlode.load("yukon"), allowed=True)


def test_a_factory_that_returns_no_agent_is_refused(agent_file: Path) -> None:
    with pytest.raises(AgentSpecError, match="returned int, not an agent"):
        create(f"py:{agent_file}:make_nothing", motherlode.load("yukon"), allowed=True)


def test_specs_with_code_agents_split_like_any_other() -> None:
    assert split_specs("py:mine.py:FirstLegal:depth=2,greedy=true,random;greedy") == [
        "py:mine.py:FirstLegal:depth=2,greedy=true",
        "random",
        "greedy",
    ]


def test_simulate_and_arena_play_a_code_agent(agent_file: Path, tmp_path: Path) -> None:
    spec = f"py:{agent_file}:FirstLegal:depth=2"
    result = runner.invoke(
        app, ["simulate", "yukon", "--agents", f"{spec};random", "--games", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [row["agent"] for row in summary["agents"]] == [spec, "random"]
    assert sum(row["wins"] for row in summary["agents"]) == 4
    result = runner.invoke(
        app,
        ["arena", "yukon", "--agents", f"{spec};random", "--games", "4", "--workers", "2",
         "--store", str(tmp_path / "r.sqlite"), "--no-plot", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["played"] == 4
    assert sorted(row["agent"] for row in report["summary"]["agents"]) == sorted([spec, "random"])


def test_play_seats_a_code_agent(agent_file: Path, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    spec = f"py:{agent_file}:FirstLegal"
    result = runner.invoke(
        app,
        ["play", "yukon", "--seat", spec, "--seat", spec, "--seed", "4", "--record", str(record),
         "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    game = motherlode.load("yukon")
    first = create(spec, game, allowed=True)
    expected = play_game(game, [first, first], 4).record
    assert json.loads(record.read_text())["actions"] == expected.actions


def test_a_bad_code_spec_on_the_command_line_is_one_clear_line() -> None:
    result = runner.invoke(app, ["simulate", "yukon", "--agents", "py:nosuch_mod_q:make;random"])
    assert result.exit_code == 2
    assert "no module 'nosuch_mod_q'" in result.output
    assert "Traceback" not in result.output

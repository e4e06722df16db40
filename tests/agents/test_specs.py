"""The agent spec language: names, aliases, typed parameters and the errors that list them."""

from __future__ import annotations

import pytest

import motherlode
from motherlode.agents import available, create, describe, parse_spec, split_specs
from motherlode.agents.mcts import MCTSAgent


@pytest.fixture
def yukon() -> motherlode.Game:
    return motherlode.load("yukon")


def test_parse_and_create_with_typed_parameters(yukon: motherlode.Game) -> None:
    assert parse_spec(" MCTS:iterations=5 ") == ("mcts", {"iterations": "5"})
    agent = create("mcts:iterations=5,c=0.7,rollout=GREEDY,reuse=false", yukon, seed=3)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.c, agent.rollout, agent.reuse) == (5, 0.7, "greedy", False)
    assert agent.name == "mcts:iterations=5,c=0.7,rollout=GREEDY,reuse=false"
    assert {"random", "mcts", "alphabeta", "greedy"} <= set(available(yukon))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "unknown agent 'wizard' for yukon; the agents are:"),
        ("mcts:budget=3", "mcts has no parameter 'budget'"),
        ("mcts:iterations=many", "iterations must be an int (got 'many')"),
        ("mcts:rollout=smart", "rollout must be one of random, greedy, none"),
        ("mcts:reuse=perhaps", "reuse must be true or false"),
        ("mcts:seconds=-1", "seconds must not be negative"),
        ("mcts:iterations", "is not key=value"),
        ("mcts:c=1,c=2", "given twice"),
        ("", "empty agent spec"),
        ("greedy:nonsense=1", "agent spec 'greedy:nonsense=1'"),
    ],
)
def test_bad_specs_say_what_is_wrong(yukon: motherlode.Game, spec: str, message: str) -> None:
    with pytest.raises(motherlode.AgentSpecError) as err:
        create(spec, yukon)
    assert message in str(err.value)


def test_the_unknown_agent_error_lists_every_agent_and_parameter(
    yukon: motherlode.Game,
) -> None:
    with pytest.raises(motherlode.AgentSpecError) as err:
        create("wizard", yukon)
    text = str(err.value)
    for needle in (
        "random",
        "mcts",
        "alphabeta, expectimax, ab",
        "greedy",
        "iterations=int",
        "rollout=random|greedy|none",
        "nodes=int",
    ):
        assert needle in text
    assert text.endswith(describe(yukon))


def test_split_specs_keeps_parameters_with_their_agent() -> None:
    assert split_specs("mcts:seconds=1.0,rollout=greedy,greedy,random") == [
        "mcts:seconds=1.0,rollout=greedy",
        "greedy",
        "random",
    ]
    assert split_specs("a:x=1;b:y=2,z=3, c") == ["a:x=1", "b:y=2,z=3", "c"]

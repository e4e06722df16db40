"""The plans agent: MCTS over the plans a game's bot offers (``agents/plans.py``)."""

from __future__ import annotations

import pytest

import motherlode
from motherlode.agents import create
from motherlode.agents.plans import PlanNode, PlanSearchAgent
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import GameConfig
from tests.agents.harvest_game import PICK, PLANT, HarvestBot, HarvestGame, HarvestState


def play(game: HarvestGame, agents: list[object]) -> HarvestState:
    state = game.new_initial_state()
    while not state.is_terminal():
        agent = agents[state.current_player()]
        state.apply_action(agent.act(state))  # type: ignore[attr-defined]
    return state


def test_search_finds_the_plan_the_bot_does_not_favour() -> None:
    """Planting pays 3 points a seedling a turn later; the bot's favourite, picking, pays 1
    now. Search that looks two decision points ahead plants, except on its last turn."""
    game = HarvestGame(GameConfig())
    agent = PlanSearchAgent(game, seed=1, iterations=40, depth=2, c=0.5)
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        if state.current_player() == 0:
            action = agent.act(state)
            moves.append(action)
        else:
            action = HarvestBot(game).act(state)
        state.apply_action(action)
    assert moves == [PLANT, PLANT, PLANT, PLANT, PICK, PICK]
    assert state.points == [14, 6]


def test_search_keeps_the_bots_favourite_when_it_is_best() -> None:
    """On the last turn planting is worth nothing: the search picks, like the bot."""
    game = HarvestGame(GameConfig())
    state = game.new_initial_state()
    for _ in range(2 * 2 * 2):  # two turns each
        state.apply_action(PICK)
    agent = PlanSearchAgent(game, seed=3, iterations=20, depth=4)
    assert agent.act(state) == PICK
    assert agent.last_search["choice"] == "'pick'"


def test_the_plan_chosen_is_followed_until_the_next_decision_point() -> None:
    game = HarvestGame(GameConfig())
    agent = PlanSearchAgent(game, seed=2, iterations=30, depth=2)
    state = game.new_initial_state()
    assert agent.act(state) == PLANT
    searched = agent.last_search
    state.apply_action(PLANT)
    agent.last_search = {}
    assert agent.act(state) == PLANT  # the same turn: no new search
    assert agent.last_search == {}
    assert searched["iterations"] == 30


def test_same_seed_same_game() -> None:
    def record(seed: int) -> list[int]:
        game = motherlode.load("eurorails", players=2)
        state = motherlode.deal(game, seed=4)
        agent = create("plans:iterations=4,depth=2", game, seed=seed)
        out = []
        for _ in range(12):
            while state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            action = agent.act(state)
            out.append(action)
            state.apply_action(action)
        return out

    assert record(5) == record(5)


def test_a_bot_that_cannot_be_steered_is_a_clear_error() -> None:
    game = motherlode.load("yukon")
    with pytest.raises(AgentSpecError, match="cannot be steered plan by plan"):
        create("plans", game)


def test_bad_parameters_are_clear_errors() -> None:
    game = HarvestGame(GameConfig())
    with pytest.raises(AgentSpecError, match="width must be at least 1"):
        create("plans:width=0", game)
    with pytest.raises(AgentSpecError, match="has no parameter 'rollout'"):
        create("plans:rollout=none", game)


def test_depth_zero_plays_to_the_end_of_the_game() -> None:
    """With rollouts to the end, every simulation is judged by the game's result: the
    first plant is worth a win (14 to 6 points with best play from there)."""
    game = HarvestGame(GameConfig())
    agent = PlanSearchAgent(game, seed=4, iterations=8, depth=0)
    assert agent.act(game.new_initial_state()) == PLANT
    for visits, mean in agent.last_search["plans"].values():
        total = mean * visits  # a sum of results (-1, 0 or 1), not of judgements
        assert visits == 4 and abs(total - round(total)) < 1e-3


def tree_nodes(root: PlanNode) -> list[PlanNode]:
    nodes, todo = [], [root]
    while todo:
        node = todo.pop()
        nodes.append(node)
        todo.extend(node.children.values())
    return nodes


def test_modelled_opponents_follow_only_their_bots_favourite_plan() -> None:
    """opponents=bot: at the rival's decision points the tree holds one plan, the bot's
    favourite (picking); under max^n (the default) the rival's plant is searched too."""
    game = HarvestGame(GameConfig())
    state = game.new_initial_state()

    def rival_plans(opponents: str) -> set[object]:
        agent = PlanSearchAgent(game, seed=1, iterations=40, depth=2, opponents=opponents)
        agent.act(state)
        assert agent.last_tree is not None
        rival_nodes = [n for n in tree_nodes(agent.last_tree) if n.mover == 1]
        assert rival_nodes
        if opponents == "bot":
            assert all(len(n.children) == 1 for n in rival_nodes)
        return {plan for n in rival_nodes for plan in n.children}

    assert rival_plans("bot") == {"pick"}
    assert rival_plans("max") == {"pick", "plant"}


def test_modelled_opponents_still_find_the_plan_the_bot_does_not_favour() -> None:
    game = HarvestGame(GameConfig())
    agent = create("plans:iterations=40,depth=2,opponents=bot", game, seed=1)
    assert agent.act(game.new_initial_state()) == PLANT


def test_an_unknown_opponent_model_is_a_clear_error() -> None:
    game = HarvestGame(GameConfig())
    with pytest.raises(AgentSpecError, match="opponents"):
        create("plans:opponents=greedy", game)

"""MCTS over every registered game (small budgets), and its Yukon strength and options."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import motherlode
from motherlode.agents import create
from motherlode.agents.mcts import MCTSAgent, Node
from motherlode.arena.simulate import simulate
from motherlode.core.protocol import Game, State
from motherlode.games import registry

GAMES = [
    pytest.param(name, cls.conformance_configs()[0], id=name) for name, cls in registry().items()
]


def midgame(game: Game, seed: int, moves: int = 12) -> State:
    """A position some random moves after the deal (still running)."""
    rng = random.Random(seed)
    state = motherlode.deal(game, seed=seed)
    decisions = 0
    while decisions < moves:
        nxt = state.clone()
        if nxt.is_chance_node():
            nxt.apply_unchecked(nxt.sample_chance(rng))
        else:
            legal = nxt.legal_actions()
            nxt.apply_unchecked(legal[rng.randrange(len(legal))])
            decisions += 1
        if nxt.is_terminal():
            break
        state = nxt
    while state.is_chance_node():
        state.apply_unchecked(state.sample_chance(rng))
    return state


def searched(root: Node) -> Iterator[Node]:
    """``root`` and every node below it that a simulation went through."""
    yield root
    for child in root.children.values():
        if child.n:
            yield from searched(child)


SPECS = [
    "mcts:iterations=30,depth=8",
    "mcts:iterations=30,rollout=none,group=true,widening=2",
    "mcts:iterations=12,rollout=greedy,depth=3,epsilon=0.2,bias=0.5,widening=1",
]


@pytest.mark.parametrize(("name", "config"), GAMES)
@pytest.mark.parametrize("spec", SPECS, ids=["random", "widening-group", "greedy"])
def test_mcts_plays_legal_deterministic_moves_and_never_mutates(
    name: str, config: dict[str, Any], spec: str
) -> None:
    game = motherlode.load(name, **config)
    if "greedy" in spec and "greedy" not in game.bots():
        pytest.skip(f"{name} has no greedy bot")
    for state in (motherlode.deal(game, seed=1), midgame(game, seed=2)):
        if state.is_terminal():
            continue
        before, history = state.serialize(), state.history()
        a, b = create(spec, game, seed=7), create(spec, game, seed=7)
        move = a.act(state)
        assert move in state.legal_actions()
        assert b.act(state) == move, "same seed, same position: same move"
        assert state.serialize() == before and state.history() == history


@pytest.mark.parametrize(("name", "config"), [g for g in GAMES])
def test_alphabeta_plays_every_two_player_game(name: str, config: dict[str, Any]) -> None:
    game = motherlode.load(name, **config)
    if game.num_players != 2:
        pytest.skip("alphabeta is for 2-player games")
    state = midgame(game, seed=3)
    before = state.serialize()
    agent = create("alphabeta:nodes=150", game, seed=1)
    assert agent.act(state) in state.legal_actions()
    assert state.serialize() == before


def test_tree_is_reused_between_moves_and_forgotten_on_reset() -> None:
    game = motherlode.load("yukon")
    state = motherlode.deal(game, seed=5)
    agent = MCTSAgent(game, seed=0, iterations=400)
    state.apply_action(agent.act(state))
    reply = sorted(agent.last_search["children"])[0] if agent.last_search["children"] else None
    assert reply is not None
    state.apply_action(state.legal_actions()[0])  # the opponent moves
    if state.is_terminal() or len(state.legal_actions()) < 2:
        pytest.skip("the game ended too soon for this seed")
    agent.act(state)
    assert agent.last_search["reused_visits"] > 0
    agent.reset()
    agent.act(state)
    assert agent.last_search["reused_visits"] == 0


def test_reuse_is_not_fooled_by_a_different_position_with_the_same_history() -> None:
    game = motherlode.load("yukon")
    a = game.deserialize(motherlode.deal(game, seed=1).serialize())  # empty histories
    b = game.deserialize(motherlode.deal(game, seed=2).serialize())
    agent = MCTSAgent(game, seed=0, iterations=100)
    agent.act(a)
    move = agent.act(b)
    assert move in b.legal_actions() and agent.last_search["reused_visits"] == 0


def test_whole_games_are_reproducible_with_an_iteration_budget() -> None:
    game = motherlode.load("yukon", players=3)
    specs = ["mcts:iterations=60", "greedy", "random"]
    one = simulate(game, specs, 2, seed=4, progress=False)
    two = simulate(game, specs, 2, seed=4, progress=False)
    assert one["agents"] == two["agents"] and one["length"] == two["length"]


def test_mcts_beats_random_at_yukon() -> None:
    game = motherlode.load("yukon")
    summary = simulate(game, ["mcts:iterations=200", "random"], 6, seed=11, progress=False)
    assert summary["agents"][0]["wins"] >= 5


def test_solo_games_search_by_score() -> None:
    solo = [
        (name, cfg)
        for name, cls in registry().items()
        for cfg in cls.conformance_configs()
        if cfg.get("players") == 1
    ]
    if not solo:
        pytest.skip("no solo game registered")
    name, cfg = solo[0]
    game = motherlode.load(name, **cfg)
    state = motherlode.deal(game, seed=1)
    assert create("mcts:iterations=10,depth=5", game).act(state) in state.legal_actions()


def test_time_budget_stops_on_time() -> None:
    game = motherlode.load("yukon")
    state = motherlode.deal(game, seed=1)
    agent = create("mcts:seconds=0.05", game)
    agent.act(state)
    assert isinstance(agent, MCTSAgent)
    assert agent.last_search["seconds"] < 0.5 and agent.last_search["iterations"] > 0


def test_the_guide_is_asked_only_for_nodes_that_are_expanded() -> None:
    # Leaves are judged once and never expanded; asking the greedy bot for their move would
    # cost more than the rest of the search (El Dorado's bot plans a whole turn).
    from motherlode.agents.mcts import UNPREPARED

    game = motherlode.load("yukon")
    state = midgame(game, seed=4, moves=6)
    agent = create("mcts:iterations=300,rollout=none,bias=1,widening=1", game, seed=2)
    assert isinstance(agent, MCTSAgent) and agent.guide is not None
    calls = 0
    ask = agent.guide.act

    def counted(s: State) -> int:
        nonlocal calls
        calls += 1
        return ask(s)

    agent.guide.act = counted  # type: ignore[method-assign,assignment]
    agent.act(state)
    assert agent._root is not None

    def walk(node: Node) -> tuple[int, int]:
        prepared = int(node.kind == 0 and node.hint != UNPREPARED and len(node.children) > 0)
        leaves = int(node.kind == 0 and node.hint == UNPREPARED)
        for child in node.children.values():
            p, q = walk(child)
            prepared, leaves = prepared + p, leaves + q
        return prepared, leaves

    prepared, leaves = walk(agent._root)
    assert leaves > 0  # most of the tree is leaves, never expanded...
    assert calls <= prepared  # ...and the guide was asked only for the expanded nodes
    assert calls > 0


@pytest.mark.parametrize("name", ["yukon", "chinagold", "eureka"])
def test_max_backups_are_expectimax_over_the_tree(name: str) -> None:
    # backup=max: a decision node is worth its best child for the seat to move, a chance
    # node the probability-weighted mean of the outcomes searched
    from motherlode.agents.mcts import CHANCE_NODE, DECISION, GROUP

    game = motherlode.load(name, **registry()[name].conformance_configs()[0])
    state = midgame(game, seed=2, moves=4)
    agent = create("mcts:iterations=400,rollout=none,backup=max", game, seed=3)
    assert isinstance(agent, MCTSAgent)
    agent.act(state)
    assert agent._root is not None
    checked = 0
    for node in searched(agent._root):
        assert node.v is not None
        known = [c for c in node.children.values() if c.v is not None]
        if known and node.kind in (DECISION, GROUP):
            assert node.v == max(known, key=lambda c: c.v[node.player]).v  # type: ignore[index]
            checked += 1
        elif known and node.kind == CHANCE_NODE:
            probability = dict(node.outcomes)
            total = sum(probability[a] for a, c in node.children.items() if c.v is not None)
            for seat in range(game.num_players):
                mean = sum(
                    probability[a] * c.v[seat] for a, c in node.children.items() if c.v is not None
                )
                assert node.v[seat] == pytest.approx(mean / total)
            checked += 1
    assert checked > 10
    best = max(agent._flat(agent._root).values(), key=lambda c: c.n)
    assert best.v is not None


def test_greedy_opponents_search_only_the_greedy_bots_move() -> None:
    # opponents=greedy: every other seat's expanded node has one child, the greedy bot's
    # move there; the searching seat's own nodes branch as usual
    from motherlode.agents.mcts import DECISION

    game = motherlode.load("yukon", players=3)
    state = midgame(game, seed=5, moves=6)
    agent = create("mcts:iterations=400,rollout=none,opponents=greedy", game, seed=1)
    assert isinstance(agent, MCTSAgent) and agent.guide is not None
    me = state.current_player()
    agent.act(state)
    assert agent._root is not None and agent.me == me
    theirs = mine = 0

    def walk(node: Node, s: State) -> None:
        nonlocal theirs, mine
        if node.kind == DECISION and node.children:
            if node.player == me:
                mine += len(node.children) > 1
            elif len(s.legal_actions()) > 1:
                assert list(node.children) == [node.hint] and not node.untried
                theirs += 1
        for action, child in node.children.items():
            nxt = s.clone()
            nxt.apply_unchecked(action)
            walk(child, nxt)

    walk(agent._root, state.clone())
    assert theirs > 0 and mine > 0


def test_greedy_opponents_need_a_greedy_bot_and_a_known_mode() -> None:
    from motherlode.core.errors import AgentSpecError

    game = motherlode.load("yukon")
    with pytest.raises((AgentSpecError, ValueError)):
        create("mcts:opponents=nobody", game)
    agent = create("mcts:iterations=10,opponents=greedy", game)
    assert isinstance(agent, MCTSAgent) and agent.guide is not None and agent.bot is None
    from motherlode.core.protocol import GameConfig
    from tests.server.secret_game import SecretGame  # a game without bots

    with pytest.raises(AgentSpecError, match="bias, opponents=greedy: secretduel has no greedy"):
        create("mcts:bias=1,opponents=greedy", SecretGame(GameConfig()))


def test_paranoid_max_backups_take_the_worst_child_for_the_searching_seat() -> None:
    from motherlode.agents.mcts import DECISION, GROUP

    game = motherlode.load("yukon", players=3)
    state = midgame(game, seed=2, moves=4)
    agent = create("mcts:iterations=400,rollout=none,backup=max,opponents=paranoid", game)
    assert isinstance(agent, MCTSAgent)
    me = state.current_player()
    agent.act(state)
    assert agent._root is not None
    checked = 0
    for node in searched(agent._root):
        known = [c for c in node.children.values() if c.v is not None]
        if known and node.kind in (DECISION, GROUP) and node.player != me:
            assert node.v == min(known, key=lambda c: c.v[me]).v  # type: ignore[index]
            checked += 1
    assert checked > 5


def test_a_cut_greedy_rollout_is_judged_after_depth_decisions() -> None:
    # rollout=greedy,depth=6 (the Eureka setting of docs/agents.md): the greedy bot plays
    # six decisions, whoever's they are, chance drawn from the agent's stream and not
    # counted; the game's judgement scores the next decision's position (the chance that
    # follows the sixth decision, a die or a chip, is drawn first)
    game = motherlode.load("eureka", players=2)
    state = midgame(game, seed=6, moves=10)
    spec = "mcts:iterations=10,rollout=greedy,depth=6,bias=3,widening=1,c=0.1"
    agent, twin = create(spec, game, seed=4), create(spec, game, seed=4)
    assert isinstance(agent, MCTSAgent) and isinstance(twin, MCTSAgent)
    assert twin.bot is not None
    value = agent._playout(state.clone())
    replay = state.clone()
    decisions = 0
    seats = set()
    while decisions < 6 or replay.is_chance_node():
        if replay.is_chance_node():
            replay.apply_unchecked(replay.sample_chance(twin.rng))
            continue
        seats.add(replay.current_player())
        replay.apply_unchecked(twin.bot.act(replay))
        decisions += 1
    assert not replay.is_terminal() and len(seats) == 2  # both seats played on
    assert value == replay.heuristic_values()  # type: ignore[attr-defined]
    assert value != state.heuristic_values()  # type: ignore[attr-defined]

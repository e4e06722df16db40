"""The alpha-beta / expectimax searcher: exact on small Yukon endgames, sound elsewhere.

Small sparse Yukon positions (a handful of cards, some of them Pans with face-down discs
in the expansion, so chance is involved) are solved by a brute-force expectiminimax over
every line of play; the searcher's value must equal it, and the move it plays must keep
that value.
"""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.agents import create
from motherlode.agents.search import AlphaBetaAgent, structural_key
from motherlode.core.protocol import State
from tests.yukon.helpers import base, expansion, position

GOLD = ["+1", "+2", "+3", "+4", "+5", "+6", "+8", "+10"]
PEBBLES = ["-1", "-2", "-3", "-4", "-5", "-6", "-8", "-10"]


def brute_force(state: State) -> float:
    """Seat 0's expectiminimax value over every line of play (no pruning, no table)."""
    if state.is_terminal():
        return state.returns()[0]
    if state.is_chance_node():
        total = 0.0
        for action, p in state.chance_outcomes():
            child = state.clone()
            child.apply_unchecked(action)
            total += p * brute_force(child)
        return total
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        values.append(brute_force(child))
    return max(values) if state.current_player() == 0 else min(values)


def sparse_position(rng: random.Random, with_pans: bool) -> State:
    """A random endgame: a few cards on an otherwise empty grid, the Prospector among them."""
    game = expansion(2) if with_pans else base(2)
    size = game.size
    cells = rng.sample(range(size * size), rng.randint(6, 9))
    tokens = rng.sample(GOLD + PEBBLES, len(cells) - 1)
    grid = [["."] * size for _ in range(size)]
    pans = []
    if with_pans:
        for i in rng.sample(range(len(tokens)), 2):
            tokens[i] = "Pa"
    for cell, tok in zip(cells[1:], tokens, strict=True):
        grid[cell // size][cell % size] = tok
        if tok == "Pa":
            pans.append(f"{game.cell_name(cell)}:{rng.randint(1, 2)}")
    grid[cells[0] // size][cells[0] % size] = "@"
    held = rng.sample([t for t in GOLD if t not in tokens], 2)
    players = [f"{held[0]}|-|-|-", f"{held[1]}|-|-|-"]
    return position(
        game,
        [" ".join(row) for row in grid],
        turn=rng.randint(1, 2),
        axis=rng.choice(["any", "row", "col"]),
        players=players,
        pans=",".join(pans) if pans else "-",
    )


@pytest.mark.parametrize("with_pans", [False, True], ids=["base", "pans"])
def test_value_equals_brute_force_on_small_yukon_endgames(with_pans: bool) -> None:
    rng = random.Random(5 if with_pans else 3)
    checked = 0
    while checked < 12:
        state = sparse_position(rng, with_pans)
        if state.is_terminal() or state.is_chance_node():
            continue
        exact = brute_force(state)
        agent = AlphaBetaAgent(state.game, seed=checked, depth=64)
        assert agent.value(state) == pytest.approx(exact, abs=1e-12), state.serialize()
        move = agent.act(state)
        assert agent.last_search["solved"] or agent.last_search["forced"], state.serialize()
        child = state.clone()
        child.apply_action(move)
        assert brute_force(child) == pytest.approx(exact, abs=1e-12), (
            f"{state.action_to_string(move)} gives away value in {state.serialize()}"
        )
        checked += 1


def test_it_finds_the_winning_line_in_a_tricky_yukon_endgame() -> None:
    # P1 to move anywhere along row 4 / column d: taking +10 lets P2 take +8 then the game
    # continues; the searcher must agree with the exhaustive value whatever it is.
    state = position(base(), ["", "", "", "-3 +10 . @ . +5", "", "   +8 . . -1", "", ""])
    agent = AlphaBetaAgent(state.game, seed=0, depth=40)
    move = agent.act(state)
    after = state.clone()
    after.apply_action(move)
    assert brute_force(after) == brute_force(state)
    assert agent.last_search["solved"]


def test_node_budget_is_deterministic_and_never_mutates_the_state() -> None:
    game = motherlode.load("yukon")
    state = motherlode.deal(game, seed=4)
    before, history = state.serialize(), state.history()
    a = create("alphabeta:nodes=1500", game, seed=2)
    b = create("alphabeta:nodes=1500", game, seed=2)
    assert a.act(state) == b.act(state)
    assert state.serialize() == before and state.history() == history


def test_expectimax_alias_and_two_player_only() -> None:
    game = motherlode.load("yukon", players=3)
    with pytest.raises(motherlode.AgentSpecError, match="2-player"):
        create("expectimax", game)
    assert create("ab:depth=2", motherlode.load("yukon")).name == "ab:depth=2"


def test_structural_key_ignores_history_only() -> None:
    game = motherlode.load("yukon")
    state = motherlode.deal(game, seed=9)
    again = game.deserialize(state.serialize())
    assert again.history() != state.history()
    assert structural_key(again) == structural_key(state)
    moved = state.clone()
    moved.apply_action(moved.legal_actions()[0])
    assert structural_key(moved) != structural_key(state)


def _eurorails_midgame() -> tuple[motherlode.Game, State]:
    """bench_mcts's Eurorails mid-game (2 players, no turn limit: past the half-way decision
    of a random game to the next choice), where a move leads to a chain of card draws:
    chance nodes, which the search does not count as depth."""
    game = motherlode.load("eurorails", players=2)
    opening = motherlode.deal(game, seed=1)

    def walk(state: State, rng: random.Random, until: int) -> int:
        made = 0
        while not state.is_terminal() and (
            made < until or state.is_chance_node() or len(state.legal_actions()) < 2
        ):
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[rng.randrange(len(legal))])
                made += 1
        return made

    decisions = walk(opening.clone(), random.Random(1), 10**9)
    mid = opening.clone()
    walk(mid, random.Random(1), decisions // 2)
    return game, mid


def test_a_budget_spent_within_the_first_ply_still_gives_a_move() -> None:
    """The first iteration is cut by the budget too (it could run for minutes: one ply of
    Eurorails holds millions of chance nodes); each move is then judged by the heuristic
    one ply ahead, the best for the mover chosen, the first of equals in the search order."""
    from motherlode.agents.evaluate import heuristic_values

    game, state = _eurorails_midgame()
    agent = AlphaBetaAgent(game, seed=0, nodes=300)
    move = agent.act(state)
    assert move in state.legal_actions()
    assert agent.last_search["depth"] == 0  # no iteration finished
    assert agent.last_search["nodes"] == 301  # cut at the first node past the budget
    mover = state.current_player()
    judged = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        judged[action] = heuristic_values(child, agent.scale)[0] * (1 if mover == 0 else -1)
    assert judged[move] == max(judged.values())
    assert agent.last_search["value"] == judged[move] * (1 if mover == 0 else -1)

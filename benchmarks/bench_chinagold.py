"""Chinagold throughput: random playouts per config, and the greedy bot against random.

Run: ``python benchmarks/bench_chinagold.py [--games N] [--bot-games M]``. Prints, per
config, random-playout games/s and decisions/s (one core, the unchecked apply path that
search uses), mean game length; then greedy vs random with seats rotated (win rate, mean
gold margin, greedy ms/move).
"""

from __future__ import annotations

import argparse
import random
import time

from motherlode.arena.play import play_game
from motherlode.core.agent import RandomAgent
from motherlode.core.protocol import Action, State
from motherlode.games.chinagold import Chinagold
from motherlode.games.chinagold.bot import GreedyAgent


def random_playouts(config: dict[str, object], games: int) -> None:
    game = Chinagold.from_config(**config)
    rng = random.Random(0)
    decisions = turns = 0
    limit_hits = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[rng.randrange(len(legal))])
                decisions += 1
        turns += state.turn
        limit_hits += state.hidden != 0
    elapsed = time.perf_counter() - start
    print(
        f"{config!s:<75} {games / elapsed:8.1f} games/s {decisions / elapsed:10.0f} decisions/s"
        f"  mean {turns / games:.1f} turns, {limit_hits} hit the turn limit"
    )


class TimedGreedy(GreedyAgent):
    """The greedy bot, timing its own decisions."""

    seconds = 0.0
    moves = 0

    def act(self, state: State) -> Action:
        t0 = time.perf_counter()
        action = super().act(state)
        TimedGreedy.seconds += time.perf_counter() - t0
        TimedGreedy.moves += 1
        return action


def greedy_vs_random(games: int) -> None:
    game = Chinagold.from_config()
    wins = draws = 0
    margin = 0.0
    for i in range(games):
        seat = i % 2
        greedy = TimedGreedy(game, seed=i)
        agents: list[GreedyAgent | RandomAgent] = [RandomAgent(seed=i), RandomAgent(seed=i)]
        agents[seat] = greedy
        played = play_game(game, agents, seed=10_000 + i)
        sc = played.state.scores()
        margin += sc[seat] - sc[1 - seat]
        winners = played.state.winners()
        if len(winners) == 2:
            draws += 1
        elif winners[0] == seat:
            wins += 1
    print(
        f"greedy vs random, {games} games, seats rotated: greedy wins {wins}, draws {draws},"
        f" loses {games - wins - draws} ({100 * wins / games:.1f}%),"
        f" mean gold margin {margin / games:+.1f};"
        f" greedy {1000 * TimedGreedy.seconds / TimedGreedy.moves:.2f} ms per decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="random playouts per config")
    parser.add_argument("--bot-games", type=int, default=200, help="greedy vs random games")
    args = parser.parse_args()
    for config in Chinagold.conformance_configs():
        random_playouts(config, args.games)
    if args.bot_games:
        greedy_vs_random(args.bot_games)


if __name__ == "__main__":
    main()

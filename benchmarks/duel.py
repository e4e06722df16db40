"""A quick paired match of two agents: the pilot runs behind the strength figures.

    python benchmarks/duel.py eureka "mcts:iterations=3000,rollout=none,c=0.1" greedy \\
        --games 40 --config players=2

Game ``g`` of ``n`` players is dealt with seed ``1000 + g // n`` and agent A sits in seat
``g % n``, so each deal is played ``n`` times, A in every seat (the arena's
``play_game``: chance is drawn from one stream seeded by the deal's seed, the same deal
each time, the later draws diverging as soon as the moves do). Pilots quoted in
``docs/agents.md`` before this used a loop that restarted the stream after the deal: the
same deals, other later draws. Every game prints a line
(A's result, the scores, A's running total), then the total. The same seeds give the same
deals for every pair of specs, so two specs can be compared game by game.
``motherlode arena`` is the tool for tournaments (stores, ratings, resumption); this is a
lighter loop for trying settings.

A pilot of ``k * n`` games covers only ``k`` deals, and the ``n`` games of a deal share its
chance stream, so in many-player games it swings far more than its game count suggests:
in six-player Eureka the first 36 games gave the MCTS of ``docs/agents.md`` 14.5 wins
here and 4.5 in the arena on the same deals and seats (``--seed 1000``), the agents'
seeds alone differing. Judge a setting by an arena run over many deals.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.agent import Agent
from motherlode.core.protocol import Game


def config_value(text: str) -> Any:
    """``2`` -> 2, ``true`` -> True, anything else stays a string."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def seating(game: Game, a: str, b: str, g: int) -> tuple[int, int, list[Agent]]:
    """Game ``g``'s deal seed, A's seat and the agents (A in that seat, B elsewhere).

    >>> game = motherlode.load("yukon")
    >>> seed, a_seat, agents = seating(game, "random", "greedy", 3)
    >>> seed, a_seat, [agent.name for agent in agents]
    (1001, 1, ['greedy', 'random'])
    """
    n = game.num_players
    seed = 1000 + g // n
    a_seat = g % n
    specs = [a if seat == a_seat else b for seat in range(n)]
    return seed, a_seat, [create(spec, game, seed=seed * 7 + i) for i, spec in enumerate(specs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("a", help="agent spec A (the one whose results are printed)")
    parser.add_argument("b", help="agent spec B, in every other seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--config", nargs="*", default=[], help="key=value config options")
    args = parser.parse_args()
    config = dict(item.split("=", 1) for item in args.config)
    game = motherlode.load(args.game, **{k: config_value(v) for k, v in config.items()})
    total = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        seed, a_seat, agents = seating(game, args.a, args.b, g)
        state = play_game(game, agents, seed).state
        returns = state.returns()
        result = 1.0 if returns[a_seat] > 0 else 0.5 if returns[a_seat] == 0 else 0.0
        total += result
        print(
            f"game {g} seat {a_seat + 1}: {result} (scores {state.scores()}),"
            f" A has {total}/{g + 1} after {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    print(f"{args.a} vs {args.b}: {total}/{args.games}")


if __name__ == "__main__":
    main()

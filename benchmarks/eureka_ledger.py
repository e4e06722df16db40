"""Where an agent's Eureka points come from: a ledger of gold found, fought for and lost.

    python benchmarks/eureka_ledger.py \\
        "mcts:iterations=1000,rollout=none,bias=1,widening=1,c=0.1" --games 60

Agent A plays the other seats' agent (``--against``, default ``greedy``) with the seating
of ``benchmarks/duel.py`` (its :func:`seating`): game ``g`` of ``n`` players is dealt with
seed ``1000 + g // n`` and A sits in seat ``g % n``. For each side it prints the points
per game (a nugget is one, a robber chip two) gained and lost by cause, counted from the
change in the gold and robbers lying in front of each miner at every action:

* ``found``: gold chips turned over; ``stacks taken``: face-up robbers and the gold under
  them, captured by landing on them; ``robbers beaten``: robbers captured in defence;
* ``lost to robbers``: gold taken by a robber the miner turned over;
* ``duels won`` / ``duels lost``: loot taken from or by another miner; ``attacks``: duels
  the side started (a count, not points);
* ``train won`` / ``train lost``: loot forfeited to the engineer;
* ``banked``: carried home (the final score); ``left out``: still carried at the end;
  ``passes``: turns passed (a count).

It answers "how does one agent beat another": the 2-player MCTS of ``docs/agents.md``
finds less gold than greedy but wins twice as many duels. With ``--by-winner`` the columns
are the games' winners and the other seats instead, whoever played them: "how are games
won" (``greedy --against greedy --players 6 --by-winner``: by duels).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from duel import seating

import motherlode
from motherlode.arena.play import play_game
from motherlode.core.protocol import State
from motherlode.games.eureka.game import (
    DEFEND,
    DUEL_A,
    DUEL_D,
    MOVE,
    PASS,
    REVEAL,
    ROLL,
    TURN,
    EurekaState,
)

GAINS = {REVEAL: "found", MOVE: "stacks taken", DEFEND: "robbers beaten", DUEL_D: "duels won"}
LOSSES = {DEFEND: "lost to robbers", DUEL_D: "duels lost", ROLL: "train lost"}
ROWS = (
    "found",
    "stacks taken",
    "robbers beaten",
    "lost to robbers",
    "duels won",
    "duels lost",
    "attacks",
    "train won",
    "train lost",
    "banked",
    "left out",
    "passes",
)


def _loot(state: EurekaState, seat: int) -> int:
    return state.gold[seat] + 2 * state.robbers[seat]


def _house(state: EurekaState, seat: int) -> int:
    return state.house_gold[seat] + 2 * state.house_robbers[seat]


class Ledger:
    """Counts, per seat, the points gained and lost by cause over one game."""

    def __init__(self, players: int) -> None:
        self.seats = [Counter[str]() for _ in range(players)]
        self._before: tuple[int, list[int], list[int]] = (0, [], [])

    def on_action(self, state: State, action: int) -> None:
        assert isinstance(state, EurekaState)
        n = state.game.num_players
        if state.phase == TURN and action == PASS:
            self.seats[state.turn]["passes"] += 1
        if state.phase == DUEL_A:
            self.seats[state.turn]["attacks"] += 1
        loot = [_loot(state, p) for p in range(n)]
        house = [_house(state, p) for p in range(n)]
        self._before = (state.phase, loot, house)

    def after_action(self, state: State) -> None:
        assert isinstance(state, EurekaState)
        phase, loot, house = self._before
        for p, counts in enumerate(self.seats):
            banked = _house(state, p) - house[p]
            change = _loot(state, p) - loot[p]
            if banked > 0:
                counts["banked"] += banked
            elif change > 0:
                counts["train won" if phase == ROLL else GAINS.get(phase, "other")] += change
            elif change < 0:
                counts[LOSSES.get(phase, "other")] -= change


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="agent spec A")
    parser.add_argument("--against", default="greedy", help="the other seats' agent spec")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--by-winner", action="store_true", help="columns: the winners and the other seats"
    )
    args = parser.parse_args()
    game = motherlode.load("eureka", players=args.players)
    n = game.num_players
    sides = {"A": Counter[str](), "others": Counter[str]()}
    seats_counted = {"A": 0, "others": 0}
    wins = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        seed, a_seat, agents = seating(game, args.agent, args.against, g)
        ledger = Ledger(n)
        state = play_game(
            game, agents, seed, on_action=ledger.on_action, after_action=ledger.after_action
        ).state
        assert isinstance(state, EurekaState)
        returns = state.returns()
        for p, counts in enumerate(ledger.seats):
            counts["left out"] += _loot(state, p)
            side = "A" if (returns[p] > 0 if args.by_winner else p == a_seat) else "others"
            sides[side].update(counts)
            seats_counted[side] += 1
        winners = sum(1 for r in returns if r > 0)
        wins += 1.0 / winners if returns[a_seat] > 0 else 0.0
    seconds = time.perf_counter() - start
    print(f"{args.agent} against {args.against}, {args.games} games of {n} players")
    print(f"A's win share {wins:g}/{args.games} = {wins / args.games:.2f} ({seconds:.0f} s)")
    first, second = ("a winner", "any other") if args.by_winner else ("A", "each other")
    print(f"{'per game':>16s} {first:>8s} {second:>11s}")
    for row in ROWS:
        a = sides["A"][row] / max(seats_counted["A"], 1)
        other = sides["others"][row] / max(seats_counted["others"], 1)
        print(f"{row:>16s} {a:8.2f} {other:11.2f}")


if __name__ == "__main__":
    main()

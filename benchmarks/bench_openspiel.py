"""Our MCTS against OpenSpiel's Python MCTSBot (through the adapter), side by side.

    python benchmarks/bench_openspiel.py [--game yukon] [--config players=2] [--seed 0]
        [--simulations 400] [--repeat 3] [--seconds 0.1] [--games 20] [--json]

1. **Simulations per second**, both bots from the same position (``motherlode.deal`` with
   ``--seed``), ``--simulations`` simulations each, one random rollout per simulation to
   the end of the game: ours is ``mcts:iterations=N,reuse=false``; OpenSpiel's is
   ``MCTSBot(uct_c=2, max_simulations=N, RandomRolloutEvaluator(1))`` on the adapter's
   state for that position (the game's history replayed through OpenSpiel). Each is
   timed ``--repeat`` times (fresh bot, another seed) and the best rate is kept.
2. **Win rate at equal time per move**: ``--games`` games, seats alternating, chance drawn
   from a seeded RNG per game. Ours thinks ``--seconds`` per move (``mcts:seconds=T``);
   OpenSpiel's MCTSBot has no clock, so it starts with the number of simulations it ran
   in ``T`` seconds in part 1 and, after each move, its next move is sized (at the rate of
   that move) so that its mean time per move meets ours, as measured so far. The measured
   mean time per move of each is printed too. Forced moves (one legal action) are played
   without asking either bot and are not timed.
   Win rate = (wins + draws / 2) / games, from our seat's returns.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

import motherlode
from motherlode.agents import create
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Game, State


def _parse_config(items: list[str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for item in items:
        key, _, raw = item.partition("=")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            for cast in (int, float):
                try:
                    value = cast(raw)
                    break
                except ValueError:
                    pass
        config[key.strip()] = value
    return config


def _openspiel_state(os_game: Any, state: State) -> Any:
    """The adapter's state for ``state`` (its history replayed through OpenSpiel)."""
    os_state = os_game.new_initial_state()
    for action in state.history():
        os_state.apply_action(action)
    return os_state


def _openspiel_bot(os_game: Any, simulations: int, seed: int) -> Any:
    from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        mcts,
    )

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(
        os_game,
        uct_c=2.0,
        max_simulations=max(2, simulations),
        evaluator=evaluator,
        random_state=rng,
    )


def simulations_per_second(
    game: Game, os_game: Any, state: State, simulations: int, seed: int, repeat: int = 3
) -> tuple[float, float]:
    """``(ours, openspiel)`` simulations per second from ``state``: the best of ``repeat``."""
    ours_best = os_best = 0.0
    os_state = _openspiel_state(os_game, state)
    for r in range(repeat):
        ours = create(f"mcts:iterations={simulations},reuse=false", game, seed=seed + r)
        start = time.perf_counter()
        ours.act(state)
        ours_best = max(ours_best, simulations / (time.perf_counter() - start))
        bot = _openspiel_bot(os_game, simulations, seed + r)
        start = time.perf_counter()
        bot.step(os_state)
        os_best = max(os_best, simulations / (time.perf_counter() - start))
    return ours_best, os_best


def play_match(
    game: Game, os_game: Any, seconds: float, os_simulations: int, games: int, seed: int
) -> dict[str, Any]:
    """Ours (``mcts:seconds=T``) against OpenSpiel's MCTSBot, seats alternating."""
    wins = draws = losses = 0
    ours_times: list[float] = []
    os_times: list[float] = []
    for g in range(games):
        ours_seat = g % game.num_players
        ours = create(f"mcts:seconds={seconds}", game, seed=seed + g)
        bot = _openspiel_bot(os_game, os_simulations, seed + g)
        chance = random.Random(10_000 + seed + g)
        state = os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.motherlode_state.sample_chance(chance))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:  # a forced move: neither bot searches, no time counted
                state.apply_action(legal[0])
                continue
            start = time.perf_counter()
            if state.current_player() == ours_seat:
                action = ours.act(state.motherlode_state)
                ours_times.append(time.perf_counter() - start)
            else:
                action = bot.step(state)
                spent = time.perf_counter() - start
                os_times.append(spent)
                # MCTSBot has no clock: size its next move, at the rate of this one, so
                # that its mean time per move meets ours (rollouts shorten as games go on)
                target = statistics.fmean(ours_times) if ours_times else seconds
                owed = target * (len(os_times) + 1) - sum(os_times)
                budget = min(max(owed, target / 2), 2 * target)
                rate = bot.max_simulations / max(spent, 1e-6)
                bot.max_simulations = max(2, round(rate * budget))
            state.apply_action(action)
        result = state.returns()[ours_seat]
        if result > 0:
            wins += 1
        elif result < 0:
            losses += 1
        else:
            draws += 1
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": (wins + draws / 2) / games if games else 0.0,
        "ours_seconds_per_move": statistics.fmean(ours_times) if ours_times else 0.0,
        "openspiel_seconds_per_move": statistics.fmean(os_times) if os_times else 0.0,
    }


def main() -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--game", default="yukon")
    parser.add_argument("--config", nargs="*", default=["players=2"], help="key=value ...")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time per move")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="timings of part 1 (best kept)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    from motherlode.adapters import openspiel as mos

    config = _parse_config(args.config)
    game = motherlode.load(args.game, **config)
    os_game = mos.load_game(args.game, **config)
    state = motherlode.deal(game, seed=args.seed)
    try:
        create("mcts:iterations=1", game)
    except AgentSpecError:
        print("our MCTS (motherlode.agents 'mcts') is not available yet: nothing to compare")
        return

    ours_rate, os_rate = simulations_per_second(
        game, os_game, state, args.simulations, args.seed, args.repeat
    )
    os_simulations = max(2, round(os_rate * args.seconds))
    match = play_match(game, os_game, args.seconds, os_simulations, args.games, args.seed)
    report = {
        "game": args.game,
        "config": game.config.model_dump(),
        "position_seed": args.seed,
        "simulations": args.simulations,
        "ours_simulations_per_second": round(ours_rate, 1),
        "openspiel_simulations_per_second": round(os_rate, 1),
        "speedup": round(ours_rate / os_rate, 2),
        "seconds_per_move": args.seconds,
        "openspiel_simulations_per_move": os_simulations,
        **match,
    }
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.game} {config}, position: motherlode.deal(seed={args.seed})")
    print(f"  simulations/s   ours {ours_rate:10.1f}   OpenSpiel MCTSBot {os_rate:10.1f}")
    print(f"  speed-up        {ours_rate / os_rate:.2f}x")
    print(
        f"  match           {match['games']} games at {args.seconds}s/move"
        f" (MCTSBot starts at {os_simulations} simulations/move)"
    )
    print(
        f"  ours            {match['wins']} won, {match['draws']} drawn, {match['losses']} lost:"
        f" win rate {match['win_rate']:.0%}"
    )
    print(
        f"  time per move   ours {match['ours_seconds_per_move']:.3f}s"
        f"   MCTSBot {match['openspiel_seconds_per_move']:.3f}s"
    )


if __name__ == "__main__":
    main()

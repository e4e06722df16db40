"""Refit Eureka's value function (``motherlode.games.eureka.value``) to self-play.

    python benchmarks/eureka_value_fit.py --games 5000 --players 4

Plays ``--games`` games between greedy bots (with random moves mixed in, so that positions
search visits are covered), fits the weights of ``value.FEATURES`` to the seats' final
banked points by least squares and the lead scale to who won by a logistic fit, and prints
the ``WEIGHTS`` and ``LEAD_SCALE`` entries for that number of players (a minute or two for
thousands of games). Paste them into ``src/motherlode/games/eureka/value.py`` after
changing the board, the chips or the features.

The fitting lives here, not in the game package: its self-play needs the agents
(``motherlode.agents``), a layer above the games, while the fitted weights and the value
function the game's ``heuristic_values`` uses stay in the package.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

import motherlode
from motherlode.agents import create
from motherlode.games.eureka import value
from motherlode.games.eureka.game import EurekaGame, EurekaState


def fit(
    games: int, players: int = 2, epsilon: float = 0.15, seed: int = 0
) -> tuple[list[float], float]:
    """Fit one entry of ``value.WEIGHTS`` and ``value.LEAD_SCALE`` to ``games`` greedy self-play
    games of ``players`` seats.

    Every decision position of every game is a sample per seat (features -> the seat's final
    banked points); the lead scale is a logistic fit of the winner on the predicted lead.
    """
    game = motherlode.load("eureka", players=players)
    assert isinstance(game, EurekaGame)
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    groups: list[tuple[int, int, list[float]]] = []  # (first row, seats, scores)
    for g in range(games):
        state = motherlode.deal(game, seed=seed * 1_000_003 + g)
        bots = [create("greedy", game, seed=rng.randrange(1 << 30)) for _ in range(players)]
        samples: list[list[list[float]]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.5:
                assert isinstance(state, EurekaState)
                samples.append(value.features(state))
            if rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = bots[state.current_player()].act(state)
            state.apply_unchecked(action)
        final = [float(x) for x in state.scores()]
        for rows in samples:
            groups.append((len(xs), players, final))
            for p, row in enumerate(rows):
                xs.append(row)
                ys.append(final[p])
    x = np.asarray(xs)
    y = np.asarray(ys)
    # Banked and carried points count one each by construction (gold carried home is gold
    # banked); the fit explains the rest - risks to the gold carried, income to come. A free
    # fit values carried gold above banked gold (finding gold goes with being near more),
    # which would teach search never to bank.
    fixed = np.zeros(len(value.FEATURES))
    fixed[value.FEATURES.index("banked")] = fixed[value.FEATURES.index("carried")] = 1.0
    free = [i for i in range(len(value.FEATURES)) if not fixed[i]]
    sub, *_ = np.linalg.lstsq(x[:, free], y - x @ fixed, rcond=None)
    weights = fixed.copy()
    weights[free] = sub
    pred = x @ weights
    # logistic fit of "seat 0 finished strictly ahead" on the predicted lead (2 seats)
    leads: list[float] = []
    wins: list[float] = []
    for first, seats, final in groups:
        predicted = pred[first : first + seats]
        best_rival = max(final[1:])
        if final[0] == best_rival:
            continue
        leads.append(float(predicted[0] - max(predicted[1:])))
        wins.append(1.0 if final[0] > best_rival else 0.0)
    lead = np.asarray(leads)
    won = np.asarray(wins)
    k = 0.1
    for _ in range(50):  # Newton's method on the one-parameter log-likelihood
        prob = 1 / (1 + np.exp(-k * lead))
        grad = float(np.sum((won - prob) * lead))
        hess = float(np.sum(prob * (1 - prob) * lead * lead)) + 1e-9
        k += grad / hess
    return [float(w) for w in weights], 1 / k


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Refit the Eureka value function.")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    weights, scale = fit(args.games, args.players, seed=args.seed)
    for name, w in zip(value.FEATURES, weights, strict=True):
        print(f"# {name}: {w:.4f}")
    row = ", ".join(f"{w:.4f}" for w in weights)
    print(f"WEIGHTS entry:    {args.players}: ({row}),")
    print(f"LEAD_SCALE entry: {args.players}: {scale:.2f}")


if __name__ == "__main__":
    main()

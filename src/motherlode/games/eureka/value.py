"""A value function for search agents, fitted to self-play: what a position is worth.

Eureka's score (gold banked in the house) says little until the train arrives: gold
carried may still be lost to robbers, rivals and the train, and the chips still face down
are income to come for whoever is near them. :func:`expected_points` predicts each seat's
final banked points from a few features of the position (banked, carried, and carried
scaled by the way home and by the train's distance, the threat of rivals, the nearest
face-down chip); :func:`values` turns the predicted leads into win chances in (-1, 1).

The weights are a least-squares fit of the final scores of games between greedy bots
(with random moves mixed in, so that positions search visits are covered), and the lead
scale a logistic fit of who won, both for each number of players: the more seats share the
gold, the smaller the scores and the more gold carried is at risk. :data:`JUDGED_WITH` says
which fit judges which number of players.
``python -m motherlode.games.eureka.value --games 5000 --players 4`` refits both for four
players and prints them (a minute or two). Replace that entry of :data:`WEIGHTS` and
:data:`LEAD_SCALE` with its output after changing the board, the chips or the features.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eureka", players=2), seed=1)
>>> [round(v, 3) for v in values(state)]  # the houses' ways out (rafts included) differ
[0.019, -0.019]
"""

from __future__ import annotations

import argparse
import math
import random
import weakref
from typing import TYPE_CHECKING

from motherlode.games.eureka.board import GOLD_VALUES, HOUSE

if TYPE_CHECKING:
    from motherlode.games.eureka.game import Eureka, EurekaState

FEATURES = (
    "bias",
    "banked",
    "carried",
    "carried*home/10",
    "carried*(home/10)^2",
    "carried/(train+1)",
    "carried*rivals-near",
    "loot-near",
    "gold-left*train/track",
    "chip-distance*train/track",
    "train",
)
"""The names of the features, in the order of :data:`WEIGHTS`."""

WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (-3.2261, 1.0, 1.0, -0.0245, -0.1752, -0.8197, -0.1046, 0.1357, 0.2257, -0.3341, 1.9045),
    3: (-3.0229, 1.0, 1.0, -0.1999, -0.1324, -0.7173, -0.0706, 0.1219, 0.1571, -0.2989, 1.4111),
    4: (-2.4645, 1.0, 1.0, -0.3961, -0.0475, -0.702, -0.032, 0.1047, 0.0795, -0.2486, 1.1536),
    5: (-2.2622, 1.0, 1.0, -0.5278, -0.0015, -0.6693, -0.022, 0.093, -0.009, -0.1841, 1.0314),
    6: (-1.6623, 1.0, 1.0, -0.7012, 0.1089, -0.7025, -0.0028, 0.083, 0.0228, -0.1117, 0.7501),
}
"""Least-squares weights predicting a seat's final banked points, by number of players
(see :func:`fit`: 3,000 games for two players, 5,000 for three to six)."""

LEAD_SCALE: dict[int, float] = {2: 8.98, 3: 7.43, 4: 5.75, 5: 4.61, 6: 3.71}
"""By number of players: a predicted lead of ``LEAD_SCALE[n]`` points over the best rival
means a win chance of ``sigmoid(1)``. Scores shrink as more seats share the gold."""

JUDGED_WITH: dict[int, int] = {2: 2, 3: 2, 4: 2, 5: 5, 6: 6}
"""The fit that judges a game of each number of players.

In six players MCTS made about its fair share in the arena with either fit (0.17 with the
two-player one, 0.18 with its own). The six-player fit, which counts gold carried far from
home as more at risk, is kept because MCTS then ends empty-handed less often than a greedy
seat (in 21% of 195 games against 30%; with the two-player fit 33% against 25%). In three
and four players their own fits did worse than the two-player one in paired games (better
in 38 of 186, worse in 51; ``docs/agents.md`` has the figures), so the two-player fit,
measured over hundreds of games there, judges them.
"""


NEAR = 6
"""Hexes within which a rival can reach a miner in one throw."""


class _Tables:
    """Static distances of one board, computed once per game."""

    def __init__(self, game: Eureka) -> None:
        board = game.board
        self.home = [board.distances_from([h]) for h in board.houses[: game.num_players]]
        n = len(board.hexes)
        self.pair: list[list[int]] = [board.distances_from([h], rafts=False) for h in range(n)]
        self.holes = tuple(board.holes)
        self.is_house = [k == HOUSE for k in board.kind]
        self.track = len(board.track) - 1
        fitted = JUDGED_WITH[game.num_players]
        self.weights = WEIGHTS[fitted]
        self.lead_scale = LEAD_SCALE[fitted]


_TABLES: weakref.WeakKeyDictionary[Eureka, _Tables] = weakref.WeakKeyDictionary()


def _tables(game: Eureka) -> _Tables:
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = _Tables(game)
    return tables


def features(state: EurekaState) -> list[list[float]]:
    """The feature vector (:data:`FEATURES`) of every seat."""
    t = _tables(state.game)
    n = state.game.num_players
    train = t.track - state.loco
    share = train / t.track
    ng = len(GOLD_VALUES)
    gold_left = sum(v * c for v, c in zip(GOLD_VALUES, state.bag[:ng], strict=True))
    gold_left += sum(g for _, g in state.stacks.values())
    open_chips = [h for h in t.holes if state.facedown[h]] + list(state.stacks)
    loot = [state.gold[q] + 2 * state.robbers[q] for q in range(n)]
    rows = []
    for p in range(n):
        pos = state.pos[p]
        carried = loot[p]
        home = max(t.home[p][pos], 0)
        near = t.pair[pos]
        in_house = t.is_house[pos]
        rivals_near = 0
        loot_near = 0
        for q in range(n):
            if q == p or t.is_house[state.pos[q]]:
                continue
            d = near[state.pos[q]]
            if 0 <= d <= NEAR:
                rivals_near += 1
                if not in_house:
                    loot_near += loot[q]
        chip = min((near[h] for h in open_chips if near[h] >= 0), default=20)
        rows.append(
            [
                1.0,
                state.house_gold[p] + 2.0 * state.house_robbers[p],
                carried,
                carried * home / 10,
                carried * (home / 10) ** 2,
                carried / (train + 1),
                carried * rivals_near,
                loot_near,
                gold_left / n * share,
                min(chip, 20) * share,
                train,
            ]
        )
    return rows


def expected_points(state: EurekaState) -> list[float]:
    """Each seat's predicted final banked points (exact once the game is over)."""
    if state.is_terminal():
        return [float(x) for x in state.scores()]
    weights = _tables(state.game).weights
    return [sum(w * f for w, f in zip(weights, row, strict=True)) for row in features(state)]


def values(state: EurekaState) -> list[float]:
    """Each seat's chance of winning, as ``2 * P(win) - 1`` from its predicted lead."""
    points = expected_points(state)
    scale = _tables(state.game).lead_scale
    if len(points) == 1:
        return [math.tanh(points[0] / scale)]
    out = []
    for p, v in enumerate(points):
        rival = max(x for q, x in enumerate(points) if q != p)
        out.append(math.tanh((v - rival) / (2 * scale)))
    return out


# -- fitting -------------------------------------------------------------------------


def fit(
    games: int, players: int = 2, epsilon: float = 0.15, seed: int = 0
) -> tuple[list[float], float]:
    """Fit one entry of :data:`WEIGHTS` and :data:`LEAD_SCALE` to ``games`` greedy self-play
    games of ``players`` seats.

    Every decision position of every game is a sample per seat (features -> the seat's final
    banked points); the lead scale is a logistic fit of the winner on the predicted lead.
    """
    import numpy as np

    import motherlode
    from motherlode.agents import create
    from motherlode.games.eureka.game import Eureka, EurekaState

    game = motherlode.load("eureka", players=players)
    assert isinstance(game, Eureka)
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
                samples.append(features(state))
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
    fixed = np.zeros(len(FEATURES))
    fixed[FEATURES.index("banked")] = fixed[FEATURES.index("carried")] = 1.0
    free = [i for i in range(len(FEATURES)) if not fixed[i]]
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
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"# {name}: {w:.4f}")
    row = ", ".join(f"{w:.4f}" for w in weights)
    print(f"WEIGHTS entry:    {args.players}: ({row}),")
    print(f"LEAD_SCALE entry: {args.players}: {scale:.2f}")


if __name__ == "__main__":
    main()

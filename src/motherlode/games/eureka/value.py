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
``python benchmarks/eureka_value_fit.py --games 5000 --players 4`` refits both for four
players and prints them (a minute or two; the self-play needs the agents, a layer above
the games, so the fitting lives there). Replace that entry of :data:`WEIGHTS` and
:data:`LEAD_SCALE` with its output after changing the board, the chips or the features.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eureka", players=2), seed=1)
>>> [round(v, 3) for v in values(state)]  # the houses' ways out (rafts included) differ
[0.019, -0.019]
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

from motherlode.games.eureka.board import GOLD_VALUES, HOUSE

if TYPE_CHECKING:
    from motherlode.games.eureka.game import EurekaGame, EurekaState

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
(see ``benchmarks/eureka_value_fit.py``: 3,000 games for two players, 5,000 for three to six)."""

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

    def __init__(self, game: EurekaGame) -> None:
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


_TABLES: weakref.WeakKeyDictionary[EurekaGame, _Tables] = weakref.WeakKeyDictionary()


def _tables(game: EurekaGame) -> _Tables:
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

"""A greedy Eureka bot: it digs for gold, banks it before the risk grows, shuns strong
robbers, picks fights it should win, and takes rafts when they shorten the way.

It looks one move ahead with expected values over the chips that remain face down (the
public counts, not the hidden identity of any chip) and a distance heuristic.

>>> import motherlode
>>> game = motherlode.load("eureka", players=3)
>>> state = motherlode.deal(game, seed=2)
>>> bot = GreedyAgent(game, seed=0)
>>> state.action_to_string(bot.act(state))
'roll'
"""

from __future__ import annotations

from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games.eureka.board import GOLD_VALUES, HOUSE, ROBBER_HATS
from motherlode.games.eureka.game import (
    MOVE,
    MOVE_BASE,
    RAFT,
    RETREAT,
    ROLL_DIE,
    STAY,
    TURN,
    EurekaGame,
    EurekaState,
)

MAP_CACHE = 2048
"""Distance maps kept per bot (one per set of chip positions seen)."""


class GreedyAgent(Agent):
    """One-ply expected-value player with a banking threshold.

    ``bank_at``: carried points (nuggets + 2 per robber) at which the miner heads home;
    it also heads home with anything once the train is within ``late`` spaces of the city.
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int = 0, bank_at: int = 4, late: int = 3) -> None:
        super().__init__(seed)
        if not isinstance(game, EurekaGame):
            raise TypeError("the Eureka greedy bot plays only Eureka")
        self.game = game
        self.bank_at = int(bank_at)
        self.late = int(late)
        board = game.board
        self._home = [board.distances_from([h]) for h in board.houses]
        self._maps: dict[tuple[int, ...], list[int]] = {}

    def act(self, state: State) -> Action:
        assert isinstance(state, EurekaState)
        legal = state.legal_actions()
        if state.phase == TURN:
            return ROLL_DIE
        if len(legal) == 1:
            return legal[0]
        seat = state.actor
        target = self._target_map(state, seat)
        best: list[Action] = []
        best_score = float("-inf")
        for a in legal:
            s = self._score(state, seat, a, target)
            if s > best_score + 1e-9:
                best, best_score = [a], s
            elif abs(s - best_score) <= 1e-9:
                best.append(a)
        return best[self.rng.randrange(len(best))]

    # -- evaluation ---------------------------------------------------------------------

    def _banking(self, state: EurekaState, seat: int) -> bool:
        carried = state.gold[seat] + 2 * state.robbers[seat]
        left = len(state.game.board.track) - 1 - state.loco
        return carried >= self.bank_at or (carried > 0 and left <= self.late)

    def _target_map(self, state: EurekaState, seat: int) -> list[int]:
        if self._banking(state, seat):
            return self._home[seat]
        board = state.game.board
        sources = [h for h in board.holes if state.facedown[h]]
        sources += [h for h, (_, g) in state.stacks.items() if g]
        if not sources:
            return self._home[seat]
        # The sources change only when a chip is turned over or a stack taken, so rollouts
        # ask for the same map again and again: keep the maps of recent source sets.
        key = tuple(sources)
        cache = self._maps
        found = cache.get(key)
        if found is None:
            if len(cache) >= MAP_CACHE:
                cache.clear()
            found = cache[key] = board.distances_from(sources)
        return found

    def _chip_value(self, state: EurekaState, carried_gold: int) -> float:
        total = sum(state.bag)
        if not total:
            return 0.0
        ng = len(GOLD_VALUES)
        ev = 0.0
        for k, c in enumerate(state.bag):
            if not c:
                continue
            if k < ng:
                ev += c * GOLD_VALUES[k]
            elif carried_gold:
                hat = ROBBER_HATS[k - ng]
                win = (6 - hat) / 5
                ev += c * (win * 2 - (1 - win) * carried_gold)
        return ev / total

    def _score(self, state: EurekaState, seat: int, action: Action, target: list[int]) -> float:
        board = state.game.board
        carried_gold = state.gold[seat]
        carried = carried_gold + 2 * state.robbers[seat]
        if state.phase == RAFT:
            if action == STAY:
                return -target[state.pos[seat]]
            node = board.landings[action - state.game.cross_base]
            return -target[node] + 0.5
        if state.phase not in (MOVE, RETREAT) or action == STAY:
            return 0.0
        node = action - MOVE_BASE
        kind = board.kind[node]
        dist = target[node] if target[node] >= 0 else 50
        if kind == HOUSE:
            return 10.0 * carried - 2.0 if carried else -3.0 - dist
        if node in state.rafts:
            far = [target[b] for b in board.opposite(node) if b not in state.rafts]
            return -(min(far) + 1 if far else dist) + 0.25
        if state.phase == RETREAT:
            return -float(dist)
        gain = 0.0
        stack = state.stacks.get(node)
        if stack is not None:
            gain += 2 + stack[1]
            carried_gold += stack[1]
            carried += 2 + stack[1]
        others = [o for o in range(state.game.num_players) if o != seat and state.pos[o] == node]
        fight = [o for o in others if carried or state.loot(o)]
        if fight:
            o = fight[0]
            theirs = state.gold[o] + 2 * state.robbers[o]
            gain += 0.5 * theirs - 0.5 * carried
        elif state.facedown[node]:
            gain += self._chip_value(state, carried_gold)
        return 10.0 * gain - dist


def make_greedy(game: Game, seed: int = 0, **params: Any) -> GreedyAgent:
    """The ``greedy`` factory of :meth:`EurekaGame.bots`."""
    return GreedyAgent(game, seed=seed, **params)

"""The ``greedy`` Yukon bot: it weighs what it takes against what it leaves the next player.

For each legal take it looks at the position after the move (settling its own follow-up
decisions greedily and chance draws by expectation), scores it by its lead in points
(its pair's lead in the 4-player base game), and subtracts the best gain the next player
can make from there (adds it, when the next mover is itself or its partner). Points
include the Townsfolk end scoring and the Prospector, so the bot values ending the game
when it is ahead and keeping the line open when it is not.

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> state = motherlode.deal(game, seed=2)
>>> GreedyAgent(game, seed=0).act(state) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games.yukon.game import NONE, YukonGame, YukonState


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(self, game: Game, seed: int = 0, lookahead: float = 1.0) -> None:
        super().__init__(seed)
        assert isinstance(game, YukonGame)
        self.game = game
        self.lookahead = lookahead

    def act(self, state: State) -> Action:
        assert isinstance(state, YukonState)
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best: list[Action] = []
        best_score = float("-inf")
        for action in legal:
            child = state.clone()
            child.apply_unchecked(action)
            score = self._settled(child, me)
            if state.pending == NONE and self.lookahead:
                score += self.lookahead * self._reply(child, me)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def _friendly(self, p: int, me: int) -> bool:
        return p == me or (self.game.teams and p % 2 == me % 2)

    def _lead(self, s: YukonState, me: int) -> float:
        pts = s.scores()
        if self.game.teams:
            t = s.team_scores()
            return t[me % 2] - t[1 - me % 2]
        others = [x for p, x in enumerate(pts) if p != me]
        return pts[me] - max(others)

    def _settled(self, s: YukonState, me: int) -> float:
        """``me``'s expected lead once the mover's own follow-ups are settled."""
        if s.is_chance_node() and s.dealt == self.game.cells:
            total = 0.0
            for action, p in s.chance_outcomes():
                child = s.clone()
                child.apply_unchecked(action)
                total += p * self._settled(child, me)
            return total
        if not s.is_terminal() and s.pending != NONE:
            mover = s.player
            values = []
            for action in s.legal_actions():
                child = s.clone()
                child.apply_unchecked(action)
                values.append(self._settled(child, me))
            return max(values) if self._friendly(mover, me) else min(values)
        return self._lead(s, me)

    def _reply(self, s: YukonState, me: int) -> float:
        """The swing in ``me``'s lead that the next mover's best take makes."""
        if s.current_player() < 0:
            return 0.0
        mover = s.current_player()
        base = self._lead(s, me)
        swings = []
        for action in s.legal_actions():
            child = s.clone()
            child.apply_unchecked(action)
            swings.append(self._settled(child, me) - base)
        return max(swings) if self._friendly(mover, me) else min(swings)


def make_greedy(game: Game, seed: int = 0, **params: Any) -> Agent:
    """The ``greedy`` spec's factory (``params``: ``lookahead``)."""
    return GreedyAgent(game, seed=seed, **params)

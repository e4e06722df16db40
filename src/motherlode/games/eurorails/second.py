"""Eurorails, Challenge Game: Additional Trains (the second train).

The second train of seat p lives in train2/pos2/prev2/on_ferry2/loads2[p] (and, in the
turn, moves2 and halved2). Every rule about "the train" is written once, for the fields of
the first; the second train is handled by swapping its fields in
(:meth:`~.base.StateBase._swap`), applying the same rule, and swapping back.
"""

from __future__ import annotations

from typing import Any

from motherlode.games.eurorails.constants import (
    CROSSGRADE,
)
from motherlode.games.eurorails.movement import MovementRules


class SecondTrainRules(MovementRules):
    """The second train's actions (a part of the state)."""

    def _second(self, p: int, rule: Any) -> list[int]:
        """``rule(p)`` (a list of train actions) for ``p``'s second train."""
        self._swap(p)
        try:
            out: list[int] = rule(p)
        finally:
            self._swap(p)
        return out

    def _apply_second(self, p: int, a: int) -> None:
        """Apply train action ``a`` to ``p``'s second train."""
        g = self.game
        finish = False
        self._swap(p)
        try:
            if a < g.END_BUILD:
                target = a - g.U0
                if g.crossgrade.get(self.train[p]) == target:
                    self.cash[p] -= CROSSGRADE
                    self.spent += CROSSGRADE
                else:  # an upgrade, instead of building: the turn ends
                    self.cash[p] -= dict(g.board.upgrades[self.train[p]])[target]
                    finish = True
                self.train[p] = target
                self.upgraded = 1
            elif g.cfg.mercy_backtracking and a == g.BACKTRACK:
                o = self._track_owner(self.pos[p], self.prev[p])
                if o >= 0 and o != p:
                    self._pay_rent(p, o)
                self.prev[p] = -1
                finish = True
            else:  # moving and loads: never the end of the turn
                self._apply_action(a)
        finally:
            self._swap(p)
        if finish:
            self._finish_turn()
        self._settle()

    def _start_second(self, p: int) -> None:
        """The second train at the start of the operations phase (as the first's)."""
        g = self.game
        self._swap(p)
        if self.on_ferry[p] >= 0:
            self.pos[p] = self.on_ferry[p]
            self.on_ferry[p] = -1
            self.prev[p] = -1
            self.moves = g.half[self.train[p]]
            self.halved |= 1
        elif self.pos[p] >= 0:
            self._start_moves(p)
        self._swap(p)

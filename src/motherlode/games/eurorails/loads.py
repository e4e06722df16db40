"""Eurorails, Hauling Freight: loads and deliveries (Picking Up Loads, Delivering Loads;
the bonus events paid on a delivery; Mercy, Late Payment of a use fee from the payoff; the
Circus chips; the Challenge Game's Field Warehousing).

The loads a train may pick up, drop or deliver are listed with its moves (:mod:`.movement`);
what each does is applied here.
"""

from __future__ import annotations

from motherlode.games.eurorails.base import StateBase
from motherlode.games.eurorails.constants import (
    FIRST_EVENT,
)


class LoadRules(StateBase):
    """Delivering, putting a load down, the Circus demand (a part of the state)."""

    def _pay_late(self, p: int, payoff: int) -> None:
        """Mercy, Late Payment: ``p``'s owed use fees, oldest first, from ``payoff``."""
        for entry in self.late:
            if entry[0] == p and payoff > 0:
                amount = min(entry[2], payoff)
                payoff -= amount
                entry[2] -= amount
                self.cash[p] -= amount
                self.cash[entry[1]] += amount
        self.late = [x for x in self.late if x[2] > 0]

    def _pick_up(self, p: int, x: int) -> None:
        """``p``'s train picks up load ``x`` in its city (Picking Up Loads): a warehoused
        chip first (Field Warehousing), a Circus chip from the city."""
        g = self.game
        c = g.board.city_of[self.pos[p]]
        stored = [w for w in self.warehouse if w[0] == c and w[1] == x]
        if x == g.CIRCUS:
            self.circus_at.remove(c)
        elif stored:  # a warehoused load is taken before the tray's
            self.warehouse.remove(stored[0])
        else:
            self.chips[x] -= 1
        self.loads[p].append(x)
        self.loads[p].sort()
        self.blocked.append(self.pos[p] * 64 + x)
        self.halved |= 2
        if g.cfg.challenge_cost_to_load:
            self.moves -= 1

    def _drop(self, p: int, x: int) -> None:
        """``p``'s train drops load ``x`` in its city without payoff: the chip returns to
        the tray (Field Warehousing: it stays in the city for 4 more turns)."""
        g = self.game
        self.loads[p].remove(x)
        c = g.board.city_of[self.pos[p]]
        if g.cfg.challenge_field_warehousing and x != g.CIRCUS:
            self.warehouse.append([c, x, p, self.turns_done[p] + 5])
        else:
            self._put_down(x, c)
        self.blocked.append(self.pos[p] * 64 + 32 + x)
        self.halved |= 2
        if g.cfg.challenge_cost_to_load:
            self.moves -= 1

    def _deliver(self, p: int, slot: int, j: int) -> None:
        b = self.game.board
        card = self.hands[p][slot]
        dem = self.game.demands[card][j]
        pay = dem.payment
        self.loads[p].remove(dem.load)
        self._put_down(dem.load, dem.city)
        for a in list(self.active):
            ev = b.events[a[0]]
            if ev.kind == "bonus" and ev.amount is not None:
                hit = (ev.load is not None and self.game.load_names[dem.load] == ev.load) or (
                    ev.countries is not None and b.city_country[dem.city] in ev.countries
                )
                if hit:
                    pay += ev.amount
                    self.active.remove(a)
                    self.discard.append(a[0])
        self.cash[p] += pay
        if self.late:
            self._pay_late(p, pay)
        del self.hands[p][slot]
        self.discard.append(card)
        self.halved |= 2

    def _put_down(self, x: int, c: int) -> None:
        """Load ``x`` leaves a train: its chip returns to the tray, a Circus to city ``c``."""
        if x == self.game.CIRCUS:
            self.circus_at.append(c)
        else:
            self.chips[x] += 1

    def has_circus_demand(self, p: int) -> bool:
        g = self.game
        return any(
            d.load == g.CIRCUS for c in self.hands[p] if c < FIRST_EVENT for d in g.demands[c]
        )

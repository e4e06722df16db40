"""Eurorails, Event Card Effects: what each event card does when drawn (taxes, derailments,
floods, snow, fog, gales, strikes, bonuses), the queries the other rule parts ask about the
events in play (bad weather, strikes, closed alpine passes, flooded rivers), and the loads
and turns the events take away (Losing Turns).
"""

from __future__ import annotations

from motherlode.games.eurorails.board import (
    ALPINE,
    FERRY,
)
from motherlode.games.eurorails.constants import (
    DEAL,
    FOREVER,
    OPS,
)
from motherlode.games.eurorails.loads import LoadRules

_EMPTY: frozenset[int] = frozenset()


class EventRules(LoadRules):
    """Events drawn and the events in play (a part of the state)."""

    def is_event_active(self, card: int) -> bool:
        return any(a[0] == card for a in self.active)

    def weather_area(self) -> frozenset[int]:
        """Every milepost at half rate and closed to building (snow, fog, gale areas)."""
        g = self.game
        key = tuple(a[0] for a in self.active if g.event_kind[a[0]] in ("snow", "fog", "gale"))
        if not key:
            return _EMPTY
        found = g.weather_cache.get(key)
        if found is None:
            found = frozenset().union(*(g.areas[c] for c in key))
            g.weather_cache[key] = found
        return found

    def weather_at(self, m: int) -> bool:
        """Half rate here (an active snow, fog or gale area)."""
        return bool(self.active) and m in self.weather_area()

    def no_build_at(self, m: int) -> bool:
        return self.weather_at(m)

    def strike_at_city(self, c: int) -> bool:
        b = self.game.board
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "strike" and ev.scope != "drawer":
                assert ev.coast_distance is not None
                near = b.city_coast[c] <= ev.coast_distance
                if (ev.scope == "coastal") == near:
                    return True
        return False

    def wildcat_drawer(self) -> int:
        for a in self.active:
            if a[0] == 149:
                return a[1]
        return -1

    def flooded_rivers(self) -> set[str]:
        b = self.game.board
        out = set()
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "flood" and ev.river:
                out.add(ev.river)
        return out

    def closed_alpine(self, m: int) -> bool:
        b = self.game.board
        if b.terrain[m] != ALPINE:
            return False
        for a in self.active:
            ev = b.events[a[0]]
            if ev.kind == "snow" and ev.close_alpine and m in self.game.areas[a[0]]:
                return True
        return False

    def _queue_loss2(self, q: int) -> None:
        """Seat ``q``'s second train loses a load (its owner chooses which)."""
        if not self.loads2[q]:
            return
        if len(set(self.loads2[q])) == 1:
            self._swap(q)
            self._lose_load(q, self.loads[q][0])
            self._swap(q)
        else:
            self.pending.append(self.game.num_players + q)

    def _event(self, card: int, drawer: int) -> None:
        g = self.game
        b = g.board
        ev = b.events[card]
        n = g.num_players
        area = g.areas[card]
        expires = self.turns_done[drawer] + 2
        if ev.kind == "tax":
            assert ev.brackets is not None
            for q in range(n):
                due = 0
                for lo, amount in ev.brackets:
                    if self.cash[q] >= lo:
                        due = amount
                self.cash[q] -= due
            self.cash_public = 1
            if g.cfg.challenge_reshuffle:  # out of the game; the discards shuffled back
                self.aside.append(card)
                self.draw = sorted(self.draw + self.discard)
                self.discard = []
            else:
                self.discard.append(card)
        elif ev.kind == "derailment":
            for q in range(n):
                if self.pos[q] >= 0 and self.pos[q] in area:
                    self._lose_turn(q, drawer)
                    self._queue_loss(q)
                if self.pos2 and self.pos2[q] >= 0 and self.pos2[q] in area:
                    self._lose_turn(q, drawer)
                    self._queue_loss2(q)
            self.discard.append(card)
        elif ev.kind == "bonus":
            self.active.append([card, drawer, FOREVER])
        else:
            self.active.append([card, drawer, expires])
            if ev.kind == "flood" and ev.river:
                for e, r in enumerate(b.edge_river):
                    if r == ev.river and self.edge_owner[e] >= 0:
                        o = self.edge_owner[e]
                        self.erased.append([card, e, o])
                        self.edge_owner[e] = -1
                        a, c = b.edge_ends[e]
                        self._touch(o, a, -1)
                        self._touch(o, c, -1)
            if ev.kind == "gale":
                assert ev.seas is not None
                for q in range(n):
                    m = self.pos[q]
                    if m < 0:
                        continue
                    k = b.link_at[m]
                    at_port = k >= 0 and b.links[k].kind == FERRY and m in area
                    dest = self.on_ferry[q]
                    crossing = dest >= 0 and b.links[b.link_at[dest]].sea in ev.seas
                    if at_port or crossing:
                        self._lose_turn(q, drawer)
                        self._queue_loss(q)
                if self.pos2:  # each train on a ferry milepost
                    for q in range(n):
                        self._swap(q)
                        m = self.pos[q]
                        k = b.link_at[m] if m >= 0 else -1
                        at_port = k >= 0 and b.links[k].kind == FERRY and m in area
                        dest = self.on_ferry[q]
                        crossing = dest >= 0 and b.links[b.link_at[dest]].sea in ev.seas
                        self._swap(q)
                        if at_port or crossing:
                            self._lose_turn(q, drawer)
                            self._queue_loss2(q)
            if ev.kind in ("snow", "fog", "gale") and self.phase == OPS:
                p = self.turn_player()
                if p == drawer and self.pos[p] in area and not self.halved & 1:
                    self.moves = (self.moves + 1) // 2
                    self.halved |= 1
                if p == drawer and self.pos2 and self.pos2[p] in area and not self.halved2:
                    self.moves2 = (self.moves2 + 1) // 2
                    self.halved2 = 1

    def _lose_turn(self, q: int, drawer: int) -> None:
        if q == drawer and self.turn_player() == q and self.phase != DEAL:
            self.end_now = 1
        self.lost[q] = 1

    def _queue_loss(self, q: int) -> None:
        if not self.loads[q]:
            return
        if len(set(self.loads[q])) == 1:
            self._lose_load(q, self.loads[q][0])
        else:
            self.pending.append(q)

    def _lose_load(self, q: int, x: int) -> None:
        self.loads[q].remove(x)
        self._put_down(x, self.nearest_city(self.pos[q]) if x == self.game.CIRCUS else -1)

    def nearest_city(self, m: int) -> int:
        """The city nearest to milepost ``m`` over the milepost lattice (the lowest city
        index among equals: breadth-first, neighbours in direction order)."""
        b = self.game.board
        seen = {m}
        ring = [m]
        while ring:
            found = sorted({b.city_of[x] for x in ring if b.city_of[x] >= 0})
            if found:
                return found[0]
            nxt = []
            for x in ring:
                for d in range(6):
                    y = b.nb[x * 6 + d]
                    if y >= 0 and y not in seen:
                        seen.add(y)
                        nxt.append(y)
            ring = nxt
        raise AssertionError("no city on the map")

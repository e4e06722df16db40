"""Eurorails, Running the Train: the operations phase's actions (start, move, ferries, the
Chunnel, and, listed with them, the loads to pick up, drop and deliver), reversing only in a
city, renting track (Renting Track; the Challenge Game's Cost to Move), Using a Ferry and the
Chunnel, and the Mercy rule Backtracking.
"""

from __future__ import annotations

from motherlode.games.eurorails.board import (
    CHUNNEL,
    FERRY,
)
from motherlode.games.eurorails.constants import (
    BUILD,
    FIRST_EVENT,
    MOVE_FEE,
    OPS,
    RENT,
)
from motherlode.games.eurorails.events import EventRules


class MovementRules(EventRules):
    """Moving trains (a part of the state)."""

    def _ops_actions(self, p: int) -> list[int]:
        g = self.game
        b = g.board
        out: list[int] = []
        fresh = not self.halved & 2
        if self.pos[p] < 0:
            out.extend(g.START0 + c for c in range(len(b.city_names)))
            out.append(g.END_MOVE)
            if fresh:
                out.append(g.DISCARD)
            return sorted(out)
        m = self.pos[p]
        c = b.city_of[m]
        if self.moves > 0:
            for d in range(6):
                if self.move_refusal(p, d) is None:
                    out.append(g.MOVE0 + d)
            if self._chunnel_refusal(p) is None:
                out.append(g.CHUNNEL_MOVE)
        k = b.link_at[m]
        if k >= 0 and b.links[k].kind == FERRY and self.on_ferry[p] < 0:
            for o in self.link_owners[k]:
                if o == p and self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
                    continue
                if o == p or self.rented[o] or self.may_pay_rent(p):
                    out.append(g.FERRY0 + o)
        if c >= 0 and (self.moves > 0 or not g.cfg.challenge_cost_to_load):
            strike = self.strike_at_city(c)
            load_set = set(self.loads[p])
            if not strike and len(self.loads[p]) < b.train_capacity[self.train[p]]:
                for x in b.city_goods[c]:
                    if self.chips[x] > 0 and m * 64 + 32 + x not in self.blocked:
                        out.append(g.PICK0 + x)
                for wc, x, _, _ in self.warehouse:
                    if wc == c and m * 64 + 32 + x not in self.blocked and g.PICK0 + x not in out:
                        out.append(g.PICK0 + x)
                x = g.CIRCUS
                if (
                    c in self.circus_at
                    and m * 64 + 32 + x not in self.blocked
                    and self.has_circus_demand(p)
                ):
                    out.append(g.PICK0 + x)
            for x in load_set:
                if m * 64 + x not in self.blocked:
                    out.append(g.DROP0 + x)
            if not strike:
                for s, card in enumerate(self.hands[p]):
                    if card < FIRST_EVENT:
                        for j, dem in enumerate(g.demands[card]):
                            if dem.city == c and dem.load in load_set:
                                out.append(g.DELIVER0 + 3 * s + j if s < 3 else g.DELIVER4_0 + j)
                for s, card in enumerate(self.contracts):
                    for j, dem in enumerate(g.demands[card]):
                        if dem.city == c and dem.load in load_set:
                            out.append(g.CONTRACT0 + 3 * s + j)
        out.append(g.END_MOVE)
        if fresh:
            out.append(g.DISCARD)
            if g.cfg.mercy_backtracking and self.backtrack_refusal(p) is None:
                out.append(g.BACKTRACK)
        return sorted(out)

    def backtrack_refusal(self, p: int) -> str | None:
        """Why ``p``'s train may not backtrack now (None: legal)."""
        g = self.game
        if not g.cfg.mercy_backtracking:
            return "backtracking is not played (config mercy_backtracking)"
        if self.phase != OPS or self.halved & 2:
            return "a train backtracks instead of its whole turn, before anything else"
        m = self.pos[p]
        if m < 0 or self.prev[p] < 0 or self.may_reverse(m):
            return "the train may move in any direction already"
        o = self._track_owner(m, self.prev[p])
        if o >= 0 and o != p and not self.may_pay_rent(p):
            return f"backtracking on P{o + 1}'s track costs the {RENT} use fee"
        return None

    def _track_owner(self, a: int, c: int) -> int:
        b = self.game.board
        for d in range(6):
            if b.nb[a * 6 + d] == c:
                return self.edge_owner[b.eid[a * 6 + d]]
        return -1

    def move_refusal(self, p: int, d: int) -> str | None:
        """Why ``p``'s train may not move in direction ``d`` now (None: legal)."""
        b = self.game.board
        m = self.pos[p]
        if self.moves <= 0:
            return "the train has no movement left"
        to = b.nb[m * 6 + d]
        if to < 0:
            return "there is no milepost there"
        e = b.eid[m * 6 + d]
        owner = self.edge_owner[e]
        if owner < 0 and not b.edge_internal[e]:
            return "there is no track there"
        if to == self.prev[p] and not self.may_reverse(m):
            return "a train may only reverse direction in a city"
        if owner >= 0 and owner == self.wildcat_drawer():
            return "the Wildcat strike stops every train on the drawing player's track"
        if self.closed_alpine(to):
            return "heavy snow closes the alpine mileposts of its area"
        if owner == p and self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
            return f"moving on one's own track costs {MOVE_FEE} a turn (Cost to Move)"
        if owner >= 0 and owner != p and not self.rented[owner] and not self.may_pay_rent(p):
            return f"renting P{owner + 1}'s track costs {RENT} and must be paid before use"
        return None

    def may_reverse(self, m: int) -> bool:
        """ "A train may only reverse direction if it is in a city (including all major city
        mileposts)": a city milepost. At a junction it changes direction by taking another
        branch, never by going back (rules 2; the Mercy rule Backtracking reverses elsewhere)."""
        return self.game.board.city_of[m] >= 0

    def _chunnel_refusal(self, p: int) -> str | None:
        b = self.game.board
        m = self.pos[p]
        k = b.link_at[m]
        if k < 0 or b.links[k].kind != CHUNNEL:
            return "the train is not at the Chunnel"
        link = b.links[k]
        owners = self.link_owners[k]
        if not owners:
            return "nobody has built the Chunnel"
        other = link.ends[1] if link.ends[0] == m else link.ends[0]
        if other == self.prev[p] and not self.may_reverse(m):
            return "a train may only reverse direction in a city"
        if self.moves < link.length:
            return f"crossing the Chunnel takes {link.length} mileposts of movement"
        o = owners[0]
        if o != p:
            if self.train[p] == 0 and self.game.cfg.chunnel_needs_upgrade:
                return "a Freight may not use the Chunnel by renting it"
            if not self.rented[o] and not self.may_pay_rent(p):
                return f"renting the Chunnel costs {RENT}"
            if o == self.wildcat_drawer():
                return "the Wildcat strike stops every train on the drawing player's track"
        elif o == self.wildcat_drawer():
            return "the Wildcat strike stops every train on the drawing player's track"
        elif self._own_fee_due(p) and self.cash[p] < MOVE_FEE:
            return f"moving on one's own track costs {MOVE_FEE} a turn (Cost to Move)"
        return None

    def _start_moves(self, p: int) -> None:
        if self.weather_at(self.pos[p]):
            self.moves = self.game.half[self.train[p]]
            self.halved = 1 | (self.halved & 2)
        else:
            self.moves = self.game.speed[self.train[p]]

    def _move(self, p: int, d: int) -> None:
        b = self.game.board
        m = self.pos[p]
        e = b.eid[m * 6 + d]
        to = b.nb[m * 6 + d]
        owner = self.edge_owner[e]
        if owner >= 0 and owner != p and not self.rented[owner]:
            self._pay_rent(p, owner)
        elif owner == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        self.prev[p] = m
        self.pos[p] = to
        self.moves -= 1
        self.halved |= 2
        if not self.halved & 1 and self.weather_at(to):
            self.moves = (self.moves + 1) // 2
            self.halved |= 1

    def _pay_rent(self, p: int, owner: int) -> None:
        if self.cash[p] < RENT:  # Mercy, Late Payment: owed, paid from delivery payoffs
            self.late.append([p, owner, RENT])
        else:
            self.cash[p] -= RENT
            self.cash[owner] += RENT
        self.rented[owner] = 1

    def _own_fee_due(self, p: int) -> bool:
        """Challenge Game, Cost to Move: ``p`` has not yet paid this turn's 1 million."""
        return self.game.cfg.challenge_cost_to_move and not self.rented[p]

    def _pay_move_fee(self, p: int) -> None:
        self.cash[p] -= MOVE_FEE  # to the bank
        self.rented[p] = 1

    def may_pay_rent(self, p: int) -> bool:
        """``p`` has the 4 for a use fee, or may owe it (Mercy, Late Payment)."""
        return self.cash[p] >= RENT or self.game.cfg.mercy_late_payment

    def _chunnel(self, p: int) -> None:
        b = self.game.board
        m = self.pos[p]
        k = b.link_at[m]
        link = b.links[k]
        o = self.link_owners[k][0]
        if o != p and not self.rented[o]:
            self._pay_rent(p, o)
        elif o == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        other = link.ends[1] if link.ends[0] == m else link.ends[0]
        self.prev[p] = m
        self.pos[p] = other
        self.moves -= link.length
        self.halved |= 2

    def _board_ferry(self, p: int, owner: int) -> None:
        b = self.game.board
        m = self.pos[p]
        link = b.links[b.link_at[m]]
        if owner != p and not self.rented[owner]:
            self._pay_rent(p, owner)
        elif owner == p and self._own_fee_due(p):
            self._pay_move_fee(p)
        self.on_ferry[p] = link.ends[1] if link.ends[0] == m else link.ends[0]
        if self.pos2:  # this train stops; the other may still move
            self.moves = 0
            self.halved |= 2
        else:
            self._to_build()

    def _to_build(self) -> None:
        self.phase = BUILD
        self.moves = self.moves2 = 0

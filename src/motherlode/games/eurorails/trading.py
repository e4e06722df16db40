"""Eurorails, Challenge Game: Selling and Trading Track.

"Instead of building track, a player may purchase track from another player for whatever
price both players agree to. The purchase may take place only in the purchasing player's
turn." The buyer composes an offer to one seller in his building phase (before building or
upgrading): the seller's segments he takes, his own he gives, a price; the seller accepts
or refuses. One offer to each other seat a turn; an accepted one replaces the turn's
building.
"""

from __future__ import annotations

from motherlode.games.eurorails.base import StateBase
from motherlode.games.eurorails.board import (
    MEDIUM,
    SMALL,
)
from motherlode.games.eurorails.constants import (
    BUILD,
    COMPOSING,
    PRICE_MAX,
    PRICED,
    PROPOSED,
)


class TradingRules(StateBase):
    """Offers of track between two seats (a part of the state)."""

    def _offer_starts(self, p: int) -> list[int]:
        """``offer Pk`` actions open to ``p`` now (the building phase is assumed)."""
        g = self.game
        if not g.cfg.challenge_track_trading or self.spent or self.upgraded:
            return []
        return [
            g.OFFER0 + k
            for k in range(g.num_players)
            if k != p and k not in self.offered and self.net[k]
        ]

    def offer_refusal(self, p: int, k: int) -> str | None:
        """Why ``p`` may not start an offer to seat ``k`` now (None: legal)."""
        g = self.game
        if not g.cfg.challenge_track_trading:
            return "selling and trading track is not played (config challenge_track_trading)"
        if self.phase != BUILD:
            return "track is bought instead of building, in the building phase"
        if self.offer:
            return "one offer at a time"
        if self.spent or self.upgraded:
            return "track is bought instead of building: not after building or upgrading"
        if k == p or k >= g.num_players:
            return "an offer is made to another player"
        if k in self.offered:
            return f"one offer to P{k + 1} a turn"
        if not self.net[k]:
            return f"P{k + 1} has no track"
        return None

    def _offer_actions(self) -> list[int]:
        g = self.game
        seller, stage, _ = self.offer
        if stage == PROPOSED:
            return [g.ACCEPT, g.REFUSE]
        if stage == PRICED:
            return [g.WITHDRAW, g.PROPOSE]
        p = self.turn_player()
        out = [g.WITHDRAW]
        take, give = set(self.offer_take), set(self.offer_give)
        owner = self.edge_owner
        adj = g.adj
        # every segment of a seat has both ends in that seat's net: look only next to them
        near = {e for m in self.net[seller] | self.net[p] for _, e in adj[m]}
        for e in sorted(near):
            o = owner[e]
            if o == seller:
                if e not in take and self.trade_refusal(e, seller, p) is None:
                    out.append(g.TAKE0 + e)
            elif o == p and e not in give and self.trade_refusal(e, p, seller) is None:
                out.append(g.GIVE0 + e)
        if self.offer_take:
            out.extend(g.PRICE0 + v for v in range(min(self.cash[p], PRICE_MAX) + 1))
        return sorted(out)

    def _owner_after(self, e: int) -> int:
        """The owner of edge ``e`` once the offer being composed is carried out."""
        if e in self.offer_take:
            return self.turn_player()
        if e in self.offer_give:
            return self.offer[0]
        return self.edge_owner[e]

    def trade_refusal(self, e: int, frm: int, to: int) -> str | None:
        """Why segment ``e`` may not pass from seat ``frm`` to seat ``to`` in the offer being
        composed (None: it may). The track must still obey the rules that bind it."""
        g = self.game
        b = g.board
        if not 0 <= e < len(b.edge_ends) or self.edge_owner[e] != frm:
            return f"that segment is not P{frm + 1}'s track"
        if e in self.offer_take or e in self.offer_give:
            return "that segment is in the offer already"
        if g.edge_port[e]:
            return "track at a ferry port or the Chunnel goes with its line: it is not traded"
        for m in b.edge_ends[e]:
            c = b.city_of[m]
            if c < 0 or b.city_size[c] not in (SMALL, MEDIUM):
                continue
            limit = 2 if b.city_size[c] == SMALL else 3
            owners: set[int] = set()
            sections = 0
            for x in b.city_posts[c]:
                for d in range(6):
                    f = b.eid[x * 6 + d]
                    if f < 0:
                        continue
                    o = to if f == e else self._owner_after(f)
                    if o >= 0:
                        owners.add(o)
                    if x == m and o == to:
                        sections += 1
            if len(owners) > limit:
                kind = "small" if limit == 2 else "medium"
                return f"only {limit} players may have track into a {kind} city"
            if sections > 3:
                return "no player may have more than three sections to a medium or small city"
        return None

    def _trade_step(self, action: int) -> None:
        """Apply one step of an offer (Selling and Trading Track)."""
        g = self.game
        if action < g.WITHDRAW:
            k = action - g.OFFER0
            self.offer = [k, COMPOSING, 0]
            self.offered.append(k)
        elif action == g.PROPOSE:
            self.offer[1] = PROPOSED
        elif action == g.ACCEPT:
            self._carry_out_trade()
            self.traded = 1
            self._end_offer()
        elif action in (g.WITHDRAW, g.REFUSE):
            self._end_offer()
        elif action < g.TAKE0:
            self.offer[2] = action - g.PRICE0
            self.offer[1] = PRICED
        elif action < g.GIVE0:
            self.offer_take.append(action - g.TAKE0)
        else:
            self.offer_give.append(action - g.GIVE0)

    def _end_offer(self) -> None:
        self.offer = []
        self.offer_take = []
        self.offer_give = []

    def _carry_out_trade(self) -> None:
        """The accepted offer: segments change owner (colour), the price is paid."""
        b = self.game.board
        buyer, (seller, _, price) = self.turn_player(), self.offer
        for edges, frm, to in ((self.offer_take, seller, buyer), (self.offer_give, buyer, seller)):
            for e in edges:
                self.edge_owner[e] = to
                for m in b.edge_ends[e]:
                    self._touch(frm, m, -1)
                    self._touch(to, m, 1)
        self.cash[buyer] -= price
        self.cash[seller] += price
        # (the blocking rule's witnesses: the seller's is checked by _touch's _track_lost)
        self._present_cache.clear()

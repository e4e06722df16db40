"""Eurorails, How to Win: the connection of the major cities, the placings, the scores, and
the search heuristic that judges an unfinished game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from motherlode.core.protocol import Player
from motherlode.games.eurorails.base import StateBase
from motherlode.games.eurorails.constants import (
    MAJOR_WORTH,
    TRACK_WORTH,
    UPGRADE_WORTH,
)


class VictoryRules(StateBase):
    """Winning (a part of the state)."""

    def placings(self) -> list[list[int]]:
        """The places, best first (seats sharing a place together): a winner first, then
        "having the required connection takes precedence over having the most money"."""
        n = self.game.num_players

        def key(q: int) -> tuple[bool, bool, int]:
            return (q in self.winners_, self.connected(q), self.cash[q])

        out: list[list[int]] = []
        for q in sorted(range(n), key=lambda q: (key(q), -q), reverse=True):
            if out and key(out[-1][0]) == key(q):
                out[-1].append(q)
            else:
                out.append([q])
        return out

    def connected(self, p: int) -> bool:
        """A continuous line of ``p``'s track joins enough major cities (red areas join)."""
        return self.connects_at_least(p, self.game.cfg.majors_to_connect)

    def connects_at_least(self, p: int, need: int) -> bool:
        """Whether one continuous piece of ``p``'s track joins ``need`` major cities: the
        search (:meth:`majors_connected`) runs only where p's track reaches that many
        major cities at all (:meth:`majors_reached`, its bound; most of a game)."""
        if self._conn_cache[p] < 0 and self.majors_reached(p) < need:
            return False
        return self.majors_connected(p) >= need

    def majors_reached(self, p: int) -> int:
        """The major cities ``p``'s track or ferry lines reach (a milepost of the city is
        an end of p's track or a port of p's line): at least :meth:`majors_connected`,
        which counts only those one piece of track joins."""
        return self._majors_touched(p)[1]

    def _majors_touched(self, p: int) -> tuple[int, int]:
        """The major cities with a milepost that is an end of ``p``'s track; and those
        with one that is that or a port of a ferry line p owns."""
        b = self.game.board
        net = self.net[p]
        ports = {
            x for k, owners in enumerate(self.link_owners) if p in owners for x in b.links[k].ends
        }
        by_track = by_either = 0
        for c in b.majors:
            posts = b.city_posts[c]
            if not net.isdisjoint(posts):
                by_track += 1
                by_either += 1
            elif ports and not ports.isdisjoint(posts):
                by_either += 1
        return by_track, by_either

    def track_component(
        self, p: int, starts: Sequence[int], *, join_majors: bool = False
    ) -> set[int]:
        """The mileposts joined to ``starts`` by ``p``'s own track, red areas and ferry lines.

        With ``join_majors`` a major city's mileposts all count as one place (the red area
        joins them), as the victory condition counts connections.
        """
        g = self.game
        b = g.board
        adj, internal, owner = g.adj, b.edge_internal, self.edge_owner
        link_at, link_owners = b.link_at, self.link_owners
        major_of, majors, city_posts = g.major_of, b.majors, b.city_posts
        comp = set(starts)
        stack = list(starts)
        while stack:
            m = stack.pop()
            for x, e in adj[m]:
                if x not in comp and (owner[e] == p or internal[e]):
                    comp.add(x)
                    stack.append(x)
            k = link_at[m]
            if k >= 0 and p in link_owners[k]:
                for x in b.links[k].ends:
                    if x not in comp:
                        comp.add(x)
                        stack.append(x)
            if join_majors and major_of[m] >= 0:
                for x in city_posts[majors[major_of[m]]]:
                    if x not in comp:
                        comp.add(x)
                        stack.append(x)
        return comp

    def majors_connected(self, p: int) -> int:
        """The most major cities one continuous piece of ``p``'s track connects (kept
        until p's track changes: ``_conn_cache``)."""
        best = self._conn_cache[p]
        if best < 0:
            by_track, by_either = self._majors_touched(p)
            # reaching at most one: the search's answer is whether p's track reaches one
            # (it starts from each city the track reaches; most of a game is spent here)
            best = by_track if by_either <= 1 else self._majors_connected(p)
            self._conn_cache[p] = best
        return best

    def _majors_connected(self, p: int) -> int:
        """:meth:`majors_connected` worked out: a search from each major city p's track
        reaches that no earlier search took in."""
        b = self.game.board
        net = self.net[p]
        seen: set[int] = set()
        best = 0
        for start_city in b.majors:
            posts = b.city_posts[start_city]
            if posts[0] in seen or net.isdisjoint(posts):
                continue
            comp = self.track_component(p, posts, join_majors=True)
            seen |= comp
            count = sum(1 for c in b.majors if b.city_posts[c][0] in comp)
            best = max(best, count)
        return best

    def heuristic_values(self) -> list[float]:
        """A judgement of an unfinished game for search agents, one value per seat in (-1, 1).

        Cash alone would teach search never to build: each seat is valued by its net worth
        towards the goal - cash less debts, track at :data:`TRACK_WORTH` million a milepost
        of network, each upgrade at 15 million (20 paid), :data:`MAJOR_WORTH` million a major
        city joined into one network, and half the payment of each load aboard that a demand
        card in hand asks for; the lead over the best rival is squashed by ``tanh(lead / 40)``.

        >>> import motherlode
        >>> motherlode.deal(motherlode.load("eurorails", players=2), seed=1).heuristic_values()
        [0.0, 0.0]
        """
        g = self.game
        n = g.num_players
        worth = []
        for p in range(n):
            w = self.cash[p] - self.debt[p] + TRACK_WORTH * len(self.net[p])
            w += MAJOR_WORTH * self.majors_connected(p)
            trains = [self.train[p]] + ([self.train2[p]] if self.pos2 else [])
            w += sum(UPGRADE_WORTH * (1 if t in (1, 2) else 2 if t == 3 else 0) for t in trains)
            loads = self.loads[p] + (self.loads2[p] if self.pos2 else [])
            if loads:
                asked: dict[int, int] = {}
                for card in self.hands[p]:
                    for d in g.demands.get(card, ()):
                        asked[d.load] = max(asked.get(d.load, 0), d.payment)
                w += sum(0.5 * asked.get(x, 0) for x in loads)
            worth.append(w)
        out = []
        for p, v in enumerate(worth):
            rival = max((x for q, x in enumerate(worth) if q != p), default=0.0)
            out.append(math.tanh((v - rival) / 40.0))
        return out

    def termination(self) -> str:
        """Why the finished game ended (How to Win; Special Tournament Rule - Time Limits)."""
        if not self.over:
            return ""
        g = self.game
        cfg = g.cfg
        if any(self.declared):  # a declaration ended it (a tie on cash resets them)
            w = self.winners_[0]
            return (
                f"P{w + 1} declared victory with at least {self.target} million and"
                f" {cfg.majors_to_connect} major cities connected, and the round was played out"
            )
        n = g.num_players
        played = self.t - cfg.building_turns * n
        if cfg.time_limit and played >= cfg.time_limit and played // n < cfg.turn_limit:
            limit = f"the time limit of {cfg.time_limit} turns ran out and the round was played out"
        else:
            rounds = "round" if cfg.turn_limit == 1 else "rounds"
            limit = f"the turn limit of {cfg.turn_limit} {rounds} was reached"
        if any(self.connected(q) for q in range(n)):
            return (
                f"{limit}: of the players connecting {cfg.majors_to_connect} major cities, the"
                " most cash wins"
            )
        return (
            f"{limit}: no player connects {cfg.majors_to_connect} major cities, the most cash wins"
        )

    def scores(self) -> list[float]:
        return [float(c) for c in self.cash]

    def winners(self) -> tuple[Player, ...]:
        if self.over:
            return tuple(self.winners_)
        return super().winners()

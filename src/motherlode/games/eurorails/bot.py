"""The ``greedy`` Eurorails bot: the best delivery by payment per turn, the cheapest track.

Once per turn (and whenever its hand or network changes) it runs one Dijkstra over build
cost from its own network (own track and red areas free; from every major city while it
has no track), which prices connecting every city. Each demand in hand is scored by
``(payment - build cost) / estimated turns`` (the route length from the map's distance
chart over the train's speed, plus the building turns), using the cheapest supply city
with a chip left (or the load already on the train; with the train full, only the loads
aboard: it could not pick another up). It then

* builds along the cheapest path to the chosen supply city, then to the demand city,
  then toward the next plan and, with money to spare, toward unconnected major cities
  (7 are needed to win);
* upgrades to a Fast Freight (later a Super Freight) when its route is built and the
  cash allows;
* starts its train at the supply city, picks the load up, runs it along its own track
  (shortest routes over (milepost, facing) states: it reverses only in a city, and at a
  junction only takes another branch) and delivers everything it can on the way; a train
  that can reach no city without reversing builds, from where it stands and away from
  where it came from, toward the nearest city it can so reach;
* discards its hand when no demand is worth anything;
* can be steered (the ``plans`` agent): :meth:`GreedyAgent.plans` lists its best
  deliveries, :meth:`GreedyAgent.follow` makes it carry out the one chosen;
* (Additional Trains) runs its second train as a second greedy player would, on the same
  hand and track, once the first has nothing left to do in the turn, and leaves the demand
  the first is carrying out to the first;
* (Selling and Trading Track) never offers to buy; answers an offer by accepting when the
  price, plus the build cost of any segments it receives, is at least the build cost of
  the segments it gives up and the sale keeps its best network of major cities whole.

>>> from motherlode.games.eurorails.game import EurorailsGame
>>> import motherlode
>>> game = EurorailsGame.from_config(players=2)
>>> state = motherlode.deal(game, seed=1)
>>> GreedyAgent(game).act(state) in state.legal_actions()
True
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from dataclasses import dataclass
from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games.eurorails.board import CHUNNEL, MEDIUM, SMALL
from motherlode.games.eurorails.game import BUILD, PROPOSED, EurorailsGame, EurorailsState

HOP = 0.3  # build-cost equivalent of one milepost of route length


@dataclass
class Plan:
    card: int
    load: int
    source: int  # city index (-1: the load is on the train)
    dest: int  # city index
    payment: int
    value: float


class GreedyAgent(Agent):
    """Greedy deliveries and cheapest track (see the module docstring)."""

    name = "greedy"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        track_weight: float = 1.0,
        upgrade_cash: int = 45,
        major_cash: int = 70,
        second: bool = False,
    ) -> None:
        super().__init__(seed)
        self.major_cash = major_cash
        self.track_weight = track_weight
        self.upgrade_cash = upgrade_cash
        assert isinstance(game, EurorailsGame)
        self.game = game
        self.board = game.board
        self.table = self.board.distance_table
        self._cache_key: tuple[object, ...] | None = None
        self._dist: list[float] = []
        self._pred: list[int] = []
        self._plans: list[Plan] = []  # the best plan of each card, best first
        self._ranked: list[Plan] = []  # every plan, best first
        # steering: the plan followed, and the hand it was chosen from
        self._followed: tuple[tuple[int, int, int, int] | None, tuple[int, ...]] = (None, ())
        self._commit: tuple[int, int, int, int] | None = None
        self._money: list[int] = []
        self._dijkstra_key: tuple[object, ...] | None = None
        self._exclude = -1  # a card left to the other train (Additional Trains)
        # the route being followed: (turn, seat, goal, network size, game), its states
        self._route: tuple[tuple[object, ...], list[tuple[int, int]]] = ((), [])
        # Additional Trains: the second train's own planner
        self._train2: GreedyAgent | None = None
        if game.cfg.challenge_additional_trains and not second:
            self._train2 = GreedyAgent(
                game, seed, track_weight, upgrade_cash, major_cash, second=True
            )

    # -- analysis --------------------------------------------------------------------------

    def _analyse(self, s: EurorailsState, p: int) -> None:
        key = (s.t, p, tuple(s.hands[p]), tuple(s.loads[p]), s.pos[p], tuple(s.chips), s.cash[p])
        if key == self._cache_key:
            return
        self._cache_key = key
        if (s.t, p, tuple(s._history[:12])) == self._dijkstra_key:
            self._plans = self._score(s, p)
            return
        self._dijkstra_key = (s.t, p, tuple(s._history[:12]))
        if s.net[p]:
            sources = self._component(s, p) if s.pos[p] >= 0 else []
            if not any(m in s.net[p] for m in sources):
                sources = sorted(s.net[p])  # the train is off its network: build to it
            self._dist, self._pred = self._dijkstra(s, p, sources)
            self._plans = self._score(s, p)
            return
        # no track yet: start from the major city that serves the best plan
        best: tuple[float, list[float], list[int], list[Plan]] | None = None
        for c in self.board.majors:
            self._dist, self._pred = self._dijkstra(s, p, list(self.board.city_posts[c]))
            plans = self._score(s, p)
            top = plans[0].value if plans else -1e9
            if best is None or top > best[0]:
                best = (top, self._dist, self._pred, plans)
        assert best is not None
        _, self._dist, self._pred, self._plans = best

    def _dijkstra(
        self, s: EurorailsState, p: int, sources: list[int], banned: int = -1
    ) -> tuple[list[float], list[int]]:
        b = self.board
        n = b.n
        inf = float("inf")
        dist = [inf] * n
        pred = [-1] * n
        money = [0] * n
        self._money = money
        heap: list[tuple[float, int]] = []
        for m in sources:
            dist[m] = 0.0
            heap.append((0.0, m))
        heapq.heapify(heap)
        nb, eid, owner = b.nb, b.eid, s.edge_owner
        internal, cross = b.edge_internal, b.edge_cross_cost
        mcost, link_at = b.milepost_cost, b.link_at
        city_of = b.city_of
        full = set()
        for c, size in enumerate(b.city_size):
            if size in (SMALL, MEDIUM):
                present = s.present_at(c)
                if p not in present and len(present) >= (2 if size == SMALL else 3):
                    full.add(c)
        while heap:
            d0, m = heapq.heappop(heap)
            if d0 > dist[m]:
                continue
            for d in range(6):
                e = eid[m * 6 + d]
                if e < 0 or e == banned:
                    continue
                x = nb[m * 6 + d]
                o = owner[e]
                if internal[e] or o == p:
                    w = HOP
                elif o >= 0:
                    continue
                else:
                    k = link_at[x]
                    if k >= 0:
                        link = b.links[k]
                        if link.kind == CHUNNEL and s.freight_only(p):
                            continue
                        if p not in s.link_owners[k] and len(s.link_owners[k]) >= link.capacity:
                            continue
                        w = cross[e] + (0 if p in s.link_owners[k] else link.cost) + HOP
                    else:
                        if city_of[x] >= 0 and city_of[x] in full:
                            continue
                        w = cross[e] + mcost[x] + HOP
                nd = d0 + w
                if nd < dist[x]:
                    dist[x] = nd
                    pred[x] = m
                    money[x] = money[m] + round(w - HOP)
                    heapq.heappush(heap, (nd, x))
            k = link_at[m]
            if k >= 0 and (p in s.link_owners[k] or len(s.link_owners[k]) < b.links[k].capacity):
                link = b.links[k]
                x = link.ends[0] if link.ends[1] == m else link.ends[1]
                nd = d0 + HOP * link.length
                if nd < dist[x]:
                    dist[x] = nd
                    pred[x] = m
                    money[x] = money[m]
                    heapq.heappush(heap, (nd, x))
        return dist, pred

    def _component(self, s: EurorailsState, p: int) -> list[int]:
        """The mileposts the train can reach on its own track (red areas included)."""
        start = s.on_ferry[p] if s.on_ferry[p] >= 0 else s.pos[p]
        return sorted(s.track_component(p, [start]))

    def _train_distances(self, s: EurorailsState, p: int) -> dict[int, int]:
        """Mileposts from the train over its own track and the red areas."""
        b = self.board
        start = s.on_ferry[p] if s.on_ferry[p] >= 0 else s.pos[p]
        if start < 0:
            return {}
        dist = {start: 0}
        queue = deque([start])
        while queue:
            m = queue.popleft()
            for d in range(6):
                e = b.eid[m * 6 + d]
                if e >= 0 and (s.edge_owner[e] == p or b.edge_internal[e]):
                    x = b.nb[m * 6 + d]
                    if x not in dist:
                        dist[x] = dist[m] + 1
                        queue.append(x)
            k = b.link_at[m]
            if k >= 0 and p in s.link_owners[k]:
                for x in b.links[k].ends:
                    if x not in dist:
                        dist[x] = dist[m] + b.links[k].length + 4
                        queue.append(x)
        return dist

    def _reach(self, tdist: dict[int, int], here: int, c: int) -> int:
        """Mileposts from the train to city ``c``: over track, else the map's chart."""
        found = [tdist[m] for m in self.board.city_posts[c] if m in tdist]
        if found:
            return min(found)
        if here >= 0:
            return int(self.table[here][c])
        return 0 if not tdist else 12

    def _city_cost(self, c: int) -> tuple[float, int]:
        posts = self.board.city_posts[c]
        best = min(posts, key=lambda m: self._dist[m])
        return self._dist[best], best

    def _city_money(self, c: int) -> int:
        return self._money[self._city_cost(c)[1]]

    def _score(self, s: EurorailsState, p: int) -> list[Plan]:
        b = self.board
        speed = s.game.speed[s.train[p]]
        here = b.city_of[s.pos[p]] if s.pos[p] >= 0 else -1
        tdist = self._train_distances(s, p)
        full = len(s.loads[p]) >= b.train_capacity[s.train[p]]
        plans = []
        for card in s.hands[p]:
            if card == self._exclude and len(s.hands[p]) > 1:
                continue  # the other train's demand
            for dem in self.game.demands[card]:
                dest_cost, _ = self._city_cost(dem.city)
                if dest_cost == float("inf"):
                    continue
                dest_money = self._city_money(dem.city)
                options: list[tuple[int, int, int]] = []
                if dem.load in s.loads[p]:
                    trip = self._reach(tdist, here, dem.city)
                    options.append((dest_money, trip, -1))
                elif full:
                    continue  # no room to pick the load up before a load aboard is delivered
                elif dem.load < len(s.chips) and s.chips[dem.load] > 0:  # (not the Circus)
                    for c in b.load_sources[dem.load]:
                        if self._city_cost(c)[0] == float("inf"):
                            continue
                        approach = self._reach(tdist, here, c)
                        trip = approach + self.table[c][dem.city]
                        options.append((self._city_money(c) + dest_money, trip, c))
                for build_money, trip, src in options:
                    turns = trip / speed + build_money / 20.0 + 1.0
                    value = (dem.payment - self.track_weight * build_money) / turns
                    if self._commit == (p, card, dem.load, dem.city):
                        value += 2.0
                    if build_money > s.cash[p]:
                        value -= 100.0
                    plans.append(Plan(card, dem.load, src, dem.city, dem.payment, value))
        plans.sort(key=lambda x: -x.value)
        kept = [x for x in plans if self._commit == (p, x.card, x.load, x.dest) and x.value > -50]
        if kept:  # stick to the plan being carried out while it stays feasible
            plans.remove(kept[0])
            plans.insert(0, kept[0])
        if plans:
            self._commit = (p, plans[0].card, plans[0].load, plans[0].dest)
        self._ranked = plans
        # keep the best plan per card (one demand per card can be filled)
        out: list[Plan] = []
        cards: set[int] = set()
        for pl in plans:
            if pl.card not in cards:
                cards.add(pl.card)
                out.append(pl)
        return out

    # -- steering (the plans agent) --------------------------------------------------------

    def decision_point(self, state: State) -> tuple[int, tuple[int, ...]]:
        """Changes when a new plan may be chosen: each turn, and each new demand card."""
        assert isinstance(state, EurorailsState)
        return state.t, tuple(state.hands[state.turn_player()])

    def plans(self, state: State, limit: int = 4) -> list[tuple[int, int, int, int]]:
        """The ``limit`` best deliveries for the seat whose turn it is, as ``(seat, card,
        load, city)``, the one this bot would carry out first.

        Empty when there is nothing to choose: outside the seat's own turn, and while a plan
        this bot was told to :meth:`follow` is still feasible and the hand is the one it was
        chosen from (a plan is chosen again when a demand is met or a card drawn; switching
        plans every turn would build toward two places and reach neither).
        """
        assert isinstance(state, EurorailsState)
        s = state
        p = s.current_player()
        if p < 0 or s.pending or s.offer or s.tosser() >= 0 or p != s.turn_player():
            return []
        self._analyse(s, p)
        following = self._ranked and self._commit == self._followed[0]
        if following and self._followed[1] == tuple(s.hands[p]) and self._ranked[0].value > -50:
            return []
        out: list[tuple[int, int, int, int]] = []
        for plan in self._ranked:
            key = (p, plan.card, plan.load, plan.dest)
            if plan.value > -50 and key not in out:
                out.append(key)
                if len(out) >= limit:
                    break
        return out

    def follow(self, state: State, plan: object) -> None:
        """Carry out ``plan`` (one of :meth:`plans` in ``state``) while it stays feasible."""
        assert isinstance(state, EurorailsState) and isinstance(plan, tuple) and len(plan) == 4
        seat, card, load, city = plan
        self._commit = (int(seat), int(card), int(load), int(city))
        self._followed = (self._commit, tuple(state.hands[self._commit[0]]))
        self._cache_key = None

    # -- acting ----------------------------------------------------------------------------

    def act(self, state: State) -> Action:
        assert isinstance(state, EurorailsState)
        s = state
        if (
            s.phase == BUILD
            and not (s.pending or s.offer or s.traded)
            and s.tosser() < 0
            and s.current_player() >= 0
        ):
            # the building phase, asked action by action (never the whole list: building
            # actions are every free edge out of the network, the dearest list to make)
            p = s.turn_player()
            self._analyse(s, p)
            return self._build(s, p)
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if s.pending:
            return self._lose(s, s.pending[0], legal)
        if s.offer:  # Selling and Trading Track: it answers offers and never makes one
            return self.answer(s) if s.offer[1] == PROPOSED else self.game.WITHDRAW
        q = s.tosser()
        if q >= 0:  # Fast Game: discard the card with the smallest best payment
            hand = s.hands[q]
            return min(
                legal,
                key=lambda a: max(d.payment for d in self.game.demands[hand[a - self.game.TOSS0]]),
            )
        p = s.turn_player()
        self._analyse(s, p)
        if s.phase == BUILD:
            return self._build(s, p)
        action = self._operate(s, p, legal, set(legal))
        if action != self.game.END_MOVE or self._train2 is None:
            return action
        return self._operate_second(s, p, legal)

    def _operate_second(self, s: EurorailsState, p: int, legal: list[int]) -> int:
        """The second train's move (Additional Trains): planned on a copy of the position
        whose first train is the second."""
        g = self.game
        sub = self._train2
        assert sub is not None
        view = s.clone()
        view._swap(p)
        own = [g.base_of[a] for a in legal if a in g.base_of]
        own.append(g.END_MOVE)
        sub._exclude = self._plans[0].card if self._plans else -1
        sub._analyse(view, p)
        action = sub._operate(view, p, own, set(own))
        return g.train2_of.get(action, g.END_MOVE)

    def segment_cost(self, e: int) -> int:
        """What building segment ``e`` costs (toward its dearer end: a replacement cost)."""
        b = self.board
        x, y = b.edge_ends[e]
        return b.edge_cross_cost[e] + max(b.milepost_cost[x], b.milepost_cost[y])

    def answer(self, s: EurorailsState) -> int:
        """Accept an offer that pays the build cost of what it takes (less what it gives)
        and keeps the seller's major cities connected; refuse any other."""
        g = self.game
        seller, _, price = s.offer
        lost = sum(self.segment_cost(e) for e in s.offer_take)
        got = sum(self.segment_cost(e) for e in s.offer_give)
        if price + got < lost:
            return g.REFUSE
        after = s.clone()
        after.apply_action(g.ACCEPT)
        if after.majors_connected(seller) < s.majors_connected(seller):
            return g.REFUSE
        return g.ACCEPT

    def _lose(self, s: EurorailsState, q: int, legal: list[int]) -> int:
        q %= self.game.num_players  # (n + q: q's second train)
        wanted = {d.load: d.payment for c in s.hands[q] for d in self.game.demands[c]}
        return min(legal, key=lambda a: wanted.get(a - self.game.LOSE0, 0))

    def _targets(self, s: EurorailsState, p: int) -> list[int]:
        """Cities to join to the network, most urgent first."""
        b = self.board
        out: list[int] = []
        here = s.on_ferry[p] if s.on_ferry[p] >= 0 else s.pos[p]
        if here >= 0 and here not in s.net[p] and b.city_of[here] >= 0:
            out.append(b.city_of[here])  # a stranded train: join its city first
        for k, pl in enumerate(self._plans[:2]):
            if pl.value <= 0 and (k > 0 or pl.value < -50):
                continue
            for c in (pl.source, pl.dest):
                if c >= 0 and self._city_cost(c)[0] < 1e9 and self._city_money(c) > 0:
                    out.append(c)
        if s.cash[p] > self.major_cash or s.cash[p] >= s.target - 60:
            majors = [
                c for c in b.majors if self._city_cost(c)[0] < 1e9 and self._city_money(c) > 0
            ]
            majors.sort(key=lambda c: self._city_cost(c)[0])
            if s.cash[p] >= s.target - 60:
                out = majors[:1] + out
            else:
                out += majors[:1]
        return out

    @staticmethod
    def _can_build(s: EurorailsState, p: int, action: int) -> bool:
        """Whether building action ``action`` (``milepost * 6 + direction``) is legal now:
        the test ``legal_actions()`` applies to each free edge, for one edge."""
        return not s.traded and s.build_refusal(p, action // 6, action % 6) is None

    def _build(self, s: EurorailsState, p: int) -> int:
        g = self.game
        b = self.board
        up = self._upgrade(s, p, first=True)
        if up is not None:
            return up
        here = s.pos[p]
        if here >= 0 and not s.may_reverse(here) and self.stuck(s, p):
            step = self._unstick(s, p, here)
            if step is not None:
                return step
        for c in self._targets(s, p)[:3]:
            cost, post = self._city_cost(c)
            if cost == float("inf"):
                continue
            path = [post]
            while self._pred[path[-1]] >= 0:
                path.append(self._pred[path[-1]])
            path.reverse()
            for x, y in itertools.pairwise(path):
                d = next((d for d in range(6) if b.nb[x * 6 + d] == y), -1)
                if d < 0:
                    continue  # a ferry or the Chunnel crossing
                e = b.eid[x * 6 + d]
                if b.edge_internal[e] or s.edge_owner[e] == p:
                    continue
                if self._can_build(s, p, x * 6 + d):
                    return x * 6 + d
                break
        up = self._upgrade(s, p, first=False)
        return g.END_BUILD if up is None else up

    def _unstick(self, s: EurorailsState, p: int, here: int) -> int | None:
        """A stuck train (:meth:`stuck`) cannot turn where it stands (not a city): the next
        segment toward the city cheapest to build to from there, leaving ``here`` in any
        direction but back where the train came from (None: nothing to build now)."""
        b = self.board
        back = next((d for d in range(6) if b.nb[here * 6 + d] == s.prev[p]), -1)
        banned = b.eid[here * 6 + back] if back >= 0 and s.prev[p] >= 0 else -1
        saved = self._money
        dist, pred = self._dijkstra(s, p, [here], banned)
        self._money = saved
        posts = [m for m in range(b.n) if b.city_of[m] >= 0 and dist[m] < float("inf")]
        if not posts:
            return None
        path = [min(posts, key=lambda m: (dist[m], m))]
        while pred[path[-1]] >= 0:
            path.append(pred[path[-1]])
        path.reverse()
        for x, y in itertools.pairwise(path):
            d = next((d for d in range(6) if b.nb[x * 6 + d] == y), -1)
            if d < 0:
                return None  # a ferry or the Chunnel on the way: build nothing here
            e = b.eid[x * 6 + d]
            if b.edge_internal[e] or s.edge_owner[e] == p:
                continue
            return x * 6 + d if self._can_build(s, p, x * 6 + d) else None
        return None

    def _upgrade(self, s: EurorailsState, p: int, first: bool) -> int | None:
        """An upgrade when it pays: the current route is built (``first``: before building,
        only then) and the cash leaves a reserve."""
        g = self.game
        b = self.board
        if s.spent or s.traded:
            return None
        real = dict(b.upgrades[s.train[p]])  # no crossgrades
        ups = [a for a in s._upgrade_actions(p) if a - g.U0 in real]
        if not ups or s.cash[p] < self.upgrade_cash or len(s.net[p]) <= 25:
            return None
        if first:
            plan = self._plans[0] if self._plans else None
            if plan is None or any(
                c >= 0 and self._city_money(c) > 0 for c in (plan.source, plan.dest)
            ):
                return None
        names = [b.train_names[a - g.U0] for a in ups]
        for want in ("Fast Freight", "Super Freight", "Heavy Freight"):
            if want in names:
                return ups[names.index(want)]
        return None

    def _operate(self, s: EurorailsState, p: int, legal: list[int], ls: set[int]) -> int:
        g = self.game
        b = self.board
        # deliveries first: the best payment
        top = g.DELIVER4_0 + (3 if g.cfg.four_demand_cards else 0)
        dels = [a for a in legal if g.DELIVER0 <= a < g.END_MOVE or g.DELIVER4_0 <= a < top]
        if dels:

            def pay(a: int) -> int:
                slot, j = divmod(a - g.DELIVER0, 3) if a < g.END_MOVE else (3, a - g.DELIVER4_0)
                return self.game.demands[s.hands[p][slot]][j].payment

            return max(dels, key=pay)
        plan = self._plans[0] if self._plans else None
        if g.DISCARD in ls and (plan is None or plan.value < 0.3) and not self._useful_loads(s, p):
            return g.DISCARD
        if s.pos[p] < 0:
            city = b.majors[0]
            if plan is not None:
                city = plan.source if plan.source >= 0 else plan.dest
            if not s._at_city(p, city):
                on_net = [c for c in range(len(b.city_names)) if s._at_city(p, c)]
                if on_net:
                    city = min(on_net, key=lambda c: self.table[c][city])
            return g.START0 + city
        cap = b.train_capacity[s.train[p]]
        here = b.city_of[s.pos[p]]
        wanted = {d.load for c in s.hands[p] for d in self.game.demands[c]}
        if here >= 0:
            if plan and plan.source == here and g.PICK0 + plan.load in ls:
                return g.PICK0 + plan.load
            picks = [a for a in legal if g.PICK0 <= a < g.DROP0 and a - g.PICK0 in wanted]
            room = cap - len(s.loads[p]) - (1 if plan and plan.source >= 0 else 0)
            if picks and room > 0:
                return picks[0]
            drops = [a for a in legal if g.DROP0 <= a < g.DELIVER0 and a - g.DROP0 not in wanted]
            if drops:
                return drops[0]
        goal = self._goal(s, p, plan)
        if goal is not None:
            move = self._step_toward(s, p, goal, legal)
            if move is not None:
                return move
        return g.END_MOVE

    def _useful_loads(self, s: EurorailsState, p: int) -> bool:
        """A load on board has a demand whose city needs no more track."""
        return any(
            d.load in s.loads[p]
            and self._city_money(d.city) == 0
            and self._dist[self._city_cost(d.city)[1]] < float("inf")
            for c in s.hands[p]
            for d in self.game.demands[c]
        )

    def _goal(self, s: EurorailsState, p: int, plan: Plan | None) -> list[int] | None:
        b = self.board
        if plan is None:
            return None
        if plan.source >= 0 and plan.load not in s.loads[p]:
            return list(b.city_posts[plan.source])
        return list(b.city_posts[plan.dest])

    def _routes(self, s: EurorailsState, p: int) -> dict[tuple[int, int], tuple[int, int, int]]:
        """Shortest moves from the train over its own track and the red areas, respecting
        its facing (it reverses only in a city; at a junction it may take another branch,
        never go back): ``{(milepost, came from):
        (cost, parent milepost, parent came-from)}``; ferries cost a turn."""
        b = self.board
        here = s.pos[p]
        start = (here, s.prev[p])
        best: dict[tuple[int, int], tuple[int, int, int]] = {start: (0, -2, -2)}
        heap = [(0, here, s.prev[p])]
        while heap:
            c, m, pr = heapq.heappop(heap)
            if best[(m, pr)][0] < c:
                continue
            steps: list[tuple[int, int, int]] = []  # (next, came from, cost)
            for d in range(6):
                e = b.eid[m * 6 + d]
                if e < 0 or not (b.edge_internal[e] or s.edge_owner[e] == p):
                    continue
                x = b.nb[m * 6 + d]
                if x == pr and not s.may_reverse(m):
                    continue
                steps.append((x, m, 1))
            k = b.link_at[m]
            if k >= 0 and p in s.link_owners[k]:
                link = b.links[k]
                x = link.ends[0] if link.ends[1] == m else link.ends[1]
                if link.kind == CHUNNEL:
                    steps.append((x, m, link.length))
                else:
                    steps.append((x, -1, link.length + 6))
            for x, came, w in steps:
                key = (x, came)
                if key not in best or best[key][0] > c + w:
                    best[key] = (c + w, m, pr)
                    heapq.heappush(heap, (c + w, x, came))
        return best

    def _step_toward(
        self, s: EurorailsState, p: int, goal: list[int], legal: list[int]
    ) -> int | None:
        """The first action of the shortest route (facing respected) to a goal milepost."""
        g = self.game
        b = self.board
        here = s.pos[p]
        if here in goal:
            return None
        start = (here, s.prev[p])
        # Track is not built while trains move, so a shortest route found earlier in the
        # turn stays shortest from any point along it: follow it instead of searching again.
        route_key = (s.t, p, goal[0], len(s.net[p]), s._history[:12])
        path = self._route[1] if self._route[0] == route_key else []
        step = path.index(start) + 1 if start in path else len(path)
        if step < len(path):
            x = path[step][0]
        else:
            routes = self._routes(s, p)
            goals = set(goal)
            ends = [(v[0], k) for k, v in routes.items() if k[0] in goals and k[0] != here]
            if not ends:
                return None
            _, key = min(ends)
            path = [key]
            while path[-1] != start:
                _, pm, ppr = routes[path[-1]]
                path.append((pm, ppr))
            path.reverse()
            self._route = (route_key, path)
            x = path[1][0]
        link_k = b.link_at[here]
        if (
            link_k >= 0
            and x in b.links[link_k].ends
            and x != here
            and x not in [b.nb[here * 6 + d] for d in range(6)]
        ):
            action = g.CHUNNEL_MOVE if b.links[link_k].kind == CHUNNEL else g.FERRY0 + p
        else:
            d = next((d for d in range(6) if b.nb[here * 6 + d] == x), -1)
            action = g.MOVE0 + d if d >= 0 else -1
        return action if action in legal else None

    def stuck(self, s: EurorailsState, p: int) -> bool:
        """The train cannot reach any city over its own track (facing respected)."""
        if s.pos[p] < 0:
            return False
        b = self.board
        return not any(b.city_of[m] >= 0 and m != s.pos[p] for m, _ in self._routes(s, p))


def make_greedy(game: Game, seed: int = 0, **params: Any) -> GreedyAgent:
    """The ``greedy`` bot of ``game`` (the factory :meth:`Game.bots` hands out)."""
    return GreedyAgent(game, seed=seed, **params)

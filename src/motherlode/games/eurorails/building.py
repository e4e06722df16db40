"""Eurorails, Building Railroads: track (Building Railroads, terrain costs, ferry ports and the
Chunnel), the limits on building from major cities and into medium and small cities (Right
to Enter Major Cities, Limits on Entry), the 20 million spending limit of a turn, and the
building phase's train upgrades (and the Crossgrading variant).

The blocking rule is its own part, :mod:`.blocking`.
"""

from __future__ import annotations

from collections.abc import Iterable

from motherlode.games.eurorails.base import GameBase, Listing, MajorTable
from motherlode.games.eurorails.blocking import BlockingRules
from motherlode.games.eurorails.board import (
    CENTRE,
    CHUNNEL,
    FERRY,
    MEDIUM,
    OUTPOST,
    SMALL,
)
from motherlode.games.eurorails.constants import (
    CHANNEL,
    CROSSGRADE,
    SPEND_LIMIT,
)
from motherlode.games.eurorails.events import EventRules

_WEATHER_FLOOD = frozenset(("snow", "fog", "gale", "flood"))


class BuildingRules(BlockingRules, EventRules):
    """Building track and upgrading trains (a part of the state)."""

    def __init__(self, game: GameBase) -> None:
        super().__init__(game)
        # the major cities' tables before any track are the same in every game of the
        # configuration: made once, shared by its states (copied on the first write)
        start = game.start_majors
        if start is None:
            for c in range(len(game.major_heads)):
                self._major_table(c)
            start = game.start_majors = self._majors_cache
        self._majors_cache = start
        self._owns_majors_cache = False

    def site_refusal(self, p: int, a: int, to: int, e: int) -> str | None:
        """Why ``p`` may not build the free segment ``e`` from ``a`` to ``to`` for what lies
        there now: events (Wildcat strike, bad weather, floods, a washed-away bridge) and the
        city limits; not its source, cost or the blocking rule (None: nothing there forbids
        it). build_refusal asks it, and so does the route planner for each step."""
        b = self.game.board
        if self.wildcat_drawer() == p:
            return "the Wildcat strike forbids the drawing player to build"
        if self.no_build_at(a) or self.no_build_at(to):
            return "no building in an area of bad weather (snow, fog or gale)"
        river = b.edge_river[e]
        if river and river in self.flooded_rivers():
            return f"the {river} is flooded: no track across it until the flood ends"
        for edge, owner, until in self.reserve:
            if edge == e and owner != p and self.turns_done[owner] < until:
                return "the owner of the washed-away bridge has the first right to rebuild it"
        for m in (a, to):
            why = self._limit_refusal(p, m, a, to)
            if why:
                return why
        return None

    def build_refusal(self, p: int, a: int, d: int) -> str | None:
        """Why player ``p`` may not build from ``a`` in direction ``d`` now (None: legal)."""
        g = self.game
        b = g.board
        e = b.eid[a * 6 + d]
        if e < 0:
            return "there is no milepost there to build to"
        if b.edge_internal[e]:
            return "no track may be built in the red area of a major city"
        if self.edge_owner[e] >= 0:
            return "only one track may be built between two mileposts"
        if not (self.touch[p][a] or b.terrain[a] in (CENTRE, OUTPOST)):
            return "track is built from a major-city milepost or from the player's own track"
        to = b.nb[a * 6 + d]
        if b.terrain[a] == OUTPOST and self.from_major >= 2:
            return "at most two segments a turn may be built out of major-city mileposts"
        why = self.site_refusal(p, a, to, e)
        if why:
            return why
        cost = self.build_cost(p, a, d)
        if self.spent + cost > SPEND_LIMIT:
            return f"it costs {cost} and only {SPEND_LIMIT - self.spent} of the 20 remain this turn"
        if cost > self.cash[p]:
            return f"it costs {cost} and the player has only {self.cash[p]} (no credit)"
        owners = self.edge_owner
        for e1, f1 in g.tri[e]:  # the common case of blocked_by_build, inline
            if owners[e1] < 0 and owners[f1] < 0:
                return None
        q = self.blocked_by_build(p, a, d)
        if q >= 0:
            return f"it would block P{q + 1} from connecting all the major cities"
        return None

    def _limit_refusal(self, p: int, m: int, a: int, to: int) -> str | None:
        b = self.game.board
        g = self.game
        k = b.link_at[m]
        if k >= 0:
            link = b.links[k]
            owners = self.link_owners[k]
            if p not in owners:
                if len(owners) >= link.capacity:
                    what = "the Chunnel" if link.kind == CHUNNEL else "a ferry port"
                    return f"only {link.capacity} player(s) may build to {what}"
                if link.kind == CHUNNEL and g.cfg.chunnel_needs_upgrade and self.freight_only(p):
                    return "the Chunnel needs a Fast or Heavy Freight or better"
                if link.sea == CHANNEL and not self._channel_slot_free(p):
                    return "every player has the right to build to one English Channel ferry line"
            elif link.kind == FERRY and len(owners) < min(link.capacity, g.num_players):
                free = self._free_edges_at(m) - 1
                if free < min(link.capacity, g.num_players) - len(owners):
                    return "it would block a second player from track to each end of the ferry"
        c = b.city_of[m]
        if c < 0:
            return None
        size = b.city_size[c]
        present = self.present_at(c)
        if size in (SMALL, MEDIUM):
            limit = 2 if size == SMALL else 3
            if p not in present and len(present) >= limit:
                kind = "small" if size == SMALL else "medium"
                return f"only {limit} players may build into a {kind} city"
            if self.touch[p][m] >= 3:
                return "no player may build more than three sections to a medium or small city"
            if p in present:
                free = self._free_edges(c) - 1
                if free < min(limit, g.num_players) - len(present):
                    return "it would prevent another player from building into the city"
        elif size == CENTRE and p in present:
            free = self._free_edges(c) - 1
            if free < g.num_players - len(present):
                return "it would block another player's right to enter the major city"
        return None

    def _at_city(self, q: int, c: int) -> bool:
        return q in self.present_at(c)

    def present_at(self, c: int) -> list[int]:
        """The seats with track at city ``c`` (cached until the next build or flood)."""
        found = self._present_cache.get(c)
        if found is None:
            posts = self.game.board.city_posts[c]
            found = [q for q, tq in enumerate(self.touch) if any(tq[m] for m in posts)]
            self._present_cache[c] = found
        return found

    def _channel_slot_free(self, p: int) -> bool:
        """May ``p`` buy another English Channel ferry and still leave one to everyone?"""
        b = self.game.board
        lines = [k for k, link in enumerate(b.links) if link.sea == CHANNEL]
        if not any(p in self.link_owners[k] for k in lines):
            return True
        free = sum(b.links[k].capacity - len(self.link_owners[k]) for k in lines) - 1
        without = sum(
            1
            for q in range(self.game.num_players)
            if q != p and not any(q in self.link_owners[k] for k in lines)
        )
        return free >= without

    def _free_edges_at(self, m: int) -> int:
        b = self.game.board
        free = 0
        for d in range(6):
            e = b.eid[m * 6 + d]
            if e >= 0 and not b.edge_internal[e] and self.edge_owner[e] < 0:
                free += 1
        return free

    def _free_edges(self, c: int) -> int:
        """The unbuilt segments out of city ``c`` (cached with :meth:`present_at`)."""
        free = self._free_cache.get(c)
        if free is None:
            owner = self.edge_owner
            free = sum(
                1
                for m in self.game.board.city_posts[c]
                for _, e, _ in self.game.build_out[m]
                if owner[e] < 0
            )
            self._free_cache[c] = free
        return free

    def build_cost(self, p: int, a: int, d: int) -> int:
        """The cost of the segment from ``a`` in direction ``d`` for player ``p``."""
        b = self.game.board
        e = b.eid[a * 6 + d]
        to = b.nb[a * 6 + d]
        cross = b.edge_cross_cost[e]
        k = b.link_at[to]
        if k >= 0:
            return cross + (0 if p in self.link_owners[k] else b.links[k].cost)
        return cross + b.milepost_cost[to]

    def _build_actions(self, p: int) -> list[int]:
        """The segments ``p`` may build now: :meth:`build_refusal` is None for exactly these
        (``_build_actions_reference``). Listed from two tables that hold the candidates
        which only the money left, the limit on segments from major cities and the blocking
        rule may still refuse, with their costs: the turn's for p's own track
        (:class:`Listing`, made at the turn's first listing and brought up to date after
        each of the turn's builds) and, per major city, the candidates from its mileposts
        (``_majors_cache``, the same for every seat, kept until a build there or nearby)."""
        if self.wildcat_drawer() == p:
            return []
        left = min(SPEND_LIMIT - self.spent, self.cash[p])
        # "up to 20 million": with nothing left, a build that costs nothing (the far port of
        # one's own ferry line) is still allowed (docs/rules/eurorails.md, decision 44)
        if left < 0:
            return []
        events = tuple(a[0] for a in self.active)
        table = self._listing(p, events)
        soft = table.soft
        # (every cost within the money left, as at a turn's start: all of them)
        out = list(soft) if soft and max(soft.values()) <= left else [
            i for i, c in soft.items() if c <= left
        ]
        hard = [(i, c) for i, c in table.hard.items() if c <= left]
        if self.from_major < 2:
            self._list_majors(p, events, left, out, hard)
        if hard:
            # the blocking rule: nobody's witness holds the segment (and it fills no line),
            # else the whole check
            g = self.game
            eid = g.board.eid
            link_to = g.build_link
            witness = self._witness
            held = [w for q in range(g.seats) if q != p and (w := witness(q))]
            blocked = self.blocked_by_build
            for i, _ in hard:
                e = eid[i]
                if link_to[i] < 0:
                    for w in held:
                        if e in w:  # type: ignore[operator]
                            break
                    else:
                        out.append(i)
                        continue
                if blocked(p, i // 6, i % 6) < 0:
                    out.append(i)
        return out

    def _list_majors(
        self,
        p: int,
        events: tuple[int, ...],
        left: int,
        out: list[int],
        hard: list[tuple[int, int]],
    ) -> None:
        """Add the candidates from major-city mileposts to ``out`` (the triangle test passed)
        and ``hard`` (it did not) for ``p`` with ``left`` to spend: from each city whose
        limits do not refuse p, its table's (``_major_table``), those to a port, a city or
        a ferry line judged for p."""
        g = self.game
        if events:  # the tables depend on the weather and the floods only
            kind = g.event_kind
            events = tuple(c for c in events if kind[c] in _WEATHER_FLOOD)
        if self._majors_key_cache != events:
            self._majors_cache = {}
            self._owns_majors_cache = True
            self._majors_key_cache = events
        tables = self._majors_cache
        reserved = (
            {r[0] for r in self.reserve if r[1] != p and self.turns_done[r[1]] < r[2]}
            if self.reserve
            else set()
        )
        heads = g.major_heads
        # each city's limit answer for p, kept with the turn's table's (which is up to date
        # here: what clones that share it hold is the same)
        lims = self._listing_cache.lims if self._listing_cache is not None else {}
        for c in range(len(heads)):
            head = heads[c]
            no = lims.get(head)
            if no is None:
                no = lims[head] = self._limit_at(p, head)
            if no:
                continue
            got = tables.get(c)
            if got is None:
                got = self._major_table(c)
            elif got[4]:
                got = self._major_patch(c, got)
            soft, hard_c, special, top, _ = got
            if reserved:
                eid = g.board.eid
                out.extend(i for i, v in soft.items() if v <= left and eid[i] not in reserved)
                hard.extend(
                    (i, v) for i, v in hard_c.items() if v <= left and eid[i] not in reserved
                )
            else:
                if top <= left:  # every cost within the money left
                    out.extend(soft)
                else:
                    out.extend([i for i, v in soft.items() if v <= left])
                if hard_c:
                    hard.extend([(i, v) for i, v in hard_c.items() if v <= left])
            if special:
                self._judge(p, special, left, reserved, lims, out, hard)

    def _major_table(self, c: int) -> MajorTable:
        """The candidates from the mileposts of major city ``c`` (index into
        ``board.majors``) that no seat's circumstances change: free segments that the
        weather and the floods do not refuse, with their costs, by the triangle test
        (passed, not passed); the actions to a port or a city, judged per seat; a bound on
        the costs of the first. Kept in ``_majors_cache`` (for the active events), brought
        up to date with the builds that change them (``GameBase.major_touch``,
        :meth:`_majors_built`)."""
        g = self.game
        b = g.board
        weather = self.weather_area() if self.active else ()
        rivers = self.flooded_rivers() if self.active else ()
        owner = self.edge_owner
        limited = g.limited
        link_to = g.build_link
        cost0 = g.build_cost0
        tri = g.tri
        soft: dict[int, int] = {}
        hard: dict[int, int] = {}
        special: list[int] = []
        for a in b.city_posts[b.majors[c]]:
            if a in weather:
                continue
            for i, e, to in g.build_out[a]:
                if owner[e] >= 0 or to in weather or (rivers and b.edge_river[e] in rivers):
                    continue
                if limited[to] or link_to[i] >= 0:
                    special.append(i)
                    continue
                for e1, f1 in tri[e]:
                    if owner[e1] < 0 and owner[f1] < 0:
                        soft[i] = cost0[i]
                        break
                else:
                    hard[i] = cost0[i]
        got = (soft, hard, tuple(special), max(soft.values(), default=0), ())
        if not self._owns_majors_cache:
            self._majors_cache = dict(self._majors_cache)
            self._owns_majors_cache = True
        self._majors_cache[c] = got
        return got

    def _majors_built(self, e: int) -> None:
        """Note a build of ``e`` in the tables of the major cities whose candidates it may
        change (taken in when the table is next used, :meth:`_major_patch`; after many, the
        table is made anew)."""
        tables = self._majors_cache
        for c in self.game.major_touch[e]:
            got = tables.get(c)
            if got is None:
                continue
            if not self._owns_majors_cache:
                tables = self._majors_cache = dict(tables)
                self._owns_majors_cache = True
            if len(got[4]) >= 6:
                del tables[c]
            else:
                tables[c] = (got[0], got[1], got[2], got[3], (*got[4], e))

    def _major_patch(self, c: int, got: MajorTable) -> MajorTable:
        """Major city ``c``'s table ``got`` with the builds noted in it taken in: their
        segments out, and the segments whose triangle test they may end moved to ``hard``."""
        g = self.game
        ends = g.board.edge_ends
        dirs = g.edge_dirs
        soft, hard, special, top, due = got
        soft = dict(soft)
        hard = dict(hard)
        for e in due:
            x, y = ends[e]
            dx, dy = dirs[e]
            for i in (x * 6 + dx, y * 6 + dy):
                soft.pop(i, None)
                hard.pop(i, None)
            for e1 in g.tri_rev[e]:
                x, y = ends[e1]
                dx, dy = dirs[e1]
                for i in (x * 6 + dx, y * 6 + dy):
                    v = soft.pop(i, None)
                    if v is not None:
                        hard[i] = v
        new = (soft, hard, special, top, ())
        if not self._owns_majors_cache:
            self._majors_cache = dict(self._majors_cache)
            self._owns_majors_cache = True
        self._majors_cache[c] = new
        return new

    def _judge(
        self,
        p: int,
        actions: tuple[int, ...],
        left: int,
        reserved: set[int],
        lims: dict[int, bool],
        out: list[int],
        hard: list[tuple[int, int]],
    ) -> None:
        """The free ``actions`` (weather and floods passed) judged for ``p``: the limits at
        their far end (kept in ``lims``), reserved bridges, the cost (a line's price unless
        p owns it), the triangle test (to ``out``; not passed: to ``hard``)."""
        g = self.game
        b = g.board
        owner = self.edge_owner
        lkey = g.limit_key
        for i in actions:
            e = b.eid[i]
            if owner[e] >= 0 or e in reserved:
                continue
            to = b.nb[i]
            if g.limited[to]:
                key = lkey[to]
                no = lims.get(key)
                if no is None:
                    no = lims[key] = self._limit_at(p, to)
                if no:
                    continue
            cost = g.build_cost0[i]
            k = g.build_link[i]
            if k >= 0 and p not in self.link_owners[k]:
                cost += b.links[k].cost
            if cost > left:
                continue
            for e1, f1 in g.tri[e]:
                if owner[e1] < 0 and owner[f1] < 0:
                    out.append(i)
                    break
            else:
                hard.append((i, cost))

    def _listing(self, p: int, events: tuple[int, ...]) -> Listing:
        """The turn's :class:`Listing` for ``p``, made or brought up to date."""
        key = (
            self.t,
            p,
            self.freight_only(p),
            events,
            tuple(r[0] for r in self.reserve if r[1] != p),
        )
        table = self._listing_cache
        built = self._built_cache
        if table is None or table.key != key or table.done > len(built):
            table = self._listing_cache = Listing(key)
            self._list_sources(p, table, self.net[p])
            table.done = len(built)
            self._owns_listing_cache = True
        elif table.done < len(built):
            if not self._owns_listing_cache:
                table = self._listing_cache = table.copy()
                self._owns_listing_cache = True
            self._listing_update(p, table, built[table.done :])
            table.done = len(built)
        return table

    def _limit_at(self, p: int, m: int) -> bool:
        """A city or port limit refuses ``p`` building to or from ``m`` (kept on the state
        until track changes at that city or port: ``_limits_cache``, cleared by ``_touch``)."""
        refused = self._limits_cache
        key = self.game.limit_key[m]
        at = refused.get(key)
        if at is None:
            at = refused[key] = {}
        tag = p * 2 + (self.train[p] == 0 and (not self.pos2 or self.train2[p] == 0))
        no = at.get(tag)
        if no is None:
            no = at[tag] = self._limit_refusal(p, m, -1, -1) is not None
        return no

    def _list_sources(self, p: int, table: Listing, sources: Iterable[int]) -> None:
        """Put the candidates from ``sources`` in ``table`` (replacing theirs, if any): the
        free segments from p's track (not a major city's: ``_list_majors``) that the
        weather, the floods, reserved bridges and the city and port limits at either end do
        not refuse, with their costs, the blocking rule's triangle test done (``hard``: it
        did not answer)."""
        g = self.game
        b = g.board
        net = self.net[p]
        majors = g.major_set
        weather = self.weather_area() if self.active else ()
        rivers = self.flooded_rivers() if self.active else ()
        owner = self.edge_owner
        limited = g.limited
        lims = table.lims
        link_owners = self.link_owners
        links = b.links
        build_out = g.build_out
        reserve = self.reserve
        refused = self._limits_cache
        tag = p * 2 + self.freight_only(p)
        soft, hard = table.soft, table.hard
        listed = table.listed
        lkey = g.limit_key

        def limit(m: int) -> bool:
            key = lkey[m]
            no = lims.get(key)
            if no is None:
                at = refused.get(key)
                if at is None:
                    at = refused[key] = {}
                no = at.get(tag)
                if no is None:
                    no = at[tag] = self._limit_refusal(p, m, -1, -1) is not None
                lims[key] = no
            return no

        cands = g.build_cands
        plain = not (weather or rivers or reserve)
        for a in sources:
            if a in majors:
                continue
            if a in listed:
                for i, _, _ in build_out[a]:
                    soft.pop(i, None)
                    hard.pop(i, None)
            if a not in net:
                continue
            listed.add(a)
            if a in weather or (limited[a] and limit(a)):
                continue
            for i, e, to, cost, k, lim, pairs in cands[a]:
                if owner[e] >= 0 or (lim and limit(to)):
                    continue
                if not plain:
                    if to in weather or (rivers and b.edge_river[e] in rivers):
                        continue
                    if reserve and any(
                        r[0] == e and r[1] != p and self.turns_done[r[1]] < r[2] for r in reserve
                    ):
                        continue
                if k >= 0 and p not in link_owners[k]:
                    cost += links[k].cost
                for e1, f1 in pairs:  # the common case of blocked_by_build, inline
                    if owner[e1] < 0 and owner[f1] < 0:
                        soft[i] = cost
                        break
                else:
                    hard[i] = cost

    def _listing_update(self, p: int, table: Listing, builds: list[int]) -> None:
        """Bring ``table`` up to date after ``p``'s ``builds`` of this turn (the turn's log,
        ``_built_cache``: actions, and ``-1 - k`` after one by which p joined line ``k``):
        their segments out; the new source listed; the sources by a milepost whose city or
        port limit answer changed listed again; the segments to the ports of a line p
        joined at their new cost; the triangle test asked again for the segments whose
        lattice triangles hold a built one."""
        g = self.game
        b = g.board
        limited = g.limited
        lims = table.lims
        again: set[int] = set()
        soft, hard = table.soft, table.hard
        for i0 in builds:
            if i0 < 0:  # p joined this line: its ports are p's, the way there cheaper
                ends = b.links[-1 - i0].ends
                again.update(ends)
                touched: tuple[int, ...] = ends
                cost0 = g.build_cost0
                dirs = g.edge_dirs
                for port in ends:
                    for x, e in g.adj[port]:
                        i = x * 6 + dirs[e][0 if b.edge_ends[e][0] == x else 1]
                        if i in soft:
                            soft[i] = cost0[i]
                        elif i in hard:
                            hard[i] = cost0[i]
            else:
                a0, d0 = divmod(i0, 6)
                to0 = b.nb[i0]
                e0 = b.eid[i0]
                soft.pop(i0, None)
                hard.pop(i0, None)
                i = to0 * 6 + (d0 + 3) % 6
                soft.pop(i, None)
                hard.pop(i, None)
                again.add(to0)
                touched = (a0, to0)
                # the triangle test of the segments that share a lattice triangle with e0
                for e1 in g.tri_rev[e0]:
                    x, y = b.edge_ends[e1]
                    dx, dy = g.edge_dirs[e1]
                    c = soft.pop(x * 6 + dx, None)
                    if c is not None:
                        hard[x * 6 + dx] = c
                    c = soft.pop(y * 6 + dy, None)
                    if c is not None:
                        hard[y * 6 + dy] = c
            for m in touched:
                if limited[m]:
                    for x in g.limit_keys[m]:
                        old = lims.get(x)
                        if old is not None:
                            new = lims[x] = self._limit_at(p, x)
                            if old != new:
                                again.update(g.key_area[x])
        self._list_sources(p, table, again)

    def _build_actions_reference(self, p: int) -> list[int]:
        """:meth:`_build_actions` by :meth:`build_refusal` on every candidate (the tests'
        reference)."""
        b = self.game.board
        out: list[int] = []
        if self.wildcat_drawer() == p:
            return out
        left = min(SPEND_LIMIT - self.spent, self.cash[p])
        if left < 0:
            return out
        sources = set(self.net[p])
        if self.from_major < 2:
            sources.update(b.major_posts)
        for a in sources:
            base = a * 6
            for d in range(6):
                e = b.eid[base + d]
                if e < 0 or b.edge_internal[e] or self.edge_owner[e] >= 0:
                    continue
                if self.build_cost(p, a, d) > left:
                    continue
                if self.build_refusal(p, a, d) is None:
                    out.append(base + d)
        return out

    def _build(self, p: int, a: int, d: int) -> None:
        b = self.game.board
        e = b.eid[a * 6 + d]
        to = b.nb[a * 6 + d]
        cost = self.build_cost(p, a, d)
        self.cash[p] -= cost
        self.spent += cost
        if b.terrain[a] == OUTPOST:
            self.from_major += 1
        self.edge_owner[e] = p
        self._built_cache.append(a * 6 + d)
        free = self._free_cache
        if free:  # one unbuilt segment fewer out of a city at either end
            for m in (a, to):
                c = b.city_of[m]
                if c in free:
                    free[c] -= 1
        if self._majors_cache and self.game.major_touch[e]:
            self._majors_built(e)
        if self.reserve:
            self.reserve = [r for r in self.reserve if r[0] != e]
        self._touch(p, a, 1)
        self._touch(p, to, 1)
        k = b.link_at[to]
        filled = -1
        if k >= 0 and p not in self.link_owners[k]:
            self.link_owners[k].append(p)
            self._built_cache.append(-1 - k)
            if len(self.link_owners[k]) >= b.links[k].capacity:
                filled = k
            for m in b.links[k].ends:
                self._touch(p, m, 1)
        self._after_build(p, e, a, d, filled)

    def _upgrade_actions(self, p: int) -> list[int]:
        """Upgrades and the crossgrade open to ``p``'s train (building phase)."""
        g = self.game
        out = []
        if not self.spent and not self.upgraded:
            for target, cost in g.board.upgrades[self.train[p]]:
                if cost <= self.cash[p] and cost <= SPEND_LIMIT:
                    out.append(g.U0 + target)
        if g.crossgrade and self.crossgrade_refusal(p) is None:
            out.append(g.U0 + g.crossgrade[self.train[p]])
        return out

    def freight_only(self, p: int) -> bool:
        """``p`` has no train better than a Freight (the Chunnel's building restriction)."""
        return self.train[p] == 0 and (not self.pos2 or self.train2[p] == 0)

    def crossgrade_refusal(self, p: int) -> str | None:
        """Why ``p`` may not crossgrade now (None: legal; the building phase is assumed)."""
        g = self.game
        if not g.cfg.crossgrading:
            return "crossgrading is not played (config crossgrading)"
        target = g.crossgrade.get(self.train[p])
        if target is None:
            return "only a Fast Freight and a Heavy Freight crossgrade to each other"
        if self.upgraded:
            return "one upgrade or crossgrade a turn"
        if self.spent > SPEND_LIMIT - CROSSGRADE:
            return f"a crossgrade leaves at most {SPEND_LIMIT - CROSSGRADE} for track this turn"
        if self.cash[p] < CROSSGRADE:
            return f"a crossgrade costs {CROSSGRADE} (no credit)"
        if len(self.loads[p]) > g.board.train_capacity[target]:
            return "drop a load first: the new train carries fewer"
        return None

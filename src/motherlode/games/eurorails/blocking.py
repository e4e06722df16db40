"""Eurorails, Building Railroads: the blocking rule, "No track may be built which blocks
any player from connecting all the major cities."

The graph available to seat q: every lattice edge q owns, every red-area edge, every free
edge whose two ends q may still build to (a ferry port or Chunnel end of a line already full
of other owners is closed to q), and every ferry line or the Chunnel that q owns or may still
build to (fewer owners than its capacity); the mileposts of a major city are one node. A
build of edge e by p is refused when, for some other q, that graph connects all the major
cities before the build and not after it (:meth:`BlockingRules.blocked_by_build`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from motherlode.games.eurorails.base import GameBase, StateBase


class BlockingRules(StateBase):
    """The global blocking check (a part of :class:`~.game.EurorailsState`)."""

    def __init__(self, game: GameBase) -> None:
        super().__init__(game)
        # Before any track, whether each seat's graph connects the major cities is the same
        # in every game of a configuration: found once (a whole-map search per seat) and
        # kept by the game (``majors_reachable``).
        start = game.linked_at_start
        if start is None:
            start = game.linked_at_start = tuple(
                int(self._connects_majors(q)) for q in range(game.num_players)
            )
        self._linked = list(start)

    def _post_open(self, q: int, m: int) -> bool:
        """May seat ``q`` still build to or from milepost ``m`` (port limits)?"""
        b = self.game.board
        k = b.link_at[m]
        if k < 0:
            return True
        owners = self.link_owners[k]
        return q in owners or len(owners) < b.links[k].capacity

    def _edge_open(self, q: int, e: int) -> bool:
        """Is edge ``e`` in the graph available to seat ``q``?"""
        b = self.game.board
        o = self.edge_owner[e]
        if o == q or b.edge_internal[e]:
            return True
        if o >= 0:
            return False
        x, y = b.edge_ends[e]
        return self._post_open(q, x) and self._post_open(q, y)

    def _closed(self, q: int) -> set[int]:
        """The ferry ports and Chunnel ends closed to seat ``q``: their line is full of
        other owners."""
        b = self.game.board
        out: set[int] = set()
        for k, owners in enumerate(self.link_owners):
            if len(owners) >= b.links[k].capacity and q not in owners:
                out.update(b.links[k].ends)
        return out

    def _steps(self, q: int, m: int, skip: int, closed: set[int]) -> list[int]:
        """The mileposts next to ``m`` in seat ``q``'s available graph, without edge ``skip``
        (ferry lines and the Chunnel are edges; a major city's mileposts are joined)."""
        g = self.game
        owner = self.edge_owner
        internal = g.board.edge_internal
        if closed and m in closed:
            return [x for x, e in g.adj[m] if e != skip and (owner[e] == q or internal[e])]
        out = [
            x
            for x, e in g.adj[m]
            if e != skip
            and (owner[e] == q or (owner[e] < 0 and (internal[e] or not closed or x not in closed)))
        ]
        out.extend(g.joined[m])
        return out

    def _connects_majors(self, q: int, tree: list[int] | None = None) -> bool:
        """Does seat ``q``'s available graph connect all the major cities? (A breadth-first
        search of the graph of :meth:`_steps`, inlined: it may visit every milepost.)
        ``tree``, when given and the answer is yes, receives the lattice edges of shortest
        paths from the first major city to each of the others (which join them all)."""
        g = self.game
        b = g.board
        major_of = g.major_of
        adj, joined, owner, internal = g.adj, g.joined, self.edge_owner, b.edge_internal
        start = b.city_posts[b.majors[0]]
        came: dict[int, tuple[int, int]] = {m: (-1, -1) for m in start}
        todo = deque(start)
        reached = [start[0]]  # a milepost of each major city, as found
        found = {0}
        total = len(b.majors)
        closed = self._closed(q)
        while todo:
            m = todo.popleft()
            shut = m in closed
            nxt = [
                (x, e)
                for x, e in adj[m]
                if x not in came
                and (
                    owner[e] == q
                    or (owner[e] < 0 and (internal[e] or (not shut and x not in closed)))
                )
            ]
            if not shut:
                nxt.extend((x, -1) for x in joined[m] if x not in came)
            for x, e in nxt:
                if x in came:
                    continue
                came[x] = (m, e)
                todo.append(x)
                i = major_of[x]
                if i >= 0 and i not in found:
                    found.add(i)
                    reached.append(x)
                    if len(found) == total:
                        if tree is not None:
                            tree.extend({e for x in reached for e in _path(came, x)})
                        return True
        return len(found) == total

    def majors_reachable(self, q: int) -> bool:
        """Seat ``q`` may still connect all the major cities. Once true it stays true: a
        legal build keeps it (the blocking check) and a flood only frees edges, so a true
        answer is kept until the track is laid anew (``_rebuild_touch``); a false one is
        kept until the next change of track."""
        if self._linked[q]:
            return True
        key = -1 - q
        v = self._reach.get(key)
        if v is None:
            v = int(self._connects_majors(q))
            self._reach[key] = v
            if v:
                self._linked[q] = 1
        return bool(v)

    def _split(
        self, q: int, a: list[int], c: list[int], skip: int, closed: set[int]
    ) -> set[int] | None:
        """None when mileposts ``a`` and ``c`` are connected in ``q``'s graph without edge
        ``skip`` (and the mileposts ``closed``); otherwise the whole component of one side
        (two-sided breadth-first search: the smaller side is exhausted first)."""
        g = self.game
        adj, joined, owner = g.adj, g.joined, self.edge_owner
        seen_a, seen_c = set(a), set(c)
        todo_a, todo_c = deque(a), deque(c)
        while todo_a and todo_c:
            if len(seen_a) <= len(seen_c):
                seen, other, todo = seen_a, seen_c, todo_a
            else:
                seen, other, todo = seen_c, seen_a, todo_c
            m = todo.popleft()
            if m in closed:
                nxt = self._steps(q, m, skip, closed)
            else:  # the same steps, inline (red-area mileposts are never closed)
                nxt = [
                    x
                    for x, e in adj[m]
                    if e != skip and (owner[e] == q or (owner[e] < 0 and x not in closed))
                ]
                nxt.extend(joined[m])
            for x in nxt:
                if x in other:
                    return None
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
        return seen_a if not todo_a else seen_c

    def blocked_by_build(self, p: int, a: int, d: int) -> int:
        """The seat that ``p``'s segment from ``a`` in direction ``d`` would block from
        connecting all the major cities, or -1 (see the comment above ``_post_open``)."""
        return self._blocked_by(p, a, d, self._blocks, self._reach)

    def blocked_by_build_reference(self, p: int, a: int, d: int) -> int:
        """:meth:`blocked_by_build` without the answers kept from earlier builds (the
        check as it was before they were kept: the tests' reference)."""
        return self._blocked_by(p, a, d, self._blocks_reference, {})

    def _blocked_by(
        self, p: int, a: int, d: int, blocks: Callable[..., bool], memo: dict[int, int]
    ) -> int:
        g = self.game
        b = g.board
        i = a * 6 + d
        e = b.eid[i]
        to = b.nb[i]
        owner = self.edge_owner
        for e1, f1 in g.tri[e]:
            if owner[e1] < 0 and owner[f1] < 0:
                # a triangle of unowned edges (red areas included) without a port: e's ends
                # stay joined for everyone
                return -1
        if self._ring(a, d) or self._ring(to, (d + 3) % 6):
            return -1
        key = e * 8 + p
        hit = memo.get(key)
        if hit is not None:
            return hit
        # the two triangles of the lattice on e: a -> c -> to
        d1, d2 = (d + 1) % 6, (d + 5) % 6
        c1, c2 = b.nb[a * 6 + d1], b.nb[a * 6 + d2]
        e1, e2 = b.eid[a * 6 + d1], b.eid[a * 6 + d2]
        f1 = b.eid[c1 * 6 + d2] if c1 >= 0 else -1
        f2 = b.eid[c2 * 6 + d1] if c2 >= 0 else -1
        k = b.link_at[to]
        owners = self.link_owners[k] if k >= 0 else []
        fills = k >= 0 and p not in owners and len(owners) + 1 >= b.links[k].capacity
        slow = []
        for q in range(g.num_players):
            if q == p:
                continue
            if fills and q not in owners:
                slow.append(q)
                continue
            if f1 >= 0 and e1 >= 0 and self._edge_open(q, e1) and self._edge_open(q, f1):
                continue
            if f2 >= 0 and e2 >= 0 and self._edge_open(q, e2) and self._edge_open(q, f2):
                continue
            slow.append(q)
        if not slow:
            return -1
        found = -1
        for q in slow:
            if fills and q not in owners:
                # the result depends only on the line and q (e ends at its closed port)
                fkey = -100 - (k * 8 + q)
                hit = memo.get(fkey)
                if hit is None:
                    hit = int(blocks(q, p, e, a, to, k))
                    memo[fkey] = hit
                if hit:
                    found = q
                    break
            elif blocks(q, p, e, a, to, -1):
                found = q
                break
        memo[key] = found
        return found

    def _ring(self, u: int, du: int) -> bool:
        """Are ``u`` and its neighbour ``v`` in direction ``du`` joined by unowned edges
        without ports (so in everyone's graph) round the hexagon about ``u``: a spoke from
        ``u``, then ring edges to ``v``?"""
        g = self.game
        owner = self.edge_owner
        port = g.edge_port
        ring, spokes = g.hexes[u * 6 + du]
        for i in range(5):
            e = ring[i]
            if e < 0 or owner[e] >= 0 or port[e]:
                break
            e = spokes[i + 1]
            if e >= 0 and owner[e] < 0 and not port[e]:
                return True
        for i in range(5, 0, -1):
            e = ring[i]
            if e < 0 or owner[e] >= 0 or port[e]:
                break
            e = spokes[i]
            if e >= 0 and owner[e] < 0 and not port[e]:
                return True
        return False

    def _blocks(self, q: int, p: int, e: int, a: int, to: int, k: int) -> bool:
        """Would ``p`` building edge ``e`` (and, when ``k >= 0``, taking the last place on
        link ``k``) disconnect the major cities in ``q``'s available graph?

        Between two resets of ``_cut_cache`` (a flood, a trade) q's graph only loses edges (a
        build by another seat, the ports of a line that fills up without q), and every build
        is legal, so keeps q's major cities joined. So an answer found by cutting q's graph
        (``e`` a bridge with major cities on both sides: blocks; one side without any, or q
        not connected: does not) stays true for as long as ``e`` is free; a "does not block"
        found by a path joining ``e``'s ends without it stays true while that path's edges
        are all still in q's graph (:meth:`_still_open`). Both are kept in ``_cut_cache`` (shared
        with clones until written)."""
        if k >= 0:
            return self._fill_blocks(q, p, e, k, keep=True)
        if not self._edge_open(q, e):
            return False
        key = e * 8 + q
        hit = self._cut_cache.get(key)
        if hit is not None:
            if hit is True or hit is False:
                return hit
            if self._still_open(q, hit):
                return False
        side, path = self._split_path(q, [a], [to], e, self._closed(q))
        answer: bool | tuple[int, ...] = path if side is None else self._cuts(q, side)
        self._keep(key, answer)
        return answer is True

    def _still_open(self, q: int, edges: tuple[int, ...]) -> bool:
        """Are all the lattice ``edges`` still in ``q``'s graph? (Not built by another
        seat; one ending at a port is open only while q may still build there.)"""
        owner = self.edge_owner
        port = self.game.edge_port
        for x in edges:
            o = owner[x]
            if o != q and (o >= 0 or (port[x] and not self._edge_open(q, x))):
                return False
        return True

    def _blocks_reference(self, q: int, p: int, e: int, a: int, to: int, k: int) -> bool:
        """:meth:`_blocks` computed from scratch, without ``_cut_cache`` (the tests' reference)."""
        if k >= 0:
            return self._fill_blocks(q, p, e, k)
        if not self._edge_open(q, e):
            return False
        return self._cuts(q, self._split(q, [a], [to], e, self._closed(q)))

    def _split_path(
        self, q: int, a: list[int], c: list[int], skip: int, closed: set[int]
    ) -> tuple[set[int] | None, tuple[int, ...]]:
        """:meth:`_split` of the mileposts ``a`` and ``c``, and when they are connected the
        lattice edges of a path joining them (its other steps are ferry lines, the Chunnel
        and major cities' joins, which last until ``_cut_cache`` is reset)."""
        g = self.game
        adj, joined, owner, internal = g.adj, g.joined, self.edge_owner, g.board.edge_internal
        # milepost -> (previous, edge)
        from_a: dict[int, tuple[int, int]] = dict.fromkeys(a, (-1, -1))
        from_c: dict[int, tuple[int, int]] = dict.fromkeys(c, (-1, -1))
        todo_a, todo_c = deque(a), deque(c)
        while todo_a and todo_c:
            if len(from_a) <= len(from_c):
                seen, other, todo = from_a, from_c, todo_a
            else:
                seen, other, todo = from_c, from_a, todo_c
            m = todo.popleft()
            shut = m in closed
            for x, e in adj[m]:
                if e == skip:
                    continue
                o = owner[e]
                if o != q and (o >= 0 or (not internal[e] and (shut or x in closed))):
                    continue  # not in q's graph (as _steps)
                if x in other:
                    return None, (*_path(seen, m), e, *_path(other, x))
                if x not in seen:
                    seen[x] = (m, e)
                    todo.append(x)
            if shut:
                continue
            for x in joined[m]:
                if x in other:
                    return None, _path(seen, m) + _path(other, x)
                if x not in seen:
                    seen[x] = (m, -1)
                    todo.append(x)
        return set(from_a) if not todo_a else set(from_c), ()

    def _cuts(self, q: int, side: set[int] | None) -> bool:
        """Given the component ``side`` cut off from the other side of a removal (None:
        nothing was cut off), are the major cities of ``q``'s graph now disconnected?"""
        if side is None:
            return False
        major_of = self.game.major_of
        cut = len({major_of[m] for m in side if major_of[m] >= 0})
        if cut in (0, len(self.game.board.majors)):
            return False
        return self.majors_reachable(q)

    def _fill_search(self, q: int, p: int, e: int, k: int, keep: bool) -> bool:
        """:meth:`_fill_blocks` by a search of ``q``'s whole graph with ``e`` built and
        link ``k`` full. With ``keep``, the answer lasts in ``_cut_cache`` as :meth:`_blocks`'
        do: "blocks" until a reset, "does not" while the lattice edges of the search's tree
        (which joins the major cities without ``e`` or ``k``'s ports) are still in q's graph."""
        tree: list[int] = []
        self.edge_owner[e] = p
        self.link_owners[k].append(p)
        try:
            joined = self._connects_majors(q, tree)
        finally:
            self.link_owners[k].pop()
            self.edge_owner[e] = -1
        if keep:
            self._keep(-1 - (k * 8 + q), tuple(tree) if joined else True)
        return not joined

    def _keep(self, key: int, answer: bool | tuple[int, ...]) -> None:
        """Keep a lasting answer in ``_cut_cache`` (copying it first if a clone shares it)."""
        if not self._owns_cut_cache:
            self._cut_cache = dict(self._cut_cache)
            self._owns_cut_cache = True
        self._cut_cache[key] = answer

    def _fill_blocks(self, q: int, p: int, e: int, k: int, keep: bool = False) -> bool:
        """Would ``p`` taking the last place on link ``k`` (by building ``e`` to one of its
        ports) disconnect the major cities for ``q``? Both ports then close to ``q``: the
        graph loses them (and the line). When the open neighbours of each port stay joined
        around it, two pieces at most remain, one by each port: a two-sided search between
        them decides; otherwise a search of the whole graph does."""
        key = -1 - (k * 8 + q)
        if keep:  # an answer kept since an earlier build (see _fill_search)
            hit = self._cut_cache.get(key)
            if hit is True or hit is False:
                return hit
            if isinstance(hit, tuple) and self._still_open(q, hit):
                return False
        ends = self.game.board.links[k].ends
        closed = self._closed(q) | set(ends)
        sides = []
        ring: list[int] = []  # the hexagon edges that join each port's neighbours
        for port in ends:
            side = self._around(q, port, closed, ring)
            if side is None:
                if not self.majors_reachable(q):
                    return False
                return self._fill_search(q, p, e, k, keep)
            sides.append(side)
        if not sides[0] or not sides[1]:
            return False
        cut, path = self._split_path(q, sides[0], sides[1], -1, closed)
        if cut is None:
            # "does not block" lasts while the path and the hexagon edges stay in q's graph
            # (``_still_open``): q's graph only loses edges, so the ports' neighbours left
            # in it are still joined round each port by those hexagon edges, and the two
            # sides by the path
            # (a side's milepost that is itself a port may leave by its line at once, a
            # step no edge of the path records: then not kept)
            link_at = self.game.board.link_at
            if keep and all(link_at[x] < 0 for x in (*sides[0], *sides[1])):
                self._keep(key, path + tuple(ring))
            return False
        answer = self._cuts(q, cut)
        if keep:
            self._keep(key, answer)
        return answer

    def _around(self, q: int, u: int, closed: set[int], ring_out: list[int]) -> list[int] | None:
        """The neighbours of ``u`` joined to it in ``q``'s graph (before ``u`` closes), when
        they are all joined to each other through the hexagon around ``u`` once ``closed``
        are closed (then ``ring_out`` receives the hexagon's edges open to q, which join
        them); else None."""
        b = self.game.board
        owner = self.edge_owner
        ring = [b.nb[u * 6 + j] for j in range(6)]
        members = []
        for j in range(6):
            e = b.eid[u * 6 + j]
            if e >= 0 and owner[e] in (-1, q) and ring[j] not in closed:
                members.append(j)
        if len(members) <= 1:
            return [ring[j] for j in members]
        opn = []
        for j in range(6):
            x, y = ring[j], ring[(j + 1) % 6]
            e = b.eid[x * 6 + (j + 2) % 6] if x >= 0 and y >= 0 else -1
            opn.append(
                e >= 0 and x not in closed and y not in closed and (owner[e] == q or owner[e] < 0)
            )
            if opn[-1]:
                ring_out.append(e)
        if not all(opn):
            start = next(j for j in range(6) if not opn[(j - 1) % 6])
            label = [0] * 6
            cur = 0
            for t in range(6):
                j = (start + t) % 6
                label[j] = cur
                if not opn[j]:
                    cur += 1
            if len({label[j] for j in members}) > 1:
                return None
        return [ring[j] for j in members]


def _path(came: dict[int, tuple[int, int]], m: int) -> tuple[int, ...]:
    """The lattice edges from ``m`` back to the start of a search that recorded ``came``."""
    out: list[int] = []
    while True:
        m, e = came[m]
        if m < 0:
            return tuple(out)
        if e >= 0:
            out.append(e)

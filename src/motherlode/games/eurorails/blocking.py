"""Eurorails, Building Railroads: the blocking rule, "No track may be built which blocks
any player from connecting all the major cities."

The graph available to seat q: every lattice edge q owns, every red-area edge, every free
edge whose two ends q may still build to (a ferry port or Chunnel end of a line already full
of other owners is closed to q), and every ferry line or the Chunnel that q owns or may still
build to (fewer owners than its capacity); the mileposts of a major city are one node. A
build of edge e by p is refused when, for some other q, that graph connects all the major
cities before the build and not after it (:meth:`BlockingRules.blocked_by_build`).

How it is decided fast (the from-scratch check is kept as :meth:`blocked_by_build_reference`,
the tests' reference): the state keeps, per seat q, a *witness* (``_wit_cache``): a set of
lattice edges of q's graph which, with the major cities' red areas and the ferry lines
between its mileposts, joins all the major cities. A build that takes no edge of q's witness
(and closes no port it touches) leaves it whole, so blocks nobody: one set lookup per seat.
Only a build of a witness edge needs a search, and that search (a detour round the edge:
a lattice triangle, the hexagon round an end, else a two-sided search) also moves the
witness off the edge, so it is asked once. Taking the last place on a line closes its
ports to the other seats: per line and seat a second witness, for q's graph with the line's
ports closed (``_alt_cache``), found once from the first by joining its pieces again. Builds
keep the witnesses whole (``_after_build``); floods and trades only give back track (or
take it from its seller), after which what may no longer hold is found again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from motherlode.games.eurorails.base import GameBase, StateBase

_START: dict[str, frozenset[int] | bool] = {}
"""Per ferry printing, the witness of the graph before any track (every seat's)."""


class BlockingRules(StateBase):
    """The global blocking check (a part of :class:`~.game.EurorailsState`)."""

    def __init__(self, game: GameBase) -> None:
        super().__init__(game)
        # Before any track every seat's graph is the same (the board's): its witness is
        # found once per ferry printing (a whole-map search) and kept by the game.
        start = game.start_witness
        if start is None:
            start = _START.get(game.cfg.ferry_printing)
            if start is None:
                tree: list[int] = []
                start = frozenset(tree) if self._connects_majors(0, tree) else False
                _START[game.cfg.ferry_printing] = start
            game.start_witness = start
        self._wit_cache = [start] * game.num_players

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

    # -- the kept witnesses -------------------------------------------------------------

    def _witness(self, q: int) -> frozenset[int] | bool:
        """Seat ``q``'s witness (found by a whole-map search when not known), or False: q's
        graph does not connect the major cities."""
        w = self._wit_cache[q]
        if w is None:
            tree: list[int] = []
            w = frozenset(tree) if self._connects_majors(q, tree) else False
            self._wit_cache[q] = w
        return w

    def majors_reachable(self, q: int) -> bool:
        """Seat ``q`` may still connect all the major cities (its witness)."""
        return self._witness(q) is not False

    def blocked_by_build(self, p: int, a: int, d: int) -> int:
        """The seat that ``p``'s segment from ``a`` in direction ``d`` would block from
        connecting all the major cities, or -1 (see the module docstring)."""
        g = self.game
        b = g.board
        i = a * 6 + d
        e = b.eid[i]
        owner = self.edge_owner
        for e1, f1 in g.tri[e]:
            if owner[e1] < 0 and owner[f1] < 0:
                # a triangle of unowned edges (red areas included) without a port: e's ends
                # stay joined for everyone
                return -1
        to = b.nb[i]
        k = b.link_at[to]
        owners: list[int] = self.link_owners[k] if k >= 0 else []
        fills = k >= 0 and p not in owners and len(owners) + 1 >= b.links[k].capacity
        wit = self._wit_cache
        for q in range(g.num_players):
            if q == p:
                continue
            w = wit[q]
            if w is None:
                w = self._witness(q)
            if w is False or w is True:
                continue  # q's graph does not connect them: nothing blocks q
            if fills and q not in owners:
                # both ports close to q: its witness holds if it touches neither
                if not w.isdisjoint(g.port_edges[k]) and self._alt(k, q) is True:
                    return q
            elif e in w:
                key = e * 8 + q
                cut = self._cut_cache.get(key)
                if cut is None:
                    got = self._detour(q, e, a, d)
                    if isinstance(got, tuple):
                        continue
                    cut = self._splits_majors(got)
                    self._keep(key, cut)
                if cut:
                    return q
        return -1

    def _splits_majors(self, side: set[int]) -> bool:
        """Does the component ``side`` (cut off by a removal) hold some major cities but not
        all of them?"""
        major_of = self.game.major_of
        cut = len({major_of[m] for m in side if major_of[m] >= 0})
        return 0 < cut < len(self.game.board.majors)

    def _detour(self, q: int, e: int, a: int, d: int) -> tuple[int, ...] | set[int]:
        """A path joining the ends of edge ``e`` (from ``a`` in direction ``d``) in seat
        ``q``'s graph without ``e`` (its lattice edges), or, when there is none, the
        component of one end. Paths found are kept by the game and used again while they
        still hold: one of unowned edges without ports (a detour for every seat) by edge
        (``detours``), others by edge and seat (``seat_detours``); so a witness edge that a
        seat may build is searched round once, not at every listing."""
        g = self.game
        owner = self.edge_owner
        path = g.detours.get(e)
        if path is not None:
            for f in path:
                if owner[f] >= 0:
                    break
            else:
                return path
        key = e * 8 + q
        path = g.seat_detours.get(key)
        if path is not None:
            edge_open = self._edge_open
            for f in path:
                if not edge_open(q, f):
                    break
            else:
                return path
        b = g.board
        to = b.nb[a * 6 + d]
        path = (
            self._ring_path(a, d)
            or self._ring_path(to, (d + 3) % 6)
            or (None if g.edge_port[e] else self._local_detour(a, to, e, 40))
        )
        if path is not None:
            g.detours[e] = path
            return path
        for e1, f1 in g.tri_all[e]:  # a lattice triangle open to q
            if self._edge_open(q, e1) and self._edge_open(q, f1):
                path = (e1, f1)
                break
        else:
            side, path = self._split_path(q, [a], [to], e, self._closed(q))
            if side is not None:
                return side
        g.seat_detours[key] = path
        return path

    def _reroute(self, q: int, w: frozenset[int], e: int, a: int, d: int) -> None:
        """Seat ``q``'s witness ``w`` moved off its edge ``e`` (from ``a`` in direction
        ``d``) that another seat built: a detour (:meth:`_detour`) in place of ``e``, for
        every seat that shares ``w`` and has the detour in its graph; or, when ``e`` was a
        bridge of q's graph with all the major cities on one side, the witness's part on
        that side; False when ``e`` split them (an illegal build, applied unchecked)."""
        got = self._detour(q, e, a, d)
        wit = self._wit_cache
        if isinstance(got, tuple):
            new = w.difference((e,)).union(got)
            wit[q] = new
            edge_open = self._edge_open
            for x, v in enumerate(wit):
                if v is w and all(edge_open(x, f) for f in got):
                    wit[x] = new
            return
        if self._splits_majors(got):
            wit[q] = False
            return
        ends = self.game.board.edge_ends
        major_of = self.game.major_of
        if any(major_of[m] >= 0 for m in got):  # every major city on that side
            wit[q] = frozenset(f for f in w if f != e and ends[f][0] in got)
        else:
            wit[q] = frozenset(
                f for f in w if f != e and ends[f][0] not in got and ends[f][1] not in got
            )

    def _local_detour(self, a: int, c: int, skip: int, limit: int) -> tuple[int, ...] | None:
        """The edges of a path from ``a`` to ``c`` of unowned edges without ports (in every
        seat's graph) and major cities' red areas, without edge ``skip``, found by a
        two-sided search that gives up after ``limit`` mileposts (None: none found)."""
        g = self.game
        adj, joined, owner, port = g.adj, g.joined, self.edge_owner, g.edge_port
        from_a: dict[int, tuple[int, int]] = {a: (-1, -1)}
        from_c: dict[int, tuple[int, int]] = {c: (-1, -1)}
        todo_a, todo_c = deque((a,)), deque((c,))
        while todo_a and todo_c and len(from_a) + len(from_c) < limit:
            if len(from_a) <= len(from_c):
                seen, other, todo = from_a, from_c, todo_a
            else:
                seen, other, todo = from_c, from_a, todo_c
            m = todo.popleft()
            for x, e in adj[m]:
                if e == skip or owner[e] >= 0 or port[e]:
                    continue
                if x in other:
                    return (*_path(seen, m), e, *_path(other, x))
                if x not in seen:
                    seen[x] = (m, e)
                    todo.append(x)
            for x in joined[m]:  # (not a port: only a major city's red area)
                if x in other:
                    return _path(seen, m) + _path(other, x)
                if x not in seen:
                    seen[x] = (m, -1)
                    todo.append(x)
        return None

    def _ring_path(self, u: int, du: int) -> tuple[int, ...] | None:
        """The unowned edges without ports (so in everyone's graph) of a path round the
        hexagon about ``u`` from ``u`` to its neighbour ``v`` in direction ``du``: a spoke
        from ``u``, then ring edges to ``v`` (None: there is none)."""
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
                return (e, *ring[: i + 1])
        for i in range(5, 0, -1):
            e = ring[i]
            if e < 0 or owner[e] >= 0 or port[e]:
                break
            e = spokes[i]
            if e >= 0 and owner[e] < 0 and not port[e]:
                return (e, *ring[i:6])
        return None

    def _alt(self, k: int, q: int) -> frozenset[int] | bool:
        """Seat ``q``'s witness for its graph with line ``k``'s ports closed (another seat
        takes the last place on it), or True: that graph does not connect the major cities.
        Found from q's witness: what is left of it joined again (:meth:`_reconnect`)."""
        key = k * 8 + q
        hit = self._alt_cache.get(key)
        if hit is not None:
            return hit
        w = self._witness(q)
        assert isinstance(w, frozenset)
        owner = self.edge_owner
        lost = self.game.port_edges[k]
        rest = w.difference([f for f in lost if owner[f] != q])
        closed = self._closed(q)
        closed.update(self.game.board.links[k].ends)
        got = self._reconnect(q, rest, closed)
        if not self._owns_alt_cache:
            self._alt_cache = dict(self._alt_cache)
            self._owns_alt_cache = True
        alts = self._alt_cache
        if got is None:
            alts[key] = True
            return True
        alts[key] = got
        # the seats that share q's witness and whose graph has the paths added: the same
        added = got - rest
        owners = self.link_owners[k]
        edge_open = self._edge_open
        for x, v in enumerate(self._wit_cache):
            if (
                v is w
                and x not in owners
                and k * 8 + x not in alts
                and all(edge_open(x, f) and f not in lost for f in added)
            ):
                alts[k * 8 + x] = got
        return got

    def _pieces(self, edges: Iterable[int], closed: set[int]) -> list[set[int]]:
        """The pieces (sets of mileposts) that hold major cities of the graph made of
        ``edges``, the major cities' red areas and the lines between its mileposts whose
        ports are not ``closed``."""
        g = self.game
        b = g.board
        ends = b.edge_ends
        major_of = g.major_of
        heads = [b.city_posts[c][0] for c in b.majors]
        adj: dict[int, list[int]] = {m: [] for m in heads}
        for f in edges:
            x, y = ends[f]
            i, j = major_of[x], major_of[y]
            if i >= 0:
                if j == i:
                    continue  # the red area
                x = heads[i]
            if j >= 0:
                y = heads[j]
            adj.setdefault(x, []).append(y)
            adj.setdefault(y, []).append(x)
        for link in b.links:
            x, y = link.ends
            if x in adj and y in adj and x not in closed:
                adj[x].append(y)
                adj[y].append(x)
        out = []
        seen: set[int] = set()
        for m in heads:
            if m in seen:
                continue
            piece = {m}
            todo = [m]
            while todo:
                for x in adj[todo.pop()]:
                    if x not in piece:
                        piece.add(x)
                        todo.append(x)
            seen |= piece
            for i, h in enumerate(heads):
                if h in piece:
                    piece.update(b.city_posts[b.majors[i]])
            out.append(piece)
        return out

    def _reconnect(self, q: int, edges: frozenset[int], closed: set[int]) -> frozenset[int] | None:
        """A witness for ``q``'s graph with ``closed`` closed, made of ``edges`` (all in that
        graph) and paths that join its pieces again (two-sided searches from the smallest
        piece to the others); None: some piece cannot be joined (the graph does not connect
        the major cities)."""
        ends = self.game.board.edge_ends
        while True:
            pieces = self._pieces(edges, closed)
            if len(pieces) == 1:
                piece = pieces[0]
                return frozenset(f for f in edges if ends[f][0] in piece)
            pieces.sort(key=len)
            rest = [m for piece in pieces[1:] for m in piece]
            side, path = self._split_path(q, list(pieces[0]), rest, -1, closed)
            if side is not None:
                return None
            edges = edges.union(path)

    def _after_build(self, p: int, e: int, a: int, d: int, filled: int) -> None:
        """Keep every other seat's witnesses whole after ``p`` built ``e`` (from ``a`` in
        direction ``d``) and, when ``filled >= 0``, took the last place on that line."""
        g = self.game
        wit = self._wit_cache
        alts = self._alt_cache
        owner = self.edge_owner
        if filled >= 0:
            owners = self.link_owners[filled]
            lost = g.port_edges[filled]
        for q in range(g.num_players):
            if q == p:
                continue
            w = wit[q]
            if not w or w is True:
                continue
            if filled >= 0 and q not in owners and not w.isdisjoint(lost):
                alt = alts.get(filled * 8 + q)
                if isinstance(alt, frozenset):
                    wit[q] = alt
                else:
                    gone = [f for f in lost if owner[f] != q]
                    got = self._reconnect(q, w.difference(gone), self._closed(q))
                    wit[q] = False if got is None else got
            elif e in w:
                self._reroute(q, w, e, a, d)
        if not alts:
            return
        drop = []
        moved: dict[int, frozenset[int]] = {}  # key -> its alt moved off e
        made: dict[int, frozenset[int]] = {}  # id(alt) -> the same (alts are shared)
        detour = g.detours.get(e)
        if detour is not None and any(owner[f] >= 0 for f in detour):
            detour = None
        for key, alt in alts.items():
            k, q = divmod(key, 8)
            if q == p:
                if k == filled or p in self.link_owners[k]:
                    drop.append(key)  # p owns the line now: never closed to p
            elif k == filled:
                drop.append(key)  # used above
            elif isinstance(alt, frozenset):
                if filled >= 0 and q not in owners and not alt.isdisjoint(lost):
                    drop.append(key)  # found again when asked
                elif e in alt:
                    # a detour of unowned edges without ports is in that graph too
                    if detour is None:
                        drop.append(key)
                    else:
                        new = made.get(id(alt))
                        if new is None:
                            new = made[id(alt)] = alt.difference((e,)).union(detour)
                        drop.append(key)
                        moved[key] = new
        if drop:
            if not self._owns_alt_cache:
                self._alt_cache = dict(alts)
                self._owns_alt_cache = True
            alts = self._alt_cache
            for key in drop:
                new = moved.get(key)
                if new is None:
                    del alts[key]
                else:
                    alts[key] = new

    def _track_lost(self, p: int, m: int) -> None:
        """Seat ``p`` lost a segment at ``m`` (a flood freed it, a trade sold it): the other
        seats' graphs only gained, so their witnesses hold; "blocks" answers and the
        closed-line witnesses are forgotten, "does not connect" is asked again, and p's own
        witness is found again if it held that segment and p may not use it now."""
        self._listing_cache = None
        self._majors_cache = {}
        self._owns_majors_cache = True
        if self._cut_cache:
            self._cut_reset()
        if self._alt_cache:
            self._alt_cache = {}
            self._owns_alt_cache = True
        wit = self._wit_cache
        for q, w in enumerate(wit):
            if w is False:
                wit[q] = None
        w = wit[p]
        if w:
            assert isinstance(w, frozenset)
            for _, f in self.game.adj[m]:
                if f in w and not self._edge_open(p, f):
                    wit[p] = None
                    break

    def _keep(self, key: int, answer: bool) -> None:
        """Keep an answer found by cutting a seat's graph in ``_cut_cache`` (copying it first
        if a clone shares it)."""
        if not self._owns_cut_cache:
            self._cut_cache = dict(self._cut_cache)
            self._owns_cut_cache = True
        self._cut_cache[key] = answer

    # -- the check from scratch (the tests' reference) --------------------------------------

    def blocked_by_build_reference(self, p: int, a: int, d: int) -> int:
        """:meth:`blocked_by_build` computed from scratch, without anything kept: the tests'
        reference (local tests, then per seat a two-sided search round the edge, or for the
        last place on a line the searches of :meth:`_fill_blocks`)."""
        g = self.game
        b = g.board
        i = a * 6 + d
        e = b.eid[i]
        to = b.nb[i]
        owner = self.edge_owner
        for e1, f1 in g.tri[e]:
            if owner[e1] < 0 and owner[f1] < 0:
                return -1
        if self._ring(a, d) or self._ring(to, (d + 3) % 6):
            return -1
        # the two triangles of the lattice on e: a -> c -> to
        d1, d2 = (d + 1) % 6, (d + 5) % 6
        c1, c2 = b.nb[a * 6 + d1], b.nb[a * 6 + d2]
        e1, e2 = b.eid[a * 6 + d1], b.eid[a * 6 + d2]
        f1 = b.eid[c1 * 6 + d2] if c1 >= 0 else -1
        f2 = b.eid[c2 * 6 + d1] if c2 >= 0 else -1
        k = b.link_at[to]
        owners = self.link_owners[k] if k >= 0 else []
        fills = k >= 0 and p not in owners and len(owners) + 1 >= b.links[k].capacity
        for q in range(g.num_players):
            if q == p:
                continue
            if fills and q not in owners:
                if self._fill_blocks(q, p, e, k):
                    return q
                continue
            if f1 >= 0 and e1 >= 0 and self._edge_open(q, e1) and self._edge_open(q, f1):
                continue
            if f2 >= 0 and e2 >= 0 and self._edge_open(q, e2) and self._edge_open(q, f2):
                continue
            if self._blocks_reference(q, e, a, to):
                return q
        return -1

    def _ring(self, u: int, du: int) -> bool:
        """Are ``u`` and its neighbour ``v`` in direction ``du`` joined by unowned edges
        without ports (so in everyone's graph) round the hexagon about ``u``?"""
        return self._ring_path(u, du) is not None

    def _blocks_reference(self, q: int, e: int, a: int, to: int) -> bool:
        """Would building edge ``e`` (from ``a`` to ``to``) disconnect the major cities in
        ``q``'s available graph? (From scratch.)"""
        if not self._edge_open(q, e):
            return False
        return self._cuts(q, self._split(q, [a], [to], e, self._closed(q)))

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

    def _split_path(
        self, q: int, a: list[int], c: list[int], skip: int, closed: set[int]
    ) -> tuple[set[int] | None, tuple[int, ...]]:
        """:meth:`_split` of the mileposts ``a`` and ``c``, and when they are connected the
        lattice edges of a path joining them (its other steps are ferry lines and major
        cities' red areas)."""
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
        return self._connects_majors(q)

    def _fill_search(self, q: int, p: int, e: int, k: int) -> bool:
        """:meth:`_fill_blocks` by a search of ``q``'s whole graph with ``e`` built and
        link ``k`` full."""
        if not self._connects_majors(q):
            return False
        self.edge_owner[e] = p
        self.link_owners[k].append(p)
        try:
            joined = self._connects_majors(q)
        finally:
            self.link_owners[k].pop()
            self.edge_owner[e] = -1
        return not joined

    def _fill_blocks(self, q: int, p: int, e: int, k: int) -> bool:
        """Would ``p`` taking the last place on link ``k`` (by building ``e`` to one of its
        ports) disconnect the major cities for ``q``? Both ports then close to ``q``: the
        graph loses them (and the line). When the open neighbours of each port stay joined
        around it, two pieces at most remain, one by each port: a two-sided search between
        them decides; otherwise a search of the whole graph does."""
        ends = self.game.board.links[k].ends
        closed = self._closed(q) | set(ends)
        sides = []
        ring: list[int] = []  # the hexagon edges that join each port's neighbours
        for port in ends:
            side = self._around(q, port, closed, ring)
            if side is None:
                return self._fill_search(q, p, e, k)
            sides.append(side)
        if not sides[0] or not sides[1]:
            return False
        return self._cuts(q, self._split(q, sides[0], sides[1], -1, closed))

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

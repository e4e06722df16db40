"""Eurorails routes for people: the cheapest legal track to a place, a move along the track
to a place, and the farthest reach of the train this turn.

A route is a list of the engine's atomic actions (``build 612>613``, ``move 613``,
``ferry P2``): the planner only searches, the rules stay in the engine. Every segment a
planned route builds is checked by the engine's own build refusal, applied in order on a
copy of the state, so that a route's cost is exactly the sum of its atomic builds.

Building (rulebook "Building Railroads", "Building Costs", "Right to Enter Major Cities",
"Limits on Building from Major Cities", "Limits on Entry into Medium and Small Cities",
"Ferry Ports", "The Chunnel", "No Credit / No Loans") is a Dijkstra search over
``(milepost, segments built out of major-city mileposts)``: from the player's network and
every major-city milepost (cost 0), each free segment costs what the engine charges for it
(:meth:`~.building.BuildingRules.build_cost`: terrain, river +2, lake or inlet +3, a ferry
or the Chunnel its whole cost once, then its far port joins the route at no cost). A
segment the engine refuses in the position reached is left out and the search runs again.
The 20 million of a turn (and the player's cash) then split the route: the part that fits
now, and the rest (built in later turns, each with 20 million and two segments out of
major cities).

>>> import motherlode
>>> from motherlode.games.eurorails.routes import plan_build, place_posts
>>> s = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
>>> r = plan_build(s, s.current_player(), place_posts(s, "Lyon"), place_posts(s, "Paris"))
>>> r.cost == sum(r.costs), r.cost >= len(r.builds)
(True, True)
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from motherlode.core.protocol import Action
from motherlode.games.eurorails import places
from motherlode.games.eurorails.board import OUTPOST
from motherlode.games.eurorails.constants import BUILD, OPS, SPEND_LIMIT
from motherlode.games.eurorails.game import EurorailsState

MAJOR_LIMIT = 2
"""Rulebook, "Limits on Building from Major Cities": "a player may not build more than two
track segments from major city mileposts" a turn."""

REPLANS = 40
"""How many refused segments the build search leaves out before it gives up."""

LATER = 10**6
"""Cash assumed for the turns after this one (the rest of a route is only a plan)."""


@dataclass(frozen=True)
class BuildRoute:
    """A planned route of track: the atomic builds in order and each one's cost."""

    builds: tuple[Action, ...]
    costs: tuple[int, ...]
    now: int
    """How many of :attr:`builds` fit this turn (the 20 million, cash, two out of majors)."""

    @property
    def cost(self) -> int:
        return sum(self.costs)

    @property
    def now_cost(self) -> int:
        return sum(self.costs[: self.now])

    posts: tuple[int, ...] = ()
    """The mileposts of each segment in order: its start, then where it goes."""

    def segments(self) -> list[tuple[int, int]]:
        """Each build as ``(from, to)``."""
        return list(zip(self.posts[0::2], self.posts[1::2], strict=True))


@dataclass(frozen=True)
class MoveRoute:
    """A planned move: the atomic actions this turn, the mileposts passed, and the fees."""

    actions: tuple[Action, ...]
    posts: tuple[int, ...]
    """The mileposts the train passes, its start first and where it stops this turn last."""
    fee: int
    arrives: bool
    """The train reaches the place this turn (else it stops at a ferry or out of moves)."""
    left: int
    """Mileposts of the route left for later turns (0 when it arrives)."""


def place_posts(state: EurorailsState, text: str) -> list[int]:
    """The mileposts of a place: a city's (every milepost of a major city), or one milepost
    by its name (``Paris-NE``, a square ``AD46``, a legacy number). Case and accents do not
    matter; unknown text raises :class:`NotationError` naming it, with the nearest names.

    >>> import motherlode
    >>> s = motherlode.load("eurorails", players=2).new_initial_state()
    >>> len(place_posts(s, "paris")), len(place_posts(s, "Lyon")), len(place_posts(s, "munchen"))
    (7, 1, 1)
    >>> place_posts(s, "Paris-NE") == [s.game.board.nb[place_posts(s, "Paris")[0] * 6 + 1]]
    True
    """
    b = state.game.board
    key = places.fold(text)
    cities = {places.fold(name): k for k, name in enumerate(b.city_names)}
    k = cities.get(key)
    if k is not None:
        return list(b.city_posts[k])
    return [places.milepost_index(b, text)]


def post_name(state: EurorailsState, m: int) -> str:
    """A milepost as a route names it: its city (a major city's outposts too, so that a
    route out of Paris is "Paris–Lyon"), else its name on the map (a square, ``AD46``)."""
    b = state.game.board
    c = b.city_of[m]
    return b.city_names[c] if c >= 0 else places.milepost_name(b, m)


# -- building ---------------------------------------------------------------------------


def segment_refusal(state: EurorailsState, p: int, a: int, d: int) -> str | None:
    """Why ``p`` may not build from ``a`` in direction ``d`` as a step of a route (None:
    it may): the engine's rules that do not depend on the route already being built (the
    source of the segment, the money and the count out of major cities are the search's)."""
    b = state.game.board
    e = b.eid[a * 6 + d]
    if e < 0 or b.edge_internal[e] or state.edge_owner[e] >= 0:
        return "no free segment there"
    why = state.site_refusal(p, a, b.nb[a * 6 + d], e)
    if why:
        return why
    if state.blocked_by_build(p, a, d) >= 0:
        return "it would block a player from connecting all the major cities"
    return None


def _search(
    state: EurorailsState,
    p: int,
    targets: set[int],
    sources: set[int],
    banned: set[int],
    region: set[int] | None,
    cap: int,
) -> list[int] | None:
    """The cheapest list of segments (``a * 6 + d``) from ``sources`` to a target, or None.
    A segment into a ferry port (or a Chunnel end) of a line ``p`` does not own is followed
    by the far port at no cost (marked ``-1 - far`` in the list)."""
    b = state.game.board
    heap: list[tuple[int, int, int, int]] = []
    best: dict[tuple[int, int], int] = {}
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {}
    for m in sorted(sources):
        best[(m, 0)] = 0
        parent[(m, 0)] = None
        heap.append((0, 0, m, 0))
    heapq.heapify(heap)
    costs: dict[int, int] = {}
    while heap:
        cost, steps, m, k = heapq.heappop(heap)
        key = (m, k)
        if best.get(key, -1) != cost:
            continue
        if m in targets and parent[key] is not None:
            return _unwind(parent, key)
        out: list[tuple[int, int, tuple[int, int], int]] = []
        info = parent[key]
        built_into = info is not None and info[1] >= 0
        link = b.link_at[m]
        if built_into and link >= 0 and p not in state.link_owners[link]:
            ends = b.links[link].ends
            far = ends[1] if ends[0] == m else ends[0]
            out.append((0, -1 - far, (far, k), 0))
        k2 = k + 1 if b.terrain[m] == OUTPOST else k
        if k2 <= cap:
            for d in range(6):
                seg = m * 6 + d
                to = b.nb[seg]
                if to < 0 or seg in banned or (region is not None and to not in region):
                    continue
                c = costs.get(seg)
                if c is None:  # -1: refused (the rules that do not depend on the route)
                    ok = segment_refusal(state, p, m, d) is None
                    c = costs[seg] = state.build_cost(p, m, d) if ok else -1
                if c >= 0:
                    out.append((c, seg, (to, k2), 1))
        for c, seg, nkey, s in out:
            nc = cost + c
            if nc < best.get(nkey, 1 << 30):
                best[nkey] = nc
                parent[nkey] = (key, seg)
                heapq.heappush(heap, (nc, steps + s, nkey[0], nkey[1]))
    if targets & sources:
        return []
    return None


def _unwind(
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None], key: tuple[int, int]
) -> list[int]:
    out: list[int] = []
    info = parent[key]
    while info is not None:
        prev, seg = info
        out.append(seg)
        info = parent[prev]
    out.reverse()
    return out


def _budget(state: EurorailsState, p: int) -> int:
    return min(SPEND_LIMIT - state.spent, state.cash[p])


def build_sources(state: EurorailsState, p: int) -> set[int]:
    """Where ``p`` may build from: his network and every major-city milepost."""
    return set(state.net[p]) | set(state.game.board.major_posts)


def plan_build(
    state: EurorailsState,
    p: int,
    targets: list[int] | set[int],
    sources: list[int] | set[int] | None = None,
    region: set[int] | None = None,
) -> BuildRoute | None:
    """The cheapest legal track for ``p`` from ``sources`` (default: his network and the
    major cities) to any milepost of ``targets``; None when there is none (or the route
    is already there: then an empty route). ``region`` keeps the search inside a set of
    mileposts (the tests' exhaustive comparison)."""
    goal = set(targets)
    start = build_sources(state, p) if sources is None else set(sources)
    if goal & start and (sources is None or goal & set(state.net[p])):
        return BuildRoute((), (), 0)
    cap = MAJOR_LIMIT - state.from_major
    if cap <= 0:  # none left this turn: the route is for the next turn
        cap = MAJOR_LIMIT
    banned: set[int] = set()
    for _ in range(REPLANS):
        segs = _search(state, p, goal, start, banned, region, cap)
        if segs is None:
            return None
        checked = _check(state, p, segs)
        if isinstance(checked, BuildRoute):
            return checked
        banned.add(checked)
    return None


def _check(state: EurorailsState, p: int, segs: list[int]) -> BuildRoute | int:
    """The route ``segs`` applied in order on a copy by the engine's own build refusal,
    turn by turn: a :class:`BuildRoute`, or the first segment the engine refuses."""
    walked = _walk(state, p, segs)
    return walked if isinstance(walked, BuildRoute) else walked[0]


def _walk(state: EurorailsState, p: int, segs: list[int]) -> BuildRoute | tuple[int, str]:
    """:func:`_check`, the refused segment with the engine's reason."""
    s = state.clone()
    if s.phase != BUILD:
        s.spent = s.from_major = 0
    builds: list[int] = []
    costs: list[int] = []
    posts: list[int] = []
    now = -1
    b = state.game.board
    for seg in segs:
        if seg < 0:
            continue
        a, d = divmod(seg, 6)
        cost = s.build_cost(p, a, d)
        over_major = b.terrain[a] == OUTPOST and s.from_major >= MAJOR_LIMIT
        if cost > _budget(s, p) or over_major:
            if now < 0:
                now = len(builds)
            s.spent = s.from_major = 0  # a later turn
            s.cash[p] = max(s.cash[p], LATER)
        why = s.build_refusal(p, a, d)
        if why is not None:
            return (seg, why)
        s._build(p, a, d)
        builds.append(seg)
        costs.append(cost)
        posts.extend((a, b.nb[seg]))
    if now < 0:
        now = len(builds)
    if state.phase != BUILD:
        now = 0
    return BuildRoute(tuple(builds), tuple(costs), now, tuple(posts))


def plan_survey(state: EurorailsState, p: int, waypoints: list[int]) -> BuildRoute | str:
    """The track ``p`` surveys by hand through ``waypoints`` (mileposts in order, the
    first on his network or a major city), or why it cannot be built. Two neighbouring
    waypoints are the segment between them (left out when it is ``p``'s track already:
    a survey may follow his own track to its end); two others are joined by the cheapest
    legal track between them, as :func:`plan_build` finds it. The whole route is then
    applied in order by the engine's build refusal, so its cost is the sum of its atomic
    builds, split into this turn's part and the rest like any planned route.

    >>> import motherlode
    >>> s = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
    >>> at = [place_posts(s, x)[0] for x in ("Paris-SW", "Z39", "AA39")]
    >>> r = plan_survey(s, s.current_player(), at)
    >>> [post_name(s, m) for m in r.posts], r.costs, r.now
    (['Paris', 'Z39', 'Z39', 'AA39'], (1, 1), 2)
    >>> plan_survey(s, s.current_player(), at[1:])
    "Z39 is neither on P1's track nor a major city"
    """
    b = state.game.board
    if len(waypoints) < 2:
        return "a survey needs two mileposts or more"
    first = waypoints[0]
    if first not in state.net[p] and first not in b.major_posts:
        return f"{post_name(state, first)} is neither on P{p + 1}'s track nor a major city"
    segs: list[int] = []
    for a, c in itertools.pairwise(waypoints):
        if a == c:
            continue
        leg = _leg(state, p, a, c)
        if leg is None:
            names = f"{places.milepost_name(b, a)} and {places.milepost_name(b, c)}"
            return f"no legal track joins {names}"
        segs.extend(leg)
    walked = _walk(state, p, segs)
    if isinstance(walked, BuildRoute):
        return walked
    seg, why = walked
    a = seg // 6
    names = f"{places.milepost_name(b, a)}>{places.milepost_name(b, b.nb[seg])}"
    return f"{names}: {why}"


def _leg(state: EurorailsState, p: int, a: int, c: int) -> list[int] | None:
    """The segments from ``a`` to ``c`` in a survey (see :func:`plan_survey`)."""
    b = state.game.board
    for d in range(6):
        if b.nb[a * 6 + d] == c:
            e = b.eid[a * 6 + d]
            own = e >= 0 and (state.edge_owner[e] == p or b.edge_internal[e])
            return [] if own else [a * 6 + d]
    return _search(state, p, {c}, {a}, set(), None, MAJOR_LIMIT)


# -- moving -----------------------------------------------------------------------------


def _move_options(s: EurorailsState, own_only: bool) -> list[Action]:
    g = s.game
    p = s.current_player()
    out = []
    for d in range(6):
        if s.move_refusal(p, d) is None:
            e = g.board.eid[s.pos[p] * 6 + d]
            o = s.edge_owner[e]
            if own_only and o >= 0 and o != p:
                continue
            out.append(g.MOVE0 + d)
    if s._chunnel_refusal(p) is None:
        k = g.board.link_at[s.pos[p]]
        o = s.link_owners[k][0]
        if not (own_only and o != p):
            out.append(g.CHUNNEL_MOVE)
    return out


Snap = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], int]
"""What a move changes: the train's milepost and the one it came from, the movement left,
the half-rate bits, the rent paid this turn, the cash, and the fees owed (Late Payment)."""


def _save(w: EurorailsState, p: int) -> Snap:
    return (w.pos[p], w.prev[p], w.moves, w.halved, tuple(w.rented), tuple(w.cash), len(w.late))


def _load(w: EurorailsState, p: int, snap: Snap) -> None:
    w.pos[p], w.prev[p], w.moves, w.halved = snap[0], snap[1], snap[2], snap[3]
    w.rented[:] = snap[4]
    w.cash[:] = snap[5]
    del w.late[snap[6] :]


def _step(w: EurorailsState, p: int, a: Action) -> None:
    """One move (or the Chunnel) by the engine's own rule methods, on the probe ``w``."""
    g = w.game
    if a == g.CHUNNEL_MOVE:
        w._chunnel(p)
    else:
        w._move(p, a - g.MOVE0)


def plan_move(state: EurorailsState, targets: list[int] | set[int]) -> MoveRoute | None:
    """The train's route to ``targets`` along track (its own first; others' track only
    when its own does not reach, with the use fee): the moves of this turn, stopping where
    the place is reached, at a ferry port (it boards the ferry, "stop moving for that
    turn"), or at the end of the movement. None: no track leads there."""
    if state.phase != OPS or state.current_player() < 0:
        return None
    p = state.current_player()
    if state.pos[p] < 0:
        return None
    goal = set(targets)
    if state.pos[p] in goal:
        return MoveRoute((), (state.pos[p],), 0, True, 0)
    for own_only in (True, False):
        found = _move_search(state, goal, own_only)
        if found is not None:
            return _trim(state, found)
    return None


def _move_search(state: EurorailsState, goal: set[int], own_only: bool) -> list[Action] | None:
    """Fewest-fee then fewest-milepost actions to ``goal`` with unlimited movement, the
    engine's move rules (reversing only in cities, rent) applied on one probe copy whose
    moving fields are saved and restored; a ferry port on the way is boarded when the
    place lies beyond it."""
    p = state.current_player()
    w = state.clone()
    w.moves = 10**4
    start = _save(w, p)
    key0 = (start[0], start[1], start[4])
    heap: list[tuple[int, int, int, tuple[int, int, tuple[int, ...]]]] = [(0, 0, 0, key0)]
    states: dict[tuple[int, int, tuple[int, ...]], tuple[Snap, list[Action]]] = {key0: (start, [])}
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    tick = 0
    ferries: list[tuple[int, int, list[Action], Snap]] = []
    b = w.game.board
    while heap:
        fee, steps, _, key = heapq.heappop(heap)
        if key in seen:
            continue
        seen.add(key)
        snap, acts = states[key]
        if snap[0] in goal:
            return acts
        _load(w, p, snap)
        if b.link_at[snap[0]] >= 0:
            ferries.extend((fee, steps, [*acts, a], snap) for a in _ferry_actions(w))
        for a in _move_options(w, own_only):
            _step(w, p, a)
            after = _save(w, p)
            _load(w, p, snap)
            nkey = (after[0], after[1], after[4])
            if nkey in seen:
                continue
            old = states.get(nkey)
            if old is None or len(old[1]) > len(acts) + 1:
                states[nkey] = (after, [*acts, a])
                tick += 1
                nfee = fee + max(0, snap[5][p] - after[5][p])
                heapq.heappush(heap, (nfee, steps + 1, tick, nkey))
    for _, _, acts, snap in sorted(ferries, key=lambda f: (f[0], f[1])):
        _load(w, p, snap)
        if _beyond(w, goal, own_only):
            return acts
    return None


def _ferry_actions(w: EurorailsState) -> list[Action]:
    g = w.game
    return [a for a in w.legal_actions() if g.FERRY0 <= a < g.FERRY0 + 6]


def _beyond(s: EurorailsState, goal: set[int], own_only: bool) -> bool:
    """Does track lead from the far port of the ferry at ``s``'s train to ``goal``?"""
    b = s.game.board
    p = s.current_player()
    k = b.link_at[s.pos[p]]
    ends = b.links[k].ends
    far = ends[1] if ends[0] == s.pos[p] else ends[0]
    w = s.clone()
    w.pos[p], w.prev[p], w.halved, w.moves = far, -1, 0, 10**4
    first = _save(w, p)
    seen = {far}
    todo = [first]
    while todo:
        snap = todo.pop()
        if snap[0] in goal:
            return True
        _load(w, p, snap)
        for a in _move_options(w, own_only):
            _step(w, p, a)
            after = _save(w, p)
            _load(w, p, snap)
            if after[0] not in seen:
                seen.add(after[0])
                todo.append(after)
    return False


def _trim(state: EurorailsState, acts: list[Action]) -> MoveRoute:
    """The part of ``acts`` the train makes this turn (the engine's movement left)."""
    g = state.game
    p = state.current_player()
    s = state.clone()
    posts = [s.pos[p]]
    done: list[Action] = []
    for a in acts:
        if a not in s.legal_actions():
            break
        s.apply_unchecked(a)
        done.append(a)
        if not (g.FERRY0 <= a < g.FERRY0 + 6):
            posts.append(s.pos[p])
        if s.phase != OPS or s.current_player() != p:
            break
    arrives = len(done) == len(acts) and not (acts and g.FERRY0 <= acts[-1] < g.FERRY0 + 6)
    fee = max(0, state.cash[p] - s.cash[p])
    return MoveRoute(tuple(done), tuple(posts), fee, arrives, len(acts) - len(done))


def stop_for_loads(state: EurorailsState, route: MoveRoute) -> tuple[MoveRoute, str]:
    """``route`` cut at the first city it passes (not where it starts, not where it goes)
    where a load on the mover's demand cards can be picked up now, or a load on his train
    delivered for a card, and why ("" when it is not cut). Rulebook, "Picking Up and
    Delivering Loads": "A load may be picked up by a train passing through a city where
    the load is available" and "A player picking up or dropping off a load incurs no
    movement penalty and may still travel up to his full movement allowance": the train
    stops there, the person picks up or delivers (or not), then moves on with the
    movement left."""
    g = state.game
    b = g.board
    p = state.current_player()
    s = state.clone()
    here = b.city_of[s.pos[p]]
    wanted = {d.load for c in s.hands[p] for d in g.demands[c]}
    for k, a in enumerate(route.actions[:-1]):
        s.apply_unchecked(a)
        c = b.city_of[s.pos[p]]
        if c < 0 or c == here or s.current_player() != p:
            continue
        why = _load_business(s, wanted)
        if why:
            fee = max(0, state.cash[p] - s.cash[p])
            left = route.left + len(route.actions) - k - 1
            cut = MoveRoute(route.actions[: k + 1], route.posts[: k + 2], fee, False, left)
            return cut, f"stops at {b.city_names[c]}: {why}"
    return route, ""


def _load_business(s: EurorailsState, wanted: set[int]) -> str:
    """What the mover can do with loads here for his cards: ``"Wine can be delivered"``,
    ``"Wine can be picked up"`` (a load on a card, a chip in the tray, room on the
    train), or ""."""
    g = s.game
    picks, drops = [], []
    for a in s.legal_actions():
        text = s.action_to_string(a)
        if text.startswith("deliver "):
            drops.append(text[8:].split(" to ")[0])
        elif g.PICK0 <= a < g.DROP0 and a - g.PICK0 in wanted:
            picks.append(text[5:])
    if drops:
        return " and ".join(sorted(set(drops))) + " can be delivered"
    if picks:
        return " and ".join(sorted(set(picks))) + " can be picked up for your cards"
    return ""


def reach(state: EurorailsState) -> set[int]:
    """Every milepost the train of the seat to move can reach this turn (operations
    phase), along any track it may use now, rent included: the display's reach."""
    if state.phase != OPS or state.current_player() < 0:
        return set()
    p = state.current_player()
    if state.pos[p] < 0:
        return set()
    w = state.clone()
    first = _save(w, p)
    out = {first[0]}
    todo = [first]
    seen = {(first[0], first[1], first[2], first[4])}
    while todo:
        snap = todo.pop()
        _load(w, p, snap)
        for a in _move_options(w, own_only=False):
            _step(w, p, a)
            after = _save(w, p)
            _load(w, p, snap)
            key = (after[0], after[1], after[2], after[4])
            if key not in seen:
                seen.add(key)
                out.add(after[0])
                if after[2] > 0:
                    todo.append(after)
    return out

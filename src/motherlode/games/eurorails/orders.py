"""Eurorails commands for people (``state.expand``, DESIGN.md §2): a route is one command.

========================  ==============================================================
``build to Lyon``         the cheapest legal track from the player's network (a major
                          city when he has none) to the place; the part that fits this
                          turn is applied, the rest is shown
``build Paris-Lyon``      the same from a place on his network or a major city
``move to Lyon``          along his track (others' with the use fee) to the place, this
                          turn's part (it stops at a ferry and where the movement ends)
``pick Wine``             pick up a load here
``drop Wine``             deliver it here for the best payoff a card offers, else drop it
``upgrade``               the upgrade (named when there are two: ``upgrade Fast Freight``)
``discard``               discard the hand instead of the turn
``end``                   end the turn (the operations phase and the building phase)
========================  ==============================================================

Any atomic action (``build 612>613``, ``move 613``, ``end move``) is a command too.

>>> import motherlode
>>> s = motherlode.deal(motherlode.load("eurorails", players=2), seed=1)
>>> pv = s.preview("build Paris-Lyon")
>>> pv.summary
'P1 builds Paris–Lyon: 9 mileposts, 11 M'
>>> len(s.expand("build Paris-Lyon")), s.expand("end") == [s.game.END_BUILD]
(9, True)
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence
from typing import Any

from motherlode.core import svg as svgh
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.core.protocol import Action, Orders, Preview
from motherlode.games.eurorails import places
from motherlode.games.eurorails.board import CENTRE, OUTPOST
from motherlode.games.eurorails.constants import BUILD, OPS, SPEND_LIMIT
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.render import base_svg
from motherlode.games.eurorails.routes import (
    BuildRoute,
    MoveRoute,
    place_posts,
    plan_build,
    plan_move,
    plan_survey,
    post_name,
    reach,
    stop_for_loads,
)

DASHES = ("–", "—", "-")
ROUTE_COLOUR = "#d35400"


def _refuse(text: str, why: str, rule: str) -> IllegalActionError:
    return IllegalActionError(f"eurorails: {text!r}: {why} (rulebook: {rule})", rule=rule)


def _n(k: int, what: str) -> str:
    """``3 mileposts``, ``1 milepost``."""
    return f"{k} {what}" + ("" if k == 1 else "s")


def _words(text: str) -> str:
    return " ".join(text.split())


# -- parsing ------------------------------------------------------------------------------


def _split_route(state: EurorailsState, rest: str) -> tuple[list[int], list[int]] | None:
    """``Paris-Lyon`` as two places (a place name may hold a dash: every split is tried)."""
    for dash in DASHES:
        parts = rest.split(dash)
        for i in range(1, len(parts)):
            left, right = dash.join(parts[:i]).strip(), dash.join(parts[i:]).strip()
            if not left or not right:
                continue
            try:
                return place_posts(state, left), place_posts(state, right)
            except NotationError:
                continue
    return None


def _build_sources(state: EurorailsState, p: int) -> set[int]:
    """``build to``: from the network and the major cities it reaches (all of them
    while the player has no track)."""
    b = state.game.board
    net = set(state.net[p])
    if not net:
        return set(b.major_posts)
    for c in b.majors:
        posts = b.city_posts[c]
        if any(m in net for m in posts):
            net.update(posts)
    return net


def _build_route(state: EurorailsState, text: str) -> BuildRoute:
    t = _words(text)
    body = t[6:].strip()
    p = state.current_player()
    if state.phase != BUILD or p < 0:
        raise _refuse(
            t,
            "track is built in the building phase, after the train moves ('end move' first)",
            "How to Play",
        )
    if body.lower().startswith("to "):
        goal = place_posts(state, body[3:])
        sources = _build_sources(state, p)
    else:
        pair = _split_route(state, body)
        if pair is None:
            raise NotationError(
                f"eurorails: {t!r}: name two places, 'build Paris-Lyon', or one, 'build to Lyon'"
            )
        start, goal = pair
        b = state.game.board
        sources = {m for m in start if m in state.net[p] or b.terrain[m] in (CENTRE, OUTPOST)}
        if not sources:
            raise _refuse(
                t,
                f"{post_name(state, start[0])} is neither on P{p + 1}'s track nor a major city",
                "Building Railroads: Beginning Construction",
            )
        if b.terrain[start[0]] in (CENTRE, OUTPOST):
            sources = set(b.city_posts[b.city_of[start[0]]]) | (sources & set(state.net[p]))
    if set(goal) & sources and not state.net[p]:
        raise _refuse(
            t,
            f"P{p + 1} has no track yet: name where it starts, "
            f"'build Paris-{post_name(state, goal[0])}'",
            "Building Railroads",
        )
    if set(goal) & sources:
        raise _refuse(
            t, f"P{p + 1}'s track already reaches {post_name(state, goal[0])}", "Building Railroads"
        )
    route = plan_build(state, p, goal, sources)
    if route is None or not route.builds:
        raise _refuse(
            t,
            "no legal track leads there (right of way, city limits, ferry "
            "limits, red areas, the blocking rule)",
            "Building Railroads",
        )
    if route.now == 0:
        raise _refuse(t, _no_room(state, p, route), "Building Railroads; No Credit / No Loans")
    return route


def _survey_route(state: EurorailsState, text: str) -> BuildRoute:
    """``build Paris-SW>Z39>AA39``: track surveyed by hand through named mileposts (the
    map's drag), :func:`.routes.plan_survey`."""
    t = _words(text)
    p = state.current_player()
    if state.phase != BUILD or p < 0:
        raise _refuse(
            t,
            "track is built in the building phase, after the train moves ('end move' first)",
            "How to Play",
        )
    b = state.game.board
    names = [x.strip() for x in t[6:].split(">")]
    waypoints = [places.milepost_index(b, x) for x in names]
    route = plan_survey(state, p, waypoints)
    if isinstance(route, str):
        raise _refuse(t, route, "Building Railroads")
    if not route.builds:
        raise _refuse(t, f"P{p + 1}'s track is there already", "Building Railroads")
    if route.now == 0:
        raise _refuse(t, _no_room(state, p, route), "Building Railroads; No Credit / No Loans")
    return route


def _is_survey(state: EurorailsState, low: str) -> bool:
    """A build through mileposts that is not one atomic segment: two ``>`` or more, or
    one between two mileposts that are not neighbours."""
    if not low.startswith("build ") or ">" not in low:
        return False
    if low.count(">") >= 2:
        return True
    try:
        state.string_to_action(low)
    except NotationError:
        return True
    except IllegalActionError:
        return False
    return False


def _no_room(state: EurorailsState, p: int, route: BuildRoute) -> str:
    left = min(SPEND_LIMIT - state.spent, state.cash[p])
    if state.from_major >= 2:
        return "two segments were built out of major cities this turn already"
    return f"its first segment costs {route.costs[0]} and only {left} M can be spent now"


def _move_route(state: EurorailsState, text: str) -> tuple[MoveRoute, str]:
    """The move of ``move to <place>`` and why it stops short (:func:`.stop_for_loads`)."""
    route = _whole_move(state, text)
    return stop_for_loads(state, route)


def _whole_move(state: EurorailsState, text: str) -> MoveRoute:
    t = _words(text)
    p = state.current_player()
    if state.phase != OPS or p < 0:
        raise _refuse(t, "the train moves in the operations phase, before building", "How to Play")
    if state.pos[p] < 0:
        raise _refuse(
            t,
            "the train is not on the map yet ('start Paris' first)",
            "Hauling Freight: Starting Your Train",
        )
    goal = place_posts(state, t[8:])
    route = plan_move(state, goal)
    if route is None:
        raise _refuse(
            t,
            f"no track the train may use leads to {post_name(state, goal[0])}",
            "Running the Train",
        )
    if not route.actions:
        if route.arrives:
            raise _refuse(
                t, f"the train is at {post_name(state, goal[0])} already", "Running the Train"
            )
        raise _refuse(t, "the train has no movement left this turn", "Running the Train")
    return route


def _drop(state: EurorailsState, t: str) -> list[Action]:
    """``drop Wine``: the best delivery of it here, else the plain drop."""
    g = state.game
    name = t[5:].strip().lower()
    names = {x.lower(): k for k, x in enumerate(g.load_names)}
    if name not in names:
        raise NotationError(f"eurorails: {t!r}: no load {t[5:].strip()!r}")
    best: tuple[int, Action] | None = None
    for a in state.legal_actions():
        text = state.action_to_string(a)
        if text.lower().startswith(f"deliver {name} to "):
            pay = _payment(state, a)
            if best is None or pay > best[0]:
                best = (pay, a)
    if best is not None:
        return [best[1]]
    return [state.string_to_action(t)]


def _payment(state: EurorailsState, a: Action) -> int:
    g = state.game
    p = state.current_player()
    if g.DELIVER0 <= a < g.END_MOVE:
        slot, j = divmod(a - g.DELIVER0, 3)
        return g.demands[state.hands[p][slot]][j].payment
    return 0


def _upgrade(state: EurorailsState, t: str) -> list[Action]:
    g = state.game
    options = [a for a in state.legal_actions() if g.U0 <= a < g.END_BUILD]
    if len(options) == 1:
        return options
    if not options:
        raise _refuse(
            t,
            "no upgrade is open now (20 M instead of building, in the building "
            "phase, before any track)",
            "Loco (Locomotive) Cards",
        )
    names = " or ".join(f"'{state.action_to_string(a)}'" for a in options)
    raise NotationError(f"eurorails: {t!r}: which train? {names}")


def expand(state: EurorailsState, text: str) -> list[Action]:
    """The atomic actions of a command (see the module docstring)."""
    t = _words(text)
    low = t.lower()
    g = state.game
    if state.current_player() < 0:
        return [state.string_to_action(t)]
    if low.startswith("build ") and ">" not in low:
        route = _build_route(state, t)
        return list(route.builds[: route.now])
    if _is_survey(state, low):
        route = _survey_route(state, t)
        return list(route.builds[: route.now])
    if low.startswith("move to "):
        return list(_move_route(state, t)[0].actions)
    if low.startswith("drop "):
        return _drop(state, t)
    if low == "upgrade":
        return _upgrade(state, t)
    if low == "discard":
        return [g.DISCARD]
    if low == "end":
        if state.phase == OPS:
            return [g.END_MOVE, g.END_BUILD]
        return [g.END_BUILD]
    return [state.string_to_action(t)]


# -- previews ------------------------------------------------------------------------------


def _at(state: EurorailsState, m: int) -> tuple[float, float]:
    g = state.game
    x0, y1, scale, _ = base_svg(g.cfg.ferry_printing)
    x, y = g.board.xy[m]
    return (round((x - x0) * scale, 1), round((y1 - y) * scale, 1))


def _line(state: EurorailsState, a: int, c: int, dashed: bool) -> str:
    (ax, ay), (cx, cy) = _at(state, a), _at(state, c)
    style: dict[str, Any] = {"stroke_dasharray": "5 4", "stroke_opacity": 0.6} if dashed else {}
    return svgh.element(
        "line",
        x1=ax,
        y1=ay,
        x2=cx,
        y2=cy,
        stroke=ROUTE_COLOUR,
        stroke_width=4,
        stroke_linecap="round",
        **style,
    )


def _dot(state: EurorailsState, m: int, r: float, **style: Any) -> str:
    x, y = _at(state, m)
    return svgh.element("circle", cx=x, cy=y, r=r, **style)


def _label(state: EurorailsState, m: int, text: str) -> str:
    """The route's figure (its cost) written on the map beside where it ends, haloed."""
    x, y = _at(state, m)
    return svgh.element(
        "text",
        text,
        x=round(x + 9, 1),
        y=round(y - 9, 1),
        font_size=15,
        font_weight="bold",
        fill=ROUTE_COLOUR,
        stroke="#fff",
        stroke_width=4,
        paint_order="stroke",
    )


def _group(parts: list[str], title: str) -> str:
    return (
        f'<g class="route-preview" pointer-events="none"><title>{html.escape(title)}</title>'
        + "".join(parts)
        + "</g>"
    )


def _build_preview(state: EurorailsState, text: str, route: BuildRoute | None = None) -> Preview:
    route = _build_route(state, text) if route is None else route
    p = state.current_player()
    segs = route.segments()
    name = f"{post_name(state, segs[0][0])}–{post_name(state, segs[-1][1])}"
    now = route.now
    summary = f"P{p + 1} builds {name}: {_n(now, 'milepost')}, {route.now_cost} M"
    left = min(SPEND_LIMIT - state.spent, state.cash[p]) - route.now_cost
    details = [f"route {name}: {_n(len(segs), 'milepost')}, {route.cost} M in all"]
    details.append(f"now: {_n(now, 'milepost')} for {route.now_cost} M; {left} M left this turn")
    if now < len(segs):
        rest = route.cost - route.now_cost
        details.append(
            f"the rest, {_n(len(segs) - now, 'milepost')} for {rest} M, in a later turn "
            f"(from {post_name(state, segs[now][0])})"
        )
    parts = [_line(state, a, c, i >= now) for i, (a, c) in enumerate(segs)]
    parts.append(_dot(state, segs[-1][1], 6, fill="none", stroke=ROUTE_COLOUR, stroke_width=2))
    parts.append(_label(state, segs[-1][1], f"{route.now_cost} M"))
    return Preview(
        text,
        summary,
        route.builds[:now],
        tuple(details),
        _group(parts, summary),
        _texts(state, route.builds[:now]),
    )


def _texts(state: EurorailsState, actions: Sequence[Action]) -> tuple[str, ...]:
    probe = state.clone()
    out = []
    for a in actions:
        out.append(probe.action_to_string(a))
        probe.apply_unchecked(a)
    return tuple(out)


def _move_preview(state: EurorailsState, text: str) -> Preview:
    route, why = _move_route(state, text)
    p = state.current_player()
    g = state.game
    posts = route.posts
    name = f"{post_name(state, posts[0])}–{post_name(state, posts[-1])}"
    steps = len(posts) - 1
    summary = f"P{p + 1} moves {name}: {_n(steps, 'milepost')}"
    if route.fee:
        summary += f", {route.fee} M in use fees"
    details = []
    if why:
        details.append(f"{why}; '{_words(text)}' again goes on")
    elif route.actions and g.FERRY0 <= route.actions[-1] < g.FERRY0 + 6:
        details.append(f"boards the ferry at {post_name(state, posts[-1])}: the move ends here")
    elif not route.arrives:
        details.append(
            f"the movement ends at {post_name(state, posts[-1])}; "
            f"{_n(route.left, 'more milepost')} in a later turn"
        )
    details.append(f"{_n(state.moves - steps, 'milepost')} of movement left after it")
    parts = [_dot(state, m, 4, fill=ROUTE_COLOUR, fill_opacity=0.18) for m in sorted(reach(state))]
    parts += [_line(state, a, c, False) for a, c in itertools.pairwise(posts)]
    parts.append(_dot(state, posts[-1], 6, fill="none", stroke=ROUTE_COLOUR, stroke_width=2))
    figure = f"{steps} mileposts" + (f", {route.fee} M" if route.fee else "")
    parts.append(_label(state, posts[-1], figure))
    return Preview(
        text,
        summary,
        route.actions,
        tuple(details),
        _group(parts, summary),
        _texts(state, route.actions),
    )


def preview(state: EurorailsState, text: str) -> Preview:
    """What the command would do: its log line, the cost and what remains, its actions,
    and the route drawn as an SVG group in the map's coordinates."""
    t = _words(text)
    low = t.lower()
    if state.current_player() >= 0 and low.startswith("build ") and ">" not in low:
        return _build_preview(state, t)
    if state.current_player() >= 0 and low.startswith("build ") and ">" in low:
        return _build_preview(state, t, _survey_route(state, t))
    if state.current_player() >= 0 and low.startswith("move to "):
        return _move_preview(state, t)
    actions = expand(state, t)
    p = state.current_player()
    probe = state.clone()
    texts = []
    for a in actions:
        if probe.current_player() != p:  # a card drawn between them: checked when applied
            break
        texts.append(probe.action_to_string(a))
        probe.apply_action(a)
    said = ", ".join(describe(state, actions))
    return Preview(t, f"P{p + 1} {said}" if p >= 0 else said, tuple(actions), texts=tuple(texts))


# -- one line for a run of actions ----------------------------------------------------------


def describe(state: EurorailsState, actions: Sequence[Action]) -> list[str]:
    """Phrases for ``actions`` from ``state`` on: consecutive builds as one route,
    consecutive moves as one move, the rest in short words."""
    g = state.game
    s = state.clone()
    out: list[str] = []
    run: list[int] = []
    kind = ""
    cost = 0

    def flush() -> None:
        nonlocal run, kind, cost
        if run:
            name = f"{post_name(state, run[0])}–{post_name(state, run[-1])}"
            n = len(run) - 1
            posts = f"{n} milepost{'' if n == 1 else 's'}"
            if kind == "build":
                out.append(f"builds {name} ({posts}, {cost} M)")
            else:
                out.append(f"moves {name} ({posts})")
        run, kind, cost = [], "", 0

    for a in actions:
        p = s.current_player()
        if p < 0:
            flush()
            s.apply_unchecked(a)
            continue
        if a < g.U0:
            src, to = a // 6, g.board.nb[a]
            if kind != "build" or run[-1] != src:
                flush()
                kind, run = "build", [src]
            cost += s.build_cost(p, src, a % 6)
            run.append(to)
        elif g.MOVE0 <= a < g.CHUNNEL_MOVE or a == g.CHUNNEL_MOVE:
            if kind != "move":
                flush()
                kind, run = "move", [s.pos[p]]
            s.apply_unchecked(a)
            run.append(s.pos[p])
            continue
        else:
            flush()
            out.append(_phrase(s, a))
        s.apply_unchecked(a)
    flush()
    return out


def _phrase(s: EurorailsState, a: Action) -> str:
    g = s.game
    text = s.action_to_string(a)
    if a == g.END_BUILD:
        return "ends the turn"
    if a == g.END_MOVE:
        return "ends the move"
    if a == g.DISCARD:
        return "discards the hand"
    for verb, said in (
        ("pick ", "picks up "),
        ("drop ", "drops "),
        ("deliver ", "delivers "),
        ("upgrade ", "upgrades to "),
        ("start ", "starts the train in "),
        ("ferry ", "boards the ferry of "),
    ):
        if text.startswith(verb):
            return said + text[len(verb) :]
    return text


EXAMPLES = (
    ("build to Lyon", "the cheapest track from your network to a place"),
    ("build Paris-Lyon", "the cheapest track between two places"),
    ("move to Lyon", "the train along the track to a place"),
    ("pick Wine", "pick up a load here"),
    ("drop Wine", "deliver it here (else drop it)"),
    ("upgrade", "upgrade the train"),
    ("discard", "discard the hand instead of the turn"),
    ("end", "end the turn"),
)


def ends_turn(state: EurorailsState, action: Action) -> bool:
    """``end turn`` ends a turn (and so does boarding a ferry with ``end`` to follow)."""
    return action == state.game.END_BUILD


ORDERS: Orders[EurorailsState] = Orders(
    expand=expand, preview=preview, describe=describe, examples=EXAMPLES, ends_turn=ends_turn
)

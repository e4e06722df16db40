"""Yukon in words: one sentence per action, and the end of the game explained.

Asked before the action is applied (DESIGN.md §2): a take looks ahead on a copy to say
what the card does and who takes next from which line. Yukon hides nothing, so every seat
reads the same sentence.

>>> import motherlode
>>> s = motherlode.load("yukon").new_initial_state()
>>> s.narrate(s.string_to_action("deal +8"))
'deal: Gold 8 to a1'
"""

from __future__ import annotations

from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.cards import PAN, PEBBLE0, SHERIFF, TOWNSFOLK0
from motherlode.games.yukon.game import (
    CMDR,
    COL,
    DISC0,
    DRAW0,
    NONE,
    PAN_DRAW,
    ROW,
    SMITH,
    TEACH,
    TRAP,
    YukonGame,
    YukonState,
)


def _seat(p: int) -> str:
    return f"P{p + 1}"


def _line(g: YukonGame, axis: int, pos: int) -> str:
    """The line the next take must come from: ``row 5``, ``column d`` or both."""
    r, c = divmod(pos, g.size)
    row, col = f"row {r + 1}", f"column {chr(ord('a') + c)}"
    return row if axis == ROW else col if axis == COL else f"{row} or {col}"


def _card(kind: int) -> str:
    """A taken card and its worth: ``+8 gold``, ``-3 pebble`` or the Townsfolk's name."""
    if kind < PEBBLE0:
        return f"+{C.VALUES[kind]} gold"
    if kind < SHERIFF:
        return f"-{C.VALUES[kind - PEBBLE0]} pebble"
    return f"the {C.name(kind)}"


_KEPT = {
    C.SWINDLER: "at the end it halves one Pebble card",
    C.COURIER: "once: change direction for one take; kept unused: +1 per Pebble card",
    C.INNKEEPER: "once: take diagonally; kept unused: +1 per Townsfolk card",
    C.TELEGRAPH: "once: move the Prospector before a take; kept unused: +1 per Gold card"
    " left on the table",
}


def _what_follows(state: YukonState, after: YukonState, kind: int) -> str:
    """What the taken card does (``kind``), seen on ``after``, the position after the take."""
    p = _seat(state.player)
    if kind < SHERIFF:
        return ""
    if kind == PAN:
        return f": a Gold nugget disc is turned up for {p}"
    if kind == C.TRAPPER:
        if after.pending == TRAP:
            return f": {p} must give up one of their Gold cards"
        return ": with no Gold card to give up, it is discarded at once"
    if kind == C.GOLDSMITH:
        if after.pending == SMITH:
            return f": {p} gets rid of one of their Pebble cards"
        return ": with no Pebble card to get rid of, it is discarded at once"
    if kind == C.COMMANDER:
        if after.pending == CMDR:
            return f": {p} may take back a discarded Gold card, or keep the Commander"
        return ": no Gold card lies beside the area, so it is kept (it scores the discs at the end)"
    if kind == C.JAILER:
        return ": the turn order reverses" + ("" if after.over else f" and {p} takes again")
    if kind == C.TEACHER:
        if after.pending == TEACH:
            return f": {p} draws a random card from another player"
        return ": no other player has a card to draw from"
    return f" ({_KEPT[kind]})"


def _next(g: YukonGame, after: YukonState) -> str:
    """Who takes next from which line, or why the game ends; empty while the turn goes on."""
    if after.over:
        return (
            f"; the game ends ({after.termination()}) and {_seat(after.last)} gets the"
            f" Prospector (+{g.prospector_points})"
        )
    if after.pending != NONE:
        return ""
    return f"; next {_seat(after.player)} takes from {_line(g, after.axis, after.pos)}"


def _take(state: YukonState, action: Action) -> str:
    g = state.game
    p = _seat(state.player)
    n = g.cells
    after = state.clone()
    after.apply_action(action)
    target = after.pos
    kind = state.grid[target]
    cell = g.cell_name(target)
    if action < n:
        head = (
            f"{p} takes {cell} ({_card(kind)})"
            if kind < SHERIFF
            else f"{p} takes {_card(kind)} at {cell}"
        )
    elif action < 2 * n:
        head = f"{p} uses the Courier to change direction and takes {cell} ({_card(kind)})"
    elif action < 3 * n:
        head = f"{p} uses the Innkeeper and takes {cell} diagonally ({_card(kind)})"
    else:
        x = (action - 3 * n) // 4
        head = (
            f"{p} uses the Telegraph Operator: the Prospector moves onto {g.cell_name(x)}"
            f" and {p} takes its neighbour {cell} ({_card(kind)})"
        )
    if kind == C.JAILER and not after.over:
        line = _line(g, after.axis, after.pos)
        return head + _what_follows(state, after, kind) + f" from {line}"
    return head + _what_follows(state, after, kind) + _next(g, after)


def _chance(state: YukonState, action: Action) -> str:
    g = state.game
    if state.dealt < g.cells:
        cell = g.cell_name(state.dealt)
        text = f"deal: {C.name(action)} to {cell}"
        if action == SHERIFF:
            text += " (the Prospector will stand there)"
        if state.dealt == g.cells - 1:
            after = state.clone()
            after.apply_action(action)
            text += (
                f"; the grid is dealt, the Prospector starts at {g.cell_name(after.pos)} and"
                f" {_seat(after.player)} takes first from its row or column"
            )
        return text
    p = _seat(state.player)
    after = state.clone()
    after.apply_action(action)
    if state.pending == PAN_DRAW:
        value = g.disc_values[action - DISC0]
        cell = g.cell_name(state.pos)
        left = after.pan_left.get(state.pos, 0)
        rest = (
            f"{left} disc{'s' if left != 1 else ''} left on the Pan at {cell}"
            if left
            else f"the Pan at {cell} is empty and goes back to the box"
        )
        return f"the disc shows {value}: +{value} for {p} ({rest})" + _next(g, after)
    kind = action - DRAW0
    return (
        f"the Teacher draws {C.name(kind)} from {_seat(state.pending_arg)}:"
        f" it scores +{C.VALUES[kind % 8]} for {p}"
    ) + _next(g, after)


def narrate(state: YukonState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal here, not yet applied)."""
    if state.is_chance_node():
        return _chance(state, action)
    g = state.game
    p = _seat(state.player)
    if state.pending == NONE:
        return _take(state, action)
    after = state.clone()
    after.apply_action(action)
    if state.pending == TRAP:
        text = f"{p} gives up {C.name(action - g.discard0)} to the Trapper"
    elif state.pending == SMITH:
        text = f"{p} gets rid of {C.name(action - g.discard0)} with the Goldsmith"
    elif state.pending == CMDR:
        if action == g.keep_commander:
            text = f"{p} keeps the Commander for the end (it scores the discs {p} holds)"
        else:
            text = (
                f"{p}'s Commander takes back {C.name(action - g.reclaim0)} from beside the"
                " area and goes back to the box"
            )
    else:  # TEACH
        text = f"{p}'s Teacher draws a random card from {_seat(action - g.teach0)}"
    return text + _next(g, after)


def decision(state: YukonState) -> str:
    """The decision in front of the seat to move, and the rulebook's section for it.

    >>> import motherlode
    >>> print(decision(motherlode.deal(motherlode.load("yukon"), seed=4)))
    ... # doctest: +NORMALIZE_WHITESPACE
    P1 takes a card from row 7 or column c; the Prospector moves onto its place, and the
    next player must take at right angles (rulebook: Playing the Game)
    """
    g = state.game
    p = _seat(state.player)
    if state.pending == TRAP:
        return (
            f"{p} gives the Trapper one of their Gold cards ('discard +N'); it lies beside"
            " the area (rulebook: Townsfolk Card Rules, Trapper)"
        )
    if state.pending == SMITH:
        return (
            f"{p} gets rid of one of their Pebble cards with the Goldsmith ('discard -N')"
            " (rulebook: Townsfolk Card Rules, Goldsmith)"
        )
    if state.pending == CMDR:
        return (
            f"{p} takes back a Gold card lying beside the area with the Commander"
            " ('reclaim +N'), or keeps the Commander for the end ('keep commander')"
            " (rulebook: Townsfolk Card Rules, Commander)"
        )
    if state.pending == TEACH:
        return (
            f"{p} chooses the player from whom the Teacher draws a random card ('teach PN')"
            " (rulebook: Townsfolk Card Rules, Teacher)"
        )
    text = (
        f"{p} takes a card from {_line(g, state.axis, state.pos)}; the Prospector moves onto"
        " its place, and the next player must take at right angles (rulebook: Playing the"
        " Game)"
    )
    front = state.front[state.player]
    used = [
        name
        for kind, name in (
            (C.COURIER, "the Courier ('courier d5': from the other line)"),
            (C.INNKEEPER, "the Innkeeper ('innkeeper d5': diagonally)"),
            (C.TELEGRAPH, "the Telegraph Operator ('telegraph d3 d2')"),
        )
        if front[kind - TOWNSFOLK0]
    ]
    if used:
        text += "; or uses " + " or ".join(used) + " (rulebook: Townsfolk Card Rules)"
    return text


def breakdown(state: YukonState, p: int) -> tuple[tuple[str, float], ...]:
    """``p``'s points as the rulebook counts them; the parts add up to ``state.points(p)``."""
    g = state.game
    pile = state.pile[p]
    out: list[tuple[str, float]] = [
        ("gold", float(sum(n * C.POINTS[k] for k, n in enumerate(pile[:PEBBLE0])))),
        (
            "pebbles",
            float(sum(n * C.POINTS[k] for k, n in enumerate(pile[PEBBLE0:SHERIFF], PEBBLE0))),
        ),
    ]
    taught = sum(n * abs(C.POINTS[k]) for k, n in enumerate(state.taught[p]))
    if taught:
        out.append(("Teacher's cards", float(taught)))
    discs = sum(n * v for n, v in zip(state.discs[p], g.disc_values, strict=True))
    if discs:
        out.append(("nugget discs", float(discs)))
    prospector = state.has_prospector(p)
    if prospector:
        out.append(("Prospector", float(g.prospector_points)))
    if g.expansion:
        front = state.front[p]
        for kind, points in _townsfolk_points(state, p, prospector):
            if front[kind - TOWNSFOLK0]:
                out.append((C.name(kind), float(points)))
    return tuple(out)


def _townsfolk_points(state: YukonState, p: int, prospector: bool) -> list[tuple[int, int]]:
    """What each kind of Townsfolk kept unused scores for ``p`` (as ``YukonState.points``)."""
    front, pile = state.front[p], state.pile[p]
    discs = state.discs[p]
    swindlers = front[C.SWINDLER - TOWNSFOLK0]
    pebbles = [
        C.VALUES[k - PEBBLE0] for k in range(SHERIFF - 1, PEBBLE0 - 1, -1) for _ in range(pile[k])
    ]
    return [
        (C.COMMANDER, front[C.COMMANDER - TOWNSFOLK0] * sum(discs) * (2 if prospector else 1)),
        (C.SWINDLER, sum(v - v // 2 for v in pebbles[:swindlers])),
        (C.COURIER, front[C.COURIER - TOWNSFOLK0] * sum(pile[PEBBLE0:SHERIFF])),
        (C.INNKEEPER, front[C.INNKEEPER - TOWNSFOLK0] * sum(front)),
        (C.TELEGRAPH, front[C.TELEGRAPH - TOWNSFOLK0] * sum(1 for k in state.grid if k < PEBBLE0)),
    ]


def summary(state: YukonState) -> Summary:
    """Why it ended, each seat's points with their breakdown (and the pairs' totals in the
    4-player base game), and the winners."""
    reason = state.termination()
    if state.game.teams:
        t = state.team_scores()
        reason += f"; the pairs score P1+P3 {t[0]:g}, P2+P4 {t[1]:g}"
    seats = tuple(
        SeatResult(p, float(state.points(p)), breakdown(state, p))
        for p in range(state.game.num_players)
    )
    return Summary(reason, seats, state.winners())


__all__ = ["breakdown", "decision", "narrate", "summary"]

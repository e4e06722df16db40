"""Chinagold in words: one sentence per action, and the end of the game explained.

Asked before the action is applied (DESIGN.md §2); a turning looks ahead on a copy to say
which areas it completes and how much gold each carries away, and when the throwing discs
change. Chinagold hides nothing, so every seat reads the same sentence.

>>> import motherlode
>>> s = motherlode.load("chinagold").new_initial_state()
>>> s.narrate(3)
'P1 throws the discs 0/1 0/2 1/2: 3'
>>> s.apply_action(3)
>>> s.narrate(s.string_to_action("turn f4-f6"))
'P1 turns f4–f6'
"""

from __future__ import annotations

from motherlode.core.errors import IllegalActionError
from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.chinagold.board import BOARD, SPOT_NAMES, Mask
from motherlode.games.chinagold.game import (
    NUM_TURNINGS,
    PASS,
    REBURY_BASE,
    STAGE_DISCS,
    ChinagoldGame,
    ChinagoldState,
)


def area_name(game: ChinagoldGame, seat: int, spot: int) -> str:
    """The name of ``seat``'s area holding ``spot``: ``mountain P`` or ``river k`` (the
    letters of the text board and of the SVG's titles)."""
    if game.role(seat) == "mountains":
        return f"mountain {chr(ord('A') + game.mountain_of[spot])}"
    return f"river {chr(ord('a') + game.river_of[spot])}"


def completions(state: ChinagoldState, mask: Mask) -> list[tuple[int, str, int]]:
    """``(seat, area, gold)`` for every area that turning ``mask`` completes, in the order the
    rulebook carries the gold away: the mover's areas first, then the opponent's."""
    g = state.game
    hidden = state.hidden & ~mask
    gold = state.gold | mask
    me = state.player
    out = []
    for seat in (me, me ^ 1):
        areas = g.spot_area[seat]
        seen: set[Mask] = set()
        m = mask
        while m:
            low = m & -m
            spot = low.bit_length() - 1
            area = areas[spot]
            if area not in seen and not area & hidden:
                seen.add(area)
                take = gold & area
                out.append((seat, area_name(g, seat, spot), take.bit_count()))
                gold &= ~take
            m ^= low
    return out


def _spots(action: Action) -> str:
    w = BOARD.all_windows[action]
    if w.length == 1:
        return SPOT_NAMES[w.start]
    a, b = sorted((w.spots[0], w.spots[-1]))
    return f"{SPOT_NAMES[a]}–{SPOT_NAMES[b]}"


def _discs_after(state: ChinagoldState, action: Action) -> str:
    """What changes in the throwing discs after ``action`` (empty when nothing does)."""
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        if after.hidden == 0:
            return "; every spot is cleared: the game is over"
        return f"; the turn limit ({state.game.cfg.max_turns}) is reached: the game is over"
    if after.stage == state.stage:
        return ""
    discs = STAGE_DISCS[after.stage]
    if after.stage == 0:
        return "; at most one way is left to turn 3 in a line: no more throwing, turn 1 or 2"
    lines = {2: 5, 1: 4}.get(after.stage, 3)
    if after.stage > state.stage:
        return f"; the discs {' '.join(discs)} are thrown again"
    return f"; at most one way is left to turn {lines} in a line: from now on {' '.join(discs)}"


def narrate(state: ChinagoldState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal here, not yet applied)."""
    p = f"P{state.player + 1}"
    if state.is_chance_node():
        return f"{p} throws the discs {' '.join(state.discs())}: {action}"
    if action == PASS:
        what = (
            f"cannot turn {state.roll} in a line nor rebury a nugget"
            if state.roll
            else "cannot turn a marker"
        )
        return f"{p} {what} and passes" + _discs_after(state, action)
    if REBURY_BASE <= action < PASS:
        spot = action - REBURY_BASE
        g = state.game
        return (
            f"{p} reburies the gold at {SPOT_NAMES[spot]} ({area_name(g, 0, spot)},"
            f" {area_name(g, 1, spot)}) instead of turning {state.roll}"
        ) + _discs_after(state, action)
    if not 0 <= action < NUM_TURNINGS:
        return f"{p}: action {action}"
    text = f"{p} turns {_spots(action)}"
    done = completions(state, BOARD.all_windows[action].mask)
    parts = []
    for who, area, gold in done:
        for_whom = "" if who == state.player else f" for P{who + 1}"
        parts.append(
            f"{area}{for_whom}: +{gold} gold" if gold else f"{area}{for_whom} (no gold left)"
        )
    if parts:
        text += " and completes " + ", ".join(parts)
    return text + _discs_after(state, action)


def gold_by_area(state: ChinagoldState) -> list[list[tuple[str, int]]] | None:
    """Each seat's gold, area by area, found by replaying the game's history; ``None``
    where the history does not lead to this position (a position read from notation)."""
    g = state.game
    s = g.new_initial_state()
    out: list[list[tuple[str, int]]] = [[], []]
    for a in state.history():
        if not s.is_chance_node() and 0 <= a < NUM_TURNINGS:
            for who, area, gold in completions(s, BOARD.all_windows[a].mask):
                out[who].append((area, gold))
        try:
            s.apply_action(a)
        except IllegalActionError:
            return None  # the history starts from a position read from notation
    if s.serialize() != state.serialize():
        return None
    return out


def decision(state: ChinagoldState) -> str:
    """The decision in front of the seat to move, and the rulebook's section for it.

    >>> import motherlode
    >>> s = motherlode.load("chinagold").new_initial_state()
    >>> s.apply_action(4)
    >>> print(decision(s))  # doctest: +NORMALIZE_WHITESPACE
    P1 (mountains) turns 4 face-down markers next to one another in a straight line, with
    no gap and no gold in between (rulebook: Prospecting for Gold)
    """
    g = state.game
    p = f"P{state.player + 1} ({g.role(state.player)})"
    legal = state.legal_actions()
    if legal == [PASS]:
        return f"{p} can neither turn nor rebury and must pass (rulebook: Prospecting for Gold)"
    if state.stage == 0:
        return (
            f"{p} turns 1 marker, or 2 adjacent markers, to the golden side: the discs are"
            " back in the box (rulebook: Reducing the Throwing Discs)"
        )
    rebury = any(REBURY_BASE <= a < PASS for a in legal)
    return (
        f"{p} turns {state.roll} face-down marker{'s' if state.roll != 1 else ''} next to"
        " one another in a straight line, with no gap and no gold in between"
        + (", or reburies one gold nugget" if rebury else "")
        + " (rulebook: Prospecting for Gold)"
    )


def summary(state: ChinagoldState) -> Summary:
    """Why it ended, each seat's gold (area by area where the history tells it), winners."""
    g = state.game
    areas = gold_by_area(state)
    seats = []
    for p in (0, 1):
        total = float(state.collected[p])
        if areas is not None:
            breakdown = tuple((area, float(n)) for area, n in sorted(areas[p]) if n)
        else:
            breakdown = ((f"gold from the {g.role(p)}", total),)
        seats.append(SeatResult(p, total, breakdown))
    return Summary(state.termination(), tuple(seats), state.winners())


__all__ = ["area_name", "completions", "decision", "gold_by_area", "narrate", "summary"]

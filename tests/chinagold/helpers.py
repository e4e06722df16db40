"""Helpers for the Chinagold scenario tests: positions built from spot names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from motherlode.games.chinagold.board import NUM_SPOTS, ROW_LENGTHS, SPOT_NAMES, parse_spot
from motherlode.games.chinagold.game import ChinagoldGame, ChinagoldState


def game(**config: Any) -> ChinagoldGame:
    """The game with ``config`` (built directly, so other games' packages are not imported)."""
    return ChinagoldGame.from_config(**config)


def board_text(
    hidden: Iterable[str] | None = None, gold: Iterable[str] = (), cleared: Iterable[str] = ()
) -> str:
    """The board field of a position.

    ``hidden=None``: every spot face down except ``gold`` and ``cleared``; otherwise only the
    ``hidden`` and ``gold`` spots hold markers and every other spot is cleared.
    """
    g = {parse_spot(s) for s in gold}
    c = {parse_spot(s) for s in cleared}
    h = (
        set(range(NUM_SPOTS)) - g - c
        if hidden is None
        else {parse_spot(s) for s in hidden}
    )
    rows = []
    spot = 0
    for length in ROW_LENGTHS:
        row = ""
        for _ in range(length):
            row += "o" if spot in h else "G" if spot in g else "1"
            spot += 1
        rows.append(row)
    # merge runs of cleared spots ("1" digits) into counts
    out = []
    for row in rows:
        merged = ""
        run = 0
        for ch in row:
            if ch == "1":
                run += 1
                continue
            if run:
                merged += str(run)
                run = 0
            merged += ch
        if run:
            merged += str(run)
        out.append(merged)
    return "/".join(out)


def position(
    g: ChinagoldGame,
    *,
    hidden: Iterable[str] | None = None,
    gold: Iterable[str] = (),
    cleared: Iterable[str] = (),
    to_move: int = 0,
    throw: str = "?",
    collected: tuple[int, int] | None = None,
    turn: int | None = None,
) -> ChinagoldState:
    """A position through the notation (so it is validated like any user position).

    ``turn`` defaults to 10 or 11, whichever leaves ``to_move`` on turn (turns alternate)."""
    text = board_text(hidden, gold, cleared)
    if turn is None:
        turn = 10 + (to_move - g.cfg.first_player) % 2
    on_board = sum(ch in "oG" for ch in text)
    if collected is None:
        rest = NUM_SPOTS - on_board
        collected = (rest // 2, rest - rest // 2)
    return g.deserialize(f"{text} P{to_move + 1} {throw} {collected[0]},{collected[1]} {turn}")


def names(spots: Iterable[int]) -> list[str]:
    return [SPOT_NAMES[s] for s in spots]


def strings(state: ChinagoldState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def spot(state: ChinagoldState, name: str) -> str:
    """``"hidden"``, ``"gold"`` or ``"cleared"``: the spot named ``name``."""
    return state.spot_state(parse_spot(name))

"""Helpers for the El Dorado tests: build exact positions, play action strings."""

from __future__ import annotations

from collections.abc import Iterable

import motherlode
from motherlode.games.eldorado.game import EldoradoGame, EldoradoState
from motherlode.games.eldorado.sheets import COIN0, SYMBOLS


def game(players: int = 2, map: int = 1, hard: bool = False, **kw: object) -> EldoradoGame:
    g = motherlode.load("eldorado", players=players, map=map, hard=hard, **kw)
    assert isinstance(g, EldoradoGame)
    return g


def face(name: str) -> int:
    """``machete`` .. ``signpost`` or ``2c``."""
    if name.endswith("c") and name[:-1].isdigit():
        return COIN0 + int(name[:-1])
    return SYMBOLS.index(name)


def position(
    g: EldoradoGame,
    *,
    seat: int = 0,
    phase: str = "start",
    middle: dict[int, str] | None = None,
    held: dict[int, tuple[str, int]] | None = None,
    visited: dict[int, Iterable[str]] | None = None,
    filled: dict[int, Iterable[str]] | None = None,
    used: dict[int, Iterable[str]] | None = None,
    offers: dict[int, list[tuple[str, int]]] | None = None,
    paid: dict[int, dict[str, int]] | None = None,
    minima: dict[str, int] | None = None,
    res_used: bool = False,
    active: str | None = None,
    claimed: dict[str, int] | None = None,
    fresh: Iterable[str] = (),
    first: bool | None = None,
    round: int = 1,
) -> EldoradoState:
    """A position set up field by field, then passed through its notation (which checks it).

    ``filled`` lists whole resources (``"3coins"``) or single slots (``"3coins/1"``).
    Offerings also mark the temple visited and set a minimum where none is given.
    ``active`` names the resource in use this turn (it sets ``res_used``); ``fresh`` the
    temples the seat to move offered in this turn (past them the route opens next turn).
    """
    sh = g.sheet
    st = g.new_initial_state()
    st.to_roll = []
    st.phase = ("roll", "start", "use", "over").index(phase)
    st.seat = seat
    st.round = round
    st.first = (phase == "start") if first is None else first
    st.res_used = res_used or active is not None
    if active is not None:
        st.res_active = sh.res_by_id[active]
    for d, f in (middle or {}).items():
        st.middle[d] = face(f)
    for d, (f, n) in (held or {}).items():
        st.held[d] = face(f)
        st.uses[d] = n
    if phase == "use":
        st.choose_left = 0
    for p, labels in (visited or {}).items():
        for label in labels:
            s = sh.by_label[label]
            st.visited[p] |= 1 << s
            st.frontier[p] |= sh.adj_mask[s]
            if sh.spaces[s].fee:
                st.paid[p][s] = sh.spaces[s].fee
    for p, names in (filled or {}).items():
        for name in names:
            rid, _, k = name.partition("/")
            res = sh.resources[sh.res_by_id[rid]]
            slots = res.slots if not k else (res.slots[int(k) - 1],)
            for slot in slots:
                st.filled[p] |= 1 << slot
    for p, names in (used or {}).items():
        for rid in names:
            st.used[p] |= 1 << sh.res_by_id[rid]
    for p, items in (offers or {}).items():
        for label, coins in items:
            s = sh.by_label[label]
            st.offers[p].append((s, coins))
            st.visited[p] |= 1 << s
            st.frontier[p] |= sh.adj_mask[s]
            if sh.spaces[s].kind == "temple" and st.minima[s] < 0:
                st.minima[s] = coins
    for label, m in (minima or {}).items():
        st.minima[sh.by_label[label]] = m
    for label, q in (claimed or {}).items():
        st.claimed[sh.by_label[label]] = q
    for label in fresh:
        st.fresh |= 1 << sh.by_label[label]
    for p in range(g.num_players):
        st.frontier[p] = 0
        for s in range(g.ns):
            if (st.visited[p] >> s) & 1 and not (p == seat and (st.fresh >> s) & 1):
                st.frontier[p] |= sh.adj_mask[s]
    for p, fees in (paid or {}).items():
        for label, c in fees.items():
            st.paid[p][sh.by_label[label]] = c
    again = g.deserialize(st.serialize())
    assert again.serialize() == st.serialize()
    return again


def play(state: EldoradoState, *moves: str) -> EldoradoState:
    """Apply action strings through the checked path."""
    for m in moves:
        state.apply_string(m)
    return state


def legal_strings(state: EldoradoState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def labels(state: EldoradoState, p: int) -> set[str]:
    sh = state.game.sheet
    return {s.label for s in sh.spaces if (state.visited[p] >> s.index) & 1}

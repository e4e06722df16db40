"""Each view drawn once per position (issue 23, DESIGN.md §3b): with three seats and two
spectators watching, the server draws the board's public layer once per revision (the
renderer's ``svg.once`` part, shared by every viewer) and each viewer's layers once per
revision (the two spectators share theirs), whoever else asks (the HTTP API too); the
engine's view of the position (a game where every seat sees all) and its legal moves once
per revision too."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from motherlode.games.yukon import render
from motherlode.games.yukon.game import YukonState
from motherlode.server.db import make_engine, migrate
from motherlode.server.service import MatchService, SeatRequest, Subscriber


def test_the_public_layer_is_drawn_once_per_revision_for_three_seats_and_two_spectators(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(str(tmp_path / "once.db"))
    migrate(engine)
    service = MatchService(engine)
    mid = service.create_match("yukon", {"players": 3}, [SeatRequest()] * 3).id
    publics: list[int] = []
    viewers: list[tuple[int, int | None]] = []
    public, layers = render._public, YukonState.render_layers

    def counted_public(state: Any) -> Any:
        publics.append(service.runtime(mid).rev)
        return public(state)

    def counted_layers(state: YukonState, seat: int | None = None) -> Any:
        viewers.append((service.runtime(mid).rev, seat))
        return layers(state, seat)

    observed: list[tuple[int, int | None]] = []
    listed: list[int] = []
    observation, legal = YukonState.observation, YukonState.legal_actions

    def counted_observation(state: YukonState, seat: int | None = None) -> Any:
        observed.append((service.runtime(mid).rev, seat))
        return observation(state, seat)

    def counted_legal(state: YukonState) -> Any:
        listed.append(service.runtime(mid).rev)
        return legal(state)

    monkeypatch.setattr(render, "_public", counted_public)
    monkeypatch.setattr(YukonState, "render_layers", counted_layers)

    async def run() -> list[list[str]]:
        sent: list[list[str]] = [[] for _ in range(5)]
        tasks = []
        for i, seat in enumerate([0, 1, 2, None, None]):

            async def send(text: str, i: int = i) -> None:
                sent[i].append(text)

            sub = Subscriber(seat, send)
            tasks.append(asyncio.create_task(sub.writer()))
            service.subscribe(mid, sub)
        await asyncio.sleep(0.2)
        rt = service.runtime(mid)
        seat = rt.state.current_player()
        action = rt.state.legal_actions()[0]
        # from the move on, the engine's views and lists are counted too
        monkeypatch.setattr(YukonState, "observation", counted_observation)
        monkeypatch.setattr(YukonState, "legal_actions", counted_legal)
        await service.move(mid, seat, action, rt.version)
        await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        return sent

    first = service.runtime(mid).rev
    sent = asyncio.run(run())
    last = service.runtime(mid).rev
    assert [len(s) for s in sent] == [2, 2, 2, 2, 2]  # a snapshot, then the move's diff
    assert publics == [first, last]  # once per revision, for five viewers
    assert sorted(viewers, key=str) == sorted(
        [(r, s) for r in (first, last) for s in (0, 1, 2, None)], key=str
    )  # each viewer's own layers once per revision; the spectators share theirs
    for seat in (0, 1, 2, None):  # the HTTP API's answers at this revision: nothing redrawn
        service.runtime(mid).payload(seat)
    assert len(publics) == 2 and len(viewers) == 8
    # Yukon shows every seat all: the spectator's view built once for the new position
    # (the public layer and every viewer's fields read it), and the mover's moves listed
    # once for its buttons and its list (the move's own checks list them before)
    assert [s for r, s in observed if r == last] == [None]
    assert listed.count(last) == 1

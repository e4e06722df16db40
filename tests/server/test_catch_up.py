"""Another process's moves caught up with (``MatchService._catch_up``, on a NOTIFY) while
a drawing thread draws the revision before them: the runtime's state is replaced, never
changed under the thread, so what it draws for a revision is that revision's board."""

from __future__ import annotations

import asyncio
from pathlib import Path

from motherlode.server.db import make_engine, migrate
from motherlode.server.service import MatchService, SeatRequest


def test_catching_up_leaves_a_drawing_threads_copy_as_it_was(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "two.db"))
    migrate(engine)
    here, there = MatchService(engine), MatchService(engine)  # two processes, one database
    mid = here.create_match("yukon", {"players": 2}, [SeatRequest(), SeatRequest()]).id
    rt = here.runtime(mid)
    still = rt._still()  # what a drawing thread holds while it draws this revision
    frame_before = still.frame(0)
    board_before, version_before = still.state.serialize(), rt.version
    other = there.runtime(mid)
    seat = other.state.current_player()
    action = other.state.legal_actions()[0]
    asyncio.run(there.move(mid, seat, action, other.version))
    assert here._catch_up(rt)  # the notice's replay of the new rows onto the cached runtime
    assert rt.version == version_before + 1 == there.runtime(mid).version
    assert rt.state.serialize() == there.runtime(mid).state.serialize() != board_before
    assert still.state.serialize() == board_before  # the thread's copy: unchanged
    assert still.frame(0) is frame_before  # and its revision's frame stays the one drawn
    assert rt.frame(0).version == version_before + 1 and rt.frame(0).rev > frame_before.rev

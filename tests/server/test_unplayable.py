"""A stored match that a rule fix made unplayable is refused by name, not a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from motherlode.server.db import make_engine, migrate
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService, SeatRequest


def test_a_stored_match_a_rule_fix_made_unplayable_is_refused_naming_the_change(
    tmp_path: Path,
) -> None:
    """A match whose log a later rules version no longer accepts: the server answers 409
    ``match_unplayable`` naming the row, the action and the game's rule changes."""
    engine = make_engine(str(tmp_path / "old.db"))
    migrate(engine)
    service = MatchService(engine)
    m = service.create_match("eureka", {"players": 2}, [SeatRequest("human", "human", "")] * 2)
    rt = service.runtime(m.id)
    with engine.begin() as conn:  # a move that the rules of today refuse, as if logged before
        conn.execute(
            sa.text(
                "insert into moves (match_id, seq, kind, seat, action, visible, created_at)"
                " values (:m, :s, 'action', :p, 'move a1', null, '2026-01-01')"
            ),
            {"m": m.id, "s": rt.version, "p": rt.state.current_player()},
        )
    with pytest.raises(ServerError) as err:
        MatchService(engine).runtime(m.id)
    assert (err.value.code, err.value.status) == ("match_unplayable", 409)
    text = str(err.value)
    assert f"row {rt.version} ('move a1')" in text
    assert "eureka rules version 2" in text
    assert "The rules changed since version 1: rules 2:" in text

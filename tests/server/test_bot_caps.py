"""One visitor cannot stop the service with a bot: specs above the server's caps are refused
at creation, a count-only spec is bounded by the time cap, and bots made again after a
restart (specs stored under looser caps, or before caps) think within today's caps."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from motherlode.core.errors import AgentSpecError
from motherlode.server.bots import BotCaps
from motherlode.server.db import make_engine, migrate
from motherlode.server.service import MatchService, SeatRequest


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("mcts:iterations=100000000", "asks for iterations=100000000; this server allows at most"),
        ("mcts:seconds=60", "asks for 60 s a move; this server allows at most 2 s"),
        ("plans:iterations=5000000", "asks for iterations=5000000"),
        ("alphabeta:nodes=900000000", "asks for nodes=900000000"),
    ],
)
def test_a_bot_above_the_caps_is_refused_at_creation(
    client: TestClient, spec: str, problem: str
) -> None:
    r = client.post(
        "/api/matches",
        json={
            "game": "yukon",
            "seats": [{"kind": "human"}, {"kind": "bot", "spec": spec}],
        },
    )
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_seats" and problem in error["message"]
    assert error["message"].startswith("seat 2: ")


@pytest.mark.parametrize(
    ("spec", "capped"),
    [
        ("mcts:iterations=5000", "mcts:iterations=5000,seconds=2"),
        ("mcts", "mcts:iterations=1000,seconds=2"),
        ("mcts:seconds=0.5,c=0.3", "mcts:seconds=0.5,c=0.3"),
        ("alphabeta:depth=9", "alphabeta:depth=9,nodes=20000,seconds=2"),
        ("greedy", "greedy"),
        ("random", "random"),
    ],
)
def test_every_search_bot_thinks_within_the_time_cap(spec: str, capped: str) -> None:
    assert BotCaps(max_seconds=2).apply(spec) == capped


def test_resumed_bots_respect_todays_caps(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "m.db"))
    migrate(engine)
    loose = MatchService(engine, caps=BotCaps(max_seconds=30, max_count=10**9))
    created = loose.create_match(
        "yukon", {}, [SeatRequest("human", "human", ""), SeatRequest("bot", "mcts:seconds=20", "")]
    )
    count_only = loose.create_match(
        "yukon",
        {},
        [SeatRequest("human", "human", ""), SeatRequest("bot", "mcts:iterations=50000", "")],
    )
    strict = MatchService(engine, caps=BotCaps(max_seconds=1.5))  # the restarted server
    # above today's caps: the seat plays as the game's greedy bot (and the log says why)
    assert strict.runtime(created.id).agent(1).name == "greedy"
    # a count alone: bounded by today's time cap
    agent = strict.runtime(count_only.id).agent(1)
    assert agent.name == "mcts:iterations=50000,seconds=1.5"
    assert agent.seconds == 1.5  # type: ignore[attr-defined]


def test_the_caps_name_what_they_refuse() -> None:
    with pytest.raises(AgentSpecError, match="this server allows at most 1000000"):
        BotCaps().apply("mcts:iterations=1000001")

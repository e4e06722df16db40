"""Clocks through the API (server/clocks.py): creation, bad values, timeouts and the
others' answers (skip, a bot, a forfeit), the record's clock events, and the clocks of a
match across a server restart (a new app on the same database, and a killed process).

Time is the server's: ``service.utcnow`` is replaced by a fake clock that the tests move
on, so every remaining time is exact.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select as sa_select

import motherlode
from motherlode.core.records import GameRecord, replay
from motherlode.server import service as service_module
from motherlode.server.fairness import verify_record
from tests.server.conftest import LiveServer
from tests.server.helpers import auth, move, state

T0 = dt.datetime(2026, 12, 1, 12, 0, 0)
FISCHER = {"kind": "fischer", "base_minutes": 1, "increment_seconds": 5}


class FakeNow:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> FakeNow:
    fake = FakeNow()
    monkeypatch.setattr(service_module, "utcnow", fake)
    return fake


@pytest.fixture
def client(app_factory: Callable[..., Any], now: FakeNow) -> Iterator[TestClient]:
    with TestClient(app_factory(resume=False)) as c:
        yield c


def create(
    client: TestClient, game: str, clock: Any, seats: int = 2, **config: Any
) -> dict[str, Any]:
    body = {
        "game": game,
        "config": {"players": seats, **config},
        "seats": [{"kind": "human"} for _ in range(seats)],
        "clock": clock,
    }
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"]}
    return data


def play(client: TestClient, m: dict[str, Any], text: str) -> dict[str, Any]:
    s = state(client, m["id"])
    code, out = move(client, m["id"], m["tokens"][s["to_move"]], text, s["version"])
    assert code == 200, out
    return out


def clock_request(client: TestClient, m: dict[str, Any], seat: int, what: str) -> Any:
    s = state(client, m["id"])
    return client.post(
        f"/api/matches/{m['id']}/clock",
        json={"what": what, "version": s["version"]},
        headers=auth(m["tokens"][seat]),
    )


def epoch(t: dt.datetime) -> float:
    return t.replace(tzinfo=dt.UTC).timestamp()


# -- creation ---------------------------------------------------------------------------


def test_a_fischer_clock_runs_for_the_seat_to_move_and_adds_the_increment(
    client: TestClient, now: FakeNow
) -> None:
    m = create(client, "eureka", FISCHER)
    c = state(client, m["id"])["clock"]
    assert c["kind"] == "fischer" and c["describe"] == "1 min + 5 s a turn"
    assert c["remaining"] == [60.0, 60.0] and c["running"] == 0 and c["since"] == epoch(T0)
    assert c["late"] is None and c["forfeit"] is None and c["can_skip"] is True
    now.advance(20)
    play(client, m, "pass")  # P1's turn passes after 20 s: 40 + 5
    c = state(client, m["id"])["clock"]
    assert c["remaining"] == [45.0, 60.0] and c["running"] == 1
    assert c["since"] == epoch(T0) + 20
    now.advance(12.5)
    play(client, m, "pass")
    assert state(client, m["id"])["clock"]["remaining"] == [45.0, 52.5]


def test_turn_based_gives_each_move_its_days(client: TestClient, now: FakeNow) -> None:
    m = create(client, "eureka", {"kind": "days", "days_per_move": 2})
    c = state(client, m["id"])["clock"]
    assert c["describe"] == "2 days a move" and c["remaining"] == [172800.0, 172800.0]
    now.advance(3600 * 30)
    play(client, m, "pass")
    c = state(client, m["id"])["clock"]
    assert c["remaining"] == [172800.0, 172800.0] and c["running"] == 1
    now.advance(2 * 86400 + 1)  # P2 over its two days
    s = state(client, m["id"])  # the request looks at the clock
    assert s["clock"]["late"] == 1
    assert [e["said"] for e in s["log"] if e.get("clock")] == ["P2 ran out of time"]


def test_no_clock_is_the_default(client: TestClient) -> None:
    m = create(client, "eureka", None)
    assert state(client, m["id"])["clock"] is None
    r = clock_request(client, m, 0, "end")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_clock"


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ({"kind": "fischer", "base_minutes": 0}, "base_minutes: Input should be greater than 0.04"),
        ({"kind": "days", "days_per_move": 31}, "days_per_move: Input should be less than or"),
        ({"kind": "blitz"}, "kind: Input should be 'none', 'fischer' or 'days'"),
        ({"kind": "fischer", "increment": 3}, "increment: Extra inputs are not permitted"),
        ("5+3", "clock is an object"),
    ],
)
def test_bad_clock_values_are_refused_naming_the_field(
    client: TestClient, clock: Any, message: str
) -> None:
    body = {"game": "eureka", "config": {"players": 2}, "seats": [{}, {}], "clock": clock}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "invalid_clock"
    assert message in r.json()["error"]["message"]


def test_every_bad_clock_field_at_once(client: TestClient) -> None:
    clock = {"kind": "fischer", "base_minutes": -1, "increment_seconds": 9999}
    body = {"game": "eureka", "config": {"players": 2}, "seats": [{}, {}], "clock": clock}
    message = client.post("/api/matches", json=body).json()["error"]["message"]
    assert message == (
        "bad clock: base_minutes: Input should be greater than 0.04;"
        " increment_seconds: Input should be less than or equal to 600"
    )


# -- timeouts ---------------------------------------------------------------------------


def test_a_late_turn_is_skipped_with_the_games_pass(client: TestClient, now: FakeNow) -> None:
    m = create(client, "eureka", FISCHER)
    now.advance(10)
    play(client, m, "pass")
    now.advance(61)  # P2 out of time
    s = state(client, m["id"], m["tokens"][1])
    assert s["clock"]["late"] == 1 and s["to_move"] == 1
    # the late seat cannot skip itself; a spectator cannot either
    r = clock_request(client, m, 1, "skip")
    assert r.status_code == 409 and "P2 is the late seat" in r.json()["error"]["message"]
    r = client.post(f"/api/matches/{m['id']}/clock", json={"what": "skip", "version": 0})
    assert r.status_code == 403 and r.json()["error"]["code"] == "spectator"
    r = clock_request(client, m, 0, "skip")
    assert r.status_code == 200, r.text
    s = state(client, m["id"])
    assert s["to_move"] == 0 and s["status"] == "running"
    clock_lines = [e["said"] for e in s["log"] if e.get("clock")]
    assert clock_lines == ["P2 ran out of time", "P1 skips P2's turn (out of time)"]
    assert s["log"][-1]["seat"] == 1 and s["log"][-1]["text"] == "pass"
    # a skip earns no increment (P2 stays at 0: late again on its next turn); P1 runs
    assert s["clock"]["remaining"] == [55.0, 0.0] and s["clock"]["running"] == 0
    assert s["clock"]["late"] is None
    # nobody is late now
    r = clock_request(client, m, 1, "skip")
    assert r.status_code == 409 and r.json()["error"]["message"] == "nobody is out of time"


def test_the_late_player_may_still_move_until_the_others_act(
    client: TestClient, now: FakeNow
) -> None:
    m = create(client, "eureka", FISCHER)
    now.advance(61)
    assert state(client, m["id"])["clock"]["late"] == 0
    play(client, m, "pass")  # P1 moves late: its bank restarts from 0 + the increment
    c = state(client, m["id"])["clock"]
    assert c["remaining"] == [5.0, 60.0] and c["late"] is None and c["running"] == 1


def test_ending_the_match_is_a_forfeit_and_the_record_verifies(
    client: TestClient, now: FakeNow
) -> None:
    m = create(client, "eureka", FISCHER, seats=3)
    now.advance(61)
    r = clock_request(client, m, 2, "end")
    assert r.status_code == 200, r.text
    s = state(client, m["id"])
    assert s["status"] == "finished" and s["terminal"] is True and s["to_move"] is None
    assert s["outcome"] == {"winners": [1, 2], "scores": [0.0, 1.0, 1.0]}
    assert s["summary"]["reason"] == "P1 ran out of time and forfeits"
    assert s["summary"]["lines"][-1] == "Shared victory: P2 & P3 (P1 forfeits on time)"
    assert [e["said"] for e in s["log"] if e.get("clock")] == [
        "P1 ran out of time",
        "P1 forfeits on time: the others share the win",
    ]
    code, out = move(client, m["id"], m["tokens"][0], "pass", s["version"])
    assert code == 400 and out["error"]["code"] == "match_over"
    record = client.get(f"/api/matches/{m['id']}/record").json()
    assert record["scores"] == [0.0, 1.0, 1.0]
    assert [(e["after"], e["kind"], e["seat"]) for e in record["events"]] == [
        (len(record["actions"]), "timeout", 0),
        (len(record["actions"]), "forfeit", 0),
    ]
    rec = GameRecord.from_json(json.dumps(record))
    result = verify_record(rec, m["seed_sha256"])
    assert result.ok, result.problems
    assert result.clock_events == 2 and result.forfeit == 0
    assert "2 clock event(s) checked, ending with P1's forfeit on time" in result.summary()
    replay(rec)  # motherlode replay too
    verified = client.get(f"/api/matches/{m['id']}/verify").json()
    assert verified["ok"] is True


def test_without_a_pass_and_no_bot_agreed_a_timeout_is_a_forfeit(
    client: TestClient, now: FakeNow
) -> None:
    m = create(client, "yukon", FISCHER)
    s = state(client, m["id"])
    assert s["clock"]["can_skip"] is False
    assert s["clock"]["rule"] == "out of time: the match ends as a forfeit (the late seat loses)"
    now.advance(60)
    s = state(client, m["id"])
    assert s["status"] == "finished" and s["outcome"]["winners"] == [1]
    assert s["summary"]["lines"][-1] == "Winner: P2 (P1 forfeits on time)"
    assert s["clock"]["forfeit"] == 0


def test_without_a_pass_a_bot_takes_over_where_agreed(client: TestClient, now: FakeNow) -> None:
    m = create(client, "yukon", {**FISCHER, "bot_takeover": True})
    now.advance(30)
    play(client, m, first_legal(client, m))
    now.advance(61)
    s = state(client, m["id"])
    assert s["clock"]["late"] == 1 and s["clock"]["skip_label"] == "hand the seat to the bot"
    r = clock_request(client, m, 0, "skip")
    assert r.status_code == 200, r.text
    for _ in range(200):  # the greedy bot plays P2's turn (a task of the app's loop)
        s = state(client, m["id"])
        if s["to_move"] == 0:
            break
        time.sleep(0.01)
    assert s["to_move"] == 0 and s["clock"]["bots"] == [1]
    said = [e["said"] for e in s["log"] if e.get("clock")]
    assert said == ["P2 ran out of time", "P1 hands P2's turns to the greedy bot (out of time)"]
    assert s["log"][-1]["seat"] == 1 and not s["log"][-1].get("clock")


def first_legal(client: TestClient, m: dict[str, Any]) -> str:
    s = state(client, m["id"])
    mine = state(client, m["id"], m["tokens"][s["to_move"]])
    return str(mine["legal"][0]["text"])


# -- restarts ---------------------------------------------------------------------------


def test_clocks_survive_a_new_app_on_the_same_database(
    app_factory: Callable[..., Any], now: FakeNow
) -> None:
    with TestClient(app_factory(resume=False)) as first:
        m = create(first, "eureka", FISCHER)
        now.advance(20)
        play(first, m, "pass")
        before = state(first, m["id"])["clock"]
    now.advance(30)  # down for 30 s: P2's clock ran on, from the stored stamp
    with TestClient(app_factory(resume=False)) as second:
        assert state(second, m["id"])["clock"] == before
        play(second, m, "pass")
        assert state(second, m["id"])["clock"]["remaining"] == [45.0, 35.0]


def test_clocks_survive_a_killed_server(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "live.db").start()
    try:
        body = {
            "game": "eureka",
            "config": {"players": 2},
            "seats": [{}, {}],
            "clock": {"kind": "fischer", "base_minutes": 30, "increment_seconds": 10},
        }
        m = httpx.post(server.url + "/api/matches", json=body, timeout=30).json()
        tokens = {s["seat"]: s["token"] for s in m["seats"]}
        url = f"{server.url}/api/matches/{m['id']}"
        r = httpx.post(
            url + "/move", json={"action": "pass", "version": 0}, headers=auth(tokens[0])
        )
        assert r.status_code == 200, r.text
        before = httpx.get(url, timeout=30).json()["clock"]
        server.kill()
        server.start()
        after = httpx.get(url, timeout=30).json()["clock"]
        assert after == before and after["running"] == 1
        assert after["remaining"][1] == 1800.0 and 1800.0 < after["remaining"][0] <= 1810.0
    finally:
        server.kill()


POSTGRES = os.environ.get("MOTHERLODE_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_clocks_across_a_restart_on_postgres(now: FakeNow) -> None:

    from motherlode.server.app import create_app
    from motherlode.server.guard import Limits
    from tests.server.postgres_db import fresh

    assert POSTGRES is not None
    fresh(POSTGRES)
    with TestClient(create_app(POSTGRES, limits=Limits.off(), resume=False)) as first:
        m = create(first, "eureka", FISCHER)
        now.advance(20)
        play(first, m, "pass")
        before = state(first, m["id"])["clock"]
    now.advance(61)
    with TestClient(create_app(POSTGRES, limits=Limits.off(), resume=False)) as second:
        s = state(second, m["id"])
        assert s["clock"]["remaining"] == before["remaining"] and s["clock"]["late"] == 1
        assert clock_request(second, m, 0, "skip").status_code == 200
        s = state(second, m["id"])
        assert s["to_move"] == 0 and s["clock"]["remaining"] == [45.0, 0.0]


def test_the_clock_rule_of_each_game_is_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    for game in motherlode.games():
        assert f"**{game}**" in doc.split("## Clocks", 1)[1], game


# -- the form and the WebSocket ---------------------------------------------------------


def test_the_form_creates_a_clock_and_shows_every_error_at_once(
    client: TestClient, now: FakeNow
) -> None:
    from tests.server.helpers import csrf

    page = client.get("/new?game=eureka").text
    for name in (
        "clock_kind",
        "clock_base_minutes",
        "clock_increment_seconds",
        "clock_days_per_move",
        "clock_bot_takeover",
    ):
        assert f'name="{name}"' in page
    token = csrf(client)
    r = client.post(
        "/new",
        data={
            "game": "eureka",
            "players": "7",
            "clock_kind": "fischer",
            "clock_base_minutes": "0",
            "clock_increment_seconds": "lots",
            "csrf": token,
        },
    )
    assert r.status_code == 422
    assert "Input should be greater than 0.04" in r.text
    assert "Input should be a valid number, unable to parse string as a number" in r.text
    assert "players must be 2..6 (got 7)" in r.text  # the options' error too
    assert 'value="lots"' in r.text  # what was typed stays
    r = client.post(
        "/new",
        data={
            "game": "eureka",
            "players": "2",
            "clock_kind": "days",
            "clock_days_per_move": "1.5",
            "clock_base_minutes": "0",  # not the chosen kind's: ignored
            "csrf": token,
        },
    )
    assert r.status_code == 200, r.text
    match_id = r.text.split("/m/")[1].split("#")[0].split('"')[0]
    c = state(client, match_id)["clock"]
    assert c["kind"] == "days" and c["remaining"] == [129600.0, 129600.0]


def test_the_websocket_asks_skip_and_gets_the_state_pushed(
    client: TestClient, now: FakeNow
) -> None:
    from tests.server.helpers import hello

    m = create(client, "eureka", FISCHER)
    now.advance(5)
    play(client, m, "pass")
    now.advance(61)
    with client.websocket_connect(f"/ws/{m['id']}") as ws:
        first = hello(ws, m["tokens"][0])  # connecting writes the timeout first
        assert first["type"] == "state" and first["clock"]["late"] == 1
        ws.send_text(json.dumps({"type": "clock", "what": "nap", "version": first["version"]}))
        assert json.loads(ws.receive_text())["message"] == "a clock request is 'skip' or 'end'"
        ws.send_text(json.dumps({"type": "clock", "what": "skip", "version": first["version"]}))
        pushed = json.loads(ws.receive_text())
        assert pushed["type"] == "diff" and pushed["fields"]["to_move"] == 0
        said = [e["said"] for e in pushed["log_add"]]
        assert said == ["P1 skips P2's turn (out of time)", "P2 passes"]


def test_undo_never_crosses_a_clock_event(client: TestClient, now: FakeNow) -> None:
    m = create(client, "eureka", FISCHER)
    play(client, m, "pass")
    assert state(client, m["id"], m["tokens"][0])["can_undo"] is True
    now.advance(61)  # P2 runs out: the timeout is logged after P1's pass
    s = state(client, m["id"], m["tokens"][0])
    assert s["can_undo"] is False
    r = client.post(
        f"/api/matches/{m['id']}/undo", json={"version": s["version"]}, headers=auth(m["tokens"][0])
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "undo_not_allowed"


def test_a_rated_forfeit_rates_the_late_seat_last(
    app_factory: Callable[..., Any], now: FakeNow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argon2 import PasswordHasher
    from argon2.profiles import CHEAPEST

    from motherlode.server import accounts
    from motherlode.server.accounts import UserRow
    from motherlode.server.ratings import RatingEventRow
    from tests.server.helpers import csrf

    monkeypatch.setattr(accounts, "HASHER", PasswordHasher.from_parameters(CHEAPEST))
    app = app_factory(resume=False)
    people = []
    for name in ("ann", "bob"):
        c = TestClient(app, base_url="https://testserver")
        c.__enter__()
        password = "correct horse battery"
        form = {"csrf": csrf(c), "name": name, "password": password, "again": password}
        assert c.post("/signup", data=form).status_code == 200
        people.append(c)
    try:
        body = {
            "game": "yukon",
            "config": {"players": 2},
            "rated": True,
            "clock": FISCHER,
            "seats": [{}, {}],
        }
        m = people[0].post("/api/matches", json=body).json()
        tokens = {s["seat"]: s["token"] for s in m["seats"]}
        for seat, c in enumerate(people):
            claim = c.post(
                f"/m/{m['id']}/claim",
                data={"csrf": csrf(c), "token": tokens[seat]},
                follow_redirects=False,
            )
            assert claim.status_code == 303
        now.advance(60)  # P1 (ann) runs out in a game without a pass: a forfeit
        s = state(people[1], m["id"])
        assert s["status"] == "finished" and s["outcome"]["winners"] == [1]
        with app.state.service.engine.connect() as conn:
            rows = conn.execute(
                sa_select(RatingEventRow.subject, RatingEventRow.rank).where(
                    RatingEventRow.match_id == m["id"]
                )
            ).all()
            users = dict(conn.execute(sa_select(UserRow.name, UserRow.id)).all())
        assert dict(rows) == {f"user:{users['bob']}": 1, f"user:{users['ann']}": 2}
    finally:
        for c in people:
            c.__exit__(None, None, None)


def test_motherlode_verify_reads_a_record_file_with_clock_events(
    client: TestClient, now: FakeNow, tmp_path: Path
) -> None:
    from motherlode.server.fairness import verify_file

    m = create(client, "eureka", FISCHER)
    now.advance(10)
    play(client, m, "pass")
    now.advance(61)
    assert clock_request(client, m, 0, "skip").status_code == 200
    now.advance(61)
    assert clock_request(client, m, 1, "end").status_code == 200
    path = tmp_path / "r.json"
    path.write_text(client.get(f"/api/matches/{m['id']}/record").text, encoding="utf-8")
    result = verify_file(str(path), m["seed_sha256"])
    assert result.ok, result.problems
    assert result.summary() == (
        "verified: 2 actions re-played, 0 chance outcomes re-derived from the seed;"
        " 4 clock event(s) checked, ending with P1's forfeit on time;"
        f" SHA-256 of the seed matches {m['seed_sha256']}"
    )


def test_a_late_eurorails_turn_is_skipped_through_its_phases(
    client: TestClient, now: FakeNow
) -> None:
    if "eurorails" not in motherlode.games():
        pytest.skip("eurorails is not registered")
    m = create(client, "eurorails", FISCHER)
    s = state(client, m["id"])
    late = s["to_move"]  # (the first player is drawn)
    other = 1 - late
    assert s["clock"]["running"] == late and s["clock"]["can_skip"] is True
    now.advance(61)
    assert clock_request(client, m, other, "skip").status_code == 200
    s = state(client, m["id"])
    assert s["to_move"] == other and s["clock"]["running"] == other
    moved = [e for e in s["log"] if e["seat"] == late and not e.get("clock")]
    assert [e["text"] for e in moved] == ["end turn"]  # a building turn: one phase
    assert [e["said"] for e in s["log"] if e.get("clock")] == [
        f"P{late + 1} ran out of time",
        f"P{other + 1} skips P{late + 1}'s turn (out of time)",
    ]


def test_two_processes_write_one_timeout(tmp_path: Path, now: FakeNow) -> None:
    """Two services on one database (two processes) both see the clock run out: the
    conditional UPDATE lets one write the timeout; the other re-reads and agrees."""
    import asyncio

    from motherlode.server.clocks import ClockSpec
    from motherlode.server.db import make_engine, migrate
    from motherlode.server.service import MatchService, SeatRequest

    engine = make_engine(str(tmp_path / "two.db"))
    migrate(engine)
    a, b = MatchService(engine), MatchService(engine)
    created = a.create_match(
        "eureka",
        {"players": 2},
        [SeatRequest(), SeatRequest()],
        clock=ClockSpec("fischer", 60.0, 0.0, 0.0),
    )
    b.runtime(created.id)  # both hold the match in memory
    now.advance(60)

    async def both() -> None:
        await a.check_clock(created.id)
        await b.check_clock(created.id)

    asyncio.run(both())
    for service in (a, b):
        service.forget(created.id)
        events = service.runtime(created.id).clock.events  # type: ignore[union-attr]
        assert [(e.kind, e.seat) for e in events] == [("timeout", 0)]
    engine.dispose()


def test_a_move_after_a_forfeiting_timeout_is_refused_and_the_forfeit_pushed(
    client: TestClient, now: FakeNow
) -> None:
    from tests.server.helpers import hello

    m = create(client, "yukon", FISCHER)
    with client.websocket_connect(f"/ws/{m['id']}") as ws:
        first = hello(ws, m["tokens"][1])
        assert first["status"] == "running"
        mine = state(client, m["id"], m["tokens"][0])
        now.advance(60)  # P1 out of time in a game without a pass, no bot agreed
        code, out = move(client, m["id"], m["tokens"][0], mine["legal"][0]["text"], 0)
        assert code == 400 and out["error"]["code"] == "match_over"
        pushed = json.loads(ws.receive_text())
        assert pushed["type"] == "diff" and pushed["fields"]["status"] == "finished"
        assert [e["said"] for e in pushed["log_add"]] == [
            "P1 ran out of time",
            "P1 forfeits on time: the others share the win",
        ]

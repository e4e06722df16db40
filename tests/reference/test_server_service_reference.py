"""``server/service.py`` called directly, with exact answers: rows, versions, refusals.

A :class:`MatchService` on a fresh SQLite file (the schema from the models), the tiny
hidden-information game of ``tests/server/secret_game.py`` and a fixed seed (12345: P1 is
dealt QUAIL, P2 URCHIN), so that every row, version, message and push is known. Two
services on one file stand for two server processes. Written so that each of mutmut's
mutants of the module is judged in about a second (``benchmarks/mutation.py``; the
survivors and why they are left: docs/testing.md).
"""

from __future__ import annotations

import asyncio
import json
import threading
import zlib
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("sqlalchemy")

from pydantic import Field
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

import motherlode.server.service as service
from motherlode.core.protocol import GameConfig
from motherlode.games import registry
from motherlode.server import runtime
from motherlode.server.botpool import BotFailure, BotJob
from motherlode.server.db import Base, MatchRow, MoveRow, SeatRow, make_engine
from motherlode.server.fairness import commitment
from motherlode.server.runtime import MatchRuntime, ServerError
from motherlode.server.service import (
    CHANNEL,
    MatchService,
    SeatRequest,
    Subscriber,
    file_options,
    hash_token,
    unplayable,
)
from tests.server.secret_game import SecretGame

SEED = 12345
HUMAN = SeatRequest()


def bot(spec: str = "random", name: str = "") -> SeatRequest:
    return SeatRequest("bot", spec, name)


class FileConfig(GameConfig):
    layout_file: str | None = None
    sheet: str | None = Field(default=None, description="a Path to a sheet")
    cards: str | None = Field(default=None, description="the cards file")
    pathway: int = 0
    profiles: int = Field(default=0, description="profiles to use")
    order: tuple[int, ...] = (2, 1)  # a list in JSON, a tuple in Python


class FileGame(SecretGame):
    name: ClassVar[str] = "fileduel"
    Config: ClassVar[type[GameConfig]] = FileConfig


@pytest.fixture(autouse=True)
def _drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pushes drawn by a pool of this test's own: mutmut runs each mutant in a forked
    process, where the module's pool still counts the parent's threads (gone in the child)
    and would never run a drawing (every such test would hang, wrongly a "timeout")."""
    from concurrent.futures import ThreadPoolExecutor

    from motherlode.server import runtime as _runtime

    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-draw")
    monkeypatch.setattr(_runtime, "DRAWING", pool)
    yield
    pool.shutdown(wait=True)


@pytest.fixture(autouse=True)
def _games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry(), "secretduel", SecretGame)
    monkeypatch.setitem(registry(), "fileduel", FileGame)
    monkeypatch.setattr(service, "new_seed", lambda: SEED)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    e = make_engine(str(tmp_path / "m.db"))
    Base.metadata.create_all(e)
    yield e
    e.dispose()


@pytest.fixture
def svc(engine: Engine) -> MatchService:
    return MatchService(engine)


def refused(err: pytest.ExceptionInfo[ServerError], code: str, message: str, status: int) -> None:
    assert (err.value.code, err.value.message, err.value.status) == (code, message, status)


def moves(engine: Engine, match_id: str) -> list[tuple[Any, ...]]:
    with Session(engine) as s:
        query = select(
            MoveRow.seq, MoveRow.kind, MoveRow.seat, MoveRow.action, MoveRow.visible, MoveRow.note
        ).where(MoveRow.match_id == match_id)
        return [tuple(r) for r in s.execute(query.order_by(MoveRow.seq)).all()]


def match_row(engine: Engine, match_id: str) -> tuple[Any, ...]:
    with Session(engine) as s:
        r = s.get(MatchRow, match_id)
        assert r is not None
        return (r.version, r.status, r.scores, r.bot_due)


def seat_rows(engine: Engine, match_id: str) -> list[tuple[Any, ...]]:
    with Session(engine) as s:
        rows = s.execute(select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat))
        return [
            (r.seat, r.kind, r.spec, r.name, r.token_sha256, r.joined_at is not None)
            for r in rows.scalars()
        ]


def pg_notify(engine: Engine) -> list[str]:
    """PostgreSQL's ``pg_notify`` stood in on SQLite: the payloads it was sent."""
    from sqlalchemy import event

    notified: list[str] = []

    @event.listens_for(engine, "connect")
    def _pg_notify(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.create_function("pg_notify", 2, lambda channel, p: notified.append(p))

    engine.dispose()  # the pooled connections have no such function
    return notified


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- creation -----------------------------------------------------------------------


def test_hash_token_is_the_sha256_hex_of_the_utf8_text() -> None:
    assert hash_token("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_file_options_are_those_that_name_files() -> None:
    assert file_options(FileGame) == {"layout_file", "sheet", "cards", "pathway"}
    assert file_options(SecretGame) == set()


def test_create_stores_the_match_its_seats_and_the_deal(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match(
        "secretduel", {}, [SeatRequest("human", "x", "  Ann  "), bot(" random ", "B" * 100)]
    )
    assert len(m.id) == 12 and m.seed_sha256 == commitment(SEED)
    assert list(m.tokens) == [0] and len(m.tokens[0]) == 32
    assert moves(engine, m.id) == [
        (0, "action", -1, "deal QUAIL", "100", None),
        (1, "action", -1, "deal URCHIN", "010", None),
    ]
    assert match_row(engine, m.id) == (2, "running", None, False)
    with Session(engine) as s:
        r = s.get(MatchRow, m.id)
        assert r is not None
        assert (r.game, r.config, r.seed, r.seed_sha256, r.chance, r.public) == (
            "secretduel",
            {"players": 2},
            "12345",
            commitment(SEED),
            "hmac-sha256",
            False,
        )
    assert seat_rows(engine, m.id) == [
        (0, "human", "human", "Ann", hash_token(m.tokens[0]), True),
        (1, "bot", "random", "B" * 80, None, False),
    ]
    rt = svc.runtimes[m.id]
    assert (rt.version, [e.text for e in rt.entries]) == (2, ["deal QUAIL", "deal URCHIN"])
    assert [(s.kind, s.spec, s.name, s.joined) for s in rt.seats] == [
        ("human", "human", "Ann", True),
        ("bot", "random", "B" * 80, False),
    ]
    assert (rt.seed, rt.chance, rt.caps) == (SEED, "hmac-sha256", svc.caps)


def test_create_claims_and_public(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match(
        "secretduel", {}, [SeatRequest("robot", "random"), HUMAN], public=True, claim=None
    )
    assert sorted(m.tokens) == [0, 1]  # "robot" is not "bot": a person's seat
    assert [r[1:4] + r[5:] for r in seat_rows(engine, m.id)] == [
        ("human", "human", "", False),
        ("human", "human", "", False),
    ]
    with Session(engine) as s:
        r = s.get(MatchRow, m.id)
        assert r is not None and r.public is True
    m2 = svc.create_match("secretduel", {}, [HUMAN, HUMAN], claim=1)
    assert [r[5] for r in seat_rows(engine, m2.id)] == [False, True]
    assert [s.joined for s in svc.runtimes[m2.id].seats] == [False, True]
    m3 = svc.create_match("secretduel", {}, [bot(), HUMAN])
    assert [r[5] for r in seat_rows(engine, m3.id)] == [False, True]  # the first human seat
    with pytest.raises(ServerError) as err:
        svc.create_match("secretduel", {}, [HUMAN, bot()], claim=1)
    refused(err, "invalid_seats", "seat P2 is not a seat for a person", 400)


def test_create_refusals_say_why(svc: MatchService, engine: Engine) -> None:
    cases: list[tuple[str, dict[str, Any], list[SeatRequest], str, str]] = [
        (
            "fileduel",
            {"layout_file": "/etc/passwd", "sheet": "", "cards": None},
            [HUMAN] * 2,
            "invalid_config",
            "option(s) layout_file name server files and cannot be set online",
        ),
        (
            "fileduel",
            {"cards": "x", "pathway": 1},
            [HUMAN] * 2,
            "invalid_config",
            "option(s) cards, pathway name server files and cannot be set online",
        ),
        (
            "secretduel",
            {"players": 3},
            [HUMAN] * 3,
            "invalid_config",
            "invalid secretduel config: players must be 2..2 (got 3)",
        ),
        ("secretduel", {}, [HUMAN], "invalid_seats", "2 players need 2 seats, got 1"),
        (
            "secretduel",
            {},
            [HUMAN, bot("mcts:seconds=30")],
            "invalid_seats",
            "seat 2: mcts:seconds=30 asks for 30 s a move; this server allows at most 2 s",
        ),
    ]
    for game, options, seats, code, message in cases:
        with pytest.raises(ServerError) as err:
            svc.create_match(game, options, seats)
        refused(err, code, message, 400)
    with Session(engine) as s:
        assert s.execute(select(MatchRow)).all() == []
    m = svc.create_match("fileduel", {"sheet": "", "profiles": 2}, [HUMAN] * 2)
    assert svc.runtime(m.id).game.config.model_dump()["profiles"] == 2


def test_games_are_loaded_once_per_config_up_to_a_thousand(svc: MatchService) -> None:
    g = svc.game("secretduel", {})
    assert svc.game("secretduel", {}) is g and svc.games == {"secretduel:{}": g}
    g2 = svc.game("secretduel", {"players": 2})
    assert g2 is not g and svc.game("secretduel", {"players": 2}) is g2
    assert list(svc.games) == ["secretduel:{}", 'secretduel:{"players": 2}']
    svc.games = {str(i): g for i in range(999)}
    svc.game("fileduel", {"pathway": 1, "cards": None})
    assert 'fileduel:{"cards": null, "pathway": 1}' in svc.games and len(svc.games) == 1000
    assert svc.game("fileduel", {}) is not svc.game("fileduel", {})
    assert len(svc.games) == 1000


# -- loading ------------------------------------------------------------------------


def test_a_match_is_replayed_from_its_log(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [SeatRequest(name="Ann"), bot("random", "Bo")])
    other = MatchService(engine)
    rt = other.runtime(m.id)
    assert rt is not svc.runtimes[m.id] and other.runtime(m.id) is rt
    assert (rt.match_id, rt.seed, rt.seed_sha256, rt.chance, rt.version) == (
        m.id,
        SEED,
        commitment(SEED),
        "hmac-sha256",
        2,
    )
    assert [(e.seat, e.text, e.visible) for e in rt.entries] == [
        (-1, "deal QUAIL", (True, False, False)),
        (-1, "deal URCHIN", (False, True, False)),
    ]
    assert [(s.seat, s.kind, s.spec, s.name, s.joined) for s in rt.seats] == [
        (0, "human", "human", "Ann", True),
        (1, "bot", "random", "Bo", False),
    ]
    assert rt.caps is other.caps
    with pytest.raises(ServerError) as err:
        other.runtime("zzz")
    refused(err, "not_found", "no match 'zzz'", 404)


def test_the_cache_keeps_the_most_recent_and_the_watched(engine: Engine) -> None:
    svc = MatchService(engine, cache_size=2)
    a, b = (svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id for _ in range(2))
    svc.runtime(a)  # a is now the most recent
    c = svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id
    assert list(svc.runtimes) == [a, c]
    svc.subscribers[a] = set()
    d = svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id
    assert list(svc.runtimes) == [c, d, a]  # a is watched: kept (and the cache grows)
    svc.subscribers.clear()
    svc.bot_tasks[c] = None  # type: ignore[assignment]
    svc.runtime(b)
    assert list(svc.runtimes) == [d, a, b, c]  # c has a bot running: kept
    svc.bot_tasks.clear()
    svc.runtime(d)  # from the cache: only moved to the end
    assert list(svc.runtimes) == [a, b, c, d]
    e = svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id
    assert list(svc.runtimes) == [d, e]


def test_a_log_that_no_longer_replays_is_refused_naming_the_rule_change(
    svc: MatchService, engine: Engine
) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    with engine.begin() as conn:
        conn.execute(
            update(MoveRow)
            .where(MoveRow.match_id == m.id, MoveRow.seq == 0)
            .values(action="deal YAK")
        )
    with pytest.raises(ServerError) as err:
        MatchService(engine).runtime(m.id)
    refused(
        err,
        "match_unplayable",
        "this match no longer replays under secretduel rules"
        f" version 1: {m.id}: row 0: logged 'deal YAK' but the seed draws 'deal QUAIL'",
        409,
    )


def test_unplayable_lists_the_rule_changes_in_order() -> None:
    class Changed(SecretGame):
        rules_version: ClassVar[int] = 3
        rules_changes: ClassVar[dict[int, str]] = {3: "third", 2: "second"}

    game = Changed(GameConfig())
    e = unplayable(game, ValueError("row 4: no"))
    assert (e.code, e.status) == ("match_unplayable", 409)
    assert e.message == (
        "this match no longer replays under secretduel rules version 3:"
        " row 4: no. The rules changed since version 1: rules 2: second;"
        " rules 3: third"
    )


# -- tokens, seats ------------------------------------------------------------------


def test_authenticate(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN], claim=None)
    other = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    assert svc.authenticate(m.id, None) is None and svc.authenticate(m.id, "") is None
    with pytest.raises(ServerError) as err:
        svc.authenticate(m.id, "made-up")
    refused(err, "invalid_token", "this seat token is not valid", 403)
    sub = Subscriber(0, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, sub)
    sub.render = None
    assert svc.authenticate(m.id, m.tokens[1]) == 1
    assert sub.render is not None  # the others see the seat taken
    digest = hash_token(m.tokens[1])
    assert svc.token_cache == {digest: (m.id, 1)} and svc.tokens_of == {m.id: {digest}}
    assert [r[5] for r in seat_rows(engine, m.id)] == [False, True]
    assert [s.joined for s in svc.runtime(m.id).seats] == [False, True]
    sub.render = None
    assert svc.authenticate(m.id, m.tokens[1]) == 1  # cached, already joined: no push
    assert sub.render is None
    for _ in range(2):
        with pytest.raises(ServerError) as err:
            svc.authenticate(m.id, other.tokens[0])
        refused(err, "invalid_token", "this seat token is not valid for this match", 403)
    # a seat joined in the database but whose runtime was not told: marked joined again
    fresh = MatchService(engine)
    rt = fresh.runtime(m.id)
    assert [s.joined for s in rt.seats] == [False, True]
    rt.seats[1].joined = False
    assert fresh.authenticate(m.id, m.tokens[1]) == 1 and rt.seats[1].joined


def test_join(svc: MatchService, engine: Engine) -> None:
    with pytest.raises(ServerError) as err:
        svc.join("zzz", 0)
    refused(err, "not_found", "no match 'zzz'", 404)
    private = svc.create_match("secretduel", {}, [HUMAN, HUMAN], claim=None)
    with pytest.raises(ServerError) as err:
        svc.join(private.id, 0)
    refused(err, "not_public", "this match is by invitation only", 403)
    m = svc.create_match("secretduel", {}, [HUMAN, bot()], public=True, claim=None)
    token = svc.join(m.id, 0)
    assert len(token) == 32
    assert seat_rows(engine, m.id)[0] == (0, "human", "human", "", hash_token(token), True)
    assert svc.runtime(m.id).seats[0].joined and svc.authenticate(m.id, token) == 0
    for seat, says in ((0, "seat P1 is not open"), (1, "seat P2 is not open")):
        with pytest.raises(ServerError) as err:
            svc.join(m.id, seat)
        refused(err, "seat_taken", says, 409)
    with pytest.raises(ServerError) as err:
        svc.authenticate(m.id, m.tokens[0])  # the invitation stopped working
    refused(err, "invalid_token", "this seat token is not valid", 403)
    done = svc.create_match("secretduel", {}, [HUMAN, HUMAN], public=True, claim=None)
    with engine.begin() as conn:
        conn.execute(update(MatchRow).where(MatchRow.id == done.id).values(status="finished"))
    with pytest.raises(ServerError) as err:
        svc.join(done.id, 0)
    refused(err, "match_over", "the match is over", 400)
    two = svc.create_match("secretduel", {}, [HUMAN, HUMAN], public=True, claim=None)
    token = svc.join(two.id, 1)  # only the seat asked for
    assert seat_rows(engine, two.id) == [
        (0, "human", "human", "", hash_token(two.tokens[0]), False),
        (1, "human", "human", "", hash_token(token), True),
    ]
    assert [s.joined for s in svc.runtime(two.id).seats] == [False, True]
    notified = pg_notify(engine)
    svc.shared = True  # on PostgreSQL the other processes are told the seat is taken
    svc.join(two.id, 0)
    assert notified == [f"j {two.id} 2 {svc.origin}"]


# -- moving -------------------------------------------------------------------------


def test_moves_are_written_then_committed(svc: MatchService, engine: Engine) -> None:
    finished: list[tuple[Any, ...]] = []
    svc.on_finish.append(lambda session, rt, state: finished.append((rt.match_id, state.scores())))
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])

    async def play() -> MatchRuntime:
        with pytest.raises(ServerError) as err:
            await svc.move(m.id, None, "secret RUBY", 2)
        refused(err, "spectator", "spectators can only watch", 403)
        for version in (True, "2", None, 2.0):
            with pytest.raises(ServerError) as err:
                await svc.move(m.id, 0, "secret RUBY", version)
            refused(err, "malformed", "a move quotes the version it was made at (integer)", 400)
        for version in (1, 3):
            with pytest.raises(ServerError) as err:
                await svc.move(m.id, 0, "secret RUBY", version)
            refused(
                err,
                "stale_state",
                f"the move was made at version {version} but the match is at 2",
                409,
            )
        rt = await svc.move(m.id, 0, "secret RUBY", 2, note="said")
        assert (rt.version, svc.last_commit) == (3, {m.id: 3})
        assert match_row(engine, m.id) == (3, "running", None, False)
        assert svc.locks[m.id] is svc.lock(m.id) and not svc.locks[m.id].locked()
        rt = await svc.move(m.id, 1, None, 3, command="guess JADE")
        with pytest.raises(ServerError) as err:
            await svc.move(m.id, 1, "guess JADE", 99)
        refused(err, "match_over", "the match is over", 400)
        return rt

    rt = run(play())
    assert [e.text for e in rt.entries][2:] == ["secret RUBY", "guess JADE"]
    assert moves(engine, m.id)[2:] == [
        (2, "action", 0, "secret RUBY", "100", "said"),
        (3, "action", 1, "guess JADE", "111", None),
    ]
    assert match_row(engine, m.id) == (4, "finished", [11.0, 4.0], False)
    assert finished == [(m.id, [11.0, 4.0])] and svc.last_commit == {m.id: 4}


def test_a_bot_due_is_written_and_moves(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, bot()])

    async def play() -> None:
        await svc.move(m.id, 0, "secret JADE", 2)
        assert match_row(engine, m.id) == (3, "running", None, True)
        assert list(svc.bot_tasks) == [m.id]
        await svc.bot_tasks[m.id]

    run(play())
    assert svc.bot_tasks == {} and match_row(engine, m.id)[:2] == (4, "finished")
    assert moves(engine, m.id)[3][:3] == (3, "action", 1)


def test_a_write_that_loses_the_race_is_stale(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    other = MatchService(engine)
    run(other.move(m.id, 0, "secret RUBY", 2))
    with pytest.raises(ServerError) as err:
        run(svc.move(m.id, 0, "secret TOPAZ", 2))  # this process's cache is behind
    refused(err, "stale_state", "the match moved on meanwhile; reload", 409)
    assert m.id not in svc.runtimes and svc.last_commit == {}
    assert svc.runtime(m.id).version == 3  # re-read from the log
    step = svc.runtime(m.id).plan_move(1, "guess RUBY")
    rt = svc.runtime(m.id)
    rt.version = 2  # the row version 2 is taken: the insert's unique key refuses it
    with pytest.raises(ServerError) as err:
        svc._store(rt, step)
    refused(err, "stale_state", "the match moved on meanwhile; reload", 409)
    assert svc.last_commit == {} and m.id not in svc.runtimes
    with pytest.raises(ServerError) as err:
        svc._store(rt, step)  # again, the runtime no longer cached: the same answer
    refused(err, "stale_state", "the match moved on meanwhile; reload", 409)


def test_notify_only_on_postgresql(svc: MatchService) -> None:
    said: list[tuple[str, dict[str, Any]]] = []

    class Conn:
        def execute(self, statement: Any, params: dict[str, Any]) -> None:
            said.append((str(statement), params))

    svc._notify(Conn(), "m", "abc", 7)  # type: ignore[arg-type]
    assert said == []
    svc.shared = True
    svc._notify(Conn(), "j", "abc", 7)  # type: ignore[arg-type]
    assert said == [
        (
            "SELECT pg_notify(:channel, :payload)",
            {"channel": "motherlode", "payload": f"j abc 7 {svc.origin}"},
        )
    ]
    assert CHANNEL == "motherlode"


def test_preview_and_undo(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    with pytest.raises(ServerError) as err:
        svc.preview(m.id, None, "secret RUBY")
    refused(err, "spectator", "spectators can only watch", 403)
    assert svc.preview(m.id, 0, "secret RUBY") == {
        "type": "preview",
        "version": 2,
        "command": "secret RUBY",
        "summary": "P1: secret RUBY",
        "details": [],
        "actions": [1],
        "texts": ["secret RUBY"],
        "overlay": "",
    }
    checked: list[str] = []
    svc.before_undo.append(checked.append)

    async def play() -> MatchRuntime:
        await svc.move(m.id, 0, "secret RUBY", 2)
        with pytest.raises(ServerError) as err:
            await svc.undo(m.id, None, 3)
        refused(err, "spectator", "spectators can only watch", 403)
        assert checked == []
        with pytest.raises(ServerError) as err:
            await svc.undo(m.id, 0, "3")
        refused(err, "malformed", "a move quotes the version it was made at (integer)", 400)
        with pytest.raises(ServerError) as err:
            await svc.undo(m.id, 1, 3)
        assert err.value.code == "undo_not_allowed"
        return await svc.undo(m.id, 0, 3)

    rt = run(play())
    assert checked == [m.id] * 3
    assert (rt.version, [e.text for e in rt.entries]) == (4, ["deal QUAIL", "deal URCHIN"])
    assert moves(engine, m.id)[3] == (3, "undo", -1, "", None, None)
    assert match_row(engine, m.id) == (4, "running", None, False) and svc.last_commit[m.id] == 4

    def no(match_id: str) -> None:
        raise ServerError("rated", f"no undo in {match_id}")

    svc.before_undo.append(no)
    with pytest.raises(ServerError) as err:
        run(svc.undo(m.id, 0, 4))
    assert err.value.message == f"no undo in {m.id}"


def test_current_rereads_a_newer_version_only_when_shared(
    svc: MatchService, engine: Engine
) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    run(MatchService(engine).move(m.id, 0, "secret RUBY", 2))
    cached = svc.runtime(m.id)
    assert svc._current(m.id, 3) is cached and cached.version == 2  # SQLite: one writer
    svc.shared = True
    assert svc._current(m.id, 2) is cached and svc._current(m.id, True) is cached
    assert svc._current(m.id, "3") is cached
    fresh = svc._current(m.id, 3)
    assert fresh is not cached and fresh.version == 3 and svc.runtimes[m.id] is fresh


def test_forget_drops_the_runtime_and_its_tokens(svc: MatchService) -> None:
    a = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    b = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    for m in (a, b):
        for t in m.tokens.values():
            svc.authenticate(m.id, t)
    svc.forget(a.id)
    assert list(svc.runtimes) == [b.id] and list(svc.tokens_of) == [b.id]
    assert set(svc.token_cache) == {hash_token(t) for t in b.tokens.values()}
    svc.forget("nothing")
    assert list(svc.runtimes) == [b.id]


# -- watching -----------------------------------------------------------------------


def done(value: Any) -> Future[Any]:
    f: Future[Any] = Future()
    f.set_result(value)
    return f


def test_subscriber_mailbox(caplog: pytest.LogCaptureFixture) -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    sub = Subscriber(1, send)
    assert (sub.last_rev, sub.render, sub.source, sub.closed) == (None, None, None, False)
    sub.resync()
    assert sub.render is None and not sub.wake.is_set()
    calls: list[int | None] = []

    def render(last: int | None) -> Future[tuple[int, str] | None]:
        calls.append(last)
        return done(None if last == 5 else (5, f"from {last}"))

    sub.push_state(render)
    assert sub.render is render and sub.source is render and sub.wake.is_set()
    sub.push("reply")

    async def drive() -> None:
        task = asyncio.get_running_loop().create_task(sub.writer())
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == ["from None", "reply"] and sub.last_rev == 5
        sub.push_state(render)  # up to date: nothing sent
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == ["from None", "reply"] and calls == [None, 5]
        sub.last_rev = 3
        sub.resync()  # a snapshot next
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent[-1] == "from None" and sub.last_rev == 5

        def broken(last: int | None) -> Future[tuple[int, str] | None]:
            raise RuntimeError("a game bug")

        sub.push_state(broken)
        for _ in range(5):
            await asyncio.sleep(0)
        assert json.loads(sent[-1]) == {
            "type": "error",
            "code": "internal",
            "message": "the state cannot be shown (a server error, logged)",
        }
        assert sub.last_rev is None
        assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
            ("ERROR", "cannot build a state message")
        ]
        # up to date, with a reply waiting: the reply still goes
        sub.last_rev = 5
        sub.push_state(render)
        sub.push("late reply")
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent[-1] == "late reply"
        sub.closed = True
        sub.wake.set()
        await task

    run(drive())
    fresh = Subscriber(None, send)
    for i in range(65):
        fresh.push(str(i))
    assert not fresh.closed and len(fresh.outbox) == 65
    fresh.push("66th")
    assert fresh.closed and fresh.outbox[-1] == "66th"


def test_a_newer_state_replaces_an_unsent_older_one() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    sub = Subscriber(0, send)

    async def drive() -> None:
        task = asyncio.get_running_loop().create_task(sub.writer())
        sub.push_state(lambda last: done((1, "one")))
        sub.push_state(lambda last: done((2, "two")))
        for _ in range(5):
            await asyncio.sleep(0)
        sub.closed = True
        sub.wake.set()
        await task

    run(drive())
    assert sent == ["two"] and sub.last_rev == 2


def test_a_push_still_being_drawn_is_awaited_while_the_loop_goes_on() -> None:
    # a board drawn in the drawing pool (here: finished by a timer thread 0.1 s later):
    # the writer waits for it without blocking the event loop, then sends it
    sent: list[str] = []
    ticks = [0]
    at_call: list[int] = []

    async def send(text: str) -> None:
        sent.append(f"{text} after {ticks[0] - at_call[0]} ticks")

    sub = Subscriber(0, send)
    pending: Future[tuple[int, str] | None] = Future()

    def render(last: int | None) -> Future[tuple[int, str] | None]:
        at_call.append(ticks[0])
        threading.Timer(0.1, pending.set_result, ((4, "drawn"),)).start()
        return pending

    async def ticker() -> None:
        while not sent:
            ticks[0] += 1
            await asyncio.sleep(0.001)

    async def drive() -> None:
        loop = asyncio.get_running_loop()
        counting = loop.create_task(ticker())
        task = loop.create_task(sub.writer())
        sub.push_state(render)
        await asyncio.wait_for(counting, 10)
        sub.closed = True
        sub.wake.set()
        await task

    run(drive())
    assert len(sent) == 1 and sent[0].startswith("drawn after ") and sub.last_rev == 4
    assert int(sent[0].split()[2]) > 0  # the loop ran on while the board was drawn


def test_subscribe_push_and_unsubscribe(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    a, b = Subscriber(0, send=None), Subscriber(None, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, a)
    svc.subscribe(m.id, b)
    assert svc.subscribers == {m.id: {a, b}}
    assert a.render is not None and a.wake.is_set()
    rt = svc.runtime(m.id)
    got = a.render(None).result()
    assert got is not None and got[0] == rt.rev
    assert a.render(rt.rev).result() is None  # from the revision it has: up to date
    assert (json.loads(got[1])["type"], json.loads(got[1])["seat"]) == ("state", 0)
    assert json.loads(got[1])["view"]["my_card"] == "QUAIL"
    assert b.render is not None
    spectator = b.render(None).result()
    assert spectator is not None and json.loads(spectator[1])["seat"] is None
    assert json.loads(spectator[1])["view"]["my_card"] is None
    a.render = b.render = None
    svc.changed(m.id, bots=False)
    assert a.render is not None and b.render is not None
    svc.unsubscribe(m.id, a)
    assert svc.subscribers == {m.id: {b}} and a.closed and a.wake.is_set()
    svc.unsubscribe(m.id, b)
    assert svc.subscribers == {}
    svc.unsubscribe(m.id, b)  # again: nothing to drop
    assert svc.subscribers == {}


def test_a_socket_that_reads_compressed_frames_is_pushed_deflated_bytes(svc: MatchService) -> None:
    # a socket whose hello asked for "deflate-raw" (its ``send_bytes`` set) is pushed the
    # raw deflate of the very text a plain socket of the same seat gets (a snapshot is past
    # PACK_MIN), on subscribing and after a change; the plain socket always gets text
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])

    async def to_bytes(data: bytes) -> None:
        raise AssertionError("not sent here")

    packed = Subscriber(0, send=None, send_bytes=to_bytes)  # type: ignore[arg-type]
    plain = Subscriber(0, send=None)  # type: ignore[arg-type]
    for step in ("subscribe", "changed"):
        if step == "subscribe":
            svc.subscribe(m.id, packed)
            svc.subscribe(m.id, plain)
        else:
            packed.render = plain.render = None
            svc.changed(m.id, bots=False)
        assert packed.render is not None and plain.render is not None
        rev, text = plain.render(None).result() or (None, "")
        assert isinstance(text, str) and len(text.encode()) >= runtime.PACK_MIN
        got = packed.render(None).result()
        assert got is not None and got[0] == rev and isinstance(got[1], bytes)
        assert zlib.decompress(got[1], -15).decode() == text
        assert json.loads(text)["seat"] == 0


def test_the_writer_sends_packed_pushes_as_binary_frames_and_text_as_text() -> None:
    texts: list[str] = []
    frames: list[bytes] = []

    async def send(text: str) -> None:
        texts.append(text)

    async def send_bytes(data: bytes) -> None:
        frames.append(data)

    sub = Subscriber(0, send, send_bytes=send_bytes)

    async def drive() -> None:
        task = asyncio.get_running_loop().create_task(sub.writer())
        sub.push_state(lambda last: done((1, b"\x01deflated")))
        for _ in range(5):
            await asyncio.sleep(0)
        sub.push_state(lambda last: done((2, '{"small": 1}')))  # under PACK_MIN: text
        sub.push("reply")
        for _ in range(5):
            await asyncio.sleep(0)
        sub.closed = True
        sub.wake.set()
        await task

    run(drive())
    assert frames == [b"\x01deflated"] and texts == ['{"small": 1}', "reply"]
    assert sub.last_rev == 2


# -- bots ---------------------------------------------------------------------------


def test_kick_bots_only_when_a_bot_is_to_move(svc: MatchService) -> None:
    human = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])

    async def drive() -> None:
        svc.kick_bots(human.id)
        assert svc.bot_tasks == {}
        svc.bot_tasks[m.id] = "busy"  # type: ignore[assignment]
        svc.kick_bots(m.id)
        assert svc.bot_tasks == {m.id: "busy"}
        del svc.bot_tasks[m.id]
        svc.kick_bots(m.id)
        task = svc.bot_tasks[m.id]
        await task
        assert svc.bot_tasks == {}
        assert svc.runtime(m.id).version == 3 and svc.runtime(m.id).entries[2].seat == 0
        svc.kick_bots(m.id)  # a human to move now
        assert svc.bot_tasks == {}

    run(drive())


def test_bot_delay_and_a_finished_match(engine: Engine) -> None:
    svc = MatchService(engine, bot_delay=0.01)
    m = svc.create_match("secretduel", {}, [bot(), bot()], claim=None)
    slept: list[float] = []
    real = asyncio.sleep

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await real(0)

    async def drive() -> None:
        service.asyncio.sleep = sleep  # type: ignore[assignment]
        try:
            svc.kick_bots(m.id)
            await svc.bot_tasks[m.id]
        finally:
            service.asyncio.sleep = real
        svc.kick_bots(m.id)
        assert svc.bot_tasks == {}

    run(drive())
    assert slept.count(0.01) == 2 and svc.runtime(m.id).finished


def test_a_failing_bot_gives_up_after_three_tries(
    svc: MatchService, caplog: pytest.LogCaptureFixture
) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    tries: list[int] = []

    async def wrong(rt: MatchRuntime, seat: int, slow: dict[int, float]) -> tuple[int, str]:
        tries.append(seat)
        return (4 if len(tries) % 2 else 99), ""  # not P1's move / not an action at all

    svc._bot_action = wrong  # type: ignore[method-assign]

    async def drive() -> None:
        svc.kick_bots(m.id)
        await svc.bot_tasks[m.id]

    run(drive())
    assert tries == [0, 0, 0] and svc.bot_tasks == {} and svc.runtime(m.id).version == 2
    assert [r.getMessage() for r in caplog.records] == [
        f"bot in {m.id} seat 0: invalid_move secretduel: {a} is not an action of this game"
        for a in (4, 99, 4)
    ]

    good: list[int] = []

    async def flaky(rt: MatchRuntime, seat: int, slow: dict[int, float]) -> tuple[int, str]:
        good.append(rt.version)
        if len(good) in (1, 2, 4, 5):  # two failures, a success, two more: never three in a row
            raise RuntimeError("boom")
        return rt.state.legal_actions()[0], ""

    m2 = svc.create_match("secretduel", {}, [bot(), bot()], claim=None)
    svc._bot_action = flaky  # type: ignore[method-assign]
    run(drive_match(svc, m2.id))
    assert good == [2, 2, 2, 3, 3, 3] and svc.runtime(m2.id).finished


async def drive_match(svc: MatchService, match_id: str) -> None:
    svc.kick_bots(match_id)
    await svc.bot_tasks[match_id]


def test_a_bot_that_lost_a_race(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    tries: list[int] = []
    elsewhere = [False, False, True]

    async def stale(*args: Any, **kwargs: Any) -> MatchRuntime:
        tries.append(1)
        raise ServerError("stale_state", "moved on", 409)

    svc.move = stale  # type: ignore[method-assign]
    asked: list[str] = []
    svc._moved_elsewhere = lambda match_id: asked.append(match_id) or elsewhere.pop(0)  # type: ignore
    svc.shared = True
    run(drive_match(svc, m.id))
    assert len(tries) == 3 and elsewhere == []  # stale tries are not failures
    assert asked == [m.id] * 3

    svc2 = MatchService(svc.engine)
    svc2.create_match("secretduel", {}, [bot(), HUMAN])
    assert svc2._moved_elsewhere(m.id) is True  # never wrote it
    svc2.last_commit[m.id] = 2
    assert svc2._moved_elsewhere(m.id) is False and m.id in svc2.runtimes
    svc2.last_commit[m.id] = 3
    svc2.runtime(m.id)
    assert svc2._moved_elsewhere(m.id) is True


class Pool:
    def __init__(self, answer: int | str) -> None:
        self.answer = answer
        self.jobs: list[BotJob] = []
        self.closed = False

    async def act(self, job: BotJob) -> int:
        self.jobs.append(job)
        if isinstance(self.answer, str):
            raise BotFailure(self.answer)
        return self.answer

    async def close(self) -> None:
        self.closed = True


def test_bot_workers_think_and_a_failure_is_replaced(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [bot("mcts:iterations=5"), bot("random")], claim=None)
    rt = svc.runtime(m.id)
    svc.pool = Pool(2)  # type: ignore[assignment]
    slow: dict[int, float] = {}
    assert run(svc._bot_action(rt, 0, slow)) == (2, "")
    job = svc.pool.jobs[0]  # type: ignore[union-attr]
    assert job == BotJob(
        m.id,
        "secretduel",
        {"players": 2},
        ("deal QUAIL", "deal URCHIN"),
        "mcts:iterations=5,seconds=2",
        service.bot_seed(SEED, 0) + 2,
    )
    svc.pool = Pool("crashed")  # type: ignore[assignment]
    action, note = run(svc._bot_action(rt, 0, slow))
    assert action in (0, 1, 2)
    assert note == "P1's bot (mcts) crashed; the random bot moved instead"
    trusted = Pool(2)
    svc.pool = trusted  # type: ignore[assignment]
    rt.state.apply_action(1)
    assert run(svc._bot_action(rt, 1, slow))[1] == "" and trusted.jobs == []
    assert list(slow) == [1] and 0.0 <= slow[1] < 1.0
    run(svc.close())
    assert trusted.closed


def test_a_fast_bot_moves_on_the_loop_a_new_one_in_a_thread(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    rt = svc.runtime(m.id)
    threads: list[Any] = []
    real = asyncio.to_thread

    async def to_thread(fn: Any, *args: Any) -> Any:
        threads.append(fn)
        return await real(fn, *args)

    async def drive() -> tuple[int, int]:
        service.asyncio.to_thread = to_thread  # type: ignore[assignment]
        try:
            slow: dict[int, float] = {}
            first = await svc._act_here(rt, 0, slow)  # unknown: a thread
            assert len(threads) == 1 and 0.0 < slow[0] < 1.0
            slow[0] = 0.9 * service.INLINE_BOT_SECONDS
            second = await svc._act_here(rt, 0, slow)  # known fast: inline
            assert len(threads) == 1
            slow[0] = service.INLINE_BOT_SECONDS
            await svc._act_here(rt, 0, slow)
            assert len(threads) == 2
            slow[0] = 10.0
            await svc._act_here(rt, 0, slow)
            assert slow[0] == 8.0  # decays by a fifth a move
            return first, second
        finally:
            service.asyncio.to_thread = real

    first, second = run(drive())
    assert first in (0, 1, 2) and second in (0, 1, 2)
    assert service.INLINE_BOT_SECONDS == 0.005


def test_resume_bots_claims_each_due_match_once(svc: MatchService, engine: Engine) -> None:
    due = svc.create_match("secretduel", {}, [bot(), HUMAN])
    human = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    assert match_row(engine, due.id)[3] is True and match_row(engine, human.id)[3] is False
    with engine.begin() as conn:  # a database upgraded with the flag set where no bot is due
        conn.execute(update(MatchRow).where(MatchRow.id == human.id).values(bot_due=True))

    async def drive() -> tuple[int, int]:
        other = MatchService(engine)
        assert other.resume_bots(older_than=3600) == 0
        resumed = other.resume_bots()
        tasks = list(other.bot_tasks.values())
        assert list(other.bot_tasks) == [due.id]
        again = other.resume_bots()  # its bot runs: not claimed twice
        for t in tasks:
            await t
        return resumed, again

    assert run(drive()) == (1, 0)
    assert match_row(engine, due.id)[:1] == (3,) and match_row(engine, human.id)[3] is False
    with Session(engine) as s:
        row = s.get(MatchRow, human.id)
        assert row is not None
        seen = row.updated_at
    assert svc._claim(human.id, seen) is True and svc._claim(human.id, seen) is False


def test_resume_skips_what_cannot_be_resumed(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    with engine.begin() as conn:
        conn.execute(
            update(MoveRow)
            .where(MoveRow.match_id == m.id, MoveRow.seq == 0)
            .values(action="deal YAK")
        )
    other = MatchService(engine)
    assert other.resume_bots() == 0 and other.bot_tasks == {}
    assert match_row(engine, m.id)[3] is True  # left due: a person must look at it


def test_start_resumes_and_close_cancels(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    other = MatchService(engine, bot_delay=60.0)

    async def drive() -> None:
        await other.start()
        # the due bot resumed; the one background task on SQLite is the clocks' watch
        assert list(other.bot_tasks) == [m.id] and len(other.background) == 1
        task, watch = other.bot_tasks[m.id], other.background[0]
        await other.close()
        assert task.cancelled() and watch.cancelled() and other.background == []

    run(drive())
    assert match_row(engine, m.id)[0] == 2


def test_takeover_default(engine: Engine) -> None:
    from motherlode.server.bots import BotCaps

    assert MatchService(engine).takeover_seconds == 19.0
    assert (
        MatchService(engine, bot_delay=1.5, caps=BotCaps(max_seconds=3.0)).takeover_seconds == 22.5
    )
    assert MatchService(engine, takeover_seconds=0.0).takeover_seconds == 0.0
    svc = MatchService(engine)
    assert svc.shared is False and svc.pool is None and len(svc.origin) == 12
    assert int(svc.origin, 16) >= 0 and svc.origin != MatchService(engine).origin
    assert (svc.cache_size, svc.bot_delay) == (4000, 0.0)


# -- other processes' changes ---------------------------------------------------------


def test_remote_changes(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    other = MatchService(engine)
    run(other.move(m.id, 0, "secret RUBY", 2))
    rt = svc.runtime(m.id)
    svc.remote_change("nonsense")
    svc.remote_change(f"m {m.id} x o")
    svc.remote_change(f"m {m.id} 3 {svc.origin}")  # its own
    svc.remote_change(f"m {m.id} 2 other")  # already held
    assert svc.runtimes[m.id] is rt and rt.version == 2
    sub = Subscriber(1, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, sub)
    sub.render = None
    svc.remote_change(f"m {m.id} 3 other")  # caught up in place: only the new rows
    assert svc.runtimes[m.id] is rt and rt.version == 3 and rt.entries[2].text == "secret RUBY"
    assert sub.render is not None and svc.bot_tasks == {}
    svc.remote_change(f"m {m.id} -1 ?")  # after a reconnection: nothing new
    assert svc.runtimes[m.id] is rt and rt.version == 3
    svc.authenticate(m.id, m.tokens[0])
    svc.remote_change(f"j {m.id} 3 other")  # a seat taken: forget it all
    assert m.id not in svc.runtimes and svc.token_cache == {} and m.id not in svc.tokens_of
    svc.remote_change(f"m {m.id} 3 other")  # not held: nothing to catch up
    assert m.id not in svc.runtimes
    rt = svc.runtime(m.id)
    rt.version = 1  # out of step with the log: catching up fails, forgotten
    svc.remote_change(f"m {m.id} 5 other")
    assert m.id not in svc.runtimes


def test_a_remote_change_pushes_without_moving_bots(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, bot()])
    other = MatchService(engine)
    other.kick_bots = lambda match_id: None  # type: ignore[method-assign]
    run(other.move(m.id, 0, "secret RUBY", 2))
    svc.runtime(m.id)
    sub = Subscriber(0, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, sub)
    svc._push = lambda match_id: (_ for _ in ()).throw(RuntimeError("x"))  # type: ignore
    svc.remote_change(f"m {m.id} 3 other")  # a push that fails is logged, not raised
    assert svc.runtime(m.id).version == 3 and svc.bot_tasks == {}


# -- listings, records --------------------------------------------------------------


def test_list_matches(svc: MatchService, engine: Engine) -> None:
    svc.kick_bots = lambda match_id: None  # type: ignore[method-assign]
    a = svc.create_match(
        "secretduel", {}, [SeatRequest(name="Ann"), bot("random", "Bo")], public=True
    )
    b = svc.create_match("secretduel", {}, [HUMAN, HUMAN], claim=None)
    run(svc.move(a.id, 0, "secret RUBY", 2))
    listed = svc.list_matches()
    assert [m["id"] for m in listed] == [a.id, b.id]  # the last changed first
    row = listed[0]
    updated = row.pop("updated_at")
    assert updated.endswith("Z") and len(updated) == 20 and updated[10] == "T"
    assert row == {
        "id": a.id,
        "game": "secretduel",
        "config": {"players": 2},
        "status": "running",
        "public": True,
        "version": 3,
        "seed_sha256": commitment(SEED),
        "seats": [
            {"seat": 0, "kind": "human", "spec": "human", "name": "Ann", "open": False},
            {"seat": 1, "kind": "bot", "spec": "random", "name": "Bo", "open": False},
        ],
        "scores": None,
    }
    assert [s["open"] for s in listed[1]["seats"]] == [True, True]
    assert listed[1]["public"] is False
    run(svc.move(a.id, 1, "guess RUBY", 3))
    assert svc.list_matches("finished")[0]["scores"] == [8.0, 7.0]
    assert [m["id"] for m in svc.list_matches("finished")] == [a.id]
    assert [m["id"] for m in svc.list_matches("running")] == [b.id]
    assert [m["id"] for m in svc.list_matches(limit=1)] == [a.id]
    c = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    assert [m["id"] for m in svc.list_matches()] == [c.id, a.id, b.id]


def test_the_record_is_published_at_the_end(svc: MatchService) -> None:
    svc.kick_bots = lambda match_id: None  # type: ignore[method-assign]
    m = svc.create_match("secretduel", {}, [SeatRequest(name="Ann"), bot("random", "Bo")])
    with pytest.raises(ServerError) as err:
        svc.record(m.id)
    refused(err, "match_running", "the record (and its seed) is published when the match ends", 403)
    run(svc.move(m.id, 0, "secret RUBY", 2))
    run(svc.move(m.id, 1, "guess TOPAZ", 3))
    record = svc.record(m.id)
    assert (record.game, record.config, record.players, record.seed) == (
        "secretduel",
        {"players": 2},
        ["Ann", "random"],
        SEED,
    )
    assert record.actions == ["deal QUAIL", "deal URCHIN", "secret RUBY", "guess TOPAZ"]
    assert record.scores == [11.0, 4.0]
    assert record.versions == {"rules": 1, "notation": 1, "chance": "hmac-sha256"}
    m2 = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    run(svc.move(m2.id, 0, "secret RUBY", 2))
    run(svc.move(m2.id, 1, "guess RUBY", 3))
    assert svc.record(m2.id).players == ["human", "human"]
    assert svc.record(m2.id).scores == [8.0, 7.0]


# -- PostgreSQL's background tasks (driven here with stand-ins) -----------------------


def test_take_over_looks_for_due_bots_periodically(
    svc: MatchService, caplog: pytest.LogCaptureFixture
) -> None:
    svc.takeover_seconds = 6.0
    calls: list[float | None] = []
    slept: list[float] = []

    def resume(older_than: float | None = None) -> int:
        calls.append(older_than)
        if len(calls) == 1:
            raise RuntimeError("database down")
        return len(calls) - 2  # 0, then 1

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > 3:
            raise asyncio.CancelledError

    svc.resume_bots = resume  # type: ignore[method-assign]
    real = asyncio.sleep
    service.asyncio.sleep = sleep  # type: ignore[assignment]
    try:
        with pytest.raises(asyncio.CancelledError):
            run(svc._take_over())
    finally:
        service.asyncio.sleep = real
    assert slept == [2.0] * 4 and calls == [6.0] * 3
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [
        ("ERROR", "cannot look for bots to take over"),
        ("WARNING", "took over 1 match(es) whose bot waited too long"),
    ]
    svc.takeover_seconds = 1.5
    slept.clear()
    service.asyncio.sleep = sleep  # type: ignore[assignment]
    try:
        with pytest.raises(asyncio.CancelledError):
            run(svc._take_over())
    finally:
        service.asyncio.sleep = real
    assert slept == [1.0] * 4  # at least a second between looks


def test_listen_forgets_what_other_processes_changed(
    svc: MatchService,
    engine: Engine,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import sys
    import types

    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    heard: list[str] = []
    svc.remote_change = heard.append  # type: ignore[method-assign]
    connects: list[tuple[str, bool]] = []
    executed: list[str] = []

    class Notice:
        def __init__(self, payload: str) -> None:
            self.payload = payload

    class Conn:
        async def __aenter__(self) -> Conn:
            return self

        async def __aexit__(self, *exc: object) -> bool:
            return False

        async def execute(self, query: str) -> None:
            executed.append(query)

        async def notifies(self) -> Any:
            for payload in ("m abc 3 other", "j abc 3 other"):
                yield Notice(payload)
            raise asyncio.CancelledError

    class AsyncConnection:
        @staticmethod
        async def connect(url: str, autocommit: bool = False) -> Conn:
            connects.append((url, autocommit))
            if len(connects) == 1:
                raise OSError("refused")
            return Conn()

    fake = types.ModuleType("psycopg")
    fake.AsyncConnection = AsyncConnection  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "psycopg", fake)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    from sqlalchemy.engine import make_url

    # the listening connection is psycopg's own: the plain URL, its password included
    svc.engine = types.SimpleNamespace(  # type: ignore[assignment]
        url=make_url("postgresql+psycopg://ann:secret@db.example/motherlode")
    )
    real = asyncio.sleep
    service.asyncio.sleep = sleep  # type: ignore[assignment]
    try:
        with pytest.raises(asyncio.CancelledError):
            run(svc._listen())
    finally:
        service.asyncio.sleep = real
    url = "postgresql://ann:secret@db.example/motherlode"
    assert connects == [(url, True), (url, True)] and slept == [1.0]
    assert executed == ["LISTEN motherlode"]
    assert heard == [f"m {m.id} -1 ?", "m abc 3 other", "j abc 3 other"]
    assert [r.getMessage() for r in caplog.records] == [
        "listening for other processes' changes: refused; again in 1 s"
    ]


def test_start_on_postgresql_listens_and_takes_over(svc: MatchService) -> None:
    started: list[str] = []

    async def listen() -> None:
        started.append("listen")
        await asyncio.Event().wait()

    async def take_over() -> None:
        started.append("take over")
        await asyncio.Event().wait()

    svc._listen = listen  # type: ignore[method-assign]
    svc._take_over = take_over  # type: ignore[method-assign]
    svc.shared = True

    async def drive() -> list[asyncio.Task[None]]:
        await svc.start()
        tasks = list(svc.background)
        await asyncio.sleep(0)
        await svc.close()
        return tasks

    tasks = run(drive())
    # the clocks' watch, then on PostgreSQL the listener and the take-over loop
    assert started == ["listen", "take over"] and len(tasks) == 3
    assert all(t.cancelled() for t in tasks) and svc.background == []


def test_the_record_and_the_bot_job_carry_the_config_as_json(svc: MatchService) -> None:
    svc.kick_bots = lambda match_id: None  # type: ignore[method-assign]
    m = svc.create_match("fileduel", {"order": [3, 4]}, [bot("mcts:iterations=5"), HUMAN])
    rt = svc.runtime(m.id)
    pool = Pool(1)
    svc.pool = pool  # type: ignore[assignment]
    run(svc._bot_action(rt, 0, {}))
    config = {
        "players": 2,
        "layout_file": None,
        "sheet": None,
        "cards": None,
        "pathway": 0,
        "profiles": 0,
        "order": [3, 4],
    }
    assert pool.jobs[0].config == config
    run(svc.move(m.id, 0, "secret RUBY", 2))
    run(svc.move(m.id, 1, "guess RUBY", 3))
    assert svc.record(m.id).config == config
    assert svc.list_matches()[0]["config"] == config


def test_moves_and_undos_of_a_match_wait_for_its_lock(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])

    async def drive() -> None:
        async with svc.lock(m.id):
            move = asyncio.get_running_loop().create_task(svc.move(m.id, 0, "secret RUBY", 2))
            for _ in range(5):
                await asyncio.sleep(0)
            assert not move.done() and svc.runtime(m.id).version == 2
        await move
        async with svc.lock(m.id):
            undo = asyncio.get_running_loop().create_task(svc.undo(m.id, 0, 3))
            for _ in range(5):
                await asyncio.sleep(0)
            assert not undo.done() and svc.runtime(m.id).version == 3
        await undo
        assert svc.runtime(m.id).version == 4

    run(drive())


def test_a_move_or_undo_quoting_a_newer_version_rereads_the_log_when_shared(
    svc: MatchService, engine: Engine
) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    svc.runtime(m.id)
    other = MatchService(engine)
    run(other.move(m.id, 0, "secret RUBY", 2))
    notified = pg_notify(engine)
    svc.shared = True  # another process moved it; its notice is not here yet
    rt = run(svc.undo(m.id, 0, 3))
    assert rt.version == 4 and [e.text for e in rt.entries] == ["deal QUAIL", "deal URCHIN"]
    run(MatchService(engine).move(m.id, 0, "secret JADE", 4))
    rt = run(svc.move(m.id, 1, "guess JADE", 5))
    assert rt.version == 6 and rt.finished
    assert notified == [f"m {m.id} 4 {svc.origin}", f"m {m.id} 6 {svc.origin}"]


def test_moved_elsewhere_rereads_the_log(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    svc.runtime(m.id)  # cached at version 2
    run(MatchService(engine).move(m.id, 0, "secret RUBY", 2))
    svc.last_commit[m.id] = 3  # as if this process wrote version 3
    assert svc._moved_elsewhere(m.id) is False and svc.runtime(m.id).version == 3


def test_not_due_clears_only_that_match_at_that_version(svc: MatchService, engine: Engine) -> None:
    a = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    b = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    with engine.begin() as conn:
        conn.execute(update(MatchRow).values(bot_due=True))
    svc._not_due(svc.runtime(a.id))
    assert [match_row(engine, x.id)[3] for x in (a, b)] == [False, True]
    stale = svc.runtime(b.id)
    run(MatchService(engine).move(b.id, 0, "secret RUBY", 2))
    with engine.begin() as conn:
        conn.execute(update(MatchRow).values(bot_due=True))
    svc._not_due(stale)  # the match moved on since: not this version's to clear
    assert match_row(engine, b.id)[3] is True


def test_close_survives_a_bot_task_that_failed(svc: MatchService) -> None:
    async def broken() -> None:
        raise RuntimeError("a bot bug")

    async def drive() -> None:
        task = asyncio.get_running_loop().create_task(broken())
        await asyncio.sleep(0)
        svc.bot_tasks["x"] = task
        await svc.close()
        assert task.done()

    run(drive())


# -- what the first whole-module pass left: resuming, claiming, other processes -------


def test_resume_only_running_matches_flagged_due(svc: MatchService, engine: Engine) -> None:
    over = svc.create_match("secretduel", {}, [bot(), HUMAN])
    unflagged = svc.create_match("secretduel", {}, [bot(), HUMAN])
    with engine.begin() as conn:
        conn.execute(update(MatchRow).where(MatchRow.id == over.id).values(status="finished"))
        conn.execute(update(MatchRow).where(MatchRow.id == unflagged.id).values(bot_due=False))
    other = MatchService(engine)

    async def drive() -> int:  # (a bot is started on the running loop)
        return other.resume_bots()

    assert run(drive()) == 0 and other.bot_tasks == {}


def test_resume_older_than_a_cutoff(
    svc: MatchService, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    now = dt.datetime(2030, 1, 1, 12, 0, 0)
    with engine.begin() as conn:
        conn.execute(update(MatchRow).values(updated_at=now - dt.timedelta(seconds=10)))
    monkeypatch.setattr(service, "utcnow", lambda: now)
    other = MatchService(engine)

    async def drive() -> list[int]:
        counts = [other.resume_bots(older_than=10.0)]  # exactly 10 s old: not older
        counts.append(other.resume_bots(older_than=9.0))
        await other.bot_tasks[m.id]
        return counts

    assert run(drive()) == [0, 1]


def test_resume_goes_on_past_a_busy_or_broken_match(
    svc: MatchService, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    busy = svc.create_match("secretduel", {}, [bot(), HUMAN])
    broken = svc.create_match("secretduel", {}, [bot(), HUMAN])
    fine = svc.create_match("secretduel", {}, [bot(), HUMAN])
    with engine.begin() as conn:
        conn.execute(
            update(MoveRow)
            .where(MoveRow.match_id == broken.id, MoveRow.seq == 0)
            .values(action="deal YAK")
        )
    other = MatchService(engine)

    async def drive() -> int:
        other.bot_tasks[busy.id] = "busy"  # type: ignore[assignment]
        resumed = other.resume_bots()
        await other.bot_tasks[fine.id]
        return resumed

    assert run(drive()) == 1
    assert [r.getMessage() for r in caplog.records] == [f"cannot resume match {broken.id}"]


def test_resume_rereads_what_another_process_wrote(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, bot()])
    svc.runtime(m.id)  # cached here at version 2, P1 to move
    other = MatchService(engine)
    other.kick_bots = lambda match_id: None  # type: ignore[method-assign]
    run(other.move(m.id, 0, "secret RUBY", 2))  # it died before its bot moved

    async def drive() -> int:
        resumed = svc.resume_bots()
        await svc.bot_tasks[m.id]
        return resumed

    assert run(drive()) == 1 and svc.runtime(m.id).finished


def test_claim_takes_only_its_match_and_moves_its_time_on(
    svc: MatchService, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    a = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    b = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    seen = dt.datetime(2030, 1, 1, 12, 0, 0)
    with engine.begin() as conn:
        conn.execute(update(MatchRow).values(updated_at=seen))
    monkeypatch.setattr(service, "utcnow", lambda: seen - dt.timedelta(hours=1))  # a slow clock
    assert svc._claim(a.id, seen) is True
    with Session(engine) as s:
        times = {r.id: r.updated_at for r in s.execute(select(MatchRow)).scalars()}
    assert times == {a.id: seen + dt.timedelta(microseconds=1), b.id: seen}


def test_remote_change_details(
    svc: MatchService, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    # another match's rows in the log, at the versions this one reaches next
    elsewhere = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    run(MatchService(engine).move(elsewhere.id, 0, "secret TOPAZ", 2))
    run(MatchService(engine).move(elsewhere.id, 1, "guess TOPAZ", 3))
    rt = svc.runtime(m.id)
    sub = Subscriber(0, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, sub)
    sub.render = None
    svc.remote_change(f"m  {m.id} 3 other")  # two spaces: not understood
    svc.remote_change(f"m {m.id} 0 other")  # version 0: held already
    assert sub.render is None and svc.runtimes[m.id] is rt
    assert [r.getMessage() for r in caplog.records] == [
        f"a notice not understood: 'm  {m.id} 3 other'"
    ]
    caplog.clear()
    other = MatchService(engine)
    run(other.move(m.id, 0, "secret RUBY", 2, note="a note"))
    with engine.begin() as conn:  # the visibility written with the row is the one used
        conn.execute(
            update(MoveRow).where(MoveRow.match_id == m.id, MoveRow.seq == 2).values(visible="111")
        )
    svc.remote_change(f"m {m.id} 3 other")
    assert svc.runtimes[m.id] is rt and rt.version == 3
    assert (rt.entries[2].note, rt.entries[2].visible) == ("a note", (True, True, True))
    run(other.undo(m.id, 0, 3))
    svc.remote_change(f"m {m.id} 4 other")  # an undo row caught up too
    assert svc.runtimes[m.id] is rt and rt.version == 4 and len(rt.entries) == 2
    rt.version = 1  # out of step: caught up from row 1, which fails
    svc.remote_change(f"m {m.id} 5 other")
    assert m.id not in svc.runtimes
    assert [r.getMessage() for r in caplog.records] == [f"cannot catch up with match {m.id}"]
    caplog.clear()
    svc.runtime(m.id)
    svc._push = lambda match_id: (_ for _ in ()).throw(RuntimeError("x"))  # type: ignore
    svc.remote_change(f"j {m.id} 4 other")
    assert [r.getMessage() for r in caplog.records] == [f"cannot push match {m.id}"]


def test_list_matches_shows_fifty_by_default(svc: MatchService, engine: Engine) -> None:
    import datetime as dt

    t = dt.datetime(2030, 1, 1)
    with Session(engine) as s, s.begin():
        for i in range(51):
            s.add(
                MatchRow(
                    id=f"m{i:02d}",
                    game="secretduel",
                    config={},
                    seed="1",
                    seed_sha256="",
                    chance="hmac-sha256",
                    status="running",
                    public=False,
                    version=0,
                    created_at=t,
                    updated_at=t + dt.timedelta(seconds=i),
                )
            )
    listed = svc.list_matches()
    assert len(listed) == 50 and listed[0]["id"] == "m50" and listed[-1]["id"] == "m01"


def test_a_cached_token_is_answered_without_the_database(svc: MatchService, engine: Engine) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    assert svc.authenticate(m.id, m.tokens[0]) == 0
    with engine.begin() as conn:
        conn.execute(update(SeatRow).values(token_sha256=None))
    assert svc.authenticate(m.id, m.tokens[0]) == 0  # until forget()
    svc.forget(m.id)
    with pytest.raises(ServerError) as err:
        svc.authenticate(m.id, m.tokens[0])
    refused(err, "invalid_token", "this seat token is not valid", 403)


def test_a_failed_worker_bot_is_replaced_seeded_and_said(svc: MatchService, engine: Engine) -> None:
    from motherlode.agents import create

    m = svc.create_match("secretduel", {}, [bot("mcts:iterations=5"), HUMAN])
    rt = svc.runtime(m.id)
    svc.pool = Pool("ran past its cap")  # type: ignore[assignment]
    got, expected = [], []
    for version in range(12):
        rt.version = version
        got.append(run(svc._bot_action(rt, 0, {}))[0])
        agent = create("random", rt.game, seed=service.bot_seed(SEED, 0) + version)
        expected.append(agent.act(rt.state.clone()))
    assert got == expected
    rt.version = 2
    run(drive_match(svc, m.id))
    note = "P1's bot (mcts) ran past its cap; the random bot moved instead"
    assert moves(engine, m.id)[2][1:3] + moves(engine, m.id)[2][5:] == ("action", 0, note)


def test_a_bot_that_raises_gives_up_after_three_tries(
    svc: MatchService, caplog: pytest.LogCaptureFixture
) -> None:
    m = svc.create_match("secretduel", {}, [bot(), HUMAN])
    tries: list[int] = []

    async def crash(rt: MatchRuntime, seat: int, slow: dict[int, float]) -> tuple[int, str]:
        tries.append(seat)
        raise RuntimeError("a bot bug")

    svc._bot_action = crash  # type: ignore[method-assign]
    run(drive_match(svc, m.id))
    assert tries == [0, 0, 0] and svc.bot_tasks == {}
    assert [r.getMessage() for r in caplog.records] == [f"bot in {m.id} seat 0 failed"] * 3


def test_a_replayed_match_keeps_the_stored_masks_and_notes(
    svc: MatchService, engine: Engine
) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    run(svc.move(m.id, 0, "secret RUBY", 2, note="a note"))
    with engine.begin() as conn:  # the visibility written with the row is the one used
        conn.execute(
            update(MoveRow).where(MoveRow.match_id == m.id, MoveRow.seq == 2).values(visible="111")
        )
    rt = MatchService(engine).runtime(m.id)
    assert (rt.entries[2].note, rt.entries[2].visible) == ("a note", (True, True, True))


def test_a_push_renders_that_match_for_that_seat(svc: MatchService) -> None:
    m = svc.create_match("secretduel", {}, [HUMAN, HUMAN])
    sub = Subscriber(1, send=None)  # type: ignore[arg-type]
    svc.subscribe(m.id, sub)
    sub.render = None
    svc.changed(m.id, bots=False)
    assert sub.render is not None
    got = sub.render(None).result()
    assert got is not None
    sent = json.loads(got[1])
    assert (sent["match"], sent["seat"], sent["view"]["my_card"]) == (m.id, 1, "URCHIN")


def test_creation_applies_the_servers_caps(engine: Engine) -> None:
    from motherlode.server.bots import BotCaps

    caps = BotCaps(max_seconds=0.5)
    svc = MatchService(engine, caps=caps)
    m = svc.create_match("secretduel", {}, [HUMAN, bot("strongest")])  # a level name
    rt = svc.runtimes[m.id]
    assert rt.caps is caps and rt.bot_spec(1) == "random"


def test_a_watched_match_stays_cached_whole(engine: Engine) -> None:
    svc = MatchService(engine, cache_size=1)
    a = svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id
    kept = svc.runtimes[a]
    svc.subscribers[a] = set()
    b = svc.create_match("secretduel", {}, [HUMAN, HUMAN]).id
    assert list(svc.runtimes) == [b, a] and svc.runtimes[a] is kept


def test_a_match_of_bots_and_the_finish_hook_in_its_transaction(
    svc: MatchService, engine: Engine
) -> None:
    from sqlalchemy import Connection

    sessions: list[object] = []
    svc.on_finish.append(lambda session, rt, state: sessions.append(session))
    m = svc.create_match("secretduel", {}, [bot(), bot()])  # nobody to claim a seat
    assert m.tokens == {} and seat_rows(engine, m.id)[0][5] is False
    run(drive_match(svc, m.id))
    assert len(sessions) == 1 and isinstance(sessions[0], Connection)

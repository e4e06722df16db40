"""The analysis of a finished match (server/analysis.py): none before the end (rated or
not), every decision judged after it by a deterministic bot (rows pinned), resumed after
a restart in a worker process, and a database of 0009 upgraded in place (SQLite here,
PostgreSQL when ``MOTHERLODE_TEST_POSTGRES`` names one)."""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import motherlode
from motherlode.server import service as service_module
from motherlode.server.analysis import AnalysisInfo, decisions, judge
from motherlode.server.app import create_app
from motherlode.server.db import make_engine, migrate
from motherlode.server.guard import Limits
from motherlode.server.runtime import bot_seed
from motherlode.server.service import MatchService, SeatRequest
from tests.server.helpers import auth, create, play_out

SPEC = "mcts:iterations=40"
SEED = 12345
"""The match seed (fixed here): the deal and the random bots' moves follow from it."""

PINNED = [  # the first decisions of the match of SEED, as the bot of SPEC judged them
    {"step": 50, "player": "P1", "played": "a4", "best": "d3", "played_value": 0.0,
     "best_value": 0.4, "loss": 0.4, "how": "search"},
    {"step": 51, "player": "P2", "played": "c4", "best": "d4", "played_value": 0.0,
     "best_value": 0.4286, "loss": 0.4286, "how": "search"},
    {"step": 52, "player": "P1", "played": "c1", "best": "c5", "played_value": 0.2,
     "best_value": 0.8667, "loss": 0.6667, "how": "search"},
]  # fmt: skip


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "new_seed", lambda: SEED)


def _app(db: Path, **kwargs: Any) -> Any:
    kwargs.setdefault("analysis_spec", SPEC)
    kwargs.setdefault("analysis_workers", 0)
    return create_app(str(db), limits=Limits.off(), **kwargs)


def _wait_done(client: TestClient, match_id: str) -> dict[str, Any]:
    # a guard against a hang, not a speed test: the worker runs at nice 19 and a loaded
    # machine may leave it little CPU
    for _ in range(12000):
        r = client.get(f"/api/matches/{match_id}/analysis")
        assert r.status_code == 200, r.text
        if r.json()["status"] == "done":
            return dict(r.json())
        time.sleep(0.05)
    raise AssertionError(f"the analysis did not end: {r.json()['progress']}")


def _bots_match(client: TestClient) -> str:
    match = create(client, "yukon", ["random", "random"])
    for _ in range(2000):
        if client.get(f"/api/matches/{match['id']}").json()["terminal"]:
            return str(match["id"])
        time.sleep(0.01)
    raise AssertionError("the bots did not finish")


def _expected(service: MatchService, match_id: str) -> list[dict[str, Any]]:
    """Every decision judged again here, directly (what the analysis stores)."""
    rt = service.runtime(match_id)
    state = rt.game.new_initial_state()
    out = []
    for i, e in enumerate(rt.entries):
        if e.seat >= 0:
            row = judge(rt.game, state.clone(), e.text, SPEC, bot_seed(rt.seed, e.seat) + i)
            out.append({"step": i + 1, **row})
        state.apply_string(e.text)
    return out


def _same(rows: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    keys = ("step", "seat", "how", "played", "best", "played_value", "best_value", "loss", "top")
    assert [{k: r[k] for k in keys} for r in rows] == [{k: e[k] for k in keys} for e in expected]


def test_no_analysis_before_the_end_and_every_decision_after(
    tmp_path: Path, fixed_seed: None
) -> None:
    with TestClient(_app(tmp_path / "a.db")) as client:
        people = create(client, "yukon", ["human", "human"])
        r = client.get(f"/api/matches/{people['id']}/analysis")
        assert r.status_code == 403
        assert r.json()["error"] == {
            "code": "match_running",
            "message": "the analysis is made when the match ends",
        }
        assert client.post(f"/api/matches/{people['id']}/analysis").status_code == 403
        assert client.get("/api/matches/nope/analysis").status_code == 404

        match_id = _bots_match(client)
        done = _wait_done(client, match_id)
        service = client.app.state.service  # type: ignore[attr-defined]
        rt = service.runtime(match_id)
        n = len(decisions(rt))
        assert n == 25 and len(rt.entries) == 74  # the 49 draws of the deal skipped
        assert (done["total"], done["done"], done["spec"]) == (
            n,
            n,
            SPEC + ",seconds=2",
        )  # the caps
        assert done["progress"] == f"analysed {n} of {n} decisions"
        assert AnalysisInfo.model_validate(done).model_dump() == done  # the OpenAPI's schema
        rows = done["rows"]
        for want, row in zip(PINNED, rows, strict=False):
            assert {k: row[k] for k in want} == want
        assert rows[0]["why"] == (
            "P1 played a4 (+0.00); the bot would have played d3 (+0.40), 0.40 better for P1."
            " Its top moves by its search: d3 +0.40 (10 tries), a6 +0.29 (7 tries),"
            " a4 +0.00 (6 tries), e3 -0.33 (3 tries)."
        )
        assert rows[0]["played_said"] == "P1 takes a4 (+5 gold); next P2 takes from row 4"
        _same(rows, _expected(service, match_id))
        for row in rows:
            assert row["loss"] == max(0.0, round(row["best_value"] - row["played_value"], 4))
            assert row["best"] != row["played"] or row["loss"] == 0
        # each seat's three largest losses of at least 0.1 are marked
        for seat in (0, 1):
            mine = [r for r in rows if r["seat"] == seat]
            worst = sorted(mine, key=lambda r: (-r["loss"], r["step"]))[:3]
            assert {r["step"] for r in mine if r["mistake"]} == {
                r["step"] for r in worst if r["loss"] >= 0.1
            }
        # asking again changes nothing (idempotent)
        again = client.post(f"/api/matches/{match_id}/analysis")
        assert again.status_code == 200 and again.json()["rows"] == rows


def test_a_rated_match_has_no_analysis_until_it_ends(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path / "r.db")) as client:
        body = {"game": "yukon", "config": {}, "seats": [{}, {}], "rated": True}
        r = client.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        match_id = r.json()["id"]
        tokens = {s["seat"]: s["token"] for s in r.json()["seats"]}
        for who in (auth(tokens[0]), {}):
            r = client.get(f"/api/matches/{match_id}/analysis", headers=who)
            assert r.status_code == 403
            assert r.json()["error"]["message"] == (
                "this match is rated: no undo, no hint and no analysis until it ends"
            )
        play_out(client, match_id, tokens)
        done = _wait_done(client, match_id)
        assert done["done"] == done["total"] == len(done["rows"]) > 0


def test_an_analysis_cut_by_a_restart_resumes_in_a_worker_process(
    tmp_path: Path, fixed_seed: None
) -> None:
    db = tmp_path / "restart.db"
    with TestClient(_app(db, resume=False)) as client:  # the analyser never starts
        match_id = _bots_match(client)
        service = client.app.state.service  # type: ignore[attr-defined]
        analyser = service.analyser
        assert client.get(f"/api/matches/{match_id}/analysis").json()["status"] == "queued"
        assert analyser._claim_next() == match_id
        assert asyncio.run(analyser.analyse(match_id, limit=5)) == 5
        cut = client.get(f"/api/matches/{match_id}/analysis").json()
        assert (cut["status"], cut["progress"]) == ("running", "analysed 5 of 25 decisions")
        expected = _expected(service, match_id)
        _same(cut["rows"], expected[:5])
    with TestClient(_app(db, analysis_workers=1)) as client:  # the server starts again
        done = _wait_done(client, match_id)
        service = client.app.state.service  # type: ignore[attr-defined]
        pool = service.analyser.pool
        assert pool.started == 1  # judged in a worker process, at the lowest priority
        for pid in pool.pids:
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.nice(0) + 19)
        assert done["progress"] == "analysed 25 of 25 decisions"
        _same(done["rows"], expected)


def _finished_at_0009(engine: sa.Engine) -> str:
    """A match played to its end by a server of migration 0009 (no analysis then)."""
    migrate(engine, "0009_clocks")
    old = MatchService(engine)
    made = old.create_match("yukon", {}, [SeatRequest(), SeatRequest()])

    async def play() -> None:
        rt = old.runtime(made.id)
        while not rt.finished:
            await old.move(
                made.id, rt.state.current_player(), rt.state.legal_actions()[0], rt.version
            )

    asyncio.run(play())
    return made.id


def _upgraded_and_analysed_on_request(make: Callable[[], Any], match_id: str) -> None:
    with TestClient(make()) as client:
        r = client.get(f"/api/matches/{match_id}/analysis")
        assert r.status_code == 200
        assert (r.json()["status"], r.json()["rows"]) == ("none", [])
        asked = client.post(f"/api/matches/{match_id}/analysis")
        assert asked.status_code == 200 and asked.json()["status"] in ("queued", "running")
        done = _wait_done(client, match_id)
        assert done["done"] == done["total"] == len(done["rows"]) > 0


def test_a_database_of_0009_upgrades_in_place_and_an_old_match_is_analysed_on_request(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    engine = make_engine(str(db))
    match_id = _finished_at_0009(engine)
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == (
            "0010_analysis"
        )
        assert conn.execute(sa.text("select count(*) from match_analysis")).scalar() == 0
    engine.dispose()
    _upgraded_and_analysed_on_request(lambda: _app(db), match_id)


POSTGRES = os.environ.get("MOTHERLODE_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_postgres_upgrades_from_0009_in_place_and_analyses(tmp_path: Path) -> None:
    from tests.server.postgres_db import drop_all

    assert POSTGRES is not None
    engine = make_engine(POSTGRES)
    drop_all(engine)
    match_id = _finished_at_0009(engine)
    migrate(engine)
    engine.dispose()
    _upgraded_and_analysed_on_request(
        lambda: create_app(POSTGRES, limits=Limits.off(), analysis_spec=SPEC, analysis_workers=0),
        match_id,
    )


_ = motherlode


# -- the dashboard's time left -------------------------------------------------------------


def test_the_dashboard_shows_each_match_s_time_left_on_my_clock(
    app_factory: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from argon2 import PasswordHasher
    from argon2.profiles import CHEAPEST

    from motherlode.server import accounts
    from tests.server.test_chat import claim, sign_up

    monkeypatch.setattr(accounts, "HASHER", PasswordHasher.from_parameters(CHEAPEST))
    app = app_factory()
    with (
        TestClient(app, base_url="https://testserver") as ann,
        TestClient(app, base_url="https://testserver") as bob,
    ):
        sign_up(ann, "ann")
        sign_up(bob, "bob")
        made = {}
        for kind, clock in (
            ("fischer", {"kind": "fischer", "base_minutes": 10, "increment_seconds": 5}),
            ("days", {"kind": "days", "days_per_move": 2}),
            ("none", None),
        ):
            body = {"game": "yukon", "config": {}, "seats": [{}, {}], "clock": clock}
            r = ann.post("/api/matches", json=body)
            assert r.status_code == 201, r.text
            tokens = {s["seat"]: s["token"] for s in r.json()["seats"]}
            claim(ann, r.json()["id"], tokens[0])
            claim(bob, r.json()["id"], tokens[1])
            made[kind] = r.json()["id"]
        mine = {m["id"]: m for m in ann.get("/api/me/games").json()["matches"]}
        theirs = {m["id"]: m for m in bob.get("/api/me/games").json()["matches"]}
        # P1 (ann) is to move: her clocks run; bob's wait, full
        fischer = mine[made["fischer"]]
        assert fischer["ticking"] and fischer["clock"] == "fischer"
        assert 590 < fischer["time_left"] <= 600 and fischer["clock_describe"] == (
            "10 min + 5 s a turn"
        )
        assert re.fullmatch(r"(9:5\d|10:00)", fischer["time_text"])
        assert {k: theirs[made["fischer"]][k] for k in ("time_left", "ticking", "time_text")} == {
            "time_left": 600.0,
            "ticking": False,
            "time_text": "10:00",
        }
        assert theirs[made["days"]]["time_text"] == "2 d 0 h"
        assert mine[made["days"]]["ticking"] and mine[made["days"]]["time_text"] in (
            "1 d 23 h",
            "2 d 0 h",
        )
        assert (mine[made["none"]]["clock"], mine[made["none"]]["time_text"]) == (None, "")
        html = bob.get("/me").text
        assert (
            '<td class="time-left" data-left="600.0" data-kind="fischer"'
            ' title="10 min + 5 s a turn">10:00</td>'
        ) in html
        assert '<td class="time-left">—</td>' in html


def test_a_server_without_analysis_says_so(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path / "off.db", analysis_spec=None)) as client:
        match_id = _bots_match(client)
        r = client.get(f"/api/matches/{match_id}/analysis")
        assert r.status_code == 200
        assert {k: r.json()[k] for k in ("status", "enabled", "rows", "done")} == {
            "status": "none",
            "enabled": False,
            "rows": [],
            "done": 0,
        }
        asked = client.post(f"/api/matches/{match_id}/analysis")
        assert asked.status_code == 409
        assert asked.json()["error"] == {
            "code": "analysis_off",
            "message": "this server analyses no matches (motherlode serve --analysis-spec)",
        }
        page = client.get(f"/m/{match_id}/replay").text
        assert 'id="analysis"' in page and 'id="analysis-start"' in page

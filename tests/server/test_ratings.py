"""Ratings: rated matches update openskill ratings once; leaderboards, profiles, no undo."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from motherlode.server import accounts
from motherlode.server.ratings import MatchTermsRow, RatingRow, outcome, rate_finished
from tests.server.helpers import auth, csrf, play_out, state
from tests.server.postgres_db import fresh
from tests.server.test_accounts import POSTGRES

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher.from_parameters(CHEAPEST))


OPEN: list[TestClient] = []


@pytest.fixture(autouse=True)
def close_clients() -> Any:
    yield
    while OPEN:
        OPEN.pop().__exit__(None, None, None)


def person(app: Any, name: str) -> TestClient:
    c = TestClient(app, base_url="https://testserver")
    c.__enter__()
    OPEN.append(c)
    r = c.post(
        "/signup",
        data={"csrf": csrf(c), "name": name, "password": PASSWORD, "again": PASSWORD},
    )
    assert r.status_code == 200
    return c


def rated_match(host: TestClient, people: list[TestClient], rated: bool = True) -> Any:
    body = {
        "game": "yukon",
        "config": {"players": len(people)},
        "rated": rated,
        "seats": [{"kind": "human"} for _ in people],
    }
    r = host.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    m = r.json()
    tokens = {s["seat"]: s["token"] for s in m["seats"]}
    for seat, c in enumerate(people):
        claim = c.post(
            f"/m/{m['id']}/claim",
            data={"csrf": csrf(c), "token": tokens[seat]},
            follow_redirects=False,
        )
        assert claim.status_code == 303
    return m["id"], tokens


def ratings_of(app: Any) -> dict[tuple[str, int], tuple[float, float, int]]:
    with app.state.service.engine.connect() as conn:
        rows = conn.execute(sa.select(RatingRow)).all()
    return {(r.subject, r.players): (r.mu, r.sigma, r.matches) for r in rows}


def expected(scores: list[float], winners: list[int]) -> list[tuple[float, float]]:
    """openskill's own numbers for one match from fresh ratings."""
    model = PlackettLuce()
    result = outcome([f"user:{i + 1}" for i in range(len(scores))], scores, winners, False)
    assert result is not None
    new = model.rate(
        [[model.rating()] for _ in result.units], ranks=[float(r) for r in result.ranks]
    )
    return [(t[0].mu, t[0].sigma) for t in new]


@pytest.mark.parametrize("players", [2, 3])
def test_a_rated_match_updates_ratings_as_openskill_does(
    app_factory: Callable[..., Any], players: int
) -> None:
    app = app_factory()
    people = [person(app, n) for n in ("ann", "bob", "cyd")[:players]]
    match_id, tokens = rated_match(people[0], people)
    final = play_out(people[0], match_id, tokens)
    scores = [float(x) for x in final["scores"]]
    winners = [p for p, s in enumerate(scores) if s == max(scores)]
    want = expected(scores, winners)
    got = ratings_of(app)
    for seat in range(players):
        mu, sigma, n = got[(f"user:{seat + 1}", players)]
        assert (mu, sigma, n) == pytest.approx((*want[seat], 1))
    # the winner's profile shows the rating, the plot and the match
    best = max(range(players), key=lambda p: scores[p])
    name = ("ann", "bob", "cyd")[best]
    page = people[0].get(f"/u/{name}").text
    assert f'<td class="mu">{want[best][0]:.2f}</td>' in page
    assert '<svg xmlns="http://www.w3.org/2000/svg" id="rating-history"' in page
    assert f'href="/m/{match_id}/replay"' in page
    # the leaderboard: best ordinal first
    board = people[0].get("/leaderboard/yukon").text
    order = re.findall(r'<td class="who"><a href="/u/(\w+)">', board)
    ordinals = {("ann", "bob", "cyd")[p]: want[p][0] - 3 * want[p][1] for p in range(players)}
    assert order == sorted(ordinals, key=lambda n: (-ordinals[n], n))


def test_a_match_is_rated_once(app_factory: Callable[..., Any]) -> None:
    app = app_factory()
    people = [person(app, "ann"), person(app, "bob")]
    match_id, tokens = rated_match(people[0], people)
    play_out(people[0], match_id, tokens)
    before = ratings_of(app)
    service = app.state.service
    rt = service.runtime(match_id)
    with service.engine.begin() as conn:  # a second process finishing it again
        assert rate_finished(conn, rt, rt.state) is False
    assert ratings_of(app) == before
    with service.engine.connect() as conn:
        done = conn.execute(sa.select(MatchTermsRow.rated_done)).scalar()
    assert done is True


def test_friendly_matches_change_no_rating_and_keep_undo(
    app_factory: Callable[..., Any],
) -> None:
    app = app_factory()
    people = [person(app, "ann"), person(app, "bob")]
    friendly, ftokens = rated_match(people[0], people, rated=False)
    rated, rtokens = rated_match(people[0], people, rated=True)
    for match_id, tokens, code in ((friendly, ftokens, 200), (rated, rtokens, 400)):
        s = state(people[0], match_id, tokens[0])
        mover = s["to_move"]
        mine = state(people[0], match_id, tokens[mover])
        r = people[0].post(
            f"/api/matches/{match_id}/move",
            headers=auth(tokens[mover]),
            json={"action": mine["legal"][0]["text"], "version": mine["version"]},
        )
        assert r.status_code == 200
        undo = people[0].post(
            f"/api/matches/{match_id}/undo",
            headers=auth(tokens[mover]),
            json={"version": r.json()["version"]},
        )
        assert undo.status_code == code, undo.text
        if code == 400:
            assert undo.json()["error"] == {
                "code": "undo_not_allowed",
                "message": "this match is rated: no undo (chosen at its creation)",
            }
    play_out(people[0], friendly, ftokens)
    assert ratings_of(app) == {}


def test_yukon_pairs_are_rated_as_teams_and_guests_are_not_rated() -> None:
    four = outcome(["user:1", "user:2", "user:3", "user:4"], [5, 1, 5, 1], [0, 2], True)
    assert four is not None and four.units == [["user:1", "user:3"], ["user:2", "user:4"]]
    assert four.ranks == [1, 2]
    shared = outcome(["user:1", "bot:random", "user:2"], [4, 4, 1], [0, 1], False)
    assert shared is not None and shared.ranks == [1, 1, 2]
    assert outcome(["user:1", None], [1, 2], [1], False) is None
    assert outcome(["bot:random", "bot:random"], [1, 2], [1], False) is None


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_ratings_on_postgres() -> None:
    from motherlode.server.app import create_app
    from motherlode.server.guard import Limits

    assert POSTGRES is not None
    fresh(POSTGRES)
    app = create_app(POSTGRES, limits=Limits.off())
    people = [person(app, "ann"), person(app, "bob")]
    match_id, tokens = rated_match(people[0], people)
    final = play_out(people[0], match_id, tokens)
    scores = [float(x) for x in final["scores"]]
    want = expected(scores, [p for p, s in enumerate(scores) if s == max(scores)])
    got = ratings_of(app)
    for seat in range(2):
        assert got[(f"user:{seat + 1}", 2)] == pytest.approx((*want[seat], 1))


def test_the_new_match_page_makes_a_rated_match_with_the_creators_seat_claimed(
    app_factory: Callable[..., Any],
) -> None:
    app = app_factory()
    ann, bob = person(app, "ann"), person(app, "bob")
    form = {
        "csrf": csrf(ann),
        "game": "yukon",
        "players": "2",
        "rated": "on",
        "seat0_kind": "human",
        "seat1_kind": "human",
    }
    r = ann.post("/new", data=form)
    assert r.status_code == 200, r.text
    match_id = re.search(r"/m/([^#\"/]+)#t=", r.text)
    assert match_id is not None
    mid = match_id.group(1)
    page = bob.get(f"/m/{mid}").text
    assert "<h2>Rated match</h2>" in page
    assert '<li>P1: <a href="/u/ann">ann</a></li>' in page
    assert "Play this seat as bob</button>" in page
    assert '<input type="checkbox" name="rated" id="rated" >' in ann.get("/new?game=yukon").text


def test_a_bot_level_has_a_rating(app_factory: Callable[..., Any]) -> None:
    import time

    app = app_factory()
    ann = person(app, "ann")
    body = {
        "game": "yukon",
        "config": {"players": 2},
        "rated": True,
        "seats": [{"kind": "human"}, {"kind": "bot", "spec": "random"}],
    }
    m = ann.post("/api/matches", json=body).json()
    token = m["seats"][0]["token"]
    claim = ann.post(
        f"/m/{m['id']}/claim", data={"csrf": csrf(ann), "token": token}, follow_redirects=False
    )
    assert claim.status_code == 303
    for _ in range(20_000):
        s = state(ann, m["id"], token)
        if s["terminal"]:
            break
        if s["to_move"] == 0:
            r = ann.post(
                f"/api/matches/{m['id']}/move",
                headers=auth(token),
                json={"action": s["legal"][0]["text"], "version": s["version"]},
            )
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.01)  # the bot moves in the server's background
    scores = [float(x) for x in s["scores"]]
    want = expected(scores, [p for p, x in enumerate(scores) if x == max(scores)])
    got = ratings_of(app)
    assert got[("user:1", 2)] == pytest.approx((*want[0], 1))
    assert got[("bot:random", 2)] == pytest.approx((*want[1], 1))
    board = ann.get("/leaderboard/yukon").text
    assert '<td class="who">bot random</td>' in board

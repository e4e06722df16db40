"""What the server answers, exactly, when it refuses a token or a join, and who has joined.

``tests/server/test_authorization.py`` proves each cell of the matrix gets its status and
code; these pin the rest of the answer (the message, the seat it names) and the
``joined`` flag every seat's view shows. Written for the mutants mutmut left alive in
``server/service.py`` (docs/testing.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette's notice about httpx2 (as tests/server/conftest.py)
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from motherlode.server.app import create_app
from motherlode.server.guard import Limits
from tests.server.helpers import auth, create, play_out, state


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("answers") / "motherlode.db"
    with TestClient(create_app(str(db), limits=Limits.off())) as c:
        yield c


def public(client: TestClient, seats: list[dict[str, str]]) -> dict[str, Any]:
    r = client.post("/api/matches", json={"game": "yukon", "config": {"players": len(seats)},
                                         "public": True, "seats": seats,
                                         "creator_seat": None})  # every seat open for others
    assert r.status_code == 201, r.text
    return dict(r.json())


def refused(r: Any, status: int, code: str, message: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert (body["code"], body["message"]) == (code, message)


def joined(client: TestClient, match: str) -> list[bool]:
    return [p["joined"] for p in state(client, match)["players"]]


def test_token_refusals_say_why(client: TestClient) -> None:
    a, b = create(client), create(client)
    refused(client.get(f"/api/matches/{a['id']}", headers=auth("made-up")),
            403, "invalid_token", "this seat token is not valid")
    # b's token, never used before (not cached), then again (cached): the same answer
    for _ in range(2):
        refused(client.get(f"/api/matches/{a['id']}", headers=auth(b["tokens"][0])),
                403, "invalid_token", "this seat token is not valid for this match")


def test_a_seat_shows_joined_once_its_token_is_used(client: TestClient) -> None:
    a = create(client)
    assert joined(client, a["id"]) == [True, False]  # the creator's seat, taken at creation
    assert state(client, a["id"], a["tokens"][1])["seat"] == 1
    assert joined(client, a["id"]) == [True, True]
    state(client, a["id"], a["tokens"][1])  # again (cached): still joined
    assert joined(client, a["id"]) == [True, True]


def test_join_takes_exactly_the_seat_asked_for(client: TestClient) -> None:
    human = {"kind": "human"}
    m = public(client, [human, human, {"kind": "bot", "spec": "random"}])
    assert joined(client, m["id"]) == [False, False, True]  # a bot counts as joined
    r = client.post(f"/api/matches/{m['id']}/seats/1/join")
    assert r.status_code == 200, r.text
    assert joined(client, m["id"]) == [False, True, True]
    assert state(client, m["id"], r.json()["token"])["seat"] == 1
    # seat 0 is still open; seat 1 and the bot's seat 2 are not, each named as printed
    refused(client.post(f"/api/matches/{m['id']}/seats/1/join"),
            409, "seat_taken", "seat P2 is not open")
    refused(client.post(f"/api/matches/{m['id']}/seats/2/join"),
            409, "seat_taken", "seat P3 is not open")
    r0 = client.post(f"/api/matches/{m['id']}/seats/0/join")
    assert r0.status_code == 200, r0.text
    assert state(client, m["id"], r0.json()["token"])["seat"] == 0


def test_join_refusals_say_why(client: TestClient) -> None:
    refused(client.post("/api/matches/zzz/seats/0/join"), 404, "not_found", "no match 'zzz'")
    private = create(client)
    refused(client.post(f"/api/matches/{private['id']}/seats/0/join"),
            403, "not_public", "this match is by invitation only")
    m = public(client, [{"kind": "human"}, {"kind": "human"}])
    tokens = {}
    for seat in (0, 1):
        r = client.post(f"/api/matches/{m['id']}/seats/{seat}/join")
        tokens[seat] = r.json()["token"]
    assert play_out(client, m["id"], tokens)["terminal"]
    refused(client.post(f"/api/matches/{m['id']}/seats/0/join"),
            400, "match_over", "the match is over")

"""The guard against one bad visitor (server/guard.py): security headers on every answer,
a body limit on every endpoint, per-client HTTP rate limits, CSRF tokens on form posts."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from motherlode.server.guard import CSRF_COOKIE, Buckets, Limits, Rate, kind_of
from tests.server.helpers import csrf

SEATS = [{"kind": "human"}, {"kind": "bot", "spec": "random"}]


@pytest.fixture
def guarded(app_factory: Callable[..., Any]) -> Iterator[Callable[[Limits], TestClient]]:
    clients: list[TestClient] = []

    def make(limits: Limits) -> TestClient:
        client = TestClient(app_factory(resume=False, limits=limits))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    mid = client.post("/api/matches", json={"game": "yukon", "seats": SEATS}).json()["id"]
    for path in ("/", f"/m/{mid}", "/api/games", "/static/match.js", "/m/nope", "/api/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"


def test_no_page_needs_an_inline_script(client: TestClient) -> None:
    """The CSP forbids inline scripts, so no page may carry one (it would not run)."""
    mid = client.post("/api/matches", json={"game": "yukon", "seats": SEATS}).json()["id"]
    for path in ("/", "/new?game=yukon", f"/m/{mid}", "/verify"):
        html = client.get(path).text
        assert "<script>" not in html and " onclick=" not in html, path


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    guarded: Callable[[Limits], TestClient],
) -> None:
    client = guarded(Limits(max_body=4096))
    big = b'{"game": "yukon", "pad": "' + b"x" * 30_000_000 + b'"}'
    r = client.post("/api/matches", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "message_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b"x" * 1000

    r = client.post("/verify", content=chunks())
    assert r.status_code == 413
    assert client.get("/healthz").status_code == 200  # and the server goes on


def test_creating_matches_is_rate_limited_per_client(
    guarded: Callable[[Limits], TestClient],
) -> None:
    client = guarded(Limits(create=Rate(1 / 3600, 3)))
    codes = [
        client.post("/api/matches", json={"game": "yukon", "seats": SEATS}).status_code
        for _ in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    r = client.post("/api/matches", json={"game": "yukon", "seats": SEATS})
    assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["retry-after"]) > 0
    assert client.get("/api/games").status_code == 200  # other requests draw other tokens


def test_a_lobby_flood_is_cut_off(guarded: Callable[[Limits], TestClient]) -> None:
    client = guarded(Limits(other=Rate(1.0, 20)))
    codes = [client.get("/").status_code for _ in range(30)]
    assert codes[:20] == [200] * 20 and codes[-1] == 429


def test_buckets_are_per_client_and_refill() -> None:
    now = [0.0]
    buckets = Buckets(Limits(create=Rate(1.0, 2), clients=2), clock=lambda: now[0])
    assert [buckets.take("a", "create") for _ in range(3)] == [0.0, 0.0, 1.0]
    assert buckets.take("b", "create") == 0.0  # another client has its own bucket
    now[0] = 1.0
    assert buckets.take("a", "create") == 0.0  # refilled
    buckets.take("c", "create")
    assert len(buckets.buckets) == 2  # the least recently seen are forgotten
    assert Buckets(Limits.off()).take("a", "create") == 0.0
    assert math.isinf(Limits.off().create.per_second)
    assert kind_of("POST", "/new") == kind_of("POST", "/api/matches") == "create"
    assert kind_of("POST", "/m/x/join/1") == "join" and kind_of("GET", "/") == "other"


def test_form_posts_need_the_visitors_csrf_token(client: TestClient) -> None:
    form = {
        "game": "yukon",
        "players": "2",
        "seat0_kind": "human",
        "seat1_kind": "bot",
        "seat1_spec": "greedy",
    }
    assert client.post("/new", data=form).status_code == 403  # no cookie, no field
    token = csrf(client)
    r = client.post("/new", data={**form, "csrf": "forged-by-another-site"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    assert client.post("/new", data={**form, "csrf": token}).status_code == 200
    page = client.get("/new?game=yukon").text
    assert f'name="csrf" value="{token}"' in page
    r = client.post("/verify", data={"record": "{}"})
    assert r.status_code == 403
    set_cookie = TestClient(client.app).get("/").headers["set-cookie"]
    assert CSRF_COOKIE in set_cookie and "samesite=strict" in set_cookie.lower()
    assert "httponly" in set_cookie.lower()

"""The HTTP API held to its own OpenAPI schema (schemathesis), on a short budget.

Every operation FastAPI publishes is called with generated paths, queries and bodies, and
every answer must conform to what the schema declares for that operation: no server error
(5xx), a declared status code, the declared content type and headers, and a body matching
the declared model (``ErrorBody`` for every refusal, the route's model for a success).
Half the generated requests are pointed at real matches (running, public, finished) and
carry a real seat token, so that they get past ``not_found`` (with a few hundred examples
this finds the seat beyond a database integer that was a 500). A second test calls every
operation on real matches (as a seat and as a spectator) under the same checks: the
success models are held to what the server really sends. Positive and negative data
(schemathesis's defaults), 10 examples an operation: a few seconds.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

with warnings.catch_warnings():  # Starlette's notice about httpx2, not about us
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from motherlode.server.app import create_app  # noqa: E402
from motherlode.server.guard import Limits  # noqa: E402
from tests.server.helpers import auth, create, csrf, play_out  # noqa: E402

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

_DB = Path(tempfile.mkdtemp(prefix="motherlode-fuzz-")) / "fuzz.db"
APP = create_app(str(_DB), resume=False, limits=Limits.off())
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


def _public(client: TestClient) -> dict[str, Any]:
    body = {"game": "yukon", "public": True, "seats": [{"kind": "human"}] * 2}
    created: dict[str, Any] = client.post("/api/matches", json=body).json()
    created["tokens"] = {s["seat"]: s["token"] for s in created["seats"]}
    return created


def _matches() -> list[dict[str, Any]]:
    """Real matches for the generated requests to meet: a running one, a public one, a
    finished one (the last also for the test on real matches: nothing changes it)."""
    client = TestClient(APP)
    running, done = create(client), create(client)
    play_out(client, done["id"], done["tokens"])
    return [running, _public(client), done]


MATCHES = _matches()
MATCH_IDS = [m["id"] for m in MATCHES]
TOKENS = [t for m in MATCHES for t in m["tokens"].values()]


@schema.hook
def flatmap_case(_context: Any, case: Any) -> Any:
    """Half the generated requests name a real match (and a seat token of one), so that
    they reach past ``not_found``: a generated move, undo, join or replay step meets a
    real match."""

    def meet(choice: tuple[str | None, str | None]) -> Any:
        match_id, token = choice
        if match_id is not None and "match_id" in (case.path_parameters or {}):
            case.path_parameters = {**case.path_parameters, "match_id": match_id}
        if token is not None:
            case.headers = {**(case.headers or {}), **auth(token)}
        return case

    ids, tokens = st.sampled_from(MATCH_IDS), st.sampled_from(TOKENS)
    return st.tuples(st.none() | ids, st.none() | tokens).map(meet)


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_answers_every_generated_request_as_its_schema_declares(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


def _calls(
    running: dict[str, Any], done: dict[str, Any], public: str
) -> list[tuple[str, str, dict[str, Any]]]:
    """``(method, path, case arguments)`` on real matches: each operation's success and
    its usual refusals."""
    r, d = running["id"], done["id"]
    seat0 = auth(running["tokens"][0])
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/api/games", {}),
        ("GET", "/api/matches", {}),
        ("GET", "/api/matches", {"query": {"status": "finished"}}),
        ("GET", "/healthz", {}),
        ("GET", "/", {}),
        ("GET", "/new", {"query": {"game": "yukon"}}),
        ("GET", "/verify", {}),
        ("POST", "/api/matches", {"body": {"game": "yukon", "seats": [{"kind": "human"}] * 2}}),
        ("POST", "/api/matches", {"body": {"game": "yukon", "seats": [{"kind": "bot"}] * 2}}),
        ("POST", "/api/matches/{match_id}/seats/{seat}/join", {"path": {"match_id": d, "seat": 0}}),
        (
            "POST",
            "/api/matches/{match_id}/seats/{seat}/join",
            {"path": {"match_id": public, "seat": 0}},
        ),
        (
            "POST",
            "/api/matches/{match_id}/seats/{seat}/join",
            {"path": {"match_id": public, "seat": 0}},
        ),
        # a page form without its CSRF token (another site's form): refused, 403
        ("POST", "/m/{match_id}/join/{seat}", {"path": {"match_id": public, "seat": 1}}),
        ("POST", "/m/{match_id}/join/{seat}", {"path": {"match_id": d, "seat": 0}}),
        # a seat beyond a database integer: refused (it was a 500 from the database)
        (
            "POST",
            "/api/matches/{match_id}/seats/{seat}/join",
            {"path": {"match_id": public, "seat": 2**40}},
        ),
        ("POST", "/m/{match_id}/join/{seat}", {"path": {"match_id": public, "seat": 2**40}}),
    ]
    for mid in (r, d):
        for headers in ({}, seat0):
            calls.append(
                ("GET", "/api/matches/{match_id}", {"path": {"match_id": mid}, "headers": headers})
            )
        calls += [
            ("GET", "/api/matches/{match_id}/record", {"path": {"match_id": mid}}),
            ("GET", "/api/matches/{match_id}/verify", {"path": {"match_id": mid}}),
            (
                "GET",
                "/api/matches/{match_id}/replay/{step}",
                {"path": {"match_id": mid, "step": 3}},
            ),
            ("GET", "/m/{match_id}", {"path": {"match_id": mid}}),
            ("GET", "/m/{match_id}/replay", {"path": {"match_id": mid}}),
            ("GET", "/m/{match_id}/verify", {"path": {"match_id": mid}}),
        ]
    calls += [
        (
            "POST",
            "/api/matches/{match_id}/undo",
            {"path": {"match_id": r}, "headers": seat0, "body": {"version": 0}},
        ),
        (
            "POST",
            "/api/matches/{match_id}/move",
            {"path": {"match_id": r}, "headers": seat0, "body": {"action": "zz", "version": 0}},
        ),
        (
            "POST",
            "/api/matches/{match_id}/move",
            {
                "path": {"match_id": d},
                "headers": auth(done["tokens"][0]),
                "body": {"action": 0, "version": 0},
            },
        ),
    ]
    return calls


def test_real_matches_are_answered_as_the_schema_declares() -> None:
    with TestClient(APP) as client:
        running, public, done = create(client), _public(client)["id"], MATCHES[-1]
        statuses = []
        for method, path, kwargs in _calls(running, done, public):
            args = {"path_parameters" if k == "path" else k: v for k, v in kwargs.items()}
            case = schema[path][method].Case(**args)
            statuses.append(case.call_and_validate(checks=CHECKS).status_code)
        assert {200, 201, 400, 403, 409, 422} <= set(statuses)
        # with the visitor's CSRF token, the lobby's join form seats it (303 to the match)
        token = csrf(client)
        joined = client.post(f"/m/{public}/join/1", data={"csrf": token}, follow_redirects=False)
        assert joined.status_code == 303

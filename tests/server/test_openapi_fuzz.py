"""The HTTP API held to its own OpenAPI schema (schemathesis), on a short budget.

Every operation FastAPI publishes is called with generated paths, queries and bodies, and
every answer must conform to what the schema declares for that operation: no server error
(5xx), a declared status code, the declared content type and headers, and a body matching
the declared model (``ErrorBody`` for every refusal, the route's model for a success).
Generated match ids name no match, so a second test calls every operation on real
matches (running and finished, as a seat and as a spectator) under the same checks: the
success models are checked against what the server really sends.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
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
from tests.server.helpers import auth, create, play_out  # noqa: E402

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

_DB = Path(tempfile.mkdtemp(prefix="motherlode-fuzz-")) / "fuzz.db"
APP = create_app(str(_DB), resume=False)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


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
        running = create(client)
        done = create(client)
        play_out(client, done["id"], done["tokens"])
        body = {"game": "yukon", "public": True, "seats": [{"kind": "human"}] * 2}
        public = client.post("/api/matches", json=body).json()["id"]
        statuses = []
        for method, path, kwargs in _calls(running, done, public):
            args = {"path_parameters" if k == "path" else k: v for k, v in kwargs.items()}
            case = schema[path][method].Case(**args)
            statuses.append(case.call_and_validate(checks=CHECKS).status_code)
        assert {200, 201, 303, 400, 403, 409, 422} <= set(statuses)

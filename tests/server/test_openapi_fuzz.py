"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis), on a short budget.

Every operation FastAPI publishes is called with generated paths, queries and bodies: no
answer may be a server error (5xx).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from motherlode.server.app import create_app  # noqa: E402

_DB = Path(tempfile.mkdtemp(prefix="motherlode-fuzz-")) / "fuzz.db"
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(str(_DB)))


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_every_generated_request_without_a_server_error(case: object) -> None:
    # Only "no 5xx" for now: app.py declares none of its error answers (400/403/404/409)
    # in the schema, so schemathesis's status-code conformance check (ST103) fails on the
    # first refused request; see docs/testing.md.
    case.call_and_validate(checks=[not_a_server_error])  # type: ignore[attr-defined]

"""Small helpers shared by the server tests."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient


def create(
    client: TestClient, game: str = "yukon", seats: list[str] | None = None, **config: Any
) -> dict[str, Any]:
    """Create a match; ``seats`` are ``"human"`` or bot specs."""
    seats = seats or ["human", "human"]
    body = {
        "game": game,
        "config": config,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "spec": s} for s in seats],
    }
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"]}
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state(client: TestClient, match_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/matches/{match_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def move(
    client: TestClient, match_id: str, token: str, action: Any, version: Any
) -> tuple[int, dict[str, Any]]:
    r = client.post(
        f"/api/matches/{match_id}/move",
        json={"action": action, "version": version},
        headers=auth(token),
    )
    return r.status_code, dict(r.json())


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    return dict(json.loads(ws.receive_text()))


def play_out(client: TestClient, match_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Every human seat plays its first legal move until the end (over HTTP)."""
    s = state(client, match_id)
    for _ in range(10_000):
        if s["terminal"]:
            return s
        seat = s["to_move"]
        mine = state(client, match_id, tokens[seat])
        code, s = move(client, match_id, tokens[seat], mine["legal"][0]["text"], mine["version"])
        assert code == 200, s
    raise AssertionError("game did not end")


def csrf(client: TestClient) -> str:
    """The visitor's CSRF token, as a page sets it in its cookie (the forms echo it)."""
    from motherlode.server.guard import CSRF_COOKIE

    if CSRF_COOKIE not in client.cookies:
        client.get("/")
    return str(client.cookies[CSRF_COOKIE])

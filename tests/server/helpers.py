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


class Viewer:
    """A client of the WebSocket's pushes, re-implemented apart from the server (as
    match.js does it): a snapshot replaces everything, a diff patches the fields and the
    board's elements by id. ``state`` is the whole view, its ``board`` as
    ``{"public": {id: markup}, "seat": {id: markup}}`` in drawing order, plus the size
    and static URL. A diff from another revision than the one held is an error."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def apply(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg["type"] == "state":
            state = {k: v for k, v in msg.items() if k != "board"}
            board = msg["board"]
            state["board"] = {
                "width": board["width"],
                "height": board["height"],
                "static": board["static"],
                "public": {k: v for k, v in board["public"]},
                "seat": {k: v for k, v in board["seat"]},
            }
            self.state = state
            return state
        assert msg["type"] == "diff", msg
        assert self.state is not None and msg["base"] == self.state["rev"], (msg, self.state)
        state = self.state
        state.update(msg["fields"])
        state["log"] = state["log"] + msg.get("log_add", [])
        state["version"], state["rev"] = msg["version"], msg["rev"]
        for name, change in msg.get("board", {}).items():
            layer: dict[str, str] = state["board"][name]
            for k in change.get("removed", []):
                del layer[k]
            layer.update(change.get("set", {}))
            if "order" in change:
                assert set(change["order"]) == set(layer), (name, change["order"], list(layer))
                state["board"][name] = {k: layer[k] for k in change["order"]}
        return state


def board_of(state: dict[str, Any]) -> tuple[Any, ...]:
    """A held board, order included (to compare a patched one with a snapshot)."""
    b = state["board"]
    return (
        b["width"],
        b["height"],
        b["static"],
        list(b["public"].items()),
        list(b["seat"].items()),
    )


def svg_of(state: dict[str, Any]) -> str:
    """The whole board a held state shows, as the HTTP API's ``svg`` (static layer apart)."""
    b = state["board"]
    if b["static"] is None:
        return "".join(b["seat"].values())
    return "".join(b["public"].values()) + "".join(b["seat"].values())

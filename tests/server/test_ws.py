"""The WebSocket: pushes to everyone at once, request errors, limits per connection."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import Viewer, create, hello


def recv(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.receive_text()))


def until(ws: Any, pred: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        m = recv(ws)
        if pred(m):
            return m
    raise AssertionError("expected message never came")


def test_a_whole_yukon_game_against_a_bot_over_the_websocket(client: TestClient) -> None:
    m = create(client, seats=["human", "greedy"])
    with client.websocket_connect(f"/ws/{m['id']}") as ws:
        viewer = Viewer()
        s = viewer.apply(hello(ws, m["tokens"][0]))
        moves = 0
        while not s["terminal"]:
            if s["to_move"] == 0:
                ws.send_text(
                    json.dumps(
                        {"type": "move", "action": s["legal"][0]["text"], "version": s["version"]}
                    )
                )
                moves += 1
            msg = recv(ws)
            assert msg["type"] == "diff", msg  # after the snapshot, only what changed
            s = viewer.apply(msg)
        assert moves > 5 and s["seed"] and s["outcome"]["scores"]
        assert [e["seat"] for e in s["log"]].count(1) > 5  # the bot moved by itself


def test_a_move_reaches_every_seat_and_spectator(client: TestClient) -> None:
    m = create(client)
    mid = m["id"]
    with (
        client.websocket_connect(f"/ws/{mid}") as a,
        client.websocket_connect(f"/ws/{mid}") as b,
        client.websocket_connect(f"/ws/{mid}") as watcher,
    ):
        sa, sb, sw = hello(a, m["tokens"][0]), hello(b, m["tokens"][1]), hello(watcher, None)
        assert (sa["seat"], sb["seat"], sw["seat"]) == (0, 1, None)
        assert sa["legal"] and not sb["legal"] and not sw["legal"]
        a.send_text(
            json.dumps({"type": "move", "action": sa["legal"][0]["text"], "version": sa["version"]})
        )
        for ws, first in ((a, sa), (b, sb), (watcher, sw)):
            viewer = Viewer()
            viewer.apply(first)
            new = viewer.apply(recv(ws))  # (a diff: P2 took its seat, then the move)
            while new["version"] == sa["version"]:
                new = viewer.apply(recv(ws))
            assert new["version"] > sa["version"]
            assert new["log"][sa["version"]]["text"] == sa["legal"][0]["text"]


def test_errors_are_codes_to_that_client_only_and_change_nothing(client: TestClient) -> None:
    m = create(client)
    mid = m["id"]
    with (
        client.websocket_connect(f"/ws/{mid}") as a,
        client.websocket_connect(f"/ws/{mid}") as b,
        client.websocket_connect(f"/ws/{mid}") as watcher,
    ):
        sa, _sb = hello(a, m["tokens"][0]), hello(b, m["tokens"][1])
        assert recv(a)["fields"]["players"][1]["joined"]  # P2 took its seat: a diff
        hello(watcher, None)
        v, text = sa["version"], sa["legal"][0]["text"]
        cases: list[tuple[Any, str, Any]] = [
            (b, "not_your_turn", {"type": "move", "action": text, "version": v}),
            (a, "stale_state", {"type": "move", "action": text, "version": v - 1}),
            (a, "invalid_move", {"type": "move", "action": "no such move", "version": v}),
            (a, "malformed", {"type": "move", "version": v}),
            (a, "malformed", {"type": "dance"}),
            (a, "malformed", [1, 2, 3]),
            (a, "undo_not_allowed", {"type": "undo", "version": v}),
            (watcher, "spectator", {"type": "move", "action": text, "version": v}),
        ]
        for i, (ws, code, msg) in enumerate(cases):
            if isinstance(msg, dict):
                msg["id"] = i
            ws.send_text(json.dumps(msg))
            err = recv(ws)
            assert err["type"] == "error" and err["code"] == code, (code, err)
            assert err["message"]
            if isinstance(msg, dict):
                assert err["id"] == i
        a.send_text("{not json")
        assert recv(a)["code"] == "malformed"
        a.send_text("x" * 5000)
        assert recv(a)["code"] == "message_too_large"
        a.send_bytes(b"\x00\x01")
        assert recv(a)["code"] == "malformed"
        a.send_text(json.dumps({"type": "ping", "id": 7}))
        assert recv(a) == {"type": "pong", "id": 7}
        a.send_text(json.dumps({"type": "sync"}))
        assert recv(a)["version"] == v  # nothing moved


def test_bad_tokens_and_unknown_matches_are_refused(client: TestClient) -> None:
    m = create(client)
    other = create(client)
    for token in ("made-up", other["tokens"][0]):
        with client.websocket_connect(f"/ws/{m['id']}") as ws:
            err = hello(ws, token)
            assert err["code"] == "invalid_token"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_text()
    with client.websocket_connect("/ws/nope") as ws:
        assert recv(ws)["code"] == "not_found"
    with client.websocket_connect(f"/ws/{m['id']}") as ws:
        ws.send_text(json.dumps({"type": "move"}))
        assert recv(ws)["code"] == "malformed"


def test_a_flooding_client_is_throttled_not_the_server(client: TestClient) -> None:
    m = create(client)
    mid = m["id"]
    with (
        client.websocket_connect(f"/ws/{mid}") as flood,
        client.websocket_connect(f"/ws/{mid}") as a,
    ):
        hello(flood, None)
        sa = hello(a, m["tokens"][0])
        for i in range(150):
            flood.send_text(json.dumps({"type": "ping", "id": i}))
        got = [until(flood, lambda x: x.get("code") == "rate_limited", limit=150)]
        assert got[0]["message"]
        # meanwhile a player moves and is answered at once
        a.send_text(
            json.dumps({"type": "move", "action": sa["legal"][0]["text"], "version": sa["version"]})
        )
        new = until(a, lambda x: x["type"] == "diff")
        assert new["version"] > sa["version"] and new["base"] == sa["rev"]

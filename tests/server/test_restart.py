"""A server killed mid-match (SIGKILL) and started again loses no match and no move."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.server.conftest import LiveServer


def _get(server: LiveServer, mid: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.url}/api/matches/{mid}", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def _move(server: LiveServer, mid: str, token: str, s: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/matches/{mid}/move",
        json={"action": s["legal"][0]["text"], "version": s["version"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def _huge_frames_are_refused_by_the_protocol_layer(server: LiveServer, mid: str) -> None:
    import json

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = server.url.replace("http", "ws") + f"/ws/{mid}"
    with connect(url, max_size=2**24) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send("x" * 200_000)
        try:
            while True:
                ws.recv(timeout=10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1009  # message too big
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


def _create(server: LiveServer, seats: list[dict[str, str]]) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/matches",
        json={"game": "yukon", "config": {"players": 2}, "seats": seats},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_kill_the_server_mid_match_start_it_and_continue(live_server: LiveServer) -> None:
    people = _create(live_server, [{"kind": "human"}, {"kind": "human"}])
    mid = people["id"]
    tokens = {s["seat"]: s["token"] for s in people["seats"]}
    with_bot = _create(live_server, [{"kind": "human"}, {"kind": "bot", "spec": "greedy"}])
    bot_mid, bot_token = with_bot["id"], with_bot["seats"][0]["token"]
    for _ in range(6):
        s = _get(live_server, mid)
        _move(live_server, mid, tokens[s["to_move"]], _get(live_server, mid, tokens[s["to_move"]]))
    _move(live_server, bot_mid, bot_token, _get(live_server, bot_mid, bot_token))
    before = _get(live_server, mid)
    _huge_frames_are_refused_by_the_protocol_layer(live_server, mid)
    live_server.kill()  # SIGKILL, the bot of the other match possibly about to move
    live_server.start()
    after = _get(live_server, mid)
    assert after["version"] == before["version"] and after["log"] == before["log"]
    assert after["svg"] == before["svg"] and after["seed_sha256"] == people["seed_sha256"]
    # the tokens still work: play on to the end, and the record verifies from the seed
    while not after["terminal"]:
        seat = after["to_move"]
        after = _move(live_server, mid, tokens[seat], _get(live_server, mid, tokens[seat]))
    v = httpx.get(f"{live_server.url}/api/matches/{mid}/verify", timeout=10).json()
    assert v["ok"], v
    # the bot resumed by itself after the restart
    s = _get(live_server, bot_mid, bot_token)
    deadline = time.monotonic() + 30
    while not s["terminal"] and time.monotonic() < deadline:
        if s["to_move"] == 0:
            s = _move(live_server, bot_mid, bot_token, s)
        else:
            time.sleep(0.05)
            s = _get(live_server, bot_mid, bot_token)
    assert s["outcome"] is not None

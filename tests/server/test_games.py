"""Every registered game is playable on the server: created, drawn, played to the end."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

import motherlode
from tests.server.helpers import create, move, state
from tests.server.test_leaks import _short_config


@pytest.mark.parametrize("game", motherlode.games())
def test_every_game_plays_to_the_end_on_the_server(client: TestClient, game: str) -> None:
    config = _short_config(game)
    n = motherlode.load(game, **config).num_players
    m = create(client, game, ["human"] + ["random"] * (n - 1), **config)
    token = m["tokens"][0]
    deadline = time.monotonic() + 60
    s = state(client, m["id"], token)
    assert s["svg"].startswith("<svg") and s["seed_sha256"] == m["seed_sha256"]
    page = client.get(f"/m/{m['id']}")
    assert page.status_code == 200 and "<svg" in page.text
    while not s["terminal"] and time.monotonic() < deadline:
        if s["to_move"] == 0:
            assert s["legal"], s
            code, s = move(client, m["id"], token, s["legal"][-1]["text"], s["version"])
            assert code == 200, s
        else:
            time.sleep(0.01)
            s = state(client, m["id"], token)
    assert s["terminal"], f"{game} did not finish"
    v = client.get(f"/api/matches/{m['id']}/verify").json()
    assert v["ok"], v

"""Chat, rematch, account names on the players panel, the dashboard and "play now"
(server/chat.py, server/mygames.py), on SQLite and (``MOTHERLODE_TEST_POSTGRES``)
PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("argon2")

from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi.testclient import TestClient

from motherlode.server import accounts
from motherlode.server.app import create_app
from motherlode.server.chat import MAX_CHARS
from motherlode.server.guard import Limits
from motherlode.server.mygames import derived_token
from tests.server.helpers import auth, create, csrf, hello, move, play_out, state

PASSWORD = "correct horse battery"
POSTGRES = os.environ.get("MOTHERLODE_TEST_POSTGRES")


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher.from_parameters(CHEAPEST))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def site(app_factory: Callable[..., Any]) -> Iterator[Callable[..., TestClient]]:
    """``site()`` opens one more browser (https: the session cookie is Secure) on one app,
    whose chat runs on a clock the test moves (``site.clock``)."""
    app = app_factory()
    clock = Clock()
    app.state.chat.clock = clock
    opened: list[TestClient] = []

    def make() -> TestClient:
        c = TestClient(app, base_url="https://testserver")
        c.__enter__()
        opened.append(c)
        return c

    make.clock = clock  # type: ignore[attr-defined]
    yield make
    for c in opened:
        c.__exit__(None, None, None)


def sign_up(c: TestClient, name: str) -> None:
    r = c.post(
        "/signup", data={"csrf": csrf(c), "name": name, "password": PASSWORD, "again": PASSWORD}
    )
    assert r.status_code == 200, r.text


def claim(c: TestClient, match_id: str, token: str) -> None:
    r = c.post(
        f"/m/{match_id}/claim", data={"csrf": csrf(c), "token": token}, follow_redirects=False
    )
    assert r.status_code == 303, r.text


def cookies(c: TestClient) -> dict[str, str]:
    """The browser's cookies for its WebSocket (the test client's is on ws://, where a
    browser on https sends its Secure cookies to wss://)."""
    return {"cookie": "; ".join(f"{k}={v}" for k, v in c.cookies.items())}


def say(c: TestClient, match_id: str, text: str, token: str | None = None) -> Any:
    return c.post(
        f"/api/matches/{match_id}/chat", json={"text": text}, headers=auth(token) if token else {}
    )


def texts(c: TestClient, match_id: str, token: str | None = None) -> list[str]:
    r = c.get(f"/api/matches/{match_id}/chat", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return [f"{m['author']}: {m['text']}" for m in r.json()["messages"]]


# -- chat -----------------------------------------------------------------------------


def test_a_message_is_stored_as_typed_and_never_markup(site: Any) -> None:
    c = site()
    m = create(c)
    evil = '<script>alert("x")</script> & <b>bold</b>'
    r = say(c, m["id"], evil, m["tokens"][0])
    assert r.status_code == 201, r.text
    assert r.json()["text"] == evil and r.json()["author"] == "P1" and r.json()["seat"] == 0
    assert texts(c, m["id"], m["tokens"][1]) == [f"P1: {evil}"]
    page = c.get(f"/m/{m['id']}").text
    assert "<script>alert" not in page  # the page holds no message: chat.js adds them as text
    # control characters go, newlines stay, the ends are trimmed
    assert say(c, m["id"], "  a\x00b\r\nc\x1b  ", m["tokens"][1]).json()["text"] == "ab\nc"


def test_length_and_emptiness_are_refused_saying_why(site: Any) -> None:
    c = site()
    m = create(c)
    token = m["tokens"][0]
    assert say(c, m["id"], "x" * MAX_CHARS, token).status_code == 201
    long = say(c, m["id"], "y" * (MAX_CHARS + 1), token)
    assert long.status_code == 400
    assert long.json()["error"] == {
        "code": "chat_too_long",
        "message": "a chat message has at most 500 characters (this one 501)",
    }
    empty = say(c, m["id"], " \n\t ", token)
    assert empty.status_code == 400
    assert empty.json()["error"]["code"] == "chat_empty"
    assert texts(c, m["id"], token) == ["P1: " + "x" * MAX_CHARS]


def test_a_seat_is_rate_limited_and_another_seat_is_not(site: Any) -> None:
    c = site()
    m = create(c)
    for i in range(5):
        assert say(c, m["id"], f"m{i}", m["tokens"][0]).status_code == 201
    sixth = say(c, m["id"], "m5", m["tokens"][0])
    assert sixth.status_code == 429
    assert sixth.json()["error"] == {
        "code": "rate_limited",
        "message": "chat: at most 5 messages in a row, then one each 2 s; wait 2 s",
    }
    assert say(c, m["id"], "other seat", m["tokens"][1]).status_code == 201
    site.clock.now += 2.0
    assert say(c, m["id"], "m5", m["tokens"][0]).status_code == 201
    assert say(c, m["id"], "m6", m["tokens"][0]).status_code == 429
    assert len(texts(c, m["id"], m["tokens"][0])) == 7


def test_the_spectators_channel_is_apart_from_the_players(site: Any) -> None:
    player = site()
    m = create(player)
    guest = site()
    refused = say(guest, m["id"], "hello players")
    assert refused.status_code == 403
    assert refused.json()["error"] == {
        "code": "chat_login",
        "message": "log in to write in the spectators' chat (reading is open)",
    }
    watcher = site()
    sign_up(watcher, "carol")
    assert say(watcher, m["id"], "nice move").status_code == 201
    assert say(player, m["id"], "thanks", m["tokens"][0]).status_code == 201
    assert texts(guest, m["id"]) == ["carol: nice move"]
    assert texts(player, m["id"], m["tokens"][1]) == ["P1: thanks"]
    # live: each socket hears only its own channel
    with (
        player.websocket_connect(f"/ws/{m['id']}") as p2,
        watcher.websocket_connect(f"/ws/{m['id']}", headers=cookies(watcher)) as spec,
    ):
        hello(p2, m["tokens"][1])
        hello(spec, None)
        p2.send_text(json.dumps({"type": "chat_open"}))
        spec.send_text(json.dumps({"type": "chat_open"}))
        h2, hs = json.loads(p2.receive_text()), json.loads(spec.receive_text())
        assert (h2["channel"], [x["text"] for x in h2["messages"]]) == ("players", ["thanks"])
        assert (hs["channel"], [x["text"] for x in hs["messages"]]) == ("spectators", ["nice move"])
        spec.send_text(json.dumps({"type": "chat", "text": "go P2"}))
        got = json.loads(spec.receive_text())
        assert got["channel"] == "spectators" and got["messages"][0]["author"] == "carol"
        p2.send_text(json.dumps({"type": "chat", "text": "gg"}))
        got = json.loads(p2.receive_text())  # its own message, not the spectator's before
        assert (got["channel"], got["messages"][0]["text"]) == ("players", "gg")
        assert got["messages"][0]["author"] == "P2"
        spec.send_text(json.dumps({"type": "ping", "id": 9}))
        assert json.loads(spec.receive_text()) == {"type": "pong", "id": 9}  # no "gg"


def test_a_seat_mutes_another_seat_or_the_whole_chat(site: Any) -> None:
    c = site()
    m = create(c, seats=["human", "human", "human"], players=3)
    p1, p2, p3 = (m["tokens"][i] for i in range(3))
    r = c.post(f"/api/matches/{m['id']}/chat/mute", json={"seat": 1}, headers=auth(p1))
    assert r.status_code == 200 and r.json()["muted"] == [1]
    for token, text in ((p2, "from P2"), (p3, "from P3")):
        assert say(c, m["id"], text, token).status_code == 201
    assert texts(c, m["id"], p1) == ["P3: from P3"]
    assert texts(c, m["id"], p3) == ["P2: from P2", "P3: from P3"]
    with c.websocket_connect(f"/ws/{m['id']}") as ws:
        hello(ws, p1)
        ws.send_text(json.dumps({"type": "chat_open"}))
        assert [x["text"] for x in json.loads(ws.receive_text())["messages"]] == ["from P3"]
        say(c, m["id"], "again P2", p2)
        say(c, m["id"], "again P3", p3)
        assert json.loads(ws.receive_text())["messages"][0]["text"] == "again P3"
        ws.send_text(json.dumps({"type": "chat_mute", "seat": -1, "muted": True}))
        muted = json.loads(ws.receive_text())
        assert muted["muted"] == [-1, 1] and muted["messages"] == []
        ws.send_text(json.dumps({"type": "chat_mute", "seat": 0, "muted": True}))
        refused = json.loads(ws.receive_text())
        assert (refused["code"], refused["message"]) == ("malformed", "a seat cannot mute itself")
    undo = c.post(
        f"/api/matches/{m['id']}/chat/mute", json={"seat": -1, "muted": False}, headers=auth(p1)
    )
    assert undo.json()["muted"] == [1]
    c.post(f"/api/matches/{m['id']}/chat/mute", json={"seat": 1, "muted": False}, headers=auth(p1))
    assert len(texts(c, m["id"], p1)) == 4
    bad = c.post(f"/api/matches/{m['id']}/chat/mute", json={"seat": 3}, headers=auth(p1))
    assert bad.json()["error"]["message"] == (
        "'seat' is the seat to mute: 0 to 2 (P1..P3), or -1 for all"
    )
    spectator = c.post(f"/api/matches/{m['id']}/chat/mute", json={"seat": 1})
    assert spectator.status_code == 403


def test_a_claimed_seat_shows_its_account_name_in_the_panel_and_the_chat(site: Any) -> None:
    ann = site()
    sign_up(ann, "ann")
    m = create(ann)
    with ann.websocket_connect(f"/ws/{m['id']}") as ws:
        assert [p["account"] for p in hello(ws, None)["players"]] == [None, None]
        claim(ann, m["id"], m["tokens"][1])
        pushed = json.loads(ws.receive_text())
        assert [p["account"] for p in pushed["fields"]["players"]] == [None, "ann"]
    assert [p["account"] for p in state(ann, m["id"])["players"]] == [None, "ann"]
    ann.app.state.service.forget(m["id"])  # type: ignore[attr-defined]
    assert [p["account"] for p in state(ann, m["id"])["players"]] == [None, "ann"]
    assert say(ann, m["id"], "hi", m["tokens"][1]).json()["author"] == "P2 ann"


# -- rematch --------------------------------------------------------------------------


def play_with_bots(c: TestClient, match_id: str, tokens: dict[int, str]) -> None:
    """The people play their first legal move until the end; the bots move by themselves."""
    for _ in range(100_000):
        s = state(c, match_id)
        if s["terminal"]:
            return
        if s["to_move"] in tokens:
            mine = state(c, match_id, tokens[s["to_move"]])
            if mine["to_move"] == s["to_move"] and mine["legal"]:
                move(c, match_id, tokens[s["to_move"]], mine["legal"][0]["text"], mine["version"])
        else:
            time.sleep(0.005)  # the bot's move, on the server's loop
    raise AssertionError("the game did not end")


def test_a_rematch_seats_the_same_players_bots_and_accounts(site: Any) -> None:
    ann, bob = site(), site()
    sign_up(ann, "ann")
    sign_up(bob, "bob")
    m = create(ann, seats=["human", "human", "random"], players=3)
    claim(ann, m["id"], m["tokens"][0])
    claim(bob, m["id"], m["tokens"][1])
    early = ann.post(f"/api/matches/{m['id']}/rematch", headers=auth(m["tokens"][0]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_running"
    with ann.websocket_connect(f"/ws/{m['id']}") as ws:
        hello(ws, m["tokens"][1])
        play_with_bots(ann, m["id"], m["tokens"])
        r = ann.post(f"/api/matches/{m['id']}/rematch", headers=auth(m["tokens"][0]))
        assert r.status_code == 200, r.text
        new = r.json()
        for _ in range(50):  # the pushes of the last moves, then the rematch
            msg = json.loads(ws.receive_text())
            if msg["type"] == "rematch":
                break
        assert msg == {"type": "rematch", "match": new["match"]}
    assert new["seat"] == 0 and new["token"] == derived_token(m["tokens"][0], new["match"])
    assert new["url"] == f"/m/{new['match']}#t={new['token']}"
    again = ann.post(f"/api/matches/{m['id']}/rematch", headers=auth(m["tokens"][0])).json()
    assert again == new  # the same match and token: nothing stored, nothing made twice
    theirs = bob.post(f"/api/matches/{m['id']}/rematch", headers=auth(m["tokens"][1])).json()
    assert (theirs["match"], theirs["seat"]) == (new["match"], 1)
    view = state(ann, new["match"], new["token"])
    assert view["seat"] == 0 and view["game"] == "yukon" and view["config"]["players"] == 3
    assert [(p["kind"], p["spec"], p["joined"], p["account"]) for p in view["players"]] == [
        ("human", "human", True, "ann"),
        ("human", "human", True, "bob"),
        ("bot", "random", True, None),
    ]
    assert state(bob, new["match"], theirs["token"])["seat"] == 1
    assert view["seed_sha256"] != state(ann, m["id"])["seed_sha256"]
    spectator = ann.post(f"/api/matches/{m['id']}/rematch")
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "spectator"
    assert f'data-rematch="{new["match"]}"' in ann.get(f"/m/{m['id']}").text
    listed = {x["id"]: x for x in ann.get("/api/matches").json()}
    assert listed[new["match"]]["public"] is False


# -- the dashboard, play now ------------------------------------------------------------


def test_the_dashboard_lists_my_running_games_those_waiting_for_me_first(site: Any) -> None:
    ann, bob = site(), site()
    sign_up(ann, "ann")
    sign_up(bob, "bob")
    ids = []
    for _ in range(3):
        m = create(ann)
        claim(ann, m["id"], m["tokens"][0])
        claim(bob, m["id"], m["tokens"][1])
        ids.append((m["id"], m["tokens"]))
    # P1 (ann) moves in the first and the third: they wait for bob, the second for ann
    for match_id, tokens in (ids[0], ids[2]):
        s = state(ann, match_id, tokens[0])
        assert s["to_move"] == 0
        code, _ = move(ann, match_id, tokens[0], s["legal"][0]["text"], s["version"])
        assert code == 200
    mine = ann.get("/api/me/games").json()
    assert mine["account"] == "ann" and mine["waiting"] == 1
    assert [(x["id"], x["your_turn"]) for x in mine["matches"]] == [
        (ids[1][0], True),
        (ids[2][0], False),
        (ids[0][0], False),
    ]
    assert mine["matches"][0]["seats"] == ["P1"] and mine["matches"][0]["to_move"] == "P1"
    theirs = bob.get("/api/me/games").json()
    assert theirs["waiting"] == 2
    assert [x["id"] for x in theirs["matches"]] == [ids[0][0], ids[2][0], ids[1][0]]
    html = bob.get("/me").text
    assert "<title>(2) motherlode — my games</title>" in html
    assert html.count('class="waiting"') == 2
    guest = site()
    assert guest.get("/api/me/games").status_code == 403
    assert guest.get("/me", follow_redirects=False).headers["location"] == "/login?next=/me"


def test_play_now_starts_a_match_against_a_bot_level_or_takes_the_oldest_open_seat(
    site: Any,
) -> None:
    ann = site()
    sign_up(ann, "ann")
    r = ann.post(
        "/play", data={"csrf": csrf(ann), "game": "yukon", "level": "easy"}, follow_redirects=False
    )
    assert r.status_code == 303
    found = re.fullmatch(r"/m/([^#]+)#t=(.+)", r.headers["location"])
    assert found is not None
    match_id, token = found.groups()
    view = state(ann, match_id, token)
    assert view["seat"] == 0
    assert [(p["kind"], p["spec"]) for p in view["players"]] == [
        ("human", "human"),
        ("bot", "easy"),
    ]
    assert view["players"][0]["account"] == "ann"
    bad = ann.post("/play", data={"csrf": csrf(ann), "game": "yukon", "level": "godlike"})
    assert bad.status_code == 422 and "no bot level &#39;godlike&#39;" in bad.text
    none = ann.post("/play/join", data={"csrf": csrf(ann), "game": "yukon"})
    assert none.status_code == 404
    assert "no public yukon match has an open seat now" in none.text
    # two public matches with open seats: the older is joined first, then the next seat
    made = []
    for _ in range(2):
        body = {
            "game": "yukon",
            "config": {"players": 3},
            "public": True,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
        }
        made.append(ann.post("/api/matches", json=body).json()["id"])
    bob = site()
    sign_up(bob, "bob")
    places = []
    for _ in range(3):
        r = bob.post(
            "/play/join", data={"csrf": csrf(bob), "game": "yukon"}, follow_redirects=False
        )
        assert r.status_code == 303
        where = re.fullmatch(r"/m/([^#]+)#t=(.+)", r.headers["location"])
        assert where is not None
        places.append((where.group(1), state(bob, where.group(1), where.group(2))["seat"]))
    assert places == [(made[0], 1), (made[0], 2), (made[1], 1)]
    assert bob.app.state.accounts.claims(made[0]) == {1: "bob", 2: "bob"}  # type: ignore[attr-defined]


def test_the_pages_show_chat_play_now_and_my_games(site: Any) -> None:
    ann = site()
    lobby = ann.get("/").text
    assert 'action="/play"' in lobby and 'action="/play/join"' in lobby
    assert 'id="my-games"' not in lobby and "mygames.js" not in lobby
    sign_up(ann, "ann")
    lobby = ann.get("/").text
    assert 'id="my-games" href="/me"' in lobby and "/static/mygames.js" in lobby
    m = create(ann)
    page = ann.get(f"/m/{m['id']}").text
    assert 'id="chat-form"' in page and "/static/chat.js" in page and 'id="rematch"' in page


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_chat_rematch_and_dashboard_on_postgres() -> None:
    from tests.server.postgres_db import fresh

    assert POSTGRES is not None
    fresh(POSTGRES)
    app = create_app(POSTGRES, limits=Limits.off())
    with TestClient(app, base_url="https://testserver") as ann:
        sign_up(ann, "ann")
        m = create(ann)
        claim(ann, m["id"], m["tokens"][0])
        evil = "<script>x</script>"
        assert say(ann, m["id"], evil, m["tokens"][0]).status_code == 201
        assert say(ann, m["id"], "watching").status_code == 201
        assert texts(ann, m["id"], m["tokens"][1]) == [f"P1 ann: {evil}"]
        assert texts(ann, m["id"]) == ["ann: watching"]
        assert ann.get("/api/me/games").json()["waiting"] == 1
        play_out(ann, m["id"], m["tokens"])
        r = ann.post(f"/api/matches/{m['id']}/rematch", headers=auth(m["tokens"][0])).json()
        assert state(ann, r["match"], r["token"])["players"][0]["account"] == "ann"
        assert ann.get("/api/me/games").json()["matches"][0]["id"] == r["match"]


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_a_message_written_on_one_process_reaches_a_watcher_on_another() -> None:
    from tests.server.postgres_db import fresh

    assert POSTGRES is not None
    fresh(POSTGRES)
    one = create_app(POSTGRES, limits=Limits.off())
    other = create_app(POSTGRES, limits=Limits.off())
    with TestClient(one) as a, TestClient(other) as b:
        m = create(a)
        with a.websocket_connect(f"/ws/{m['id']}") as ws:
            hello(ws, m["tokens"][0])
            ws.send_text(json.dumps({"type": "chat_open"}))
            assert json.loads(ws.receive_text())["messages"] == []
            for _ in range(200):  # the first process's LISTEN may still be connecting
                if a.app.state.service.background:  # type: ignore[attr-defined]
                    break
                time.sleep(0.01)
            time.sleep(0.5)
            assert say(b, m["id"], "from the other process", m["tokens"][1]).status_code == 201
            # P2's link used for the first time, on the other process: the watcher is
            # first told that P2 took the seat (a 'j' notice), then gets the message
            # (a snapshot: that process re-read the match it was told of)
            seat_taken = json.loads(ws.receive_text())
            assert seat_taken["type"] == "state", seat_taken
            players = seat_taken["players"]
            assert [p["joined"] for p in players] == [True, True], players
            got = json.loads(ws.receive_text())
            assert got["channel"] == "players"
            assert (got["messages"][0]["author"], got["messages"][0]["text"]) == (
                "P2",
                "from the other process",
            )

"""The JSON API: creation and validation, tokens, the server as the only authority."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.helpers import auth, create, csrf, move, play_out, state


def test_create_match_gives_one_secret_token_per_open_seat(client: TestClient) -> None:
    m = create(client, seats=["human", "greedy"])
    assert set(m["tokens"]) == {0}
    assert len(m["seed_sha256"]) == 64
    assert m["seats"][0]["link"].endswith(f"/m/{m['id']}#t={m['tokens'][0]}")
    listed = client.get("/api/matches").json()
    # the creator's own seat (the first human one) is taken at creation, not left open
    assert any(x["id"] == m["id"] and not x["seats"][0]["open"] for x in listed)


def test_nobody_can_take_the_creators_seat_of_a_public_match(client: TestClient) -> None:
    """The attack: POST .../seats/0/join on a fresh public match used to hand a stranger
    the creator's seat, and the creator's own link then answered invalid_token."""
    r = client.post(
        "/api/matches",
        json={
            "game": "yukon",
            "public": True,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert r.status_code == 201, r.text
    m = r.json()
    mine = {s["seat"]: s["token"] for s in m["seats"]}
    stolen = client.post(f"/api/matches/{m['id']}/seats/0/join")
    assert stolen.status_code == 409 and stolen.json()["error"]["code"] == "seat_taken"
    s = client.get(f"/api/matches/{m['id']}", headers={"Authorization": f"Bearer {mine[0]}"})
    assert s.status_code == 200 and s.json()["seat"] == 0
    listed = {x["id"]: x for x in client.get("/api/matches").json()}[m["id"]]
    assert [seat["open"] for seat in listed["seats"]] == [False, True]
    other = client.post(f"/api/matches/{m['id']}/seats/1/join")  # the other seat is open
    assert other.status_code == 200, other.text


def test_tokens_are_stored_only_hashed(client: TestClient) -> None:
    import hashlib

    import sqlalchemy as sa

    m = create(client)
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        dump = "\n".join(str(row) for row in conn.execute(sa.text("select * from seats")))
    for token in m["tokens"].values():
        assert token not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump


def test_bad_config_and_bad_seats_are_refused_with_the_engines_reason(client: TestClient) -> None:
    r = client.post("/api/matches", json={"game": "yukon", "config": {"players": 9}, "seats": []})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_config"
    assert "players must be 2..4" in r.json()["error"]["message"]
    r = client.post(
        "/api/matches",
        json={"game": "yukon", "seats": [{"kind": "human"}, {"kind": "bot", "spec": "nonsense"}]},
    )
    assert r.json()["error"]["code"] == "invalid_seats"
    assert "unknown agent 'nonsense'" in r.json()["error"]["message"]
    r = client.post("/api/matches", json={"game": "nope", "seats": []})
    assert r.json()["error"]["code"] == "invalid_config"
    r = client.post("/api/matches", content=b"{not json")
    assert r.json()["error"]["code"] == "malformed"


def test_options_naming_server_files_cannot_be_set_online(client: TestClient) -> None:
    r = client.post(
        "/api/matches",
        json={
            "game": "chinagold",
            "config": {"layout_file": "/etc/passwd"},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert r.status_code == 400
    assert "cannot be set online" in r.json()["error"]["message"]
    games = {g["game"]: g for g in client.get("/api/games").json()}
    assert "layout_file" in games["chinagold"]["online_blocked_options"]
    assert games["yukon"]["online_blocked_options"] == []


def test_only_the_seat_token_moves_for_its_seat(client: TestClient) -> None:
    m = create(client)
    a, b = m["tokens"][0], m["tokens"][1]
    s = state(client, m["id"], a)
    assert s["seat"] == 0 and s["to_move"] == 0 and s["legal"]
    text = s["legal"][0]["text"]
    # the other seat: not its turn
    code, err = move(client, m["id"], b, text, s["version"])
    assert (code, err["error"]["code"]) == (400, "not_your_turn")
    # a spectator (no token) cannot move
    r = client.post(f"/api/matches/{m['id']}/move", json={"action": text, "version": s["version"]})
    assert r.json()["error"]["code"] == "spectator"
    # a made-up token, and a token of another match, do nothing
    code, err = move(client, m["id"], "made-up", text, s["version"])
    assert (code, err["error"]["code"]) == (403, "invalid_token")
    other = create(client)
    code, err = move(client, m["id"], other["tokens"][0], text, s["version"])
    assert (code, err["error"]["code"]) == (403, "invalid_token")
    assert state(client, m["id"])["version"] == s["version"]  # nothing changed
    code, after = move(client, m["id"], a, text, s["version"])
    assert code == 200 and after["version"] > s["version"]
    assert after["log"][s["version"]]["text"] == text


def test_illegal_malformed_and_stale_moves_change_nothing(client: TestClient) -> None:
    m = create(client)
    a = m["tokens"][0]
    s = state(client, m["id"], a)
    v = s["version"]
    for action, code in [
        ("zz99", "invalid_move"),
        ("", "invalid_move"),
        (10**9, "invalid_move"),
        (-3, "invalid_move"),
        (None, "invalid_move"),
        ([1, 2], "invalid_move"),
        (True, "invalid_move"),
    ]:
        status, err = move(client, m["id"], a, action, v)
        assert err["error"]["code"] == code, (action, err)
        assert status == 400
    legal = {x["text"] for x in s["legal"]}
    illegal = next(f"{c}{r}" for c in "abcdefg" for r in range(1, 8) if f"{c}{r}" not in legal)
    status, err = move(client, m["id"], a, illegal, v)
    assert err["error"]["code"] == "invalid_move" and "illegal" in err["error"]["message"]
    status, err = move(client, m["id"], a, s["legal"][0]["text"], v - 1)
    assert (status, err["error"]["code"]) == (409, "stale_state")
    status, err = move(client, m["id"], a, s["legal"][0]["text"], None)
    assert err["error"]["code"] == "malformed"
    r = client.post(f"/api/matches/{m['id']}/move", json={"version": v}, headers=auth(a))
    assert r.json()["error"]["code"] == "malformed"
    r = client.post(f"/api/matches/{m['id']}/move", content=b"x" * 10_000, headers=auth(a))
    assert r.json()["error"]["code"] == "message_too_large"
    assert state(client, m["id"])["version"] == v
    # a move by action id works as well as by notation
    status, after = move(client, m["id"], a, s["legal"][0]["id"], v)
    assert status == 200 and after["log"][v]["text"] == s["legal"][0]["text"]


def test_undo_follows_the_bga_rule(client: TestClient) -> None:
    # a first move that reveals nothing (a Pan card would draw a disc: no undo then)
    for _ in range(20):
        m = create(client)
        a, b = m["tokens"][0], m["tokens"][1]
        s = state(client, m["id"], a)
        assert not s["can_undo"]  # nothing of mine to undo
        option = s["legal"][0]
        code, after = move(client, m["id"], a, option["text"], s["version"])
        assert code == 200
        if after["log"][-1]["seat"] == 0:
            break
        assert not after["can_undo"]  # something was revealed since
    else:
        raise AssertionError("no first move without a reveal in 20 deals")
    assert after["can_undo"]
    assert not state(client, m["id"], b)["can_undo"]  # not b's decision
    r = client.post(
        f"/api/matches/{m['id']}/undo", json={"version": after["version"]}, headers=auth(b)
    )
    assert r.json()["error"]["code"] == "undo_not_allowed"
    r = client.post(
        f"/api/matches/{m['id']}/undo", json={"version": after["version"] - 1}, headers=auth(a)
    )
    assert r.json()["error"]["code"] == "stale_state"
    r = client.post(
        f"/api/matches/{m['id']}/undo", json={"version": after["version"]}, headers=auth(a)
    )
    undone = r.json()
    assert r.status_code == 200, undone
    assert undone["version"] == after["version"] + 1  # the undo is itself a log row
    assert undone["log"] == s["log"] and undone["to_move"] == 0 and not undone["can_undo"]
    # once the other seat acts, the move can no longer be undone
    code, _again = move(client, m["id"], a, option["text"], undone["version"])
    sb = state(client, m["id"], b)
    if sb["to_move"] == 1:
        code, _ = move(client, m["id"], b, sb["legal"][0]["text"], sb["version"])
        assert code == 200
        assert not state(client, m["id"], a)["can_undo"]


def test_seed_is_secret_until_the_end_then_the_record_verifies(client: TestClient) -> None:
    m = create(client)
    s = state(client, m["id"])
    assert s["seed"] is None and s["seed_sha256"] == m["seed_sha256"]
    r = client.get(f"/api/matches/{m['id']}/record")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "match_running")
    assert client.get(f"/api/matches/{m['id']}/replay/3").status_code == 403
    end = play_out(client, m["id"], m["tokens"])
    assert end["terminal"] and end["seed"] is not None and end["outcome"]["winners"]
    import hashlib

    assert hashlib.sha256(end["seed"].encode()).hexdigest() == m["seed_sha256"]
    record = client.get(f"/api/matches/{m['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert record.json()["seed"] == int(end["seed"])
    v = client.get(f"/api/matches/{m['id']}/verify").json()
    assert v["ok"] and v["chance_events"] >= 49, v
    rep = client.get(f"/api/matches/{m['id']}/replay/0").json()
    assert rep["step"] == 0 and "<svg" in rep["svg"] and "data-action" not in rep["svg"]
    last = client.get(f"/api/matches/{m['id']}/replay/99999").json()
    assert last["step"] == last["steps"] == len(end["log"])


def test_spectator_view_has_no_moves_and_no_clickable_board(client: TestClient) -> None:
    m = create(client)
    s = state(client, m["id"])
    assert s["seat"] is None and s["legal"] == [] and "data-action" not in s["svg"]
    mine = state(client, m["id"], m["tokens"][0])
    assert "data-action" in mine["svg"]
    other = state(client, m["id"], m["tokens"][1])
    assert "data-action" not in other["svg"] and other["legal"] == []


def test_bots_play_by_themselves(client: TestClient) -> None:
    import time

    m = create(client, seats=["greedy", "random"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        s = state(client, m["id"])
        if s["terminal"]:
            break
        time.sleep(0.05)
    assert s["terminal"], "the bots did not finish"
    assert client.get(f"/api/matches/{m['id']}/verify").json()["ok"]


def test_open_seats_of_public_matches_can_be_taken_from_the_lobby(client: TestClient) -> None:
    private = create(client, seats=["human", "greedy"])
    r = client.post(f"/api/matches/{private['id']}/seats/0/join")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_public")
    r = client.post(
        "/api/matches",
        json={"game": "yukon", "public": True, "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    m = r.json()
    invite = m["seats"][1]["token"]
    lobby = client.get("/").text
    assert f"/m/{m['id']}/join/1" in lobby and f"/m/{private['id']}/join/0" not in lobby
    r = client.post(f"/m/{m['id']}/join/1", data={"csrf": csrf(client)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(f"/m/{m['id']}#t=")
    token = r.headers["location"].split("#t=")[1]
    assert state(client, m["id"], token)["seat"] == 1
    # the seat is taken: the unused invitation no longer works, and nobody else can join
    assert client.get(f"/api/matches/{m['id']}", headers=auth(invite)).status_code == 403
    r = client.post(f"/api/matches/{m['id']}/seats/1/join")
    assert r.json()["error"]["code"] == "seat_taken"


def test_lobby_and_form_pages(client: TestClient) -> None:
    assert "yukon" in client.get("/").text
    form = client.get("/new?game=yukon").text
    for name in ("players", "expansion", "pan_discs", "seat0_kind", "seat1_spec"):
        assert f'name="{name}"' in form
    # a boolean option's default in words (issue 21), never "(default False)"
    expansion = form[form.index('id="opt-expansion"') :]
    assert "(off by default)</small>" in expansion[: expansion.index("</small>") + 8]
    assert "(default False)" not in form and "(default True)" not in form
    assert (
        'placeholder="server files cannot be chosen online"'
        in client.get("/new?game=chinagold").text
    )
    token = csrf(client)
    r = client.post(
        "/new", data={"game": "yukon", "players": "2", "pan_discs": "1,2", "csrf": token}
    )
    assert r.status_code == 422 and "pan_discs must be 9 positive integers" in r.text
    r = client.post(
        "/new",
        data={
            "game": "yukon",
            "players": "2",
            "seat0_kind": "human",
            "seat1_kind": "bot",
            "csrf": token,
        },
    )
    assert r.status_code == 422 and "a bot needs an agent spec" in r.text
    r = client.post(
        "/new",
        data={
            "game": "yukon",
            "players": "3",
            "expansion": "on",
            "seat0_kind": "human",
            "seat1_kind": "bot",
            "seat1_spec": "greedy",
            "seat2_kind": "human",
            "csrf": token,
        },
    )
    assert r.status_code == 200 and r.text.count("#t=") == 2 * 2  # two links, shown twice each
    assert client.get("/new?game=nope").status_code == 404
    assert client.get("/m/nope").status_code == 404


def test_a_match_set_up_for_others_leaves_every_human_seat_open(client: TestClient) -> None:
    body = {"game": "yukon", "public": True, "seats": [{"kind": "human"}] * 2}
    listed = {x["id"]: x for x in client.get("/api/matches").json()}
    r = client.post("/api/matches", json={**body, "creator_seat": None})
    listed = {x["id"]: x for x in client.get("/api/matches").json()}[r.json()["id"]]
    assert [s["open"] for s in listed["seats"]] == [True, True]
    r = client.post("/api/matches", json={**body, "creator_seat": 1})
    listed = {x["id"]: x for x in client.get("/api/matches").json()}[r.json()["id"]]
    assert [s["open"] for s in listed["seats"]] == [True, False]
    for bad in ("x", True, 7):
        r = client.post("/api/matches", json={**body, "creator_seat": bad})
        assert r.status_code == 400, r.text

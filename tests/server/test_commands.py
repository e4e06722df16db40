"""Commands for people (``state.expand``) on the server: a Eurorails route is one step (one
push, one undo unit, one log line) whose record keeps the atomic actions; a preview is not
a move and has its own rate limit."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from motherlode.server.guard import Buckets, Limits, Rate, kind_of
from tests.server.helpers import Viewer, auth, create, state


def _eurorails(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    m = create(client, "eurorails", ["human", "human"], players=2, first_player=0)
    s = state(client, m["id"], m["tokens"][0])
    assert s["to_move"] == 0
    return m["id"], m["tokens"][0], s


def _post(client: TestClient, mid: str, token: str, what: str, body: Any) -> Any:
    return client.post(f"/api/matches/{mid}/{what}", json=body, headers=auth(token))


def test_a_preview_shows_the_route_and_its_cost_and_is_not_a_move(client: TestClient) -> None:
    mid, token, s = _eurorails(client)
    r = _post(client, mid, token, "preview", {"command": "build Paris-Lyon"})
    assert r.status_code == 200, r.text
    pv = r.json()
    assert pv["summary"] == "P1 builds Paris–Lyon: 9 mileposts, 11 M"
    assert pv["details"][1] == "now: 9 mileposts for 11 M; 9 M left this turn"
    assert len(pv["actions"]) == 9 and pv["texts"][-1].endswith(">Lyon")
    assert (
        pv["overlay"].startswith('<g class="route-preview"') and pv["overlay"].count("<line") == 9
    )
    after = state(client, mid, token)
    assert after["version"] == s["version"] and after["log"] == s["log"]


def test_a_command_is_one_step_one_log_line_and_one_undo(client: TestClient) -> None:
    mid, token, s = _eurorails(client)
    r = _post(client, mid, token, "move", {"command": "build Paris-Lyon", "version": s["version"]})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == s["version"] + 9  # nine rows written in one transaction
    assert len(after["log"]) == len(s["log"]) + 1
    assert after["log"][-1]["said"] == "P1 builds Paris–Lyon (9 mileposts, 11 M)"
    rt = client.app.state.service.runtime(mid)  # type: ignore[attr-defined]
    assert [e.text for e in rt.entries[-9:]][-1] == "build AD46>Lyon"
    assert after["can_undo"]
    r = _post(client, mid, token, "undo", {"version": after["version"]})
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["log"] == s["log"] and undone["view"] == s["view"]


def test_a_command_replays_from_the_database_as_one_line(client: TestClient) -> None:
    mid, token, s = _eurorails(client)
    r = _post(client, mid, token, "move", {"command": "build Paris-Lyon", "version": s["version"]})
    line = r.json()["log"][-1]
    service = client.app.state.service  # type: ignore[attr-defined]
    service.runtimes.clear()  # rebuilt from the log rows, as after a restart
    again = state(client, mid, token)
    assert again["log"][-1] == line and again["version"] == r.json()["version"]
    r = _post(client, mid, token, "undo", {"version": again["version"]})
    assert r.json()["log"] == s["log"]


def test_a_bad_command_is_refused_with_the_reason_and_changes_nothing(client: TestClient) -> None:
    mid, token, s = _eurorails(client)
    for command, words in [
        ("build to Atlantis", "no place called 'Atlantis'"),
        ("move to Lyon", "the operations phase"),
        ("build Lyon-Paris", "Lyon is neither on P1's track nor a major city"),
    ]:
        r = _post(client, mid, token, "move", {"command": command, "version": s["version"]})
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_move"
        assert words in r.json()["error"]["message"], r.json()
        r = _post(client, mid, token, "preview", {"command": command})
        assert r.status_code == 400 and words in r.json()["error"]["message"]
    other = create(client, "eurorails", ["human", "human"], players=2, first_player=0)
    r = _post(client, mid, other["tokens"][1], "preview", {"command": "end"})
    assert r.status_code == 403
    assert state(client, mid, token)["version"] == s["version"]


def test_the_websocket_move_carries_a_command(client: TestClient) -> None:
    mid, token, _ = _eurorails(client)
    with client.websocket_connect(f"/ws/{mid}") as ws:
        viewer = Viewer()
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        before = viewer.apply(json.loads(ws.receive_text()))["version"]
        ws.send_text(json.dumps({"type": "move", "command": "build to Lyon", "version": before}))
        pushed = viewer.apply(json.loads(ws.receive_text()))  # one push for the command
        assert pushed["version"] == before + 9  # its nine atomic builds
        assert pushed["log"][-1]["said"] == "P1 builds Paris–Lyon (9 mileposts, 11 M)"


def test_previews_have_their_own_generous_rate_limit() -> None:
    assert kind_of("POST", "/api/matches/abc/preview") == "preview"
    assert kind_of("POST", "/api/matches/abc/move") == "other"
    limits = Limits(other=Rate(1.0, 1), preview=Rate(30.0, 120))
    buckets = Buckets(limits, clock=lambda: 0.0)
    assert [buckets.take("c", "preview") for _ in range(120)] == [0.0] * 120
    assert buckets.take("c", "other") == 0.0 and buckets.take("c", "other") > 0
    assert Limits().preview.burst > Limits().other.burst

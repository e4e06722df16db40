"""Authorization as a matrix: every endpoint and the WebSocket, against every kind of token.

Tokens: the seat's own, another seat's of the same match, another match's (cached by the
server because it was used there before, and not), an invitation superseded by a join,
a made-up one, none. Seats and matches: a human seat, a bot seat, a finished match, a
spectator. Each cell names the answer it expects (HTTP status and error code); every
refused move or undo must also leave the match exactly as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from motherlode.server.app import create_app
from motherlode.server.guard import Limits
from tests.server.helpers import auth, create, csrf, hello, play_out, state


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("authz") / "motherlode.db"
    with TestClient(create_app(str(db), limits=Limits.off())) as c:
        yield c


@dataclass
class World:
    """Fresh matches for one cell.

    ``a``: a public 3-player Yukon match, P1 and P2 human, P3 a bot; P1 is to move and
    has used its token; someone took P2 from the lobby, so P2's invitation is superseded.
    ``b``: another match; its P1 token was used there (the server has it cached) unless
    ``cached`` is false. ``done``: a finished public match of two humans.
    """

    client: TestClient
    a: str
    tokens: dict[str, str | None]
    b: str
    done: str
    done_token: str

    def version(self, match: str) -> int:
        return int(state(self.client, match)["version"])


def world(client: TestClient, *, cached: bool = True) -> World:
    r = client.post(
        "/api/matches",
        json={
            "game": "yukon",
            "config": {"players": 3},
            "public": True,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "spec": "random"}],
        },
    )
    assert r.status_code == 201, r.text
    a = r.json()
    assert [s["seat"] for s in a["seats"]] == [0, 1]  # no token for the bot seat
    own, invite = a["seats"][0]["token"], a["seats"][1]["token"]
    assert state(client, a["id"], own)["seat"] == 0
    joined = client.post(f"/api/matches/{a['id']}/seats/1/join")
    assert joined.status_code == 200, joined.text
    b = create(client)
    if cached:
        assert state(client, b["id"], b["tokens"][0])["seat"] == 0
    done, done_token = finished(client)
    return World(
        client,
        a["id"],
        {
            "own": own,
            "other seat": joined.json()["token"],
            "other match": b["tokens"][0],
            "superseded invitation": invite,
            "made-up": "not-a-token-at-all",
            "none": None,
        },
        b["id"],
        done,
        done_token,
    )


FINISHED: dict[int, tuple[str, str]] = {}


def finished(client: TestClient) -> tuple[str, str]:
    """A finished public match and its P1 token (one per client: no cell can change it)."""
    if id(client) not in FINISHED:
        r = client.post(
            "/api/matches",
            json={"game": "yukon", "public": True, "seats": [{"kind": "human"}] * 2},
        )
        done = r.json()
        tokens = {s["seat"]: s["token"] for s in done["seats"]}
        assert play_out(client, done["id"], tokens)["terminal"]
        FINISHED[id(client)] = (done["id"], tokens[0])
    return FINISHED[id(client)]


def answer(r: Any) -> tuple[int, str | None]:
    body = r.json()
    code = body.get("error", {}).get("code") if isinstance(body, dict) else None
    return r.status_code, code


def headers(token: str | None) -> dict[str, str]:
    return auth(token) if token else {}


def get_state(w: World, token: str | None, match: str | None = None) -> tuple[int, str | None]:
    r = w.client.get(f"/api/matches/{match or w.a}", headers=headers(token))
    status, code = answer(r)
    if status == 200:
        body = r.json()
        return status, f"seat={body['seat']} legal={bool(body['legal'])} seed={bool(body['seed'])}"
    return status, code


def do_move(
    w: World, token: str | None, match: str | None = None, mover: str | None = None
) -> tuple[int, str | None]:
    """A legal move (as the seat to move, ``mover``, sees it) sent with ``token``."""
    match = match or w.a
    before = state(w.client, match)
    mover = mover or (w.tokens["own"] if match == w.a else w.done_token)
    legal = state(w.client, match, mover)["legal"]
    action = legal[0]["text"] if legal else "anything"
    r = w.client.post(
        f"/api/matches/{match}/move",
        json={"action": action, "version": before["version"]},
        headers=headers(token),
    )
    out = answer(r)
    if out[0] != 200:
        after = state(w.client, match)
        assert (after["version"], after["log"]) == (before["version"], before["log"])
    return out


def do_undo(w: World, token: str | None, match: str | None = None) -> tuple[int, str | None]:
    match = match or w.a
    if match == w.a:  # P1 moves first, so that there is something to undo
        assert do_move(w, w.tokens["own"]) == (200, None)
    before = state(w.client, match)
    r = w.client.post(
        f"/api/matches/{match}/undo", json={"version": before["version"]}, headers=headers(token)
    )
    out = answer(r)
    if out[0] != 200:
        assert state(w.client, match)["version"] == before["version"]
    return out


def ws(w: World, token: str | None) -> tuple[int, str | None]:
    """Over the WebSocket: hello with the token, then a move for the seat to move."""
    before = w.version(w.a)
    legal = state(w.client, w.a, w.tokens["own"])["legal"]
    with w.client.websocket_connect(f"/ws/{w.a}") as sock:
        first = hello(sock, token)
        if first.get("type") != "state":
            with pytest.raises(WebSocketDisconnect):
                sock.receive_text()
            assert w.version(w.a) == before
            return 403, first["code"]
        sock.send_text(json.dumps({"type": "move", "action": legal[0]["text"], "version": before}))
        reply = json.loads(sock.receive_text())
    if reply.get("type") == "diff":  # the move, pushed as what changed
        assert reply["version"] > before and reply["base"] == first["rev"]
        return 200, f"seat={first['seat']}"
    assert w.version(w.a) == before
    return 400, reply["code"]


Op = Callable[[World], tuple[int, str | None]]


def tok(kind: str, op: Callable[[World, str | None], tuple[int, str | None]]) -> Op:
    return lambda w: op(w, w.tokens[kind])


CELLS: dict[str, tuple[Op, tuple[int, str | None]]] = {
    # -- reading the match: a seat sees its own view, a spectator the public one ----------
    "state / own": (tok("own", get_state), (200, "seat=0 legal=True seed=False")),
    "state / other seat": (tok("other seat", get_state), (200, "seat=1 legal=False seed=False")),
    "state / other match": (tok("other match", get_state), (403, "invalid_token")),
    "state / superseded invitation": (
        tok("superseded invitation", get_state),
        (403, "invalid_token"),
    ),
    "state / made-up": (tok("made-up", get_state), (403, "invalid_token")),
    "state / none": (tok("none", get_state), (200, "seat=None legal=False seed=False")),
    "state / finished, none": (
        lambda w: get_state(w, None, w.done),
        (200, "seat=None legal=False seed=True"),
    ),
    "state / no such match": (lambda w: get_state(w, None, "nope"), (404, "not_found")),
    # -- moving: only the seat to move, with its own token ---------------------------------
    "move / own": (tok("own", do_move), (200, None)),
    "move / other seat": (tok("other seat", do_move), (400, "not_your_turn")),
    "move / other match": (tok("other match", do_move), (403, "invalid_token")),
    "move / superseded invitation": (
        tok("superseded invitation", do_move),
        (403, "invalid_token"),
    ),
    "move / made-up": (tok("made-up", do_move), (403, "invalid_token")),
    "move / none": (tok("none", do_move), (403, "spectator")),
    "move / finished, own": (lambda w: do_move(w, w.done_token, w.done), (400, "match_over")),
    "move / finished, other match": (
        lambda w: do_move(w, w.tokens["own"], w.done),
        (403, "invalid_token"),
    ),
    # -- undo: only one's own last decision -------------------------------------------------
    "undo / own": (tok("own", do_undo), (200, None)),
    "undo / other seat": (tok("other seat", do_undo), (400, "undo_not_allowed")),
    "undo / other match": (tok("other match", do_undo), (403, "invalid_token")),
    "undo / superseded invitation": (
        tok("superseded invitation", do_undo),
        (403, "invalid_token"),
    ),
    "undo / none": (tok("none", do_undo), (403, "spectator")),
    "undo / finished, own": (
        lambda w: do_undo(w, w.done_token, w.done),
        (400, "undo_not_allowed"),
    ),
    # -- joining: only an open human seat of a running public match -------------------------
    "join / taken human seat (its invitation used)": (
        lambda w: answer(w.client.post(f"/api/matches/{w.a}/seats/0/join")),
        (409, "seat_taken"),
    ),
    "join / taken human seat (joined from the lobby)": (
        lambda w: answer(w.client.post(f"/api/matches/{w.a}/seats/1/join")),
        (409, "seat_taken"),
    ),
    "join / bot seat": (
        lambda w: answer(w.client.post(f"/api/matches/{w.a}/seats/2/join")),
        (409, "seat_taken"),
    ),
    "join / bot seat, the web form": (
        lambda w: (
            w.client.post(
                f"/m/{w.a}/join/2", data={"csrf": csrf(w.client)}, follow_redirects=False
            ).status_code,
            None,
        ),
        (409, None),
    ),
    "join / no such seat": (
        lambda w: answer(w.client.post(f"/api/matches/{w.a}/seats/7/join")),
        (409, "seat_taken"),
    ),
    "join / private match": (
        lambda w: answer(w.client.post(f"/api/matches/{w.b}/seats/1/join")),
        (403, "not_public"),
    ),
    "join / finished match": (
        lambda w: answer(w.client.post(f"/api/matches/{w.done}/seats/1/join")),
        (400, "match_over"),
    ),
    "join / no such match": (
        lambda w: answer(w.client.post("/api/matches/nope/seats/0/join")),
        (404, "not_found"),
    ),
    # -- the record, its verification and replay: only once the match is over --------------
    "record / running": (
        lambda w: answer(w.client.get(f"/api/matches/{w.a}/record")),
        (403, "match_running"),
    ),
    "verify / running": (
        lambda w: answer(w.client.get(f"/api/matches/{w.a}/verify")),
        (403, "match_running"),
    ),
    "replay / running": (
        lambda w: answer(w.client.get(f"/api/matches/{w.a}/replay/1")),
        (403, "match_running"),
    ),
    "record / finished": (
        lambda w: answer(w.client.get(f"/api/matches/{w.done}/record")),
        (200, None),
    ),
    "verify / finished": (
        lambda w: (200, str(w.client.get(f"/api/matches/{w.done}/verify").json()["ok"])),
        (200, "True"),
    ),
    "replay / finished": (
        lambda w: answer(w.client.get(f"/api/matches/{w.done}/replay/1")),
        (200, None),
    ),
    # -- the WebSocket: the same tokens, the same answers ------------------------------------
    "ws / own": (tok("own", ws), (200, "seat=0")),
    "ws / other seat": (tok("other seat", ws), (400, "not_your_turn")),
    "ws / other match": (tok("other match", ws), (403, "invalid_token")),
    "ws / superseded invitation": (tok("superseded invitation", ws), (403, "invalid_token")),
    "ws / made-up": (tok("made-up", ws), (403, "invalid_token")),
    "ws / none": (tok("none", ws), (400, "spectator")),
}

UNCACHED = [name for name in CELLS if name.endswith("/ other match")]
"""The cells of another match's token, run again with a token the server never saw."""


@pytest.mark.parametrize("cell", list(CELLS))
def test_authorization_cell(client: TestClient, cell: str) -> None:
    op, expected = CELLS[cell]
    assert op(world(client)) == expected


@pytest.mark.parametrize("cell", UNCACHED)
def test_authorization_cell_with_an_uncached_token(client: TestClient, cell: str) -> None:
    op, expected = CELLS[cell]
    assert op(world(client, cached=False)) == expected


def test_a_token_cached_in_one_match_never_moves_in_another(client: TestClient) -> None:
    # both matches at the same seat to move: a token valid in B must still do nothing in A
    w = world(client)
    b_token = w.tokens["other match"]
    assert b_token is not None
    for _ in range(2):  # cached after the first use
        assert state(client, w.b, b_token)["seat"] == 0
        assert do_move(w, b_token) == (403, "invalid_token")
        assert get_state(w, b_token) == (403, "invalid_token")
    assert do_move(w, b_token, w.b, b_token) == (200, None)  # and it still moves in its own match

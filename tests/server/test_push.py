"""The WebSocket's pushes (server/push.py): a snapshot, then diffs that rebuild it exactly.

A client that applies the diffs (tests/server/helpers.py's :class:`Viewer`, written apart
from the server like match.js) must hold, after every move of whole games of every game,
exactly what a fresh snapshot shows; every message is built once per (revision, viewer)
whoever watches; a socket that reads slowly skips to the newest state.
"""

from __future__ import annotations

import asyncio
import json
import random
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import motherlode
from motherlode.core.protocol import State
from motherlode.games import registry
from motherlode.server import runtime
from motherlode.server.db import make_engine, migrate
from motherlode.server.push import Frame, config_digest, diff, diff_text, static_url
from motherlode.server.service import MatchService, SeatRequest, Subscriber
from tests.server.helpers import Viewer, auth, board_of, hello, svg_of
from tests.server.secret_game import LayeredGame, SecretGame
from tests.server.test_leaks import _short_config


@pytest.fixture(autouse=True)
def _test_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry(), "secretduel", SecretGame)
    monkeypatch.setitem(registry(), "layerduel", LayeredGame)
    yield


def _snapshot(client: TestClient, mid: str, token: str | None) -> dict[str, Any]:
    """What a client connecting now is sent first."""
    with client.websocket_connect(f"/ws/{mid}") as ws:
        return Viewer().apply(hello(ws, token))


def _catch_up(ws: Any, viewer: Viewer, rev: int) -> int:
    """Apply what ``ws`` was pushed until it holds revision ``rev``: the messages read."""
    count = 0
    while viewer.state is None or viewer.state["rev"] != rev:
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "diff", msg
        viewer.apply(msg)
        count += 1
    return count


STEPS = {"eurorails": 16, "eldorado": 30}
"""Moves checked in the long games (time); the others are played to their end."""
GAMES = ["layerduel", "secretduel", "yukon", "chinagold", "eldorado", "eureka", "eurorails"]


@pytest.mark.parametrize("game", GAMES)
def test_applied_diffs_equal_a_fresh_snapshot_after_every_move(
    client: TestClient, game: str
) -> None:
    config = _short_config(game)
    n = motherlode.load(game, **config).num_players
    r = client.post(
        "/api/matches", json={"game": game, "config": config, "seats": [{"kind": "human"}] * n}
    )
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    tokens: dict[int | None, str | None] = {s["seat"]: s["token"] for s in r.json()["seats"]}
    tokens[None] = None
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(5)
    viewers = {k: Viewer() for k in tokens}
    sockets = {k: client.websocket_connect(f"/ws/{mid}") for k in tokens}
    diffs = 0
    try:
        for k, ws in sockets.items():
            ws.__enter__()
            viewers[k].apply(hello(ws, tokens[k]))
        for _ in range(STEPS.get(game, 60)):
            rt = service.runtime(mid)
            for k, ws in sockets.items():
                diffs += _catch_up(ws, viewers[k], rt.rev)
                fresh = _snapshot(client, mid, tokens[k])
                held = viewers[k].state
                assert held is not None
                assert board_of(held) == board_of(fresh)
                assert held == fresh
                http = client.get(
                    f"/api/matches/{mid}", headers=auth(tokens[k]) if tokens[k] else {}
                ).json()
                if held["board"]["static"] is None:
                    assert svg_of(held) == http["svg"]
                assert {f: held[f] for f in http if f != "svg"} == {
                    f: v for f, v in http.items() if f != "svg"
                }
            if held["terminal"]:
                break
            seat = held["to_move"]
            legal = viewers[seat].state["legal"]  # type: ignore[index]
            token = tokens[seat]
            assert token is not None
            r = client.post(
                f"/api/matches/{mid}/move",
                json={"action": rng.choice(legal)["text"], "version": held["version"]},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    assert diffs >= 2 * (n + 1)  # the checks above saw real diffs, to every viewer
    assert held["terminal"] or game in STEPS


@pytest.mark.parametrize("game", GAMES)
def test_the_pushes_are_the_value_diffs(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A frame holds each field's JSON text and a diff is written from those texts
    # (push.diff_text); what a viewer receives is the JSON of the diff of the fields'
    # JSON values (push.diff, what the server sent before: the same value, its members
    # in the same order, the log's growth as log_add), and a snapshot the JSON of the
    # fields' values: checked for every viewer after every move of whole games (an undo
    # now and then: a log that shrinks).
    engine = make_engine(str(tmp_path / "texts.db"))
    migrate(engine)
    service = MatchService(engine)
    monkeypatch.setattr("motherlode.server.service.new_seed", lambda: 20261202)  # one deal
    config = _short_config(game)
    n = motherlode.load(game, **config).num_players
    mid = service.create_match(game, config, [SeatRequest()] * n, claim=None).id
    rng = random.Random(11)
    viewers: list[int | None] = [*range(n), None]
    rt = service.runtime(mid)
    last = {v: rt.frame(v) for v in viewers}
    undone = 0

    async def play() -> None:
        nonlocal rt, undone
        for step in range(STEPS.get(game, 400)):
            rt = service.runtime(mid)
            if rt.finished:
                break
            seat = rt.state.current_player()
            mover = rt.entries[-1].seat if rt.entries else -1
            if step % 2 == 1 and undone < 3 and mover >= 0 and rt.undo_allowed(mover):
                await service.undo(mid, mover, rt.version)
                undone += 1
            else:
                legal = rt.fields(seat)["legal"]
                await service.move(mid, seat, rng.choice(legal)["text"], rt.version)
            rt = service.runtime(mid)
            for v in viewers:
                new = rt.frame(v)
                values = json.loads(json.dumps(rt.fields(v), default=str))
                assert new.fields == values and list(new.texts) == list(values)
                snapshot = json.loads(new.snapshot_text())
                assert snapshot == new.snapshot() and list(snapshot) == list(new.snapshot())
                reference = diff(last[v], new)
                text = diff_text(last[v], new)
                assert (text is None) == (reference is None)
                if text is not None and reference is not None:
                    sent = json.loads(text)
                    assert sent == reference and list(sent) == list(reference)
                    assert list(sent["fields"]) == list(reference["fields"])
                pushed = rt.message(v, last[v].rev)
                assert pushed is not None
                assert pushed[1] == (text if text is not None else new.snapshot_text())
                last[v] = new

    asyncio.run(play())
    assert undone >= 1 or game not in ("yukon", "eureka", "eurorails")  # (undo is rare
    # or impossible in the others: a die or a card comes after most decisions)


def test_the_public_layers_change_is_worked_out_once_for_every_viewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(str(tmp_path / "public.db"))
    migrate(engine)
    service = MatchService(engine)
    mid = service.create_match("yukon", {}, [SeatRequest()] * 2, claim=None).id
    rt = service.runtime(mid)
    viewers: list[int | None] = [0, 1, None]
    before = {v: rt.message(v, None) for v in viewers}
    assert {v: rt.frame(v).board.public for v in viewers}[0] is rt.frame(None).board.public
    calls: list[tuple[Any, Any]] = []
    original = runtime.layer_text

    def counting(old: Any, new: Any) -> str:
        calls.append((old, new))
        return original(old, new)

    monkeypatch.setattr(runtime, "layer_text", counting)
    seat = rt.state.current_player()
    asyncio.run(service.move(mid, seat, rt.fields(seat)["legal"][0]["text"], rt.version))
    pushed = {v: rt.message(v, before[v][0]) for v in viewers}  # type: ignore[index]
    public = [c for c in calls if c[1] is rt.frame(0).board.public]
    assert len(public) == 1 and len(calls) == 1 + 3  # one public change, three seat layers
    changes = {v: json.loads(p[1])["board"]["public"] for v, p in pushed.items()}  # type: ignore[index]
    assert changes[0] == changes[1] == changes[None] and changes[0]["set"]


def test_the_players_text_follows_the_seats() -> None:
    from tests.reference.test_runtime_reference import OpenRelay, new

    rt = new(OpenRelay)
    first = rt.frame(0).texts["players"]
    rt.commit(rt.plan_move(0, "pick a"))
    assert rt.frame(0).texts["players"] is first  # no seat changed: not written again
    rt.seats[1].account = "bob"
    rt._cache.clear()
    assert json.loads(rt.frame(0).texts["players"])[1]["account"] == "bob"
    rt.seats[1].name = "Bob"
    rt._cache.clear()
    assert json.loads(rt.frame(1).texts["players"])[1]["name"] == "Bob"


def test_a_push_waits_a_tick_of_the_loop_only_when_a_bot_may_move_at_once(
    tmp_path: Path,
) -> None:
    engine = make_engine(str(tmp_path / "settle.db"))
    migrate(engine)
    service = MatchService(engine)
    people = service.create_match("yukon", {}, [SeatRequest()] * 2, claim=None).id
    bot = SeatRequest("bot", "greedy")
    against = service.create_match("yukon", {}, [SeatRequest(), bot], claim=None).id
    ticks: list[tuple[str, int]] = []
    checked: list[str] = []

    async def run() -> None:
        sockets = {}
        for mid in (people, against):

            async def send(text: str, mid: str = mid) -> None:
                ticks.append((mid, len(loop_ticks)))

            sub = Subscriber(0, send)
            service.subscribe(mid, sub)
            sockets[mid] = (sub, asyncio.create_task(sub.writer()))
        loop_ticks: list[int] = []
        for _ in range(5):
            loop_ticks.append(0)
            await asyncio.sleep(0)
        for mid in (people, against):
            rt = service.runtime(mid)
            seat = rt.state.current_player()
            assert seat == 0  # (P1 moves first: the person, the bot after it)
            await service.move(mid, seat, rt.fields(seat)["legal"][0]["text"], rt.version)
            sub = sockets[mid][0]
            # people only: built at once; a bot due to move next: after a tick
            assert sub.settle is (mid == against)
            assert sub.wake.is_set()
            checked.append(mid)
        for _ in range(5):
            loop_ticks.append(0)
            await asyncio.sleep(0)
        for sub, task in sockets.values():
            sub.closed = True
            sub.wake.set()
            await task
        for task in list(service.bot_tasks.values()):
            task.cancel()

    asyncio.run(run())
    assert checked == [people, against]
    assert [m for m, _ in ticks].count(people) == 2  # the snapshot, then the move's diff


def test_a_field_goes_in_a_diff_when_its_json_text_changes() -> None:
    board = runtime.BoardFrame(10, 10, None, (), ())
    a = Frame.of(1, 5, {"to_move": 0, "view": {"x": 1}, "log": [{"n": 1}]}, board)
    same = Frame.of(2, 6, {"to_move": 0, "view": {"x": 1}, "log": [{"n": 1}]}, board)
    assert diff_text(a, same) == (
        '{"type": "diff", "base": 1, "rev": 2, "version": 6, "fields": {}}'
    )
    grown = Frame.of(3, 7, {"to_move": 1, "view": {"x": 2}, "log": [{"n": 1}, {"n": 2}]}, board)
    assert diff_text(a, grown) == (
        '{"type": "diff", "base": 1, "rev": 3, "version": 7,'
        ' "fields": {"to_move": 1, "view": {"x":2}}, "log_add": [{"n":2}]}'
    )
    undone = Frame.of(4, 8, {"to_move": 0, "view": {"x": 1}, "log": []}, board)
    assert diff_text(grown, undone) == (
        '{"type": "diff", "base": 3, "rev": 4, "version": 8,'
        ' "fields": {"to_move": 0, "view": {"x":1}, "log": []}}'
    )
    # a view whose text changed while its value did not (keys in another order) is sent
    # again: the text is what a client holds
    turned = Frame.of(5, 9, {"to_move": 0, "view": {"y": 0, "x": 1}, "log": [{"n": 1}]}, board)
    moved = Frame.of(6, 9, {"to_move": 0, "view": {"x": 1, "y": 0}, "log": [{"n": 1}]}, board)
    assert diff(turned, moved)["fields"] == {}  # type: ignore[index]
    assert json.loads(diff_text(turned, moved) or "")["fields"] == {"view": {"x": 1, "y": 0}}


def test_a_layered_board_sends_only_the_elements_that_changed(client: TestClient) -> None:
    r = client.post("/api/matches", json={"game": "layerduel", "seats": [{"kind": "human"}] * 2})
    mid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as w:
        first = hello(a, tokens[0])
        hello(w, None)
        assert first["board"]["static"] == static_url(motherlode.load("layerduel"))
        assert [k for k, _ in first["board"]["seat"]] == ["card", "act-0", "act-1", "act-2"]
        r = client.post(
            f"/api/matches/{mid}/move",
            json={"action": "secret RUBY", "version": first["version"]},
            headers=auth(tokens[0]),
        )
        assert r.status_code == 200
        mine, spectator = json.loads(a.receive_text()), json.loads(w.receive_text())
    assert mine["type"] == spectator["type"] == "diff"
    # P1's clickable moves went; its card stayed, so it is not sent again
    assert mine["board"]["seat"] == {"removed": ["act-0", "act-1", "act-2"]}
    assert mine["board"]["public"] == {
        "set": {"turn": '<text id="turn" x="10" y="100">to move: 1</text>'}
    }
    assert spectator["board"] == {"public": mine["board"]["public"]}
    assert mine["fields"]["to_move"] == 1 and mine["fields"]["legal"] == []
    assert "RUBY" not in json.dumps(spectator) and len(mine["log_add"]) == 1
    assert "view" not in spectator["fields"] or spectator["fields"]["view"]["gem"] is None


def test_the_static_layer_is_one_cacheable_url(client: TestClient) -> None:
    game = motherlode.load("layerduel")
    client.post("/api/matches", json={"game": "layerduel", "seats": [{"kind": "human"}] * 2})
    r = client.get(static_url(game))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.headers["etag"] == f'"{config_digest(game)}"'
    assert r.text.startswith("<svg") and '<rect x="1" y="1"' in r.text and "card" not in r.text
    again = client.get(static_url(game), headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/board/layerduel/0123456789abcdef.svg").status_code == 404
    # a game without layers has no static layer: its snapshot names none
    plain = motherlode.load("secretduel")
    client.post("/api/matches", json={"game": "secretduel", "seats": [{"kind": "human"}] * 2})
    assert client.get(static_url(plain)).status_code == 404


def _service(tmp_path: Path) -> tuple[MatchService, str]:
    engine = make_engine(str(tmp_path / "push.db"))
    migrate(engine)
    service = MatchService(engine)
    created = service.create_match("layerduel", {}, [SeatRequest(), SeatRequest()])
    return service, created.id


def test_each_message_is_drawn_and_encoded_once_per_revision_and_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, mid = _service(tmp_path)
    drawn: list[int | None] = []
    cls = type(service.runtime(mid).state)
    original = cls.render_layers

    def counting(self: State, seat: int | None = None) -> Any:
        drawn.append(seat)
        return original(self, seat)

    monkeypatch.setattr(cls, "render_layers", counting)

    async def run() -> list[list[str]]:
        sent: list[list[str]] = [[] for _ in range(7)]
        seats = [0, 0, 1, None, None, None, None]  # two tabs of P1, P2, four spectators
        subs = []
        for i, seat in enumerate(seats):

            async def send(text: str, i: int = i) -> None:
                sent[i].append(text)

            sub = Subscriber(seat, send)
            subs.append(asyncio.create_task(sub.writer()))
            service.subscribe(mid, sub)
        await asyncio.sleep(0.05)
        rt = service.runtime(mid)
        await service.move(mid, 0, "secret JADE", rt.version)
        await asyncio.sleep(0.05)
        for task in subs:
            task.cancel()
        return sent

    sent = asyncio.run(run())
    assert sorted(drawn, key=str) == sorted([0, 1, None] * 2, key=str)  # 3 viewers, 2 revisions
    assert all(len(s) == 2 for s in sent)
    assert sent[0][0] is sent[1][0] and sent[0][1] is sent[1][1]  # one text for both tabs
    assert all(s[1] is sent[3][1] for s in sent[3:])  # and one for all spectators
    assert json.loads(sent[3][1])["type"] == "diff"


def test_a_slow_socket_skips_to_the_newest_state(tmp_path: Path) -> None:
    service, mid = _service(tmp_path)
    release = asyncio.Event()
    got: list[dict[str, Any]] = []

    async def slow_send(text: str) -> None:
        got.append(json.loads(text))
        if len(got) == 1:
            await release.wait()  # stuck on its first message while the match moves on

    async def run() -> None:
        sub = Subscriber(None, slow_send)
        task = asyncio.create_task(sub.writer())
        service.subscribe(mid, sub)
        await asyncio.sleep(0.02)
        rt = service.runtime(mid)
        await service.move(mid, 0, "secret JADE", rt.version)
        rt.rev  # noqa: B018
        await asyncio.sleep(0.02)
        await service.move(mid, 1, "guess RUBY", rt.version)
        await asyncio.sleep(0.02)
        release.set()
        await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(run())
    rt = service.runtime(mid)
    # the snapshot it was stuck on, then one message to the end: never the middle state
    assert [m["type"] for m in got] == ["state", "diff"]
    assert got[1]["base"] == got[0]["rev"] and got[1]["rev"] == rt.rev
    viewer = Viewer()
    viewer.apply(got[0])
    final = viewer.apply(got[1])
    assert final["terminal"] and final["board"]["public"]["guess"].endswith(">RUBY</text>")


def test_a_socket_too_far_behind_gets_a_snapshot(tmp_path: Path) -> None:
    service, mid = _service(tmp_path)
    rt = service.runtime(mid)
    old = rt.message(None, None)
    assert old is not None
    for _ in range(5):  # more revisions than are kept (runtime.HISTORY)
        rt._cache.clear()
        rt.message(None, rt.rev)
    behind = rt.message(None, old[0])
    assert behind is not None and json.loads(behind[1])["type"] == "state"
    assert rt.message(None, rt.rev) is None  # up to date: nothing to send


def _frame(ws: Any) -> tuple[str, str]:
    """The next frame: ``("text", its text)`` or ``("bytes", the inflated text)``."""
    message = ws.receive()
    if message.get("bytes") is not None:
        return "bytes", zlib.decompress(message["bytes"], -15).decode()
    return "text", message["text"]


def test_a_socket_that_asks_for_compression_gets_the_same_pushes_deflated(
    client: TestClient,
) -> None:
    r = client.post("/api/matches", json={"game": "yukon", "seats": [{"kind": "human"}] * 2})
    mid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    with (
        client.websocket_connect(f"/ws/{mid}") as plain,
        client.websocket_connect(f"/ws/{mid}") as packed,
    ):
        plain.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
        packed.send_text(
            json.dumps({"type": "hello", "token": tokens[0], "compress": "deflate-raw"})
        )
        kinds = []
        for _ in range(6):
            kind, text = _frame(plain)
            assert kind == "text"
            got_kind, got = _frame(packed)
            assert got == text  # inflated: exactly the plain socket's push
            assert got_kind == ("bytes" if len(text.encode()) >= runtime.PACK_MIN else "text")
            kinds.append(got_kind)
            view = client.get(f"/api/matches/{mid}").json()
            seat = view["to_move"]
            mine = client.get(f"/api/matches/{mid}", headers=auth(tokens[seat])).json()
            r = client.post(
                f"/api/matches/{mid}/move",
                json={"action": mine["legal"][0]["text"], "version": mine["version"]},
                headers=auth(tokens[seat]),
            )
            assert r.status_code == 200, r.text
        for ws in (plain, packed):
            ws.send_text(json.dumps({"type": "ping", "id": 3}))
        pong = '{"type": "pong", "id": 3}'
        while (last := _frame(packed)) != ("text", pong):  # the pushes still on their way
            big = len(last[1].encode()) >= runtime.PACK_MIN
            assert last == ("bytes" if big else "text", _frame(plain)[1])
        assert _frame(plain) == ("text", pong)  # a reply goes as text
    assert kinds[0] == "bytes"  # the snapshot (28 KB of Yukon) went deflated


def test_a_compressed_push_is_compressed_once_for_every_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, mid = _service(tmp_path)
    monkeypatch.setattr(runtime, "PACK_MIN", 0)  # layerduel's pushes are small
    packs: list[str] = []
    original = runtime.pack

    def counting(text: str) -> str | bytes:
        packs.append(text)
        return original(text)

    monkeypatch.setattr(runtime, "pack", counting)

    async def run() -> tuple[list[list[bytes]], list[list[str]]]:
        binary: list[list[bytes]] = [[] for _ in range(4)]
        texts: list[list[str]] = [[] for _ in range(4)]
        tasks = []
        for i, packed in enumerate([True, True, True, False]):  # three spectators deflated

            async def send(text: str, i: int = i) -> None:
                texts[i].append(text)

            async def send_bytes(data: bytes, i: int = i) -> None:
                binary[i].append(data)

            sub = Subscriber(None, send, send_bytes=send_bytes if packed else None)
            tasks.append(asyncio.create_task(sub.writer()))
            service.subscribe(mid, sub)
        await asyncio.sleep(0.05)
        await service.move(mid, 0, "secret JADE", service.runtime(mid).version)
        await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        return binary, texts

    binary, texts = asyncio.run(run())
    assert len(packs) == 2  # the snapshot and the diff, each once
    assert [len(b) for b in binary] == [2, 2, 2, 0] and texts[:3] == [[], [], []]
    assert all(b[k] is binary[0][k] for b in binary[:3] for k in (0, 1))  # the same bytes
    inflated = [zlib.decompress(b, -15).decode() for b in binary[0]]
    assert inflated == texts[3] == packs  # the plain socket's texts, exactly


def test_a_hello_asking_for_another_compression_is_refused(client: TestClient) -> None:
    r = client.post("/api/matches", json={"game": "yukon", "seats": [{"kind": "human"}] * 2})
    with client.websocket_connect(f"/ws/{r.json()['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "compress": "gzip"}))
        err = json.loads(ws.receive_text())
        assert err["code"] == "malformed" and '"compress": "deflate-raw"' in err["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4400


# -- the direct write (server/wsproto.py): a push written at once, framed once -------------


async def _stop(pairs: list[tuple[Subscriber, asyncio.Task[None]]]) -> None:
    """Close each subscriber and wait for its writer task to end."""
    for sub, task in pairs:
        sub.closed = True
        sub.wake.set()
        await task


def _taking(into: list[bytes]) -> Callable[[bytes], bool]:
    """A direct write that takes every frame, into ``into``."""

    def write(data: bytes) -> bool:
        into.append(data)
        return True

    return write


def _unframe(data: bytes) -> str:
    """The text of one unmasked server text frame (push.frame's inverse)."""
    assert data[0] == 0x81 and not data[1] & 0x80
    size, at = data[1], 2
    if size == 126:
        size, at = int.from_bytes(data[2:4], "big"), 4
    assert len(data) == at + size
    return data[at:].decode()


def test_a_push_is_written_at_once_where_the_socket_takes_it(tmp_path: Path) -> None:
    """No bot due and nothing in flight: the move's push is built and written by the
    move itself (no turn of the writer), the same text the writer would have sent, and
    the revision it brings is remembered for the next diff."""
    service, mid = _service(tmp_path)
    frames: list[bytes] = []
    via_writer: list[str] = []

    async def send(text: str) -> None:
        via_writer.append(text)

    async def plain_send(text: str) -> None:
        plain.append(text)

    plain: list[str] = []

    async def run() -> None:
        direct = Subscriber(0, send)
        direct.write = _taking(frames)
        reference = Subscriber(0, plain_send)  # (no direct write: through its writer)
        tasks = [asyncio.create_task(s.writer()) for s in (direct, reference)]
        service.subscribe(mid, direct)
        service.subscribe(mid, reference)
        await asyncio.sleep(0.02)  # the first snapshots
        assert len(via_writer) == 1 and len(plain) == 1 and frames == []
        for seat, action in ((0, "secret JADE"), (1, "guess RUBY")):
            rt = service.runtime(mid)
            await service.move(mid, seat, action, rt.version)
            # written before the loop went round: the writer was not woken for it
            assert not direct.wake.is_set() and direct.last_rev == rt.rev
            assert reference.wake.is_set()
            await asyncio.sleep(0.02)
        await _stop(list(zip((direct, reference), tasks, strict=True)))

    asyncio.run(run())
    assert len(frames) == 2 and len(via_writer) == 1  # the snapshot went the usual way
    assert [_unframe(f) for f in frames] == plain[1:]
    viewer = Viewer()
    viewer.apply(json.loads(via_writer[0]))
    for f in frames:
        final = viewer.apply(json.loads(_unframe(f)))
    assert final["terminal"]


def test_a_socket_that_cannot_take_a_push_now_gets_it_through_its_writer(
    tmp_path: Path,
) -> None:
    """The direct write refused (the socket's buffer full): the writer sends the push,
    waiting as uvicorn's send does; while the writer holds a reply to send, the push goes
    through it too (never past it)."""
    service, mid = _service(tmp_path)
    sent: list[str] = []
    frames: list[bytes] = []
    takes = [False]

    async def send(text: str) -> None:
        sent.append(text)

    def write(data: bytes) -> bool:
        if takes[0]:
            frames.append(data)
        return takes[0]

    async def run() -> None:
        sub = Subscriber(0, send)
        sub.write = write
        task = asyncio.create_task(sub.writer())
        service.subscribe(mid, sub)
        await asyncio.sleep(0.02)
        rt = service.runtime(mid)
        await service.move(mid, 0, "secret JADE", rt.version)  # refused: the writer's
        assert sub.wake.is_set()
        await asyncio.sleep(0.02)
        assert len(sent) == 2 and frames == [] and sub.last_rev == rt.rev
        takes[0] = True
        sub.push('{"type": "pong", "id": 1}')  # a reply in the writer's hands
        await service.move(mid, 1, "guess RUBY", rt.version)
        assert frames == [] and sub.wake.is_set()
        await asyncio.sleep(0.02)
        await _stop([(sub, task)])

    asyncio.run(run())
    assert frames == []  # (both through the writer, which sends the newest state first)
    assert json.loads(sent[2])["type"] == "diff" and json.loads(sent[2])["fields"]["terminal"]
    assert json.loads(sent[3]) == {"type": "pong", "id": 1}


def test_every_spectator_is_written_the_same_frame(tmp_path: Path) -> None:
    """One push text, framed once, for every socket it goes to."""
    service, mid = _service(tmp_path)
    frames: list[list[bytes]] = [[], [], []]

    async def send(text: str) -> None:
        pass

    async def run() -> None:
        subs = []
        for i in range(3):
            sub = Subscriber(None, send)
            sub.write = _taking(frames[i])
            subs.append(sub)
            service.subscribe(mid, sub)
        tasks = [asyncio.create_task(s.writer()) for s in subs]
        await asyncio.sleep(0.02)
        rt = service.runtime(mid)
        await service.move(mid, 0, "secret JADE", rt.version)
        await _stop(list(zip(subs, tasks, strict=True)))

    asyncio.run(run())
    assert all(len(f) == 1 for f in frames)
    assert frames[0][0] is frames[1][0] is frames[2][0]
    assert json.loads(_unframe(frames[0][0]))["type"] == "diff"


def test_a_push_while_a_bot_may_move_at_once_waits_for_the_writer(tmp_path: Path) -> None:
    """A bot due next: the push waits a tick (one push says both moves), so it is not
    written by the person's move."""
    engine = make_engine(str(tmp_path / "bot.db"))
    migrate(engine)
    service = MatchService(engine)
    bot = SeatRequest("bot", "greedy")
    mid = service.create_match("yukon", {}, [SeatRequest(), bot], claim=None).id
    frames: list[bytes] = []

    async def send(text: str) -> None:
        pass

    async def run() -> None:
        sub = Subscriber(0, send)
        sub.write = _taking(frames)
        task = asyncio.create_task(sub.writer())
        service.subscribe(mid, sub)
        await asyncio.sleep(0.02)
        rt = service.runtime(mid)
        await service.move(mid, 0, rt.fields(0)["legal"][0]["text"], rt.version)
        assert sub.settle and sub.wake.is_set() and frames == []
        await _stop([(sub, task)])
        for bot_task in list(service.bot_tasks.values()):
            bot_task.cancel()

    asyncio.run(run())

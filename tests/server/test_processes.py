"""Several server processes on one PostgreSQL database (several hosts behind a load
balancer): the two players of a match on different processes each see the other's move
pushed (LISTEN/NOTIFY); a process killed with SIGKILL loses no move, the other keeps
serving and takes over its bots; a restarted process resumes bots under its own caps;
``--workers 2`` (uvicorn's processes on one socket) serves one match across both.

Runs when ``MOTHERLODE_TEST_POSTGRES`` names a database (``.ci/run`` starts Debian's
PostgreSQL); each test makes its own database next to it and drops it after.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import free_port
from tests.server.helpers import Viewer

psycopg = pytest.importorskip("psycopg")
from websockets.sync.client import ClientConnection, connect  # noqa: E402

URL = os.environ.get("MOTHERLODE_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="MOTHERLODE_TEST_POSTGRES is not set")


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh database on the test server (so that parallel tests never share one)."""
    assert URL is not None
    name = f"motherlode_procs_{secrets.token_hex(4)}"
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield URL.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class Server:
    """``python -m motherlode.server`` on PostgreSQL, on its own port (one host of several)."""

    def __init__(self, db: str, log: Path, *extra: str) -> None:
        self.db, self.log, self.extra = db, log, extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *extra: str) -> Server:
        args = [sys.executable, "-m", "motherlode.server", "--port", str(self.port)]
        args += ["--db", self.db, "--log-level", "warning", *self.extra, *extra]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=out)
        _wait(lambda: _healthy(self.url), f"{self.url} to start", proc=self.proc)
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(check: Callable[[], Any], what: str, rounds: int = 600, proc: Any = None) -> Any:
    """Poll until ``check()`` is true: a bound so that a bug fails instead of hanging."""
    for _ in range(rounds):
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server exited while waiting for {what}")
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    made: list[Server] = []

    def make(*extra: str) -> Server:
        server = Server(database, tmp_path / f"server{len(made)}.log", *extra)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


def _create(server: Server, seats: list[dict[str, str]]) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/matches",
        json={"game": "yukon", "config": {"players": 2}, "seats": seats},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _view(server: Server, mid: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.url}/api/matches/{mid}", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


class Peer:
    """A WebSocket client of one process: its pushes (a snapshot, then diffs) applied
    by the tests' :class:`~tests.server.helpers.Viewer`, as match.js applies them."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws, self.viewer = ws, Viewer()

    def send(self, text: str) -> None:
        self.ws.send(text)

    def close(self) -> None:
        self.ws.close()

    def next_view(self, timeout: float = 60) -> dict[str, Any]:
        """The view after the next push (a copy: the viewer patches its own in place)."""
        msg = json.loads(self.ws.recv(timeout=timeout))
        assert msg.get("type") in ("state", "diff"), msg
        return copy.deepcopy(self.viewer.apply(msg))


def _hello(server: Server, mid: str, token: str | None) -> tuple[Peer, dict[str, Any]]:
    ws = connect(server.url.replace("http", "ws") + f"/ws/{mid}", max_size=2**24)
    ws.__enter__()  # closed by the test (``ws.close()``) or with its process
    ws.send(json.dumps({"type": "hello", "token": token}))
    peer = Peer(ws)
    first = peer.next_view(timeout=30)
    assert first["type"] == "state", first  # a snapshot first
    return peer, first


def _until_version(ws: Peer, version: int) -> dict[str, Any]:
    """The view once a push brings it to ``version`` or later (a reader of pushes, no
    polling)."""
    while True:
        view = ws.next_view()
        if view["version"] >= version:
            return view


def _legal_move(ws: Peer, view: dict[str, Any]) -> None:
    action = view["legal"][0]["text"]
    ws.send(json.dumps({"type": "move", "action": action, "version": view["version"]}))


def _play(
    sockets: dict[int, Peer], views: dict[int, dict[str, Any]], moves: int
) -> dict[int, dict[str, Any]]:
    """``moves`` moves, each by the seat to move on its own socket; both sockets must see
    each one pushed (the same last log entry, the same seat to move next)."""
    for _ in range(moves):
        seat = views[0]["to_move"]
        _legal_move(sockets[seat], views[seat])
        version = views[seat]["version"] + 1
        views = {s: _until_version(sockets[s], version) for s in (0, 1)}
        assert views[0]["log"][-1]["text"] == views[1]["log"][-1]["text"]
        assert views[0]["to_move"] == views[1]["to_move"]
    return views


def test_two_players_on_two_processes_see_each_others_moves(
    servers: Callable[..., Server],
) -> None:
    one, two = servers("--bot-workers", "0").start(), servers("--bot-workers", "0").start()
    created = _create(one, [{"kind": "human"}, {"kind": "human"}])
    mid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    p1, at_one = _hello(one, mid, tokens[0])
    p2, at_two = _hello(two, mid, tokens[1])
    watcher, _ = _hello(two, mid, None)
    assert at_one["version"] == at_two["version"]
    views = _play({0: p1, 1: p2}, {0: at_one, 1: at_two}, 8)  # each pushed by the other
    seen = _until_version(watcher, views[0]["version"])
    assert seen["log"] == _view(one, mid)["log"] == _view(two, mid)["log"]
    for ws in (p1, p2, watcher):
        ws.close()


def test_a_killed_process_loses_no_move_and_the_other_takes_over_its_bot(
    servers: Callable[..., Server],
) -> None:
    quick = ("--bot-workers", "1", "--bot-max-seconds", "0.3", "--takeover-seconds", "3")
    one = servers(*quick, "--bot-delay", "2").start()
    two = servers(*quick).start()
    people = _create(one, [{"kind": "human"}, {"kind": "human"}])
    mid, tokens = people["id"], {s["seat"]: s["token"] for s in people["seats"]}
    vs_bot = _create(one, [{"kind": "human"}, {"kind": "bot", "spec": "mcts:iterations=30"}])
    bot_mid, bot_token = vs_bot["id"], vs_bot["seats"][0]["token"]
    p1, at_one = _hello(one, mid, tokens[0])
    p2, at_two = _hello(two, mid, tokens[1])
    sockets, views = {0: p1, 1: p2}, {0: at_one, 1: at_two}
    views = _play(sockets, views, 6)
    # the human moves on process one, which drives the bot after it: killed before it moves
    human, bot_view = _hello(one, bot_mid, bot_token)
    _legal_move(human, bot_view)
    _until_version(human, bot_view["version"] + 1)
    p1.close()
    human.close()
    one.kill()
    before = _view(two, mid)
    assert before["version"] == views[0]["version"] and before["log"] == views[0]["log"]
    # the player of process one comes back through process two and plays on
    p1, views[0] = _hello(two, mid, tokens[0])
    assert views[0]["version"] == before["version"]
    sockets[0] = p1
    views = _play(sockets, views, 4)
    assert _view(two, mid)["version"] == before["version"] + 4
    # the bot whose process died moves, driven by process two after the take-over delay
    moved = _wait(
        lambda: (
            (v := _view(two, bot_mid))["to_move"] == 0
            and v["version"] > bot_view["version"] + 1
            and v
        ),
        "the bot to move on process two",
    )
    assert moved["log"][-1]["seat"] == 1
    p1.close()
    p2.close()


def test_a_restarted_process_resumes_bots_under_its_own_caps(
    servers: Callable[..., Server], tmp_path: Path
) -> None:
    loose = servers("--bot-max-seconds", "5", "--bot-delay", "3", "--bot-workers", "1")
    loose.start()
    over = _create(loose, [{"kind": "human"}, {"kind": "bot", "spec": "mcts:seconds=4"}])
    token = over["seats"][0]["token"]
    human, view = _hello(loose, over["id"], token)
    _legal_move(human, view)
    _until_version(human, view["version"] + 1)
    human.close()
    loose.kill()  # with the bot to move (it waits 3 s first)
    again = servers("--bot-max-seconds", "0.5", "--bot-workers", "1").start()
    moved = _wait(
        lambda: (v := _view(again, over["id"]))["to_move"] == 0 and v, "the resumed bot's move"
    )
    assert moved["log"][-1]["seat"] == 1
    again.stop()
    said = again.log.read_text()
    assert (
        "mcts:seconds=4 asks for 4 s a move; this server allows at most 0.5 s; it plays as"
        " greedy" in said
    )


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def test_workers_2_serves_one_match_from_both_processes_and_survives_one_killed(
    servers: Callable[..., Server],
) -> None:
    server = servers("--workers", "2", "--bot-workers", "1", "--bot-max-seconds", "0.3")
    server.start()
    assert server.proc is not None
    created = _create(server, [{"kind": "human"}, {"kind": "human"}])
    mid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    watcher, view = _hello(server, mid, None)
    workers = _wait(lambda: len(kids := _children(server.proc.pid)) >= 2 and kids, "2 workers")
    for i in range(10):  # a fresh connection each: the kernel spreads them over both
        seat = view["to_move"]
        legal = _view(server, mid, tokens[seat])
        with httpx.Client(timeout=30) as client:
            r = client.post(
                f"{server.url}/api/matches/{mid}/move",
                json={"action": legal["legal"][0]["text"], "version": legal["version"]},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
        assert r.status_code == 200, r.text
        view = _until_version(watcher, legal["version"] + 1)  # pushed wherever it was made
        if i == 4:
            os.kill(workers[0], signal.SIGKILL)  # one process dies; the other serves on
            watcher.close()  # (it may have been the watcher's): watch again
            watcher, view = _hello(server, mid, None)
    assert view["version"] == _view(server, mid)["version"]
    # uvicorn's supervisor starts a new process for the dead one
    _wait(lambda: len(set(_children(server.proc.pid)) - {workers[0]}) >= 2, "a new worker")
    watcher.close()
    # a search bot thinks in a bot worker of whichever process took the person's move
    vs_bot = _create(server, [{"kind": "human"}, {"kind": "bot", "spec": "mcts:iterations=10"}])
    human, view = _hello(server, vs_bot["id"], vs_bot["seats"][0]["token"])
    _legal_move(human, view)
    answered = _until_version(human, view["version"] + 1)
    while answered["to_move"] != 0:  # the person's move (and any chance after it) first
        answered = _until_version(human, answered["version"] + 1)
    assert answered["to_move"] == 0 and answered["log"][-1]["seat"] == 1
    assert "greedy bot moved instead" not in answered["log"][-1]["said"]
    human.close()


def _serving(pids: list[int], server_port: int, client_port: int) -> int | None:
    """Which of ``pids`` holds the server's end of the TCP connection from ``client_port``
    (read from /proc: the socket's inode, then the process that has it open)."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as rows:
            for row in list(rows)[1:]:
                cols = row.split()
                local, remote = cols[1].rsplit(":", 1)[1], cols[2].rsplit(":", 1)[1]
                if int(local, 16) == server_port and int(remote, 16) == client_port:
                    inode = cols[9]
    if inode is None:
        return None
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
    return None


def test_workers_2_serve_every_socket_of_a_match_from_one_process(
    servers: Callable[..., Server],
) -> None:
    """The kernel gives each connection to either process; each match's sockets are
    handed to the process that owns it (server/affinity.py), so both players of a match,
    and its spectators, are served by one process (eight sockets, two matches); a match
    whose owner was killed is served by the process left."""
    from motherlode.server.affinity import Affinity

    server = servers("--workers", "2", "--bot-workers", "0").start()
    assert server.proc is not None
    workers = _wait(lambda: len(kids := _children(server.proc.pid)) >= 2 and kids, "2 workers")
    folder = Affinity.folder_for("127.0.0.1", server.port)

    def registered() -> list[int]:  # (each process joins with its first connection)
        with httpx.Client(timeout=5) as fresh:  # (a new connection each time)
            fresh.get(server.url + "/healthz")
        names = set(os.listdir(folder)) if folder.is_dir() else set()
        return [p for p in workers if str(p) in names]

    workers = _wait(lambda: len(found := registered()) == 2 and found, "2 processes joined")
    time.sleep(0.3)  # (each reads the other's registration within MEMBERS_TTL)
    owners = {}
    for _ in range(2):
        created = _create(server, [{"kind": "human"}, {"kind": "human"}])
        mid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        peers: list[Peer] = []
        views: dict[int, dict[str, Any]] = {}
        for seat in (0, 1):
            peer, views[seat] = _hello(server, mid, tokens[seat])
            peers.append(peer)
        for _ in range(6):
            peers.append(_hello(server, mid, None)[0])
        held = {_serving(workers, server.port, p.ws.socket.getsockname()[1]) for p in peers}
        assert len(held) == 1 and held <= set(workers), held
        owners[mid] = held.pop()
        _play({0: peers[0], 1: peers[1]}, views, 3)  # (played on the owner alone)
        for peer in peers:
            peer.close()
    mid, owner = next(iter(owners.items()))
    os.kill(owner, signal.SIGKILL)  # its socket file stays behind: never handed to again

    def dead() -> bool:  # (its files closed: a zombie, or reaped by uvicorn's supervisor)
        try:
            status = Path(f"/proc/{owner}/status").read_text()
        except OSError:
            return True
        return "\nState:\tZ" in status

    # (a connection handed to it in the instant it was dying is closed, as are those it
    # held: a client connects again)
    _wait(dead, "the killed process to exit")
    for _ in range(4):
        peer, view = _hello(server, mid, None)
        assert view["version"] == _view(server, mid)["version"]
        peer.close()

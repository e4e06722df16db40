"""Match affinity among the server processes of one host (server/affinity.py): a match's
connection handed to the process that owns it, the socket itself and its upgrade request;
every way a hand-over cannot be made leaves the connection where it arrived."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

from motherlode.server.affinity import Affinity, match_of, owner_of

REQUEST = b"GET /ws/m1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\r\n"


ONE, TWO = str(os.getpid()), str(os.getppid())
"""Two live processes' names (an affinity hands over only to a process that runs)."""


def _pair(folder: Path) -> tuple[Affinity, Affinity, list[tuple[socket.socket, bytes]]]:
    """Two processes' affinities in one folder (named ONE and TWO), what TWO adopts."""
    adopted: list[tuple[socket.socket, bytes]] = []
    one = Affinity(folder, lambda conn, request: None)
    two = Affinity(folder, lambda conn, request: adopted.append((conn, request)))
    one.name, two.name = ONE, TWO
    return one, two, adopted


def test_a_connection_handed_over_is_the_same_connection(tmp_path: Path) -> None:
    folder = tmp_path / "port"
    one, two, adopted = _pair(folder)

    async def go() -> None:
        loop = asyncio.get_running_loop()
        assert one.start(loop) and two.start(loop)
        client, server_end = socket.socketpair()  # (the accepted end is handed over)
        assert one.hand_over(TWO, server_end.fileno(), REQUEST)
        server_end.close()  # the first process lets go of it, as the protocol does
        for _ in range(100):
            if adopted:
                break
            await asyncio.sleep(0.01)
        conn, request = adopted[0]
        assert request == REQUEST and one.handed == 1
        conn.sendall(b"101 from the owner")
        assert client.recv(100) == b"101 from the owner"
        client.sendall(b"hello")
        assert conn.recv(100) == b"hello"
        conn.close()
        client.close()
        one.close()
        two.close()

    asyncio.run(go())
    assert not folder.exists()  # (each took its socket file away, the last the folder)


def test_every_process_names_the_same_owner_and_never_hands_to_itself(tmp_path: Path) -> None:
    folder = tmp_path / "port"
    one, two, _ = _pair(folder)

    async def go() -> None:
        loop = asyncio.get_running_loop()
        assert one.owner("m1") is None  # (not started: affinity off)
        assert one.start(loop) and two.start(loop)
        both = sorted([ONE, TWO])
        assert one.members() == two.members() == both
        for match_id in (f"m{i}" for i in range(40)):
            owner = owner_of(match_id, both)
            assert one.owner(match_id) == (None if owner == ONE else owner)
            assert two.owner(match_id) == (None if owner == TWO else owner)
        assert {owner_of(f"m{i}", both) for i in range(40)} == {ONE, TWO}
        one.close()
        two.close()

    asyncio.run(go())


def test_a_process_gone_is_not_handed_anything_and_its_file_is_removed(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "port"
    one, two, _ = _pair(folder)

    async def go() -> None:
        loop = asyncio.get_running_loop()
        assert one.start(loop) and two.start(loop)
        assert two.inbox is not None
        two.inbox.close()  # killed outright: its socket file stays behind
        client, server_end = socket.socketpair()
        assert not one.hand_over(TWO, server_end.fileno(), REQUEST)
        assert sorted(os.listdir(folder)) == [ONE]
        assert one.members() == [ONE] and one.owner("m1") is None
        assert not one.hand_over(ONE, server_end.fileno(), b"x" * 20000)  # (too long)
        # a process that exited (its pid no longer runs): left out, its file removed
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        gone.wait()
        (folder / str(gone.pid)).touch()
        one._read_at = -1.0
        assert one.members() == [ONE] and sorted(os.listdir(folder)) == [ONE]
        (folder / str(gone.pid)).touch()
        assert not one.hand_over(str(gone.pid), server_end.fileno(), REQUEST)
        assert sorted(os.listdir(folder)) == [ONE]
        for s in (client, server_end):
            s.close()
        one.close()

    asyncio.run(go())


def test_a_folder_others_may_enter_turns_affinity_off(tmp_path: Path) -> None:
    folder = tmp_path / "port"
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)  # (another user could plant a socket there, or read ours)
    one, _, _ = _pair(folder)

    async def go() -> None:
        assert not one.start(asyncio.get_running_loop())
        assert one.owner("m1") is None and not os.listdir(folder)

    asyncio.run(go())


def test_only_a_match_socket_request_names_a_match() -> None:
    assert match_of(REQUEST) == "m1"
    assert match_of(b"GET /ws/" + b"m" * 65 + b" HTTP/1.1\r\n") is None
    assert match_of(b"GET /ws/\xff HTTP/1.1\r\n") is None
    assert match_of(b"GET /lobby HTTP/1.1\r\n") is None

"""Match affinity among the server processes of one host (``motherlode serve --workers N``).

uvicorn's processes share one listening socket, and the kernel gives each connection to
whichever process accepts it first, so the two players of a match are as likely as not
on different processes. Each of those processes then holds the match: the one a move
reaches plans and writes it, the other reads it from the move's notice, plays it again
and draws its own player's push, so every move of such a match is played twice, and its
board's shared parts (the public layer, the spectator's view, the fields every viewer is
told alike) drawn twice. At saturation on 2 cores that was about a fifth of the server
processes' CPU (docs/server.md, "Match affinity").

So each match has an *owner* among the host's processes: the one its id hashes to among
those registered (a Unix datagram socket each, in a directory of the server's port, that
only this user may enter). A process that accepts a match's WebSocket it does not own
hands the connection over to the owner before the handshake: the socket itself (its file
descriptor, by ``SCM_RIGHTS``) and the upgrade request it has read; the owner serves it
as if it had accepted it. Nothing else changes: any process can still serve any match (a
move on the HTTP API, a process that was killed, another host: the notices keep them
right), and a hand-over that cannot be made (the owner gone, its queue full, TLS, a
socket file of a process that died) is served where it arrived. Across hosts a load
balancer that hashes the path (``/ws/<match>``) does the same (docs/server.md).
"""

from __future__ import annotations

import array
import asyncio
import atexit
import contextlib
import logging
import os
import socket
import stat
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

MEMBERS_TTL = 0.25
"""Seconds a process trusts its list of the host's processes before reading it again."""

MAX_REQUEST = 16 * 1024
"""The longest upgrade request handed over (a longer one is served where it arrived)."""


def match_of(request: bytes) -> str | None:
    """The match a WebSocket upgrade request is for (``GET /ws/<match>``), else ``None``.

    >>> match_of(b"GET /ws/m1a2?x=1 HTTP/1.1\\r\\nHost: h\\r\\n\\r\\n"), match_of(b"GET / HTTP/1.1")
    ('m1a2', None)
    >>> match_of(b"GET /ws/a/b HTTP/1.1\\r\\n"), match_of(b"POST /ws/m1 HTTP/1.1\\r\\n")
    (None, None)
    """
    line, _, _ = request.partition(b"\r\n")
    parts = line.split(b" ")
    if len(parts) != 3 or parts[0] != b"GET" or not parts[1].startswith(b"/ws/"):
        return None
    name = parts[1][4:].split(b"?", 1)[0]
    if not name or b"/" in name or len(name) > 64:
        return None
    try:
        return name.decode("ascii")
    except UnicodeDecodeError:
        return None


def alive(name: str) -> bool:
    """Whether the process ``name`` (its pid) runs: not gone, not a zombie. (A process
    killed outright can leave its socket able to take a datagram a while after it died:
    a connection handed to it then would be lost.)

    >>> alive(str(os.getpid())), alive("999999999")
    (True, False)
    """
    try:
        stat_line = Path(f"/proc/{name}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # (no /proc here: the process table)
        try:
            os.kill(int(name), 0)
        except ProcessLookupError:
            return False
        except OSError:
            return True
        return True
    return stat_line.rpartition(")")[2].split()[0] not in ("Z", "X")


def owner_of(match_id: str, members: list[str]) -> str:
    """Which of ``members`` (sorted) owns ``match_id``: the same answer in every process.

    >>> owner_of("m1", ["10", "20"]) == owner_of("m1", ["10", "20"])
    True
    >>> owner_of("m1", ["10"])
    '10'
    """
    return members[zlib.crc32(match_id.encode()) % len(members)]


class Affinity:
    """This process's place among the host's server processes of one port: its socket
    for connections handed to it (:meth:`start`), and the owner of each match."""

    def __init__(self, folder: Path, adopt: Callable[[socket.socket, bytes], None]) -> None:
        self.folder = folder
        self.adopt = adopt
        self.name = str(os.getpid())
        self.inbox: socket.socket | None = None
        self.outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.outbox.setblocking(False)
        self._members: list[str] = []
        self._read_at = -MEMBERS_TTL
        self.handed = 0
        """Connections handed over to their owner (for tests)."""

    @classmethod
    def folder_for(cls, host: str, port: int) -> Path:
        """The folder of the server processes of one address (host and port).

        >>> Affinity.folder_for("127.0.0.1", 8000).name, Affinity.folder_for("::1", 80).name
        ('motherlode-affinity-127.0.0.1-8000', 'motherlode-affinity-__1-80')
        """
        safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in host)
        return Path(tempfile.gettempdir()) / f"motherlode-affinity-{safe}-{port}"

    def start(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Register this process (its socket in the folder) and read what is handed to
        it; ``False`` (and affinity off here) where the folder is not this user's alone."""
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            info = self.folder.lstat()
            if (
                not stat.S_ISDIR(info.st_mode)
                or info.st_uid != os.getuid()
                or info.st_mode & 0o077
            ):
                log.warning("match affinity off: %s is not this user's alone", self.folder)
                return False
            path = self.folder / self.name
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # (a process of this pid before: long gone)
            inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            inbox.bind(str(path))
            inbox.setblocking(False)
        except OSError as err:
            log.warning("match affinity off: %s", err)
            return False
        self.inbox = inbox
        loop.add_reader(inbox.fileno(), self._receive)
        atexit.register(self.close)  # (a process killed outright leaves its file: see hand_over)
        self._read_at = -MEMBERS_TTL
        return True

    def close(self) -> None:
        if self.inbox is not None:
            with contextlib.suppress(OSError):
                (self.folder / self.name).unlink()
            with contextlib.suppress(OSError):
                self.folder.rmdir()  # (the last process of the address to go)
            self.inbox.close()
            self.inbox = None

    def members(self) -> list[str]:
        """The host's registered processes, sorted (read again every :data:`MEMBERS_TTL`,
        and at each call while this one is alone: as the processes start, their first
        connections come in a burst)."""
        now = time.monotonic()
        if now - self._read_at >= MEMBERS_TTL or len(self._members) < 2:
            try:
                names = sorted(p.name for p in self.folder.iterdir() if p.name.isdigit())
            except OSError:
                names = []
            self._members = [n for n in names if n == self.name or alive(n) or self._gone(n)]
            self._read_at = now
        return self._members

    def owner(self, match_id: str) -> str | None:
        """The process that owns ``match_id``: ``None`` when it is this one (or affinity
        is off here)."""
        if self.inbox is None:
            return None
        members = self.members()
        if self.name not in members:
            return None
        owner = owner_of(match_id, members)
        return None if owner == self.name else owner

    def hand_over(self, owner: str, fd: int, request: bytes) -> bool:
        """Send the connection ``fd`` and its upgrade ``request`` to ``owner``; ``False``
        when it cannot take it (then it is served here). A socket file whose process is
        gone is removed."""
        if len(request) > MAX_REQUEST:
            return False
        if not alive(owner):
            self._gone(owner)
            self._read_at = -MEMBERS_TTL
            return False
        path = str(self.folder / owner)
        try:
            # (sendmsg: socket.send_fds drops its address argument)
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
            self.outbox.sendmsg([request], rights, 0, path)
        except (ConnectionRefusedError, FileNotFoundError):  # (its process is gone)
            self._gone(owner)
            self._read_at = -MEMBERS_TTL
            return False
        except OSError:  # its queue full (BlockingIOError), or anything else: served here
            return False
        self.handed += 1
        return True

    def _gone(self, name: str) -> bool:
        """Remove the socket file of a process that is gone; ``False`` (not a member)."""
        with contextlib.suppress(OSError):
            (self.folder / name).unlink()
        return False

    def _receive(self) -> None:
        assert self.inbox is not None
        while True:
            try:
                request, fds, _, _ = socket.recv_fds(self.inbox, MAX_REQUEST, 1)
            except BlockingIOError:
                return
            except OSError as err:
                log.warning("match affinity: %s", err)
                return
            for fd in fds[1:]:  # (one a message; never more from this module)
                os.close(fd)
            if not fds:
                continue
            try:
                conn = socket.socket(fileno=fds[0])
            except OSError:
                os.close(fds[0])
                continue
            try:
                self.adopt(conn, request)
            except Exception:
                log.exception("match affinity: a handed-over connection could not be served")
                conn.close()

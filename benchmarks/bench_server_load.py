"""Load on the web platform: N concurrent Yukon matches over WebSockets, on loopback.

    python benchmarks/bench_server_load.py [--matches 200] [--seconds 30] [--think 1.0]
        [--humans 1|2] [--spectators 0] [--bot greedy] [--workers 1] [--warmup 5]
        [--db PATH|URL] [--port 0] [--compress] [--once] [--stock K]
        [--client lean|websockets]
        [--profile PATH] [--account] [--json]

Starts a server on a loopback port (a fresh SQLite database in a temporary directory
unless ``--db``; the app of ``python -m motherlode.server`` with the guard's per-client
rate limits off, since every load client shares the one address 127.0.0.1), creates
``--matches`` matches and holds that many at all times (a finished match is replaced by a
new one; ``--once``: not replaced, as in the bgio bench, whose matches are each played
once: with 1 s think a match lasts about 55 s, so keep ``--warmup`` and ``--seconds``
within that). ``--humans 2`` is boardgame.io's load shape (../shared/bench/bgio): two scripted
players per match, each on its own socket, no bots (2-player Yukon, 49 moves a match);
``--humans 1`` a scripted player against a ``--bot``. Each scripted player waits
``--think`` seconds (uniform 0.5-1.5 x) after its turn comes, then sends a random legal
move; ``--spectators`` more sockets watch each match. ``--workers N`` serves with N
processes (needs a database URL and a server whose pushes cross processes).
``--compress``: every socket asks for compressed pushes (as the match page does, where
the browser has ``DecompressionStream``) and inflates the binary frames it gets.
``--stock K``: K matches (at least ``--matches``) are made, and each of their players'
sockets connected and sent its snapshot, before the clock starts, as ``--once``'s are;
each slot whose match ends takes the next one, so that ``--matches`` matches stay in
play; the measured window ends when the stock runs out (when fewer would be in play).
It is the anchor's shape for a game whose matches are not all of one length:
boardgame.io's bench plays 200 matches of exactly 49 moves each, all in play until its
end, where 2-player Yukon matches of random moves last 17-41 moves (31 on average), so
with ``--once`` the matches in play dwindle from about a second into the play and the
rate measured falls with them (at 200 matches on ``--workers 2``: about 3,200 moves/s
while all 200 played, 2,258 over the whole play).
``--client``: the load client's WebSocket: ``lean`` (the default, :class:`LeanSocket`, this
file's own client, which leaves more of a shared machine's CPU to the server) or
``websockets`` (the websockets library's asyncio client, what this bench used before
2026-12-02: its figures are comparable with the earlier ones in docs/server.md).
``--profile PATH``: the server process runs under cProfile, its stats written to PATH
when it stops (``python -m pstats PATH``; the CPU figures then include the profiler's).
``--account``: where the server's CPU goes over the measured window, per move: the CPU
time (``time.process_time``) inside each of the server's steps of a move (:data:`PARTS`,
those the code being served has; inclusive: a step holds the steps it calls) and the
garbage collector's, from a wrapper around each (a few microseconds a call, counted in
the total); one server process only. Unlike a profiler's, these figures hold on a
loaded machine: a sampling profiler there charges the waits for a CPU after each system
call (a socket's write) to that call.

Prints (and with ``--json`` one JSON object of) the move round trip (sent -> the new
state has reached both players' sockets; and the mover's alone) p50/p95/p99/max, moves/s,
matches held and finished, errors (refusals by code, client timeouts and dropped
sockets), the server's RSS and CPU per move (the server's processes only: the database
server and this load client are apart), and the load client's CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import gc
import hashlib
import json
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets

try:  # (websockets' C masking, as its own client uses)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

STALL = 30.0
"""Seconds without a message after which a player counts its match as stalled (an error)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PARTS = (
    ("move: plan (the engine checks and applies it)", "runtime", "MatchRuntime", "plan_move"),
    ("move: write (the database), with the runtime's commit", "service", "MatchService", "_store"),
    ("move: the runtime's commit (a new revision)", "runtime", "MatchRuntime", "commit"),
    ("push: encode (a frame, its diff and text)", "runtime", "MatchRuntime", "_encode"),
    ("push: . the board's layers (the game's renderer)", "runtime", "MatchRuntime", "layers"),
    ("push: . the fields", "runtime", "MatchRuntime", "field_texts"),
    ("push: . the fields", "runtime", "MatchRuntime", "_fields"),
    ("push: . . the seat's own (observation, legal)", "runtime", "MatchRuntime", "_own_fields"),
    ("push: . . the log's text", "runtime", "MatchRuntime", "_log_text"),
    ("push: . . the shared fields' texts", "runtime", "MatchRuntime", "_shared_texts"),
    ("push: . the diff", "runtime", None, "diff_text"),
    ("push: . the diff", "runtime", None, "diff"),
    ("socket: read", "asyncio.selector_events", "_SelectorSocketTransport", "_read_ready"),
    ("socket: write", "asyncio.selector_events", "_SelectorSocketTransport", "write"),
    ("match: create", "service", "MatchService", "create_match"),
    ("match: a seat's token checked", "service", "MatchService", "authenticate"),
)
"""``--account``'s steps: (label, module (``motherlode.server.`` for ours), class or
``None``, function). A label may name two functions (the one the served code has)."""


class Accounts:
    """CPU seconds and calls per step of :data:`PARTS` and of the garbage collector, in
    the server process; reset by SIGUSR1 (the measured window begins), written to a JSON
    file as ``{label: [calls, seconds]}`` when the server stops."""

    def __init__(self, path: str) -> None:
        import gc
        import importlib
        import signal

        self.path = path
        self.cpu: dict[str, list[float]] = {}
        clock = time.process_time
        for label, module, cls, name in PARTS:
            mod = importlib.import_module(
                module if module.startswith("asyncio") else f"motherlode.server.{module}"
            )
            owner = mod if cls is None else getattr(mod, cls)
            if not hasattr(owner, name):
                continue
            self.cpu[label] = [0, 0.0]
            setattr(owner, name, self._wrapped(getattr(owner, name), self.cpu[label], clock))
        self.cpu["gc"] = gc_cell = [0, 0.0]
        started: list[float] = []

        def collecting(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started.append(clock())
            elif started:
                gc_cell[0] += 1
                gc_cell[1] += clock() - started.pop()

        gc.callbacks.append(collecting)
        signal.signal(signal.SIGUSR1, lambda *_: self.reset())

    @staticmethod
    def _wrapped(fn: Any, cell: list[float], clock: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                cell[0] += 1
                cell[1] += clock() - began

        return wrapper

    def reset(self) -> None:
        for cell in self.cpu.values():
            cell[0], cell[1] = 0, 0.0

    def write(self) -> None:
        Path(self.path).write_text(json.dumps(self.cpu))


def serve(
    port: int, db: str, workers: int, profile: str | None = None, account: str | None = None
) -> None:
    """The server process (``--serve``): the platform's app with rate limits off;
    ``profile``: under cProfile, the stats written there when it is terminated;
    ``account``: :class:`Accounts` written there when it is terminated."""
    if account:
        import signal

        def stop(signum: int, frame: Any) -> None:
            raise SystemExit(0)  # (uvicorn re-raises the SIGTERM it caught once it stopped)

        signal.signal(signal.SIGTERM, stop)
        accounts = Accounts(account)
        try:
            serve(port, db, workers, profile)
        finally:
            accounts.write()
        return
    if profile:
        import cProfile
        import signal

        def stop(signum: int, frame: Any) -> None:
            raise SystemExit(0)  # (uvicorn re-raises the SIGTERM it caught once it stopped)

        signal.signal(signal.SIGTERM, stop)
        from motherlode.server import runtime

        runtime.INLINE_DRAW_SECONDS = 1.0  # as unprofiled: the profiler's cost sends them off
        profiler = cProfile.Profile(time.process_time)  # CPU, not the waits of a busy machine
        profiler.enable()
        try:
            serve(port, db, workers)
        finally:
            profiler.disable()
            profiler.dump_stats(profile)
        return
    import uvicorn

    from motherlode.server.cli import HTTP_PROTOCOL, WS_MAX_SIZE, WS_PROTOCOL

    os.environ["MOTHERLODE_BENCH_DB"] = db
    options: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": port,
        "log_level": "warning",
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": False,
        "access_log": False,
        "loop": os.environ.get("MOTHERLODE_BENCH_LOOP", "auto"),
        # the server's (motherlode serve); "auto" for uvicorn's own, to compare
        "ws": os.environ.get("MOTHERLODE_BENCH_WS", WS_PROTOCOL),
        "http": os.environ.get("MOTHERLODE_BENCH_HTTP", HTTP_PROTOCOL),
    }
    if workers > 1:
        from motherlode.server.app import prepare_database

        prepare_database(db)  # once, as `motherlode serve` does: the processes would race
        sys.path.insert(0, str(Path(__file__).parent))
        uvicorn.run("bench_server_load:app_factory", factory=True, workers=workers, **options)
    else:
        uvicorn.run(app_factory(), **options)


def app_factory() -> Any:
    from motherlode.server.app import create_app
    from motherlode.server.guard import Limits

    return create_app(
        os.environ["MOTHERLODE_BENCH_DB"], bot_delay=0.0, tune_gc=True, limits=Limits.off()
    )


def start_server(
    port: int, db: str, workers: int, profile: str | None = None, account: str | None = None
) -> subprocess.Popen[bytes]:
    serving = ["--serve", str(port), "--db", db, "--workers", str(workers)]
    serving += ["--profile", profile] if profile else []
    serving += ["--account", account] if account else []
    proc = subprocess.Popen(
        [sys.executable, __file__, *serving],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc; just ``pid`` elsewhere)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of processes (Linux /proc; 0 elsewhere)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mib(pids: list[int], key: str = "VmRSS") -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


@dataclass
class Stats:
    both: list[float] = field(default_factory=list)
    """Round trips until both players' sockets (or the one player's) have the move."""
    mover: list[float] = field(default_factory=list)
    moves: int = 0
    """Scripted players' moves sent after the warm-up."""
    finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    held: int = 0
    max_held: int = 0
    warm: float = 0.0
    loop_delay: list[float] = field(default_factory=list)
    """How late the load client's event loop woke from each 10 ms sleep (:func:`loop_delay`)."""
    played_out: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when every slot has stopped (``--once``: every match played out): the measured
    window ends there if that comes first, so that it holds no idle tail."""

    stock: collections.deque[Match] = field(default_factory=collections.deque)
    """``--stock``: the matches made before the clock that no slot has taken yet."""

    def counts(self) -> bool:
        """Whether a move sent now is in the measured window (after the warm-up, before
        the window ends: ``--stock`` run out)."""
        return time.monotonic() >= self.warm and not self.played_out.is_set()

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Held:
    """A client's copy of the fields it needs (snapshots replace it, diffs patch it)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}

    def apply(self, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` was a state (snapshot or diff) this client could apply."""
        if msg["type"] == "state":
            self.state = msg
            return True
        if msg["type"] != "diff" or msg["base"] != self.state.get("rev"):
            return False
        self.state.update(msg["fields"])
        self.state["version"], self.state["rev"] = msg["version"], msg["rev"]
        return True


@dataclass
class Match:
    """One match being played: what is in flight, who has seen it."""

    id: str
    tokens: dict[int, str]
    sent_at: float | None = None
    sent_version: int = -1
    mover: int = -1
    seen: set[int] = field(default_factory=set)
    over: set[int] = field(default_factory=set)
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    """The next mover, waiting until the move in flight has reached every player (it may
    have got the new state before the other player did)."""
    sockets: dict[int, LeanSocket | LibrarySocket] = field(default_factory=dict)
    """``--stock``: each seat's socket, connected and sent its snapshot before the clock."""


async def create_match(http: httpx.AsyncClient, args: argparse.Namespace) -> Match:
    seats = [{"kind": "human"}]
    seats.append({"kind": "human"} if args.humans == 2 else {"kind": "bot", "spec": args.bot})
    r = await http.post(
        "/api/matches", json={"game": "yukon", "seats": seats, "creator_seat": None}
    )
    r.raise_for_status()
    data = r.json()
    return Match(data["id"], {s["seat"]: s["token"] for s in data["seats"]})


def hello(token: str | None, args: argparse.Namespace) -> str:
    """The first message of a socket (asking for compressed pushes with ``--compress``)."""
    msg: dict[str, Any] = {"type": "hello", "token": token}
    if args.compress:
        msg["compress"] = "deflate-raw"
    return json.dumps(msg)


def decode(raw: str | bytes) -> dict[str, Any]:
    """A frame's message: a binary frame is a compressed push (raw deflate)."""
    text = zlib.decompress(raw, -15) if isinstance(raw, bytes) else raw
    return dict(orjson.loads(text))  # (the json module's took a fifth of this client's CPU)


def _arrived(m: Match, seat: int, version: int, stats: Stats, players: int) -> None:
    """A socket of ``seat`` got ``version``: the round trip ends once every player has."""
    if m.sent_at is None or version <= m.sent_version or seat in m.seen:
        return
    m.seen.add(seat)
    now = time.perf_counter()
    measured = time.monotonic() >= stats.warm
    if seat == m.mover and measured:
        stats.mover.append(now - m.sent_at)
    if len(m.seen) == players:
        if measured:
            stats.both.append(now - m.sent_at)
        m.sent_at = None
        for waiter in m.waiters:
            if not waiter.done():
                waiter.set_result(None)
        m.waiters.clear()



# -- the load client's sockets and players ------------------------------------------------


class Stalled(TimeoutError):
    """No message for :data:`STALL` seconds (an error of the match), as opposed to the
    measured time being up (a plain ``TimeoutError``: no error)."""


_waits: dict[asyncio.Future[Any], tuple[float, float]] = {}
"""Every wait of a lean socket or a player in progress: its future -> (began, stop)."""


async def watchdog(stop: float) -> None:
    """Ends the waits (:func:`wait_for_future`) that ran past :data:`STALL`
    (:class:`Stalled`) or past the measured time (``TimeoutError``): one timer for every
    socket and player, where the ``websockets`` client arms one for each message read."""
    while _waits or time.monotonic() < stop + STALL:
        await asyncio.sleep(0.25)
        now = time.monotonic()
        for future, (began, until) in list(_waits.items()):
            if future.done():
                _waits.pop(future, None)
            elif now - began >= STALL:
                future.set_exception(Stalled())
            elif now >= until:
                future.set_exception(TimeoutError())
        if not _waits and now >= stop:
            return


async def wait_for_future(future: asyncio.Future[Any], stop: float) -> Any:
    """``await future``, ended by :func:`watchdog` at :data:`STALL` or ``stop``."""
    _waits[future] = (time.monotonic(), stop)
    try:
        return await future
    finally:
        _waits.pop(future, None)


_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""RFC 6455's key suffix for ``Sec-WebSocket-Accept``."""


class LeanSocket(asyncio.Protocol):
    """A WebSocket client (RFC 6455) cut to what the load needs, so that the load client
    leaves the machine's CPU to the server: the handshake (its ``Sec-WebSocket-Accept``
    checked), whole text and binary messages (fragments joined), pings answered, a close
    answered and sent, every frame it sends masked (a fresh key each). No extensions, no
    TLS. The ``websockets`` library's client (``--client websockets``) took 0.16-0.19 ms
    of this client's CPU a move at saturation (its reader, assembler and a timeout per
    message read); boardgame.io's load client, in Node, about 0.15."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.key = base64.b64encode(os.urandom(16))
        self.opened: asyncio.Future[None] = loop.create_future()
        self.messages: collections.deque[str | bytes] = collections.deque()
        self.waiter: asyncio.Future[str | bytes] | None = None
        self.fragments: list[bytes] = []
        self.kind = 1
        self.closed = False

    @classmethod
    async def connect(cls, url: str) -> LeanSocket:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        loop = asyncio.get_running_loop()
        _, sock = await loop.create_connection(cls, host, port)
        assert sock.transport is not None
        sock.transport.write(
            f"GET {parts.path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {sock.key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await asyncio.wait_for(sock.opened, STALL)
        return sock

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        error = ConnectionError("the server closed the connection")
        if not self.opened.done():
            self.opened.set_exception(error)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(error)

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1").split("\r\n")
            del buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1(self.key + _GUID).digest()).decode()
            pairs = (h.partition(":") for h in head[1:])
            fields = {k.strip().lower(): v.strip() for k, _, v in pairs}
            if head[0].split(" ")[1:2] != ["101"] or fields.get("sec-websocket-accept") != accept:
                self.opened.set_exception(ConnectionError(f"handshake refused: {head[0]}"))
                self._abort()
                return
            self.opened.set_result(None)
        while True:
            n = len(buf)
            if n < 2:
                return
            b0, b1 = buf[0], buf[1]
            size, at = b1 & 0x7F, 2
            if size == 126:
                if n < 4:
                    return
                size, at = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if n < 10:
                    return
                size, at = int.from_bytes(buf[2:10], "big"), 10
            if b1 & 0x80:  # (a server's frames are never masked)
                self._abort()
                return
            if n < at + size:
                return
            payload = bytes(buf[at : at + size])
            del buf[: at + size]
            self._frame(b0 & 0x80, b0 & 0x0F, payload)

    def _frame(self, fin: int, opcode: int, payload: bytes) -> None:
        if opcode in (0, 1, 2):
            if opcode:
                self.kind, self.fragments = opcode, [payload]
            else:
                self.fragments.append(payload)
            if not fin:
                return
            data = payload if len(self.fragments) == 1 else b"".join(self.fragments)
            self.fragments = []
            message: str | bytes = data.decode() if self.kind == 1 else data
            waiter = self.waiter
            if waiter is not None and not waiter.done():
                self.waiter = None
                waiter.set_result(message)
            else:
                self.messages.append(message)
        elif opcode == 9:  # ping
            self._send(0xA, payload)
        elif opcode == 8:  # close: answered, then the connection ends
            self.shut()

    async def recv(self, stop: float) -> str | bytes:
        """The next message (``TimeoutError``/:class:`Stalled` from :func:`watchdog`)."""
        if self.messages:
            return self.messages.popleft()
        if self.closed:
            raise ConnectionError("the connection is closed")
        self.waiter = self.loop.create_future()
        return await wait_for_future(self.waiter, stop)  # type: ignore[no-any-return]

    async def send(self, text: str) -> None:
        self._send(0x1, text.encode())

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.closed or self.transport is None:
            return
        mask = random.getrandbits(32).to_bytes(4, "big")
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0xFE, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0xFF, n)
        self.transport.write(head + mask + apply_mask(payload, mask))

    async def close(self) -> None:
        self.shut()

    def shut(self) -> None:
        """Send a close frame and close the connection (without waiting for the answer)."""
        if not self.closed:
            self._send(0x8, (1000).to_bytes(2, "big"))
            self.closed = True
            if self.transport is not None:
                self.transport.close()

    def _abort(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.abort()


class LibrarySocket:
    """The websockets library's asyncio client (``--client websockets``), read as a
    :class:`LeanSocket` is: a timeout armed for each message read (``asyncio.timeout``:
    ``wait_for`` made a task of each)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: collections.deque[str | bytes] = collections.deque()
        """Read before the clock and kept for the player (:func:`connect_seats`)."""

    @classmethod
    async def connect(cls, url: str) -> LibrarySocket:
        return cls(await websockets.connect(url, max_size=2**22, compression=None))

    async def recv(self, stop: float) -> str | bytes:
        if self.messages:
            return self.messages.popleft()
        wait = min(STALL, stop - time.monotonic())
        try:
            async with asyncio.timeout(max(0.01, wait)):
                return await self.ws.recv()  # type: ignore[no-any-return]
        except TimeoutError:
            raise (Stalled() if wait >= STALL else TimeoutError()) from None

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self) -> None:
        await self.ws.close()


Socket = LeanSocket | LibrarySocket


async def open_socket(url: str, args: argparse.Namespace) -> Socket:
    """A socket of the client ``--client`` names."""
    if args.client == "lean":
        return await LeanSocket.connect(url)
    return await LibrarySocket.connect(url)


async def watcher(url: str, stop: float, args: argparse.Namespace) -> None:
    """A spectator's socket: reads every push until the time is up."""
    sock = await open_socket(url, args)
    try:
        await sock.send(hello(None, args))
        while time.monotonic() < stop:
            try:
                await sock.recv(stop)
            except (TimeoutError, ConnectionError):
                break
    finally:
        await sock.close()


async def play_seat(
    m: Match,
    seat: int,
    url: str,
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
) -> None:
    """One scripted player's socket (connected before the clock with ``--stock``), to
    the end of the match or the time; its waits end at :data:`STALL` (an error) or when
    the time is up."""
    players = args.humans
    sock: Socket | None = m.sockets.pop(seat, None)
    if sock is None:
        sock = await open_socket(url, args)
        await sock.send(hello(m.tokens[seat], args))
    try:
        held = Held()
        moved_at = -1
        while time.monotonic() < stop:
            try:
                raw = await sock.recv(stop)
            except Stalled:
                stats.error("client:stalled")
                return
            except TimeoutError:
                return
            msg = decode(raw)
            if msg["type"] == "error":
                stats.error(msg["code"])
                await sock.send(json.dumps({"type": "sync"}))
                continue
            if not held.apply(msg):
                stats.error("client:diff_base")
                await sock.send(json.dumps({"type": "sync"}))
                continue
            s = held.state
            _arrived(m, seat, s["version"], stats, players)
            if s["terminal"]:
                m.over.add(seat)
                return
            if s["to_move"] == seat and s["version"] > moved_at:
                if m.sent_at is not None:  # the other player has not got it yet
                    settled = asyncio.get_running_loop().create_future()
                    m.waiters.append(settled)
                    try:  # (a mover whose time is up leaves unread: no stall)
                        await wait_for_future(settled, stop)
                    except Stalled:
                        stats.error("client:stalled")
                        return
                    except TimeoutError:
                        return
                if args.think:
                    await asyncio.sleep(args.think * (0.5 + rng.random()))
                legal: list[dict[str, Any]] = s["legal"]
                moved_at = s["version"]
                m.sent_version, m.seen, m.mover = moved_at, set(), seat
                m.sent_at = time.perf_counter()
                stats.moves += stats.counts()
                action = legal[rng.randrange(len(legal))]["text"]
                await sock.send(json.dumps({"type": "move", "action": action, "version": moved_at}))
    finally:
        await sock.close()


async def connect_seats(
    m: Match, base: str, args: argparse.Namespace, gate: asyncio.Semaphore
) -> None:
    """``--stock``: open every seat's socket of ``m`` and wait for its snapshot (kept for
    the player to read first), before the clock starts, as the anchor's bench connects
    and syncs every client before its play."""
    url = base.replace("http", "ws") + f"/ws/{m.id}"
    for seat in range(args.humans):
        async with gate:
            sock = await open_socket(url, args)
            await sock.send(hello(m.tokens[seat], args))
            first = await asyncio.wait_for(sock.recv(time.monotonic() + STALL), STALL)
            sock.messages.appendleft(first)
            m.sockets[seat] = sock


async def slot(
    base: str,
    http: httpx.AsyncClient,
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
    first: Match | None,
) -> None:
    """One slot: play matches one after another until the time is up (the first one made
    before the clock started)."""
    await asyncio.sleep(rng.random() * max(args.think, 0.05))  # spread the starts
    while time.monotonic() < stop:
        if first is None and args.stock:
            if not stats.stock:  # the stock ran out: fewer matches in play from now on
                stats.played_out.set()
                return
            first = stats.stock.popleft()
        try:
            m = first if first is not None else await create_match(http, args)
            first = None
        except (httpx.HTTPError, OSError) as err:
            stats.error(f"client:create:{type(err).__name__}")
            await asyncio.sleep(1.0)
            continue
        ws_url = base.replace("http", "ws") + f"/ws/{m.id}"
        watchers = [
            asyncio.create_task(watcher(ws_url, stop, args)) for _ in range(args.spectators)
        ]
        stats.held += 1
        stats.max_held = max(stats.max_held, stats.held)
        try:
            seats = [0, 1] if args.humans == 2 else [0]
            done = await asyncio.gather(
                *(play_seat(m, s, ws_url, args, stats, stop, rng) for s in seats),
                return_exceptions=True,
            )
            for result in done:
                if isinstance(result, BaseException):
                    stats.error(f"client:{type(result).__name__}")
            if len(m.over) == len(seats):
                stats.finished += 1
                if args.once and not args.stock:
                    return  # (the bgio bench's shape: its matches are not replaced)
            elif time.monotonic() < stop:
                return  # a failed match: the slot is lost (counted in errors)
        finally:
            stats.held -= 1
            for w in watchers:
                w.cancel()


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile in ms (as the bgio bench: the ceil(q n)-th smallest)."""
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, -(-int(q * 1000) * len(values) // 1000) - 1))
    return values[k] * 1000


async def sample(
    pids: list[int], stats: Stats, stop: float, out: dict[str, float], account: bool = False
) -> None:
    """CPU of the server and of this client over the measured window, RSS at its end
    (``account``: the server's accounts are reset as the window begins)."""
    await asyncio.sleep(max(0.0, stats.warm - time.monotonic()))
    if account:
        import signal

        os.kill(pids[0], signal.SIGUSR1)
    t0, c0, s0 = time.monotonic(), time.process_time(), cpu_seconds(pids)
    # (``--once``: the matches may all end before ``stop``; moves/s over a window that
    # ran on idle would understate the rate, as boardgame.io's bench times its play only)
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stats.played_out.wait(), max(0.0, stop - time.monotonic()))
    out.update(
        elapsed=time.monotonic() - t0,
        client_cpu=time.process_time() - c0,
        server_cpu=cpu_seconds(pids) - s0,
        rss=rss_mib(pids),
        hwm=rss_mib(pids, "VmHWM"),
    )


async def run(
    args: argparse.Namespace, base: str, pids: list[int]
) -> tuple[Stats, dict[str, float]]:
    stats = Stats()
    measured: dict[str, float] = {}
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        # set-up (as the bgio bench): every first match made before the clock starts
        made = await asyncio.gather(
            *(create_match(http, args) for _ in range(max(args.matches, args.stock))),
            return_exceptions=True,
        )
        firsts = [m if isinstance(m, Match) else None for m in made[: args.matches]]
        stats.stock.extend(m for m in made[args.matches :] if isinstance(m, Match))
        if args.stock:
            gate = asyncio.Semaphore(50)
            await asyncio.gather(
                *(connect_seats(m, base, args, gate) for m in made if isinstance(m, Match))
            )
        for m in made:
            if not isinstance(m, Match):
                stats.error(f"client:create:{type(m).__name__}")
        # the load client's own garbage collector would stall its loop (its full
        # collections of 2,000 sockets' states took up to 0.2 s), counted as the server's
        # round trips; it runs a minute or two: it collects nothing while it plays
        gc.collect()
        gc.freeze()
        gc.disable()
        stats.warm = time.monotonic() + args.warmup
        stop = stats.warm + args.seconds
        sampler = asyncio.create_task(sample(pids, stats, stop, measured, bool(args.account)))
        lagger = asyncio.create_task(loop_delay(stats, stop))
        dog = asyncio.create_task(watchdog(stop))
        tasks = [
            asyncio.create_task(slot(base, http, args, stats, stop, random.Random(i), firsts[i]))
            for i in range(args.matches)
        ]
        await asyncio.gather(*tasks)
        stats.played_out.set()
        await sampler
        await lagger
        dog.cancel()
    return stats, measured


async def loop_delay(stats: Stats, stop: float, every: float = 0.01) -> None:
    """How late this load client's event loop wakes from a ``every``-second sleep over the
    measured window (as the bgio bench's ``loadgen_eventloop_delay``): a round trip it
    measures includes its own lateness, which this shows apart."""
    await asyncio.sleep(max(0.0, stats.warm - time.monotonic()))
    while time.monotonic() < stop and not stats.played_out.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        stats.loop_delay.append(time.perf_counter() - t0 - every)


def summary(args: argparse.Namespace, stats: Stats, measured: dict[str, float]) -> dict[str, Any]:
    def q(values: list[float]) -> dict[str, float]:
        return {
            "p50": round(pct(values, 0.50), 2),
            "p95": round(pct(values, 0.95), 2),
            "p99": round(pct(values, 0.99), 2),
            "max": round(max(values) * 1000, 2) if values else float("nan"),
        }

    elapsed = measured["elapsed"]
    # every move the server made: the players' and, against bots, as many bot moves
    server_moves = stats.moves * (2 if args.humans == 1 else 1)
    return {
        "game": "yukon",
        "matches": args.matches,
        "humans": args.humans,
        "bot": args.bot if args.humans == 1 else None,
        "spectators": args.spectators,
        "think_s": args.think,
        "workers": args.workers,
        "compress": args.compress,
        "client": args.client,
        "once": args.once,
        "stock": args.stock,
        "db": "postgresql" if "://" in (args.db or "") else "sqlite",
        "seconds": round(elapsed, 1),
        "cpus": os.cpu_count(),
        "matches_held_max": stats.max_held,
        "matches_finished": stats.finished,
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "server_moves_per_s": round(server_moves / elapsed, 1),
        "rtt_both_ms": q(stats.both),
        "rtt_mover_ms": q(stats.mover),
        "rtt_measured": len(stats.both),
        "client_loop_delay_ms": q(stats.loop_delay),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()),
        "server_rss_mib": round(measured["rss"], 1),
        "server_peak_rss_mib": round(measured["hwm"], 1),
        "server_cpu_util": round(measured["server_cpu"] / elapsed, 2),
        "server_cpu_ms_per_move": round(1000 * measured["server_cpu"] / max(1, server_moves), 3),
        "client_cpu_util": round(measured["client_cpu"] / elapsed, 2),
        "loadavg_1m": os.getloadavg()[0],
    }


def accounted(path: str, server_moves: int) -> dict[str, dict[str, float]]:
    """``--account``'s figures per move of the measured window: ms of CPU and calls."""
    parts = json.loads(Path(path).read_text())
    moves = max(1, server_moves)
    return {
        label: {"ms": round(1000 * seconds / moves, 3), "calls": round(calls / moves, 2)}
        for label, (calls, seconds) in parts.items()
    }


def report(s: dict[str, Any]) -> str:
    b, m, d = s["rtt_both_ms"], s["rtt_mover_ms"], s["client_loop_delay_ms"]
    who = "two scripted players" if s["humans"] == 2 else f"a scripted player vs {s['bot']}"
    return "\n".join(
        [
            f"yukon, {s['matches']} matches ({who}), think {s['think_s']:g}s,"
            f" {s['spectators']} spectator(s) each, {s['workers']} worker(s) on {s['db']},"
            f" {s['seconds']:.0f}s measured, {s['cpus']} CPUs",
            f"matches held: {s['matches_held_max']} at once; finished {s['matches_finished']}",
            f"moves: {s['moves']} ({s['moves_per_s']}/s by players,"
            f" {s['server_moves_per_s']}/s by the server in all)",
            f"round trip to both ms: p50 {b['p50']}  p95 {b['p95']}  p99 {b['p99']}"
            f"  max {b['max']}",
            f"round trip to the mover ms: p50 {m['p50']}  p95 {m['p95']}  p99 {m['p99']}",
            f"load client's event loop late by ms: p50 {d['p50']}  p99 {d['p99']}  max {d['max']}",
            f"server: {s['server_cpu_util']:.0%} of a core, {s['server_cpu_ms_per_move']} ms CPU"
            f" a move, RSS {s['server_rss_mib']} MiB (peak {s['server_peak_rss_mib']});"
            f" load client {s['client_cpu_util']:.0%}",
            f"errors: {s['error_count']} {s['errors'] or ''}",
            *(
                f"  {part['ms']:7.3f} ms CPU a move  {part['calls']:5.2f} calls  {label}"
                for label, part in s.get("server_cpu_parts", {}).items()
            ),
        ]
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--humans", type=int, choices=(1, 2), default=1)
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--db", default=None, help="SQLite path or database URL")
    parser.add_argument("--compress", action="store_true", help="sockets ask for deflate")
    parser.add_argument(
        "--stock",
        type=int,
        default=0,
        help="matches made before the clock; each slot plays them once, one after another,"
        " and the window ends when they run out (--matches in play all through it)",
    )
    parser.add_argument(
        "--client",
        choices=("lean", "websockets"),
        default="lean",
        help="the load client's WebSocket: its own lean one, or the websockets library's",
    )
    parser.add_argument(
        "--once",
        action="store_true",
        help="each match played once, not replaced when it ends (the bgio bench's shape)",
    )
    parser.add_argument("--profile", default=None, help="cProfile the server into this file")
    parser.add_argument(
        "--account", nargs="?", const="", default=None, help="where the server's CPU goes"
    )
    parser.add_argument(
        "--loop",
        choices=("auto", "asyncio", "uvloop"),
        default="auto",
        help="the server's event loop (auto: uvloop where installed, as `motherlode serve`)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.db, args.workers, args.profile, args.account)
        return
    if args.account is not None and args.workers > 1:
        parser.error("--account counts one server process (--workers 1)")
    args.matches = max(1, min(args.matches, 2000))
    if args.stock and not args.matches <= args.stock <= 20000:
        parser.error("--stock is at least --matches (and at most 20000)")
    args.seconds = max(0.5, min(args.seconds, 600.0))
    if args.workers > 1 and "://" not in (args.db or ""):
        parser.error("--workers N needs a database URL (--db postgresql://...)")
    port = args.port or free_port()
    db = args.db or str(Path(tempfile.mkdtemp(prefix="motherlode-load-")) / "load.db")
    if args.account is not None:
        args.account = str(Path(tempfile.mkdtemp(prefix="motherlode-account-")) / "parts.json")
    os.environ["MOTHERLODE_BENCH_LOOP"] = args.loop
    proc = start_server(port, db, args.workers, args.profile, args.account)
    try:
        pids = process_tree(proc.pid)
        stats, measured = asyncio.run(run(args, f"http://127.0.0.1:{port}", pids))
    finally:
        proc.terminate()
        proc.wait(10)
    s = summary(args, stats, measured)
    if args.account:
        s["server_cpu_parts"] = accounted(
            args.account, stats.moves * (2 if args.humans == 1 else 1)
        )
    print(json.dumps(s) if args.json else report(s))


if __name__ == "__main__":
    main()

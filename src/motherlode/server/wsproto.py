"""The WebSocket protocol the server runs under uvicorn: uvicorn's own (``websockets``'
sans-I/O implementation) with its flow control kept and made cheaper.

uvicorn stops reading a socket after every message it hands to the application and reads
again once the application has taken it: two ``epoll_ctl`` system calls per message, about
a twentieth of the server's CPU at full load (py-spy, ``benchmarks/bench_server_load.py``
at saturation). Here a socket stops being read only when :data:`QUEUE_LIMIT` messages wait
for the application (a client that sends faster than its messages are handled: the
WebSocket's rate limit reads such a connection slowly), and reads again, as before, once
they are all taken. What a client may queue is still bounded; only the common case, a
message handled as soon as it came, no longer costs the two calls.

It also offers the application a *direct write* (the ASGI scope's extension
:data:`DIRECT`): a whole frame, made once (:func:`motherlode.server.push.frame`) for
every socket that is sent the same push, written to the socket's transport at once,
without the ASGI ``send``'s await, Starlette's and uvicorn's layers and a frame made
again for each socket. It writes only while the socket takes data (its write buffer
under the high-water mark, the connection open and not closing) and says so; otherwise
the application sends as usual, through ``send``, which waits for the buffer to drain.

With several processes (``--workers N``) a match's WebSocket is handed over, before its
handshake, to the process that owns the match (server/affinity.py), which serves it
(:class:`AffineHTTPProtocol` starts that with each process's first connection).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from motherlode.server.affinity import Affinity, match_of

DIRECT = "motherlode.direct_write"
"""The scope's extension (``scope["extensions"][DIRECT]["write"]``): ``write(frame) ->
bool``, ``False`` (nothing written) when the frame must go through ``send`` instead."""

QUEUE_LIMIT = 16
"""Messages of one socket waiting for the application before its reading stops."""


_affinity: Affinity | None = None
"""This process's match affinity (server/affinity.py), started with its first connection
when uvicorn runs several processes on a TCP port (:func:`start_affinity`); ``None``
before, with one process, or where it could not start."""
_affinity_tried = False
_adopting: set[asyncio.Task[None]] = set()
"""Handed-over connections being set up (a reference kept until each is done)."""


class SteadyWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, reading paused only when :data:`QUEUE_LIMIT` messages
    wait (``ws=`` of ``uvicorn.run``); with several processes, a match's connection handed
    over to the process that owns the match (server/affinity.py)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handed_over = False
        self.adopted = False
        self.server_state = kwargs.get("server_state", args[1] if len(args) > 1 else None)

    def data_received(self, data: bytes) -> None:
        if not self.handshake_initiated and not self.adopted and self._hand_over(data):
            return
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.handed_over:  # (the owner serves it: nothing of it is left here)
            self.connections.discard(self)
            return
        super().connection_lost(exc)

    def _hand_over(self, request: bytes) -> bool:
        """Hand this connection (its upgrade ``request`` read, nothing answered yet) over
        to the process that owns its match, if that is another one and can take it."""
        affinity = self._affinity()
        if affinity is None:
            return False
        match_id = match_of(request)
        if match_id is None or self.transport.get_extra_info("sslcontext") is not None:
            return False
        owner = affinity.owner(match_id)
        if owner is None:
            return False
        sock = self.transport.get_extra_info("socket")
        if sock is None or not affinity.hand_over(owner, sock.fileno(), request):
            return False
        self.handed_over = True
        self.transport.close()  # (this process's reference only: the owner holds its own)
        return True

    def _affinity(self) -> Affinity | None:
        if not _affinity_tried:
            start_affinity(self.config, self.server_state, self.app_state, self.loop)
        return _affinity

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # (none: the handshake was refused)
        if scope is not None:
            scope["extensions"][DIRECT] = {"write": self.write_frame}

    def write_frame(self, data: bytes) -> bool:
        """Write a whole frame (:func:`motherlode.server.push.frame`) now, if the socket
        takes data: the handshake done, no close sent or received, the transport open and
        its buffer under the high-water mark (uvicorn's ``send`` would wait for it to
        drain). ``False``: nothing written."""
        if (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and not self.transport.is_closing()
        ):
            self.transport.write(data)
            return True
        return False

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # (so uvicorn's handing over does not pause the reading)
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= QUEUE_LIMIT:
            self.read_paused = True
            self.transport.pause_reading()


def start_affinity(
    config: Any, server_state: Any, app_state: Any, loop: asyncio.AbstractEventLoop
) -> Affinity | None:
    """Start this process's match affinity (once), where uvicorn runs several processes
    on one TCP port: a handed-over connection is served with uvicorn's ``config``,
    ``server_state`` and ``app_state``, which only its protocols are given, so it starts
    with the process's first connection (:class:`AffineHTTPProtocol`)."""
    global _affinity, _affinity_tried
    if _affinity_tried:
        return _affinity
    _affinity_tried = True
    if config.workers <= 1 or not config.port or config.uds or config.fd is not None:
        return None

    def adopt(conn: socket.socket, request: bytes) -> None:
        task = loop.create_task(_adopt(config, server_state, app_state, conn, request))
        _adopting.add(task)
        task.add_done_callback(_adopting.discard)

    affinity = Affinity(Affinity.folder_for(str(config.host), config.port), adopt)
    if affinity.start(loop):
        _affinity = affinity
    return _affinity


class AffineHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (``auto``: httptools' where installed, else h11's) that
    starts the process's match affinity with its first connection (``http=`` of
    ``uvicorn.run``)."""

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if not _affinity_tried:
            start_affinity(config, server_state, app_state, self.loop)


async def _adopt(
    config: Any, server_state: Any, app_state: Any, conn: socket.socket, request: bytes
) -> None:
    """Serve a connection another process handed over: as uvicorn does a WebSocket upgrade
    (its protocol made, given the transport and the request), never handed on again."""
    protocol = SteadyWebSocketProtocol(
        config=config, server_state=server_state, app_state=app_state
    )
    protocol.adopted = True
    loop = asyncio.get_running_loop()
    try:
        await loop.connect_accepted_socket(lambda: protocol, conn)
    except OSError:
        conn.close()
        return
    protocol.data_received(request)

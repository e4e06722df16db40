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
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

DIRECT = "motherlode.direct_write"
"""The scope's extension (``scope["extensions"][DIRECT]["write"]``): ``write(frame) ->
bool``, ``False`` (nothing written) when the frame must go through ``send`` instead."""

QUEUE_LIMIT = 16
"""Messages of one socket waiting for the application before its reading stops."""


class SteadyWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, reading paused only when :data:`QUEUE_LIMIT` messages
    wait (``ws=`` of ``uvicorn.run``)."""

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

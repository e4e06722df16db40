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
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

QUEUE_LIMIT = 16
"""Messages of one socket waiting for the application before its reading stops."""


class SteadyWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, reading paused only when :data:`QUEUE_LIMIT` messages
    wait (``ws=`` of ``uvicorn.run``)."""

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

"""The server's WebSocket protocol (server/wsproto.py): uvicorn's, whose reading of a
socket stops only once QUEUE_LIMIT messages wait for the application, not after each one,
and starts again when the application has taken them all (uvicorn's own rule)."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.importer import import_from_string

from motherlode.server.cli import WS_PROTOCOL
from motherlode.server.push import frame
from motherlode.server.wsproto import DIRECT, QUEUE_LIMIT, SteadyWebSocketProtocol


class _Transport:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")


def _protocol() -> tuple[Any, _Transport]:
    """The protocol's state that handing a message over reads, without a connection."""
    protocol: Any = SteadyWebSocketProtocol.__new__(SteadyWebSocketProtocol)
    transport = _Transport()
    protocol.transport = transport
    protocol.queue = asyncio.Queue()
    protocol.read_paused = False
    protocol.close_sent = False
    protocol.curr_msg_data_type = "text"
    return protocol, transport


def _message(protocol: Any, text: str) -> None:
    protocol.frames = [text.encode()]
    protocol.send_receive_event_to_app()


def test_a_message_taken_at_once_costs_no_pause_and_no_resume() -> None:
    protocol, transport = _protocol()

    async def go() -> list[Any]:
        got = []
        for i in range(50):
            _message(protocol, f'{{"n": {i}}}')
            got.append(await protocol.receive())
        return got

    got = asyncio.run(go())
    assert [m["text"] for m in got] == [f'{{"n": {i}}}' for i in range(50)]
    assert transport.calls == [] and not protocol.read_paused


def test_reading_stops_when_the_limit_waits_and_starts_when_all_are_taken() -> None:
    protocol, transport = _protocol()
    for i in range(QUEUE_LIMIT - 1):
        _message(protocol, str(i))
    assert transport.calls == [] and not protocol.read_paused
    _message(protocol, "last")  # the limit: the socket is no longer read
    assert transport.calls == ["pause"] and protocol.read_paused
    _message(protocol, "already read")  # (bytes read before the pause): no second pause
    assert transport.calls == ["pause"]

    async def drain() -> list[str]:
        out = []
        while not protocol.queue.empty():
            out.append((await protocol.receive())["text"])
        return out

    taken = asyncio.run(drain())
    assert taken == [*map(str, range(QUEUE_LIMIT - 1)), "last", "already read"]
    assert transport.calls == ["pause", "resume"] and not protocol.read_paused


def test_the_server_gives_uvicorn_this_protocol() -> None:
    assert import_from_string(WS_PROTOCOL) is SteadyWebSocketProtocol


class _WriteTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def _open_protocol() -> tuple[Any, _WriteTransport]:
    """A protocol whose handshake is done, as uvicorn leaves it."""
    protocol: Any = SteadyWebSocketProtocol.__new__(SteadyWebSocketProtocol)
    transport = _WriteTransport()
    protocol.transport = transport
    protocol.handshake_complete = True
    protocol.close_sent = False
    protocol.disconnected = False
    protocol.initial_response = None
    protocol.writable = asyncio.Event()
    protocol.writable.set()
    return protocol, transport


def test_a_direct_write_goes_out_only_while_the_socket_takes_data() -> None:
    data = frame('{"type": "diff"}')
    protocol, transport = _open_protocol()
    assert protocol.write_frame(data) and transport.written == [data]
    protocol.pause_writing()  # the buffer over the high-water mark: send would wait
    assert not protocol.write_frame(data) and transport.written == [data]
    protocol.resume_writing()
    assert protocol.write_frame(data) and len(transport.written) == 2
    for field, value in (
        ("close_sent", True),
        ("disconnected", True),
        ("handshake_complete", False),
        ("initial_response", (403, [], b"")),
    ):
        protocol, transport = _open_protocol()
        setattr(protocol, field, value)
        assert not protocol.write_frame(data) and transport.written == [], field
    protocol, transport = _open_protocol()
    transport.closing = True
    assert not protocol.write_frame(data) and transport.written == []


def test_the_application_is_offered_the_direct_write() -> None:
    """The scope of an accepted handshake carries the write (ws.py reads it)."""
    from websockets.datastructures import Headers
    from websockets.http11 import Request

    protocol: Any = SteadyWebSocketProtocol.__new__(SteadyWebSocketProtocol)
    written: list[bytes] = []

    class Transport:
        def write(self, data: bytes) -> None:
            written.append(data)

        def close(self) -> None:
            pass

    class Conn:
        def accept(self, request: Any) -> Any:
            return type("R", (), {"status_code": 101})()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        pass

    async def go() -> dict[str, Any]:
        protocol.conn = Conn()
        protocol.transport = Transport()
        protocol.loop = asyncio.get_running_loop()
        protocol.queue = asyncio.Queue()
        protocol.scheme, protocol.server, protocol.client = "ws", None, None
        protocol.root_path, protocol.asgi_version, protocol.app_state = "", "3.0", {}
        protocol.tasks, protocol.app = set(), app
        headers = Headers([("Host", "x"), ("Upgrade", "websocket")])
        protocol.handle_connect(Request("/ws/m1", headers))
        await asyncio.sleep(0)
        return dict(protocol.scope["extensions"])

    extensions = asyncio.run(go())
    assert extensions[DIRECT]["write"] == protocol.write_frame

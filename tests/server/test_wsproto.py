"""The server's WebSocket protocol (server/wsproto.py): uvicorn's, whose reading of a
socket stops only once QUEUE_LIMIT messages wait for the application, not after each one,
and starts again when the application has taken them all (uvicorn's own rule)."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.importer import import_from_string

from motherlode.server.cli import WS_PROTOCOL
from motherlode.server.wsproto import QUEUE_LIMIT, SteadyWebSocketProtocol


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

"""The benchmarks print honest figures: both paths timed warm, and ``--compare`` runs the
same load on another revision (here: this one, so the ratio is about 1)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_bench_random_measures_both_paths_warm() -> None:
    bench = _load("bench_random")
    rows = bench.rows(["chinagold"], 0.05)
    assert [r["config"].split(",")[0] for r in rows] == ["players=2"] * len(rows)
    assert all(r["games_s"] > 0 and r["checked_games_s"] > 0 and r["decisions_s"] > 0 for r in rows)


def test_compare_runs_the_same_load_on_another_revision() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_random.py"),
            "--game",
            "chinagold",
            "--seconds",
            "0.05",
            "--compare",
            "HEAD",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    lines = out.splitlines()
    assert lines[0] == "this checkout against HEAD, the same load, alternating game by game"
    assert lines[2].startswith("chinagold  players=2 ") and lines[2].count("x") >= 2


def test_bench_server_load_runs_the_anchor_shape_and_prints_its_json() -> None:
    """Two scripted players per match over a real server, tiny numbers: its JSON fields."""
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_server_load.py"),
            *("--matches", "2", "--humans", "2", "--think", "0", "--seconds", "4"),
            *("--warmup", "0.5", "--json"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["humans"] == 2 and result["bot"] is None and result["workers"] == 1
    assert result["matches"] == result["matches_held_max"] == 2 and result["db"] == "sqlite"
    assert set(result) >= {
        "moves", "moves_per_s", "rtt_both_ms", "rtt_mover_ms", "errors", "error_count",
        "server_rss_mib", "server_peak_rss_mib", "server_cpu_ms_per_move", "client_cpu_util",
    }  # fmt: skip
    assert set(result["rtt_both_ms"]) == {"p50", "p95", "p99", "max"}
    assert result["error_count"] == 0 and result["server_rss_mib"] > 0
    # (how many moves a few seconds hold depends on the machine: figures, not a timed test)


def _bench_json(*flags: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_server_load.py"), *flags, "--json"],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    return dict(json.loads(out.stdout))


def test_both_load_clients_play_every_match_out_with_every_move_counted() -> None:
    """The lean WebSocket client and the websockets library's play the same matches:
    three matches once each, a spectator each, compressed pushes: every match finished,
    each of its moves seen by both players (a round trip measured for each), no error.
    (A 2-player Yukon match of random moves lasts 17-41 moves: not 49, as the anchor's.)"""
    for client in ("lean", "websockets"):
        result = _bench_json(
            *("--matches", "3", "--humans", "2", "--think", "0", "--once"),
            *("--spectators", "1", "--compress", "--warmup", "0", "--seconds", "60"),
            *("--client", client),
        )
        assert result["client"] == client
        assert result["matches_finished"] == 3 and result["error_count"] == 0, result
        assert 3 * 17 <= result["moves"] == result["rtt_measured"] <= 3 * 41


def test_a_stock_of_matches_keeps_the_matches_in_play_until_it_runs_out() -> None:
    """``--stock 6`` with 2 in play: all 6 played (each slot takes the next when its
    match ends), every socket connected before the clock, the window closed when the
    stock ran out (its moves fewer than all the moves played)."""
    result = _bench_json(
        *("--matches", "2", "--stock", "6", "--humans", "2", "--think", "0"),
        *("--warmup", "0", "--seconds", "60"),
    )
    assert result["stock"] == 6 and result["matches_finished"] == 6
    assert result["error_count"] == 0 and 0 < result["moves"] < 6 * 41
    script = str(ROOT / "benchmarks" / "bench_server_load.py")
    bad = subprocess.run(
        [sys.executable, script, "--matches", "3", "--stock", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "--stock is at least --matches" in bad.stderr


def test_the_lean_socket_reads_frames_however_they_are_cut() -> None:
    """The handshake (its accept checked), a long frame, a fragmented message and a ping
    (answered with a masked pong), fed to it in pieces of every size."""
    import asyncio
    import base64
    import hashlib
    import struct

    bench = _load("bench_server_load")

    class Transport(asyncio.Transport):
        def __init__(self) -> None:
            super().__init__()
            self.written: list[bytes] = []

        def write(self, data: bytes | bytearray | memoryview) -> None:
            self.written.append(bytes(data))

        def close(self) -> None:
            pass

        def abort(self) -> None:
            pass

    long = "x" * 300
    frames = (
        bytes((0x81, 2)) + b"hi"
        + struct.pack("!BBH", 0x81, 126, 300) + long.encode()
        + bytes((0x01, 3)) + b"fra" + bytes((0x80, 3)) + b"gs!"
        + bytes((0x89, 1)) + b"p"
        + bytes((0x82, 1)) + b"\x07"
    )  # fmt: skip

    async def go(cut: int) -> tuple[list[object], list[bytes]]:
        sock = bench.LeanSocket()
        transport = Transport()
        sock.connection_made(transport)  # (an asyncio.Transport's part it uses)
        accept = base64.b64encode(hashlib.sha1(sock.key + bench._GUID).digest())
        data = (
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + frames
        )
        for i in range(0, len(data), cut):
            sock.data_received(data[i : i + cut])
        got = [await sock.recv(1e12) for _ in range(4)]
        return got, transport.written

    for cut in (1, 2, 3, 7, 64, 10_000):
        got, written = asyncio.run(go(cut))
        assert got == ["hi", long, "frags!", b"\x07"]
        (pong,) = written
        assert pong[0] == 0x8A and pong[1] == 0x80 | 1  # a pong, masked, one byte
        assert bytes([pong[6] ^ pong[2]]) == b"p"  # its payload unmasked with its key


def test_bench_tensors_times_the_tensor_over_positions_in_play_order() -> None:
    bench = _load("bench_tensors")
    row = bench.measure("eldorado", 30)
    assert row["positions"] == 30 and row["first"] > 0 and row["warm"] > 0


def test_bench_server_moves_plays_every_match_out_pushing_each_move_to_both_seats() -> None:
    import asyncio

    bench = _load("bench_server_moves")
    row = asyncio.run(bench.play("yukon", 3, 1))
    assert row["game"] == "yukon" and row["matches"] == 3
    assert row["moves"] >= 3 * 20  # (a Yukon game of two takes most of its 49 cards)
    assert row["pushes_per_move"] == 2.0  # one diff to each seat, each move
    assert row["ms_per_move"] > 0


def test_bench_server_moves_compares_with_another_revision_in_turn() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_server_moves.py"),
            *("--matches", "2", "--rounds", "1", "--compare", "HEAD"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
        cwd=ROOT,
    ).stdout
    lines = out.splitlines()
    assert lines[0] == "yukon, 2 matches, 1 rounds in turn (ms a move)"
    assert lines[1].startswith("this checkout: median ") and lines[2].startswith("HEAD: median ")
    assert lines[3].startswith("speed-up: ") and lines[3].endswith("x")

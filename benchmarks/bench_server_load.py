"""Load on the web platform: N concurrent Yukon matches, scripted players against bots.

    python benchmarks/bench_server_load.py [--matches 200] [--seconds 30] [--think 1.0]
        [--spectators 0] [--bot greedy] [--warmup 5] [--port 0] [--db PATH]

Starts ``python -m motherlode.server`` on a loopback port (a fresh SQLite database in a
temporary directory unless ``--db``), creates ``--matches`` matches of a scripted human
seat against a bot, and connects one WebSocket client per human seat (plus
``--spectators`` watchers per match). Each scripted player waits ``--think`` seconds
(jittered) after its turn comes, then sends a legal move; a finished match is replaced
by a new one, so that ``--matches`` are held at all times. Prints the move round-trip
(send -> the state with the move arrives back) p50/p90/p99/max, moves/s and the matches
held. Loopback only; bounded in count (``--matches``) and time (``--seconds``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "motherlode.server",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ],
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.moves = 0
        self.finished = 0
        self.errors: dict[str, int] = {}
        self.held = 0
        self.max_held = 0


async def create_match(http: httpx.AsyncClient, bot: str) -> tuple[str, str]:
    r = await http.post(
        "/api/matches",
        json={"game": "yukon", "seats": [{"kind": "human"}, {"kind": "bot", "spec": bot}]},
    )
    r.raise_for_status()
    data = r.json()
    return data["id"], data["seats"][0]["token"]


async def watcher(url: str, stop: float) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break


async def player(
    base: str,
    http: httpx.AsyncClient,
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    rng: random.Random,
    warm: float,
) -> None:
    """One slot: play matches one after another until the time is up."""
    await asyncio.sleep(rng.random() * args.think)  # spread the starts
    while time.monotonic() < stop:
        mid, token = await create_match(http, args.bot)
        ws_url = base.replace("http", "ws") + f"/ws/{mid}"
        watchers = [asyncio.create_task(watcher(ws_url, stop)) for _ in range(args.spectators)]
        stats.held += 1
        stats.max_held = max(stats.max_held, stats.held)
        try:
            async with websockets.connect(ws_url, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent_at: float | None = None
                sent_version = -1
                while time.monotonic() < stop:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=stop - time.monotonic())
                    except TimeoutError:
                        break
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                        sent_at = None
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    if sent_at is not None and msg["version"] > sent_version:
                        if time.monotonic() >= warm:
                            stats.rtts.append(time.perf_counter() - sent_at)
                        stats.moves += 1
                        sent_at = None
                    if msg["terminal"]:
                        stats.finished += 1
                        break
                    if msg["to_move"] == 0 and sent_at is None:
                        await asyncio.sleep(args.think * (0.5 + rng.random()))
                        legal: list[dict[str, Any]] = msg["legal"]
                        action = legal[rng.randrange(len(legal))]["text"]
                        sent_version = msg["version"]
                        sent_at = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "move", "action": action, "version": sent_version})
                        )
        finally:
            stats.held -= 1
            for w in watchers:
                w.cancel()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def run(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    warm = time.monotonic() + args.warmup
    stop = warm + args.seconds
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        tasks = [
            asyncio.create_task(player(base, http, args, stats, stop, random.Random(i), warm))
            for i in range(args.matches)
        ]
        await asyncio.gather(*tasks, return_exceptions=False)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before measuring"
    )
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    args.matches = max(1, min(args.matches, 2000))
    args.seconds = max(1.0, min(args.seconds, 600.0))
    port = args.port or free_port()
    tmp = tempfile.mkdtemp(prefix="motherlode-load-")
    db = args.db or str(Path(tmp) / "load.db")
    proc = start_server(port, db)
    try:
        t0 = time.monotonic()
        c0, s0 = time.process_time(), cpu_seconds(proc.pid)
        stats = asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        elapsed = time.monotonic() - t0
        client_cpu, server_cpu = time.process_time() - c0, cpu_seconds(proc.pid) - s0
    finally:
        proc.terminate()
        proc.wait(10)
    r = stats.rtts
    print(
        f"yukon, {args.matches} concurrent matches (scripted player vs {args.bot} bot),"
        f" think {args.think:g}s, {args.spectators} spectator(s) each,"
        f" {elapsed:.0f}s ({args.warmup:g}s warm-up not measured),"
        f" {os.cpu_count()} CPUs"
    )
    print(f"matches held: {stats.max_held} at once; finished {stats.finished}")
    print(f"moves: {stats.moves} ({stats.moves / elapsed:.1f}/s from players; bots as many)")
    print(
        f"move round-trip ms: p50 {pct(r, 0.5):.1f}  p90 {pct(r, 0.9):.1f}"
        f"  p99 {pct(r, 0.99):.1f}  max {max(r) * 1000 if r else float('nan'):.1f}"
        + (f"  mean {statistics.fmean(r) * 1000:.1f}" if r else "")
    )
    print(
        f"CPU: server {server_cpu / elapsed:.0%} of a core, load client {client_cpu / elapsed:.0%}"
    )
    if stats.errors:
        print("errors:", stats.errors)


if __name__ == "__main__":
    main()

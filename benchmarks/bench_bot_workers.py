"""A person's move while bots think at the cap: bot worker processes against threads.

    python benchmarks/bench_bot_workers.py [--bots 6] [--moves 60] [--cap 1.0]
        [--modes 0,2] [--think 0.1]

For each ``--bot-workers`` value of ``--modes`` (``0``: the bots think in threads of the
server, as before worker processes), starts ``python -m motherlode.server`` on a fresh
SQLite database, starts ``--bots`` bot-only Yukon matches whose bots think at the cap
(``mcts:iterations=1000000``, bounded by ``--bot-max-seconds``), then plays ``--moves``
moves of a Yukon match between two scripted people over WebSockets, and prints the move
round trip (send -> the state with the move back) p50/p95/p99/max and the bot moves made
meanwhile (log rows: a bot's move and the chance after it), per second. Side by side in
one sitting: the ratio is the figure, not the milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def start(db: Path, port: int, workers: int, cap: float) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "motherlode.server", "--port", str(port), "--db", str(db)]
    args += ["--bot-workers", str(workers), "--bot-max-seconds", str(cap), "--bot-delay", "0"]
    proc = subprocess.Popen([*args, "--log-level", "warning"], stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def create(base: str, seats: list[dict[str, str]]) -> dict[str, Any]:
    """A match, waiting out the server's per-client creation limit (429, Retry-After)."""
    while True:
        r = httpx.post(f"{base}/api/matches", json={"game": "yukon", "seats": seats}, timeout=30)
        if r.status_code != 429:
            r.raise_for_status()
            return dict(r.json())
        time.sleep(float(r.headers.get("Retry-After", "1")))


async def people(base: str, moves: int, think: float) -> list[float]:
    created = create(base, [{"kind": "human"}, {"kind": "human"}])
    mid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    url = base.replace("http", "ws") + f"/ws/{mid}"
    times: list[float] = []
    async with websockets.connect(url) as a, websockets.connect(url) as b:
        sockets = {0: a, 1: b}
        views = {}
        for seat, ws in sockets.items():
            await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            views[seat] = json.loads(await ws.recv())
        while len(times) < moves:
            seat = views[0]["to_move"]
            if seat is None:  # over: a new match
                return times + await people(base, moves - len(times), think)
            await asyncio.sleep(think)
            view = views[seat]
            sent = time.perf_counter()
            move = {"type": "move", "action": view["legal"][0]["text"], "version": view["version"]}
            await sockets[seat].send(json.dumps(move))
            for s, ws in sockets.items():
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "diff":  # what changed: patch the view held
                        msg = views[s] | msg["fields"] | {"version": msg["version"]}
                    if msg.get("type") == "state" and msg["version"] > view["version"]:
                        views[s] = msg
                        break
                if s == seat:
                    times.append(time.perf_counter() - sent)
    return times


def bot_moves(base: str, ids: list[str]) -> int:
    return sum(httpx.get(f"{base}/api/matches/{i}", timeout=30).json()["version"] for i in ids)


def run(workers: int, args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(Path(tmp) / "bench.db", port, workers, args.cap)
        base = f"http://127.0.0.1:{port}"
        try:
            spec = {"kind": "bot", "spec": "mcts:iterations=1000000"}
            ids = [create(base, [spec, spec])["id"] for _ in range(args.bots)]
            time.sleep(2 * args.cap)  # every bot thinking
            before, started = bot_moves(base, ids), time.perf_counter()
            times = asyncio.run(people(base, args.moves, args.think))
            made = bot_moves(base, ids) - before
            seconds = time.perf_counter() - started
        finally:
            proc.terminate()
            proc.wait(30)
    ms = sorted(t * 1000 for t in times)
    return {
        "p50": statistics.median(ms),
        "p95": ms[int(0.95 * (len(ms) - 1))],
        "p99": ms[int(0.99 * (len(ms) - 1))],
        "max": ms[-1],
        "bot_moves": made,
        "bot_moves_per_s": made / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=6, help="bot-only matches thinking")
    parser.add_argument("--moves", type=int, default=60, help="the people's moves measured")
    parser.add_argument("--cap", type=float, default=1.0, help="--bot-max-seconds")
    parser.add_argument("--modes", default="0,2", help="--bot-workers values, comma-separated")
    parser.add_argument("--think", type=float, default=0.1, help="a person's pause per move")
    args = parser.parse_args()
    print(f"{args.bots} bot matches at a {args.cap:g} s cap; {args.moves} people's moves")
    print("bot-workers | round trip p50 / p95 / p99 / max (ms) | bot moves meanwhile (per s)")
    for workers in (int(m) for m in args.modes.split(",")):
        r = run(workers, args)
        print(
            f"{workers:>11} | {r['p50']:.1f} / {r['p95']:.1f} / {r['p99']:.1f} / {r['max']:.1f}"
            f" | {r['bot_moves']:.0f} ({r['bot_moves_per_s']:.1f}/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()

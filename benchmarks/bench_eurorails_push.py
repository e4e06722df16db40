"""How big a Eurorails push is end to end: the whole WebSocket message, through the server.

``python benchmarks/bench_eurorails_push.py [--players 3] [--turn-limit 8] [--bot greedy]
[--seed 1] [--commands]`` starts the platform's app in this process (a fresh SQLite
database in a temporary directory, the guard's rate limits off), creates a match of P1 (a
scripted person) against ``--players - 1`` bots, connects P1's WebSocket and plays the
whole game to its end (``--turn-limit`` rounds of operations). P1 plays a seeded random
legal move; with ``--commands`` it builds and moves by route commands (``build to <city>``,
``move to <city>``, then the panel's moves), the way the page's clicks do.

Every message the server sends P1 after the first snapshot is a push (a diff: the fields
that changed, the log lines added, the board elements changed by id). Printed, for all
pushes and for the pushes that hand P1 the move (the seat to move): the median, 95th
percentile and largest size, raw (UTF-8 bytes of the JSON text as sent) and gzip
(``gzip.compress`` level 6 of that one message alone, a stand-in for the WebSocket's
per-message deflate without context takeover), and "sent": the bytes of the frame as
the page gets it (P1's hello asks for compression, as match.js does: a push of 1 KB or
more is raw deflate at runtime.PACK_LEVEL, compressed once by the server); the snapshot
and the static layer apart.
The issue's target: the median push to the seat to move at most 30 KB on the wire.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from motherlode.server.app import create_app
from motherlode.server.guard import Limits


def _gz(text: str) -> int:
    return len(gzip.compress(text.encode(), compresslevel=6))


def _receive(ws: Any) -> tuple[str, int]:
    """The next message's text and the bytes it took on the wire (a binary frame is a
    compressed push, inflated here)."""
    message = ws.receive()
    if message.get("bytes") is not None:
        return zlib.decompress(message["bytes"], -15).decode(), len(message["bytes"])
    text: str = message["text"]
    return text, len(text.encode())


def _line(label: str, xs: list[int]) -> str:
    if not xs:
        return f"{label:<40} (none)"
    s = sorted(xs)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    return (
        f"{label:<40} n {len(s):>5}  median {statistics.median(s) / 1000:>7.1f} KB"
        f"  p95 {p95 / 1000:>7.1f} KB  max {s[-1] / 1000:>7.1f} KB"
    )


class View:
    """The fields of P1's view that a player needs (the board is left out)."""

    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.fields = {k: v for k, v in snapshot.items() if k != "board"}

    def apply(self, msg: dict[str, Any]) -> None:
        self.fields.update(msg.get("fields", {}))
        self.fields["version"] = msg.get("version", self.fields.get("version"))


def _choose(
    view: dict[str, Any], rng: random.Random, commands: bool, tried: set[str]
) -> dict[str, Any]:
    """P1's move: a route command not tried in this position (``--commands``), else a
    seeded random legal action."""
    legal = [x["text"] for x in view["legal"]]
    if commands:
        for prefix in ("deliver", "pick", "start"):
            hit = [t for t in legal if t.startswith(prefix)]
            if hit:
                return {"action": hit[0]}
        cities = ["Lyon", "Marseille", "Milano", "Wien", "Hamburg", "Madrid", "Berlin"]
        verb = "build to" if any(t.startswith("build") for t in legal) else "move to"
        for city in cities:
            cmd = f"{verb} {city}"
            if cmd not in tried:
                tried.add(cmd)
                return {"command": cmd}
        for prefix in ("end move", "end turn"):
            hit = [t for t in legal if t.startswith(prefix)]
            if hit:
                return {"action": hit[0]}
    return {"action": rng.choice(legal)}


def run(players: int, turn_limit: int, bot: str, seed: int, commands: bool) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(str(Path(tmp) / "bench.db"), limits=Limits.off())
        with TestClient(app) as client:
            body = {
                "game": "eurorails",
                "config": {"players": players, "turn_limit": turn_limit},
                "seats": [{"kind": "human"}] + [{"kind": "bot", "spec": bot}] * (players - 1),
            }
            r = client.post("/api/matches", json=body)
            assert r.status_code == 201, r.text
            m = r.json()
            tokens = {s["seat"]: s.get("token") for s in m["seats"]}
            static_url = None
            pushes: list[tuple[int, int, bool, int]] = []  # raw, gzip, hands P1 the move, sent
            t0 = time.perf_counter()
            with client.websocket_connect(f"/ws/{m['id']}") as ws:
                hello = {"type": "hello", "token": tokens[0], "compress": "deflate-raw"}
                ws.send_text(json.dumps(hello))
                first, first_sent = _receive(ws)
                snap = json.loads(first)
                static_url = snap["board"].get("static")
                view = View(snap)
                waiting = False
                tried: set[str] = set()
                last_version = -1
                moves = refused = 0
                while not view.fields.get("terminal"):
                    f = view.fields
                    if f["to_move"] == 0 and f["legal"] and not waiting:
                        if f["version"] != last_version:
                            tried = set()
                            last_version = f["version"]
                        move = _choose(f, rng, commands, tried)
                        ws.send_text(json.dumps({"type": "move", "version": f["version"], **move}))
                        waiting = True
                        moves += 1
                    text, sent = _receive(ws)
                    msg = json.loads(text)
                    if msg.get("type") == "error":
                        waiting = False  # a refused command: the next one is tried
                        refused += 1
                        continue
                    view.apply(msg)
                    waiting = False
                    mine = view.fields["to_move"] == 0
                    pushes.append((len(text.encode()), _gz(text), mine, sent))
            wall = time.perf_counter() - t0
            static = client.get(static_url).text if static_url else ""
    print(
        f"Eurorails push sizes through the server: {players} players, P1 "
        f"{'by route commands' if commands else 'random legal moves'} against {bot}, "
        f"turn limit {turn_limit}, seed {seed}: {moves - refused} moves by P1 "
        f"({refused} refused), {len(pushes)} pushes in {wall:.0f} s"
    )
    for label, text in (
        ("snapshot (first message, board included)", first),
        ("static layer (fetched once, cached)", static),
    ):
        print(f"{label:<40} raw {len(text) / 1000:>7.1f} KB  gzip {_gz(text) / 1000:>7.1f} KB")
    print(f"{'snapshot as sent':<40} {first_sent / 1000:>7.1f} KB")
    for label, keep in (
        ("every push", lambda p: True),
        ("push handing P1 the move", lambda p: p[2]),
    ):
        chosen = [p for p in pushes if keep(p)]
        print(_line(f"{label}, raw", [p[0] for p in chosen]))
        print(_line(f"{label}, gzip", [p[1] for p in chosen]))
        print(_line(f"{label}, sent", [p[3] for p in chosen]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--turn-limit", type=int, default=8)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commands", action="store_true")
    a = ap.parse_args()
    run(a.players, a.turn_limit, a.bot, a.seed, a.commands)


if __name__ == "__main__":
    main()

"""``benchmarks/bench_server_load.py --account``: where the server's CPU goes, per move."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_bench_accounts_the_servers_cpu_per_move_by_step() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_server_load.py"),
            *("--matches", "2", "--humans", "2", "--think", "0", "--seconds", "3"),
            *("--warmup", "0.5", "--account", "--json"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    result = json.loads(out.stdout)
    parts = result["server_cpu_parts"]
    assert result["moves"] > 0 and result["error_count"] == 0
    plan = parts["move: plan (the engine checks and applies it)"]
    encode = parts["push: encode (a frame, its diff and text)"]
    assert 0.8 <= plan["calls"] <= 1.2  # one a move (a move in flight as the window opens
    # or closes is counted by the client on one side of it, by the server on the other)
    assert 1.5 <= encode["calls"] <= 2.5  # a push to each of the two seats
    assert encode["ms"] >= parts["push: . the board's layers (the game's renderer)"]["ms"] > 0
    assert set(parts) >= {"move: write (the database), with the runtime's commit", "gc"}
    assert all(p["ms"] >= 0 and p["calls"] >= 0 for p in parts.values())

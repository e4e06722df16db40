"""``benchmarks/bench_server_moves.py``: the service's CPU a move without sockets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_moves_bench_plays_every_match_out_and_pushes_each_move_to_both_seats() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_server_moves.py"),
            *("--matches", "3", "--json"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    (row,) = json.loads(out.stdout)
    assert row["game"] == "yukon" and row["matches"] == 3
    assert row["moves"] >= 3 * 20  # (a Yukon game of two takes most of its 49 cards)
    assert row["pushes_per_move"] == 2.0  # one diff to each seat, each move
    assert row["ms_per_move"] > 0

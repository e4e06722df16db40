"""Run a benchmark on another git revision of the project in the same sitting (``--compare``).

A speed claim is a ratio measured side by side: the same benchmark script, the same load,
once with this checkout's code and once with ``REF``'s (its ``src/`` first on
``PYTHONPATH``), alternating game by game so that a machine that gets busier or quieter
during the run affects both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def checkout(ref: str) -> Path:
    """``REF``'s tree, extracted (``git archive``) into a temporary folder kept for the run."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    where = Path(tempfile.gettempdir()) / f"motherlode-{sha[:12]}"
    if not (where / "src" / "motherlode").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", sha, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where / "src"


def run_json(src: Path, script: Path, args: list[str]) -> list[dict[str, Any]]:
    """``script --json args`` with ``src`` first on the path: its rows."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, str(script), "--json", *args], check=True, capture_output=True,
        text=True, env=env,
    ).stdout
    data = json.loads(out)
    rows: list[dict[str, Any]] = data["rows"] if isinstance(data, dict) else data
    return rows


def ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}x" if old else "-"

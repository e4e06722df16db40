"""Issue 28's audit bugs, planted again one at a time: each must fail its tests.

    python benchmarks/planted_bugs.py [--baseline] [NUMBER ...]   default: every bug below

Each bug is a small edit of one module (``old`` → ``new``, each ``old`` found exactly once,
else the code moved and the bug is reported as not planted). The script copies ``src/``,
``tests/`` and ``pyproject.toml`` into a scratch directory (``$PLANTED_DIR``, default
``/tmp/motherlode-planted``), plants one bug there, runs that bug's test files (``CI=1``:
hypothesis derandomised; under ``nice -n 19``), prints the tests that failed, and puts the
module back before the next. Nothing in the repository is changed. ``--baseline`` runs each
bug's tests with nothing planted (they must pass). Not in CI: about a minute a bug.
The last run's answers are in docs/testing.md ("Planted again").
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Bug:
    what: str
    module: str  # under src/motherlode/
    edits: tuple[tuple[str, str], ...]  # (old, new), each old found exactly once
    tests: tuple[str, ...]


AUTH = ("tests/server/test_authorization.py", "tests/reference/test_server_answers.py")
FORGERY = ("tests/server/test_fairness_forgery.py", "tests/server/test_fairness.py")
RATINGS = ("tests/arena/test_ratings.py", "tests/reference/test_ratings_summary_reference.py")

BUGS = (
    Bug(
        "a token of match B accepted in match A once the token is cached",
        "server/service.py",
        (
            (
                "cached = self.token_cache.get(digest)\n",
                "cached = self.token_cache.get(digest)\n        fresh = cached is None\n",
            ),
            ("if cached[0] != match_id:", "if fresh and cached[0] != match_id:"),
        ),
        AUTH,
    ),
    Bug(
        "every seat's Eurorails tensor shows every hidden hand",
        "games/eurorails/observe.py",
        (("        if g.cfg.open_hands or q == player:\n", "        if True:\n"),),
        ("tests/test_hiding.py", "tests/reference/test_eurorails_tensor_reference.py"),
    ),
    Bug(
        "PettingZoo observe() gives the spectator's tensor",
        "adapters/pettingzoo.py",
        (("self._view(self._seat[agent])", "self._view(None)"),),
        ("tests/adapters/test_pettingzoo.py", "tests/test_hiding.py"),
    ),
    Bug(
        "verify_record compares only the first chance draw",
        "server/fairness.py",
        (("if drawn != action:", "if drawn != action and result.chance_events == 0:"),),
        FORGERY,
    ),
    Bug(
        "verify_record skips the final scores",
        "server/fairness.py",
        (
            (
                "if [float(s) for s in state.scores()] != [float(s) for s in record.scores]:\n"
                "            result",
                "if False:\n            result",
            ),
        ),
        FORGERY,
    ),
    Bug(
        "verify_record compares only P1's score",
        "server/fairness.py",
        (
            (
                "if [float(s) for s in state.scores()] != [float(s) for s in record.scores]:\n"
                "            result",
                "if float(state.scores()[0]) != float(record.scores[0]):\n            result",
            ),
        ),
        FORGERY,
    ),
    Bug(
        "a bot seat can be joined like a human one",
        "server/service.py",
        (('                    SeatRow.kind == "human",\n', ""),),
        AUTH,
    ),
    Bug(
        "ratings: an agent in two seats ranked by its worst seat",
        "arena/ratings.py",
        (("best[spec] = min(best.get", "best[spec] = max(best.get"),),
        RATINGS,
    ),
    Bug(
        "ratings: a head-to-head tie counts 0",
        "arena/ratings.py",
        (("duel_wins[a][b] += 0.5", "duel_wins[a][b] += 0.0"),),
        RATINGS,
    ),
    Bug(
        "ratings: updated only in two-team games",
        "arena/ratings.py",
        (("if len(teams) > 1:", "if len(teams) == 2:"),),
        RATINGS,
    ),
    Bug(
        "Eurorails Excess Profits Tax bracket >= → >",
        "games/eurorails/events.py",
        (("if self.cash[q] >= lo:", "if self.cash[q] > lo:"),),
        ("tests/reference/test_eurorails_reference.py", "tests/eurorails/test_engine_rules.py"),
    ),
    Bug(
        "El Dorado, nobody entered: most temples skipped, straight to coins",
        "games/eldorado/game.py",
        (
            (
                "pool = [p for p in range(n) if self.temples_offered(p) == top]",
                "pool = list(range(n))",
            ),
        ),
        ("tests/reference/test_eldorado_reference.py", "tests/eldorado/test_eldorado_rules.py"),
    ),
    Bug(
        "El Dorado: the most-coins tie-break among those who entered ignored",
        "games/eldorado/game.py",
        (
            (
                "return tuple(p for p in pool if self.coins_offered(p) == best)",
                "return tuple(pool)",
            ),
        ),
        ("tests/reference/test_eldorado_reference.py", "tests/eldorado/test_eldorado_rules.py"),
    ),
    Bug(
        "Yukon: the Swindler halves the lowest Pebble card, not the highest",
        "games/yukon/game.py",
        (
            (
                "for k in range(SHERIFF - 1, PEBBLE0 - 1, -1)",
                "for k in range(PEBBLE0, SHERIFF)",
            ),
        ),
        ("tests/yukon/test_townsfolk.py", "tests/reference/test_yukon_reference.py"),
    ),
    Bug(
        "Chinagold: the opponent collects a completed area before the mover",
        "games/chinagold/game.py",
        (("for seat in (me, me ^ 1):", "for seat in (me ^ 1, me):"),),
        ("tests/chinagold/test_chinagold_rules.py", "tests/reference/test_chinagold_reference.py"),
    ),
    Bug(
        "core replay: steps applied unchecked (an illegal step replays)",
        "core/records.py",
        (
            (
                "            state.apply_string(text)\n",
                "            state.apply_unchecked(state.string_to_action(text))\n",
            ),
        ),
        ("tests/test_records.py", "tests/reference/test_records_messages.py"),
    ),
)


def scratch_copy(where: Path) -> None:
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in ("src", "tests"):
        shutil.copytree(ROOT / name, where / name, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")


def planted(text: str, bug: Bug) -> str | None:
    """``text`` with ``bug``'s edits, ``None`` where an ``old`` is not found exactly once."""
    for old, new in bug.edits:
        if text.count(old) != 1:
            return None
        text = text.replace(old, new)
    return text


def run_tests(where: Path, tests: tuple[str, ...]) -> tuple[int, list[str]]:
    """pytest's exit status and the tests that failed (or errored)."""
    env = dict(os.environ, CI="1", PYTHONPATH=str(where / "src"))
    command = ["nice", "-n", "19", sys.executable, "-m", "pytest", *tests]
    command += ["-q", "-rfE", "-p", "no:cacheprovider", "--no-header", "-W", "ignore"]
    done = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)
    # "FAILED node id - message" (a parametrised id may hold spaces)
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", done.stdout, re.MULTILINE)
    return done.returncode, failed


def main(argv: list[str]) -> int:
    baseline = "--baseline" in argv
    numbers = [int(a) for a in argv if a != "--baseline"]
    where = Path(os.environ.get("PLANTED_DIR", "/tmp/motherlode-planted"))
    scratch_copy(where)
    missed = 0
    for number, bug in enumerate(BUGS, start=1):
        if numbers and number not in numbers:
            continue
        path = where / "src" / "motherlode" / bug.module
        original = path.read_text()
        text = original if baseline else planted(original, bug)
        if text is None:
            print(f"-- {number}. {bug.what}: NOT PLANTED (the code moved: {bug.module})")
            missed += 1
            continue
        path.write_text(text)
        try:
            status, failed = run_tests(where, bug.tests)
        finally:
            path.write_text(original)
        if baseline:
            verdict = "passes" if status == 0 else f"FAILS unplanted ({status}): {failed}"
        elif failed:
            verdict = f"caught by {len(failed)}: " + ", ".join(failed)
        else:
            verdict = f"NOT CAUGHT (pytest exit {status})"
            missed += 1
        print(f"-- {number}. {bug.what} [{bug.module}; {' '.join(bug.tests)}]: {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

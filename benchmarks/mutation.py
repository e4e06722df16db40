"""Mutation testing of the code where a silent bug costs most (not in CI: it is slow).

    python benchmarks/mutation.py [MODULE[@PART] ...]     default: every target below, in order

A module with several targets (a game's ``game.py``: its ``observation`` and its
``observation_tensor``, each with its own tests) runs them all; ``MODULE@PART`` (``@tensor``)
picks one.

Needs ``pip install mutmut==3.8.1`` (pinned in the ``test`` extra). mutmut 3 takes its
settings only from ``[tool.mutmut]`` in ``pyproject.toml`` of the directory it runs in, and
copies that tree into ``./mutants``; so each module runs in its own scratch copy of ``src/``,
``tests/`` and ``pyproject.toml`` (under ``$MUTATION_DIR``, default
``/tmp/motherlode-mutation``) whose ``[tool.mutmut]`` names that module (``only_mutate``)
and only the tests that exercise it (``pytest_add_cli_args_test_selection``), so that a
module takes minutes, not hours. Functions can be narrowed with a mutant-name glob (the
games' observation code sits inside their ``game.py``).

Each module runs at the lowest priority (``nice -n 19``), one worker (``MUTATION_CHILDREN``,
default 1) and under a time box (``MUTATION_BUDGET`` seconds, default 900);
``MUTATION_TESTS`` / ``MUTATION_NAMES`` (space-separated) replace a module's test files /
mutant-name globs for a quicker pass; ``MUTATION_TIMEOUT_MULTIPLIER`` (default mutmut's 15)
bounds the CPU time of a mutant that loops forever. The script
prints per module: mutants, killed, survived, timeouts, no tests, the score (killed and
timeouts over the mutants tested), the wall time, and the surviving mutants' names; inspect
one with ``cd $MUTATION_DIR/<slug> && mutmut show NAME``. The scores are copied into
``docs/testing.md`` by hand.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    module: str  # the file mutated, relative to the repository root
    tests: tuple[str, ...]  # the test files that exercise it
    names: tuple[str, ...] = ()  # mutant-name globs (empty: every mutant of the file)
    part: str = ""  # tells apart two targets of one module (``MODULE@PART``)

    @property
    def key(self) -> str:
        return f"{self.module}@{self.part}" if self.part else self.module


def playthroughs(game: str) -> tuple[str, ...]:
    """The node ids of one game's playthroughs (the others never reach its code)."""
    test = "tests/playthroughs/test_playthroughs.py::"
    test += "test_a_playthrough_replays_with_the_same_observations"
    return tuple(
        f"{test}[{p.stem}]" for p in sorted((ROOT / "tests/playthroughs").glob(f"{game}-*.json"))
    )


GAME_VIEWS = (
    ("chinagold", ("tests/chinagold/test_chinagold_views.py",)),
    ("eureka", ("tests/eureka/test_eureka_views_and_data.py",)),
    ("yukon", ("tests/yukon/test_positions.py", "tests/yukon/test_tensor.py")),
    ("eldorado", ("tests/eldorado/test_eldorado_views.py",)),
)
TENSOR_FUNCTIONS = (  # per game of GAME_VIEWS: the tensor's functions in its game.py
    ("observation_tensor", "observation_tensor_shape"),
    ("observation_tensor", "observation_tensor_shape"),
    (
        "observation_tensor",
        "observation_tensor_shape",
        "_cell_planes",
        "_tensor_constants",
        "_tensor_size",
    ),
    (
        "observation_tensor",
        "observation_tensor_shape",
        "_sheet_part",
        "_temples_part",
        "__getstate__",
        "*x__set_bits__mutmut_*",  # a module-level function: its glob as is
    ),
)
TENSOR_TESTS = {  # a game's tensor tests beyond its views' (the old construction as reference)
    "eldorado": ("tests/eldorado/test_eldorado_tensor.py",),
}

TARGETS = [
    Target(
        "src/motherlode/server/fairness.py",
        (
            "tests/server/test_fairness.py",
            "tests/server/test_fairness_forgery.py",
            "tests/reference/test_fairness_messages.py",
        ),
    ),
    Target(
        "src/motherlode/arena/ratings.py",
        ("tests/arena/test_ratings.py", "tests/reference/test_ratings_summary_reference.py"),
    ),
    Target(
        "src/motherlode/core/records.py",
        (
            "tests/test_records.py",
            "tests/server/test_fairness.py",
            "tests/server/test_fairness_forgery.py",
            "tests/reference/test_fairness_messages.py",
            "tests/reference/test_records_messages.py",
        ),
    ),
    Target(
        # every function, called directly (a service on a temporary SQLite file): about a
        # second a mutant, where the server tests took a minute
        "src/motherlode/server/service.py",
        (
            "tests/reference/test_server_service_reference.py",
            # the clocks' code (a fake ``utcnow``): timeouts, skips, forfeits, the watch
            "tests/reference/test_server_clocks_reference.py",
        ),
    ),
    Target(
        # what each seat is told (visibility, narration, the log, the payload, the pushes)
        # and the plans of moves, commands and undos, called directly on a tiny game
        "src/motherlode/server/runtime.py",
        (
            "tests/reference/test_runtime_log.py",
            "tests/reference/test_runtime_reference.py",
            # where each push is drawn (by its cost), what is built once and shared
            "tests/reference/test_runtime_push_reference.py",
            # the compressed frames (pack, _encode_packed) and the incremental log
            "tests/server/test_push.py",
            "tests/server/test_log.py",
        ),
    ),
    Target(
        # the observation and the tensor (view.py re-exports them from observe.py); the
        # whole-game selections (tests/test_hiding.py, the 13 playthroughs) reached 113 and
        # 267 of the 497 mutants in 600 s: the reference file's positions, cell by cell,
        # take seconds
        "src/motherlode/games/eurorails/observe.py",
        (
            "tests/reference/test_eurorails_tensor_reference.py",
            "tests/eurorails/test_engine_views.py",
            "tests/eurorails/test_eurorails_tensor.py",  # against the old construction
        ),
        (
            *("*x_observation__mutmut_*", "*x_tensor__mutmut_*", "*x__second_view__mutmut_*"),
            *("*x__track__mutmut_*", "*x__track_part__mutmut_*", "*x__demands_part__mutmut_*"),
            *("*x__weather_index__mutmut_*", "*x__public_track__mutmut_*"),
        ),
    ),
    # the other games' observation dicts; the game's own playthroughs pin every seat's
    # observation digest at every step
    *(
        Target(
            f"src/motherlode/games/{game}/game.py",
            (
                *views,
                *playthroughs(game),
                f"tests/reference/test_{game}_reference.py",
            ),
            ("*ǁobservation__mutmut_*",),
        )
        for game, views in GAME_VIEWS
    ),
    # and their tensors (``observation_tensor`` and the helpers it calls): the playthroughs
    # pin every seat's tensor digest, the reference files the cells worked out by hand
    *(
        Target(
            f"src/motherlode/games/{game}/game.py",
            (
                *views,
                *TENSOR_TESTS.get(game, ()),
                *playthroughs(game),
                f"tests/reference/test_{game}_reference.py",
            ),
            tuple(name if name.startswith("*") else f"*ǁ{name}__mutmut_*" for name in names),
            "tensor",
        )
        for (game, views), names in zip(GAME_VIEWS, TENSOR_FUNCTIONS, strict=True)
    ),
]
BY_KEY = {t.key: t for t in TARGETS}


def chosen(argv: list[str]) -> list[Target]:
    """The targets named (``MODULE``: all of that module's; ``MODULE@PART``: that one)."""
    out = []
    for arg in argv:
        found = [t for t in TARGETS if arg in (t.key, t.module)]
        if not found:
            raise SystemExit(f"no mutation target {arg!r}; known: {', '.join(BY_KEY)}")
        out += found
    return out


def slug(target: Target) -> str:
    name = target.module.removeprefix("src/motherlode/").removesuffix(".py").replace("/", "-")
    return f"{name}-{target.part}" if target.part else name


def scratch_copy(target: Target, where: Path) -> None:
    """A fresh copy of the tree with a ``[tool.mutmut]`` for this module only."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "mutants")
    for name in ("src", "tests"):
        shutil.copytree(ROOT / name, where / name, ignore=ignore)
    text = (ROOT / "pyproject.toml").read_text()
    section = "\n".join(
        [
            "[tool.mutmut]",
            'source_paths = ["src"]',
            f"only_mutate = [{json.dumps(target.module)}]",
            f"pytest_add_cli_args_test_selection = {json.dumps(list(target.tests))}",
            # without pytest's unraisable/thread-exception plugins: their gc.collect() at
            # the end of every mutant's run took half of its time (they only warn)
            "pytest_add_cli_args = "
            + json.dumps(
                [
                    *("-p", "no:cacheprovider", "-p", "no:randomly", "-q"),
                    *("-p", "no:unraisableexception", "-p", "no:threadexception"),
                ]
            ),
            "use_git_change_detection = false",
            # a mutant that loops forever costs (its tests' time + 1 s) x this x 2 CPU
            # seconds before it counts as a timeout (mutmut's default 15)
            f"timeout_multiplier = {float(os.environ.get('MUTATION_TIMEOUT_MULTIPLIER', '15'))}",
            "",
        ]
    )
    # replace the repository's [tool.mutmut] (up to the next table) with this module's
    text = re.sub(r"\[tool\.mutmut\]\n(?:(?!\[).*\n)*", "", text) + "\n" + section
    (where / "pyproject.toml").write_text(text)


def mutmut(where: Path, *args: str, budget: float | None = None) -> int:
    env = dict(os.environ, CI="1")  # hypothesis's derandomised profile: a verdict replays
    env.pop("PYTHONPATH", None)  # mutmut puts mutants/src first on sys.path itself
    command = ["nice", "-n", "19", sys.executable, "-m", "mutmut", *args]
    try:
        return subprocess.run(command, cwd=where, env=env, timeout=budget).returncode
    except subprocess.TimeoutExpired:
        print("   (stopped by the time box)")
        return -1


def statuses(where: Path) -> dict[str, str]:
    """Mutant name -> status, read back with ``mutmut results --all true``."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=where,
        capture_output=True,
        text=True,
        env=dict(os.environ, CI="1"),
    ).stdout
    found = {}
    for line in out.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            found[name] = status
    return found


def main(argv: list[str]) -> int:
    base = Path(os.environ.get("MUTATION_DIR", "/tmp/motherlode-mutation"))
    budget = float(os.environ.get("MUTATION_BUDGET", "900"))
    children = os.environ.get("MUTATION_CHILDREN", "1")
    targets = chosen(argv) if argv else TARGETS
    # a quicker pass: MUTATION_TESTS / MUTATION_NAMES (space-separated) replace the
    # module's test files / mutant-name globs
    if os.environ.get("MUTATION_TESTS") or os.environ.get("MUTATION_NAMES"):
        targets = [
            Target(
                t.module,
                tuple(os.environ.get("MUTATION_TESTS", "").split()) or t.tests,
                tuple(os.environ.get("MUTATION_NAMES", "").split()) or t.names,
                t.part,
            )
            for t in targets
        ]
    for target in targets:
        where = base / slug(target)
        print(f"== {target.key}  tests: {' '.join(target.tests)}  (budget {budget:.0f} s)")
        scratch_copy(target, where)
        start = time.monotonic()
        mutmut(where, "run", "--max-children", children, *target.names, budget=budget)
        wall = time.monotonic() - start
        found = statuses(where)
        if target.names:
            found = {
                k: v
                for k, v in found.items()
                if any(
                    re.fullmatch(g.replace(".", r"\.").replace("*", ".*"), k) for g in target.names
                )
            }
        count = {s: sum(1 for v in found.values() if v == s) for s in set(found.values())}
        tested = sum(count.get(s, 0) for s in ("killed", "survived", "timeout", "suspicious"))
        killed = count.get("killed", 0) + count.get("timeout", 0)
        score = 100 * killed / tested if tested else 0.0
        named = ("killed", "survived", "timeout", "no tests", "not checked")
        other = {k: v for k, v in count.items() if k not in named}
        print(
            f"-- {target.key}: {len(found)} mutants, killed {count.get('killed', 0)}, "
            f"survived {count.get('survived', 0)}, timeouts {count.get('timeout', 0)}, "
            f"no tests {count.get('no tests', 0)}, not checked {count.get('not checked', 0)}, "
            f"other {json.dumps(other)}; "
            f"score {score:.1f}%; wall {wall:.0f} s"
        )
        for name, status in sorted(found.items()):
            if status not in ("killed", "timeout"):
                print(f"   {status}: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

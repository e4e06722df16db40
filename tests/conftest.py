"""Hypothesis profiles for the whole suite.

* ``ci`` (chosen when the ``CI`` environment variable is set, as ``.ci/run`` runs): every
  property test is derandomised, so a red CI run is the same run on any machine.
* ``dev`` (otherwise): random examples, but from one seed per run, printed in pytest's
  header; ``pytest --hypothesis-seed=N`` (or ``HYPOTHESIS_SEED=N``) replays that run.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import core, settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: Any) -> None:
    if os.environ.get("CI") or config.getoption("hypothesis_seed", None) is not None:
        return
    # One seed for the run; the xdist workers inherit it through the environment.
    seed = os.environ.get("HYPOTHESIS_SEED") or str(random.randrange(2**32))
    os.environ["HYPOTHESIS_SEED"] = seed
    core.global_force_seed = int(seed)  # type: ignore[attr-defined]


def pytest_report_header(config: Any) -> str:
    if os.environ.get("CI"):
        return "hypothesis: profile 'ci' (derandomised)"
    seed = config.getoption("hypothesis_seed", None) or os.environ.get("HYPOTHESIS_SEED")
    return f"hypothesis: profile 'dev', seed {seed} (replay: pytest --hypothesis-seed={seed})"


SLOW_FIRST = (
    "tests/arena/test_interrupt.py",
    "tests/server/test_browser",
    "tests/server/test_processes.py",
    "tests/server/test_restart.py",
    "tests/server/test_bot_workers.py",
    "tests/server/test_leaks.py",
    "tests/server/test_clock_api.py::test_clocks_survive_a_killed_server",
    "tests/server/test_bench_account.py",
    "tests/test_benchmarks.py",
    "tests/eurorails/test_engine_blocking",
    "tests/adapters/test_openspiel.py::test_random_sim_test_with_serialization",
    "tests/test_protocol.py::test_serialize_round_trips_and_replays_from_history",
    "tests/research/test_batched_",
    "tests/research/test_infostate.py",
    "tests/research/test_docs.py",
    "tests/arena/test_tournament.py",
    "tests/test_golden.py",
)
"""Tests of 4 s or more (``--durations``), run first. With xdist's load scheduling in chunks
of at most 4 (``--maxschedchunk 4`` in pyproject.toml's addopts) the two workers take the
long tests as they come free and share the short ones at the end, rather than one waiting
on the other's long browser test (the suite's wall time is what CI measures; 571 s with
the default order and chunks, 501 s with this order and work stealing, which hands each
worker half of the list up front). The order is the same in every worker, as xdist
requires."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def slow(item: pytest.Item) -> bool:
        return item.nodeid.replace("\\", "/").startswith(SLOW_FIRST)

    items.sort(key=lambda item: not slow(item))  # stable: each part keeps its order

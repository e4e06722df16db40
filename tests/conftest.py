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

"""Every registered game and conformance config, as pytest parameters (nothing names a game)."""

from __future__ import annotations

from typing import Any

import pytest

from motherlode.games import registry


def case_id(name: str, config: dict[str, Any]) -> str:
    return f"{name}-" + "-".join(f"{k}={v}" for k, v in config.items())


CASES = [
    pytest.param(name, cfg, id=case_id(name, cfg))
    for name, cls in registry().items()
    for cfg in cls.conformance_configs()
]
"""``(name, config)`` for every game and every config of its conformance list."""

FIRST_CASES = [
    pytest.param(name, cls.conformance_configs()[0], id=name) for name, cls in registry().items()
]
"""``(name, config)`` for every game, its first conformance config only."""

"""pytest: leave out the doctests of modules whose optional library is not installed."""

from __future__ import annotations

import importlib


def _missing(*modules: str) -> bool:
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            return True
    return False


collect_ignore: list[str] = []
if _missing("pyspiel"):
    collect_ignore.append("wrappers.py")
if _missing("gymnasium"):
    collect_ignore.append("gym.py")
if _missing("pyarrow"):
    collect_ignore.append("trajectories.py")

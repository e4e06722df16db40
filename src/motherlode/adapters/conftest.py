"""pytest: leave out the doctests of an adapter whose optional library is not installed.

``pytest --doctest-modules`` imports every module under ``src``; the adapters import
OpenSpiel / PettingZoo, which only the ``[openspiel]`` / ``[pettingzoo]`` extras install.
"""

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
    collect_ignore.append("openspiel.py")
if _missing("pettingzoo", "gymnasium"):
    collect_ignore.append("pettingzoo.py")

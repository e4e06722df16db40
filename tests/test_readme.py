"""The README's Python tour runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_tour_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has a python tour"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_readme_states_the_commands_ci_runs() -> None:
    text = README.read_text()
    ci = (README.parent / ".ci" / "run").read_text()
    assert 'pip install -e ".[test,all]"' in text and 'pip install -q -e ".[test,all]"' in ci
    for command in ("ruff check src tests benchmarks", "mypy", "pytest -n 2"):
        assert command in text and command in ci

"""docs/research.md's examples marked ``<!-- tested -->`` run as written, in order, in one
namespace (a block may use what an earlier one made); their own asserts are the checks."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")
pytest.importorskip("pyarrow")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _tested_blocks() -> list[str]:
    return re.findall(r"<!-- tested -->\n```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_research_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = _tested_blocks()
    assert len(blocks) >= 1
    monkeypatch.chdir(tmp_path)  # examples write their files here
    namespace: dict[str, object] = {"__name__": "research_md"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert os.getcwd() == str(tmp_path)

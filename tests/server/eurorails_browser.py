"""What the Eurorails browser tests share (test_browser_eurorails_map, _routes, _survey):
the Chromium they drive, its fixtures and the page queries they read. Importing this module
skips the importing test module where Chromium, Playwright or Eurorails is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import motherlode

CHROMIUM = os.environ.get("MOTHERLODE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
if "eurorails" not in motherlode.games():
    pytest.skip("Eurorails is not registered", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

VERSION = "() => document.getElementById('match').dataset.version"
MY_TURN = "() => document.getElementById('match').classList.contains('my-turn')"
# the seat's cash, from its own line in the panel (hidden cash) or its player block
CASH = """() => { const m = document.querySelector('#board #my-cash');
  const t = m ? m.textContent : document.querySelector('#board #player-p1 .er-pn').textContent;
  return parseInt(/(\\d+)M/.exec(t)[1], 10); }"""
# the log's last line without its number
LAST_LOG = """() => { const l = document.querySelectorAll('#log li');
  return l.length ? l[l.length - 1].textContent.replace(/^\\d+\\s*/, '') : ''; }"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots() -> Path:
    out = Path(os.environ.get("MOTHERLODE_SCREENSHOTS", "/tmp/erweb-shots"))
    out.mkdir(parents=True, exist_ok=True)
    return out

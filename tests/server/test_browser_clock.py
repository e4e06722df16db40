"""A real-time match in a real browser (Playwright, Debian's Chromium): a 2-player Eureka
match on a Fischer clock with a tiny base (3 s, +30 s a turn). P2 lets its clock run out;
P1's page offers to skip P2's turn and does (Eureka's pass); P2, still at 0:00, is late at
once on its next turn and P1 ends the match: P2 forfeits, P1 wins. Screenshots go to
``$MOTHERLODE_SCREENSHOTS`` (default: the test's temporary directory).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import LiveServer
from tests.server.test_browser import browser, shots  # noqa: F401  (fixtures)


def test_a_clock_runs_out_and_the_others_skip_then_end(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    body = {
        "game": "eureka",
        "config": {"players": 2},
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "clock": {"kind": "fischer", "base_minutes": 0.05, "increment_seconds": 30},
    }
    m = httpx.post(live_server.url + "/api/matches", json=body, timeout=30).json()
    tokens = {s["seat"]: s["token"] for s in m["seats"]}
    url = f"{live_server.url}/m/{m['id']}"
    # P1's first move at once (its 3 s run from the creation): 30 s in hand after it
    r = httpx.post(
        f"{live_server.url}/api/matches/{m['id']}/move",
        json={"action": "pass", "version": 0},
        headers={"Authorization": f"Bearer {tokens[0]}"},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    pages = []
    for seat in (0, 1):
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(f"{url}#t={tokens[seat]}")
        pages.append(page)
    ann, bob = pages
    ann.wait_for_selector("#clock-card:not([hidden])")
    rows = ann.locator("#clocks tr")
    assert rows.count() == 2
    assert "Bob" in rows.nth(1).inner_text() and "to-move" in rows.nth(1).get_attribute("class")
    assert ann.inner_text("#clock-kind") == "0.05 min + 30 s a turn"
    # P2's clock ticks down to 0 and the server writes the timeout
    ann.wait_for_selector("#clock-actions:not([hidden])", timeout=30_000)
    assert ann.inner_text("#clock-rule") == (
        "Bob is out of time. The others may skip the turn or end the match."
    )
    assert ann.inner_text("#clock-skip") == "Skip Bob's turn"
    assert bob.locator("#clock-actions").is_hidden()  # the late seat cannot decide
    bob.wait_for_function(
        "() => /P2 ran out of time/.test(document.getElementById('log').innerText)"
    )
    assert bob.inner_text("#clocks tr.late .time") == "0:00.0"
    ann.screenshot(path=str(shots / "clock-late.png"), full_page=True)
    ann.click("#clock-skip")
    ann.wait_for_function(
        "() => /P1 skips P2's turn/.test(document.getElementById('log').innerText)"
    )
    ann.wait_for_function("() => document.getElementById('turn').textContent === 'Your turn'")
    log = ann.inner_text("#log")
    assert log.index("P2 ran out of time") < log.index("P1 skips P2's turn (out of time)")
    # Ann passes; Bob, skipped at 0:00, is late at once: Ann ends the match
    ann.click("#legal button[data-action='pass']")
    ann.wait_for_selector("#clock-actions:not([hidden])", timeout=30_000)
    ann.click("#clock-end")
    ann.wait_for_selector("#summary:not([hidden])")
    assert (
        ann.inner_text("#summary-reason") == "The game is over: Bob ran out of time and forfeits."
    )
    assert ann.inner_text("#summary-winners") == "Winner: Ann (Bob forfeits on time)"
    assert ann.inner_text("#clock-rule") == "Bob forfeited on time."
    assert ann.locator("#clock-actions").is_hidden()
    bob.wait_for_selector("#summary:not([hidden])")
    assert bob.inner_text("#turn").startswith("Game over")
    assert bob.locator("#legal button").count() == 0
    assert bob.locator("#board [data-action]").count() == 0
    assert bob.locator("#board g.action").count() == 2  # the pass and roll buttons, hidden
    assert not bob.locator("#board g.action").first.is_visible()
    # the engine's board still writes whose turn it was: a note over it says it is over
    for page in (ann, bob):
        assert page.inner_text("#board-note").startswith("Game over: Bob forfeited on time.")
    ann.screenshot(path=str(shots / "clock-forfeit.png"), full_page=True)
    bob.screenshot(path=str(shots / "clock-forfeit-late-seat.png"), full_page=True)
    record = httpx.get(f"{live_server.url}/api/matches/{m['id']}/record", timeout=30).json()
    assert [e["kind"] for e in record["events"]] == ["timeout", "skip", "timeout", "forfeit"]
    verified = httpx.get(f"{live_server.url}/api/matches/{m['id']}/verify", timeout=30).json()
    assert verified["ok"] is True, verified

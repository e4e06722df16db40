"""Playwright, the issue's "done when": two accounts sign up, one creates a rated
real-time Yukon match (a Fischer clock of 30 s, no increment), both play with a chat
message and a turn notification, the second player lets the clock run out and forfeits
(Yukon has no pass: docs/server.md, Clocks), both ratings change on the profiles, and the
replay shows the analysis of the finished match. Desktop (ann) and 390x844 (bob)
screenshots under ``MOTHERLODE_SCREENSHOTS``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer
from tests.server.test_browser import ARGS, CHROMIUM, _play_my_turns, browser, shots
from tests.server.test_browser_accounts import _mine, _sign_up
from tests.server.test_browser_chat import RECORD_NOTIFICATIONS, _chat_lines, _say

__all__ = ["ARGS", "CHROMIUM", "browser", "shots"]

ANALYSIS = ("--analysis-spec", "mcts:iterations=300", "--analysis-workers", "1")


@pytest.fixture
def analysing_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "home.db", args=ANALYSIS).start()
    yield server
    server.kill()


def test_done_when_two_accounts_play_a_rated_clocked_match_and_read_its_analysis(
    browser: Any, analysing_server: LiveServer, shots: Path
) -> None:
    url = analysing_server.url
    ann = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    bob_ctx.grant_permissions(["notifications"], origin=url)
    bob_ctx.add_init_script(RECORD_NOTIFICATIONS)
    bob = bob_ctx.new_page()
    _sign_up(ann, url, "ann")
    _sign_up(bob, url, "bob")

    # ann creates a rated real-time match: 30 s each, no increment
    ann.goto(url + "/new?game=yukon")
    ann.check("#rated")
    ann.select_option("select[name=seat1_kind]", "human")
    ann.select_option("#clock-kind", "fischer")
    ann.fill("#clock-base_minutes", "0.5")
    ann.fill("#clock-increment_seconds", "0")
    ann.click("button[type=submit]")
    invite = ann.locator("a[data-seat-link='1']").get_attribute("href")
    ann.click("a[data-seat-link='0']")
    match_id = ann.url.split("#")[0].rsplit("/", 1)[1]
    bob.goto(invite)
    bob.wait_for_selector("#claim:not([hidden])")
    bob.click("#claim button")
    bob.wait_for_selector("#claims")
    for page in (ann, bob):
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("#clock-card:not([hidden])")
    assert ann.inner_text("#accounts-card h2") == "Rated match"
    assert ann.inner_text("#clock-kind") == "0.5 min + 0 s a turn"
    assert ann.inner_text("#clock-rule") == (
        "out of time: the match ends as a forfeit (the late seat loses)"
    )

    # a chat message; bob waits on his dashboard and is notified when ann has moved
    _say(ann, "good luck, bob")
    bob.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
    assert _chat_lines(bob) == ["P1 ann good luck, bob"]
    bob.goto(url + "/me")
    bob.wait_for_function(
        "() => document.getElementById('notify-state').textContent === 'notifications are on'"
    )
    bob.wait_for_function("() => localStorage.getItem('motherlode:waiting') === '[]'")
    assert _mine(ann)
    _play_my_turns(ann, until_over=False, limit=20)
    bob.wait_for_selector("#turn-notice:not([hidden])", timeout=30_000)
    assert bob.inner_text("#turn-notice") == "Your turn in yukon (P2)"
    assert bob.evaluate("() => window.__notes") == [
        {"title": "motherlode: your turn", "body": "Your turn in yukon (P2)"}
    ]
    # the dashboard: bob's time left ticks down
    row = bob.locator("#my-matches tr.waiting")
    bob.wait_for_selector("#my-matches tr.waiting td.time-left.ticking")
    first = row.locator("td.time-left").inner_text()
    bob.wait_for_function(
        "t => document.querySelector('#my-matches tr.waiting td.time-left').textContent !== t",
        arg=first,
    )
    assert row.locator("td.time-left").get_attribute("title") == "0.5 min + 0 s a turn"
    bob.screenshot(path=str(shots / "home-01-dashboard-phone.png"), full_page=True)

    # bob plays one move, ann one, then bob lets his clock run out
    bob.click("#my-matches tr.waiting a")
    bob.wait_for_selector("#conn.live")
    _play_my_turns(bob, until_over=False, limit=20)
    _play_my_turns(ann, until_over=False, limit=20)
    ann.screenshot(path=str(shots / "home-02-bob-to-move.png"), full_page=True)
    ann.wait_for_selector("#summary:not([hidden])", timeout=60_000)
    assert ann.inner_text("#summary-reason") == (
        "The game is over: P2 ran out of time and forfeits."
    )
    assert ann.inner_text("#clock-rule") == "P2 forfeited on time."
    bob.wait_for_selector("#summary:not([hidden])")
    assert bob.inner_text("#summary-replay") == "Replay the match with the bot's analysis"
    bob.screenshot(path=str(shots / "home-03-forfeit-phone.png"), full_page=True)

    # both ratings changed: ann won, bob lost
    mus = {}
    for page, name in ((ann, "ann"), (bob, "bob")):
        page.goto(f"{url}/u/{name}")
        rating = page.locator("#ratings tr[data-game=yukon][data-players='2']")
        assert rating.locator("td").nth(5).inner_text() == "1"
        mus[name] = float(rating.locator(".mu").inner_text())
        assert page.locator("#rating-history circle").count() == 2
    assert mus["ann"] > 25.0 > mus["bob"]

    # the replay shows the bot's judgement of every decision
    for page, tag in ((ann, "desktop"), (bob, "phone")):
        page.goto(f"{url}/m/{match_id}/replay")
        page.wait_for_selector("#replay[data-analysis=done]", timeout=120_000)
        status = page.inner_text("#analysis-status")
        assert status.startswith("The bot (mcts:iterations=300,seconds=2) judged every decision")
        assert status.endswith("analysed 3 of 3 decisions.")
        assert page.locator("#analysis-graph polyline").count() == 2
        page.click("#replay-log li[data-n='50']")  # ann's first move
        verdict = page.inner_text("#analysis-verdict")
        assert verdict.startswith("P1 played ")
        assert page.locator("#analysis-top tr").count() >= 2
        assert page.get_attribute("#analysis-verdict", "title").startswith("P1 played ")
        assert page.locator("#replay-log li[data-clock].mistake").count() == 0  # not moves
        marked = page.locator("#replay-log li.mistake").count()
        assert marked == page.evaluate(
            f"() => fetch('/api/matches/{match_id}/analysis').then(r => r.json())"
            ".then(a => a.rows.filter(r => r.mistake).length)"
        )
        page.screenshot(path=str(shots / f"home-04-analysis-{tag}.png"), full_page=True)

"""Playwright: two accounts sign up in two browsers, play a rated Yukon match, and both
profiles show the changed ratings (screenshots under ``MOTHERLODE_SCREENSHOTS``)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer
from tests.server.test_browser import ARGS, CHROMIUM, _play_my_turns, browser, shots, sync_api

__all__ = ["ARGS", "CHROMIUM", "browser", "shots"]

PASSWORD = "correct horse battery"


def _sign_up(page: Any, url: str, name: str) -> str:
    page.goto(url + "/signup")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.fill("#again", PASSWORD)
    page.click("button[type=submit]")
    code = page.inner_text("#recovery-code")
    assert re.fullmatch(r"[A-Z2-7]{7}(-[A-Z2-7]{1,7}){3}", code), code
    return code


def _over(page: Any) -> bool:
    return page.locator("#match").get_attribute("data-terminal") == "true"


def _mine(page: Any) -> bool:
    return "my-turn" in (page.locator("#match").get_attribute("class") or "")


def test_two_accounts_play_a_rated_match_and_both_ratings_change(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    url = live_server.url
    ann = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bob = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _sign_up(ann, url, "ann")
    ann.screenshot(path=str(shots / "acc-01-recovery-code.png"), full_page=True)
    _sign_up(bob, url, "bob")
    ann.goto(url + "/")
    bob.goto(url + "/")
    assert ann.inner_text("#me") == "ann" and bob.inner_text("#me") == "bob"

    ann.goto(url + "/new?game=yukon")
    ann.check("#rated")
    ann.select_option("select[name=seat1_kind]", "human")
    ann.click("button[type=submit]")
    invite = ann.locator("a[data-seat-link='1']").get_attribute("href")
    ann.click("a[data-seat-link='0']")
    bob.goto(invite)
    bob.wait_for_selector("#claim:not([hidden])")
    bob.click("#claim button")
    bob.wait_for_selector("#claims")
    assert "P2: bob" in bob.inner_text("#claims") and "P1: ann" in bob.inner_text("#claims")
    for page in (ann, bob):
        page.wait_for_selector("#conn.live")
        page.wait_for_function("() => document.getElementById('match').dataset.version")
    assert ann.inner_text("#accounts-card h2") == "Rated match"
    bob.screenshot(path=str(shots / "acc-02-rated-match.png"), full_page=True)

    for _ in range(400):
        if _over(ann) and _over(bob):
            break
        for page in (ann, bob):
            if not _over(page) and _mine(page):
                _play_my_turns(page, until_over=False, limit=50)
        time.sleep(0.05)
    for page in (ann, bob):
        page.wait_for_function("() => document.getElementById('match').dataset.terminal === 'true'")
    ann.screenshot(path=str(shots / "acc-03-match-over.png"), full_page=True)

    for page, name in ((ann, "ann"), (bob, "bob")):
        page.goto(f"{url}/u/{name}")
        row = page.locator("#ratings tr[data-game=yukon][data-players='2']")
        assert row.locator("td").nth(5).inner_text() == "1"  # one rated match
        assert row.locator(".mu").inner_text() != "25.00"  # moved from openskill's start
        assert page.locator("#rating-history circle").count() == 2  # before, after
        page.screenshot(path=str(shots / f"acc-04-profile-{name}.png"), full_page=True)
    ann.goto(url + "/leaderboard/yukon")
    assert ann.locator("table.leaderboard tr td.who").count() == 2
    ann.screenshot(path=str(shots / "acc-05-leaderboard.png"), full_page=True)


_ = (pytest, sync_api)

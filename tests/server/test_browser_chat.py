"""Playwright: two accounts chat in a match (a ``<script>`` stays text), a spectator talks
in the spectators' channel, one player is notified of their turn by the browser, both
play to the end and take the rematch; desktop and 390x844 screenshots under
``MOTHERLODE_SCREENSHOTS``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.conftest import LiveServer
from tests.server.test_browser import ARGS, CHROMIUM, _play_my_turns, browser, shots
from tests.server.test_browser_accounts import _mine, _over, _sign_up

__all__ = ["ARGS", "CHROMIUM", "browser", "shots"]

EVIL = "<script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2> hi bob"

# a browser notification, recorded where the test can read it (permission is granted to
# the context, so the page's own Notification calls go through unchanged)
RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  if (!Real) { return; }
  window.__notes = [];
  const Spy = function (title, options) {
    window.__notes.push({ title: title, body: (options || {}).body || "" });
    return new Real(title, options);
  };
  Spy.requestPermission = (...a) => Real.requestPermission(...a);
  Object.defineProperty(Spy, "permission", { get: () => Real.permission });
  window.Notification = Spy;
})();
"""


def _chat_lines(page: Any) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("#chat-log li").all_inner_texts()]


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def test_chat_spectators_a_turn_notification_and_the_rematch(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    url = live_server.url
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_ctx.grant_permissions(["notifications"], origin=url)
    bob_ctx.add_init_script(RECORD_NOTIFICATIONS)
    carol_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ann, bob, carol = ann_ctx.new_page(), bob_ctx.new_page(), carol_ctx.new_page()
    for page, name in ((ann, "ann"), (bob, "bob"), (carol, "carol")):
        _sign_up(page, url, name)

    for page, tag in ((ann, "desktop"), (carol, "phone")):
        page.goto(url + "/")
        assert page.locator("#play-now button").all_inner_texts() == [
            "Play a bot",
            "Join the oldest open seat",
        ]
        page.screenshot(path=str(shots / f"chat-00-lobby-{tag}.png"), full_page=True)
    ann.goto(url + "/new?game=yukon")
    ann.select_option("select[name=seat1_kind]", "human")
    ann.click("button[type=submit]")
    invite = ann.locator("a[data-seat-link='1']").get_attribute("href")
    ann.click("a[data-seat-link='0']")
    match_url = ann.url.split("#")[0]
    bob.goto(invite)
    bob.wait_for_selector("#claim:not([hidden])")
    bob.click("#claim button")
    bob.wait_for_selector("#claims")
    for page in (ann, bob):
        page.wait_for_selector("#conn.live")
        page.wait_for_function("() => document.getElementById('match').dataset.version")
    # the players panel names the accounts beside P1, P2
    for page in (ann, bob):
        page.wait_for_function("() => document.querySelectorAll('#players .account').length === 2")
        assert page.locator("#players .account").all_inner_texts() == ["ann", "bob"]

    # the players talk; a script in a message stays text
    assert ann.inner_text("#chat-title") == "Chat (players)"
    _say(ann, EVIL)
    bob.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
    assert _chat_lines(bob) == [" ".join(f"P1 ann {EVIL}".split())]
    assert bob.locator("#chat-log li .text").inner_text() == EVIL
    assert bob.evaluate("() => window.__pwned") is None
    assert ann.evaluate("() => window.__pwned") is None
    _say(bob, "hello ann")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")

    # a spectator, in the spectators' channel only (on a phone)
    carol.goto(match_url + "?watch")
    carol.wait_for_selector("#conn.live")
    carol.wait_for_function(
        "() => document.getElementById('chat-title').textContent === 'Chat (spectators)'"
    )
    assert _chat_lines(carol) == []
    _say(carol, "go bob!")
    carol.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
    assert _chat_lines(carol) == ["carol go bob!"]
    carol.screenshot(path=str(shots / "chat-01-spectator-phone.png"), full_page=True)
    ann.screenshot(path=str(shots / "chat-02-players-desktop.png"), full_page=True)
    time.sleep(0.5)  # nothing more reaches the players
    assert len(_chat_lines(ann)) == 2 and len(_chat_lines(bob)) == 2

    # bob waits on his dashboard with notifications on; ann moves: bob is told
    assert _mine(ann) and not _mine(bob)
    bob.goto(url + "/me")
    # the permission is the context's already: no button to ask with (asked on a click)
    assert bob.locator("#notify-on").is_hidden()
    bob.wait_for_function(
        "() => document.getElementById('notify-state').textContent === 'notifications are on'"
    )
    bob.wait_for_function("() => localStorage.getItem('motherlode:waiting') === '[]'")
    _play_my_turns(ann, until_over=False, limit=50)
    bob.wait_for_selector("#turn-notice:not([hidden])", timeout=30_000)
    assert bob.inner_text("#turn-notice") == "Your turn in yukon (P2)"
    assert bob.evaluate("() => window.__notes") == [
        {"title": "motherlode: your turn", "body": "Your turn in yukon (P2)"}
    ]
    assert bob.title() == "(1) motherlode — my games"
    assert bob.locator("#my-matches tr.waiting").count() == 1
    bob.screenshot(path=str(shots / "chat-03-dashboard-notified.png"), full_page=True)
    bob.set_viewport_size({"width": 390, "height": 844})
    bob.screenshot(path=str(shots / "chat-04-dashboard-phone.png"), full_page=True)
    bob.set_viewport_size({"width": 1280, "height": 900})
    bob.click("#my-matches tr.waiting a")
    bob.wait_for_selector("#conn.live")
    bob.wait_for_function("() => document.title.startsWith('(1) ')")

    # both play to the end; then the rematch, same seats and accounts
    for _ in range(400):
        if _over(ann) and _over(bob):
            break
        for page in (ann, bob):
            if not _over(page) and _mine(page):
                _play_my_turns(page, until_over=False, limit=50)
        time.sleep(0.05)
    for page in (ann, bob):
        page.wait_for_function("() => document.getElementById('match').dataset.terminal === 'true'")
        page.wait_for_selector("#rematch-card:not([hidden])")
    assert carol.locator("#rematch").is_hidden()  # a spectator only watches it
    ann.screenshot(path=str(shots / "chat-05-over-rematch.png"), full_page=True)
    ann.click("#rematch")
    ann.wait_for_url(lambda u: match_url not in u)
    bob.wait_for_function(
        "() => document.getElementById('rematch').textContent === 'Play the rematch'"
    )
    bob.click("#rematch")
    bob.wait_for_url(lambda u: match_url not in u)
    assert ann.url.split("#")[0] == bob.url.split("#")[0]
    for page, me in ((ann, "P1"), (bob, "P2")):
        page.wait_for_selector("#conn.live")
        page.wait_for_function("() => document.querySelectorAll('#players .account').length === 2")
        assert page.inner_text("#whoami") == f"you are {me}"
        assert page.locator("#players .account").all_inner_texts() == ["ann", "bob"]
        assert _chat_lines(page) == []  # a new match, a new chat
    bob.set_viewport_size({"width": 390, "height": 844})
    bob.screenshot(path=str(shots / "chat-06-rematch-phone.png"), full_page=True)
    for ctx in (ann_ctx, bob_ctx, carol_ctx):
        ctx.close()

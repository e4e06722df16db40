"""A whole 2-player Eurorails game in a real browser (headless Chromium, Playwright), P1
played only by route clicks: a city's ring (``data-command``, ``static/commands.js``)
previews the route and its cost on the first click, the confirm bar (or a second click)
builds or moves; the panel's buttons end the turn, pick up and deliver; the train starts
with a click on a city. P2 is the greedy bot. The first building turn and the first
operating turn are checked screen by screen.

Screenshots (desktop and a 390x844 phone) go to ``$MOTHERLODE_SCREENSHOTS`` (default
``/tmp/erweb-shots``). Skipped without ``/usr/bin/chromium`` or ``playwright``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.server import eurorails_browser
from tests.server.conftest import LiveServer
from tests.server.eurorails_browser import CASH, LAST_LOG, MY_TURN, VERSION

# the shared fixtures, bound in this module so that pytest finds them
browser, shots = eurorails_browser.browser, eurorails_browser.shots

OVER = "() => document.getElementById('match').dataset.terminal === 'true'"


def _new_match(page: Any, live_server: LiveServer, turn_limit: int) -> str:
    page.goto(live_server.url + "/new?game=eurorails")
    page.select_option("#opt-players", "2")
    page.fill("#opt-turn_limit", str(turn_limit))
    page.select_option("select[name=seat0_kind]", "human")
    page.select_option("select[name=seat1_kind]", "bot")
    page.click("button[type=submit]")
    url = page.get_attribute("a[data-seat-link='0']", "href")
    assert url is not None
    return str(url) if url.startswith("http") else live_server.url + url


def _my_turn(page: Any) -> bool:
    """Wait until it is P1's turn or the game is over; True for P1's turn."""
    page.wait_for_function(f"() => ({MY_TURN[6:]}) || ({OVER[6:]})", timeout=120_000)
    page.wait_for_timeout(150)  # the push that made it P1's turn is drawn
    return not page.evaluate(OVER)


def _inside(box: dict[str, float] | None, svg: dict[str, float]) -> bool:
    """The middle of ``box`` is on the board's visible part."""
    return (
        box is not None
        and svg["x"] < box["x"] + box["width"] / 2 < svg["x"] + svg["width"]
        and svg["y"] < box["y"] + box["height"] / 2 < svg["y"] + svg["height"]
    )


def _click(page: Any, selector: str, views: tuple[str, ...] = ("Your network", "Europe")) -> None:
    """A real click on the middle of the element, after bringing it into view (the views
    of the zoom bar in turn) and checking that nothing covers that point."""
    el = page.locator(selector).first
    el.scroll_into_view_if_needed()
    box = el.bounding_box()
    svg = page.locator("#board svg").bounding_box()
    inside = _inside(box, svg)
    for view in views:
        if inside:
            break
        page.locator("#zoom-bar .zoom-view", has_text=view).click()
        page.wait_for_timeout(100)
        el.scroll_into_view_if_needed()
        box, svg = el.bounding_box(), page.locator("#board svg").bounding_box()
        inside = _inside(box, svg)
    assert box is not None and inside, selector
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    on_top = el.evaluate(
        "(e, [x, y]) => { const t = document.elementFromPoint(x, y); "
        "return !!t && (t === e || e.contains(t)); }",
        [x, y],
    )
    assert on_top, f"{selector} is covered at its middle"
    page.mouse.click(x, y)


def _preview(page: Any, selector: str) -> str:
    """Click a place once: the preview's summary (the bar shows, the route is drawn)."""
    _click(page, selector)
    page.wait_for_function(
        "() => { const b = document.getElementById('command-bar'); "
        "const m = document.getElementById('message'); "
        "return (b && !b.hidden) || (m && !m.hidden && m.textContent); }"
    )
    bar = page.locator("#command-bar")
    if bar.count() == 0 or not bar.is_visible():
        return ""
    return str(page.inner_text("#command-summary"))


def _confirm(page: Any) -> None:
    version = page.evaluate(VERSION)
    page.click("#command-confirm")
    page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
    page.wait_for_timeout(100)


def _button(page: Any, prefix: str) -> bool:
    """Click the panel's button whose action starts with ``prefix``; False when none."""
    sel = f"#board .er-btn[data-action^='{prefix}']"
    if page.locator(sel).count() == 0:
        return False
    version = page.evaluate(VERSION)
    _click(page, sel, ("Players and cards",))
    page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
    page.wait_for_timeout(100)
    return True


def _first_building_turn(page: Any, shots: Path, tag: str) -> None:
    page.screenshot(path=str(shots / f"{tag}-01-building.png"))
    assert page.evaluate(CASH) == 50
    rings = page.locator("#board [data-command^='build to ']")
    names = [str(rings.nth(i).get_attribute("data-command"))[9:] for i in range(rings.count())]
    assert "Lyon" in names and "Paris" not in names, "no ring on a major city without track"
    summary = _preview(page, "#board [data-command='build to Lyon']")
    m = re.fullmatch(r"P1 builds (\S+)–Lyon: (\d+) mileposts?, (\d+) M", summary)
    assert m, summary
    cost = int(m.group(3))
    assert page.locator("#command-overlay .route-preview line").count() == int(m.group(2))
    assert page.locator("#command-overlay text").text_content() == f"{cost} M", "cost on the map"
    page.screenshot(path=str(shots / f"{tag}-02-preview.png"))
    _confirm(page)
    line = page.evaluate(LAST_LOG)
    assert line == f"P1 builds {m.group(1)}–Lyon ({m.group(2)} mileposts, {cost} M)", line
    assert page.evaluate(CASH) == 50 - cost
    assert page.locator("#board [data-command='build to Lyon']").count() == 0
    page.screenshot(path=str(shots / f"{tag}-03-built.png"))
    # a second route, confirmed by a second click on the same city
    summary = _preview(page, "#board [data-command='build to Marseille']")
    if summary:
        cost2 = int(re.findall(r"(\d+) M$", summary)[0])
        version = page.evaluate(VERSION)
        _click(page, "#board [data-command='build to Marseille']")
        page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
        page.wait_for_timeout(100)
        assert page.evaluate(LAST_LOG).startswith("P1 builds ")
        assert page.evaluate(CASH) == 50 - cost - cost2
    assert _button(page, "end turn")


def _first_operating_turn(page: Any, shots: Path, tag: str) -> None:
    page.screenshot(path=str(shots / f"{tag}-10-operations.png"))
    # the train starts at a city: a click on the city (the Lyon end of the track)
    start = page.locator("#board .er-city[data-action^='start']")
    assert start.count() > 0
    assert _click_action(page, "#board .er-city[data-action='start Lyon']")
    assert page.evaluate(LAST_LOG).startswith("P1 ")
    assert page.locator("#board #reach").count() == 1, "the reach this turn is drawn"
    page.locator("#zoom-bar .zoom-view", has_text="Your network").click()
    page.screenshot(path=str(shots / f"{tag}-11-reach.png"))
    # a city within the reach, else a milepost of it (which cities the 9 mileposts reach
    # depends on the deal: who builds first, the other player's track to rent)
    target = page.locator("#board [data-command^='move to ']:not(.er-hit)")
    if target.count() == 0:
        target = page.locator("#board .er-hit[data-command^='move to ']")
    assert target.count() > 0, "the reach offers a move"
    cmd = str(target.first.get_attribute("data-command"))
    summary = _preview(page, f"#board [data-command='{cmd}']")
    assert re.fullmatch(rf"P1 moves Lyon–{cmd[8:]}: \d+ mileposts?.*", summary), summary
    page.screenshot(path=str(shots / f"{tag}-12-move-preview.png"))
    _confirm(page)
    assert page.evaluate(LAST_LOG).startswith("P1 moves"), page.evaluate(LAST_LOG)
    title = str(page.locator("#board #train-p1 title").text_content())
    assert f"at {cmd[8:]}" in title, title
    page.screenshot(path=str(shots / f"{tag}-13-moved.png"))
    _finish_turn(page)


def _click_action(page: Any, selector: str) -> bool:
    if page.locator(selector).count() == 0:
        return False
    version = page.evaluate(VERSION)
    _click(page, selector)
    page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
    page.wait_for_timeout(100)
    return True


def _finish_turn(page: Any) -> None:
    """Deliver and pick up what the buttons offer, then end the move and the turn."""
    for _ in range(8):
        if not page.evaluate(MY_TURN):
            return
        for prefix in ("deliver", "drop", "pick", "end move", "end turn"):
            if _button(page, prefix):
                break
        else:
            return


def _later_turn(page: Any) -> None:
    """A later turn, by route clicks: start, move to a city in reach, then end."""
    if page.locator("#board .er-city[data-action^='start']").count():
        _click_action(page, "#board .er-city[data-action^='start']")
    target = page.locator("#board [data-command^='move to ']:not(.er-hit)")
    if target.count() and _preview(
        page, f"#board [data-command='{target.first.get_attribute('data-command')}']"
    ):
        _confirm(page)
    _finish_turn(page)


@pytest.mark.parametrize(
    ("tag", "viewport"),
    [("desktop", {"width": 1400, "height": 900}), ("phone", {"width": 390, "height": 844})],
)
def test_a_whole_game_by_route_clicks(
    browser: Any, live_server: LiveServer, shots: Path, tag: str, viewport: dict[str, int]
) -> None:
    page = browser.new_page(viewport=viewport)
    url = _new_match(page, live_server, turn_limit=2)
    page.goto(url)
    page.wait_for_selector("#conn.live")
    page.wait_for_function("() => document.querySelector('#board svg[data-zoom]')")
    assert _my_turn(page)
    _first_building_turn(page, shots, tag)
    assert _my_turn(page)  # the second building turn: end it
    assert _button(page, "end turn")
    assert _my_turn(page)
    _first_operating_turn(page, shots, tag)
    turns = 0
    while _my_turn(page):
        turns += 1
        assert turns < 20, "the game ends with the turn limit"
        _later_turn(page)
    page.screenshot(path=str(shots / f"{tag}-20-over.png"))
    assert page.evaluate(OVER)
    assert page.locator("#board [data-command]").count() == 0
    page.close()

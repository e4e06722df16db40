"""The Eurorails map in a real browser (headless Chromium, Playwright): zoom and pan
(``static/zoom.js``), readable names, clickable build targets, on a desktop window and on
a phone.

Screenshots go to ``$MOTHERLODE_SCREENSHOTS`` (default ``/tmp/ermap-shots``). Skipped when
``/usr/bin/chromium`` or the ``playwright`` package is missing; Playwright never downloads
a browser here.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from tests.server import eurorails_browser
from tests.server.conftest import LiveServer
from tests.server.eurorails_browser import VERSION

# the shared fixtures, bound in this module so that pytest finds them
browser, shots = eurorails_browser.browser, eurorails_browser.shots

VIEWBOX = "() => document.querySelector('#board svg').getAttribute('viewBox')"
# the on-screen size (CSS px) of every clickable target, and of the city names' text
TARGET_SIZES = """() => [...document.querySelectorAll('#board [data-action]')].map(e => {
  const r = e.getBoundingClientRect(); return Math.max(r.width, r.height); })"""
NAME_PX = """() => { const t = [...document.querySelectorAll('#layer-static text')]
  .find(e => e.textContent === 'Paris'); return t.getBoundingClientRect().height; }"""


def _box(page: Any) -> list[float]:
    return [float(v) for v in page.evaluate(VIEWBOX).split()]


def _new_match(page: Any, live_server: LiveServer) -> str:
    """A 2-player match, P1 a person (this page), P2 the greedy bot; the seat's URL."""
    page.goto(live_server.url + "/new?game=eurorails")
    page.select_option("#opt-players", "2")
    page.select_option("select[name=seat0_kind]", "human")
    page.select_option("select[name=seat1_kind]", "bot")
    page.click("button[type=submit]")
    url = page.get_attribute("a[data-seat-link='0']", "href")
    assert url is not None
    return str(url) if url.startswith("http") else live_server.url + url


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#conn.live")
    page.wait_for_function("() => document.querySelector('#board svg[data-zoom]')")
    page.wait_for_function("() => document.getElementById('match').classList.contains('my-turn')")


def _centre(page: Any, selector: str) -> tuple[float, float]:
    r = page.locator(selector).first.bounding_box()
    assert r is not None
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


def test_the_map_zooms_pans_and_builds_on_a_desktop(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    url = _new_match(page, live_server)
    _open(page, url)
    page.screenshot(path=str(shots / "d01-open.png"))
    full = [
        float(v)
        for v in page.evaluate(
            "() => document.querySelector('#board svg').dataset.fullView"
        ).split()
    ]
    opened = _box(page)
    # a player without track opens on the major cities, close enough to read the names
    assert opened[2] < full[2] / 2, (opened, full)
    assert page.evaluate(NAME_PX) >= 11, "city names are legible when the page opens"

    page.click("#zoom-bar .zoom-in")
    after = _box(page)
    assert after[2] == pytest.approx(opened[2] / 1.5, rel=0.01)
    page.click("#zoom-bar .zoom-out")
    assert _box(page)[2] == pytest.approx(opened[2], rel=0.01)

    x, y = _centre(page, "#board svg")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"() => {VIEWBOX[6:]}.split(' ')[2] < {opened[2] * 0.8}")
    wheeled = _box(page)
    assert wheeled[2] < opened[2] * 0.8

    version = page.evaluate(VERSION)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 60, steps=6)
    page.mouse.up()
    panned = _box(page)
    assert panned[0] < wheeled[0] and panned[1] < wheeled[1], "dragging right/down shows west/north"
    assert panned[2] == pytest.approx(wheeled[2])
    assert page.evaluate(VERSION) == version, "a drag is not a click: no move was sent"

    page.keyboard.press("0")
    assert _box(page)[2] >= full[2] * 0.99
    page.keyboard.press("+")
    page.keyboard.press("ArrowRight")
    keyed = _box(page)
    assert keyed[2] == pytest.approx(_box(page)[2])
    page.screenshot(path=str(shots / "d02-keys.png"))

    # zoom onto a build target with the wheel and click it: the move is made and the view
    # stays where it was across the board update
    page.locator("#zoom-bar .zoom-view", has_text="Your network").click()
    target = "#board [data-action^='build']"
    tx, ty = _centre(page, target)
    page.mouse.move(tx, ty)
    page.mouse.wheel(0, -500)
    page.wait_for_timeout(200)
    action = page.locator(target).first.get_attribute("data-action")
    tx, ty = _centre(page, f"#board [data-action='{action}']")
    before = _box(page)
    page.screenshot(path=str(shots / "d03-zoomed-to-target.png"))
    page.mouse.click(tx, ty)
    page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
    assert _box(page) == before, "the view survives the board update"
    assert page.locator("#board [id^='track-p1']").count() == 1
    assert page.locator("#log li").last.get_attribute("title") == action, "the move was made"
    assert page.evaluate(NAME_PX) >= 14
    page.screenshot(path=str(shots / "d04-built.png"))

    # the contracts panel: hovering a load lights up its supply cities
    page.locator("#zoom-bar .zoom-view", has_text="Players and cards").click()
    load = page.locator("#board [data-highlight]").first
    ids = str(load.get_attribute("data-highlight")).split()
    load.hover()
    lit = page.evaluate("() => [...document.querySelectorAll('#board .highlight')].map(e => e.id)")
    assert sorted(lit) == sorted(ids)
    page.screenshot(path=str(shots / "d05-panel.png"))

    # reopened, the page opens on the player's network (a new tab has no saved view)
    page2 = browser.new_page(viewport={"width": 1400, "height": 900})
    _open(page2, url)
    focus = [
        float(v)
        for v in page2.evaluate("() => document.querySelector('#focus').dataset.focus").split()
    ]
    shown = _box(page2)
    cx, cy = focus[0] + focus[2] / 2, focus[1] + focus[3] / 2
    assert shown[0] + shown[2] / 2 == pytest.approx(cx, abs=1), (focus, shown)
    assert shown[1] + shown[3] / 2 == pytest.approx(cy, abs=1)
    page2.screenshot(path=str(shots / "d06-reopened.png"))
    page2.close()
    page.close()


def test_on_a_phone_the_targets_grow_with_the_zoom(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    desk = browser.new_page(viewport={"width": 1400, "height": 900})
    url = _new_match(desk, live_server)
    desk.close()
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = ctx.new_page()
    _open(page, url)
    page.screenshot(path=str(shots / "p01-open.png"))
    sizes = page.evaluate(TARGET_SIZES)
    small = statistics.median(sizes)
    for _ in range(3):
        page.tap("#zoom-bar .zoom-in")
    page.screenshot(path=str(shots / "p02-zoomed.png"))
    big = statistics.median(page.evaluate(TARGET_SIZES))
    assert big == pytest.approx(small * 1.5**3, rel=0.05)
    assert big >= 24, f"the median target is {big:.1f} px after three zoom steps"
    # drag the nearest build target to the middle of the view, then tap it: the build is made
    version = page.evaluate(VERSION)
    cx, cy = _centre(page, "#board svg")
    near = page.evaluate(f"""() => {{ let best = null; for (const e of document
      .querySelectorAll("#board [data-action^='build']")) {{ const r = e.getBoundingClientRect();
      const d = Math.hypot(r.x + r.width / 2 - {cx}, r.y + r.height / 2 - {cy});
      if (!best || d < best[0]) {{ best = [d, r.x + r.width / 2, r.y + r.height / 2]; }} }}
      return best; }}""")
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - (near[1] - cx), cy - (near[2] - cy), steps=12)
    page.mouse.up()
    page.screenshot(path=str(shots / "p02b-dragged.png"))
    assert page.evaluate(VERSION) == version
    # a pan is no click: no build is previewed where it ends (survey.js listens for a bare
    # point's click only after zoom.js has swallowed the click that ends a drag)
    page.wait_for_timeout(300)
    assert page.evaluate(
        "() => { const b = document.getElementById('command-bar'); return !b || b.hidden; }"
    ), "a pan opened a build preview"
    visible = page.evaluate("""() => { const s = document.querySelector('#board svg')
      .getBoundingClientRect(); const t = [...document.querySelectorAll(
      "#board [data-action^='build']")].find(e => { const r = e.getBoundingClientRect();
      const x = r.x + r.width / 2, y = r.y + r.height / 2;
      return x > s.left + 10 && x < s.right - 10 && y > s.top + 10 && y < s.bottom - 10
        && document.elementFromPoint(x, y) === e; });
      return t ? t.getAttribute('data-action') : null; }""")
    assert visible is not None, "a build target is in the zoomed view"
    page.tap(f"#board [data-action='{visible}']")
    page.wait_for_function(f"() => {VERSION[6:]} !== '{version}'")
    assert page.locator("#log li").last.get_attribute("title") == visible
    page.screenshot(path=str(shots / "p03-built.png"))
    # two fingers spreading apart zoom in about their middle (touch events through CDP)
    before = _box(page)
    cdp = ctx.new_cdp_session(page)
    cx, cy = _centre(page, "#board svg")

    def touch(kind: str, d: float) -> None:
        points = [{"x": cx - d, "y": cy, "id": 1}, {"x": cx + d, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 30)
    for d in range(35, 91, 5):
        touch("touchMove", d)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    pinched = _box(page)
    assert pinched[2] < before[2] / 2, (before, pinched)
    assert pinched[0] + pinched[2] / 2 == pytest.approx(
        before[0] + before[2] / 2, abs=before[2] / 20
    )
    page.screenshot(path=str(shots / "p04-pinched.png"))
    ctx.close()

"""The platform in a real browser: headless Chromium (Debian's package) driven by Playwright.

Creates a Yukon match from the lobby form (after a config error shown in the form), plays
the whole game against a bot by clicking the board (the legal-move list only where a
choice is not on the board), opens the replay and the verify page; plays one Eurorails
turn when Eurorails is registered. Screenshots go to ``$MOTHERLODE_SCREENSHOTS`` (default:
the test's temporary directory).

Skipped when ``/usr/bin/chromium`` or the ``playwright`` package is missing; Playwright
never downloads a browser here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import motherlode
from tests.server.conftest import LiveServer

CHROMIUM = os.environ.get("MOTHERLODE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("MOTHERLODE_SCREENSHOTS", tmp_path / "screenshots"))
    out.mkdir(parents=True, exist_ok=True)
    return out


def _play_my_turns(page: Any, until_over: bool, limit: int = 400) -> tuple[int, int]:
    """Click until the game ends, or ``limit`` clicks (or, if not ``until_over``, until my
    turn passes); ``(clicks on the board, clicks in the move list)``."""
    board_clicks = list_clicks = 0
    for _ in range(limit):
        page.wait_for_function(
            "() => { const m = document.getElementById('match');"
            " return m.dataset.terminal === 'true' || m.classList.contains('my-turn'); }",
            timeout=30_000,
        )
        root = page.locator("#match")
        if root.get_attribute("data-terminal") == "true":
            return board_clicks, list_clicks
        version = root.get_attribute("data-version")
        targets = page.locator("#board [data-action].clickable")
        if targets.count():
            # a zoomable board (zoom.js) may show a part of itself: show it whole first
            page.evaluate("() => window.motherlodeZoom && window.motherlodeZoom.reset()")
            try:
                targets.first.click(timeout=2000)
            except sync_api.TimeoutError:  # covered by another clickable (a dense map)
                targets.first.click(force=True)
            board_clicks += 1
        else:
            page.locator("#legal button").first.click()
            list_clicks += 1
        page.wait_for_function(
            f"() => document.getElementById('match').dataset.version !== '{version}'",
            timeout=30_000,
        )
        if not until_over and "my-turn" not in (root.get_attribute("class") or ""):
            return board_clicks, list_clicks
    if until_over:
        raise AssertionError("too many clicks")
    return board_clicks, list_clicks


def test_lobby_to_a_whole_yukon_game_against_a_bot(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 960})
    page.goto(live_server.url + "/")
    page.screenshot(path=str(shots / "01-lobby.png"), full_page=True)
    page.click("a.game[href='/new?game=yukon']")
    page.fill("#opt-pan_discs", "1,2")
    page.click("button[type=submit]")
    error = page.locator(".error").first.inner_text()
    assert "pan_discs must be 9 positive integers" in error
    page.screenshot(path=str(shots / "02-form-error.png"), full_page=True)
    page.fill("#opt-pan_discs", "")
    page.select_option("select[name=seat1_kind]", "bot")
    page.fill("input[name=seat1_spec]", "greedy")
    page.fill("input[name=seat0_name]", "Ada")
    page.click("button[type=submit]")
    page.screenshot(path=str(shots / "03-created.png"), full_page=True)
    page.click("a[data-seat-link='0']")
    page.wait_for_selector("#conn.live")
    page.wait_for_function("() => document.getElementById('match').dataset.version")
    page.screenshot(path=str(shots / "04-match-start.png"), full_page=True)
    assert "you are Ada" in page.inner_text("#whoami")
    # before the first move too, the set-up's 49 deals are one line of the log
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    assert page.locator("#log li").count() == 1
    assert page.locator("#log li").first.inner_text().endswith("the set-up is dealt (49 draws)")
    board, listed = _play_my_turns(page, until_over=False, limit=8)
    page.screenshot(path=str(shots / "05-match-mid-game.png"), full_page=True)
    more_board, more_listed = _play_my_turns(page, until_over=True)
    board, listed = board + more_board, listed + more_listed
    assert board > 5, (board, listed)
    turn = page.inner_text("#turn")
    assert turn.startswith("Game over"), turn
    assert "Seed (revealed)" in page.inner_text("#seed")
    page.screenshot(path=str(shots / "06-match-over.png"), full_page=True)
    match_url = page.url.split("#")[0]
    page.goto(match_url + "/replay")
    page.wait_for_selector("#board svg")
    # a replay opens at the first real move, the set-up's 49 deals folded into one line
    assert page.inner_text("#where").startswith("step 49 / ")
    assert (
        page.locator("#replay-log li").first.inner_text().endswith("the set-up is dealt (49 draws)")
    )
    page.click("#first")
    assert page.inner_text("#where") == "before the set-up"
    page.click("#next")
    page.wait_for_function(
        "() => document.getElementById('where').textContent === 'set-up, draw 1 of 49'"
    )
    page.screenshot(path=str(shots / "07-replay.png"), full_page=True)
    page.goto(match_url + "/verify")
    assert page.inner_text("#verdict").startswith("verified")
    page.screenshot(path=str(shots / "08-verify.png"), full_page=True)
    page.goto(live_server.url + "/")
    assert page.locator("table.matches").count() >= 1
    page.screenshot(path=str(shots / "09-lobby-after.png"), full_page=True)
    page.close()


@pytest.mark.skipif("eurorails" not in motherlode.games(), reason="Eurorails is not registered")
def test_one_eurorails_turn(browser: Any, live_server: LiveServer, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(live_server.url + "/new?game=eurorails")
    page.select_option("#opt-players", "2")
    page.select_option("select[name=seat0_kind]", "human")
    page.select_option("select[name=seat1_kind]", "bot")
    page.click("button[type=submit]")
    page.click("a[data-seat-link='0']")
    page.wait_for_selector("#conn.live")
    page.screenshot(path=str(shots / "10-eurorails-start.png"), full_page=True)
    _play_my_turns(page, until_over=False, limit=200)
    page.screenshot(path=str(shots / "11-eurorails-after-turn.png"), full_page=True)
    page.add_style_tag(content=".details { max-height: none !important; }")
    assert not page.locator("#details").is_visible()  # folded away until asked for
    page.click("#details-box > summary")
    page.locator("#details").screenshot(path=str(shots / "12-eurorails-details.png"))
    details = page.inner_text("#details")
    assert "hand" in details and "cash" in details and "loads" in details
    assert page.locator("#log li").count() > 0
    page.close()


@pytest.mark.skipif("eurorails" not in motherlode.games(), reason="Eurorails is not registered")
def test_a_route_command_is_previewed_on_the_first_click_and_built_on_the_second(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """commands.js (no game knowledge): an element with data-command asks for the preview,
    draws the engine's overlay and a confirm bar; the second click sends the command."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    made = page.request.post(
        live_server.url + "/api/matches",
        data={
            "game": "eurorails",
            "config": {"players": 2, "first_player": 0},
            "seats": [{"kind": "human"}, {"kind": "bot", "spec": "greedy"}],
        },
    ).json()
    token = next(s["token"] for s in made["seats"] if s["seat"] == 0)
    page.goto(f"{live_server.url}/m/{made['id']}#t={token}")
    page.wait_for_selector("#match.my-turn")

    def target(command: str) -> Any:
        page.evaluate(
            """(command) => {
                const svg = document.querySelector('#board svg');
                const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
                const v = svg.viewBox.baseVal;  // the middle of the view, zoomed or not
                c.setAttribute('cx', String(v.x + v.width / 2));
                c.setAttribute('cy', String(v.y + v.height / 2));
                c.setAttribute('r', String(v.width / 30));
                c.setAttribute('data-command', command); c.setAttribute('id', 'cmd-target');
                svg.appendChild(c);
            }""",
            command,
        )
        return page.locator("#cmd-target")

    target("build to Atlantis").click()
    page.wait_for_selector("#message:not([hidden])")
    assert "no place called 'Atlantis'" in page.inner_text("#message")
    page.evaluate("document.getElementById('cmd-target').remove()")
    version = page.get_attribute("#match", "data-version")
    target("build Paris-Lyon").click()
    page.wait_for_selector("#command-overlay line")
    assert page.locator("#command-overlay line").count() == 9
    assert page.inner_text("#command-summary") == "P1 builds Paris–Lyon: 9 mileposts, 11 M"
    assert page.get_attribute("#match", "data-version") == version  # not a move
    page.screenshot(path=str(shots / "20-eurorails-route-preview.png"))
    page.locator("#cmd-target").click(force=True)  # the second click builds it
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some("
        "li => li.textContent.includes('P1 builds Paris–Lyon (9 mileposts, 11 M)'))",
        timeout=30_000,
    )
    assert page.locator("#command-overlay").count() == 0
    assert page.locator("#command-bar").is_hidden()
    page.screenshot(path=str(shots / "21-eurorails-route-built.png"))
    page.close()


def test_pushes_come_deflated_where_the_browser_inflates_and_as_text_where_it_cannot(
    browser: Any, live_server: LiveServer
) -> None:
    """P1's page (Chromium has DecompressionStream) asks for compressed pushes and gets
    binary frames; P2's page, without DecompressionStream, gets text: after P1's move
    both draw the same board (the public layer) from what they got."""
    import httpx

    body = {"game": "yukon", "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = httpx.post(live_server.url + "/api/matches", json=body, timeout=30).json()
    links = {s["seat"]: s["link"] for s in created["seats"]}
    frames: dict[int, list[type]] = {0: [], 1: []}
    pages = {}
    for seat in (0, 1):
        context = browser.new_context()
        if seat == 1:  # an older browser
            context.add_init_script("delete window.DecompressionStream;")
        page = context.new_page()
        page.on(
            "websocket",
            lambda ws, seat=seat: ws.on(
                "framereceived", lambda payload: frames[seat].append(type(payload))
            ),
        )
        page.goto(links[seat].replace("http://testserver", live_server.url))
        page.wait_for_selector("#conn.live")
        page.wait_for_function("() => document.getElementById('match').dataset.version")
        pages[seat] = page
    before = pages[1].locator("#match").get_attribute("data-version")
    _play_my_turns(pages[0], until_over=False, limit=1)
    pages[1].wait_for_function(
        f"() => document.getElementById('match').dataset.version !== '{before}'"
    )
    public = "() => document.getElementById('layer-public').innerHTML"
    assert pages[0].evaluate(public) == pages[1].evaluate(public)
    assert bytes in frames[0] and bytes not in frames[1] and str in frames[1]
    for page in pages.values():
        page.context.close()

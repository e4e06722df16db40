"""What a person checking the pages found (issue 21), pinned in a real browser (Playwright,
Debian's Chromium): a refused move in the player's words with its rulebook section, the
board playable by keyboard, a spectator's Yukon board without the moves' tooltips, Yukon's
status naming the line to take from, a tall board (El Dorado's sheets) drawn at the
column's width, the new-match form's errors short, seats named P1..Pn there
too. Screenshots go to ``$MOTHERLODE_SCREENSHOTS`` (default: the test's temporary
directory).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import LiveServer
from tests.server.test_browser import browser, shots  # noqa: F401  (fixtures)


def _create(server: LiveServer, game: str, config: dict[str, Any], humans: int = 1) -> Any:
    players = int(config.get("players", 2))
    seats = [{"kind": "human", "name": f"H{i + 1}"} for i in range(humans)] + [
        {"kind": "bot", "spec": "greedy"} for _ in range(players - humans)
    ]
    r = httpx.post(
        server.url + "/api/matches",
        json={"game": game, "config": config, "seats": seats},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


def test_yukon_refusal_keyboard_and_spectator(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    m = _create(live_server, "yukon", {"players": 2})
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{live_server.url}/m/{m['id']}#t={m['seats'][0]['token']}")
    page.wait_for_function("() => document.getElementById('match').classList.contains('my-turn')")
    # the board's status names the line ("Next take: row 4 or column d"), not "row"/"col"
    status = page.text_content("#board #status") or ""
    assert status.startswith("Next take: row ") and " or column " in status, status
    # a refused move: the reason and the rulebook section, no error code, no position
    page.evaluate(
        "() => window.motherlode.send({type: 'move', action: 'zz1',"
        " version: Number(document.getElementById('match').dataset.version)})"
    )
    page.wait_for_selector("#message:not([hidden])")
    message = page.inner_text("#message")
    assert not message.startswith("invalid_move"), message
    assert message.startswith("Cannot read action 'zz1'"), message
    legal = page.eval_on_selector_all("#legal button", "bs => bs.map(b => b.dataset.action)")
    illegal = next(a for a in ("a1", "b2", "g7", "a7", "g1") if a not in legal)
    page.evaluate(
        f"() => window.motherlode.send({{type: 'move', action: '{illegal}',"
        " version: Number(document.getElementById('match').dataset.version)})"
    )
    page.wait_for_function(
        f"() => document.getElementById('message').textContent.includes(\"'{illegal}'\")"
    )
    message = page.inner_text("#message")
    assert message.startswith(f"Illegal action '{illegal}' for P1: "), message
    assert message.endswith("(rulebook: Playing the Game)"), message
    page.screenshot(path=str(shots / "person-yukon-refusal.png"), full_page=True)
    # by keyboard: every clickable card is a focusable button with a label; Enter plays it
    targets = page.locator("#board [data-action]")
    assert targets.count() >= 2
    for i in range(targets.count()):
        node = targets.nth(i)
        assert node.get_attribute("tabindex") == "0" and node.get_attribute("role") == "button"
        assert (node.get_attribute("aria-label") or "").startswith("take "), node.get_attribute(
            "aria-label"
        )
    version = page.locator("#match").get_attribute("data-version")
    targets.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.getElementById('match').dataset.version !== '{version}'"
    )
    # a spectator: no action, and no action's tooltip left on the board's cards
    spectator = browser.new_page(viewport={"width": 1400, "height": 900})
    spectator.goto(f"{live_server.url}/m/{m['id']}?watch")
    spectator.wait_for_function("() => document.getElementById('match').dataset.version")
    spectator.wait_for_function("() => document.querySelector('#board #status')")
    assert spectator.locator("#board [data-action]").count() == 0
    titles = spectator.eval_on_selector_all(
        "#board title", "nodes => nodes.map(n => n.textContent)"
    )
    assert not [t for t in titles if t.startswith("take ")], titles
    assert spectator.locator("#moves-card").is_hidden()
    spectator.screenshot(path=str(shots / "person-yukon-spectator.png"), full_page=True)


def test_a_tall_board_is_drawn_at_the_columns_width(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    m = _create(live_server, "eldorado", {"players": 3})
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{live_server.url}/m/{m['id']}#t={m['seats'][0]['token']}")
    page.wait_for_function("() => document.getElementById('match').classList.contains('my-turn')")
    svg = page.locator("#board svg")
    assert "tall" in (svg.get_attribute("class") or "")
    box = svg.bounding_box()
    assert box is not None and box["width"] > 800, box  # not shrunk to 84% of 900 px high
    page.screenshot(path=str(shots / "person-eldorado-tall.png"), full_page=True)
    # a board that is not tall keeps to the window's height
    y = _create(live_server, "yukon", {"players": 2})
    page.goto(f"{live_server.url}/m/{y['id']}?watch")
    page.wait_for_function("() => document.getElementById('match').dataset.version")
    assert "tall" not in (page.locator("#board svg").get_attribute("class") or "")


def _card_box(page: Any, *places: str) -> Any:
    """Where the card of the first of ``places`` that holds one is drawn (its frame, the
    card's ``rx="8"`` rectangle): the Prospector's place holds none, and the first
    rectangle there is the brim of its hat."""
    for place in places:
        frame = page.locator(f"#board #{place} rect[rx='8']")
        if frame.count():
            box = frame.first.bounding_box()
            assert box is not None
            return box
    raise AssertionError(f"no card at any of {places}")


def test_yukons_grid_takes_a_phones_width_and_its_panel_goes_under_it(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    """static/layout.js and Yukon's narrow layout (issue 21): on a 390 x 844 phone the
    grid is drawn at the page's width (a card at least 40 px wide, was 26) with the
    players' panel under it; on a desktop window the panel stays right of the grid; the
    replay page does the same."""
    m = _create(live_server, "yukon", {"players": 2})
    url = f"{live_server.url}/m/{m['id']}#t={m['seats'][0]['token']}"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#board svg[data-layout=narrow]')")
    page.wait_for_function("() => document.getElementById('match').classList.contains('my-turn')")
    card = _card_box(page, "a1", "b1")
    right = _card_box(page, "g7", "g6")  # (the grid's last column)
    bottom = _card_box(page, "g7", "f7")  # (its last row)
    status = page.locator("#board #status").bounding_box()
    board = page.locator("#board svg").bounding_box()
    assert status and board
    assert card["width"] >= 40, card
    assert right["x"] + right["width"] <= 390 and board["width"] <= 390
    assert status["y"] > bottom["y"] + bottom["height"]  # under the grid
    assert status["x"] < right["x"]  # back at the left
    page.locator("#board").screenshot(path=str(shots / "person-yukon-phone.png"))
    page.set_viewport_size({"width": 1400, "height": 900})  # the window widened: as drawn
    page.wait_for_function("() => document.querySelector('#board svg[data-layout=wide]')")
    status = page.locator("#board #status").bounding_box()
    right = _card_box(page, "g7", "g6")
    assert status and status["x"] > right["x"] + right["width"]
    page.locator("#board").screenshot(path=str(shots / "person-yukon-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.querySelector('#board svg[data-layout=narrow]')")
    version = int(page.get_attribute("#match", "data-version") or "0")
    page.click("#board #" + (page.get_attribute("#board [data-action]", "id") or ""))
    page.wait_for_function(  # a move patches the board: the panel stays under the grid
        "v => Number(document.getElementById('match').dataset.version) > v"
        " && document.querySelectorAll('#board [data-side][transform]').length >= 5",
        arg=version,
    )


def test_chinagolds_areas_are_named_and_its_hexagon_takes_a_phones_width(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    """Chinagold's mountains and rivers written on the board (A..Q, a..q), and on a phone
    the panel and legend under the hexagon (issue 21)."""
    m = _create(live_server, "chinagold", {})
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/m/{m['id']}?watch")
    page.wait_for_function("() => document.querySelector('#board svg[data-layout=narrow]')")
    page.wait_for_function("() => document.querySelector('#board #area-labels')")
    letters = page.eval_on_selector_all(
        "#board #area-labels text", "ts => ts.map(t => t.textContent)"
    )
    assert sorted(letters) == sorted("ABCDEFGHIJKLMNOPQabcdefghijklmnopq")
    panel = page.locator("#board #panel").bounding_box()
    k6 = page.locator("#board #k6").bounding_box()
    assert panel and k6
    assert panel["y"] > k6["y"] + k6["height"]  # under the hexagon
    page.locator("#board").screenshot(path=str(shots / "person-chinagold-phone.png"))


def test_the_new_match_form_speaks_in_words(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
) -> None:
    finished = _create(live_server, "yukon", {"players": 2}, humans=0)
    for _ in range(120):  # two greedy bots end a Yukon game in seconds
        state = httpx.get(f"{live_server.url}/api/matches/{finished['id']}", timeout=30).json()
        if state.get("terminal"):
            break
        time.sleep(0.5)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    row = page.locator("tr", has=page.locator(f"a[href='/m/{finished['id']}/replay']"))
    scores = row.locator("td").nth(3).inner_text()
    assert re.fullmatch(r"-?\d+ / -?\d+", scores), scores  # whole points, not "22.0"
    assert "2 players" in page.inner_text("a.game[href='/new?game=chinagold']")
    assert "2-2" not in page.inner_text(".games")
    page.goto(live_server.url + "/new?game=yukon")
    assert page.inner_text("label[for=opt-first_player]") == "first player"
    options = page.eval_on_selector_all(
        "#opt-first_player option", "os => os.map(o => [o.value, o.textContent, o.hidden])"
    )
    assert options[:2] == [["0", "P1", False], ["1", "P2", False]]
    assert all(hidden for _, _, hidden in options[2:])  # 2 players: P3 and P4 not offered
    page.select_option("select[name=seat1_kind]", "bot")
    page.fill("input[name=seat1_spec]", "nonsense")
    page.select_option("#clock-kind", "fischer")
    page.fill("#clock-base_minutes", "-3")
    page.click("button[type=submit]")
    errors = page.locator(".error").all_inner_texts()
    agent = next(e for e in errors if "nonsense" in e)
    assert len(agent) < 200 and "a bot is one of: easy, medium, hard, strongest" in agent, agent
    assert "Input should be greater than 0.04" in errors, errors  # every error at once
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing wider than the phone
    page.screenshot(path=str(shots / "person-new-errors-phone.png"), full_page=True)

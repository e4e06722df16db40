"""Every game's end as a spectator sees it in a real browser (Playwright, Debian's Chromium).

For each game a bot-against-bot match is watched from the spectator link until it ends:
the page must show the game-over screen with the summary table (the reason, one row per
seat with its score, the winners), the narrated log (sentences naming seats P1..Pn, not
raw action notation), and no action buttons anywhere — a spectator never gets any.
Screenshots go to ``$MOTHERLODE_SCREENSHOTS`` (default: the test's temporary directory).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

import motherlode
from tests.server.conftest import LiveServer
from tests.server.test_browser import browser, shots  # noqa: F401  (fixtures)

# short games: each ends in seconds with greedy bots and no bot delay
MATCHES = [
    ("yukon", {"players": 2}),
    ("chinagold", {"players": 2, "max_turns": 40}),
    ("eureka", {"players": 3, "max_turns": 60}),
    ("eldorado", {"players": 2, "max_rounds": 6}),
    ("eurorails", {"players": 2, "turn_limit": 6}),
]


def _create(server: LiveServer, game: str, config: dict[str, Any]) -> str:
    seats = [{"kind": "bot", "spec": "greedy"} for _ in range(int(config["players"]))]
    r = httpx.post(
        server.url + "/api/matches",
        json={"game": game, "config": config, "seats": seats},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


@pytest.mark.parametrize(("game", "config"), MATCHES, ids=[g for g, _ in MATCHES])
def test_a_spectator_sees_the_end_explained_and_no_buttons(
    browser: Any,  # noqa: F811
    live_server: LiveServer,
    shots: Path,  # noqa: F811
    game: str,
    config: dict[str, Any],
) -> None:
    if game not in motherlode.games():
        pytest.skip(f"{game} is not registered")
    match_id = _create(live_server, game, config)
    for width, height, tag in ((1400, 900, "desktop"), (390, 844, "phone")):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{live_server.url}/m/{match_id}?watch")
        page.wait_for_function(
            "() => document.getElementById('match').dataset.terminal === 'true'",
            timeout=120_000,
        )
        page.wait_for_selector("#summary:not([hidden])")
        reason = page.inner_text("#summary-reason")
        assert reason.startswith("The game is over: ") and len(reason) > 25, reason
        rows = page.locator("#summary-table tr")
        seat_rows = [rows.nth(i).inner_text() for i in range(rows.count())]
        for seat in range(1, int(config["players"]) + 1):
            assert any(f"P{seat}" in row for row in seat_rows), (seat, seat_rows)
        # exactly the engine's summary, as the API gives it to a spectator
        summary = httpx.get(f"{live_server.url}/api/matches/{match_id}", timeout=30).json()[
            "summary"
        ]
        assert reason == f"The game is over: {summary['reason']}."
        assert page.inner_text("#summary-winners") == summary["lines"][-1]
        assert summary["lines"][-1].startswith(("Winner", "Shared victory", "Tie"))
        assert page.inner_text("#turn").startswith("Game over")
        # a spectator has no buttons: no legal-move list, nothing clickable on the board
        assert page.locator("#legal button").count() == 0
        assert page.locator("#board [data-action]").count() == 0
        assert page.locator("#undo").is_disabled() or not page.locator("#undo").is_visible()
        assert page.locator("#rematch-card").is_hidden()  # nothing a spectator could press
        # the log narrates: sentences naming seats, not bare notation
        log = [t for t in page.locator("#log li").all_inner_texts() if t.strip()]
        assert len(log) >= 3, log
        assert sum(" P1" in f" {t}" or " P2" in f" {t}" for t in log) >= len(log) // 2, log
        page.screenshot(path=str(shots / f"end-{game}-{tag}.png"), full_page=True)
        page.close()

"""``motherlode play eurorails`` through a pseudo-terminal with route commands: the two
building turns and an operating turn, each command previewed and confirmed, a bot's turn
in one line, wrong input once, and ``undo`` taking back a whole command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.terminal.test_play_terminal import PROMPT, answer, spawn

pexpect = pytest.importorskip("pexpect")

CONFIRM = "confirm? (y = yes, n = no, or change it) "


def ask(child: pexpect.spawn, text: str) -> str:
    """Type a command; what its preview printed up to the confirmation question."""
    child.sendline(text)
    child.expect_exact(CONFIRM)
    return str(child.before)


def test_two_building_turns_and_an_operating_turn_with_route_commands(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    child = spawn(
        "play",
        "eurorails",
        "--seat",
        "human",
        "--seat",
        "greedy",
        "--seed",
        "3",
        "--first-player",
        "0",
        "--record",
        str(saved),
        cwd=tmp_path,
    )
    child.expect_exact(PROMPT)
    out = answer(child, "help")
    assert "build Paris-Lyon   the cheapest track between two places" in out
    out = answer(child, "build to Atlantis")  # the wrong input
    assert "eurorails: no place called 'Atlantis'" in out
    # building turn 1
    out = ask(child, "build Paris-Lyon")
    assert "P1 builds Paris–Lyon: 9 mileposts, 11 M" in out
    assert "now: 9 mileposts for 11 M; 9 M left this turn" in out
    out = answer(child, "y")
    assert "P1 (red): 39M" in out and "9 segments" in out
    out = answer(child, "undo")  # the whole command is one step
    assert "P1 takes back 9 step(s)." in out and "P1 (red): 50M" in out
    ask(child, "build Paris-Lyon")
    answer(child, "y")
    ask(child, "end")
    out = answer(child, "y")
    assert "P1 ends the turn" in out
    # the switchback: the bot's two building turns, one line each
    assert out.count("P2 (greedy) builds ") == 2, out
    assert "ends the turn\r\nP2 (greedy) builds" in out.replace("\r\n    ", " ")
    # building turn 2: a preview changed for another command, then confirmed
    out = ask(child, "build to Marseille")
    assert "P1 builds Lyon–Marseille: 7 mileposts, 11 M" in out
    out = answer(child, "n")
    assert "not done" in out
    ask(child, "build to Marseille")
    out = answer(child, "y")
    assert "P1 (red): 28M" in out and "16 segments" in out
    ask(child, "end")
    out = answer(child, "y")
    assert "move phase, round 1, to move: P1" in out
    # the operating turn
    out = answer(child, "start Paris")
    assert "P1 puts its train in Paris" in out
    out = ask(child, "move to Marseille")
    assert "P1 moves Paris–AD46: 9 mileposts" in out
    assert "the movement ends at AD46; 8 more mileposts in a later turn" in out
    out = answer(child, "y")
    assert "Freight at AD46" in out
    ask(child, "end")
    out = answer(child, "y")
    out = answer(child, "log")
    assert "P1 builds Paris–Lyon: 9 mileposts, 11 M" in out
    assert "P1 moves Paris–AD46: 9 mileposts" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)
    record = json.loads(saved.read_text())
    actions = record["actions"]
    # the record keeps the atomic actions: Paris-Lyon's nine builds, the nine moves
    lyon = actions.index("build AD46>Lyon")
    assert all(a.startswith("build ") for a in actions[lyon - 8 : lyon + 1])
    start = actions.index("start Paris")
    assert [a.split()[0] for a in actions[start + 1 : start + 11]] == ["move"] * 9 + ["end"]

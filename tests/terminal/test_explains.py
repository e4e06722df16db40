"""The terminal game explains itself (issue 21, the check by a person): ``help`` states the
decision in front of the player with its rulebook section, a refused move cites the
section, the board is coloured with the places that may be taken highlighted, a recalled
line (the up arrow) is drawn after the prompt, not over it, and a long menu is grouped so
that a move can be typed by its end ('c4-c7' for 'turn c4-c7'). Driven through a
pseudo-terminal (pexpect), as a person plays."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from tests.terminal.test_play_terminal import PROMPT, answer, spawn
from tests.tools.signals import ctrl_c_restored

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def yukon(tmp_path: Path, term: str = "dumb") -> pexpect.spawn:
    if term == "dumb":
        child = spawn("play", "yukon", "--seat", "human", "--seat", "greedy", "--seed", "4",
                      "--record", str(tmp_path / "r.json"), cwd=tmp_path)
    else:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "motherlode.cli", "play", "yukon", "--seat", "human", "--seat", "greedy",
             "--seed", "4", "--record", str(tmp_path / "r.json")],
            cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(60, 140),
            env={"COLUMNS": "140", "TERM": term,
                 "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
            preexec_fn=ctrl_c_restored,
        )
    child.expect_exact(PROMPT)
    return child


def test_help_states_the_decision_and_its_rule_and_a_refusal_cites_the_rulebook(
    tmp_path: Path,
) -> None:
    child = yukon(tmp_path)
    out = " ".join(answer(child, "help").split())
    assert (
        "Now: P1 takes a card from row 7 or column c; the Prospector moves onto its place,"
        " and the next player must take at right angles (rulebook: Playing the Game)." in out
    )
    out = " ".join(answer(child, "a1").split())
    assert (
        "yukon: illegal action 'a1' for P1: a1 is not in the Prospector's row or column"
        " (the Prospector is at c7) (rulebook: Playing the Game)" in out
    )
    assert "+3" not in out  # a refusal never prints the position
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_up_arrow_redraws_the_recalled_line_after_the_prompt(tmp_path: Path) -> None:
    child = yukon(tmp_path)
    answer(child, "undo")
    answer(child, "log")
    child.send("\x1b[A\x1b[A")  # up twice: 'undo', longer than 'log', comes back
    time.sleep(1)
    with pytest.raises(pexpect.TIMEOUT):
        child.expect_exact("never printed", timeout=1)
    recalled = str(child.before)
    # drawn where 'log' was (readline knows the prompt): backspaces, no carriage return
    # that would write 'undo' over 'P1> '
    assert recalled.endswith("log\b\b\bundo"), repr(recalled[-40:])
    assert "\rundo" not in recalled
    child.sendline("")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_colour_terminal_highlights_the_cards_that_may_be_taken(tmp_path: Path) -> None:
    child = yukon(tmp_path, term="xterm-256color")
    board = str(child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    rows = [line for line in board.splitlines() if ANSI.sub("", line).startswith("   7 ")]
    assert rows, board
    row7 = rows[-1]
    # the Prospector stands at c7: the rest of row 7 may be taken (green), and each card
    # shows gold (yellow) or pebble (grey) elsewhere
    takes = re.findall(r"\x1b\[[0-9;]*48;5;40m([+-]\d+)", row7)
    assert len(takes) == 6, repr(row7)
    plain = ANSI.sub("", board)
    assert "   7 " in plain and "@" in plain


def test_a_dumb_terminal_gets_the_board_without_colour(tmp_path: Path) -> None:
    child = yukon(tmp_path)
    assert "\x1b[" not in str(child.before).split("the set-up is dealt")[1]
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_chinagold_lines_are_typed_by_their_ends_and_listed_by_row(tmp_path: Path) -> None:
    child = spawn("play", "chinagold", "--seat", "human", "--seat", "greedy", "--seed", "5",
                  "--record", str(tmp_path / "r.json"), cwd=tmp_path)
    child.expect_exact(PROMPT)
    menu = " ".join(str(child.before).split())
    assert "turn (174): 1) turn a6-a9" in menu
    assert "list turn a (15), list turn b (18), list turn c (21)" in menu
    listed = answer(child, "list turn c")
    assert "turn c4-c7" in listed and "turn c11-f11" in listed and "turn d3-d6" not in listed
    out = " ".join(answer(child, "help").split())
    assert "Now: P1 (mountains) turns 4 face-down markers next to one another" in out
    assert "(rulebook: Prospecting for Gold)" in out
    out = " ".join(answer(child, "c4-c8").split())  # 5 markers for a throw of 4
    assert "illegal action 'turn c4-c8' for P1: the throw is 4: exactly 4 markers" in out
    assert "(rulebook: Prospecting for Gold)" in out
    out = answer(child, "c4-c7")
    assert "c4-c7 = turn c4-c7" in out and "P1 turns c4–c7" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_eurekas_move_is_typed_by_its_hex(tmp_path: Path) -> None:
    child = spawn("play", "eureka", "--seat", "human", "--seat", "greedy", "--seat", "greedy",
                  "--seed", "5", "--record", str(tmp_path / "r.json"), cwd=tmp_path)
    child.expect_exact(PROMPT)
    out = " ".join(answer(child, "help").split())
    assert "Now: P1 throws the die (roll) or passes (pass)" in out
    out = answer(child, "roll")
    assert "P1 throws a 5: the miner moves exactly 5 hexes" in out
    out = " ".join(answer(child, "help").split())
    assert "Now: P1 moves the miner exactly 5 hexes" in out and "(rulebook: The Die)" in out
    out = " ".join(answer(child, "a1").split())
    assert "illegal action 'move a1' for P1: a1 is not exactly 5 hexes away" in out
    assert "(rulebook: The Die)" in out
    out = answer(child, "g13")
    assert "g13 = move g13" in out and "P1's miner moves to g13" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)

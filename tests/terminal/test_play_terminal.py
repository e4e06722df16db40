"""``motherlode play`` driven through a pseudo-terminal, as a person plays it: commands
beside moves (help, hint, undo, board, log, list), wrong input and special keys, Ctrl-C
saving the game, ``--resume`` continuing it, and a game played to its end."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.tools.signals import ctrl_c_restored

pexpect = pytest.importorskip("pexpect")

PROMPT = "\r\nP1> "


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable, ["-m", "motherlode.cli", *args], cwd=str(cwd), encoding="utf-8",
        timeout=60, dimensions=(60, 140), env={"COLUMNS": "140", "TERM": "dumb",
                                              "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
        preexec_fn=ctrl_c_restored,
    )
    return child


def answer(child: pexpect.spawn, text: str) -> str:
    """Type ``text`` and Enter at the prompt; what was printed up to the next prompt."""
    child.sendline(text)
    child.expect_exact(PROMPT)
    return str(child.before)


def test_help_wrong_input_undo_log_and_ctrl_c_save_then_resume(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    child = spawn("play", "yukon", "--seat", "human", "--seat", "greedy", "--seed", "4",
                  "--record", str(saved), cwd=tmp_path)
    child.expect_exact("P1, your move ('help' for help):")
    child.expect_exact(PROMPT)
    out = answer(child, "help")
    assert "P1 to move in yukon: 12 legal moves: c1, c2, c3" in out
    for command in ("rules", "hint", "undo", "board", "log", "list [KIND]", "save [FILE]"):
        assert command in out
    out = answer(child, "zzz")
    assert "yukon: cannot read action 'zzz'" in out and "'help' lists the commands" in out
    assert "pick a number from 1 to 12" in answer(child, "99")
    out = answer(child, "\x1b[A")  # the up arrow recalls the last line (readline's history)
    assert "99" in out and "pick a number from 1 to 12" in out
    assert "there is no move of yours to take back yet" in answer(child, "undo")
    out = answer(child, "1")  # c1; the greedy bot answers
    assert "P1 takes c1 (+3 gold)" in out and "P2 takes b1" in out
    out = answer(child, "undo")
    assert "P1 takes back 2 step(s)." in out
    out = answer(child, "log")
    assert "1. the set-up is dealt (49 draws)" in out and "P1 takes c1" not in out
    answer(child, "c2")
    time.sleep(0.5)  # the prompt is printed a moment before input() waits on it
    child.sendintr()  # Ctrl-C at the prompt saves the game
    child.expect_exact(f"motherlode play yukon --resume {saved}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads(saved.read_text())
    assert record["scores"] is None and record["players"] == ["human", "greedy"]
    assert record["actions"][49] == "c2" and len(record["actions"]) == 51

    child = spawn("play", "--resume", str(saved), cwd=tmp_path)
    child.expect_exact("Resumed after 51 steps.")
    child.expect_exact(PROMPT)
    out = answer(child, "log")
    assert "1. the set-up is dealt (49 draws)" in out and "2. P1 takes c2" in out
    child.sendeof()  # Ctrl-D saves too
    child.expect_exact("game saved to")
    child.expect(pexpect.EOF)


def test_a_hint_names_the_bots_move_and_its_top_moves(tmp_path: Path) -> None:
    child = spawn("play", "yukon", "--seat", "human", "--seat", "random", "--seed", "4",
                  "--record", str(tmp_path / "r.json"), cwd=tmp_path)
    child.expect_exact(PROMPT)
    out = answer(child, "hint")
    assert "thinking (the strongest bot, mcts:iterations=12000,seconds=2)" in out
    assert "hint: " in out
    assert "visits" in out and "simulated games" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_whole_game_ends_with_its_summary_and_record(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    child = spawn("play", "chinagold", "--seat", "human", "--seat", "greedy", "--seed", "2",
                  "--max-turns", "4", "--record", str(record), cwd=tmp_path)
    for _ in range(400):
        i = child.expect_exact([PROMPT, "The game is over: "])
        if i == 1:
            break
        child.sendline("1")
    else:
        raise AssertionError("the game did not end")
    child.expect_exact("Result: ")
    assert "P1" in str(child.before) and "P2 (greedy)" in str(child.before)  # the table
    child.expect_exact("record saved to")
    child.expect(pexpect.EOF)
    assert json.loads(record.read_text())["scores"] is not None


def test_long_menus_are_grouped_by_kind(tmp_path: Path) -> None:
    child = spawn("play", "chinagold", "--seat", "human", "--seat", "greedy", "--seed", "2",
                  "--record", str(tmp_path / "r.json"), cwd=tmp_path)
    child.expect_exact(PROMPT)
    menu = str(child.before)
    lines = [line for line in menu.splitlines() if ")" in line]
    assert len(lines) < 20, menu  # not 174 numbered lines
    assert "'list KIND' shows one kind" in menu
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_output_paths_are_checked_before_the_game_starts(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for option, value, problem in [
        ("--record", str(tmp_path), "is a directory; give a file name"),
        ("--record", str(tmp_path / "file" / "r.json"), "is a file, not a folder"),
        ("--svg", str(tmp_path), "is a directory"),
    ]:
        child = spawn("play", "yukon", "--seat", "random", "--seat", "random", option, value,
                      cwd=tmp_path)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2
        assert problem in str(child.before) and "Traceback" not in str(child.before)


def test_without_line_editing_a_special_key_is_explained(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from motherlode.cli import app

    result = CliRunner().invoke(
        app, ["play", "yukon", "--seat", "human", "--seat", "greedy", "--seed", "4",
              "--record", str(tmp_path / "r.json")], input="\x1b[A\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "that was a special key, not a move" in result.output
    assert "game saved to" in result.output


# -- chance in one line (issue 21: "the log collapses a set-up deal into one line") ----------


def printed_lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]


# seed 4: the record's steps 26-32 (roll d0=map ... roll d6=signpost), one sentence that
# rich wraps at 80 columns (a dumb terminal's width) into these two printed lines
ROLL_IN_ROUND_3 = [
    "all seven dice are rolled: a map, a map, a paddle, an amulet, a paddle, a",
    "paddle, a signpost",
]


def test_el_dorados_dice_are_one_line_at_the_set_up_and_each_roll(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    child = spawn(
        "play",
        "eldorado",
        "--seat",
        "human",
        "--seat",
        "greedy",
        "--seed",
        "4",
        "--record",
        str(record),
        cwd=tmp_path,
    )
    child.expect_exact(PROMPT)
    first = printed_lines(str(child.before))
    assert first[0] == "the set-up is dealt (7 draws)"
    assert not any("dice are rolled" in line for line in first)
    seen: list[str] = []
    for _ in range(40):  # P1 always picks the first move until the middle is rolled again
        seen = printed_lines(answer(child, "1"))
        if any(line.startswith("all seven dice are rolled") for line in seen):
            break
    else:
        raise AssertionError("no roll of the dice in 40 moves")
    i = next(i for i, line in enumerate(seen) if line.startswith("all seven dice are rolled"))
    assert seen[i : i + 3] == [*ROLL_IN_ROUND_3, "P2 takes the die with a paddle from the middle"]
    assert sum("dice are rolled" in line for line in seen) == 1  # seven steps, one line
    log = printed_lines(answer(child, "log"))
    assert log[1] == "   1. the set-up is dealt (7 draws)"
    j = next(j for j, line in enumerate(log) if "dice are rolled" in line)
    assert " ".join(log[j : j + 2]) == "  20. " + " ".join(ROLL_IN_ROUND_3)  # 19 moves before
    assert sum("dice are rolled" in line for line in log) == 1
    child.sendline("quit")
    child.expect(pexpect.EOF)
    actions = json.loads(record.read_text())["actions"]
    faces = ["map", "map", "paddle", "amulet", "paddle", "paddle", "signpost"]
    assert actions[25:32] == [f"roll d{k}={f}" for k, f in enumerate(faces)]  # after 18 moves
    assert actions[:7] == [
        "roll d0=paddle",
        "roll d1=machete",
        "roll d2=torch",
        "roll d3=machete",
        "roll d4=machete",
        "roll d5=torch",
        "roll d6=3c",
    ]


def test_yukons_deal_of_49_cards_is_one_line(tmp_path: Path) -> None:
    child = spawn(
        "play",
        "yukon",
        "--seat",
        "human",
        "--seat",
        "greedy",
        "--seed",
        "4",
        "--record",
        str(tmp_path / "r.json"),
        cwd=tmp_path,
    )
    child.expect_exact(PROMPT)
    lines = [line for line in printed_lines(str(child.before)) if line]
    assert lines[0] == "the set-up is dealt (49 draws)"
    assert lines[1].split() == ["a", "b", "c", "d", "e", "f", "g"]  # then the board
    assert not any("dealt" in line for line in lines[1:])
    out = printed_lines(answer(child, "1"))
    assert out[1:3] == [
        "P1 takes c1 (+3 gold); next P2 takes from row 1",
        "P2 takes b1 (+8 gold); next P1 takes from column b",
    ]
    assert "dealt" not in " ".join(out)
    child.sendline("quit")
    child.expect(pexpect.EOF)

"""The match log as the page shows it: set-up folded, later chance runs one line each."""

from __future__ import annotations

import random

import motherlode
from motherlode.server.runtime import MatchRuntime, SeatInfo


def _runtime(game: str, moves: int, **config: object) -> MatchRuntime:
    rt = MatchRuntime(
        "m1",
        motherlode.load(game, **config),
        seed=5,
        seed_sha256="",
        seats=[SeatInfo(0, "human", "human"), SeatInfo(1, "human", "human")],
    )
    rng = random.Random(2)
    rt.commit(rt.plan_chance())
    for _ in range(moves):
        if rt.state.is_terminal():
            break
        seat = rt.state.current_player()
        rt.commit(rt.plan_move(seat, rng.choice(rt.state.legal_actions())))
    return rt


def test_el_dorados_dice_after_the_setup_read_as_one_line() -> None:
    rt = _runtime("eldorado", 40)
    log = rt.log_for(None)
    folded = [e for e in log if "label" in e]
    assert folded, "no roll of the dice after the set-up was folded"
    for e in folded:
        first, last = (int(x) for x in e["label"].split("–"))
        assert e["n"] == last and last - first == 6  # all seven dice, one line
        assert e["said"].startswith("the dice are rolled: d0 shows ")
        assert e["said"].count(" shows ") == 7 and "the dice are rolled" not in e["said"][5:]
    # every step is still in the log exactly once, in order
    numbers: list[int] = []
    for e in log:
        if "label" in e:
            first, last = (int(x) for x in e["label"].split("–"))
            numbers.extend(range(first, last + 1))
        else:
            numbers.append(e["n"])
    assert numbers == list(range(1, len(rt.entries) + 1))


def test_a_single_chance_step_keeps_its_own_line() -> None:
    rt = _runtime("yukon", 10)
    log = rt.log_for(None)
    assert sum(1 for e in log if e.get("setup")) == 49
    assert all("label" not in e for e in log)
    assert [e["n"] for e in log] == list(range(1, len(rt.entries) + 1))

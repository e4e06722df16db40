"""The match log as the page shows it: set-up folded, later chance runs one line each."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

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
        head, _, faces = e["said"].partition(": ")
        assert head == "all seven dice are rolled" and len(faces.split(", ")) == 7
        assert "rolled" not in faces
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


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from(["eldorado", "yukon", "chinagold"]),
    seed=st.integers(0, 2**16),
    undo_every=st.integers(2, 6),
)
def test_the_log_built_from_where_the_last_build_got_to_equals_a_whole_build(
    game: str, seed: int, undo_every: int
) -> None:
    """``_log`` reads only the entries added since its last build (and starts again after
    an undo): at every step, for every viewer, exactly what ``log_for`` builds whole."""
    rt = _runtime(game, 0)
    rng = random.Random(seed)
    viewers: list[int | None] = [0, 1, None]
    undos = 0
    for step in range(60):
        if rt.state.is_terminal():
            break
        undoer = [s for s in (0, 1) if rt.undo_allowed(s)]
        if undoer and step % undo_every == 0:
            rt.commit(rt.plan_undo(undoer[0]))
            undos += 1
        else:
            seat = rt.state.current_player()
            rt.commit(rt.plan_move(seat, rng.choice(rt.state.legal_actions())))
        for viewer in rng.sample(viewers, rng.randint(1, 3)):  # not every viewer each time
            assert rt._log(viewer) == rt.log_for(viewer)
    assert undos > 0 or game == "chinagold"  # (a draw after every move: never undone)
    for viewer in viewers:
        assert rt._log(viewer) == rt.log_for(viewer)

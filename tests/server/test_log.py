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


# -- a bot's run of decisions in one turn: one line, as the terminal tells it (issue 21) ------


def _bots_playing(moves: int, seats: tuple[str, str] = ("bot", "human")) -> MatchRuntime:
    """Eurorails, P1 a bot (greedy) and P2 as ``seats`` says, ``moves`` decisions made."""
    from motherlode.agents import create

    game = motherlode.load("eurorails", players=2)
    rt = MatchRuntime(
        "m1", game, seed=5, seed_sha256="",
        seats=[SeatInfo(i, kind, "greedy" if kind == "bot" else "human")
               for i, kind in enumerate(seats)],
    )
    bots = {i: create("greedy", game, seed=i) for i, kind in enumerate(seats) if kind == "bot"}
    rng = random.Random(3)
    rt.commit(rt.plan_chance())
    for _ in range(moves):
        if rt.state.is_terminal():
            break
        seat = rt.state.current_player()
        action = bots[seat].act(rt.state.clone()) if seat in bots else rng.choice(
            rt.state.legal_actions())
        rt.commit(rt.plan_move(seat, action))
    return rt


def _steps(log: list[dict[str, object]]) -> list[int]:
    numbers: list[int] = []
    for e in log:
        if "label" in e:
            first, last = (int(x) for x in str(e["label"]).split("–"))
            numbers.extend(range(first, last + 1))
        else:
            numbers.append(int(str(e["n"])))
    return numbers


def test_a_eurorails_bots_building_turn_is_one_line_as_in_the_terminal() -> None:
    from motherlode.games.eurorails.orders import describe

    rt = _bots_playing(40)
    for viewer in (0, 1, None):
        log = rt.log_for(viewer)
        assert _steps(log) == list(range(1, len(rt.entries) + 1))  # every step, once
        first = next(e for e in log if e["seat"] == 0 and "label" in e)
        a, b = (int(x) for x in str(first["label"]).split("–"))
        # the bot's first building turn, from its first build to its 'end turn'
        assert rt.entries[b - 1].text == "end turn" and b - a >= 5
        assert all(e.seat == 0 for e in rt.entries[a - 1 : b])
        assert str(first["said"]).startswith("P1 builds ") and str(first["said"]).endswith(
            ", ends the turn")
        assert first["text"] == "; ".join(e.text for e in rt.entries[a - 1 : b])
        state, _ = rt._replayed([e.text for e in rt.entries[: a - 1]])
        probe, actions = state.clone(), []
        for e in rt.entries[a - 1 : b]:
            actions.append(probe.apply_string(e.text))
        # the terminal's line for a bot's run (cli_human: the seat, then describe's phrases)
        assert first["said"] == "P1 " + ", ".join(describe(state, actions))
    # P2, a person, is told move by move; nothing a seat may not see is in a run
    assert all("label" not in e for e in rt.log_for(None) if e["seat"] == 1)


def test_a_bots_run_keeps_its_rows_the_record_and_the_incremental_log() -> None:
    """The rows stay one per action (their kinds unchanged), a runtime re-played from them
    shows the same lines, and the log built step by step equals the log built whole."""
    rt = _bots_playing(0, ("bot", "bot"))
    from motherlode.agents import create

    bots = {i: create("greedy", rt.game, seed=i) for i in (0, 1)}
    for _ in range(70):
        if rt.state.is_terminal():
            break
        seat = rt.state.current_player()
        rt.commit(rt.plan_move(seat, bots[seat].act(rt.state.clone())))
        for viewer in (0, None):
            assert rt._log(viewer) == rt.log_for(viewer)
    assert {e.kind for e in rt.entries} == {"action"}
    rows = [(e.kind, e.seat, e.text, e.mask()) for e in rt.entries]
    again = MatchRuntime("m1", rt.game, seed=5, seed_sha256="", seats=rt.seats)
    again.replay_rows(rows)
    for viewer in (0, 1, None):
        assert again.log_for(viewer) == rt.log_for(viewer)
    lines = [e for e in rt.log_for(None) if "label" in e and e["seat"] >= 0]
    assert len(lines) >= 4 and len(rt.log_for(None)) < len(rt.entries) / 3

"""The batched Yukon with the Townsfolk expansion equals the reference move for move.

Every row is replayed on ``motherlode.load("yukon", expansion=True)``: its traced deal, its
decisions, and the chance outcomes the batched engine drew (a Pan's disc, a Teacher's
card) right after them; at every step the row's mask must be the reference's legal
actions, its to_move the reference's current player, its obs the reference's tensor of the
seat to move and, where a game ended, its rewards the reference's ``returns()``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.core.protocol import TERMINAL, State
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.game import YukonState
from motherlode.research.batched import BatchStep
from motherlode.research.batched.yukon import BatchedYukon
from motherlode.research.batched.yukon_townsfolk import TownsfolkCore
from tests.yukon.helpers import expansion, position

CELLS = 64
OBS = 64 * 30 + 4 * 44 + 38


def reference_obs(state: State) -> np.ndarray:
    cp = state.current_player()
    tensor: np.ndarray = state.observation_tensor(None if cp == TERMINAL else cp)
    return tensor


class Replay:
    """The reference engine, one state per row, following the batched engine; ``events``
    counts what happened in the games (which abilities and rules the replay went through)."""

    def __init__(
        self,
        env: BatchedYukon,
        first: BatchStep,
        states: list[State] | None = None,
        **config: Any,
    ) -> None:
        self.env = env
        self.game = motherlode.load(
            "yukon",
            players=env.players,
            expansion=True,
            first_player=env.first_player,
            **config,
        )
        self.states: list[State] = [self.game.new_initial_state() for _ in range(env.n)]
        self.games_done = 0
        self.events: Counter[str] = Counter()
        if states is None:
            self.deal_all()
        else:
            self.states = states
        self.check(first)

    def deal_all(self) -> None:
        assert self.env.last_chance is not None
        rows, outcomes = self.env.last_chance
        assert rows.tolist() == list(range(self.env.n))
        for row, out in zip(rows.tolist(), outcomes.tolist(), strict=True):
            self.states[row] = self.deal(out)

    def deal(self, outcomes: list[int]) -> State:
        assert len(outcomes) == CELLS
        state = self.game.new_initial_state()
        for k in outcomes:
            assert state.is_chance_node()
            state.apply_action(k)
        return state

    def check(self, step: BatchStep) -> None:
        env = self.env
        assert step.obs.shape == (env.n, OBS) and step.obs.dtype == np.float32
        assert step.mask.shape == (env.n, 477) and step.mask.dtype == bool
        for row, state in enumerate(self.states):
            legal = np.zeros(env.num_actions, dtype=bool)
            if not state.is_terminal():
                legal[state.legal_actions()] = True
            assert (step.mask[row] == legal).all(), (row, np.flatnonzero(step.mask[row] ^ legal))
            assert int(step.to_move[row]) == state.current_player(), row
            np.testing.assert_array_equal(step.obs[row], reference_obs(state), err_msg=str(row))

    def step(self, actions: np.ndarray, step: BatchStep) -> None:
        for row, state in enumerate(self.states):
            if not state.is_terminal():
                self.note(state, int(actions[row]))
        assert self.env.last_chance is not None
        traced = dict(
            zip(self.env.last_chance[0].tolist(), self.env.last_chance[1].tolist(), strict=True)
        )
        ended = []
        finals: dict[int, list[float]] = {}
        for row, state in enumerate(self.states):
            out = [k for k in traced.pop(row, []) if k >= 0]
            if state.is_terminal():
                assert not out, row  # a finished row (no auto-reset) ignores its action
                continue
            state.apply_action(int(actions[row]))
            if state.is_chance_node():  # its draw: a Pan's disc or a Teacher's card
                k = out.pop(0)
                self.events["disc" if k < 36 else "taught"] += 1
                state.apply_action(k)
            assert not state.is_chance_node(), row
            if state.is_terminal():
                ended.append(row)
                finals[row] = state.scores()
                np.testing.assert_array_equal(step.rewards[row], state.returns())
                self.events["games"] += 1
                if self.env.auto_reset:
                    self.states[row] = self.deal(out)
                    out = []
            assert not out, row
        assert not traced
        assert np.flatnonzero(step.done).tolist() == ended
        assert self.env.last_scores is not None
        rows, points = self.env.last_scores
        assert rows.tolist() == ended
        for row, pts in zip(ended, points.tolist(), strict=True):
            assert pts == finals[row], row
        assert not step.rewards[~step.done].any()
        self.games_done += len(ended)
        self.check(step)

    def note(self, state: State, action: int) -> None:
        """Count the rules this decision goes through (the tests ask for each of them)."""
        g = self.game
        cells = g.cells  # type: ignore[attr-defined]
        if action >= 7 * cells:
            self.events[state.action_to_string(action).split()[0]] += 1
            return
        how, cell = divmod(action, cells)
        if how >= 3:
            x, d = divmod(action - 3 * cells, 4)
            cell = g.neighbour[x][d]  # type: ignore[attr-defined]
        self.events[("take", "courier", "innkeeper")[min(how, 2)] if how < 3 else "telegraph"] += 1
        kind = state.grid[cell]  # type: ignore[attr-defined]
        if kind >= C.TOWNSFOLK0:
            self.events[C.TOWNSFOLK_NAMES[kind - C.TOWNSFOLK0]] += 1


def play(env: BatchedYukon, steps: int, seed: int, **config: Any) -> Replay:
    rng = np.random.default_rng(seed)
    step = env.reset()
    replay = Replay(env, step, **config)
    for _ in range(steps):
        actions = env.sample_actions(rng)
        step = env.step(actions)
        replay.step(actions, step)
    return replay


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_random_games_equal_the_reference(players: int, seed: int) -> None:
    env = BatchedYukon(32, players=players, seed=seed, trace=True, expansion=True)
    replay = play(env, 150, seed + 100)
    assert replay.games_done > 32 * 2
    # every rule of the expansion came up in these games (each some 15-200 times in a run)
    for event in (
        *C.TOWNSFOLK_NAMES,
        "courier",
        "innkeeper",
        "telegraph",
        "discard",
        "reclaim",
        "keep",
        "teach",
        "taught",
        "disc",
    ):
        assert replay.events[event] > 0, event


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_any_seed_equals_the_reference(seed: int, players: int) -> None:
    env = BatchedYukon(4, players=players, seed=seed, trace=True, expansion=True)
    replay = play(env, 70, seed)
    assert replay.games_done >= 1


def test_first_player_copies_and_custom_discs() -> None:
    """``first_player`` and ``pan_discs`` as the reference's config (disc points past a
    signed byte included: the reference writes those apart)."""
    discs = (1, 2, 3, 40, 50, 60, 70, 80, 90)
    env = BatchedYukon(
        16,
        players=3,
        seed=3,
        trace=True,
        first_player=2,
        copy=True,
        expansion=True,
        pan_discs=discs,
    )
    replay = play(env, 120, 5, pan_discs=discs)
    assert replay.games_done > 16 and replay.events["disc"] > 10
    first = env.reset()
    assert first.to_move.tolist() == [2] * 16
    kept = first.obs.copy()
    env.step(env.sample_actions(np.random.default_rng(0)))
    np.testing.assert_array_equal(first.obs, kept)  # copy=True: the old arrays stay


def test_without_auto_reset_finished_rows_stay_finished() -> None:
    env = BatchedYukon(8, players=4, seed=4, trace=True, auto_reset=False, expansion=True)
    replay = play(env, 110, 4)  # 64 cards, a few Pan visits and decisions: all games end
    assert replay.games_done == 8
    assert all(s.is_terminal() for s in replay.states)
    last = env.step(np.zeros(8, dtype=int))  # ignored: nothing to play
    assert last.to_move.tolist() == [TERMINAL] * 8
    assert not last.mask.any() and not last.done.any() and not last.rewards.any()
    for row, state in enumerate(replay.states):  # the spectator's view of the end
        np.testing.assert_array_equal(last.obs[row], reference_obs(state))


def test_without_observations_the_same_games() -> None:
    kwargs: dict[str, Any] = {"players": 3, "seed": 6, "trace": True, "expansion": True}
    with_obs, without = BatchedYukon(16, **kwargs), BatchedYukon(16, observations=False, **kwargs)
    rng = np.random.default_rng(2)
    a, b = with_obs.reset(), without.reset()
    assert without.obs_shape == (0,) and b.obs.shape == (16, 0)
    for _ in range(90):
        actions = with_obs.sample_actions(rng)
        a, b = with_obs.step(actions), without.step(actions)
        for field in ("mask", "to_move", "rewards", "done"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = BatchedYukon(3, seed=2, expansion=True)
    first = env.reset()
    actions = first.mask.argmax(axis=1)
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(~first.mask[1, :CELLS])[0])  # not in the Prospector's lines
    with pytest.raises(ValueError, match=r"row 1: action \d+ is not a legal action there"):
        env.step(bad)
    with pytest.raises(ValueError, match="row 0: action 477 is not"):
        env.step(np.array([477, 0, 0]))
    with pytest.raises(ValueError, match="one action per game"):
        env.step(actions[:2])
    after = env.step(actions)
    same = BatchedYukon(3, seed=2, expansion=True)  # never refused anything
    same.reset()
    expected = same.step(actions)
    np.testing.assert_array_equal(after.obs, expected.obs)
    np.testing.assert_array_equal(after.mask, expected.mask)


def test_the_jax_backend_refuses_the_expansion_naming_the_option() -> None:
    with pytest.raises(ValueError, match=r"expansion=True .* backend=\"numpy\" only"):
        BatchedYukon(2, expansion=True, backend="jax")
    with pytest.raises(ValueError, match=r"pan_discs must be 9 positive integers"):
        BatchedYukon(2, expansion=True, pan_discs=(1, 2, 3))


def test_the_deal_lays_the_base_cards_and_15_townsfolk() -> None:
    """'draw 15 of them. Shuffle these 15 together with the Gold, Pebble and Sheriff
    cards. Form an 8x8 grid': every kind of Townsfolk comes out, at most 3 of each."""
    env = BatchedYukon(300, seed=0, trace=True, expansion=True)
    env.reset()
    assert env.last_chance is not None
    rows, deals = env.last_chance
    assert rows.tolist() == list(range(300))
    counts = np.stack([np.bincount(d, minlength=27) for d in deals])
    assert (counts[:, :16] == 3).all() and (counts[:, 16] == 1).all()
    assert (counts[:, 17:].sum(axis=1) == 15).all() and counts[:, 17:].max() <= 3
    assert (counts[:, 17:].sum(axis=0) > 300).all()  # each kind about 450 times in 300 deals


# -- scenarios: positions in the reference's notation, put into a row ------------------


def put(env: BatchedYukon, row: int, state: YukonState) -> None:
    """Write a reference position into a row of the engine (for scenario tests only)."""
    core = env._core
    assert isinstance(core, TownsfolkCore)
    core.grid[row] = state.grid
    core.pos[row] = state.pos
    core.axis[row] = state.axis
    core.player[row] = state.player
    core.order[row] = state.order
    core.last[row] = state.last
    core.pending[row] = state.pending
    core.over[row] = state.over
    core.pile[row] = state.pile
    core.front[row] = state.front
    core.taught[row] = state.taught
    core.discs[row] = state.discs
    core.beside[row] = state.beside
    core.box[row] = state.box
    core.pan_left[row] = 0
    for cell, left in state.pan_left.items():
        core.pan_left[row, cell] = left
    core.revealed[row] = state.revealed
    core.refresh(np.array([row]))


def scenario(state: YukonState, moves: list[str], seed: int = 0) -> Replay:
    """Play ``moves`` (the reference's notation; chance is the engine's own) from ``state``
    in a row of the batched engine and the reference side by side."""
    g = state.game
    env = BatchedYukon(
        1, players=g.num_players, seed=seed, trace=True, auto_reset=False, expansion=True
    )
    env.reset()
    put(env, 0, state)
    core = env._core
    assert isinstance(core, TownsfolkCore)
    replay = Replay(
        env, core.out(np.zeros((1, g.num_players), np.float32), np.zeros(1, bool)), [state]
    )
    for move in moves:
        assert not state.is_chance_node()
        actions = np.array([state.string_to_action(move)])
        replay.step(actions, env.step(actions))
    return replay


def test_commander_scores_its_discs_doubled_with_the_prospector() -> None:
    """'worth points equal to the number of gold nugget discs the player has collected. If
    the Prospector figure is with this player at the end of the game, the points scored by
    the Commander are doubled.' P1: discs 2 + 3 and a Commander; P2 holds 13 points."""
    players = ["-|Co|-|2.3", "+10.+2.+1|-|-|-"]
    # P1 takes the last card: 5 + 1 + 5 + 2 x 2 = 15; P2 takes it: P1 has 5 + 2 = 7
    for turn, won in ((1, [1.0, -1.0]), (2, [-1.0, 1.0])):
        s = position(expansion(), [". @ . +1"], players=players, revealed="2.3", turn=turn)
        replay = scenario(s, ["d1"])
        assert replay.games_done == 1 and replay.states[0].returns() == won


def test_swindlers_halve_the_most_costly_pebbles_at_the_end() -> None:
    s = position(
        expansion(), ["@ . +1"], players=["-5.-3.-1|Sw.Sw|-|-", "-1|-|-|-"]
    )  # P1: -5 -3 -1 halved twice: -2 -1 -1, +1, the Prospector 5
    replay = scenario(s, ["c1"])
    assert replay.states[0].points(0) == -2 - 1 - 1 + 1 + 5 and replay.games_done == 1


def test_unused_courier_innkeeper_and_telegraph_score_at_the_end() -> None:
    s = position(
        expansion(),
        ["@ . +1 +2 -3", "+8"],
        players=["-1.-2|Cu.In.To|-|-", "-|-|-|-"],
        axis="row",
    )
    replay = scenario(s, ["c1"])  # P2 then has nothing in column c: the end
    state = replay.states[0]
    assert state.is_terminal() and replay.games_done == 1


def test_a_pan_gives_its_last_disc_and_goes_to_the_box() -> None:
    s = position(
        expansion(),
        ["@ Pa . +1", ". +2"],
        pans="b1:1",
        players=["-|-|-|3", "-|-|-|3"],
        revealed="3.3",
    )
    replay = scenario(s, ["b1", "b2"])
    assert replay.events["disc"] == 1 and replay.states[0].box[C.PAN] == 1


def test_a_pan_with_discs_left_is_visited_again() -> None:
    s = position(expansion(), ["@ Pa . +1", ". +2 . +4"], pans="b1:3")
    replay = scenario(s, ["b1", "b2", "d2", "d1"])
    assert replay.events["disc"] >= 1


def test_trapper_goldsmith_without_a_card_to_give_up_are_discarded_at_once() -> None:
    for kind in ("Tr", "Gs"):
        s = position(expansion(), [f"@ {kind} . +1", ". +2"], players=["-|-|-|-", "-|-|-|-"])
        replay = scenario(s, ["b1", "b2"])
        assert replay.states[0].beside[C.parse_token(kind)] == 1


def test_trapper_and_commander_take_back_the_gold() -> None:
    s = position(expansion(), ["@ Tr . +1", ". Co", "+5 +6"], players=["+8.+3|-|-|-", "-|-|-|-"])
    replay = scenario(s, ["b1", "discard +8", "b2", "reclaim +8"])
    assert replay.states[0].pile[1][C.parse_token("+8")] == 1


def test_teacher_with_nobody_to_teach_and_with_a_victim() -> None:
    s = position(expansion(), ["@ Te . +1", ". +2"])
    scenario(s, ["b1", "b2"])
    s = position(
        expansion(3),
        ["@ Te . +1", ". +2"],
        players=["-|-|-|-", "-5.+3.+3|-|-|-", "+1|-|-|-"],
    )
    replay = scenario(s, ["b1", "teach P2", "b2"])
    assert replay.events["taught"] == 1


def test_jailers_reverse_the_order_each_time() -> None:
    s = position(expansion(3), ["@ Ja . . . . . .", ". Ja +2", ". . +3"])
    replay = scenario(s, ["b1", "b2", "c2", "c3"])
    assert replay.states[0].order == 1


def test_a_player_who_can_move_only_with_an_ability_must_use_it() -> None:
    """Decision 3: "The next player cannot take a card in accordance with the rules": with
    a Courier the game goes on, and the Courier's take is the only legal move."""
    s = position(expansion(), ["@ . +1 +3", "+4"], players=["-|-|-|-", "-|Cu|-|-"], axis="row")
    after = position(
        expansion(), [". . @ +3", "+4"], players=["+1|-|-|-", "-|Cu|-|-"], axis="col", turn=2
    )
    assert after.legal_actions() == [after.string_to_action("courier d1")]
    replay = scenario(s, ["c1", "courier d1"])  # column c is empty, row 1 has d1
    assert replay.events["courier"] == 1


def test_the_game_ends_when_all_the_cards_are_taken() -> None:
    s = position(expansion(), ["@ +1"], axis="row")
    replay = scenario(s, ["b1"])
    assert replay.games_done == 1
    assert replay.states[0].termination() == "all the cards of the playing area have been taken"


def test_the_docs_example_runs() -> None:
    """docs/research.md's expansion example, as written (its asserts are the checks)."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "research.md"
    section = doc.read_text().split("### Batched Yukon with the Townsfolk expansion", 1)[1]
    block = re.findall(r"<!-- tested -->\n```python\n(.*?)```", section, flags=re.S)[0]
    exec(compile(block, str(doc), "exec"), {"__name__": "research_md"})

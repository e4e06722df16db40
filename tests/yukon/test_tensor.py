"""The tensor's cell planes kept from call to call: the same values as built afresh.

``observation_tensor`` brings the cell planes of its last call up to date instead of
building them again (``YukonState._cell_planes``); a clone starts without them, so a clone's
tensor is the one built from nothing.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.games.yukon.game import YukonState
from tests.yukon.helpers import base

CONFIGS = [{"players": n, "expansion": e} for e in (False, True) for n in (2, 3, 4)]


def _step(state: YukonState, rng: random.Random) -> None:
    """One random move; in the expansion a Townsfolk ability (Courier, Innkeeper, Telegraph)
    whenever there is one, half the time, so that every kind of take lands in a gap."""
    if state.is_chance_node():
        state.apply_unchecked(state.sample_chance(rng))
        return
    legal = state.legal_actions()
    special = [a for a in legal if state.game.cells <= a < 7 * state.game.cells]
    pick = special if special and rng.random() < 0.5 else legal
    state.apply_unchecked(rng.choice(pick))


@settings(max_examples=60, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    gaps=st.lists(st.integers(1, 9), min_size=1, max_size=12),
)
def test_kept_planes_give_the_tensor_built_afresh(
    config: dict[str, object], seed: int, gaps: list[int]
) -> None:
    game = motherlode.load("yukon", **config)
    rng = random.Random(seed)
    state = game.new_initial_state()
    seats = [None, *range(game.num_players)]
    calls = 0
    while True:
        for _ in range(gaps[calls % len(gaps)]):
            if state.is_terminal():
                break
            _step(state, rng)
        for seat in rng.sample(seats, 2):  # the second call: the same position again
            kept = state.observation_tensor(seat)
            assert np.array_equal(kept, state.clone().observation_tensor(seat)), (calls, seat)
        calls += 1
        if state.is_terminal():
            break


def test_the_planes_are_kept_after_the_deal_only() -> None:
    state = base().new_initial_state()
    rng = random.Random(5)
    for _ in range(10):  # during the deal: nothing kept (the cells change by the deal)
        state.apply_unchecked(state.sample_chance(rng))
        state.observation_tensor(0)
        assert state._planes_cache is None
    state = motherlode.deal(base(), seed=5)
    assert isinstance(state, YukonState)
    first = state.observation_tensor(1)
    assert state._planes_cache == (
        state.move_number(),
        state.pos,
        first[:1470].astype(np.int8).tobytes(),
    )
    assert state.clone()._planes_cache is None


def test_the_kept_planes_are_updated_not_rebuilt() -> None:
    # a mark put into the kept planes, on a cell no move reaches, stays: proof that the
    # next tensor starts from them (the moves' own cells are still right)
    state = motherlode.deal(base(), seed=5)
    assert isinstance(state, YukonState)
    state.observation_tensor(0)
    moves, pos, planes = state._planes_cache or (0, 0, b"")
    legal = state.legal_actions()
    far = next(c for c in range(49) if c != pos and c not in legal)
    marked = bytearray(planes)
    marked[far * 30 + 29] = 1  # a second Prospector
    state._planes_cache = (moves, pos, bytes(marked))
    state.apply_action(legal[0])
    t = state.observation_tensor(0)
    assert t[far * 30 + 29] == 1.0
    assert t[legal[0] * 30 + 29] == 1.0 and t[pos * 30 + 29] == 0.0
    assert np.array_equal(t[legal[0] * 30 : legal[0] * 30 + 29], np.eye(29)[27])  # empty


def test_disc_points_past_a_byte_are_written_whole_in_each_seats_slot() -> None:
    """Custom ``pan_discs`` may be worth more than a signed byte holds: a seat's disc points
    (slot value 42 of its 44) are the exact sum, in every observer's seat order, and the
    other slot values are those of the same position with small discs."""
    big = motherlode.load("yukon", expansion=True, players=3, pan_discs=[200, 150, 128] * 3)
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = big.new_initial_state()
        while not state.is_terminal():
            _step(state, rng)
            if state.is_chance_node() or not any(map(any, state.discs)):
                continue
            values = big.disc_values
            points = [sum(v * c for v, c in zip(values, d, strict=True)) for d in state.discs]
            for observer in (None, 0, 1, 2):
                t = state.observation_tensor(observer)
                order = big.observer_first[0 if observer is None else observer]
                got = [t[1920 + 44 * slot + 42] for slot in range(3)]
                assert got == [float(points[p]) for p in order]
                seen += sum(points[p] > 127 for p in order)
        if seen > 20:
            break
    assert seen > 20  # the case past a byte was reached, for several seats


def test_the_tensor_size_is_the_layouts_total_for_a_game_built_here() -> None:
    """The shape counted by hand from the layout: per cell 29 kind planes and the
    Prospector (30), 4 seat slots of 44 (pile 16, front 10, taught 16, discs 1, to-move 1),
    then axis 3, pending 7, order 1, beside 26, Pan discs left 1 (38). The games are built
    in the test (the selection's module-level games are built before any test runs)."""
    for players, expansion, size in ((2, False, 7), (4, False, 7), (3, True, 8)):
        game = motherlode.load("yukon", players=players, expansion=expansion)
        total = size * size * 30 + 4 * 44 + 38  # 1684 for 7x7, 2134 for 8x8
        assert total == (1684 if size == 7 else 2134)
        assert game.observation_tensor_shape() == (total,)
        name, offset, shape = game.observation_layout()[-1]
        assert (name, offset + shape[0]) == ("pan_discs_left", total)
        state = motherlode.deal(game, seed=1)
        assert state.observation_tensor(0).shape == (total,)


def test_a_discard_of_the_first_kind_between_two_calls_keeps_the_planes_right() -> None:
    """The Trapper's discard of a +1 (action ``7 * cells``, the first discard id) in the
    history between two tensor calls is no take: the kept planes stay those built afresh.
    (Read as a Telegraph it would name a cell past the grid.)"""
    game = motherlode.load("yukon", expansion=True, players=2)
    state = motherlode.deal(game, seed=0)
    assert isinstance(state, YukonState)
    rng = random.Random(0)
    discarded = False
    while not discarded:
        assert not state.is_terminal()
        state.observation_tensor(0)  # kept planes at every step before the discard
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if game.discard0 not in legal:
            state.apply_action(rng.choice(legal))
            continue
        assert game.discard0 == 7 * 64 and state.action_to_string(game.discard0) == "discard +1"
        state.apply_action(game.discard0)
        discarded = True
    step = state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
    state.apply_action(step)
    assert game.discard0 in state.history()[-2:-1]  # not the last: read by the next call
    for seat in (0, 1, None):
        afresh = state.clone().observation_tensor(seat)
        assert np.array_equal(state.observation_tensor(seat), afresh)

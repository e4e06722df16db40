"""The observation tensor, built by slices, equals the element-by-element construction it
replaced (kept here as the reference), bit for bit, at every position of random games in
every conformance config and for every viewer."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

from motherlode.core.protocol import Player
from motherlode.games.eldorado.game import NUM_DICE, START, USE, EldoradoGame, EldoradoState


def reference_tensor(state: EldoradoState, player: Player | None) -> np.ndarray:
    """The tensor as it was built before, element by element: the fast one must equal it."""
    g = state.game
    sh = g.sheet
    ns = g.ns
    n = g.num_players
    out = np.zeros(g.observation_tensor_shape(), dtype=np.float32)
    me = 0 if player is None else player
    i = 0
    for k in range(n):
        p = (me + k) % n
        v = state.visited[p]
        for s in range(ns):
            out[i + s] = (v >> s) & 1
            fee = sh.spaces[s].fee
            if fee:
                out[i + ns + s] = state.paid[p][s] / fee
        for s, c in state.offers[p]:
            out[i + 2 * ns + s] = c / 4.0
        i += 3 * ns
        f = state.filled[p]
        for s in range(g.nl):
            out[i + s] = (f >> s) & 1
        i += g.nl
        for r in range(g.nr):
            out[i + r] = (state.used[p] >> r) & 1
        i += g.nr
        out[i] = state.temples_offered(p) / max(1, g.required)
        out[i + 1] = float(state.entered(p))
        i += 2
    for d in range(NUM_DICE):
        if state.middle[d] >= 0:
            out[i + state.middle[d]] = 1.0
        if state.held[d] >= 0:
            out[i + 10] = 1.0
            out[i + 11] = state.uses[d] / 3.0
        if d in state.to_roll:
            out[i + 12] = 1.0
        i += 13
    for s in range(ns):
        if state.minima[s] >= 0:
            out[i + s] = (state.minima[s] + 1) / 5.0
        if state.claimed[s] >= 0:
            out[i + ns + s] = 1.0
    i += 2 * ns
    out[i + state.phase] = 1.0
    out[i + 4] = state.round / g.cfg.max_rounds
    out[i + 5] = float(state.res_used)
    out[i + 6] = float(state.first)
    out[i + 7] = float(state.bonus_used)
    out[i + 8] = len(state.items) / 2.0
    out[i + 9] = float(state.reward)
    out[i + 10] = state.choose_left / 2.0
    out[i + 11] = state.uses_per_die / 3.0
    if state.phase in (START, USE):
        out[i + 12 + (state.seat - me) % n] = 1.0
    return out


@pytest.mark.parametrize("config", EldoradoGame.conformance_configs())
def test_the_tensor_equals_the_element_by_element_reference(config: dict[str, Any]) -> None:
    game = EldoradoGame.from_config(**config)
    viewers: list[Player | None] = [None, *range(game.num_players)]
    positions = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            for viewer in viewers:
                fast = state.observation_tensor(viewer)
                assert fast.dtype == np.float32 and fast.shape == game.observation_tensor_shape()
                assert fast.tobytes() == reference_tensor(state, viewer).tobytes()
            positions += 1
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert positions > 100


def test_the_cached_parts_stay_out_of_a_pickled_game() -> None:
    game = EldoradoGame.from_config(players=2)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    tensor = state.observation_tensor(1)
    assert len(game.tensor_parts) == 2  # the empty sheet (both seats') and the temples' marks
    again = pickle.loads(pickle.dumps(state))
    assert again.game.tensor_parts == {}
    assert again.observation_tensor(1).tobytes() == tensor.tobytes()


def test_the_parts_built_are_used_again() -> None:
    """Each sheet and the temples' marks are copied from the parts kept on the game (keyed
    by what they are made of), not built again: parts marked by hand (every cell + 7) show
    in the next tensor of the same position, the dice and the turn are written anew."""
    game = EldoradoGame.from_config(players=2)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    state.observation_tensor(0)
    assert len(game.tensor_parts) == 2  # the empty sheet (both seats') and the marks
    for key, part in list(game.tensor_parts.items()):
        game.tensor_parts[key] = part + 7.0
    got = state.observation_tensor(0)
    want = reference_tensor(state, 0)
    sheets = 2 * game.sheet_size
    dice = sheets + NUM_DICE * 13
    marks = dice + 2 * game.ns
    assert got[:sheets].tolist() == (want[:sheets] + 7.0).tolist()
    assert got[sheets:dice].tolist() == want[sheets:dice].tolist()
    assert got[dice:marks].tolist() == (want[dice:marks] + 7.0).tolist()
    assert got[marks:].tolist() == want[marks:].tolist() and len(got) == marks + 16


def test_the_kept_parts_start_afresh_past_4096() -> None:
    """At most 4096 parts are kept: with 4096 kept a tensor adds its own, with 4097 it
    drops them all first (then keeps the two it builds)."""
    game = EldoradoGame.from_config(players=2)
    state = game.new_initial_state()
    filler = np.zeros(1, dtype=np.float32)
    for kept, after in ((4096, 4098), (4097, 2)):
        game.tensor_parts.clear()
        game.tensor_parts.update({("filler", k): filler for k in range(kept)})
        state.observation_tensor(None)
        assert len(game.tensor_parts) == after

"""Observation layouts: named slices tile each game's tensor exactly, for every config; the
bounds hold every value of random games; every tensor is observer first."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

import motherlode
from motherlode.core.protocol import Game, State
from motherlode.research.layout import bounds, layout, layout_json
from tests.adapters.cases import CASES


@pytest.mark.parametrize(("name", "config"), CASES)
def test_the_slices_tile_the_tensor(name: str, config: dict[str, Any]) -> None:
    game = motherlode.load(name, **config)
    assert hasattr(game, "observation_layout") and hasattr(game, "observation_bounds")
    parts = list(layout(game).values())  # layout() itself checks the tiling
    assert len(parts) > 1
    assert sum(p.size for p in parts) == int(np.prod(game.observation_tensor_shape()))
    rows = layout_json(game)
    assert [row["name"] for row in rows] == [p.name for p in parts]
    assert [row["offset"] for row in rows] == [p.offset for p in parts]
    low, high = bounds(game)
    assert np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()


def _positions(game: Game, seed: int, cap: int) -> list[State]:
    """Every position of one random game (at most ``cap`` moves)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal() and len(out) <= cap:
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("name", "config"), CASES)
def test_every_value_of_random_games_lies_in_the_bounds(name: str, config: dict[str, Any]) -> None:
    game = motherlode.load(name, **config)
    low, high = bounds(game)
    seats = [None, *range(game.num_players)]
    for seed in range(2):
        for state in _positions(game, seed, cap=300):
            for seat in seats:
                t = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                outside = np.flatnonzero((t < low) | (t > high))
                assert outside.size == 0, (seat, outside[:5], t[outside[:5]])


SEAT_BLOCKS = ("players", "sheets", "gold")
"""The slice of each game that holds one row per seat slot."""


@pytest.mark.parametrize(("name", "config"), CASES)
def test_the_observer_comes_first(name: str, config: dict[str, Any]) -> None:
    """Every game's per-seat block lists the seats from the observer on: the spectator's
    slot k is seat k, and seat s's slot k is the spectator's slot (s + k) % players,
    wherever both see the same (the blocks of seats whose hidden parts both see)."""
    game = motherlode.load(name, **config)
    n = game.num_players
    parts = layout(game)
    block = next(parts[b] for b in SEAT_BLOCKS if b in parts)
    assert block.shape[0] in (n, 4)
    state = _positions(game, 3, cap=60)[-1]
    spectator = block.view(state.observation_tensor(None))
    for seat in range(n):
        mine = block.view(state.observation_tensor(seat))
        for k in range(n):
            row, theirs = np.atleast_1d(mine[k]), np.atleast_1d(spectator[(seat + k) % n])
            # equal but where the spectator may not see (hidden cash, hands): 0 there
            assert (theirs[row != theirs] == 0).all(), (seat, k)
            assert (row == theirs).mean() > 0.5, (seat, k)
    assert math.prod(block.shape) > 0


@pytest.mark.parametrize("expansion", [False, True])
def test_yukons_cells_are_planes_of_the_grid(expansion: bool) -> None:
    game = motherlode.load("yukon", expansion=expansion)
    cells = layout(game)["cells"]
    size = 8 if expansion else 7
    assert cells.shape == (size, size, 30)
    state = motherlode.deal(game, seed=4)
    planes = cells.view(state.observation_tensor(0))
    assert planes.sum(axis=2).max() <= 2  # one kind plane, plus the Prospector's
    assert planes[..., 29].sum() == 1  # the Prospector stands on one cell


def test_yukons_players_are_four_slots_of_44_observer_first() -> None:
    game = motherlode.load("yukon", players=3)
    players = layout(game)["players"]
    assert players.shape == (4, 44)
    state = motherlode.deal(game, seed=2)
    to_move = state.current_player()
    for seat in (None, 0, 1, 2):
        rows = players.view(state.observation_tensor(seat))
        me = 0 if seat is None else seat
        assert rows[3].sum() == 0  # a 4th slot past the 3 players is zero
        assert [int(rows[k, 43]) for k in range(3)] == [
            int((me + k) % 3 == to_move) for k in range(3)
        ]


def test_yukons_disc_points_past_a_byte_are_exact() -> None:
    """Custom Pan discs can be worth more than a byte holds: the tensor still says them."""
    game = motherlode.load("yukon", expansion=True, pan_discs=[200] * 9)
    high = layout(game)["players"].high[0, 42]
    assert high == 200 * 9
    seen = 0
    for state in _positions(game, 7, cap=400) + _positions(game, 8, cap=400):
        rows = layout(game)["players"].view(state.observation_tensor(1))
        for k in range(game.num_players):
            seat = (1 + k) % game.num_players
            assert rows[k, 42] == 200 * sum(state.discs[seat])  # type: ignore[attr-defined]
            seen += rows[k, 42] > 127
    assert seen > 0

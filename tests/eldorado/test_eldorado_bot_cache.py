"""The greedy bot's remembered route costs equal a fresh computation, position by position."""

from __future__ import annotations

import random

import pytest

import motherlode
from motherlode.games.eldorado import bot
from motherlode.games.eldorado.game import EldoradoState


@pytest.mark.parametrize("sheet", [1, 3, 4])
def test_remembered_route_costs_equal_fresh_ones(sheet: int) -> None:
    game = motherlode.load("eldorado", players=3, map=sheet, hard=sheet == 4)
    rng = random.Random(sheet)
    checked = 0
    for seed in range(3):
        state = motherlode.deal(game, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            assert isinstance(state, EldoradoState)
            for p in range(3):
                if state.entered(p):
                    continue
                remembered = bot.route_cost(state, p)
                need = max(0, game.required - state.temples_offered(p))
                carto = state.has(p, game.cartographer)
                fresh = bot._route_cost(state, state.visited[p], need, carto, state.minima, p)
                assert remembered == fresh
                checked += 1
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 100

"""Small games to solve exactly: positions of the real games, with the rules kept.

OpenSpiel's CFR and exact exploitability walk the whole game tree, so they need a small
one. Every game takes the OpenSpiel parameter ``position=`` (the game's notation): each
game starts there (:data:`motherlode.adapters.openspiel.POSITION`). These helpers make
such positions:

* :func:`yukon_small_grid`: a Yukon deal with only a ``rows x columns`` block of the grid
  left and the Prospector in its corner (the other cards are out of play, as cards
  already taken are): the rules unchanged, a tree of tens to hundreds of states;
* :func:`position_after`: any game after ``moves`` random decisions (chance by the
  seed), for a late position of a short game.

>>> text = yukon_small_grid(seed=0, rows=2, columns=3)
>>> text.split(" ")[0].split("/")[:2]
['@.,-2,+1,.,.,.,.', '+10,-5,-1,.,.,.,.']
"""

from __future__ import annotations

import random

import motherlode
from motherlode.core.protocol import Game

__all__ = ["position_after", "yukon_small_grid"]


def yukon_small_grid(seed: int = 0, rows: int = 3, columns: int = 3, **config: object) -> str:
    """A 2-player Yukon position: deal ``seed``, keep the top-left ``rows x columns``
    block of cards, the Prospector on its first cell; the first player may take along
    the row or the column (as after the deal)."""
    game = motherlode.load("yukon", **config)
    text = motherlode.deal(game, seed=seed).serialize()
    grid, rest = text.split(" ", 1)
    cells = [row.split(",") for row in grid.split("/")]
    if not (1 <= rows <= len(cells) and 1 <= columns <= len(cells[0])):
        raise motherlode.ConfigError(f"the block must fit the {len(cells)}-cell grid")
    for r, row in enumerate(cells):
        for c in range(len(row)):
            if r >= rows or c >= columns:
                row[c] = "."
    cells[0][0] = "@."  # the Prospector, on the block's corner
    return "/".join(",".join(row) for row in cells) + " " + rest


def position_after(game: Game, seed: int, moves: int) -> str:
    """The notation of ``game`` after ``moves`` uniformly random decisions (chance drawn
    from ``seed`` too); stops early at the game's end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
            continue
        if done == moves:
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
        done += 1
    return state.serialize()

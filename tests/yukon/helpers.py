"""Building exact Yukon positions for scenario tests, through the position notation."""

from __future__ import annotations

import motherlode
from motherlode.games.yukon.game import YukonGame, YukonState


def position(
    game: YukonGame,
    rows: list[str],
    *,
    turn: int = 1,
    axis: str = "any",
    order: str = "cw",
    last: str = "-",
    pending: str = "-",
    players: list[str] | None = None,
    beside: str = "-",
    box: str = "S",
    pans: str = "-",
    revealed: str = "-",
) -> YukonState:
    """A position from readable rows: cells separated by spaces, ``@`` marks the Prospector.

    Rows may be shorter than the grid: missing cells are empty. Missing rows are empty.
    """
    size = game.size
    grid = []
    for r in range(size):
        cells = rows[r].split() if r < len(rows) else []
        cells += ["."] * (size - len(cells))
        grid.append(",".join("@." if c == "@" else c for c in cells))
    blocks = players or ["-|-|-|-"] * game.num_players
    text = " ".join(
        [
            "/".join(grid),
            f"P{turn}",
            axis,
            order,
            last,
            pending,
            ";".join(blocks),
            beside,
            box,
            pans,
            revealed,
        ]
    )
    state = game.deserialize(text)
    assert isinstance(state, YukonState)
    return state


def base(players: int = 2) -> YukonGame:
    game = motherlode.load("yukon", players=players)
    assert isinstance(game, YukonGame)
    return game


def expansion(players: int = 2) -> YukonGame:
    game = motherlode.load("yukon", players=players, expansion=True)
    assert isinstance(game, YukonGame)
    return game


def play(state: YukonState, *moves: str) -> YukonState:
    for move in moves:
        state.apply_string(move)
    return state


def legal(state: YukonState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]

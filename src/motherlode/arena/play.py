"""Playing one game between agents, with chance drawn from a seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from motherlode.core.agent import Agent
from motherlode.core.protocol import Game, State
from motherlode.core.records import GameRecord


@dataclass
class PlayedGame:
    state: State
    record: GameRecord
    decisions: int


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    on_action: Callable[[State, int], None] | None = None,
    after_action: Callable[[State], None] | None = None,
    checked: bool = False,
) -> PlayedGame:
    """Play one whole game. Seat ``i`` is played by ``agents[i]``; chance uses ``seed``.

    ``on_action(state, action)`` is called before each action, ``after_action(state)``
    after it. The same seed and agents give the same game. ``checked`` routes every action
    through the legality check (for agents that may be wrong, e.g. humans).
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            action = agents[state.current_player()].act(state)
            decisions += 1
        if on_action is not None:
            on_action(state, action)
        if checked:
            state.apply_action(action)
        else:
            state.apply_unchecked(action)
        if after_action is not None:
            after_action(state)
    record = GameRecord.from_state(state, [a.name for a in agents], seed)
    return PlayedGame(state, record, decisions)

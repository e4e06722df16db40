"""Values of positions for search agents: exact at the end, a heuristic before it.

Every value is a vector, one entry per seat, in ``[-1, 1]`` (the range of
:meth:`State.returns`):

* a finished game is worth its :meth:`State.returns`; a solo game (one seat, whose
  returns are always 0) is worth ``tanh(score / scale)`` instead, so that search still
  has something to maximise;
* an unfinished one is worth, for each seat, ``tanh(lead / scale)`` times ``0.9``, where
  the lead is its score minus the best rival score (the rulebook's own points, so far).
  A game may offer a better judgement by giving its states a method
  ``heuristic_values() -> list[float]`` (one value per seat in ``[-1, 1]``); it is used
  whenever present.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("yukon"), seed=1)
>>> heuristic_values(state, scale=10.0) == [0.0, 0.0]
True
"""

from __future__ import annotations

import math

from motherlode.core.protocol import State

HEURISTIC_WEIGHT = 0.9
"""Heuristic values stay inside ``(-0.9, 0.9)``, so a proven result always outweighs them."""


def terminal_values(state: State, scale: float) -> list[float]:
    """The value vector of a finished game (see the module docstring)."""
    if state.game.num_players == 1:
        return [math.tanh(state.scores()[0] / scale)]
    return state.returns()


def heuristic_values(state: State, scale: float) -> list[float]:
    """The value vector of an unfinished game (see the module docstring)."""
    judged = state.heuristic_values()
    if judged is not None:
        return [float(v) for v in judged]
    scores = state.scores()
    n = len(scores)
    if n == 1:
        return [HEURISTIC_WEIGHT * math.tanh(scores[0] / scale)]
    if n == 2:
        lead = (scores[0] - scores[1]) / scale
        v = HEURISTIC_WEIGHT * math.tanh(lead)
        return [v, -v]
    out = []
    for p, s in enumerate(scores):
        best_other = max(x for q, x in enumerate(scores) if q != p)
        out.append(HEURISTIC_WEIGHT * math.tanh((s - best_other) / scale))
    return out


def values(state: State, scale: float) -> list[float]:
    """Exact values at the end of the game, the heuristic before it."""
    if state.is_terminal():
        return terminal_values(state, scale)
    return heuristic_values(state, scale)

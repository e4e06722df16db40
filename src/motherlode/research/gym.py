"""One seat of a game as a single-agent Gymnasium environment, against built-in opponents.

>>> env = MotherlodeSingleAgentEnv("yukon", opponents=["greedy"], dense=True)
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), info["seat"] in (0, 1)
(['action_mask', 'observation'], True)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> isinstance(reward, float), truncated
(True, False)

* The learner plays one seat (``seat=``; by default drawn afresh at every reset, so it
  learns every seat); ``opponents`` are agent specs (``"greedy"``, ``"mcts:iterations=50"``,
  ``"py:mine.py:Policy"``), one per other seat, or one for all of them. They move inside
  ``step`` and ``reset`` until the learner is to move or the game ends; chance is drawn
  from the env's RNG, seeded by ``reset(seed=...)``, as are the opponents' seeds.
* Observations: ``{"observation": observation_tensor(seat), "action_mask": int8}``, as in
  the PettingZoo env; ``info["action_mask"]`` holds the mask too, ``info["seat"]`` the seat.
* Reward: the learner's return at the end (+1 win, -1 loss, 0 full tie); with
  ``dense=True`` also, at every step, the change of the learner's score (the rulebook's
  points) from its action until it is to move again, times ``dense_scale``.
* An illegal action (one the mask excludes) ends the episode with reward
  ``illegal_reward`` (default -1) and ``info["illegal"] = True``; the game's state is not
  changed (``illegal="raise"`` raises ``IllegalActionError`` instead).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium  # type: ignore[import-not-found,unused-ignore]
import numpy as np
from gymnasium import spaces  # type: ignore[import-not-found,unused-ignore]

import motherlode
from motherlode.agents import create
from motherlode.core.agent import Agent
from motherlode.core.errors import ConfigError, IllegalActionError
from motherlode.core.protocol import Game, State
from motherlode.research.layout import observation_box

__all__ = ["MotherlodeSingleAgentEnv"]


Observation = dict[str, np.ndarray[Any, Any]]


class MotherlodeSingleAgentEnv(gymnasium.Env):  # type: ignore[misc,unused-ignore]  # Any without gymnasium
    """A motherlode game from one seat's side (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        opponents: Sequence[str] = ("random",),
        *,
        seat: int | None = None,
        dense: bool = False,
        dense_scale: float = 1.0,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        self.game: Game = game if isinstance(game, Game) else motherlode.load(game, **config)
        n = self.game.num_players
        specs = list(opponents)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise ConfigError(
                f"{self.game.name} with {n} players needs {n - 1} opponent specs (or one for"
                f" all), got {len(specs)}"
            )
        if seat is not None and not 0 <= seat < n:
            raise ConfigError(f"seat must be 0..{n - 1}, got {seat}")
        if illegal not in ("lose", "raise"):
            raise ConfigError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        for spec in specs:
            create(spec, self.game, allowed=True)  # a bad spec fails here
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.dense = dense
        self.dense_scale = dense_scale
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        low, high = observation_box(self.game)  # the game's declared bounds
        actions = self.game.num_distinct_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self._rng = random.Random()
        self.seat = 0 if seat is None else seat
        self.opponents: dict[int, Agent] = {}
        self.position: State = self.game.new_initial_state()
        self._done = True

    # -- the Gymnasium API ----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.game.num_players
        self.seat = self._rng.randrange(n) if self.fixed_seat is None else self.fixed_seat
        others = [s for s in range(n) if s != self.seat]
        self.opponents = {
            s: create(spec, self.game, seed=self._rng.randrange(2**31), allowed=True)
            for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.position = self.game.new_initial_state()
        self._done = False
        self._advance()
        self._done = self.position.is_terminal()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        state = self.position
        action = int(action)
        if action not in state.legal_actions():
            if self.illegal == "raise":
                state.apply_action(action)  # raises IllegalActionError, naming the rule
                raise IllegalActionError(f"{self.game.name}: action {action} is illegal")
            self._done = True
            info = self._info()
            info["illegal"] = True
            return self._observe(), float(self.illegal_reward), True, False, info
        before = float(state.scores()[self.seat])
        state.apply_action(action)
        self._advance()
        reward = 0.0
        if self.dense:
            reward += self.dense_scale * (float(state.scores()[self.seat]) - before)
        terminated = state.is_terminal()
        if terminated:
            reward += float(state.returns()[self.seat])
            self._done = True
        return self._observe(), reward, terminated, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.position.render_text(self.seat)
        return None

    # -- helpers --------------------------------------------------------------------

    def _advance(self) -> None:
        """Chance and the opponents' moves, until the learner is to move or the game ends."""
        state = self.position
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(self._rng))
            elif state.current_player() == self.seat:
                return
            else:
                mover = state.current_player()
                state.apply_unchecked(self.opponents[mover].act(state))

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        state = self.position
        if not state.is_terminal() and state.current_player() == self.seat:
            mask[state.legal_actions()] = 1
        return mask

    def _observe(self) -> Observation:
        tensor = np.asarray(self.position.observation_tensor(self.seat), dtype=np.float32)
        return {"observation": tensor, "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "action_mask": self._mask()}
        if self.position.is_terminal():
            info["scores"] = [float(s) for s in self.position.scores()]
        return info

"""Every motherlode game as a PettingZoo AEC environment.

>>> from motherlode.adapters import pettingzoo as mpz
>>> env = mpz.env("yukon", players=3)
>>> env.reset(seed=42)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["observation"].dtype, obs["action_mask"].dtype
(['action_mask', 'observation'], dtype('float32'), dtype('int8'))
>>> action = env.action_space(env.agent_selection).sample(obs["action_mask"])
>>> env.step(action)

* Agents are ``player_0 .. player_{n-1}``, the game's seats.
* Observations are dicts: ``observation`` is ``State.observation_tensor(seat)`` (float32,
  the game's fixed shape, from that seat's view) and ``action_mask`` the legal decision
  ids (int8, all zero for a seat not to move). Spaces are fixed per game config:
  ``Dict(observation=Box, action_mask=Box(0, 1))`` and ``Discrete(num_distinct_actions)``.
  The observation box holds the game's declared bounds per value
  (:func:`motherlode.research.layout.bounds`; ``[-OBS_BOUND, OBS_BOUND]`` for a game
  that declares none). Both arrays are read-only and shared by every call until the
  position changes (each seat's tensor is built once per position): copy one to change it.
* Chance (deals, dice, draws, reveals) is resolved inside the env by its own RNG,
  seeded by ``reset(seed=...)`` (``reset()`` without a seed goes on with the same RNG).
* Rewards are terminal: the game's returns (+1 winners, -1 others, 0 all on a full tie),
  given once at the end. Games end by their own rules and turn limits, so truncation
  never happens.
* ``state()`` is the spectator's tensor (``observation_tensor(None)``), for centralised
  critics. Renders: ``render_mode="ansi"`` gives the text board, ``"rgb_array"`` the SVG
  board rasterised by :mod:`motherlode.adapters.raster`.
* An illegal action raises :class:`motherlode.IllegalActionError` and changes nothing.

``parallel_env(...)`` is the turn-based parallel conversion
(``pettingzoo.utils.conversions.turn_based_aec_to_parallel``): every live agent gets an
observation each step and only the agent to move's action is used.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

# pettingzoo ships no py.typed (import-untyped); without the [pettingzoo] extra neither it
# nor gymnasium is installed (import-not-found): mypy passes in both environments.
from gymnasium import spaces  # type: ignore[import-not-found,unused-ignore]
from gymnasium.utils import EzPickle  # type: ignore[import-not-found,unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]
from pettingzoo.utils import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
    wrappers,
)
from pettingzoo.utils.conversions import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
    turn_based_aec_to_parallel,
)

import motherlode
from motherlode.adapters.raster import svg_to_rgb
from motherlode.core.protocol import CHANCE, Game, Player, State
from motherlode.research.layout import OBS_BOUND, observation_box

__all__ = ["OBS_BOUND", "MotherlodeEnv", "env", "observation_box", "parallel_env", "raw_env"]

Observation = dict[str, np.ndarray[Any, Any]]


class MotherlodeEnv(AECEnv, EzPickle):  # type: ignore[misc]  # AECEnv is untyped (Any)
    """The AEC environment of one motherlode game and config."""

    RENDER_MODES: ClassVar[tuple[str, ...]] = ("ansi", "rgb_array")

    metadata: dict[str, Any]
    """Per game: ``render_modes``, ``name`` (``motherlode_<game>_v0``), ``render_fps`` and
    ``is_parallelizable`` False (turns are not cycles: see :func:`parallel_env`)."""

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        render_scale: float = 1.0,
        **config: Any,
    ) -> None:
        EzPickle.__init__(self, game, render_mode, render_scale, **config)
        super().__init__()
        if isinstance(game, Game):
            if config:
                raise motherlode.ConfigError("pass either a loaded game or config options")
            self.game: Game = game
        else:
            self.game = motherlode.load(game, **config)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.RENDER_MODES}")
        self.metadata = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"motherlode_{self.game.name}_v0",
            "is_parallelizable": False,
            "render_fps": 1,
        }
        self.render_mode = render_mode
        self.render_scale = render_scale
        n = self.game.num_players
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        low, high = observation_box(self.game)
        actions = self.game.num_distinct_actions
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(actions) for agent in self.possible_agents
        }
        self.state_space = spaces.Box(low, high, dtype=np.float32)
        self._rng = random.Random()
        self.position: State = self.game.new_initial_state()
        self._legal: list[int] = []
        self._legal_at = -1  # the history length the legal actions were computed at
        # each seat's (tensor, mask) of the position at _seen_at moves of _seen_in
        self._seen: dict[Player | None, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = {}
        self._seen_at = -1
        self._seen_in: State | None = None
        self._actions = actions
        self._no_moves = np.zeros(actions, dtype=np.int8)  # every mask of a seat not to move
        self._no_moves.flags.writeable = False
        # the game has ended: every agent is terminated (all at once). Until then every
        # reward is zero, so a live step has no rewards to clear or accumulate.
        self._over = False
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # -- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC API ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.position = self.game.new_initial_state()
        self._legal_at = -1
        self._seen_in = None
        self._over = False
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[max(0, self.position.current_player())]
        if self.position.is_terminal():  # a game over before its first decision
            self._finish()

    def observe(self, agent: str) -> Observation:
        tensor, mask = self._view(self._seat[agent])
        return {"observation": tensor, "action_mask": mask}

    def _view(self, seat: Player | None) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``seat``'s tensor and mask, built once per position (read-only: they are shared
        by every ``observe`` of that seat until the position changes)."""
        state = self.position
        moves = state.move_number()
        if self._seen_at == moves and self._seen_in is state:
            seen = self._seen.get(seat)
            if seen is not None:
                return seen
        else:
            self._seen = {}
            self._seen_at = moves
            self._seen_in = state
        tensor = state.observation_tensor(seat)
        if tensor.dtype != np.float32:
            tensor = np.asarray(tensor, dtype=np.float32)
        tensor.setflags(write=False)  # (setflags costs half of flags.writeable = False)
        mask = self._no_moves
        if seat is not None and state.current_player() == seat:
            if self._legal_at != moves:
                self._legal = state.legal_actions()
                self._legal_at = moves
            ones = bytearray(self._actions)
            for action in self._legal:  # cheaper than numpy's indexing by a list
                ones[action] = 1
            mask = np.frombuffer(bytes(ones), np.int8)  # read-only: a view of bytes
        seen = self._seen[seat] = (tensor, mask)
        return seen

    def step(self, action: Any) -> None:
        if self._over:  # every agent is terminated (all at once, at the game's end)
            self._was_dead_step(action)
            return
        if action is None:
            raise motherlode.IllegalActionError(
                f"{self.game.name}: {self.agent_selection} is to move and gave no action"
            )
        if type(action) is not int:
            action = int(action)
        state = self.position
        moves = state.move_number()
        if self._legal_at != moves:
            self._legal = state.legal_actions()
            self._legal_at = moves
        if action in self._legal:
            state.apply_unchecked(action)  # checked just now, against the legal set
        else:
            state.apply_action(action)  # raises why it is illegal, changes nothing
        rng = self._rng
        while True:  # the chance nodes, resolved here; one query per node
            player = state.current_player()
            if player >= 0:
                self.agent_selection = self.possible_agents[player]
                return
            if player != CHANCE:  # terminal; every reward was zero until now
                self._finish()
                self._accumulate_rewards()
                return
            state.apply_unchecked(state.sample_chance(rng))

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        return self._view(None)[0]

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        if self.render_mode == "ansi":
            return self.position.render_text(None)
        return svg_to_rgb(self.position.render_svg(None), scale=self.render_scale)

    def close(self) -> None:
        return None

    # -- helpers --------------------------------------------------------------------

    def _resolve_chance(self) -> None:
        state = self.position
        while state.is_chance_node():
            state.apply_unchecked(state.sample_chance(self._rng))

    def _finish(self) -> None:
        returns = self.position.returns()
        self.rewards = {agent: float(returns[self._seat[agent]]) for agent in self.agents}
        self._over = True
        self.terminations = dict.fromkeys(self.agents, True)
        for agent in self.agents:
            self.infos[agent] = {"scores": [float(s) for s in self.position.scores()]}

    def __str__(self) -> str:
        return f"motherlode_{self.game.name}"


def raw_env(game: str | Game, **options: Any) -> MotherlodeEnv:
    """The bare AEC env of ``game`` (a name, or a loaded game).

    ``options``: ``render_mode``, ``render_scale`` and the game's config options.
    """
    return MotherlodeEnv(game, **options)


def env(game: str | Game, **options: Any) -> Any:
    """The AEC env of ``game``, in PettingZoo's order-enforcing wrapper (as its classics)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, **options))


def parallel_env(game: str | Game, **options: Any) -> Any:
    """The turn-based parallel env of ``game`` (only the agent to move's action is used)."""
    return turn_based_aec_to_parallel(env(game, **options))

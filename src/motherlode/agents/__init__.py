"""Agents from spec strings: ``create("random", game)``, ``create("greedy", game, seed=3)``.

A spec is ``name`` or ``name:key=value,key=value``. Built-in agents work for every game;
game-specific ones (``greedy``) come from ``game.bots()``.

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> create("random", game, seed=1).name
'random'
>>> create("nonsense", game)
Traceback (most recent call last):
...
motherlode.core.errors.AgentSpecError: unknown agent 'nonsense' for yukon; agents: random, greedy
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from motherlode.core.agent import Agent, RandomAgent
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Game

__all__ = ["Agent", "RandomAgent", "available", "create", "parse_spec"]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:iterations=100,rollout=greedy"`` into its name and raw parameters."""
    spec = spec.strip()
    if not spec:
        raise AgentSpecError("empty agent spec")
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise AgentSpecError(f"agent spec {spec!r}: parameter {part!r} is not key=value")
            params[key.strip()] = value.strip()
    return name.strip().lower(), params


def _builtin(game: Game) -> dict[str, Callable[..., Agent]]:
    return {"random": RandomAgent}


def available(game: Game) -> list[str]:
    return [*_builtin(game), *game.bots()]


def create(spec: str, game: Game, seed: int = 0) -> Agent:
    """The agent ``spec`` for ``game``, deterministic given ``seed``."""
    name, params = parse_spec(spec)
    factories = {**_builtin(game), **game.bots()}
    if name not in factories:
        raise AgentSpecError(
            f"unknown agent {name!r} for {game.name}; agents: {', '.join(factories)}"
        )
    factory = factories[name]
    kwargs: dict[str, Any] = {}
    for key, raw in params.items():
        kwargs[key] = _coerce(raw)
    try:
        agent = factory(seed=seed, **kwargs) if name == "random" else factory(game, seed=seed, **kwargs)
    except TypeError as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None
    agent.name = spec
    return agent


def _coerce(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw

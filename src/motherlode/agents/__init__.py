"""Agents from spec strings: ``create("random", game)``, ``create("mcts:iterations=500", game)``.

A spec is ``name`` or ``name:key=value,key=value``. The built-in agents work for every
game through the protocol alone; game-specific ones (``greedy``) come from ``game.bots()``;
your own come from code, ``py:MODULE:FACTORY:key=value`` (:mod:`.code`), where the caller
allows them (``create(spec, game, allowed=True)``).

=================  ==========================================================================
``random``         uniformly random legal actions
``mcts``           Monte Carlo tree search for n players with chance (:mod:`.mcts`)
``plans``          MCTS over the plans a game's bot offers, for long turns (:mod:`.plans`)
``alphabeta``      alpha-beta / expectimax for two-player games (:mod:`.search`);
                   ``expectimax`` and ``ab`` are other names for it
``greedy`` ...     the game's own bots (``game.bots()``)
=================  ==========================================================================

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> create("random", game, seed=1).name
'random'
>>> create("mcts:iterations=50,rollout=greedy", game).name
'mcts:iterations=50,rollout=greedy'
>>> create("mcts:iterations=lots", game)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
motherlode.core.errors.AgentSpecError: agent spec 'mcts:iterations=lots': iterations must be ...
>>> create("nonsense", game)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
motherlode.core.errors.AgentSpecError: unknown agent 'nonsense' for yukon; the agents are:
  random: uniformly random legal actions
...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from motherlode.agents.code import Allowed, is_code_spec, make_code_agent, operator_allowed
from motherlode.agents.levels import LEVELS, game_level_spec, is_level
from motherlode.agents.mcts import MCTS_PARAMS, MCTSAgent
from motherlode.agents.params import Param
from motherlode.agents.plans import PLANS_PARAMS, PlanSearchAgent
from motherlode.agents.search import ALPHABETA_PARAMS, AlphaBetaAgent
from motherlode.core.agent import Agent, RandomAgent
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Game

__all__ = [
    "Agent",
    "AgentInfo",
    "Allowed",
    "Param",
    "RandomAgent",
    "agent_infos",
    "available",
    "create",
    "describe",
    "is_code_spec",
    "operator_allowed",
    "parse_spec",
    "split_specs",
]


@dataclass(frozen=True)
class AgentInfo:
    """An agent the spec language knows: its name, a summary and its parameters.

    ``params`` is ``None`` for game bots whose parameters are not declared: their raw
    values are passed on as int, float, bool or text.
    """

    name: str
    summary: str
    factory: Callable[..., Agent]
    params: tuple[Param, ...] | None = ()
    aliases: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        names = ", ".join((self.name, *self.aliases))
        lines = [f"  {names}: {self.summary}"]
        if self.params is None:
            lines.append("      (the game's own bot; its parameters pass through)")
        for p in self.params or ():
            lines.append(f"      {p.describe()}")
        return "\n".join(lines)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:iterations=100,rollout=greedy"`` into its name and raw parameters.

    >>> parse_spec("mcts:iterations=100, rollout=greedy")
    ('mcts', {'iterations': '100', 'rollout': 'greedy'})
    """
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
            if key.strip() in params:
                raise AgentSpecError(f"agent spec {spec!r}: parameter {key.strip()!r} given twice")
            params[key.strip()] = value.strip()
    return name.strip().lower(), params


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs whose own parameters also use commas.

    A part that looks like ``key=value`` (no ``:`` before its ``=``) continues the spec
    before it; ``;`` always separates.

    >>> split_specs("mcts:seconds=1.0,rollout=greedy,greedy,random")
    ['mcts:seconds=1.0,rollout=greedy', 'greedy', 'random']
    """
    specs: list[str] = []
    for chunk in text.split(";"):
        these: list[str] = []
        for part in chunk.split(","):
            part = part.strip()
            if not part:
                continue
            eq, colon = part.find("="), part.find(":")
            if these and eq > 0 and (colon < 0 or colon > eq) and ":" in these[-1]:
                these[-1] += "," + part
            else:
                these.append(part)
        specs.extend(these)
    return specs


def _random_factory(game: Game, seed: int = 0) -> Agent:
    return RandomAgent(seed=seed)


def _mcts_factory(game: Game, seed: int = 0, **params: Any) -> Agent:
    return MCTSAgent(game, seed=seed, **params)


def _plans_factory(game: Game, seed: int = 0, **params: Any) -> Agent:
    return PlanSearchAgent(game, seed=seed, **params)


def _alphabeta_factory(game: Game, seed: int = 0, **params: Any) -> Agent:
    return AlphaBetaAgent(game, seed=seed, **params)


def _builtin() -> list[AgentInfo]:
    return [
        AgentInfo("random", "uniformly random legal actions", _random_factory),
        AgentInfo(
            "mcts",
            "Monte Carlo tree search (UCT, max^n, chance sampled), any game",
            _mcts_factory,
            MCTS_PARAMS,
        ),
        AgentInfo(
            "plans",
            "MCTS over the plans the game's bot offers (turns of many decisions: Eurorails)",
            _plans_factory,
            PLANS_PARAMS,
            aliases=("mcts-plans",),
        ),
        AgentInfo(
            "alphabeta",
            "alpha-beta / expectimax with a transposition table, 2-player games",
            _alphabeta_factory,
            ALPHABETA_PARAMS,
            aliases=("expectimax", "ab"),
        ),
    ]


def agent_infos(game: Game) -> list[AgentInfo]:
    """Every agent available for ``game``: the built-in ones, then the game's bots."""
    infos = _builtin()
    for name, factory in game.bots().items():
        infos.append(AgentInfo(name, _bot_summary(factory), factory, None))
    return infos


def _bot_summary(factory: Callable[..., Agent]) -> str:
    doc = inspect.getdoc(factory)
    if doc:
        return doc.splitlines()[0]
    return "the game's own bot"


def available(game: Game) -> list[str]:
    """The bot levels, then the agent names for ``game`` (aliases left out)."""
    return [*LEVELS, *(info.name for info in agent_infos(game))]


def describe(game: Game) -> str:
    """A listing of the agents for ``game`` and their parameters, one block per agent."""
    return "\n".join(info.describe() for info in agent_infos(game))


def _find(name: str, infos: Sequence[AgentInfo]) -> AgentInfo | None:
    for info in infos:
        if name == info.name or name in info.aliases:
            return info
    return None


def create(spec: str, game: Game, seed: int = 0, *, allowed: Allowed = False) -> Agent:
    """The agent ``spec`` for ``game``, deterministic given ``seed``.

    A bad spec raises :class:`AgentSpecError` that lists the agents and their parameters.
    ``allowed`` says which agents from code (``py:MODULE:FACTORY``, :mod:`.code`) may
    run: none by default (a visitor's spec), ``True`` for all (the command line, the
    arena), or a server operator's list (:func:`operator_allowed`).
    """
    if is_code_spec(spec):
        return make_code_agent(spec, game, seed, allowed=allowed)
    if is_level(spec):  # easy, medium, hard, strongest: a measured spec of this game
        agent = create(game_level_spec(game, spec), game, seed)
        agent.name = spec.strip().lower()
        return agent
    name, raw = parse_spec(spec)
    infos = agent_infos(game)
    info = _find(name, infos)
    if info is None:
        raise AgentSpecError(
            f"unknown agent {name!r} for {game.name}; the agents are:\n{describe(game)}"
        )
    kwargs: dict[str, Any] = {}
    if info.params is None:
        kwargs = {key: _coerce(value) for key, value in raw.items()}
    else:
        known = {p.name: p for p in info.params}
        for key, value in raw.items():
            if key not in known:
                raise AgentSpecError(
                    f"agent spec {spec!r}: {info.name} has no parameter {key!r};"
                    f" its parameters:\n{info.describe()}"
                )
            kwargs[key] = known[key].coerce(value, spec)
    try:
        agent = info.factory(game, seed=seed, **kwargs)
    except TypeError as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None
    except ValueError as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None
    agent.name = spec.strip()
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

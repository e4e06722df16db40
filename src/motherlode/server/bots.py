"""The server's caps on bots: no visitor's spec may take more than its share of the machine.

A bot seat is an agent spec (``mcts:iterations=2000``) chosen by whoever creates a match,
so the server bounds what a spec may ask, at creation and again whenever it makes the
agent (after a restart too, for specs stored before the caps or under looser ones):

* thinking time: a search agent thinks at most ``max_seconds`` a move; a spec that asks
  for more is refused, and one that gives only a count (``iterations=100000000``) thinks
  until its count *or* the time cap, whichever comes first (the cap is added to it);
* counts: ``iterations`` and ``nodes`` above ``max_count`` are refused outright.

>>> caps = BotCaps(max_seconds=2.0)
>>> caps.apply("mcts:iterations=5000")
'mcts:iterations=5000,seconds=2'
>>> caps.apply("greedy")
'greedy'
>>> caps.apply("mcts")  # the default budget, bounded by the time cap too
'mcts:iterations=1000,seconds=2'
>>> import motherlode
>>> BotCaps(max_seconds=0.5).apply("strongest", motherlode.load("yukon"))  # fits the cap
'mcts:iterations=12000,seconds=0.5'
>>> try:
...     caps.apply("mcts:seconds=30")
... except AgentSpecError as err:
...     print(err)
mcts:seconds=30 asks for 30 s a move; this server allows at most 2 s
"""

from __future__ import annotations

from dataclasses import dataclass

from motherlode.agents import parse_spec
from motherlode.agents.levels import game_level_spec, is_level
from motherlode.core.errors import AgentSpecError
from motherlode.core.protocol import Game

DEFAULT_BUDGET = {
    "mcts": ("iterations", "1000"),
    "plans": ("iterations", "32"),
    "mcts-plans": ("iterations", "32"),
    "alphabeta": ("nodes", "20000"),
    "expectimax": ("nodes", "20000"),
    "ab": ("nodes", "20000"),
}
"""The agents whose strength is bought with time (capped), and the count each uses when a
spec gives no budget (so that a capped spec still plays as it would uncapped, on a machine
fast enough). Others (random, greedy) answer at once."""

COUNTS = ("iterations", "nodes")


def _number(text: str) -> str:
    value = float(text)
    return str(int(value)) if value.is_integer() else f"{value:g}"


@dataclass(frozen=True)
class BotCaps:
    """Per-server caps on a bot's move (``motherlode serve --bot-max-seconds``)."""

    max_seconds: float = 2.0
    """The longest a search agent may think per move."""
    max_count: int = 1_000_000
    """The most iterations (MCTS, plans) or nodes (alpha-beta) a spec may ask per move."""

    def apply(self, spec: str, game: Game | None = None) -> str:
        """``spec`` within the caps (a time cap added where it has none), or
        :class:`AgentSpecError` saying which cap it exceeds. A level name (``strongest``)
        is the level's spec for ``game`` made to fit: its time cut to the cap, not refused.
        """
        if game is not None and is_level(spec):
            spec = self._fit(game_level_spec(game, spec))
        name, params = parse_spec(spec)
        if name not in DEFAULT_BUDGET:
            return spec.strip()
        for key in COUNTS:
            if key in params:
                try:
                    count = float(params[key])
                except ValueError:
                    continue  # the agent's own check names the bad value
                if count > self.max_count:
                    raise AgentSpecError(
                        f"{spec.strip()} asks for {key}={params[key]}; this server allows at"
                        f" most {self.max_count}"
                    )
        seconds = params.get("seconds")
        if seconds is not None:
            try:
                asked = float(seconds)
            except ValueError:
                return spec.strip()
            if asked > self.max_seconds:
                raise AgentSpecError(
                    f"{spec.strip()} asks for {_number(seconds)} s a move; this server allows"
                    f" at most {_number(str(self.max_seconds))} s"
                )
            if asked > 0:
                return spec.strip()
        capped = {k: v for k, v in params.items() if k != "seconds"}
        if not any(key in capped for key in COUNTS):  # the agent's own default budget
            budget_key, budget = DEFAULT_BUDGET[name]
            capped[budget_key] = budget
        capped["seconds"] = _number(str(self.max_seconds))
        return f"{name}:" + ",".join(f"{k}={v}" for k, v in capped.items())

    def _fit(self, spec: str) -> str:
        """A level's spec cut to the caps: its time to ``max_seconds``, its count (the
        levels are iteration budgets, so that their strength does not depend on the
        machine's load) to ``max_count``; ``apply`` then adds the time cap to a count.

        >>> BotCaps(max_count=5000)._fit("mcts:iterations=12000,rollout=none")
        'mcts:iterations=5000,rollout=none'
        """
        name, params = parse_spec(spec)
        fitted = dict(params)
        seconds = params.get("seconds")
        if seconds is not None and float(seconds) > self.max_seconds:
            fitted["seconds"] = _number(str(self.max_seconds))
        for key in COUNTS:
            if key in params and float(params[key]) > self.max_count:
                fitted[key] = str(self.max_count)
        if fitted == params:
            return spec
        return f"{name}:" + ",".join(f"{k}={v}" for k, v in fitted.items())

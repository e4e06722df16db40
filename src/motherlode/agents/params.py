"""The parameters of an agent spec (``mcts:iterations=2000``): name, type, default, meaning.

Kept apart from :mod:`motherlode.agents` (the spec registry) so that the agents' modules
declare their parameters without importing the registry that imports them.

>>> Param("iterations", int, 1000, "simulations a move").coerce("250", "mcts:iterations=250")
250
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from motherlode.core.errors import AgentSpecError


@dataclass(frozen=True)
class Param:
    """One parameter of an agent spec: its name, type, default and meaning."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()

    def coerce(self, raw: str, spec: str) -> Any:
        """``raw`` (the text after ``=``) as this parameter's type; bad text raises."""
        if self.kind is bool:
            low = raw.lower()
            if low in ("true", "yes", "1", "on"):
                return True
            if low in ("false", "no", "0", "off"):
                return False
            raise AgentSpecError(f"agent spec {spec!r}: {self.name} must be true or false")
        if self.kind in (int, float):
            try:
                value = self.kind(raw)
            except ValueError:
                raise AgentSpecError(
                    f"agent spec {spec!r}: {self.name} must be {_article(self.kind.__name__)}"
                    f" (got {raw!r})"
                ) from None
            if value < 0:
                raise AgentSpecError(f"agent spec {spec!r}: {self.name} must not be negative")
            return value
        if self.choices and raw.lower() not in self.choices:
            raise AgentSpecError(
                f"agent spec {spec!r}: {self.name} must be one of {', '.join(self.choices)}"
                f" (got {raw!r})"
            )
        return raw.lower() if self.choices else raw

    def describe(self) -> str:
        kind = "|".join(self.choices) if self.choices else self.kind.__name__
        return f"{self.name}={kind} (default {self.default}): {self.help}"


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word

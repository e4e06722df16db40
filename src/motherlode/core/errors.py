"""Typed errors. Every error a user can cause is a :class:`MotherlodeError`.

They sit under :class:`ValueError` (as python-chess's move errors do), so code that
already catches ``ValueError`` keeps working, and each message names the offending
input and, where there is one, the position it was tried in.
"""

from __future__ import annotations


class MotherlodeError(ValueError):
    """Base class of every error motherlode raises on bad input."""


class ConfigError(MotherlodeError):
    """A game configuration (or a data file it loads) is invalid."""


class IllegalActionError(MotherlodeError):
    """An action is well formed but not legal in this position. The state is unchanged."""


class NotationError(MotherlodeError):
    """A position or action string cannot be parsed."""


class RecordError(MotherlodeError):
    """A game record is corrupt, or replaying it does not reproduce what it claims."""


class AgentSpecError(MotherlodeError):
    """An agent spec string (``mcts:iterations=100``) names no agent or a bad parameter."""

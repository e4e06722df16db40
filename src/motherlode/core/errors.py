"""Typed errors. Every error a user can cause is a :class:`MotherlodeError`.

They sit under :class:`ValueError` (as python-chess's move errors do), so code that
already catches ``ValueError`` keeps working. Each message names the offending input in
the player's words (seats as P1..Pn) and never holds the position: a position can hold
what the player who made the mistake may not see (another seat's hand), and messages
reach clients. The position travels as the error's :attr:`~PositionError.position`
attribute, for tools and logs (DESIGN.md §2).
"""

from __future__ import annotations


class MotherlodeError(ValueError):
    """Base class of every error motherlode raises on bad input."""


class ConfigError(MotherlodeError):
    """A game configuration (or a data file it loads) is invalid."""


class PositionError(MotherlodeError):
    """An error about a move in a position: the position is an attribute, never the message.

    >>> err = IllegalActionError("yukon: illegal action 'c1' for P1", position="...")
    >>> str(err), err.position
    ("yukon: illegal action 'c1' for P1", '...')
    """

    def __init__(
        self, message: str, *, position: str | None = None, rule: str | None = None
    ) -> None:
        super().__init__(message)
        self.position = position
        """The position notation the move was tried in (for tools and logs only)."""
        self.rule = rule
        """The rulebook section that forbids the move, where the game names one."""


class IllegalActionError(PositionError):
    """An action is well formed but not legal in this position. The state is unchanged."""


class NotationError(PositionError):
    """A position or action string cannot be parsed."""


class RecordError(MotherlodeError):
    """A game record is corrupt, or replaying it does not reproduce what it claims."""


class AgentSpecError(MotherlodeError):
    """An agent spec string (``mcts:iterations=100``) names no agent or a bad parameter."""

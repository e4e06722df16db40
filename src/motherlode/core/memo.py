"""What a drawer builds once per position for every viewer it draws (the server: each
seat and the spectator of one revision of a match; DESIGN.md §3b): a renderer's public
layer, the spectator's view, the legal moves with their notation.

Outside :func:`shared` nothing is kept: each call builds afresh, so an engine or a
renderer may ask through these anywhere (the terminal, a replay) and get what it would
have built itself.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_SHARED: contextvars.ContextVar[dict[Any, Any] | None] = contextvars.ContextVar(
    "motherlode_svg_shared", default=None
)


def once(state: object, part: str, build: Callable[[], T]) -> T:
    """A part of ``state``'s board that is the same for every viewer (``part`` names it:
    ``"public"``), built once per position while a drawer shares its parts between the
    viewers it draws (:func:`shared`: the server, each seat and the spectator of one
    position); built afresh otherwise. A renderer's ``svg_layers`` wraps its public layer
    (and what its seat layer reads of it) in this, so that the server draws that layer
    once per position whoever watches (DESIGN.md §3b).

    >>> built = []
    >>> def draw() -> str:
    ...     built.append(1)
    ...     return "<g/>"
    >>> position = object()
    >>> with shared({}):
    ...     once(position, "public", draw), once(position, "public", draw)
    ('<g/>', '<g/>')
    >>> once(position, "public", draw), len(built)  # nothing shared: built again
    ('<g/>', 2)
    """
    memo = _SHARED.get()
    if memo is None:
        return build()
    key = (id(state), part)
    held = memo.get(key)
    if held is None or held[0] is not state:  # (the state is held: its id stays its own)
        held = memo[key] = (state, build())
    value: T = held[1]
    return value


def spectator_view(state: Any) -> Any:
    """``state.observation(None)`` (what a spectator sees), built once per position while
    a drawer shares its parts (:func:`once`): the renderers' public layers and the
    server's fields read the same one. Read it, never change it."""
    return once(state, "spectator view", lambda: state.observation(None))


def legal_texts(state: Any) -> list[tuple[int, str]]:
    """``state``'s legal actions with their notation, once per position while shared
    (:func:`once`): the seat layer's buttons and the server's list of moves."""
    return once(
        state,
        "legal texts",
        lambda: [(a, state.action_to_string(a)) for a in state.legal_actions()],
    )


def scores(state: Any) -> Any:
    """``state.scores()``, worked out once per position while shared (:func:`once`): a
    view that shows the points and the server's scores field read the same list. Read
    it, never change it."""
    return once(state, "scores", state.scores)


@contextlib.contextmanager
def shared(memo: dict[Any, Any]) -> Iterator[dict[Any, Any]]:
    """Within this block, :func:`once` keeps what it builds in ``memo`` (one per
    position, e.g. per revision of a match), for every viewer drawn from it."""
    token = _SHARED.set(memo)
    try:
        yield memo
    finally:
        _SHARED.reset(token)

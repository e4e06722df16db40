"""Test-only bots for Yukon, to prove the bot workers survive them: one that kills its
process (``test-crash``), one that never answers (``test-overrun``), one that raises
(``test-raise``).

:func:`register` adds them to Yukon's bots; a bot worker imports this module first
(``bot_preload``), which registers them there (never in the test process by import, so
that no other test sees them).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games import game_class


class CrashingBot(Agent):
    """Kills its own process mid-move, as a segfault or the OOM killer would."""

    def act(self, state: State) -> Action:
        os._exit(3)


class OverrunningBot(Agent):
    """Ignores every time cap."""

    def act(self, state: State) -> Action:
        time.sleep(3600)
        return state.legal_actions()[0]


class RaisingBot(Agent):
    def act(self, state: State) -> Action:
        raise RuntimeError("a bug in the bot")


def _factory(cls: type[Agent]) -> Callable[..., Agent]:
    def make(game: Game, seed: int = 0, **_: Any) -> Agent:
        return cls(seed=seed)

    make.__doc__ = cls.__doc__
    return make


BAD_BOTS = {
    "test-crash": _factory(CrashingBot),
    "test-overrun": _factory(OverrunningBot),
    "test-raise": _factory(RaisingBot),
}


def register() -> dict[str, Callable[..., Agent]]:
    """Yukon's bots with the bad ones added (the old ones returned, to restore them)."""
    cls = game_class("yukon")
    old = dict(cls.bot_factories)
    cls.bot_factories = {**old, **BAD_BOTS}
    return old


@dataclass(frozen=True)
class SleepJob:
    """A job that runs itself (as an analysis does) and waits ``seconds`` using no CPU."""

    seconds: float
    match_id: str = "m"
    spec: str = "sleep"

    def run(self, positions: Any = None) -> str:
        time.sleep(self.seconds)
        return "slept"


@dataclass(frozen=True)
class BareExitJob:
    """A job without the names the pool logs (``match_id``, ``spec``) that ends its
    worker: the pool's own line about the dead worker fails (no timing involved)."""

    def run(self, positions: Any = None) -> str:
        os._exit(3)


@dataclass(frozen=True)
class SpinJob:
    """A job that keeps a CPU busy for ``seconds`` of its own CPU time."""

    seconds: float
    match_id: str = "m"
    spec: str = "spin"

    def run(self, positions: Any = None) -> str:
        end = time.process_time() + self.seconds
        while time.process_time() < end:
            pass
        return "spun"


if multiprocessing.parent_process() is not None:  # imported by a bot worker
    register()

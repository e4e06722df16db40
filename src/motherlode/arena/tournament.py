"""Tournaments: a fair schedule of games between agents, played anywhere, stored, resumable.

A tournament is its game and config, its agent specs, a number of games and a seed. Its
id is derived from those (so running the same command again resumes it) unless one is
given. Game ``i`` is fully described by a :class:`GameTask` (the specs per seat, the seed
of the deal, the seeds of the agents), so it gives the same result wherever it is played:
in this process, in a local worker process or on a Ray cluster.

Seats are rotated fairly: the *lineups* are every choice of ``n`` agents among the ``k``
given (``k >= n``), or, with fewer agents than seats, each agent once against the others
filling the remaining seats; each lineup is played in its ``n`` cyclic rotations, on the
same deal (duplicate style), so no agent gains from a lucky seat or a lucky deal.

>>> [t.seats for t in schedule("yukon", {"players": 2}, ["a", "b"], games=4, seed=0)]
[('a', 'b'), ('b', 'a'), ('a', 'b'), ('b', 'a')]
>>> [t.deal_seed for t in schedule("yukon", {"players": 2}, ["a", "b"], games=4, seed=0)]
[0, 0, 1, 1]
>>> lineups(["mcts", "greedy"], 3)
[('mcts', 'greedy', 'greedy'), ('greedy', 'mcts', 'greedy'), ('greedy', 'greedy', 'mcts'), \
('greedy', 'mcts', 'mcts'), ('mcts', 'greedy', 'mcts'), ('mcts', 'mcts', 'greedy')]
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game


@dataclass(frozen=True)
class GameTask:
    """Everything needed to play game ``index`` of a tournament, anywhere."""

    tournament: str
    index: int
    game: str
    config: dict[str, Any]
    seats: tuple[str, ...]
    deal_seed: int
    agent_seeds: tuple[int, ...]
    keep_record: bool = False
    """Return the game's whole record (``GameResult.record``), for trajectories."""


@dataclass
class GameResult:
    """One stored game: the row of the results store (one per game)."""

    tournament: str
    index: int
    game: str
    config: dict[str, Any]
    seats: list[str]
    seed: int
    scores: list[float]
    winners: list[int]
    length: int
    actions: int
    duration: float
    finished: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    )
    record: str | None = field(default=None, compare=False, repr=False)
    """The game record's JSON (``GameRecord.to_json``) when the task kept it; never stored
    in the results store, written as a file by the caller."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def players(self) -> int:
        return len(self.seats)

    def ranks(self) -> list[int]:
        """Rank per seat: 1 for every winner, then by score (ties share a rank)."""
        win = set(self.winners)
        out = []
        for seat, score in enumerate(self.scores):
            if seat in win:
                out.append(1)
            else:
                better = sum(1 for q, s in enumerate(self.scores) if q not in win and s > score)
                out.append(2 + better)
        return out


def config_key(config: dict[str, Any]) -> str:
    """A canonical JSON text of a config (sorted keys), for grouping and ids."""
    return json.dumps(config, sort_keys=True, separators=(",", ":"))


def tournament_id(game: str, config: dict[str, Any], specs: Sequence[str], seed: int) -> str:
    """The default id: a digest of what defines the tournament (the same command resumes it).

    >>> tournament_id("yukon", {"players": 2}, ["mcts", "greedy"], 0)  # doctest: +ELLIPSIS
    'yukon-...'
    """
    text = json.dumps([game, config_key(config), list(specs), seed])
    return f"{game}-{hashlib.sha1(text.encode()).hexdigest()[:10]}"


def lineups(specs: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings a tournament cycles through (see the module docstring)."""
    k, n = len(specs), players
    if k == 0:
        raise ValueError("a tournament needs at least one agent")
    if k >= n:
        bases = [tuple(specs[i] for i in combo) for combo in itertools.combinations(range(k), n)]
    elif k == 1:
        bases = [tuple(specs) * n]
    else:
        bases = []
        for i in range(k):
            others = [specs[j] for j in range(k) if j != i]
            fill = [others[j % len(others)] for j in range(n - 1)]
            bases.append((specs[i], *fill))
    out: list[tuple[str, ...]] = []
    for base in bases:
        for r in range(n):
            lineup = base[n - r :] + base[: n - r]
            if lineup not in out:
                out.append(lineup)
    return out


def agent_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of game ``index``."""
    return (seed * 1_000_003 + index * 101 + seat * 7919) % (2**31)


def schedule(
    game: str,
    config: dict[str, Any],
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    tournament: str = "",
) -> list[GameTask]:
    """The tasks of a tournament, in order (game ``i`` always gets the same task)."""
    players = int(config.get("players", len(specs)))
    seatings = lineups(specs, players)
    m = len(seatings)
    tid = tournament or tournament_id(game, config, specs, seed)
    return [
        GameTask(
            tournament=tid,
            index=i,
            game=game,
            config=dict(config),
            seats=seatings[i % m],
            deal_seed=seed + i // m,
            agent_seeds=tuple(agent_seed(seed, i, s) for s in range(players)),
        )
        for i in range(games)
    ]


def play_task(task: GameTask) -> GameResult:
    """Play one scheduled game (in any process) and return its stored row."""
    game = motherlode.load(task.game, **task.config)
    agents = [
        create(spec, game, seed=s, allowed=True)
        for spec, s in zip(task.seats, task.agent_seeds, strict=True)
    ]
    start = time.perf_counter()
    played = play_game(game, agents, task.deal_seed)
    duration = time.perf_counter() - start
    state = played.state
    return GameResult(
        tournament=task.tournament,
        index=task.index,
        game=task.game,
        config=dict(task.config),
        seats=list(task.seats),
        seed=task.deal_seed,
        scores=[float(s) for s in state.scores()],
        winners=list(state.winners()),
        length=played.decisions,
        actions=len(state.history()),
        duration=duration,
        record=played.record.to_json() if task.keep_record else None,
    )


ResultCallback = Callable[[GameResult], None]

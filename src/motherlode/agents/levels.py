"""Bot levels for people: ``easy``, ``medium``, ``hard``, ``strongest`` for every game.

Each level is an agent spec from docs/agents.md, where its strength was measured in the
arena (the figures are quoted there and in :data:`MEASURED`); ``create("hard", game)``
makes it, and the lobby and ``--seat`` take the level names as they take specs.

* ``easy``: uniformly random legal moves;
* ``medium``: the game's greedy bot (the one that ships with its rules);
* ``hard``: a search with a fixed budget that beat the greedy bot in the arena;
* ``strongest``: the strongest measured setting at about a CPU second a move. On a
  server, the server's caps bound it (server/bots.py): ``strongest`` is what fits them.

Every budget is a count (iterations), never a time: a timed search on a loaded machine
plays weaker than on an idle one (at load 16 a one-second move got 0.05 CPU seconds), so
a level's measured strength holds only for a count. The counts were chosen with
``benchmarks/bench_levels.py`` so that a move takes about a CPU second on an idle core.

>>> level_spec("yukon", "medium")
'greedy'
>>> level_spec("chinagold", "strongest")
'mcts:iterations=4000,rollout=none,bias=1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from motherlode.core.protocol import Game

LEVELS = ("easy", "medium", "hard", "strongest")

SPECS: dict[str, dict[str, str]] = {
    "yukon": {
        "hard": "mcts:iterations=2000",
        "strongest": "mcts:iterations=12000",
    },
    "chinagold": {
        "hard": "mcts:iterations=1500,rollout=none,bias=1",
        "strongest": "mcts:iterations=4000,rollout=none,bias=1",
    },
    "eldorado": {
        "hard": "mcts:iterations=1000,rollout=none,bias=1,widening=1,c=0.1",
        "strongest": "mcts:iterations=3000,rollout=none,bias=1,widening=1,c=0.1",
    },
    "eureka": {
        "hard": "mcts:iterations=1000,rollout=greedy,depth=12,bias=3,widening=1,c=0.1",
        "strongest": "mcts:iterations=2500,rollout=greedy,depth=6,bias=3,widening=1,c=0.1",
    },
    "eurorails": {
        "hard": "plans:iterations=24,depth=12",
        "strongest": "plans:iterations=24,depth=12,opponents=bot",
    },
}
"""``hard`` and ``strongest`` per game (``easy`` and ``medium`` are the same everywhere)."""

FROM_PLAYERS: dict[tuple[str, str], tuple[int, str]] = {
    # 4p: the depth-6 strongest lost 4 of 4 to hard, and 3,000 simulations at depth 6
    # made 0.24 against greedy seats where hard's setting made 0.41 (docs/agents.md)
    ("eureka", "strongest"): (4, SPECS["eureka"]["hard"]),
}
"""A level whose measured best setting differs from some player count up: (game, level)
-> (the player count, the spec from there on)."""

MEASURED: dict[str, dict[str, str]] = {
    "yukon": {
        "hard": "Yukon + Townsfolk 2p: 19/20 against greedy (docs/agents.md)",
        "strongest": "2p: 27.5/30 = 0.92 [0.76, 0.97] against greedy; against hard"
        " 2p 40/60 = 0.67 [0.54, 0.77] (and 13/20 on other deals); 3p against greedy"
        " 0.75 [0.52, 0.89] of 18, against hard 0.55 [0.38, 0.71] of 30",
    },
    "chinagold": {
        "hard": "18/20 = 0.90 against greedy, 10/10 against random",
        "strongest": "18/20 = 0.90 [0.70, 0.97] against greedy; against hard"
        " 20/30 = 0.67 [0.49, 0.81]",
    },
    "eldorado": {
        "hard": "map 1: 15/20 = 0.75 against greedy; maps 2-4 hard: 8.5-10/10;"
        " 4p head to head against medium 5/7",
        "strongest": "map 1 hard: 19/20 = 0.95 against greedy; map 2: 19/23 = 0.83;"
        " against hard 2p 14/16 = 0.88 [0.64, 0.97], 4p 2/3; 4p against greedy 2/2",
    },
    "eureka": {
        "hard": "4p: 111/268 = 0.41 against three greedy seats; head to head against"
        " medium 4p 7/10 (the old hard 3.5/10 on the same games), 2p 4/5",
        "strongest": "2p at seconds=1: 66.5/90 = 0.74 against greedy; 6p with"
        " opponents=greedy: 0.23; against hard 2p 3/3 and 9.5/16 = 0.59 [0.36, 0.79],"
        " 4p 0/4 = 0.00 [0.00, 0.49]: from 4 players strongest is hard's spec",
    },
    "eurorails": {
        "hard": "2p: 15/20 = 0.75 against greedy (twice), 10/10 against random",
        "strongest": "3p: 65/121 = 0.54 against two greedy seats (hard: 25/54 = 0.46);"
        " against hard 2p 5/10, 3p 4/6",
    },
}
"""What the arena showed for each level (docs/agents.md has the commands and intervals)."""


def is_level(name: str) -> bool:
    return name.strip().lower() in LEVELS


def level_spec(game_name: str, level: str, greedy: bool = True, players: int = 2) -> str:
    """The agent spec of ``level`` for ``game_name`` played by ``players`` (``greedy``: the
    game has a greedy bot).

    >>> level_spec("eureka", "strongest", players=4) == level_spec("eureka", "hard")
    True
    """
    level = level.strip().lower()
    if level == "easy":
        return "random"
    if level == "medium" or game_name not in SPECS:
        return "greedy" if greedy else "random"
    special = FROM_PLAYERS.get((game_name, level))
    if special is not None and players >= special[0]:
        return special[1]
    return SPECS[game_name][level]


def game_level_spec(game: Game, level: str) -> str:
    """:func:`level_spec` for ``game`` as loaded (its bots and its player count).

    >>> import motherlode
    >>> game_level_spec(motherlode.load("eureka", players=4), "strongest") == (
    ...     level_spec("eureka", "hard"))
    True
    """
    return level_spec(game.name, level, "greedy" in game.bots(), game.num_players)


HINT_SECONDS = 2.0
"""The longest a terminal's ``hint`` thinks: "the strongest bot that answers within a
second or two" (issue 21), whatever the machine."""


def hint_spec(game_name: str, greedy: bool = True, seconds: float = HINT_SECONDS) -> str:
    """The bot ``hint`` asks: ``strongest``'s spec, stopped after ``seconds`` a move.

    ``strongest`` is a count (a measured strength); on an idle core it answers in about
    a CPU second, and the time bound keeps a slow or loaded machine's wait short, at the
    price of a weaker hint there.

    >>> hint_spec("yukon")
    'mcts:iterations=12000,seconds=2'
    >>> hint_spec("eurorails")
    'plans:iterations=24,depth=12,opponents=bot,seconds=2'
    >>> hint_spec("nogame", greedy=False)
    'random'
    """
    return _within(level_spec(game_name, "strongest", greedy), seconds)


def game_hint_spec(game: Game, seconds: float = HINT_SECONDS) -> str:
    """:func:`hint_spec` for ``game`` as loaded (its bots and its player count)."""
    return _within(game_level_spec(game, "strongest"), seconds)


def _within(spec: str, seconds: float) -> str:
    """``spec`` stopped after ``seconds`` a move (greedy and random answer at once)."""
    if ":" not in spec:  # greedy or random: they answer at once
        return spec
    return f"{spec},seconds={seconds:g}"

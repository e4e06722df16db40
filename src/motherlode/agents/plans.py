"""Monte Carlo tree search over plans: action grouping for games whose turns are long.

In Eurorails a turn is dozens of decisions (every milepost built or moved is one), so
search over single actions sees less than a turn ahead. This agent searches over *plans*
instead: the game's bot names the plans it would consider at a decision point (in
Eurorails: which demand to carry out next), and one edge of the tree is "follow this plan
until the next decision point", the bot carrying it out action by action.

The game's bot takes part by being a :class:`Planner`:

* ``plans(state, limit)``: up to ``limit`` plans for the seat to move, the bot's favourite
  first (any hashable values; an empty list: nothing to choose);
* ``follow(state, plan)``: carry out ``plan``, chosen in ``state``, from now on (``act``
  then plays it);
* ``decision_point(state)``: a value that changes whenever a new plan may be chosen (a new
  turn; a new demand card drawn).

The search is open-loop UCT with max^n backups of value vectors: each simulation copies
the position, gives every seat a fresh copy of the bot, descends the tree by UCB1 over
the plans the bot offers at each decision point (unvisited plans first, the bot's
favourite first among them), samples chance as it comes, then lets every bot play on for
``depth`` more decision points and judges the position reached (``heuristic_values()``,
or the result of a finished game). A node's statistics therefore average over the chance
outcomes that lead to it, which suits plans whose results are not known in advance.
With ``opponents=bot`` the other seats are not searched: at their decision points the
tree follows their bot's favourite plan only (opponent modelling, as ``mcts``'s
``opponents=greedy``), so every simulation goes to the searching seat's own choices.

In the real game the agent searches at each decision point of its own, follows the plan
with the best mean, and lets its bot play the plan's actions until the next decision
point. Determinism given the seed holds for iteration budgets.

>>> import motherlode
>>> game = motherlode.load("eurorails", players=2)
>>> agent = PlanSearchAgent(game, seed=1, iterations=4, depth=2)
>>> state = motherlode.deal(game, seed=3)
>>> agent.act(state) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from typing import Any, Protocol, runtime_checkable

from motherlode.agents.evaluate import values
from motherlode.agents.params import Param
from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State

PLANS_PARAMS: tuple[Param, ...] = (
    Param("iterations", int, 0, "simulations per decision point (0: not limited; 32 if no budget)"),
    Param("seconds", float, 0.0, "thinking time per decision point (0: not limited)"),
    Param("width", int, 4, "plans considered at each decision point"),
    Param("depth", int, 8, "decision points the bots play on before judging (0: to the end)"),
    Param("c", float, 0.5, "UCT exploration constant (values are in -1..1)"),
    Param(
        "paired",
        bool,
        True,
        "at the root, rounds that try every plan under the same chance (else UCB1 there too)",
    ),
    Param("scale", float, 10.0, "score lead mapped to tanh(1) when a game has no judgement"),
    Param("bot", str, "greedy", "the game's bot that offers and carries out the plans"),
    Param(
        "opponents",
        str,
        "max",
        "how the other seats choose in the tree: max (each its own best, max^n) or bot"
        " (their bot's favourite plan, the only one searched)",
        ("max", "bot"),
    ),
)


@runtime_checkable
class Planner(Protocol):
    """A game bot that can be steered plan by plan (see the module docstring)."""

    def plans(self, state: State, limit: int) -> list[Hashable]: ...

    def follow(self, state: State, plan: Hashable) -> None: ...

    def decision_point(self, state: State) -> Hashable: ...

    def act(self, state: State) -> Action: ...


class PlanNode:
    """The statistics of one decision point reached by a sequence of plans."""

    __slots__ = ("children", "mover", "n", "w")

    def __init__(self, num_players: int) -> None:
        self.mover = -1  # the seat that chooses a plan here (-1: not yet reached)
        self.n = 0
        self.w = [0.0] * num_players
        self.children: dict[Hashable, PlanNode] = {}

    def mean(self, player: int) -> float:
        return self.w[player] / self.n if self.n else 0.0


class PlanSearchAgent(Agent):
    """UCT over the plans of a :class:`Planner` bot (see the module docstring)."""

    name = "plans"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int = 0,
        seconds: float = 0.0,
        width: int = 4,
        depth: int = 8,
        c: float = 0.5,
        paired: bool = True,
        scale: float = 10.0,
        bot: str = "greedy",
        opponents: str = "max",
    ) -> None:
        super().__init__(seed)
        if width < 1:
            raise ValueError("width must be at least 1")
        if opponents not in ("max", "bot"):
            raise ValueError(f"opponents must be max or bot (got {opponents!r})")
        bots = game.bots()
        if bot not in bots:
            raise ValueError(f"{game.name} has no bot named {bot!r}")
        self.factory = bots[bot]
        probe = self.factory(game, seed=seed)
        if not isinstance(probe, Planner):
            raise ValueError(
                f"{game.name}'s {bot} bot cannot be steered plan by plan (it needs plans(),"
                " follow() and decision_point()); use mcts"
            )
        self.game = game
        self.planner: Planner = probe  # plays this agent's own actions in the real game
        self.iterations = int(iterations) if iterations or seconds else 32
        self.seconds = float(seconds)
        self.width = int(width)
        self.depth = int(depth)
        self.c = float(c)
        self.paired = bool(paired)
        self.scale = float(scale)
        self.opponents = opponents
        self.num_players = game.num_players
        self._point: Hashable = None  # the decision point whose plan is being followed
        self.last_search: dict[str, Any] = {}
        self.last_tree: PlanNode | None = None  # the root of the last search (for tests)

    def reset(self) -> None:
        super().reset()
        self.planner = self._new_planner(self.seed)
        self._point = None
        self.last_search = {}
        self.last_tree = None

    def _new_planner(self, seed: int) -> Planner:
        bot = self.factory(self.game, seed=seed)
        assert isinstance(bot, Planner)
        return bot

    # -- the real game ------------------------------------------------------------------

    def act(self, state: State) -> Action:
        point = self.planner.decision_point(state)
        if point != self._point:
            self._point = point
            options = self.planner.plans(state, self.width)
            if len(options) > 1:
                self.planner.follow(state, self._search(state, options))
        return self.planner.act(state)

    # -- the search ----------------------------------------------------------------------

    def _search(self, root_state: State, options: list[Hashable]) -> Hashable:
        start = time.perf_counter()
        root = PlanNode(self.num_players)
        me = root_state.current_player()
        done = 0
        while done < self.iterations or self.seconds:
            if self.seconds and time.perf_counter() - start >= self.seconds and done:
                break
            if self.paired:  # a round: every plan once, under the same chance
                seed = self.rng.randrange(1 << 30)
                for plan in options:
                    self._simulate(root, root_state, me, options, random.Random(seed), plan)
                done += len(options)
            else:
                self._simulate(root, root_state, me, options, self.rng, None)
                done += 1
            if self.iterations and done >= self.iterations:
                break
        best = max(
            (root.children[o] for o in options if o in root.children),
            key=lambda node: node.mean(me),
        )
        choice = next(o for o in options if root.children.get(o) is best)
        self.last_tree = root
        self.last_search = {
            "iterations": done,
            "seconds": time.perf_counter() - start,
            "plans": {
                repr(o): (root.children[o].n, round(root.children[o].mean(me), 4))
                for o in options
                if o in root.children
            },
            "choice": repr(choice),
        }
        return choice

    def _simulate(
        self,
        root: PlanNode,
        root_state: State,
        me: int,
        options: list[Hashable],
        rng: random.Random,
        forced: Hashable | None,
    ) -> None:
        """One simulation: down the tree by UCB1 (from ``forced`` at the root, if given),
        then every bot on its own for ``depth`` decision points; chance and the bots'
        seeds from ``rng``; ``me`` is the searching seat (the one to move at the root)."""
        state = root_state.clone()
        bots = [self._new_planner(rng.randrange(1 << 30)) for _ in range(self.num_players)]
        path = [root]
        node = root
        first = True
        while True:
            self._resolve_chance(state, rng)
            if state.is_terminal():
                break
            mover = state.current_player()
            bot = bots[mover]
            modelled = self.opponents == "bot" and mover != me
            offered = options if first else bot.plans(state, 1 if modelled else self.width)
            first = False
            if offered:
                node.mover = mover
                plan = forced if node is root and forced is not None else None
                if plan is None and modelled:
                    plan = offered[0]  # the rival follows its bot's favourite plan
                if plan is None:
                    plan = self._select(node, offered, mover)
                bot.follow(state, plan)
                child = node.children.get(plan)
                if child is None:
                    child = node.children[plan] = PlanNode(self.num_players)
                    path.append(child)
                    self._play_point(state, bots, rng)
                    break  # a new node: judged after a playout
                path.append(child)
                node = child
            self._play_point(state, bots, rng)
        played = 0
        while not self.depth or played < self.depth:  # depth 0: to the end of the game
            self._resolve_chance(state, rng)
            if state.is_terminal():
                break
            self._play_point(state, bots, rng)
            played += 1
        self._resolve_chance(state, rng)
        result = values(state, self.scale)
        for n in path:
            n.n += 1
            w = n.w
            for p in range(self.num_players):
                w[p] += result[p]

    def _select(self, node: PlanNode, offered: list[Hashable], mover: int) -> Hashable:
        """UCB1 over the plans offered: untried ones first, in the bot's order."""
        for plan in offered:
            child = node.children.get(plan)
            if child is None or child.n == 0:
                return plan
        log_n = math.log(max(1, sum(node.children[p].n for p in offered)))
        c = self.c

        def ucb(plan: Hashable) -> float:
            child = node.children[plan]
            return child.mean(mover) + c * math.sqrt(log_n / child.n)

        return max(offered, key=ucb)

    @staticmethod
    def _resolve_chance(state: State, rng: random.Random) -> None:
        while state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))

    def _play_point(self, state: State, bots: list[Planner], rng: random.Random) -> None:
        """Every seat's bot plays until the next decision point (or the end of the game)."""
        point = bots[0].decision_point(state)
        while True:
            self._resolve_chance(state, rng)
            if state.is_terminal() or bots[0].decision_point(state) != point:
                return
            state.apply_unchecked(bots[state.current_player()].act(state))


__all__ = ["PLANS_PARAMS", "PlanNode", "PlanSearchAgent", "Planner"]

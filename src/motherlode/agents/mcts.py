"""Monte Carlo tree search for any motherlode game: n players, chance, large action spaces.

The search is UCT over decision nodes with **max^n** backups: every node keeps the sum of
the value *vectors* (one entry per seat) of the simulations through it, and the seat to
move at a node picks the child that is best for itself. So it plays 2-player zero-sum
games and n-player free-for-alls alike.

* **Chance** nodes are part of the tree. One with few outcomes (``chance`` or fewer) is
  visited in proportion to the outcome probabilities (each visit goes to the outcome
  furthest below its share, a stratified estimate of the expectation); one with many
  outcomes (a deal, a chip draw) is sampled with :meth:`State.sample_chance`.
* **Rollouts** play the position on with ``random`` moves or the game's ``greedy`` bot
  (with ``epsilon`` random moves mixed in), to the end or for ``depth`` decisions, after
  which the position is judged by :mod:`motherlode.agents.evaluate`; ``rollout=none``
  judges the new leaf at once.
* **Large action spaces**: ``widening=k`` (progressive widening) lets a node with ``N``
  visits have at most ``ceil(k * N**alpha)`` children, tried in a random order (the
  greedy bot's move first with ``rollout=greedy`` or ``bias``); ``group=true`` first
  chooses a *kind* of action (the first word of its notation: ``move``, ``build``,
  ``deliver`` ...) and only then an action of that kind, two UCT choices with shared
  statistics.
* **Knowledge**: ``bias=b`` adds progressive bias ``b / (n + 1)`` to the UCT score of the
  move the game's greedy bot would play, so search starts from the bot's judgement and
  leaves it only when the simulations disagree.
* **Backups**: ``backup=mean`` (the default) values a node by the mean of the simulations
  through it; ``backup=max`` by expectimax over the tree searched (a decision node is worth
  its best child for the seat to move, a chance node the probability-weighted mean of its
  outcomes), which suits ``rollout=none``, where leaves are judged without noise.
* **Budget**: ``iterations`` simulations, or ``seconds`` of thinking per move (with both,
  whichever ends first; with neither, 1000 iterations).
* **Tree reuse**: the subtree of the position reached is kept from one move to the next
  (``reuse=false`` turns it off); :meth:`reset` forgets it between games.
* **Determinism**: everything random comes from the agent's own ``random.Random(seed)``,
  so an iteration budget gives the same move for the same seed and position history;
  a time budget does too up to the number of iterations the clock allowed.

It uses the protocol's fast path only: :meth:`State.clone` and :meth:`State.apply_unchecked`.

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> state = motherlode.deal(game, seed=3)
>>> agent = MCTSAgent(game, seed=1, iterations=200)
>>> agent.act(state) in state.legal_actions()
True
>>> agent.last_search["iterations"]
200
"""

from __future__ import annotations

import math
import time
from typing import Any

from motherlode.agents.evaluate import heuristic_values, terminal_values
from motherlode.agents.params import Param
from motherlode.core.agent import Agent
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, State

MCTS_PARAMS: tuple[Param, ...] = (
    Param("iterations", int, 0, "simulations per move (0: not limited; 1000 if no budget)"),
    Param("seconds", float, 0.0, "thinking time per move (0: not limited)"),
    Param("c", float, 1.0, "UCT exploration constant (values are in -1..1)"),
    Param(
        "rollout",
        str,
        "random",
        "playout policy: random, the game's greedy bot, or none (judge the leaf)",
        ("random", "greedy", "none"),
    ),
    Param("depth", int, 0, "rollout decisions before the heuristic judges (0: to the end)"),
    Param("epsilon", float, 0.0, "share of random moves in greedy rollouts"),
    Param("widening", float, 0.0, "progressive widening k: children <= k*N^alpha (0: off)"),
    Param("alpha", float, 0.5, "progressive widening exponent"),
    Param("group", bool, False, "choose the kind of action first (notation's first word)"),
    Param("bias", float, 0.0, "progressive bias to the greedy bot's move: bias/(n+1) (0: off)"),
    Param("chance", int, 8, "chance nodes with at most this many outcomes are stratified"),
    Param("reuse", bool, True, "keep the subtree of the position reached between moves"),
    Param(
        "backup",
        str,
        "mean",
        "a node's value: the mean of its simulations, or max (its best child's; chance"
        " nodes: the expectation of their outcomes)",
        ("mean", "max"),
    ),
    Param("scale", float, 10.0, "score lead that the heuristic maps to tanh(1)"),
    Param(
        "opponents",
        str,
        "max",
        "how the other seats choose in the tree: max (each its own best, max^n), greedy"
        " (the game's greedy bot's move, the only one searched) or paranoid (the move worst"
        " for the searching seat)",
        ("max", "greedy", "paranoid"),
    ),
)

DECISION, CHANCE_NODE, TERMINAL_NODE, GROUP = 0, 1, 2, 3

GROUP_MIN_ACTIONS = 12
"""Nodes with fewer legal actions than this are not grouped."""

UNPREPARED = -2
"""``Node.hint`` of a decision node whose children are not ordered yet."""


class Node:
    """A node of the search tree: its statistics and its children by action."""

    __slots__ = (
        "children",
        "hint",
        "kind",
        "n",
        "outcomes",
        "player",
        "terminal",
        "untried",
        "v",
        "w",
    )

    def __init__(self, kind: int, player: int, num_players: int) -> None:
        self.kind = kind
        self.player = player
        self.n = 0
        self.w = [0.0] * num_players
        self.children: dict[int, Node] = {}
        self.untried: list[int] = []
        self.outcomes: dict[Action, float] = {}  # a chance node's outcomes: probability
        self.terminal: list[float] | None = None
        self.hint = -1  # the greedy bot's move here (progressive bias), -1, or UNPREPARED
        self.v: list[float] | None = None  # backup=max: the value vector (see _backup_max)

    def mean(self, player: int) -> float:
        return self.w[player] / self.n if self.n else 0.0

    def value(self, player: int) -> float:
        """The value for ``player``: backed-up (``backup=max``) where known, else the mean."""
        v = self.v
        return v[player] if v is not None else self.mean(player)

    def size(self) -> int:
        """The number of nodes in this subtree."""
        return 1 + sum(child.size() for child in self.children.values())


class MCTSAgent(Agent):
    """UCT with max^n backups and chance nodes; see the module docstring for the options."""

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int = 0,
        seconds: float = 0.0,
        c: float = 1.0,
        rollout: str = "random",
        depth: int = 0,
        epsilon: float = 0.0,
        widening: float = 0.0,
        alpha: float = 0.5,
        group: bool = False,
        bias: float = 0.0,
        chance: int = 8,
        reuse: bool = True,
        scale: float = 10.0,
        backup: str = "mean",
        opponents: str = "max",
    ) -> None:
        super().__init__(seed)
        if rollout not in ("random", "greedy", "none"):
            raise ValueError(f"rollout must be random, greedy or none (got {rollout!r})")
        if scale <= 0:
            raise ValueError("scale must be positive")
        if backup not in ("mean", "max"):
            raise ValueError(f"backup must be mean or max (got {backup!r})")
        self.backup_max = backup == "max"
        if opponents not in ("max", "greedy", "paranoid"):
            raise ValueError(f"opponents must be max, greedy or paranoid (got {opponents!r})")
        self.opponents = opponents
        self.me = -1  # the seat searched for (opponents=greedy/paranoid); set by act()
        self.game = game
        self.iterations = int(iterations) if iterations or seconds else 1000
        self.seconds = float(seconds)
        self.c = float(c)
        self.rollout = rollout
        self.depth = int(depth)
        self.epsilon = float(epsilon)
        self.widening = float(widening)
        self.alpha = float(alpha)
        self.group = bool(group)
        self.bias = float(bias)
        self.chance = int(chance)
        self.reuse = bool(reuse)
        self.scale = float(scale)
        self.num_players = game.num_players
        self.bot: Agent | None = None  # plays greedy rollouts
        self.guide: Agent | None = None  # names the move to try first (widening, bias)
        needs = [
            name
            for name, wanted in (
                ("rollout=greedy", rollout == "greedy"),
                ("bias", bool(bias)),
                ("opponents=greedy", opponents == "greedy"),
            )
            if wanted
        ]
        if needs:
            bots = game.bots()
            if "greedy" not in bots:
                raise ValueError(f"{', '.join(needs)}: {game.name} has no greedy bot")
            guide = bots["greedy"](game, seed=seed + 1)
            self.bot = guide if rollout == "greedy" else None
            self.guide = guide
        self._root: Node | None = None
        self._root_state: State | None = None
        self.last_search: dict[str, Any] = {}

    def reset(self) -> None:
        super().reset()
        if self.guide is not None:
            self.guide.reset()
        self._root = None
        self._root_state = None
        self.last_search = {}

    # -- the search -------------------------------------------------------------------

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = {
                "iterations": 0,
                "seconds": 0.0,
                "reused_visits": 0,
                "root_visits": 0,
                "children": {},
                "forced": True,
            }
            return legal[0]
        if self.opponents != "max" and state.current_player() != self.me:
            self._root = self._root_state = None  # the tree was built for another seat
        self.me = state.current_player()
        root, root_state = self._find_root(state)
        start = time.perf_counter()
        reused = root.n
        deadline = start + self.seconds if self.seconds else math.inf
        limit = self.iterations or math.inf
        done = 0
        while done < limit:
            self._simulate(root, root_state)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        action = self._best(root)
        elapsed = time.perf_counter() - start
        self.last_search = {
            "iterations": done,
            "seconds": elapsed,
            "reused_visits": reused,
            "root_visits": root.n,
            "children": {a: (ch.n, ch.value(root.player)) for a, ch in self._flat(root).items()},
            "forced": False,
        }
        if self.reuse:
            self._root, self._root_state = root, root_state
        return action

    def _find_root(self, state: State) -> tuple[Node, State]:
        """The kept subtree for ``state`` if the tree reaches it, else a fresh root."""
        old, old_state = self._root, self._root_state
        self._root = self._root_state = None
        if self.reuse and old is not None and old_state is not None:
            past, now = old_state.history(), state.history()
            if len(now) >= len(past) and now[: len(past)] == past:
                node: Node | None = old
                walked = old_state.clone()
                for action in now[len(past) :]:
                    node = self._child_through(node, action) if node is not None else None
                    walked.apply_unchecked(action)
                    if node is None:
                        break
                if (
                    node is not None
                    and node.kind == DECISION
                    and walked.serialize() == state.serialize()
                ):
                    return node, walked
        root_state = state.clone()
        return self._new_node(root_state), root_state

    def _child_through(self, node: Node, action: Action) -> Node | None:
        """The child of ``node`` that ``action`` leads to (through a group layer)."""
        child = node.children.get(action)
        if child is not None and child.kind != GROUP:
            return child
        for sub in node.children.values():
            if sub.kind == GROUP and action in sub.children:
                return sub.children[action]
        return None

    def _flat(self, node: Node) -> dict[Action, Node]:
        out: dict[Action, Node] = {}
        for action, child in node.children.items():
            if child.kind == GROUP:
                out.update(child.children)
            else:
                out[action] = child
        return out

    def _best(self, root: Node) -> Action:
        me = root.player
        children = self._flat(root)
        best = max(children.items(), key=lambda item: (item[1].n, item[1].value(me), -item[0]))
        return best[0]

    def _new_node(self, state: State) -> Node:
        player = state.current_player()
        n = self.num_players
        if player == TERMINAL:
            node = Node(TERMINAL_NODE, player, n)
            node.terminal = terminal_values(state, self.scale)
            return node
        if player == CHANCE:
            node = Node(CHANCE_NODE, player, n)
            node.outcomes = dict(state.chance_outcomes())
            return node
        node = Node(DECISION, player, n)
        # Ordering (and the guide's hint, and grouping) waits until the node is expanded:
        # most nodes are leaves that are judged once and never expanded, and asking the
        # greedy bot for its move can cost more than the rest of the simulation.
        node.untried = state.legal_actions()
        node.hint = UNPREPARED
        return node

    def _prepare(self, node: Node, state: State) -> None:
        """Order ``node``'s children (the guide's move first) and group them, on first use."""
        legal = node.untried
        node.hint = -1
        n = self.num_players
        modelled = self.opponents == "greedy" and node.player != self.me
        if self.guide is not None and (self.bias or self.widening or modelled) and len(legal) > 1:
            node.hint = self.guide.act(state)
        if modelled and node.hint in legal:
            node.untried = [node.hint]  # the other seat plays like the greedy bot
            return
        if self.group and len(legal) >= GROUP_MIN_ACTIONS:
            groups: dict[str, list[Action]] = {}
            for action in legal:
                key = state.action_to_string(action).split(" ", 1)[0]
                groups.setdefault(key, []).append(action)
            if len(groups) > 1:
                node.untried = []
                for i, members in enumerate(groups.values()):
                    sub = Node(GROUP, node.player, n)
                    sub.untried = self._order(members, node.hint)
                    if node.hint in members:
                        sub.hint = node.hint
                    node.children[-1 - i] = sub  # group keys never clash with actions
                return
        node.untried = self._order(legal, node.hint)

    def _order(self, actions: list[Action], hint: Action) -> list[Action]:
        """The order children are tried in (popped from the end): random, the hint first."""
        order = list(actions)
        self.rng.shuffle(order)
        if hint in order:
            order.remove(hint)
            order.append(hint)
        return order

    def _may_expand(self, node: Node) -> bool:
        if not node.untried:
            return False
        if not self.widening:
            return True
        allowed = math.ceil(self.widening * math.pow(node.n + 1, self.alpha))
        return len(node.children) < allowed

    def _select(self, node: Node) -> tuple[int, Node]:
        p = node.player
        sign = 1.0
        if self.opponents == "paranoid" and p != self.me:
            p, sign = self.me, -1.0  # the other seats minimise the searching seat's value
        log_n = math.log(node.n) if node.n > 1 else 0.0
        c = self.c
        hint, bias = node.hint, self.bias
        sqrt = math.sqrt  # (a local: this loop runs over every child at every step down)
        best_key, best_child, best_score = 0, None, -math.inf
        for key, child in node.children.items():
            cn = child.n
            if cn == 0:
                return key, child
            v = child.v
            exploit = v[p] if v is not None else child.w[p] / cn
            score = sign * exploit + c * sqrt(log_n / cn)
            if bias and (key == hint or (child.kind == GROUP and child.hint == hint >= 0)):
                score += bias / (cn + 1)
            if score > best_score:
                best_key, best_child, best_score = key, child, score
        assert best_child is not None
        return best_key, best_child

    def _simulate(self, root: Node, root_state: State) -> None:
        state = root_state.clone()
        node = root
        path = [root]
        while True:
            kind = node.kind
            if kind == TERMINAL_NODE:
                assert node.terminal is not None
                self._backup(path, node.terminal)
                if self.backup_max:
                    self._backup_max(path, node.terminal, self._paranoid_seat())
                return
            if kind == CHANCE_NODE:
                action = self._chance_action(node, state)
                child = node.children.get(action)
                state.apply_unchecked(action)
                if child is None:
                    child = self._new_node(state)
                    node.children[action] = child
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.hint == UNPREPARED:
                self._prepare(node, state)
            if self._may_expand(node):
                action = node.untried.pop()
                state.apply_unchecked(action)
                child = self._new_node(state)
                node.children[action] = child
                path.append(child)
                break
            key, child = self._select(node)
            if child.kind != GROUP:
                state.apply_unchecked(key)
            node = child
            path.append(node)
        value = self._playout(state)
        self._backup(path, value)
        if self.backup_max:
            self._backup_max(path, value, self._paranoid_seat())

    def _paranoid_seat(self) -> int:
        """The seat the others play against (opponents=paranoid), else -1."""
        return self.me if self.opponents == "paranoid" else -1

    def _chance_action(self, node: Node, state: State) -> Action:
        outcomes = node.outcomes
        if len(outcomes) <= self.chance:
            total = node.n + 1
            best_action, best_gap = next(iter(outcomes)), -math.inf
            children = node.children
            for action, p in outcomes.items():
                child = children.get(action)
                gap = p * total - (child.n if child is not None else 0)
                if gap > best_gap:
                    best_action, best_gap = action, gap
            return best_action
        return state.sample_chance(self.rng)

    def _playout(self, state: State) -> list[float]:
        if state.is_terminal():
            return terminal_values(state, self.scale)
        if self.rollout == "none":
            return heuristic_values(state, self.scale)
        rng = self.rng
        bot = self.bot
        epsilon = self.epsilon
        depth = self.depth or math.inf
        decisions = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return terminal_values(state, self.scale)
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if decisions >= depth:
                return heuristic_values(state, self.scale)
            if bot is not None and (not epsilon or rng.random() >= epsilon):
                action = bot.act(state)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_unchecked(action)
            decisions += 1

    @staticmethod
    def _backup_max(path: list[Node], value: list[float], paranoid: int = -1) -> None:
        """Expectimax values along ``path``, bottom up: a decision node is worth its best
        child for the seat to move, a chance node the probability-weighted mean of the
        outcomes visited; a node without children keeps its own judgement. Mean backups
        make a move with many replies of one's own look worse than it is (the untried and
        poor ones count in the mean) and one that hands the opponent many choices better.
        With ``paranoid`` a seat, every other seat's node is worth its child worst for it."""
        leaf = path[-1]
        if leaf.v is None or leaf.kind == TERMINAL_NODE:
            leaf.v = list(value)
        for node in reversed(path[:-1]):
            children = node.children
            if node.kind == CHANCE_NODE:
                total = 0.0
                acc: list[float] | None = None
                probability = node.outcomes
                for action, child in children.items():
                    if child.v is None:
                        continue
                    p = probability[action]
                    total += p
                    if acc is None:
                        acc = [p * x for x in child.v]
                    else:
                        for i, x in enumerate(child.v):
                            acc[i] += p * x
                if acc is not None:
                    node.v = [x / total for x in acc]
            else:
                me = node.player
                sign = 1.0
                if paranoid >= 0 and me != paranoid:
                    me, sign = paranoid, -1.0
                best: list[float] | None = None
                for child in children.values():
                    cv = child.v
                    if cv is not None and (best is None or sign * cv[me] > sign * best[me]):
                        best = cv
                if best is not None:
                    node.v = best

    @staticmethod
    def _backup(path: list[Node], value: list[float]) -> None:
        for node in path:
            node.n += 1
            w = node.w
            for i, v in enumerate(value):
                w[i] += v


def simulations_per_second(
    game: Game, state: State, seconds: float = 1.0, seed: int = 0, **params: Any
) -> float:
    """How many MCTS simulations per second ``params`` run from ``state`` (for benchmarks)."""
    agent = MCTSAgent(game, seed=seed, seconds=seconds, reuse=False, **params)
    agent.act(state)
    iterations = float(agent.last_search["iterations"])
    seconds = float(agent.last_search["seconds"])
    return iterations / max(seconds, 1e-9)


__all__ = ["MCTS_PARAMS", "MCTSAgent", "Node", "simulations_per_second"]

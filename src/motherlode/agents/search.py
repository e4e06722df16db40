"""Alpha-beta / expectimax search for two-player games with chance.

Values are seat 0's return (``+1`` win, ``-1`` loss, ``0`` tie), so the seat to move at
a decision node maximises (seat 0) or minimises (seat 1); a seat that moves twice in a row
(a pending sub-decision, a Jailer) is handled naturally. Chance nodes take the
probability-weighted expectation of their outcomes (expectimax), so Chinagold's throws
and Yukon's Pan discs are searched exactly.

* **Iterative deepening** over decision plies (chance nodes cost no depth), with a budget
  of ``depth`` plies, ``nodes`` positions or ``seconds`` per move; with none given,
  ``nodes=20000``. A node budget keeps the agent deterministic; a time budget does not.
* A **transposition table** keyed by ``state.transposition_key()`` when a game offers
  one, else by :func:`structural_key` (every attribute of the state but its history,
  frozen), else by ``state.serialize()`` (the exact position notation). Entries whose subtree
  reached the end of the game everywhere are marked *solved* and reused at any depth;
  the search stops deepening once the root is solved.
* **Move ordering**: the table's best move first, then the history heuristic; the root
  moves start in an order shuffled by the agent's seeded RNG.
* Beyond the horizon a position is judged by :mod:`motherlode.agents.evaluate` (the
  score lead through ``tanh``), always worth less than a proven win.

It plays endgames perfectly: once the root is solved, the move has the game-theoretic
value (tests prove it against a brute-force minimax on small Yukon grids).

>>> import motherlode
>>> game = motherlode.load("yukon")
>>> state = motherlode.deal(game, seed=3)
>>> agent = AlphaBetaAgent(game, seed=0, depth=2)
>>> agent.act(state) in state.legal_actions()
True
>>> agent.last_search["depth"]
2
"""

from __future__ import annotations

import math
import time
from typing import Any

from motherlode.agents.evaluate import heuristic_values
from motherlode.agents.params import Param
from motherlode.core.agent import Agent
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, State

ALPHABETA_PARAMS: tuple[Param, ...] = (
    Param("depth", int, 0, "deepest iteration in decision plies (0: as deep as the budget)"),
    Param("nodes", int, 0, "positions searched per move (0: not limited; 20000 if no budget)"),
    Param("seconds", float, 0.0, "thinking time per move (0: not limited)"),
    Param("scale", float, 10.0, "score lead that the heuristic maps to tanh(1)"),
    Param("tt", int, 2_000_000, "transposition table entries kept before it is cleared"),
)

EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = 1 << 30
"""The depth recorded for a value that is proven (no heuristic anywhere below it)."""

MAX_DEPTH = 400
INF = math.inf


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list or kind is tuple:
        if _ATOM_SET.issuperset(map(type, value)):  # the common case, at C speed
            return tuple(value)
        return tuple([_freeze(v) for v in value])
    if kind is dict:
        return frozenset((k, _freeze(v)) for k, v in value.items())
    if kind is set or kind is frozenset:
        return frozenset(value)
    raise TypeError(f"cannot freeze a {kind.__name__}")


_ATOMS = (int, float, str, bool, type(None))
_ATOM_SET = frozenset(_ATOMS)


def structural_key(state: State) -> tuple[Any, ...]:
    """A hashable key of everything a state holds but its history (equal keys: same position).

    Attributes named ``*cache`` are left out: derived data, which may or may not have been
    computed yet for the same position.

    Much cheaper than :meth:`State.serialize` for states made of plain lists, dicts and
    numbers; raises :class:`TypeError` for anything else (the caller falls back).

    >>> import motherlode
    >>> game = motherlode.load("yukon")
    >>> a, b = motherlode.deal(game, seed=1), motherlode.deal(game, seed=1)
    >>> structural_key(a) == structural_key(b) != structural_key(motherlode.deal(game, seed=2))
    True
    """
    fields = vars(state)
    return tuple(
        [
            _freeze(fields[name])
            for name in sorted(fields)
            if name not in _SKIP and not name.endswith("cache")
        ]
    )


_SKIP = frozenset({"_history", "game"})


class _Abort(Exception):
    """The budget ran out in the middle of an iteration."""


class AlphaBetaAgent(Agent):
    """Expectimax with alpha-beta at decision nodes; see the module docstring."""

    name = "alphabeta"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        depth: int = 0,
        nodes: int = 0,
        seconds: float = 0.0,
        scale: float = 10.0,
        tt: int = 2_000_000,
    ) -> None:
        super().__init__(seed)
        if game.num_players != 2:
            raise ValueError(
                f"alphabeta needs a 2-player game; this {game.name} has {game.num_players}"
            )
        if scale <= 0:
            raise ValueError("scale must be positive")
        self.game = game
        self.depth = int(depth)
        self.nodes = int(nodes) if (nodes or seconds or depth) else 20_000
        self.seconds = float(seconds)
        self.scale = float(scale)
        self.tt_size = int(tt)
        self.table: dict[Any, tuple[int, float, int, Action]] = {}
        self.history_score: dict[Action, int] = {}
        self.last_search: dict[str, Any] = {}
        self._count = 0
        self._node_limit: float = INF
        self._deadline = INF
        self._can_abort = False
        self._heuristic_used = 0
        self._structural = True

    def reset(self) -> None:
        super().reset()
        self.table.clear()
        self.history_score.clear()
        self.last_search = {}

    # -- public -----------------------------------------------------------------------

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = {
                "depth": 0,
                "value": None,
                "solved": False,
                "nodes": 0,
                "seconds": 0.0,
                "forced": True,
            }
            return legal[0]
        start = time.perf_counter()
        self._count = 0
        self._node_limit = self.nodes or INF
        self._deadline = start + self.seconds if self.seconds else INF
        if len(self.table) > self.tt_size:
            self.table.clear()
        root = state.clone()
        key = self._key(root)
        order = list(legal)
        self.rng.shuffle(order)
        best, value, reached, solved = order[0], 0.0, 0, False
        for d in range(1, (self.depth or MAX_DEPTH) + 1):
            # The first iteration may run out of budget too: one ply can hold a chain of
            # chance nodes (Eurorails' card draws) of millions of nodes.
            self._can_abort = True
            try:
                value = self._decision(root, d, -INF, INF, key, order)
            except _Abort:
                if d == 1:  # no iteration finished: each move judged by the heuristic
                    best, value = self._one_ply(root, order)
                break
            entry = self.table[key]
            best, reached = entry[3], d
            if best in order:  # search the best move first in the next iteration
                order.remove(best)
                order.insert(0, best)
            if entry[0] >= SOLVED:
                solved = True
                break
        self.last_search = {
            "depth": reached,
            "value": value,
            "solved": solved,
            "nodes": self._count,
            "seconds": time.perf_counter() - start,
            "forced": False,
        }
        return best

    def _one_ply(self, root: State, order: list[Action]) -> tuple[Action, float]:
        """The move whose position the heuristic judges best for the mover (seat 0's value,
        maximised by seat 0 and minimised by the other), and that value."""
        maximise = root.current_player() == 0
        judged = []
        for action in order:
            child = root.clone()
            child.apply_unchecked(action)
            if child.is_terminal():
                v = child.returns()[0]
            else:
                v = heuristic_values(child, self.scale)[0]
            judged.append((v if maximise else -v, action))
        v, action = max(judged, key=lambda x: x[0])  # the first of equals: the search order
        return action, v if maximise else -v

    def value(self, state: State) -> float:
        """The exact value of ``state`` for seat 0, searched to the end (small positions)."""
        self._count = 0
        self._node_limit = INF
        self._deadline = INF
        self._can_abort = False
        root = state.clone()
        return self._search(root, SOLVED - 1, -INF, INF)

    # -- the search -------------------------------------------------------------------

    def _key(self, state: State) -> Any:
        key = state.transposition_key()
        if key is not None:
            return key
        if self._structural:
            try:
                return structural_key(state)
            except TypeError:
                self._structural = False  # an attribute of a kind we cannot freeze
        return state.serialize()

    def _tick(self) -> None:
        self._count += 1
        if self._can_abort and (
            self._count > self._node_limit
            or ((self._count & 127) == 0 and time.perf_counter() > self._deadline)
        ):
            raise _Abort

    def _search(self, state: State, depth: int, alpha: float, beta: float) -> float:
        player = state.current_player()
        if player == TERMINAL:
            self._tick()
            return state.returns()[0]
        key = self._key(state)
        if player == CHANCE:
            return self._chance(state, depth, key)
        return self._decision(state, depth, alpha, beta, key, None)

    def _chance(self, state: State, depth: int, key: Any) -> float:
        self._tick()
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            if entry[0] < SOLVED:
                self._heuristic_used += 1
            return entry[1]
        before = self._heuristic_used
        total = 0.0
        for action, p in state.chance_outcomes():
            child = state.clone()
            child.apply_unchecked(action)
            total += p * self._search(child, depth, -INF, INF)
        mark = SOLVED if self._heuristic_used == before else depth
        self.table[key] = (mark, total, EXACT, -1)
        return total

    def _decision(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        key: Any,
        root_order: list[Action] | None,
    ) -> float:
        self._tick()
        entry = self.table.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if (
                e_depth >= depth
                and root_order is None
                and (
                    e_flag == EXACT
                    or (e_flag == LOWER and e_value >= beta)
                    or (e_flag == UPPER and e_value <= alpha)
                )
            ):
                if e_depth < SOLVED:
                    self._heuristic_used += 1
                return e_value
        if depth <= 0:
            self._heuristic_used += 1
            return heuristic_values(state, self.scale)[0]
        if root_order is not None:
            moves = list(root_order)
        else:
            moves = state.legal_actions()
            hist = self.history_score
            if hist:
                moves.sort(key=lambda a: -hist.get(a, 0))
            if tt_move >= 0 and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
        before = self._heuristic_used
        alpha0, beta0 = alpha, beta
        maximise = state.current_player() == 0
        best = -INF if maximise else INF
        best_move = moves[0]
        for action in moves:
            child = state.clone()
            child.apply_unchecked(action)
            v = self._search(child, depth - 1, alpha, beta)
            if maximise:
                if v > best:
                    best, best_move = v, action
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, action
                if v < beta:
                    beta = v
            if alpha >= beta:
                self.history_score[action] = self.history_score.get(action, 0) + depth * depth
                break
        if best <= alpha0:
            flag = UPPER
        elif best >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        mark = SOLVED if self._heuristic_used == before else depth
        self.table[key] = (mark, best, flag, best_move)
        return best


__all__ = ["ALPHABETA_PARAMS", "AlphaBetaAgent", "structural_key"]

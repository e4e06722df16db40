"""Every motherlode game as an OpenSpiel Python game.

Importing this module registers each game under the short name
``python_motherlode_<game>``, its config options as the game's parameters
(see :mod:`motherlode.adapters.params` for how non-scalar options are carried)::

    import pyspiel
    import motherlode.adapters.openspiel  # registers the games
    game = pyspiel.load_game("python_motherlode_yukon(players=3,expansion=True)")
    state = game.new_initial_state()

or without a game string: ``load_game("yukon", players=3, expansion=True)``.

What OpenSpiel sees, all derived from the game's own facts (nothing here names a game):

* ``GameType``: sequential, explicit chance when the game has chance outcomes, perfect or
  imperfect information from ``Game.perfect_information``, terminal rewards; utility
  zero-sum for 2 players with the protocol's +1/-1/0 returns, general-sum otherwise
  (n-player "+1 each winner, -1 the others" does not sum to a constant; solo returns 0).
  The registered type describes the default config; each loaded game carries the exact
  type of its own config (a 2-player config of a 2-6 player game is zero-sum).
* ``GameInfo``: ``num_distinct_actions``, ``max_chance_outcomes``, players, utility bounds,
  ``max_game_length`` (an upper bound on decisions and chance draws together, so it also
  bounds ``max_chance_nodes_in_history``).
* Chance outcome ids live in their own space ``0..max_chance_outcomes-1``, as in OpenSpiel.
* Observations through an Observer (``make_py_observer``): the tensor is
  ``State.observation_tensor(seat)`` with the game's fixed shape, the string is
  ``State.observation(seat)`` as compact JSON (exactly what that seat may see). A public
  observer (``PrivateInfoType.NONE``) sees the spectator's view.
* Information states (perfect recall): perfect-information games give the action history
  as the string and declare no tensor (asking for one raises); games with hidden
  information give the seat's own record (``saw <observation>`` whenever its view
  changes, ``did <action>`` for its decisions) and a tensor, the observation then the
  seat's own action counts. Kept incrementally once asked for.
* ``position=<notation>``: a game parameter that starts every game from that position
  (small, solvable games with the rules kept: :mod:`motherlode.research.solve`).
* Clone: OpenSpiel's bridge deep-copies the Python attributes of a state; ours hold one
  ``_Position`` whose ``__deepcopy__`` is the game's own fast ``clone()``.
* Serialization: ``state.serialize()`` is readable text, ``history=<ids>`` then
  ``position=<the game's position notation>``; ``game.deserialize_state(text)`` replays the
  history (so OpenSpiel's history is right) and checks the position. The bridge's own
  C++ path (``pyspiel.serialize_game_and_state``, ``random_sim_test``) pickles the Python
  attributes: there ``_Position`` reduces to the same notation and history, never to the
  engine's objects.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # pyspiel ships no type stubs

import motherlode
from motherlode.adapters.params import decode_config, encode_config, escape, unescape
from motherlode.core.errors import MotherlodeError, NotationError
from motherlode.core.protocol import Action, Game, Player, State
from motherlode.games import game_class, registry

__all__ = [
    "PREFIX",
    "MotherlodeGame",
    "MotherlodeObserver",
    "MotherlodeState",
    "game_type",
    "load_game",
    "register",
    "short_name",
]

PREFIX = "python_motherlode_"
"""OpenSpiel short names are ``PREFIX + game name``."""

POSITION = "position"
"""The game parameter that starts every game from a position (the game's notation; empty:
the normal start). It keeps the rules: a late position of a real game is a small one."""

_SERIAL_HISTORY = "history="
_SERIAL_POSITION = "position="


def short_name(name: str) -> str:
    """The OpenSpiel short name of the motherlode game ``name``."""
    return PREFIX + name


def _zero_sum(game: Game) -> bool:
    """Two players with the protocol's +1/-1/0 returns (not overridden by the game)."""
    state_cls = type(game.new_initial_state())
    return (
        game.num_players == 2
        and state_cls.returns is State.returns
        and game.min_utility == -game.max_utility
    )


def game_type(game: Game) -> Any:
    """The ``pyspiel.GameType`` of ``game`` (its exact config)."""
    cls = type(game)
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"motherlode {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if game.max_chance_outcomes > 0
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if game.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if _zero_sum(game)
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        # every game has an information-state string (perfect information: the history;
        # hidden information: the seat's own observations and actions); a tensor only
        # where there is hidden information (with perfect information, it is absent)
        provides_information_state_string=True,
        provides_information_state_tensor=not game.perfect_information,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**encode_config(cls, {}), POSITION: ""},
    )


def game_info(game: Game) -> Any:
    """The ``pyspiel.GameInfo`` of ``game``."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.max_chance_outcomes,
        num_players=game.num_players,
        min_utility=game.min_utility,
        max_utility=game.max_utility,
        utility_sum=0.0 if _zero_sum(game) else None,
        max_game_length=game.max_game_length,
    )


class _Position:
    """The engine's state, held in the one Python attribute OpenSpiel's bridge copies.

    ``copy.deepcopy`` (the bridge's clone) is the game's fast ``clone()``; ``pickle``
    (the bridge's serialization) reduces to the position notation and the history.
    """

    __slots__ = ("recall", "start", "state")

    def __init__(self, state: State, start: str | None = None) -> None:
        self.state = state
        self.start = start  # the game's ``position=`` (the history starts there)
        self.recall: _Recall | None = None  # kept up to date once someone asks for it

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        copy = _Position(self.state.clone(), self.start)
        copy.recall = None if self.recall is None else self.recall.copy()
        return copy

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.state.game
        return (
            _restore_position,
            (
                game.name,
                json.dumps(game.config.model_dump(mode="json")),
                self.state.serialize(),
                self.state.history(),
                self.start,
                None if self.recall is None else (self.recall.lines, self.recall.actions),
            ),
        )


def _restore_position(
    name: str,
    config: str,
    text: str,
    history: list[int],
    start: str | None = None,
    recall: tuple[list[list[str]], list[list[int]]] | None = None,
) -> _Position:
    """Rebuild a pickled :class:`_Position`: replay ``history``, check it against ``text``."""
    game = motherlode.load(name, **json.loads(config))
    state = game.new_initial_state() if start is None else game.deserialize(start)
    try:
        for action in history:
            state.apply_action(action)
    except MotherlodeError:
        pass  # the history does not replay from here: the notation below decides
    if state.serialize() != text:
        # the position was set without its history: load the notation itself
        state = game.deserialize(text)
    position = _Position(state, start)
    if recall is not None:  # carried along: a replay of every seat's view costs far more
        position.recall = _Recall(*recall)
    return position


class MotherlodeState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is untyped
    """An OpenSpiel state wrapping a motherlode state (``.motherlode_state``)."""

    def __init__(self, game: MotherlodeGame, state: State | None = None) -> None:
        super().__init__(game)
        self._pos = _Position(
            state if state is not None else game.initial_motherlode_state(), game.start
        )

    @property
    def motherlode_state(self) -> State:
        """The engine's state (moves with this one; do not apply actions to it directly)."""
        return self._pos.state

    # -- the PySpiel hooks ------------------------------------------------------------

    def current_player(self) -> Player:
        return self._pos.state.current_player()

    def is_terminal(self) -> bool:
        return self._pos.state.is_terminal()

    def _legal_actions(self, player: Player) -> list[Action]:
        return self._pos.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return self._pos.state.chance_outcomes()

    def _apply_action(self, action: Action) -> None:
        # the checked path: an illegal id from an outside tool raises IllegalActionError
        inner = self._pos.state
        recall = self._pos.recall
        if recall is None:
            inner.apply_action(int(action))
            return
        mover = inner.current_player()
        text = inner.action_to_string(int(action))
        inner.apply_action(int(action))
        recall.step(inner, mover, int(action), text)

    def recall(self) -> _Recall:
        """Every seat's own record so far (made by a replay once, then kept up to date)."""
        if self._pos.recall is None:
            self._pos.recall = _Recall.replayed(self)
        return self._pos.recall

    def _action_to_string(self, player: Player, action: Action) -> str:
        return self._pos.state.action_to_string(int(action))

    def returns(self) -> list[float]:
        return [float(r) for r in self._pos.state.returns()]

    def __str__(self) -> str:
        return str(self._pos.state)

    # -- readable serialization ---------------------------------------------------------

    def serialize(self) -> str:
        """``history=<ids, comma-separated>`` and ``position=<notation>`` on two lines."""
        inner = self._pos.state
        return (
            f"{_SERIAL_HISTORY}{','.join(str(a) for a in inner.history())}\n"
            f"{_SERIAL_POSITION}{inner.serialize()}"
        )


class MotherlodeObserver:
    """OpenSpiel's PyObserver interface over ``observation_tensor`` and ``observation``.

    ``tensor`` is flat ``float32``; ``dict`` holds its named views. Without perfect
    recall: ``"observation"``, in the game's tensor shape. With ``perfect_recall`` (the
    information state):

    * perfect-information games: the string is the action history; there is no tensor
      (the game type declares none, and asking for one raises instead of giving ``[]``);
    * hidden information: the string is the seat's own record, its observations as they
      changed and its own actions, in order (:func:`information_state`); the tensor is
      ``"observation"`` then ``"own_actions"``, how often the seat took each action id.
    """

    def __init__(self, game: Game, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and not game.perfect_information:
            raise ValueError(f"{game.name}: no all-players observer for imperfect information")
        # NONE: the public (spectator's) view; SINGLE_PLAYER / ALL_PLAYERS: the seat's own
        self.public = private == pyspiel.PrivateInfoType.NONE
        if self.perfect_recall and self.public and not game.perfect_information:
            raise ValueError(f"{game.name}: no public perfect-recall observer")
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]
        shape = game.observation_tensor_shape()
        size = int(np.prod(shape))
        if self.perfect_recall and game.perfect_information:
            self.tensor = None
            self.dict = {}
        elif self.perfect_recall:
            self.tensor = np.zeros(size + game.num_distinct_actions, np.float32)
            self.dict = {
                "observation": self.tensor[:size].reshape(shape),
                "own_actions": self.tensor[size:],
            }
        else:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def _seat(self, player: Player) -> Player | None:
        return None if self.public else player

    def set_from(self, state: MotherlodeState, player: Player) -> None:
        if self.tensor is None:
            if self.perfect_recall:
                raise ValueError(
                    f"{self.game.name} has perfect information: no information-state tensor"
                    " (the information state is the history; use observation_tensor)"
                )
            return
        inner = state.motherlode_state
        values = inner.observation_tensor(self._seat(player))
        if self.perfect_recall:
            self.dict["observation"][...] = np.asarray(values, dtype=np.float32)
            counts = self.dict["own_actions"]
            counts[:] = 0.0
            np.add.at(counts, state.recall().actions[player], 1.0)
        else:
            self.tensor[:] = np.asarray(values, dtype=np.float32).ravel()

    def string_from(self, state: MotherlodeState, player: Player) -> str:
        inner = state.motherlode_state
        if self.perfect_recall:
            if self.game.perfect_information:
                return " ".join(str(a) for a in inner.history())
            return information_state(state, player)
        return json.dumps(
            inner.observation(self._seat(player)), separators=(",", ":"), sort_keys=True
        )


def _observed(state: State, seat: Player) -> str:
    return "saw " + json.dumps(state.observation(seat), separators=(",", ":"), sort_keys=True)


class _Recall:
    """Each seat's perfect-recall record: ``saw <observation JSON>`` each time what it may
    see changes, ``did <action>`` for each of its own decisions, in order; and its own
    decision ids. Histories a seat cannot tell apart give it the same lines."""

    __slots__ = ("actions", "lines")

    def __init__(self, lines: list[list[str]], actions: list[list[int]]) -> None:
        self.lines = lines
        self.actions = actions

    def copy(self) -> _Recall:
        return _Recall([list(x) for x in self.lines], [list(x) for x in self.actions])

    @classmethod
    def replayed(cls, state: MotherlodeState) -> _Recall:
        """The record of ``state``'s history, replayed from the game's start."""
        engine = state.motherlode_state.game
        start = state._pos.start
        current = engine.new_initial_state() if start is None else engine.deserialize(start)
        n = engine.num_players
        recall = cls([[_observed(current, p)] for p in range(n)], [[] for _ in range(n)])
        for action in state.motherlode_state.history():
            mover = current.current_player()
            text = current.action_to_string(action)
            current.apply_unchecked(action)
            recall.step(current, mover, action, text)
        return recall

    def step(self, after: State, mover: Player, action: Action, text: str) -> None:
        """``mover`` (or chance) took ``action`` (``text``), reaching ``after``."""
        for seat, lines in enumerate(self.lines):
            if seat == mover:
                lines.append("did " + text)
                self.actions[seat].append(action)
            seen = _observed(after, seat)
            if lines[-1] != seen:
                lines.append(seen)


def information_state(state: MotherlodeState, player: Player) -> str:
    """The perfect-recall information state of ``player``: what it has seen and done.

    One line per event the seat can tell apart: ``saw <observation JSON>`` each time its
    observation changes (what it may see, never another seat's secrets) and ``did
    <action>`` for each of its own decisions.
    """
    return "\n".join(state.recall().lines[player])


class MotherlodeGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is untyped
    """An OpenSpiel game wrapping a motherlode game (``.motherlode``)."""

    game_name: str = ""
    """The motherlode game; each registered game is a subclass that sets it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cls = game_class(self.game_name)
        params = dict(params or {})
        start = unescape(str(params.pop(POSITION, "") or ""))
        config = decode_config(cls, params)
        self.motherlode: Game = motherlode.load(self.game_name, **config)
        self.start: str | None = start or None
        """The position every game starts from (``position=``), or None: the normal start."""
        if self.start is not None:
            self.motherlode.deserialize(self.start)  # a bad position fails here, with why
        full = {**encode_config(cls, self.motherlode.config.model_dump()), POSITION: escape(start)}
        super().__init__(game_type(self.motherlode), game_info(self.motherlode), full)

    def initial_motherlode_state(self) -> State:
        """The engine's state a game starts from: the normal start or ``position=``."""
        if self.start is not None:
            return self.motherlode.deserialize(self.start)
        return self.motherlode.new_initial_state()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pyspiel's own pickling restores the C++ game only, not our Python attributes
        return (_unpickle_game, (self.game_name, self.get_parameters()))

    def new_initial_state(self, text: str | None = None) -> MotherlodeState:
        """A fresh game; with ``text``, the state :meth:`deserialize_state` reads from it."""
        if text is not None:
            return self.deserialize_state(text)
        return MotherlodeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MotherlodeObserver:
        return MotherlodeObserver(
            self.motherlode,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )

    def max_chance_nodes_in_history(self) -> int:
        return self.motherlode.max_game_length

    def deserialize_state(self, text: str) -> MotherlodeState:
        """Read :meth:`MotherlodeState.serialize`'s text (or a bare position notation).

        The history is replayed through the checked path and must reach the position;
        a bare position (no ``history=`` line) loads with an empty OpenSpiel history.
        """
        game = self.motherlode
        if not text.startswith(_SERIAL_HISTORY):
            return MotherlodeState(self, game.deserialize(text))
        first, sep, rest = text.partition("\n")
        if not sep or not rest.startswith(_SERIAL_POSITION):
            raise NotationError(
                f"{game.name}: serialized state needs a {_SERIAL_POSITION!r} line: {text!r}"
            )
        position = rest[len(_SERIAL_POSITION) :]
        ids = first[len(_SERIAL_HISTORY) :]
        try:
            history = [int(a) for a in ids.split(",")] if ids else []
        except ValueError:
            raise NotationError(f"{game.name}: bad history {ids!r} in {text!r}") from None
        state = MotherlodeState(self)
        for action in history:
            state.apply_action(action)
        reached = state.motherlode_state.serialize()
        if reached != position:
            raise NotationError(
                f"{game.name}: history reaches {reached!r}, not the position {position!r}"
            )
        return state


def _unpickle_game(name: str, params: dict[str, Any]) -> MotherlodeGame:
    """A pickled :class:`MotherlodeGame`: registered (in this process too) and loaded."""
    register([name])
    game = pyspiel.load_game(short_name(name), params)
    assert isinstance(game, MotherlodeGame)
    return game


def game_class_for(name: str) -> type[MotherlodeGame]:
    """The :class:`MotherlodeGame` subclass registered for ``name`` (made on first use).

    OpenSpiel keeps the creator it is given for the life of the process, past the
    interpreter's shutdown; a class (unlike a closure) is never freed by a reference
    count reaching zero there, so registering classes keeps the exit clean. Each class
    is also an attribute of this module (``MotherlodeYukonGame`` ...), so games pickle:
    pickle finds a class by its module and name.
    """
    if name not in _CLASSES:
        title = "".join(part.title() for part in name.split("_"))
        cls = type(
            f"Motherlode{title}Game",
            (MotherlodeGame,),
            {"game_name": name, "__module__": __name__, "__qualname__": f"Motherlode{title}Game"},
        )
        # a module attribute, so that pickle finds the class by name (workers, Ray)
        globals()[cls.__name__] = cls
        _CLASSES[name] = cls
    return _CLASSES[name]


_CLASSES: dict[str, type[MotherlodeGame]] = {}
_REGISTERED: set[str] = set()


def register(names: list[str] | None = None) -> list[str]:
    """Register the games ``names`` (default: every registered game) with OpenSpiel.

    Safe to call again (a game already registered is skipped); returns the short names.
    """
    registered = {t.short_name for t in pyspiel.registered_games()}
    out = []
    for name in names if names is not None else list(registry()):
        short = short_name(name)
        if short not in registered and short not in _REGISTERED:
            default = game_class(name).from_config()
            pyspiel.register_game(game_type(default), game_class_for(name))
            _REGISTERED.add(short)
        out.append(short)
    return out


def load_game(name: str, **config: Any) -> MotherlodeGame:
    """The OpenSpiel game of motherlode game ``name`` with ``config`` (registers it first).

    >>> game = load_game("yukon", players=3)
    >>> game.num_players(), game.get_type().short_name
    (3, 'python_motherlode_yukon')

    ``position=`` (the game's notation) starts every game of it from that position.
    """
    register([name])
    cls = game_class(name)
    start = config.pop(POSITION, None)
    params = encode_config(cls, config)
    if start:
        params[POSITION] = escape(str(start))
    game = pyspiel.load_game(short_name(name), params)
    assert isinstance(game, MotherlodeGame)
    return game


register()

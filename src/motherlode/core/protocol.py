"""The game protocol every motherlode game implements (DESIGN.md §2).

Modelled on OpenSpiel's: a :class:`Game` is an immutable, validated configuration that
makes states; a :class:`State` is a position that moves by integer actions. Randomness is
an explicit chance player: the rules never call an RNG, whoever drives the game samples.

A game fills in a few hooks (the methods whose names start with ``_``, plus the
position-specific queries); this base class does the bookkeeping once for all games:
history, the legality check that raises :class:`IllegalActionError` and leaves the state
unchanged, chance sampling, returns from scores, notation fall-backs.

Two paths apply an action:

* :meth:`State.apply_action` checks legality first (for untrusted input);
* :meth:`State.apply_unchecked` trusts the caller (for search agents and playouts that
  only ever pick from :meth:`State.legal_actions` or :meth:`State.chance_outcomes`).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from motherlode.core.errors import ConfigError, IllegalActionError, NotationError
from motherlode.core.svg import Layers, single_layer

if TYPE_CHECKING:
    from motherlode.core.agent import Agent

Action = int
"""An action id: ``0 <= a < game.num_distinct_actions`` at a decision node, and
``0 <= a < game.max_chance_outcomes`` at a chance node."""

Player = int
"""A seat number ``0 .. n-1``, or one of the markers :data:`CHANCE` and :data:`TERMINAL`."""

CHANCE: Player = -1
"""``current_player()`` at a chance node (as in OpenSpiel)."""

TERMINAL: Player = -4
"""``current_player()`` once the game is over (as in OpenSpiel)."""


class GameConfig(BaseModel):
    """Base of every game's configuration: a frozen pydantic model that forbids unknown keys.

    Each game subclasses it, adds its options with defaults and a description, and
    validates cross-field constraints in a ``model_validator``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = 2


def _describe_validation_error(game: str, err: ValidationError) -> str:
    parts = []
    for item in err.errors():
        where = ".".join(str(p) for p in item["loc"]) or "config"
        got = item.get("input")
        got_text = "" if isinstance(got, dict) else f" (got {got!r})"
        parts.append(f"{where}: {item['msg']}{got_text}")
    return f"invalid {game} config: " + "; ".join(parts)


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: the winning seats, the final scores and why it ended."""

    winners: tuple[Player, ...]
    scores: tuple[float, ...]
    termination: str = ""
    """Why the game ended (``state.termination()``): the rulebook's condition or the turn
    limit, e.g. ``"the train reached the city"``; empty where the game does not say."""

    @property
    def shared(self) -> bool:
        """True when more than one seat shares the victory."""
        return len(self.winners) > 1


@dataclass(frozen=True)
class SeatResult:
    """One seat's line of a :class:`Summary`: its score and the rulebook's breakdown of it."""

    seat: Player
    score: float
    breakdown: tuple[tuple[str, float], ...] = ()
    """``(what, points)`` pairs as the rulebook counts them (``("gold", 12.0)``...); a
    ``what`` that states its own sum ends with ``=`` (``("1 robber × 2 =", 2.0)``), and
    every reader writes its points after it without a colon."""


@dataclass(frozen=True)
class Summary:
    """The end of a game explained (DESIGN.md §2, ``state.summary()``)."""

    reason: str
    """Why the game ended, in the rulebook's words (or the turn limit)."""
    seats: tuple[SeatResult, ...]
    winners: tuple[Player, ...]

    def lines(self, names: Sequence[str] | None = None) -> list[str]:
        """The summary as plain lines: the reason, one line per seat, the winners.

        >>> Summary("the deck ran out", (SeatResult(0, 5.0), SeatResult(1, 7.0)), (1,)).lines()
        ['The game is over: the deck ran out.', 'P1: 5', 'P2: 7', 'Winner: P2']
        """
        label = list(names) if names else [f"P{r.seat + 1}" for r in self.seats]
        out = [f"The game is over: {self.reason}."]
        for r in self.seats:
            parts = ", ".join(f"{what} {_points(v)}" for what, v in r.breakdown)
            out.append(f"{label[r.seat]}: {_points(r.score)}" + (f" ({parts})" if parts else ""))
        who = ", ".join(label[w] for w in self.winners)
        if not self.winners:
            out.append("Nobody wins")
        else:
            out.append(("Shared victory: " if len(self.winners) > 1 else "Winner: ") + who)
        return out


S = TypeVar("S", bound="State")


@dataclass(frozen=True)
class Notation(Generic[S]):
    """A game's notation (its ``notation.py``): what :class:`State` and :class:`Game`
    dispatch their notation hooks to. Wired by the game package's ``__init__`` with
    :func:`wire`, so that the rules (``game.py``) import nothing of their notation."""

    action_to_string: Callable[[S, Action], str]
    parse_action: Callable[[S, str], Action]
    """Parse any well-formed action (an illegal one then gets its reason from the check)."""
    explain_illegal: Callable[[S, Action], str]
    write_position: Callable[[S], str]
    read_position: Callable[[Any, str], S]
    """``read_position(game, text)``: the position, or :class:`NotationError` naming the
    field and the reason."""


TextMark = tuple[int, int, int, str]
"""``(line, start, end, kind)``: a span of a text board to colour (:class:`Renderer`)."""


@dataclass(frozen=True)
class Renderer(Generic[S]):
    """A game's boards (its ``render.py``): text for the terminal, SVG for pages and files,
    each drawn from the seat's view (``None``: a spectator)."""

    text_board: Callable[[S, Player | None], str]
    svg_board: Callable[[S, Player | None], str]
    svg_layers: Callable[[S, Player | None], Layers] | None = None
    """The SVG board as DESIGN.md §3b's layers; when set, ``svg_board`` must equal
    ``svg_layers(state, seat).compose()`` (the conformance suite checks it)."""
    text_marks: Callable[[S, Player | None], Sequence[TextMark]] | None = None
    """Where a terminal colours ``text_board(state, seat)``: ``(line, start, end, kind)``
    spans of its lines (the spaces inside a span are left plain). Kinds: ``move`` (a place
    that a legal move of ``seat`` acts on, where ``seat`` is to move or ``None``),
    ``gold``, ``pebble``, ``water``, ``hidden``, ``special``, ``seat0``..``seat5``. A file
    or a dumb terminal gets the plain text."""


@dataclass(frozen=True)
class Narrator(Generic[S]):
    """A game's words for people (its ``narrate.py``): one sentence per action, asked
    before it is applied and from a seat's view (DESIGN.md §2), and the end explained."""

    narrate: Callable[[S, Action, Player | None], str]
    summary: Callable[[S], Summary]
    decision: Callable[[S], str] | None = None
    """The decision in front of the seat to move, in a sentence with the rulebook's
    section ("P1 takes a card from row 4 or column d (rulebook: Playing the Game)"):
    what the terminal's ``help`` says first."""


@dataclass(frozen=True)
class Preview:
    """What a command for people (:meth:`State.expand`) would do, before it is confirmed:
    the line the log will show, further lines (cost, what remains this turn), the atomic
    actions it applies now, and an SVG fragment drawn by the engine over its board (in the
    board's coordinates; empty where the game draws none). A preview is not a move.

    >>> Preview("build to Lyon", "P1 builds Paris-Lyon", (612,)).as_dict()["actions"]
    [612]
    """

    command: str
    summary: str
    actions: tuple[Action, ...]
    details: tuple[str, ...] = ()
    overlay: str = ""
    texts: tuple[str, ...] = ()
    """The notation of each of :attr:`actions`."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "summary": self.summary,
            "details": list(self.details),
            "actions": list(self.actions),
            "texts": list(self.texts),
            "overlay": self.overlay,
        }


@dataclass(frozen=True)
class Orders(Generic[S]):
    """A game's commands for people (DESIGN.md §2, ``state.expand``): one command stands
    for several atomic actions (a Eurorails route). Wired by the package (:func:`wire`)."""

    expand: Callable[[S, str], list[Action]]
    preview: Callable[[S, str], Preview]
    describe: Callable[[S, Sequence[Action]], list[str]]
    """Phrases for a run of actions applied from this state on ("builds Paris-Lyon (9
    mileposts, 11 M)", "ends the turn"): a bot's turn in one line."""
    examples: tuple[tuple[str, str], ...] = ()
    """``(command, what it does)`` pairs for a help screen."""
    ends_turn: Callable[[S, Action], bool] | None = None
    """Does this action (legal here, not yet applied) end the seat's turn? Where a seat
    takes turns in a row, a bot's turns are then told one line each."""


def wire(
    game: type[Game],
    state: type[State],
    *,
    notation: Notation[Any] | None = None,
    renderer: Renderer[Any] | None = None,
    narrator: Narrator[Any] | None = None,
    bots: dict[str, Callable[..., Agent]] | None = None,
    commands: dict[str, Callable[..., None]] | None = None,
    orders: Orders[Any] | None = None,
) -> None:
    """Attach a game's notation, renderer, bots and CLI commands to its classes.

    Called once, by the game package's ``__init__``: the one place where the rules meet
    the modules built on them (which import the rules, never the other way round).
    """
    if notation is not None:
        game.notation = state.notation = notation
        # the hot hooks become the notation's own functions (they take the state first, as
        # a method takes self): no dispatch on the paths search and playouts run
        state._action_to_string = notation.action_to_string  # type: ignore[method-assign,assignment]
        state._parse_action = notation.parse_action  # type: ignore[method-assign,assignment]
        state._explain_illegal = notation.explain_illegal  # type: ignore[method-assign,assignment]
        state.serialize = notation.write_position  # type: ignore[method-assign,assignment]
    if renderer is not None:
        state.renderer = renderer
    if narrator is not None:
        state.narrator = narrator
    if bots is not None:
        game.bot_factories = dict(bots)
    if commands is not None:
        game.cli_commands = dict(commands)
    if orders is not None:
        state.orders = orders


def _points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class Game(ABC):
    """A validated, immutable game configuration and the factory of its states.

    Subclasses set :attr:`name`, :attr:`Config`, and fill in the abstract members.
    """

    name: ClassVar[str]
    """The registry name, e.g. ``"yukon"``."""

    rules_version: ClassVar[int] = 1
    """Raised by one whenever a rule fix changes which moves are legal or what they do, so
    a record says which rules it was played under (DESIGN.md §3)."""

    rules_changes: ClassVar[dict[int, str]] = {}
    """What each rules version above 1 changed: ``{2: "Eureka, Moving: ..."}``, naming the
    rulebook section; a record of an older version that no longer replays is refused
    with these texts."""

    notation_version: ClassVar[int] = 1
    """Raised when the action or position notation changes; older text must still read."""

    notation: ClassVar[Notation[Any] | None] = None
    """The game's notation, wired by its package (:func:`wire`)."""

    bot_factories: ClassVar[dict[str, Callable[..., Agent]]] = {}
    """Game-specific agents by spec name, wired by the package (see :meth:`bots`)."""

    cli_commands: ClassVar[dict[str, Callable[..., None]]] = {}
    """Game-specific ``motherlode`` commands (typer functions), wired by the package (see
    :meth:`commands`)."""

    Config: ClassVar[type[GameConfig]] = GameConfig
    """The pydantic model of this game's options."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, config: GameConfig) -> None:
        self.config = config

    # -- construction --------------------------------------------------------------

    @classmethod
    def from_config(cls, **options: Any) -> Self:
        """Validate ``options`` against :attr:`Config`; bad options raise :class:`ConfigError`."""
        try:
            config = cls.Config(**options)
        except ValidationError as err:
            raise ConfigError(_describe_validation_error(cls.name, err)) from None
        if not cls.min_players <= config.players <= cls.max_players:
            raise ConfigError(
                f"invalid {cls.name} config: players must be {cls.min_players}"
                f"..{cls.max_players} (got {config.players})"
            )
        return cls(config)

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """Configs the shared conformance suite runs (every player count, every variant)."""
        return [{"players": n} for n in range(cls.min_players, cls.max_players + 1)]

    @classmethod
    def option_help(cls) -> list[tuple[str, str, str]]:
        """``(option, default, description)`` for each config option, for ``motherlode games``."""
        rows = []
        for key, field in cls.Config.model_fields.items():
            rows.append((key, repr(field.default), field.description or ""))
        return rows

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self  # a Game is immutable: states share it

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.config.model_dump().items())
        return f"motherlode.load({self.name!r}, {options})"

    # -- static facts ---------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the decision action space: every decision action id is below it."""

    @property
    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome space: every chance action id is below it."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (decision and chance) in one game."""

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @abstractmethod
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The fixed shape of :meth:`State.observation_tensor` for this config."""

    @property
    def perfect_information(self) -> bool:
        """True when every seat sees the whole state (chance still unknown ahead); then
        ``observation(seat)`` is ``observation(None)`` with ``"seat": seat`` (the server
        builds it once per position for every viewer; tests/test_protocol.py holds every
        game to it)."""
        return True

    # -- states ---------------------------------------------------------------------

    @abstractmethod
    def new_initial_state(self) -> State:
        """A fresh game, at its first set-up chance node if it has any."""

    def deserialize(self, text: str) -> State:
        """The state whose :meth:`State.serialize` is ``text``; bad text raises
        :class:`NotationError` naming the field and the reason."""
        if self.notation is None:
            raise NotImplementedError(f"{self.name}: no notation is wired")
        state: State = self.notation.read_position(self, text)
        return state

    # -- bots -----------------------------------------------------------------------

    def bots(self) -> dict[str, Callable[..., Agent]]:
        """Game-specific agents by spec name (``greedy`` ...), each ``factory(game, seed=..)``
        (default: :attr:`bot_factories`, wired by the package)."""
        return dict(self.bot_factories)

    @classmethod
    def commands(cls) -> dict[str, Callable[..., None]]:
        """Game-specific CLI commands: ``{"map": fn}`` becomes ``motherlode map GAME ...``
        (default: :attr:`cli_commands`, wired by the package)."""
        return dict(cls.cli_commands)


class State(ABC):
    """A position of a game. Mutable: :meth:`apply_action` moves it on.

    Hooks a game must fill in: :meth:`current_player`, :meth:`_legal_actions`,
    :meth:`_chance_outcomes`, :meth:`_apply_action`, :meth:`scores`, :meth:`observation`,
    :meth:`observation_tensor`; and, for speed, :meth:`clone`. The notation hooks
    (:meth:`_action_to_string`, :meth:`_parse_action`, :meth:`_explain_illegal`,
    :meth:`serialize`) and the boards (:meth:`render_text`, :meth:`render_svg`,
    ``__str__``) dispatch to the :attr:`notation` and :attr:`renderer` that the game's
    package wires (:func:`wire`). Optional hooks, with their defaults here:
    :meth:`heuristic_values`, :meth:`transposition_key`, :meth:`termination`,
    :meth:`narrate`, :meth:`summary`, :meth:`check_invariants`.
    """

    notation: ClassVar[Notation[Any] | None] = None
    """The game's notation, wired by its package (:func:`wire`)."""

    renderer: ClassVar[Renderer[Any] | None] = None
    """The game's text and SVG boards, wired by its package (:func:`wire`)."""

    narrator: ClassVar[Narrator[Any] | None] = None
    """The game's narration and end-of-game summary, wired by its package (:func:`wire`)."""

    orders: ClassVar[Orders[Any] | None] = None
    """The game's commands for people (:meth:`expand`), wired by its package."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[Action] = []

    # -- hooks ----------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> Player:
        """The seat to move, or :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Sorted legal actions of the seat to move (called only at decision nodes)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(outcome, probability)`` pairs (called only at chance nodes)."""

    @abstractmethod
    def _apply_action(self, action: Action) -> None:
        """Apply a legal decision action or a possible chance outcome."""

    def _wired(self) -> Notation[Any]:
        if self.notation is None:
            raise NotImplementedError(f"{self.game.name}: no notation is wired")
        return self.notation

    def _action_to_string(self, action: Action) -> str:
        """The notation of ``action`` in this position (decision or chance)."""
        return self._wired().action_to_string(self, action)

    def _parse_action(self, text: str) -> Action:
        """Parse action notation: the wired notation's parser, else a match among this
        position's actions (a wired parser reads any well-formed action, so an illegal but
        well-formed one reaches :meth:`apply_action` and gets an :class:`IllegalActionError`).
        """
        if self.notation is not None:
            return self.notation.parse_action(self, text)
        wanted = " ".join(text.split()).lower()
        options = (
            [a for a, _ in self.chance_outcomes()]
            if self.is_chance_node()
            else self.legal_actions()
        )
        for action in options:
            if self._action_to_string(action).lower() == wanted:
                return action
        raise NotationError(
            f"{self.game.name}: no action {text!r} here; legal: "
            + ", ".join(self._action_to_string(a) for a in options[:30])
            + (" ..." if len(options) > 30 else "")
        )

    def _explain_illegal(self, action: Action) -> str:
        """Why ``action`` is illegal here: the rule that forbids it, in the player's words."""
        if self.notation is not None:
            return self.notation.explain_illegal(self, action)
        return "it is not among the legal actions"

    def heuristic_values(self) -> list[float] | None:
        """A judgement of the position for each seat in ``[-1, 1]`` (search agents use it
        at their depth limit); ``None``: the game gives none (agents then use scores)."""
        return None

    def transposition_key(self) -> Any:
        """A hashable key equal for states that play the same from here on (search agents'
        transposition tables); ``None``: the agents freeze the state's attributes, or use
        :meth:`serialize` where they cannot."""
        return None

    def termination(self) -> str:
        """Why the finished game ended, in the rulebook's words; empty while it runs or
        where the game does not say (see :attr:`Outcome.termination`)."""
        return ""

    @abstractmethod
    def scores(self) -> list[float]:
        """Per-seat raw points (or cash) as the rulebook counts them, so far."""

    @abstractmethod
    def observation(self, player: Player | None = None) -> dict[str, Any]:
        """JSON-able view of what ``player`` may see (``None``: a spectator)."""

    @abstractmethod
    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """Numeric view for learning agents, of shape ``game.observation_tensor_shape()``."""

    def serialize(self) -> str:
        """The position notation; ``game.deserialize`` inverts it exactly."""
        return self._wired().write_position(self)

    def check_invariants(self) -> None:
        """Raise :class:`AssertionError` if a conservation invariant is broken.

        Games declare theirs here (every card, chip, coin accounted for); the conformance
        suite calls it after every step of its random playouts.
        """
        return  # a hook: by default there is nothing to check

    def render_svg(self, seat: Player | None = None) -> str:
        """The board as SVG from ``seat``'s view (``observation(seat)``, never hidden state).

        Elements a legal action of the seat to move acts on carry ``data-action``.
        """
        if self.renderer is None:
            raise NotImplementedError(f"{self.game.name}: no renderer is wired")
        return self.renderer.svg_board(self, seat)

    def render_layers(self, seat: Player | None = None) -> Layers:
        """The SVG board as static, public and seat layers (DESIGN.md §3b); a game without
        its own layering gives its whole board as one seat element."""
        if self.renderer is not None and self.renderer.svg_layers is not None:
            return self.renderer.svg_layers(self, seat)
        return single_layer(self.render_svg(seat))

    def render_text(self, seat: Player | None = None) -> str:
        """The board as text from ``seat``'s view (the wired renderer, else ``str(self)``)."""
        if self.renderer is None:
            return str(self)
        return self.renderer.text_board(self, seat)

    def __str__(self) -> str:
        if self.renderer is None:
            return object.__repr__(self)
        return self.renderer.text_board(self, None)

    def clone(self) -> Self:
        """An independent deep copy (games override this for speed)."""
        return copy.deepcopy(self)

    # -- derived queries --------------------------------------------------------------

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    _legal_cache: tuple[int, list[Action]] | None = None
    """The move number and the list that :meth:`legal_actions` last returned: what
    :meth:`apply_action` checks against at the same move instead of computing it again. An
    action missing from it (a caller may have taken some out) gets the full check."""

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions; empty when terminal or at a chance node."""
        if self.current_player() < 0:
            return []
        legal = self._legal_actions()
        self._legal_cache = (len(self._history), legal)
        return legal

    def _is_chance_outcome(self, action: Action) -> bool:
        """Is ``action`` a possible outcome of this chance node? (Games with many outcomes
        override this with a direct test.)"""
        return any(a == action for a, _ in self._chance_outcomes())

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(action, probability)`` at a chance node; empty elsewhere."""
        if not self.is_chance_node():
            return []
        return self._chance_outcomes()

    def sample_chance(self, rng: random.Random) -> Action:
        """One chance outcome drawn with its probability, using ``rng``."""
        outcomes = self._chance_outcomes()
        x = rng.random()
        for action, p in outcomes:
            x -= p
            if x < 0.0:
                return action
        return outcomes[-1][0]

    def history(self) -> list[Action]:
        """Every action applied so far, chance outcomes included."""
        return list(self._history)

    def move_number(self) -> int:
        return len(self._history)

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for the others; 0 for all when all tie. Zeros before the end.

        A one-seat game (a solo mode) returns ``[1.0]`` for a win, ``[-1.0]`` for a loss.
        """
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        winners = self.winners()
        if n == 1:
            return [1.0] if winners else [-1.0]
        if len(winners) == n:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    def winners(self) -> tuple[Player, ...]:
        """The winning seats of a finished game (most points; ties share the victory).

        Empty only in a one-seat game that was lost.
        """
        sc = self.scores()
        best = max(sc)
        return tuple(p for p, s in enumerate(sc) if s == best)

    def narrate(self, action: Action, seat: Player | None = None) -> str:
        """One sentence: what ``action`` (legal here, not yet applied) does, as ``seat`` may
        see it (``None``: a spectator). Games override this with their own words; this
        default names the actor and the action's notation."""
        if self.narrator is not None:
            return self.narrator.narrate(self, action, seat)
        text = self._action_to_string(action)
        player = self.current_player()
        if player == CHANCE:
            return f"chance: {text}"
        return f"P{player + 1}: {text}"

    def summary(self) -> Summary:
        """At the end: why the game ended, each seat's score (with the rulebook's breakdown
        where the game gives one) and the winners. Games override it with their reasons."""
        if not self.is_terminal():
            raise IllegalActionError(f"{self.game.name}: the game is not over yet")
        if self.narrator is not None:
            summary: Summary = self.narrator.summary(self)
            return summary
        scores = self.scores()
        return Summary(
            self.termination() or "the rulebook's end was reached",
            tuple(SeatResult(p, float(s)) for p, s in enumerate(scores)),
            self.winners(),
        )

    def outcome(self) -> Outcome | None:
        """The result of a finished game, or ``None`` while it is running."""
        if not self.is_terminal():
            return None
        return Outcome(self.winners(), tuple(self.scores()), self.termination())

    # -- moving -----------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply ``action`` after checking it; an illegal one raises and changes nothing.

        The error's message says what is wrong in the player's words; it never holds the
        position (which may hold what the seat may not see): that is ``err.position``.
        """
        name = self.game.name
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"{name}: action {action!r} is not an integer id")
        action = int(action)
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(
                f"{name}: action {action} after the game ended", position=self.serialize()
            )
        memo = self._legal_cache
        if player == CHANCE:
            if not self._is_chance_outcome(action):
                raise IllegalActionError(
                    f"{name}: {action} is not a possible chance outcome here",
                    position=self.serialize(),
                )
        elif memo is not None and memo[0] == len(self._history):
            # legal_actions() was asked here: its answer, not a second computation
            if action not in memo[1]:
                self._legal_cache = None
                self.apply_action(action)  # the full check, to explain the refusal
                return
        elif action not in self._legal_actions():
            if 0 <= action < self.game.num_distinct_actions:
                shown = repr(self._action_to_string(action))
            else:
                shown = f"{action} (outside 0..{self.game.num_distinct_actions - 1})"
            raise IllegalActionError(
                f"{name}: illegal action {shown} for P{player + 1}:"
                f" {self._explain_illegal(action)}",
                position=self.serialize(),
            )
        self._apply_action(action)
        self._history.append(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` without a legality check: the fast path for trusted callers."""
        self._apply_action(action)
        self._history.append(action)

    def apply_actions(self, actions: Sequence[Action]) -> None:
        for action in actions:
            self.apply_action(action)

    def child(self, action: Action) -> Self:
        """A clone with ``action`` applied (checked)."""
        new = self.clone()
        new.apply_action(action)
        return new

    # -- notation ---------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """The documented notation of ``action`` in this position."""
        return self._action_to_string(int(action))

    def string_to_action(self, text: str) -> Action:
        """Parse action notation; unparseable text raises :class:`NotationError`."""
        if not isinstance(text, str) or not text.strip():
            raise NotationError(f"{self.game.name}: empty action string {text!r}")
        return self._parse_action(text.strip())

    def apply_string(self, text: str) -> Action:
        """Parse and apply an action given in notation; returns its id."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    # -- commands for people (DESIGN.md §2) ------------------------------------------

    def expand(self, text: str) -> list[Action]:
        """The atomic actions a command for people stands for, applied in order as one
        step (one log line, one undo unit); by default the one action ``text`` notes.
        A bad command raises :class:`NotationError` or :class:`IllegalActionError` with
        the reason."""
        if self.orders is not None:
            return self.orders.expand(self, text)
        return [self.string_to_action(text)]

    def preview(self, text: str) -> Preview:
        """What :meth:`expand` ``(text)`` would do, checked on a copy; not a move."""
        if self.orders is not None:
            return self.orders.preview(self, text)
        actions = self.expand(text)
        probe = self.clone()
        texts = []
        for a in actions:
            texts.append(probe.action_to_string(a))
            probe.apply_action(a)
        said = self.narrate(actions[0]) if len(actions) == 1 else "; ".join(texts)
        return Preview(text, said, tuple(actions), texts=tuple(texts))

    def describe(self, actions: Sequence[Action]) -> list[str]:
        """Phrases for ``actions`` applied from here on (decisions of one seat): the
        game's own grouping where it has one, else each action's notation."""
        if self.orders is not None:
            return self.orders.describe(self, actions)
        probe = self.clone()
        out = []
        for a in actions:
            out.append(probe.action_to_string(a))
            probe.apply_unchecked(a)
        return out

    def __repr__(self) -> str:
        return f"<{self.game.name} state {self.serialize()!r}>"

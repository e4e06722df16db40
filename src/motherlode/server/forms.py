"""The lobby's "new match" form, built from each game's pydantic ``Config``.

Every option the engine has becomes a form field (its description as help, its default
as the initial value); what the user typed is turned back into options and validated by
the game itself, so the form shows exactly the engine's own error messages, per field.
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from motherlode.agents import available
from motherlode.core.errors import ConfigError
from motherlode.core.protocol import Game
from motherlode.games import game_class, registry
from motherlode.server.clocks import ClockTerms, clock_errors
from motherlode.server.service import SeatRequest


@dataclass
class FormField:
    name: str
    kind: str  # checkbox, number, text, select
    value: str
    help: str
    default: str
    """The default as the person reads it (a checkbox's: ``on`` or ``off``)."""
    choices: list[str] = field(default_factory=list)
    error: str = ""
    labels: list[str] = field(default_factory=list)
    """What the person reads for each of :attr:`choices` (``P1`` for the seat 0)."""


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``(inner type, optional)`` of ``X | None``."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if (origin is typing.Union or origin is types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return (rest[0] if len(rest) == 1 else annotation), True
    return annotation, False


def _show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def config_fields(cls: type[Game], values: dict[str, str] | None = None) -> list[FormField]:
    """The form fields of ``cls``'s options, filled with ``values`` (raw text) if given."""
    fields = []
    for name, info in cls.Config.model_fields.items():
        inner, _optional = _unwrap(info.annotation)
        origin = typing.get_origin(inner)
        default = info.default
        choices: list[str] = []
        labels: list[str] = []
        if name == "first_player" and inner is int:  # a seat: P1..Pn, never 0-based
            kind = "select"
            choices = [str(n) for n in range(cls.max_players)]
            labels = [f"P{n + 1}" for n in range(cls.max_players)]
        elif name == "players":
            kind = "select"
            choices = [str(n) for n in range(cls.min_players, cls.max_players + 1)]
        elif inner is bool:
            kind = "checkbox"
        elif origin is typing.Literal:
            kind = "select"
            choices = [str(c) for c in typing.get_args(inner)]
        elif inner in (int, float):
            kind = "number"
        else:
            kind = "text"
        shown = _show(default)
        if kind == "checkbox":
            shown = "on" if default else ""
        if values is not None:
            shown = values.get(name, "" if kind == "checkbox" else shown)
        shown_default = (
            labels[default] if labels and isinstance(default, int) else _show(default)
        )
        if kind == "checkbox":  # said "on by default" / "off by default", never "False"
            shown_default = "on" if default else "off"
        fields.append(
            FormField(
                name, kind, shown, info.description or "", shown_default, choices, labels=labels
            )
        )
    return fields


def parse_options(cls: type[Game], form: dict[str, str]) -> dict[str, Any]:
    """Options from raw form text: blanks take the default, lists are comma-separated."""
    options: dict[str, Any] = {}
    for name, info in cls.Config.model_fields.items():
        inner, _optional = _unwrap(info.annotation)
        origin = typing.get_origin(inner)
        raw = form.get(name)
        if inner is bool:
            options[name] = raw not in (None, "", "off", "false")
            continue
        if raw is None or raw.strip() == "":
            continue
        raw = raw.strip()
        if origin in (tuple, list) or inner in (tuple, list):
            options[name] = [v.strip() for v in raw.split(",") if v.strip()]
        else:
            options[name] = raw
    return options


def validate_options(
    cls: type[Game], options: dict[str, Any]
) -> tuple[Game | None, dict[str, str]]:
    """The game, or the errors: ``{field: message}`` (``""``: about the whole config)."""
    errors: dict[str, str] = {}
    try:
        cls.Config(**options)
    except ValidationError as err:
        for item in err.errors():
            where = str(item["loc"][0]) if item["loc"] else ""
            msg = item["msg"].removeprefix("Value error, ")
            if not where:  # a cross-field check: put it on the field it names, if one
                where = next((f for f in cls.Config.model_fields if msg.startswith(f)), "")
            errors[where] = f"{errors[where]}; {msg}" if where in errors else msg
        return None, errors
    try:
        return cls.from_config(**options), {}
    except ConfigError as err:
        key = "players" if "players must be" in str(err) else ""
        return None, {key: str(err)}


def fallback_game(cls: type[Game], options: dict[str, Any]) -> Game | None:
    """The game at its defaults with the players asked for (if that number is valid):
    what a form with wrong options still checks its seats against."""
    for players in (options.get("players"), None):
        try:
            return cls.from_config(**({} if players is None else {"players": players}))
        except (ConfigError, TypeError, ValueError):
            continue
    return None


def _spec_error(message: str, game: Game) -> str:
    """An agent spec's error for the form: the agents' manual it may end with (every
    parameter of every agent) replaced by their names."""
    head, cut, _manual = message.partition("; the agents are:")
    if not cut:
        return message
    return f"{head}; a bot is one of: {', '.join(available(game))} (e.g. mcts:iterations=500)"


def seat_requests(game: Game, form: dict[str, str]) -> tuple[list[SeatRequest], dict[int, str]]:
    """The seats from the form (``seat<i>_kind``, ``seat<i>_spec``, ``seat<i>_name``)."""
    from motherlode.agents import create

    seats: list[SeatRequest] = []
    errors: dict[int, str] = {}
    for i in range(game.num_players):
        kind = form.get(f"seat{i}_kind", "human")
        spec = form.get(f"seat{i}_spec", "").strip()
        name = form.get(f"seat{i}_name", "").strip()
        if kind == "bot":
            if not spec:
                errors[i] = "a bot needs an agent spec (e.g. " + ", ".join(available(game)) + ")"
            else:
                try:
                    create(spec, game)
                except Exception as err:
                    errors[i] = _spec_error(str(err), game)
            seats.append(SeatRequest("bot", spec, name))
        else:
            seats.append(SeatRequest("human", "human", name))
    return seats, errors


CLOCK_FIELDS = ("base_minutes", "increment_seconds", "days_per_move")


def clock_terms(form: dict[str, str]) -> tuple[ClockTerms | None, dict[str, str]]:
    """The clock from the form (``clock_kind``, ``clock_base_minutes``, ...): the terms, or
    every error at once, ``{field: message}`` (fields of the kind chosen only).

    >>> form = {"clock_kind": "fischer", "clock_base_minutes": "0", "clock_increment_seconds": "x"}
    >>> for name, error in clock_terms(form)[1].items():
    ...     print(name, "-", error)
    base_minutes - Input should be greater than 0.04
    increment_seconds - Input should be a valid number, unable to parse string as a number
    >>> clock_terms({})[0].kind
    'none'
    """
    kind = form.get("clock_kind", "none") or "none"
    used = {"fischer": CLOCK_FIELDS[:2], "days": CLOCK_FIELDS[2:]}.get(kind, ())
    raw: dict[str, Any] = {"kind": kind, "bot_takeover": form.get("clock_bot_takeover") == "on"}
    for name in used:
        text = form.get(f"clock_{name}", "").strip()
        if text:
            raw[name] = text
    try:
        return ClockTerms(**raw), {}
    except ValidationError as err:
        return None, clock_errors(err)


@functools.cache
def default_game(cls: type[Game]) -> Game | None:
    """The game at its default config, built once per process (a Game is immutable, and
    some take tens of milliseconds to build: the lobby must not pay that per request)."""
    try:
        return cls.from_config()
    except ConfigError:
        return None


def default_bot(cls: type[Game]) -> str:
    game = default_game(cls)
    if game is None:
        return "random"
    return "greedy" if "greedy" in game.bots() else "random"


@functools.lru_cache(maxsize=4)
def _choices(games: tuple[tuple[str, type[Game]], ...]) -> tuple[dict[str, Any], ...]:
    out = []
    for name, cls in games:
        game = default_game(cls)
        out.append(
            {
                "name": name,
                "players": (
                    str(cls.min_players)
                    if cls.min_players == cls.max_players
                    else f"{cls.min_players}–{cls.max_players}"
                ),
                "hidden": game is not None and not game.perfect_information,
            }
        )
    return tuple(out)


def game_choices() -> list[dict[str, Any]]:
    """The lobby's list of games, computed once per process."""
    return [dict(choice) for choice in _choices(tuple(registry().items()))]


__all__ = [
    "FormField",
    "available",
    "clock_terms",
    "config_fields",
    "default_bot",
    "game_choices",
    "game_class",
    "parse_options",
    "seat_requests",
    "validate_options",
]

"""A game's content data: JSON files read into pydantic models (DESIGN.md §4).

Every board, map, deck and component list of a game lives in ``games/<game>/data/`` as
JSON and is read by :func:`load_model` into a :class:`DataModel`: the schema is the model,
checked at load, and every problem is a :class:`~motherlode.core.errors.ConfigError` in
one form, "file: entry: problem", so a user's own transcription of a printed board is
either read or refused with the place to fix.

>>> class Deck(DataModel):
...     name: str
...     cards: list[int]
>>> parse_model(Deck, '{"name": "demo", "cards": [1, 2]}', "deck.json").cards
[1, 2]
>>> try:
...     parse_model(Deck, '{"name": "demo", "cards": [1, "x"]}', "deck.json")
... except ConfigError as err:
...     print(str(err).split(",")[0])
deck.json: cards[1]: Input should be a valid integer
"""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from motherlode.core.errors import ConfigError

M = TypeVar("M", bound=BaseModel)


class DataModel(BaseModel):
    """Base of every content model: unknown keys are refused (a typo is an error, not
    silently ignored), and the data is immutable once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def where(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a path a person finds in the file.

    >>> where(("cities", 3, "name"))
    'cities[3].name'
    >>> where(())
    'the file'
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "the file"


def describe(source: str, err: ValidationError) -> str:
    """Every problem of ``err`` as "source: entry: problem", joined by "; "."""
    parts = []
    for item in err.errors():
        got = item.get("input")
        shown = "" if isinstance(got, dict | list) else f" (got {got!r})"
        message = str(item["msg"]).removeprefix("Value error, ")
        parts.append(f"{source}: {where(tuple(item['loc']))}: {message}{shown}")
    return "; ".join(parts)


def parse_model(model: type[M], text: str, source: str) -> M:
    """``text`` (JSON) as a ``model``; bad JSON or a bad entry raises :class:`ConfigError`."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{source}: not JSON ({err.msg} at line {err.lineno})") from None
    return validate_model(model, data, source)


def validate_model(model: type[M], data: Any, source: str) -> M:
    """Already-parsed ``data`` as a ``model`` (for files that are read in parts)."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise ConfigError(describe(source, err)) from None


def load_model(model: type[M], path: str | Path | Traversable) -> M:
    """The JSON file at ``path`` (a package resource or a user's file) as a ``model``."""
    source = str(path) if isinstance(path, str | Path) else path.name
    readable = Path(path) if isinstance(path, str) else path
    try:
        text = readable.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot read {source}: {err.strerror or err}") from None
    return parse_model(model, text, source)

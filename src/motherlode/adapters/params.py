"""A game's config as flat scalar parameters, and back (for OpenSpiel and PettingZoo).

OpenSpiel game parameters are ``bool``, ``int``, ``float`` or ``str`` and travel inside a
game string, ``python_motherlode_eureka(players=3,gold_mix=20%2C12%2C10%2C4%2C2)``, whose
parser splits on ``,`` ``(`` ``)`` and ``=``. So each config field maps to one scalar:

* ``bool`` / ``int`` / ``float`` fields: themselves;
* ``str`` fields (and ``Literal`` strings): the text, with ``% , ( ) =`` percent-escaped;
* ``str | None`` fields: the same, the empty text meaning ``None``;
* anything else (``tuple[int, ...] | None`` ...): compact JSON, percent-escaped, the empty
  text meaning ``None``.

>>> from motherlode.games import game_class
>>> encoded = encode_config(game_class("yukon"), {"players": 3, "pan_discs": (1, 2, 3) * 3})
>>> encoded["pan_discs"], encoded["first_player"]
('[1%2C2%2C3%2C1%2C2%2C3%2C1%2C2%2C3]', 0)
>>> decode_config(game_class("yukon"), {"pan_discs": "[1%2C2%2C3%2C1%2C2%2C3%2C1%2C2%2C3]"})
{'pan_discs': [1, 2, 3, 1, 2, 3, 1, 2, 3]}
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal

from motherlode.core.errors import ConfigError
from motherlode.core.protocol import Game

Scalar = bool | int | float | str
Kind = Literal["bool", "int", "float", "str", "optional_str", "json"]

_ESCAPES = {"%": "%25", ",": "%2C", "(": "%28", ")": "%29", "=": "%3D"}


def escape(text: str) -> str:
    """Percent-escape the characters OpenSpiel's game-string parser splits on."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def unescape(text: str) -> str:
    """Invert :func:`escape` (other ``%`` sequences are kept as they are)."""
    out = text
    for ch, code in _ESCAPES.items():
        if ch != "%":
            out = out.replace(code, ch).replace(code.lower(), ch)
    return out.replace("%25", "%")


def field_kind(annotation: Any) -> Kind:
    """How a config field with this type annotation is carried as a scalar."""
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    if annotation is str:
        return "str"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal and all(isinstance(a, str) for a in args):
        return "str"
    if origin in (typing.Union, types.UnionType) and set(args) == {str, type(None)}:
        return "optional_str"
    return "json"


def kinds(cls: type[Game]) -> dict[str, Kind]:
    """``{field: kind}`` for every option of ``cls``'s config, in declaration order."""
    return {key: field_kind(f.annotation) for key, f in cls.Config.model_fields.items()}


def encode_value(kind: Kind, value: Any) -> Scalar:
    """One config value as an OpenSpiel-safe scalar."""
    if kind == "bool":
        return bool(value)
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if value is None:
        return ""
    if kind in ("str", "optional_str"):
        return escape(str(value))
    return escape(json.dumps(value, separators=(",", ":")))


def decode_value(kind: Kind, raw: Any, *, where: str) -> Any:
    """Invert :func:`encode_value`; ``where`` names the parameter in errors."""
    if kind in ("bool", "int", "float"):
        return raw  # the game's pydantic config validates and coerces it
    if isinstance(raw, bool):
        text = "True" if raw else "False"
    elif isinstance(raw, int | float):
        text = repr(raw)  # OpenSpiel's parser turned a numeric-looking string into a number
    elif isinstance(raw, str):
        text = unescape(raw)
    else:
        raise ConfigError(f"{where}: expected a string, got {raw!r}")
    if kind == "str":
        return text
    if text == "":
        return None
    if kind == "optional_str":
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{where}: {text!r} is not JSON ({err.msg})") from None


def encode_config(cls: type[Game], config: dict[str, Any]) -> dict[str, Scalar]:
    """Every option of ``cls`` (defaults filled in) as OpenSpiel-safe scalars.

    Bad options raise :class:`ConfigError`, as ``motherlode.load`` does.
    """
    full = cls.from_config(**config).config.model_dump()
    return {key: encode_value(kind, full[key]) for key, kind in kinds(cls).items()}


def decode_config(cls: type[Game], params: dict[str, Any]) -> dict[str, Any]:
    """Config options from scalar parameters; an unknown parameter raises ConfigError."""
    known = kinds(cls)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ConfigError(
            f"invalid {cls.name} config: unknown parameter(s) {', '.join(unknown)};"
            f" the parameters are: {', '.join(known)}"
        )
    return {
        key: decode_value(known[key], raw, where=f"{cls.name} parameter {key}")
        for key, raw in params.items()
    }

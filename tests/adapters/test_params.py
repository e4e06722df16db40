"""The config <-> scalar parameter codec (no optional dependency needed)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

import motherlode
from motherlode.adapters.params import (
    decode_config,
    decode_value,
    encode_config,
    encode_value,
    escape,
    field_kind,
    unescape,
)
from motherlode.core.errors import ConfigError
from motherlode.games import game_class, registry
from tests.adapters.cases import CASES


@pytest.mark.parametrize(("name", "config"), CASES)
def test_every_config_round_trips_through_scalars(name: str, config: dict[str, Any]) -> None:
    cls = game_class(name)
    params = encode_config(cls, config)
    assert all(isinstance(v, bool | int | float | str) for v in params.values())
    for value in params.values():
        if isinstance(value, str):
            assert not set(value) & set(",()="), value
    game = motherlode.load(name, **decode_config(cls, params))
    assert game.config == motherlode.load(name, **config).config


@pytest.mark.parametrize(
    "text", ["", "plain", "20,12,10,4,2", "a=(b,c)", "100%", "%2C literally", "x%y=z"]
)
def test_escape_round_trips(text: str) -> None:
    assert unescape(escape(text)) == text
    assert not set(escape(text)) & set(",()=")


def test_field_kinds() -> None:
    assert field_kind(bool) == "bool" and field_kind(int) == "int"
    assert field_kind(float) == "float" and field_kind(str) == "str"
    assert field_kind(Literal["a", "b"]) == "str"
    assert field_kind(str | None) == "optional_str"
    assert field_kind(tuple[int, ...] | None) == "json"


def test_values_and_none() -> None:
    assert encode_value("json", None) == "" and decode_value("json", "", where="x") is None
    assert decode_value("optional_str", "", where="x") is None
    assert decode_value("str", "", where="x") == ""
    packed = encode_value("json", (1, 2, 3))
    assert packed == "[1%2C2%2C3]" and decode_value("json", packed, where="x") == [1, 2, 3]
    # OpenSpiel's parser reads a numeric-looking string as a number; it comes back as text
    assert decode_value("str", 20, where="x") == "20"
    assert decode_value("str", True, where="x") == "True"


def test_bad_parameters_are_named() -> None:
    cls = game_class(next(iter(registry())))
    with pytest.raises(ConfigError, match="unknown parameter"):
        decode_config(cls, {"no_such_option": 1})
    with pytest.raises(ConfigError, match="not JSON"):
        decode_value("json", "[1%2C", where="p")

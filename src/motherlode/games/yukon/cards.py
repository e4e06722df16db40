"""Yukon's cards, their codes and their notation, loaded from ``data/components.json``.

Card kinds are small integers so that the state is a few flat lists::

    0..7    Gold   1 2 3 4 5 6 8 10      notation "+1" .. "+10"
    8..15   Pebble 1 2 3 4 5 6 8 10      notation "-1" .. "-10"
    16      the Sheriff                  notation "S"
    17..26  Townsfolk (expansion)        notation "Tr" "Gs" "Co" "Sw" "Cu" "In" "Ja" "Te" "To" "Pa"
    27      an empty space               notation "."
    28      a space not yet dealt        notation "?"

>>> [token(k) for k in (0, 7, 8, 15, SHERIFF, PAN, EMPTY)]
['+1', '+10', '-1', '-10', 'S', 'Pa', '.']
>>> parse_token("-8") == PEBBLE0 + 6
True
>>> points(PEBBLE0 + 7)
-10
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from motherlode.core.errors import ConfigError, NotationError

Kind = int

GOLD0: Kind = 0
PEBBLE0: Kind = 8
SHERIFF: Kind = 16
TOWNSFOLK0: Kind = 17
TRAPPER, GOLDSMITH, COMMANDER, SWINDLER, COURIER = 17, 18, 19, 20, 21
INNKEEPER, JAILER, TEACHER, TELEGRAPH, PAN = 22, 23, 24, 25, 26
EMPTY: Kind = 27
UNDEALT: Kind = 28
NUM_KINDS = 27  # real cards: 0..26

VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8, 10)
TOWNSFOLK_TOKENS = ("Tr", "Gs", "Co", "Sw", "Cu", "In", "Ja", "Te", "To", "Pa")
TOWNSFOLK_NAMES = (
    "Trapper",
    "Goldsmith",
    "Commander",
    "Swindler",
    "Courier",
    "Innkeeper",
    "Jailer",
    "Teacher",
    "Telegraph Operator",
    "Pan",
)


def is_gold(kind: Kind) -> bool:
    return GOLD0 <= kind < PEBBLE0


def is_pebble(kind: Kind) -> bool:
    return PEBBLE0 <= kind < SHERIFF


def is_townsfolk(kind: Kind) -> bool:
    return TOWNSFOLK0 <= kind < EMPTY


def points(kind: Kind) -> int:
    """Printed points of a Gold (+) or Pebble (-) card; 0 for anything else."""
    if kind < PEBBLE0:
        return VALUES[kind]
    if kind < SHERIFF:
        return -VALUES[kind - PEBBLE0]
    return 0


POINTS: tuple[int, ...] = tuple(points(k) for k in range(UNDEALT + 1))


def token(kind: Kind) -> str:
    """The notation of a card kind (see the module docstring)."""
    if kind < PEBBLE0:
        return f"+{VALUES[kind]}"
    if kind < SHERIFF:
        return f"-{VALUES[kind - PEBBLE0]}"
    if kind == SHERIFF:
        return "S"
    if kind < EMPTY:
        return TOWNSFOLK_TOKENS[kind - TOWNSFOLK0]
    return "." if kind == EMPTY else "?"


def name(kind: Kind) -> str:
    """A card kind in words, e.g. ``"Gold 8"``, ``"Pebble 3"``, ``"Jailer"``."""
    if kind < PEBBLE0:
        return f"Gold {VALUES[kind]}"
    if kind < SHERIFF:
        return f"Pebble {VALUES[kind - PEBBLE0]}"
    if kind == SHERIFF:
        return "Sheriff"
    if kind < EMPTY:
        return TOWNSFOLK_NAMES[kind - TOWNSFOLK0]
    return "empty" if kind == EMPTY else "undealt"


_BY_TOKEN = {token(k).lower(): k for k in range(UNDEALT + 1)}
for _k in range(TOWNSFOLK0, EMPTY):
    _BY_TOKEN[TOWNSFOLK_NAMES[_k - TOWNSFOLK0].split()[0].lower()] = _k
_BY_TOKEN["sheriff"] = SHERIFF


def parse_token(text: str) -> Kind:
    """The card kind of a token (``+8``, ``-3``, ``S``, ``Tr`` or a Townsfolk name)."""
    try:
        return _BY_TOKEN[text.strip().lower()]
    except KeyError:
        raise NotationError(
            f"yukon: {text!r} is not a card (gold +1..+10, pebble -1..-10, S, "
            + ", ".join(TOWNSFOLK_TOKENS)
            + ")"
        ) from None


@dataclass(frozen=True)
class Components:
    """The printed component counts (and the designed Pan disc values)."""

    values: tuple[int, ...]
    copies: int
    grid_size: int
    expansion_grid_size: int
    townsfolk_copies: int
    townsfolk_drawn: int
    discs_per_pan: int
    pan_disc_values: tuple[int, ...]
    prospector_points: int


def _field(data: dict[str, Any], key: str, source: str) -> Any:
    if key not in data or not isinstance(data[key], dict) or "value" not in data[key]:
        raise ConfigError(f"{source}: entry {key!r} is missing or has no 'value'")
    if data[key].get("source") not in ("rulebook", "designed", "published component list"):
        raise ConfigError(f"{source}: entry {key!r} must name its source")
    return data[key]["value"]


def load_components(text: str, source: str = "components.json") -> Components:
    """Parse and check a components file (a user's own transcription may replace ours)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{source}: not JSON ({err.msg} at line {err.lineno})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected an object")
    values = _field(data, "card_values", source)
    if list(values) != list(VALUES):
        raise ConfigError(f"{source}: card_values must be {list(VALUES)} (got {values})")
    discs = _field(data, "pan_disc_values", source)
    if (
        not isinstance(discs, list)
        or len(discs) != 9
        or not all(isinstance(v, int) and v > 0 for v in discs)
    ):
        raise ConfigError(f"{source}: pan_disc_values must be 9 positive integers (got {discs})")
    kinds = _field(data, "townsfolk_kinds", source)
    if [k.lower() for k in kinds] != [n.split()[0].lower() for n in TOWNSFOLK_NAMES]:
        raise ConfigError(f"{source}: townsfolk_kinds must list the ten kinds in order")
    comp = Components(
        values=tuple(values),
        copies=int(_field(data, "copies_per_value", source)),
        grid_size=int(_field(data, "grid_size", source)),
        expansion_grid_size=int(_field(data, "expansion_grid_size", source)),
        townsfolk_copies=int(_field(data, "townsfolk_copies", source)),
        townsfolk_drawn=int(_field(data, "townsfolk_drawn", source)),
        discs_per_pan=int(_field(data, "discs_per_pan", source)),
        pan_disc_values=tuple(sorted(discs)),
        prospector_points=int(_field(data, "prospector_points", source)),
    )
    base = 2 * len(VALUES) * comp.copies + 1
    if base != comp.grid_size**2:
        raise ConfigError(f"{source}: {base} base cards do not fill a {comp.grid_size}² grid")
    if base + comp.townsfolk_drawn != comp.expansion_grid_size**2:
        raise ConfigError(f"{source}: expansion cards do not fill the expansion grid")
    if comp.discs_per_pan * comp.townsfolk_copies > len(discs):
        raise ConfigError(f"{source}: too few discs for {comp.townsfolk_copies} Pans")
    return comp


@cache
def components() -> Components:
    """The bundled component data."""
    text = resources.files("motherlode.games.yukon").joinpath("data/components.json").read_text()
    return load_components(text)

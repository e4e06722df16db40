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

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Generic, Literal, TypeVar

from pydantic import Field, ValidationInfo, field_validator

from motherlode.core.data import DataModel, load_model, parse_model
from motherlode.core.errors import NotationError

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
    """The notation of a card kind (see the module docstring).

    >>> token(0), token(PEBBLE0 + 7), token(SHERIFF), token(EMPTY), token(UNDEALT)
    ('+1', '-10', 'S', '.', '?')
    """
    return TOKENS[kind]


def _token(kind: Kind) -> str:
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


TOKENS: tuple[str, ...] = tuple(_token(k) for k in range(UNDEALT + 1))
"""Each card kind's notation, by kind (views list every card of the grid by it)."""

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


Source = Literal["rulebook", "designed", "published component list"]
T = TypeVar("T")


class Entry(DataModel, Generic[T]):
    """One count of the components file, with where it comes from."""

    value: T
    source: Source


class ComponentsFile(DataModel):
    """``data/components.json``: every count with its source (a user's own transcription
    may replace ours). Fields are checked in this order, each against those before it."""

    schema_name: str = Field("", alias="schema")
    sources: dict[str, str] = Field(default_factory=dict)
    card_values: Entry[list[int]]
    copies_per_value: Entry[int]
    grid_size: Entry[int]
    townsfolk_kinds: Entry[list[str]]
    townsfolk_copies: Entry[int]
    townsfolk_drawn: Entry[int]
    expansion_grid_size: Entry[int]
    discs_per_pan: Entry[int]
    pan_disc_values: Entry[list[int]]
    prospector_points: Entry[int]

    @field_validator("card_values")
    @classmethod
    def _values(cls, entry: Entry[list[int]]) -> Entry[list[int]]:
        if entry.value != list(VALUES):
            raise ValueError(f"must be {list(VALUES)} (got {entry.value})")
        return entry

    @field_validator("grid_size")
    @classmethod
    def _base_grid(cls, entry: Entry[int], info: ValidationInfo) -> Entry[int]:
        copies = info.data.get("copies_per_value")
        if copies is not None:
            base = _base_cards(copies.value)
            if base != entry.value**2:
                raise ValueError(f"{base} base cards do not fill a {entry.value}² grid")
        return entry

    @field_validator("townsfolk_kinds")
    @classmethod
    def _kinds(cls, entry: Entry[list[str]]) -> Entry[list[str]]:
        if [k.lower() for k in entry.value] != [n.split()[0].lower() for n in TOWNSFOLK_NAMES]:
            raise ValueError("must list the ten kinds in order")
        return entry

    @field_validator("expansion_grid_size")
    @classmethod
    def _expansion_grid(cls, entry: Entry[int], info: ValidationInfo) -> Entry[int]:
        copies, drawn = info.data.get("copies_per_value"), info.data.get("townsfolk_drawn")
        if (
            copies is not None
            and drawn is not None
            and _base_cards(copies.value) + drawn.value != entry.value**2
        ):
            raise ValueError("the expansion cards do not fill the expansion grid")
        return entry

    @field_validator("pan_disc_values")
    @classmethod
    def _discs(cls, entry: Entry[list[int]], info: ValidationInfo) -> Entry[list[int]]:
        discs = entry.value
        if len(discs) != 9 or not all(v > 0 for v in discs):
            raise ValueError(f"must be 9 positive integers (got {discs})")
        per_pan, pans = info.data.get("discs_per_pan"), info.data.get("townsfolk_copies")
        if per_pan is not None and pans is not None and per_pan.value * pans.value > len(discs):
            raise ValueError(f"too few discs for {pans.value} Pans")
        return entry

    def components(self) -> Components:
        return Components(
            values=tuple(self.card_values.value),
            copies=self.copies_per_value.value,
            grid_size=self.grid_size.value,
            expansion_grid_size=self.expansion_grid_size.value,
            townsfolk_copies=self.townsfolk_copies.value,
            townsfolk_drawn=self.townsfolk_drawn.value,
            discs_per_pan=self.discs_per_pan.value,
            pan_disc_values=tuple(sorted(self.pan_disc_values.value)),
            prospector_points=self.prospector_points.value,
        )


def _base_cards(copies: int) -> int:
    """The Gold and Pebble cards of every value, and the Sheriff."""
    return 2 * len(VALUES) * copies + 1


def load_components(text: str, source: str = "components.json") -> Components:
    """Parse and check a components file (a user's own transcription may replace ours);
    a problem raises :class:`ConfigError` as "file: entry: problem"."""
    return parse_model(ComponentsFile, text, source).components()


@cache
def components() -> Components:
    """The bundled component data."""
    path = resources.files("motherlode.games.yukon").joinpath("data", "components.json")
    return load_model(ComponentsFile, path).components()

"""The old name of :mod:`tests.eurorails.helpers` (alias for one release: the reference test
``tests/reference/test_eurorails_reference.py`` still imports it)."""

from tests.eurorails.helpers import (
    BUILD,
    OPS,
    build_action,
    city,
    dealt,
    direction,
    draw,
    game,
    lay,
    legal_strings,
    path,
    place,
    place2,
    set_turn,
    standard,
)

__all__ = [
    "BUILD",
    "OPS",
    "build_action",
    "city",
    "dealt",
    "direction",
    "draw",
    "game",
    "lay",
    "legal_strings",
    "path",
    "place",
    "place2",
    "set_turn",
    "standard",
]

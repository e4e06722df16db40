"""The old home of the Eurorails views (alias for one release): the observation and the
tensor now live in :mod:`.observe` (rules-side), the text and SVG boards in :mod:`.render`.
"""

from __future__ import annotations

from motherlode.games.eurorails.observe import (
    COLOUR_NAMES,
    COLOURS,
    observation,
    tensor,
    tensor_size,
)
from motherlode.games.eurorails.render import svg_board, text_board, text_summary

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "observation",
    "svg_board",
    "tensor",
    "tensor_size",
    "text_board",
    "text_summary",
]

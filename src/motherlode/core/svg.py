"""Small helpers to write SVG by hand: escaping, attributes, clickable elements.

Every element a legal action acts on carries ``data-action`` and a ``<title>``
(DESIGN.md §3b), so the web page needs no game knowledge.

>>> element("rect", x=1, y=2, width=3, height=4, fill="red")
'<rect x="1" y="2" width="3" height="4" fill="red"/>'
>>> element("text", "a<b", x=0, y=0, class_="label")
'<text x="0" y="0" class="label">a&lt;b</text>'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from motherlode.core.memo import once as once  # (renderers write svg.once)
from motherlode.core.memo import shared as shared


@functools.cache
def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


_SPECIAL = re.compile(r"[&<>\"']")


def _fmt(v: Any) -> str:
    # fast paths, byte for byte what escape(str(v)) gives: renderers call this per attribute
    if type(v) is int:
        return str(v)
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    text = str(v)
    return escape(text, quote=True) if _SPECIAL.search(text) else text


def attrs(**kwargs: Any) -> str:
    return " ".join(f'{_attr_name(k)}="{_fmt(v)}"' for k, v in kwargs.items() if v is not None)


def element(tag: str, text: str | None = None, *, raw: str | None = None, **kwargs: Any) -> str:
    """One element; ``text`` is escaped, ``raw`` is inserted as is (nested elements)."""
    a = attrs(**kwargs)
    head = f"<{tag} {a}" if a else f"<{tag}"
    if text is None and raw is None:
        return head + "/>"
    inner = escape(text) if text is not None else ""
    return f"{head}>{inner}{raw or ''}</{tag}>"


def actionable(shape: str, action: str, title: str | None = None) -> str:
    """Wrap a shape in a group a click acts on: ``data-action`` plus a tooltip."""
    return (
        f'<g class="action" data-action="{escape(action, quote=True)}" style="cursor:pointer">'
        f"<title>{escape(title or action)}</title>{shape}</g>"
    )


def document(width: float, height: float, body: list[str], *, title: str = "") -> str:
    """A complete standalone SVG document."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(width)} {_fmt(height)}"'
        f' width="{_fmt(width)}" height="{_fmt(height)}" font-family="Georgia, serif">'
    )
    t = f"<title>{escape(title)}</title>" if title else ""
    return head + t + "".join(body) + "</svg>"


Symbol = Callable[[float, float], str]
"""Draws a symbol centred at ``(cx, cy)`` (absolute coordinates: no transforms)."""


def flow_legend(
    items: Sequence[tuple[Symbol, str]],
    x: float,
    y: float,
    *,
    width: float,
    line: float,
    gap: float,
    per_char: float,
    text_dx: float,
    font_size: float = 10,
) -> list[str]:
    """A legend laid out like words: each symbol then its meaning, wrapped into lines
    ``line`` apart within ``width``; an item takes ``gap + per_char * len(text)``.

    >>> len(flow_legend([(lambda cx, cy: "", "a"), (lambda cx, cy: "", "b")], 0, 0,
    ...                 width=100, line=20, gap=24, per_char=6, text_dx=12))
    4
    """
    out: list[str] = []
    cx, cy = x, y
    for draw, text in items:
        item = gap + per_char * len(text)
        if cx + item > x + width:
            cx, cy = x, cy + line
        out.append(draw(cx, cy))
        out.append(element("text", text, x=cx + text_dx, y=cy + 4, font_size=font_size))
        cx += item
    return out


LAYER_GROUPS = ("layer-static", "layer-public", "layer-seat")
"""The ids of the three ``<g>`` groups a composed board holds, in drawing order."""


@dataclass(frozen=True)
class Layers:
    """A board as DESIGN.md §3b's three layers, so a server draws each once per position.

    - ``static``: markup that depends on the game's config only (a map, a sheet's
      printing); the same for every state and every seat of a match, sent to a browser
      once and cached.
    - ``public``: ``(id, element)`` pairs the same for every viewer of this state; each
      element is one complete SVG element whose ``id`` attribute is ``id``.
    - ``seat``: ``(id, element)`` pairs for this seat (``None``: a spectator): its private
      information and every element carrying ``data-action``. Public elements carry no
      ``data-action``.

    Ids are stable: the same thing keeps its id from one position to the next, so a diff
    between two versions is the ids whose markup changed, appeared or went.

    >>> b = Layers(40, 20, static='<rect width="40" height="20" fill="tan"/>',
    ...            public=(("p1", '<circle id="p1" cx="5" cy="5" r="2"/>'),), seat=())
    >>> b.compose().count('<g id="layer-')
    3
    >>> b.elements()["p1"]
    '<circle id="p1" cx="5" cy="5" r="2"/>'
    """

    width: float
    height: float
    static: str
    public: tuple[tuple[str, str], ...]
    seat: tuple[tuple[str, str], ...]
    title: str = ""

    def elements(self) -> dict[str, str]:
        """Every public and seat element by id (the part of a board that diffs)."""
        return dict(self.public) | dict(self.seat)

    def compose(self) -> str:
        """The whole board as one standalone SVG document (what ``render_svg`` returns)."""
        public = "".join(markup for _, markup in self.public)
        seat = "".join(markup for _, markup in self.seat)
        return document(
            self.width,
            self.height,
            [
                f'<g id="layer-static">{self.static}</g>',
                f'<g id="layer-public">{public}</g>',
                f'<g id="layer-seat">{seat}</g>',
            ],
            title=self.title,
        )


def single_layer(svg: str) -> Layers:
    """A board that has no layers of its own, as one seat element (always correct: nothing
    is shared between viewers, so nothing is saved either)."""
    return Layers(0, 0, static="", public=(), seat=(("board", svg),))

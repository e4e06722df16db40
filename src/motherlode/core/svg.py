"""Small helpers to write SVG by hand: escaping, attributes, clickable elements.

Every element a legal action acts on carries ``data-action`` and a ``<title>``
(DESIGN.md §3b), so the web page needs no game knowledge.

>>> element("rect", x=1, y=2, width=3, height=4, fill="red")
'<rect x="1" y="2" width="3" height="4" fill="red"/>'
>>> element("text", "a<b", x=0, y=0, class_="label")
'<text x="0" y="0" class="label">a&lt;b</text>'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any


def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return escape(str(v), quote=True)


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

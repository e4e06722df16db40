"""Words shared by every game's log: folding a run of sentences into one line.

Grouping is the log's job, not the game's (DESIGN.md §2): a run of chance steps (El
Dorado's seven dice, a Eurorails draw of several cards) reads as one event.

>>> fold(["all seven dice are rolled: a map", "all seven dice are rolled: 2 coins"])
'all seven dice are rolled: a map, 2 coins'
>>> fold(["P1 draws a card", "a flood closes the Rhein"])
'P1 draws a card; a flood closes the Rhein'
>>> fold(["one sentence"])
'one sentence'
"""

from __future__ import annotations

from collections.abc import Sequence


def _common_head(sentences: Sequence[str]) -> str:
    """The longest ``"...: "`` head every sentence starts with ('' if none)."""
    first = sentences[0]
    cut = first.rfind(": ")
    while cut > 0:
        head = first[: cut + 2]
        if all(s.startswith(head) and len(s) > len(head) for s in sentences):
            return head
        cut = first.rfind(": ", 0, cut)
    return ""


def fold(sentences: Sequence[str]) -> str:
    """One line for several sentences: their shared ``head: `` said once, else joined by
    semicolons."""
    if not sentences:
        return ""
    if len(sentences) == 1:
        return sentences[0]
    head = _common_head(sentences)
    if head:
        return head + ", ".join(s[len(head) :] for s in sentences)
    return "; ".join(sentences)

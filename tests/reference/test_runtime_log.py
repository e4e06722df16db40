"""What each viewer reads of one log entry (``server/runtime.py LogEntry``), exactly.

A seat that may not see an entry reads only the hidden marker, never the narration; a
seat that may, reads its own narration (one per seat, then the spectator's), the one
sentence for everyone, or the notation when there is none. Written for the mutants mutmut
left alive in ``LogEntry.said_to`` (docs/testing.md).
"""

from __future__ import annotations

from motherlode.core.protocol import CHANCE
from motherlode.server.runtime import HIDDEN_CHANCE, HIDDEN_DECISION, LogEntry


def test_a_hidden_decision_is_narrated_only_to_who_may_see_it() -> None:
    # two seats then the spectator: only P1 sees P1's discard
    e = LogEntry(0, "discard +8", (True, False, False),
                 ("You discard +8", "P1 discards a card", "P1 discards a card"))
    assert e.said_to(0, 2) == "You discard +8"
    assert e.said_to(1, 2) == HIDDEN_DECISION
    assert e.said_to(None, 2) == HIDDEN_DECISION
    assert e.shown_to(0, 2) == "discard +8" and e.shown_to(1, 2) == HIDDEN_DECISION
    assert e.mask() == "100"


def test_a_hidden_chance_outcome_and_the_spectators_own_narration() -> None:
    e = LogEntry(CHANCE, "draw 12", (False, True, True), ("a card", "P2 draws 12", "P2 draws"))
    assert e.said_to(0, 2) == HIDDEN_CHANCE
    assert e.said_to(1, 2) == "P2 draws 12"
    assert e.said_to(None, 2) == "P2 draws"  # the spectator's, last


def test_perfect_information_one_sentence_or_the_notation() -> None:
    everyone = LogEntry(1, "c4", None, ("P2 takes +3 at c4",))
    assert [everyone.said_to(s, 2) for s in (0, 1, None)] == ["P2 takes +3 at c4"] * 3
    assert everyone.mask() is None
    bare = LogEntry(1, "c4")
    assert [bare.said_to(s, 2) for s in (0, 1, None)] == ["c4"] * 3

"""Chinagold's action and position notation: round trips and clear errors."""

from __future__ import annotations

import pytest

from motherlode import IllegalActionError, NotationError
from motherlode.games.chinagold.game import NUM_ACTIONS, PASS, REBURY_BASE
from motherlode.games.chinagold.notation import decision_to_string
from tests.chinagold.helpers import game, position


def test_every_decision_action_has_a_unique_string_that_parses_back() -> None:
    state = position(game(), gold=["f6"], throw="3")
    texts = [decision_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS == 945
    for a, text in enumerate(texts):
        assert state.string_to_action(text) == a


def test_action_strings_examples() -> None:
    state = game().new_initial_state()
    assert state.action_to_string(3) == "throw 3"
    assert state.string_to_action("throw 3") == 3
    state.apply_string("throw 3")
    assert state.action_to_string(state.string_to_action("turn f4-f6")) == "turn f4-f6"
    # either end first, any case and spacing
    assert state.string_to_action("TURN  F6-f4") == state.string_to_action("turn f4-f6")
    assert state.string_to_action("rebury f6") == REBURY_BASE + 45
    assert state.string_to_action("pass") == PASS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dig f4", "cannot read action"),
        ("turn z9", "no spot 'z9'"),
        ("turn a1", "no spot 'a1'"),
        ("turn f1-f7", "straight line, 2 to 5 spots"),
        ("turn f4-g5", "straight line"),
        ("rebury f4-f5", "names one spot"),
        ("pass now", "takes nothing"),
        ("throw 3", "no throw is due"),
        ("turn", "names a spot"),
    ],
)
def test_unreadable_action_strings_raise_notation_errors(text: str, message: str) -> None:
    state = position(game(), gold=["f6"], throw="3")
    with pytest.raises(NotationError, match=message):
        state.string_to_action(text)


def test_moves_before_the_throw_and_bad_throws_are_notation_errors() -> None:
    state = game().new_initial_state()
    with pytest.raises(NotationError, match="thrown first"):
        state.string_to_action("turn f4")
    with pytest.raises(NotationError, match="N from 1 to 5"):
        state.string_to_action("throw 6")


def test_well_formed_but_illegal_actions_reach_the_legality_check() -> None:
    state = position(game(), gold=["f6"], throw="3")
    before = state.serialize()
    for text, why in [
        ("turn a6-a10", "exactly 3 markers"),
        ("turn f5-f7", "f6 is already-discovered gold"),
        ("rebury f5", "no discovered gold"),
        ("pass", "pass only when"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            state.apply_string(text)
        assert state.serialize() == before


def test_position_notation_example() -> None:
    state = game().new_initial_state()
    assert state.serialize() == (
        "oooooo/ooooooo/oooooooo/ooooooooo/oooooooooo/ooooooooooo/oooooooooo/ooooooooo/oooooooo/"
        "ooooooo/oooooo P1 ? 0,0 0"
    )
    text = "6/7/8/9/10/ooo8/10/9/8/7/6 P2 - 40,48 77"
    again = game().deserialize(text)
    assert again.serialize() == text and again.current_player() == 1
    assert again.scores() == [40.0, 48.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("6/7/8", "must have 5 fields"),
        ("6/7/8 P1 ? 0,0 0", "11 rows"),
        ("6/7/8/9/10/ooo8/10/9/8/7/5 P1 - 44,44 0", "has 5 spots, it must have 6"),
        ("6/7/8/9/10/oxo8/10/9/8/7/6 P1 - 44,44 0", "'x' is not 'o'"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P3 - 44,44 0", "must be P1 or P2"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P1 - 44,45 0", "do not make the 91 nuggets"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P1 ? 44,44 0", "nobody throws here"),
        ("6/7/8/9/10/ooooo6/10/9/8/7/6 P1 - 43,43 0", "discs are still thrown"),
        ("6/7/8/9/10/ooooo6/10/9/8/7/6 P1 5 43,43 0", "throw 5 is impossible"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P1 - 44,x 0", "gold field"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P1 - 44,44 9999", "past the turn limit"),
        ("6/7/8/9/10/GGG8/10/9/8/7/6 P1 - 44,44 0", "complete but its gold was not collected"),
        ("6/7/8/9/10/ooo8/10/9/8/7/6 P1 - 44,44 77", "P1 cannot be to move after 77 turns"),
    ],
)
def test_bad_positions_raise_notation_errors_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        game().deserialize(text)
    assert info.value.position == text and text not in str(info.value)

"""Hand-written positions: `deserialize` refuses what cannot occur, naming the field and why
(DESIGN.md §3), so that no accepted position is stuck or crashes later."""

from __future__ import annotations

import pytest

from motherlode.core.errors import NotationError
from tests.yukon.helpers import base, expansion, legal, play, position


def refused(game_rows: tuple[object, list[str]], **kwargs: object) -> NotationError:
    game, rows = game_rows
    with pytest.raises(NotationError) as info:
        position(game, rows, **kwargs)  # type: ignore[arg-type]
    err = info.value
    assert err.position is not None and err.position not in str(err)
    return err


def test_trapper_pending_without_a_gold_card_is_refused() -> None:
    """'they must give up one of the Gold cards they have collected so far' -- with none there
    is no decision ('the card is not kept; it is discarded immediately')."""
    err = refused(
        (expansion(), ["@ +1"]), pending="trapper", last="P1", players=["-3|-|-|-", "-|-|-|-"]
    )
    assert str(err) == "yukon: PENDING (trapper): P1 has no Gold card to give up"
    s = position(
        expansion(), ["@ +1"], pending="trapper", last="P1", players=["+3|-|-|-", "-|-|-|-"]
    )
    assert legal(s) == ["discard +3"]


def test_goldsmith_and_commander_pending_need_a_card_to_act_on() -> None:
    err = refused((expansion(), ["@ +1"]), pending="goldsmith", last="P1")
    assert str(err) == "yukon: PENDING (goldsmith): P1 has no Pebble card to get rid of"
    err = refused((expansion(), ["@ +1"]), pending="commander", last="P1")
    assert str(err) == "yukon: PENDING (commander): no Gold card lies beside the area to reclaim"


def test_teacher_pending_with_nobody_to_draw_from_is_refused() -> None:
    """'they choose another player and randomly take one of that player's cards': with
    nobody holding a Gold or Pebble card the Teacher has no effect, so no decision."""
    err = refused(
        (expansion(), ["@ +1"]),
        pending="teacher",
        last="P1",
        players=["+5|Te|-|-", "-|Cu|-|2"],  # P2 holds a Townsfolk and a disc: not drawn
    )
    assert str(err) == (
        "yukon: PENDING (teacher): no other player has a Gold or Pebble card to take"
    )
    err = refused(
        (expansion(), ["@ +1"]), pending="teacher", last="P1", players=["-|-|-|-", "+1|-|-|-"]
    )
    assert "P1 has no Teacher in front still to teach" in str(err)


def test_teacher_draw_from_a_player_without_cards_is_refused() -> None:
    err = refused(
        (expansion(3), ["@ +1"]),
        pending="draw:P2",
        last="P1",
        players=["-|Te|-|-", "-|-|-|-", "+4|-|-|-"],
    )
    assert str(err) == "yukon: PENDING (draw): P2 has no Gold or Pebble card to draw"
    err = refused(
        (expansion(), ["@ +1"]), pending="draw:P1", last="P1", players=["+1|Te|-|-", "-|-|-|-"]
    )
    assert str(err) == "yukon: PENDING (draw): the Teacher draws from another player"
    s = position(
        expansion(3),
        ["@ +1"],
        pending="draw:P3",
        last="P1",
        players=["-|Te|-|-", "-|-|-|-", "+4|-|-|-"],
    )
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == ["draw +4"]


def test_pan_pending_when_the_prospector_is_not_on_a_pan_is_refused() -> None:
    """'When a player arrives on a Pan card, they take the top Gold nugget disc': the disc is
    drawn only with the Prospector on the Pan (this position raised KeyError on `disc 1`)."""
    err = refused((expansion(), ["@ Pa +1"]), pending="pan", last="P1", pans="b1:3")
    assert str(err) == "yukon: PENDING (pan): the Prospector is not on a Pan"
    s = position(expansion(), [". @Pa +1"], pending="pan", last="P1", pans="b1:3")
    play(s, "disc 1")
    assert s.observation()["players"][0]["discs"] == [1] and s.current_player() == 1


def test_pending_decisions_are_the_takers_and_only_with_the_expansion() -> None:
    err = refused((base(), ["@ +1"]), pending="trapper", last="P1", players=["+3|-|-|-", "-|-|-|-"])
    assert "only with the Townsfolk expansion" in str(err)
    err = refused(
        (expansion(), ["@ +1"]), pending="trapper", last="P2", players=["+3|-|-|-", "-|-|-|-"]
    )
    assert "LAST must be the player to move P1" in str(err)


def test_impossible_tables_are_refused_with_the_field_and_reason() -> None:
    g = expansion()
    assert "stands on a card" in str(refused((g, ["@+1 +2"])))
    assert "cannot be in townsfolk in front" in str(
        refused(
            (
                g,
                ["@ +2"],
            ),
            players=["-|Tr|-|-", "-|-|-|-"],
        )
    )
    assert str(refused((g, ["@ +2"]), players=["-|Ja|-|-", "-|-|-|-"])) == (
        "yukon: ORDER: 1 Jailers taken: the order is ccw"
    )
    assert "given up to a Trapper" in str(refused((g, ["@ +2"]), beside="+8"))
    assert "next to its own Teacher" in str(refused((g, ["@ +2"]), players=["-|-|+3|-", "-|-|-|-"]))
    assert "4 Jailer cards, the game has 3" in str(
        refused((g, ["@ Ja +2"]), players=["-|Ja.Ja.Ja|-|-", "-|-|-|-"], order="ccw")
    )
    assert "Gold nugget discs" in str(
        refused((g, ["@ Pa Pa Pa +2"]), pans="b1:3,c1:3,d1:3", revealed="1")
    )
    assert "only the expansion's cards go beside the area" in str(
        refused((base(), ["@ +2"]), beside="+3")
    )

"""El Dorado reference positions from the rulebook and our round-limit extension.

The round limit (``max_rounds``, our extension; the config's description): "if nobody
entered El Dorado by then, most temples offered in wins, then most coins offered".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from motherlode.core.errors import IllegalActionError
from motherlode.games.eldorado import sheets as sheet_module
from motherlode.games.eldorado.game import EldoradoState
from tests.eldorado.helpers import game, legal_strings, position


def test_nobody_entered_most_temples_first_then_coins() -> None:
    # P1 offered in two temples (2 coins in all), P2 in one temple (5 coins), P3 in none:
    # temples decide before coins, so P1 wins although P2 offered more coins
    g = game(players=3, max_rounds=2)
    s = position(g, seat=2, phase="use", held={0: ("machete", 1)}, round=2,
                 visited={0: ["a2", "b2", "c2", "d2", "c3"], 1: ["a4", "b4"], 2: []},
                 offers={0: [("e2", 1), ("c4", 1)], 1: [("c4", 5)]})
    s.apply_string("d0 move a1")
    assert s.is_terminal()
    assert [s.temples_offered(p) for p in range(3)] == [2, 1, 0]
    assert s.scores() == [2.0, 5.0, 0.0]
    assert s.winners() == (0,)
    assert s.returns()[0] > s.returns()[1]


def test_nobody_entered_equal_temples_most_coins_then_shared() -> None:
    for offers, winners in [
        ({0: [("e2", 3)], 1: [("c4", 3)]}, (0, 1)),
        ({0: [("e2", 2)], 1: [("c4", 3)]}, (1,)),
    ]:
        g = game(players=3, max_rounds=2)
        s = position(g, seat=2, phase="use", held={0: ("machete", 1)}, round=2,
                     visited={0: ["a2", "b2", "c2", "d2"], 1: ["a4", "b4"], 2: []},
                     offers=offers)
        s.apply_string("d0 move a1")
        assert s.is_terminal() and s.winners() == winners


ROW2 = ["a2", "b2", "c2", "d2"]  # d2 is next to temple e2 on sheet 1
COIN_DIE = {1: 0, 2: 2, 3: 4}  # a die that has that coin face


# "If someone has already made an offering in a given temple, the number written above the
# temple space tells you the minimum offering that can be made in this temple." (Making an
# Offering in a Temple; Example B offers 3 over a minimum of 2). P1 offered 2 in e2; P2,
# next to it, holds one die of 1, 2 or 3 coins: exactly the minimum is enough, one less not.
@pytest.mark.parametrize(
    ("coins", "moves"),
    [
        (1, ["d0 fill 3coins/1", "d0 fill signpost/1"]),
        (2, ["d2 offer e2", "d2 fill 3coins/1", "d2 fill signpost/1"]),
        (3, ["d4 offer e2", "d4 fill 3coins/1", "d4 fill signpost/1"]),
    ],
)
def test_temple_minimum_exactly_the_minimum_is_enough(coins: int, moves: list[str]) -> None:
    s = position(game(), seat=1, phase="use", held={COIN_DIE[coins]: (f"{coins}c", 1)},
                 visited={0: ROW2, 1: ROW2}, offers={0: [("e2", 2)]})
    assert legal_strings(s) == moves


def test_temple_without_an_offering_takes_any_number_of_coins() -> None:
    # "If no one has yet made an offering in a given temple, the player may make an offering
    # of any number of coins."
    s = position(game(), seat=1, phase="use", held={0: ("1c", 1)}, visited={0: ROW2, 1: ROW2})
    assert legal_strings(s) == ["d0 offer e2", "d0 fill 3coins/1", "d0 fill signpost/1"]


# The round limit (our extension): the game stops when the round ``max_rounds`` is finished,
# not one round earlier and not one later. P2 (the last seat: P1 starts) ends round r.
@pytest.mark.parametrize(("round_", "over"), [(2, False), (3, True)])
def test_round_limit_ends_the_game_after_round_max_rounds(round_: int, over: bool) -> None:
    s = position(game(max_rounds=3), seat=1, phase="use", held={0: ("machete", 1)},
                 round=round_, visited={0: ["a2"], 1: ["a4"]})
    assert legal_strings(s) == ["d0 move b4", "d0 fill machete/1", "d0 fill 3coins/1"]
    s.apply_string("d0 move b4")
    assert s.is_terminal() is over
    if over:
        assert s.termination() == "round-limit" and s.winners() == (0, 1)
        assert s.returns() == [0.0, 0.0] and s.scores() == [0.0, 0.0]
    else:
        assert s.round == 3 and s.observation(0)["round"] == 3
        assert s.observation(0)["phase"] == "roll"


def test_round_limit_nobody_offered_everyone_shares() -> None:
    # no temples and no coins anywhere: the top of both counts is 0, all three share
    s = position(game(players=3, max_rounds=2), seat=2, phase="use",
                 held={0: ("machete", 1)}, round=2, visited={0: ["a2"], 1: ["a4"], 2: []})
    s.apply_string("d0 move a1")
    assert s.winners() == (0, 1, 2) and s.returns() == [0.0, 0.0, 0.0]


def test_a_zero_offering_is_written_above_the_temple_on_the_rivals_maps() -> None:
    # map 2: "The player writes the number 0 on the temple space and on the temple symbol
    # ... The rivals write the number 0 above the space of this temple": the observation's
    # temple minima show d3 at 0 (a minimum of 0 is still a minimum), for every seat
    g = game(map=2)
    s = position(g, phase="use", held={0: ("machete", 1)}, visited={0: ["a3", "b3", "c3"]},
                 filled={0: ["zero"]})
    assert s.observation(1)["temple_minima"] == {}
    s.apply_string("activate zero")
    s.apply_string("res offer d3")
    assert s.observation(1)["temple_minima"] == {"d3": 0}
    # and the tensor's minima cells, (minimum + 1) / 5, after the two sheets (179 cells each
    # on map 2: 3 x 51 spaces, 16 slots, 8 resources, 2) and the 7 dice (13 each): d3 is 23
    t = s.observation_tensor(1)
    assert t[2 * 179 + 7 * 13 + 23] == pytest.approx(0.2)
    assert s.observation(0)["sheets"][0]["offerings"] == [["d3", 0]]


# -- The Gate to El Dorado: the golden temple's minimum and the level's temples ------------

GATE = {  # a route to the space before the golden temple, its temples, the golden temple
    1: (["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3"], ["h3", "e2", "c4"], "j3"),
    4: (
        ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3", "k3", "l3", "d4"],
        ["d3", "l3", "g4", "i2", "e5"],
        "m3",
    ),
}  # sheet 4's d3 and l3 lie on the route: every case there offers in them


def _at_the_gate(
    sheet: int, temples: int, hard: bool = False, coins: str = "3c", filled: tuple[str, ...] = ()
) -> EldoradoState:
    """P1 next to the golden temple, offered in ``temples`` temples, holding one die."""
    route, offered, _ = GATE[sheet]
    die = COIN_DIE[int(coins[:-1])]
    return position(
        game(map=sheet, hard=hard),
        phase="use",
        held={die: (coins, 1)},
        visited={0: route},
        offers={0: [(t, 1) for t in offered[:temples]]},
        filled={0: list(filled)},
    )


def _gate(s: EldoradoState, golden: str) -> list[str]:
    """The legal offerings in the golden temple (other temples next to the route aside)."""
    return [m for m in legal_strings(s) if m.endswith(f" offer {golden}")]


# "Above the space of the golden temple there is the number 3 (expeditions no. 1, 2, 3) or 4
# (expedition no. 4) - it indicates the minimum number of coins that must be offered." (The
# Gate to El Dorado.) The temples done (easy: 2 on sheet 1, 4 on sheet 4), P1 offers the
# most one die shows (3 coins), or adds a coin: sheet 4's guide ("After hiring the guide, the
# player has 1 additional coin on a chosen die with a coin or coins") or a 1-coin die with
# the 3coins resource ("To make a larger offering in a temple, a player may combine the
# coins from 1 die with the coins from 1 resource").
@pytest.mark.parametrize(
    ("sheet", "coins", "filled", "activate", "offers"),
    [
        (1, "2c", (), None, []),  # 2 < 3
        (1, "3c", (), None, ["d4 offer j3"]),  # 3 = 3
        (4, "3c", (), None, []),  # 3 < 4: the same die that opens sheet 1's gate
        (4, "3c", ("guide",), None, ["d4 offer m3"]),  # 3 + the guide's 1 = 4
        (4, "1c", ("3coins",), "3coins", ["d0+res offer m3"]),  # 1 + 3 = 4
        (4, "2c", ("guide",), None, []),  # 2 + 1 = 3 < 4
    ],
    ids=["s1-2", "s1-3", "s4-3", "s4-3+guide", "s4-1+3coins", "s4-2+guide"],
)
def test_golden_temple_minimum_3_on_sheets_1_to_3_and_4_on_sheet_4(
    sheet: int, coins: str, filled: tuple[str, ...], activate: str | None, offers: list[str]
) -> None:
    _, offered, golden = GATE[sheet]
    s = _at_the_gate(sheet, len(offered) - 1, coins=coins, filled=filled)
    assert s.game.required == len(offered) - 1 and s.temples_offered(0) == s.game.required
    if activate:
        s.apply_string(f"activate {activate}")
    assert _gate(s, golden) == offers
    if offers:
        s.apply_string(offers[0])
        given = 3 if sheet == 1 else 4  # exactly the minimum, either way
        assert s.entered(0) and s.offers[0][-1] == (s.game.sheet.by_label[golden], given)
    else:
        with pytest.raises(
            IllegalActionError,
            match=(
                f"the golden temple needs an offering of at least {3 if sheet == 1 else 4} coins"
            ),
        ):
            s.apply_string(f"d{COIN_DIE[int(coins[:-1])]} offer {golden}")


# "If you want to set out on the expedition at the easier level, cross out the yellow temple
# on your sheet. During the expedition you will have to make an offering in 1 temple fewer.
# If you want to set out on the expedition at the harder level, do not cross out the yellow
# temple." and "The player must have made offerings in at least as many temples as there
# are temple symbols on the expedition sheet." Sheet 1 has 3 temple symbols (easy 2, hard
# 3), sheet 4 has 5 (easy 4, hard 5); a die of 3 coins (sheet 1) or 3 and the guide's coin
# (sheet 4) at the gate: one temple short is refused, exactly the number enters.
@pytest.mark.parametrize(
    ("sheet", "hard", "temples", "enters"),
    [
        (1, False, 1, False),
        (1, False, 2, True),
        (1, True, 2, False),
        (1, True, 3, True),
        (4, False, 3, False),
        (4, False, 4, True),
        (4, True, 4, False),
        (4, True, 5, True),
    ],
    ids=[
        "s1-easy-1",
        "s1-easy-2",
        "s1-hard-2",
        "s1-hard-3",
        "s4-easy-3",
        "s4-easy-4",
        "s4-hard-4",
        "s4-hard-5",
    ],
)
def test_the_hard_level_needs_one_temple_more_than_the_easy(
    sheet: int, hard: bool, temples: int, enters: bool
) -> None:
    needed = {(1, False): 2, (1, True): 3, (4, False): 4, (4, True): 5}[sheet, hard]
    s = _at_the_gate(sheet, temples, hard=hard, filled=("guide",) if sheet == 4 else ())
    assert s.game.required == needed and s.temples_offered(0) == temples
    golden = GATE[sheet][2]
    move = f"d4 offer {golden}"
    assert _gate(s, golden) == ([move] if enters else [])
    if enters:
        s.apply_string(move)
        assert s.entered(0)
    else:
        with pytest.raises(
            IllegalActionError,
            match=(rf"El Dorado needs offerings in {needed} temples first \({temples} made\)"),
        ):
            s.apply_string(move)


def test_tensor_a_settlement_paid_in_instalments_seen_from_each_seat() -> None:
    # map 3: "A player wants to visit a settlement marked with 3 coins. They chose a die with
    # 2 coins, so they fill in 2 coins on the settlement space" (Maps No. 3 and 4): P3 has
    # paid 2 of f2's 3; P2 has visited d1 (fee 2, paid whole). Per seat 197 cells (3 x 56
    # spaces, 19 slots, 8 resources, 2), the viewer's sheet first, then the next seats in
    # turn order; in each the fees paid / fee at 56 + space (d1 is 3, f2 16)
    g = game(players=3, map=3)
    s = position(g, seat=2, phase="use", held={0: ("machete", 1)},
                 visited={0: ["a1"], 1: ["a1", "b1", "c1", "d1", "e1"],
                          2: ["a2", "b2", "c2", "d2", "e2"]},
                 paid={2: {"f2": 2}})
    s.bonus_used = True  # a guide's coins used this turn
    for me, sheets in ((0, (0, 1, 2)), (1, (1, 2, 0)), (2, (2, 0, 1))):
        t = s.observation_tensor(me)
        paid = [float(t[k * 197 + 56 + x]) for k in range(3) for x in (3, 16)]
        expected = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (0.0, 2 / 3)}
        assert paid == pytest.approx([v for q in sheets for v in expected[q]])
        # the 16 last cells: phase use, round 1 of 60, the bonus used, one use a die (1/3),
        # and the seat to move (P3) counted from the viewer
        to_move = [0.0] * 4
        to_move[(2 - me) % 3] = 1.0
        assert t[-16:].tolist() == pytest.approx(
            [0, 0, 1, 0, 1 / 60, 0, 0, 1, 0, 0, 0, 1 / 3, *to_move]
        )


SHEETS = Path(sheet_module.__file__).parent / "data"


def test_tensor_a_users_sheet_of_two_temple_symbols_needs_one_temple_when_easy(
    tmp_path: Path,
) -> None:
    # a user's transcription of sheet 1 with 2 temple symbols (the least the sheet format
    # takes): at the easy level "you will have to make an offering in 1 temple fewer", so 1.
    # P1 offered in e2: its sheet's "temples offered / required" cell (per sheet 161 cells:
    # 3 x 46 spaces, 13 slots, 8 resources, then that cell, 159, and entered, 160) is 1 / 1
    data = json.loads((SHEETS / "sheet1.json").read_text())
    data["temple_symbols"]["count"] = 2
    path = tmp_path / "two-temples.json"
    path.write_text(json.dumps(data))
    g = game(players=2, sheet_file=str(path))
    assert g.required == 1 and game(players=2, hard=True, sheet_file=str(path)).required == 2
    s = position(g, seat=1, phase="use", held={0: ("machete", 1)}, visited={0: ROW2},
                 offers={0: [("e2", 2)]})
    assert s.temples_offered(0) == 1
    for me, mine in ((0, 0), (1, 161)):
        t = s.observation_tensor(me)
        theirs = 161 - mine
        assert (t[mine + 159], t[mine + 160]) == (1.0, 0.0)  # P1's sheet
        assert (t[theirs + 159], t[theirs + 160]) == (0.0, 0.0)  # P2's: none offered

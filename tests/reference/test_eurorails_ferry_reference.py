"""Eurorails ferries, the Chunnel and the small city's second player, each side asked of the
engine.

Every position is written in the position notation (docs/rules/eurorails.md, "Position
notation"; ``game.deserialize`` checks it) from the deal of ``tests/eurorails/helpers.py``'s
``standard`` (P1 cards 1-3, P2 4-6, ...), with the fields of the case replaced. Mileposts
are named as the notation names them (places.py): London-NE is an outpost of London; Y28 is
Harwich's port and AF27 IJmuiden's (Harwich-IJmuiden: 4 million in both printings,
FACTS.md); Y31 and AA32 are the Chunnel's London and Calais ends; Venezia is a small city
with three buildable edges (to AS47, AR47 and AQ48). Every expected number is worked out
from the quoted rule sentence, never read from the engine.
"""

from __future__ import annotations

import functools

import pytest

from motherlode.core.errors import IllegalActionError
from motherlode.games.eurorails.board import SMALL
from motherlode.games.eurorails.game import BUILD, EurorailsGame, EurorailsState
from motherlode.games.eurorails.places import milepost_index
from tests.eurorails.helpers import lay, legal_strings, nm, set_turn, standard


@functools.cache
def _deal(players: int) -> tuple[EurorailsGame, str]:
    s = standard(players)
    return s.game, s.serialize()


def read(players: int = 2, /, **fields: str) -> EurorailsState:
    """The position of ``standard(players)`` with ``fields`` replaced: keyword ``P1_track``
    is the notation's ``P1 track:`` line; ``links`` lists only the lines that have owners
    (``"Harwich-IJmuiden = P1 P2"``)."""
    game, text = _deal(players)
    lines = text.splitlines()
    keys = [line.split(": ", 1)[0] for line in lines]
    for name, value in fields.items():
        key = name.replace("_", " ")
        if key == "links":
            owned = dict(item.split(" = ") for item in value.split(", "))
            old = dict(item.split(" = ") for item in lines[keys.index("links")][7:].split(", "))
            assert set(owned) <= set(old), owned
            value = ", ".join(f"{k} = {owned.get(k, '-')}" for k in old)
        lines[keys.index(key)] = f"{key}: {value}"
    s = game.deserialize("\n".join(lines))
    assert isinstance(s, EurorailsState)
    return s


def owners(s: EurorailsState, line: str) -> list[int]:
    """The seats owning a ferry line or the Chunnel."""
    return s.link_owners[next(k for k, x in enumerate(s.game.board.links) if x.name == line)]


def verdict(s: EurorailsState, move: str) -> str | None:
    """Why ``move`` is refused now (None: it is legal, and among the legal moves). A build is
    asked both ways the engine decides it: the legal list (its fast path) and
    ``build_refusal`` (the reason a refusal gives), which must agree."""
    try:
        s.clone().apply_string(move)
    except IllegalActionError as err:
        why: str | None = str(err).split(": ", 2)[2]
    else:
        why = None
    assert (move in legal_strings(s)) is (why is None)
    if move.startswith("build "):
        a, d = divmod(s.string_to_action(move), 6)
        assert s.build_refusal(s.current_player(), a, d) == why
    return why


# -- Building a ferry line ---------------------------------------------------------------


# "The player pays the cost of the entire ferry on building to one ferry port milepost; there
# is no additional cost to build to the ferry port milepost on the other end of the ferry
# line." (Ferry Ports.) P1 builds out of London-NE into Harwich's port: the line's 4, not a
# milepost's cost. Both ports are then P1's track: out of IJmuiden to Holland-NW is a major
# city milepost, 5 ("Major city | 5 million"); into IJmuiden from Holland-NW (a major city
# milepost, where anyone may begin) is 0, the ferry already paid.
def test_the_ferry_is_paid_once_on_building_to_one_port_and_both_ends_are_track() -> None:
    s = read()
    assert verdict(s, "build London-NE>Y28") is None
    s.apply_string("build London-NE>Y28")
    assert (s.spent, s.cash[0]) == (4, 46)
    assert owners(s, "Harwich-IJmuiden") == [0]
    assert milepost_index(s.game.board, "AF27") in s.net[0]  # IJmuiden: P1's track too
    t = s.clone()
    t.apply_string("build AF27>Holland-NW")
    assert (t.spent, t.cash[0]) == (4 + 5, 46 - 5)
    s.apply_string("build Holland-NW>AF27")
    assert (s.spent, s.cash[0]) == (4, 46)


# The other end of one's own line costs nothing, so it may be built with 19 of the 20 spent
# (19 + 0) and with all 20 spent: the rulebook's "up to 20 million" allows a build that costs
# nothing (docs/rules/eurorails.md, decision 44). Both the legal list and ``build_refusal``.
@pytest.mark.parametrize("spent", [19, 20])
def test_the_far_port_of_ones_own_line_costs_nothing(spent: int) -> None:
    s = read(spent=str(spent), P1_track="London-NE>Y28", links="Harwich-IJmuiden = P1")
    assert verdict(s, "build Holland-NW>AF27") is None
    s.apply_string("build Holland-NW>AF27")
    assert s.spent == spent


# "A player may spend up to 20 million to build track" (Building Phase): the ferry's 4 is
# allowed with 16 spent (20), refused with 17 (21).
@pytest.mark.parametrize(
    ("spent", "refusal"),
    [
        (16, None),
        (17, "it costs 4 and only 3 of the 20 remain this turn"),
    ],
)
def test_the_ferry_cost_counts_against_the_20_million(spent: int, refusal: str | None) -> None:
    s = read(spent=str(spent))
    assert verdict(s, "build London-NE>Y28") == refusal


# "Only 2 players may build to (and from) a single ferry port." Three seats: P1 owns the line
# (London-NE>Y28); P2, the second, pays the whole 4 too; P3, the third, is refused.
def test_a_second_player_pays_the_ferry_too_and_a_third_is_refused() -> None:
    s = read(3, t="1", P1_track="London-NE>Y28", links="Harwich-IJmuiden = P1")
    assert s.current_player() == 1
    s.apply_string("build London-E>Y28")
    assert (s.spent, s.cash[1]) == (4, 46)
    assert owners(s, "Harwich-IJmuiden") == [0, 1]
    s = read(
        3,
        t="2",
        P1_track="London-NE>Y28",
        P2_track="London-E>Y28",
        P3_track="London-NE>Y27",
        links="Harwich-IJmuiden = P1 P2",
    )
    assert s.current_player() == 2
    assert verdict(s, "build Y27>Y28") == "only 2 player(s) may build to a ferry port"


# "No track may be built to or from a ferry port which would block a second player from
# having one section of track to each end of the ferry line." IJmuiden (AF27) has three
# edges: to Holland-NW, to AG27 and to Holland-NE. P1 owns the line and builds at IJmuiden:
# the first leaves two edges, the second one (for the second player), the third none:
# refused, unless the second player already owns the line (nobody else may come).
@pytest.mark.parametrize(
    ("built", "co_owner", "refusal"),
    [
        ("", False, None),
        ("AF27>Holland-NW", False, None),
        (
            "AF27>Holland-NW, AF27>AG27",
            False,
            "it would block a second player from track to each end of the ferry",
        ),
        ("AF27>Holland-NW, AF27>AG27", True, None),
    ],
    ids=["first", "second", "third", "third-line-full"],
)
def test_a_port_keeps_an_edge_for_the_second_player(
    built: str, co_owner: bool, refusal: str | None
) -> None:
    track = ", ".join(x for x in ("London-NE>Y28", built) if x)
    s = read(
        P1_track=track,
        links=f"Harwich-IJmuiden = P1{' P2' if co_owner else ''}",
        **({"P2_track": "London-E>Y28"} if co_owner else {}),
    )
    move = ["build AF27>Holland-NW", "build AF27>AG27", "build AF27>Holland-NE"][
        len([x for x in built.split(", ") if x])
    ]
    assert verdict(s, move) == refusal


# -- Using a ferry -----------------------------------------------------------------------


def _at_harwich(moves: int, train: str = "Freight", prev: str = "London-NE") -> EurorailsState:
    """P1's train at Harwich's port, on P1's own line, in P1's operations phase."""
    return read(
        phase="move",
        t="4",
        moves=str(moves),
        P1_train=train,
        P1_at="Y28",
        P1_from=prev,
        P1_track="London-NE>Y28",
        links="Harwich-IJmuiden = P1",
    )


def _next_turn(s: EurorailsState) -> None:
    """P1 ends its turn and P2 (no train) its own: P1's next turn begins."""
    if s.phase != BUILD:
        s.apply_string("end move")
    for move in ("end turn", "end move", "end turn"):
        s.apply_string(move)
    assert s.current_player() == 0


# "To use a ferry, the player must move to the ferry port and stop moving for that turn. On
# the player's next turn, he starts counting with the opposite ferry port and must move at
# half rate that turn (e.g., a speed 9 train can move 5)." Boarding is offered with movement
# left (9) and with none (the port reached on the last point); either way the movement
# ends; the next turn starts at IJmuiden with half of 9 (5) or of 12 (6, "rounding all
# fractions up" as the weather's half rate), the turn after that at the full speed.
@pytest.mark.parametrize(
    ("moves", "train", "half", "full"),
    [
        (9, "Freight", 5, 9),
        (0, "Freight", 5, 9),
        (4, "Fast Freight", 6, 12),
        (4, "Heavy Freight", 5, 9),
        (4, "Super Freight", 6, 12),
    ],
)
def test_a_ferry_stops_the_train_then_half_rate_from_the_other_port(
    moves: int, train: str, half: int, full: int
) -> None:
    s = _at_harwich(moves, train)
    assert verdict(s, "ferry P1") is None
    s.apply_string("ferry P1")
    assert s.phase == BUILD and s.moves == 0 and s.cash[0] == 50  # own line: no fee
    _next_turn(s)
    assert (nm(s, s.pos[0]), s.moves) == ("AF27", half)
    _next_turn(s)
    assert s.moves == full


# "A player treats a ferry port milepost as a clear milepost if he is not using the ferry
# line": through Harwich's port (London-NE, Y28, Y27) the train spends one point a milepost
# (9 - 2 = 7) and keeps moving.
def test_through_a_port_without_the_ferry_it_is_a_clear_milepost() -> None:
    s = read(
        phase="move",
        t="4",
        moves="9",
        P1_at="London-NE",
        P1_track="London-NE>Y28>Y27",
        links="Harwich-IJmuiden = P1",
    )
    s.apply_string("move Y28")
    s.apply_string("move Y27")
    assert s.moves == 7 and s.current_player() == 0 and s.phase != BUILD


# "A player who uses an opponent's ferry must pay the usual rental fee" (4 million, Renting
# Track): P1 on P2's line pays 4 to P2.
def test_an_opponents_ferry_costs_the_rental_fee() -> None:
    s = read(
        phase="move",
        t="4",
        moves="9",
        P1_at="Y28",
        P2_track="London-NE>Y28",
        links="Harwich-IJmuiden = P2",
    )
    assert [m for m in legal_strings(s) if m.startswith("ferry")] == ["ferry P2"]
    s.apply_string("ferry P2")
    assert s.cash[:2] == [46, 54]


# -- The Chunnel -------------------------------------------------------------------------


# "Only 1 player may build to (and from) the Chunnel. The player pays the entire 20 million
# cost of the Chunnel on building to one Chunnel milepost ... In order to build the Chunnel,
# the player must have already upgraded his train to at least a fast or heavy freight."
# With 20 a turn at most, the Chunnel is the turn's whole budget: 0 spent allowed, 1 not.
@pytest.mark.parametrize(
    ("train", "spent", "refusal"),
    [
        ("Fast Freight", 0, None),
        ("Heavy Freight", 0, None),
        ("Super Freight", 0, None),
        ("Fast Freight", 1, "it costs 20 and only 19 of the 20 remain this turn"),
        ("Freight", 0, "the Chunnel needs a Fast or Heavy Freight or better"),
    ],
)
def test_the_chunnel_costs_the_whole_20_and_an_upgraded_train(
    train: str, spent: int, refusal: str | None
) -> None:
    s = read(P1_train=train, spent=str(spent))
    assert verdict(s, "build London-SE>Y31") == refusal
    if refusal is None:
        s.apply_string("build London-SE>Y31")
        assert (s.spent, s.cash[0]) == (20, 30)
        assert owners(s, "Chunnel") == [0]
        assert milepost_index(s.game.board, "AA32") in s.net[0]  # the Calais end: track


def test_only_one_player_may_build_to_the_chunnel() -> None:
    # P1 owns it (London-SE>Y31); P2, with a Fast Freight and track at X31 next to the
    # London end, may not build to it
    s = read(
        t="1",
        P2_train="Fast Freight",
        P1_track="London-SE>Y31",
        P2_track="London-SW>X31",
        links="Chunnel = P1",
    )
    assert verdict(s, "build X31>Y31") == "only 1 player(s) may build to the Chunnel"


# Moving through the Chunnel counts its length, 3 mileposts (interpretation 4 in
# docs/rules/eurorails.md: the rulebook gives it no movement rule of its own): 3 points
# left cross it, 2 do not. "A player with only a freight train may not use the Chunnel by
# renting track": on P2's Chunnel P1's Freight is refused, a Fast Freight pays the 4.
@pytest.mark.parametrize(
    ("train", "owner", "moves", "refusal", "cash"),
    [
        ("Freight", "P1", 3, None, [50, 50]),
        ("Freight", "P1", 2, "crossing the Chunnel takes 3 mileposts of movement", None),
        ("Freight", "P2", 9, "a Freight may not use the Chunnel by renting it", None),
        ("Fast Freight", "P2", 9, None, [46, 54]),
    ],
)
def test_crossing_the_chunnel(
    train: str, owner: str, moves: int, refusal: str | None, cash: list[int] | None
) -> None:
    s = read(
        phase="move",
        t="4",
        moves=str(moves),
        P1_train=train,
        P1_at="Y31",
        **{f"{owner}_track": "London-SE>Y31"},
        links=f"Chunnel = {owner}",
    )
    assert verdict(s, "chunnel") == refusal
    if refusal is None:
        s.apply_string("chunnel")
        assert nm(s, s.pos[0]) == "AA32"
        assert s.moves == moves - 3 and s.cash[:2] == cash


# -- Small cities: the second player's edge ------------------------------------------------

VENEZIA = {"AQ48": "Milano-E>AN48>AO48>AP48>AQ48", "AR47": "Milano-NE>AN47>AO47>AP47>AQ47>AR47"}


# "No track may be built which would prevent a second player from building at least one
# segment of track into a small city" (Limits on Entry into Medium and Small Cities).
# Venezia has three edges. P1 in with one section: a second leaves one edge (allowed); in
# with two, a third leaves none (refused); with P2 already in (the second player), P1 may
# take the last edge. Written in the notation, on the map every game has: never skipped.
@pytest.mark.parametrize(
    ("p1", "p2", "move", "refusal"),
    [
        ("AQ48>Venezia", "", "build Venezia>AR47", None),
        (
            "AQ48>Venezia>AR47",
            "",
            "build Venezia>AS47",
            "it would prevent another player from building into the city",
        ),
        ("AQ48>Venezia", "AR47>Venezia", "build Venezia>AS47", None),
    ],
    ids=["second-section", "third-section", "second-player-in"],
)
def test_a_small_city_keeps_an_edge_for_a_second_player(
    p1: str, p2: str, move: str, refusal: str | None
) -> None:
    fields = {"P1_track": f"{VENEZIA['AQ48']}>{p1.split('>', 1)[1]}"}
    if p2:
        fields["P2_track"] = f"{VENEZIA['AR47']}>Venezia"
    s = read(**fields)
    assert s.game.board.city_size[s.game.board.city_index("Venezia")] == SMALL
    assert verdict(s, move) == refusal


# Belfast, the map's only two-edge small city (to O18 and O19), is also a ferry port ("The
# cost to build to Dublin and Belfast is 6 million and 4 million, respectively; only the
# ferry line cost applies"): P1's first section in (from O18, its own track) buys
# Belfast-Stranraer for 4; its second, the last edge, would leave the second player no way
# in: refused, by the ferry port's rule, checked first (it says the same for a port that is
# a city). Ireland's track reaches no major city without a ferry, so this position is laid
# with the test helpers, not read from the notation (which checks that it does).
def test_belfast_the_two_edge_small_city_keeps_its_last_edge() -> None:
    s = standard(2)
    b = s.game.board
    belfast = b.city_centre[b.city_index("Belfast")]
    assert sorted(
        nm(s, b.nb[belfast * 6 + d]) for d in range(6) if b.eid[belfast * 6 + d] >= 0
    ) == ["O18", "O19"]
    lay(s, 0, [milepost_index(b, "N18"), milepost_index(b, "O18")])
    set_turn(s, 0, BUILD)
    assert verdict(s, "build O18>Belfast") is None
    s.apply_string("build O18>Belfast")
    assert s.spent == 4 and owners(s, "Belfast-Stranraer") == [0]
    assert verdict(s, "build Belfast>O19") == (
        "it would block a second player from track to each end of the ferry"
    )

"""Eureka reference positions worked out by hand from the rulebook (``rulebooks/eureka.txt``).

Positions are in the position notation (docs/rules/eureka.md: ``eureka/1`` and ``key=value``
fields; ``miners`` per seat ``hex:gold:robbers:house gold:house robbers``; ``bag`` the
face-down chips by kind G1..G5, R1..R5, initially 14.12.10.7.5.2.3.4.4.3 = 64 chips, 121
nuggets, 16 robbers). Two players: P1's house is k14, P2's n11; a3 is the first mining hole
(bit 0 of ``chips``). Every position keeps the nuggets, chips and robbers conserved; the
expected numbers come from the rule sentences quoted in each case.
"""

from __future__ import annotations

import pytest

import motherlode
from motherlode.core.protocol import State
from tests.eureka.helpers import play, setup

GAME = motherlode.load("eureka", players=2)
RAFTS = "rafts=h10,d8,m12,n15,m8,n4"


def position(phase: str, loco: int, miners: str, chips: str, bag: str) -> State:
    return GAME.deserialize(
        f"eureka/1 players=2 turn=0 actor=0 phase={phase} die=0 loco={loco} turns=40 duel=-"
        f" miners={miners} {RAFTS} chips={chips} robbers=- bag={bag}"
    )


# The train one space before Golden City, P1 has thrown. P1 stands on the emptied hole a3
# with 3 nuggets (a G3 chip) in front of him; his house holds a G5 and a G1 chip (6) and an
# R2 robber; P2 is in his house with two G2 chips (4) and robbers R1 and R3. Eight chips
# are off the board (bits 0..7 cleared); the bag lost one G1, two G2, one G3, one G5, one
# R1, one R2, one R3: 13.10.9.7.4.1.2.3.4.3 (56 chips).
TRAIN_BAG = "13.10.9.7.4.1.2.3.4.3"


@pytest.mark.parametrize(
    ("p2_house", "scores", "winners"),
    [
        # "Each nugget counts one point and each robber chip counts two points. Gold
        # discoveries that are still lying open on the table do not count." P1: 6 + 2*1 = 8
        # (the 3 in front of him do not count); P2: 4 + 2*2 = 8: a tie, shared
        ("4:2", [8.0, 8.0], (0, 1)),
        # one robber less for P2 (and one more R3 in the bag): 4 + 2 = 6, P1 wins
        ("4:1", [8.0, 6.0], (0,)),
    ],
)
def test_the_train_reaching_golden_city_ends_the_game_and_scores_the_houses(
    p2_house: str, scores: list[float], winners: tuple[int, ...]
) -> None:
    bag = TRAIN_BAG if p2_house == "4:2" else "13.10.9.7.4.1.2.4.4.3"
    chips = "ffffffffffffff00" if p2_house == "4:2" else "ffffffffffffff80"
    s = position("roll", 13, f"a3:3:0:6:1,n11:0:0:{p2_house}", chips, bag)
    # "If the die shows the locomotive, the player must move the train one place nearer to
    # Golden City": six faces, each 1/6
    outcomes = dict(s.chance_outcomes())
    assert sorted(s.action_to_string(a) for a in outcomes) == [
        "die 2", "die 3", "die 4", "die 5", "die 6", "die L"]
    assert all(p == pytest.approx(1 / 6) for p in outcomes.values())
    # "The game ends when the locomotive reaches the last track space in Golden City."
    s.apply_string("die L")
    assert s.is_terminal()
    assert s.scores() == scores
    assert s.winners() == winners


# P1 stands on hole a3 still face down, about to turn it over; a second face-down chip lies
# in the next hole. The bag: one G2 and one R5. Everything else has been banked: 121 - 2 =
# 119 nuggets (P1 60, P2 59) and 16 - 1 = 15 robbers (P1 8, P2 7) in the houses.
LAST = ("reveal", 5, "a3:0:0:60:8,n11:0:0:59:7", "0000000000000003", "0.1.0.0.0.0.0.0.0.1")


def test_the_chip_turned_is_drawn_from_what_is_face_down() -> None:
    # two chips face down, one of each kind: each 1/2
    s = position(*LAST)
    assert {s.action_to_string(a): p for a, p in s.chance_outcomes()} == {
        "reveal G2": 0.5, "reveal R5": 0.5}


def test_the_last_gold_chip_found_ends_the_game_and_open_gold_does_not_count() -> None:
    # "The game also ends when there are no more gold nuggets, no matter where the
    # locomotive is located" (the last face-down gold chip turned over, U17 default): the
    # G2 now lies in front of P1 and "does not count". P1: 60 + 2*8 = 76, P2: 59 + 2*7 = 73.
    s = position(*LAST)
    s.apply_string("reveal G2")
    assert s.is_terminal()
    assert s.scores() == [76.0, 73.0]
    assert s.winners() == (0,)


def test_a_robber_against_a_miner_without_gold_passes_the_turn() -> None:
    # "If the miner doesn't have any gold, the player to the left takes the next turn": P2's
    # turn, who "can always pass on throwing the die": roll or pass, 2 moves. Gold is still
    # face down (the G2), so the game goes on.
    s = position(*LAST)
    s.apply_string("reveal R5")
    assert not s.is_terminal()
    assert s.current_player() == 1
    assert sorted(s.action_to_string(a) for a in s.legal_actions()) == ["pass", "roll"]
    assert s.scores() == [76.0, 73.0]


@pytest.mark.parametrize(("turns", "over"), [(0, False), (1, True)])
def test_the_turn_limit_ends_the_game_at_its_last_turn_not_before(turns: int, over: bool) -> None:
    # the turn limit (our extension, ``max_turns``: "turn limit (passing can make a game last
    # forever); at it the game is scored as if the train had arrived"): with 2, the turn that
    # makes the second ends the game, the first does not; nobody has gold, the three tie
    s = play(setup(max_turns=2, turns=turns), "pass")
    assert s.is_terminal() is over and s.observation(0)["turns_played"] == turns + 1
    if over:
        assert s.termination() == "turn-limit" and s.returns() == [0.0, 0.0, 0.0]
    else:
        assert s.termination() == "" and s.current_player() == 1


def test_the_duel_is_in_the_observation_while_it_lasts() -> None:
    # "The "attacking" player throws first. The player with the higher number wins the other
    # player's robber chips and all of that player's gold nuggets that are lying on the
    # table." P1 (2 gold) moves onto P2 (3 gold, 1 robber): the duel names the attacker and
    # the defender, then the attacker's 4; after P2's 2 it is over and P1 holds 5 and 1
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "d7:3:1:1:0"},
              revealed=["G2", "G3", "R1", "G1"])
    seen = []
    for move in ("move d7", "die 4", "die 2"):
        s.apply_string(move)
        o = s.observation(1)
        seen.append((o["phase"], o.get("duel"), [(m["gold"], m["robbers"]) for m in o["miners"]]))
    assert seen == [
        ("duel-a", {"attacker": 0, "defender": 1, "attacker_roll": 0}, [(2, 0), (3, 1), (0, 0)]),
        ("duel-d", {"attacker": 0, "defender": 1, "attacker_roll": 4}, [(2, 0), (3, 1), (0, 0)]),
        ("duel-roll", None, [(5, 1), (0, 0), (0, 0)]),
    ]


def test_tensor_chips_left_of_a_kind_the_mix_lacks_read_zero() -> None:
    # the tensor's last 10 cells: face-down chips left of each kind G1..G5, R1..R5 over
    # the mix's count; a mix without 5-nugget chips ("14,12,10,12,0": still 64 chips) has
    # none left of that kind, and reads 0 there, not 0/0
    game = motherlode.load("eureka", players=2, gold_mix="14,12,10,12,0")
    s = game.new_initial_state()
    assert s.observation_tensor(0)[-10:].tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1, 1]

"""One scenario per rule sentence of the Eureka rulebook, named after its section.

Board geography used below (the packaged designed board, see docs/rules/eureka.md):
red's house k14 with its door k13+l13; the North fields around c5..d9 (holes c4, c6, c7,
b8, c9; d4..d11 are the North Lake's far bank, d8 with a raft); the East Lake's city bank
i14, j14, l13, m12 (raft), o10, p9 and its field bank i15, i16, j17, k18, l17, m16, n15
(raft), o14, p13, q9, q12, r9, r10, r11; the railway u2 (next to the tunnel) .. k11 (the
centre of Golden City).
"""

from __future__ import annotations

import pytest

from motherlode.core.errors import IllegalActionError
from motherlode.core.protocol import CHANCE, TERMINAL
from tests.eureka.helpers import actions, game, moves, play, setup


def names(state, nodes):  # type: ignore[no-untyped-def]
    return {state.game.board.names[n] for n in nodes}


# -- Object of the Game ------------------------------------------------------------------


def test_object_most_points_when_the_train_arrives_wins() -> None:
    s = setup(loco=13, miners={0: "k14:0:0:7:1", 1: "n11:0:0:10:0", 2: "n8:0:0:3:0"},
              revealed=["G5", "G2", "G5", "G5", "G3", "R2"])
    play(s, "roll", "die L")
    assert s.is_terminal() and s.termination() == "train"
    assert s.scores() == [9.0, 10.0, 3.0]
    assert s.winners() == (1,) and s.returns() == [-1.0, 1.0, -1.0]


# -- Getting Ready -------------------------------------------------------------------------


def test_getting_ready_chips_face_down_on_every_mining_hole() -> None:
    s = game(players=4).new_initial_state()
    board = s.game.board
    assert sum(s.facedown) == len(board.holes) == 64
    assert all(s.facedown[h] for h in board.holes)
    assert s.bag == [14, 12, 10, 7, 5, 2, 3, 4, 4, 3]
    assert s.observation(0)["face_down_chips"] == [board.names[h] for h in board.holes]


def test_getting_ready_rafts_in_the_water_next_to_the_posts() -> None:
    s = game().new_initial_state()
    assert names(s, s.rafts) == {"h10", "d8", "m12", "n15", "m8", "n4"}
    for lake in s.game.board.lakes:  # one raft at a post on each bank
        assert len([r for r in s.rafts if r in lake.banks[0]]) == 1
        assert len([r for r in s.rafts if r in lake.banks[1]]) == 1


def test_getting_ready_train_on_the_first_track_space_next_to_the_tunnel() -> None:
    s = game().new_initial_state()
    board = s.game.board
    assert s.loco == 0 and board.names[s.loco_node()] == "u2"
    q, r = board.hexes[board.track[0]]
    assert max(abs(q), abs(r), abs(q + r)) == board.radius  # at the board's edge


def test_getting_ready_each_miner_in_the_house_of_his_colour() -> None:
    s = game(players=6).new_initial_state()
    assert s.pos == list(s.game.board.houses)
    assert [m["in_house"] for m in s.observation()["miners"]] == [True] * 6


# -- Rules of the Game ---------------------------------------------------------------------


def test_rules_youngest_player_begins_seat_zero() -> None:
    s = game(players=5).new_initial_state()
    assert s.current_player() == 0 and actions(s) == ["pass", "roll"]


def test_rules_youngest_player_begins_first_player_option() -> None:
    # "The youngest player begins": the engine cannot know ages, so first_player names the
    # seat (default 0); play then passes to the left as usual.
    s = game(players=5, first_player=3).new_initial_state()
    assert s.current_player() == 3 and s.turn == 3 and actions(s) == ["pass", "roll"]
    play(s, "pass")
    assert s.current_player() == 4
    play(s, "pass")
    assert s.current_player() == 0
    assert "turn=3 actor=3" in game(players=5, first_player=3).new_initial_state().serialize()


def test_rules_house_left_only_through_its_two_hex_door() -> None:
    s = setup(phase="move", die=2)
    assert moves(s) == {"j12", "j13", "k12", "l12", "l13", "k13", "m12"}


def test_rules_house_entered_only_through_the_door() -> None:
    # j13 touches red's house k14 but is wall, not door: one step cannot go in (red won a
    # duel over blue there and moves away one hex)...
    s = setup(phase="retreat", die=1, miners={0: "j13:2:0:0:0", 1: "j13:0:0:0:0"},
              revealed=["G2"])
    assert "k14" not in moves(s)
    # ...from the door it can.
    s = setup(phase="retreat", die=1, miners={0: "k13:2:0:0:0", 1: "k13:0:0:0:0"},
              revealed=["G2"])
    assert "k14" in moves(s)


# -- The Die -------------------------------------------------------------------------------


def test_die_moves_exactly_the_number_and_occupied_hexes_count() -> None:
    # c7 is two hexes from c5 only through c6, where blue stands.
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0", 1: "c6:0:0:0:0"})
    assert "c7" in moves(s)
    play(s, "move c7")
    assert s.phase == 4  # landed on c7's chip: two hexes, the occupied c6 counted as one


def test_die_no_moving_backwards_and_forwards_between_two_hexes() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"})
    assert "c5" not in moves(s)  # c5 -> x -> c5 is back and forth
    s = setup(phase="move", die=3, miners={0: "c5:0:0:0:0"})
    assert "c5" in moves(s)  # c5 -> c6 -> b5 -> c5 enters c5 again, legally


def test_die_locomotive_moves_the_train_not_the_miner() -> None:
    s = setup(miners={0: "c5:2:0:0:0"}, revealed=["G2"])
    play(s, "roll", "die L")
    assert s.loco == 1 and names(s, [s.pos[0]]) == {"c5"}
    assert s.current_player() == 1 and s.phase == 0


def test_die_players_may_not_jump_over_the_locomotive() -> None:
    free = setup(phase="move", die=2, miners={0: "t7:0:0:0:0"})
    assert "t5" in moves(free)
    blocked = setup(phase="move", die=2, loco=5, miners={0: "t7:0:0:0:0"})  # train on t6
    assert "t5" not in moves(blocked) and "t6" not in moves(blocked)
    with pytest.raises(IllegalActionError, match="not exactly 2 hexes"):
        blocked.apply_string("move t5")


def test_die_destinations_are_offered_not_paths() -> None:
    s = setup(phase="move", die=6, miners={0: "c5:0:0:0:0"})
    acts = actions(s)
    assert len(acts) == len(set(acts)) and all(a.startswith("move ") for a in acts)


# -- Gold Discovery Areas --------------------------------------------------------------------


def test_gold_discovery_landing_on_a_chip_turns_it_over() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"})
    play(s, "move c7")
    assert s.current_player() == CHANCE
    outcomes = dict((s.action_to_string(a), p) for a, p in s.chance_outcomes())
    assert outcomes["reveal G1"] == pytest.approx(14 / 64)
    assert outcomes["reveal R5"] == pytest.approx(3 / 64)


def test_gold_discovery_gold_lies_in_front_of_the_player_then_left_plays() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0"})
    play(s, "move c7", "reveal G3")
    assert s.gold[0] == 3 and not s.facedown[s.game.board.index["c7"]]
    assert s.current_player() == 1  # clockwise: the next seat on the left
    assert s.scores()[0] == 0.0  # not safe, not counted


def test_gold_discovery_house_entered_with_the_exact_number_deposits_gold_and_robbers() -> None:
    s = setup(phase="move", die=2, miners={0: "j13:4:1:0:0"}, revealed=["G4", "R2"])
    assert "k14" in moves(s)
    play(s, "move k14")
    assert (s.gold[0], s.robbers[0], s.house_gold[0], s.house_robbers[0]) == (0, 0, 4, 1)
    assert s.scores()[0] == 6.0 and s.current_player() == 1


def test_gold_discovery_only_the_own_house_can_be_entered() -> None:
    s = setup(phase="move", die=2, turn=1, miners={1: "j13:0:0:0:0"})
    assert "k14" not in moves(s)
    with pytest.raises(IllegalActionError, match="red house"):
        s.apply_string("move k14")


def test_gold_discovery_leave_the_house_on_the_following_move() -> None:
    s = setup(turn=0, miners={0: "k14:0:0:4:0"}, revealed=["G4"])
    play(s, "roll", "die 2", "move j12")
    assert names(s, [s.pos[0]]) == {"j12"} and s.house_gold[0] == 4


# -- Gold Miners versus Robbers ----------------------------------------------------------------


def _robber_turned(hat: int, gold: int = 3, robbers: int = 0):  # type: ignore[no-untyped-def]
    revealed = ["G3"] if gold == 3 else []
    revealed += ["R1"] * robbers
    s = setup(phase="move", die=2, miners={0: f"c5:{gold}:{robbers}:0:0"}, revealed=revealed)
    return play(s, "move c7", f"reveal R{hat}")


def test_robbers_the_finder_throws_the_defence_die_and_ties_are_thrown_again() -> None:
    s = _robber_turned(3)
    assert s.current_player() == CHANCE and s.phase == 5
    out = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert set(out) == {"die L", "die 2", "die 4", "die 5", "die 6"}  # a 3 is thrown again
    assert all(p == pytest.approx(0.2) for p in out.values())


def test_robbers_higher_throw_keeps_the_gold_and_captures_the_robber() -> None:
    s = play(_robber_turned(3), "die 5")
    assert (s.gold[0], s.robbers[0]) == (3, 1) and not s.stacks
    assert s.current_player() == 1


def test_robbers_lower_throw_gold_stacked_under_the_robber_and_miner_moved_away() -> None:
    s = play(_robber_turned(3), "die 2")
    c7 = s.game.board.index["c7"]
    assert s.stacks == {c7: (3, 3)} and s.gold[0] == 0
    assert s.current_player() == 0 and s.die == 2 and s.phase == 6
    assert "c7" not in moves(s) and {"b8", "d9"} <= moves(s)


def test_robbers_moved_away_miner_may_not_turn_over_the_chip_he_lands_on() -> None:
    s = play(_robber_turned(3), "die 2", "move b8")
    assert s.facedown[s.game.board.index["b8"]] and s.current_player() == 1


def test_robbers_locomotive_counts_one_and_the_train_stays() -> None:
    s = play(_robber_turned(2), "die L")
    assert s.loco == 0 and s.die == 1 and s.gold[0] == 0 and s.phase == 6


def test_robbers_a_miner_without_gold_does_not_fight() -> None:
    s = _robber_turned(4, gold=0, robbers=1)
    c7 = s.game.board.index["c7"]
    assert s.current_player() == 1 and s.stacks == {c7: (4, 0)}
    assert s.robbers[0] == 1  # a robber chip takes gold only


def test_robbers_robber_and_his_gold_captured_by_any_player_landing_on_him() -> None:
    s = setup(turn=1, phase="move", die=2, miners={1: "c5:0:0:0:0"}, robbers="c7:3:3",
              revealed=["G3", "R3"])
    play(s, "move c7")
    assert (s.gold[1], s.robbers[1]) == (3, 1) and not s.stacks
    assert s.current_player() == 2  # no roll needed


# -- Gold Miners versus Gold Miners -------------------------------------------------------------


def _duel() -> object:
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "d7:3:1:1:0"},
              revealed=["G2", "G3", "R1", "G1"])
    return play(s, "move d7")


def test_miners_landing_on_a_miner_starts_a_duel_attacker_throws_first() -> None:
    s = _duel()
    assert s.current_player() == CHANCE and s.phase == 7  # attacker's roll
    play(s, "die 4")
    out = [s.action_to_string(a) for a, _ in s.chance_outcomes()]
    assert out == ["die L", "die 2", "die 3", "die 5", "die 6"]  # a tie is thrown again


def test_miners_higher_throw_wins_the_others_gold_and_robbers_on_the_table() -> None:
    s = play(_duel(), "die 4", "die 2")
    assert (s.gold[0], s.robbers[0], s.gold[1], s.robbers[1]) == (5, 1, 0, 0)
    assert s.house_gold[1] == 1  # the house is safe


def test_miners_winner_throws_again_and_moves_away_the_loser_stays() -> None:
    s = play(_duel(), "die 4", "die 2", "die 3")
    assert s.current_player() == 0 and s.die == 3 and "d7" not in moves(s)
    play(s, "move c6")
    assert names(s, [s.pos[1]]) == {"d7"} and s.current_player() == 1
    assert s.facedown[s.game.board.index["c6"]]  # no chip turned over after moving away


def test_miners_defender_can_win_and_moves_away_then_the_attackers_left_plays() -> None:
    s = play(_duel(), "die 2", "die 5")
    assert (s.gold[1], s.robbers[1], s.gold[0]) == (5, 1, 0)
    play(s, "die L")  # the move-away throw: the locomotive counts one
    assert s.current_player() == 1 and s.die == 1 and s.loco == 0
    play(s, "move d6")
    assert s.current_player() == 1 and s.phase == 0 and s.turn == 1


def test_miners_locomotive_in_a_duel_counts_one_and_the_engine_stays() -> None:
    s = play(_duel(), "die L")
    assert s.duel == (0, 1, 1) and s.loco == 0
    assert "die L" not in [s.action_to_string(a) for a, _ in s.chance_outcomes()]


def test_miners_without_gold_or_robbers_share_the_hex() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0", 1: "d7:0:0:0:0"})
    play(s, "move d7")
    assert s.pos[0] == s.pos[1] and s.current_player() == 1


def test_miners_duel_when_only_the_attacker_has_gold() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "d7:0:0:0:0"},
              revealed=["G2"])
    play(s, "move d7")
    assert s.phase == 7


# -- The Gold Train ------------------------------------------------------------------------------


def test_gold_train_miner_on_the_needed_space_moved_behind_and_forfeits() -> None:
    s = setup(loco=3, miners={1: "u6:2:1:4:0"}, revealed=["G2", "R2", "G4"])
    play(s, "roll", "die L")
    assert names(s, [s.loco_node()]) == {"u6"} and names(s, [s.pos[1]]) == {"u5"}
    assert (s.gold[0], s.robbers[0], s.gold[1], s.robbers[1]) == (2, 1, 0, 0)
    assert s.house_gold[1] == 4


def test_gold_train_two_miners_go_to_the_first_empty_spaces_behind() -> None:
    s = setup(loco=3, miners={1: "u6:0:0:0:0", 2: "u6:0:0:0:0"})
    play(s, "roll", "die L")
    assert names(s, [s.pos[1]]) == {"u5"} and names(s, [s.pos[2]]) == {"u4"}


def test_gold_train_the_engineers_own_miner_moves_back_and_keeps_his_gold() -> None:
    s = setup(loco=3, miners={0: "u6:2:0:0:0"}, revealed=["G2"])
    play(s, "roll", "die L")
    assert names(s, [s.pos[0]]) == {"u5"} and s.gold[0] == 2


# -- Rafts ----------------------------------------------------------------------------------------


def test_rafts_lakes_crossed_only_by_raft_never_walked() -> None:
    s = setup(phase="move", die=6)
    kinds = s.game.board.kind
    assert all(kinds[s.game.board.index[h]] != 3 for h in moves(s))


EAST_FIELD_BANK = {"i15", "i16", "j17", "k18", "l17", "m16", "n15", "o14", "p13", "q9", "q12",
                   "r9", "r10", "r11"}
NORTH_FIELD_BANK = {"d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "e4", "e12", "f4", "f13",
                    "g5", "g13"}


def test_rafts_landed_on_only_with_an_exact_throw_then_cross() -> None:
    s = setup(phase="move", die=2)
    play(s, "move m12")  # the raft moored at m12, on the East Lake's city bank
    assert actions(s)[0] == "stay"
    assert {a.split()[1] for a in actions(s)[1:]} == EAST_FIELD_BANK - {"n15"}  # n15: a raft
    play(s, "cross m16")
    assert names(s, [s.pos[0]]) == {"m16"} and "m16" in names(s, s.rafts)
    assert "m12" not in names(s, s.rafts) and s.current_player() == 1


def test_rafts_cross_to_any_space_on_the_opposite_banks_of_the_same_lake() -> None:
    # "may immediately move the raft and the gold miner figure across the lake, to any space
    # on the opposite banks of the same lake": every land space of the far bank touching the
    # lake, except one holding the lake's other raft (d8) or another figure (blue at d5).
    s = setup(phase="raft", miners={0: "h10:0:0:0:0", 1: "d5:0:0:0:0"})
    assert actions(s) == ["stay"] + [f"cross {h}" for h in sorted(
        NORTH_FIELD_BANK - {"d8", "d5"}, key=s.game.board.index.__getitem__)]
    for h in ("d8", "d5"):
        with pytest.raises(IllegalActionError, match="no raft and no figure"):
            s.clone().apply_string(f"cross {h}")


def test_rafts_a_raft_lies_at_its_bank_space_and_is_passed_by_land() -> None:
    # A raft is boarded only by a move ending at its space ("only with an exact throw");
    # a move passing that land space goes on and boards nothing.
    s = setup(phase="move", die=3, miners={0: "l13:0:0:0:0"})
    assert "m12" in moves(s) and "n10" in moves(s)  # n10: l13 -> m12 -> m11 -> n10, say
    play(s, "move n10")
    assert s.current_player() == 1 and "m12" in names(s, s.rafts)


def test_rafts_may_stay_instead_of_crossing() -> None:
    s = play(setup(phase="move", die=2), "move m12", "stay")
    assert names(s, [s.pos[0]]) == {"m12"} and s.current_player() == 1
    assert s.observation()["miners"][0]["on_raft"]


def test_rafts_next_turn_move_off_leaving_the_raft_for_others() -> None:
    s = setup(miners={0: "m16:0:0:0:0"}, rafts=["h10", "d8", "m12", "m16", "m8", "n4"])
    play(s, "roll", "die 2", "move m18")
    assert "m16" in names(s, s.rafts) and s.current_player() == 1
    # The raft left on the bank can be used by another player in his turn.
    s = setup(turn=1, phase="move", die=2, miners={0: "m18:0:0:0:0", 1: "l17:0:0:0:0"},
              rafts=["h10", "d8", "m12", "m16", "m8", "n4"])
    play(s, "move m16")
    assert s.phase == 3 and "cross o10" in actions(s)


def test_rafts_only_one_figure_on_a_raft() -> None:
    s = setup(phase="move", die=2, turn=1, miners={0: "m12:0:0:0:0", 1: "k13:0:0:0:0"})
    assert "m12" not in moves(s)
    with pytest.raises(IllegalActionError, match="only one figure"):
        s.apply_string("move m12")


def test_rafts_cross_only_to_the_opposite_bank_of_the_same_lake() -> None:
    s = play(setup(phase="move", die=2), "move m12")
    for other in ("d4", "i14", "n4"):  # another lake, the same bank, another lake's raft
        with pytest.raises(IllegalActionError, match="opposite bank"):
            s.clone().apply_string(f"cross {other}")


def test_rafts_gold_is_safe_while_crossing() -> None:
    s = setup(phase="move", die=2, miners={0: "k13:5:0:0:0"}, revealed=["G5"])
    play(s, "move m12", "cross m16")
    assert s.gold[0] == 5 and s.check_invariants() is None
    # Nobody can land on the rider while he stands on the raft at the far bank.
    s = setup(turn=1, phase="move", die=2, miners={0: "m16:5:0:0:0", 1: "l17:0:0:0:0"},
              rafts=["h10", "d8", "m16", "n15", "m8", "n4"], revealed=["G5"])
    assert "m16" not in moves(s)


def test_die_revisits_a_miner_may_loop_back_onto_the_raft_he_just_left() -> None:
    # "a hexagon may be entered more than once, as long as the player is not simply moving
    # backwards and forwards" and "Only one figure may stand on a raft": red on the raft at
    # h10 with a 3 goes h10 -> h9 -> i10 -> h10; the raft is empty once he steps off it.
    s = setup(4, phase="move", die=3, miners={0: "h10:0:0:0:0"})
    assert "h10" in moves(s)
    play(s, "move h10")
    assert s.phase == 3 and "cross d4" in actions(s)  # on the raft again: it may cross
    # With another figure on it, the raft is no destination (item of the same rule).
    s = setup(4, phase="move", die=3, miners={0: "i10:0:0:0:0", 1: "h10:0:0:0:0"})
    assert "h10" not in moves(s)


# -- End of the Game -------------------------------------------------------------------------


def test_end_the_train_reaching_the_last_space_in_golden_city_ends_the_game() -> None:
    s = setup(loco=13)
    play(s, "roll", "die L")
    assert s.current_player() == TERMINAL and s.termination() == "train"
    assert s.game.board.names[s.loco_node()] == "k11"


def test_end_only_house_contents_count_nugget_one_robber_two() -> None:
    s = setup(loco=13, miners={0: "c5:9:1:2:2", 1: "n11:0:0:5:0"},
              revealed=["G4", "G5", "G2", "G5", "R1", "R1", "R2"])
    play(s, "roll", "die L")
    assert s.scores() == [6.0, 5.0, 0.0] and s.winners() == (0,)


def test_end_ties_share_the_victory() -> None:
    s = setup(loco=13, miners={0: "k14:0:0:4:0", 1: "n11:0:0:2:1"}, revealed=["G4", "G2", "R1"])
    play(s, "roll", "die L")
    assert s.winners() == (0, 1) and s.returns() == [1.0, 1.0, -1.0]


def _last_gold(**config: object):  # type: ignore[no-untyped-def]
    revealed = ["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 4
    return setup(phase="move", die=2, miners={0: "c5:0:0:60:0", 1: "n11:0:0:56:0"},
                 revealed=revealed, keep=["c7"], **config)


def test_end_no_more_gold_nuggets_ends_the_game_wherever_the_train_is() -> None:
    s = play(_last_gold(), "move c7", "reveal G5")
    assert s.is_terminal() and s.termination() == "nuggets" and s.loco == 0
    assert s.scores()[:2] == [60.0, 56.0]


def test_end_no_more_gold_nuggets_banked_variant_waits_for_the_gold_to_be_banked() -> None:
    s = play(_last_gold(nuggets_end="banked"), "move c7", "reveal G5")
    assert not s.is_terminal() and s.gold[0] == 5
    s = setup(phase="move", die=2, miners={0: "j13:5:0:60:0", 1: "n11:0:0:56:0"},
              revealed=["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 5,
              nuggets_end="banked")
    play(s, "move k14")
    assert s.is_terminal() and s.termination() == "nuggets" and s.scores()[0] == 65.0


def _ended_by_the_train():  # type: ignore[no-untyped-def]
    return play(setup(loco=13), "roll", "die L")


def _ended_with_the_nuggets_banked():  # type: ignore[no-untyped-def]
    s = setup(phase="move", die=2, miners={0: "j13:5:0:60:0", 1: "n11:0:0:56:0"},
              revealed=["G1"] * 14 + ["G2"] * 12 + ["G3"] * 10 + ["G4"] * 7 + ["G5"] * 5,
              nuggets_end="banked")
    return play(s, "move k14")


def _ended_by_the_turn_limit():  # type: ignore[no-untyped-def]
    return play(setup(max_turns=2), "pass", "pass")


@pytest.mark.parametrize(
    ("ending", "why"),
    [
        (_ended_by_the_train, "train"),
        (lambda: play(_last_gold(), "move c7", "reveal G5"), "nuggets"),
        (_ended_with_the_nuggets_banked, "nuggets"),
        (_ended_by_the_turn_limit, "turn-limit"),
    ],
    ids=["train", "nuggets-found", "nuggets-banked", "turn-limit"],
)
def test_end_the_outcome_says_which_end_was_reached(ending, why: str) -> None:  # type: ignore[no-untyped-def]
    s = ending()
    outcome = s.outcome()
    assert outcome is not None and outcome.termination == why == s.termination()
    assert outcome.scores == tuple(s.scores()) and outcome.winners == s.winners()
    assert s.observation()["end"] == why
    assert s.end_reason() == why  # the old name, an alias for one release


def test_end_a_running_game_has_no_termination() -> None:
    s = setup()
    assert s.termination() == "" and s.outcome() is None and s.end_reason() is None


# -- Tips for Clever Gold Miners ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["k14", "c5", "m12"])
def test_tips_a_player_can_always_pass(where: str) -> None:
    s = setup(miners={0: f"{where}:0:0:0:0"})
    assert actions(s) == ["pass", "roll"]
    before = s.serialize()
    play(s, "pass")
    assert s.current_player() == 1 and s.pos[0] == s.game.board.index[where]
    assert s.serialize() != before and s.turns == 1


def test_tips_passing_forever_meets_the_documented_turn_limit() -> None:
    s = setup(max_turns=5, miners={0: "k14:0:0:3:0"}, revealed=["G3"])
    for _ in range(5):
        play(s, "pass")
    assert s.is_terminal() and s.termination() == "turn-limit"
    assert s.winners() == (0,)


# -- Interpretations of unclear sentences (docs/rules/eureka.md) ---------------------------------


def test_unclear_leaving_and_reentering_the_house_in_one_throw_is_a_legal_move() -> None:
    s = setup(phase="move", die=3)
    assert "k14" in moves(s)  # k14 -> k13 -> l13 -> k14: no back-and-forth between two hexes


def test_unclear_moved_away_miner_does_not_capture_a_robber_stack() -> None:
    s = play(_robber_turned(3), "die 2")  # red lost 3 gold at c7 and must move 2 away
    s.stacks[s.game.board.index["b8"]] = (2, 0)  # as if a robber lay face up at b8
    s.facedown[s.game.board.index["b8"]] = False
    s.bag[6] -= 1  # that robber (hat 2) came out of the bag
    s.check_invariants()
    play(s, "move b8")
    assert s.game.board.index["b8"] in s.stacks and s.robbers[0] == 0


def test_unclear_moved_away_miner_landing_on_a_miner_does_not_fight() -> None:
    s = play(_robber_turned(3), "die 2")
    s.pos[1] = s.game.board.index["d9"]  # blue (no loot) stands where red must go
    play(s, "move d9")
    assert s.pos[0] == s.pos[1] and s.current_player() == 1 and s.phase == 0


def test_unclear_moved_away_miner_may_reach_his_house_and_deposit() -> None:
    s = setup(phase="retreat", die=2, miners={0: "j12:0:1:0:0", 1: "j12:0:0:0:0"},
              revealed=["R1"])
    play(s, "move k14")
    assert s.house_robbers[0] == 1 and s.current_player() == 1


def test_unclear_a_duel_replaces_turning_over_the_chip_under_the_defender() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:2:0:0:0", 1: "c7:0:0:0:0"},
              revealed=["G2"])
    play(s, "move c7", "die 5", "die 2", "die 2", "move b8")
    assert s.facedown[s.game.board.index["c7"]] and s.current_player() == 1


def test_unclear_sharing_miners_still_turn_over_the_chip() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0", 1: "c7:0:0:0:0"})
    play(s, "move c7")
    assert s.phase == 4  # reveal


def test_unclear_several_miners_on_the_hex_the_first_clockwise_with_loot_defends() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0", 1: "d7:0:0:0:0", 2: "d7:3:0:0:0"},
              revealed=["G3"])
    play(s, "move d7")
    assert s.duel == (0, 2, 0)


def test_unclear_robber_captured_first_then_the_duel_over_the_new_loot() -> None:
    s = setup(phase="move", die=2, miners={0: "c5:0:0:0:0", 1: "c7:0:0:0:0"},
              robbers="c7:4:0", revealed=["R4"])
    play(s, "move c7")
    assert s.robbers[0] == 1 and not s.stacks and s.duel == (0, 1, 0)

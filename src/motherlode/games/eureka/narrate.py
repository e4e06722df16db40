"""Eureka in words: one sentence per action (asked before it is applied) and the end.

Every action kind is narrated in the rulebook's words, naming hexes as the notation does
(``h14``) and seats as ``P1``..``Pn``; where the consequence matters (a house entered, a
robber captured, a duel started, the train pushing a miner off the track) the sentence is
read off a copy of the position with the action applied. Eureka hides nothing, so the
seat asking changes nothing.

>>> import motherlode
>>> state = motherlode.load("eureka", players=3).new_initial_state()
>>> state.narrate(state.string_to_action("roll"))
'P1 throws the die'
>>> state.apply_string("roll")
1
>>> state.narrate(state.string_to_action("die 4"))
'P1 throws a 4: the miner moves exactly 4 hexes'
"""

from __future__ import annotations

from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.eureka import game as g
from motherlode.games.eureka.board import GOLD_VALUES, HOUSE, ROBBER_HATS
from motherlode.games.eureka.game import EurekaState


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _loot(gold: int, robbers: int) -> str:
    parts = []
    if gold:
        parts.append(f"{gold} gold")
    if robbers:
        parts.append(f"{robbers} robber{'s' if robbers > 1 else ''}")
    return " and ".join(parts) or "nothing"


def _face(action: Action) -> str:
    """A fight throw: the locomotive counts one."""
    return "the locomotive (one)" if action == 0 else f"a {action + 1}"


def _after(state: EurekaState, action: Action) -> EurekaState:
    nxt = state.clone()
    nxt.apply_action(action)
    return nxt


def _ending(nxt: EurekaState) -> str:
    if not nxt.is_terminal():
        return ""
    why = nxt.termination()
    if why == "nuggets":
        return "; no more gold nuggets: the game is over"
    if why == "turn-limit":
        return "; the turn limit is reached: the game is over"
    return ""


def _train(state: EurekaState) -> str:
    nxt = _after(state, 0)
    board = state.game.board
    engineer = state.turn
    space = nxt.loco + 1
    last = len(board.track)
    text = (f"{_p(engineer)} throws the locomotive: the gold train moves to"
            f" {board.names[board.track[nxt.loco]]} (space {space} of {last})")
    for seat in range(state.game.num_players):
        if nxt.pos[seat] != state.pos[seat]:
            text += (f"; {_p(seat)}'s miner is pushed back to {board.names[nxt.pos[seat]]}")
            lost = _loot(state.gold[seat], state.robbers[seat])
            if seat != engineer and lost != "nothing":
                text += f" and forfeits {lost} to {_p(engineer)}"
    if nxt.loco == last - 1:
        text += "; the train reaches Golden City: the game is over"
    return text + _ending(nxt)


def _landing(state: EurekaState, action: Action, away: bool) -> str:
    """A regular move (``away=False``) or a move away, to ``action``'s hex."""
    board = state.game.board
    seat = state.actor
    if action == g.STAY:
        where = board.names[state.pos[seat]]
        return f"{_p(seat)}'s miner cannot move {state.die} hexes and stays at {where}"
    here = action - g.MOVE_BASE
    name = board.names[here]
    verb = "moves away to" if away else "moves to"
    nxt = _after(state, action)
    if board.kind[here] == HOUSE:
        banked = _loot(state.gold[seat], state.robbers[seat])
        pts = nxt.house_gold[seat] + 2 * nxt.house_robbers[seat]
        if banked == "nothing":
            return f"{_p(seat)}'s miner {verb} his house ({name}) with nothing to bank"
        return (f"{_p(seat)}'s miner {verb} his house ({name}) and banks {banked}"
                f" ({pts} points safe)")
    if nxt.phase == g.RAFT:
        lake = board.lakes[board.landing_lake[here]].name
        return f"{_p(seat)}'s miner {verb} the raft at {name} on the {lake}"
    if away:
        return f"{_p(seat)}'s miner {verb} {name} (he may not turn over a chip there)"
    text = f"{_p(seat)}'s miner {verb} {name}"
    stack = state.stacks.get(here)
    if stack is not None:
        text += f" and captures the robber (hat {stack[0]})"
        text += f" with the {stack[1]} gold under him" if stack[1] else ""
    if nxt.phase == g.DUEL_A:
        text += f"; {_p(nxt.duel[1])}'s miner is there: a duel, {_p(seat)} throws first"
    elif nxt.phase == g.REVEAL:
        text += " and turns over the chip there"
    return text + _ending(nxt)


def _reveal(state: EurekaState, action: Action) -> str:
    seat = state.actor
    name = state.game.board.names[state.pos[seat]]
    kind = action - g.CHIP_BASE
    nxt = _after(state, action)
    if kind < len(GOLD_VALUES):
        v = GOLD_VALUES[kind]
        text = f"Eureka! {_p(seat)}'s miner finds {v} gold nugget{'s' if v > 1 else ''} at {name}"
        return text + _ending(nxt)
    hat = ROBBER_HATS[kind - len(GOLD_VALUES)]
    text = f"{_p(seat)}'s miner reveals a robber (hat {hat}) at {name}"
    if state.gold[seat]:
        return text + f": {_p(seat)} must defend {state.gold[seat]} gold with the die"
    return text + f"; {_p(seat)} carries no gold, so there is no fight"


def _defend(state: EurekaState, action: Action) -> str:
    seat = state.actor
    hat = state.stacks[state.pos[seat]][0]
    head = f"{_p(seat)} throws {_face(action)} against the robber's hat {hat}"
    if action + 1 > hat:
        return head + f": {_p(seat)} keeps the gold and captures the robber"
    return (head + f": the robber takes {state.gold[seat]} gold and {_p(seat)}'s miner must"
            f" move away {action + 1} hex{'es' if action else ''}")


def _duel(state: EurekaState, action: Action) -> str:
    a, d, ra = state.duel
    if state.phase == g.DUEL_A:
        return f"{_p(a)} attacks and throws {_face(action)}"
    winner, loser = (a, d) if ra > action + 1 else (d, a)
    won = _loot(state.gold[loser], state.robbers[loser])
    head = f"{_p(d)} defends and throws {_face(action)}: {_p(winner)} wins the duel"
    if won == "nothing":
        return head + f" ({_p(loser)} had nothing in the open), then moves away"
    return head + f" and takes {won} from {_p(loser)}, then moves away"


def narrate(state: EurekaState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal in ``state``, not applied yet)."""
    ph = state.phase
    board = state.game.board
    actor = _p(state.actor)
    if ph == g.TURN:
        if action == g.ROLL_DIE:
            return f"{actor} throws the die"
        return f"{actor} passes" + _ending(_after(state, action))
    if ph == g.ROLL:
        if action == 0:
            return _train(state)
        return f"{actor} throws a {action + 1}: the miner moves exactly {action + 1} hexes"
    if ph == g.MOVE:
        return _landing(state, action, away=False)
    if ph == g.RETREAT:
        return _landing(state, action, away=True)
    if ph == g.RAFT:
        here = board.names[state.pos[state.actor]]
        if action == g.STAY:
            return f"{actor} stays on the raft at {here}"
        target = board.names[board.landings[action - state.game.cross_base]]
        lake = board.lakes[board.landing_lake[state.pos[state.actor]]].name
        text = f"{actor} rafts across the {lake} from {here} to {target}"
        return text + _ending(_after(state, action))
    if ph == g.REVEAL:
        return _reveal(state, action)
    if ph == g.DEFEND:
        return _defend(state, action)
    if ph in (g.DUEL_A, g.DUEL_D):
        return _duel(state, action)
    if ph == g.DUEL_ROLL:
        n = action + 1
        return f"{actor} throws {_face(action)} to move away {n} hex{'es' if n > 1 else ''}"
    raise AssertionError(f"eureka: no action in phase {g.PHASES[ph]}")  # pragma: no cover


REASONS = {
    "train": "the gold train reached the last track space in Golden City",
    "turn-limit": "the turn limit was reached (scored as if the train had arrived)",
}


def _robbers(count: int) -> str:
    """``1 robber × 2 =``, ``3 robbers × 2 =``: the breakdown's robber part, which states its
    own sum (a summary line reads "1 robber × 2 = 2")."""
    return f"{count} robber{'' if count == 1 else 's'} × 2 ="


def decision(state: EurekaState) -> str:
    """The decision in front of the seat to move, and the rulebook's section for it.

    >>> import motherlode
    >>> decision(motherlode.load("eureka", players=3).new_initial_state())
    'P1 throws the die (roll) or passes (pass) (rulebook: Rules of the Game, The Die)'
    """
    actor = _p(state.actor)
    ph = state.phase
    if ph == g.TURN:
        return (
            f"{actor} throws the die (roll) or passes (pass) (rulebook: Rules of the Game,"
            " The Die)"
        )
    if ph == g.MOVE:
        return (
            f"{actor} moves the miner exactly {state.die} hexes ('move h14'), never straight"
            " back and forth between two hexes nor over the locomotive (rulebook: The Die)"
        )
    if ph == g.RETREAT:
        return (
            f"{actor} moves the miner {state.die} hexes away ('move h14'); a chip landed on"
            " is not turned over (rulebook: Gold Miners versus Robbers, Gold Miners versus"
            " Gold Miners)"
        )
    if ph == g.RAFT:
        return (
            f"{actor} crosses the lake on the raft to a space of the opposite bank"
            " ('cross h14'), or stays (stay) (rulebook: Rafts)"
        )
    return f"{actor} to move"


def summary(state: EurekaState) -> Summary:
    """Why it ended, each seat's house (nuggets, robbers × 2) and the winners."""
    why = state.termination()
    if why == "nuggets":
        reason = ("there are no more gold nuggets: every gold chip has been turned over"
                  if state.game.cfg.nuggets_end == "found"
                  else "there are no more gold nuggets outside the houses")
    elif why == "turn-limit":
        reason = f"the turn limit of {state.game.cfg.max_turns} turns was reached"
        reason += " (scored as if the train had arrived)"
    else:
        reason = REASONS.get(why, "the game ended")
    seats = tuple(
        SeatResult(
            p,
            float(state.house_gold[p] + 2 * state.house_robbers[p]),
            (("gold in the house", float(state.house_gold[p])),
             (_robbers(state.house_robbers[p]), float(2 * state.house_robbers[p]))),
        )
        for p in range(state.game.num_players)
    )
    return Summary(reason, seats, state.winners())

"""El Dorado in words: one sentence per action (asked before it is applied) and the end.

Every action kind is narrated in the rulebook's words, naming the sheet's spaces as the
notation does (``e2``), the dice ``d0``..``d6`` and seats ``P1``..``Pn``; consequences (a
resource obtained, a settlement entered, the amulet's reward, El Dorado entered, the game
over) are read off a copy of the position with the action applied. All sheets are open,
so the seat asking changes nothing.

>>> import motherlode
>>> state = motherlode.load("eldorado").new_initial_state()
>>> state.narrate(state.string_to_action("roll d0=map"))
'the dice are rolled: d0 shows a map'
"""

from __future__ import annotations

from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.eldorado import game as g
from motherlode.games.eldorado.game import EldoradoState
from motherlode.games.eldorado.sheets import (
    COIN0,
    GOLDEN,
    MAP,
    PATH,
    SETTLEMENT,
    SIGNPOST,
    SYMBOLS,
)

SPECIAL_WORDS = {
    "reroll_all": "rolls all seven dice again before choosing",
    "take_two": "will choose two dice this turn",
    "use_twice": "will use the chosen die twice",
    "use_thrice": "will use the chosen die three times",
}


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _face(face: int) -> str:
    """``a torch``, ``2 coins``, ``the zero offering``."""
    if face == g.ZERO:
        return "the zero offering"
    if face > COIN0:
        c = face - COIN0
        return f"{c} coin{'s' if c > 1 else ''}"
    name = SYMBOLS[face]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _unit(state: EldoradoState, src: int) -> str:
    if src < g.NUM_DICE:
        return f"d{src} ({_face(state.held[src])})"
    if src == g.SRC_RES:
        res = state.game.sheet.resources[state.res_active]
        return f"the resource {res.id} ({_face(state.items[0])})"
    if src == g.SRC_REWARD:
        return "the signpost die (the amulet's reward)"
    d = src - g.SRC_COMBO
    return f"d{d} ({_face(state.held[d])}) with the {_face(state.items[0])} of the resource"


def _after(state: EldoradoState, action: Action) -> EldoradoState:
    nxt = state.clone()
    nxt.apply_action(action)
    return nxt


def _ending(state: EldoradoState, nxt: EldoradoState) -> str:
    if nxt.is_terminal():
        if nxt.termination() == "el-dorado":
            return "; the round is finished and the game is over"
        return "; the round limit is reached: the game is over"
    return ""


def _gained(state: EldoradoState, nxt: EldoradoState) -> str:
    """`` and obtains 3coins (3 coins)`` / `` and hires the guide`` for what ``nxt`` adds."""
    p = state.seat
    out = ""
    for res in state.game.sheet.resources:
        if nxt.obtained(p, res.index) and not state.obtained(p, res.index):
            if res.helper:
                out += f" and hires the {res.name}"
            else:
                out += f" and obtains {res.id}" + (f" ({res.name})" if res.name != res.id else "")
    return out


def _targeted(state: EldoradoState, action: Action) -> str:
    game = state.game
    sh = game.sheet
    p = state.seat
    src, target = divmod(action, game.nt)
    unit = _unit(state, src)
    nxt = _after(state, action)
    who = _p(p)
    if target >= game.ns:
        slot = target - game.ns
        res = sh.resources[sh.slot_owner[slot]]
        text = f"{who} uses {unit} to fill {sh.slot_label(slot)} in front of {res.id}"
        return text + _gained(state, nxt) + _ending(state, nxt)
    space = sh.spaces[target]
    label = space.label
    if space.kind == PATH:
        face = (state.held[src] if src < g.NUM_DICE else
                state.items[0] if src == g.SRC_RES else SIGNPOST)
        joker = face == SIGNPOST or (face == MAP and src < g.NUM_DICE
                                     and state.has(p, game.cartographer))
        how = f", the {SYMBOLS[face]} as a joker" if joker and face != space.symbol else ""
        text = f"{who} uses {unit} to fill {label} ({SYMBOLS[space.symbol]}{how})"
        new = [s for s in range(game.ns) if nxt.claimed[s] == p and state.claimed[s] < 0]
        if new:
            text += ": the first to find the amulet, the signpost die is the reward"
        return text + _gained(state, nxt) + _ending(state, nxt)
    if space.kind == SETTLEMENT:
        paid = nxt.paid[p][target]
        text = f"{who} pays {unit} towards the Muisca settlement {label}"
        if (nxt.visited[p] >> target) & 1:
            text += f" and enters it (fee {space.fee} paid)" + _gained(state, nxt)
        else:
            text += f" ({paid} of {space.fee} coins paid)"
        return text + _ending(state, nxt)
    coins = nxt.offers[p][-1][1]
    offer = f"{coins} coin{'s' if coins != 1 else ''}"
    if space.kind == GOLDEN:
        text = (f"{who} offers {offer} from {unit} in the golden temple {label} and enters"
                f" El Dorado")
        return text + _ending(state, nxt)
    text = f"{who} offers {offer} from {unit} in the temple {label}"
    if state.minima[target] < 0:
        text += f", the first offering there: the minimum is now {coins}"
    done = nxt.temples_offered(p)
    text += f" ({done} of {game.required} temples)"
    return text + _ending(state, nxt)


def narrate(state: EldoradoState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal in ``state``, not applied yet)."""
    game = state.game
    sh = game.sheet
    if state.phase == g.ROLL:
        d = state.to_roll[0]
        return f"the dice are rolled: d{d} shows {_face(game.dice[d][action])}"
    who = _p(state.seat)
    if action < game.choose_base:
        return _targeted(state, action)
    if action < game.activate_base:
        d = action - game.choose_base
        return f"{who} takes d{d} from the middle: {_face(state.middle[d])}"
    if action < game.ethno_action:
        res = sh.resources[action - game.activate_base]
        if res.special:
            return (f"{who} uses the special action {res.id} ({res.name}) and"
                    f" {SPECIAL_WORDS[res.special]}")
        items = [_face(i) for i in res.items] or (
            ["the zero offering"] if res.zero else [_face(COIN0 + res.coins)])
        return f"{who} uses the resource {res.id}: {' and '.join(items)}, to be used this turn"
    if action == game.ethno_action:
        n = sum(1 for f in state.middle if f >= 0)
        return f"{who}'s ethnographer re-rolls the {n} dice in the middle (a torch lies there)"
    if action < game.end_action:
        unit = _unit(state, action - game.discard_base)
        text = f"{who} discards {unit}: it has no use now"
        return text + _ending(state, _after(state, action))
    text = f"{who} ends the turn, keeping the optional resource for later"
    return text + _ending(state, _after(state, action))


def decision(state: EldoradoState) -> str:
    """The decision in front of the seat to move, and the rulebook's section for it.

    >>> import motherlode
    >>> print(decision(motherlode.deal(motherlode.load("eldorado"), seed=4)))
    ... # doctest: +NORMALIZE_WHITESPACE
    P1 takes one die from the middle of the table (rulebook: Course of Play, 2. The Player
    Chooses a Die)
    """
    who = _p(state.seat)
    if state.phase == g.START:
        return (
            f"{who} takes one die from the middle of the table (rulebook: Course of Play,"
            " 2. The Player Chooses a Die)"
        )
    if state.reward:
        return (
            f"{who} uses the signpost die, the amulet's reward, at once (rulebook: Map No. 1:"
            " Reward for Finding the Amulet)"
        )
    held = [f"d{d} ({_face(state.held[d])})" for d in range(g.NUM_DICE) if state.uses[d]]
    what = " and ".join(held) or "the chosen die"
    return (
        f"{who} uses {what}: to move along the route (a space of its symbol next to a"
        " visited one), to make an offering in a temple, or to fill a space in front of a"
        " resource; a resource obtained before may be used too, and a die with no use is"
        " discarded (rulebook: Course of Play, 3. The Player Uses the Die)"
    )


def summary(state: EldoradoState) -> Summary:
    """Who entered El Dorado, each seat's coins offered (the tie-break), the winners."""
    game = state.game
    n = game.num_players
    sh = game.sheet
    labels = [s.label for s in sh.spaces]
    entered = [p for p in range(n) if state.entered(p)]
    winners = state.winners()
    if entered:
        who = ", ".join(_p(p) for p in entered)
        reason = (f"{who} entered El Dorado (the golden temple {labels[sh.golden]}) and the"
                  f" round was finished in round {state.round}")
        if len(entered) > 1:
            reason += "; the most coins offered in temples breaks the tie"
        elif n > 1:
            reason += " (the coins offered in temples count only to break a tie)"
    else:
        reason = (f"the round limit of {game.cfg.max_rounds} rounds was reached and nobody"
                  " entered El Dorado")
        if n > 1:
            reason += "; the most temples offered in wins, then the most coins offered"
        else:
            reason += ": the solo expedition is lost"
    seats = []
    for p in range(n):
        breakdown = tuple(
            (f"temple {labels[s]}", float(c)) for s, c in state.offers[p] if s != sh.golden
        )
        seats.append(SeatResult(p, float(state.coins_offered(p)), breakdown))
    return Summary(reason, tuple(seats), winners)

"""El Dorado in words: one sentence per action (asked before it is applied) and the end.

Every action kind is told in the rulebook's own words, never in the notation: a die by
what it shows ("the die with 2 coins"), a resource by what it gives ("the resource with 2
machetes", "the right to a zero offering", "the special action to take two dice"), a
helper by name ("the cartographer"), the spaces in front of a resource by their symbols
("a map space", "a die space", "2 coin circles"); route spaces keep the column letter and
row number printed on the sheet (``c4``), and seats are ``P1``..``Pn``. Consequences (a
resource obtained, a settlement entered, the amulet's reward, El Dorado entered, the game
over) are read off a copy of the position with the action applied. All sheets are open, so
the seat asking changes nothing.

>>> import motherlode
>>> state = motherlode.load("eldorado").new_initial_state()
>>> state.narrate(state.string_to_action("roll d0=map"))
'all seven dice are rolled: a map'
"""

from __future__ import annotations

from collections import Counter

from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.eldorado import game as g
from motherlode.games.eldorado.game import EldoradoState
from motherlode.games.eldorado.sheets import (
    AMULET,
    COIN0,
    GOLDEN,
    MAP,
    PATH,
    SETTLEMENT,
    SIGNPOST,
    SLOT_ANY,
    SLOT_COIN,
    SYMBOLS,
    ResourceInfo,
)

SPECIAL_VERBS = {
    "reroll_all": "re-roll all the dice",
    "take_two": "take two dice",
    "use_twice": "use one die twice",
    "use_thrice": "use one die three times",
}
"""A special action named by what it lets the player do (Map No. 3, Map No. 4)."""

SPECIAL_THEN = {
    "reroll_all": "all seven dice are rolled again before {who} chooses one",
    "take_two": "{who} chooses two dice from the middle this turn",
    "use_twice": "{who} uses the chosen die two times this turn, one use after the other",
    "use_thrice": "{who} uses the chosen die three times this turn, one use after the other",
}

PLURALS = {"torch": "torches"}
PRONOUNS = {"cartographer": "them", "guide": "her", "ethnographer": "her"}
"""The helpers as the rulebook speaks of them ("they are great with maps", "she")."""


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _coins(c: int) -> str:
    return f"{c} coin{'s' if c != 1 else ''}"


def _face(face: int) -> str:
    """``a torch``, ``2 coins``, ``the zero offering``."""
    if face == g.ZERO:
        return "the zero offering"
    if face > COIN0:
        return _coins(face - COIN0)
    name = SYMBOLS[face]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _many(face: int, n: int) -> str:
    """``a machete``, ``2 machetes``, ``2 torches``."""
    if n == 1:
        return _face(face)
    name = SYMBOLS[face]
    return f"{n} {PLURALS.get(name, name + 's')}"


def _die(face: int) -> str:
    """``the die with a map``, ``the die with 2 coins`` (the rulebook's "a die with")."""
    return f"the die with {_face(face)}"


def resource_name(res: ResourceInfo) -> str:
    """A resource or helper as the rulebook names it.

    >>> from motherlode.games.eldorado.sheets import load_sheet
    >>> [resource_name(r) for r in load_sheet(2).resources]  # doctest: +NORMALIZE_WHITESPACE
    ['the resource with an amulet', 'the resource with a map', 'the resource with 2 paddles',
     'the resource with 2 coins', 'the resource with 4 coins', 'the resource with a signpost',
     'the right to a zero offering', 'the cartographer']
    """
    if res.helper:
        return f"the {res.name}"
    if res.special:
        return f"the special action to {SPECIAL_VERBS[res.special]}"
    if res.zero:
        return "the right to a zero offering"
    if res.items:
        counts = Counter(res.items)
        return "the resource with " + " and ".join(_many(f, n) for f, n in counts.items())
    return f"the resource with {_coins(res.coins)}"


def _slot_kind(kind: int, n: int = 1) -> str:
    """What a space in front of a resource shows: ``a map space``, ``a die space`` (any
    die), ``a coin circle`` (one coin; ``2 coin circles``), ``a 2-coin space``."""
    if kind == SLOT_COIN:
        return "a coin circle" if n == 1 else f"{n} coin circles"
    if kind == SLOT_ANY:
        what = "die"
    elif kind > SLOT_COIN:
        what = f"{kind - SLOT_COIN}-coin"
    else:
        what = SYMBOLS[kind]
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what} space"


def _guides(state: EldoradoState, face: int) -> str:
    """What a guide adds to a die's coins when it is used for coins now."""
    game = state.game
    p = state.seat
    text = ""
    if face == AMULET and state.has(p, game.guide2):
        text = " (worth 2 coins with the guide)"
    if state.die_coins(p, face) and not state.bonus_used and state.has(p, game.guide1):
        text += " and the guide's extra coin"
    return text


def _unit(state: EldoradoState, src: int, coins: bool = False) -> str:
    """The die, resource or reward used; ``coins``: for its coins (the guides count)."""
    if src < g.NUM_DICE:
        face = state.held[src]
        return _die(face) + (_guides(state, face) if coins else "")
    if src == g.SRC_RES:
        face = state.items[0]
        res = state.game.sheet.resources[state.res_active]
        if len(res.items) > 1:
            which = "the other" if len(state.items) == 1 else "one"
            return f"{which} {SYMBOLS[face]} of {resource_name(res)}"
        return resource_name(res)
    if src == g.SRC_REWARD:
        return "the signpost die (the amulet's reward)"
    d = src - g.SRC_COMBO
    res = state.game.sheet.resources[state.res_active]
    return f"{_die(state.held[d])}{_guides(state, state.held[d])} and {resource_name(res)}"


def _face_of(state: EldoradoState, src: int) -> int:
    if src < g.NUM_DICE:
        return state.held[src]
    if src == g.SRC_RES:
        return state.items[0]
    return SIGNPOST


def _joker(state: EldoradoState, src: int, face: int, wanted: int) -> str:
    """`` as a joker`` when a signpost stands for another symbol, `` as a signpost (the
    cartographer's help)`` for a die with a map that does."""
    if face == wanted or wanted >= len(SYMBOLS):
        return ""
    if face == SIGNPOST:
        return " as a joker"
    if face == MAP and src < g.NUM_DICE and state.has(state.seat, state.game.cartographer):
        return " as a signpost (the cartographer's help)"
    return ""


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


def _gained(state: EldoradoState, nxt: EldoradoState, skip: int = -1) -> str:
    """`` and obtains the resource with 3 coins`` / `` and hires the ethnographer`` for
    what ``nxt`` adds (``skip``: the resource the sentence has already named: ``it``)."""
    p = state.seat
    out = ""
    for res in state.game.sheet.resources:
        if nxt.obtained(p, res.index) and not state.obtained(p, res.index):
            if res.helper:
                out += " and hires " + (
                    PRONOUNS.get(res.name, "them") if res.index == skip else f"the {res.name}")
            else:
                out += " and obtains " + ("it" if res.index == skip else resource_name(res))
    return out


def _temples(state: EldoradoState, nxt: EldoradoState) -> str:
    """`` (1 of the 2 temples needed)`` after an offering in an ordinary temple."""
    done = nxt.temples_offered(state.seat)
    need = state.game.required
    if done < need:
        return f" ({done} of the {need} temples needed)"
    if done == need:
        return f" ({done} of the {need} temples needed: the golden temple may now be entered)"
    return f" ({done} temples offered in, {need} needed)"


def _fill(state: EldoradoState, action: Action, src: int, slot: int) -> str:
    sh = state.game.sheet
    p = state.seat
    nxt = _after(state, action)
    res = sh.resources[sh.slot_owner[slot]]
    kind = sh.slot_kind[slot]
    face = _face_of(state, src)
    mask = state.game.res_mask[res.index]
    now = bin(nxt.filled[p] & mask).count("1")
    n = now - bin(state.filled[p] & mask).count("1")
    coins = kind >= SLOT_COIN
    what = _slot_kind(kind, n)
    done = nxt.obtained(p, res.index)
    if done:
        what = "the last " + what.split(" ", 1)[1] if n == 1 else f"the last {what}"
    text = (f"{_p(p)} uses {_unit(state, src, coins)}{_joker(state, src, face, kind)} to fill"
            f" {what} in front of {resource_name(res)}")
    lost = 0
    if kind == SLOT_COIN:
        lost = (state.die_coins(p, face) if src < g.NUM_DICE else face - COIN0) - n
    if not done:
        text += f" ({now} of {len(res.slots)} filled" + (f"; {_coins(lost)} lost)" if lost else ")")
    text += _gained(state, nxt, res.index)
    if done and lost:
        text += f" ({_coins(lost)} lost)"
    return text + _ending(state, nxt)


def _targeted(state: EldoradoState, action: Action) -> str:
    game = state.game
    sh = game.sheet
    p = state.seat
    src, target = divmod(action, game.nt)
    if target >= game.ns:
        return _fill(state, action, src, target - game.ns)
    nxt = _after(state, action)
    who = _p(p)
    space = sh.spaces[target]
    label = space.label
    if space.kind == PATH:
        face = _face_of(state, src)
        joker = _joker(state, src, face, space.symbol)
        where = "begin the route at" if not state.visited[p] else "move to"
        text = (f"{who} uses {_unit(state, src)}{joker} to {where} the"
                f" {SYMBOLS[space.symbol]} space {label}")
        new = [s for s in range(game.ns) if nxt.claimed[s] == p and state.claimed[s] < 0]
        if new:
            text += (f": the first to find the amulet, {who} gains the signpost die as the"
                     " reward, to use at once")
        return text + _gained(state, nxt) + _ending(state, nxt)
    unit = _unit(state, src, coins=True)
    if space.kind == SETTLEMENT:
        paid = nxt.paid[p][target] - state.paid[p][target]
        text = f"{who} uses {unit} to pay {_coins(paid)} to the Muisca settlement {label}"
        if (nxt.visited[p] >> target) & 1:
            face = _face_of(state, src)
            lost = state.die_coins(p, face) - paid
            text += f" and enters it (its fee of {space.fee} is paid"
            text += f"; {_coins(lost)} lost)" if lost > 0 else ")"
            text += _gained(state, nxt)
        else:
            text += f" ({nxt.paid[p][target]} of its fee of {space.fee} paid)"
        return text + _ending(state, nxt)
    coins = nxt.offers[p][-1][1]
    if space.kind == GOLDEN:
        text = (f"{who} uses {unit} to offer {_coins(coins)} in the golden temple {label} and"
                " enters El Dorado")
        return text + _ending(state, nxt)
    text = f"{who} uses {unit} to offer {_coins(coins)} in the temple {label}"
    if state.minima[target] < 0:
        text += ", the first offering there"
        text += (f": the others must offer at least {_coins(coins)} there" if coins
                 else ": the others may offer any number of coins there, 0 too")
    return text + _temples(state, nxt) + _ending(state, nxt)


def _rolled(state: EldoradoState, action: Action) -> str:
    """``all seven dice are rolled: a map``: one die of a roll, said so that a log folds a
    roll's sentences into one line (``core.narration.fold``)."""
    game = state.game
    d = state.to_roll[0]
    total = len(state.to_roll) + sum(1 for f in state.middle if f >= 0)
    if total == g.NUM_DICE:
        head = "all seven dice are rolled"
    elif total == 1:
        head = "the die in the middle is rolled again"
    else:
        head = f"the {total} dice in the middle are rolled again"
    return f"{head}: {_face(game.dice[d][action])}"


def narrate(state: EldoradoState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal in ``state``, not applied yet)."""
    game = state.game
    sh = game.sheet
    if state.phase == g.ROLL:
        return _rolled(state, action)
    who = _p(state.seat)
    if action < game.choose_base:
        return _targeted(state, action)
    if action < game.activate_base:
        d = action - game.choose_base
        return f"{who} takes {_die(state.middle[d])} from the middle"
    if action < game.ethno_action:
        res = sh.resources[action - game.activate_base]
        if res.special:
            then = SPECIAL_THEN[res.special].format(who=who)
            return f"{who} uses {resource_name(res)}: {then}"
        text = f"{who} uses {resource_name(res)} this turn"
        if len(res.items) > 1:
            kinds = set(res.items)
            each = SYMBOLS[res.items[0]] if len(kinds) == 1 else "item"
            text += f", each {each} on its own"
        return text
    if action == game.ethno_action:
        n = sum(1 for f in state.middle if f >= 0)
        dice = "the die" if n == 1 else f"the {n} dice"
        return f"{who}'s ethnographer re-rolls {dice} in the middle (a torch lies there)"
    if action < game.end_action:
        unit = _unit(state, action - game.discard_base)
        text = f"{who} discards {unit}: it has no use now"
        return text + _ending(state, _after(state, action))
    text = f"{who} ends the turn without using a resource: its resources keep for later turns"
    return text + _ending(state, _after(state, action))


def decision(state: EldoradoState) -> str:
    """The decision in front of the seat to move, and the rulebook's section for it (the
    dice named with what is typed for them: ``the die with a map (d0)``).

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
    held = [f"{_die(state.held[d])} (d{d})" for d in range(g.NUM_DICE) if state.uses[d]]
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
            (f"temple {labels[s]} =", float(c)) for s, c in state.offers[p] if s != sh.golden
        )
        seats.append(SeatResult(p, float(state.coins_offered(p)), breakdown))
    return Summary(reason, tuple(seats), winners)

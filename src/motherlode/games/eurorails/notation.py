"""Eurorails action notation (documented in docs/rules/eurorails.md, part 2).

Every action string names what it acts on, so it parses without the position, except
``move`` (a target milepost next to the train) and ``deliver`` (a card in the hand)::

    build 612>613        upgrade Fast Freight     end turn
    crossgrade Heavy Freight   (Crossgrading)
    discard #12          (Fast Game: a card discarded after the first 2 building turns)
    borrow 12            backtrack   (Mercy)
    deliver Wine to Paris #12   (also an open contract on the table: Challenge Game)
    move 613             chunnel                  ferry P2
    build 878>924 (Paris)   move 924 (Paris)   (a city label may follow; it is ignored)
    pick Wine            drop Wine                deliver Wine to Paris #12
    end move             discard hand             start Paris
    lose Wine            draw #12   (chance)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action
from motherlode.games.eurorails.board import DIRS

if TYPE_CHECKING:
    from motherlode.games.eurorails.game import EurorailsState

_BUILD = re.compile(r"^build (\d+)\s*>\s*(\d+)$")
_MOVE = re.compile(r"^move (\d+)$")
_FERRY = re.compile(r"^ferry p(\d)$")
_DELIVER = re.compile(r"^deliver (.+) to (.+) #(\d+)$")
_DRAW = re.compile(r"^draw #?(\d+)$")
_TOSS = re.compile(r"^discard #(\d+)$")
_BORROW = re.compile(r"^borrow (\d+)$")


def action_string(state: EurorailsState, action: Action) -> str:
    """The notation of ``action`` in ``state`` (decision or chance)."""
    g = state.game
    b = g.board
    if state.current_player() < 0 and not state.over:
        card = action + 1
        if card >= 147:
            return f"draw #{card} ({b.events[card].title})"
        return f"draw #{card}"
    if action < g.U0:
        a, d = divmod(action, 6)
        to = b.nb[action]
        if to < 0:
            return f"build {a}>{a}+{d}"
        c = b.city_of[to]
        return f"build {a}>{to}" + (f" ({b.city_names[c]})" if c >= 0 else "")
    if action < g.END_BUILD:
        if g.crossgrade.get(state.train[state.turn_player()]) == action - g.U0:
            return f"crossgrade {b.train_names[action - g.U0]}"
        return f"upgrade {b.train_names[action - g.U0]}"
    if action == g.END_BUILD:
        return "end turn"
    p = state.turn_player()
    if action < g.CHUNNEL_MOVE:
        m = state.pos[p]
        to = b.nb[m * 6 + action - g.MOVE0] if m >= 0 else -1
        if to < 0:
            return f"move {DIRS[action - g.MOVE0]}"
        c = b.city_of[to]
        return f"move {to}" + (f" ({b.city_names[c]})" if c >= 0 else "")
    if action == g.CHUNNEL_MOVE:
        return "chunnel"
    if action < g.PICK0:
        return f"ferry P{action - g.FERRY0 + 1}"
    if action < g.DROP0:
        return f"pick {_load(state, action - g.PICK0)}"
    if action < g.DELIVER0:
        return f"drop {_load(state, action - g.DROP0)}"
    if action < g.END_MOVE:
        slot, j = divmod(action - g.DELIVER0, 3)
        hand = state.hands[p]
        if slot < len(hand) and hand[slot] < 147:
            dem = g.demands[hand[slot]][j]
            return f"deliver {g.load_names[dem.load]} to {b.city_names[dem.city]} #{hand[slot]}"
        return f"deliver slot {slot} demand {j}"
    if action == g.END_MOVE:
        return "end move"
    if action == g.DISCARD:
        return "discard hand"
    if action < g.LOSE0:
        return f"start {b.city_names[action - g.START0]}"
    if action < g.TOSS0:
        return f"lose {_load(state, action - g.LOSE0)}"
    if g.cfg.challenge_open_contracts and action >= g.CONTRACT0:
        slot, j = divmod(action - g.CONTRACT0, 3)
        if slot < len(state.contracts):
            card = state.contracts[slot]
            dem = g.demands[card][j]
            return f"deliver {g.load_names[dem.load]} to {b.city_names[dem.city]} #{card}"
        return f"deliver contract {slot} demand {j}"
    if g.cfg.mercy_backtracking and action == g.BACKTRACK:
        return "backtrack"
    if g.cfg.mercy_borrowing and action >= g.BORROW0:
        return f"borrow {action - g.BORROW0 + 1}"
    q = state.tosser()
    slot = action - g.TOSS0
    if q >= 0 and slot < len(state.hands[q]):
        return f"discard #{state.hands[q][slot]}"
    return f"discard slot {slot}"


def _load(state: EurorailsState, x: int) -> str:
    names = state.game.load_names
    return names[x] if x < len(names) else f"load{x}"


def parse_action(state: EurorailsState, text: str) -> Action:
    """Parse any well-formed action string (illegal ones then fail in ``apply_action``)."""
    g = state.game
    b = g.board
    t = " ".join(text.split()).lower()
    if t.startswith(("build ", "move ")) and t.endswith(")") and " (" in t:
        t = t[: t.index(" (")]  # a city label
    if state.current_player() < 0:
        mt = _DRAW.match(t.split(" (")[0])
        if mt and 1 <= int(mt.group(1)) <= 168:
            return int(mt.group(1)) - 1
        raise NotationError(f"eurorails: {text!r} is not a card draw ('draw #12')")
    loads = {x.lower(): k for k, x in enumerate(g.load_names)}
    cities = {x.lower(): k for k, x in enumerate(b.city_names)}
    trains = {x.lower(): k for k, x in enumerate(b.train_names)}
    mt = _BUILD.match(t)
    if mt:
        a, to = int(mt.group(1)), int(mt.group(2))
        if a < b.n:
            for d in range(6):
                if b.nb[a * 6 + d] == to:
                    return a * 6 + d
        raise NotationError(f"eurorails: {a} and {to} are not neighbouring mileposts")
    if t.startswith("upgrade ") and t[8:] in trains:
        return g.U0 + trains[t[8:]]
    if t.startswith("crossgrade ") and t[11:] in trains:
        return g.U0 + trains[t[11:]]
    if t == "end turn":
        return g.END_BUILD
    if t == "end move":
        return g.END_MOVE
    if t == "discard hand":
        return g.DISCARD
    if t == "chunnel":
        return g.CHUNNEL_MOVE
    if t == "backtrack" and g.cfg.mercy_backtracking:
        return g.BACKTRACK
    mt = _BORROW.match(t)
    if mt and g.cfg.mercy_borrowing and 1 <= int(mt.group(1)) <= 20:
        return g.BORROW0 + int(mt.group(1)) - 1
    mt = _MOVE.match(t)
    if mt:
        p = state.turn_player()
        m, to = state.pos[p], int(mt.group(1))
        for d in range(6):
            if m >= 0 and b.nb[m * 6 + d] == to:
                return g.MOVE0 + d
        raise NotationError(f"eurorails: milepost {to} is not next to the train")
    mt = _FERRY.match(t)
    if mt and 1 <= int(mt.group(1)) <= g.num_players:
        return g.FERRY0 + int(mt.group(1)) - 1
    for verb, base in (("pick ", g.PICK0), ("drop ", g.DROP0), ("lose ", g.LOSE0)):
        if t.startswith(verb) and t[len(verb) :] in loads:
            return base + loads[t[len(verb) :]]
    if t.startswith("start ") and t[6:] in cities:
        return g.START0 + cities[t[6:]]
    mt = _TOSS.match(t)
    if mt and g.cfg.fast_game:
        q = state.tosser()
        card = int(mt.group(1))
        if q >= 0 and card in state.hands[q]:
            return g.TOSS0 + state.hands[q].index(card)
        raise NotationError(f"eurorails: card #{card} is not to be discarded now")
    mt = _DELIVER.match(t)
    if mt and mt.group(1) in loads and mt.group(2) in cities:
        card = int(mt.group(3))
        hand = state.hands[state.turn_player()]
        if card in hand and card < 147:
            slot = hand.index(card)
            for j, dem in enumerate(g.demands[card]):
                if dem.load == loads[mt.group(1)] and dem.city == cities[mt.group(2)]:
                    return g.DELIVER0 + 3 * slot + j
        if card in state.contracts:
            slot = state.contracts.index(card)
            for j, dem in enumerate(g.demands[card]):
                if dem.load == loads[mt.group(1)] and dem.city == cities[mt.group(2)]:
                    return g.CONTRACT0 + 3 * slot + j
        raise NotationError(f"eurorails: card #{card} in hand has no such demand")
    raise NotationError(
        f"eurorails: cannot read action {text!r} (e.g. 'build 612>613', 'move 613', "
        "'pick Wine', 'deliver Wine to Paris #12', 'end move', 'end turn')"
    )


def explain(state: EurorailsState, action: Action) -> str:
    """Why ``action`` is illegal in ``state``: the rule that forbids it."""
    from motherlode.games.eurorails.game import BUILD, OPS, SPEND_LIMIT

    g = state.game
    if not 0 <= action < g.num_distinct_actions:
        return "no such action id"
    if state.pending:
        return f"P{state.pending[0] + 1} must first choose a load to lose"
    q = state.tosser()
    if q >= 0:
        return f"P{q + 1} must first discard a demand card (Fast Game)"
    if g.cfg.challenge_open_contracts and action >= g.CONTRACT0:
        return "an open contract is delivered with its load, in its city, in the move"
    if g.cfg.mercy_backtracking and action == g.BACKTRACK:
        return state.backtrack_refusal(state.turn_player()) or "not legal here"
    if g.cfg.mercy_borrowing and action >= g.BORROW0:
        if state.phase not in (BUILD, OPS):
            return "a loan is taken in the player's own turn"
        if state.debt[state.turn_player()]:
            return "a loan must be repaid (double) before another is taken"
        return "a loan larger than the cash is offered only (it would be repaid at once)"
    if action >= g.TOSS0:
        return "cards are discarded one by one only after the first 2 building turns (Fast Game)"
    p = state.turn_player()

    if action < g.U0:
        if state.phase != BUILD:
            return "track is built in the building phase (end the movement first)"
        a, d = divmod(action, 6)
        return state.build_refusal(p, a, d) or "not legal here"
    if action <= g.END_BUILD:
        if state.phase != BUILD:
            return "upgrades and the end of the turn come in the building phase"
        if g.crossgrade.get(state.train[p]) == action - g.U0:
            return state.crossgrade_refusal(p) or "not legal here"
        if state.upgraded:
            return "one upgrade or crossgrade a turn"
        if state.spent:
            return "an upgrade is made instead of building track"
        return f"no such upgrade for {state.cash[p]} cash within the {SPEND_LIMIT} limit"
    if state.phase != OPS:
        return "this is the building phase"
    if action < g.CHUNNEL_MOVE:
        if state.pos[p] < 0:
            return "the train has not been placed (start it in a city first)"
        return state.move_refusal(p, action - g.MOVE0) or "not legal here"
    if action == g.CHUNNEL_MOVE:
        return state._chunnel_refusal(p) or "not legal here"
    if action == g.DISCARD:
        return "the hand is discarded instead of the whole turn, before anything else"
    return "the train is not in a city where that can be done (or a strike, or capacity)"

"""Eurorails action notation (documented in docs/rules/eurorails.md, part 2).

Every action string names what it acts on, so it parses without the position, except
``move`` (a target milepost next to the train) and ``deliver`` (a card in the hand).
Mileposts are named as :mod:`.places` names them: a city (``Lyon``), a major city's
outpost (``Paris-NE``) or a file-and-rank square (``AD46``)::

    build Paris-NE>AC18  upgrade Fast Freight     end turn
    crossgrade Heavy Freight   (Crossgrading)
    discard #12          (Fast Game: a card discarded after the first 2 building turns)
    borrow 12            backtrack   (Mercy)
    deliver Wine to Paris #12   (also an open contract on the table: Challenge Game)
    move Lyon            chunnel                  ferry P2
    pick Wine            drop Wine                deliver Wine to Paris #12
    end move             discard hand             start Paris
    lose Wine            draw #12   (chance)
    offer P2   take AD46>Lyon   give X12>Y12   price 12   propose   withdraw   accept   refuse
                         (Selling and Trading Track: an offer composed step by step)
    train 2 move Lyon    train 2 pick Wine   train 2 upgrade Super Freight   ...
                         (Additional Trains: any train action, for the second train)

Notation version 1 (records written before places had names) wrote milepost numbers,
``build 878>924 (Paris)``, ``move 613``, ``take 612>613``; they are still read: a plain
number is a milepost, and a parenthesised label after ``build``/``move`` is ignored.
"""

from __future__ import annotations

import json
import re
from typing import Any

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action, Notation
from motherlode.games.eurorails import position
from motherlode.games.eurorails.board import DIR_NAMES
from motherlode.games.eurorails.constants import (
    BUILD,
    COMPOSING,
    LIST_FIELDS,
    NESTED_FIELDS,
    OPS,
    PRICE_MAX,
    PRICED,
    PROPOSED,
    SCALAR_FIELDS,
    SPEND_LIMIT,
)
from motherlode.games.eurorails.game import EurorailsGame, EurorailsState
from motherlode.games.eurorails.places import milepost_index, milepost_name

_BUILD = re.compile(r"^build ([^>]+?)\s*>\s*([^>]+)$")
_MOVE = re.compile(r"^move (.+)$")
_FERRY = re.compile(r"^ferry p(\d)$")
_DELIVER = re.compile(r"^deliver (.+) to (.+) #(\d+)$")
_DRAW = re.compile(r"^draw #?(\d+)$")
_TOSS = re.compile(r"^discard #(\d+)$")
_BORROW = re.compile(r"^borrow (\d+)$")
_OFFER = re.compile(r"^offer p(\d)$")
_PRICE = re.compile(r"^price (\d+)$")
_SEGMENT = re.compile(r"^(take|give) ([^>]+?)\s*>\s*([^>]+)$")


def action_to_string(state: EurorailsState, action: Action) -> str:
    """The notation of ``action`` in ``state`` (decision or chance)."""
    g = state.game
    b = g.board
    if state.current_player() < 0 and not state.over:
        card = action + 1
        if card >= 147:
            return f"draw #{card} ({b.events[card].title})"
        return f"draw #{card}"
    if action >= g.TRAIN2_0 and action in g.base_of:  # Additional Trains
        p = state.turn_player()
        state._swap(p)
        try:
            return "train 2 " + action_to_string(state, g.base_of[action])
        finally:
            state._swap(p)
    if action >= g.TRADE_END and action < g.TRAIN2_0:  # Four demand cards: hand slot 3
        return _deliver_string(state, 3, action - g.DELIVER4_0)
    if action < g.U0:
        a, d = divmod(action, 6)
        to = b.nb[action]
        if to < 0:  # no track edge that way: not an action anyone can take
            return f"build {milepost_name(b, a)}>{DIR_NAMES[d]} (no milepost)"
        return f"build {milepost_name(b, a)}>{milepost_name(b, to)}"
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
            return f"move {DIR_NAMES[action - g.MOVE0]} (no milepost)"
        return f"move {milepost_name(b, to)}"
    if action == g.CHUNNEL_MOVE:
        return "chunnel"
    if action < g.PICK0:
        return f"ferry P{action - g.FERRY0 + 1}"
    if action < g.DROP0:
        return f"pick {_load(state, action - g.PICK0)}"
    if action < g.DELIVER0:
        return f"drop {_load(state, action - g.DROP0)}"
    if action < g.END_MOVE:
        return _deliver_string(state, *divmod(action - g.DELIVER0, 3))
    if action == g.END_MOVE:
        return "end move"
    if action == g.DISCARD:
        return "discard hand"
    if action < g.LOSE0:
        return f"start {b.city_names[action - g.START0]}"
    if action < g.TOSS0:
        return f"lose {_load(state, action - g.LOSE0)}"
    if g.cfg.challenge_track_trading and g.OFFER0 <= action < g.TRADE_END:
        return _trade_string(state, action)
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


def _deliver_string(state: EurorailsState, slot: int, j: int) -> str:
    g = state.game
    hand = state.hands[state.turn_player()]
    if slot < len(hand) and hand[slot] < 147:
        dem = g.demands[hand[slot]][j]
        return f"deliver {g.load_names[dem.load]} to {g.board.city_names[dem.city]} #{hand[slot]}"
    return f"deliver slot {slot} demand {j}"


def _trade_string(state: EurorailsState, action: Action) -> str:
    g = state.game
    if action < g.WITHDRAW:
        return f"offer P{action - g.OFFER0 + 1}"
    if action < g.PRICE0:
        return ("withdraw", "propose", "accept", "refuse")[action - g.WITHDRAW]
    if action < g.TAKE0:
        return f"price {action - g.PRICE0}"
    verb, e = ("take", action - g.TAKE0) if action < g.GIVE0 else ("give", action - g.GIVE0)
    a, c = g.board.edge_ends[e]
    return f"{verb} {milepost_name(g.board, a)}>{milepost_name(g.board, c)}"


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
    if g.base_of and t.startswith(("train 1 ", "train 2 ")):  # Additional Trains
        if t.startswith("train 1 "):
            return parse_action(state, t[8:])
        p = state.turn_player()
        state._swap(p)
        try:
            a = parse_action(state, t[8:])
        finally:
            state._swap(p)
        if a not in g.train2_of:
            raise NotationError(f"eurorails: {text!r} is not an action of a train")
        return g.train2_of[a]
    loads = {x.lower(): k for k, x in enumerate(g.load_names)}
    cities = {x.lower(): k for k, x in enumerate(b.city_names)}
    trains = {x.lower(): k for k, x in enumerate(b.train_names)}
    mt = _BUILD.match(t)
    if mt:
        a, to = milepost_index(b, mt.group(1)), milepost_index(b, mt.group(2))
        for d in range(6):
            if b.nb[a * 6 + d] == to:
                return a * 6 + d
        raise NotationError(
            f"eurorails: {milepost_name(b, a)} and {milepost_name(b, to)} are not"
            " neighbouring mileposts (a build is one segment: 'build Paris-NE>AC18')"
        )
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
    if g.cfg.challenge_track_trading:
        found = _parse_trade(state, t)
        if found is not None:
            return found
    mt = _BORROW.match(t)
    if mt and g.cfg.mercy_borrowing and 1 <= int(mt.group(1)) <= 20:
        return g.BORROW0 + int(mt.group(1)) - 1
    mt = _MOVE.match(t)
    if mt:
        p = state.turn_player()
        m, to = state.pos[p], milepost_index(b, mt.group(1))
        for d in range(6):
            if m >= 0 and b.nb[m * 6 + d] == to:
                return g.MOVE0 + d
        if m < 0:
            raise NotationError("eurorails: the train has not been placed (start it in a city)")
        raise NotationError(
            f"eurorails: {milepost_name(b, to)} is not next to the train"
            f" (at {milepost_name(b, m)}; a move is one milepost)"
        )
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
                    return g.DELIVER0 + 3 * slot + j if slot < 3 else g.DELIVER4_0 + j
        if card in state.contracts:
            slot = state.contracts.index(card)
            for j, dem in enumerate(g.demands[card]):
                if dem.load == loads[mt.group(1)] and dem.city == cities[mt.group(2)]:
                    return g.CONTRACT0 + 3 * slot + j
        raise NotationError(f"eurorails: card #{card} in hand has no such demand")
    raise NotationError(
        f"eurorails: cannot read action {text!r} (e.g. 'build Paris-NE>AC18', 'move Lyon', "
        "'pick Wine', 'deliver Wine to Paris #12', 'end move', 'end turn')"
    )


def _parse_trade(state: EurorailsState, t: str) -> Action | None:
    """A step of an offer (Selling and Trading Track), or None."""
    g = state.game
    b = g.board
    steps = {"withdraw": g.WITHDRAW, "propose": g.PROPOSE, "accept": g.ACCEPT, "refuse": g.REFUSE}
    if t in steps:
        return steps[t]
    mt = _OFFER.match(t)
    if mt and 1 <= int(mt.group(1)) <= g.num_players:
        return g.OFFER0 + int(mt.group(1)) - 1
    mt = _PRICE.match(t)
    if mt:
        if int(mt.group(1)) > PRICE_MAX:
            raise NotationError(f"eurorails: a price is at most {PRICE_MAX} million")
        return g.PRICE0 + int(mt.group(1))
    mt = _SEGMENT.match(t)
    if mt:
        a, c = milepost_index(b, mt.group(2)), milepost_index(b, mt.group(3))
        base = g.TAKE0 if mt.group(1) == "take" else g.GIVE0
        for d in range(6):
            if b.nb[a * 6 + d] == c and b.eid[a * 6 + d] >= 0:
                return base + b.eid[a * 6 + d]
        raise NotationError(
            f"eurorails: {milepost_name(b, a)} and {milepost_name(b, c)} are not joined by"
            " a track segment"
        )
    return None


def _explain_trade(state: EurorailsState, action: Action) -> str:
    """Why a step of an offer is illegal (Selling and Trading Track)."""
    g = state.game
    p = state.turn_player()
    if action < g.WITHDRAW:
        return state.offer_refusal(p, action - g.OFFER0) or "not legal here"
    if not state.offer:
        return "no offer is being made (start one with 'offer P2')"
    seller, stage, _ = state.offer
    if action in (g.ACCEPT, g.REFUSE):
        return "the offer has not been proposed yet"
    if stage == PROPOSED:
        return f"P{seller + 1} must first accept or refuse the offer"
    if action == g.PROPOSE:
        return "an offer is proposed once its price is named"
    if stage == PRICED:
        return "the price is named: propose the offer or withdraw it"
    assert stage == COMPOSING
    if action < g.TAKE0:
        if not state.offer_take:
            return "an offer takes at least one of the seller's segments before its price"
        return f"the price is in whole millions up to the buyer's cash ({state.cash[p]})"
    if action < g.GIVE0:
        return state.trade_refusal(action - g.TAKE0, seller, p) or "not legal here"
    return state.trade_refusal(action - g.GIVE0, p, seller) or "not legal here"


def explain_illegal(state: EurorailsState, action: Action) -> str:
    """Why ``action`` is illegal in ``state``: the rule that forbids it."""
    g = state.game
    if not 0 <= action < g.num_distinct_actions:
        return "no such action id"
    if state.pending:
        return f"P{state.pending[0] % g.num_players + 1} must first choose a load to lose"
    if action >= g.TRAIN2_0:  # Additional Trains: the rule, for the second train
        p = state.turn_player()
        state._swap(p)
        try:
            return explain_illegal(state, g.base_of[action]) + " (train 2)"
        finally:
            state._swap(p)
    if action >= g.TRADE_END:  # Four demand cards: hand slot 3
        if state.phase != OPS:
            return "loads are delivered in the operations phase"
        return "the train is not in a city where that can be done (or a strike, or capacity)"
    q = state.tosser()
    if q >= 0:
        return f"P{q + 1} must first discard a demand card (Fast Game)"
    if g.cfg.challenge_track_trading and action >= g.OFFER0:
        return _explain_trade(state, action)
    if state.offer:
        return f"the offer to P{state.offer[0] + 1} must first be settled (or withdrawn)"
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

    if state.traded and action < g.END_BUILD:
        return "track was bought this turn: a purchase is made instead of building or upgrading"
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


def position_dict(state: EurorailsState) -> dict[str, Any]:
    """Every field of the position, JSON-able (the body of :func:`write_position`)."""
    d: dict[str, Any] = {
        k: getattr(state, k) for k in (*SCALAR_FIELDS, *LIST_FIELDS, *NESTED_FIELDS)
    }
    owned: dict[str, list[int]] = {}
    for e, o in enumerate(state.edge_owner):
        if o >= 0:
            owned.setdefault(str(o), []).append(e)
    d["edge_owner"] = owned
    d["history"] = state._history
    if state.game.cfg.circus:
        d["circus_at"] = state.circus_at
    if state.game.cfg.mercy_borrowing:
        d["debt"] = state.debt
    if state.game.cfg.mercy_late_payment:
        d["late"] = state.late
    if state.game.cfg.challenge_field_warehousing:
        d["warehouse"] = state.warehouse
    if state.game.cfg.challenge_open_contracts:
        d["contracts"] = state.contracts
    if state.game.cfg.challenge_track_trading:
        d["trade"] = {
            "offer": state.offer,
            "take": state.offer_take,
            "give": state.offer_give,
            "offered": state.offered,
            "traded": state.traded,
        }
    if state.game.cfg.challenge_additional_trains:
        d["second"] = {
            "train": state.train2,
            "pos": state.pos2,
            "prev": state.prev2,
            "on_ferry": state.on_ferry2,
            "loads": state.loads2,
            "moves": state.moves2,
            "halved": state.halved2,
        }
    return d


def write_position(state: EurorailsState) -> str:
    """The readable position notation (:mod:`.position`, documented in the docs)."""
    return position.write_text(state, position_dict(state))


def write_json_position(state: EurorailsState) -> str:
    """Notation 1's position: ``eurorails:`` and compact JSON of every field (still read)."""
    return "eurorails:" + json.dumps(position_dict(state), separators=(",", ":"), sort_keys=True)


def _read_options(state: EurorailsState, d: dict[str, Any]) -> None:
    """The fields of the optional rules played (read by :func:`read_position`)."""
    if state.game.cfg.circus:
        state.circus_at = [int(x) for x in d["circus_at"]]
    if state.game.cfg.mercy_borrowing:
        state.debt = [int(x) for x in d["debt"]]
    if state.game.cfg.mercy_late_payment:
        state.late = [[int(y) for y in x] for x in d["late"]]
    if state.game.cfg.challenge_field_warehousing:
        state.warehouse = [[int(y) for y in x] for x in d["warehouse"]]
    if state.game.cfg.challenge_open_contracts:
        state.contracts = [int(x) for x in d["contracts"]]
    if state.game.cfg.challenge_track_trading:
        tr = d["trade"]
        state.offer = [int(x) for x in tr["offer"]]
        state.offer_take = [int(x) for x in tr["take"]]
        state.offer_give = [int(x) for x in tr["give"]]
        state.offered = [int(x) for x in tr["offered"]]
        state.traded = int(tr["traded"])
    if state.game.cfg.challenge_additional_trains:
        sd = d["second"]
        state.train2 = [int(x) for x in sd["train"]]
        state.pos2 = [int(x) for x in sd["pos"]]
        state.prev2 = [int(x) for x in sd["prev"]]
        state.on_ferry2 = [int(x) for x in sd["on_ferry"]]
        state.loads2 = [[int(y) for y in x] for x in sd["loads"]]
        state.moves2 = int(sd["moves"])
        state.halved2 = int(sd["halved"])


def _from_dict(game: EurorailsGame, d: dict[str, Any]) -> EurorailsState:
    state = EurorailsState(game)
    for k in SCALAR_FIELDS:
        setattr(state, k, int(d[k]))
    for k in LIST_FIELDS:
        if k != "edge_owner":
            setattr(state, k, [int(x) for x in d[k]])
    for k in NESTED_FIELDS:
        setattr(state, k, [[int(y) for y in x] for x in d[k]])
    state._history = [int(x) for x in d["history"]]
    _read_options(state, d)
    for o, edges in d["edge_owner"].items():
        for e in edges:
            state.edge_owner[int(e)] = int(o)
    return state


def read_position(game: EurorailsGame, text: str) -> EurorailsState:
    """The position written as ``text``: the readable notation (:mod:`.position`) or
    notation 1's ``eurorails:{json}``; checked field by field (a bad one: NotationError)."""
    if not isinstance(text, str) or not text.startswith(("eurorails:", position.HEADER)):
        raise NotationError(
            f"eurorails: a position starts with {position.HEADER!r}, got {str(text)[:40]!r}"
        )
    try:
        if text.startswith(position.HEADER):
            state = _from_dict(game, position.read_text(game, text))
        else:
            state = _from_dict(game, json.loads(text[len("eurorails:") :]))
    except (KeyError, ValueError, TypeError, IndexError, json.JSONDecodeError) as err:
        if isinstance(err, NotationError):
            raise
        raise NotationError(f"eurorails: bad position ({type(err).__name__}: {err})") from None
    n = game.num_players
    if (
        len(state.cash) != n
        or len(state.hands) != n
        or len(state.edge_owner) != len(game.board.edge_ends)
    ):
        raise NotationError(f"eurorails: the position is not for {n} players on this map")
    position.validate(state)
    state._rebuild_touch()
    return state


action_string = action_to_string  # alias for one release
explain = explain_illegal  # alias for one release

NOTATION: Notation[EurorailsState] = Notation(
    action_to_string=action_to_string,
    parse_action=parse_action,
    explain_illegal=explain_illegal,
    write_position=write_position,
    read_position=read_position,
)

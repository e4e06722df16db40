"""Eurorails in words: one sentence per action, as each seat may know it, and the end of
the game explained.

Asked before the action is applied (DESIGN.md §2), a sentence looks ahead on a copy to
say what follows: the cost of track, the movement left, a use fee paid, a payoff, a turn
lost, a victory declared, the game's end. Eurorails hides things (observe.py): another
seat's cash until an Excess Profits Tax card has appeared, and with ``open_hands=False``
another seat's demand cards. A sentence names a card's demands only to a seat that sees
that hand, or once the card is played (a delivery, a discard: the discard pile is public),
and another seat's cash only once cash is public. Places are named as :mod:`.places` names
them (``Lyon``, ``Paris-NE``, ``AD46``), as the notation writes them.

>>> import motherlode
>>> s = motherlode.load("eurorails", players=2, open_hands=False).new_initial_state()
>>> s.narrate(s.string_to_action("draw #1"), 1)
'deal: P1 is dealt a demand card'
>>> s.narrate(s.string_to_action("draw #1"), 0)
'deal: P1 is dealt demand card #1 (Steel to Barcelona 26, Cork to Oslo 75, Potatoes to Hamburg 10)'
"""

from __future__ import annotations

from motherlode.core.protocol import Action, Player, SeatResult, Summary
from motherlode.games.eurorails.constants import (
    BUILD,
    DEAL,
    FIRST_EVENT,
    MOVE_FEE,
    RENT,
    SPEND_LIMIT,
)
from motherlode.games.eurorails.game import EurorailsGame, EurorailsState
from motherlode.games.eurorails.places import milepost_name


def _seat(p: int) -> str:
    return f"P{p + 1}"


def _m(amount: int) -> str:
    return f"{amount} million"


def _post(g: EurorailsGame, m: int) -> str:
    """A milepost as a person reads it (:mod:`.places`): ``Lyon``, ``Paris-NE``, ``AD46``."""
    return milepost_name(g.board, m)


def _card(g: EurorailsGame, card: int) -> str:
    """A demand card and its three demands: ``#12 (Wine to Paris 23, ...)``."""
    b = g.board
    demands = ", ".join(
        f"{g.load_names[d.load]} to {b.city_names[d.city]} {d.payment}" for d in g.demands[card]
    )
    return f"#{card} ({demands})"


def _sees_hand(state: EurorailsState, q: int, seat: Player | None) -> bool:
    return state.game.cfg.open_hands or q == seat


def _sees_cash(state: EurorailsState, q: int, seat: Player | None) -> bool:
    return bool(state.cash_public) or q == seat


def _cash(after: EurorailsState, q: int, seat: Player | None) -> str:
    """`` (cash 73 million)`` where ``seat`` may see ``q``'s cash after the action, else ``""``."""
    return f" (cash {_m(after.cash[q])})" if _sees_cash(after, q, seat) else ""


def _after(state: EurorailsState, action: Action) -> EurorailsState:
    after = state.clone()
    after.apply_unchecked(action)
    return after


def _follows(state: EurorailsState, after: EurorailsState) -> str:
    """What the action sets off beyond itself: victory declared, the target raised, loads
    to be lost, turns lost, the next turn, the end of the game ("" when nothing)."""
    g = state.game
    n = g.num_players
    parts: list[str] = []
    for q in range(n):
        if after.declared[q] and not state.declared[q]:
            parts.append(
                f"{_seat(q)} declares victory (at least {_m(state.target)} and"
                f" {g.cfg.majors_to_connect} major cities connected)"
            )
    if after.target > state.target:
        parts.append(f"the declaring players tie on cash: the target rises to {_m(after.target)}")
    for q in after.pending:
        if q not in state.pending:
            train = "'s second train" if q >= n else ""
            parts.append(f"{_seat(q % n)}{train} must choose a load to lose")
    if after.over:
        who = ", ".join(_seat(w) for w in after.winners_)
        parts.append(f"the game ends: {after.termination()}; winner {who}")
        return "; " + "; ".join(parts)
    if after.t != state.t and after.phase != DEAL:
        skipped = [q for q in range(n) if state.lost[q] and not after.lost[q]]
        if skipped:
            parts.append(", ".join(_seat(q) for q in skipped) + " loses a turn")
        q = after.turn_player()
        building = after.t < g.cfg.building_turns * n
        parts.append(f"{_seat(q)}'s {'building ' if building else ''}turn")
    return "; " + "; ".join(parts) if parts else ""


# -- chance: the deal and the draws ------------------------------------------------------


def _event(state: EurorailsState, after: EurorailsState, card: int, p: int) -> str:
    """An event card drawn by ``p`` and its effect (public: it is shown to all)."""
    g = state.game
    b = g.board
    n = g.num_players
    ev = b.events[card]
    head = f"{_seat(p)} draws event #{card}, {ev.title}: "
    until = f" until the end of {_seat(p)}'s next turn"
    hit = [q for q in range(n) if after.lost[q] and not state.lost[q]]
    hit_text = " and ".join(_seat(q) for q in hit)
    if ev.kind == "tax":
        paid = ", ".join(f"{_seat(q)} {state.cash[q] - after.cash[q]}" for q in range(n))
        text = f"every player pays the bank by the brackets ({paid}); cash is public from now on"
        if g.cfg.challenge_reshuffle:
            text += "; the discards are shuffled into the deck and the card leaves the game"
        return head + text
    if ev.kind == "derailment":
        near = ", ".join(ev.cities)
        verb = "loses" if len(hit) == 1 else "each lose"
        lost = f"{hit_text} {verb} the next turn and a load" if hit else "no train is near"
        return head + f"trains within {ev.radius or 3} mileposts of {near}: {lost}"
    if ev.kind == "bonus":
        what = f"{ev.load} delivered" if ev.load else "load delivered to " + ", ".join(ev.countries)
        return head + f"the next {what} pays {_m(ev.amount)} more (in play until then)"
    if ev.kind == "strike":
        if ev.scope == "drawer":
            return head + (
                f"{_seat(p)} may not build and no train may use {_seat(p)}'s track" + until
            )
        where = "at most" if ev.scope == "coastal" else "more than"
        return head + (
            f"no load may be picked up or delivered in cities {where} {ev.coast_distance}"
            " mileposts from a coast" + until
        )
    if ev.kind == "flood":
        erased = [o for c, _, o in after.erased if c == card]
        washed = (
            "its bridges are washed away ("
            + ", ".join(f"{_seat(q)} {erased.count(q)}" for q in range(n) if q in erased)
            + ")"
            if erased
            else "no bridge stands over it"
        )
        return head + (
            f"the {ev.river} floods: {washed}; no train crosses it and no one builds over it"
            + until
        )
    where = (
        f"within {ev.radius} mileposts of {ev.city}" if ev.city else "on the " + ", ".join(ev.seas)
    )
    text = f"half rate and no building {where}" + until
    if ev.close_alpine:
        text += ", and its alpine mileposts are closed"
    if ev.kind == "gale":
        text += (
            f"; {hit_text} on a ferry {'loses' if len(hit) == 1 else 'each lose'} the next turn"
            " and a load"
            if hit
            else "; no train is on a ferry"
        )
    return head + text


def _chance(state: EurorailsState, action: Action, seat: Player | None) -> str:
    g = state.game
    b = g.board
    card = action + 1
    after = _after(state, action)
    if state.phase == DEAL:
        p = next(q for q in range(g.num_players) if len(state.hands[q]) < g.deal_size)
        if card >= FIRST_EVENT:
            text = f"deal: event #{card}, {b.events[card].title}, is set aside"
        elif _sees_hand(state, p, seat):
            text = f"deal: {_seat(p)} is dealt demand card {_card(g, card)}"
        else:
            text = f"deal: {_seat(p)} is dealt a demand card"
        if after.phase != DEAL:
            why = " (the largest single payout)" if g.cfg.first_player is None else ""
            text += (
                f"; the deal is done, the events go back into the deck and"
                f" {_seat(after.first)} goes first{why}"
            )
        return text
    p = state.turn_player()
    if card >= FIRST_EVENT:
        text = _event(state, after, card, p)
    elif _sees_hand(state, p, seat):
        text = f"{_seat(p)} draws demand card {_card(g, card)}"
    else:
        text = f"{_seat(p)} draws a demand card"
    return text + _follows(state, after)


# -- decisions ----------------------------------------------------------------------------


def _fees(state: EurorailsState, after: EurorailsState, p: int) -> str:
    """Use fees this step pays (or owes, Mercy: Late Payment) and the Cost to Move fee."""
    parts = []
    for o in range(state.game.num_players):
        if after.rented[o] and not state.rented[o]:
            if o == p:
                parts.append(f"pays the bank {_m(MOVE_FEE)} to move on its own track this turn")
            elif len(after.late) > len(state.late):
                parts.append(f"owes {_seat(o)} the {_m(RENT)} use fee (Late Payment)")
            else:
                parts.append(f"pays {_seat(o)} the {_m(RENT)} use fee")
    return ", " + " and ".join(parts) if parts else ""


def _moves_left(state: EurorailsState, after: EurorailsState) -> str:
    text = ""
    if after.halved & 1 and not state.halved & 1:
        text = "; bad weather halves the movement left"
    if after.phase == BUILD:
        return text
    left = after.moves
    return text + (f" ({left} left)" if left > 0 else " (no movement left)")


def _build(state: EurorailsState, after: EurorailsState, action: Action, p: int) -> str:
    g = state.game
    b = g.board
    a = action // 6
    to = b.nb[action]
    cost = after.spent - state.spent
    text = f"{_seat(p)} builds track from {_post(g, a)} to {_post(g, to)} for {_m(cost)}"
    k = b.link_at[to]
    if k >= 0 and p not in state.link_owners[k]:
        link = b.links[k]
        kind = "ferry line" if link.kind == 0 else "line"
        text += f", reaching the {link.name} {kind}"
    text += f" ({after.spent} of {SPEND_LIMIT} spent this turn)"
    before, now = state.majors_connected(p), after.majors_connected(p)
    if now > before:
        text += f"; {now} major {'city' if now == 1 else 'cities'} connected"
    return text + _follows(state, after)


def _deliver(
    state: EurorailsState,
    after: EurorailsState,
    card: int,
    j: int,
    p: int,
    seat: Player | None,
    contract: bool = False,
) -> str:
    g = state.game
    dem = g.demands[card][j]
    pay = (
        after.cash[p]
        - state.cash[p]
        + sum(e[2] for e in state.late if e[0] == p)
        - sum(e[2] for e in after.late if e[0] == p)
    )
    if g.cfg.mercy_borrowing:
        pay += state.debt[p] - after.debt[p]
    bonus = pay - dem.payment
    source = f"open contract #{card}" if contract else f"card #{card}"
    text = (
        f"{_seat(p)} delivers {g.load_names[dem.load]} to {g.board.city_names[dem.city]}"
        f" ({source}): +{_m(pay)}"
    )
    if bonus > 0:
        text += f" with a {_m(bonus)} bonus"
    text += _cash(after, p, seat)
    text += f"; {_seat(p)} draws a new demand card"
    return text + _follows(state, after)


def _trade(state: EurorailsState, after: EurorailsState, action: Action, p: int) -> str:
    g = state.game
    b = g.board
    if action < g.WITHDRAW:
        return f"{_seat(p)} begins an offer to buy track from {_seat(action - g.OFFER0)}"
    if action == g.WITHDRAW:
        return f"{_seat(p)} withdraws the offer"
    seller = state.offer[0]
    if action == g.PROPOSE:
        return f"{_seat(p)} proposes the offer to {_seat(seller)} for {_m(state.offer[2])}"
    if action == g.ACCEPT:
        took, gave = len(state.offer_take), len(state.offer_give)
        swap = f" for {gave} of {_seat(p)}'s" if gave else ""
        return (
            f"{_seat(seller)} accepts: {took} segment{'s' if took != 1 else ''} of its track"
            f"{swap} go to {_seat(p)}, who pays {_m(state.offer[2])}"
        ) + _follows(state, after)
    if action == g.REFUSE:
        return f"{_seat(seller)} refuses {_seat(p)}'s offer"
    if action < g.TAKE0:
        return f"{_seat(p)} sets the price at {_m(action - g.PRICE0)}"
    if action < g.GIVE0:
        a, c = b.edge_ends[action - g.TAKE0]
        return f"{_seat(p)} asks for {_seat(seller)}'s segment {_post(g, a)}>{_post(g, c)}"
    a, c = b.edge_ends[action - g.GIVE0]
    return f"{_seat(p)} offers its own segment {_post(g, a)}>{_post(g, c)} in exchange"


def _train_action(
    state: EurorailsState, after: EurorailsState, action: Action, p: int, seat: Player | None
) -> str:
    """The turn player's actions that concern the train, building, the hand or the turn."""
    g = state.game
    b = g.board
    P = _seat(p)
    if action < g.U0:
        return _build(state, after, action, p)
    if action < g.END_BUILD:
        t = action - g.U0
        if g.crossgrade.get(state.train[p]) == t and state.train[p] != t:
            cost = state.cash[p] - after.cash[p]
            return f"{P} crossgrades to a {b.train_names[t]} for {_m(cost)}"
        cost = dict(b.upgrades[state.train[p]])[t]
        return f"{P} upgrades to a {b.train_names[t]} for {_m(cost)}" + _follows(state, after)
    if action == g.END_BUILD:
        spent = f" after spending {_m(state.spent)}" if state.spent else " without building"
        return f"{P} ends the turn{spent}" + _follows(state, after)
    if action < g.CHUNNEL_MOVE:
        to = after.pos[p]
        text = f"{P} moves to {_post(g, to)}" + _fees(state, after, p)
        return text + _moves_left(state, after) + _follows(state, after)
    if action == g.CHUNNEL_MOVE:
        text = (
            f"{P} runs through the Chunnel from {_post(g, state.pos[p])} to"
            f" {_post(g, after.pos[p])}" + _fees(state, after, p)
        )
        return text + _moves_left(state, after) + _follows(state, after)
    if action < g.PICK0:
        owner = action - g.FERRY0
        link = b.links[b.link_at[state.pos[p]]]
        line = "its own" if owner == p else f"{_seat(owner)}'s"
        text = (
            f"{P} boards the {link.name} ferry on {line} line"
            + _fees(state, after, p)
            + f": it stops here and starts next turn from {_post(g, after.on_ferry[p])}"
            " at half rate"
        )
        return text + _follows(state, after)
    if action < g.DROP0:
        x = action - g.PICK0
        city = b.city_names[b.city_of[state.pos[p]]]
        aboard = ", ".join(g.load_names[y] for y in after.loads[p])
        return f"{P} picks up {g.load_names[x]} at {city} (aboard: {aboard})"
    if action < g.DELIVER0:
        x = action - g.DROP0
        city = b.city_names[b.city_of[state.pos[p]]]
        kept = (
            " (it waits there for anyone to pick up: Field Warehousing)"
            if len(after.warehouse) > len(state.warehouse)
            else ", its chip back in the tray"
        )
        return f"{P} drops {g.load_names[x]} at {city} without payoff{kept}"
    if action < g.END_MOVE:
        slot, j = divmod(action - g.DELIVER0, 3)
        return _deliver(state, after, state.hands[p][slot], j, p, seat)
    if action == g.END_MOVE:
        if state.pos[p] < 0:
            return f"{P} ends its operations without a train on the map and builds"
        return f"{P} ends its movement at {_post(g, state.pos[p])} and builds"
    if action == g.DISCARD:
        cards = ", ".join(f"#{c}" for c in state.hands[p])
        return (
            f"{P} discards the whole hand ({cards}) instead of the turn and draws"
            f" {g.hand_size} new cards; the turn ends after the draw"
        )
    c = action - g.START0
    return f"{P} puts its train in {b.city_names[c]} ({after.moves} mileposts of movement)"


def narrate(state: EurorailsState, action: Action, seat: Player | None = None) -> str:
    """One sentence for ``action`` (legal here, not yet applied) as ``seat`` may know it."""
    if state.current_player() < 0:
        return _chance(state, action, seat)
    g = state.game
    n = g.num_players
    after = _after(state, action)
    if state.pending:
        q = state.pending[0]
        x = action - g.LOSE0
        train = "'s second train" if q >= n else ""
        return f"{_seat(q % n)}{train} loses its {g.load_names[x]} to the event" + _follows(
            state, after
        )
    if state.offer and action >= g.OFFER0:
        return _trade(state, after, action, state.turn_player())
    q = state.tosser()
    if q >= 0:
        card = state.hands[q][action - g.TOSS0]
        return f"{_seat(q)} discards demand card {_card(g, card)} (Fast Game)"
    p = state.turn_player()
    P = _seat(p)
    cfg = g.cfg
    if cfg.mercy_borrowing and g.BORROW0 <= action < g.BORROW0 + 20:
        k = action - g.BORROW0 + 1
        return f"{P} borrows {_m(k)} from the bank, to repay {_m(2 * k)} as soon as it can"
    if action >= g.OFFER0:
        if action >= g.TRAIN2_0:
            base = g.base_of[action]
            state2, after2 = state.clone(), after.clone()
            state2._swap(p)
            after2._swap(p)
            text = _train_action(state2, after2, base, p, seat)
            return text.replace(P, f"{P}'s second train", 1)
        if action >= g.TRADE_END:
            j = action - g.DELIVER4_0
            return _deliver(state, after, state.hands[p][3], j, p, seat)
        return _trade(state, after, action, p)
    if cfg.challenge_open_contracts and action >= g.CONTRACT0:
        slot, j = divmod(action - g.CONTRACT0, 3)
        return _deliver(state, after, state.contracts[slot], j, p, seat, contract=True)
    if cfg.mercy_backtracking and action == g.BACKTRACK:
        return f"{P} backtracks (Mercy): the train turns round at the cost of the turn" + (
            _fees(state, after, p) + _follows(state, after)
        )
    return _train_action(state, after, action, p, seat)


# -- the end ------------------------------------------------------------------------------


def breakdown(state: EurorailsState, q: int) -> tuple[tuple[str, float], ...]:
    """Seat ``q``'s result as the rulebook judges it: cash (the score) and the major cities
    one continuous line of its track connects (the other requirement)."""
    out: list[tuple[str, float]] = [
        ("cash", float(state.cash[q])),
        ("major cities connected", float(state.majors_connected(q))),
    ]
    if state.game.cfg.mercy_borrowing and state.debt[q]:
        out.append(("owed to the bank", float(state.debt[q])))
    return tuple(out)


def summary(state: EurorailsState) -> Summary:
    """Why it ended, each seat's cash and major cities connected, and the winners."""
    reason = state.termination()
    if state.game.cfg.time_limit:
        places = "; ".join(
            f"{i + 1}. " + ", ".join(_seat(q) for q in group)
            for i, group in enumerate(state.placings())
        )
        reason += f"; places (the connection first, then cash): {places}"
    seats = tuple(
        SeatResult(q, float(state.cash[q]), breakdown(state, q))
        for q in range(state.game.num_players)
    )
    return Summary(reason, seats, state.winners())


__all__ = ["breakdown", "narrate", "summary"]

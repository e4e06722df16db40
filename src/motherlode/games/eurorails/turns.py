"""Eurorails, How to Play: turns and their phases (the initial building turns, then the
operations and building phases), turn order (snake order in the building turns, then
clockwise from the first player), dealing and drawing demand cards, the legal actions of the
seat to move and the dispatch of an action to the rule part that applies it, and the end of
a turn (the victory declaration, events expiring, the end of the game).
"""

from __future__ import annotations

from motherlode.core.protocol import CHANCE, TERMINAL, Action, Player
from motherlode.games.eurorails.building import BuildingRules
from motherlode.games.eurorails.constants import (
    BUILD,
    CONTRACTS,
    CROSSGRADE,
    DEAL,
    FIRST_EVENT,
    LOAN,
    OPS,
    OVER,
    PROPOSED,
)
from motherlode.games.eurorails.second import SecondTrainRules
from motherlode.games.eurorails.trading import TradingRules
from motherlode.games.eurorails.victory import VictoryRules


class TurnRules(SecondTrainRules, BuildingRules, TradingRules, VictoryRules):
    """The turn: whose move, what is legal, what an action does (a part of the state)."""

    def turn_player(self) -> int:
        g = self.game  # (asked several times a step: the game's tables, no arithmetic)
        t = self.t
        if t < g.building_end:
            return (self.first + g.snake[t]) % g.seats
        return (self.first + t - g.building_end) % g.seats

    def normal_round(self) -> int:
        """The index of the current round of normal turns (-1 while building turns last)."""
        n = self.game.num_players
        bt = self.game.cfg.building_turns
        return -1 if self.t < bt * n else (self.t - bt * n) // n

    def current_player(self) -> Player:
        if self.over:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        g = self.game
        if self.pending:
            return self.pending[0] % g.seats  # (n + q: q's second train)
        if self.offer and self.offer[1] == PROPOSED:
            return self.offer[0]  # the seller answers, inside the buyer's turn
        if g.deal_size != g.hand_size:
            q = self.tosser()
            if q >= 0:
                return q
        p = self.turn_player()
        if len(self.hands[p]) < g.hand_size:
            return CHANCE
        return p

    def is_terminal(self) -> bool:
        return bool(self.over)

    def is_chance_node(self) -> bool:
        return not self.over and (self.phase == DEAL or self.current_player() == CHANCE)

    def tosser(self) -> int:
        """Fast Game: the seat that must now discard a demand card (it holds more than 3
        after the first 2 building turns), or -1. Seats decide in turn order."""
        g = self.game
        if g.deal_size == g.hand_size or self.phase == DEAL or self.over:
            return -1
        n = g.num_players
        if self.t < min(2, g.cfg.building_turns) * n:
            return -1
        start = self.turn_player()
        for i in range(n):
            q = (start + i) % n
            if len(self.hands[q]) > g.hand_size:
                return q
        return -1

    def _legal_actions(self) -> list[Action]:
        g = self.game
        if self.pending:
            q = self.pending[0]
            n = g.num_players
            return sorted({g.LOSE0 + x for x in (self.loads[q] if q < n else self.loads2[q - n])})
        if self.offer:
            return self._offer_actions()
        q = self.tosser()
        if q >= 0:
            return [g.TOSS0 + slot for slot in range(len(self.hands[q]))]
        p = self.turn_player()
        if self.debt[p] == 0 and g.cfg.mercy_borrowing:
            # a loan the player could repay at once would be repaid at once: none offered
            loans = [g.BORROW0 + k - 1 for k in range(self.cash[p] + 1, LOAN + 1)]
            return sorted(self._turn_actions(p) + loans)
        return self._turn_actions(p)

    def _turn_actions(self, p: int) -> list[int]:
        g = self.game
        if self.phase == BUILD:
            if self.traded:  # a purchase is made instead of building: more purchases only
                return [g.END_BUILD, *self._offer_starts(p)]
            out = self._build_actions(p)
            if g.cfg.challenge_track_trading:
                out.extend(self._offer_starts(p))
            out.extend(self._upgrade_actions(p))
            if self.pos2:
                out.extend(g.train2_of[a] for a in self._second(p, self._upgrade_actions))
            out.append(g.END_BUILD)
            return sorted(out)
        if self.pos2:
            out = self._ops_actions(p)
            to2 = g.train2_of
            out.extend(to2[a] for a in self._second(p, self._ops_actions) if a in to2)
            return sorted(set(out))
        return self._ops_actions(p)

    def _apply_action(self, action: Action) -> None:
        g = self.game
        if self.phase == DEAL:
            self._deal(action + 1)
            return
        if self.current_player() == CHANCE:
            self._draw_into_hand(action + 1)
            self._settle()
            return
        if self.pending:
            q = self.pending.pop(0)
            n = g.num_players
            if q < n:
                self._lose_load(q, action - g.LOSE0)
            else:  # the second train's load
                self._swap(q - n)
                self._lose_load(q - n, action - g.LOSE0)
                self._swap(q - n)
            self._settle()
            return
        q = self.tosser()
        if q >= 0:
            self.discard.append(self.hands[q].pop(action - g.TOSS0))
            return
        p = self.turn_player()
        if g.cfg.mercy_borrowing and g.BORROW0 <= action < g.BORROW0 + LOAN:
            self.cash[p] += action - g.BORROW0 + 1
            self.debt[p] = 2 * (action - g.BORROW0 + 1)
            self._settle()
            return
        if action >= g.OFFER0:  # the ids of the last three variants (one test for the rest)
            if action >= g.TRAIN2_0:  # Additional Trains: the second train's action
                self._apply_second(p, g.base_of[action])
            elif action >= g.TRADE_END:  # Four demand cards: a demand of the 4th slot
                self._deliver(p, 3, action - g.DELIVER4_0)
                if g.cfg.challenge_cost_to_load:
                    self.moves -= 1
                self._settle()
            else:  # Selling and Trading Track
                self._trade_step(action)
            return
        if g.cfg.challenge_open_contracts and action >= g.CONTRACT0:
            slot, j = divmod(action - g.CONTRACT0, 3)
            card = self.contracts.pop(slot)
            self.hands[p].append(card)  # picked from the table, delivered like a hand card
            self._deliver(p, len(self.hands[p]) - 1, j)
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
            self._settle()
            return
        if g.cfg.mercy_backtracking and action == g.BACKTRACK:
            o = self._track_owner(self.pos[p], self.prev[p])
            if o >= 0 and o != p:
                self._pay_rent(p, o)
            self.prev[p] = -1
            self._finish_turn()
            self._settle()
            return
        if action < g.U0:
            a, d = divmod(action, 6)
            self._build(p, a, d)
        elif action < g.END_BUILD and g.crossgrade.get(self.train[p]) == action - g.U0:
            self.cash[p] -= CROSSGRADE
            self.spent += CROSSGRADE
            self.train[p] = action - g.U0
            self.upgraded = 1
        elif action < g.END_BUILD:
            cost = dict(g.board.upgrades[self.train[p]])[action - g.U0]
            self.cash[p] -= cost
            self.train[p] = action - g.U0
            self.upgraded = 1
            self._finish_turn()
        elif action == g.END_BUILD:
            self._finish_turn()
        elif action < g.CHUNNEL_MOVE:
            self._move(p, action - g.MOVE0)
        elif action == g.CHUNNEL_MOVE:
            self._chunnel(p)
        elif action < g.PICK0:
            self._board_ferry(p, action - g.FERRY0)
        elif action < g.DROP0:
            self._pick_up(p, action - g.PICK0)
        elif action < g.DELIVER0:
            self._drop(p, action - g.DROP0)
        elif action < g.END_MOVE:
            self._deliver(p, *divmod(action - g.DELIVER0, 3))
            if g.cfg.challenge_cost_to_load:
                self.moves -= 1
        elif action == g.END_MOVE:
            self._to_build()
        elif action == g.DISCARD:
            for card in self.hands[p]:
                if g.cfg.challenge_open_contracts and len(self.contracts) < CONTRACTS:
                    self.contracts.append(card)
                else:
                    self.discard.append(card)
            self.hands[p] = []
            self.discarding = 1
            if not self.draw:
                self.draw, self.discard = sorted(self.discard), []
        else:
            c = action - g.START0
            self.pos[p] = g.board.city_centre[c]
            self.prev[p] = -1
            self.halved |= 2
            self._start_moves(p)
        self._settle()

    def _settle(self) -> None:
        """Resolve what follows automatically: the end of a discarding or lost turn, and
        (Mercy, Borrowing) the repayment of a loan as soon as the money is there."""
        if self.game.cfg.mercy_borrowing:
            for q, owed in enumerate(self.debt):
                if owed and self.cash[q] >= owed:
                    self.cash[q] -= owed
                    self.debt[q] = 0
        while not self.over and not self.pending and self.phase != DEAL:
            p = self.turn_player()
            if len(self.hands[p]) < self.game.hand_size:
                return
            if self.discarding or self.end_now:
                self.discarding = self.end_now = 0
                self._finish_turn()
                continue
            return

    def _deal(self, card: int) -> None:
        self._draw_card(card)
        size = self.game.deal_size
        p = next(q for q in range(self.game.num_players) if len(self.hands[q]) < size)
        if card >= FIRST_EVENT:
            self.aside.append(card)
        else:
            self.hands[p].append(card)
        if all(len(h) == size for h in self.hands):
            if self.game.cfg.fast_game:  # the events dealt stay aside, out of play
                self.draw = sorted(self.draw + self.discard)
            else:
                self.draw = sorted(self.draw + self.aside + self.discard)
                self.aside = []
            self.discard = []

            def key(q: int) -> tuple[list[int], int]:
                pays = sorted(
                    (d.payment for c in self.hands[q] for d in self.game.demands[c]),
                    reverse=True,
                )
                return (pays, -q)

            chosen = self.game.cfg.first_player
            self.first = max(range(self.game.num_players), key=key) if chosen is None else chosen
            self.phase = BUILD if self.game.cfg.building_turns else OPS
            self._start_turn()

    def _draw_into_hand(self, card: int) -> None:
        p = self.turn_player()
        self._draw_card(card)
        if card < FIRST_EVENT:
            self.hands[p].append(card)
        else:
            self._event(card, p)

    def _start_turn(self) -> None:
        """Begin the turn of seat ``turn_player()``; lost turns pass by themselves."""
        g = self.game
        n = g.num_players
        while not self.over:
            p = self.turn_player()
            self.moves = self.halved = self.spent = self.from_major = self.upgraded = 0
            self.moves2 = self.halved2 = 0
            self.rented = [0] * n
            self.blocked = []
            if self._built_cache:
                self._built_cache = []
            if self.offered:
                self.offered = []
            self.traded = 0
            if self.lost[p]:
                self.lost[p] = 0
                if g.cfg.mercy_backtracking:  # a lost turn serves as a backtrack
                    self.prev[p] = -1
                    if self.pos2:
                        self.prev2[p] = -1
                self._end_of_turn(p)
                continue
            if self.t < g.cfg.building_turns * n:
                self.phase = BUILD
                return
            self.phase = OPS
            if self.on_ferry[p] >= 0:
                self.pos[p] = self.on_ferry[p]
                self.on_ferry[p] = -1
                self.prev[p] = -1
                self.moves = g.half[self.train[p]]
                self.halved = 1
            elif self.pos[p] >= 0:
                self._start_moves(p)
            if self.pos2:
                self._start_second(p)
            return

    def _finish_turn(self) -> None:
        p = self.turn_player()
        self._end_of_turn(p)
        self._start_turn()

    def _end_of_turn(self, p: int) -> None:
        """Turn bookkeeping: the victory declaration, event expiry, the round's end."""
        g = self.game
        n = g.num_players
        if self.normal_round() >= 0 and self.cash[p] >= self.target and self.connected(p):
            self.declared[p] = 1
        self.turns_done[p] += 1
        if self.warehouse:  # Field Warehousing: back to the tray after 4 more turns
            for w in [w for w in self.warehouse if w[2] == p and self.turns_done[p] >= w[3]]:
                self.warehouse.remove(w)
                self.chips[w[1]] += 1
        keep = []
        for a in self.active:
            if a[1] == p and a[2] <= self.turns_done[p]:
                self.discard.append(a[0])
                for card, e, o in self.erased:
                    if card == a[0]:
                        self.reserve.append([e, o, self.turns_done[o] + 1])
                self.erased = [x for x in self.erased if x[0] != a[0]]
            else:
                keep.append(a)
        self.active = keep
        self.reserve = [r for r in self.reserve if self.turns_done[r[1]] < r[2]]
        rnd = self.normal_round()
        last_of_round = rnd >= 0 and (self.t - g.cfg.building_turns * n) % n == n - 1
        self.t += 1
        if not last_of_round:
            return
        if any(self.declared):
            cands = [q for q in range(n) if self.declared[q]]
            best = max(self.cash[q] for q in cands)
            top = [q for q in cands if self.cash[q] == best]
            if len(top) == 1:
                self.winners_ = top
                self.over = 1
                self.phase = OVER
                return
            self.target += 50
            self.declared = [0] * n
        clock = g.cfg.time_limit
        if rnd + 1 >= g.cfg.turn_limit or (clock and self.t - g.cfg.building_turns * n >= clock):
            linked = [q for q in range(n) if self.connected(q)]
            pool = linked or list(range(n))
            best = max(self.cash[q] for q in pool)
            self.winners_ = [q for q in pool if self.cash[q] == best]
            self.over = 1
            self.phase = OVER

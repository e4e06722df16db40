"""El Dorado: the dice adventure — the rules engine.

A turn is a sequence of atomic decisions (DESIGN.md §2)::

    [roll: one chance node per die]  ->  start  ->  use  ->  (next seat)

* **roll** — when no die lies in the middle, every die is rolled, one chance node per die
  in die order (``roll d3=torch``). The re-roll special action and the ethnographer roll
  too.
* **start** — the seat may use the ethnographer (first action only), a special-action
  resource (re-roll all, take two dice, use one die twice / three times), then chooses a
  die (``take d2``), or two with *take two*.
* **use** — each use of a chosen die (``d2 move c4``, ``d2 offer e2``, ``d2 pay f3``,
  ``d2 fill 3coins/1``), optionally one resource activated (``activate 2machetes``) and
  its items used (``res move c5``), or a die's coins combined with a coin resource for
  one offering (``d2+res offer h3``). A die or item without any possible use is discarded
  (``discard d2``). ``end`` closes the turn when only the optional resource is left; the
  turn also ends by itself when nothing is left to do.

The position notation and every rule interpretation are in ``docs/rules/eldorado.md``.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eldorado", players=2, map=1), seed=3)
>>> state.current_player(), state.phase_name()
(0, 'start')
>>> state.action_to_string(state.legal_actions()[0])
'take d0'
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pydantic import Field, field_validator

from motherlode.core.errors import ConfigError
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games.eldorado.sheets import (
    AMULET,
    COIN0,
    GOLDEN,
    MAP,
    MAX_COINS_ON_FACE,
    PATH,
    SETTLEMENT,
    SIGNPOST,
    SLOT_ANY,
    SLOT_COIN,
    TEMPLE,
    TORCH,
    Face,
    Sheet,
    face_name,
    load_dice,
    load_sheet,
)
from motherlode.games.eldorado.value import race_chances, values

NUM_DICE = 7
SIGNPOST_DIE = 6
ROLL, START, USE, OVER = range(4)
PHASES = ("roll", "start", "use", "over")
ZERO = 99
"""Item code of the zero-offering right (map 2)."""

SRC_RES = 7
SRC_REWARD = 8
SRC_COMBO = 9
NUM_SRC = 16
"""Sources of a targeted action: 0..6 die ``d``, 7 the active resource's next item, 8 the
map-1 reward (a die showing a signpost), 9..15 die ``d - 9`` plus the resource's coins."""


def _set_bits(out: np.ndarray, offset: int, mask: int) -> None:
    """``out[offset + b] = 1`` for each bit ``b`` set in ``mask`` (``out`` zero there):
    a loop over the set bits only, cheaper than any numpy unpacking of a small mask.

    >>> out = np.zeros(6, dtype=np.float32)
    >>> _set_bits(out, 1, 0b1101)
    >>> out.tolist()
    [0.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    """
    while mask:
        low = mask & -mask
        out[offset + low.bit_length() - 1] = 1.0
        mask ^= low


class EldoradoConfig(GameConfig):
    """Options of El Dorado: the dice adventure."""

    players: int = Field(
        default=2, description="number of players, 1..4 (1 = solo, our extension)"
    )
    map: int = Field(
        default=1, ge=1, le=4, description="expedition sheet 1..4 (harder as it rises)"
    )
    hard: bool = Field(
        default=False,
        description="harder level: keep the yellow temple (one more temple to offer in)",
    )
    max_rounds: int = Field(
        default=60, ge=1, le=500,
        description="round limit (our extension, so that every game ends): if nobody has"
        " entered El Dorado by then, most temples offered in wins, then most coins offered",
    )
    coin_faces: str | None = Field(
        default=None,
        description="coins on the coin face of each of the six expedition dice, e.g."
        " '1,1,2,2,3,3' (default: data/dice.json, designed)",
    )
    dice_file: str | None = Field(default=None, description="a user's own dice JSON file")
    sheet_file: str | None = Field(
        default=None, description="a user's own transcription of the sheet (JSON, as data/)"
    )
    first_player: int = Field(
        0, ge=0,
        description="the seat that begins and circles the hat (the one most recently on an"
        " expedition, or the youngest)",
    )

    @field_validator("coin_faces", mode="before")
    @classmethod
    def _join_coin_faces(cls, value: Any) -> Any:
        """Accept ``[1, 1, 2, 2, 3, 3]`` (as the CLI splits commas) as well as ``"1,1,..."``."""
        if isinstance(value, list | tuple):
            return ",".join(str(v).strip() for v in value)
        return value


class EldoradoGame(Game):
    """El Dorado: the dice adventure, for 1..4 players on one of the four sheets."""

    name: ClassVar[str] = "eldorado"
    rules_version: ClassVar[int] = 2
    rules_changes: ClassVar[dict[int, str]] = {
        2: "El Dorado, Continuing the Expedition Beyond a Temple: a space beyond a temple is"
        " filled only in a turn after the offering in it (no second die use or resource item"
        " goes on past it in the same turn); El Dorado, Map No. 2: sheet 2's machete and torch"
        " resources are replaced by the amulet (cost a torch) and map (cost the flat symbol"
        " 'a resource or die with 2 coins') resources its two examples use",
    }
    notation_version: ClassVar[int] = 2
    Config: ClassVar[type[GameConfig]] = EldoradoConfig
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        assert isinstance(config, EldoradoConfig)
        self.cfg: EldoradoConfig = config
        if config.first_player >= config.players:
            raise ConfigError(
                f"invalid eldorado config: first_player must be a seat 0..{config.players - 1}"
                f" of the {config.players} players (got {config.first_player})"
            )
        self.sheet: Sheet = load_sheet(config.map, config.sheet_file)
        self.dice: tuple[tuple[Face, ...], ...] = load_dice(config.dice_file, config.coin_faces)
        self.required = self.sheet.required(config.hard)
        sh = self.sheet
        self.ns = len(sh.spaces)
        self.nl = sh.num_slots
        self.nr = len(sh.resources)
        self.nt = self.ns + self.nl
        self.choose_base = NUM_SRC * self.nt
        self.activate_base = self.choose_base + NUM_DICE
        self.ethno_action = self.activate_base + self.nr
        self.discard_base = self.ethno_action + 1
        self.end_action = self.discard_base + SRC_REWARD + 1
        self.res_mask = tuple(sum(1 << s for s in r.slots) for r in sh.resources)
        self.visit_mask = tuple(sum(1 << s for s in r.visit) for r in sh.resources)
        self.cartographer = sh.ability_index("map_as_signpost")
        self.guide2 = sh.ability_index("amulet_as_2_coins")
        self.guide1 = sh.ability_index("plus_one_coin")
        self.ethnographer = sh.ability_index("reroll_on_torch")
        self.reward_mask = sum(1 << s.index for s in sh.spaces if s.reward)
        # the tensor: its size, a sheet's part, and the parts built so far (each sheet,
        # the temples' marks), keyed by what they are made of
        self.obs_size: int = self.observation_tensor_shape()[0]
        self.sheet_size: int = 3 * self.ns + self.nl + self.nr + 2
        self.tensor_parts: dict[tuple[Any, ...], np.ndarray] = {}
        self.fees: tuple[tuple[int, int], ...] = tuple(
            (s, space.fee) for s, space in enumerate(sh.spaces) if space.fee
        )
        # chance: one outcome per distinct face (its first index on the die), p = count / 6
        self.roll_outcomes: tuple[list[tuple[Action, float]], ...] = tuple(
            [(i, die.count(f) / 6) for i, f in enumerate(die) if die.index(f) == i]
            for die in self.dice
        )

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the tensor's cached parts (a worker builds its own)."""
        state = self.__dict__.copy()
        state["tensor_parts"] = {}
        return state

    # -- facts ------------------------------------------------------------------------

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """Every sheet at 2 players on both levels, plus 1, 3 and 4 players on sheets 1 and 4."""
        out: list[dict[str, Any]] = [
            {"players": 2, "map": m, "hard": h} for m in (1, 2, 3, 4) for h in (False, True)
        ]
        out += [{"players": 1, "map": 1, "hard": False},
                {"players": 3, "map": 4, "hard": True, "first_player": 1},
                {"players": 4, "map": 3, "hard": False}]
        return out

    @property
    def num_distinct_actions(self) -> int:
        return self.end_action + 1

    @property
    def max_chance_outcomes(self) -> int:
        return 6

    @property
    def max_game_length(self) -> int:
        # per turn: <= 2 re-rolls of 7 dice + the needed roll, <= 2 chooses, 3 die uses,
        # an activation, 2 items, rewards, discards, end: 80 is a safe bound
        return self.cfg.max_rounds * self.num_players * 80

    def observation_tensor_shape(self) -> tuple[int, ...]:
        per_player = 3 * self.ns + self.nl + self.nr + 2
        return (self.num_players * per_player + NUM_DICE * 13 + 2 * self.ns + 16,)

    def observation_layout(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """The flat tensor's named slices, ``(name, offset, shape)``, in order.

        ``sheets`` is ``(players, columns)``, observer first; per sheet: each space
        visited (``ns``), its fee paid / fee (``ns``), the coins offered there / 4
        (``ns``), each lake filled (``nl``), each resource used (``nr``), temples
        offered / required, entered the golden temple. ``dice`` per die: its face
        one-hot (10), chosen, uses left / 3, to roll; ``temples`` per space the
        temple's minimum (+ 1) / 5, then whether its reward is claimed; ``turn`` the
        phase one-hot (4), round / rounds, resource used, first use, bonus used, items
        / 2, rewards this turn, choices left / 2, uses per die / 3, then the seat to
        move one-hot by its distance from the observer (4 slots).

        >>> EldoradoGame.from_config(players=2).observation_layout()[1:3]
        [('dice', 322, (7, 13)), ('temples', 413, (2, 46))]
        """
        per_player = 3 * self.ns + self.nl + self.nr + 2
        parts: list[tuple[str, tuple[int, ...]]] = [
            ("sheets", (self.num_players, per_player)),
            ("dice", (NUM_DICE, 13)),
            ("temples", (2, self.ns)),
            ("turn", (16,)),
        ]
        out, offset = [], 0
        for name, shape in parts:
            out.append((name, offset, shape))
            offset += shape[0] * (shape[1] if len(shape) > 1 else 1)
        return out

    def observation_bounds(self) -> dict[str, tuple[Any, Any]]:
        """Each slice's ``(low, high)``: flags and fractions in [0, 1], but an offering's
        coins (a die's face, the Guide's bonus coin and an item's coins: at most
        ``2 * MAX_COINS_ON_FACE + 1``), the temples offered in over those required, and
        the rewards claimed in one turn (all of them).

        >>> EldoradoGame.from_config(players=2).observation_bounds()["temples"]
        (0.0, ((2.0,), (1.0,)))
        """
        ns, sh = self.ns, self.sheet
        coins = 2 * MAX_COINS_ON_FACE + 1
        temples = sh.temple_mask.bit_count() / max(1, self.required)
        sheet = (1.0,) * (2 * ns) + (coins / 4.0,) * ns + (1.0,) * (self.nl + self.nr)
        turn = (1.0,) * 9 + (float(self.reward_mask.bit_count()),) + (1.0,) * 6
        return {
            "sheets": (0.0, (*sheet, temples, 1.0)),
            "dice": (0.0, 1.0),
            "temples": (0.0, (((coins + 1) / 5.0,), (1.0,))),
            "turn": (0.0, turn),
        }

    # -- states -----------------------------------------------------------------------

    def new_initial_state(self) -> EldoradoState:
        return EldoradoState(self)


class EldoradoState(State):
    """A position: the dice, the turn in progress and every player's sheet (all public)."""

    game: EldoradoGame

    def __init__(self, game: EldoradoGame, *, blank: bool = False) -> None:
        super().__init__(game)
        n = game.num_players
        ns = game.ns
        self.round = 1
        self.seat = game.cfg.first_player
        self.phase = ROLL
        # the dice: face in the middle or -1; the mover's chosen dice and their uses
        self.middle: list[int] = [-1] * NUM_DICE
        self.to_roll: list[int] = list(range(NUM_DICE))
        self.held: list[int] = [-1] * NUM_DICE
        self.uses: list[int] = [0] * NUM_DICE
        # the turn in progress
        self.choose_left = 1
        self.uses_per_die = 1
        self.res_active = -1
        self.items: list[int] = []
        self.res_used = False
        self.reward = 0
        self.first = True
        self.bonus_used = False
        self.fresh = 0
        """Temples the mover offered in this turn: the route goes on beyond them only in
        later turns ("may continue the expedition in subsequent turns")."""
        # public marks: first offering per temple, claimed map-1 rewards
        self.minima: list[int] = [-1] * ns
        self.claimed: list[int] = [-1] * ns
        # the sheets
        self.visited: list[int] = [0] * n
        self.frontier: list[int] = [0] * n
        self.paid: list[list[int]] = [[0] * ns for _ in range(n)]
        self.filled: list[int] = [0] * n
        self.used: list[int] = [0] * n
        self.offers: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        if blank:
            self.to_roll = []

    def clone(self) -> EldoradoState:
        new = EldoradoState.__new__(EldoradoState)
        new.game = self.game
        new._history = list(self._history)
        new.round, new.seat, new.phase = self.round, self.seat, self.phase
        new.middle = list(self.middle)
        new.to_roll = list(self.to_roll)
        new.held = list(self.held)
        new.uses = list(self.uses)
        new.choose_left, new.uses_per_die = self.choose_left, self.uses_per_die
        new.res_active, new.items, new.res_used = self.res_active, list(self.items), self.res_used
        new.reward, new.first, new.bonus_used = self.reward, self.first, self.bonus_used
        new.fresh = self.fresh
        new.minima = list(self.minima)
        new.claimed = list(self.claimed)
        new.visited = list(self.visited)
        new.frontier = list(self.frontier)
        new.paid = [list(p) for p in self.paid]
        new.filled = list(self.filled)
        new.used = list(self.used)
        new.offers = [list(o) for o in self.offers]
        return new

    # -- queries ------------------------------------------------------------------------

    def phase_name(self) -> str:
        return PHASES[self.phase]

    def current_player(self) -> Player:
        if self.phase == ROLL:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.seat

    def obtained(self, p: Player, r: int) -> bool:
        """True when seat ``p`` has obtained resource / hired helper ``r``."""
        g = self.game
        res = g.sheet.resources[r]
        if res.visit:
            m = g.visit_mask[r]
            return self.visited[p] & m == m
        m = g.res_mask[r]
        return self.filled[p] & m == m

    def has(self, p: Player, r: int) -> bool:
        return r >= 0 and self.obtained(p, r)

    def entered(self, p: Player) -> bool:
        return bool(self.visited[p] >> self.game.sheet.golden & 1)

    def temples_offered(self, p: Player) -> int:
        """Offerings in ordinary temples (the golden temple not counted)."""
        g = self.game.sheet.golden
        return sum(1 for s, _ in self.offers[p] if s != g)

    def coins_offered(self, p: Player) -> int:
        """Coins written on the temple symbols and beside them (the tie-break)."""
        g = self.game.sheet.golden
        return sum(c for s, c in self.offers[p] if s != g)

    def accessible(self, p: Player) -> int:
        """Bitmask of the spaces ``p`` may fill next (a start space for the first one)."""
        v = self.visited[p]
        if v == 0:
            return self.game.sheet.start_mask
        return self.frontier[p] & ~v

    def die_coins(self, p: Player, face: Face) -> int:
        """Coins a chosen die gives ``p`` now (guides included)."""
        g = self.game
        c = face - COIN0 if face > COIN0 else 0
        if face == AMULET and self.has(p, g.guide2):
            c = 2
        if c and not self.bonus_used and self.has(p, g.guide1):
            c += 1
        return c

    def _targets(self, p: Player, face: int, is_die: bool, extra: int = 0) -> list[int]:
        """Targets (space index, or ``ns + slot``) a unit showing ``face`` may act on.

        ``extra``: coins of the resource combined with a die (an offering only).
        """
        g = self.game
        sh = g.sheet
        acc = self.accessible(p)
        out: list[int] = []
        joker = face == SIGNPOST or (is_die and face == MAP and self.has(p, g.cartographer))
        coins = self.die_coins(p, face) if is_die else (face - COIN0 if COIN0 < face < ZERO else 0)
        if extra:
            coins += extra
            m = acc & sh.temple_mask
        else:
            m = 0
            if face < 6:
                m = acc & (sh.path_mask if joker else sh.symbol_mask[face])
            if is_die and coins:
                m |= acc & (sh.temple_mask | sh.settlement_mask)
            elif face == ZERO:
                m |= acc & sh.temple_mask
        minima = self.minima
        while m:
            low = m & -m
            s = low.bit_length() - 1
            m ^= low
            if (sh.temple_mask >> s) & 1:
                mn = minima[s]
                if face == ZERO:
                    if mn > 0:
                        continue
                elif coins < mn:
                    continue
            out.append(s)
        gold = sh.golden
        if ((is_die or extra) and coins >= sh.golden_minimum and (acc >> gold) & 1
                and self.temples_offered(p) >= g.required):
            out.append(gold)
            out.sort()
        if extra:
            return out
        # resources-and-helpers zone: the first free slot of each kind the unit fits
        filled = self.filled[p]
        kinds = sh.slot_kind
        ns = g.ns
        for res in sh.resources:
            if not res.slots or filled & g.res_mask[res.index] == g.res_mask[res.index]:
                continue
            seen = 0
            for slot in res.slots:
                if (filled >> slot) & 1:
                    continue
                k = kinds[slot]
                if (seen >> k) & 1:
                    continue
                seen |= 1 << k
                if k == SLOT_ANY:
                    ok = is_die
                elif k == SLOT_COIN:
                    ok = coins > 0
                elif k > SLOT_COIN:  # flat "a resource or die with c coins": at least c
                    ok = coins >= k - SLOT_COIN
                else:
                    ok = face == k or (joker and face < 6)
                if ok:
                    out.append(ns + slot)
        return out

    def _item_useful(self, p: Player, r: int) -> bool:
        res = self.game.sheet.resources[r]
        if res.items:
            return bool(self._targets(p, res.items[0], False))
        if res.zero:
            return bool(self._targets(p, ZERO, False))
        if self._targets(p, COIN0 + res.coins, False):
            return True
        return any(
            self.uses[d] and self.die_coins(p, self.held[d])
            and self._targets(p, self.held[d], True, res.coins)
            for d in range(NUM_DICE)
        )

    def _activatable(self, p: Player) -> list[int]:
        if self.res_used:
            return []
        g = self.game
        out = []
        for res in g.sheet.resources:
            r = res.index
            if (res.gives_items and not (self.used[p] >> r) & 1 and self.obtained(p, r)
                    and self._item_useful(p, r)):
                out.append(r)
        return out

    def _legal_actions(self) -> list[Action]:
        g = self.game
        p = self.seat
        nt = g.nt
        if self.phase == START:
            out = [g.choose_base + d for d in range(NUM_DICE) if self.middle[d] >= 0]
            in_middle = len(out)
            if not self.res_used and self.choose_left == 1:
                for res in g.sheet.resources:
                    r = res.index
                    if (res.special and not (self.used[p] >> r) & 1 and self.obtained(p, r)
                            and (res.special != "take_two" or in_middle >= 2)):
                        out.append(g.activate_base + r)
            if self.first and self.has(p, g.ethnographer) and TORCH in self.middle:
                out.append(g.ethno_action)
            return out
        out = []
        if self.reward:
            t = self._targets(p, SIGNPOST, True)
            if not t:
                return [g.discard_base + SRC_REWARD]
            return [SRC_REWARD * nt + x for x in t]
        busy = False
        for d in range(NUM_DICE):
            if self.uses[d]:
                busy = True
                t = self._targets(p, self.held[d], True)
                if t:
                    base = d * nt
                    out.extend(base + x for x in t)
                else:
                    out.append(g.discard_base + d)
        if self.items:
            busy = True
            item = self.items[0]
            t = self._targets(p, item, False)
            if t:
                out.extend(SRC_RES * nt + x for x in t)
            else:
                out.append(g.discard_base + SRC_RES)
            if COIN0 < item < ZERO:
                for d in range(NUM_DICE):
                    if self.uses[d] and self.die_coins(p, self.held[d]):
                        base = (SRC_COMBO + d) * nt
                        out.extend(base + x for x in self._targets(p, self.held[d], True,
                                                                   item - COIN0))
        if self.res_active < 0:
            out.extend(g.activate_base + r for r in self._activatable(p))
        if not busy:
            out.append(g.end_action)
        out.sort()
        return out

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(self.game.roll_outcomes[self.to_roll[0]])

    # -- moving -----------------------------------------------------------------------------

    def _visit(self, p: Player, s: int) -> None:
        g = self.game
        self.visited[p] |= 1 << s
        self.frontier[p] |= g.sheet.adj_mask[s]
        if (g.reward_mask >> s) & 1 and self.claimed[s] < 0:
            self.claimed[s] = p
            self.reward += 1

    def _apply_action(self, action: Action) -> None:
        g = self.game
        if self.phase == ROLL:
            d = self.to_roll.pop(0)
            self.middle[d] = g.dice[d][action]
            if not self.to_roll:
                self.phase = START
            return
        p = self.seat
        self.first = False
        if action < g.choose_base:
            self._apply_targeted(p, action // g.nt, action % g.nt)
        elif action < g.activate_base:
            d = action - g.choose_base
            self.held[d] = self.middle[d]
            self.middle[d] = -1
            self.uses[d] = self.uses_per_die
            self.choose_left -= 1
            if self.choose_left == 0:
                self.phase = USE
        elif action < g.ethno_action:
            self._activate(p, action - g.activate_base)
        elif action == g.ethno_action:
            self.to_roll = [d for d in range(NUM_DICE) if self.middle[d] >= 0]
            for d in self.to_roll:
                self.middle[d] = -1
            self.phase = ROLL
        elif action < g.end_action:
            src = action - g.discard_base
            if src < NUM_DICE:
                self.uses[src] -= 1
            elif src == SRC_RES:
                self.items.pop(0)
            else:
                self.reward -= 1
        else:
            self._end_turn()
            return
        if self.phase == USE:
            self._maybe_end_turn(p)

    def _activate(self, p: Player, r: int) -> None:
        res = self.game.sheet.resources[r]
        self.res_used = True
        self.used[p] |= 1 << r
        self.res_active = r
        if res.items:
            self.items = list(res.items)
        elif res.coins:
            self.items = [COIN0 + res.coins]
        elif res.zero:
            self.items = [ZERO]
        elif res.special == "reroll_all":
            self.middle = [-1] * NUM_DICE
            self.to_roll = list(range(NUM_DICE))
            self.phase = ROLL
        elif res.special == "take_two":
            self.choose_left = 2
        elif res.special == "use_twice":
            self.uses_per_die = 2
        elif res.special == "use_thrice":
            self.uses_per_die = 3

    def _apply_targeted(self, p: Player, src: int, target: int) -> None:
        g = self.game
        sh = g.sheet
        extra = 0
        if src < NUM_DICE or src >= SRC_COMBO:
            d = src if src < NUM_DICE else src - SRC_COMBO
            face = self.held[d]
            self.uses[d] -= 1
            is_die = True
            if src >= SRC_COMBO:
                extra = self.items.pop(0) - COIN0
        elif src == SRC_RES:
            face = self.items.pop(0)
            is_die = False
        else:
            face = SIGNPOST
            self.reward -= 1
            is_die = True
        if target >= g.ns:
            self._fill_slot(p, face, is_die, target - g.ns)
            return
        space = sh.spaces[target]
        kind = space.kind
        if kind == PATH:
            self._visit(p, target)
            return
        if face == ZERO:
            coins = 0
        else:
            coins = self.die_coins(p, face) + extra if is_die else 0
            if (face > COIN0 or (face == AMULET and self.has(p, g.guide2))) and self.has(
                p, g.guide1
            ):
                self.bonus_used = True
        if kind == SETTLEMENT:
            paid = self.paid[p]
            paid[target] = min(space.fee, paid[target] + coins)
            if paid[target] == space.fee:
                self._visit(p, target)
            return
        # a temple or the golden temple: an offering; the spaces beyond it open next turn
        self.offers[p].append((target, coins))
        if kind == TEMPLE and self.minima[target] < 0:
            self.minima[target] = coins
        self.visited[p] |= 1 << target
        self.fresh |= 1 << target

    def _fill_slot(self, p: Player, face: int, is_die: bool, slot: int) -> None:
        g = self.game
        sh = g.sheet
        kind = sh.slot_kind[slot]
        if kind != SLOT_COIN:
            self.filled[p] |= 1 << slot
            if kind > SLOT_COIN and is_die and self.has(p, g.guide1):
                self.bonus_used = True  # the die's coins were used (excess lost)
            return
        if is_die:
            coins = self.die_coins(p, face)
            if self.has(p, g.guide1):
                self.bonus_used = True
        else:
            coins = face - COIN0
        res = sh.resources[sh.slot_owner[slot]]
        for s in res.slots:
            if coins and sh.slot_kind[s] == SLOT_COIN and not (self.filled[p] >> s) & 1:
                self.filled[p] |= 1 << s
                coins -= 1

    def _maybe_end_turn(self, p: Player) -> None:
        if self.reward or self.items or any(self.uses):
            return
        if self.res_used or not self._activatable(p):
            self._end_turn()

    def _end_turn(self) -> None:
        fresh = self.fresh
        if fresh:
            adj = self.game.sheet.adj_mask
            p = self.seat
            while fresh:
                low = fresh & -fresh
                self.frontier[p] |= adj[low.bit_length() - 1]
                fresh ^= low
            self.fresh = 0
        self.held = [-1] * NUM_DICE
        self.uses = [0] * NUM_DICE
        self.choose_left = 1
        self.uses_per_die = 1
        self.res_active = -1
        self.items = []
        self.res_used = False
        self.reward = 0
        self.first = True
        self.bonus_used = False
        n = self.game.num_players
        self.seat = (self.seat + 1) % n
        if self.seat == self.game.cfg.first_player:  # the round ends with the hat's right
            if self.round >= self.game.cfg.max_rounds or any(self.entered(q) for q in range(n)):
                self.phase = OVER
                return
            self.round += 1
        if max(self.middle) < 0:
            self.to_roll = list(range(NUM_DICE))
            self.phase = ROLL
        else:
            self.phase = START

    # -- results ------------------------------------------------------------------------------

    def scores(self) -> list[float]:
        """Coins offered in temples (the rulebook's tie-break count), per seat."""
        return [float(self.coins_offered(p)) for p in range(self.game.num_players)]

    def winners(self) -> tuple[Player, ...]:
        """Who entered El Dorado, most coins offered among them, ties share.

        Nobody in (round limit, our extension): most temples offered in, then most coins,
        then shared. Solo (our extension): the seat if it entered El Dorado, else nobody.
        """
        n = self.game.num_players
        if n == 1:
            return (0,) if self.entered(0) else ()
        pool = [p for p in range(n) if self.entered(p)]
        if not pool:
            top = max(self.temples_offered(p) for p in range(n))
            pool = [p for p in range(n) if self.temples_offered(p) == top]
        best = max(self.coins_offered(p) for p in pool)
        return tuple(p for p in pool if self.coins_offered(p) == best)

    def heuristic_values(self) -> list[float]:
        """A judgement of an unfinished game for search agents, one value per seat in (-1, 1).

        Each seat is valued by the greedy bot's evaluation (the route still to fill to the
        golden temple, resources held, offerings); the value is its lead over the best
        rival, squashed by ``0.9 * tanh(lead / 5)`` (solo: ``0.9 * tanh((30 + v) / 10)``).
        With three or four seats a seat must beat every rival, not only the best one (hurting
        one rival helps the others): the value is ``0.9 * (2 w - 1)``, ``w`` the seat's
        share of :func:`race_chances`, which is the 2-seat rule again for two seats.

        >>> import motherlode
        >>> s = motherlode.deal(motherlode.load("eldorado", players=2), seed=1)
        >>> s.heuristic_values()
        [0.0, 0.0]
        """
        return values(self)

    def termination(self) -> str:
        """Why the game ended: ``el-dorado`` (the round in which someone entered El Dorado
        was finished, rulebook "End of the Game") or ``round-limit`` (``max_rounds``, our
        extension); empty while the game runs.

        >>> import motherlode
        >>> motherlode.load("eldorado").new_initial_state().termination()
        ''
        """
        if self.phase != OVER:
            return ""
        if any(self.entered(p) for p in range(self.game.num_players)):
            return "el-dorado"
        return "round-limit"

    def solo_won(self) -> bool:
        """Solo (our extension): won when El Dorado is entered within ``max_rounds`` rounds."""
        return self.is_terminal() and self.entered(0)

    # -- views ------------------------------------------------------------------------------

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        """Everything (all sheets are open, the dice lie in the middle); ``seat`` is the viewer."""
        g = self.game
        sh = g.sheet
        labels = [s.label for s in sh.spaces]

        def sheet_view(p: int) -> dict[str, Any]:
            resources = {}
            for res in sh.resources:
                resources[res.id] = {
                    "filled": [bool((self.filled[p] >> s) & 1) for s in res.slots],
                    "obtained": self.obtained(p, res.index),
                    "used": bool((self.used[p] >> res.index) & 1),
                }
            return {
                "visited": [labels[s] for s in range(g.ns) if (self.visited[p] >> s) & 1],
                "settlement_payments": {labels[s]: c for s, c in enumerate(self.paid[p]) if c},
                "offerings": [[labels[s], c] for s, c in self.offers[p]],
                "temples_offered": self.temples_offered(p),
                "coins_offered": self.coins_offered(p),
                "resources": resources,
                "entered_el_dorado": self.entered(p),
            }

        return {
            "game": "eldorado",
            "map": sh.number,
            "hard": g.cfg.hard,
            "temples_required": g.required,
            "golden_minimum": sh.golden_minimum,
            "seat": player,
            "round": self.round,
            "max_rounds": g.cfg.max_rounds,
            "first_player": g.cfg.first_player,
            "to_move": self.current_player(),
            "phase": PHASES[self.phase],
            "dice_in_middle": {f"d{d}": face_name(f) for d, f in enumerate(self.middle) if f >= 0},
            "dice_to_roll": [f"d{d}" for d in self.to_roll],
            "turn": {
                "chosen": {f"d{d}": {"face": face_name(self.held[d]), "uses_left": self.uses[d]}
                           for d in range(NUM_DICE) if self.held[d] >= 0},
                "dice_to_choose": self.choose_left if self.phase == START else 0,
                "resource": sh.resources[self.res_active].id if self.res_active >= 0 else None,
                "items_left": [_item_name(i) for i in self.items],
                "resource_used": self.res_used,
                "reward_signposts": self.reward,
                "temples_offered_this_turn": [labels[t] for t in range(g.ns)
                                              if (self.fresh >> t) & 1],
            },
            "temple_minima": {labels[s]: m for s, m in enumerate(self.minima) if m >= 0},
            "rewards_claimed": {labels[s]: q for s, q in enumerate(self.claimed) if q >= 0},
            "sheets": [sheet_view(p) for p in range(g.num_players)],
        }

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """Flat float32 vector: each sheet (the viewer's first), the dice, public marks, turn.

        The PettingZoo env asks for it on every decision, and a decision changes little:
        each sheet and the temples' marks are built once per distinct content and kept in
        the game's ``tensor_parts`` (keyed by exactly what they are made of), so a tensor
        is mostly copies of parts already built; the dice and the turn are written anew.
        """
        g = self.game
        n = g.num_players
        me = 0 if player is None else player
        parts = g.tensor_parts
        if len(parts) > 4096:  # most hits are recent positions': start afresh now and then
            parts.clear()
        out = np.zeros(g.obs_size, dtype=np.float32)
        size = g.sheet_size
        i = 0
        for k in range(n):
            p = (me + k) % n
            key: tuple[Any, ...] = (
                self.visited[p],
                self.filled[p],
                self.used[p],
                tuple(self.paid[p]),
                tuple(self.offers[p]),
            )
            part = parts.get(key)
            if part is None:
                part = parts[key] = self._sheet_part(p)
            out[i : i + size] = part
            i += size
        for d in range(NUM_DICE):  # the dice change on most decisions: written directly
            if self.middle[d] >= 0:
                out[i + self.middle[d]] = 1.0
            if self.held[d] >= 0:
                out[i + 10] = 1.0
                out[i + 11] = self.uses[d] / 3.0
            if d in self.to_roll:
                out[i + 12] = 1.0
            i += 13
        marks = (-1, tuple(self.minima), tuple(self.claimed))
        part = parts.get(marks)
        if part is None:
            part = parts[marks] = self._temples_part()
        out[i : i + 2 * g.ns] = part
        i += 2 * g.ns
        turn = [
            0.0,
            0.0,
            0.0,
            0.0,
            self.round / g.cfg.max_rounds,
            float(self.res_used),
            float(self.first),
            float(self.bonus_used),
            len(self.items) / 2.0,
            float(self.reward),
            self.choose_left / 2.0,
            self.uses_per_die / 3.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ]
        turn[self.phase] = 1.0
        if self.phase in (START, USE):
            turn[12 + (self.seat - me) % n] = 1.0
        out[i : i + 16] = turn
        return out

    def _sheet_part(self, p: Player) -> np.ndarray:
        """Seat ``p``'s sheet in the tensor: visited, fees paid, coins offered, lakes
        filled, resources used, temples offered, entered the golden temple."""
        g = self.game
        ns, nl, nr = g.ns, g.nl, g.nr
        out = np.zeros(g.sheet_size, dtype=np.float32)
        _set_bits(out, 0, self.visited[p] & ((1 << ns) - 1))
        paid = self.paid[p]
        for s, fee in g.fees:  # the spaces with a fee; mostly nothing paid yet
            if paid[s]:
                out[ns + s] = paid[s] / fee
        for s, c in self.offers[p]:
            out[2 * ns + s] = c / 4.0
        i = 3 * ns
        _set_bits(out, i, self.filled[p] & ((1 << nl) - 1))
        _set_bits(out, i + nl, self.used[p] & ((1 << nr) - 1))
        i += nl + nr
        out[i] = self.temples_offered(p) / max(1, g.required)
        out[i + 1] = float(self.entered(p))
        return out

    def _temples_part(self) -> np.ndarray:
        """Per space the temple's minimum (+ 1) / 5, then whether its reward is claimed."""
        ns = self.game.ns
        out = np.zeros(2 * ns, dtype=np.float32)
        for s in range(ns):
            if self.minima[s] >= 0:
                out[s] = (self.minima[s] + 1) / 5.0
            if self.claimed[s] >= 0:
                out[ns + s] = 1.0
        return out

    # -- invariants ---------------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Dice: each of the 7 is in the middle, being rolled, chosen, or out; marks consistent."""
        g = self.game
        sh = g.sheet
        n = g.num_players
        for d in range(NUM_DICE):
            places = (self.middle[d] >= 0) + (d in self.to_roll) + (self.held[d] >= 0)
            assert places <= 1, f"die d{d} is in two places"
            if self.middle[d] >= 0:
                assert self.middle[d] in g.dice[d], f"d{d} shows a face it does not have"
            assert 0 <= self.uses[d] <= 3 and (self.uses[d] == 0 or self.held[d] >= 0), (
                f"die d{d}: uses left without being chosen")
        assert self.to_roll == sorted(self.to_roll), "dice are rolled in order"
        assert (self.phase == ROLL) == bool(self.to_roll), "dice to roll only in phase roll"
        assert sum(1 for d in range(NUM_DICE) if self.held[d] >= 0) <= 2, (
            "at most 2 dice are chosen in a turn")
        for s in range(g.ns):
            m = self.minima[s]
            if m >= 0:
                firsts = [c for p in range(n) for t, c in self.offers[p] if t == s]
                assert m in firsts and m <= min(firsts), f"minimum of {sh.spaces[s].label} wrong"
            if self.claimed[s] >= 0:
                assert (self.visited[self.claimed[s]] >> s) & 1, "reward claimed by a non-visitor"
        for p in range(n):
            v = self.visited[p]
            seen: set[int] = set()
            for s, c in self.offers[p]:
                assert s not in seen, "two offerings in one temple"
                seen.add(s)
                assert (v >> s) & 1 and c >= 0, (
                    f"an offering in {sh.spaces[s].label}, which is not visited")
            for s in range(g.ns):
                kind = sh.spaces[s].kind
                if kind in (TEMPLE, GOLDEN) and (v >> s) & 1:
                    assert s in seen, f"temple {sh.spaces[s].label} entered without an offering"
                if kind == SETTLEMENT:
                    assert 0 <= self.paid[p][s] <= sh.spaces[s].fee, "payment above the fee"
                    assert bool((v >> s) & 1) == (self.paid[p][s] == sh.spaces[s].fee), (
                        f"settlement {sh.spaces[s].label}: visited exactly when fully paid")
                elif self.paid[p][s]:
                    raise AssertionError("payment on a space that is no settlement")
            used = self.used[p]
            for r in range(g.nr):
                if (used >> r) & 1:
                    assert self.obtained(p, r), "a resource used before it was obtained"
        assert self.round <= g.cfg.max_rounds, "round above the round limit"
        assert self.fresh & ~self.visited[self.seat] == 0, "fresh temples are visited"


def _item_name(item: int) -> str:
    if item == ZERO:
        return "zero offering"
    if item > COIN0:
        return f"{item - COIN0} coins"
    return face_name(item)


Eldorado = EldoradoGame  # alias for one release

__all__ = ["Eldorado", "EldoradoConfig", "EldoradoGame", "EldoradoState", "race_chances"]

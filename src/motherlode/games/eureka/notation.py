"""Eureka's action notation and position notation (see ``docs/rules/eureka.md``).

Actions (decisions): ``roll``, ``pass``, ``stay``, ``move k5``, ``cross d8``.
Chance outcomes: ``die L`` (the locomotive; it counts one in fights), ``die 2`` .. ``die 6``,
``reveal G1`` .. ``reveal G5`` (a gold chip of that many nuggets), ``reveal R1`` ..
``reveal R5`` (a robber with that hat number).

A position is one line of space-separated ``key=value`` fields after a version tag::

    eureka/1 players=3 turn=0 actor=0 phase=turn die=0 loco=0 turns=0 duel=-
      miners=k14:0:0:0:0,n11:0:0:0:0,n8:0:0:0:0 rafts=h10,d8,m12,n15,m8,n4
      chips=ffffffffffffffff robbers=- bag=14.12.10.7.5.2.3.4.4.3

(one line in reality). ``miners`` gives per seat hex:gold:robbers:house gold:house robbers
(gold and robbers lying in front of the miner, then those safe in the house); ``chips`` is
a hex bit mask over the mining holes in board order (bit 0 = the first hole, the lowest
bit of the last digit) of those still holding a face-down chip; ``robbers`` lists face-up
robbers as hex:hat:nuggets under it; ``bag`` counts the face-down chips by kind (gold 1..5,
robber 1..5); ``duel`` is ``attacker v defender : attacker's roll`` while a duel runs.

>>> import motherlode
>>> game = motherlode.load("eureka", players=3)
>>> text = game.new_initial_state().serialize()
>>> text.split()[:4]
['eureka/1', 'players=3', 'turn=0', 'actor=0']
>>> game.deserialize(text).serialize() == text
True
"""

from __future__ import annotations

from collections.abc import Callable

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action, Notation
from motherlode.games.eureka import game as g
from motherlode.games.eureka.board import GOLD_VALUES, HOUSE, WATER
from motherlode.games.eureka.game import EurekaGame, EurekaState


def action_to_string(state: EurekaState, action: Action) -> str:
    if state.is_chance_node():
        if 0 <= action < 6:
            return f"die {g.DIE_FACES[action]}"
        if g.CHIP_BASE <= action < g.CHIP_BASE + g.NUM_KINDS:
            return f"reveal {g.CHIP_NAMES[action - g.CHIP_BASE]}"
        return f"chance#{action}"
    names = state.game.board.names
    if action == g.PASS:
        return "pass"
    if action == g.ROLL_DIE:
        return "roll"
    if action == g.STAY:
        return "stay"
    if g.MOVE_BASE <= action < state.game.cross_base:
        return f"move {names[action - g.MOVE_BASE]}"
    cb = state.game.cross_base
    if cb <= action < state.game.num_distinct_actions:
        return f"cross {names[state.game.board.landings[action - cb]]}"
    return f"action#{action}"


def _hex(state: EurekaState, word: str, text: str) -> int:
    board = state.game.board
    node = board.index.get(word)
    if node is None:
        last = board.names[-1]
        raise NotationError(
            f"eureka: {text!r}: no hex named {word!r} (rows a..{last[0]}, a letter and a"
            f" number, e.g. {board.names[len(board.names) // 2]})"
        )
    return node


def parse_action(state: EurekaState, text: str) -> Action:
    """Parse any well-formed action string (legal or not) to its id."""
    words = " ".join(text.split()).lower().split(" ")
    head = words[0]
    if head in ("die", "reveal"):
        if not state.is_chance_node():
            raise NotationError(
                f"eureka: {text!r} is a chance outcome, but a player decides now"
                " (roll, pass, stay, move <hex>, cross <hex>)"
            )
        if len(words) != 2:
            raise NotationError(f"eureka: {text!r}: expected '{head}' and one value")
        if head == "die":
            face = words[1].upper()
            if face == "1":
                face = "L"
            if face not in g.DIE_FACES:
                raise NotationError(f"eureka: {text!r}: a die face is L, 2, 3, 4, 5 or 6")
            return g.DIE_FACES.index(face)
        kind = words[1].upper()
        if kind not in g.CHIP_NAMES:
            raise NotationError(
                f"eureka: {text!r}: a chip is G1..G5 (gold nuggets) or R1..R5 (robber hat)"
            )
        return g.CHIP_BASE + g.CHIP_NAMES.index(kind)
    if state.is_chance_node():
        raise NotationError(
            f"eureka: {text!r}: chance acts now; give 'die <face>' or 'reveal <chip>'"
        )
    simple = {"pass": g.PASS, "roll": g.ROLL_DIE, "stay": g.STAY}
    if head in simple:
        if len(words) != 1:
            raise NotationError(f"eureka: {text!r}: '{head}' takes no argument")
        return simple[head]
    if head in ("move", "cross") and len(words) == 2:
        node = _hex(state, words[1], text)
        if head == "move":
            return g.MOVE_BASE + node
        slot = state.game.landing_slot.get(node)
        if slot is None:
            raise NotationError(
                f"eureka: {text!r}: {words[1]} is no landing space (a land space on a lake's"
                " bank)"
            )
        return state.game.cross_base + slot
    raise NotationError(
        f"eureka: cannot parse {text!r}: actions are roll, pass, stay, move <hex>,"
        " cross <hex> (chance: die <face>, reveal <chip>)"
    )


def explain_illegal(state: EurekaState, action: Action) -> str:
    """Why ``action`` is illegal here, and the rulebook's section that says so."""
    why = _why_illegal(state, action)
    if why == "no such action":
        return why
    rafts = ("lake water", "the miner is not on a raft", "only one figure may stand")
    if state.phase == g.RAFT or any(r in why for r in rafts):
        section = "Rafts"
    elif state.phase == g.RETREAT and "move away" in why:
        section = "Gold Miners versus Robbers"
    elif "a miner enters only his own" in why:
        section = "Rules of the Game"
    else:
        section = "The Die"
    return f"{why} (rulebook: {section})"


def _why_illegal(state: EurekaState, action: Action) -> str:
    """The rule that forbids ``action`` here."""
    board = state.game.board
    ph = state.phase
    if not 0 <= action < state.game.num_distinct_actions:
        return "no such action"
    if ph == g.TURN:
        return "a turn begins by throwing the die ('roll') or passing ('pass')"
    if ph == g.RAFT:
        if action == g.STAY or action >= state.game.cross_base:
            return (
                "a raft crosses only to a land space of the opposite bank of the same lake"
                " with no raft and no figure on it"
            )
        return "the miner is on a raft: 'cross <post>' or 'stay'"
    if ph in (g.MOVE, g.RETREAT):
        if action in (g.PASS, g.ROLL_DIE):
            return "the die is thrown already: choose where to move"
        if action == g.STAY:
            return "the miner can move, so must move the full number"
        if action >= state.game.cross_base:
            return "the miner is not on a raft"
        node = action - g.MOVE_BASE
        name = board.names[node]
        kind = board.kind[node]
        if kind == WATER:
            return f"{name} is lake water, crossed only by raft"
        if kind == HOUSE and node != board.houses[state.actor]:
            owner = board.houses.index(node)
            return f"{name} is the {board.colours[owner]} house; a miner enters only his own"
        if node == state.loco_node():
            return f"{name} holds the locomotive"
        others = {p for i, p in enumerate(state.pos) if i != state.actor}
        if node in state.rafts and node in others:
            return f"{name}: only one figure may stand on a raft, and one stands on this one"
        if ph == g.RETREAT and node == state.pos[state.actor]:
            return "the miner must move away from this hex"
        return (
            f"{name} is not exactly {state.die} hexes away (no straight back and forth"
            " between two hexes, no jumping the locomotive, houses and rafts end a move)"
        )
    return "it is not among the legal actions"


# -- position notation ------------------------------------------------------------------


def write_position(state: EurekaState) -> str:
    """The position notation of ``state`` (the module docstring has its fields)."""
    board = state.game.board
    names = board.names
    miners = ",".join(
        f"{names[state.pos[i]]}:{state.gold[i]}:{state.robbers[i]}:"
        f"{state.house_gold[i]}:{state.house_robbers[i]}"
        for i in range(state.game.num_players)
    )
    mask = 0
    for i, h in enumerate(board.holes):
        if state.facedown[h]:
            mask |= 1 << i
    width = (len(board.holes) + 3) // 4
    robbers = ",".join(
        f"{names[h]}:{hat}:{gold}" for h, (hat, gold) in sorted(state.stacks.items())
    )
    a, d, r = state.duel
    duel = f"{a}v{d}:{r}" if a >= 0 else "-"
    return (
        f"{g.NOTATION_VERSION} players={state.game.num_players} turn={state.turn}"
        f" actor={state.actor} phase={g.PHASES[state.phase]} die={state.die} loco={state.loco}"
        f" turns={state.turns} duel={duel} miners={miners}"
        f" rafts={','.join(names[r] for r in state.rafts)} chips={mask:0{width}x}"
        f" robbers={robbers or '-'} bag={'.'.join(str(c) for c in state.bag)}"
    )


def _int(key: str, value: str, lo: int, hi: int) -> int:
    if not value.isdigit() or not lo <= int(value) <= hi:
        raise NotationError(f"eureka position: {key}={value!r} must be an integer {lo}..{hi}")
    return int(value)


_FIELDS = ["players", "turn", "actor", "phase", "die", "loco", "turns", "duel", "miners",
           "rafts", "chips", "robbers", "bag"]


def read_position(game: EurekaGame, text: str) -> EurekaState:
    """The state whose notation is ``text``; bad text raises NotationError naming the field."""
    fields = _fields(text)
    n = game.num_players
    if _int("players", fields["players"], 1, 99) != n:
        raise NotationError(f"eureka position: players={fields['players']} but this game has {n}")
    state = EurekaState.initial(game)
    _read_counters(state, fields)
    _read_duel(state, fields["duel"])
    _read_miners(state, fields["miners"])
    _read_rafts(state, fields["rafts"])
    _read_chips(state, fields["chips"])
    _read_robbers(state, fields["robbers"])
    _read_bag(state, fields["bag"])
    _check_phase(state)
    try:
        state.check_invariants()
    except AssertionError as err:
        raise NotationError(f"eureka position is inconsistent: {err}") from None
    return state


def _fields(text: str) -> dict[str, str]:
    """The version tag checked, the ``key=value`` fields, each known field exactly once."""
    if not isinstance(text, str):
        raise NotationError("eureka position: not a string")
    tokens = text.split()
    if not tokens or tokens[0] != g.NOTATION_VERSION:
        raise NotationError(f"eureka position must start with {g.NOTATION_VERSION!r}")
    fields: dict[str, str] = {}
    for tok in tokens[1:]:
        key, eq, value = tok.partition("=")
        if not eq:
            raise NotationError(f"eureka position: field {tok!r} is not key=value")
        if key in fields:
            raise NotationError(f"eureka position: field {key!r} given twice")
        fields[key] = value
    missing = [k for k in _FIELDS if k not in fields]
    extra = [k for k in fields if k not in _FIELDS]
    if missing or extra:
        raise NotationError(
            "eureka position: "
            + (f"missing field(s) {', '.join(missing)}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"unknown field(s) {', '.join(extra)}" if extra else "")
        )
    return fields


def _read_counters(state: EurekaState, fields: dict[str, str]) -> None:
    """turn, actor, phase, die, loco and turns."""
    game = state.game
    n = game.num_players
    state.turn = _int("turn", fields["turn"], 0, n - 1)
    state.actor = _int("actor", fields["actor"], 0, n - 1)
    if fields["phase"] not in g.PHASES:
        raise NotationError(
            f"eureka position: phase={fields['phase']!r} is not one of {', '.join(g.PHASES)}"
        )
    state.phase = g.PHASES.index(fields["phase"])
    state.die = _int("die", fields["die"], 0, 6)
    state.loco = _int("loco", fields["loco"], 0, len(game.board.track) - 1)
    state.turns = _int("turns", fields["turns"], 0, game.cfg.max_turns)


def _node(state: EurekaState, key: str, word: str) -> int:
    idx = state.game.board.index.get(word)
    if idx is None:
        raise NotationError(f"eureka position: {key}: no hex named {word!r}")
    return idx


def _read_duel(state: EurekaState, duel: str) -> None:
    n = state.game.num_players
    if duel == "-":
        state.duel = (-1, -1, 0)
        return
    try:
        ad, _, roll = duel.partition(":")
        a, _, d = ad.partition("v")
        state.duel = (int(a), int(d), int(roll))
    except ValueError:
        raise NotationError(f"eureka position: duel={duel!r} is not A v D : roll") from None
    if not (0 <= state.duel[0] < n and 0 <= state.duel[1] < n and 0 <= state.duel[2] <= 6):
        raise NotationError(f"eureka position: duel={duel!r} is out of range")


def _read_miners(state: EurekaState, field: str) -> None:
    n = state.game.num_players
    miners = field.split(",")
    if len(miners) != n:
        raise NotationError(f"eureka position: miners lists {len(miners)} seats, not {n}")
    for i, m in enumerate(miners):
        parts = m.split(":")
        if len(parts) != 5:
            raise NotationError(
                f"eureka position: miners[{i}]={m!r} is not hex:gold:robbers:housegold:houserobbers"
            )
        state.pos[i] = _node(state, f"miners[{i}]", parts[0])
        nums = [_int(f"miners[{i}]", p, 0, 10_000) for p in parts[1:]]
        state.gold[i], state.robbers[i], state.house_gold[i], state.house_robbers[i] = nums


def _read_rafts(state: EurekaState, field: str) -> None:
    board = state.game.board
    rafts = field.split(",")
    if len(rafts) != len(state.rafts):
        raise NotationError(f"eureka position: rafts lists {len(rafts)}, the board has"
                            f" {len(state.rafts)}")
    state.rafts = [_node(state, "rafts", r) for r in rafts]
    for r in state.rafts:
        if r not in state.game.landing_slot:
            raise NotationError(
                f"eureka position: rafts: {board.names[r]} is no landing space (a raft lies"
                " moored at a land space on its lake's bank)"
            )


def _read_chips(state: EurekaState, chips: str) -> None:
    board = state.game.board
    try:
        mask = int(chips, 16)
    except ValueError:
        raise NotationError(f"eureka position: chips={chips!r} is not a hex mask") from None
    if mask >> len(board.holes):
        raise NotationError("eureka position: chips mask has bits beyond the mining holes")
    state.facedown = [False] * len(board.hexes)
    for i, h in enumerate(board.holes):
        state.facedown[h] = bool(mask >> i & 1)


def _read_robbers(state: EurekaState, field: str) -> None:
    state.stacks = {}
    if field == "-":
        return
    for item in field.split(","):
        parts = item.split(":")
        if len(parts) != 3:
            raise NotationError(f"eureka position: robbers item {item!r} is not hex:hat:gold")
        h = _node(state, "robbers", parts[0])
        if h in state.stacks:
            raise NotationError(f"eureka position: robbers: two on {parts[0]}")
        hat = _int("robbers", parts[1], 1, 5)
        state.stacks[h] = (hat, _int("robbers", parts[2], 0, 10_000))


def _read_bag(state: EurekaState, field: str) -> None:
    bag = field.split(".")
    if len(bag) != g.NUM_KINDS:
        raise NotationError(f"eureka position: bag needs {g.NUM_KINDS} counts, got {len(bag)}")
    state.bag = [_int("bag", c, 0, 10_000) for c in bag]


def _check_phase(state: EurekaState) -> None:
    ph = state.phase
    here = state.pos[state.actor]

    def bad(why: str) -> NotationError:
        return NotationError(f"eureka position: phase={g.PHASES[ph]}: {why}")

    if ph in (g.TURN, g.ROLL, g.MOVE, g.REVEAL, g.DEFEND) and state.actor != state.turn:
        raise bad("the actor must be the seat whose turn it is")
    if ph == g.MOVE and not 2 <= state.die <= 6:
        raise bad("die must be 2..6")
    if ph == g.RETREAT and not 1 <= state.die <= 6:
        raise bad("die must be 1..6")
    if ph not in (g.MOVE, g.RETREAT) and state.die:
        raise bad("die must be 0")
    if ph == g.RAFT and here not in state.rafts:
        raise bad("the actor is not on a raft")
    if ph == g.REVEAL and not state.facedown[here]:
        raise bad("no face-down chip under the actor")
    if ph == g.DEFEND and (here not in state.stacks or state.gold[state.actor] == 0):
        raise bad("no robber to fight under the actor, or no gold to defend")
    in_duel = ph in (g.DUEL_A, g.DUEL_D)
    if in_duel != (state.duel[0] >= 0):
        raise bad("duel must be given exactly in the duel-a and duel-d phases")
    if in_duel and (state.duel[0] != state.turn or state.duel[1] == state.turn):
        raise bad("the attacker is the seat whose turn it is, the defender another")
    if ph == g.DUEL_A and state.duel[2] != 0:
        raise bad("the attacker has not rolled yet")
    if ph == g.DUEL_D and not 1 <= state.duel[2] <= 6:
        raise bad("the attacker's roll must be 1..6")
    _check_play(state, bad)


def _check_play(state: EurekaState, bad: Callable[[str], NotationError]) -> None:
    """What the phase says must have just happened, and what ends a game."""
    _check_houses(state)
    if _check_game_end(state, bad):
        return
    _check_landing(state, bad)
    _check_duel_hex(state, bad)
    _check_move_away(state, bad)


def _check_houses(state: EurekaState) -> None:
    """A miner in his house has deposited everything he carried."""
    board = state.game.board
    for i, h in enumerate(state.pos):
        if h == board.houses[i] and state.loot(i):
            raise NotationError(
                f"eureka position: miners[{i}]: P{i + 1} is in his house, where he deposited"
                " everything he carried, yet has gold or robbers in front of him"
            )


def _check_game_end(state: EurekaState, bad: Callable[[str], NotationError]) -> bool:
    """Phase over exactly when something ended the game; True when it is over."""
    game = state.game
    last = len(game.board.track) - 1
    gold_left = any(state.bag[: len(GOLD_VALUES)])
    gold_out = gold_left or any(state.gold) or any(gd for _, gd in state.stacks.values())
    no_gold = not (gold_out if game.cfg.nuggets_end == "banked" else gold_left)
    if state.phase == g.OVER:
        if state.loco != last and not no_gold and state.turns < game.cfg.max_turns:
            raise bad("the train is not in Golden City, gold is left and the turn limit is"
                      " not reached: nothing ended the game")
        return True
    if state.loco == last:
        raise bad("loco: the train is in Golden City, so the game is over (phase=over)")
    if state.turns >= game.cfg.max_turns:
        raise bad(f"turns: the turn limit {game.cfg.max_turns} is reached, so the game is over")
    if no_gold:
        raise bad("bag: there are no more gold nuggets, so the game is over (phase=over)")
    return False


def _check_landing(state: EurekaState, bad: Callable[[str], NotationError]) -> None:
    """A reveal or a fight with a robber follows a landing with no duel."""
    ph = state.phase
    here = state.pos[state.actor]
    if ph == g.REVEAL and state._defender(state.actor, here) >= 0:
        raise bad("a miner with loot at stake stands here: landing starts a duel, not a reveal")
    if ph == g.DEFEND and state.stacks[here][1]:
        raise bad("the robber under the actor was just turned over and holds no gold yet")


def _check_duel_hex(state: EurekaState, bad: Callable[[str], NotationError]) -> None:
    """The attacker and defender of a running duel, on their hex."""
    if state.phase not in (g.DUEL_A, g.DUEL_D):
        return
    a, d, _ = state.duel
    if state.pos[a] != state.pos[d]:
        raise bad("duel: the attacker and the defender must stand on the same hex")
    if state._defender(a, state.pos[a]) != d:
        raise bad("duel: the defender is the first miner clockwise from the attacker on"
                  " that hex with gold or robbers at stake (his or the attacker's)")
    if state.pos[a] in state.stacks:
        raise bad("duel: a face-up robber on the hex is captured before the duel")


def _won_duel(state: EurekaState) -> bool:
    """The actor has loot and stands with a miner he beat (one with nothing left)."""
    actor = state.actor
    here = state.pos[actor]
    beaten = [
        i for i in range(state.game.num_players)
        if i != actor and state.pos[i] == here and not state.loot(i)
    ]
    won_duel = bool(beaten) and state.loot(actor) > 0
    if actor != state.turn:
        won_duel = won_duel and state.pos[state.turn] == here and not state.loot(state.turn)
    return won_duel


def _check_move_away(state: EurekaState, bad: Callable[[str], NotationError]) -> None:
    """Phases duel-roll and retreat: why the miner moves away."""
    ph = state.phase
    if ph not in (g.DUEL_ROLL, g.RETREAT):
        return
    actor = state.actor
    won_duel = _won_duel(state)
    if ph == g.DUEL_ROLL and not won_duel:
        raise bad("the duel winner throws to move away: he must have loot and stand with a"
                  " miner he beat (one with nothing left in front of him)")
    if ph == g.RETREAT:
        stack = state.stacks.get(state.pos[actor])
        lost = (
            actor == state.turn and stack is not None and stack[1] > 0
            and state.gold[actor] == 0 and state.die < stack[0]
        )
        if not (lost or won_duel):
            raise bad("a miner moves away only after a robber on his hex took his gold (the"
                      " die below its hat) or after winning a duel on his hex")


serialize = write_position  # alias for one release
parse_position = read_position  # alias for one release

NOTATION = Notation(
    action_to_string=action_to_string,
    parse_action=parse_action,
    explain_illegal=explain_illegal,
    write_position=write_position,
    read_position=read_position,
)

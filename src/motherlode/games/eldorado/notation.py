"""Action and position notation of El Dorado (documented in ``docs/rules/eldorado.md``).

Actions::

    roll d3=torch        chance: the die being rolled shows a face (2c = two coins)
    take d2              choose die d2 from the middle
    activate 2machetes   use a resource (its items follow) or a special action
    ethnographer         re-roll the dice in the middle (a torch lies there)
    d2 move c4           fill route space c4 with die d2 (also: res, reward as the source)
    d2 offer e2          offer die d2's coins in temple e2 (d2+res offer: with the resource's)
    d2 pay f3            pay die d2's coins towards settlement f3
    d2 fill 3coins/1     fill slot 1 of resource 3coins (coins fill the next free circles)
    discard d2           a die (or res, reward) that has no possible use
    end                  end the turn, leaving the optional resource unused

Position (sections separated by `` | ``)::

    m1 easy 2p | r3 p1 use | M,-,?,*2x1,... | c0 x1 r- i- w0 - | e2=2 | d1=0 | <sheet> | <sheet>

>>> import motherlode
>>> s = motherlode.load("eldorado").new_initial_state()
>>> s.serialize()
'm1 easy 2p | r1 p0 roll | ?,?,?,?,?,?,? | c1 x1 r- i- w0 F | - | - | -;-;-;- | -;-;-;-'
>>> s.action_to_string(4), s.string_to_action("roll d0=map")
('roll d0=map', 4)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action, Notation
from motherlode.games.eldorado.game import EldoradoGame, EldoradoState
from motherlode.games.eldorado.sheets import (
    COIN0,
    GOLDEN,
    PATH,
    SETTLEMENT,
    SYMBOL_LETTERS,
    TEMPLE,
    ResourceInfo,
    face_name,
    slot_coins,
    slot_name,
)

NUM_DICE = 7
VERBS = {PATH: "move", TEMPLE: "offer", GOLDEN: "offer", SETTLEMENT: "pay"}


def _src_name(src: int) -> str:
    if src < NUM_DICE:
        return f"d{src}"
    if src == 7:
        return "res"
    if src == 8:
        return "reward"
    return f"d{src - 9}+res"


def action_to_string(state: EldoradoState, action: Action) -> str:
    g = state.game
    if state.phase == 0 and state.to_roll:
        d = state.to_roll[0]
        return f"roll d{d}={face_name(g.dice[d][action])}"
    if action < g.choose_base:
        src, target = divmod(action, g.nt)
        if target >= g.ns:
            return f"{_src_name(src)} fill {g.sheet.slot_label(target - g.ns)}"
        space = g.sheet.spaces[target]
        return f"{_src_name(src)} {VERBS[space.kind]} {space.label}"
    if action < g.activate_base:
        return f"take d{action - g.choose_base}"
    if action < g.ethno_action:
        return f"activate {g.sheet.resources[action - g.activate_base].id}"
    if action == g.ethno_action:
        return "ethnographer"
    if action < g.end_action:
        return f"discard {_src_name(action - g.discard_base)}"
    if action == g.end_action:
        return "end"
    raise NotationError(f"eldorado: no action id {action}")


_TARGETED = re.compile(r"^(d[0-6]|res|reward|d[0-6]\+res) (move|offer|pay|fill) (\S+)$")


def _parse_src(text: str) -> int:
    if text == "res":
        return 7
    if text == "reward":
        return 8
    if text.endswith("+res"):
        return 9 + int(text[1])
    return int(text[1])


def parse_action(state: EldoradoState, text: str) -> Action:
    """Parse any well-formed action of this game; the legality check comes after."""
    g = state.game
    sh = g.sheet
    t = " ".join(text.lower().split())
    if state.phase == 0 and state.to_roll:
        m = re.fullmatch(r"roll d([0-6])=(\S+)", t)
        if not m:
            raise NotationError(f"eldorado: {text!r}: dice are being rolled; expected"
                                f" 'roll d{state.to_roll[0]}=<face>'")
        d = int(m.group(1))
        if d != state.to_roll[0]:
            raise NotationError(f"eldorado: {text!r}: the die being rolled is d{state.to_roll[0]}")
        faces = [face_name(f) for f in g.dice[d]]
        if m.group(2) not in faces:
            raise NotationError(f"eldorado: {text!r}: d{d} has no face {m.group(2)!r}"
                                f" (faces: {', '.join(sorted(set(faces)))})")
        return faces.index(m.group(2))
    if t.startswith("roll "):
        raise NotationError(f"eldorado: {text!r}: no die is being rolled now (dice are rolled"
                            " only when none lie in the middle, or by a re-roll)")
    if t == "end":
        return g.end_action
    if t == "ethnographer":
        return g.ethno_action
    m = re.fullmatch(r"take d([0-6])", t)
    if m:
        return g.choose_base + int(m.group(1))
    m = re.fullmatch(r"activate (\S+)", t)
    if m:
        if m.group(1) not in sh.res_by_id:
            raise NotationError(f"eldorado: {text!r}: no resource {m.group(1)!r} on sheet"
                                f" {sh.number} (resources: {', '.join(sh.res_by_id)})")
        return g.activate_base + sh.res_by_id[m.group(1)]
    m = re.fullmatch(r"discard (d[0-6]|res|reward)", t)
    if m:
        return g.discard_base + _parse_src(m.group(1))
    m = _TARGETED.match(t)
    if not m:
        raise NotationError(
            f"eldorado: cannot parse action {text!r}; expected e.g. 'take d2', 'd2 move c4',"
            " 'd2 offer e2', 'd2+res offer e2', 'd2 pay f3', 'res fill 3coins/1',"
            " 'activate 2machetes', 'ethnographer', 'discard d2' or 'end'"
        )
    src = _parse_src(m.group(1))
    verb, where = m.group(2), m.group(3)
    if verb == "fill":
        rid, _, k = where.partition("/")
        if rid not in sh.res_by_id or not k.isdigit():
            raise NotationError(f"eldorado: {text!r}: no resource slot {where!r} (e.g. "
                                f"'{sh.resources[0].id}/1')")
        res = sh.resources[sh.res_by_id[rid]]
        if not 1 <= int(k) <= len(res.slots):
            raise NotationError(f"eldorado: {text!r}: {rid} has slots 1..{len(res.slots)}")
        target = g.ns + res.slots[int(k) - 1]
    else:
        if where not in sh.by_label:
            raise NotationError(f"eldorado: {text!r}: no space {where!r} on sheet {sh.number}")
        target = sh.by_label[where]
        want = VERBS[sh.spaces[target].kind]
        if want != verb:
            raise NotationError(f"eldorado: {text!r}: {where} is a {sh.spaces[target].kind}"
                                f" space: use '{want}'")
    if src >= 9 and verb != "offer":
        raise NotationError(f"eldorado: {text!r}: a die and a resource combine only to offer")
    return src * g.nt + target


def explain_illegal(state: EldoradoState, action: Action) -> str:
    """Why ``action`` is illegal here, and the rulebook's section that says so."""
    why = _why_illegal(state, action)
    if why == "no such action":
        return why
    return f"{why} (rulebook: {_section(state, action)})"


def _section(state: EldoradoState, action: Action) -> str:
    """The rulebook's section on the kind of move ``action`` is."""
    g = state.game
    sh = g.sheet
    if g.choose_base <= action < g.activate_base:
        return "Course of Play, 2. The Player Chooses a Die"
    if g.activate_base <= action <= g.ethno_action:
        return "Map – Resources and Helpers Zone, How to Use Obtained Resources?"
    if action >= g.end_action or state.phase != 2:
        return "Course of Play, 3. The Player Uses the Die"
    target = action % g.nt
    if target >= g.ns:
        return "Map – Resources and Helpers Zone, How to Obtain Resources?"
    kind = sh.spaces[target].kind
    if kind == SETTLEMENT:
        return "Maps No. 3 and 4: Settlements of the Muisca Tribe"
    if kind == GOLDEN:
        return "The Gate to El Dorado"
    if kind == PATH:
        return "Moving Along the Expedition Route"
    return "Making an Offering in a Temple"


def _why_illegal(state: EldoradoState, action: Action) -> str:
    """The rule that forbids ``action`` here."""
    g = state.game
    sh = g.sheet
    p = state.seat
    if not 0 <= action < g.num_distinct_actions:
        return "no such action"
    if g.choose_base <= action < g.activate_base:
        d = action - g.choose_base
        if state.phase != 1:
            return "dice are chosen at the start of the turn (step 2), not now"
        return f"d{d} is not in the middle of the table"
    if g.activate_base <= action < g.ethno_action:
        res = sh.resources[action - g.activate_base]
        if res.helper:
            return f"the {res.name} is a helper: her ability applies by itself"
        if not state.obtained(p, res.index):
            return f"{res.id} is not obtained yet: fill in all the spaces in front of it"
        if (state.used[p] >> res.index) & 1:
            return f"{res.id} is already used: each resource is single-use"
        if state.res_used:
            return "only 1 resource may be used per turn"
        if res.special:
            if state.phase != 1:
                return "a special action is used at the beginning of the turn"
            return "take two dice needs 2 dice in the middle of the table"
        if state.phase != 2:
            return "choose a die first; the resource is used with it (step 3)"
        return f"{res.id} has no possible use now"
    if action == g.ethno_action:
        if not state.has(p, g.ethnographer):
            return "the ethnographer is not hired (visit 3 adjacent settlements)"
        if not state.first:
            return "the ethnographer's re-roll must be the first action of the turn"
        return "no torch lies among the dice in the middle"
    if action == g.end_action:
        return "a chosen die (or a resource item, or a reward) must still be used"
    if action >= g.discard_base:
        return "it still has a possible use: it must be used"
    if state.phase != 2:
        return "choose a die first (step 2)"
    src, target = divmod(action, g.nt)
    if state.reward and src != 8:
        return "the reward die with the signpost must be used immediately"
    if src < NUM_DICE and not state.uses[src]:
        return f"d{src} is not a chosen die with a use left this turn"
    if src >= 9 and not (state.uses[src - 9] and state.items and COIN0 < state.items[0] < 99):
        return "combining needs a chosen coin die and an active coin resource"
    if src == 7 and not state.items:
        return "no resource item is waiting to be used"
    if src == 8 and not state.reward:
        return "there is no reward to use"
    if target >= g.ns:
        slot = target - g.ns
        res = sh.resources[sh.slot_owner[slot]]
        if (state.filled[p] >> slot) & 1:
            return f"slot {sh.slot_label(slot)} is already filled"
        kind = slot_name(sh.slot_kind[slot])
        if kind == "any":
            return f"slot {sh.slot_label(slot)} takes a die (any), not a resource"
        if slot_coins(sh.slot_kind[slot]):
            return (f"slot {sh.slot_label(slot)} of {res.id} needs a die or resource with"
                    f" {slot_coins(sh.slot_kind[slot])} coins (a signpost is never a coin)")
        return f"slot {sh.slot_label(slot)} of {res.id} needs {kind}"
    space = sh.spaces[target]
    if (state.visited[p] >> target) & 1:
        return f"{space.label} is already visited"
    if not (state.accessible(p) >> target) & 1:
        beyond = [sh.spaces[t].label for t in range(g.ns)
                  if (state.fresh >> t) & 1 and (sh.adj_mask[t] >> target) & 1]
        if beyond:
            return (f"{space.label} lies beyond temple {beyond[0]}, offered in this turn: the"
                    " expedition continues past it in a later turn")
        if state.visited[p] == 0:
            return "the expedition begins on an outermost left space"
        return f"{space.label} is not adjacent to a visited space"
    if space.kind == PATH:
        return (f"{space.label} shows a {face_name(space.symbol)}: use that symbol or a"
                " signpost")
    if space.kind == SETTLEMENT:
        return "settlement fees are paid with a die showing coins (never a resource)"
    if space.kind == GOLDEN and state.temples_offered(p) < g.required:
        return (f"El Dorado needs offerings in {g.required} temples first"
                f" ({state.temples_offered(p)} made)")
    if space.kind == GOLDEN:
        return f"the golden temple needs an offering of at least {sh.golden_minimum} coins"
    if state.minima[target] >= 0:
        return f"the minimum offering in {space.label} is {state.minima[target]} coins"
    return "an offering needs a die with coins (a zero offering: the zero-offering resource)"


# -- positions ----------------------------------------------------------------------------


def _letter(face: int) -> str:
    return str(face - COIN0) if face > COIN0 else SYMBOL_LETTERS[face]


def _item_letter(item: int) -> str:
    return "Z" if item == 99 else _letter(item)


def _parse_face(ch: str, where: str, text: str) -> int:
    if ch in SYMBOL_LETTERS and ch:
        return SYMBOL_LETTERS.index(ch)
    if ch.isdigit() and 1 <= int(ch) <= 9:
        return COIN0 + int(ch)
    raise NotationError(f"eldorado position: {where}: bad face {ch!r} (MPTAKS or coins 1-9)",
                        position=text)


def write_position(state: EldoradoState) -> str:
    """The position notation of ``state`` (``docs/rules/eldorado.md`` has its sections)."""
    g = state.game
    sh = g.sheet
    labels = [s.label for s in sh.spaces]
    parts = [f"m{sh.number} {'hard' if g.cfg.hard else 'easy'} {g.num_players}p",
             f"r{state.round} p{state.seat} {('roll', 'start', 'use', 'over')[state.phase]}"]
    dice = []
    for d in range(NUM_DICE):
        if state.middle[d] >= 0:
            dice.append(_letter(state.middle[d]))
        elif d in state.to_roll:
            dice.append("?")
        elif state.held[d] >= 0:
            dice.append(f"*{_letter(state.held[d])}x{state.uses[d]}")
        else:
            dice.append("-")
    parts.append(",".join(dice))
    flags = ("U" if state.res_used else "") + ("F" if state.first else "") + (
        "B" if state.bonus_used else "")
    res = sh.resources[state.res_active].id if state.res_active >= 0 else "-"
    items = "".join(_item_letter(i) for i in state.items) or "-"
    parts.append(f"c{state.choose_left} x{state.uses_per_die} r{res} i{items} w{state.reward}"
                 f" {flags or '-'}")
    parts.append(",".join(f"{labels[s]}={m}" for s, m in enumerate(state.minima) if m >= 0)
                 or "-")
    parts.append(",".join(f"{labels[s]}={q}" for s, q in enumerate(state.claimed) if q >= 0)
                 or "-")
    for p in range(g.num_players):
        v = ".".join(labels[s] for s in range(g.ns) if (state.visited[p] >> s) & 1) or "-"
        paid = ",".join(f"{labels[s]}={c}" for s, c in enumerate(state.paid[p])
                        if c and not (state.visited[p] >> s) & 1) or "-"
        rs = []
        for r in sh.resources:
            bits = "".join("1" if (state.filled[p] >> s) & 1 else "0" for s in r.slots)
            if "1" in bits:
                rs.append(f"{r.id}:{bits}" + ("!" if (state.used[p] >> r.index) & 1 else ""))
        fresh = state.fresh if p == state.seat else 0
        offers = ",".join(f"{labels[s]}={c}" + ("*" if (fresh >> s) & 1 else "")
                          for s, c in state.offers[p]) or "-"
        parts.append(f"{v};{paid};{','.join(rs) or '-'};{offers}")
    return " | ".join(parts)


_Bad = Callable[[str, str], NotationError]
_PHASES = ("roll", "start", "use", "over")


def read_position(game: EldoradoGame, text: str) -> EldoradoState:
    """The inverse of :func:`write_position`; an impossible position raises NotationError
    naming the section and the reason.

    Lists (visited spaces, payments, resources, minima, rewards) and flags may come in any
    order; offerings are in the order made. The position rides on the error, never in it.
    """
    def bad(where: str, why: str) -> NotationError:
        return NotationError(f"eldorado position: {where}: {why}", position=text)

    if not isinstance(text, str):
        raise NotationError(f"eldorado position: expected text, got {type(text).__name__}")
    n = game.num_players
    parts = [" ".join(x.split()) for x in text.split("|")]
    _check_sections(game, parts, bad)
    st = EldoradoState(game, blank=True)
    _read_turn_header(st, parts[1], bad)
    _read_dice(st, parts[2], text, bad)
    _read_turn(st, parts[3], text, bad)
    _read_minima(st, parts[4], bad)
    _read_rewards(st, parts[5], bad)
    fresh = [_read_sheet(st, p, parts[6 + p], bad) for p in range(n)]
    st.fresh = fresh[st.seat]
    _read_frontiers(st, fresh, bad)
    _check_phase_dice(st, bad)
    try:
        st.check_invariants()
    except AssertionError as err:
        raise bad("consistency", str(err) or "the position breaks a rule") from None
    problem = _impossible(st, fresh[st.seat])
    if problem:
        raise bad(*problem)
    return st


def _check_sections(game: EldoradoGame, parts: list[str], bad: _Bad) -> None:
    """The number of sections, and the header naming this game."""
    sh = game.sheet
    n = game.num_players
    if len(parts) != 6 + n:
        raise bad("sections", f"expected {6 + n} sections separated by '|' (header, turn"
                  f" header, dice, turn, temple minima, rewards, one sheet per seat), got"
                  f" {len(parts)}")
    want = f"m{sh.number} {'hard' if game.cfg.hard else 'easy'} {n}p"
    if parts[0] != want:
        raise bad("header", f"{parts[0]!r} does not match this game ({want!r})")


def _read_turn_header(st: EldoradoState, part: str, bad: _Bad) -> None:
    """The round, the seat to move and the phase."""
    game = st.game
    n = game.num_players
    m = re.fullmatch(r"r(\d+) p(\d+) (roll|start|use|over)", part)
    if not m:
        raise bad("turn header", f"{part!r} is not 'r<round> p<seat> <phase>' (phase roll,"
                  " start, use or over)")
    st.round, st.seat = int(m.group(1)), int(m.group(2))
    st.phase = _PHASES.index(m.group(3))
    if not 1 <= st.round <= game.cfg.max_rounds:
        raise bad("turn header", f"round {st.round} is not 1..{game.cfg.max_rounds}")
    if st.seat >= n:
        raise bad("turn header", f"no seat p{st.seat} with {n} players (p0..p{n - 1})")


def _read_dice(st: EldoradoState, part: str, text: str, bad: _Bad) -> None:
    """The seven dice: in the middle, to roll, chosen (with uses left) or out."""
    dice = [d.strip() for d in part.split(",")]
    if len(dice) != NUM_DICE:
        raise bad("dice", f"expected 7 dice separated by ',', got {len(dice)}")
    for d, tok in enumerate(dice):
        _read_die(st, d, tok, text, bad)


def _read_die(st: EldoradoState, d: int, tok: str, text: str, bad: _Bad) -> None:
    where = f"die d{d}"
    if tok == "-":
        return
    if tok == "?":
        st.to_roll.append(d)
    elif tok.startswith("*"):
        mm = re.fullmatch(r"\*(\w)x([0-3])", tok)
        if not mm:
            raise bad(where, f"{tok!r} is not '*<face>x<uses>'")
        st.held[d] = _parse_face(mm.group(1), where, text)
        st.uses[d] = int(mm.group(2))
    else:
        if len(tok) != 1:
            raise bad(where, f"{tok!r} is not a face, '?', '-' or '*<face>x<uses>'")
        st.middle[d] = _parse_face(tok, where, text)
    face = st.middle[d] if st.middle[d] >= 0 else st.held[d]
    if face >= 0 and face not in st.game.dice[d]:
        raise bad(where, f"d{d} has no face {tok!r}")


def _read_turn(st: EldoradoState, part: str, text: str, bad: _Bad) -> None:
    """Dice to choose, uses per die, the resource in use, its items, reward, flags."""
    sh = st.game.sheet
    m = re.fullmatch(r"c(\d) x(\d) r(\S+) i(\S+) w(\d) (\S+)", part)
    if not m:
        raise bad("turn", f"{part!r} is not 'c<dice to choose> x<uses per die>"
                  " r<resource|-> i<items|-> w<reward signposts> <flags|->'")
    st.choose_left, st.uses_per_die = int(m.group(1)), int(m.group(2))
    if st.choose_left > 2 or not 1 <= st.uses_per_die <= 3:
        raise bad("turn", "c is 0..2 dice to choose, x 1..3 uses per die")
    if m.group(3) != "-":
        if m.group(3) not in sh.res_by_id:
            raise bad("turn", f"no resource {m.group(3)!r} on sheet {sh.number}")
        st.res_active = sh.res_by_id[m.group(3)]
    if m.group(4) != "-":
        st.items = [99 if ch == "Z" else _parse_face(ch, "turn items", text)
                    for ch in m.group(4)]
    st.reward = int(m.group(5))
    flags = m.group(6)
    if flags != "-" and (not set(flags) <= set("UFB") or len(set(flags)) != len(flags)):
        raise bad("turn", f"flags {flags!r}: letters U, F, B (each once, any order) or '-'")
    st.res_used, st.first, st.bonus_used = "U" in flags, "F" in flags, "B" in flags


def _pairs(st: EldoradoState, section: str, where: str, bad: _Bad,
           marks: bool = False) -> list[tuple[int, int, bool]]:
    """``<space>=<number>`` items (``[*]`` with ``marks``), each space once."""
    sh = st.game.sheet
    if section == "-":
        return []
    out = []
    seen: set[int] = set()
    for item in section.split(","):
        label, eq, value = item.strip().partition("=")
        mark = marks and value.endswith("*")
        value = value[:-1] if mark else value
        if not eq or label not in sh.by_label or not value.isdigit():
            form = "<space>=<number>[*]" if marks else "<space>=<number>"
            raise bad(where, f"{item!r} is not '{form}' naming a space of sheet"
                      f" {sh.number}")
        s = sh.by_label[label]
        if s in seen:
            raise bad(where, f"{label} is listed twice")
        seen.add(s)
        out.append((s, int(value), mark))
    return out


def _read_minima(st: EldoradoState, part: str, bad: _Bad) -> None:
    sh = st.game.sheet
    for s, v, _ in _pairs(st, part, "temple minima", bad):
        if sh.spaces[s].kind != TEMPLE:
            raise bad("temple minima", f"{sh.spaces[s].label} is not a temple")
        st.minima[s] = v


def _read_rewards(st: EldoradoState, part: str, bad: _Bad) -> None:
    sh = st.game.sheet
    for s, v, _ in _pairs(st, part, "rewards", bad):
        if not sh.spaces[s].reward:
            raise bad("rewards", f"{sh.spaces[s].label} has no reward die")
        if v >= st.game.num_players:
            raise bad("rewards", f"{sh.spaces[s].label}={v}: no seat p{v}")
        st.claimed[s] = v


def _read_sheet(st: EldoradoState, p: int, part: str, bad: _Bad) -> int:
    """Seat ``p``'s sheet; returns the mask of its offerings marked '*'."""
    where = f"sheet of p{p}"
    fields = [f.strip() for f in part.split(";")]
    if len(fields) != 4:
        raise bad(where, "expected 'visited;payments;resources;offerings'")
    _read_visited(st, p, fields[0], where, bad)
    _read_payments(st, p, fields[1], where, bad)
    _read_resources(st, p, fields[2], where, bad)
    return _read_offerings(st, p, fields[3], where, bad)


def _read_visited(st: EldoradoState, p: int, field: str, where: str, bad: _Bad) -> None:
    sh = st.game.sheet
    if field == "-":
        return
    for label in field.split("."):
        if label not in sh.by_label:
            raise bad(where, f"no space {label!r} on sheet {sh.number}")
        s = sh.by_label[label]
        if (st.visited[p] >> s) & 1:
            raise bad(where, f"{label} is listed twice")
        st.visited[p] |= 1 << s
        if sh.spaces[s].kind == SETTLEMENT:
            st.paid[p][s] = sh.spaces[s].fee


def _read_payments(st: EldoradoState, p: int, field: str, where: str, bad: _Bad) -> None:
    sh = st.game.sheet
    for s, v, _ in _pairs(st, field, where + " payments", bad):
        if sh.spaces[s].kind != SETTLEMENT or not 0 < v < sh.spaces[s].fee:
            raise bad(where, f"payment {sh.spaces[s].label}={v} is not a partial fee of an"
                      " unvisited settlement")
        st.paid[p][s] = v


def _read_resources(st: EldoradoState, p: int, field: str, where: str, bad: _Bad) -> None:
    if field == "-":
        return
    listed: set[int] = set()
    for item in field.split(","):
        _read_resource(st, p, item, listed, where, bad)


def _read_resource(st: EldoradoState, p: int, item: str, listed: set[int], where: str,
                   bad: _Bad) -> None:
    """One ``<id>:<bits>[!]`` item: the slots filled, and whether it is used."""
    sh = st.game.sheet
    mm = re.fullmatch(r"(\w+):([01]+)(!?)", item.strip())
    if not mm or mm.group(1) not in sh.res_by_id:
        raise bad(where, f"resource {item!r} is not '<id>:<bits>[!]' (resources:"
                  f" {', '.join(sh.res_by_id)})")
    res = sh.resources[sh.res_by_id[mm.group(1)]]
    if res.index in listed:
        raise bad(where, f"resource {res.id} is listed twice")
    listed.add(res.index)
    if len(mm.group(2)) != len(res.slots):
        raise bad(where, f"{res.id} has {len(res.slots)} slots")
    for s, bit in zip(res.slots, mm.group(2), strict=True):
        if bit == "1":
            st.filled[p] |= 1 << s
    if mm.group(3):
        if res.helper:
            raise bad(where, f"{res.id} is a helper: helpers are not single-use"
                      " and never marked used")
        st.used[p] |= 1 << res.index


def _read_offerings(st: EldoradoState, p: int, field: str, where: str, bad: _Bad) -> int:
    sh = st.game.sheet
    fresh = 0
    for s, v, mark in _pairs(st, field, where + " offerings", bad, marks=True):
        if sh.spaces[s].kind not in (TEMPLE, GOLDEN):
            raise bad(where, f"{sh.spaces[s].label} is not a temple")
        st.offers[p].append((s, v))
        if mark:
            fresh |= 1 << s
    return fresh


def _read_frontiers(st: EldoradoState, fresh: list[int], bad: _Bad) -> None:
    """Only the seat to move has offerings made this turn; the frontiers follow."""
    sh = st.game.sheet
    for p in range(st.game.num_players):
        if fresh[p] and p != st.seat:
            raise bad(f"sheet of p{p}", "offerings marked '*' (made this turn) belong to the"
                      f" seat to move (p{st.seat})")
        for s in range(st.game.ns):
            if (st.visited[p] >> s) & 1 and not (fresh[p] >> s) & 1:
                st.frontier[p] |= sh.adj_mask[s]


def _check_phase_dice(st: EldoradoState, bad: _Bad) -> None:
    if (st.phase == 0) != bool(st.to_roll):
        raise bad("dice", "dice marked '?' (to be rolled) go with phase roll, and only with it")
    if st.phase == 1 and max(st.middle) < 0:
        raise bad("dice", "no die in the middle to choose")


_Problem = tuple[str, str] | None


def _impossible(st: EldoradoState, fresh: int) -> _Problem:
    """Why a parsed position cannot arise in play (the section and the reason), or None."""
    sh = st.game.sheet
    held = [d for d in range(NUM_DICE) if st.held[d] >= 0]
    res = sh.resources[st.res_active] if st.res_active >= 0 else None
    phase_check = (_roll_problem, _start_problem, _use_problem, _over_problem)[st.phase]
    return (_resource_problem(st, res) or _items_problem(st, res)
            or _turn_flags_problem(st, held) or phase_check(st, held, res)
            or _fresh_problem(st, fresh) or _round_problem(st, fresh)
            or _marks_problem(st) or _sheets_problem(st, fresh))


def _special(res: ResourceInfo | None) -> str:
    return res.special if res is not None else ""


def _resource_problem(st: EldoradoState, res: ResourceInfo | None) -> _Problem:
    """The resource in use (r), flag U and the uses per die (x)."""
    seat = st.seat
    if st.res_used != (res is not None):
        return "turn", "flag U (a resource used this turn) goes with the resource named by r"
    if res is not None:
        if res.helper:
            return "turn", f"{res.id} is a helper: she is never activated"
        if not (st.used[seat] >> res.index) & 1:
            return "turn", f"the resource in use, {res.id}, is not marked used (!) on the sheet" \
                f" of p{seat}"
    if st.uses_per_die != {"use_twice": 2, "use_thrice": 3}.get(_special(res), 1):
        return "turn", "x (uses per die) is 2 or 3 only with the use-twice or use-three-times" \
            " resource in use, else 1"
    return None


def _items_problem(st: EldoradoState, res: ResourceInfo | None) -> _Problem:
    """The items (i) left of the resource in use."""
    if not st.items:
        return None
    if st.phase != 2 or res is None or not res.gives_items:
        return "turn", "items are left only while a resource is being used (phase use)"
    own = list(res.items) or ([99] if res.zero else [COIN0 + res.coins])
    if st.items != own[len(own) - len(st.items):]:
        return "turn", f"items {''.join(_item_letter(i) for i in st.items)!r} are not" \
            f" what {res.id} gives"
    return None


def _turn_flags_problem(st: EldoradoState, held: list[int]) -> _Problem:
    """The reward signpost (w) and flags B and F."""
    g = st.game
    phase = st.phase
    if st.reward and (st.reward > 1 or phase != 2 or st.seat not in st.claimed):
        return "turn", "w (a reward signpost to use at once) is 1 only in phase use, right" \
                " after the seat to move claimed a map-1 reward"
    if st.bonus_used and (phase != 2 or not st.has(st.seat, g.guide1)):
        return "turn", "flag B (the guide's coin spent) needs the sheet-4 guide, in phase use"
    if st.first and (phase == 2 or st.res_used or held or st.choose_left != 1):
        return "turn", "flag F (nothing done yet this turn) but something was done"
    return None


def _roll_problem(st: EldoradoState, held: list[int], res: ResourceInfo | None) -> _Problem:
    """Phase roll: which dice are rolled, and why."""
    g = st.game
    out_dice = [d for d in range(NUM_DICE) if st.middle[d] < 0 and d not in st.to_roll
                and st.held[d] < 0]
    if held or st.choose_left != 1:
        return "dice", "no die is chosen while dice are being rolled"
    if any(st.middle[d] >= 0 and d > st.to_roll[0] for d in range(NUM_DICE)):
        return "dice", "dice are rolled in order d0..d6: a die shows a face after one still" \
            " to roll"
    if st.first:
        if out_dice:
            return "dice", "a turn's roll rolls all 7 dice (none can be out)"
    elif _special(res) == "reroll_all":
        if out_dice:
            return "dice", "the re-roll special action rolls all 7 dice"
    elif st.res_used or not st.has(st.seat, g.ethnographer):
        return "turn", "a roll after the turn began is the re-roll special action or the" \
            " ethnographer's"
    return None


def _start_problem(st: EldoradoState, held: list[int], res: ResourceInfo | None) -> _Problem:
    """Phase start: the dice to choose (c), and that nothing (or a re-roll) was done."""
    g = st.game
    if _special(res) == "take_two":
        if len(held) + st.choose_left != 2:
            return "turn", "take two: the dice chosen plus c make 2"
    elif held or st.choose_left != 1:
        return "turn", "at the start of a turn no die is chosen yet and c is 1 (2 with take" \
            " two)"
    if st.choose_left == 2 and sum(1 for f in st.middle if f >= 0) < 2:
        return "dice", "take two needs 2 dice in the middle"
    if any(st.uses[d] != 1 for d in held):
        return "dice", "a die chosen with take two has its one use left"
    if not st.first and not st.res_used and not st.has(st.seat, g.ethnographer):
        return "turn", "no flag F, but nothing can have been done yet this turn"
    return None


def _use_problem(st: EldoradoState, held: list[int], res: ResourceInfo | None) -> _Problem:
    """Phase use: the dice chosen, their uses, and something left to do."""
    if st.choose_left != 0 or not held:
        return "turn", "phase use: the die (dice) chosen, c is 0"
    if (len(held) == 2) != (_special(res) == "take_two"):
        return "dice", "two dice are chosen only with the take-two resource in use"
    if any(st.uses[d] > st.uses_per_die for d in held):
        return "dice", "a chosen die has more uses left than x allows"
    if not (st.reward or st.items or any(st.uses)) and (
        st.res_used or not st._activatable(st.seat)
    ):
        return "turn", "nothing is left to do: the turn would have ended by itself"
    return None


def _over_problem(st: EldoradoState, held: list[int], res: ResourceInfo | None) -> _Problem:
    """Phase over: a blank turn, the hat's seat, and something that ended the game."""
    g = st.game
    if (held or st.choose_left != 1 or st.res_used or st.bonus_used or not st.first
            or st.reward or st.items):
        return "turn", "the game is over: the turn section is 'c1 x1 r- i- w0 F'"
    if st.seat != g.cfg.first_player:
        return "turn header", f"a finished game shows the hat's seat, p{g.cfg.first_player}"
    if not any(st.entered(p) for p in range(g.num_players)) and st.round < g.cfg.max_rounds:
        return "turn header", "the game is over only after someone entered El Dorado or at" \
            " the round limit"
    return None


def _fresh_problem(st: EldoradoState, fresh: int) -> _Problem:
    if fresh and st.phase != 2:
        return f"sheet of p{st.seat}", "offerings marked '*' (made this turn) need phase use"
    return None


def _round_problem(st: EldoradoState, fresh: int) -> _Problem:
    """Whoever entered El Dorado ends the game after the round."""
    g = st.game
    n = g.num_players
    seat = st.seat

    def order(q: int) -> int:
        return (q - g.cfg.first_player) % n

    for p in range(n):
        if not st.entered(p) or st.phase == 3:
            continue
        if p == seat:
            if st.phase != 2 or not (fresh >> g.sheet.golden) & 1:
                return f"sheet of p{p}", f"p{p} entered El Dorado in an earlier turn (its golden" \
                    " offering is not marked '*'): the game would be over"
        elif order(p) > order(seat):
            return f"sheet of p{p}", f"p{p} entered El Dorado in an earlier round: the game" \
                " would be over"
    return None


def _marks_problem(st: EldoradoState) -> _Problem:
    """The public marks: temple minima and claimed rewards."""
    g = st.game
    sh = g.sheet
    n = g.num_players
    for s in range(g.ns):
        if sh.spaces[s].kind == TEMPLE and st.minima[s] < 0 and any(
            t == s for p in range(n) for t, _ in st.offers[p]
        ):
            return "temple minima", f"{sh.spaces[s].label} has offerings but no minimum" \
                " written above it"
        if sh.spaces[s].reward and st.claimed[s] < 0 and any(
            (st.visited[p] >> s) & 1 for p in range(n)
        ):
            return "rewards", f"{sh.spaces[s].label} is visited, so its reward die is claimed" \
                " (by the first to visit it)"
    return None


def _sheets_problem(st: EldoradoState, fresh: int) -> _Problem:
    """Each sheet: its route, its payments and its offerings."""
    for p in range(st.game.num_players):
        where = f"sheet of p{p}"
        mine_fresh = fresh if p == st.seat else 0
        problem = (_route_problem(st, p, mine_fresh) or _payments_problem(st, p)
                   or _offers_problem(st, p, mine_fresh))
        if problem:
            return where, problem
    return None


def _route_problem(st: EldoradoState, p: int, mine_fresh: int) -> str | None:
    """The visited spaces join up from column a (past a temple only in a later turn)."""
    g = st.game
    sh = g.sheet
    v = st.visited[p]
    if not v:
        return None
    reach = v & sh.start_mask
    if not reach:
        return "the route begins on an outermost left space (column a)"
    todo = reach
    while todo:
        low = todo & -todo
        todo ^= low
        s = low.bit_length() - 1
        if s == sh.golden or (mine_fresh >> s) & 1:
            continue  # the route goes on past a temple only in a later turn
        new = sh.adj_mask[s] & v & ~reach
        reach |= new
        todo |= new
    if reach != v:
        lost = [sh.spaces[s].label for s in range(g.ns) if (v >> s) & 1 and not (reach >> s) & 1]
        return f"visited {', '.join(lost)} not joined to the route from column a" \
            " (each space is filled next to a visited one, past a temple only in a" \
            " turn after its offering)"
    return None


def _payments_problem(st: EldoradoState, p: int) -> str | None:
    sh = st.game.sheet
    for s in range(st.game.ns):
        if 0 < st.paid[p][s] < sh.spaces[s].fee and not (st.accessible(p) >> s) & 1:
            return f"a payment on {sh.spaces[s].label} needs a visited space next to it"
    return None


def _offers_problem(st: EldoradoState, p: int, mine_fresh: int) -> str | None:
    """The offerings: fresh ones last, zero offerings, sizes, the golden temple."""
    g = st.game
    sh = g.sheet
    offers = st.offers[p]
    if mine_fresh:
        marked = [t for t, _ in offers if (mine_fresh >> t) & 1]
        if [t for t, _ in offers[len(offers) - len(marked):]] != marked:
            return "offerings marked '*' (made this turn) are the last ones made"
    zero_rights = [r.index for r in sh.resources if r.zero]
    zeros = sum(1 for _, c in offers if c == 0)
    if zeros > sum(1 for r in zero_rights if (st.used[p] >> r) & 1):
        return "an offering of 0 coins needs the zero-offering right, used (!)"
    most = _most_coins(g)
    for k, (t, c) in enumerate(offers):
        if c > most:
            return f"an offering of {c} coins in {sh.spaces[t].label}: one die and one" \
                f" resource give at most {most}"
        if t == sh.golden:
            if c < sh.golden_minimum:
                return f"the golden temple takes at least {sh.golden_minimum} coins"
            if sum(1 for u, _ in offers[:k] if u != sh.golden) < g.required:
                return f"El Dorado is entered after offerings in {g.required}" \
                    " temples (offerings are listed in the order made)"
    return None


def _most_coins(g: EldoradoGame) -> int:
    """The most coins one die (with the guides) and one resource can offer."""
    coin_faces = [face - COIN0 for die in g.dice for face in die if face > COIN0]
    best_die = max([*coin_faces, 2 if g.guide2 >= 0 else 0]) + (1 if g.guide1 >= 0 else 0)
    best_res = max([r.coins for r in g.sheet.resources], default=0)
    return best_die + best_res


format_position = write_position  # alias for one release
parse_position = read_position  # alias for one release

NOTATION = Notation(
    action_to_string=action_to_string,
    parse_action=parse_action,
    explain_illegal=explain_illegal,
    write_position=write_position,
    read_position=read_position,
)

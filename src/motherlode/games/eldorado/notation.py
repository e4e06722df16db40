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
from typing import TYPE_CHECKING

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action
from motherlode.games.eldorado.sheets import (
    COIN0,
    GOLDEN,
    PATH,
    SETTLEMENT,
    SLOT_NAMES,
    SYMBOL_LETTERS,
    TEMPLE,
    face_name,
)

if TYPE_CHECKING:
    from motherlode.games.eldorado.game import Eldorado, EldoradoState

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
        kind = SLOT_NAMES[sh.slot_kind[slot]]
        if kind == "any":
            return f"slot {sh.slot_label(slot)} takes a die (any), not a resource"
        return f"slot {sh.slot_label(slot)} of {res.id} needs {kind}"
    space = sh.spaces[target]
    if (state.visited[p] >> target) & 1:
        return f"{space.label} is already visited"
    if not (state.accessible(p) >> target) & 1:
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


def _parse_face(ch: str, where: str) -> int:
    if ch in SYMBOL_LETTERS and ch:
        return SYMBOL_LETTERS.index(ch)
    if ch.isdigit() and 1 <= int(ch) <= 9:
        return COIN0 + int(ch)
    raise NotationError(f"eldorado position: {where}: bad face {ch!r} (MPTAKS or coins 1-9)")


def format_position(state: EldoradoState) -> str:
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
        offers = ",".join(f"{labels[s]}={c}" for s, c in state.offers[p]) or "-"
        parts.append(f"{v};{paid};{','.join(rs) or '-'};{offers}")
    return " | ".join(parts)


def parse_position(game: Eldorado, text: str) -> EldoradoState:
    """The inverse of :func:`format_position`; bad text raises NotationError naming it."""
    from motherlode.games.eldorado.game import EldoradoState

    def bad(where: str, why: str) -> NotationError:
        return NotationError(f"eldorado position: {where}: {why} (in {text!r})")

    if not isinstance(text, str):
        raise NotationError(f"eldorado position: expected text, got {type(text).__name__}")
    sh = game.sheet
    n = game.num_players
    parts = [x.strip() for x in text.split("|")]
    if len(parts) != 6 + n:
        raise bad("sections", f"expected {6 + n} sections separated by '|', got {len(parts)}")
    want = f"m{sh.number} {'hard' if game.cfg.hard else 'easy'} {n}p"
    if parts[0] != want:
        raise bad("header", f"{parts[0]!r} does not match this game ({want!r})")
    st = EldoradoState(game, blank=True)
    m = re.fullmatch(r"r(\d+) p(\d) (roll|start|use|over)", parts[1])
    if not m:
        raise bad("turn header", f"{parts[1]!r} is not 'r<round> p<seat> <phase>'")
    st.round, st.seat = int(m.group(1)), int(m.group(2))
    st.phase = ("roll", "start", "use", "over").index(m.group(3))
    if not 1 <= st.round <= game.cfg.max_rounds or st.seat >= n:
        raise bad("turn header", "round or seat out of range")
    dice = parts[2].split(",")
    if len(dice) != NUM_DICE:
        raise bad("dice", f"expected 7 dice, got {len(dice)}")
    for d, tok in enumerate(dice):
        where = f"die d{d}"
        if tok == "-":
            continue
        if tok == "?":
            st.to_roll.append(d)
        elif tok.startswith("*"):
            mm = re.fullmatch(r"\*(\w)x([0-3])", tok)
            if not mm:
                raise bad(where, f"{tok!r} is not '*<face>x<uses>'")
            st.held[d] = _parse_face(mm.group(1), where)
            st.uses[d] = int(mm.group(2))
        else:
            if len(tok) != 1:
                raise bad(where, f"{tok!r} is not a face, '?', '-' or '*<face>x<uses>'")
            st.middle[d] = _parse_face(tok, where)
        face = st.middle[d] if st.middle[d] >= 0 else st.held[d]
        if face >= 0 and face not in game.dice[d]:
            raise bad(where, f"d{d} has no face {tok!r}")
    m = re.fullmatch(r"c([0-2]) x([1-3]) r(\S+) i(\S+) w(\d) (\S+)", parts[3])
    if not m:
        raise bad("turn", f"{parts[3]!r} is not 'c<n> x<n> r<res> i<items> w<n> <flags>'")
    st.choose_left, st.uses_per_die = int(m.group(1)), int(m.group(2))
    if m.group(3) != "-":
        if m.group(3) not in sh.res_by_id:
            raise bad("turn", f"no resource {m.group(3)!r}")
        st.res_active = sh.res_by_id[m.group(3)]
    if m.group(4) != "-":
        st.items = [99 if ch == "Z" else _parse_face(ch, "items") for ch in m.group(4)]
    st.reward = int(m.group(5))
    flags = m.group(6)
    if flags != "-" and (not set(flags) <= set("UFB") or len(set(flags)) != len(flags)):
        raise bad("turn", f"flags {flags!r}: letters U, F, B or '-'")
    st.res_used, st.first, st.bonus_used = "U" in flags, "F" in flags, "B" in flags

    def pairs(section: str, where: str) -> list[tuple[int, int]]:
        if section == "-":
            return []
        out = []
        for item in section.split(","):
            label, eq, value = item.partition("=")
            if not eq or label not in sh.by_label or not value.isdigit():
                raise bad(where, f"{item!r} is not '<space>=<number>'")
            out.append((sh.by_label[label], int(value)))
        return out

    for s, v in pairs(parts[4], "temple minima"):
        if sh.spaces[s].kind != TEMPLE:
            raise bad("temple minima", f"{sh.spaces[s].label} is not a temple")
        st.minima[s] = v
    for s, v in pairs(parts[5], "rewards"):
        if not sh.spaces[s].reward or v >= n:
            raise bad("rewards", f"{sh.spaces[s].label}={v}: no reward there or no such seat")
        st.claimed[s] = v
    for p in range(n):
        where = f"sheet of p{p}"
        fields = parts[6 + p].split(";")
        if len(fields) != 4:
            raise bad(where, "expected 'visited;payments;resources;offerings'")
        if fields[0] != "-":
            for label in fields[0].split("."):
                if label not in sh.by_label:
                    raise bad(where, f"no space {label!r}")
                s = sh.by_label[label]
                st.visited[p] |= 1 << s
                st.frontier[p] |= sh.adj_mask[s]
                if sh.spaces[s].kind == SETTLEMENT:
                    st.paid[p][s] = sh.spaces[s].fee
        for s, v in pairs(fields[1], where + " payments"):
            if sh.spaces[s].kind != SETTLEMENT or not 0 < v < sh.spaces[s].fee:
                raise bad(where, f"payment {sh.spaces[s].label}={v} is not a partial fee")
            st.paid[p][s] = v
        if fields[2] != "-":
            for item in fields[2].split(","):
                mm = re.fullmatch(r"(\w+):([01]+)(!?)", item)
                if not mm or mm.group(1) not in sh.res_by_id:
                    raise bad(where, f"resource {item!r} is not '<id>:<bits>[!]'")
                res = sh.resources[sh.res_by_id[mm.group(1)]]
                if len(mm.group(2)) != len(res.slots):
                    raise bad(where, f"{res.id} has {len(res.slots)} slots")
                for s, bit in zip(res.slots, mm.group(2), strict=True):
                    if bit == "1":
                        st.filled[p] |= 1 << s
                if mm.group(3):
                    st.used[p] |= 1 << res.index
        for s, v in pairs(fields[3], where + " offerings"):
            if sh.spaces[s].kind not in (TEMPLE, GOLDEN):
                raise bad(where, f"{sh.spaces[s].label} is not a temple")
            st.offers[p].append((s, v))
    try:
        st.check_invariants()
    except AssertionError as err:
        raise bad("consistency", str(err) or "the position breaks a rule") from None
    if st.phase == 0 and not st.to_roll:
        raise bad("dice", "the roll phase needs dice marked '?'")
    if st.phase == 1 and max(st.middle) < 0:
        raise bad("dice", "no die in the middle to choose")
    if format_position(st) != text.strip():
        raise bad("form", "not in canonical form (order of sections, labels or flags)")
    return st

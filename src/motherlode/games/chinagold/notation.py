"""Chinagold's action notation and position notation (documented in docs/rules/chinagold.md).

Actions: ``throw 3`` (chance), ``turn f4``, ``turn f4-f6`` (a line by its two ends, in
either order), ``rebury f5`` and ``pass``. Every well-formed action parses to its id even
where it is illegal here; :func:`explain_illegal` then names the rule that forbids it.

Position notation: five fields separated by spaces::

    BOARD TO-MOVE THROW GOLD TURN

* BOARD: rows ``a``..``k`` joined by ``/``, each spot left to right: ``o`` a face-down
  marker, ``G`` discovered gold on the board, a number that many cleared spots;
* TO-MOVE: ``P1`` or ``P2``, the seat to move next;
* THROW: ``?`` the discs are to be thrown, ``1``..``5`` the thrown total, ``-`` no throw
  (no more throwing, or the game is over);
* GOLD: the gold collected by P1 and P2, ``40,48``;
* TURN: the decisions played so far, for the turn limit.

>>> import motherlode
>>> s = motherlode.deal(motherlode.load("chinagold"), seed=1)
>>> read_position(s.game, write_position(s)).serialize() == s.serialize()
True
"""

from __future__ import annotations

import re
from functools import cache

from motherlode.core.errors import NotationError
from motherlode.core.protocol import CHANCE, Action, Notation
from motherlode.games.chinagold.board import (
    BOARD,
    ROW_LENGTHS,
    SPOT_NAMES,
    Mask,
    Spot,
    parse_spot,
)
from motherlode.games.chinagold.game import (
    NUM_ACTIONS,
    NUM_TURNINGS,
    PASS,
    REBURY_BASE,
    STAGE_DISCS,
    ChinagoldGame,
    ChinagoldState,
    stage_of,
)

_ACTION_RE = re.compile(r"^(throw|turn|rebury|pass)(?:\s+(.*))?$")


# -- actions ----------------------------------------------------------------------------


def action_to_string(state: ChinagoldState, action: Action) -> str:
    """``throw 3`` at a chance node, else :func:`decision_to_string`."""
    if state.roll == 0 and state.stage and not state.over:
        return f"throw {action}"
    return decision_to_string(action)


def decision_to_string(action: Action) -> str:
    """``turn f4-f6``, ``turn c7``, ``rebury c7`` or ``pass``.

    >>> decision_to_string(0), decision_to_string(NUM_TURNINGS), decision_to_string(PASS)
    ('turn a6', 'rebury a6', 'pass')
    """
    if 0 <= action < NUM_TURNINGS:
        w = BOARD.all_windows[action]
        ends = sorted((w.spots[0], w.spots[-1]))
        if w.length == 1:
            return f"turn {SPOT_NAMES[w.start]}"
        return f"turn {SPOT_NAMES[ends[0]]}-{SPOT_NAMES[ends[1]]}"
    if REBURY_BASE <= action < PASS:
        return f"rebury {SPOT_NAMES[action - REBURY_BASE]}"
    if action == PASS:
        return "pass"
    raise NotationError(f"chinagold: {action} is not a decision action id (0..{PASS})")


def parse_action(state: ChinagoldState, text: str) -> Action:
    """Parse any well-formed action string into its id (a throw only at a chance node)."""
    return read_action(text, chance=state.current_player() == CHANCE)


def read_action(text: str, chance: bool) -> Action:
    """Parse an action string into its id, a throw when ``chance``, else a decision."""
    norm = " ".join(text.lower().split())
    m = _ACTION_RE.match(norm)
    if not m:
        raise NotationError(
            f"chinagold: cannot read action {text!r}; actions are 'throw N', 'turn f4-f6',"
            " 'turn f4', 'rebury f4' and 'pass'"
        )
    verb, arg = m.group(1), (m.group(2) or "").replace(" ", "")
    if verb == "throw":
        if not chance:
            raise NotationError(f"chinagold: {text!r} is a throw, but no throw is due here")
        if not arg.isdigit() or not 1 <= int(arg) <= 5:
            raise NotationError(f"chinagold: a throw is 'throw N' with N from 1 to 5, got {text!r}")
        return int(arg)
    if chance:
        raise NotationError(f"chinagold: {text!r} is a move, but the discs must be thrown first")
    if verb == "pass":
        if arg:
            raise NotationError(f"chinagold: 'pass' takes nothing after it, got {text!r}")
        return PASS
    try:
        ends = [parse_spot(x) for x in arg.split("-")] if arg else []
    except KeyError as err:
        raise NotationError(f"chinagold: {err.args[0]} in action {text!r}") from None
    if verb == "rebury":
        if len(ends) != 1:
            raise NotationError(
                f"chinagold: 'rebury' names one spot, e.g. 'rebury f4'; got {text!r}"
            )
        return REBURY_BASE + ends[0]
    if len(ends) == 1:
        return ends[0]
    if len(ends) != 2:
        raise NotationError(f"chinagold: 'turn' names a spot or two ends 'f4-f6'; got {text!r}")
    window = _window_between(ends[0], ends[1])
    if window is None:
        raise NotationError(
            f"chinagold: {text!r}: the ends must lie on one straight line, 2 to 5 spots long"
        )
    return window


@cache
def _window_between(a: Spot, b: Spot) -> int | None:
    for w in BOARD.all_windows:
        if w.length >= 2 and {w.spots[0], w.spots[-1]} == {a, b}:
            return w.id
    return None


def explain_illegal(state: ChinagoldState, action: Action) -> str:
    """Why ``action`` is illegal here, and the rulebook's section that says so."""
    why = _why_illegal(state, action)
    if why == "no such action":
        return why
    section = "Reducing the Throwing Discs" if state.stage == 0 else "Prospecting for Gold"
    return f"{why} (rulebook: {section})"


def _why_illegal(state: ChinagoldState, action: Action) -> str:
    """Why ``action`` is illegal here: the rule that forbids it."""
    if action >= NUM_ACTIONS or action < 0:
        return "no such action"
    if action == PASS:
        return "a player may pass only when no turning and no reburial is possible"
    if action >= REBURY_BASE:
        spot = action - REBURY_BASE
        if state.stage == 0:
            return "no reburial once the throwing discs are back in the box"
        if not state.gold >> spot & 1:
            what = "a face-down marker" if state.hidden >> spot & 1 else "a cleared spot"
            return f"{SPOT_NAMES[spot]} holds no discovered gold to rebury (it is {what})"
        return "it is not among the legal actions"
    w = BOARD.all_windows[action]
    if state.stage == 0 and w.length > 2:
        return "with no more throws a player turns 1 or 2 adjacent markers"
    if state.stage and w.length != state.roll:
        return f"the throw is {state.roll}: exactly {state.roll} markers must be turned"
    for s in w.spots:
        if state.gold >> s & 1:
            return f"{SPOT_NAMES[s]} is already-discovered gold"
        if not state.hidden >> s & 1:
            return f"{SPOT_NAMES[s]} is cleared: the line would have a gap"
    return "it is not among the legal actions"


# -- positions --------------------------------------------------------------------------


def write_position(state: ChinagoldState) -> str:
    """The position notation of ``state`` (see the module docstring)."""
    rows = []
    spot = 0
    for length in ROW_LENGTHS:
        text = []
        run = 0
        for _ in range(length):
            if state.hidden >> spot & 1:
                ch = "o"
            elif state.gold >> spot & 1:
                ch = "G"
            else:
                run += 1
                spot += 1
                continue
            if run:
                text.append(str(run))
                run = 0
            text.append(ch)
            spot += 1
        if run:
            text.append(str(run))
        rows.append("".join(text))
    roll = str(state.roll) if state.roll else "?" if state.current_player() == CHANCE else "-"
    return (
        f"{'/'.join(rows)} P{state.player + 1} {roll} "
        f"{state.collected[0]},{state.collected[1]} {state.turn}"
    )


def read_position(game: ChinagoldGame, text: str) -> ChinagoldState:
    """The state written as ``text``; a bad one raises :class:`NotationError` naming the
    field and the reason (the text itself travels as ``err.position``)."""
    if not isinstance(text, str):
        raise NotationError(f"chinagold: a position is a string, got {type(text).__name__}")
    fields = text.split()
    if len(fields) != 5:
        raise NotationError(
            "chinagold: a position must have 5 fields"
            f" (board, to-move, throw, gold, turn), got {len(fields)}",
            position=text,
        )
    try:
        return _from_fields(game, fields)
    except NotationError as err:
        if err.position is None:
            err.position = text
        raise


def _from_fields(game: ChinagoldGame, fields: list[str]) -> ChinagoldState:
    board, who, roll_text, gold_text, turn_text = fields
    state = ChinagoldState(game)
    state.hidden, state.gold = _parse_board(board)
    state.player = _read_seat(who)
    state.collected = _read_gold(gold_text)
    state.turn = _read_turn(game, turn_text)
    _check_nuggets(game, state)
    _check_turn_order(game, state)
    state.over = state.hidden == 0 or state.turn >= game.cfg.max_turns
    state.stage = stage_of(state.hidden, game.window_masks)
    state.roll = _read_throw(game, state, roll_text)
    return state


def _read_seat(who: str) -> int:
    if who not in ("P1", "P2"):
        raise NotationError(f"chinagold: the seat to move must be P1 or P2, got {who!r}")
    return int(who[1]) - 1


def _read_gold(gold_text: str) -> list[int]:
    m = re.fullmatch(r"(\d+),(\d+)", gold_text)
    if not m:
        raise NotationError(
            f"chinagold: gold field must be 'N,N' (gold of P1 and P2), got {gold_text!r}"
        )
    return [int(m.group(1)), int(m.group(2))]


def _read_turn(game: ChinagoldGame, turn_text: str) -> int:
    if not turn_text.isdigit():
        raise NotationError(f"chinagold: turn must be a number, got {turn_text!r}")
    turn = int(turn_text)
    if turn > game.cfg.max_turns:
        raise NotationError(f"chinagold: turn {turn} is past the turn limit {game.cfg.max_turns}")
    return turn


def _check_nuggets(game: ChinagoldGame, state: ChinagoldState) -> None:
    """The 91 nuggets (those of the `regions` in play) accounted for, no marker on a spot
    out of play, and no complete area with its gold left on it."""
    off = (state.hidden | state.gold) & ~game.in_play
    if off:
        first = SPOT_NAMES[(off & -off).bit_length() - 1]
        raise NotationError(
            f"chinagold: a marker on {first}, which is not in play (regions {game.cfg.regions!r})"
        )
    on_board = (state.hidden | state.gold).bit_count()
    if on_board + sum(state.collected) != game.num_nuggets:
        raise NotationError(
            f"chinagold: {on_board} markers on the board and {sum(state.collected)} gold"
            f" collected do not make the {game.num_nuggets} nuggets"
        )
    for seat in (0, 1):
        for i, area in enumerate(game.area_masks[seat]):
            if area & state.gold and not area & state.hidden:
                kind = game.role(seat)[:-1]
                raise NotationError(
                    f"chinagold: {kind} {i + 1} is complete but its gold was not collected"
                )


def _check_turn_order(game: ChinagoldGame, state: ChinagoldState) -> None:
    first = game.cfg.first_player
    if state.player != (first + state.turn) % 2:
        raise NotationError(
            f"chinagold: P{state.player + 1} cannot be to move after {state.turn} turns:"
            f" the turn alternates from the first player P{first + 1}, so"
            f" P{(first + state.turn) % 2 + 1} is"
        )


def _read_throw(game: ChinagoldGame, state: ChinagoldState, roll_text: str) -> int:
    """The THROW field (0 for ``?`` and ``-``), checked against who throws here."""
    if roll_text == "?":
        if state.over or state.stage == 0:
            raise NotationError("chinagold: throw field '?' but nobody throws here")
        return 0
    if roll_text == "-":
        if not state.over and state.stage:
            raise NotationError("chinagold: throw field '-' but the discs are still thrown here")
        return 0
    if state.over:
        raise NotationError("chinagold: the game is over, so the throw field must be '-'")
    if not roll_text.isdigit():
        raise NotationError(
            f"chinagold: throw field must be '?', '-' or the thrown total, got {roll_text!r}"
        )
    roll = int(roll_text)
    if roll not in dict(game.throws[state.stage]):
        raise NotationError(
            f"chinagold: throw {roll} is impossible with the discs"
            f" {', '.join(STAGE_DISCS[state.stage]) or 'none'}"
        )
    return roll


def _parse_board(board: str) -> tuple[Mask, Mask]:
    rows = board.split("/")
    if len(rows) != len(ROW_LENGTHS):
        raise NotationError(f"chinagold: the board has 11 rows separated by '/', got {len(rows)}")
    hidden = gold = 0
    spot = 0
    for i, (row, want) in enumerate(zip(rows, ROW_LENGTHS, strict=True)):
        count = 0
        for tok in re.findall(r"\d+|.", row):
            if tok.isdigit():
                n = int(tok)
                if n == 0:
                    raise NotationError(f"chinagold: row {i + 1}: a run of 0 cleared spots")
                count += n
                spot += n
                continue
            if tok == "o":
                hidden |= 1 << spot
            elif tok == "G":
                gold |= 1 << spot
            else:
                raise NotationError(
                    f"chinagold: row {i + 1} ({row!r}): {tok!r} is not 'o' (face down),"
                    " 'G' (gold) or a count of cleared spots"
                )
            count += 1
            spot += 1
        if count != want:
            raise NotationError(
                f"chinagold: row {i + 1} ({row!r}) has {count} spots, it must have {want}"
            )
    return hidden, gold


NOTATION: Notation[ChinagoldState] = Notation(
    action_to_string=action_to_string,
    parse_action=parse_action,
    explain_illegal=explain_illegal,
    write_position=write_position,
    read_position=read_position,
)

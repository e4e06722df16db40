"""Yukon's action notation and position notation (documented in docs/rules/yukon.md).

Position notation: eleven fields separated by single spaces::

    GRID TURN AXIS ORDER LAST PENDING PLAYERS BESIDE BOX PANS REVEALED

* GRID: rows top to bottom joined by ``/``, cells by ``,``; a cell is a card token
  (``+8`` ``-3`` ``S`` ``Tr`` ...), ``.`` empty, ``?`` not yet dealt; ``@`` before the
  token marks the Prospector.
* TURN: the seat to move (or deciding), 1-based ``P1``..``P4``.
* AXIS: ``row``, ``col`` or ``any`` (the line the next take must be in).
* ORDER: ``cw`` or ``ccw`` (reversed by Jailers).
* LAST: the seat that moved last (``P2``) or ``-``.
* PENDING: ``-``, ``trapper``, ``goldsmith``, ``commander``, ``teacher``, ``draw:P2``, ``pan``.
* PLAYERS: per seat ``cards|townsfolk|taught|discs`` joined by ``;``, each a ``.``-joined
  list or ``-`` (e.g. ``+8.+3.-2|Cu|-|2.3``).
* BESIDE, BOX: ``.``-joined card tokens or ``-``.
* PANS: ``cell:discs`` for each Pan on the table, ``,``-joined, or ``-``.
* REVEALED: the disc values turned up so far, ``.``-joined, or ``-``.

>>> import motherlode
>>> s = motherlode.deal(motherlode.load("yukon"), seed=1)
>>> s.game.deserialize(s.serialize()).serialize() == s.serialize()
True
"""

from __future__ import annotations

from collections.abc import Container

from motherlode.core.errors import NotationError
from motherlode.core.protocol import Action, Notation
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.cards import EMPTY, PAN, PEBBLE0, SHERIFF, TOWNSFOLK0, UNDEALT
from motherlode.games.yukon.game import (
    ANY,
    AXIS_NAMES,
    CMDR,
    DISC0,
    DRAW0,
    MAX_CHANCE,
    NONE,
    PAN_DRAW,
    PENDING_NAMES,
    SMITH,
    TEACH,
    TEACH_DRAW,
    TRAP,
    YukonGame,
    YukonState,
)

# -- actions ----------------------------------------------------------------------------


def action_to_string(state: YukonState, action: Action) -> str:
    g = state.game
    if state.is_chance_node():
        if not 0 <= action < MAX_CHANCE:
            return f"<chance {action}>"
        if action < DISC0:
            return f"deal {C.token(action)}"
        if action < DRAW0:
            i = action - DISC0
            return f"disc {g.disc_values[i]}" if i < len(g.disc_values) else f"<chance {action}>"
        return f"draw {C.token(action - DRAW0)}" if action - DRAW0 < 16 else f"<chance {action}>"
    return decision_to_string(g, action)


def decision_to_string(g: YukonGame, action: Action) -> str:
    n = g.cells
    if 0 <= action < n:
        return g.cell_name(action)
    if action < 2 * n:
        return f"courier {g.cell_name(action - n)}"
    if action < 3 * n:
        return f"innkeeper {g.cell_name(action - 2 * n)}"
    if action < 7 * n:
        x, d = divmod(action - 3 * n, 4)
        y = g.neighbour[x][d]
        return f"telegraph {g.cell_name(x)} {g.cell_name(y) if y >= 0 else 'off-' + 'udlr'[d]}"
    if action < g.reclaim0:
        return f"discard {C.token(action - g.discard0)}"
    if action < g.keep_commander:
        return f"reclaim {C.token(action - g.reclaim0)}"
    if action == g.keep_commander:
        return "keep commander"
    if action < g.num_distinct_actions:
        return f"teach P{action - g.teach0 + 1}"
    return f"<action {action}>"


def parse_action(state: YukonState, text: str) -> Action:
    g = state.game
    words = text.strip().lower().split()
    if not words:
        raise NotationError("yukon: empty action")
    try:
        action = _chance_action(g, words)
        if action is None:
            action = _decision_action(g, words)
    except ValueError as err:
        if isinstance(err, NotationError):
            raise
        raise NotationError(f"yukon: cannot read {text!r}: {err}") from None
    if action is not None:
        return action
    raise NotationError(
        f"yukon: cannot read action {text!r}; actions look like 'c4', 'courier c4',"
        " 'innkeeper c4', 'telegraph c4 c5', 'discard +8', 'reclaim +8', 'keep commander',"
        " 'teach P2' (chance: 'deal +8', 'disc 2', 'draw -5')"
    )


def _chance_action(g: YukonGame, words: list[str]) -> Action | None:
    """``deal +8``, ``disc 2``, ``draw -5``; ``None`` for any other words."""
    if len(words) != 2:
        return None
    head, arg = words
    if head == "deal":
        return C.parse_token(arg)
    if head == "disc":
        value = int(arg)
        if value not in g.disc_values:
            raise NotationError(f"yukon: no Gold nugget disc shows {value}")
        return DISC0 + g.disc_values.index(value)
    if head == "draw":
        kind = C.parse_token(arg)
        if kind >= SHERIFF:
            raise NotationError("yukon: the Teacher draws a Gold or Pebble card")
        return DRAW0 + kind
    return None


def _decision_action(g: YukonGame, words: list[str]) -> Action | None:
    """A take, a Townsfolk ability or a follow-up decision; ``None`` for other words."""
    head = words[0]
    if len(words) == 1 and head[0].isalpha() and head[1:].isdigit():
        return g.parse_cell(head)
    if words == ["keep", "commander"]:
        return g.keep_commander
    if head in ("telegraph", "tele") and len(words) == 3:
        x, y = g.parse_cell(words[1]), g.parse_cell(words[2])
        for d, nb in enumerate(g.neighbour[x]):
            if nb == y:
                return g.tele0 + 4 * x + d
        raise NotationError(f"yukon: {words[2]} is not next to {words[1]}")
    if len(words) != 2:
        return None
    arg = words[1]
    if head == "courier":
        return g.courier0 + g.parse_cell(arg)
    if head in ("innkeeper", "inn"):
        return g.inn0 + g.parse_cell(arg)
    if head == "discard":
        kind = C.parse_token(arg)
        if kind >= SHERIFF:
            raise NotationError("yukon: only Gold and Pebble cards are discarded")
        return g.discard0 + kind
    if head == "reclaim":
        kind = C.parse_token(arg)
        if kind >= PEBBLE0:
            raise NotationError("yukon: the Commander reclaims a Gold card")
        return g.reclaim0 + kind
    if head == "teach":
        return g.teach0 + _parse_seat(arg, g.num_players)
    return None


def _parse_seat(text: str, players: int) -> int:
    t = text.strip().lower().removeprefix("p")
    if not t.isdigit() or not 1 <= int(t) <= players:
        raise NotationError(f"yukon: {text!r} is not a seat (P1..P{players})")
    return int(t) - 1


def explain_illegal(state: YukonState, action: Action) -> str:
    """Why ``action`` is illegal here, and the rulebook's section that says so."""
    g = state.game
    townsfolk = state.pending != NONE or action >= g.cells
    section = "Townsfolk Card Rules" if townsfolk else "Playing the Game"
    return f"{_why_illegal(state, action)} (rulebook: {section})"


def _why_illegal(state: YukonState, action: Action) -> str:
    g = state.game
    if state.pending != NONE:
        return f"the {PENDING_NAMES[state.pending]} decision must be made first"
    if action >= g.discard0:
        return "no card calls for that decision now"
    kind = (
        0 if action < g.cells else 1 if action < 2 * g.cells else 2 if action < 3 * g.cells else 3
    )
    front = state.front[state.player]
    if kind == 1 and not front[C.COURIER - TOWNSFOLK0]:
        return "the player has no unused Courier"
    if kind == 2 and not front[C.INNKEEPER - TOWNSFOLK0]:
        return "the player has no unused Innkeeper"
    if kind == 3 and not front[C.TELEGRAPH - TOWNSFOLK0]:
        return "the player has no unused Telegraph Operator"
    if kind == 0 and state.grid[action] == EMPTY:
        return f"there is no card at {g.cell_name(action)}"
    if kind == 0:
        line = "row or column" if state.axis == ANY else AXIS_NAMES[state.axis]
        return (
            f"{g.cell_name(action)} is not in the Prospector's {line}"
            f" (the Prospector is at {g.cell_name(state.pos)})"
        )
    return "the target is not a card that ability can reach"


# -- positions --------------------------------------------------------------------------


def _tokens(counts: list[int]) -> str:
    items = [C.token(k) for k, n in enumerate(counts) for _ in range(n)]
    return ".".join(items) if items else "-"


def write_position(state: YukonState) -> str:
    """The position notation of ``state`` (see the module docstring)."""
    g = state.game
    rows = []
    for r in range(g.size):
        cells = []
        for c in range(g.size):
            cell = r * g.size + c
            tok = C.token(state.grid[cell])
            cells.append("@" + tok if cell == state.pos else tok)
        rows.append(",".join(cells))
    pending = PENDING_NAMES[state.pending]
    if state.pending == TEACH_DRAW:
        pending += f":P{state.pending_arg + 1}"
    players = []
    for p in range(g.num_players):
        front = [C.token(TOWNSFOLK0 + k) for k in range(10) for _ in range(state.front[p][k])]
        discs = [
            str(v) for v, n in zip(g.disc_values, state.discs[p], strict=True) for _ in range(n)
        ]
        players.append(
            "|".join(
                [
                    _tokens(state.pile[p]),
                    ".".join(front) or "-",
                    _tokens(state.taught[p]),
                    ".".join(discs) or "-",
                ]
            )
        )
    pans = ",".join(f"{g.cell_name(c)}:{n}" for c, n in sorted(state.pan_left.items())) or "-"
    revealed = (
        ".".join(
            str(v) for v, n in zip(g.disc_values, state.revealed, strict=True) for _ in range(n)
        )
        or "-"
    )
    return " ".join(
        [
            "/".join(rows),
            f"P{state.player + 1}",
            AXIS_NAMES[state.axis],
            "cw" if state.order == 1 else "ccw",
            f"P{state.last + 1}" if state.last >= 0 else "-",
            pending,
            ";".join(players),
            _tokens(state.beside),
            _tokens(state.box),
            pans,
            revealed,
        ]
    )


def _count_tokens(text: str, what: str, allow: Container[int]) -> list[int]:
    counts = [0] * C.NUM_KINDS
    if text == "-":
        return counts
    for tok in text.split("."):
        kind = C.parse_token(tok)
        if kind not in allow:
            raise NotationError(f"yukon: {tok!r} cannot be in {what}")
        counts[kind] += 1
    return counts


def read_position(game: YukonGame, text: str) -> YukonState:
    """The state written as ``text`` (raises NotationError naming the bad field)."""
    if not isinstance(text, str):
        raise NotationError("yukon: a position is a string")
    try:
        return _parse_position(game, text)
    except NotationError as err:
        if err.position is None:
            err.position = text
        raise


def _bad(field: str, reason: str) -> NotationError:
    return NotationError(f"yukon: {field}: {reason}")


def _parse_position(game: YukonGame, text: str) -> YukonState:
    fields = text.split()
    if len(fields) != 11:
        raise NotationError(
            f"yukon: a position has 11 fields (GRID TURN AXIS ORDER LAST PENDING PLAYERS"
            f" BESIDE BOX PANS REVEALED), got {len(fields)}"
        )
    grid_f, turn_f, axis_f, order_f, last_f, pend_f, players_f, beside_f, box_f, pans_f, rev_f = (
        fields
    )
    state = YukonState(game)
    _read_grid(game, state, grid_f)
    _read_turn(game, state, turn_f, axis_f, order_f, last_f, pend_f)
    _read_players(game, state, players_f)
    state.beside = _count_tokens(beside_f, "beside the playing area", _BESIDE)
    state.box = _count_tokens(box_f, "the box", _BOX)
    _read_pans(game, state, pans_f)
    state.revealed = _disc_counts(game, rev_f)
    _rebuild_deck(game, state)
    if state.dealt < game.cells:
        _check_deal(game, state)
    else:
        _check_table(game, state)
        _check_pending(game, state)
    if state.dealt == game.cells and state.pending == 0:
        state.over = not state._takes(state.player)
    try:
        state._check_counts(exact=False)
    except AssertionError as err:
        raise NotationError(f"yukon: inconsistent position: {err}") from None
    return state


def _read_grid(game: YukonGame, state: YukonState, grid_f: str) -> None:
    """GRID: the cards, the Prospector, and how far the deal has gone."""
    rows = grid_f.split("/")
    if len(rows) != game.size or any(len(r.split(",")) != game.size for r in rows):
        raise NotationError(f"yukon: the grid must be {game.size} rows of {game.size} cells")
    pos = -1
    grid: list[int] = []
    for row in rows:
        for tok in row.split(","):
            if tok.startswith("@"):
                if pos >= 0:
                    raise NotationError("yukon: two Prospectors on the grid")
                pos = len(grid)
                tok = tok[1:]
            grid.append(C.parse_token(tok))
    dealt = next((i for i, k in enumerate(grid) if k == UNDEALT), game.cells)
    if any(k != UNDEALT for k in grid[dealt:]):
        raise NotationError("yukon: the deal fills cells in reading order ('?' only at the end)")
    if dealt < game.cells and pos >= 0:
        raise NotationError("yukon: the Prospector is placed only after the deal")
    if dealt == game.cells and (pos < 0 or SHERIFF in grid):
        raise NotationError("yukon: after the deal the Prospector replaces the Sheriff")
    if not game.expansion and any(TOWNSFOLK0 <= k < EMPTY for k in grid):
        raise NotationError("yukon: Townsfolk cards are only in the expansion")
    state.grid = grid
    state.dealt = dealt
    state.pos = pos


def _read_turn(
    game: YukonGame,
    state: YukonState,
    turn_f: str,
    axis_f: str,
    order_f: str,
    last_f: str,
    pend_f: str,
) -> None:
    """TURN AXIS ORDER LAST PENDING."""
    n = game.num_players
    state.player = _parse_seat(turn_f, n)
    if axis_f not in AXIS_NAMES:
        raise NotationError(f"yukon: axis must be row, col or any (got {axis_f!r})")
    state.axis = AXIS_NAMES.index(axis_f)
    if order_f not in ("cw", "ccw"):
        raise NotationError(f"yukon: order must be cw or ccw (got {order_f!r})")
    state.order = 1 if order_f == "cw" else -1
    state.last = -1 if last_f == "-" else _parse_seat(last_f, n)
    pend_name, _, pend_arg = pend_f.partition(":")
    if pend_name not in PENDING_NAMES:
        raise NotationError(f"yukon: unknown pending decision {pend_f!r}")
    state.pending = PENDING_NAMES.index(pend_name)
    if state.pending == TEACH_DRAW:
        state.pending_arg = _parse_seat(pend_arg, n)
    elif pend_arg:
        raise NotationError(f"yukon: {pend_name} takes no argument")


def _read_players(game: YukonGame, state: YukonState, players_f: str) -> None:
    """PLAYERS: each seat's cards|townsfolk|taught|discs."""
    n = game.num_players
    players = players_f.split(";")
    if len(players) != n:
        raise NotationError(f"yukon: {n} players expected, got {len(players)}")
    for p, block in enumerate(players):
        parts = block.split("|")
        if len(parts) != 4:
            raise NotationError(f"yukon: P{p + 1} needs cards|townsfolk|taught|discs")
        state.pile[p] = _count_tokens(parts[0], "a player's cards", range(SHERIFF))[:16]
        state.front[p] = _count_tokens(parts[1], "townsfolk in front", _FRONT)[TOWNSFOLK0:EMPTY]
        state.taught[p] = _count_tokens(parts[2], "taught cards", range(SHERIFF))[:16]
        state.discs[p] = _disc_counts(game, parts[3])


def _read_pans(game: YukonGame, state: YukonState, pans_f: str) -> None:
    """PANS: the discs still stacked on each Pan (every Pan on the table after the deal)."""
    grid = state.grid
    if pans_f != "-":
        for item in pans_f.split(","):
            cell_t, _, n_t = item.partition(":")
            cell = game.parse_cell(cell_t)
            if grid[cell] != PAN or not n_t.isdigit() or not 0 < int(n_t) <= game.discs_per_pan:
                raise NotationError(f"yukon: bad Pan entry {item!r}")
            state.pan_left[cell] = int(n_t)
    if (
        any(k == PAN and c not in state.pan_left for c, k in enumerate(grid))
        and state.dealt == game.cells
    ):
        raise NotationError("yukon: every Pan on the table needs its disc count")


def _rebuild_deck(game: YukonGame, state: YukonState) -> None:
    """The deck: what is not on the table yet (only meaningful during the deal)."""
    dealt = state.dealt
    deck = list(game.deck)
    for k in state.grid[:dealt]:
        if k != EMPTY:
            deck[k] -= 1
    if any(x < 0 for x in deck):
        raise NotationError("yukon: more cards of a kind than the game has")
    state.townsfolk_slots = game.townsfolk_slots - sum(
        1 for k in state.grid[:dealt] if TOWNSFOLK0 <= k < EMPTY
    )
    if state.townsfolk_slots < 0:
        raise _bad("GRID", f"more than the {game.townsfolk_slots} Townsfolk cards drawn")
    if dealt == game.cells:
        deck = [0] * C.NUM_KINDS
    state.deck = deck
    state._cards_cache = None
    state._takes_cache = None


# What each place can hold: only the kept Townsfolk stay in front of a player (Trappers and
# Goldsmiths go beside the area, Pans stay on the table), beside the area lie only what
# Trappers and Goldsmiths discard, the box holds the Sheriff, used once-per-game cards,
# reclaiming Commanders and emptied Pans.
_FRONT = (C.COMMANDER, C.SWINDLER, C.COURIER, C.INNKEEPER, C.JAILER, C.TEACHER, C.TELEGRAPH)
_BESIDE = (*range(SHERIFF), C.TRAPPER, C.GOLDSMITH)
_BOX = (SHERIFF, C.COMMANDER, C.COURIER, C.INNKEEPER, C.TELEGRAPH, PAN)


def _check_deal(game: YukonGame, state: YukonState) -> None:
    """During the deal nothing has happened yet: every other field is the initial one."""
    if state.player != game.first_player:
        raise _bad("TURN", f"during the deal the first player P{game.first_player + 1} is to move")
    if state.axis != ANY or state.order != 1 or state.last != -1 or state.pending != NONE:
        raise _bad("AXIS ORDER LAST PENDING", "during the deal they are 'any cw - -'")
    if any(any(x) for p in range(game.num_players) for x in _holdings(state, p)):
        raise _bad("PLAYERS", "nobody holds anything during the deal")
    if any(state.beside) or any(state.box) or state.pan_left or any(state.revealed):
        raise _bad("BESIDE BOX PANS REVEALED", "during the deal they are '- - - -'")


def _holdings(state: YukonState, p: int) -> tuple[list[int], ...]:
    return (state.pile[p], state.front[p], state.taught[p], state.discs[p])


def _check_table(game: YukonGame, state: YukonState) -> None:
    """After the deal: what only the expansion's cards can bring about, and their counts."""
    n = game.num_players
    grid = state.grid
    if grid[state.pos] not in (EMPTY, PAN):
        raise _bad(
            "GRID",
            f"the Prospector at {game.cell_name(state.pos)} stands on a card; it stands on the"
            " space of the card taken last (or on a Pan)",
        )
    if not game.expansion:
        if any(any(x) for p in range(n) for x in _holdings(state, p)[1:]):
            raise _bad("PLAYERS", "Townsfolk, taught cards and discs come only with the expansion")
        if any(state.beside) or state.box[SHERIFF + 1 :] != [0] * (C.NUM_KINDS - SHERIFF - 1):
            raise _bad("BESIDE BOX", "only the expansion's cards go beside the area or the box")
        if state.order != 1 or any(state.revealed):
            raise _bad("ORDER REVEALED", "the turn order and the discs change only with Townsfolk")
        return

    pending_card = {TRAP: C.TRAPPER, SMITH: C.GOLDSMITH, CMDR: C.COMMANDER}.get(state.pending, -1)
    for k in range(TOWNSFOLK0, EMPTY):
        total = (
            sum(1 for x in grid if x == k)
            + state.beside[k]
            + state.box[k]
            + sum(state.front[p][k - TOWNSFOLK0] for p in range(n))
            + (1 if k == pending_card else 0)
        )
        if total > game.deck[k]:
            raise _bad(
                "GRID PLAYERS BESIDE BOX", f"{total} {C.name(k)} cards, the game has {game.deck[k]}"
            )
    gold_beside = sum(state.beside[:PEBBLE0])
    if gold_beside + state.box[C.COMMANDER] > state.beside[C.TRAPPER]:
        raise _bad(
            "BESIDE",
            "each Gold card beside the area (or reclaimed by a Commander in the box) was given"
            " up to a Trapper lying there",
        )
    if sum(state.beside[PEBBLE0:SHERIFF]) > state.beside[C.GOLDSMITH]:
        raise _bad("BESIDE", "each Pebble card beside the area was given up to a Goldsmith")
    for p in range(n):
        if sum(state.taught[p]) > state.front[p][C.TEACHER - TOWNSFOLK0]:
            raise _bad(f"PLAYERS (P{p + 1})", "each taught card lies next to its own Teacher")
    jailers = sum(state.front[p][C.JAILER - TOWNSFOLK0] for p in range(n))
    if (state.order == -1) != (jailers % 2 == 1):
        raise _bad(
            "ORDER",
            f"{jailers} Jailers taken: the order is {'ccw' if jailers % 2 else 'cw'}",
        )
    face_down = sum(state.pan_left.values())
    if sum(state.revealed) + face_down > sum(game.disc_counts):
        raise _bad("PANS REVEALED", f"more than the {sum(game.disc_counts)} Gold nugget discs")


def _check_pending(game: YukonGame, state: YukonState) -> None:
    """A pending decision only where a take just called for it, and never a stuck one."""
    pending = state.pending
    if pending == NONE:
        return
    what = f"PENDING ({PENDING_NAMES[pending]})"
    if not game.expansion:
        raise _bad(what, "decisions after a take come only with the Townsfolk expansion")
    p = state.player
    if state.last != p:
        raise _bad(what, f"the decision is the taker's: LAST must be the player to move P{p + 1}")
    on_pan = state.grid[state.pos] == PAN
    if on_pan != (pending == PAN_DRAW):
        raise _bad(
            what,
            "the Prospector is on a Pan only while its disc is drawn"
            if on_pan
            else "the Prospector is not on a Pan",
        )
    pile = state.pile[p]
    teachers = state.front[p][C.TEACHER - TOWNSFOLK0]
    if pending == TRAP and not any(pile[:PEBBLE0]):
        raise _bad(what, f"P{p + 1} has no Gold card to give up")
    if pending == SMITH and not any(pile[PEBBLE0:SHERIFF]):
        raise _bad(what, f"P{p + 1} has no Pebble card to get rid of")
    if pending == CMDR and not any(state.beside[:PEBBLE0]):
        raise _bad(what, "no Gold card lies beside the area to reclaim")
    if pending in (TEACH, TEACH_DRAW) and teachers <= sum(state.taught[p]):
        raise _bad(what, f"P{p + 1} has no Teacher in front still to teach")
    if pending == TEACH and not state._teach_victims(p):
        raise _bad(what, "no other player has a Gold or Pebble card to take")
    if pending == TEACH_DRAW:
        victim = state.pending_arg
        if victim == p:
            raise _bad(what, "the Teacher draws from another player")
        if not any(state.pile[victim]):
            raise _bad(what, f"P{victim + 1} has no Gold or Pebble card to draw")


def _disc_counts(game: YukonGame, text: str) -> list[int]:
    counts = [0] * len(game.disc_values)
    if text == "-":
        return counts
    for tok in text.split("."):
        if not tok.isdigit() or int(tok) not in game.disc_values:
            raise NotationError(f"yukon: {tok!r} is not a Gold nugget disc value")
        counts[game.disc_values.index(int(tok))] += 1
    return counts


NOTATION: Notation[YukonState] = Notation(
    action_to_string=action_to_string,
    parse_action=parse_action,
    explain_illegal=explain_illegal,
    write_position=write_position,
    read_position=read_position,
)

position_string = write_position  # alias for one release
parse_position = read_position  # alias for one release

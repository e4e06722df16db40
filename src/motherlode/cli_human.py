"""A game at the terminal (``motherlode play``): people and bots, with commands beside moves.

A person picks a move by its number in the menu or types its notation, and may instead
type a command: ``help`` (or ``?``), ``rules``, ``hint``, ``undo``, ``board``, ``log``,
``list [KIND]``, ``save [FILE]`` and ``quit``. Ctrl-C and Ctrl-D save the game too;
``motherlode play --resume FILE`` continues it. Chance is drawn exactly as
:func:`motherlode.arena.play.play_game` draws it (one ``random.Random(seed)``, in order),
so a game played here and its record replay identically.

``undo`` follows the web page's rule: back to the asking person's last decision, never
past a roll, a draw or a reveal, nor past another person's decision (bots' replies to the
undone move are undone with it).

A game with commands for people (``state.expand``, e.g. Eurorails' ``build to Lyon``)
takes them at the prompt: the state's ``preview`` (the route, its cost, what remains this
turn) is shown to confirm with ``y`` (or ``n``, or another command instead); the command's
actions are then applied as one step (one line in the log, one ``undo``). A bot's run of
decisions in such a game is printed as one line from the state's ``describe``.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from motherlode.agents.levels import game_hint_spec
from motherlode.core.agent import Agent
from motherlode.core.errors import MotherlodeError, RecordError
from motherlode.core.narration import fold
from motherlode.core.protocol import Action, Game, State, TextMark
from motherlode.core.records import GameRecord

COMMANDS = {
    "help": "what may be done now, and these commands (also: ?)",
    "rules": "the game's rules in short",
    "hint": "the strongest quick bot's move here, and its reasons",
    "undo": "take back your last move (not past a roll, a draw or a reveal)",
    "board": "show the board again",
    "log": "every move so far, narrated",
    "list [KIND]": "every legal move (or those of one kind or start: 'list turn c')",
    "save [FILE]": "save the game to continue later (motherlode play --resume FILE)",
    "quit": "save the game and stop (also: exit; Ctrl-C and Ctrl-D save too)",
}

_ASK_AGAIN = object()
"""What a command answers when the prompt is to be shown again (not a move)."""

MENU_LIMIT = 36
"""Menus longer than this are shown grouped by kind (the first word of the notation)."""


class Quit(Exception):
    """The person asked to stop (``quit``, Ctrl-C, Ctrl-D): the game is saved."""


@dataclass(frozen=True)
class HumanAgent:
    """A seat played by a person at the terminal: :class:`TerminalGame` asks its moves
    (it is no :class:`~motherlode.core.agent.Agent`: nothing else may ask it to act)."""

    seat: int
    name: str = "human"


@dataclass
class _Snapshot:
    """The game just before a person's decision: what ``undo`` returns to."""

    state: State
    rng: tuple[object, ...]
    log: int
    seat: int


MARK_STYLES = {
    "move": "bold black on green3",
    "gold": "bold yellow3",
    "pebble": "grey62",
    "water": "dodger_blue2",
    "hidden": "dim",
    "special": "bold magenta",
    # the seats in Okabe and Ito's palette, as on the web page (told apart by colour-blind
    # players; the board names each seat as well)
    "seat0": "bold dark_orange3",
    "seat1": "bold dodger_blue2",
    "seat2": "bold green3",
    "seat3": "bold orchid",
    "seat4": "bold orange1",
    "seat5": "bold sky_blue1",
}
"""How a terminal shows each kind of :data:`~motherlode.core.protocol.TextMark`."""


def styled_board(board: str, marks: Sequence[TextMark]) -> Text:
    r"""A text board with its marks coloured: each span's characters other than spaces.

    >>> text = styled_board("  a  b\n  +3 -4", [(1, 0, 4, "gold"), (1, 4, 7, "move")])
    >>> text.plain == "  a  b\n  +3 -4"
    True
    >>> [(text.plain[s.start:s.end], s.style) for s in text.spans]
    [('+3', 'bold yellow3'), ('-4', 'bold black on green3')]
    """
    text = Text(board)
    lines = board.split("\n")
    offsets = [0]
    for row in lines:
        offsets.append(offsets[-1] + len(row) + 1)
    for n, first, last, kind in marks:
        style = MARK_STYLES.get(kind)
        if style is None or not 0 <= n < len(lines):
            continue
        row = lines[n]
        first, last = max(0, first), min(last, len(row))
        while first < last and row[first] == " ":
            first += 1
        while last > first and row[last - 1] == " ":
            last -= 1
        if first < last:
            text.stylize(style, offsets[n] + first, offsets[n] + last)
    return text


def enable_line_editing() -> None:
    """Arrow keys, line editing and history at the prompt (readline, where there is one)."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # Windows without pyreadline: plain input
            import readline  # noqa: F401  (importing it is what turns it on for input())


def rules_text(game: Game) -> str:
    """The game's rules in short, shipped with the package (``data/rules.txt``)."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        return (importlib.resources.files(package) / "data" / "rules.txt").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return f"The rules of {game.name} are explained in docs/rules/{game.name}.md."


def group_actions(names: Sequence[str]) -> dict[str, list[int]]:
    """Menu indexes grouped by the first word of each move's notation.

    >>> group_actions(["take d5", "take e5", "pass"])
    {'take': [0, 1], 'pass': [2]}
    """
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        groups.setdefault(name.split(" ", 1)[0], []).append(i)
    return groups


def _next_letters(names: Sequence[str], indexes: Sequence[int]) -> list[tuple[str, int]]:
    """A kind's moves counted by the first letter of their second word, for ``list``.

    >>> _next_letters(["turn a6-a9", "turn a7-a10", "turn b5-b8", "pass"], [0, 1, 2])
    [('turn a', 2), ('turn b', 1)]
    """
    counts: dict[str, int] = {}
    for i in indexes:
        word, _, rest = names[i].partition(" ")
        start = f"{word} {rest[:1]}" if rest else word
        counts[start] = counts.get(start, 0) + 1
    return sorted(counts.items())


def completions(names: Sequence[str], typed: str) -> list[int]:
    """The moves that ``typed`` may stand for when it is not a move itself: those whose
    notation ends with it as whole words ('c4-c7' for 'turn c4-c7', 'a4' for 'd0 move a4').

    >>> completions(["turn c4-c7", "turn c4", "rebury c4"], "c4-c7")
    [0]
    >>> completions(["turn c4", "rebury c4"], "c4")
    [0, 1]
    """
    tail = " " + " ".join(typed.lower().split())
    return [i for i, name in enumerate(names) if name.lower().endswith(tail)]


class TerminalGame:
    """One game at the terminal: asks people, lets bots move, narrates, saves, resumes."""

    def __init__(
        self,
        console: Console,
        game: Game,
        seats: Sequence[str],
        agents: Sequence[Agent | HumanAgent],
        seed: int,
        *,
        save_to: Path,
        svg: Path | None = None,
        quiet: bool = False,
    ) -> None:
        self.console = console
        self.game = game
        self.seats = list(seats)
        self.agents = list(agents)
        self.seed = seed
        self.save_to = save_to
        self.svg = svg
        self.quiet = quiet
        self.rng = random.Random(seed)
        self.state = game.new_initial_state()
        self.log: list[str] = []
        self.snapshots: list[_Snapshot] = []
        self.humans = {i for i, a in enumerate(self.agents) if isinstance(a, HumanAgent)}
        self._chance: list[str] = []  # chance sentences since the last decision
        self._chance_shown = True  # whether they are printed when folded (not on resume)
        self._decided = False  # the first decision came: the set-up deal is over
        self._queue: list[Action] = []  # a confirmed command's actions still to apply
        self._commanded = False  # the action being applied is a command's (logged whole)
        self._bot_run: tuple[int, State, list[Action]] | None = None  # a bot's actions

    # -- naming ---------------------------------------------------------------------

    def label(self, seat: int) -> str:
        return f"P{seat + 1}" + ("" if seat in self.humans else f" ({self.seats[seat]})")

    def say(self, text: str, style: str = "") -> None:
        self.console.print(escape(text), style=style or None, highlight=False)

    # -- resuming --------------------------------------------------------------------

    def resume(self, actions: Sequence[str]) -> None:
        """Re-play a saved game's actions; each chance step must be the seed's own draw."""
        for i, text in enumerate(actions, start=1):
            state = self.state
            try:
                action = state.string_to_action(text)
            except MotherlodeError as err:
                raise RecordError(f"step {i} ({text!r}) of the saved game: {err}") from None
            if state.is_chance_node():
                drawn = state.sample_chance(self.rng)
                if drawn != action:
                    raise RecordError(
                        f"step {i}: the saved game says {text!r} but its seed draws"
                        f" {state.action_to_string(drawn)!r}"
                    )
            self._apply(action, narrate=False)
        self._flush_chance()
        self.say(f"Resumed after {len(actions)} steps.", "bold")

    # -- playing ---------------------------------------------------------------------

    def _apply(self, action: Action, narrate: bool = True, logged: bool = True) -> None:
        state = self.state
        chance = state.is_chance_node()
        if not logged:  # one of a command's or a bot run's actions: its line comes whole
            state.apply_action(action)
            if self.svg is not None:
                self.svg.write_text(self.state.render_svg(None))
            return
        viewer = next(iter(self.humans)) if len(self.humans) == 1 else None
        try:
            line = state.narrate(action, viewer)
        except Exception:  # a narration bug must not stop a game: fall back to notation
            line = state.action_to_string(action)
        state.apply_action(action)
        if chance:  # one line for the whole run, said before the next decision
            self._chance.append(line)
            self._chance_shown = narrate
            if not self._decided:
                return  # the set-up: the board is drawn once it is dealt
        else:
            self._flush_chance()
            self.log.append(line)
            if narrate and not self.quiet:
                self.say(line)
        if self.svg is not None:
            self.svg.write_text(self.state.render_svg(None))

    def _flush_chance(self) -> None:
        """The chance steps since the last decision as one line, as the web log shows them:
        the set-up deal (before the first decision) as "the set-up is dealt (49 draws)", a
        later run folded (El Dorado's seven dice: "all seven dice are rolled: a map, 2 coins,
        ..."); a single step keeps its own sentence."""
        run, self._chance = self._chance, []
        if run:
            setup = not self._decided and len(run) > 1
            line = f"the set-up is dealt ({len(run)} draws)" if setup else fold(run)
            self.log.append(line)
            if self._chance_shown and not self.quiet:
                self.say(line, "dim")
        self._decided = True

    def play(self) -> State:
        """Play to the end (or until a person quits: :class:`Quit`, the game saved)."""
        while not self.state.is_terminal():
            state = self.state
            if state.is_chance_node():
                self._end_bot_run()
                self._apply(state.sample_chance(self.rng))
                continue
            seat = state.current_player()
            self._flush_chance()
            if seat in self.humans:
                self._end_bot_run()
                if self._queue:  # the rest of a confirmed command
                    self._apply_queued(seat)
                    continue
                self.snapshots.append(
                    _Snapshot(state.clone(), self.rng.getstate(), len(self.log), seat)
                )
                action = self.ask(seat)
                if action is None:  # undone: ask again from the restored position
                    continue
                self._apply(action, logged=not self._queue and not self._commanded)
                self._commanded = False
                continue
            bot = self.agents[seat]
            assert isinstance(bot, Agent)
            action = bot.act(state.clone())
            if state.orders is None:
                self._apply(action)
                continue
            if self._bot_run is None or self._bot_run[0] != seat:
                self._end_bot_run()
                self._bot_run = (seat, state.clone(), [])
            self._bot_run[2].append(action)
            ends = state.orders.ends_turn is not None and state.orders.ends_turn(state, action)
            self._apply(action, logged=False)
            if ends:
                self._end_bot_run()
        self._end_bot_run()
        self._flush_chance()  # a game that ends on a chance step (a reveal, a roll)
        return self.state


    def _apply_queued(self, seat: int) -> None:
        action = self._queue.pop(0)
        if action not in self.state.legal_actions():
            self._queue.clear()
            self.say("the rest of the command no longer applies here", "red")
            return
        self._apply(action, logged=False)

    def _end_bot_run(self) -> None:
        """A bot's run of decisions, as one line ("P2 (greedy) builds Paris–Lyon (9
        mileposts, 14 M), ends the turn")."""
        if self._bot_run is None:
            return
        seat, before, actions = self._bot_run
        self._bot_run = None
        try:
            phrases = before.describe(actions)
        except Exception:  # a description bug must not stop a game: fall back to notation
            phrases = [before.action_to_string(a) for a in actions[:1]]
        self._line(f"{self.label(seat)} " + ", ".join(phrases))

    def _line(self, line: str) -> None:
        self._flush_chance()
        self.log.append(line)
        if not self.quiet:
            self.say(line)

    # -- a person's turn -----------------------------------------------------------------

    def board_text(self, seat: int | None) -> Text:
        """The text board from ``seat``'s view, coloured where the game marks it (the
        places that ``seat``'s legal moves act on, gold, the seats ...)."""
        state = self.state
        board = state.render_text(seat)
        renderer = state.renderer
        marks: Sequence[TextMark] = ()
        if renderer is not None and renderer.text_marks is not None:
            try:
                marks = renderer.text_marks(state, seat)
            except Exception:  # a colouring bug must not stop a game: plain text
                marks = ()
        return styled_board(board, marks)

    def show_board(self, seat: int) -> None:
        self.console.print()
        self.console.print(self.board_text(seat), highlight=False)

    def show_menu(self, names: Sequence[str], kind: str | None = None) -> None:
        """The numbered moves; a long menu by kind (the first word), and a kind still too
        long by its moves' next letter (``list turn c``: Chinagold's lines from row c).
        ``kind`` (from ``list KIND``) may be any start of a move: ``list turn c``."""
        groups = group_actions(names)
        if kind is None and len(names) > MENU_LIMIT:
            self.say(f"{len(names)} moves, by kind ('list KIND' shows one kind, 'list' all):")
            for word, indexes in groups.items():
                shown = ", ".join(f"{i + 1}) {names[i]}" for i in indexes[:4])
                more = f" ... and {len(indexes) - 4} more" if len(indexes) > 4 else ""
                self.say(f"  {word} ({len(indexes)}): {shown}{more}")
                if len(indexes) > MENU_LIMIT:
                    self.say("     " + ", ".join(
                        f"list {start} ({n})" for start, n in _next_letters(names, indexes)
                    ))
            return
        prefix = (kind or "").strip().lower()
        if not prefix:
            indexes = list(range(len(names)))
        elif prefix in groups:
            indexes = groups[prefix]
        else:
            indexes = [i for i, name in enumerate(names) if name.lower().startswith(prefix)]
        if not indexes:
            self.say(f"no moves of kind {kind!r}; kinds: {', '.join(groups)}", "red")
            return
        width = max(len(names[i]) for i in indexes) + 6
        per_line = max(1, 96 // width)
        for k in range(0, len(indexes), per_line):
            chunk = indexes[k : k + per_line]
            self.say("".join(f"{i + 1:>3}) {names[i]:<{width - 5}}" for i in chunk))

    def ask(self, seat: int) -> Action | None:
        """The person's move, or ``None`` after an ``undo`` (the position was restored)."""
        state = self.state
        legal = state.legal_actions()
        names = [state.action_to_string(a) for a in legal]
        self.show_board(seat)
        self.console.print(f"[bold]P{seat + 1}[/], your move ('help' for help):")
        self.show_menu(names)
        while True:
            try:
                answer = self.read_line(f"P{seat + 1}> ").strip()
            except (KeyboardInterrupt, EOFError):
                self.console.print()
                raise Quit from None
            if answer:
                outcome = self.answer(seat, answer, names, legal)
                if outcome is not _ASK_AGAIN:
                    return outcome  # type: ignore[return-value]

    def read_line(self, prompt: str) -> str:
        """A line typed at ``prompt`` (plain text). With readline the prompt is input()'s
        own: readline then knows it, and a line recalled from the history (the up arrow)
        is drawn after it instead of over it."""
        if "readline" in sys.modules and sys.stdin.isatty() and sys.stdout.isatty():
            self.console.file.flush()
            return input(prompt)
        return self.console.input(prompt, markup=False)

    def answer(self, seat: int, answer: str, names: list[str], legal: list[Action]) -> object:
        """What one line typed at the prompt does: an action, ``None`` (undone) or
        :data:`_ASK_AGAIN` after a command or a refusal."""
        if answer.isdigit():
            k = int(answer)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.say(f"pick a number from 1 to {len(legal)}, or type a move", "red")
            return _ASK_AGAIN
        if "\x1b" in answer or not answer.isprintable():
            self.say(
                "that was a special key, not a move: type a number or a move"
                " ('help' lists the commands)",
                "red",
            )
            return _ASK_AGAIN
        word, _, rest = answer.partition(" ")
        command = self._commands().get(word.lower())
        if command is not None:
            return command(seat, rest.strip(), names, legal)
        if self.state.orders is not None and not self._atomic(answer, legal):
            return self.propose(seat, answer, names, legal)
        if not self._parses(answer):  # not a move's notation: maybe its end ('c4-c7')
            matches = completions(names, answer)
            if len(matches) == 1:
                self.say(f"{answer} = {names[matches[0]]}", "dim")
                return legal[matches[0]]
            if len(matches) > 1:
                self.say(
                    f"{answer!r} could be: "
                    + ", ".join(f"{i + 1}) {names[i]}" for i in matches[:12])
                    + ("..." if len(matches) > 12 else "")
                    + "; type the whole move or its number",
                    "red",
                )
                return _ASK_AGAIN
            for word in group_actions(names):  # 'c4-c8': why 'turn c4-c8' is refused
                if self._parses(f"{word} {answer}"):
                    answer = f"{word} {answer}"
                    break
        action = self.parse(answer, legal)
        return _ASK_AGAIN if action is None else action

    def _parses(self, answer: str) -> bool:
        try:
            self.state.string_to_action(answer)
        except MotherlodeError:
            return False
        return True

    def _atomic(self, answer: str, legal: list[Action]) -> bool:
        try:
            return self.state.string_to_action(answer) in legal
        except MotherlodeError:
            return False

    def propose(self, seat: int, answer: str, names: list[str], legal: list[Action]) -> object:
        """A command for people: its preview, then ``y`` applies it, ``n`` drops it, and
        anything else is taken as the next answer (a changed command)."""
        try:
            preview = self.state.preview(answer)
        except MotherlodeError as err:
            self.say(f"{err} ('help' lists the commands)", "red")
            return _ASK_AGAIN
        if not preview.actions:
            self.say(f"{answer!r} does nothing here", "red")
            return _ASK_AGAIN
        self.say(preview.summary, "bold")
        for line in preview.details:
            self.say(f"  {line}")
        try:
            reply = self.read_line("confirm? (y = yes, n = no, or change it) ").strip()
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            raise Quit from None
        if reply.lower() in ("y", "yes"):
            self._queue = list(preview.actions[1:])
            self._commanded = True
            self._line(preview.summary)
            return preview.actions[0]
        if reply.lower() in ("", "n", "no"):
            self.say("not done", "dim")
            return _ASK_AGAIN
        return self.answer(seat, reply, names, legal)

    def _commands(self) -> dict[str, Any]:
        """The prompt's commands: each ``(seat, argument, names, legal)`` -> an outcome."""

        def again(effect: Any) -> Any:
            def run(seat: int, rest: str, names: list[str], legal: list[Action]) -> object:
                effect(seat, rest, names, legal)
                return _ASK_AGAIN

            return run

        def undo(seat: int, rest: str, names: list[str], legal: list[Action]) -> object:
            return None if self.undo(seat) else _ASK_AGAIN

        def quit_(seat: int, rest: str, names: list[str], legal: list[Action]) -> object:
            raise Quit

        helper = again(lambda seat, rest, names, legal: self.show_help(seat, names))
        return {
            "help": helper,
            "?": helper,
            "rules": again(lambda *_: self.console.print(
                rules_text(self.game), markup=False, highlight=False)),
            "hint": again(lambda seat, rest, names, legal: self.show_hint(names, legal)),
            "undo": undo,
            "board": again(lambda seat, rest, names, legal: self.show_again(seat, names)),
            "log": again(lambda *_: self.show_log()),
            "list": again(lambda seat, rest, names, legal: self.show_menu(
                names, rest.lower() or "")),
            "save": again(lambda seat, rest, names, legal: self.save(
                Path(rest) if rest else self.save_to)),
            "quit": quit_,
            "exit": quit_,
        }

    def show_again(self, seat: int, names: list[str]) -> None:
        self.show_board(seat)
        self.show_menu(names)

    def show_log(self) -> None:
        for i, line in enumerate(self.log, start=1):
            self.say(f"{i:>4}. {line}")
        if not self.log:
            self.say("nothing has happened yet")

    def parse(self, answer: str, legal: list[Action]) -> Action | None:
        """``answer`` as a legal action, or ``None`` after saying why it is not one."""
        state = self.state
        try:
            action = state.string_to_action(answer)
        except MotherlodeError as err:
            self.say(f"{err} ('help' lists the commands)", "red")
            return None
        if action not in legal:
            try:
                state.clone().apply_action(action)
            except MotherlodeError as err:
                self.say(str(err), "red")
                return None
        return action

    def decision(self) -> str | None:
        """The decision in front of the seat to move, with its rulebook section (where the
        game words it: ``Narrator.decision``)."""
        narrator = self.state.narrator
        if narrator is None or narrator.decision is None:
            return None
        try:
            return narrator.decision(self.state)
        except Exception:  # a wording bug must not stop a game
            return None

    def show_help(self, seat: int, names: Sequence[str]) -> None:
        decision = self.decision()
        if decision:
            self.say(f"Now: {decision}.", "bold")
        groups = group_actions(names)
        if len(groups) == len(names):  # no kinds to speak of: name the moves
            kinds = ", ".join(names[:30]) + (" ..." if len(names) > 30 else "")
        else:
            kinds = ", ".join(f"{word} ({len(ix)})" for word, ix in groups.items())
        self.say(f"P{seat + 1} to move in {self.game.name}: {len(names)} legal moves: {kinds}.")
        short = next(
            (
                (name, name.split(" ", 1)[1])
                for name in names
                if " " in name and len(completions(names, name.split(" ", 1)[1])) == 1
            ),
            None,
        )
        self.say(
            "Type a move's number or its notation (e.g. '" + names[0] + "')"
            + (f"; the end of a move is enough where no other move ends so: '{short[1]}' for"
               f" '{short[0]}'" if short else "")
            + "; or a command:"
        )
        for command, what in COMMANDS.items():
            self.say(f"  {command:<12} {what}")
        orders = self.state.orders
        if orders is not None and orders.examples:
            self.say("Commands of this game (each previewed, then confirmed with y):")
            for example, what in orders.examples:
                self.say(f"  {example:<18} {what}")

    def show_hint(self, names: Sequence[str], legal: list[Action]) -> None:
        from motherlode.agents import create

        spec = game_hint_spec(self.game)
        try:
            bot = create(spec, self.game, seed=len(self.state.history()))
        except MotherlodeError:
            bot = create("greedy" if "greedy" in self.game.bots() else "random", self.game)
        self.say(f"thinking (the strongest bot, {spec}) ...", "dim")
        action = bot.act(self.state.clone())
        best = names[legal.index(action)] if action in legal else str(action)
        self.say(f"hint: {best}", "bold green")
        search = getattr(bot, "last_search", None)
        children = search.get("children") if isinstance(search, dict) else None
        if children and isinstance(search, dict):
            table = Table("move", "visits", "value (-1 loss .. +1 win)")
            top = sorted(children.items(), key=lambda kv: -kv[1][0])[:5]
            for a, (visits, value) in top:
                shown = names[legal.index(a)] if a in legal else str(a)
                table.add_row(shown, str(visits), f"{value:+.2f}")
            self.console.print(table)
            self.say(
                f"{search.get('iterations', 0)} simulated games: the move tried most often"
                " is the one whose games went best for you."
            )
        else:
            self.say(f"(the {spec} bot's choice: the move that its rules of thumb rate best)")

    def undo(self, seat: int) -> bool:
        """Back to ``seat``'s last decision, if no chance step or other person came since."""
        if len(self.snapshots) < 2:
            self.say("there is no move of yours to take back yet", "red")
            return False
        current = self.snapshots.pop()  # the position being asked about now
        previous = next((s for s in reversed(self.snapshots) if s.seat == seat), None)
        since = None if previous is None else self.state.history()[
            len(previous.state.history()) :
        ]
        blocked = previous is None or self._undo_blocked(previous, since or [])
        if blocked:
            self.snapshots.append(current)
            self.say(f"undo refused: {blocked if isinstance(blocked, str) else 'nothing to undo'}",
                     "red")
            return False
        assert previous is not None
        while self.snapshots[-1] is not previous:
            self.snapshots.pop()
        self.snapshots.pop()  # asked again by play()
        self.state = previous.state.clone()
        self.rng.setstate(previous.rng)
        del self.log[previous.log :]
        self.say(f"P{seat + 1} takes back {len(since or [])} step(s).", "bold")
        return True

    def _undo_blocked(self, previous: _Snapshot, since: Sequence[Action]) -> str | bool:
        replay = previous.state.clone()
        for action in since:
            if replay.is_chance_node():
                return "a roll, a draw or a reveal came since (it cannot be taken back)"
            actor = replay.current_player()
            if actor in self.humans and actor != previous.seat:
                return f"P{actor + 1} has moved since"
            replay.apply_unchecked(action)
        return False

    # -- saving and the end ------------------------------------------------------------

    def record(self) -> GameRecord:
        return GameRecord.from_state(self.state, self.seats, self.seed)

    def save(self, path: Path) -> Path | None:
        try:
            saved = self.record().save(path)
        except OSError as err:
            self.say(f"cannot save to {path}: {err.strerror}", "red")
            return None
        self.say(f"game saved to {saved}; continue it with:", "bold")
        self.console.print(  # one line, never wrapped: it is to be copied
            f"  motherlode play {self.game.name} --resume {saved}", markup=False,
            highlight=False, soft_wrap=True,
        )
        return saved

    def show_end(self, names: Sequence[str] | None = None) -> None:
        state = self.state
        self.console.print()
        self.console.print(self.board_text(None), highlight=False)
        summary = state.summary()
        label = list(names) if names else [self.label(p) for p in range(self.game.num_players)]
        lines = summary.lines(label)
        self.say(lines[0], "bold")
        table = Table("seat", "score", "breakdown")
        for r in summary.seats:
            parts = ", ".join(  # "1 robber × 2 = 2": a part that states its own sum
                f"{what}{' ' if what.endswith('=') else ': '}{v:g}" for what, v in r.breakdown
            )
            table.add_row(label[r.seat], f"{r.score:g}", parts)
        self.console.print(table)
        self.say("Result: " + lines[-1], "bold green")

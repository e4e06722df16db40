"""A human at the terminal: picks from numbered legal actions or types action notation."""

from __future__ import annotations

from rich.console import Console

from motherlode.core.agent import Agent
from motherlode.core.errors import MotherlodeError
from motherlode.core.protocol import Action, State


class HumanAgent(Agent):
    """Asks at the terminal; wrong input is explained and asked again."""

    name = "human"

    def __init__(self, console: Console, seat: int, seed: int = 0) -> None:
        super().__init__(seed)
        self.console = console
        self.seat = seat

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        self.console.print()
        self.console.print(state.render_text(self.seat), markup=False, highlight=False)
        names = [state.action_to_string(a) for a in legal]
        self.console.print(f"[bold]P{self.seat + 1}[/], your move:")
        width = max(len(n) for n in names) + 6
        per_line = max(1, 96 // width)
        for i in range(0, len(names), per_line):
            chunk = names[i : i + per_line]
            self.console.print(
                "".join(f"{i + j + 1:>3}) {n:<{width - 5}}" for j, n in enumerate(chunk)),
                markup=False,
                highlight=False,
            )
        while True:
            answer = self.console.input("> ").strip()
            if not answer:
                continue
            if answer.isdigit():
                k = int(answer)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.console.print(f"[red]pick a number from 1 to {len(legal)}[/]")
                continue
            try:
                action = state.string_to_action(answer)
            except MotherlodeError as err:
                self.console.print(str(err), style="red", markup=False, highlight=False)
                continue
            if action not in legal:
                probe = state.clone()
                try:
                    probe.apply_action(action)
                except MotherlodeError as err:
                    self.console.print(str(err), style="red", markup=False, highlight=False)
                    continue
            return action

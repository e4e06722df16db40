"""Game records (DESIGN.md §3): JSON files that replay a whole game and verify it.

A record holds the game name, its config, the players (agent specs or names), the seed
that drove chance, the action strings in order (chance outcomes included) and the final
scores. :func:`replay` re-plays it through the checked path and verifies every step.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from motherlode.core.errors import MotherlodeError, RecordError
from motherlode.core.protocol import State

RECORD_FORMAT = "motherlode-record/1"


@dataclass
class GameRecord:
    game: str
    config: dict[str, Any]
    players: list[str]
    seed: int | None
    actions: list[str]
    scores: list[float] | None = None
    date: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    )
    format: str = RECORD_FORMAT

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_state(cls, state: State, players: list[str], seed: int | None) -> GameRecord:
        """The record of ``state``'s history (its action strings re-derived step by step)."""
        game = state.game
        replayed = game.new_initial_state()
        strings = []
        for action in state.history():
            strings.append(replayed.action_to_string(action))
            replayed.apply_unchecked(action)
        return cls(
            game=game.name,
            config=game.config.model_dump(),
            players=list(players),
            seed=seed,
            actions=strings,
            scores=list(state.scores()) if state.is_terminal() else None,
        )

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"{source}: not JSON ({err.msg} at line {err.lineno})") from None
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a record is a JSON object, got {type(data).__name__}")
        missing = [k for k in ("game", "config", "actions") if k not in data]
        if missing:
            raise RecordError(f"{source}: missing field(s) {', '.join(missing)}")
        if not isinstance(data["actions"], list) or not all(
            isinstance(a, str) for a in data["actions"]
        ):
            raise RecordError(f"{source}: 'actions' must be a list of action strings")
        if not isinstance(data["config"], dict):
            raise RecordError(f"{source}: 'config' must be an object")
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise RecordError(f"{source}: unknown field(s) {', '.join(sorted(unknown))}")
        data.setdefault("players", [])
        data.setdefault("seed", None)
        return cls(**data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise RecordError(f"cannot read record {str(path)!r}: {err.strerror}") from None
        return cls.from_json(text, source=str(path))


def replay(record: GameRecord) -> State:
    """Re-play ``record`` step by step through the checked path and verify its scores.

    Any unparseable or illegal step, or final scores that differ, raises
    :class:`RecordError` naming the step.
    """
    import motherlode

    try:
        game = motherlode.load(record.game, **record.config)
    except MotherlodeError as err:
        raise RecordError(f"record's game or config is invalid: {err}") from None
    state = game.new_initial_state()
    for i, text in enumerate(record.actions, start=1):
        try:
            state.apply_string(text)
        except MotherlodeError as err:
            raise RecordError(f"step {i} ({text!r}) does not replay: {err}") from None
    if record.scores is not None:
        if not state.is_terminal():
            raise RecordError(
                f"record claims final scores {record.scores} but the game is not over"
                f" after its {len(record.actions)} actions"
            )
        if [float(s) for s in state.scores()] != [float(s) for s in record.scores]:
            raise RecordError(
                f"record claims scores {record.scores}, replay gives {state.scores()}"
            )
    return state

"""Game records (DESIGN.md §3): JSON files that replay a whole game and verify it.

A record holds the game name, its config, the players (agent specs or names), the seed
that drove chance, the action strings in order (chance outcomes included) and the final
scores, and the versions it was written under (the game's rules and notation versions,
the chance stream). :func:`replay` re-plays it through the checked path and verifies every
step. A record from older rules replays if every step is still legal; where one is not,
it is refused naming the step and the rule changes made since (:func:`step_failure`).
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from motherlode.core.chance import MT19937, STREAMS
from motherlode.core.errors import MotherlodeError, RecordError
from motherlode.core.protocol import Game, State

RECORD_FORMAT = "motherlode-record/1"

CHANCE_STREAM = MT19937
"""The stream of records written by local play, simulations and tournaments (and of every
record that names none); the web server's matches use ``hmac-sha256`` (core/chance.py)."""

LEGACY_VERSIONS: dict[str, Any] = {"rules": 1, "notation": 1, "chance": CHANCE_STREAM}
"""The versions of a record written before records named theirs."""


def versions_of(game: Game) -> dict[str, Any]:
    """The versions a record of ``game`` is written under today."""
    return {
        "rules": game.rules_version,
        "notation": game.notation_version,
        "chance": CHANCE_STREAM,
    }


_LOADERS: list[Callable[..., Game]] = []


def register_loader(load: Callable[..., Game]) -> None:
    """How :func:`replay` makes a record's game from its name and config: given by the
    games' registry when it is imported (core knows no game, DESIGN.md §1)."""
    _LOADERS[:] = [load]


def load_game(record: GameRecord) -> Game:
    """The record's game with its config; an unknown one raises :class:`RecordError`."""
    if not _LOADERS:
        raise RecordError("no games are registered (import motherlode first)")
    try:
        return _LOADERS[0](record.game, **record.config)
    except MotherlodeError as err:
        raise RecordError(f"record's game or config is invalid: {err}") from None


def _check_versions(versions: Any, source: str) -> dict[str, Any]:
    if not isinstance(versions, dict):
        raise RecordError(f"{source}: 'versions' must be an object, got {versions!r}")
    unknown = set(versions) - set(LEGACY_VERSIONS)
    if unknown:
        raise RecordError(f"{source}: unknown version(s) {', '.join(sorted(unknown))}")
    out = dict(LEGACY_VERSIONS)
    out.update(versions)
    for key in ("rules", "notation"):
        value = out[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RecordError(
                f"{source}: versions.{key} must be a whole number >= 1, got {value!r}"
            )
    if not isinstance(out["chance"], str):
        raise RecordError(f"{source}: versions.chance must be a string, got {out['chance']!r}")
    return out


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
    versions: dict[str, Any] = field(default_factory=lambda: dict(LEGACY_VERSIONS))
    """``{"rules": n, "notation": n, "chance": "mt19937"}`` (:func:`versions_of`); a record
    that does not say is read as the first versions."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """Clock events of a match played with a clock (``{"after": n, "kind", "seat",
    "text"}``: after ``n`` actions, seat 0-based): not engine actions, checked by
    :func:`check_event`; written only when there are any."""

    def to_json(self) -> str:
        data = asdict(self)
        if not data["events"]:
            del data["events"]
        return json.dumps(data, indent=1, ensure_ascii=False)

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
            versions=versions_of(game),
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
        data["events"] = _check_events(data.get("events", []), len(data["actions"]), source)
        data["versions"] = _check_versions(data.get("versions", LEGACY_VERSIONS), source)
        return cls(**data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise RecordError(f"cannot read record {str(path)!r}: {err.strerror}") from None
        return cls.from_json(text, source=str(path))


CLOCK_EVENTS = ("timeout", "skip", "bot", "forfeit")
"""The clock events a record may hold (server/clocks.py): a seat ran out of time, its turn
was skipped (its game's pass follows in the actions), a bot took the seat over, it forfeited."""


def _check_events(events: Any, actions: int, source: str) -> list[dict[str, Any]]:
    if not isinstance(events, list):
        raise RecordError(f"{source}: 'events' must be a list")
    last = 0
    for i, e in enumerate(events, start=1):
        if not isinstance(e, dict) or e.get("kind") not in CLOCK_EVENTS:
            raise RecordError(
                f"{source}: event {i} must be an object whose kind is one of "
                + ", ".join(CLOCK_EVENTS)
            )
        after, seat = e.get("after"), e.get("seat")
        for name, value in (("after", after), ("seat", seat)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RecordError(f"{source}: event {i}'s {name} must be a whole number >= 0")
        assert isinstance(after, int)
        if not last <= after <= actions:
            raise RecordError(
                f"{source}: event {i} comes after action {after}, out of order or past the"
                f" {actions} actions"
            )
        last = after
    return events


def check_event(state: State, event: dict[str, Any], actions: int) -> str | None:
    """Why clock ``event`` cannot stand where the record puts it (``state``: the replay
    after ``event["after"]`` actions), or ``None``: a clock event is about the seat to move,
    in a game not over; a forfeit ends the record there."""
    seat, kind, after = event["seat"], event["kind"], event["after"]
    where = f"the clock event after action {after} ({kind} of P{seat + 1})"
    if state.is_terminal():
        return f"{where} comes after the game ended"
    if seat != state.current_player():
        return f"{where} is not about the seat to move (P{state.current_player() + 1})"
    if kind == "forfeit" and after != actions:
        return f"{where}: actions follow a forfeit"
    return None


def forfeited(record: GameRecord) -> int | None:
    """The seat that forfeited on time, if the record ends so."""
    for e in record.events:
        if e["kind"] == "forfeit":
            return int(e["seat"])
    return None


def forfeit_scores(num_players: int, seat: int) -> list[float]:
    """A forfeit's scores: the late seat 0, the others 1 (a shared win)."""
    return [0.0 if s == seat else 1.0 for s in range(num_players)]


def check_forfeit(record: GameRecord, state: State, seat: int) -> str | None:
    """Why a record that ends with ``seat``'s forfeit on time does not claim its scores."""
    want = forfeit_scores(state.game.num_players, seat)
    if record.scores is not None and [float(s) for s in record.scores] != want:
        return f"the record claims scores {record.scores}, a forfeit of P{seat + 1} gives {want}"
    return None


def check_record_versions(record: GameRecord, game: Game) -> None:
    """Refuse a record written under rules or a notation newer than this motherlode's."""
    versions = {**LEGACY_VERSIONS, **record.versions}
    for key, mine in (("rules", game.rules_version), ("notation", game.notation_version)):
        if versions[key] > mine:
            raise RecordError(
                f"the record was written under {game.name} {key} version {versions[key]},"
                f" newer than this motherlode's ({mine}): upgrade motherlode to read it"
            )
    if versions["chance"] not in STREAMS:
        raise RecordError(
            f"the record draws chance with {versions['chance']!r}, which this motherlode"
            f" does not know (it knows {', '.join(STREAMS)})"
        )


def step_failure(record: GameRecord, game: Game, step: int, text: str, err: Exception) -> str:
    """Why step ``step`` of ``record`` does not replay, naming the rule changes since the
    rules it was written under when there are any (a bare "illegal" is never the answer)."""
    message = f"step {step} ({text!r}) does not replay: {err}"
    written = int(record.versions.get("rules", 1))
    changes = [
        f"rules {v}: {game.rules_changes[v]}"
        for v in sorted(game.rules_changes)
        if written < v <= game.rules_version
    ]
    if changes:
        message += (
            f". The record was written under {game.name} rules version {written}; this"
            f" motherlode plays version {game.rules_version}, which changed: " + "; ".join(changes)
        )
    return message


def replay(record: GameRecord) -> State:
    """Re-play ``record`` step by step through the checked path and verify its scores.

    Any unparseable or illegal step, or final scores that differ, raises
    :class:`RecordError` naming the step.
    """
    game = load_game(record)
    check_record_versions(record, game)
    state = game.new_initial_state()
    events = list(record.events)
    for i, text in enumerate([*record.actions, None]):
        while events and events[0]["after"] == i:
            problem = check_event(state, events.pop(0), len(record.actions))
            if problem:
                raise RecordError(problem)
        if text is None:
            break
        try:
            state.apply_string(text)
        except MotherlodeError as err:
            raise RecordError(step_failure(record, game, i + 1, text, err)) from None
    seat = forfeited(record)
    if seat is not None:
        problem = check_forfeit(record, state, seat)
        if problem:
            raise RecordError(problem)
    elif record.scores is not None:
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

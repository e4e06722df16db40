"""Hidden information never leaves the server: every message of whole games is searched.

Parametrized over every registered game with hidden information (``not
game.perfect_information``), plus Eureka and Eurorails (face-down chips, decks) when
registered, plus :mod:`secret_game`, a tiny game with hidden hands and a secret choice
that proves the mechanism (and a deliberately leaky copy of it, which the checker must
catch). For each seat and for a spectator, every message the server sent (WebSocket
pushes and HTTP answers) is checked against the re-played record:

* its ``view`` is exactly ``observation(seat)`` at its version;
* it contains no string that another seat's observation holds and this seat's does not
  (beyond this seat's own legal moves and its log, whose entries the server masks);
* where a log entry is hidden from a seat, the alternatives it cannot tell apart through
  its observation give it the same board and moves (non-interference);
* before the end it contains neither the seed nor the full position notation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import motherlode
from motherlode.core.protocol import Game, State
from motherlode.games import registry
from tests.server.helpers import auth, hello
from tests.server.secret_game import CARDS, SecretGame, SecretState


def _hidden_games() -> list[str]:
    names = set()
    for name, cls in registry().items():
        try:
            if not cls.from_config().perfect_information:
                names.add(name)
        except motherlode.ConfigError:
            continue
    return sorted(names | ({"eureka", "eurorails"} & set(registry())))


class LeakyState(SecretState):
    def render_svg(self, seat: int | None = None) -> str:  # draws every hand: a leak
        return super().render_svg(seat) + "".join(f"<!--{CARDS[c]}-->" for c in self.hands)


class LeakyGame(SecretGame):
    name = "leakyduel"

    def new_initial_state(self) -> LeakyState:
        return LeakyState(self)


@pytest.fixture(autouse=True)
def _test_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry(), "secretduel", SecretGame)
    monkeypatch.setitem(registry(), "leakyduel", LeakyGame)
    yield


def _short_config(game: str) -> dict[str, Any]:
    """Config for a bounded test game: turn limits cut short where a game has them."""
    cls = registry()[game]
    out: dict[str, Any] = {}
    for name in cls.Config.model_fields:
        if name in ("max_turns", "max_rounds"):
            out[name] = 12
        elif name == "turn_limit":
            out[name] = 2
        elif name == "open_hands":  # Eurorails: private demand cards, the harder case
            out[name] = False
    return out


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if len(value) >= 3 else set()
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def play_and_collect(
    client: TestClient, game: str, seed: int, max_steps: int = 80
) -> tuple[Game, dict[Any, list[str]], list[str]]:
    """Play a game of human seats moving at random, to its end or ``max_steps`` decisions
    (bounded time for long games); every message each seat and a spectator got."""
    config = _short_config(game)
    g = motherlode.load(game, **config)
    n = g.num_players
    r = client.post(
        "/api/matches",
        json={"game": game, "config": config, "seats": [{"kind": "human"}] * n},
    )
    assert r.status_code == 201, r.text
    m = r.json()
    mid, tokens = m["id"], {s["seat"]: s["token"] for s in m["seats"]}
    rng = random.Random(seed)
    sent: dict[Any, list[str]] = {k: [] for k in [*range(n), None]}
    sockets = {k: client.websocket_connect(f"/ws/{mid}") for k in sent}
    for k, ws in sockets.items():
        ws.__enter__()
        sent[k].append(json.dumps(hello(ws, tokens[k] if k is not None else None)))
    try:
        for _ in range(max_steps + 1):
            spectator = client.get(f"/api/matches/{mid}")
            sent[None].append(spectator.text)
            s = spectator.json()
            if s["terminal"] or _ == max_steps:
                break
            seat = s["to_move"]
            mine = client.get(f"/api/matches/{mid}", headers=auth(tokens[seat]))
            sent[seat].append(mine.text)
            legal = mine.json()["legal"]
            choice = legal[rng.randrange(len(legal))]["text"]
            r = client.post(
                f"/api/matches/{mid}/move",
                json={"action": choice, "version": mine.json()["version"]},
                headers=auth(tokens[seat]),
            )
            assert r.status_code == 200, r.text
            sent[seat].append(r.text)
        last = s["version"]
        for k, ws in sockets.items():
            while True:
                text = ws.receive_text()
                sent[k].append(text)
                if json.loads(text).get("version", -1) >= last:
                    break
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    if s["terminal"]:
        actions = client.get(f"/api/matches/{mid}/record").json()["actions"]
    else:  # (the record is published at the end only: read the log behind the server's back)
        service = client.app.state.service  # type: ignore[attr-defined]
        actions = [e.text for e in service.runtime(mid).entries]
    return g, sent, actions


def find_leaks(game: Game, sent: dict[Any, list[str]], actions: list[str], seed: str) -> list[str]:
    """Every message that shows a seat something it may not see (empty: none)."""
    states: list[State] = [game.new_initial_state()]
    for text in actions:
        nxt = states[-1].clone()
        nxt.apply_string(text)
        states.append(nxt)
    n = game.num_players
    public = game.new_initial_state().render_svg(None)  # map labels and the like
    problems: list[str] = []
    for viewer, messages in sent.items():
        for text in messages:
            msg = json.loads(text)
            if msg.get("type") != "state":
                continue
            state = states[msg["version"]]
            if msg["view"] != _normal(state.observation(viewer)):
                problems.append(f"{viewer}: view at {msg['version']} is not observation()")
            if not state.is_terminal():
                if seed in text:
                    problems.append(f"{viewer}: the seed at version {msg['version']}")
                if len(state.serialize()) > 12 and state.serialize() in text:
                    problems.append(f"{viewer}: the full position at version {msg['version']}")
            own = _strings(state.observation(viewer))
            shown = [a["text"] for a in msg["legal"]] + [e["text"] for e in msg["log"]]
            words = {w for t in shown for w in t.split()} | set(shown)
            others = set().union(
                *(_strings(state.observation(o)) for o in [*range(n), None] if o != viewer)
            )
            for secret in sorted(others - own - words):
                if secret in text and secret not in public:
                    problems.append(f"{viewer} sees {secret!r} at version {msg['version']}")
    return problems


def find_distinguishable(game: Game, actions: list[str], limit: int = 40) -> list[str]:
    """Non-interference: where a log entry is hidden from a seat, every alternative that
    leaves that seat's observation unchanged must leave what it is sent unchanged too
    (its board drawing and, if it is to move, its legal moves)."""
    from motherlode.server.runtime import board_svg, visibility

    problems: list[str] = []
    state = game.new_initial_state()
    n = game.num_players
    checked = 0
    for i, text in enumerate(actions):
        action = state.string_to_action(text)
        actor = state.current_player()
        seen = visibility(state, action, actor)
        if seen is not None and not all(seen) and checked < limit:
            checked += 1
            alternatives = (
                [a for a, _ in state.chance_outcomes()] if actor < 0 else state.legal_actions()
            )
            real = state.clone()
            real.apply_action(action)
            for index, visible in enumerate(seen):
                viewer = None if index == n else index
                if visible:
                    continue
                key = _normal(real.observation(viewer))
                for alt in [a for a in alternatives if a != action][:6]:
                    other = state.clone()
                    other.apply_action(alt)
                    if _normal(other.observation(viewer)) != key:
                        continue
                    sees = (
                        board_svg(other, viewer),
                        [other.action_to_string(a) for a in other.legal_actions()]
                        if viewer == other.current_player()
                        else [],
                    )
                    truth = (
                        board_svg(real, viewer),
                        [real.action_to_string(a) for a in real.legal_actions()]
                        if viewer == real.current_player()
                        else [],
                    )
                    if sees != truth:
                        problems.append(
                            f"step {i + 1} ({text!r}): seat {viewer} is sent something that"
                            f" tells it from {state.action_to_string(alt)!r}"
                        )
        state.apply_action(action)
    return problems


@pytest.mark.parametrize("game", ["secretduel", *_hidden_games()])
def test_no_hidden_value_in_any_message_of_whole_games(client: TestClient, game: str) -> None:
    games = 6 if game == "secretduel" else 1
    for seed in range(games):
        g, sent, actions = play_and_collect(client, game, seed)
        mid = json.loads(sent[None][0])["match"]
        seed_text = str(client.app.state.service.runtime(mid).seed)  # type: ignore[attr-defined]
        assert find_leaks(g, sent, actions, seed_text) == []
        assert find_distinguishable(g, actions) == []
        # and the checker looked at real traffic: every seat got messages of every stage
        assert all(len(v) > 2 for v in sent.values())


def test_hidden_log_entries_are_masked_per_seat(client: TestClient) -> None:
    _g, sent, actions = play_and_collect(client, "secretduel", 1)
    last = {k: json.loads(v[-1]) for k, v in sent.items()}
    # the end: everything is revealed in the record, but each log keeps what was hidden
    assert actions[0].startswith("deal ") and actions[2].startswith("secret ")
    spectator_log = [e["text"] for e in last[None]["log"]]
    assert spectator_log[:3] == ["chance (hidden)", "chance (hidden)", "(hidden move)"]
    assert spectator_log[3].startswith("guess ")
    p0 = [e["text"] for e in last[0]["log"]]
    p1 = [e["text"] for e in last[1]["log"]]
    assert p0[0] == actions[0] and p0[1] == "chance (hidden)" and p0[2] == actions[2]
    assert p1[0] == "chance (hidden)" and p1[1] == actions[1] and p1[2] == "(hidden move)"
    assert last[None]["terminal"] and last[None]["seed"]
    # a restarted server re-plays the log with the stored masks: the same logs per seat
    from motherlode.server.service import MatchService

    service = client.app.state.service  # type: ignore[attr-defined]
    mid = last[None]["match"]
    fresh = MatchService(service.engine).runtime(mid)
    for seat in (0, 1, None):
        assert fresh.log_for(seat) == service.runtime(mid).log_for(seat) == last[seat]["log"]


def test_the_checker_catches_a_leaky_renderer(client: TestClient) -> None:
    g, sent, actions = play_and_collect(client, "leakyduel", 0)
    mid = json.loads(sent[None][0])["match"]
    seed = str(client.get(f"/api/matches/{mid}/record").json()["seed"])
    leaks = find_leaks(g, sent, actions, seed)
    assert any("sees" in p for p in leaks), leaks
    told = find_distinguishable(g, actions)
    assert any("tells it from" in p for p in told), told


def test_perfect_information_messages_never_carry_the_seed(client: TestClient) -> None:
    g, sent, actions = play_and_collect(client, "yukon", 3)
    mid = json.loads(sent[None][0])["match"]
    seed = str(client.get(f"/api/matches/{mid}/record").json()["seed"])
    assert find_leaks(g, sent, actions, seed) == []

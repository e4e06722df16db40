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
from tests.server.helpers import Viewer, auth, hello
from tests.server.secret_game import (
    CARDS,
    GEMS,
    LayeredGame,
    LayeredState,
    SecretGame,
    SecretState,
)


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
    monkeypatch.setitem(registry(), "layerduel", LayeredGame)
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
        pushes = Viewer()  # the WebSocket's snapshots and diffs, applied as a page does
        for text in messages:
            msg = json.loads(text)
            if msg.get("type") == "diff" or (msg.get("type") == "state" and "board" in msg):
                msg = pushes.apply(msg)  # a diff is checked as the whole view it makes
            elif msg.get("type") != "state":
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


@pytest.mark.parametrize("game", ["secretduel", "layerduel", *_hidden_games()])
def test_no_hidden_value_in_any_message_of_whole_games(client: TestClient, game: str) -> None:
    games = 6 if game in ("secretduel", "layerduel") else 1
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
    last = {k: _held(v) for k, v in sent.items()}
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


def _held(texts: list[str]) -> dict[str, Any]:
    """What a page holds after the WebSocket pushes among ``texts``."""
    viewer = Viewer()
    for text in texts:
        if _pushed(msg := json.loads(text)):
            viewer.apply(msg)
    assert viewer.state is not None
    return viewer.state


def _pushed(msg: dict[str, Any]) -> bool:
    """A WebSocket push (a snapshot or a diff), not an HTTP answer."""
    return msg.get("type") == "diff" or (msg.get("type") == "state" and "board" in msg)


class LeakyLayeredState(LayeredState):
    def render_layers(self, seat: int | None = None) -> Any:  # both hands, once P1 chose
        layers = super().render_layers(seat)
        if self.gem is None:
            return layers
        hands = " ".join(CARDS[c] for c in self.hands)
        leak = ("leak", f'<text id="leak" x="0" y="0">{hands}</text>')
        return type(layers)(
            layers.width, layers.height, layers.static, (*layers.public, leak), layers.seat
        )


class LeakyLayeredGame(LayeredGame):
    name = "leakylayers"

    def new_initial_state(self) -> LeakyLayeredState:
        return LeakyLayeredState(self)


def test_the_checker_reads_the_diffs(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A leak that only a diff carries (a public element that appears after the first
    decision) is found in the WebSocket's messages alone."""
    monkeypatch.setitem(registry(), "leakylayers", LeakyLayeredGame)
    g, sent, actions = play_and_collect(client, "leakylayers", 0)
    pushed = {k: [t for t in v if _pushed(json.loads(t))] for k, v in sent.items()}
    assert all(any('"type": "diff"' in t for t in v) for v in pushed.values())
    leaks = find_leaks(g, pushed, actions, "-")
    assert any("sees" in p for p in leaks), leaks


def test_perfect_information_messages_never_carry_the_seed(client: TestClient) -> None:
    g, sent, actions = play_and_collect(client, "yukon", 3)
    mid = json.loads(sent[None][0])["match"]
    seed = str(client.get(f"/api/matches/{mid}/record").json()["seed"])
    assert find_leaks(g, sent, actions, seed) == []


# -- refused moves: the reason of a refusal must tell a seat nothing it may not see -------


class LeakyReasonState(SecretState):
    def _action_to_string(self, action: int) -> str:  # every id has a text, out of turn too
        if len(self.hands) < 2:
            return super()._action_to_string(action)
        return ("secret " if action < 3 else "guess ") + GEMS[action % 3]

    def _explain_illegal(self, action: int) -> str:  # names the other hand: a leak
        return "P2 holds " + CARDS[self.hands[1]] if len(self.hands) == 2 else "no"


class LeakyReasonGame(SecretGame):
    name = "leakyreason"

    def new_initial_state(self) -> LeakyReasonState:
        return LeakyReasonState(self)


def _resample_hidden(state: State, viewer: int | None) -> State:
    """``state`` with what ``viewer`` may not see changed: another hand dealt to every
    other seat (and other cash where it is private); ``viewer``'s observation unchanged."""
    other = state.clone()
    if isinstance(other, SecretState):
        for q in range(len(other.hands)):
            if q != viewer:
                free = [c for c in range(len(CARDS)) if c not in other.hands]
                other.hands[q] = free[0]
        if viewer != 0 and other.gem is not None and not other.is_terminal():
            other.gem = (other.gem + 1) % len(GEMS)
    elif state.game.name == "eurorails":
        for q in range(state.game.num_players):
            if q == viewer:
                continue
            hand = other.hands[q]  # type: ignore[attr-defined]
            draw = other.draw  # type: ignore[attr-defined]
            k = min(len(hand), len(draw))
            hand[:k], draw[:k] = draw[:k], hand[:k]
            other.cash[q] += 13  # type: ignore[attr-defined]
    else:
        raise AssertionError(f"no resampler for {state.game.name}")
    assert _normal(other.observation(viewer)) == _normal(state.observation(viewer))
    return other


def _refusals(state: State, viewer: int | None) -> list[Any]:
    """Actions ``viewer`` sends that must each be refused: an illegal well-formed one of
    the seat to move, unparseable text, ids out of range, a wrong type, another seat's
    legal move (out of turn), and, for the seat to move, its legal move at a stale version."""
    mover = state.current_player()
    illegal: list[Any] = []
    ids = [a for a in range(state.game.num_distinct_actions) if a not in state.legal_actions()]
    for a in ids[:2] + ids[len(ids) // 2 :][:2]:  # by id and, where it has one, by its text
        illegal.append(a)
        try:
            illegal.append(state.action_to_string(a))
        except Exception:
            continue
    legal = [state.action_to_string(a) for a in state.legal_actions()[:2]]
    out: list[Any] = [*illegal, "zz@@ not an action", 10**9, -5, state.game.num_distinct_actions]
    out += [[1], {"id": 1}, True, ""]
    if viewer != mover:
        out += legal  # out of turn (or a spectator)
    return out


def _send_refusals(
    client: TestClient,
    mid: str,
    token: str | None,
    version: int,
    actions: list[Any],
    mover: bool,
    legal: list[str],
    undo_allowed: bool,
) -> list[str]:
    headers = auth(token) if token else {}
    replies = []
    for action in actions:
        r = client.post(
            f"/api/matches/{mid}/move",
            json={"action": action, "version": version},
            headers=headers,
        )
        assert r.status_code >= 400, (action, r.text)
        replies.append(f"{r.status_code} {r.text}")
    if mover:  # a legal move at a stale version, and by a bad version type
        for v in (version - 1, version + 5, "x"):
            r = client.post(
                f"/api/matches/{mid}/move",
                json={"action": legal[0], "version": v},
                headers=headers,
            )
            assert r.status_code >= 400, r.text
            replies.append(f"{r.status_code} {r.text}")
    if not undo_allowed:
        r = client.post(f"/api/matches/{mid}/undo", json={"version": version}, headers=headers)
        assert r.status_code >= 400, r.text
        replies.append(f"{r.status_code} {r.text}")
    with client.websocket_connect(f"/ws/{mid}") as ws:
        hello(ws, token)
        for i, action in enumerate(actions):
            ws.send_text(
                json.dumps({"type": "move", "action": action, "version": version, "id": i})
            )
            while True:
                msg = json.loads(ws.receive_text())
                if msg.get("id") == i:
                    break
            assert msg["type"] == "error", msg
            replies.append(json.dumps(msg, sort_keys=True))
    return replies


def refusal_leaks(client: TestClient, game: str, seed: int, checkpoints: int = 3) -> list[str]:
    """Play a match of human seats at random; at a few positions every seat and a
    spectator send refused moves of every kind over HTTP and the WebSocket. Every reply
    must hold neither the position notation nor the seed, and must stay the same when
    everything that seat may not see is changed (non-interference)."""
    config = _short_config(game)
    g = motherlode.load(game, **config)
    n = g.num_players
    r = client.post(
        "/api/matches", json={"game": game, "config": config, "seats": [{"kind": "human"}] * n}
    )
    assert r.status_code == 201, r.text
    m = r.json()
    mid, tokens = m["id"], {s["seat"]: s["token"] for s in m["seats"]}
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(seed)
    problems: list[str] = []
    for checkpoint in range(checkpoints):
        rt = service.runtime(mid)
        state = rt.state
        if state.is_terminal():
            break
        mover = state.current_player()
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        secret_texts = {str(rt.seed), state.serialize()}
        for viewer in [*range(n), None]:
            actions = _refusals(state, viewer)
            token = tokens[viewer] if viewer is not None else None
            asked = (
                mid,
                token,
                rt.version,
                actions,
                viewer == mover,
                legal,
                rt.undo_allowed(viewer),
            )
            replies = _send_refusals(client, *asked)
            for text in replies:
                for secret in secret_texts:
                    if len(secret) > 12 and secret in text:
                        problems.append(f"{viewer} at {checkpoint}: {secret[:30]!r}... in {text}")
            rt.state = _resample_hidden(state, viewer)
            rt._cache.clear()
            try:
                again = _send_refusals(client, *asked)
            finally:
                rt.state = state
                rt._cache.clear()
            for a, b in zip(replies, again, strict=True):
                if a != b:
                    problems.append(f"{viewer} at {checkpoint}: {a!r} tells apart {b!r}")
        for _ in range(rng.randrange(3, 12)):  # on to the next position
            s = client.get(f"/api/matches/{mid}").json()
            if s["terminal"]:
                break
            mine = client.get(f"/api/matches/{mid}", headers=auth(tokens[s["to_move"]])).json()
            choice = mine["legal"][rng.randrange(len(mine["legal"]))]["text"]
            r = client.post(
                f"/api/matches/{mid}/move",
                json={"action": choice, "version": mine["version"]},
                headers=auth(tokens[s["to_move"]]),
            )
            assert r.status_code == 200, r.text
    return problems


@pytest.mark.parametrize(
    "game", ["secretduel", *[g for g in _hidden_games() if g in ("eurorails",)]]
)
def test_refused_moves_of_every_kind_leak_nothing(client: TestClient, game: str) -> None:
    assert refusal_leaks(client, game, seed=1) == []


def test_refusal_leaks_are_caught(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry(), "leakyreason", LeakyReasonGame)
    problems = refusal_leaks(client, "leakyreason", seed=1, checkpoints=2)
    assert any("tells apart" in p and "P2 holds" in p for p in problems), problems


def test_an_engine_refusal_keeps_the_position_out_of_its_message() -> None:
    """The issue's reproduction: seat 2's illegal build named seat 1's cards and cash."""
    state = motherlode.deal(motherlode.load("eurorails", players=2, open_hands=False), 1)
    with pytest.raises(motherlode.IllegalActionError) as err:
        state.apply_string("build 0>1")
    assert str(err.value) == (
        "eurorails: illegal action 'build AN1>AO1' for P1: track is built from a major-city"
        " milepost or from the player's own track"
    )
    assert err.value.position == state.serialize()


def test_a_server_bug_is_answered_without_its_text(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception's text can name anything inside a state: a 500 answer (API, page or
    WebSocket) says only that an error happened and its incident number."""
    from motherlode.server.service import MatchService

    def broken(self: MatchService, match_id: str) -> Any:
        raise RuntimeError("P1 holds SECRET-HAND")

    app = app_factory(resume=False)
    with TestClient(app, raise_server_exceptions=False) as client:
        mid = client.post(
            "/api/matches", json={"game": "yukon", "seats": [{"kind": "human"}] * 2}
        ).json()["id"]
        monkeypatch.setattr(MatchService, "runtime", broken)
        api = client.get(f"/api/matches/{mid}")
        assert api.status_code == 500
        assert api.json()["error"]["code"] == "internal"
        assert api.json()["error"]["message"].startswith("an error on the server (incident ")
        html = client.get(f"/m/{mid}")
        assert html.status_code == 500 and "an error on the server" in html.text
        with client.websocket_connect(f"/ws/{mid}") as ws:
            ws.send_text(json.dumps({"type": "sync", "id": 7}))
            try:
                reply = ws.receive_text()
            except Exception:  # the socket may be closed before any state is shown
                reply = ""
        assert reply == "" or json.loads(reply)["code"] == "internal"
        for text in (api.text, html.text, reply):
            assert "SECRET-HAND" not in text and "Traceback" not in text


# -- narration: what a seat reads of the log must tell it nothing it may not see ---------


class LeakyNarrationState(SecretState):
    def narrate(self, action: int, seat: int | None = None) -> str:  # names both hands
        hands = ", ".join(CARDS[c] for c in self.hands)
        return f"{self._action_to_string(action)} (the hands: {hands or 'none'})"


class LeakyNarrationGame(SecretGame):
    name = "leakynarration"

    def new_initial_state(self) -> LeakyNarrationState:
        return LeakyNarrationState(self)


def test_the_checker_catches_a_leaky_narration(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry(), "leakynarration", LeakyNarrationGame)
    g, sent, actions = play_and_collect(client, "leakynarration", 0)
    mid = json.loads(sent[None][0])["match"]
    seed = str(client.get(f"/api/matches/{mid}/record").json()["seed"])
    leaks = find_leaks(g, sent, actions, seed)
    assert any("sees" in p for p in leaks), leaks


def test_a_hidden_entry_is_never_narrated(client: TestClient) -> None:
    """A log entry a seat may not see reads as the hidden marker, its narration too, even
    when the game's narration would name it."""
    from motherlode.server.runtime import LogEntry

    entry = LogEntry(-1, "deal ZEBRA", (True, False, False), ("dealt ZEBRA to P1",) * 3)
    assert entry.said_to(0, 2) == "dealt ZEBRA to P1"
    assert entry.said_to(1, 2) == entry.said_to(None, 2) == "chance (hidden)"
    public = LogEntry(0, "guess RUBY", None, ("P1 guesses the ruby",))
    assert public.said_to(1, 2) == public.said_to(None, 2) == "P1 guesses the ruby"

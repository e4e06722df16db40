"""``server/runtime.py`` called directly: who sees which log entry and narration, the
payload's fields, the plans of moves, commands and undos, and the pushes, exactly.

``Relay``, a tiny game written for it, has every kind of entry the runtime treats apart:
a hidden deal (P1 then P2 are dealt a card each, seen only by its owner), a turn of two
decisions by P1 (a secret letter, then an open bet: a command can make both), two open
dice rolled in a row (a run of chance the log folds into one line), and P2's open guess
at the end. Its narration says "You" to the actor. A fixed seed (7) deals PUMA to P1
and YAK to P2, rolls 4 and 3. Written so that each of mutmut's mutants of the module is
judged in about a second (``benchmarks/mutation.py``; the survivors: docs/testing.md).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import pytest

from motherlode.core import svg
from motherlode.core.chance import HMAC_SHA256, MT19937, make_stream
from motherlode.core.errors import IllegalActionError, MotherlodeError, NotationError
from motherlode.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameConfig,
    Player,
    SeatResult,
    State,
    Summary,
)
from motherlode.server import clocks, runtime
from motherlode.server.bots import BotCaps
from motherlode.server.runtime import (
    HIDDEN_CHANCE,
    HIDDEN_DECISION,
    LogEntry,
    MatchRuntime,
    SeatInfo,
    ServerError,
    Views,
    board_layers,
    board_svg,
    bot_seed,
    command_line,
    is_single,
    layers_svg,
    narrations,
    static_svg,
    strip_actions,
    summary_view,
    visibility,
)

CARDS = ("ZEBRA", "YAK", "WOMBAT", "VOLE", "URCHIN", "TAPIR", "SLOTH", "RAVEN", "QUAIL", "PUMA")
PICK, BET, GUESS, DIE = 10, 12, 14, 20  # pick a/b, bet 1/2, guess a/b, die 1..6
SEED = 7
BOT_SEED_7_0 = 6788020035888971065  # sha256("motherlode-bot:7:0"), its first 8 bytes


class RelayGame(Game):
    name: ClassVar[str] = "relay"
    Config: ClassVar[type[GameConfig]] = GameConfig

    @property
    def perfect_information(self) -> bool:
        return False

    @property
    def num_distinct_actions(self) -> int:
        return 26

    @property
    def max_chance_outcomes(self) -> int:
        return 10

    @property
    def max_game_length(self) -> int:
        return 8

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self) -> RelayState:
        return RelayState(self)

    def deserialize(self, text: str) -> RelayState:
        raise NotImplementedError


class RelayState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.hands: list[int] = []
        self.pick: int | None = None
        self.bet: int | None = None
        self.dice: list[int] = []
        self.guess: int | None = None

    def current_player(self) -> Player:
        if len(self.hands) < 2:
            return CHANCE
        if self.pick is None or self.bet is None:
            return 0
        if len(self.dice) < 2:
            return CHANCE
        return 1 if self.guess is None else TERMINAL

    def _legal_actions(self) -> list[Action]:
        if self.pick is None:
            return [PICK, PICK + 1]
        if self.bet is None:
            return [BET, BET + 1]
        return [GUESS, GUESS + 1]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if len(self.hands) < 2:
            left = [c for c in range(len(CARDS)) if c not in self.hands]
            return [(c, 1 / len(left)) for c in left]
        return [(DIE + d, 1 / 6) for d in range(6)]

    def _apply_action(self, action: Action) -> None:
        if len(self.hands) < 2:
            self.hands.append(action)
        elif action >= DIE:
            self.dice.append(action - DIE + 1)
        elif action >= GUESS:
            self.guess = action - GUESS
        elif action >= BET:
            self.bet = action - BET + 1
        else:
            self.pick = action - PICK

    def _action_to_string(self, action: Action) -> str:
        if action < PICK:
            return f"deal {CARDS[action]}"
        if action >= DIE:
            return f"roll {action - DIE + 1}"
        if action >= GUESS:
            return f"guess {'ab'[action - GUESS]}"
        if action >= BET:
            return f"bet {action - BET + 1}"
        return f"pick {'ab'[action - PICK]}"

    def narrate(self, action: Action, seat: Player | None = None) -> str:
        actor = self.current_player()
        text = self._action_to_string(action)
        if actor == CHANCE:
            return f"the dealer: {text}"
        return f"You {text}" if seat == actor else f"P{actor + 1} plays"

    def expand(self, text: str) -> list[Action]:
        if text.strip() == "nothing":
            return []
        probe = self.clone()
        actions = []
        for part in text.split(" then "):
            a = probe.string_to_action(part)
            actions.append(a)
            probe.apply_action(a)
            while probe.is_chance_node():
                probe.apply_action(probe.chance_outcomes()[0][0])
        return actions

    def scores(self) -> list[float]:
        s = [float(c) for c in self.hands] + [0.0] * (2 - len(self.hands))
        if self.guess is not None:
            s[1 if self.guess == self.pick else 0] += float(self.bet or 0)
        return s

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        over = self.is_terminal()
        view: dict[str, Any] = {
            "my_card": CARDS[self.hands[player]]
            if player is not None and player < len(self.hands)
            else None,
            "pick": self.pick if player == 0 or over else None,
            "bet": self.bet,
            "dice": list(self.dice),
            "guess": self.guess,
        }
        if player is not None:
            view["scores"] = [float(self.bet or 0), 0.0]
        return view

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        return np.zeros(1)

    def serialize(self) -> str:
        return f"{self.hands}/{self.pick}/{self.bet}/{self.dice}/{self.guess}"

    def __str__(self) -> str:
        return self.serialize()

    def render_svg(self, seat: Player | None = None) -> str:
        body = []
        if seat is not None and seat == self.current_player():
            for i, a in enumerate(self.legal_actions()):
                text = self.action_to_string(a)
                body.append(svg.actionable(svg.element("text", text, x=10, y=20 * i), text))
        return svg.document(100, 50, body)


class LayeredRelay(RelayGame):
    name: ClassVar[str] = "layeredrelay"

    def new_initial_state(self) -> RelayState:
        return LayeredState(self)


class LayeredState(RelayState):
    def render_layers(self, seat: Player | None = None) -> svg.Layers:
        public = (("dice", svg.element("text", str(self.dice), id="dice")),)
        mine = [("me", svg.element("text", str(seat), id="me"))]
        if seat is not None and seat == self.current_player():
            a = self.legal_actions()[0]
            shape = svg.actionable(svg.element("text", "go", x=1), self.action_to_string(a))
            mine.append(("act", f'<g id="act">{shape}</g>'))
        frame = svg.element("rect", width=100, height=50)
        return svg.Layers(100, 50, frame, public, tuple(mine), title="relay")

    def render_svg(self, seat: Player | None = None) -> str:
        return self.render_layers(seat).compose()


class OpenRelay(RelayGame):
    name: ClassVar[str] = "openrelay"

    @property
    def perfect_information(self) -> bool:
        return True


class BrokenRelay(RelayGame):
    """Its narration, description, summary and drawing all fail."""

    name: ClassVar[str] = "brokenrelay"

    def new_initial_state(self) -> RelayState:
        return BrokenState(self)


class BrokenState(RelayState):
    def narrate(self, action: Action, seat: Player | None = None) -> str:
        if seat == 1:
            raise RuntimeError("narration bug")
        return super().narrate(action, seat)

    def describe(self, actions: Any) -> list[str]:
        raise RuntimeError("describe bug")

    def summary(self) -> Any:
        raise RuntimeError("summary bug")

    def render_svg(self, seat: Player | None = None) -> str:
        raise KeyError("drawing bug")

    def render_layers(self, seat: Player | None = None) -> svg.Layers:
        raise ValueError("layers bug")


@pytest.fixture(autouse=True)
def _drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pushes drawn by a pool of this test's own: mutmut runs each mutant in a forked
    process, where the module's pool still counts the parent's threads (gone in the child)
    and would never run a drawing (every such test would hang, wrongly a "timeout")."""
    from concurrent.futures import ThreadPoolExecutor

    from motherlode.server import runtime as _runtime

    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-draw")
    monkeypatch.setattr(_runtime, "DRAWING", pool)
    yield
    pool.shutdown(wait=True)


def seats(*kinds: str) -> list[SeatInfo]:
    return [SeatInfo(i, "bot" if k != "human" else "human", k) for i, k in enumerate(kinds)]


def new(
    game: type[RelayGame] = RelayGame,
    *kinds: str,
    chance: str = HMAC_SHA256,
    caps: BotCaps | None = None,
) -> MatchRuntime:
    """A runtime after the deal (as the service creates it)."""
    rt = MatchRuntime(
        "m1",
        game(GameConfig()),
        SEED,
        "c0ffee",
        seats(*(kinds or ("human", "human"))),
        chance=chance,
        caps=caps or BotCaps(),
    )
    rt.commit(rt.plan_chance())
    return rt


def texts(rt: MatchRuntime) -> list[str]:
    return [e.text for e in rt.entries]


def rows(rt: MatchRuntime) -> list[tuple[str, int, str, str | None, str]]:
    """The runtime's log as the database holds it."""
    return [(e.kind, e.seat, e.text, e.mask(), e.note) for e in rt.entries]


# -- small pieces -------------------------------------------------------------------


def test_server_error_and_seat_labels() -> None:
    e = ServerError("invalid_move", "no")
    assert (e.code, e.message, e.status, str(e)) == ("invalid_move", "no", 400, "no")
    assert e.as_dict() == {"type": "error", "code": "invalid_move", "message": "no"}
    assert ServerError("x", "y", 409).status == 409
    assert SeatInfo(0, "human", "human").label == "P1"
    assert SeatInfo(2, "bot", "random").label == "P3 (random)"
    assert SeatInfo(1, "bot", "random", "Bo").label == "Bo"
    assert SeatInfo(1, "human", "human", "Ann").label == "Ann"
    assert SeatInfo(1, "human", "human").joined is False
    assert (HIDDEN_CHANCE, HIDDEN_DECISION) == ("chance (hidden)", "(hidden move)")


def test_log_entry_kind_and_mask() -> None:
    assert LogEntry(0, "x").kind == "action"
    assert LogEntry(0, "x", group="part").kind == "part"
    assert LogEntry(0, "x", (True, False, True)).mask() == "101"
    assert LogEntry(CHANCE, "x", (False, True, False)).shown_to(0, 2) == HIDDEN_CHANCE
    assert LogEntry(0, "x", (False, True, False)).shown_to(None, 2) == HIDDEN_DECISION
    assert LogEntry(0, "x", (False, True, True)).shown_to(None, 2) == "x"


def test_bot_seed_is_fixed_and_per_seat() -> None:
    assert bot_seed(7, 0) == BOT_SEED_7_0
    assert bot_seed(7, 0) != bot_seed(7, 1) and bot_seed(7, 0) != bot_seed(8, 0)
    import hashlib

    digest = hashlib.sha256(b"motherlode-bot:7:1").digest()
    assert bot_seed(7, 1) == int.from_bytes(digest[:8], "big")


def test_strip_actions_and_the_single_layer() -> None:
    shape = svg.actionable('<text x="1">go</text>', "bet 2")
    assert strip_actions(f"<svg>{shape}</svg>") == (
        '<svg><g class="action" style="cursor:pointer"><text x="1">go</text></g></svg>'
    )
    assert strip_actions('<g class="x"><title>keep</title></g>') == (
        '<g class="x"><title>keep</title></g>'
    )
    single = svg.single_layer("<svg/>")
    assert is_single(single) and layers_svg(single) == "<svg/>"
    assert not is_single(svg.Layers(0, 0, "", (), (("other", "x"),)))
    assert not is_single(svg.Layers(0, 0, "", (("p", "x"),), (("board", "x"),)))
    assert not is_single(svg.Layers(10, 0, "", (), (("board", "x"),)))
    assert not is_single(svg.Layers(0, 0, "", (), (("board", "x"), ("b", "y"))))
    layered = svg.Layers(10, 10, "", (("p", "<g id='p'/>"),), (("s", "<g id='s'/>"),))
    assert layers_svg(layered) == layered.compose()


# -- who sees what -------------------------------------------------------------------


def test_visibility_of_the_deal_and_of_decisions() -> None:
    s = RelayGame(GameConfig()).new_initial_state()
    assert visibility(s, 1, CHANCE) == (True, False, False)  # P1's own card
    s.apply_action(1)
    assert visibility(s, 7, CHANCE) == (False, True, False)
    s.apply_action(7)
    assert visibility(s, PICK, 0) == (True, False, False)  # the secret letter: its actor
    s.apply_action(PICK)
    assert visibility(s, BET + 1, 0) == (True, True, True)  # the open bet
    s.apply_action(BET + 1)
    assert visibility(s, DIE + 2, CHANCE) == (True, True, True)
    assert visibility(OpenRelay(GameConfig()).new_initial_state(), 1, CHANCE) is None


class Wheel(RelayGame):
    """One spin of 100 outcomes. P1 cannot tell 0 from 2, P2 cannot tell 0 from 3; the
    spectator sees nothing. Of the 99 alternatives to 0, 48 are compared, spread over
    the list (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 34, ...): 2 is
    not one of them, 3 is."""

    name: ClassVar[str] = "wheel"

    def new_initial_state(self) -> RelayState:
        return WheelState(self)


class WheelState(RelayState):
    def current_player(self) -> Player:
        return CHANCE if not self.dice else TERMINAL

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(a, 0.01) for a in range(100)]

    def _apply_action(self, action: Action) -> None:
        self.dice.append(action)

    def _action_to_string(self, action: Action) -> str:
        return f"spin {action}"

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        if player is None or not self.dice:
            return {}
        spin = self.dice[0]
        return {"spin": 0 if spin in ((0, 2), (0, 3))[player] else spin}


def test_visibility_compares_48_alternatives_spread_over_the_list() -> None:
    s = Wheel(GameConfig()).new_initial_state()
    assert runtime.VISIBILITY_SAMPLE == 48
    assert visibility(s, 0, CHANCE) == (True, False, False)
    assert visibility(s, 2, CHANCE) == (False, True, False)
    assert visibility(s, 50, CHANCE) == (True, True, False)
    s2 = Wheel(GameConfig()).new_initial_state()
    assert visibility(s2, 99, CHANCE) == (True, True, False)
    assert s2.dice == []  # only copies were moved


def test_narrations_per_viewer_and_their_fallback(caplog: pytest.LogCaptureFixture) -> None:
    s = RelayGame(GameConfig()).new_initial_state()
    s.apply_actions([1, 7])
    assert narrations(s, PICK) == ("You pick a", "P1 plays", "P1 plays")
    assert narrations(OpenRelay(GameConfig()).new_initial_state(), 1) == ("the dealer: deal YAK",)
    b = BrokenRelay(GameConfig()).new_initial_state()
    b.apply_actions([1, 7])
    assert narrations(b, PICK) == ("You pick a", "pick a", "P1 plays")
    assert said(caplog) == [("ERROR", "narrate() failed in brokenrelay")]


def test_summary_view() -> None:
    s = RelayGame(GameConfig()).new_initial_state()
    assert summary_view(s, ["Ann", "Bo"]) is None
    s.apply_actions([1, 7, PICK, BET + 1, DIE, DIE + 5, GUESS + 1])
    view = summary_view(s, ["Ann", "Bo"])
    assert view is not None
    assert view["reason"] == "the rulebook's end was reached" and view["winners"] == [1]
    assert view["rows"] == [
        {"seat": 0, "name": "Ann", "score": 3.0, "breakdown": [], "winner": False},
        {"seat": 1, "name": "Bo", "score": 7.0, "breakdown": [], "winner": True},
    ]
    assert view["lines"] == s.summary().lines(["Ann", "Bo"])
    b = BrokenRelay(GameConfig()).new_initial_state()
    b.apply_actions([1, 7, PICK, BET + 1, DIE, DIE + 5, GUESS + 1])
    assert summary_view(b, ["Ann", "Bo"]) is None


def test_board_svg_clickable_only_for_the_seat_to_move() -> None:
    s = RelayGame(GameConfig()).new_initial_state()
    s.apply_actions([1, 7])
    mine = board_svg(s, 0)
    assert mine == s.render_svg(0) and mine.count('data-action="pick ') == 2
    assert "<title>" in mine
    assert board_svg(s, 1) == strip_actions(s.render_svg(1)) == s.render_svg(1)
    assert board_svg(s, None) == s.render_svg(None)
    l0 = board_layers(LayeredRelay(GameConfig()).new_initial_state(), 0)
    s2 = LayeredRelay(GameConfig()).new_initial_state()
    s2.apply_actions([1, 7])
    l0, l1, lnone = board_layers(s2, 0), board_layers(s2, 1), board_layers(s2, None)
    assert l0 == s2.render_layers(0) and "data-action" in dict(l0.seat)["act"]
    assert l1 == s2.render_layers(1)
    assert lnone == s2.render_layers(None)
    shown = s2.render_layers(0)
    s2.pick = 0
    s2.bet = 1
    s2.dice = [1, 2]  # P2 to move: P1's actions (drawn as if) stripped
    forced = board_layers(_AsIf(s2, shown), 0)
    assert dict(forced.seat)["act"] == strip_actions(dict(shown.seat)["act"])
    assert (forced.width, forced.height, forced.static, forced.public, forced.title) == (
        shown.width,
        shown.height,
        shown.static,
        shown.public,
        shown.title,
    )


class _AsIf:
    """A state whose layers are fixed (drawn for another position)."""

    def __init__(self, state: State, layers: svg.Layers) -> None:
        self.state, self.fixed = state, layers

    def render_layers(self, seat: Player | None) -> svg.Layers:
        return self.fixed

    def current_player(self) -> Player:
        return self.state.current_player()


def said(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    out = [(r.levelname, r.getMessage()) for r in caplog.records]
    caplog.clear()
    return out


def test_a_board_that_cannot_be_drawn_gives_a_notice(caplog: pytest.LogCaptureFixture) -> None:
    b = BrokenRelay(GameConfig()).new_initial_state()
    notice = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 60" width="600"'
        ' height="60"><text x="10" y="35" font-size="16" fill="#a93226">'
        "the board cannot be drawn ({}); the moves are listed</text></svg>"
    )
    assert board_svg(b, 0) == notice.format("KeyError")
    assert said(caplog) == [("ERROR", "render_svg(0) failed in brokenrelay")]
    assert board_layers(b, 1) == svg.single_layer(notice.format("ValueError"))
    assert said(caplog) == [("ERROR", "render_layers(1) failed in brokenrelay")]


def test_command_line_and_static_svg(caplog: pytest.LogCaptureFixture) -> None:
    s = RelayGame(GameConfig()).new_initial_state()
    s.apply_actions([1, 7])
    assert command_line(s, 0, [PICK + 1, BET]) == "P1 pick b, bet 1"
    assert command_line(s, 1, []) == "P2: command"
    b = BrokenRelay(GameConfig()).new_initial_state()
    assert command_line(b, 0, [PICK]) == "P1: command"
    assert said(caplog) == [("ERROR", "describe() failed in brokenrelay")]
    assert static_svg(RelayGame(GameConfig())) is None
    static = static_svg(LayeredRelay(GameConfig()))
    assert static == svg.document(100, 50, [svg.element("rect", width=100, height=50)])


def test_views_keep_the_frames_of_the_last_four_revisions() -> None:
    v = Views()
    first = v.rev
    v.frames[(first, 0)] = "f0"  # type: ignore[assignment]
    v.layers[(first, 0)] = "l"  # type: ignore[assignment]
    v.texts["t"] = "x"
    v.pushes["p"] = "y"  # type: ignore[assignment]
    revs = [first]
    for _ in range(3):
        v.clear()
        revs.append(v.rev)
        v.frames[(v.rev, None)] = "f"  # type: ignore[assignment]
    assert list(v.recent) == revs and len(set(revs)) == 4
    assert (first, 0) in v.frames and v.layers == {} and v.texts == {} and v.pushes == {}
    v.clear()
    assert (first, 0) not in v.frames and len(v.frames) == 3
    assert list(v.recent) == [*revs[1:], v.rev] and runtime.HISTORY == 4


# -- a match ----------------------------------------------------------------------------


def test_the_deal_with_a_fixed_seed() -> None:
    rt = new()
    assert texts(rt) == ["deal PUMA", "deal YAK"] and rt.version == 2
    assert rows(rt) == [
        ("action", -1, "deal PUMA", "100", ""),
        ("action", -1, "deal YAK", "010", ""),
    ]
    assert rt.entries[0].said == ("the dealer: deal PUMA",) * 3
    assert rt.state.current_player() == 0 and rt.chance == HMAC_SHA256
    assert (
        MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "human")).chance
        == MT19937
    )
    mt = new(chance=MT19937)
    assert texts(mt) == ["deal VOLE", "deal YAK"]  # the older stream draws otherwise


def test_moves_plans_and_commit() -> None:
    rt = new()
    before = rt.state
    step = rt.plan_move(0, "pick b")
    assert rt.state is before and rt.version == 2  # planned on copies only
    assert [(e.seat, e.text, e.visible, e.said) for e in step.entries] == [
        (0, "pick b", (True, False, False), ("You pick b", "P1 plays", "P1 plays"))
    ]
    rev = rt.rev
    rt.commit(step)
    assert rt.state is step.state and rt.version == 3 and rt.rev != rev
    step = rt.plan_move(0, BET + 1)  # by id: the dice follow
    assert [(e.seat, e.text) for e in step.entries] == [
        (0, "bet 2"),
        (-1, "roll 4"),
        (-1, "roll 3"),
    ]
    assert step.entries[1].visible == (True, True, True)
    rt.commit(step)
    assert rt.version == 6 and rt.state.current_player() == 1
    rt.commit(rt.plan_move(1, "guess b"))
    assert rt.finished and rt.version == 7 and rt.state.scores() == [9.0, 3.0]


def test_a_move_refused_says_why() -> None:
    rt = new()
    cases: list[tuple[Any, Any, str, str]] = [
        (1, "pick a", "not_your_turn", "it is P1's turn, not P2's"),
        (0, True, "invalid_move", "an action is its notation (string) or its id"),
        (0, 1.0, "invalid_move", "an action is its notation (string) or its id"),
        (0, None, "invalid_move", "an action is its notation (string) or its id"),
        (0, "pick c", "invalid_move", ""),  # the engine's reason: below
        (0, -20, "invalid_move", "relay: -20 is not an action of this game"),
        (0, BET, "invalid_move", ""),
    ]
    for seat, action, code, message in cases:
        with pytest.raises(ServerError) as err:
            rt.plan_move(seat, action)
        assert err.value.code == code
        if message:
            assert err.value.message == message
    with pytest.raises(ServerError) as err:
        rt.plan_move(0, "pick c")
    with pytest.raises(NotationError) as engine_err:
        rt.state.string_to_action("pick c")
    assert err.value.message == str(engine_err.value)
    with pytest.raises(ServerError) as err:
        rt.plan_move(0, BET)
    with pytest.raises(IllegalActionError) as illegal:
        rt.state.clone().apply_action(BET)
    assert err.value.message == str(illegal.value)
    assert rt.version == 2 and texts(rt) == ["deal PUMA", "deal YAK"]
    chance = MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    with pytest.raises(ServerError) as err:
        chance.plan_move(0, "pick a")
    assert (err.value.code, err.value.message) == ("not_your_turn", "it is nobody's turn")
    done = finished()
    for seat in (0, 1):
        with pytest.raises(ServerError) as err:
            done.plan_move(seat, "guess a")
        assert (err.value.code, err.value.message) == ("match_over", "the match is over")


def finished() -> MatchRuntime:
    rt = new()
    rt.commit(rt.plan_command(0, "pick a then bet 2"))
    rt.commit(rt.plan_move(1, "guess b"))
    return rt


def test_a_command_is_one_step_one_line_one_undo() -> None:
    rt = new()
    step = rt.plan_command(0, "pick a then bet 2")
    assert [(e.seat, e.text, e.group) for e in step.entries] == [
        (0, "pick a", "command"),
        (0, "bet 2", "part"),
        (-1, "roll 4", "part"),
        (-1, "roll 3", "part"),
    ]
    # the game's description of every action in the command, the dice drawn in it too
    assert step.entries[0].line == "P1 pick a, bet 2, roll 4, roll 3"
    assert [e.line for e in step.entries[1:]] == ["", "", ""]
    assert step.entries[0].visible == (True, False, False)
    assert step.entries[0].said == ("You pick a", "P1 plays", "P1 plays")
    rt.commit(step)
    assert rt.version == 6 and rt.state.current_player() == 1
    assert rt.undo_allowed(0) is False  # dice were rolled since
    one = new()
    single = one.plan_command(0, "pick a")  # one action: a plain move
    assert [(e.text, e.group, e.line) for e in single.entries] == [("pick a", "", "")]
    lapsed = new()
    lapsed.commit(lapsed.plan_move(0, "pick a"))
    step = lapsed.plan_command(0, "bet 1 then guess a")  # the turn passes after the dice
    assert [(e.seat, e.text) for e in step.entries] == [
        (0, "bet 1"),
        (-1, "roll 4"),
        (-1, "roll 3"),
    ]
    assert step.entries[0].line == "P1 bet 1, roll 4, roll 3"


def test_commands_refused_say_why() -> None:
    rt = new()
    for command, message in [
        (None, "a command is text ('build to Lyon')"),
        ("   ", "a command is text ('build to Lyon')"),
        ("x" * 201, "a command is at most 200 characters"),
        ("nothing", "'nothing' does nothing here"),
    ]:
        with pytest.raises(ServerError) as err:
            rt.plan_command(0, command)
        assert (err.value.code, err.value.message) == ("invalid_move", message)
    with pytest.raises(ServerError) as err:
        rt.plan_command(0, "pick a then pick b")
    assert err.value.code == "invalid_move" and "pick b" in err.value.message
    with pytest.raises(ServerError) as err:
        rt.plan_command(1, "pick a")
    assert (err.value.code, err.value.message) == ("not_your_turn", "it is P1's turn, not P2's")
    with pytest.raises(ServerError) as err:
        finished().plan_command(1, "guess a")
    assert (err.value.code, err.value.message) == ("match_over", "the match is over")
    assert rt.plan_command(0, "pick a" + " " * 194).entries[0].text == "pick a"
    with pytest.raises(ServerError) as err:
        rt.plan_command(0, "pick a" + " " * 195)
    assert err.value.message == "a command is at most 200 characters"


class _Misplanned(RelayState):
    """A game whose command expands to an action it then refuses."""

    def expand(self, text: str) -> list[Action]:
        return [PICK, PICK]


class Misplanned(RelayGame):
    name: ClassVar[str] = "misplanned"

    def new_initial_state(self) -> RelayState:
        return _Misplanned(self)


def test_a_command_whose_actions_fail_is_refused() -> None:
    rt = new(Misplanned)
    with pytest.raises(ServerError) as err:
        rt.plan_command(0, "twice")
    assert err.value.code == "invalid_move"
    with pytest.raises(IllegalActionError) as illegal:
        s = rt.state.clone()
        s.apply_action(PICK)
        s.apply_action(PICK)
    assert err.value.message == str(illegal.value)


def test_preview() -> None:
    rt = new()
    assert rt.preview(0, "pick a then bet 2") == {
        "type": "preview",
        "version": 2,
        "command": "pick a then bet 2",
        "summary": "pick a; bet 2",
        "details": [],
        "actions": [PICK, BET + 1],
        "texts": ["pick a", "bet 2"],
        "overlay": "",
    }
    with pytest.raises(ServerError) as err:
        rt.preview(1, "pick a")
    assert err.value.code == "not_your_turn"
    with pytest.raises(ServerError) as err:
        rt.preview(0, "pick z")
    assert err.value.code == "invalid_move"


class _Unpreviewable(RelayState):
    def preview(self, text: str) -> Any:
        raise IllegalActionError("relay: no preview of that")


class Unpreviewable(RelayGame):
    name: ClassVar[str] = "unpreviewable"

    def new_initial_state(self) -> RelayState:
        return _Unpreviewable(self)


def test_a_preview_the_engine_refuses() -> None:
    with pytest.raises(ServerError) as err:
        new(Unpreviewable).preview(0, "pick a")
    assert (err.value.code, err.value.message) == ("invalid_move", "relay: no preview of that")


def test_undo_only_of_ones_own_last_decision() -> None:
    rt = new()
    assert [rt.undo_allowed(s) for s in (0, 1, None)] == [False, False, False]  # chance last
    rt.commit(rt.plan_move(0, "pick b"))
    assert [rt.undo_allowed(s) for s in (0, 1, None)] == [True, False, False]
    with pytest.raises(ServerError) as err:
        rt.plan_undo(1)
    assert (err.value.code, err.value.message) == (
        "undo_not_allowed",
        "only your own last decision can be undone, while nobody else has"
        " acted and nothing has been revealed since",
    )
    step = rt.plan_undo(0)
    assert step.undo and step.entries == []
    rt.commit(step)
    assert texts(rt) == ["deal PUMA", "deal YAK"] and rt.version == 4
    assert rt.state.current_player() == 0 and rt.state.pick is None  # type: ignore[attr-defined]
    # the RNG is back where it was: the same dice follow
    rt.commit(rt.plan_command(0, "pick a then bet 1"))
    assert texts(rt)[-2:] == ["roll 4", "roll 3"]
    assert not rt.undo_allowed(0) and not finished().undo_allowed(1)
    empty = MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    assert not empty.undo_allowed(0)


class Twice(RelayGame):
    """P1 picks and bets; a command of both needs no chance after it (the dice come after
    the bet): here the whole command is one unit of P1's own decisions."""

    name: ClassVar[str] = "twice"

    def new_initial_state(self) -> RelayState:
        return _Twice(self)


class _Twice(RelayState):
    def current_player(self) -> Player:
        if len(self.hands) < 2:
            return CHANCE
        if self.pick is None or self.bet is None or self.guess is None:
            return 0 if self.pick is None or self.bet is None else 1
        return TERMINAL

    def _legal_actions(self) -> list[Action]:
        if self.pick is None:
            return [PICK, PICK + 1]
        if self.bet is None:
            return [BET, BET + 1]
        return [GUESS, GUESS + 1]


def test_a_command_is_undone_as_a_unit() -> None:
    rt = new(Twice)
    rt.commit(rt.plan_command(0, "pick b then bet 2"))
    assert [e.group for e in rt.entries] == ["", "", "command", "part"]
    assert rt.undo_allowed(0) and not rt.undo_allowed(1)
    rt.commit(rt.plan_undo(0))
    assert texts(rt) == ["deal PUMA", "deal YAK"] and rt.version == 5
    rt.commit(rt.plan_move(0, "pick b"))
    rt.commit(rt.plan_move(0, "bet 2"))
    rt.commit(rt.plan_undo(0))  # only the last decision
    assert texts(rt) == ["deal PUMA", "deal YAK", "pick b"] and rt.version == 8


# -- re-playing the log ---------------------------------------------------------------


def replayed(game: type[RelayGame], logged: list[tuple[Any, ...]]) -> MatchRuntime:
    rt = MatchRuntime(
        "m1", game(GameConfig()), SEED, "c0ffee", seats("human", "human"), chance=HMAC_SHA256
    )
    rt.replay_rows(logged)
    return rt


def test_replay_rebuilds_the_log_with_notes_groups_and_lines() -> None:
    live = new()
    live.commit(live.plan_command(0, "pick a then bet 2"))
    live.entries[0].note = "x"
    logged = [(e.kind, e.seat, e.text, e.mask(), e.note or None) for e in live.entries]
    rt = replayed(RelayGame, logged)
    assert [(e.seat, e.text, e.visible, e.said, e.group, e.line, e.note) for e in rt.entries] == [
        (e.seat, e.text, e.visible, e.said, e.group, e.line, e.note) for e in live.entries
    ]
    assert rt.entries[2].line == "P1 pick a, bet 2, roll 4, roll 3" and rt.entries[0].note == "x"
    assert rt.version == 6 and rt.state.serialize() == live.state.serialize()
    four = [r[:4] for r in logged]  # rows without their note
    assert [e.note for e in replayed(RelayGame, four).entries] == [""] * 6


def test_replay_recomputes_a_missing_or_short_mask() -> None:
    rows_ = [
        ("action", -1, "deal PUMA", None),
        ("action", -1, "deal YAK", "01"),
        ("action", 0, "pick a", "111"),
    ]
    rt = replayed(RelayGame, rows_)
    assert [e.visible for e in rt.entries] == [
        (True, False, False),
        (False, True, False),
        (True, True, True),
    ]  # the stored mask wins
    open_rt = replayed(OpenRelay, [("action", -1, "deal PUMA", "100")])
    assert open_rt.entries[0].visible is None


def test_replay_with_undo_rows() -> None:
    rt = replayed(
        RelayGame,
        [
            ("action", -1, "deal PUMA", "100"),
            ("action", -1, "deal YAK", "010"),
            ("action", 0, "pick b", "100"),
            ("undo", -1, "", None),
            ("action", 0, "pick a", "100"),
        ],
    )
    assert texts(rt) == ["deal PUMA", "deal YAK", "pick a"] and rt.version == 5
    twice = replayed(
        Twice,
        [
            ("action", -1, "deal PUMA", "100"),
            ("action", -1, "deal YAK", "010"),
            ("command", 0, "pick b", "100"),
            ("part", 0, "bet 2", "111"),
            ("undo", -1, "", None),
        ],
    )
    assert texts(twice) == ["deal PUMA", "deal YAK"] and twice.version == 5
    assert twice.state.current_player() == 0
    fresh = new()
    assert fresh.rng.getstate() == twice.rng.getstate()  # the RNG re-derived too
    with pytest.raises(MotherlodeError) as err:
        replayed(RelayGame, [("undo", -1, "", None)])
    assert str(err.value) == "m1: row 0 undoes nothing"


def test_replay_refusals_name_the_row() -> None:
    good = [("action", -1, "deal PUMA", "100"), ("action", -1, "deal YAK", "010")]
    for bad, message in [
        (
            [("action", -1, "deal PUMA", "100"), ("action", -1, "deal ZEBRA", "010")],
            "m1: row 1: logged 'deal ZEBRA' but the seed draws 'deal YAK'",
        ),
        ([*good, ("action", 1, "pick a", "100")], "m1: row 2: seat 1 moved for 0"),
        ([*good, ("action", 0, "pick q", "100")], "m1: row 2 'pick q': "),
    ]:
        with pytest.raises(MotherlodeError) as err:
            replayed(RelayGame, bad)
        assert str(err.value).startswith(message), str(err.value)


class _Strict(RelayState):
    """A rule changed since the rows were written: a second pick is now refused."""

    def _parse_action(self, text: str) -> Action:
        return {"pick a": PICK, "pick b": PICK + 1}.get(text, 0) or super()._parse_action(text)


def test_replay_of_a_row_the_rules_now_refuse() -> None:
    class Strict(RelayGame):
        name: ClassVar[str] = "strict"

        def new_initial_state(self) -> RelayState:
            return _Strict(self)

    good = [
        ("action", -1, "deal PUMA", "100"),
        ("action", -1, "deal YAK", "010"),
        ("action", 0, "pick a", "100"),
    ]
    with pytest.raises(MotherlodeError) as err:
        replayed(Strict, [*good, ("action", 0, "pick b", "100")])
    assert str(err.value).startswith("row 3 ('pick b'): ")


def test_replayed_gives_the_state_and_rng_after_the_texts() -> None:
    rt = new()
    state, rng = rt._replayed(["deal PUMA", "deal YAK", "pick a", "bet 2"])
    assert state.serialize() == "[9, 1]/0/2/[]/None"
    expected = make_stream(HMAC_SHA256, SEED)
    s = RelayGame(GameConfig()).new_initial_state()
    for _ in range(2):
        s.apply_action(s.sample_chance(expected))
    assert rng.getstate() == expected.getstate()
    assert isinstance(rng, random.Random)


# -- bots -----------------------------------------------------------------------------


def test_bot_specs_within_the_caps(caplog: pytest.LogCaptureFixture) -> None:
    rt = new(RelayGame, "human", "mcts:seconds=30", caps=BotCaps(max_seconds=1.0))
    assert rt.bot_spec(1) == "random"  # stored under looser caps: the fallback today
    assert said(caplog) == [
        (
            "WARNING",
            "m1 seat P2: mcts:seconds=30 asks for 30 s a move; this server allows at most 1 s;"
            " it plays as random",
        )
    ]
    assert rt.fallback_spec() == "random"
    rt2 = new(RelayGame, "human", "mcts:iterations=5", caps=BotCaps(max_seconds=1.0))
    assert rt2.bot_spec(1) == "mcts:iterations=5,seconds=1"
    agent = rt2.agent(1)
    assert rt2.agent(1) is agent and list(rt2.agents) == [1]
    assert rt2.bot_to_move() is None
    rt3 = new(RelayGame, "random", "human")
    assert rt3.bot_to_move() == 0 and rt3.agent(0).act(rt3.state.clone()) in (PICK, PICK + 1)
    rt3.commit(rt3.plan_command(0, "pick a then bet 1"))
    assert rt3.bot_to_move() is None  # P2 is a person
    assert finished().bot_to_move() is None

    class Greedy(RelayGame):
        name: ClassVar[str] = "greedyrelay"

        def bots(self) -> dict[str, Any]:
            return {"greedy": lambda game, seed=0: None}

    assert new(Greedy).fallback_spec() == "greedy"


# -- what each seat is told ---------------------------------------------------------


def test_log_for_each_viewer() -> None:
    rt = finished()
    rt.entries[6].note = "P2's bot (mcts) crashed; the random bot moved instead"
    assert rt.log_for(0) == [
        {"n": 1, "seat": -1, "text": "deal PUMA", "said": "the dealer: deal PUMA", "setup": True},
        {"n": 2, "seat": -1, "text": HIDDEN_CHANCE, "said": HIDDEN_CHANCE, "setup": True},
        {
            "n": 3,
            "seat": 0,
            "text": "P1 pick a, bet 2, roll 4, roll 3",
            "said": "P1 pick a, bet 2, roll 4, roll 3",
        },
        {
            "n": 6,
            "label": "5–6",
            "seat": -1,
            "text": "roll 4; roll 3",
            "said": "the dealer: roll 4, roll 3",
        },  # folded (core/narration.py)
        {
            "n": 7,
            "seat": 1,
            "text": "guess b",
            "said": "P2 plays (P2's bot (mcts) crashed; the random bot moved instead)",
        },
    ]
    spectator = rt.log_for(None)
    assert [(e["text"], e["said"]) for e in spectator[:2]] == [(HIDDEN_CHANCE, HIDDEN_CHANCE)] * 2
    assert spectator[2]["said"] == "P1 pick a, bet 2, roll 4, roll 3"
    assert spectator[4]["said"].startswith("P2 plays (")
    p2 = rt.log_for(1)
    assert p2[1] == {
        "n": 2,
        "seat": -1,
        "text": "deal YAK",
        "said": "the dealer: deal YAK",
        "setup": True,
    }
    assert p2[4]["said"] == "You guess b (P2's bot (mcts) crashed; the random bot moved instead)"


def test_log_for_single_moves_and_a_lone_chance_entry() -> None:
    rt = new()
    rt.commit(rt.plan_move(0, "pick b"))
    rt.entries[2].note = "n"
    rt.entries[2].said = ()
    assert rt.log_for(1)[2] == {
        "n": 3,
        "seat": 0,
        "text": HIDDEN_DECISION,
        "said": f"{HIDDEN_DECISION} (n)",
    }
    assert rt.log_for(0)[2] == {"n": 3, "seat": 0, "text": "pick b", "said": "pick b (n)"}
    rt.entries[2].said = ("",) * 3
    assert rt.log_for(0)[2]["said"] == "pick b (n)"  # an empty narration: the notation
    rt.entries[2].note = ""
    rt.commit(rt.plan_move(0, "bet 1"))
    rt.entries.pop()  # one roll only: not folded
    assert rt.log_for(0)[-1] == {"n": 5, "seat": -1, "text": "roll 4", "said": "the dealer: roll 4"}
    assert len(rt.log_for(0)) == 5
    nothing = MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    assert nothing.log_for(0) == []


def test_fields_and_payload() -> None:
    rt = new()
    rt.seats[0].name = "Ann"
    rt.seats[0].joined = True
    p0 = rt.payload(0)
    assert set(p0) == {
        "type",
        "match",
        "game",
        "config",
        "version",
        "seat",
        "status",
        "to_move",
        "terminal",
        "players",
        "view",
        "legal",
        "log",
        "scores",
        "outcome",
        "summary",
        "can_undo",
        "seed_sha256",
        "seed",
        "svg",
        "clock",
    }
    assert {
        k: p0[k]
        for k in (
            "type",
            "match",
            "game",
            "config",
            "version",
            "seat",
            "status",
            "to_move",
            "terminal",
            "outcome",
            "summary",
            "can_undo",
            "seed_sha256",
            "seed",
        )
    } == {
        "type": "state",
        "match": "m1",
        "game": "relay",
        "config": {"players": 2},
        "version": 2,
        "seat": 0,
        "status": "running",
        "to_move": 0,
        "terminal": False,
        "outcome": None,
        "summary": None,
        "can_undo": False,
        "seed_sha256": "c0ffee",
        "seed": None,
    }
    assert p0["players"] == [
        {
            "seat": 0,
            "kind": "human",
            "spec": "human",
            "name": "Ann",
            "joined": True,
            "account": None,
        },
        {
            "seat": 1,
            "kind": "human",
            "spec": "human",
            "name": "P2",
            "joined": False,
            "account": None,
        },
    ]
    assert p0["clock"] is None  # a match without a clock
    assert p0["view"] == rt.state.observation(0) and p0["view"]["my_card"] == "PUMA"
    assert p0["legal"] == [{"id": PICK, "text": "pick a"}, {"id": PICK + 1, "text": "pick b"}]
    assert p0["log"] == rt.log_for(0) and p0["scores"] == [0.0, 0.0]
    assert p0["svg"] == board_svg(rt.state, 0)
    p1 = rt.payload(1)
    assert (p1["seat"], p1["legal"], p1["view"]["my_card"]) == (1, [], "YAK")
    spectator = rt.payload(None)
    assert (spectator["legal"], spectator["scores"], spectator["view"]["my_card"]) == (
        [],
        None,
        None,
    )
    assert "data-action" not in spectator["svg"] and "data-action" in p0["svg"]
    rt.commit(rt.plan_move(0, "pick a"))
    assert rt.payload(0)["can_undo"] is True and rt.payload(1)["can_undo"] is False
    bots = new(RelayGame, "human", "random")
    assert bots.payload(None)["players"][1] == {
        "seat": 1,
        "kind": "bot",
        "spec": "random",
        "name": "P2 (random)",
        "joined": True,
        "account": None,
    }
    done = finished()
    end = done.payload(1)
    assert (end["status"], end["to_move"], end["terminal"], end["seed"]) == (
        "finished",
        None,
        True,
        "7",
    )
    assert end["outcome"] == {"winners": [0], "scores": [11.0, 1.0]}
    assert end["scores"] == [11.0, 1.0] and end["summary"] == summary_view(done.state, ["P1", "P2"])
    assert end["legal"] == [] and end["can_undo"] is False
    chance = MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    f = chance.fields(0)
    assert (f["to_move"], f["terminal"]) == (None, False)


def test_scores_in_a_perfect_information_game_and_payload_json() -> None:
    rt = new(OpenRelay)
    assert rt.scores_for({}) == [9.0, 1.0]
    assert rt.payload(None)["scores"] == [9.0, 1.0]
    assert new().scores_for({"scores": (1, 2)}) is None
    assert new().scores_for({"scores": [1, 2]}) == [1, 2]
    text = rt.payload_json(0)
    assert json.loads(text) == json.loads(json.dumps(rt.payload(0), default=str))
    assert rt.payload_json(0) is text  # once per revision
    rt.commit(rt.plan_move(0, "pick a"))
    assert rt.payload_json(0) is not text and json.loads(rt.payload_json(0))["version"] == 3


def test_layers_are_drawn_once_per_revision() -> None:
    rt = new(LayeredRelay)
    layers = rt.layers(0)
    assert rt.layers(0) is layers and layers == board_layers(rt.state, 0)
    assert rt.layers(1) == board_layers(rt.state, 1)
    assert rt.payload(0)["svg"] == layers.compose()
    rt.commit(rt.plan_move(0, "pick a"))
    assert rt.layers(0) is not layers


def test_frames_and_pushes() -> None:
    rt = new(LayeredRelay)
    frame = rt.frame(0)
    assert rt.frame(0) is frame and (frame.rev, frame.version) == (rt.rev, 2)
    assert frame.fields == json.loads(json.dumps(rt.fields(0), default=str))
    assert (frame.board.width, frame.board.height) == (100, 50)
    assert frame.board.public == rt.layers(0).public and frame.board.seat == rt.layers(0).seat
    snapshot = rt.message(0, None)
    assert snapshot is not None and snapshot[0] == rt.rev
    assert json.loads(snapshot[1]) == json.loads(json.dumps(frame.snapshot()))
    assert rt.message(0, rt.rev) is None  # up to date
    assert rt.push(0, None) is rt.push(0, None)  # drawn once, shared
    old = rt.rev
    rt.commit(rt.plan_move(0, "pick a"))
    update = rt.message(0, old)
    assert update is not None and update[0] == rt.rev
    from motherlode.server.push import diff

    assert json.loads(update[1]) == json.loads(json.dumps(diff(frame, rt.frame(0))))
    assert json.loads(rt.message(0, 12345)[1])["type"] == "state"  # type: ignore[index]
    plain = new()
    f = plain.frame(None)
    assert (f.board.width, f.board.height, f.board.static, f.board.public) == (0, 0, None, ())
    assert f.board.seat == plain.layers(None).seat


def test_a_still_copy_is_not_changed_by_the_next_move() -> None:
    rt = new()
    snap = rt._still()
    rt.commit(rt.plan_move(0, "pick a"))
    rt.seats[1].joined = True
    assert len(snap.entries) == 2 and len(rt.entries) == 3
    assert snap.seats[1].joined is False and snap.state is not rt.state
    assert snap._cache is not rt._cache and snap._cache.lock is rt._cache.lock


class Explained(RelayGame):
    name: ClassVar[str] = "explained"

    def new_initial_state(self) -> RelayState:
        return _Explained(self)


class _Explained(RelayState):
    def summary(self) -> Summary:
        card = ("card", 1.0)
        return Summary(
            "the guess", (SeatResult(0, 3.0, (card, ("bet", 2.0))), SeatResult(1, 7.0)), (1,)
        )


def test_summary_view_with_the_rulebooks_breakdown(caplog: pytest.LogCaptureFixture) -> None:
    s = Explained(GameConfig()).new_initial_state()
    s.apply_actions([1, 7, PICK, BET + 1, DIE, DIE + 5, GUESS + 1])
    assert summary_view(s, ["Ann", "Bo"]) == {
        "reason": "the guess",
        "rows": [
            {
                "seat": 0,
                "name": "Ann",
                "score": 3.0,
                "breakdown": [["card", 1.0], ["bet", 2.0]],
                "winner": False,
            },
            {"seat": 1, "name": "Bo", "score": 7.0, "breakdown": [], "winner": True},
        ],
        "winners": [1],
        "lines": ["The game is over: the guess.", "Ann: 3 (card 1, bet 2)", "Bo: 7", "Winner: Bo"],
    }
    b = BrokenRelay(GameConfig()).new_initial_state()
    b.apply_actions([1, 7, PICK, BET + 1, DIE, DIE + 5, GUESS + 1])
    caplog.clear()
    assert summary_view(b, ["Ann", "Bo"]) is None
    assert said(caplog) == [("ERROR", "summary() failed in brokenrelay")]


def test_a_bots_agent_is_seeded_from_the_match_seed() -> None:
    from motherlode.agents import create

    rt = new(RelayGame, "random", "human")
    reference = create("random", rt.game, seed=bot_seed(SEED, 0))
    agent = rt.agent(0)
    state = rt.state.clone()
    assert [agent.act(state) for _ in range(24)] == [reference.act(state) for _ in range(24)]


def test_a_refused_move_is_logged_for_the_server_only(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.DEBUG, logger="motherlode.server")
    rt = new()
    with pytest.raises(ServerError):
        rt.plan_move(0, "guess a")
    assert said(caplog) == [("DEBUG", "refused 'guess a' by P1 in m1 at None")]
    with pytest.raises(ServerError):
        rt.plan_move(0, BET)  # an id the engine refuses: its position, for the server's log
    assert said(caplog) == [("DEBUG", "refused 12 by P1 in m1 at [9, 1]/None/None/[]/None")]


def test_more_edges_of_the_runtime() -> None:
    from motherlode.core.narration import fold
    from motherlode.server.push import static_url

    # a chance run whose narration is empty folds its notation instead
    rt = finished()
    rt.entries[4].said = ("",) * 3
    assert rt.log_for(0)[3]["said"] == fold(["roll 4", "the dealer: roll 3"])
    assert rt.log_for(0)[3]["said"] == "roll 4; the dealer: roll 3"
    # a layered board's static layer goes by URL
    layered = new(LayeredRelay)
    assert layered.frame(0).board.static == static_url(layered.game)
    # at a chance node nobody is to move, not even the bot in the last seat
    dealing = MatchRuntime("m", RelayGame(GameConfig()), SEED, "", seats("human", "random"))
    assert dealing.bot_to_move() is None
    with pytest.raises(ServerError) as err:
        dealing.plan_command(0, "pick a")
    assert (err.value.code, err.value.message) == ("not_your_turn", "it is nobody's turn")
    # re-playing rows starts a new revision: what viewers were shown may have changed
    before = dealing.rev
    dealing.replay_rows([("action", -1, "deal VOLE", "100")])  # (the MT19937 stream)
    assert dealing.rev != before and dealing.version == 1


class _Everywhere(RelayState):
    """Draws its clickable moves for every viewer (the runtime must strip them)."""

    def render_svg(self, seat: Player | None = None) -> str:
        a = self.legal_actions()[0] if self.legal_actions() else PICK
        text = self._action_to_string(a)
        return svg.document(10, 10, [svg.actionable(svg.element("text", text), text)])

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        return {**super().observation(player), "count": np.int64(3)}  # not JSON by itself


class Everywhere(RelayGame):
    name: ClassVar[str] = "everywhere"

    def new_initial_state(self) -> RelayState:
        return _Everywhere(self)


def test_only_the_seat_to_move_gets_clickable_moves() -> None:
    s = Everywhere(GameConfig()).new_initial_state()
    s.apply_actions([1, 7])
    assert "data-action" in board_svg(s, 0)
    assert board_svg(s, 1) == strip_actions(s.render_svg(1)) != s.render_svg(1)
    assert board_svg(s, None) == strip_actions(s.render_svg(None))


def test_payload_json_per_seat_and_with_values_json_lacks() -> None:
    rt = new(Everywhere)
    mine, theirs = json.loads(rt.payload_json(0)), json.loads(rt.payload_json(1))
    assert (mine["seat"], mine["view"]["my_card"], mine["view"]["count"]) == (0, "PUMA", "3")
    assert (theirs["seat"], theirs["view"]["my_card"]) == (1, "YAK")
    assert json.loads(rt.payload_json(None))["view"]["my_card"] is None


def test_replay_of_a_command_then_more_rows() -> None:
    live = finished()
    logged = [(e.kind, e.seat, e.text, e.mask(), e.note or None) for e in live.entries]
    rt = replayed(RelayGame, logged)
    assert texts(rt) == texts(live) and rt.finished and rt.version == 7
    assert [e.line for e in rt.entries] == [e.line for e in live.entries]


class OrderConfig(GameConfig):
    order: tuple[int, ...] = (2, 1)  # a list in JSON, a tuple in Python


class Ordered(Everywhere):
    name: ClassVar[str] = "ordered"
    Config: ClassVar[type[GameConfig]] = OrderConfig


def test_fields_and_frames_are_json() -> None:
    rt = MatchRuntime("m1", Ordered(OrderConfig()), SEED, "", seats("human", "human"))
    assert rt.fields(0)["config"] == {"players": 2, "order": [2, 1]}
    frame = rt.frame(0)
    assert frame.fields["config"] == {"players": 2, "order": [2, 1]}
    assert frame.fields["view"]["count"] == "3"  # numpy's integer, as text


def logged(*entries: LogEntry) -> MatchRuntime:
    rt = MatchRuntime("m1", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    rt.entries = list(entries)
    return rt


def test_setup_is_only_the_chance_before_the_first_decision() -> None:
    first = logged(LogEntry(0, "pick a"), LogEntry(CHANCE, "roll 1"))
    assert [("setup" in e) for e in first.log_for(0)] == [False, False]
    one = logged(LogEntry(CHANCE, "deal PUMA"), LogEntry(0, "pick a"), LogEntry(CHANCE, "roll 1"))
    assert [("setup" in e) for e in one.log_for(0)] == [True, False, False]


def test_a_run_of_three_chance_entries_is_one_line() -> None:
    rt = logged(LogEntry(0, "pick a"), *(LogEntry(CHANCE, f"roll {d}") for d in (1, 2, 3)))
    assert rt.log_for(0)[1] == {
        "n": 4,
        "label": "2–4",
        "seat": CHANCE,
        "text": "roll 1; roll 2; roll 3",
        "said": "roll 1; roll 2; roll 3",
    }


def test_where_the_last_undo_unit_begins() -> None:
    def cmd(kind: str, seat: int = 0) -> LogEntry:
        return LogEntry(seat, "x", group=kind)

    assert (
        logged(cmd("command"), cmd("part"), cmd(""))._unit_start() == 2
    )  # a move after a command: itself
    assert logged(cmd("command"), cmd("part"), cmd("part"))._unit_start() == 0
    assert logged(LogEntry(CHANCE, "d"), cmd("command"), cmd("part"))._unit_start() == 1
    assert logged(LogEntry(CHANCE, "d"), cmd(""))._unit_start() == 1


class _Blind(RelayState):
    """Nobody's observation shows the letter picked, not even the picker's, until the end."""

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        view = super().observation(player)
        if not self.is_terminal():
            view["pick"] = None
        return view


class Blind(RelayGame):
    name: ClassVar[str] = "blind"

    def new_initial_state(self) -> RelayState:
        return _Blind(self)


def test_the_actor_of_a_command_sees_its_own_decisions() -> None:
    rt = new(Blind)
    step = rt.plan_command(0, "pick a then bet 2")
    assert [e.visible for e in step.entries[:2]] == [(True, False, False), (True, True, True)]
    assert rt.plan_move(0, "pick a").entries[0].visible == (True, False, False)


def test_a_level_name_is_made_to_fit_the_caps() -> None:
    import motherlode

    yukon = motherlode.load("yukon")
    rt = MatchRuntime(
        "m1",
        yukon,
        SEED,
        "",
        [SeatInfo(0, "human", "human"), SeatInfo(1, "bot", "strongest")],
        caps=BotCaps(max_seconds=0.5),
    )
    assert rt.bot_spec(1) == "mcts:iterations=12000,seconds=0.5"


class _Fog(WheelState):
    def observation(self, player: Player | None = None) -> dict[str, Any]:
        return {}


class Fog(RelayGame):
    """A spin nobody sees."""

    name: ClassVar[str] = "fog"

    def new_initial_state(self) -> RelayState:
        return _Fog(self)


def test_a_chance_outcome_nobody_sees() -> None:
    assert visibility(Fog(GameConfig()).new_initial_state(), 5, CHANCE) == (False,) * 3


def test_a_runtime_not_yet_moved_sends_a_snapshot() -> None:
    fresh = MatchRuntime("m1", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    first = fresh.message(0, None)
    assert first is not None and json.loads(first[1])["type"] == "state"


# -- clocks (server/clocks.py): the log's clock events, a forfeit's fields and board ----

T0 = dt.datetime(2026, 12, 1, 12, 0, 0)
FISCHER = clocks.ClockSpec("fischer", 60.0, 5.0, 0.0)


def clocked(rt: MatchRuntime, **fields: Any) -> MatchRuntime:
    """``rt`` with a clock: P1's and P2's 60 s, stamped at T0, and ``fields``."""
    rt.clock = clocks.Clock(FISCHER, [60.0, 60.0], since=T0, **fields)
    rt._cache.clear()
    return rt


def clock_entry(at: int, kind: str, seat: int, said: str) -> dict[str, Any]:
    return {"n": at, "label": "clock", "seat": seat, "text": said, "said": said, "clock": kind}


def test_clock_events_are_log_entries_where_they_happened() -> None:
    rt = new()
    rt.commit(rt.plan_command(0, "pick a then bet 2"))  # then two dice: P2 to move
    timeout = clocks.ClockEvent(6, "timeout", 1)
    clocked(rt, running=1, flagged=True, events=[timeout])
    log = rt.log_for(0)
    assert log[-2]["label"] == "5–6"  # the dice, folded, then the timeout after them
    assert log[-1] == clock_entry(6, "timeout", 1, "P2 ran out of time")
    rt.commit(rt.plan_move(1, "guess b"))  # now an entry follows the event
    log = rt.log_for(None)
    assert [e.get("label") or e["text"] for e in log[-3:]] == ["5–6", "clock", "guess b"]
    assert log[-2] == clock_entry(6, "timeout", 1, "P2 ran out of time")
    skip = clocks.ClockEvent(6, "skip", 1, 0)
    clocked(rt, events=[timeout, skip, clocks.ClockEvent(2, "timeout", 0)])
    assert [e.get("clock") for e in rt.log_for(1)] == [
        None,
        None,
        "timeout",
        None,
        None,
        "timeout",
        "skip",
        None,
    ]
    assert rt.log_for(1)[6] == clock_entry(6, "skip", 1, "P1 skips P2's turn (out of time)")


def test_a_forfeit_ends_the_match_for_every_viewer() -> None:
    rt = new(LayeredRelay)  # P1 to move, its move clickable
    events = [clocks.ClockEvent(2, "timeout", 0), clocks.ClockEvent(2, "forfeit", 0)]
    clocked(rt, flagged=True, forfeit=0, events=events)
    rt.clock.remaining = [-1.0, 60.0]  # type: ignore[union-attr]
    assert rt.finished and rt.forfeit == 0 and rt.bot_to_move() is None
    f = rt.fields(0)
    assert {k: f[k] for k in ("status", "to_move", "terminal", "legal", "seed", "can_undo")} == {
        "status": "finished",
        "to_move": None,
        "terminal": True,
        "legal": [],
        "seed": "7",
        "can_undo": False,
    }
    assert f["outcome"] == {"winners": [1], "scores": [0.0, 1.0]}
    assert f["summary"] == clocks.forfeit_summary(["P1", "P2"], 0)
    assert f["summary"]["reason"] == "P1 ran out of time and forfeits"
    assert f["clock"] == {
        "kind": "fischer",
        "describe": "1 min + 5 s a turn",
        "remaining": [-1.0, 60.0],
        "running": None,
        "since": T0.replace(tzinfo=dt.UTC).timestamp(),
        "late": None,
        "can_skip": False,
        "skip_label": "hand the seat to the bot",
        "bots": [],
        "forfeit": 0,
        "rule": "out of time: the match ends as a forfeit (the late seat loses)",
    }
    drawn = board_layers(rt.state, 0)
    assert "data-action" in drawn.seat[1][1]  # the game would let P1 move: not any more
    assert rt.layers(0) == svg.Layers(
        drawn.width,
        drawn.height,
        drawn.static,
        drawn.public,
        tuple((k, strip_actions(m)) for k, m in drawn.seat),
        drawn.title,
    )
    assert "data-action" not in rt.payload(0)["svg"]


def test_the_clock_view_says_whether_the_late_seats_game_can_pass_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(clocks.SKIP_WORDS, "relay", ("bet 1",))
    rule = "out of time: the others may skip the turn ('bet 1') or end the match"
    rt = clocked(new())  # nobody late
    view = rt.fields(None)["clock"]
    assert (view["late"], view["can_skip"], view["skip_label"], view["rule"]) == (
        None,
        True,
        "skip the turn",
        rule,
    )
    clocked(rt, running=0, flagged=True)  # P1 late, to pick: no "bet 1" now
    view = rt.fields(1)["clock"]
    assert (view["late"], view["can_skip"], view["skip_label"]) == (
        0,
        False,
        "hand the seat to the bot",
    )
    rt.commit(rt.plan_move(0, "pick a"))  # to bet: it can pass now; the clock stays
    view = rt.fields(1)["clock"]
    assert (view["late"], view["can_skip"], view["skip_label"]) == (0, True, "skip the turn")


def test_a_step_carries_its_clock_into_the_runtime() -> None:
    rt = clocked(new(), running=0)
    before = rt.clock
    rt.commit(rt.plan_move(0, "pick a"))  # a step without a clock: the runtime's stays
    assert rt.clock is before
    step = rt.plan_move(0, "bet 1")
    step.clock = clocks.Clock(FISCHER, [50.0, 60.0], None, T0)
    rt.commit(step)
    assert rt.clock is step.clock


def test_a_seat_a_bot_took_over_is_a_bots() -> None:
    rt = clocked(new(), bots=(0,))
    assert [rt.is_bot(s) for s in (0, 1)] == [True, False]
    assert rt.bot_to_move() == 0 and rt.bot_spec(0) == rt.fallback_spec()
    assert [new().is_bot(s) for s in (0, 1)] == [False, False]


def test_no_undo_past_a_clock_event() -> None:
    rt = new()
    rt.commit(rt.plan_move(0, "pick a"))
    clocked(rt, events=[clocks.ClockEvent(2, "timeout", 0)])  # before the pick
    assert rt.undo_allowed(0)
    clocked(rt, events=[clocks.ClockEvent(3, "timeout", 0)])  # after it
    assert not rt.undo_allowed(0)
    with pytest.raises(ServerError) as err:
        rt.plan_undo(0)
    assert err.value.code == "undo_not_allowed"


BUILT: list[tuple[int, Player | None]] = []


class _Once(LayeredState):
    """Its public layer drawn through ``svg.once`` (read twice per drawing: by the public
    and by the seat layer), each build counted."""

    def render_layers(self, seat: Player | None = None) -> svg.Layers:
        def build() -> str:
            BUILT.append((len(self.hands) + (self.pick is not None), seat))
            return svg.element("text", str(self.dice), id="dice")

        public = svg.once(self, "public", build)
        mine = svg.once(self, "public", build).replace('id="dice"', 'id="me"')
        return svg.Layers(100, 50, "", (("dice", public),), (("me", mine),), title="once")


class OnceRelay(RelayGame):
    name: ClassVar[str] = "oncerelay"

    def new_initial_state(self) -> RelayState:
        return _Once(self)


def test_the_public_layer_is_drawn_once_per_revision_for_every_viewer() -> None:
    BUILT.clear()
    rt = new(OnceRelay)
    for seat in (0, 1, None):
        assert rt.layers(seat).public == (("dice", '<text id="dice">[]</text>'),)
    assert BUILT == [(2, 0)]  # the first viewer's drawing, shared by the others
    rt.commit(rt.plan_move(0, "pick a"))
    rt.layers(1)
    rt.layers(0)
    assert BUILT == [(2, 0), (3, 1)]
    board_layers(rt.state, None)  # alone: shared within the one drawing only
    assert BUILT == [(2, 0), (3, 1), (3, None)]
    memo: dict[Any, Any] = {}
    board_layers(rt.state, 0, memo)
    board_layers(rt.state, 1, memo)
    assert BUILT == [(2, 0), (3, 1), (3, None), (3, 0)]
    fresh = MatchRuntime("m", OnceRelay(GameConfig()), SEED, "", seats("human", "human"))
    BUILT.clear()
    fresh.layers(0)
    fresh.layers(None)  # the first revision's views share it too
    assert BUILT == [(0, 0)]

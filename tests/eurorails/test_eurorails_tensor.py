"""Eurorails' observation tensor, built from cached parts, equals the tensor built from
scratch as before (kept here as the reference), bit for bit, at every position of random
games in every conformance config, for every viewer and the spectator."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from motherlode.core.protocol import Player
from motherlode.games.eurorails import observe as O
from motherlode.games.eurorails.base import GameBase
from motherlode.games.eurorails.game import EurorailsGame
from motherlode.games.eurorails.turns import TurnRules


def _reference_built(g: GameBase, edge_owner: list[int]) -> tuple[np.ndarray, np.ndarray]:
    owner = np.fromiter(edge_owner, np.intp, len(edge_owner))
    built = np.flatnonzero(owner >= 0)
    return built, owner[built]


def _reference_edge_ends(g: GameBase) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.asarray(g.board.edge_ends, dtype=np.intp).reshape(-1, 2)
    return pairs[:, 0], pairs[:, 1]


def reference_tensor(state: TurnRules, player: Player | None = None) -> np.ndarray:
    """The tensor as observe.tensor built it before its parts were cached: the reference."""
    g = state.game
    b = g.board
    n = g.num_players
    me = 0 if player is None else player
    w = 2 * n + 1
    t = np.zeros(O.tensor_size(g), dtype=np.float32)
    built, owners = _reference_built(g, state.edge_owner)
    if built.size:
        slot = (owners - me) % n
        xs, ys = _reference_edge_ends(g)
        t[xs[built] * w + slot] = 1.0
        t[ys[built] * w + slot] = 1.0
    for q in range(n):
        k = (q - me) % n
        if state.pos[q] >= 0:
            t[state.pos[q] * w + n + k] = 1.0
        if state.pos2 and state.pos2[q] >= 0:
            t[state.pos2[q] * w + n + k] = 1.0
    for m in state.weather_area():
        t[m * w + 2 * n] = 1.0
    o = b.n * w
    for k in range(n):
        q = (me + k) % n
        visible = bool(state.cash_public) or q == player
        t[o] = min(state.cash[q], O.CASH_CAP) / 100.0 if visible else 0.0
        t[o + 1] = 1.0 if visible else 0.0
        t[o + 2 + state.train[q]] = 1.0
        for x in state.loads[q]:
            t[o + 6 + x] += 1.0
        t[o + 38] = float(state.lost[q])
        t[o + 39] = float(state.declared[q])
        if g.cfg.open_hands or q == player:
            i = 0
            for c in state.hands[q]:
                for d in g.demands[c]:
                    if i >= 9:  # Fast Game: the 4th and 5th cards are not encoded
                        break
                    t[o + 40 + 2 * i] = (d.load + 1) / 32.0
                    t[o + 41 + 2 * i] = d.payment / 100.0
                    i += 1
        o += 58
    for a in state.active:
        t[o + a[0] - 147] = 1.0
    o += 22
    for x, c in enumerate(state.chips):
        t[o + x] = c / 4.0
    o += 32
    cp = state.current_player()
    if 0 <= cp < n:
        t[o + (cp - me) % n] = 1.0
    o += n
    t[o + state.phase] = 1.0
    o += 4
    if g.cfg.challenge_track_trading:
        if state.offer:
            seller, stage, price = state.offer
            t[o + (seller - me) % n] = 1.0
            t[o + n + stage] = 1.0
            t[o + n + 3] = price / 100.0
        t[o + n + 4] = float(state.traded)
        o += n + 5
        for k, edges in enumerate((state.offer_take, state.offer_give)):
            for e in edges:
                for m in b.edge_ends[e]:
                    t[o + 2 * m + k] = 1.0
        o += 2 * b.n
    if g.cfg.challenge_additional_trains:  # per seat slot the second train's type and loads
        if state.pos2:
            for k in range(n):
                q = (me + k) % n
                t[o + 36 * k + state.train2[q]] = 1.0
                for x in state.loads2[q]:
                    t[o + 36 * k + 4 + x] += 1.0
        o += 36 * n
    if g.cfg.four_demand_cards:  # the 4th card's demands, when visible
        for k in range(n):
            q = (me + k) % n
            hand = state.hands[q]
            if (g.cfg.open_hands or q == player) and len(hand) > 3 and hand[3] < 147:
                for i, d in enumerate(g.demands[hand[3]]):
                    t[o + 2 * i] = (d.load + 1) / 32.0
                    t[o + 2 * i + 1] = d.payment / 100.0
            o += 6
    return t


@pytest.mark.parametrize("config", EurorailsGame.conformance_configs())
def test_the_tensor_equals_the_reference_built_from_scratch(config: dict[str, Any]) -> None:
    game = EurorailsGame.from_config(**config)
    viewers: list[Player | None] = [None, *range(game.num_players)]
    rng = random.Random(7)
    state = game.new_initial_state()
    positions = 0
    while not state.is_terminal() and positions < 150:
        for viewer in viewers:
            fast = state.observation_tensor(viewer)
            assert fast.dtype == np.float32 and fast.shape == game.observation_tensor_shape()
            assert fast.tobytes() == reference_tensor(state, viewer).tobytes()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            positions += 1
    assert positions > 40


# -- the parts kept on the game, used again (each marked by hand: the mark shows) ----------


def _standard(**options: Any) -> TurnRules:
    """A 2-player game dealt cards 1-3 to P1 and 4-6 to P2."""
    game = EurorailsGame.from_config(players=2, **options)
    state = game.new_initial_state()
    for card in (1, 2, 3, 4, 5, 6):
        state.apply_action(card - 1)
    assert isinstance(state, TurnRules) and state.hands == [[1, 2, 3], [4, 5, 6]]
    return state


def test_the_kept_track_part_is_used_while_the_owners_are_equal() -> None:
    state = _standard()
    g = state.game
    e = next(e for e in range(len(g.board.edge_ends)) if not g.board.edge_internal[e])
    x, y = g.board.edge_ends[e]
    state.edge_owner[e] = 0  # P1's one segment: its two ends in P1's slot (0 of 5)
    state._rebuild_touch()
    w = 5
    assert state.observation_tensor(0)[[x * w, y * w]].tolist() == [1.0, 1.0]
    owners, part = g._tensor_track[0]  # type: ignore[attr-defined]
    assert owners == state.edge_owner and owners is not state.edge_owner
    assert not part.flags.writeable
    marked = part.copy()
    marked[1] = 1.0  # milepost 0, P2's slot: no track there
    g._tensor_track[0] = (owners, marked)  # type: ignore[attr-defined]
    assert state.observation_tensor(0)[1] == 1.0  # the kept part, used again
    state.edge_owner[e] = -1  # the owners change: built afresh
    state._rebuild_touch()
    t = state.observation_tensor(0)
    assert t[1] == 0.0 and t[[x * w, y * w]].tolist() == [0.0, 0.0]


def test_a_hands_demands_are_kept_per_hand_and_start_afresh_past_4096() -> None:
    state = _standard(open_hands=False)  # the viewer's hand only: one part a tensor
    g = state.game
    o = g.board.n * 5 + 40  # the viewer's slot (first), its demands
    t = state.observation_tensor(0)
    kept = g._tensor_demands  # type: ignore[attr-defined]
    assert list(kept) == [(1, 2, 3)] and kept[1, 2, 3].tolist() == t[o : o + 18].tolist()
    marked = kept[1, 2, 3] + 7.0
    kept[1, 2, 3] = marked
    assert state.observation_tensor(0)[o : o + 18].tolist() == marked.tolist()
    filler = np.zeros(0, dtype=np.float32)
    for before, after in ((4096, 4097), (4097, 1)):  # past 4096 all are dropped first
        kept.clear()
        kept.update({(-k,): filler for k in range(before)})
        state.observation_tensor(0)
        assert len(kept) == after and (1, 2, 3) in kept


def test_a_weather_areas_entries_are_kept_per_area() -> None:
    state = _standard()
    g = state.game
    state.draw.remove(155)
    state.active.append([155, 1, 10])  # fog at Frankfurt
    area = state.weather_area()
    w = 5
    t = state.observation_tensor(None)
    assert sorted(np.flatnonzero(t[: g.board.n * w] == 1.0)) == sorted(m * w + 4 for m in area)
    index = g._tensor_weather[area]  # type: ignore[attr-defined]
    assert sorted(index.tolist()) == sorted(m * w + 4 for m in area)
    g._tensor_weather[area] = index[:1]  # type: ignore[attr-defined]
    t = state.observation_tensor(None)
    assert np.flatnonzero(t[: g.board.n * w] == 1.0).tolist() == [int(index[0])]

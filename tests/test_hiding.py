"""Information hiding, proven for every game, config and adapter by resampling.

A seat's ``observation`` is what it may know. For every game and conformance config, a
random game is played; at each chance node, the outcomes this seat cannot tell apart from
the one drawn (its observation after them is the same: a card dealt to another hand, a
face-down chip, the order of a deck) are taken as the resampled "twin" worlds, and each
twin is carried on along the same decisions for as long as the seat still cannot tell.
In every such pair of worlds, everything the seat is given must be the same: its tensor,
its text narration, its board picture, PettingZoo's ``observe`` and OpenSpiel's observer.
And the converse: a config that hides something must produce such twins (an observation
that showed everything would pass the comparison above vacuously), and the PettingZoo
``observe(agent)`` is exactly the game's tensor for that seat, never another's.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
from typing import Any

import numpy as np
import pytest

import motherlode
from motherlode.core.protocol import Player, State
from tests.adapters.cases import CASES

HAVE_PETTINGZOO = importlib.util.find_spec("pettingzoo") is not None
HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None

STEPS = {"eurorails": 160}
"""Steps of random play per case (longer games are sampled over their opening)."""
DEFAULT_STEPS = 400
ALTERNATIVES = 4
"""Chance outcomes tried as twins at each chance node, spread over the list."""


def obs_key(state: State, seat: Player | None) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


@functools.cache
def pettingzoo_env(name: str, config_json: str) -> Any:
    from motherlode.adapters.pettingzoo import raw_env

    return raw_env(name, **json.loads(config_json))


@functools.cache
def openspiel_observer(name: str, config_json: str) -> tuple[Any, Any]:
    import pyspiel

    from motherlode.adapters.openspiel import load_game

    game = load_game(name, **json.loads(config_json))
    private = pyspiel.PrivateInfoType.SINGLE_PLAYER
    observer = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=private)
    )
    return game, observer


def shown(state: State, seat: Player | None, config_json: str) -> dict[str, Any]:
    """Everything ``seat`` is given about ``state``, through the engine and the adapters."""
    name = state.game.name
    out: dict[str, Any] = {
        "tensor": np.asarray(state.observation_tensor(seat), dtype=np.float32).tobytes(),
        "text": state.render_text(seat),
        "svg": state.render_svg(seat),
        # what the server pushes: the layers' elements by id, so their diffs too
        "layers": state.render_layers(seat),
    }
    if HAVE_PETTINGZOO:
        env = pettingzoo_env(name, config_json)
        env.position = state
        out["pettingzoo"] = (
            env.state().tobytes()
            if seat is None
            else env.observe(f"player_{seat}")["observation"].tobytes()
        )
    if HAVE_OPENSPIEL and seat is not None:
        from motherlode.adapters.openspiel import MotherlodeState

        game, observer = openspiel_observer(name, config_json)
        wrapped = MotherlodeState(game, state)
        observer.set_from(wrapped, seat)
        out["openspiel"] = (observer.tensor.tobytes(), observer.string_from(wrapped, seat))
    return out


def spread(items: list[Any], k: int) -> list[Any]:
    if len(items) <= k:
        return items
    return [items[int(i * len(items) / k)] for i in range(k)]


def twins_compared(name: str, config: dict[str, Any], seed: int = 7) -> dict[Player | None, int]:
    """Play one random game; for each viewer, compare what it is shown in every pair of
    worlds it cannot tell apart. Returns how many distinct pairs each viewer met."""
    game = motherlode.load(name, **config)
    config_json = json.dumps(config, sort_keys=True)
    viewers: list[Player | None] = [*range(game.num_players), None]
    rng = random.Random(seed)
    state = game.new_initial_state()
    twins: dict[Player | None, State | None] = dict.fromkeys(viewers)
    met: dict[Player | None, int] = dict.fromkeys(viewers, 0)

    def check(viewer: Player | None, a: State, b: State) -> bool:
        """Compare ``a`` and ``b`` for ``viewer`` if it cannot tell them apart."""
        if obs_key(a, viewer) != obs_key(b, viewer):
            return False
        if a.serialize() != b.serialize():
            met[viewer] += 1
            left, right = shown(a, viewer, config_json), shown(b, viewer, config_json)
            for what in left:
                assert left[what] == right[what], (
                    f"{name} {config}: {what} of seat {viewer} differs between two worlds"
                    f" its observation cannot tell apart (step {len(a.history())})"
                )
        return True

    for _ in range(STEPS.get(name, DEFAULT_STEPS)):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, p in state.chance_outcomes() if p > 0]
            action = state.sample_chance(rng)
            after = state.child(action)
            for viewer in viewers:
                twin = twins[viewer]
                base = twin if twin is not None and twin.is_chance_node() else state
                possible = {a for a, p in base.chance_outcomes() if p > 0}
                alternatives = [a for a in spread(outcomes, ALTERNATIVES) if a != action]
                new_twin = None
                for alt in alternatives:
                    if alt not in possible:
                        continue
                    candidate = base.child(alt)
                    if check(viewer, after, candidate) and new_twin is None:
                        new_twin = candidate
                if new_twin is None and twin is base and action in possible:
                    same = twin.child(action)
                    new_twin = same if check(viewer, after, same) else None
                twins[viewer] = new_twin
            state = after
        else:
            action = rng.choice(state.legal_actions())
            after = state.child(action)
            for viewer in viewers:
                twin = twins[viewer]
                if twin is None or twin.is_chance_node() or action not in twin.legal_actions():
                    twins[viewer] = None
                    continue
                moved = twin.child(action)
                twins[viewer] = moved if check(viewer, after, moved) else None
            state = after
    return met


def hides_something(name: str, config: dict[str, Any]) -> bool:
    """A config with private information: a seat cannot see what another seat holds."""
    return name == "eurorails" and config.get("open_hands") is False


@pytest.mark.parametrize(("name", "config"), CASES)
def test_a_seat_is_shown_the_same_in_worlds_it_cannot_tell_apart(
    name: str, config: dict[str, Any]
) -> None:
    met = twins_compared(name, config)
    if hides_something(name, config):
        # every seat meets worlds where another hand differs, and the spectator too
        assert all(met[v] > 0 for v in met), met


@pytest.mark.skipif(not HAVE_PETTINGZOO, reason="needs pettingzoo")
@pytest.mark.parametrize(("name", "config"), CASES)
def test_pettingzoo_observe_is_the_seats_own_tensor(name: str, config: dict[str, Any]) -> None:
    from motherlode.adapters.pettingzoo import raw_env

    env = raw_env(name, **config)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if not env.agents:
            break
        for seat, agent in enumerate(env.possible_agents):
            want = np.asarray(env.position.observation_tensor(seat), dtype=np.float32)
            got = env.observe(agent)["observation"]
            assert got.dtype == np.float32 and np.array_equal(got, want), (agent, seat)
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))

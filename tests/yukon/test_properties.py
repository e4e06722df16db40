"""Hypothesis properties of Yukon: conservation, scoring identities, notation round trips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.core.errors import NotationError
from motherlode.games.yukon import cards as C
from motherlode.games.yukon.game import YukonState
from tests.tools.positions import play_on

configs = st.sampled_from(
    [{"players": n, "expansion": e} for n in (2, 3, 4) for e in (False, True)]
)


def random_game(config: dict[str, object], seed: int, stop: int | None = None) -> YukonState:
    game = motherlode.load("yukon", **config)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        steps += 1
    assert isinstance(state, YukonState)
    return state


@settings(max_examples=40, deadline=None)
@given(configs, st.integers(0, 10**6), st.integers(0, 200))
def test_every_position_conserves_cards_and_round_trips(
    config: dict[str, object], seed: int, stop: int
) -> None:
    state = random_game(config, seed, stop)
    state.check_invariants()
    again = state.game.deserialize(state.serialize())
    assert again.serialize() == state.serialize()
    assert again.legal_actions() == state.legal_actions()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10**6))
def test_base_game_points_are_cards_taken_plus_the_prospector(players: int, seed: int) -> None:
    state = random_game({"players": players}, seed)
    taken = [sum(n * C.POINTS[k] for k, n in enumerate(pile)) for pile in state.pile]
    expected = [t + (5 if state.last == p else 0) for p, t in enumerate(taken)]
    assert state.scores() == [float(x) for x in expected]
    # the cards on the table and in the piles are exactly the deck
    left = sum(C.POINTS[k] for k in state.grid if k < C.SHERIFF)
    assert left + sum(taken) == 0  # Gold and Pebble values cancel over the whole deck


@settings(max_examples=30, deadline=None)
@given(configs, st.integers(0, 10**6))
def test_the_game_ends_exactly_when_the_mover_has_no_take(
    config: dict[str, object], seed: int
) -> None:
    state = random_game(config, seed)
    assert state.is_terminal() and state._takes(state.player) == []
    assert (
        state.last >= 0 and sum(state.has_prospector(p) for p in range(state.game.num_players)) == 1
    )


# -- hand-written positions: refused with a reason, or playable ---------------------------

# Tokens a hand-written position might put in a field (some right, most wrong somewhere).
FIELD_WORDS = [
    "-", "trapper", "goldsmith", "commander", "teacher", "draw:P1", "draw:P2", "draw:P3",
    "pan", "P1", "P2", "P3", "P4", "row", "col", "any", "cw", "ccw", "S", "S.Cu", "S.Pa",
    "Tr", "Tr.+8", "Gs.-3", "+8", "-3", "a1:1", "b2:3", "1.2.3", "3.3.3.3",
    "+8|-|-|-", "-|Te|-|-", "-|Ja|-|-", "-|Te|+3|-", "-|-|-|2", "-5.+3|Cu.In.To|-|1",
]


def _mutate(text: str, rng: random.Random) -> str:
    fields = text.split(" ")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(fields))
        choice = rng.random()
        if choice < 0.2:  # a pending decision, the most delicate field
            fields[5] = rng.choice(FIELD_WORDS[:9])
        elif choice < 0.5 and i != 0:
            fields[i] = rng.choice(FIELD_WORDS)
        elif i == 6 or choice < 0.7:  # a player's block: swap in a word for one seat
            blocks = fields[6].split(";")
            blocks[rng.randrange(len(blocks))] = rng.choice(FIELD_WORDS[-6:])
            fields[6] = ";".join(blocks)
        else:  # the grid: one cell becomes another card, or the Prospector moves
            cells = fields[0].replace("/", ",").split(",")
            j = rng.randrange(len(cells))
            if rng.random() < 0.5:
                cells = [c.lstrip("@") for c in cells]
                cells[j] = "@" + cells[j].lstrip("@")
            else:
                token = rng.choice(["+8", "-3", ".", "Pa", "Tr", "Gs", "Co", "Te", "Ja", "S"])
                cells[j] = ("@" if cells[j].startswith("@") else "") + token
            size = int(len(cells) ** 0.5)
            rows = [",".join(cells[r * size : (r + 1) * size]) for r in range(size)]
            fields[0] = "/".join(rows)
    return " ".join(fields)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(configs, st.integers(0, 10**6), st.integers(30, 160), st.integers(0, 10**6))
def test_mutated_positions_are_refused_with_a_reason_or_playable(
    config: dict[str, object], seed: int, stop: int, mutation: int
) -> None:
    state = random_game(config, seed, stop)
    rng = random.Random(mutation)
    text = _mutate(state.serialize(), rng)
    try:
        again = state.game.deserialize(text)
    except NotationError as err:
        assert str(err).startswith("yukon: ") and err.position == text
        return
    assert isinstance(again, YukonState)
    assert again.game.deserialize(again.serialize()).serialize() == again.serialize()
    play_on(again, rng)  # playable: random play from it raises nothing

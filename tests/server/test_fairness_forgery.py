"""Fairness fuzzing: forge any single step of a record; `verify_record` refuses it, naming it.

A record played from a seed is forged one way at a time: a chance outcome anywhere in the
game replaced by another possible one, a decision replaced by one that is not legal
there, the final scores, the seed, the record cut short or run on past the end. Each
forgery must be refused, and the refusal must name the step that does not hold.
"""

from __future__ import annotations

import dataclasses
import functools

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.errors import MotherlodeError
from motherlode.core.protocol import State
from motherlode.core.records import GameRecord
from motherlode.server.fairness import commitment, verify_record

GAMES = ["yukon", "eldorado", "eureka", "chinagold", "eurorails"]
SEED = 20260


@functools.cache
def played(name: str) -> tuple[GameRecord, tuple[int, ...], tuple[int, ...]]:
    """A record of random play, and the (1-based) steps that are chance and decisions."""
    game = motherlode.load(name)
    agents = [create("random", game, seed=i) for i in range(game.num_players)]
    record = play_game(game, agents, SEED).record
    state = game.new_initial_state()
    chance, decisions = [], []
    for i, text in enumerate(record.actions, start=1):
        (chance if state.is_chance_node() else decisions).append(i)
        state.apply_string(text)
    assert state.is_terminal()
    return record, tuple(chance), tuple(decisions)


def spread(steps: tuple[int, ...], k: int = 24) -> list[int]:
    """Up to ``k`` steps spread over the whole game, always the first and the last."""
    if len(steps) <= k:
        return list(steps)
    picks = {steps[round(j * (len(steps) - 1) / (k - 1))] for j in range(k)}
    return sorted(picks)


def states_before(record: GameRecord, steps: list[int]) -> dict[int, State]:
    """The state before each of ``steps``, from one re-play."""
    state = motherlode.load(record.game, **record.config).new_initial_state()
    out = {}
    for i, text in enumerate(record.actions, start=1):
        if i in steps:
            out[i] = state.clone()
        state.apply_string(text)
    return out


def forge(record: GameRecord, step: int, text: str) -> GameRecord:
    actions = list(record.actions)
    actions[step - 1] = text
    return dataclasses.replace(record, actions=actions)


def refused_at(record: GameRecord, step: int) -> str:
    result = verify_record(record, commitment(SEED))
    assert not result.ok, f"a forged step {step} verified"
    assert len(result.problems) == 1, result.problems
    problem = result.problems[0]
    assert problem.startswith(f"step {step} ") or problem.startswith(f"step {step}:"), problem
    assert "NOT verified" in result.summary()
    return problem


@pytest.mark.parametrize("name", GAMES)
def test_the_honest_record_verifies(name: str) -> None:
    record, chance, _ = played(name)
    result = verify_record(record, commitment(SEED))
    assert result.ok, result.problems
    assert result.commitment_ok is True
    assert result.chance_events == len(chance) and result.actions == len(record.actions)
    assert [i for i, _ in result.events] == list(chance)


@pytest.mark.parametrize("name", GAMES)
def test_every_forged_chance_outcome_is_refused_naming_its_step(name: str) -> None:
    record, chance, _ = played(name)
    forged = 0
    steps = spread(chance, 10 if name == "eurorails" else 24)
    for step, state in states_before(record, steps).items():
        drawn = state.string_to_action(record.actions[step - 1])
        others = [a for a, p in state.chance_outcomes() if a != drawn and p > 0]
        if not others:
            continue  # a forced outcome (the last card): nothing else to forge
        text = state.action_to_string(others[len(others) // 2])
        problem = refused_at(forge(record, step, text), step)
        assert "the seed draws" in problem and repr(record.actions[step - 1]) in problem
        forged += 1
    assert forged >= min(8, len(chance) // 2)


def illegal_here(state: State, candidates: list[str]) -> str | None:
    legal = set(state.legal_actions())
    for text in candidates:
        try:
            if state.string_to_action(text) not in legal:
                return text
        except MotherlodeError:
            return text
    return None


@pytest.mark.parametrize("name", GAMES)
def test_every_forged_decision_is_refused_naming_its_step(name: str) -> None:
    record, _, decisions = played(name)
    others = [record.actions[i - 1] for i in decisions]
    steps = spread(decisions, 10 if name == "eurorails" else 24)
    for step, state in states_before(record, steps).items():
        text = illegal_here(state, [*reversed(others), "no such move"])
        assert text is not None
        problem = refused_at(forge(record, step, text), step)
        assert "does not replay" in problem


@pytest.mark.parametrize("name", GAMES)
def test_forged_scores_seed_and_length_are_refused(name: str) -> None:
    record, chance, _ = played(name)
    assert record.scores is not None
    for seat in range(len(record.scores)):
        scores = list(record.scores)
        scores[seat] += 1
        result = verify_record(dataclasses.replace(record, scores=scores))
        assert not result.ok and "claims scores" in result.problems[0]
    # another seed: the first draw that differs is named
    other = verify_record(dataclasses.replace(record, seed=SEED + 1), commitment(SEED))
    assert not other.ok and other.commitment_ok is False
    assert any(p.startswith("step ") and "the seed draws" in p for p in other.problems)
    # cut short, the scores still claimed
    for cut in (1, len(record.actions) - chance[-1] + 1):
        short = dataclasses.replace(record, actions=record.actions[:-cut])
        result = verify_record(short)
        assert not result.ok and "the game is not over" in result.problems[0]
    # run on past the end
    longer = dataclasses.replace(record, actions=[*record.actions, record.actions[-1]])
    refused_at(longer, len(record.actions) + 1)
    # no seed, a seed that is not a number
    assert not verify_record(dataclasses.replace(record, seed=None)).ok
    assert "not an integer" in verify_record(dataclasses.replace(record, seed="x")).problems[0]

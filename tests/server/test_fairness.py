"""Provably fair randomness: seeds, commitments, and the re-play that checks every draw."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.records import GameRecord, replay
from motherlode.server.cli import verify
from motherlode.server.fairness import SEED_BITS, commitment, new_seed, verify_record


def _record(seed: int = 12345) -> GameRecord:
    game = motherlode.load("yukon")
    agents = [create("greedy", game, seed=1), create("random", game, seed=2)]
    return play_game(game, agents, seed).record


def test_seeds_come_from_the_os_and_commit_by_sha256() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(0 <= s < 2**SEED_BITS for s in seeds)
    assert commitment(7) == hashlib.sha256(b"7").hexdigest()


def test_a_record_played_by_the_arena_verifies_from_its_seed() -> None:
    rec = _record()
    result = verify_record(rec, commitment(12345))
    assert result.ok, result.problems
    assert result.chance_events >= 49 and result.actions == len(rec.actions)
    assert result.events[0][0] == 1 and result.events[0][1].startswith("deal ")
    assert "verified" in result.summary()


def test_a_changed_draw_a_wrong_seed_or_a_wrong_commitment_is_caught() -> None:
    rec = _record()
    state = motherlode.load("yukon").new_initial_state()
    first = state.string_to_action(rec.actions[0])
    other = next(a for a, _ in state.chance_outcomes() if a != first)
    forged = dataclasses.replace(rec, actions=[state.action_to_string(other), *rec.actions[1:]])
    bad = verify_record(forged)
    assert not bad.ok and "step 1" in bad.problems[0] and "the seed draws" in bad.problems[0]
    assert not verify_record(dataclasses.replace(rec, seed=54321)).ok
    wrong = verify_record(rec, commitment(1))
    assert not wrong.ok and wrong.commitment_ok is False
    assert not verify_record(dataclasses.replace(rec, seed=None)).ok
    assert "NOT verified" in wrong.summary()


def test_verify_command_reads_a_record_file(tmp_path: Path) -> None:
    path = _record().save(tmp_path / "game.json")
    assert verify(str(path), commitment(12345)).ok
    assert not verify(str(tmp_path / "missing.json")).ok
    # the same file replays with the core's `motherlode replay`
    assert replay(GameRecord.load(path)).is_terminal()

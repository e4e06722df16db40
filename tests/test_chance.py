"""Chance streams (core/chance.py): the server's HMAC-SHA256 stream is reproducible from
the seed, saves and restores exactly, and cannot be predicted from what it has drawn,
where Python's Mersenne Twister can (the attack the stream closes); records name their
stream and old records keep verifying with theirs."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import motherlode
from motherlode.core.chance import HmacSha256Stream, fork, make_stream
from motherlode.core.records import GameRecord
from motherlode.server.fairness import verify_record


def _untemper(y: int) -> int:
    """Invert MT19937's output tempering (a known, public inversion)."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    x = y
    for _ in range(5):  # the fixed point of x = y ^ ((x << 7) & mask)
        x = y ^ ((x << 7) & 0x9D2C5680)
    y = x & 0xFFFFFFFF
    x = y
    for _ in range(3):  # the fixed point of x = y ^ (x >> 11)
        x = y ^ (x >> 11)
    return x & 0xFFFFFFFF


def _predict_next(outputs: list[int]) -> int:
    """The next 32-bit output of a Mersenne Twister from its last 624 outputs."""
    clone = random.Random()
    clone.setstate((3, (*[_untemper(y) for y in outputs[-624:]], 624), None))
    return clone.getrandbits(32)


def test_the_mersenne_twister_is_predicted_from_624_draws_and_the_hmac_stream_is_not() -> None:
    mt = make_stream("mt19937", 12345)
    seen = [mt.getrandbits(32) for _ in range(624)]
    assert _predict_next(seen) == mt.getrandbits(32)  # the attack works on mt19937
    hm = make_stream("hmac-sha256", 12345)
    seen = [hm.getrandbits(32) for _ in range(624)]
    assert _predict_next(seen) != hm.getrandbits(32)  # and not on hmac-sha256


def test_the_hmac_stream_is_the_published_construction() -> None:
    import hashlib
    import hmac

    stream = make_stream("hmac-sha256", 7)
    for i in range(5):
        block = hmac.new(b"7", i.to_bytes(8, "big"), hashlib.sha256).digest()
        assert stream.random() == (int.from_bytes(block[:7], "big") >> 3) / 2**53


def test_state_forks_and_pickles_exactly() -> None:
    stream = make_stream("hmac-sha256", 99)
    [stream.random() for _ in range(10)]
    ahead = fork(stream)
    assert [ahead.random() for _ in range(5)] == [stream.random() for _ in range(5)]
    saved = stream.getstate()
    first = [stream.random() for _ in range(3)]
    stream.setstate(saved)
    assert [stream.random() for _ in range(3)] == first
    again = pickle.loads(pickle.dumps(stream))
    assert isinstance(again, HmacSha256Stream) and again.random() == stream.random()
    with pytest.raises(ValueError):
        stream.setstate(random.Random(1).getstate())


def test_draws_are_uniform_enough() -> None:
    stream = make_stream("hmac-sha256", 2026)
    xs = [stream.random() for _ in range(20_000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert abs(sum(xs) / len(xs) - 0.5) < 0.01  # 7 standard errors
    buckets = [0] * 10
    for x in xs:
        buckets[int(x * 10)] += 1
    assert all(1800 < b < 2200 for b in buckets)
    assert 0 <= stream.randrange(6) < 6 and stream.getrandbits(300) < 2**300


def test_an_unknown_stream_is_named() -> None:
    with pytest.raises(motherlode.RecordError, match="unknown chance stream 'xorshift'"):
        make_stream("xorshift", 1)


def _record(stream: str, seed: int = 5) -> GameRecord:
    game = motherlode.load("yukon", players=2)
    rng = make_stream(stream, seed)
    state = game.new_initial_state()
    texts = []
    while not state.is_terminal():
        action = (
            state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
        )
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return GameRecord(
        "yukon", game.config.model_dump(), ["human", "human"], seed, texts,
        [float(s) for s in state.scores()],
        versions={"rules": game.rules_version, "notation": 1, "chance": stream},
    )


@pytest.mark.parametrize("stream", ["mt19937", "hmac-sha256"])
def test_verify_re_derives_every_draw_with_the_records_stream(stream: str) -> None:
    record = _record(stream)
    assert verify_record(record).ok
    other = "hmac-sha256" if stream == "mt19937" else "mt19937"
    record.versions["chance"] = other  # the same draws claimed under the other stream
    result = verify_record(record)
    assert not result.ok and result.problems[0].startswith("step 1: the record says")


def test_a_record_written_before_streams_were_named_verifies_with_the_twister() -> None:
    record = _record("mt19937")
    raw = json.loads(record.to_json())
    raw.pop("versions")
    assert verify_record(GameRecord.from_json(json.dumps(raw))).ok

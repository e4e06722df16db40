"""Chance streams: how a game's chance outcomes are drawn from its seed (DESIGN.md §3).

Whoever drives a game draws each chance outcome with ``state.sample_chance(rng)``, in
order, from one stream made from the seed. A record names its stream
(``versions.chance``), so ``replay`` and ``verify`` re-derive every draw from the seed:

* ``mt19937``: Python's ``random.Random(seed)``, the stream of every record written
  before streams were named, and of local play, simulations and tournaments. Fast, but
  624 observed outputs determine all that follow: fine where nobody gains from predicting.
* ``hmac-sha256``: the web server's stream. Draw ``i`` is HMAC-SHA256 keyed by the seed's
  decimal digits over the 8-byte big-endian counter ``i``, its first 53 bits as a float in
  ``[0, 1)``. Without the seed, no run of observed outcomes predicts the next (that would
  break HMAC-SHA256 as a pseudo-random function), and the seed stays secret until the
  match ends (only its SHA-256 is published).

>>> a, b = make_stream("hmac-sha256", 42), make_stream("hmac-sha256", 42)
>>> [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
True
>>> round(make_stream("hmac-sha256", 42).random(), 6)
0.370541
>>> make_stream("mt19937", 42).random() == __import__("random").Random(42).random()
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

from motherlode.core.errors import RecordError

MT19937 = "mt19937"
HMAC_SHA256 = "hmac-sha256"
STREAMS = (MT19937, HMAC_SHA256)
"""Every stream a record may name."""


class HmacSha256Stream(random.Random):
    """A ``random.Random`` whose floats come from HMAC-SHA256 in counter mode (see above).

    Only :meth:`random` and :meth:`getrandbits` draw; both advance one counter, so a
    stream's state is its counter and :meth:`getstate` / :meth:`setstate` save and restore
    it exactly (the server keeps a match's stream between moves that way).
    """

    def __init__(self, seed: int = 0) -> None:
        self._key = b""
        self._counter = 0
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if a is None or isinstance(a, bool) or not isinstance(a, int):
            raise TypeError("an hmac-sha256 stream is seeded by an integer")
        self._key = str(int(a)).encode()
        self._counter = 0

    def _block(self) -> bytes:
        digest = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
        self._counter += 1
        return digest

    def random(self) -> float:
        return (int.from_bytes(self._block()[:7], "big") >> 3) * 2.0**-53

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, have = 0, 0
        while have < k:
            out = (out << 256) | int.from_bytes(self._block(), "big")
            have += 256
        return out >> (have - k)

    def getstate(self) -> tuple[Any, ...]:
        return (HMAC_SHA256, self._key, self._counter)

    def setstate(self, state: tuple[Any, ...]) -> None:
        kind, key, counter = state
        if kind != HMAC_SHA256:
            raise ValueError(f"not an {HMAC_SHA256} stream's state: {kind!r}")
        self._key, self._counter = key, counter

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.getstate(),))


def _restore(state: tuple[Any, ...]) -> HmacSha256Stream:
    stream = HmacSha256Stream(0)
    stream.setstate(state)
    return stream


def make_stream(name: str, seed: int) -> random.Random:
    """The stream ``name`` seeded by ``seed``; an unknown name raises :class:`RecordError`."""
    if name == MT19937:
        return random.Random(seed)
    if name == HMAC_SHA256:
        return HmacSha256Stream(seed)
    raise RecordError(f"unknown chance stream {name!r}; the streams are {', '.join(STREAMS)}")


def fork(stream: random.Random) -> random.Random:
    """An independent copy of ``stream`` at its current state (to draw ahead on)."""
    copy = HmacSha256Stream(0) if isinstance(stream, HmacSha256Stream) else random.Random()
    copy.setstate(stream.getstate())
    return copy

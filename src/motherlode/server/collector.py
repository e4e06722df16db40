"""The garbage collection of a server process (``create_app(tune_gc=True)``, what
``motherlode serve`` runs).

CPython's collector runs on its own whenever allocations outgrow deallocations by a
threshold, and each run walks every young object still alive, on the event loop. With
1,000 matches held (about 400 MB) most of those are the matches' current positions and
pushes, alive for a second or more: at a threshold of 50,000 the runs took 60-250 ms
about every second, and every move that arrived meanwhile waited (the round trip's p99 at
1,000 matches and 1 s think: 470 ms with the collector on, 57 ms with it off;
docs/server.md). A pass every 5 s over what was made since the last one took 260 ms.
The server makes little cyclic garbage (70 to 1,500 objects in 12 s at that load:
its requests' exceptions and the like; everything else is freed by reference counting
as it goes), so it collects on its own schedule:

* at start-up, what was loaded (game data, maps, the app) is frozen out of the
  collector's reach (``gc.freeze``) and the automatic collection is turned off;
* every :data:`FULL_EVERY` seconds, one whole collection (0.3-0.8 s at that load), its
  survivors frozen; logged with what it took and freed.

>>> import gc
>>> policy = Collector()
>>> policy.start()
>>> gc.isenabled()
False
>>> class Node:
...     pass
>>> a, b = Node(), Node()
>>> a.other, b.other = b, a  # a cycle, garbage once the names go
>>> del a, b
>>> policy.full() >= 2
True
>>> policy.stop()
>>> gc.isenabled()
True
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("motherlode.server")

FULL_EVERY = 3600.0
"""Seconds between whole collections."""


class Collector:
    """The server's collection schedule (module docstring): :meth:`start`, then
    :meth:`run` as a task of the event loop; :meth:`stop` gives the collector back."""

    def __init__(self, full_every: float = FULL_EVERY) -> None:
        self.full_every = full_every
        self.passes = 0
        self.seconds = 0.0
        """Seconds spent in whole collections so far."""

    def start(self) -> None:
        """Freeze what is loaded now and turn the automatic collection off."""
        gc.collect()
        gc.freeze()
        gc.disable()

    def stop(self) -> None:
        """Everything back in the collector's reach, the automatic collection on."""
        gc.unfreeze()
        gc.enable()

    def full(self) -> int:
        """A whole collection (frozen objects included), the survivors frozen again;
        how many objects it freed."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        took = time.perf_counter() - started
        self.passes += 1
        self.seconds += took
        log.info("gc: a whole collection freed %d object(s) in %.1f ms", freed, took * 1000)
        return freed

    async def run(self) -> None:
        """The schedule, until cancelled."""
        while True:
            await asyncio.sleep(self.full_every)
            self.full()

"""The server's garbage collection schedule (server/collector.py): the automatic collector
off, what start-up loaded frozen, and whole collections on the server's schedule that free
the cycles made since, frozen ones included; a server app (``tune_gc``) runs it and gives
the collector back when it stops."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from motherlode.server.app import create_app
from motherlode.server.collector import Collector


class _Node:
    other: object


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gc.unfreeze()
    if was:
        gc.enable()


def test_the_collector_is_off_and_a_whole_collection_frees_cycles_frozen_or_not(
    restored: None,
) -> None:
    policy = Collector(full_every=3600)
    before = _cycle()
    policy.start()
    assert not gc.isenabled() and before() is None  # collected, then the rest frozen
    young = _cycle()
    churn = [[i] for i in range(200_000)]  # past any threshold: nothing runs on its own
    del churn
    assert young() is not None
    frozen_with = _Node()
    frozen_with.other = frozen_with
    held = weakref.ref(frozen_with)
    gc.freeze()  # as a collection freezes its survivors; garbage only now
    del frozen_with
    gc.collect()  # a collection of the collector's own does not reach frozen objects
    assert held() is not None
    assert policy.full() >= 2
    assert held() is None and young() is None
    assert policy.passes == 1 and policy.seconds > 0
    assert gc.get_freeze_count() > 0  # the survivors frozen again
    policy.stop()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_tuned_server_runs_the_schedule_and_gives_the_collector_back(
    tmp_path: Path, restored: None
) -> None:
    app = create_app(str(tmp_path / "gc.db"), tune_gc=True)
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0

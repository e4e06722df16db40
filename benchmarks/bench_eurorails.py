"""Eurorails content benchmark: how fast the map and decks load and the routes compute.

The rules engine (and with it random playouts, games/s and decisions/s) is a later issue;
this measures what the content layer costs the engine: ``python benchmarks/bench_eurorails.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from motherlode.games.eurorails import content as content_mod
from motherlode.games.eurorails import mapdata
from motherlode.games.eurorails.content import ContentConfig, load_content
from motherlode.games.eurorails.render import map_svg


def timed(label: str, fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    print(f"{label:<46} {per * 1000:9.2f} ms")
    return per


def main() -> None:
    path = mapdata.DATA / "map.json"
    timed("load + check map.json (uncached)", lambda: mapdata._load_map(path), 10)
    timed(
        "load + check loads and decks (map cached)",
        lambda: content_mod._load_content(ContentConfig()),
        5,
    )
    m = load_content().map

    def table() -> None:
        mapdata._load_map(path).distance_table()  # a fresh map: its chart is not cached yet

    timed("load map + 60 x 60 city distance chart", table, 3)
    rng = random.Random(0)
    sources = [rng.randrange(len(m)) for _ in range(200)]
    per = timed(
        "one-source shortest routes (bucket queue)", lambda: m.distances_from(sources.pop()), 200
    )
    print(f"{'  = routes/s':<46} {1 / per:9.0f}")
    timed("render the map as SVG", lambda: map_svg(m), 3)


if __name__ == "__main__":
    main()

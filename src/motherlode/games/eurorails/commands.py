"""The Eurorails content commands behind the CLI.

``motherlode map eurorails [--distances] [--json] [--svg F] [--png F]`` calls
:func:`map_command`; ``motherlode cards eurorails [--json]`` calls :func:`cards_command`.
Both return the text to print; :func:`show_map` and :func:`show_cards` print it, and are
the game's CLI commands (``EurorailsGame.commands()``, wired by the package).

>>> print(map_command(False, False, None, None).splitlines()[0])
Eurorails map: 2084 mileposts, 43 km apart
>>> cards_command(False).splitlines()[0]
'Demand cards (146): number, then three demands: city, load, payment (million)'
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from motherlode.games.eurorails.content import load_content
from motherlode.games.eurorails.mapdata import EuroMap, load_map
from motherlode.games.eurorails.mapdraw import map_svg, write_png


def _abbrev(name: str) -> str:
    return name[:4]


def distance_chart(m: EuroMap | None = None) -> tuple[list[str], list[list[int]]]:
    """The cities in alphabetical order and the milepost distance between every two."""
    m = m or load_map()
    table = m.distance_table()
    names = [c.name for c in m.cities]
    order = sorted(range(len(names)), key=lambda i: names[i].casefold())
    return [names[i] for i in order], [[table[i][j] for j in order] for i in order]


def distance_text(m: EuroMap | None = None) -> str:
    """The distance chart as an aligned table (columns headed by 4-letter abbreviations)."""
    names, rows = distance_chart(m)
    width = max(len(n) for n in names)
    head = " " * width + "".join(f"{_abbrev(n):>5}" for n in names)
    lines = [
        "Shortest track route in mileposts between city centres (a ferry counts as its"
        " crossing; see docs/rules/eurorails.md)",
        head,
    ]
    for name, row in zip(names, rows, strict=True):
        lines.append(f"{name:<{width}}" + "".join(f"{d:>5}" for d in row))
    return "\n".join(lines)


def map_summary(m: EuroMap) -> dict[str, Any]:
    """Counts a player (or a test) checks the map by."""
    kinds = Counter(kind for a, b, f in m.edges if f for kind in [m.features[f - 1][0]])
    names = {
        ".": "clear",
        "m": "mountain",
        "a": "alpine",
        "p": "ferry port",
        "S": "small city",
        "M": "medium city",
        "C": "major city centre",
        "o": "major city outpost",
    }
    terrain = Counter(m.terrain)
    return {
        "mileposts": len(m),
        "spacing_km": m.spacing_km,
        "terrain": {names[k]: terrain.get(k, 0) for k in names},
        "edges": len(m.edges),
        "crossings": {k: kinds.get(k, 0) for k in ("river", "lake", "inlet")},
        "cities": Counter(c.size for c in m.cities),
        "ferries": [
            {"name": f.name, "cost_first": f.cost["first"], "cost_second": f.cost["second"]}
            for f in m.ferries
        ],
        "chunnel": {"ends": list(m.chunnel.end_names), "cost": m.chunnel.cost},
        "seas": list(m.seas),
    }


def map_command(distances: bool, as_json: bool, svg: Path | None, png: Path | None) -> str:
    """``motherlode map eurorails``: the distance chart or a summary; writes SVG/PNG."""
    m = load_map()
    out: list[str] = []
    if svg is not None:
        Path(svg).write_text(map_svg(m), encoding="utf-8")
    if png is not None:
        write_png(png, m)
    if distances:
        if as_json:
            names, rows = distance_chart(m)
            out.append(
                json.dumps(
                    {"unit": "mileposts", "cities": names, "distances": rows}, ensure_ascii=False
                )
            )
        else:
            out.append(distance_text(m))
    elif as_json:
        out.append(json.dumps(map_summary(m), ensure_ascii=False))
    else:
        s = map_summary(m)
        t = s["terrain"]
        out.append(f"Eurorails map: {s['mileposts']} mileposts, {s['spacing_km']:g} km apart")
        out.append("  terrain: " + ", ".join(f"{v} {k}" for k, v in t.items()))
        out.append(
            f"  {s['edges']} track edges; crossings: "
            + ", ".join(f"{v} {k}" for k, v in s["crossings"].items())
        )
        out.append("  cities: " + ", ".join(f"{v} {k}" for k, v in s["cities"].items()))
        out.append(
            "  ferries (first/second printing): "
            + "; ".join(f"{f['name']} {f['cost_first']}/{f['cost_second']}" for f in s["ferries"])
        )
        out.append(f"  Chunnel: {' - '.join(s['chunnel']['ends'])}, {s['chunnel']['cost']}")
        out.append("  seas: " + ", ".join(s["seas"]))
    for label, path in (("SVG", svg), ("PNG", png)):
        if path is not None:
            out.append(f"wrote {label} map to {path}")
    return "\n".join(out)


def cards_command(as_json: bool) -> str:
    """``motherlode cards eurorails``: the demand deck (1–146) and event deck (147–168)."""
    content = load_content()
    if as_json:
        return json.dumps(
            {
                "demand_cards": [c.model_dump() for c in content.demands],
                "event_cards": [e.model_dump(exclude_none=True) for e in content.events],
            },
            ensure_ascii=False,
        )
    n = len(content.demands)
    lines = [f"Demand cards ({n}): number, then three demands: city, load, payment (million)"]
    for card in content.demands:
        parts = [f"{d.city} {d.load} {d.payment}" for d in card.demands]
        lines.append(f"{card.number:>4}  " + " | ".join(f"{p:<28}" for p in parts).rstrip())
    lines.append("")
    lines.append(f"Event cards ({len(content.events)})")
    for e in content.events:
        lines.append(f"{e.number:>4}  {e.title}: {e.text}")
    return "\n".join(lines)


def show_map(distances: bool, as_json: bool, svg: Path | None, png: Path | None) -> None:
    """The ``map`` command: prints :func:`map_command`."""
    print(map_command(distances, as_json, svg, png))


def show_cards(as_json: bool) -> None:
    """The ``cards`` command: prints :func:`cards_command`."""
    print(cards_command(as_json))

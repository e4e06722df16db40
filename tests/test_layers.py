"""DESIGN.md §3b's layered boards: the contract every game's ``svg_layers`` keeps.

A game that draws its board as layers must compose to exactly its ``render_svg``; its
static layer must depend on the config alone, its public layer on the state alone (not
the viewer), and everything clickable must sit in the seat layer. A game without layers
gets the single-seat-element fallback, which is trivially correct.
"""

from __future__ import annotations

import random
import re

import pytest

import motherlode
from motherlode.core.svg import Layers, shared

_ID = re.compile(r'^<[a-zA-Z]+\b[^>]*\sid="([^"]+)"')


def _cases() -> list[tuple[str, dict[str, object]]]:
    """Every config variant each game's conformance suite runs."""
    from motherlode.games import registry

    return [(name, cfg) for name, cls in registry().items() for cfg in cls.conformance_configs()]


CASES = _cases()


def _positions(name: str, options: dict[str, object], count: int = 4) -> list[motherlode.State]:
    """``count`` positions spread along one seeded random game."""
    rng = random.Random(7)
    state = motherlode.deal(motherlode.load(name, **options), seed=3)
    picked = [state.clone()]
    steps = 0
    while not state.is_terminal() and len(picked) < count and steps < 400:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if steps % 40 == 0:
            picked.append(state.clone())
    return picked


def _check_elements(layers: Layers) -> None:
    ids = [i for i, _ in layers.public] + [i for i, _ in layers.seat]
    assert len(ids) == len(set(ids)), "element ids repeat"
    for element_id, markup in layers.public + layers.seat:
        if layers.static == "" and element_id == "board":
            continue  # the single-element fallback wraps a whole document
        found = _ID.match(markup)
        assert found and found.group(1) == element_id, (element_id, markup[:80])
    assert "data-action" not in layers.static
    assert all("data-action" not in markup for _, markup in layers.public)


@pytest.mark.parametrize(("name", "options"), CASES, ids=lambda c: str(c))
def test_layers_compose_to_the_board_and_split_by_what_changes(
    name: str, options: dict[str, object]
) -> None:
    states = _positions(name, options)
    seats: list[int | None] = [None, *range(states[0].game.num_players)]
    statics = set()
    for state in states:
        publics = set()
        for seat in seats:
            layers = state.render_layers(seat)
            _check_elements(layers)
            if state.renderer is not None and state.renderer.svg_layers is not None:
                assert layers.compose() == state.render_svg(seat)
                statics.add(layers.static)
                publics.add(layers.public)
        assert len(publics) <= 1, "the public layer differs between viewers"
    assert len(statics) <= 1, "the static layer changes within a match"


@pytest.mark.parametrize(("name", "options"), CASES, ids=lambda c: str(c))
def test_what_a_renderer_draws_once_for_every_viewer_is_the_same_for_each(
    name: str, options: dict[str, object]
) -> None:
    """The server shares a renderer's ``svg.once`` parts (its public layer) between the
    viewers of one position: drawn in either order, every viewer's layers are the ones it
    gets drawn alone."""
    for state in _positions(name, options, count=3):
        seats: list[int | None] = [None, *range(state.game.num_players)]
        alone = [state.render_layers(seat) for seat in seats]
        for order in (seats, seats[::-1]):
            with shared({}):
                together = {seat: state.render_layers(seat) for seat in order}
            assert [together[seat] for seat in seats] == alone

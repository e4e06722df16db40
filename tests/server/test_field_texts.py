"""The fields a frame holds as texts (runtime.field_texts: some written once per revision
for every viewer, a seat's view written as the spectator's but its ``seat``) are, for every
viewer of every game along a game, the fields' JSON: what ``push.dumps`` writes of each,
and for the view (whose ``seat`` is written first) the same JSON value as its own."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

import motherlode
from motherlode.server.db import make_engine, migrate
from motherlode.server.push import dumps
from motherlode.server.service import MatchService, SeatRequest

STEPS = 40


@pytest.mark.parametrize("name", ["yukon", "eureka", "chinagold", "eldorado", "eurorails"])
def test_every_viewers_field_texts_are_its_fields_json(name: str, tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "texts.db"))
    migrate(engine)
    service = MatchService(engine)
    players = motherlode.load(name).num_players
    mid = service.create_match(name, {}, [SeatRequest()] * players).id
    rng = random.Random(7)

    async def play() -> int:
        checked = 0
        for _ in range(STEPS):
            rt = service.runtime(mid)
            for seat in [*range(players), None]:
                texts = rt.field_texts(seat)
                fields = rt.fields(seat)
                assert list(texts) == list(fields)
                for key, value in fields.items():
                    expected = json.loads(json.dumps(value, default=str))
                    assert json.loads(texts[key]) == expected, (seat, key)
                    if key != "view":
                        assert texts[key] == dumps(value), (seat, key)
                checked += 1
            to_move = rt.state.current_player()
            if rt.finished or to_move < 0:
                break
            await service.move(mid, to_move, rng.choice(rt.state.legal_actions()), rt.version)
        return checked

    checked = asyncio.run(play())
    assert checked >= 2 * (players + 1)

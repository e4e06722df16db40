"""Helpers for the Eureka tests: exact positions built through the position notation."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from motherlode.core.hex import neighbours
from motherlode.games.eureka.board import HOUSE, WATER
from motherlode.games.eureka.game import CHIP_NAMES, EurekaGame, EurekaState


def game(**config: Any) -> EurekaGame:
    """The game with ``config`` (built directly, so other games' packages are not imported)."""
    config.setdefault("players", 3)
    return EurekaGame.from_config(**config)


def setup(
    players: int = 3,
    *,
    turn: int = 0,
    actor: int | None = None,
    phase: str = "turn",
    die: int = 0,
    loco: int = 0,
    turns: int = 0,
    duel: str = "-",
    miners: dict[int, str] | None = None,
    rafts: list[str] | None = None,
    revealed: Iterable[str] = (),
    cleared: Iterable[str] = (),
    keep: Iterable[str] = (),
    robbers: str = "-",
    **config: Any,
) -> EurekaState:
    """A position: miners ``{seat: "hex:gold:robbers:housegold:houserobbers"}`` (others at
    home), ``revealed`` chips (taken out of the bag; as many holes are emptied: ``cleared``
    first, then holes from the end of the board's list, never those in ``keep``)."""
    g = game(players=players, **config)
    board = g.board
    names = board.names
    ms = [f"{names[board.houses[i]]}:0:0:0:0" for i in range(players)]
    for seat, text in (miners or {}).items():
        ms[seat] = text
    bag = list(g.mix.kinds)
    for chip in revealed:
        bag[CHIP_NAMES.index(chip)] -= 1
    down = set(board.holes)
    for name in cleared:
        down.discard(board.index[name])
    if robbers != "-":
        for item in robbers.split(","):
            down.discard(board.index[item.split(":")[0]])
    kept = {board.index[k] for k in keep}
    need = len(down) - sum(bag)
    for h in reversed(board.holes):
        if need <= 0:
            break
        if h in down and h not in kept:
            down.discard(h)
            need -= 1
    mask = sum(1 << i for i, h in enumerate(board.holes) if h in down)
    width = (len(board.holes) + 3) // 4
    raft_names = rafts or [names[r] for lake in board.lakes for r in lake.rafts]
    text = (
        f"eureka/1 players={players} turn={turn} actor={turn if actor is None else actor}"
        f" phase={phase} die={die} loco={loco} turns={turns} duel={duel}"
        f" miners={','.join(ms)} rafts={','.join(raft_names)} chips={mask:0{width}x}"
        f" robbers={robbers} bag={'.'.join(map(str, bag))}"
    )
    return g.deserialize(text)


def actions(state: EurekaState) -> list[str]:
    """The legal actions (or chance outcomes) of ``state`` as strings."""
    if state.is_chance_node():
        return [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    return [state.action_to_string(a) for a in state.legal_actions()]


def moves(state: EurekaState) -> set[str]:
    """The destination hexes offered (``move X``)."""
    return {s.split()[1] for s in actions(state) if s.startswith("move ")}


def play(state: EurekaState, *steps: str) -> EurekaState:
    for s in steps:
        state.apply_string(s)
    return state


def brute_destinations(state: EurekaState, seat: int, steps: int) -> set[int]:
    """Every end of every path, enumerated the slow way from the board's raw geometry."""
    board = state.game.board
    pos = {h: i for i, h in enumerate(board.hexes)}
    loco = board.track[state.loco]
    own = board.houses[seat]
    doors = {h: set(d) for h, d in zip(board.houses, board.doors, strict=True)}
    out: set[int] = set()

    def step_ok(cur: int, nxt: int, last: bool) -> bool:
        k = board.kind[nxt]
        if k == WATER or nxt == loco:
            return False
        if board.kind[cur] == HOUSE and nxt not in doors[cur]:
            return False
        if k == HOUSE:
            return last and nxt == own and cur in doors[nxt]
        if last and nxt in state.rafts:  # a raft moored here: free, or the mover's own
            return all(p != nxt for i, p in enumerate(state.pos) if i != seat)
        return True

    def rec(cur: int, prev: int, left: int) -> None:
        if left == 0:
            out.add(cur)
            return
        for n in neighbours(board.hexes[cur]):
            j = pos.get(n)
            if j is None or j == prev or not step_ok(cur, j, left == 1):
                continue
            rec(j, cur, left - 1)

    rec(state.pos[seat], -1, steps)
    return out


def random_position(seed: int, players: int = 3, **config: Any) -> EurekaState:
    """A position reached by a seeded random playout, stopped part-way."""
    rng = random.Random(seed)
    state = game(players=players, **config).new_initial_state()
    for _ in range(rng.randrange(0, 400)):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    return state

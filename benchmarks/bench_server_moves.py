"""The server's CPU a move without sockets: the match service moving many matches at once.

    python benchmarks/bench_server_moves.py [--game yukon] [--matches 200] [--json]
        [--compare REF [--rounds 5]]

Makes ``--matches`` matches of two people (SQLite in a temporary folder), subscribes a
watcher per seat whose "socket" only counts what it is sent, then plays every match to its
end with random legal moves, one move per match in turn, letting the event loop go round
between turns as a server's would: each move is planned, written, and pushed (drawn,
encoded, diffed) to both seats. It prints the process's CPU milliseconds a move over that
play. Without uvicorn, the sockets and a load client it is steadier than
``bench_server_load.py`` (which measures the whole server beside boardgame.io), so it is
the one to compare two revisions of the server's own work with: ``--compare REF`` runs
``REF``'s code and this checkout's in turn, ``--rounds`` times each, and prints both
medians and their ratio. As the server does, the garbage collector is frozen and off
during the play (server/collector.py).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


async def play(game: str, matches: int, seed: int) -> dict[str, Any]:
    from motherlode.server.db import make_engine, migrate
    from motherlode.server.service import MatchService, SeatRequest, Subscriber

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(str(Path(folder) / "moves.db"))
        migrate(engine)
        service = MatchService(engine)
        sent = [0]

        async def count(text: str) -> None:
            sent[0] += 1

        ids = [
            service.create_match(game, {}, [SeatRequest(), SeatRequest()], claim=None).id
            for _ in range(matches)
        ]
        writers = []
        for match_id in ids:
            for seat in (0, 1):
                sub = Subscriber(seat, count)
                writers.append(asyncio.create_task(sub.writer()))
                service.subscribe(match_id, sub)
        await asyncio.sleep(0.1)  # the first snapshots
        gc.collect()
        gc.freeze()
        gc.disable()
        rng = random.Random(seed)
        moves, pushes = 0, sent[0]
        started = time.process_time()
        live = list(ids)
        while live:
            for match_id in list(live):
                rt = service.runtime(match_id)
                if rt.finished:
                    live.remove(match_id)
                    continue
                seat = rt.state.current_player()
                action = rng.choice(rt.state.legal_actions())
                await service.move(match_id, seat, action, rt.version)
                moves += 1
            await asyncio.sleep(0)  # the writers send (and a settled push is drawn)
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        cpu = time.process_time() - started
        gc.enable()
        for task in writers:
            task.cancel()
        await service.close()
        engine.dispose()
    return {
        "game": game,
        "matches": matches,
        "moves": moves,
        "pushes_per_move": round((sent[0] - pushes) / moves, 2),
        "ms_per_move": round(cpu / moves * 1000, 4),
    }


def compare(ref: str, args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from compare import ROOT, checkout, ratio, run_json

    old_src = checkout(ref)
    script = Path(__file__).resolve()
    flags = ["--game", args.game, "--matches", str(args.matches), "--seed", str(args.seed)]
    new: list[float] = []
    old: list[float] = []
    for _ in range(args.rounds):  # in turn: a machine that gets busier affects both alike
        old.append(run_json(old_src, script, flags)[0]["ms_per_move"])
        new.append(run_json(ROOT / "src", script, flags)[0]["ms_per_move"])
    a, b = statistics.median(new), statistics.median(old)
    print(f"{args.game}, {args.matches} matches, {args.rounds} rounds in turn (ms a move)")
    print(f"this checkout: median {a:.3f}  ({', '.join(f'{x:.3f}' for x in sorted(new))})")
    print(f"{ref}: median {b:.3f}  ({', '.join(f'{x:.3f}' for x in sorted(old))})")
    print(f"speed-up: {ratio(b, a)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yukon")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the row as JSON")
    parser.add_argument("--compare", metavar="REF", help="also run git revision REF's code")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each with --compare")
    args = parser.parse_args()
    if args.matches < 1 or args.rounds < 1:
        parser.error("--matches and --rounds are at least 1")
    if args.compare:
        compare(args.compare, args)
        return
    row = asyncio.run(play(args.game, args.matches, args.seed))
    if args.json:
        print(json.dumps([row]))
        return
    print(
        f"{row['game']}: {row['moves']} moves over {row['matches']} matches,"
        f" {row['pushes_per_move']} pushes a move, {row['ms_per_move']:.3f} ms of CPU a move"
    )


if __name__ == "__main__":
    main()

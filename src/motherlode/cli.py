"""The ``motherlode`` command (typer): games, play, simulate, arena, analyse, replay, render.

Game options are passed as ``--key value`` (``--players 3``, ``--map 2``) or as flags
(``--expansion``, ``--no-expansion``); they are validated by the game's config model, and
a bad one is reported in a sentence, never a traceback.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import motherlode
from motherlode.core.errors import MotherlodeError, NotationError
from motherlode.core.records import GameRecord

app = typer.Typer(
    name="motherlode",
    help="Play, simulate and study five gold-rush board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


def fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def parse_game_options(args: list[str]) -> dict[str, Any]:
    """``['--players', '3', '--expansion']`` -> ``{'players': '3', 'expansion': True}``."""
    options: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) < 3:
            raise MotherlodeError(
                f"unexpected argument {arg!r}; game options look like --players 3"
            )
        key = arg[2:].replace("-", "_")
        if "=" in key:
            key, value = key.split("=", 1)
            options[key] = value
            i += 1
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            options[key] = args[i + 1]
            i += 2
        elif key.startswith("no_"):
            options[key[3:]] = False
            i += 1
        else:
            options[key] = True
            i += 1
    return options


def load_game(name: str, extra: list[str], players: int | None = None) -> motherlode.Game:
    options = parse_game_options(extra)
    if players is not None:
        options["players"] = players
    for key, value in list(options.items()):
        if isinstance(value, str) and "," in value:
            options[key] = [v.strip() for v in value.split(",")]
    return motherlode.load(name, **options)


def run(fn: Any) -> Any:
    """Run ``fn`` and turn a motherlode error into a clean message and exit code 2."""
    try:
        return fn()
    except MotherlodeError as err:
        raise fail(str(err)) from None


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List each game, its player counts and its config options."""
    from motherlode.games import registry

    rows: list[dict[str, Any]] = []
    for name, cls in registry().items():
        rows.append(
            {
                "game": name,
                "players": f"{cls.min_players}-{cls.max_players}",
                "options": [
                    {"option": k, "default": d, "description": h} for k, d, h in cls.option_help()
                ],
            }
        )
    if as_json:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title="motherlode games")
    table.add_column("game", style="bold")
    table.add_column("players")
    table.add_column("options (default): description")
    for row in rows:
        opts = "\n".join(
            f"--{o['option'].replace('_', '-')} ({o['default']}): {o['description']}"
            for o in row["options"]
        )
        table.add_row(row["game"], row["players"], opts)
    console.print(table)


def _resumed(
    resume: Path, game_name: str | None, seat: list[str] | None
) -> tuple[GameRecord, motherlode.Game, list[str], int]:
    """A saved game to continue: its record, game, seats (or those given) and seed."""
    saved: GameRecord = run(lambda: GameRecord.load(resume))
    if game_name is not None and game_name != saved.game:
        raise fail(f"--resume {resume} is a game of {saved.game}, not of {game_name}")
    if saved.scores is not None:
        raise fail(f"--resume {resume}: that game is over (replay it with motherlode replay)")
    if saved.seed is None:
        raise fail(f"--resume {resume}: the saved game has no seed")
    game = run(lambda: motherlode.load(saved.game, **saved.config))
    return saved, game, seat or list(saved.players), int(saved.seed)


def _new_game(
    ctx: typer.Context, game_name: str | None, seat: list[str] | None, players: int | None,
    seed: int | None,
) -> tuple[motherlode.Game, list[str], int]:
    """A new game from the command line: the game, its seats, its seed."""
    if game_name is None:
        raise fail("name a game (motherlode play yukon) or --resume a saved one")
    seats = seat or []
    if players is None and seats:
        players = len(seats)
    game = run(lambda: load_game(game_name, ctx.args, players))
    if not seats:
        seats = ["human"] + ["greedy" if "greedy" in game.bots() else "random"] * (
            game.num_players - 1
        )
    return game, seats, seed if seed is not None else int(time.time()) % 1_000_000


def check_writable(path: Path, option: str) -> None:
    """Refuse, before a game starts, an output path that cannot be written."""
    if path.is_dir():
        raise fail(f"{option} {path}: is a directory; give a file name")
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise fail(f"{option} {path}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise fail(f"{option} {path}: not writable")


@app.command("play", context_settings=GAME_OPTIONS)
def play_command(
    ctx: typer.Context,
    game_name: Annotated[
        str | None, typer.Argument(metavar="GAME", help="Which game (not with --resume).")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat", help="Agent spec per seat, in seat order (human, random, greedy ...)."
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: seats given).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for dice, cards and deals.")] = None,
    record: Annotated[Path | None, typer.Option(help="Where to save the game record.")] = None,
    svg: Annotated[
        Path | None, typer.Option(help="Write the board as SVG after every move.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a saved game (from 'save', 'quit' or Ctrl-C)."),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the result (bots only).")] = False,
) -> None:
    """Play a whole game in the terminal; people pick from numbered moves or type them.

    At a person's turn: a number, a move's notation, or help, rules, hint, undo, board,
    log, list, save, quit. Ctrl-C and Ctrl-D save the game; --resume FILE continues it.
    """
    from motherlode.agents import create
    from motherlode.cli_human import HumanAgent, Quit, TerminalGame, enable_line_editing

    saved: GameRecord | None = None
    if resume is not None:
        saved, game, seats, seed = _resumed(resume, game_name, seat)
    else:
        game, seats, seed = _new_game(ctx, game_name, seat, players, seed)
    if len(seats) != game.num_players:
        raise fail(
            f"{game.num_players} players need {game.num_players} --seat options, got {len(seats)}"
        )
    path = record or resume or (
        Path("records") / f"{game.name}-{_dt.datetime.now():%Y%m%d-%H%M%S}-{seed}.json"
    )
    check_writable(path, "--record")
    if svg is not None:
        check_writable(svg, "--svg")
    agents = []
    for i, spec in enumerate(seats):
        if spec.strip().lower() == "human":
            agents.append(HumanAgent(seat=i))
        else:
            agents.append(
                run(lambda spec=spec, i=i: create(spec, game, seed=seed + 1000 * i, allowed=True))
            )
    if any(isinstance(a, HumanAgent) for a in agents):
        enable_line_editing()
    session = TerminalGame(
        console, game, seats, agents, seed, save_to=path, svg=svg, quiet=quiet
    )
    if saved is not None:
        run(lambda: session.resume(saved.actions))
    try:
        session.play()
    except Quit:
        if session.save(path) is None:
            raise typer.Exit(1) from None
        raise typer.Exit(0) from None
    except KeyboardInterrupt:  # during a bot's move
        console.print()
        if session.save(path) is None:
            raise typer.Exit(1) from None
        raise typer.Exit(0) from None
    session.show_end()
    session.record().save(path)
    console.print(f"record saved to {path}")


@app.command("simulate", context_settings=GAME_OPTIONS)
def simulate_command(
    ctx: typer.Context,
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    agents: Annotated[
        str, typer.Option(help="Agent specs, one per seat: random,greedy or mcts:seconds=1;greedy.")
    ] = "random",
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed+i).")] = 0,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: agents given).")
    ] = None,
    rotate: Annotated[
        bool, typer.Option(help="Rotate the agents round the seats game by game.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    records: Annotated[
        Path | None,
        typer.Option(help="Write every game's record (JSON, replayable) into this folder."),
    ] = None,
) -> None:
    """Play many games between agents; print wins, scores, lengths and games/s."""
    from motherlode.agents import split_specs
    from motherlode.arena.simulate import simulate

    specs = split_specs(agents)
    if players is None:
        players = len(specs) if len(specs) > 1 else None
    game = run(lambda: load_game(game_name, ctx.args, players))
    if len(specs) == 1:
        specs = specs * game.num_players
    if len(specs) != game.num_players:
        raise fail(
            f"{game.num_players} players need {game.num_players} agent specs, got {len(specs)}"
        )
    summary = run(
        lambda: simulate(
            game, specs, games, seed, rotate=rotate, progress=not as_json, records=records
        )
    )
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    table = Table(title=f"{game_name}: {games} games, {summary['games_per_second']:.1f} games/s")
    for col in ("agent", "wins", "win share", "mean score"):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for row in summary["agents"]:
        table.add_row(
            row["agent"], f"{row['wins']:g}", f"{row['win_share']:.3f}", f"{row['mean_score']:.2f}"
        )
    console.print(table)
    console.print(
        f"length: mean {summary['length']['mean']:.1f} decisions (min {summary['length']['min']},"
        f" max {summary['length']['max']}); shared victories: {summary['shared']};"
        f" {summary['decisions_per_second']:.0f} decisions/s"
    )


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every step.")] = False,
    svg: Annotated[Path | None, typer.Option(help="Write the final board as SVG.")] = None,
) -> None:
    """Re-play a game record, verify every step and the final scores, show the final board."""
    from motherlode.core.records import GameRecord, replay

    rec = run(lambda: GameRecord.load(path))
    state = run(lambda: replay(rec))
    if verbose:
        for i, text in enumerate(rec.actions, start=1):
            console.print(f"{i:>4}. {text}", markup=False, highlight=False)
    console.print(state.render_text(None), markup=False, highlight=False)
    status = "verified" if rec.scores is not None else "replayed (no final scores to verify)"
    console.print(f"{len(rec.actions)} actions {status}; scores {state.scores()}")
    if svg is not None:
        svg.write_text(state.render_svg(None))
        console.print(f"board written to {svg}")


@app.command("dataset")
def dataset_command(
    sources: Annotated[
        list[Path],
        typer.Argument(metavar="RECORDS...", help="Record files, or folders of them."),
    ],
    out: Annotated[Path, typer.Option(help="The Parquet file to write.")] = Path("steps.parquet"),
) -> None:
    """Export game records (arena/simulate --records) as a Parquet dataset, one row a decision.

    Columns: record, game, seed, step, seat, action, action_text, observation, mask,
    reward (the seat's score change), final_return, last.
    """
    try:
        from motherlode.research.trajectories import export_dataset
    except ImportError:
        raise fail("the dataset needs pyarrow: pip install 'motherlode[parquet]'") from None
    check_writable(out, "--out")
    table = run(lambda: export_dataset(sources, out))
    games = len(set(table.column("record").to_pylist()))
    console.print(f"{table.num_rows} decisions of {games} games written to {out}")


@app.command("render", context_settings=GAME_OPTIONS)
def render_command(
    ctx: typer.Context,
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    seed: Annotated[int, typer.Option(help="Seed of the deal.")] = 0,
    players: Annotated[int | None, typer.Option()] = None,
    moves: Annotated[int, typer.Option(min=0, help="Random moves to play after the deal.")] = 0,
    position: Annotated[str | None, typer.Option(help="A position in the game's notation.")] = None,
    seat: Annotated[int | None, typer.Option(help="Draw from this seat's view (1-based).")] = None,
    svg: Annotated[Path | None, typer.Option(help="Write SVG to this file.")] = None,
) -> None:
    """Show a dealt (or given) position as text, and optionally as SVG."""
    import random

    game = run(lambda: load_game(game_name, ctx.args, players))
    if position is not None:
        state = run(lambda: game.deserialize(position))
    else:
        state = motherlode.deal(game, seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    view = None if seat is None else seat - 1
    if view is not None and not 0 <= view < game.num_players:
        raise fail(f"--seat must be 1..{game.num_players}")
    console.print(state.render_text(view), markup=False, highlight=False)
    console.print(f"[dim]{state.serialize()}[/]", highlight=False)
    if svg is not None:
        svg.write_text(state.render_svg(view))
        console.print(f"SVG written to {svg}")


def _game_command(game_name: str, what: str) -> Any:
    """The ``what`` command a game declares (``Game.commands()``: Eurorails' map, cards)."""
    from motherlode.games import registry

    games = registry()
    if game_name not in games:
        raise fail(f"unknown game {game_name!r}; the games are: {', '.join(games)}")
    command = games[game_name].commands().get(what)
    if command is None:
        offering = [n for n, cls in games.items() if what in cls.commands()]
        raise fail(
            f"{game_name} has no {what} to show"
            + (f" (games with one: {', '.join(offering)})" if offering else "")
        )
    return command


@app.command("map")
def map_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    distances: Annotated[
        bool, typer.Option(help="The city-to-city milepost distance chart.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    svg: Annotated[Path | None, typer.Option(help="Write the map as SVG.")] = None,
    png: Annotated[Path | None, typer.Option(help="Write the map as PNG.")] = None,
) -> None:
    """Show a game's map (Eurorails): a summary, the distance chart, SVG/PNG files."""
    command = _game_command(game_name, "map")
    run(lambda: command(distances, as_json, svg, png))


@app.command("cards")
def cards_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List a game's card decks (Eurorails demand and event cards)."""
    command = _game_command(game_name, "cards")
    run(lambda: command(as_json))


DEFAULT_STORE = Path("motherlode-results.sqlite")


def _open_results(store: Path | None, fmt: str | None) -> Any:
    from motherlode.arena.store import open_store

    if store is None:
        store = Path("motherlode-results.parquet") if fmt == "parquet" else DEFAULT_STORE
    return run(lambda: open_store(store, fmt))


def _print_tournament(report: dict[str, Any]) -> None:
    summary = report["summary"]
    players = ", ".join(str(n) for n in summary["players"])
    table = Table(
        title=f"{report['game']} tournament {report['tournament']}: {summary['games']} games"
        f" ({players} players; {report['played']} played now, {report['skipped']} stored before)"
    )
    for col in (
        "agent",
        "rating mu ± 2σ",
        "ordinal",
        "seats",
        "wins",
        "win rate (95% CI)",
        "mean score",
    ):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for row in summary["agents"]:
        table.add_row(
            row["agent"],
            f"{row['mu']:.1f} ± {2 * row['sigma']:.1f}",
            f"{row['ordinal']:.1f}",
            str(row["seats"]),
            f"{row['wins']:g}",
            f"{row['win_rate']:.3f} ({row['win_low']:.3f}-{row['win_high']:.3f})",
            f"{row['mean_score']:.2f}",
        )
    console.print(table)
    names = [row["agent"] for row in summary["agents"]]
    head = summary["head_to_head"]
    if len(names) > 1:
        duel = Table(title="head to head: row finished ahead of column (ties half)")
        duel.add_column("")
        for name in names:
            duel.add_column(name, justify="right")
        for a in names:
            cells = []
            for b in names:
                cell = head.get(a, {}).get(b)
                cells.append("-" if cell is None else f"{cell['rate']:.2f} ({cell['games']})")
            duel.add_row(a, *cells)
        console.print(duel)
    console.print(
        f"mean length {summary['mean_length']:.1f} decisions;"
        f" {summary['seconds_per_game']:.2f} s per game"
    )


@app.command("arena", context_settings=GAME_OPTIONS)
def arena_command(
    ctx: typer.Context,
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    agents: Annotated[
        str,
        typer.Option(
            help="Agent specs, comma-separated (mcts:seconds=1,rollout=greedy,greedy,random);"
            " ';' also separates."
        ),
    ] = "random",
    games: Annotated[int, typer.Option(min=1, help="Games in the tournament.")] = 100,
    workers: Annotated[
        int, typer.Option(min=1, help="Parallel games (processes or Ray CPUs).")
    ] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: start a local Ray).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Tournament seed (deals and agents).")] = 0,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    store: Annotated[
        Path | None,
        typer.Option(help="Results store: a SQLite file, or a Parquet directory (*.parquet)."),
    ] = None,
    store_format: Annotated[
        str | None, typer.Option("--format", help="sqlite or parquet (default: from --store).")
    ] = None,
    tournament: Annotated[
        str | None, typer.Option(help="Tournament id (default: derived; reruns resume).")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="PNG of ratings and win rates (default: next to store).")
    ] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not draw the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    records: Annotated[
        Path | None,
        typer.Option(help="Write each game played now as a record (JSON) into this folder."),
    ] = None,
) -> None:
    """A tournament with rotated seats: results stored (resumable), openskill ratings, a plot."""
    from motherlode.agents import create, split_specs
    from motherlode.arena.backends import BACKENDS
    from motherlode.arena.plot import plot_tournament
    from motherlode.arena.runner import run_tournament

    if backend not in BACKENDS:
        raise fail(f"--backend must be one of {', '.join(BACKENDS)} (got {backend!r})")
    specs = split_specs(agents)
    if not specs:
        raise fail("--agents needs at least one agent spec")
    game = run(lambda: load_game(game_name, ctx.args, players))
    if specs == ["help"]:
        from motherlode.agents import describe

        print(f"agents for {game.name}:\n{describe(game)}")
        return
    for spec in specs:
        run(lambda spec=spec: create(spec, game, seed=0, allowed=True))  # fail before any file
    results = None
    try:  # from the store's creation on, Ctrl-C keeps what is stored and says so
        results = _open_results(store, store_format)
        report = run(
            lambda: run_tournament(
                game,
                specs,
                games,
                store=results,
                seed=seed,
                backend=backend,
                workers=workers,
                address=address,
                tournament=tournament,
                progress=not as_json,
                records=records,
            )
        )
    except KeyboardInterrupt:
        if results is not None:
            results.close()
        raise fail("interrupted: the finished games are stored; run again to resume", 1) from None
    results.close()
    if not no_plot:
        target = plot or results.path.with_name(f"{report['tournament']}.png")
        report["plot"] = str(run(lambda: plot_tournament(report, target)))
    if as_json:
        print(json.dumps(report, indent=1))
        return
    _print_tournament(report)
    plotted = f"; plot {report['plot']}" if not no_plot else ""
    console.print(f"results in {results.path}{plotted}")


def _print_analysis(result: dict[str, Any]) -> None:
    for group in result["groups"]:
        n = group["players"]
        table = Table(
            title=f"{result['game']} {group['label']}: {group['games']} games"
            f" (agents: {', '.join(group['agents'])})"
        )
        for col in ("seat", "win share (95% CI)", "vs 1/n", "mean score", "sd", "p10-p90"):
            table.add_column(col, justify="right")
        for seat in group["seats"]:
            sc = seat["score"]
            table.add_row(
                str(seat["seat"]),
                f"{seat['win_share']:.3f} ({seat['win_low']:.3f}-{seat['win_high']:.3f})",
                f"{seat['win_share'] - 1 / n:+.3f}",
                f"{sc['mean']:.2f}",
                f"{sc['sd']:.2f}",
                f"{sc['p10']:.1f}-{sc['p90']:.1f}",
            )
        console.print(table)
        ln = group["length"]
        ws = group["winner_score"]
        console.print(
            f"first-player advantage {group['first_player_advantage']:+.3f};"
            f" length (decisions) mean {ln['mean']:.1f} sd {ln['sd']:.1f}, median"
            f" {ln['median']:.0f}, p10-p90 {ln['p10']:.0f}-{ln['p90']:.0f}, range"
            f" {ln['min']:.0f}-{ln['max']:.0f}; winner's score mean {ws['mean']:.1f};"
            f" shared victories {group['shared']}",
            highlight=False,
        )


@app.command("analyse")
def analyse_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    store: Annotated[
        Path | None, typer.Option(help="Results store written by `motherlode arena`.")
    ] = None,
    store_format: Annotated[
        str | None, typer.Option("--format", help="sqlite or parquet (default: from --store).")
    ] = None,
    tournament: Annotated[
        str | None, typer.Option(help="Only this tournament (default: every stored game).")
    ] = None,
    by: Annotated[
        str | None,
        typer.Option(help="Config options to group by, comma-separated (default: all that vary)."),
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Write the plots to this PNG.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """First-player advantage, game lengths and scores per config, from stored results."""
    from motherlode.arena.analyse import analyse
    from motherlode.arena.plot import plot_analysis

    path = store or (
        Path("motherlode-results.parquet") if store_format == "parquet" else DEFAULT_STORE
    )
    if not path.exists():
        raise fail(f"no results store at {str(path)!r}; run `motherlode arena {game_name}` first")
    results = _open_results(path, store_format)
    rows = results.rows(tournament=tournament, game=game_name)
    results.close()
    if not rows:
        where = f" in tournament {tournament!r}" if tournament else ""
        raise fail(f"no stored {game_name} games{where} in {str(path)!r}")
    keys = [k.strip() for k in by.split(",") if k.strip()] if by else None
    result = analyse(rows, keys)
    if plot is not None:
        result["plot"] = str(run(lambda: plot_analysis(result, plot)))
    if as_json:
        slim = {
            **result,
            "groups": [
                {k: v for k, v in g.items() if k != "lengths"}
                | {"seats": [{k: v for k, v in s.items() if k != "scores"} for s in g["seats"]]}
                for g in result["groups"]
            ],
        }
        print(json.dumps(slim, indent=1))
        return
    _print_analysis(result)
    if plot is not None:
        console.print(f"plot written to {result['plot']}")


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLite file, or a postgresql://... URL.")
    ] = "motherlode.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.4,
    bot_max_seconds: Annotated[
        float,
        typer.Option(min=0.05, help="The most a bot may think per move; bigger specs are refused."),
    ] = 2.0,
    workers: Annotated[
        int, typer.Option(min=1, help="Server processes on one socket (PostgreSQL only).")
    ] = 1,
    bot_workers: Annotated[
        int | None,
        typer.Option(min=0, help="Processes thinking bots' moves, per server process"
                     " (default: the cores; 0: threads of the server)."),
    ] = None,
    analysis_spec: Annotated[
        str, typer.Option(help="The bot that analyses each finished match, within the caps"
                          " ('': none).")
    ] = "strongest",
    analysis_workers: Annotated[
        int, typer.Option(min=0, help="Analysis processes per server process, at the lowest"
                          " priority (0: a thread of the server).")
    ] = 1,
) -> None:
    """Run the web platform: lobby, live matches, replays, provably fair dice."""
    try:
        from motherlode.server.cli import ServeError, serve
    except ImportError as err:
        raise fail(
            f'the web server needs the [server] extra: pip install -e ".[server]" ({err})'
        ) from None
    try:
        serve(
            host, port, db, bot_delay=bot_delay, bot_max_seconds=bot_max_seconds,
            workers=workers, bot_workers=bot_workers,
            analysis_spec=analysis_spec, analysis_workers=analysis_workers,
        )
    except ServeError as err:
        raise fail(str(err)) from None


server_app = typer.Typer(help="Operate the web platform's database.", no_args_is_help=True)
app.add_typer(server_app, name="server")


@server_app.command("reset-password")
def reset_password_command(
    user: Annotated[str, typer.Argument(metavar="USER", help="The account's user name.")],
    db: Annotated[
        str, typer.Option(help="SQLite file, or a postgresql://... URL.")
    ] = "motherlode.db",
) -> None:
    """Print a one-time password for USER (their sessions end; they choose a new one)."""
    try:
        from motherlode.server.cli import ServeError, reset_password
    except ImportError as err:
        raise fail(
            f'accounts need the [server] extra: pip install -e ".[server]" ({err})'
        ) from None
    try:
        otp = reset_password(db, user)
    except ServeError as err:
        raise fail(str(err)) from None
    console.print(f"one-time password for {user.lower()}: {otp}", markup=False, highlight=False)


@app.command("verify")
def verify_command(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A finished match's record.")],
    sha256: Annotated[
        str | None, typer.Option(help="The seed's SHA-256 published at the start.")
    ] = None,
) -> None:
    """Re-play a record from its revealed seed and check every roll, draw and reveal."""
    from motherlode.server.fairness import verify_file

    result = run(lambda: verify_file(str(path), sha256))
    console.print(result.summary(), markup=False, highlight=False)
    if not result.ok:
        raise typer.Exit(1)


def main() -> None:
    try:
        app()
    except NotationError as err:  # pragma: no cover - run() catches these first
        err_console.print(f"error: {err}")
        sys.exit(2)


if __name__ == "__main__":
    main()

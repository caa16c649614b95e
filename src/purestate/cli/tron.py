"""``purestate tron``: the CS1410 game runner, the data set and the fit of the linear evaluation.

``purestate tron run --bots A B --map M --multi-test N [--no-image]`` takes the gamerunner's
spellings too (``-bots``, ``-map``, ``-multi_test``, ``-no_image``) and its bot names (``random``,
``wall``, ``ta1``, ``ta2``, plus ``greedy``, ``chamber``, ``student``); any other name is an agent
spec such as ``alphabeta:depth=4,eval=voronoi``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import typer
from rich.live import Live
from rich.progress import Progress
from rich.table import Table

from purestate.cli import app
from purestate.cli.boards import board
from purestate.cli.common import (
    UserError,
    console,
    err_console,
    friendly,
    new_run_dir,
    print_json,
)
from purestate.cli.options import AsJson, Force, Jobs, RecordsOut, Seed, games_option
from purestate.core.episode import replay
from purestate.core.hooks import seat_name
from purestate.core.learning import wilson
from purestate.core.record import Record, game_spec
from purestate.core.spec import SpecError
from purestate.executors import LocalExecutor
from purestate.experiments import tron as series
from purestate.games.tron.maps import MAX_MAP_SIDE, Map
from purestate.games.tron.rules import MOVE_NAMES, State, Tron
from purestate.heuristics.tron import TERMS
from purestate.io.files import write_atomic
from purestate.io.maps import load_map, shipped_map, shipped_names
from purestate.io.records import GAMES_FILE, records_text
from purestate.io.runs import run_folder
from purestate.io.tron import (
    read_positions,
    read_weights,
    save_picture,
    write_positions,
    write_weights,
)

tron_app = typer.Typer(
    help="Tron: run bots against each other (the CS1410 gamerunner), build a data set, fit the "
    "linear evaluation.",
    no_args_is_help=True,
)
app.add_typer(tron_app, name="tron")

R = TypeVar("R")

# Bounds on counts, checked while the options are parsed, before anything is allocated. A series
# keeps one record per game and a data set every position in memory, so both are bounded below
# the generic MAX_GAMES.
MAX_SERIES_GAMES = 100_000
"""The most games of one ``tron run`` (``--multi-test``)."""
MAX_DATASET_GAMES = 10_000
"""The most games of one ``tron dataset`` (``--games`` times the pairs times the maps)."""
MAX_EVERY = MAX_MAP_SIDE**2
"""The largest ``--every``: no game on a map within the size limit is longer."""
MAX_DELAY = 60.0
"""The longest ``--delay`` per move, in seconds."""

Rules = Literal["alternating", "simultaneous"]
Start = Literal["map", "mirror"]


def _map(name: str) -> str | Map:
    """A shipped map's name as is (workers resolve it cheaply), or a map file read here."""
    try:
        if name in shipped_names():
            return name
        return load_map(name)
    except (SpecError, ValueError) as e:
        raise UserError(str(e)) from None


POSITIONS = "positions.jsonl"  # what tron dataset writes into its --out folder
WEIGHTS = "weights.json"  # what tron fit writes into its --out folder


def _inside(path: Path, name: str) -> Path:
    """``path`` itself, or the file ``name`` in it when ``path`` is a run folder."""
    return path / name if path.is_dir() else path


def _out_folder(out: Path | None, force: bool, prefix: str, owned: str) -> Any:
    """The run folder a tron command writes (default: a new one in ./runs), opened and locked."""
    folder = out if out is not None else new_run_dir(Path("runs"), prefix)
    return run_folder(folder, "force" if force else "new", (owned,))


def _weights(path: Path | None) -> tuple[float, ...] | None:
    if path is None:
        return None
    return read_weights(_inside(path, WEIGHTS))


def _check_bots(setup: series.Setup) -> None:
    """Build both agents and the first game once here, so bad input fails before any work."""
    try:
        game = series.make_game(setup, 0)
        for seat, spec in enumerate(setup.bots):
            a = series.bot_agent(spec, setup.weights, setup._clock)
            a.initial_table(game, seat)
    except (SpecError, ValueError, TypeError) as e:
        raise UserError(str(e)) from None


def _execute(
    fn: Callable[[Any], R], items: Sequence[Any], jobs: int, quiet: bool, what: str
) -> list[R]:
    """``[fn(item) for item in items]`` on ``jobs`` local processes, with a progress bar."""
    with Progress(console=err_console, transient=True, disable=quiet) as progress:
        task = progress.add_task(what, total=len(items))

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done)

        return LocalExecutor(jobs).run(fn, items, advance)


def _show_game(game: Tron, states: Sequence[State], delay: float) -> None:
    """Draw a game move by move (in a terminal), or its final board (otherwise)."""
    if not console.is_terminal or delay <= 0:
        console.print(board(game, states))
        return
    with Live(board(game, states[:1]), console=console, auto_refresh=False) as live:
        for i in range(1, len(states) + 1):
            live.update(board(game, states[:i]), refresh=True)
            time.sleep(delay)


_SEATS = (seat_name(Tron, 0), seat_name(Tron, 1))
"""How messages name Tron's seats (``first (blue)``): its marks are the class's."""


@tron_app.command("run")
@friendly
def run_command(
    bots: Annotated[
        tuple[str, str],
        typer.Option(
            "--bots",
            "-bots",
            help=f"The {_SEATS[0]} and the {_SEATS[1]} seat's bots: random, wall, greedy, "
            "ta1, ta2, chamber, student, or agent specs.",
        ),
    ] = ("ta2", "random"),
    map_name: Annotated[
        str,
        typer.Option(
            "--map",
            "-map",
            help=f"A shipped map's name or a map file (at most {MAX_MAP_SIDE}×{MAX_MAP_SIDE}).",
        ),
    ] = "empty_room",
    multi_test: Annotated[
        int,
        games_option("in the series", "--multi-test", "-multi_test", most=MAX_SERIES_GAMES),
    ] = 1,
    no_image: Annotated[
        bool, typer.Option("--no-image", "-no_image", help="Do not draw a game.")
    ] = False,
    rules: Annotated[Rules, typer.Option(help="alternating (CS1410) or simultaneous.")] = (
        "alternating"
    ),
    start: Annotated[Start, typer.Option(help="map (the map's start cells) or mirror.")] = "map",
    weights: Annotated[
        Path | None, typer.Option(help="A weights file for eval=linear bots (tron fit).")
    ] = None,
    jobs: Jobs = 1,
    seed: Seed = 0,
    save: Annotated[
        Path | None, typer.Option(help="Save game 1 as a picture (.png) or animation (.gif).")
    ] = None,
    delay: Annotated[
        float, typer.Option(min=0.0, max=MAX_DELAY, help="Seconds per move when drawing a game.")
    ] = 0.08,
    as_json: AsJson = False,
    out: RecordsOut = None,
    force: Force = False,
) -> None:
    """Play a series of games; the seats take turns to move first (the first in game 1)."""
    setup = series.Setup(
        _map(map_name),
        rules,
        start,
        (series.bot_spec(bots[0]), series.bot_spec(bots[1])),
        _weights(weights),
        seed,
        clock=time.thread_time,  # timed bots read the thread's CPU time, as agent_from gives
    )
    _check_bots(setup)
    if out is not None:
        game_spec(series.make_game(setup, 0))  # a map file cannot be named in a record: refuse now
    # the folder is opened (and locked) before the games, so a bad --out costs no games
    folder = (
        run_folder(out, "force" if force else "new", (GAMES_FILE,))
        if out is not None
        else contextlib.nullcontext(None)
    )
    with folder as written:
        tasks = [(setup, i) for i in range(multi_test)]
        results = _execute(series.game_task, tasks, jobs, as_json, "games")
        if written is not None:
            write_atomic(written / GAMES_FILE, records_text(_records(setup, results)))
            err_console.print(f"wrote {written}")
    n = len(results)
    wins = sum(r.winner == 0 for r in results)
    losses = sum(r.winner == 1 for r in results)
    draws = n - wins - losses
    first_wins = sum(r.winner == r.first_player for r in results)
    low, high = wilson(wins, n)
    if not no_image or save is not None:
        game = series.make_game(setup, 0)
        moves = [MOVE_NAMES.index(c) for c in results[0].moves]
        states = replay(game, moves).states
        if not no_image and not as_json:
            _show_game(game, states, delay)
        if save is not None:
            save_picture(save, game, states, moves, setup.bots)
    if as_json:
        print_json(
            {
                "bots": list(setup.bots),
                "map": map_name,
                "rules": rules,
                "start": start,
                "games": n,
                "seed": seed,
                "player1": {"wins": wins, "draws": draws, "losses": losses},
                "player1_win_rate": wins / n,
                "player1_ci95": [low, high],
                "first_mover_wins": first_wins,
                "winners": [None if r.winner is None else r.winner + 1 for r in results],
            }
        )
        return
    # the CS1410 runner's lines, its players named by their seats as everywhere else
    for seat, won in enumerate((wins, losses)):
        if won:
            line = f"{_SEATS[seat].capitalize()} won {won} out of {n} times"
            console.print(line, highlight=False)
    if draws:
        console.print(f"Draw {draws} out of {n} times", highlight=False)
    console.print(
        f"{_SEATS[0]} = {setup.bots[0]}: {wins} W, {draws} D, {losses} L; win rate "
        f"{wins / n:.1%} (95% CI {low:.1%}-{high:.1%}); the first mover won {first_wins} of "
        f"{n}; seed {seed}",
        highlight=False,
    )


def _records(setup: series.Setup, results: Sequence[series.GameResult]) -> list[Record]:
    """The records of a series: each game's own spec (its first player and start seed)."""
    records = []
    for r in results:
        spec = game_spec(series.make_game(setup, r.index))
        returns = {None: (0.0, 0.0), 0: (1.0, -1.0), 1: (-1.0, 1.0)}[r.winner]
        moves = tuple(MOVE_NAMES.index(c) for c in r.moves)
        record = Record.from_game(spec, setup.bots, setup.seed, r.index, moves, returns, None)
        records.append(record)
    return records


@tron_app.command("maps")
@friendly
def maps_command(
    as_json: AsJson = False,
) -> None:
    """List the shipped maps."""
    rows = []
    for name in shipped_names():
        m = shipped_map(name)
        rows.append({"name": name, "rows": m.rows, "cols": m.cols, "free": m.free.bit_count()})
    if as_json:
        print_json(rows)
        return
    table = Table("map", "size", "free cells")
    for r in rows:
        table.add_row(str(r["name"]), f"{r['rows']}×{r['cols']}", str(r["free"]))
    console.print(table)


DEFAULT_PAIRS = (
    "alphabeta:depth=2,eval=voronoi alphabeta:depth=2,eval=voronoi",
    "alphabeta:depth=2,eval=voronoi tron_greedy",
    "alphabeta:depth=2,eval=space alphabeta:depth=2,eval=chamber",
    "tron_greedy tron_wall",
)
DEFAULT_MAPS = ("empty_room", "center_block", "diagonal_blocks")


@tron_app.command("dataset")
@friendly
def dataset_command(
    out: Annotated[
        Path | None,
        typer.Option(help=f"Folder for {POSITIONS} (default: a new one in ./runs)."),
    ] = None,
    force: Force = False,
    pair: Annotated[
        list[str] | None,
        typer.Option(help="Two bots separated by a space (repeatable; default: a mix)."),
    ] = None,
    map_names: Annotated[
        list[str] | None, typer.Option("--map", help="Maps (repeatable; default: the 13×13 ones).")
    ] = None,
    games: Annotated[
        int, games_option("per pair and map (pairs × maps × N in all)", most=MAX_DATASET_GAMES)
    ] = 20,
    every: Annotated[int, typer.Option(min=1, max=MAX_EVERY, help="Keep every k-th position.")] = 1,
    rules: Annotated[Rules, typer.Option()] = "alternating",
    start: Annotated[Start, typer.Option(help="mirror (varied starts) or map.")] = "mirror",
    jobs: Jobs = 1,
    seed: Seed = 0,
    as_json: AsJson = False,
) -> None:
    """Play bots against each other and record positions, features and outcomes (JSON Lines)."""
    pairs = pair or list(DEFAULT_PAIRS)
    maps = map_names or list(DEFAULT_MAPS)
    if games * len(pairs) * len(maps) > MAX_DATASET_GAMES:
        raise UserError(
            f"{games} games × {len(pairs)} pairs × {len(maps)} maps is more than "
            f"{MAX_DATASET_GAMES:,} games in one data set; make --games smaller"
        )
    with _out_folder(out, force, "tron-dataset", POSITIONS) as folder:
        count = _dataset(folder / POSITIONS, pairs, maps, games, every, rules, start, jobs, seed,
                         as_json)  # fmt: skip
    summary = {"positions": count, "games": games * len(pairs) * len(maps), "out": str(folder)}
    if as_json:
        print_json({**summary, "seed": seed})
    else:
        console.print(
            f"wrote {count} positions from {summary['games']} games to {folder / POSITIONS} "
            f"(seed {seed})",
            highlight=False,
        )


def _dataset(
    path: Path, pairs: list[str], maps: list[str], games: int, every: int, rules: Rules,
    start: Start, jobs: int, seed: int, as_json: bool,
) -> int:  # fmt: skip
    """Play the data set's games and write their positions to ``path``; how many were written."""
    records: list[dict[str, Any]] = []
    for pi, text in enumerate(pairs):
        names = text.split()
        if len(names) != 2:
            raise UserError(f"--pair {text!r}: give two bots separated by a space")
        for mi, name in enumerate(maps):
            setup = series.Setup(
                _map(name),
                rules,
                start,
                (series.bot_spec(names[0]), series.bot_spec(names[1])),
                None,
                seed * 1000 + pi * 37 + mi,
                clock=time.thread_time,
            )
            _check_bots(setup)
            tag = f"{pi}:{name}"
            tasks = [(setup, i, every) for i in range(games)]
            for recs in _execute(series.positions_task, tasks, jobs, as_json, f"{text} on {name}"):
                for rec in recs:
                    rec = {
                        "series": tag,
                        "map": name,
                        "rules": rules,
                        "bots": list(setup.bots),
                        **rec,
                    }
                    records.append(rec)
    write_positions(path, records)
    return len(records)


@tron_app.command("fit")
@friendly
def fit_command(
    data: Annotated[
        Path,
        typer.Argument(help=f"Positions from purestate tron dataset: its folder or {POSITIONS}."),
    ],
    out: Annotated[
        Path | None, typer.Option(help=f"Folder for {WEIGHTS} (default: a new one in ./runs).")
    ] = None,
    force: Force = False,
    test_fraction: Annotated[float, typer.Option(min=0.01, max=0.9)] = 0.2,
    all_positions: Annotated[
        bool, typer.Option(help="Fit separated positions too (default: connected only).")
    ] = False,
    seed: Seed = 0,
    terms: Annotated[
        str, typer.Option(help="Comma-separated terms to fit (default: all; others get 0).")
    ] = "",
    as_json: AsJson = False,
) -> None:
    """Fit the linear evaluation's weights (least squares, games held out) and write them."""
    data = _inside(data, POSITIONS)
    records = read_positions(data)
    use = [t.strip() for t in terms.split(",") if t.strip()] or None
    try:
        fit = series.fit_linear(records, test_fraction, seed, not all_positions, use)
    except ValueError as e:
        raise UserError(str(e)) from None
    with _out_folder(out, force, "tron-fit", WEIGHTS) as folder:
        weights_file = folder / WEIGHTS
        write_weights(
            weights_file,
            fit.weights,
            {
                "data": str(data),
                "split_seed": seed,
                "connected_only": not all_positions,
                **fit.as_dict(),
            },
        )
    if as_json:
        print_json(
            {
                "weights": dict(zip(("bias", *TERMS), fit.weights, strict=True)),
                **fit.as_dict(),
                "out": str(weights_file),
            }
        )
        return
    table = Table("feature", "weight")
    for name, w in zip(("bias", *TERMS), fit.weights, strict=True):
        table.add_row(name, f"{w:+.4f}")
    console.print(table)
    console.print(
        f"fit on {fit.train} positions, held out {fit.test}: mean squared error "
        f"{fit.train_mse:.4f} (train) {fit.test_mse:.4f} (held out, predicting 0 gives "
        f"{fit.baseline_mse:.4f}); held-out sign accuracy {fit.test_accuracy:.1%}; "
        f"wrote {weights_file}",
        highlight=False,
    )

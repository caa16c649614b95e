"""``purestate evaluate``: an agent against an opponent in both seats, without learning."""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    UserError,
    agent_from,
    console,
    err_console,
    friendly,
    game_from,
    print_json,
    table_from,
)
from purestate.cli.options import (
    AsJson,
    Dask,
    Explore,
    Force,
    Jobs,
    RecordsOut,
    Seed,
    games_option,
)
from purestate.core.agent import Greedy, check_game, greedy_agent
from purestate.core.hooks import playing_table, supports_seat
from purestate.core.keys import key
from purestate.core.learning import Tally, tally, wilson
from purestate.core.record import Record, game_spec
from purestate.executors import executor, kept
from purestate.experiments.evaluate import seat_games
from purestate.io.files import open_atomic
from purestate.io.records import GAMES_FILE, record_line
from purestate.io.runs import run_folder
from purestate.io.tables import table_game

SEATS = ("first", "second")


def _figures(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = t.as_dict()
    out["games"] = t.games
    for name in ("wins", "draws", "losses"):
        low, high = wilson(out[name], t.games)
        out[f"{name}_ci95"] = [round(low, 4), round(high, 4)]
    out["score"] = round(t.score, 4)
    return out


def _moved(progress: Progress, task: TaskID, done: int) -> None:
    progress.update(task, completed=done)


@app.command("evaluate")
@friendly
def evaluate_command(
    agent: Annotated[
        str | None,
        typer.Option(
            help="The agent to evaluate (spec string; with --table: options laid over the file's "
            "agent, e.g. alphazero:seconds=0.1)."
        ),
    ] = None,
    opponent: Annotated[str, typer.Option(help="The opponent (spec string).")] = "random",
    game: Annotated[
        str | None,
        typer.Option(help="Game spec (default: the --table's game, else tictactoe)."),
    ] = None,
    table: Annotated[
        Path | None, typer.Option(help="Play the agent from a saved table (table.json, table.npz).")
    ] = None,
    games: Annotated[int, games_option("per seat (the agent plays 2 × N in all)")] = 1000,
    seed: Seed = 0,
    as_json: AsJson = False,
    explore: Explore = False,
    out: RecordsOut = None,
    force: Force = False,
    jobs: Jobs = 1,
    dask: Dask = None,
) -> None:
    """Play an agent against an opponent from both seats, without learning.

    A learning agent plays its table's best moves (greedily) unless --explore. Prints wins,
    draws and losses per seat with 95% Wilson intervals. --jobs 2 plays the games on two
    processes (the same games, but for agents on a clock), in half the wall time.
    """
    g = game_from(game if game is not None else "tictactoe" if table is None else table_game(table))
    opponent_agent = agent_from(opponent)
    check_game(opponent_agent, g)  # before any game: its table is made per seat below
    tables: dict[int, Any] = {}
    seats = [0, 1]
    if table is not None:
        learner, loaded = table_from(table, g, agent)
        seats = [s for s in (0, 1) if supports_seat(learner, loaded.table, s)]
        tables = dict.fromkeys(seats, loaded.table)
    elif agent is None:
        raise UserError("name the agent to evaluate with --agent, or give its --table")
    else:
        learner = agent_from(agent)
        check_game(learner, g)
        tables = {s: learner.initial_table(g, s) for s in seats}
    subject = learner if explore else greedy_agent(learner)
    opp = opponent_agent if explore else greedy_agent(opponent_agent)
    k = key(seed)
    spec = game_spec(g) if out is not None else ""
    results: dict[str, Any] = {}
    progress = Progress(
        TextColumn("[bold]{task.description}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console,
        disable=as_json,
    )
    ex = executor(jobs, dask) if jobs > 1 or dask else None
    # the folder is opened (and locked) before the games, so a bad --out costs no games
    folder = (
        run_folder(out, "force" if force else "new", (GAMES_FILE,))
        if out is not None
        else contextlib.nullcontext(None)
    )
    with contextlib.ExitStack() as stack:
        written = stack.enter_context(folder)
        # streamed into a temporary file that replaces games.jsonl only when every game is in:
        # memory stays flat for any --games, and an interrupted run leaves no partial log
        log = None if written is None else stack.enter_context(open_atomic(written / GAMES_FILE))
        stack.enter_context(progress)
        run = None
        if ex is not None:  # workers get the tables without what play does not read
            run = stack.enter_context(kept(ex)).run
            tables = {s: playing_table(learner, t) for s, t in tables.items()}
        for s in seats:
            task = progress.add_task(f"as {SEATS[s]}", total=games)
            outcomes = []
            opp_table = opp.initial_table(g, 1 - s)
            players = (subject.spec, opp.spec) if s == 0 else (opp.spec, subject.spec)
            # on workers the bar moves as their batches come back, here as each game ends
            moved = functools.partial(_moved, progress, task)
            played = seat_games(g, subject, tables[s], opp, opp_table, s, games, k, run, moved)
            for i, ep in enumerate(played):
                outcomes.append(ep.outcome(s))
                if log is not None:
                    # the index is the game's number in its seat's series, seat s's games first
                    log.write(record_line(Record.of(spec, players, seed, i, ep, s)))
                if run is None:
                    progress.advance(task)
            results[SEATS[s]] = _figures(tally(outcomes))
    if out is not None:
        err_console.print(f"wrote {out}")
    for s in (0, 1):
        results.setdefault(SEATS[s], None)
    if as_json:
        print_json(
            {
                **results,
                "agent": subject.spec,
                "greedy": isinstance(subject, Greedy),
                "opponent": opp.spec,
                "seed": seed,
            }
        )
        return
    how = " (greedy)" if isinstance(subject, Greedy) else ""
    t = Table(title=f"{subject.spec}{how} vs {opp.spec} ({games} games per seat, seed {seed})")
    for col in ("seat", "wins", "draws", "losses", "score"):
        t.add_column(col, justify="right")
    for s in (0, 1):
        r = results[SEATS[s]]
        if r is None:
            t.add_row(SEATS[s], "-", "-", "-", "table is for the other seat")
            continue
        cells = [
            f"{r[n]} ({r[n] / r['games']:.1%}, CI {r[n + '_ci95'][0]:.1%}–{r[n + '_ci95'][1]:.1%})"
            for n in ("wins", "draws", "losses")
        ]
        t.add_row(SEATS[s], *cells, f"{r['score']:.3f}")
    console.print(t)

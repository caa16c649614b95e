"""``purestate selfplay``: train a learner against an opponent and write what it learned."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    console,
    err_console,
    friendly,
    new_run_dir,
    print_json,
)
from purestate.core.learning import cumulative_incentive, wilson
from purestate.experiments.selfplay import SELF, Selfplay, game_record, summarize
from purestate.io import plots
from purestate.io.files import FileFormatError, write_atomic, write_json
from purestate.io.tables import load_table, save_table


class Seat(StrEnum):
    """Which side a player takes."""

    first = "first"
    second = "second"


def load_run_tables(run: Selfplay, game: Any, path: Path) -> tuple[tuple[Any, Any], int]:
    """Both seats' tables and the next game number of a saved run: ``path`` (the learner's
    table.json) and, beside it, ``opponent_table.json`` when the opponent learns too.

    Raises:
        FileFormatError: a file that is not this run's.
    """
    learner, opp = run.agents()
    mine = load_table(path, game, learner)
    if run.shared:
        return (mine.table, mine.table), mine.games
    if mine.seat != run.seat:
        raise FileFormatError(f"{path}: a table for the {('first', 'second')[mine.seat]} player")
    tables: list[Any] = list(run.initial_tables(game))
    tables[run.seat] = mine.table
    other = path.with_name("opponent_table.json")
    if run.learning()[1 - run.seat] and other.exists():
        tables[1 - run.seat] = load_table(other, game, opp).table
    return (tables[0], tables[1]), mine.games


@app.command("selfplay")
@friendly
def selfplay_command(
    game: Annotated[str, typer.Option(help="Game spec, e.g. tictactoe.")] = "tictactoe",
    agent: Annotated[str, typer.Option(help="The learner's spec.")] = "menace",
    opponent: Annotated[
        str, typer.Option(help="Opponent spec, or 'self' for a copy that learns too.")
    ] = "rules:p=0.7",
    games: Annotated[int, typer.Option(min=1, help="How many games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Experiment seed (game i uses key(seed), i).")] = 0,
    seat: Annotated[Seat, typer.Option(help="The learner's seat.")] = Seat.first,
    out: Annotated[
        Path | None, typer.Option(help="Folder for the results (default: a new one in ./runs).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue from a saved table.json (and its game count).")
    ] = None,
    block: Annotated[int, typer.Option(min=1, help="Games per block in the summary.")] = 100,
    checkpoint: Annotated[
        int, typer.Option(min=0, help="Save the table every N games (0: only at the end).")
    ] = 0,
    plot: Annotated[bool, typer.Option(help="Write learning_curve.png.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Train a learner (MENACE by default) against an opponent.

    Writes table.json, games.jsonl, summary.json and learning_curve.png into --out.
    """
    run = Selfplay(game, agent, opponent, 0 if seat is Seat.first else 1, seed)
    g = run.make_game()
    learner, opp = run.agents()
    learning = run.learning()
    start = 0
    tables = run.initial_tables(g)
    if resume is not None:
        tables, start = load_run_tables(run, g, resume)
    out_dir = out if out is not None else new_run_dir(Path("runs"), "selfplay")
    out_dir.mkdir(parents=True, exist_ok=True)
    same_dir = resume is not None and out_dir.resolve() == resume.parent.resolve()
    log_mode = "a" if same_dir else "w"
    log_path = out_dir / "games.jsonl"
    if same_dir and log_path.exists():
        # games logged after the checkpoint are played again (identically): cut them off
        kept = log_path.read_text(encoding="utf-8").splitlines()[:start]
        write_atomic(log_path, "".join(line + "\n" for line in kept))
    me = run.seat
    outcomes: list[int] = []
    resigned = refusals = 0
    first_refusal: int | None = None

    def save(step_tables: tuple[Any, Any], played: int) -> None:
        save_table(out_dir / "table.json", g, learner, step_tables[me], me, played)
        if learning[1 - me] and not run.shared:
            save_table(out_dir / "opponent_table.json", g, opp, step_tables[1 - me], 1 - me, played)

    progress = Progress(
        TextColumn("[bold]selfplay[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("W {task.fields[w]} D {task.fields[d]} L {task.fields[l]}"),
        TimeRemainingColumn(),
        console=err_console,
        disable=as_json,
    )
    w = d = losses = 0
    played = start
    with log_path.open(log_mode, encoding="utf-8") as log, progress:
        task = progress.add_task("games", total=games, w=0, d=0, l=0)
        for stretch in run.stretches(g, tables, start, games, checkpoint):
            tables = stretch.tables
            for i, ep in enumerate(stretch.episodes):
                o = ep.outcome(me)
                outcomes.append(o)
                w, d, losses = w + (o > 0), d + (o == 0), losses + (o < 0)
                resigned += ep.resigned == me
                log.write(json.dumps(game_record(played + i, seed, ep, me)) + "\n")
            played += len(stretch.episodes)
            progress.update(task, advance=len(stretch.episodes), w=w, d=d, l=losses)
            if stretch.refused:
                refusals += 1
                first_refusal = played  # an empty first box: MENACE refuses, as in Scroggs'
            elif checkpoint and (played - start) % checkpoint == 0 and played < start + games:
                log.flush()
                save(tables, played)
    save(tables, played)
    summary = summarize(run, outcomes, resigned, refusals, first_refusal, block, start)
    summary["agent_spec"] = learner.spec
    summary["opponent_spec"] = opp.spec if opponent != SELF else SELF
    summary["out"] = str(out_dir)
    write_json(out_dir / "summary.json", summary)
    if plot:
        plots.learning_curve(
            out_dir / "learning_curve.png",
            summary["blocks"],
            block,
            cumulative_incentive(outcomes),
            f"{learner.spec} ({summary['seat']}) vs {summary['opponent_spec']}",
        )
    if as_json:
        print_json(summary)
        return
    _print_summary(summary, start)


def _print_summary(summary: dict[str, Any], start: int) -> None:
    block = summary["block"]
    table = Table(title=f"{summary['agent']} vs {summary['opponent']} (seed {summary['seed']})")
    for col in ("games", "wins", "draws", "losses", "loss rate"):
        table.add_column(col, justify="right")
    for i, b in enumerate(summary["blocks"]):
        n = b["wins"] + b["draws"] + b["losses"]
        lo = start + i * block + 1
        table.add_row(
            f"{lo}–{lo + n - 1}",
            str(b["wins"]),
            str(b["draws"]),
            str(b["losses"]),
            f"{b['losses'] / n:.1%}",
        )
    n = summary["games"]
    low, high = wilson(summary["losses"], n)
    table.add_section()
    table.add_row(
        "all",
        str(summary["wins"]),
        str(summary["draws"]),
        str(summary["losses"]),
        f"{summary['losses'] / n:.1%} [{low:.1%}, {high:.1%}]",
    )
    console.print(table)
    if summary["refused"]:
        console.print(
            f"MENACE ran out of beads in its first box and refused to play at game "
            f"{summary['first_refusal']}; the run stopped there."
        )
    elif summary["resigned"]:
        console.print(f"resigned (empty box): {summary['resigned']} games")
    console.print(f"results in {summary['out']}/")

"""``purestate sweep``: selfplay over seeds and agent settings, resumable, on any executor.

Folder layout under --out::

    runs/<setting>/seed-<n>/table.json     checkpoint (atomic): the learner's table and game count
    runs/<setting>/seed-<n>/games.jsonl    one line per game
    runs/<setting>/seed-<n>/summary.json   written last: its presence marks the run complete
    aggregate.json, aggregate.csv          mean W/D/L per block with 95% bands, per setting
    curves.png                             the mean curves with their bands

An interrupted sweep (Ctrl-C, a killed process) is continued by running the same command again:
complete runs are kept as they are, a half-written run continues from its last checkpoint (its
games.jsonl is cut back to the checkpoint's game count first), and nothing complete is rewritten.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    UserError,
    console,
    default_jobs,
    err_console,
    friendly,
    print_json,
)
from purestate.cli.selfplay import Seat, load_run_tables
from purestate.core.spec import SpecError
from purestate.experiments.executors import executor
from purestate.experiments.selfplay import Selfplay, summarize
from purestate.experiments.sweep import (
    Chunk,
    ChunkResult,
    aggregate,
    expand_grid,
    parse_seeds,
    play_chunk,
    run_name,
)
from purestate.io import plots
from purestate.io.files import FileFormatError, read_json, write_atomic, write_json
from purestate.io.tables import save_table


def _run_dir(out: Path, run: Selfplay) -> Path:
    return out / "runs" / run_name(run)


def _read_lines(path: Path, count: int) -> list[str]:
    if not path.exists():
        return []
    return path.read_text(encoding="utf-8").splitlines()[:count]


def _restore(out: Path, run: Selfplay) -> tuple[int, Any, list[int], int]:
    """Where a run stands on disk: (games played, tables or None, outcomes, resignations)."""
    d = _run_dir(out, run)
    table_path = d / "table.json"
    if not table_path.exists():
        return 0, None, [], 0
    try:
        tables, played = load_run_tables(run, run.make_game(), table_path)
    except FileFormatError as e:
        raise UserError(f"cannot continue the sweep: {e}") from None
    lines = _read_lines(d / "games.jsonl", played)
    if len(lines) != played:
        raise UserError(f"{d / 'games.jsonl'}: fewer games than the checkpoint says; remove {d}")
    # cut the log back to the checkpoint: games after it are played again, identically
    write_atomic(d / "games.jsonl", "".join(line + "\n" for line in lines))
    records = [json.loads(line) for line in lines]
    outcomes = [{"win": 1, "draw": 0, "loss": -1}[r["result"]] for r in records]
    resigned = sum(1 for r in records if r["resigned"] == run.seat)
    return played, tables, outcomes, resigned


def _write_chunk(out: Path, res: ChunkResult) -> None:
    run = res.run
    d = _run_dir(out, run)
    d.mkdir(parents=True, exist_ok=True)
    game = run.make_game()
    learner, opp = run.agents()
    with (d / "games.jsonl").open("a", encoding="utf-8") as log:
        for g in res.logs:
            log.write(json.dumps(g.record(run.seed, run.seat)) + "\n")
    played = res.start + len(res.outcomes)
    if run.learning()[1 - run.seat] and not run.shared:
        save_table(d / "opponent_table.json", game, opp, res.tables[1 - run.seat], 1 - run.seat,
                   played)  # fmt: skip
    save_table(d / "table.json", game, learner, res.tables[run.seat], run.seat, played)


def _csv(agg: list[dict[str, Any]]) -> str:
    names = ("wins", "draws", "losses")
    stats = ("mean", "low", "high")
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(
        ["agent", "opponent", "first_game", "runs", *(f"{n}_{s}" for n in names for s in stats)]
    )
    for a in agg:
        for row in a["blocks"]:
            cells = [round(row[n][s], 6) for n in names for s in stats]
            w.writerow([a["agent"], a["opponent"], row["first_game"], row["runs"], *cells])
    return buf.getvalue()


@app.command("sweep")
@friendly
def sweep_command(
    grid: Annotated[
        list[str],
        typer.Option(help="Agent settings: NAME:key=v1,v2,... (repeatable; a product of values)."),
    ],
    seeds: Annotated[str, typer.Option(help="Seeds, e.g. 0-31 or 0,4,9.")] = "0-7",
    opponent: Annotated[str, typer.Option(help="Opponent spec, or 'self'.")] = "rules:p=0.7",
    game: Annotated[str, typer.Option(help="Game spec.")] = "tictactoe",
    games: Annotated[int, typer.Option(min=1, help="Games per run.")] = 2000,
    seat: Annotated[Seat, typer.Option(help="The learner's seat.")] = Seat.first,
    block: Annotated[int, typer.Option(min=1, help="Games per block in the curves.")] = 100,
    checkpoint: Annotated[
        int, typer.Option(min=0, help="Save each run every N games (0: once, at its end).")
    ] = 500,
    out: Annotated[Path, typer.Option(help="The sweep's folder (resumed if it exists).")] = Path(
        "runs/sweep"
    ),
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Local processes (default: all cores).")
    ] = default_jobs(),
    dask: Annotated[
        str | None, typer.Option(help="Address of a Dask scheduler to run on instead.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the aggregate as JSON.")] = False,
) -> None:
    """Run selfplay for every agent setting of a grid and every seed; aggregate the curves."""
    try:
        settings = [s for g in grid for s in expand_grid(g)]
        seed_list = parse_seeds(seeds)
    except SpecError as e:
        raise UserError(str(e)) from None
    side = 0 if seat is Seat.first else 1
    runs = [Selfplay(game, a, opponent, side, s) for a in settings for s in seed_list]
    for r in runs[: len(settings)]:
        r.learning()  # refuse a non-learner before any work starts
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"grid": settings, "seeds": list(seed_list), "opponent": opponent,
                "game": game, "games": games, "seat": seat.value, "block": block}  # fmt: skip
    mpath = out / "sweep.json"
    if mpath.exists():
        old = read_json(mpath)
        if old != manifest:
            raise UserError(f"{out} holds a different sweep ({mpath}); choose another --out")
    else:
        write_json(mpath, manifest)
    state: dict[Selfplay, tuple[int, Any, list[int], int]] = {}
    for r in runs:
        if not (_run_dir(out, r) / "summary.json").exists():
            state[r] = _restore(out, r)
    done_before = len(runs) - len(state)
    step = checkpoint or games
    ex = executor(jobs, dask)
    total_games = sum(games - s[0] for s in state.values())
    progress = Progress(
        TextColumn("[bold]sweep[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err_console, disable=as_json,
    )  # fmt: skip
    with progress:
        task = progress.add_task("games", total=total_games)
        base = 0
        while state:
            chunks = [Chunk(r, s[0], min(step, games - s[0]), s[1]) for r, s in state.items()]
            size = sum(c.games for c in chunks)

            def advance(done: int, total: int, base: int = base, size: int = size) -> None:
                progress.update(task, completed=base + size * done // max(1, total))

            results = ex.run(play_chunk, chunks, advance)
            base += size
            for res in results:
                _write_chunk(out, res)
                played, _, outcomes, resigned = state[res.run]
                outcomes = outcomes + list(res.outcomes)
                played = res.start + len(res.outcomes)
                resigned += res.resigned
                if played >= games or res.refused:
                    summary = summarize(
                        res.run, outcomes, resigned, int(res.refused),
                        played if res.refused else None, block,
                    )  # fmt: skip
                    write_json(_run_dir(out, res.run) / "summary.json", summary)
                    del state[res.run]
                else:
                    state[res.run] = (played, res.tables, outcomes, resigned)
    summaries = [read_json(_run_dir(out, r) / "summary.json") for r in runs]
    agg = aggregate(summaries)
    write_json(out / "aggregate.json", agg)
    write_atomic(out / "aggregate.csv", _csv(agg))
    plots.mean_curves(out / "curves.png", agg, f"{game}: vs {opponent}, {len(seed_list)} seeds")
    if as_json:
        print_json({"runs": len(runs), "resumed_complete": done_before, "aggregate": agg})
        return
    t = Table(title=f"{len(runs)} runs ({done_before} already complete) in {out}")
    t.add_column("agent", overflow="fold")
    for col in ("seeds", "wins", "draws", "losses", "losses, last block"):
        t.add_column(col, justify="right")
    for a in agg:
        tot = a["total"]
        last = a["blocks"][-1]["losses"]
        t.add_row(
            a["agent"], str(len(a["seeds"])),
            *(f"{tot[n]['mean']:.1%}±{(tot[n]['high'] - tot[n]['mean']):.1%}"
              for n in ("wins", "draws", "losses")),
            f"{last['mean']:.1%}±{(last['high'] - last['mean']):.1%}",
        )  # fmt: skip
    console.print(t)

"""``purestate sweep``: selfplay over seeds and agent settings, resumable, on any executor.

Folder layout under --out::

    sweep.json                               the sweep's settings
    runs/<setting>/seed-<n>/checkpoint.json  the run's last checkpoint (game count, table digests)
    runs/<setting>/seed-<n>/table.json       the learner's table at that checkpoint (.npz: arrays)
    runs/<setting>/seed-<n>/games.jsonl      one line per game
    runs/<setting>/seed-<n>/summary.json     written last: its presence marks the run complete
    runs/<setting>/seed-<n>/kernels.jsonl    which kernels played it, a line per command
    aggregate.json, aggregate.csv            mean W/D/L per block with 95% bands, per setting
    curves.png                               the mean curves with their bands

An interrupted sweep (Ctrl-C, a killed process) is continued by the same command with ``--resume
DIR``: complete runs are kept as they are, the others continue from their last checkpoint (their
games.jsonl cut back to it first), and the files end up byte for byte as an uninterrupted sweep's
(but kernels.jsonl, which has a line for each command that played a part of the run).
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    MAX_GAMES,
    UserError,
    console,
    err_console,
    friendly,
    print_json,
)
from purestate.cli.options import ALL_CORES, AsJson, Dask, Force, Jobs, games_option
from purestate.cli.selfplay import (
    Restored,
    Seat,
    restore_run,
    run_folder_of,
)
from purestate.core.history import SWEEP_FORMAT, upgrade
from purestate.core.registry import spec_then
from purestate.executors import NotingKernels, executor
from purestate.experiments.selfplay import SELF, Selfplay, summarize
from purestate.experiments.sweep import (
    Chunk,
    ChunkResult,
    aggregate,
    grid_settings,
    parse_seeds,
    play_chunk,
    run_name,
    summary_problem,
)
from purestate.io import plots
from purestate.io.files import FileFormatError, read_json, write_atomic, write_json
from purestate.io.records import append_records
from purestate.io.runs import CHECKPOINT, clean_temporaries, entries, run_folder
from purestate.io.selfplay import note_kernels, save_checkpoint

SWEEP_FILES = ("sweep.json", "runs", "aggregate.json", "aggregate.csv", "curves.png")
"""What a sweep folder holds (``--force`` removes exactly these)."""


def _run_dir(out: Path, run: Selfplay) -> Path:
    return out / "runs" / run_name(run)


def _restore(out: Path, run: Selfplay) -> Restored:
    """Where a run of the sweep stands on disk (its folder may not exist yet)."""
    try:
        return restore_run(_run_dir(out, run), run, run.make_game())
    except FileFormatError as e:
        raise UserError(f"cannot continue the sweep: {e}") from None


def _write_chunk(out: Path, res: ChunkResult) -> None:
    """Log a chunk's games, then commit its tables as the run's checkpoint."""
    run = res.run
    d = _run_dir(out, run)
    d.mkdir(parents=True, exist_ok=True)
    append_records(d, (g.record(run) for g in res.logs))
    played = res.start + len(res.outcomes)
    save_checkpoint(d, run, run.make_game(), res.tables, played, played if res.refused else None)


def _summary(run: Selfplay, outcomes: list[int], resigned: int, refused_at: int | None,
             block: int) -> dict[str, Any]:  # fmt: skip
    return summarize(run, outcomes, resigned, int(refused_at is not None), refused_at, block)


def _write_summary(out: Path, run: Selfplay, outcomes: list[int], resigned: int,
                   refused_at: int | None, block: int) -> None:  # fmt: skip
    write_json(
        _run_dir(out, run) / "summary.json", _summary(run, outcomes, resigned, refused_at, block)
    )


def _complete(restored: Restored, games: int) -> bool:
    return restored.games >= games or restored.refused_at is not None


_AGGREGATED = ("games", "wins", "draws", "losses")
"""The figures the aggregate reads of a run's summary besides its blocks' counts. Its agent, seed
and block are checked by ``summary_problem``; its opponent is a label (``sweep.json``, checked
first, pins the opponent the games were played against), and the aggregate reads both names as
the run's agents write their specs (``_read_summary``)."""


def _figures(summary: dict[str, Any]) -> list[Any]:
    counts = [[b.get(n) for n in ("wins", "draws", "losses")] for b in summary["blocks"]]
    return [*(summary.get(f) for f in _AGGREGATED), counts]


def _check_kept(out: Path, run: Selfplay, games: int, block: int) -> None:
    """Refuse a complete run's summary.json unless the figures the aggregate reads from it are
    those its checkpoint and its games log (which the checkpoint's digest vouches for) give: a
    summary is data, and one edited by hand must not stand in for the games played."""
    d = _run_dir(out, run)
    path = d / "summary.json"
    saved = _read_summary(out, run, games, block)
    restored = _restore(out, run) if os.path.lexists(d / CHECKPOINT) else None
    if restored is not None and _complete(restored, games):
        want = _summary(run, restored.outcomes(), restored.resigned(run.seat),
                        restored.refused_at, block)  # fmt: skip
        if _figures(saved) == _figures(want):
            return
    raise UserError(
        f"{path} is not the summary of the games its checkpoint holds; delete it and "
        "--resume plays the run on from its last checkpoint"
    )


def _read_summary(out: Path, run: Selfplay, games: int, block: int) -> dict[str, Any]:
    """A run's summary.json, refused in one line naming it unless it is the run's summary."""
    path = _run_dir(out, run) / "summary.json"
    summary = read_json(path, follow=False)
    problem = summary_problem(summary, run, games, block)
    if problem is not None:
        raise UserError(
            f"{path} is not this run's summary ({problem}); delete it and --resume writes it "
            "again from the run's checkpoint"
        )
    # a summary written before summaries named the agents by their canonical specs names them
    # as the sweep was typed (rules:p=0.7 for rules); the aggregate groups runs by one name
    agent, opponent = run.specs()
    return {**summary, "agent": agent, "opponent": opponent}


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
    games: Annotated[int, games_option("per run, one run per setting and seed")] = 2000,
    seat: Annotated[Seat, typer.Option(help="The learner's seat.")] = Seat.first,
    block: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Games per block in the curves.")
    ] = 100,
    checkpoint: Annotated[
        int,
        typer.Option(
            min=0, max=MAX_GAMES, help="Save each run every N games (0: once, at its end)."
        ),
    ] = 500,
    out: Annotated[
        Path | None, typer.Option(help="The sweep's folder (default: a new one in ./runs).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the sweep in this folder (same settings).")
    ] = None,
    force: Force = False,
    jobs: Jobs = ALL_CORES,
    dask: Dask = None,
    as_json: AsJson = False,
) -> None:
    """Run selfplay for every agent setting of a grid and every seed; aggregate the curves.

    A folder that already holds a sweep is refused unless --resume continues it (complete runs are
    kept, the others continue from their last checkpoint) or --force replaces it.
    """
    if force and resume is not None:
        raise UserError("--force replaces a sweep and --resume continues it: give one of them")
    # sizes, settings and the executor are checked before anything is built or written
    seed_list = parse_seeds(seeds)
    settings = grid_settings(grid, len(seed_list))
    side = 0 if seat is Seat.first else 1
    runs = [Selfplay(game, a, opponent, side, s) for a in settings for s in seed_list]
    for r in runs[: len(settings)]:
        r.check(r.make_game())  # refuse a run that cannot be played before any work starts
    ex = executor(jobs, dask)
    folder, mode = run_folder_of(resume, out, "sweep")
    manifest = {"grid": list(settings), "seeds": list(seed_list), "opponent": opponent,
                "game": game, "games": games, "seat": seat.value, "block": block,
                "format": SWEEP_FORMAT}  # fmt: skip
    with run_folder(folder, "force" if force else mode, SWEEP_FILES) as out:
        mpath = out / "sweep.json"
        if mode == "resume" and mpath.exists():
            saved = read_json(mpath, follow=False)
            if not isinstance(saved, dict):
                raise UserError(f"{mpath}: not a sweep (a JSON object); nothing was changed")
            if upgrade(saved, "sweep", spec_then) != manifest:
                raise UserError(f"{out} holds a different sweep ({mpath}); choose another --out")
        elif mode == "resume" and entries(out):
            raise UserError(f"{out} holds no sweep (no sweep.json); nothing was changed")
        write_json(mpath, manifest)
        agg, done_before = _sweep(out, runs, games, block, checkpoint, ex, as_json)
        first = runs[0]
        name = first.opponent.partition(":")[0]
        opp = plots.full_spec(name, first.agents()[1]) if first.opponent != SELF else SELF
        title = plots.sweep_title(plots.game_spec_text(first.make_game()), opp, seed_list)
        plots.mean_curves(out / "curves.png", agg, title)
    if as_json:
        print_json({"runs": len(runs), "resumed_complete": done_before, "aggregate": agg})
        return
    t = Table(
        title=f"{len(runs)} runs ({done_before} already complete) in {out}",
        caption="mean ± half-width of its 95% confidence band (Student t across seeds)",
    )
    # agent settings are never cut or folded: the figures' columns wrap their headers instead
    t.add_column("agent", no_wrap=True, min_width=max(len(a["agent"]) for a in agg))
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


def _sweep(
    out: Path, runs: list[Selfplay], games: int, block: int, checkpoint: int, ex: Any,
    as_json: bool,
) -> tuple[list[dict[str, Any]], int]:  # fmt: skip
    """Play every run of the sweep to its end from where it stands; write and return the
    aggregate, and how many runs were complete before."""
    state: dict[Selfplay, tuple[int, Any, list[int], int]] = {}
    for r in runs:
        if os.path.lexists(_run_dir(out, r) / "summary.json"):
            _check_kept(out, r, games, block)  # refused now, before any game is played
            clean_temporaries(_run_dir(out, r))
            continue
        restored = _restore(out, r)
        outcomes = restored.outcomes()
        resigned = restored.resigned(r.seat)
        if _complete(restored, games):
            # killed after its last checkpoint but before its summary
            _write_summary(out, r, outcomes, resigned, restored.refused_at, block)
            continue
        state[r] = (restored.games, restored.tables, outcomes, resigned)
    done_before = len(runs) - len(state)
    step = checkpoint or games
    total_games = sum(games - s[0] for s in state.values())
    progress = Progress(
        TextColumn("[bold]sweep[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err_console, disable=as_json,
    )  # fmt: skip
    # each run's part of this command (its first game, the games committed) and which kernels
    # played it, noted in its kernels.jsonl when the command stops, as selfplay notes a run
    parts: dict[Selfplay, tuple[int, int, set[str]]] = {}
    try:
        _play(out, state, games, block, step, ex, progress, total_games, parts)
    finally:
        for r, (first, committed, used) in parts.items():
            note_kernels(_run_dir(out, r), first, committed, used)
    summaries = [_read_summary(out, r, games, block) for r in runs]
    agg = aggregate(summaries)
    write_json(out / "aggregate.json", agg)
    write_atomic(out / "aggregate.csv", _csv(agg))
    return agg, done_before


def _play(
    out: Path, state: dict[Selfplay, tuple[int, Any, list[int], int]], games: int, block: int,
    step: int, ex: Any, progress: Progress, total_games: int,
    parts: dict[Selfplay, tuple[int, int, set[str]]],
) -> None:  # fmt: skip
    """Play the unfinished runs in ``state`` to ``games``, a chunk of each at a time, writing
    each chunk as it comes back; ``parts`` gets each run's games committed and kernels."""
    with progress:
        task = progress.add_task("games", total=total_games)
        base = 0
        while state:
            chunks = [Chunk(r, s[0], min(step, games - s[0]), s[1]) for r, s in state.items()]
            size = sum(c.games for c in chunks)

            def advance(done: int, total: int, base: int = base, size: int = size) -> None:
                progress.update(task, completed=base + size * done // max(1, total))

            results = ex.run(NotingKernels(play_chunk), chunks, advance)
            base += size
            for res, used in results:
                _write_chunk(out, res)
                _, _, outcomes, resigned = state[res.run]
                outcomes = outcomes + list(res.outcomes)
                played = res.start + len(res.outcomes)
                first, _, seen = parts.get(res.run, (res.start, 0, set()))
                parts[res.run] = (first, played, {*seen, used})
                resigned += res.resigned
                if played >= games or res.refused:
                    refused_at = played if res.refused else None
                    _write_summary(out, res.run, outcomes, resigned, refused_at, block)
                    del state[res.run]
                else:
                    state[res.run] = (played, res.tables, outcomes, resigned)

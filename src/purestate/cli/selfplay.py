"""``purestate selfplay``: train a learner against an opponent and write what it learned."""

from __future__ import annotations

import contextlib
import os
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from attrs import frozen
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    MAX_GAMES,
    UserError,
    agent_from,
    console,
    err_console,
    friendly,
    new_run_dir,
    print_json,
)
from purestate.cli.options import AsJson, Dask, Force, Jobs, Out, Seed, games_option
from purestate.core import compiled
from purestate.core.agent import check_game
from purestate.core.history import VERSION, upgrade, version_of
from purestate.core.hooks import last_loss_of, selfplay_jobs_of, simulations_of
from purestate.core.keys import key
from purestate.core.learning import wilson
from purestate.core.registry import agent_spec, make_spec, spec_then
from purestate.core.spec import SpecError, format_spec
from purestate.executors import Executor, executor, kept, noting_kernels
from purestate.experiments.references import default_references, reference_point
from purestate.experiments.selfplay import Selfplay, game_record
from purestate.io.files import FileFormatError, sync, write_json
from purestate.io.records import appending, records_text
from purestate.io.runs import (
    Mode,
    RunFolderError,
    check_manifest,
    clean_temporaries,
    cut_log,
    read_manifest,
    recover,
    run_folder,
)
from purestate.io.runs import (
    entries as _entries,
)
from purestate.io.selfplay import (
    LOG_DIGEST,
    RUN_FILES,
    SEATS,
    TABLE_FILES,
    check_records,
    check_run_format,
    note_kernels,
    read_references,
    save_checkpoint,
    table_files,
    write_curve,
    write_reference_curve,
    write_summary,
)
from purestate.io.selfplay import (
    manifest as run_manifest,
)
from purestate.io.solutions import load_or_solve
from purestate.io.tables import load_table


class Seat(StrEnum):
    """Which side a player takes."""

    first = "first"
    second = "second"


_IDENTITY = ("command", "game", "agent", "opponent", "seat", "seed", "references")
"""The manifest fields a resumed run must share with the command that continues it."""


def _spec_today(text: Any) -> Any:
    """A saved agent spec as that agent writes it today (``qlearning:preset=seed`` is now
    ``qlearning_notebook``, ``seedbot`` is ``xtreme2019``); anything else as it is."""
    return agent_spec(text)


def _game_today(text: Any) -> Any:
    """A saved game spec as that game writes it today (``numbering=seed`` is now
    ``numbering=notebook``); anything else as it is."""
    try:
        g = make_spec(str(text))
    except (SpecError, ValueError):
        return text
    return format_spec(g.spec.name, g)


_CANONICAL = {"game": _game_today, "agent": _spec_today, "opponent": _spec_today}


def _spelled_then(text: str, version: int) -> Any:
    """A spec saved in a ``run.json`` of format ``version`` as it is written today, meaning what
    it meant then (``core.registry.spec_then``)."""
    return _spec_today(spec_then(text, version))


def _as_today(saved: dict[str, Any]) -> dict[str, Any]:
    """A saved ``run.json`` as today's format writes it (``core.history.upgrade``: the specs of an
    older format spelled out as they meant then)."""
    return upgrade(saved, "run", _spelled_then)


@frozen
class Restored:
    """Where a run stands on disk: its last checkpoint and the games logged up to it.

    Attributes:
        tables: Both seats' tables at the checkpoint.
        records: The logged games up to the checkpoint (games.jsonl's records, cut back to it).
        refused_at: The game after which the learner refused to play (the run is over), or None.
    """

    tables: tuple[Any, Any]
    records: tuple[dict[str, Any], ...]
    refused_at: int | None
    references: tuple[dict[str, Any], ...] = ()

    @property
    def games(self) -> int:
        """Games played up to the checkpoint."""
        return len(self.records)

    def outcomes(self) -> list[int]:
        """The learner's outcome (+1 / 0 / -1) in each logged game."""
        return [{"win": 1, "draw": 0, "loss": -1}[r["result"]] for r in self.records]

    def resigned(self, seat: int) -> int:
        """How many logged games ``seat`` resigned."""
        return sum(1 for r in self.records if r["resigned"] == seat)


def _load_checked(
    path: Path, game: Any, who: Any, seat: int | None, games: int, version: int
) -> Any:
    """A checkpoint's table, refused unless it was saved by ``who`` after ``games`` games, at
    ``seat`` (None: a table both seats share); its spec means what it meant in the run's format
    ``version``, as the run's own specs do, or under the defaults the file says it was written
    under: a resumed run's ``run.json`` says today's format from the start, its specs spelled
    out, while its checkpoint's table stays the older code's until the next checkpoint, and a run
    stopped in between must still resume. A file from before the ``defaults`` field was written
    under a version no later than the run's."""
    loaded = load_table(path, game, who, follow=False)  # the run folder's own table
    written = range(1, version + 1) if loaded.defaults is None else (version, loaded.defaults)
    spelled = {agent_spec(spec_then(loaded.agent, v)) for v in written}
    if who.spec not in spelled:
        said = agent_spec(spec_then(loaded.agent, version))
        raise FileFormatError(f"{path}: a table of {said!r}, not of {who.spec!r}")
    if seat is not None and loaded.seat != seat:
        raise FileFormatError(f"{path}: a table for the {SEATS[loaded.seat]} player")
    if loaded.games != games:
        raise FileFormatError(f"{path}: {loaded.games} games, but the checkpoint has {games}")
    return loaded.table


def restore_run(folder: Path, run: Selfplay, game: Any, version: int = VERSION) -> Restored:
    """The state of the run in ``folder``: its checkpoint verified against its tables and log
    (written under format ``version`` of ``core.history``).

    A folder with no checkpoint yet (a run killed before its first one) starts from game 0; its
    partial log is cut to nothing.

    Raises:
        FileFormatError: tables that are not this run's, a log shorter than the checkpoint, or
            files that disagree with the checkpoint (one line each).
    """
    ck = recover(folder)
    clean_temporaries(folder)
    names = table_files(run)
    if ck is None:
        stray = [folder / n for n in TABLE_FILES if os.path.lexists(folder / n)]
        if stray:
            raise RunFolderError(
                f"{stray[0]} is not part of a checkpoint (an older purestate wrote "
                "it?); --force starts the run again"
            )
        cut_log(folder / "games.jsonl", 0, run.seed)
        return Restored(run.initial_tables(game), (), None)
    games = ck.get("games")
    if type(games) is not int or not 0 <= games <= MAX_GAMES:
        raise RunFolderError(
            f"{folder / 'checkpoint.json'}: 'games' is {games!r}, not a count of games from 0 to "
            f"{MAX_GAMES:,}; the run cannot be resumed (--force starts it again)"
        )
    refused_at = ck.get("refused_at")
    if refused_at is not None and (type(refused_at) is not int or not 0 <= refused_at <= games):
        raise RunFolderError(
            f"{folder / 'checkpoint.json'}: 'refused_at' is {refused_at!r}, not null or a game "
            f"of the checkpoint's {games}; the run cannot be resumed (--force starts it again)"
        )
    missing = [n for n in names if n not in ck["files"]]
    if missing:
        raise RunFolderError(f"{folder / missing[0]} is missing from the checkpoint")
    learner, opp = run.agents()
    mine = _load_checked(
        folder / names[0], game, learner, None if run.shared else run.seat, games, version
    )
    tables: list[Any] = [mine, mine]
    if not run.shared:
        tables = list(run.initial_tables(game))
        tables[run.seat] = mine
        if len(names) > 1:
            other = folder / names[1]
            tables[1 - run.seat] = _load_checked(other, game, opp, 1 - run.seat, games, version)
    records = cut_log(folder / "games.jsonl", games, run.seed)
    check_records(folder, run, records, ck.get(LOG_DIGEST))
    points = read_references(folder, ck) or []
    return Restored((tables[0], tables[1]), tuple(records), refused_at, tuple(points))


def run_folder_of(resume: Path | None, out: Path | None, prefix: str) -> tuple[Path, Mode]:
    """The folder a command writes and how to open it, from ``--resume`` and ``--out``.

    ``--resume`` names the run folder or a file in it (its table); ``--out``, if also given,
    must be that folder. Without either, a new numbered folder under ./runs is used.
    """
    if resume is None:
        return (out if out is not None else new_run_dir(Path("runs"), prefix)), "new"
    folder = resume.parent if resume.is_file() else resume
    if not folder.is_dir():
        raise UserError(f"--resume {resume}: no such run folder")
    if out is not None and out.resolve() != folder.resolve():
        raise UserError(f"--resume continues the run in {folder}; --out names another folder")
    return folder, "resume"


def _typed(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or by its variable)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


def _saved_settings(folder: Path) -> dict[str, Any]:
    """What a saved run was started with (run.json's identity fields that are well-formed)."""
    saved = _as_today(read_manifest(folder / "run.json") or {})
    typed = saved.get("as_typed")
    if isinstance(typed, dict):  # absent from runs saved before it was kept
        saved = {**saved, **typed}
    kinds = {"game": str, "agent": str, "opponent": str, "seat": str, "seed": int,
             "references": dict}  # fmt: skip
    found = {k: saved[k] for k, kind in kinds.items() if type(saved.get(k)) is kind}
    if found.get("seat") not in (None, *SEATS):
        del found["seat"]
    return found


def _saved_games(path: Path, saved: dict[str, Any] | None, start: int) -> int:
    """The run's total as its manifest saved it (``start`` if it has none), checked as
    ``--games`` is: a whole number from 1 to ``MAX_GAMES``."""
    if saved is None or "games" not in saved:
        return start
    total = saved["games"]
    if type(total) is not int or not 1 <= total <= MAX_GAMES:
        raise RunFolderError(
            f"{path}: 'games' is {total!r}, not a number of games from 1 to {MAX_GAMES:,}; "
            "give the run's total with --games N"
        )
    return total


@app.command("selfplay")
@friendly
def selfplay_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Option(help="Game spec, e.g. tictactoe.")] = "tictactoe",
    agent: Annotated[str, typer.Option(help="The learner's spec.")] = "menace",
    opponent: Annotated[
        str, typer.Option(help="Opponent spec, or 'self' for a copy that learns too.")
    ] = "rules:p=0.7",
    games: Annotated[
        int | None,
        games_option("in the run, all told [default: 1000; resumed: as saved]"),
    ] = None,
    seed: Seed = 0,
    seat: Annotated[Seat, typer.Option(help="The learner's seat.")] = Seat.first,
    out: Out = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue the run in this folder (or its table file) to --games."),
    ] = None,
    more: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_GAMES, help="With --resume: play N games past the saved run."),
    ] = None,
    force: Force = False,
    block: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Games per block in the summary.")
    ] = 100,
    checkpoint: Annotated[
        int,
        typer.Option(min=0, max=MAX_GAMES, help="Save the tables every N games (0: at the end)."),
    ] = 0,
    plot: Annotated[bool, typer.Option(help="Write learning_curve.png.")] = True,
    reference: Annotated[
        list[str] | None,
        typer.Option(
            help="A fixed reference the greedy learner plays at the start, at each checkpoint "
            "and at the end (repeat for more) [default with --reference-games: random, "
            "mcts:simulations=100, and perfect where the game is solved]."
        ),
    ] = None,
    reference_games: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_REFERENCE_GAMES,
            help="Games against each reference at each point, seats alternating; writes "
            "references.json and references.png [default with --reference: 20; none without "
            "either; resumed: as saved].",
        ),
    ] = None,
    jobs: Jobs = 1,
    dask: Dask = None,
    as_json: AsJson = False,
) -> None:
    """Train a learner (MENACE by default) against an opponent.

    Writes table.json (table.npz for a learner whose table is arrays), games.jsonl, summary.json
    and learning_curve.png into --out. A folder that
    already holds a run is refused unless --resume continues it or --force replaces it; a resumed
    run gives the same files as one that was never interrupted. --resume takes the game, agent,
    opponent, seat and seed the run was started with (--seed defaults to 0 otherwise).
    """
    if more is not None and resume is None:
        raise UserError("--more trains a saved run further: name it with --resume")
    if force and resume is not None:
        raise UserError("--force replaces a run and --resume continues it: give one of them")
    folder, mode = run_folder_of(resume, out, "selfplay")
    # a resumed run takes what it was started with; an option given again must agree with it
    # (check_manifest below refuses one that does not)
    saved_as = _saved_settings(folder) if mode == "resume" else {}
    pairs = [("game", game), ("agent", agent), ("opponent", opponent), ("seat", seat.value),
             ("seed", seed)]  # fmt: skip
    given = {k: v for k, v in pairs if k not in saved_as or _typed(ctx, k)}
    settings = {**saved_as, **given}
    run = Selfplay(
        settings["game"],
        settings["agent"],
        settings["opponent"],
        SEATS.index(settings["seat"]),
        settings["seed"],
    )
    g = run.make_game()
    run.check(g)  # refuse a run that cannot be played before anything is written
    if reference is not None or reference_games is not None:
        specs = reference if reference else list(default_references(g))
        settings["references"] = {"agents": specs, "games": reference_games or 20}
    references = _references(settings.get("references"), g)
    spread = selfplay_jobs_of(run.agents()[0]) if run.shared else None
    if (jobs > 1 or dask) and spread is None:
        raise UserError(
            f"--jobs and --dask spread the self-play of a learner that plays in jobs (against "
            f"'self'); {run.specs()[0]} against {run.specs()[1]} plays one game after another"
        )
    # spawned, not forked: a learner's own threads (JAX's) may already run in this process
    ex = executor(jobs, dask, start_method="spawn") if spread is not None else None
    if more is not None and games is not None:
        raise UserError("--games is the run's total and --more plays past it: give one of them")
    manifest = run_manifest(run, g)
    if references is not None:  # absent when off: the manifests of runs without stay as they were
        manifest["references"] = {"agents": [s for s, _ in references[0]], "games": references[1]}
    with run_folder(folder, "force" if force else mode, RUN_FILES) as out_dir:
        restored = Restored(run.initial_tables(g), (), None)
        saved = read_manifest(out_dir / "run.json") if mode == "resume" else None
        if saved is not None:
            check_run_format(out_dir / "run.json", saved)
            version = version_of(saved, "run") or VERSION
            saved = _as_today(saved)
            check_manifest(out_dir / "run.json", saved, manifest, _IDENTITY, _CANONICAL)
            restored = restore_run(out_dir, run, g, version)
        elif mode == "resume" and any(_entries(out_dir)):
            raise UserError(f"{out_dir} holds no selfplay run (no run.json); nothing was changed")
        elif mode == "resume":
            # killed before its settings were saved: what it was started with is not known, so
            # it is not guessed (the defaults would make another run under the same name)
            raise UserError(
                f"{out_dir} holds no saved settings (the run was stopped before it saved any): "
                f"start it again with the original command and --out {out_dir}"
            )
        start = restored.games
        # a total given again replaces the saved one, which is then never read
        path = out_dir / "run.json"
        total_saved = start if games is not None else _saved_games(path, saved, start)
        if more is not None and total_saved > start and restored.refused_at is None:
            raise UserError(
                f"{out_dir} stopped at game {start} of {total_saved}: "
                f"finish it first with --resume {out_dir}"
            )
        if more is not None:
            total = start + more
        elif games is not None:
            total = games
        else:
            total = total_saved if saved is not None else 1000
        if total < start:
            raise UserError(
                f"{out_dir} has {start} games already; --games is the run's total "
                f"(use --more to play more)"
            )
        if restored.refused_at is not None:
            total = start  # MENACE refused to play: the run ended there
        write_json(out_dir / "run.json", {**manifest, "games": total})
        summary = _train(run, g, out_dir, restored, total, checkpoint, block, as_json, plot,
                         Workers(ex, max(jobs, 1)), references)  # fmt: skip
    if as_json:
        print_json(summary)
        return
    _print_summary(summary)


@frozen
class Workers:
    """Where a learner that plays in jobs plays them.

    Attributes:
        executor: The executor (None: in this process, one job a part).
        jobs: How many jobs each part of an iteration is cut into.
    """

    executor: Executor | None = None
    jobs: int = 1


MAX_REFERENCE_GAMES = 10_000

References = tuple[list[tuple[str, Any]], int]
"""The references a run's learner is measured against, (spec, agent) each, and the games
against each at every point."""


def _references(saved: Any, game: Any) -> References | None:
    """The references of ``saved`` settings (``{"agents": [...], "games": M}``, as run.json
    keeps them), built; None for a run without.

    Raises:
        UserError: a reference that is not an agent, or a count out of range (one line).
    """
    if saved is None:
        return None
    specs, games = saved.get("agents"), saved.get("games")
    if not isinstance(specs, list) or not specs or not all(isinstance(x, str) for x in specs):
        raise UserError(f"references {specs!r}: not a list of agent specs")
    if type(games) is not int or not 1 <= games <= MAX_REFERENCE_GAMES:
        raise UserError(f"--reference-games {games!r}: not from 1 to {MAX_REFERENCE_GAMES:,}")
    built = []
    for spec in specs:
        a = agent_from(spec)
        if a.learns:
            raise UserError(f"--reference {spec}: a reference must not learn (it plays fresh)")
        check_game(a, game)
        built.append((a.spec, a))
    return built, games


def _train(
    run: Selfplay, g: Any, out_dir: Path, restored: Restored, total: int, checkpoint: int,
    block: int, as_json: bool, plot: bool = True, workers: Workers = Workers(),
    references: References | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play the run from its checkpoint to ``total`` games, logging and checkpointing; write the
    summary and the learning curve for the whole run, and return the summary."""
    me = run.seat
    start = restored.games
    outcomes = restored.outcomes()
    resigned = restored.resigned(me)
    first_refusal = restored.refused_at
    tables = restored.tables
    progress = Progress(
        TextColumn("[bold]selfplay[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("W {task.fields[w]} D {task.fields[d]} L {task.fields[l]}"),
        TextColumn("{task.fields[search]}"),
        TimeRemainingColumn(),
        console=err_console,
        disable=as_json,
    )
    w, d, losses = (sum(1 for o in outcomes if o == v) for v in (1, 0, -1))
    played = start
    # a short new run keeps its games' moves for the summary, which need not read the log back
    moves: list[tuple[Any, ...]] | None = [] if start == 0 and total <= MOVES_KEPT else None
    speed = SearchSpeed(simulations_of(run.agents()[0]))
    learner = run.agents()[0]

    def measured(points: list[dict[str, Any]] | None, tables: Any, played: int) -> Any:
        """``points`` with the learner measured after ``played`` games (once), or None."""
        if references is None or points is None:
            return None
        if points and points[-1]["games"] == played:
            return points
        point = reference_point(g, learner, tables[run.seat], references[0], references[1],
                                key(run.seed), played)  # fmt: skip
        return [*points, point]

    if references is not None and any(s == "perfect" for s, _ in references[0]):
        load_or_solve(g)  # the disk cache of the solution, when there is one
    # a point at the start, before any training, then one at each checkpoint and at the end
    points = None if references is None else list(restored.references)
    if start == 0:
        points = measured(points, tables, 0)
    kernels: set[str] = set()  # which kernels the workers ran (this process's: compiled.used)
    committed = start
    noted: list[str] = []

    def note() -> None:
        """The part this command played, noted even when stopped: what it committed."""
        if committed > start:
            noted.append(note_kernels(out_dir, start, committed, {*kernels, compiled.used()}))

    try:
        with contextlib.ExitStack() as stack:
            log = stack.enter_context(appending(out_dir))
            stack.enter_context(progress)
            ex = None if workers.executor is None else stack.enter_context(kept(workers.executor))
            task = progress.add_task("games", total=total, completed=start, w=w, d=d, l=losses,
                                     search="")  # fmt: skip
            run_jobs = None if ex is None else noting_kernels(ex.run, kernels)
            stretches = run.stretches(g, tables, start, total - start, checkpoint, run_jobs,
                                      workers.jobs)  # fmt: skip
            for stretch in stretches:
                tables = stretch.tables
                search = speed.after(stretch, tables[run.seat]) if run.shared else ""
                for ep in stretch.episodes:
                    o = ep.outcome(me)
                    outcomes.append(o)
                    w, d, losses = w + (o > 0), d + (o == 0), losses + (o < 0)
                    resigned += ep.resigned == me
                if moves is not None:
                    moves.extend(ep.moves for ep in stretch.episodes)
                # one write per stretch: the log is synced at checkpoints and at the end
                log.write(records_text(game_record(played + i, run, ep)
                                       for i, ep in enumerate(stretch.episodes)))  # fmt: skip
                played += len(stretch.episodes)
                progress.update(task, advance=len(stretch.episodes), w=w, d=d, l=losses,
                                search=search)  # fmt: skip
                if stretch.refused:
                    first_refusal = played  # an empty first box: MENACE refuses, as in Scroggs'
                elif checkpoint and played % checkpoint == 0 and played < total:
                    sync(log)
                    points = measured(points, tables, played)
                    save_checkpoint(out_dir, run, g, tables, played, None, points)
                    committed = played
        # after the log is closed and synced: the checkpoint vouches for it
        points = measured(points, tables, played)
        save_checkpoint(out_dir, run, g, tables, played, first_refusal, points)
        committed = played
    finally:
        note()
    summary = write_summary(out_dir, run, g, outcomes, resigned, first_refusal, block, moves)
    if plot:
        write_curve(out_dir, run, summary, outcomes)
    if plot and points:
        write_reference_curve(out_dir, run, g, points)
    # printed, not saved: the folder is where summary.json is, and may be moved; the kernels
    # are in kernels.jsonl, apart from the results
    shown = {**summary, "kernels": noted[-1] if noted else "python", "out": str(out_dir)}
    return {**shown, "references": points[-1]} if points else shown


MOVES_KEPT = 100_000
"""The most games whose moves a new run keeps in memory for its summary (a few tens of MB);
a longer or resumed run's summary reads them back from its log."""


class SearchSpeed:
    """The progress bar's figures of a learner that searches while it learns: the positions
    searched, the last training's loss and simulations per second (each simulation evaluates
    at most one new leaf, with the network for ``alphazero``)."""

    def __init__(self, simulations: int | None) -> None:
        self.simulations = simulations
        self.positions = 0
        self.started = time.monotonic()

    def after(self, stretch: Any, table: Any) -> str:
        """The figures after ``stretch``, with the learner's ``table`` after it."""
        self.positions += sum(len(ep.moves) for ep in stretch.episodes)
        parts = [f"positions {self.positions:,}"]
        loss = last_loss_of(table)
        if loss is not None:
            parts.append(f"loss {loss:.3f}")
        seconds = time.monotonic() - self.started
        if self.simulations and seconds > 0:
            parts.append(f"{self.positions * self.simulations / seconds:,.0f} sims/s")
        return "  ".join(parts)


# At most this many block rows are printed, so the table fits a screen; summary.json has them all.
MAX_ROWS = 20


def merged_blocks(blocks: list[dict[str, Any]], rows: int = MAX_ROWS) -> tuple[int, list[Any]]:
    """Consecutive blocks summed k at a time so that at most ``rows`` remain, and that k.

    Args:
        blocks: The summary's blocks, each with ``wins``, ``draws`` and ``losses``.
        rows: The most rows wanted.

    Returns:
        k (1 when the blocks already fit) and the merged blocks, in order.
    """
    k = max(1, -(-len(blocks) // rows))
    merged = [
        {c: sum(b[c] for b in blocks[i : i + k]) for c in ("wins", "draws", "losses")}
        for i in range(0, len(blocks), k)
    ]
    return k, merged


def _print_summary(summary: dict[str, Any]) -> None:
    k, blocks = merged_blocks(summary["blocks"])
    block = summary["block"] * k
    caption = "\\[low, high]: 95% Wilson interval of the loss rate"  # rich reads [..] as markup
    if k > 1:
        caption += (
            f"; each row is {k} blocks of {summary['block']} games "
            f"(all {len(summary['blocks'])} in summary.json)"
        )
    table = Table(
        title=f"{summary['agent']} vs {summary['opponent']} (seed {summary['seed']})",
        caption=caption,
    )
    for col in ("games", "wins", "draws", "losses", "loss rate"):
        table.add_column(col, justify="right")
    for i, b in enumerate(blocks):
        n = b["wins"] + b["draws"] + b["losses"]
        lo = i * block + 1
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
    if "references" in summary:
        point = summary["references"]
        for r in point["references"]:
            console.print(
                f"after {point['games']:,} games, greedy against {r['reference']}: score "
                f"{r['score']:.1%} [{r['low']:.1%}, {r['high']:.1%}] over {r['games']} games "
                f"(W {r['wins']} D {r['draws']} L {r['losses']})"
            )
    console.print(f"results in {summary['out']}/")

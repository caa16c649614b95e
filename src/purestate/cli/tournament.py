"""``purestate tournament``: a round robin between agents, on K local processes."""

from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

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
from purestate.cli.options import ALL_CORES, AsJson, Dask, Explore, Force, Jobs, Seed, games_option
from purestate.core.agent import Trained, check_game, greedy_agent
from purestate.core.hooks import playing_table, supports_seat
from purestate.core.record import Record, game_spec
from purestate.executors import Executor, executor
from purestate.experiments.tournament import (
    BOOTSTRAP,
    GameResult,
    Schedule,
    Standings,
    play_job,
    schedule,
    standings,
)
from purestate.io.files import write_atomic, write_json
from purestate.io.records import records_text
from purestate.io.runs import run_folder
from purestate.io.tables import TABLE_PLAYER, table_player

TOURNAMENT_FILES = ("standings.json", "pairs.csv", "games.jsonl")
"""What a tournament folder holds (``--force`` removes exactly these)."""

MAX_AGENTS = 100
"""The most agents one tournament takes (each pair plays; the Elo fit grows as agents³)."""

MAX_TOURNAMENT_GAMES = 1_000_000
"""The most games one tournament plays in all (pairs × --games): each game's result is kept in
memory for the standings and games.jsonl (about 0.5 kB a tic-tac-toe game)."""


@app.command(
    "tournament",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": False},
)
@friendly
def tournament_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Option("--game", "-g", help="The game, NAME[:key=value,...].")],
    agents: Annotated[
        list[str],
        typer.Option(
            "--agents",
            "-a",
            help="Agent specs: --agents SPEC SPEC [SPEC ...] (or repeat --agents).",
        ),
    ],
    games: Annotated[
        int, games_option("per pair of agents, seats alternating (pairs × N in all)", "-n")
    ] = 10,
    seed: Seed = 0,
    jobs: Jobs = ALL_CORES,
    dask: Dask = None,
    as_json: AsJson = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write standings and games into this folder.")
    ] = None,
    force: Force = False,
    explore: Explore = False,
) -> None:
    """Play a round robin (seats alternate) and show W/D/L with 95% Wilson intervals and Elo.

    An entrant is an agent spec or table:PATH, the learner that saved the table file at PATH
    (table.json, table.npz) playing from it; table:PATH?SPEC lays SPEC's options over the
    file's agent (table:runs/c4/table.npz?alphazero:leaves=8), so one table can meet itself.

    The results depend only on the agents, the game, --games and --seed: --jobs changes the speed,
    not the games. Learning agents play greedily (from fresh tables) unless --explore. Example:
    purestate tournament --game tictactoe --agents random mcts alphabeta --games 20 --seed 1
    --jobs 2
    """
    specs = [*agents, *ctx.args]
    stray = [s for s in specs if s.startswith("-")]
    if stray:
        raise UserError(f"unknown option {stray[0]!r}")
    if len(specs) < 2:
        raise UserError("give at least two agents: --agents SPEC SPEC [SPEC ...]")
    if len(specs) > MAX_AGENTS:
        raise UserError(f"{len(specs)} agents; a tournament takes at most {MAX_AGENTS}")
    if games < 1:
        raise UserError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    # sizes first, counted: every game's result is kept for the standings and the games log
    pair_count = len(specs) * (len(specs) - 1) // 2
    if pair_count * games > MAX_TOURNAMENT_GAMES:
        raise UserError(
            f"{pair_count:,} pairs × {games:,} games make {pair_count * games:,} games; "
            f"a tournament plays at most {MAX_TOURNAMENT_GAMES:,}"
        )
    the_game = game_from(game)
    entrants = [entrant(s, the_game, explore) for s in specs]
    for a in entrants:  # refused before the seed line and the workers (schedule checks too)
        check_game(a, the_game)
    names = [a.spec for a in entrants]
    ex = executor(jobs, dask)
    # the folder is opened (and locked) before the games, so a bad --out costs no games
    folder = (
        run_folder(out, "force" if force else "new", TOURNAMENT_FILES)
        if out is not None
        else contextlib.nullcontext(None)
    )
    with folder as written:
        plan = schedule(the_game, entrants, games, seed)  # lazy: each game is made when played
        summary, results = _play(game, names, plan, games, seed, ex, as_json)
        if written is not None:
            write_json(written / "standings.json", summary)
            write_atomic(written / "pairs.csv", _pairs_csv(summary))
            write_atomic(written / "games.jsonl", _games_jsonl(the_game, names, results, seed))
            err_console.print(f"wrote {written}")
    if as_json:
        print_json(summary)
        return
    _show(summary)


def entrant(spec: str, game: Any, explore: bool) -> Any:
    """The agent an entrant's text names (``--agents``): an agent spec (from a fresh table), or
    ``table:PATH`` (``io.tables.TABLE_PLAYER``), the learner that saved the table file at PATH
    (``table.json``, ``table.npz``) playing from it, with ``?SPEC`` after the path laid over the
    file's agent as ``--agent`` beside ``--table`` does for ``evaluate``
    (``io.tables.table_player``); greedy unless ``explore``.

    Raises:
        UserError: a table that plays only one seat (a round robin alternates them).
    """
    if not spec.startswith(TABLE_PLAYER):
        return agent_from(spec) if explore else greedy_agent(agent_from(spec))
    named, laid = table_player(spec)
    learner, loaded = table_from(Path(named), game, laid)
    light = playing_table(learner, loaded.table)  # what play reads: the workers get it
    trained = Trained(learner if explore else greedy_agent(learner), light, spec)
    if not all(supports_seat(trained, loaded.table, seat) for seat in (0, 1)):
        raise UserError(f"{spec}: a table for one seat; a tournament alternates the seats")
    return trained


def _play(game: str, names: list[str], plan: Schedule, games: int, seed: int, ex: Executor,
          as_json: bool) -> tuple[dict[str, Any], list[GameResult]]:  # fmt: skip
    """Play the plan: the summary, and every game's result for the games log."""
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=as_json,
    ) as bar:
        task = bar.add_task("tournament", total=len(plan))
        results = ex.run(play_job, plan, lambda done, total: bar.update(task, completed=done))
        elo = bar.add_task("Elo intervals", total=BOOTSTRAP)
        table = standings(
            len(names), results, seed=seed,
            progress=lambda done, total: bar.update(elo, completed=done),
        )  # fmt: skip
    return standings_summary(game, names, games, seed, table), results


def standings_summary(
    game: str, names: list[str], games: int, seed: int, table: Standings
) -> dict[str, Any]:
    """The tournament's figures as ``--json`` prints them, the agents ranked by rating."""
    # ratings equal to a millionth of a point are a tie (the fit's last digits are noise): the
    # first-listed agent ranks first, on every machine
    ranked = sorted(table.ratings, key=lambda r: (-round(r.elo, 6), r.entrant))
    return {
        "game": game,
        "seed": seed,
        "games_per_pair": games,
        "agents": names,
        "ratings": [
            {
                "agent": names[r.entrant],
                "elo": round(r.elo, 1),
                "elo_low": round(r.interval[0], 1),
                "elo_high": round(r.interval[1], 1),
                **_interval_note(games, r.interval),
                **r.tally.as_dict(),
                "score": round(r.tally.score, 4),
            }
            for r in ranked
        ],
        "pairs": [
            {
                "agent": names[p.first],
                "opponent": names[p.second],
                **p.tally.as_dict(),
                "score": round(p.tally.score, 4),
                "score_low": round(p.score_interval[0], 4),
                "score_high": round(p.score_interval[1], 4),
            }
            for p in table.pairs
        ],
    }


MIN_GAMES_FOR_INTERVAL = 10
"""Fewer games per pair than this leave an Elo interval too rough to print: it says so."""


def _interval_note(games: int, interval: tuple[float, float]) -> dict[str, str]:
    """Why a rating's 95% interval is not worth reading, if it is not (``{}`` if it is).

    The bootstrap resamples each pair's own games, so a pair whose every game went one way
    resamples to itself: the interval shrinks to a point however few games there were.
    """
    if games < MIN_GAMES_FOR_INTERVAL:
        return {"interval_note": "too few games"}
    if interval[1] - interval[0] < 1.0:
        return {"interval_note": "every game one way"}
    return {}


def _pairs_csv(summary: dict[str, Any]) -> str:
    buf = io.StringIO()
    fields = ["agent", "opponent", "wins", "draws", "losses", "score", "score_low", "score_high"]
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in summary["pairs"]:
        writer.writerow(row)
    return buf.getvalue()


def _games_jsonl(game: Any, names: list[str], results: list[GameResult], seed: int) -> str:
    spec = game_spec(game)
    records = []
    for r in results:
        players = (names[r.entrants[0]], names[r.entrants[1]])
        records.append(
            Record.from_game(spec, players, seed, r.index, r.moves, r.returns, r.resigned)
        )
    return records_text(records)


def _name_column(header: str, width: int) -> Column:
    """A column that shows every agent name in full (rich would otherwise end it with …)."""
    return Column(header, no_wrap=True, min_width=width)


def _show(summary: dict[str, Any]) -> None:
    names = summary["agents"]  # in the order given (the ratings are in rank order)
    ratings, pairs = _tables(summary, {n: n for n in names})
    # measured as if the terminal were unbounded: rich clamps a measure to the console's width
    unbounded = console.options.update_width(10**6)
    if console.measure(pairs, options=unbounded).minimum > console.width:
        # two whole names side by side leave no room for the figures (a table file's path with
        # options laid over): the tables name the agents #1, #2, ... and list them first
        labels = {n: f"#{i}" for i, n in enumerate(names, 1)}
        console.print("agents:")
        for n in names:
            console.print(f"  {labels[n]} {n}", markup=False, highlight=False, soft_wrap=True)
        ratings, pairs = _tables(summary, labels)
    console.print(ratings)
    console.print(pairs)


def _tables(summary: dict[str, Any], label: dict[str, str]) -> tuple[Table, Table]:
    """The ratings and the pairs tables, each agent shown as ``label[name]``."""
    title = f"{summary['game']}: {summary['games_per_pair']} games per pair, seed {summary['seed']}"
    # names are never cut: agent columns keep their width and the intervals wrap instead
    width = max(len(label[r["agent"]]) for r in summary["ratings"])
    ratings = Table(
        "rank",
        _name_column("agent", width),
        "Elo",
        Column("95% interval", overflow="fold"),
        "W",
        "D",
        "L",
        "score",
        title=title,
        caption="W/D/L: wins, draws, losses; score: (W + D/2) / games",
    )
    for rank, r in enumerate(summary["ratings"], 1):
        ratings.add_row(
            str(rank),
            label[r["agent"]],
            f"{r['elo']:+.0f}",
            r.get("interval_note", f"{r['elo_low']:+.0f} .. {r['elo_high']:+.0f}"),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            f"{r['score']:.3f}",
        )
    pairs = Table(
        _name_column("agent", width),
        _name_column("opponent", width),
        "W",
        "D",
        "L",
        "score",
        Column("95% Wilson", overflow="fold"),
        title="pairs",
        caption="95% Wilson: the interval of the score (a draw counts 1/2)",
    )
    for p in summary["pairs"]:
        pairs.add_row(
            label[p["agent"]],
            label[p["opponent"]],
            str(p["wins"]),
            str(p["draws"]),
            str(p["losses"]),
            f"{p['score']:.3f}",
            f"{p['score_low']:.3f} .. {p['score_high']:.3f}",
        )
    return ratings, pairs

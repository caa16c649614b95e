"""``purestate evaluate``: an agent against an opponent in both seats, without learning."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import (
    agent_from,
    console,
    err_console,
    friendly,
    game_from,
    print_json,
)
from purestate.core.agent import check_game
from purestate.core.keys import key
from purestate.core.learning import Tally, tally, wilson
from purestate.experiments.evaluate import seat_games
from purestate.io.tables import load_table

SEATS = ("first", "second")


def _figures(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = t.as_dict()
    out["games"] = t.games
    for name in ("wins", "draws", "losses"):
        low, high = wilson(out[name], t.games)
        out[f"{name}_ci95"] = [round(low, 4), round(high, 4)]
    out["score"] = round(t.score, 4)
    return out


@app.command("evaluate")
@friendly
def evaluate_command(
    agent: Annotated[str, typer.Option(help="The agent to evaluate (spec string).")],
    opponent: Annotated[str, typer.Option(help="The opponent (spec string).")] = "random",
    game: Annotated[str, typer.Option(help="Game spec.")] = "tictactoe",
    table: Annotated[
        Path | None, typer.Option(help="Play the agent from a saved table (e.g. table.json).")
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Games per seat.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play an agent against an opponent from both seats, without learning.

    Prints wins, draws and losses per seat with 95% Wilson intervals.
    """
    g = game_from(game)
    subject = agent_from(agent)
    opp = agent_from(opponent)
    for a in (subject, opp):  # before any game: the opponent's table is made per seat below
        check_game(a, g)
    tables: dict[int, Any] = {}
    seats = [0, 1]
    if table is not None:
        loaded = load_table(table, g, subject)
        supports = getattr(subject, "supports_seat", None)
        seats = [s for s in (0, 1) if supports is None or supports(loaded.table, s)]
        tables = dict.fromkeys(seats, loaded.table)
    else:
        tables = {s: subject.initial_table(g, s) for s in seats}
    k = key(seed)
    results: dict[str, Any] = {}
    progress = Progress(
        TextColumn("[bold]{task.description}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console,
        disable=as_json,
    )
    with progress:
        for s in seats:
            task = progress.add_task(f"as {SEATS[s]}", total=games)
            outcomes = []
            opp_table = opp.initial_table(g, 1 - s)
            for ep in seat_games(g, subject, tables[s], opp, opp_table, s, games, k):
                outcomes.append(ep.outcome(s))
                progress.advance(task)
            results[SEATS[s]] = _figures(tally(outcomes))
    for s in (0, 1):
        results.setdefault(SEATS[s], None)
    if as_json:
        print_json({**results, "agent": subject.spec, "opponent": opp.spec, "seed": seed})
        return
    t = Table(title=f"{subject.spec} vs {opp.spec} ({games} games per seat, seed {seed})")
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

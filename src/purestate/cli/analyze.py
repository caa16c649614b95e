"""``purestate analyze``: how good a learned table is, measured against the exact solver."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import UserError, console, friendly, game_from, print_json, table_from
from purestate.cli.options import AsJson
from purestate.core.agent import has_greedy
from purestate.core.hooks import seat_name
from purestate.io.solutions import load_or_solve
from purestate.io.tables import table_game
from purestate.solve import require_solvable
from purestate.solve.analysis import analyze_table


@app.command("analyze")
@friendly
def analyze_command(
    table: Annotated[Path, typer.Option("--table", help="The table file.")],
    game: Annotated[
        str | None,
        typer.Option(
            "--game", help="Game spec, e.g. dots_and_boxes:rows=2 (default: the table's)."
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="Options laid over the learner that wrote the table (default: the file's).",
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Score a table's greedy moves against the exact solver.

    Prints the share of optimal moves over every position the table covers, the mean loss, and a
    game against the solver from each seat the table plays. Greedy: Q-learning and SARSA the
    highest value, MENACE the most beads.
    """
    spec = game if game is not None else table_game(table)
    g = game_from(spec)
    require_solvable(g, "analyze")  # before reading a table of a game it cannot score
    a, loaded = table_from(table, g, agent)
    if not has_greedy(a):
        raise UserError(f"agent {a.spec!r} has no greedy policy to analyse")
    with console.status("solving the game (cached after the first time)"):
        try:
            solution = load_or_solve(g)
        except (ValueError, MemoryError) as e:
            raise UserError(f"cannot solve {spec}: {e}") from None
        except ImportError:
            raise UserError(f"no exact solver is available for {g.spec.name}") from None
    try:
        result = analyze_table(g, a, loaded.table, solution)
    except ValueError as e:
        raise UserError(str(e)) from None
    seats: list[dict[str, Any]] = [
        {
            "seat": r.seat,
            "result": r.result,
            "perfect": r.perfect,
            "moves": [g.format_move(m) for m in r.moves],
        }
        for r in result.vs_solver
    ]
    if as_json:
        print_json(
            {
                "game": g.spec.name,
                "agent": a.spec,
                "table": str(table),
                "games_trained": loaded.games,
                "positions": result.positions,
                "optimal_moves": result.optimal,
                "optimal_move_rate": result.optimal_move_rate,
                "mean_loss": result.mean_loss,
                "vs_solver": seats,
            }
        )
        return
    out = Table("measure", "value", title=f"{a.spec} on {spec} ({table})")
    out.add_row("positions covered", str(result.positions))
    out.add_row("greedy move optimal", f"{result.optimal} ({result.optimal_move_rate:.1%})")
    out.add_row("mean loss per position", f"{result.mean_loss:.3f}")
    for r in seats:
        out.add_row(
            f"vs solver as {seat_name(g, r['seat'])}",
            f"{r['result']:+g} (perfect play: {r['perfect']:+g})",
        )
    console.print(out)

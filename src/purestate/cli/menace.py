"""``purestate menace boxes``: MENACE's matchboxes as Scroggs shows them, boards with beads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from purestate.agents.menace import Menace, MenaceTable, matchboxes
from purestate.cli import app
from purestate.cli.common import (
    UserError,
    agent_from,
    console,
    friendly,
    game_from,
    print_json,
    table_from,
)
from purestate.cli.options import AsJson
from purestate.cli.selfplay import Seat

menace_app = typer.Typer(help="Look inside MENACE.", no_args_is_help=True)
app.add_typer(menace_app, name="menace")

PER_ROW = 6


def _box_lines(game: Any, key: str, beads: dict[Any, int]) -> list[str]:
    """A 3×3 box: marks where played, bead counts on the squares that hold beads."""
    cells = []
    for i, c in enumerate(key):
        if c != ".":
            cells.append(f" {c} ")
        elif i in beads:
            cells.append(f"{beads[i]:^3}")
        else:
            cells.append(" · ")
    rows = ["|".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    return [rows[0], "---+---+---", rows[1], "---+---+---", rows[2]]


@menace_app.command("boxes")
@friendly
def boxes_command(
    table: Annotated[Path | None, typer.Option(help="A saved MENACE table.json.")] = None,
    agent: Annotated[
        str | None,
        typer.Option(help="MENACE spec (default: the --table file's, or plain menace)."),
    ] = None,
    game: Annotated[str, typer.Option(help="Game spec.")] = "tictactoe",
    seat: Annotated[Seat, typer.Option(help="MENACE's seat (fresh boxes only).")] = Seat.first,
    stage: Annotated[
        int | None, typer.Option(min=1, help="Only the boxes for MENACE's n-th move.")
    ] = None,
    limit: Annotated[int, typer.Option(min=0, help="Show at most this many boxes (0: all).")] = 0,
    as_json: AsJson = False,
) -> None:
    """Show the matchboxes, grouped by MENACE's move, with the bead count on each square."""
    g = game_from(game)
    if table is not None:
        m, loaded = table_from(table, g, agent)
    else:
        m = agent_from(agent or "menace")
    if not isinstance(m, Menace):
        where = f"{table}: a table of {m.spec!r}," if agent is None else f"{agent!r} is"
        raise UserError(f"{where} not MENACE")
    if table is not None:
        t: MenaceTable = loaded.table
    else:
        t = m.initial_table(g, 0 if seat is Seat.first else 1)
    generated = {b.key: b.stage for b in matchboxes(g, t.seat, m.include_forced, m.dedupe)}
    keys = [k for k in generated if k in t.boxes] + sorted(k for k in t.boxes if k not in generated)
    if stage is not None:
        keys = [k for k in keys if generated.get(k) == stage]
    if limit:
        keys = keys[:limit]
    if as_json:
        print_json(
            [
                {
                    "box": k,
                    "stage": generated.get(k),
                    "beads": {g.format_move(mv): n for mv, n in sorted(t.boxes[k].items())},
                }
                for k in keys
            ]
        )
        return
    console.print(
        f"{len(t.boxes)} boxes, {t.beads} beads (MENACE plays {('first', 'second')[t.seat]})"
    )
    by_stage: dict[int | None, list[str]] = {}
    for k in keys:
        by_stage.setdefault(generated.get(k), []).append(k)
    for st, ks in by_stage.items():
        console.print(f"\n[bold]MENACE's move {st}: {len(ks)} boxes[/]")
        if g.spec.name != "tictactoe":
            for k in ks:
                beads = ", ".join(
                    f"{g.format_move(mv)}:{n}" for mv, n in sorted(t.boxes[k].items())
                )
                console.print(f"{k}  {beads}")
            continue
        for i in range(0, len(ks), PER_ROW):
            row = ks[i : i + PER_ROW]
            boxes = [_box_lines(g, k, dict(t.boxes[k])) for k in row]
            totals = [f"{sum(t.boxes[k].values()):>3} beads".center(11) for k in row]
            console.print("    ".join(totals), highlight=False)
            for line in range(5):
                console.print("    ".join(b[line] for b in boxes), highlight=False)
            console.print()

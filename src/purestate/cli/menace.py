"""``purestate menace boxes``: MENACE's matchboxes as Scroggs shows them, boards with beads."""

from __future__ import annotations

from collections.abc import Iterable
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
from purestate.games.tictactoe import TicTacToe

menace_app = typer.Typer(help="Look inside MENACE.", no_args_is_help=True)
app.add_typer(menace_app, name="menace")

PER_ROW = 6
"""The most boxes drawn side by side (fewer when the terminal is narrower)."""


LEGEND = (
    "key: X, O = marks played; a number = beads for that square (0: all taken out);\n"
    "     · = no beads of its own (a symmetric square's colour stands for it)"
)
"""The symbols of a drawn box, explained once above the boxes."""


def cell_width(counts: Iterable[int]) -> int:
    """The width of a square that fits every count given with a space either side (at least 3,
    the width of a mark)."""
    return max(3, max((len(str(n)) + 2 for n in counts), default=0))


def box_lines(key: str, beads: dict[Any, int], width: int = 3) -> list[str]:
    """A 3×3 box as text: its header (the box's bead total), then the board: marks where played,
    bead counts on the squares that hold beads, every row ``3 * width + 2`` characters wide.

    Args:
        key: The board, nine characters (``X``, ``O`` or ``.``).
        beads: Bead count per square (0..8).
        width: Characters per square (``cell_width`` of the counts on the page).
    """
    cells = []
    for i, c in enumerate(key):
        if c != ".":
            cells.append(c.center(width))
        elif i in beads:
            cells.append(str(beads[i]).center(width))
        else:
            cells.append("·".center(width))
    rows = ["|".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    rule = "+".join(["-" * width] * 3)
    header = f"{sum(beads.values())} beads".center(3 * width + 2)
    return [header, rows[0], rule, rows[1], rule, rows[2]]


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
        last = max(generated.values(), default=0)
        if stage > last:
            raise UserError(
                f"--stage {stage}: MENACE moves at most {last} times here (stages 1 to {last})"
            )
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
    shown = f", showing {len(keys)}" if len(keys) < len(t.boxes) else ""
    console.print(
        f"{len(t.boxes)} boxes, {t.beads} beads (MENACE plays {('first', 'second')[t.seat]})"
        f"{shown}",
        highlight=False,
    )
    by_stage: dict[int | None, list[str]] = {}
    for k in keys:
        by_stage.setdefault(generated.get(k), []).append(k)
    in_stage: dict[int | None, list[str]] = {}
    for k in t.boxes:
        in_stage.setdefault(generated.get(k), []).append(k)
    # box_lines draws a box from tic-tac-toe's position text; other games list their beads
    as_boards = isinstance(g, TicTacToe)
    if as_boards:
        console.print(LEGEND, highlight=False)
    width = cell_width(n for k in keys for n in t.boxes[k].values())
    for st, ks in by_stage.items():
        everyone = in_stage[st]
        beads = sum(sum(t.boxes[k].values()) for k in everyone)
        part = f", showing {len(ks)}" if len(ks) < len(everyone) else ""
        name = f"MENACE's move {st}" if st is not None else "Boxes of no stage"
        console.print(f"\n[bold]{name}: {len(everyone)} boxes, {beads} beads{part}[/]")
        if not as_boards:
            for k in ks:
                listed = ", ".join(
                    f"{g.format_move(mv)}:{n}" for mv, n in sorted(t.boxes[k].items())
                )
                console.print(f"{k}  {listed}")
            continue
        # as many boxes a row as the terminal holds: a wrapped row would break every box in it
        per_row = max(1, min(PER_ROW, (console.width + 4) // (3 * width + 6)))
        for i in range(0, len(ks), per_row):
            drawn = [box_lines(k, dict(t.boxes[k]), width) for k in ks[i : i + per_row]]
            for line in range(len(drawn[0])):
                console.print("    ".join(b[line] for b in drawn), highlight=False)
            console.print()

"""``purestate solve GAME``: the value of a game under perfect play, its openings and its counts.

The command knows no game in particular: it asks ``purestate.solve.solve`` for the solution (a
game's own solver when the game names one, ``GameSpec.solver``; the generic minimax
otherwise), and counts positions and games with ``purestate.solve.counts`` when the game is small
enough. A game that can draw its openings on the board offers ``render_labels``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

import typer
from rich.table import Table

from purestate.cli import app
from purestate.cli.common import UserError, console, friendly, print_json
from purestate.cli.options import AsJson
from purestate.core import registry
from purestate.core.game import Game
from purestate.core.hooks import render_labels_of
from purestate.core.spec import build, format_spec, option_fields, parse_spec
from purestate.io.solutions import known_beyond, load_or_solve, remember_beyond
from purestate.solve.counts import Census, GameCount, TooLarge, census, count_games


def _num(v: float) -> float | int:
    """A value as JSON shows it best: 0 rather than 0.0."""
    return int(v) if float(v).is_integer() else v


def _result_key(v: float) -> str:
    return str(_num(v))


def _game_with(spec: str, rows: int | None, cols: int | None) -> Game[Any, Any]:
    """The game of ``spec`` with ``--rows``/``--cols`` merged into its options."""
    name, params = parse_spec(spec)
    cls = registry.game_class(name)
    fields = option_fields(cls)
    for option, value in (("rows", rows), ("cols", cols)):
        if value is None:
            continue
        if option not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise UserError(f"{name} has no option {option!r} (options: {known})")
        params[option] = str(value)
    game: Game[Any, Any] = build(cls, name, params)
    return game


def _verdict(game: Game[Any, Any], value: float) -> str:
    if value == 0:
        return "a draw"
    who = "the first player" if value > 0 else "the second player"
    if game.spec.outcomes is not None and abs(value) in game.spec.outcomes:
        return f"{who} wins"
    return f"{who} wins by {abs(_num(value))}"


def _openings(game: Game[Any, Any], value_of: Callable[[Any], float]) -> Any:
    """The value after each legal first move: a list indexed by move id (None where illegal)
    when moves are small ints, otherwise a mapping from the move's text."""
    start = game.initial()
    moves = game.legal(start)
    values = {m: _num(value_of(game.step(start, m))) for m in moves}
    if all(isinstance(m, int) and 0 <= m < 10_000 for m in moves):
        size = max(moves, default=-1) + 1
        return [values.get(i) for i in range(size)]
    return {game.format_move(m): v for m, v in values.items()}


def _label(v: float | int | None) -> str:
    if v is None:
        return "."
    return "0" if v == 0 else f"{v:+}"


@app.command("solve")
@friendly
def solve_command(
    game: Annotated[
        str, typer.Argument(help="The game spec, e.g. tictactoe or dots_and_boxes:rows=2.")
    ],
    rows: Annotated[
        int | None, typer.Option("--rows", help="Board rows (merged into GAME).")
    ] = None,
    cols: Annotated[
        int | None, typer.Option("--cols", help="Board columns (merged into GAME).")
    ] = None,
    count_limit: Annotated[
        int,
        typer.Option("--count-limit", help="Skip the counts beyond this many positions.", min=0),
    ] = 200_000,
    as_json: AsJson = False,
) -> None:
    """Solve a small game: its value and the value of every opening move.

    The value is the first player's; when the game is small enough its positions and games are
    counted too.
    """
    g = _game_with(game, rows, cols)
    spec = format_spec(g.spec.name, g)
    try:
        # the disk cache makes a second call instant for games whose solver can be stored
        if as_json:
            sol = load_or_solve(g)
        else:
            with console.status(f"solving {spec} ..."):
                sol = load_or_solve(g)
    except ValueError as e:  # e.g. a game whose lines of play can repeat
        raise UserError(f"cannot solve {spec}: {e}") from None
    start = g.initial()
    value = sol.value(start)
    distance = sol.distance(start)
    openings = _openings(g, sol.value)
    counts: Census | None
    games: GameCount | None
    counts, games = None, None
    if not known_beyond(g, count_limit):
        try:
            counts = census(g, count_limit)
            games = count_games(g, count_limit)
        except TooLarge:
            remember_beyond(g, count_limit)

    if as_json:
        data: dict[str, Any] = {
            "game": spec,
            "value": _num(value),
            "distance": distance,
            "openings": openings,
            "positions": counts.positions if counts else None,
            "canonical_positions": counts.canonical_positions if counts else None,
        }
        if counts is not None and games is not None:
            data["terminal_positions"] = {_result_key(k): n for k, n in counts.terminal.items()}
            data["canonical_terminal_positions"] = {
                _result_key(k): n for k, n in counts.canonical_terminal.items()
            }
            data["games"] = games.total
            data["games_by_result"] = {_result_key(k): n for k, n in games.by_result.items()}
        print_json(data)
        return

    plies = f", {distance} plies with perfect play" if distance is not None else ""
    console.print(f"[bold]{spec}[/]: {_verdict(g, value)} (value {_num(value)}{plies})")
    console.print("Value of each opening move for the first player:")
    render_labels = render_labels_of(g)
    if isinstance(openings, list) and render_labels is not None:
        labels: Mapping[int, str] = {i: _label(v) for i, v in enumerate(openings) if v is not None}
        console.print(render_labels(labels), highlight=False)
    else:
        pairs = enumerate(openings) if isinstance(openings, list) else openings.items()
        table = Table("move", "value")
        for m, v in pairs:
            if v is not None:
                table.add_row(str(m), _label(v))
        console.print(table)
    if counts is None or games is None:
        console.print(f"(more than {count_limit:,} positions: counts skipped)")
        return
    table = Table("count", "all", "up to symmetry")
    table.add_row("positions", f"{counts.positions:,}", f"{counts.canonical_positions:,}")
    for k, n in sorted(counts.terminal.items(), reverse=True):
        table.add_row(
            f"terminal, result {_label(_num(k))}",
            f"{n:,}",
            f"{counts.canonical_terminal.get(k, 0):,}",
        )
    table.add_row("games", f"{games.total:,}", "")
    for k, n in sorted(games.by_result.items(), reverse=True):
        table.add_row(f"games, result {_label(_num(k))}", f"{n:,}", "")
    console.print(table)

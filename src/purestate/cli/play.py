"""``purestate play``: a person plays against an agent in the terminal.

The person is an adapter here in the shell, not an agent in the core: it reads a line, asks the
game to parse it, and on a bad or illegal move explains and asks again. Ctrl-D leaves cleanly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from purestate.cli import app
from purestate.cli.common import (
    UserError,
    agent_from,
    choose_seed,
    console,
    friendly,
    game_from,
)
from purestate.cli.selfplay import Seat
from purestate.core.episode import Episode, resign_returns
from purestate.core.game import IllegalMove, ParseError
from purestate.core.keys import fold_in, key
from purestate.io.tables import load_table, save_table

_QUIT = {"q", "quit", "exit"}


def _read(prompt: str) -> str | None:
    """One line from the person, or None on end of input (Ctrl-D)."""
    try:
        return input(prompt)
    except EOFError:
        return None


def _human_move(game: Any, state: Any) -> Any:
    """Ask until the person types a legal move; None if they leave."""
    while True:
        line = _read("your move: ")
        if line is None or line.strip().lower() in _QUIT:
            return None
        if line.strip().lower() in ("?", "help", "h"):
            legal = ", ".join(game.format_move(m) for m in game.legal(state))
            console.print(f"legal moves: {legal}")
            continue
        try:
            return game.parse_move(state, line)
        except (ParseError, IllegalMove) as e:
            console.print(f"[yellow]{e}[/] — try again (? lists the legal moves)")


def _result_line(ep: Episode, human: int) -> str:
    o = ep.outcome(human)
    if ep.resigned is not None and ep.resigned != human:
        return "the agent resigns: you win!"
    return {1: "you win!", 0: "a draw.", -1: "you lose."}[o]


@app.command("play")
@friendly
def play_command(
    game: Annotated[str, typer.Argument(help="Game spec, e.g. tictactoe.")] = "tictactoe",
    opponent: Annotated[str, typer.Option(help="The agent you play against.")] = "perfect",
    table: Annotated[
        Path | None, typer.Option(help="Play against a saved table (e.g. a trained MENACE).")
    ] = None,
    seat: Annotated[Seat, typer.Option(help="Your seat.")] = Seat.first,
    seed: Annotated[int | None, typer.Option(help="Seed for the agent's choices.")] = None,
    learn: Annotated[
        bool, typer.Option(help="Let a learning agent learn from each game and save --table.")
    ] = False,
) -> None:
    """Play a game against an agent in the terminal (the board shows the move numbers)."""
    g = game_from(game)
    bot = agent_from(opponent)
    human = 0 if seat is Seat.first else 1
    games_done = 0
    if table is not None:
        loaded = load_table(table, g, bot)
        supports = getattr(bot, "supports_seat", None)
        if supports is not None and not supports(loaded.table, 1 - human):
            other = Seat.second if seat is Seat.first else Seat.first
            raise UserError(f"{table}: this table plays your seat; try --seat {other.value}")
        bot_table = loaded.table
        games_done = loaded.games
    else:
        bot_table = bot.initial_table(g, 1 - human)
    if learn and (table is None or not bot.learns):
        raise UserError("--learn needs a learning agent and its --table file")
    run_key = key(choose_seed(seed))
    game_no = 0
    while True:
        state = g.initial()
        states, moves, movers = [state], [], []
        current = bot_table
        resigned = None
        ply = 0
        while not g.is_over(state):
            console.print(g.render(state))
            p = g.to_move(state)
            if p == human:
                move = _human_move(g, state)
                if move is None:
                    console.print("bye.")
                    return
            else:
                d = bot.act(g, current, state, fold_in(fold_in(run_key, game_no), ply))
                if d.table is not None:
                    current = d.table
                if d.move is None:
                    resigned = p
                    break
                move = d.move
                console.print(f"{bot.spec} plays {g.format_move(move)}")
            state = g.step(state, move)
            states.append(state)
            moves.append(move)
            movers.append(p)
            ply += 1
        returns = resign_returns(resigned) if resigned is not None else g.returns(state)
        ep = Episode(tuple(states), tuple(moves), tuple(movers), returns, resigned)
        console.print(g.render(state))
        console.print(f"[bold]{_result_line(ep, human)}[/]")
        if learn and table is not None:
            bot_table = bot.learn(g, bot_table, ep, 1 - human)
            games_done += 1
            save_table(table, g, bot, bot_table, 1 - human, games_done)
            console.print(f"{bot.spec} learned from the game; saved {table}")
        game_no += 1
        again = _read("again? [Y/n] ")
        if again is None or again.strip().lower() in ("n", "no", *_QUIT):
            console.print("bye.")
            return

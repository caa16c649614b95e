"""``purestate play``: a person plays against an agent in the terminal.

The game is the core's ``Match`` (``core/match.py``): the bot moves through it, and the person
is shown the match's ``view`` of their seat (their own ``observation`` of a game with hidden
information) and types a move, which the game parses; a bad or illegal move is explained and
asked again. Ctrl-D or ``q`` leaves cleanly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from purestate.cli import app
from purestate.cli.boards import board
from purestate.cli.common import (
    UserError,
    agent_from,
    console,
    friendly,
    game_from,
    table_from,
)
from purestate.cli.options import Explore, Force, Seed
from purestate.cli.selfplay import Seat
from purestate.core.agent import greedy_agent
from purestate.core.episode import Episode
from purestate.core.game import IllegalMove, ParseError
from purestate.core.hooks import seat_name, supports_seat
from purestate.core.keys import Key, fold_in, key
from purestate.core.match import Match
from purestate.core.record import Record, game_spec
from purestate.io.files import write_atomic
from purestate.io.records import GAMES_FILE, records_text
from purestate.io.runs import run_folder, run_holding
from purestate.io.tables import check_table_path, save_table

PERSON = "person"
"""The person's name in the records of their games."""
_QUIT = {"q", "quit", "exit"}
_YES = {"", "y", "yes"}
_NO = {"n", "no"}


class Leave(Exception):
    """The person left the game (q, quit, exit, or end of input)."""


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


def _play_one(game: Any, bot: Any, bot_table: Any, k: Key, person: int) -> Episode:
    """One game through the core's ``Match``: the bot's moves are announced once the person may
    see them, and the person is shown their view of the game so far (the positions they were
    shown, from the start, so that a board needing the game so far, Tron's trails in each
    player's colour, can be drawn)."""
    seats: tuple[Any, Any] = (None, bot) if person == 0 else (bot, None)
    tables: tuple[Any, Any] = (None, bot_table) if person == 0 else (bot_table, None)
    match = Match.start(game, seats, tables, k)
    console.print(
        f"You are {seat_name(game, person)}; {bot.spec} is {seat_name(game, 1 - person)}.",
        highlight=False,
    )
    announced = match
    seen: tuple[Any, ...] = (game.initial(),)
    while True:
        match = match.bots_move()
        for player, move in match.news(announced, person):
            if player != person:
                _announce(bot, game, move)
        announced = match
        if match.over:
            return match.episode()
        view = match.view(person)
        seen = seen if seen[-1] == view else (*seen, view)
        console.print(board(game, seen))
        move = _human_move(game, view)
        if move is None:
            raise Leave
        match = match.person_moves(move)


def _announce(bot: Any, game: Any, move: Any) -> None:
    # a spec is text, not data: no colours for its numbers and key=value pairs
    console.print(f"{bot.spec} plays {game.format_move(move)}", highlight=False)


def _result_line(ep: Episode, human: int) -> str:
    o = ep.outcome(human)
    if ep.resigned is not None and ep.resigned != human:
        return "the agent resigns: you win!"
    return {1: "you win!", 0: "a draw.", -1: "you lose."}[o]


def _again() -> bool:
    """Ask "again?" until the answer is yes (or empty) or no; end of input or q is no."""
    while True:
        answer = _read("again? [Y/n] ")
        if answer is None:
            return False
        word = answer.strip().lower()
        if word in _YES:
            return True
        if word in _NO or word in _QUIT:
            return False
        console.print("please answer y or n")


@app.command("play")
@friendly
def play_command(
    game: Annotated[str, typer.Argument(help="Game spec, e.g. tictactoe.")] = "tictactoe",
    opponent: Annotated[
        str | None,
        typer.Option(
            help="The agent you play against (default: the game's own, one that answers within "
            "a second or so: perfect for tic-tac-toe, mcts for ultimate, alphabeta for tron)."
        ),
    ] = None,
    table: Annotated[
        Path | None,
        typer.Option(
            help="Play against a saved table (e.g. a trained MENACE); the agent is the file's, "
            "with the options --opponent gives laid over it."
        ),
    ] = None,
    seat: Annotated[Seat, typer.Option(help="Your seat.")] = Seat.first,
    seed: Seed = 0,
    learn: Annotated[
        bool,
        typer.Option(
            help="Let a learning agent learn from each game and save its table (over --table, "
            "or into --save-table)."
        ),
    ] = False,
    save_table: Annotated[
        Path | None,
        typer.Option(
            help="With --learn: save the learned table into this file instead of over --table "
            "(needed when --table belongs to a run folder)."
        ),
    ] = None,
    explore: Explore = False,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save your games into this folder (games.jsonl; see `purestate replay`)."
        ),
    ] = None,
    force: Force = False,
) -> None:
    """Play a game against an agent in the terminal (the board shows the move numbers).

    Without --opponent you play the game's default opponent, one that answers within a second or
    so a move: perfect for tic-tac-toe and small dots and boxes, mcts for the larger games,
    alpha-beta with Voronoi for Tron (docs/solvers.md); with --table, the agent the file names
    (--opponent changes its options). A learning agent plays its table's best moves unless
    --explore (or --learn, with which it plays and learns by its own rule).
    """
    g = game_from(game)
    human = 0 if seat is Seat.first else 1
    games_done = 0
    if table is not None:
        # the file names its agent; an --opponent typed on the command line overrides it
        bot, loaded = table_from(table, g, opponent)
        if not supports_seat(bot, loaded.table, 1 - human):
            yours = Seat.second if supports_seat(bot, loaded.table, 0) else Seat.first
            raise UserError(
                f"{table}: this table plays your seat, {seat_name(g, human)}; "
                f"try --seat {yours.value}"
            )
        bot_table = loaded.table
        games_done = loaded.games
    else:
        bot = agent_from(g.spec.default_opponent if opponent is None else opponent)
        bot_table = bot.initial_table(g, 1 - human)
    if learn and (table is None or not bot.learns):
        raise UserError("--learn needs a learning agent and its --table file")
    learned = _learned_table(table, save_table, learn)
    if learned is not None:
        check_table_path(learned, bot)  # before a game is played, not after the first
    # a bot that learns from the games plays as it learns (MENACE draws its beads): judging it
    # greedily while reinforcing those moves would not be its learning rule
    player = bot if explore or learn else greedy_agent(bot)
    run_key = key(seed)
    folder = (
        run_folder(save, "force" if force else "new", (GAMES_FILE,))
        if save is not None
        else contextlib.nullcontext(None)
    )
    names = (PERSON, player.spec) if human == 0 else (player.spec, PERSON)
    spec = game_spec(g) if save is not None else ""
    records: list[Record] = []
    with folder as written:

        def keep(n: int, ep: Episode) -> None:
            _saved(written, records, Record.of(spec, names, seed, n, ep))

        _session(g, player, bot, bot_table, human, run_key, learn, learned, games_done, keep)


def _learned_table(table: Path | None, save_table: Path | None, learn: bool) -> Path | None:
    """Where --learn saves the table: --save-table, else --table itself unless a run owns it.

    A run folder's table changes only with its checkpoint, under its lock and with its games
    logged (``purestate selfplay --resume``): a table learned from games played here goes
    elsewhere, or the run could no longer be resumed.
    """
    if save_table is not None and not learn:
        raise UserError("--save-table keeps what --learn learns: add --learn")
    if not learn or table is None:
        return None
    if save_table is not None:
        inside = run_holding(save_table)
        if inside is not None:
            raise UserError(
                f"--save-table {save_table} is inside the run folder {inside}; "
                "choose a file outside it"
            )
        return save_table
    owner = run_holding(table)
    if owner is not None:
        raise UserError(
            f"{table} belongs to the run in {owner}: --learn would change it behind the run's "
            "checkpoint; add --save-table FILE to save what it learns elsewhere"
        )
    return table


def _saved(folder: Path | None, records: list[Record], record: Record) -> None:
    """Write the games so far (each game saved as it ends: leaving keeps the finished ones)."""
    if folder is None:
        return
    records.append(record)
    write_atomic(folder / GAMES_FILE, records_text(records))
    console.print(f"saved game {record.index} in {folder / GAMES_FILE}")


def _session(g: Any, player: Any, bot: Any, bot_table: Any, human: int, run_key: Key,
             learn: bool, table: Path | None, games_done: int,
             keep: Callable[[int, Episode], None]) -> None:  # fmt: skip
    """Games until the person leaves: ``player`` plays (``bot`` as it plays, greedy or not),
    ``bot`` learns; ``keep`` is told of each finished game."""
    game_no = 0
    while True:
        try:
            ep = _play_one(g, player, bot_table, fold_in(run_key, game_no), human)
        except Leave:
            console.print("bye.")
            return
        console.print(board(g, ep.states))
        console.print(f"[bold]{_result_line(ep, human)}[/]")
        keep(game_no, ep)
        if learn and table is not None:
            bot_table = bot.learn(g, bot_table, ep, 1 - human)
            games_done += 1
            save_table(table, g, bot, bot_table, 1 - human, games_done)
            console.print(f"{bot.spec} learned from the game; saved {table}")
        game_no += 1
        if not _again():
            console.print("bye.")
            return

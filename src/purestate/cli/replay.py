"""``purestate replay``: step through a recorded game, or export it as JSON, text or a picture."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from purestate.cli import app
from purestate.cli.common import UserError, console, err_console, friendly, print_json
from purestate.cli.options import AsJson
from purestate.core.episode import Episode
from purestate.core.hooks import seat_name
from purestate.core.record import Record, RecordError, replay_record, to_text
from purestate.core.registry import make_spec
from purestate.io.pictures import save_gif, save_svg
from purestate.io.records import games_file, iter_records

NEXT, BACK, QUIT, STAY = "next", "back", "quit", "stay"
_LINE_KEYS = {"": NEXT, "n": NEXT, "p": BACK, "b": BACK, "q": QUIT}
# escape sequences of the arrow keys: right and down step forward, left and up step back
_ARROWS = {"[C": NEXT, "[B": NEXT, "[D": BACK, "[A": BACK}


@app.command("replay")
@friendly
def replay_command(
    file: Annotated[Path, typer.Argument(help="A games.jsonl, or a run folder holding one.")],
    index: Annotated[
        int | None,
        typer.Option(help="Which game: its line in the file, from 0 (default: the first)."),
    ] = None,
    as_json: AsJson = False,
    text: Annotated[
        bool, typer.Option("--text", help="Print the game (every game without --index) as text.")
    ] = False,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write the final board as an SVG picture.")
    ] = None,
    gif: Annotated[
        Path | None, typer.Option("--gif", help="Write every ply as the frames of a GIF.")
    ] = None,
) -> None:
    """Replay a recorded game: the board after each ply, stepped with the arrow keys or Enter.

    Right/down/Enter/n steps forward, left/up/p/b back, q quits; when the input is not a terminal
    each line is one of those keys. --json (every state's encoding and the returns), --text,
    --svg and --gif export instead. Example:
    purestate replay runs/tournament/games.jsonl --index 3
    """
    # streamed: only the game asked for is kept, so no file makes this hold more than a record
    # (and a file that is no log, /dev/zero, is refused at its first overlong line)
    n = 0 if index is None else index
    found: Record | None = None
    count = 0
    for r in iter_records(file):
        if text and index is None:
            console.print(to_text(make_spec(r.game), r), highlight=False, soft_wrap=True)
        elif count == n:
            found = r
        count += 1
    if count == 0:
        raise UserError(f"{games_file(file)}: no game records in it")
    if text and index is None:
        return
    if found is None:
        raise UserError(f"--index {n}: {games_file(file)} holds games 0..{count - 1}")
    record = found
    try:
        episode = replay_record(record)
    except RecordError as e:
        raise UserError(f"{games_file(file)}, game {n}: {e}") from None
    game = make_spec(record.game)
    title = f"{record.players[0]} vs {record.players[1]}, {record.game}"
    exported = False
    if svg is not None:
        save_svg(svg, game, episode.states, episode.moves, record.players, title)
        err_console.print(f"wrote {svg}")
        exported = True
    if gif is not None:
        save_gif(gif, game, episode.states, episode.moves, record.players, title)
        err_console.print(f"wrote {gif}")
        exported = True
    if text:
        console.print(to_text(game, record), highlight=False, soft_wrap=True)
    elif as_json:
        print_json(
            {
                "game": record.game,
                "players": list(record.players),
                "moves": list(record.moves),
                "states": [game.encode(s) for s in episode.states],
                "returns": list(episode.returns),
                "resigned": episode.resigned,
            }
        )
    elif not exported:
        _step(game, record, episode)


def _step(game: Any, record: Record, episode: Episode) -> None:
    """Show ply 0 and step through the game until the person quits (or the input ends)."""
    last = len(episode.states) - 1
    ply = 0
    read = _key if sys.stdin.isatty() else _line
    while True:
        _show(game, record, episode, ply)
        action = read()
        if action == QUIT:
            return
        if action == NEXT and ply == last:
            return
        if action == NEXT:
            ply += 1
        elif action == BACK:
            ply = max(0, ply - 1)


def _show(game: Any, record: Record, episode: Episode, ply: int) -> None:
    last = len(episode.states) - 1
    head = f"{record.players[0]} vs {record.players[1]} · {record.game} · ply {ply}/{last}"
    if ply:
        mover = episode.movers[ply - 1]
        head += f" · {seat_name(game, mover)} played {game.format_move(episode.moves[ply - 1])}"
    console.print(head, highlight=False, soft_wrap=True)
    console.print(game.render(episode.states[ply]), highlight=False)
    if ply == last:
        who = "" if record.resigned is None else f"{seat_name(game, record.resigned)} resigned; "
        console.print(f"end: {who}returns {list(record.returns)}", highlight=False)
    console.print("[dim]Enter/→ next · ← back · q quit[/]")


def _line() -> str:
    """One step from a line of input (a pipe or a test); the end of the input quits."""
    line = sys.stdin.readline()
    if not line:
        return QUIT
    return _LINE_KEYS.get(line.strip().lower(), STAY)


def _key() -> str:
    """One step from a key press at the terminal (raw mode, restored afterwards)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        ch = sys.stdin.read(1)
        if ch == "\x1b":
            return _ARROWS.get(sys.stdin.read(2), STAY)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    if ch in ("\x03", "\x04"):  # Ctrl-C and Ctrl-D in raw mode
        return QUIT
    return _LINE_KEYS.get("" if ch in "\r\n" else ch.lower(), STAY)

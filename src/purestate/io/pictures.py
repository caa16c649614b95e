"""Pictures of recorded games on disk: the final board as SVG, the whole game as a GIF."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from purestate.core.game import Game
from purestate.drawing import svg
from purestate.games.tron.rules import Tron
from purestate.io.files import FileFormatError, write_atomic
from purestate.io.plots import pyplot
from purestate.io.tron import save_picture

GIF_FPS = 2
"""Frames (plies) per second of a board-game GIF: slow enough to follow each move."""


def save_svg(
    path: Path,
    game: Game[Any, Any],
    states: Sequence[Any],
    moves: Sequence[Any],
    players: Sequence[str],
    title: str = "",
) -> None:
    """Write the final board of a game as SVG: ``svg(game, states[-1])``, or for Tron its
    coloured grid (``io.tron.save_picture``), whose trails need the whole game to tell whose
    they are.

    Raises:
        FileFormatError: if the file cannot be written.
    """
    if isinstance(game, Tron):
        save_picture(path, game, states, moves, players)  # its own title: winner, moves
        return
    try:
        write_atomic(Path(path), str(svg(game, states[-1], title, moves[-1] if moves else None)))
    except OSError as e:
        raise FileFormatError(f"{path}: cannot write it ({e.strerror or e})") from None


def save_gif(
    path: Path,
    game: Game[Any, Any],
    states: Sequence[Any],
    moves: Sequence[Any],
    players: Sequence[str],
    title: str = "",
) -> None:
    """Write every ply of a game as the frames of an animated GIF (matplotlib and Pillow).

    Tron is drawn as its coloured grid (``io.tron.save_picture``); the other games as the board
    they render for a person.

    Raises:
        FileFormatError: if the file cannot be written.
    """
    if isinstance(game, Tron):
        save_picture(path, game, states, moves, players)  # its own title: winner, moves
        return
    plt = pyplot()  # before the other matplotlib modules: it chooses the backend
    from matplotlib import animation

    boards = [game.render(s) for s in states]
    rows = max(b.count("\n") + 1 for b in boards) + 2
    cols = max(len(line) for b in boards for line in b.splitlines())
    fig = plt.figure(figsize=(max(3.0, cols * 0.12), max(2.0, rows * 0.22)))
    fig.patch.set_facecolor("#fbfaf5")
    text = fig.text(0.05, 0.95, "", family="monospace", fontsize=10, va="top")

    def frame(i: int) -> Any:
        head = f"{title}\n" if title else ""
        text.set_text(f"{head}ply {i}/{len(states) - 1}\n{boards[i]}")
        return (text,)

    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        anim = animation.FuncAnimation(fig, frame, frames=len(states))
        anim.save(str(path), writer=animation.PillowWriter(fps=GIF_FPS))
    except (OSError, ValueError) as e:
        raise FileFormatError(f"{path}: cannot write it ({e})") from None
    finally:
        plt.close(fig)

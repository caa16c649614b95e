"""Tron files (shell side): linear-model weight files, and pictures of games.

A weights file is JSON: ``{"format": "purestate.tron-linear/1", "terms": [...], "weights":
[bias, w1, ...], ...}`` with whatever fit statistics ``purestate tron fit`` adds. A file of another
format or version, or with other features, is refused with one line naming the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from purestate.games.tron.rules import State, Tron
from purestate.heuristics.tron import TERMS
from purestate.io.files import FileFormatError, read_json, write_json

WEIGHTS_FORMAT = "purestate.tron-linear/1"


def write_weights(path: Path, weights: Sequence[float], extra: dict[str, Any]) -> None:
    """Write a weights file atomically (``extra``: fit statistics, the data set, ...)."""
    doc: dict[str, Any] = {
        "format": WEIGHTS_FORMAT,
        "terms": list(TERMS),
        "weights": [float(w) for w in weights],
    }
    doc.update({k: v for k, v in extra.items() if k not in doc})
    write_json(path, doc)


def read_weights(path: Path) -> tuple[float, ...]:
    """The weights (bias first) of a weights file.

    Raises:
        FileFormatError: naming the file and what is wrong.
    """
    doc = read_json(path)
    if not isinstance(doc, dict) or doc.get("format") != WEIGHTS_FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise FileFormatError(f"{path}: not a Tron weights file ({WEIGHTS_FORMAT}); found {found}")
    if doc.get("terms") != list(TERMS):
        raise FileFormatError(f"{path}: the terms differ from this version's {list(TERMS)}")
    w = doc.get("weights")
    if (
        not isinstance(w, list)
        or len(w) != len(TERMS) + 1
        or not all(isinstance(x, int | float) for x in w)
    ):
        raise FileFormatError(f"{path}: 'weights' must be {len(TERMS) + 1} numbers")
    return tuple(float(x) for x in w)


def _trails(game: Tron, states: Sequence[State]) -> list[int]:
    """Who occupied each cell (0 free, 1 wall/barrier, 2 player 1, 3 player 2) at the end."""
    m = game.board
    owner = [1 if m.blocked >> i & 1 else 0 for i in range(m.size)]
    for s in states:
        for p, h in ((0, s.head0), (1, s.head1)):
            if h >= 0 and owner[h] == 0:
                owner[h] = 2 + p
    return owner


def _grid(game: Tron, owner: list[int]) -> list[list[int]]:
    m = game.board
    return [[owner[r * m.cols + c] for c in range(m.cols)] for r in range(m.rows)]


def save_picture(path: Path, game: Tron, states: Sequence[State], title: str = "") -> None:
    """Write the final board as a picture (``.png``, ``.svg``, ...) or the game as an animation
    (``.gif``), with matplotlib.

    Raises:
        FileFormatError: if the file cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import animation
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap(["#f4f4f4", "#333333", "#1f77b4", "#d62728"])
    m = game.board
    fig, ax = plt.subplots(figsize=(max(3.0, m.cols * 0.35), max(3.0, m.rows * 0.35)))
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.suffix.lower() == ".gif":
            image = ax.imshow(_grid(game, _trails(game, states[:1])), cmap=cmap, vmin=0, vmax=3)

            def frame(i: int) -> Any:
                image.set_data(_grid(game, _trails(game, states[: i + 1])))
                return (image,)

            anim = animation.FuncAnimation(fig, frame, frames=len(states), blit=True)
            anim.save(str(path), writer=animation.PillowWriter(fps=8))
        else:
            ax.imshow(_grid(game, _trails(game, states)), cmap=cmap, vmin=0, vmax=3)
            fig.savefig(str(path), dpi=120, bbox_inches="tight")
    except (OSError, ValueError) as e:
        raise FileFormatError(f"{path}: cannot write it ({e})") from None
    finally:
        plt.close(fig)

"""Tron files (shell side): data sets of positions, linear-model weight files, and pictures of
games.

A data set (``positions.jsonl``, written by ``purestate tron dataset``) is JSON Lines, one position
a line: ``game``, ``ply``, ``position``, ``features`` (``FEATURES`` name -> value),
``features_version`` and ``outcome`` (+1, 0, -1 for the first seat), with whatever the writer adds
(``series``, ``map``, ``rules``, ``bots``). A record without those fields, or whose features are
of another ``FEATURES_VERSION`` (a record without one is version 1), is refused with one line
naming the file and the line.

A weights file is JSON: ``{"format": "purestate.tron-linear/1", "terms": [...], "weights":
[bias, w1, ...], ...}`` with whatever fit statistics ``purestate tron fit`` adds. A file of another
format or version, or with other features, is refused with one line naming the file.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from purestate.core.hooks import seat_name
from purestate.games.tron.rules import RUNNING, State, Tron, trails
from purestate.heuristics.tron import FEATURES, FEATURES_VERSION, TERMS
from purestate.io.files import (
    MAX_TABLE_BYTES,
    FileFormatError,
    read_json,
    read_text,
    write_atomic,
    write_json,
)
from purestate.io.plots import pyplot

WEIGHTS_FORMAT = "purestate.tron-linear/1"


def write_positions(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Write a data set atomically: one compact JSON record a line."""
    lines = [json.dumps(rec, separators=(",", ":")) for rec in records]
    write_atomic(path, "\n".join(lines) + "\n")


def read_positions(path: Path) -> list[dict[str, Any]]:
    """The position records of a data set, in file order (blank lines skipped).

    Raises:
        FileFormatError: naming the file and the first bad line: not a position record, features
            of another version, or no positions at all.
    """
    text = read_text(path, limit=MAX_TABLE_BYTES)  # a data set can be as large as a table
    records = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            f = rec["features"]
            if not all(name in f for name in FEATURES) or rec["outcome"] not in (-1, 0, 1):
                raise KeyError("features")
            if "game" not in rec:
                raise KeyError("game")
        except (json.JSONDecodeError, KeyError, TypeError):
            raise FileFormatError(
                f"{path}, line {lineno}: not a Tron position record (run purestate tron dataset)"
            ) from None
        version = rec.get("features_version", 1)
        if version != FEATURES_VERSION:
            raise FileFormatError(
                f"{path}, line {lineno}: features of version {version}, this purestate computes "
                f"version {FEATURES_VERSION} (run purestate tron dataset again)"
            )
        records.append(rec)
    if not records:
        raise FileFormatError(f"{path}: no positions")
    return records


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
    """Who occupied each cell (0 free, 1 wall/barrier, 2 the first seat, 3 the second) at the
    end."""
    m = game.board
    t0, t1 = trails(states)
    return [
        1 if m.blocked >> i & 1 else 2 if t0 >> i & 1 else 3 if t1 >> i & 1 else 0
        for i in range(m.size)
    ]


def _grid(game: Tron, owner: list[int]) -> list[list[int]]:
    m = game.board
    return [[owner[r * m.cols + c] for c in range(m.cols)] for r in range(m.rows)]


@frozen
class PictureFacts:
    """What a picture of a Tron game marks, worked out from the game alone.

    Attributes:
        heads: Each player's last head cell (where it stood when the game ended, or when it
            crashed), or ``-1`` if it never stood anywhere.
        crashes: The cells the crashed players ran into (one for a head-on crash).
        moves: Moves made by each player.
        winner: ``0`` or ``1``, ``None`` for a draw or a game still running.
        title: The picture's title: both bots, the winner, the move count.
    """

    heads: tuple[int, int]
    crashes: tuple[int, ...]
    moves: tuple[int, int]
    winner: int | None
    title: str


COLOURS = ("#1f77b4", "#d62728")
"""The first and the second seat's trail colour (blue, red: the seats' marks)."""


def picture_facts(
    game: Tron, states: Sequence[State], moves: Sequence[int], bots: Sequence[str]
) -> PictureFacts:
    """The heads, crash cells, winner and title of a game's picture.

    Args:
        game: The game.
        states: Its states, ``states[i + 1]`` after ``moves[i]``.
        moves: The moves played (0-3 = U, D, L, R).
        bots: The first and the second seat's bot specs.
    """
    heads = [-1, -1]
    crashes: list[int] = []
    made = [0, 0]
    for i, (before, after) in enumerate(itertools.pairwise(states)):
        made[before.to_move] += 1
        for p, (h0, h1) in enumerate(((before.head0, after.head0), (before.head1, after.head1))):
            if h0 >= 0:
                heads[p] = h0
            if h0 >= 0 and h1 < 0:
                # the mover's move is this one; the other's was committed before (simultaneous)
                move = moves[i] if before.to_move == p else before.pending
                cell = h0 + game.topology.deltas[move]
                if cell not in crashes:
                    crashes.append(cell)
    last = states[-1]
    for p, h in enumerate((last.head0, last.head1)):
        if h >= 0:
            heads[p] = h
    winner = last.outcome if last.outcome in (0, 1) else None
    if last.outcome == RUNNING:
        result = "unfinished"
    elif winner is None:
        result = "draw"
    else:
        result = f"{seat_name(game, winner)} wins"
    first, second = seat_name(game, 0), seat_name(game, 1)
    title = (
        f"{bots[0]} as {first} vs {bots[1]} as {second}\n"
        f"{result} after {len(moves)} moves ({made[0]} by {first}, {made[1]} by {second})"
    )
    return PictureFacts((heads[0], heads[1]), tuple(crashes), (made[0], made[1]), winner, title)


def save_picture(
    path: Path, game: Tron, states: Sequence[State], moves: Sequence[int], bots: Sequence[str]
) -> None:
    """Write the final board as a picture (``.png``, ``.svg``, ...) or the game as an animation
    (``.gif``), with matplotlib: trails in each player's colour, heads circled, crash cells
    crossed, a colour key naming the bots, and the winner and move count in the title.

    Args:
        path: The file to write.
        game: The game.
        states: Its states.
        moves: Its moves.
        bots: The first and the second seat's bot specs.

    Raises:
        FileFormatError: if the file cannot be written.
    """
    plt = pyplot()  # before the other matplotlib modules: it chooses the backend
    from matplotlib import animation
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    cmap = ListedColormap(["#f4f4f4", "#333333", *COLOURS])
    m = game.board
    facts = picture_facts(game, states, moves, bots)
    fig, ax = plt.subplots(figsize=(max(4.5, m.cols * 0.3), max(4.5, m.rows * 0.3) + 1.2))
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(facts.title, fontsize=8)

    def rc(cells: Sequence[int]) -> tuple[list[int], list[int]]:
        live = [c for c in cells if c >= 0]
        return [c % m.cols for c in live], [c // m.cols for c in live]

    # each frame's heads: where each player last stood up to that frame
    frame_heads: list[tuple[int, int]] = []
    for st in states:
        was = frame_heads[-1] if frame_heads else (-1, -1)
        frame_heads.append(
            (st.head0 if st.head0 >= 0 else was[0], st.head1 if st.head1 >= 0 else was[1])
        )

    marks = []
    for p in (0, 1):
        xs, ys = rc([facts.heads[p]])
        (mark,) = ax.plot(xs, ys, "o", ms=9, mfc=COLOURS[p], mec="white", mew=2)
        marks.append(mark)
    cx, cy = rc(facts.crashes)
    (crash,) = ax.plot(cx, cy, "X", ms=11, color="black", mec="white", mew=1)
    key = [
        *(Patch(color=COLOURS[p], label=f"{seat_name(game, p)}: {bots[p]}") for p in (0, 1)),
        Patch(color="#333333", label="wall"),
        Line2D([], [], ls="", marker="o", mfc="gray", mec="white", mew=2, ms=9, label="head"),
        Line2D([], [], ls="", marker="X", color="black", ms=9, label="crash"),
    ]
    ax.legend(handles=key, loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=2,
              fontsize=7, frameon=False)  # fmt: skip
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.suffix.lower() == ".gif":
            image = ax.imshow(_grid(game, _trails(game, states[:1])), cmap=cmap, vmin=0, vmax=3)

            def frame(i: int) -> Any:
                image.set_data(_grid(game, _trails(game, states[: i + 1])))
                for p, h in enumerate(frame_heads[i]):
                    marks[p].set_data(*rc([h]))
                crash.set_visible(i == len(states) - 1)
                return (image, *marks, crash)

            anim = animation.FuncAnimation(fig, frame, frames=len(states), blit=True)
            anim.save(str(path), writer=animation.PillowWriter(fps=8), dpi=80)
        else:
            ax.imshow(_grid(game, _trails(game, states)), cmap=cmap, vmin=0, vmax=3)
            fig.savefig(str(path), dpi=90, bbox_inches="tight")
    except (OSError, ValueError) as e:
        raise FileFormatError(f"{path}: cannot write it ({e})") from None
    finally:
        plt.close(fig)

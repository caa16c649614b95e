"""Connect four drawn as its upright frame: a column of holes per move, stones in the players'
colours."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.drawing.picture import HIGHLIGHT, INK, PLAYER_COLOURS, document, el, move_data, text
from purestate.games.connect_four import MARKS, ConnectFour, State

CELL = 56
MARGIN = 12
LABELS = 20  # the column numbers under the frame
FRAME = "#c9d1d9"  # a grey frame: both players' colours stand out on it


def draw(
    game: ConnectFour, state: State, title: str, last: Any, history: Sequence[Any] = ()
) -> str:
    """The frame: each column (the whole strip) carries ``data-move`` while it is not full."""
    b = game.board
    legal = set(game.legal(state))
    width, height = b.columns * CELL, b.rows * CELL
    parts = [el("rect", x=MARGIN, y=MARGIN, width=width, height=height, fill=FRAME, rx=8)]
    mask = state.x | state.o
    for c in range(b.columns):
        x = MARGIN + c * CELL
        top = b.height(mask, c) - 1  # the column's highest stone: the last move's if it is last
        for r in range(b.rows):
            y = MARGIN + (b.rows - 1 - r) * CELL
            mark = game.cell(state, c, r)
            fill = "#fff" if mark == "." else PLAYER_COLOURS[MARKS.index(mark)]
            ring = HIGHLIGHT if c == last and r == top else FRAME
            parts.append(
                el("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=CELL * 0.4, fill=fill,
                   stroke=ring, stroke_width=4)
            )  # fmt: skip
        parts.append(text(x + CELL / 2, MARGIN + height + 16, game.format_move(c), 14,
                          text_anchor="middle", fill=INK))  # fmt: skip
        # the clickable strip over the column, drawn last so it takes the clicks
        parts.append(
            el("rect", x=x, y=MARGIN, width=CELL, height=height, fill="transparent",
               class_="cell", **move_data(game.format_move(c), c in legal))
        )  # fmt: skip
    return document(2 * MARGIN + width, 2 * MARGIN + height + LABELS, "".join(parts), title,
                    game.spec.name)  # fmt: skip

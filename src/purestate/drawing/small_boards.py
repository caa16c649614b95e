"""Ultimate and Xtreme tic-tac-toe drawn as grids of small boards.

Both games number a small board ``sb`` (0-8, or 0-17 for Xtreme's two big boards) and a cell
``c`` (0-8) and a move ``9 * sb + c``; their states carry the marks ``x``, ``o`` (bit
``9 * sb + c``) and the small-board masks ``won_x``, ``won_o`` and ``closed``. The boards where
the player to move may play are read off the legal moves, so no rule is repeated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.drawing.picture import (
    ACTIVE,
    HIGHLIGHT,
    INK,
    PLAYER_COLOURS,
    document,
    el,
    move_data,
    text,
)
from purestate.drawing.tictactoe import cross, nought

CELL = 26
GAP = 10
"""Space between small boards of one big board."""
MARGIN = 12
BIG_GAP = 36
"""Space between Xtreme's two big boards."""
SMALL = 3 * CELL
BIG = 3 * SMALL + 2 * GAP


def draw(game: Any, state: Any, title: str, last: Any, history: Sequence[Any] = ()) -> str:
    """Every small board: cells a person may click carry ``data-move``; the boards open to the
    player to move are tinted, won boards carry their winner's big mark, drawn boards are grey."""
    legal = set(game.legal(state))
    active = {m // 9 for m in legal}
    # a game is at most one mark per cell: 81 cells per big board
    big_boards = game.spec.max_length // 81
    parts = []
    for sb in range(9 * big_boards):
        k, pos = divmod(sb, 9)
        bx = MARGIN + k * (BIG + BIG_GAP) + (pos % 3) * (SMALL + GAP)
        by = MARGIN + 18 + (pos // 3) * (SMALL + GAP)
        won = 0 if state.won_x >> sb & 1 else 1 if state.won_o >> sb & 1 else None
        closed = bool(state.closed >> sb & 1)
        background = ACTIVE if sb in active else "#e9e9e9" if closed and won is None else "#fff"
        parts.append(
            el("rect", x=bx, y=by, width=SMALL, height=SMALL, fill=background,
               stroke="#e0a800" if sb in active else "#999", stroke_width=2 if sb in active else 1,
               class_="small-board", data_board=sb)
        )  # fmt: skip
        for c in range(9):
            move = 9 * sb + c
            x, y = bx + CELL * (c % 3), by + CELL * (c // 3)
            fill = HIGHLIGHT if move == last else "transparent"
            parts.append(
                el("rect", x=x, y=y, width=CELL, height=CELL, fill=fill, stroke="#ccc",
                   stroke_width=0.5, class_="cell",
                   **move_data(game.format_move(move), move in legal))
            )  # fmt: skip
            if state.x >> move & 1:
                parts.append(cross(x, y, CELL, PLAYER_COLOURS[0], 3))
            elif state.o >> move & 1:
                parts.append(nought(x, y, CELL, PLAYER_COLOURS[1], 3))
        if won is not None:
            shape = cross if won == 0 else nought
            parts.append(
                el("g", shape(bx, by, SMALL, PLAYER_COLOURS[won], 9), opacity=0.55,
                   pointer_events="none", class_="won")
            )  # fmt: skip
    for k in range(big_boards):
        x = MARGIN + k * (BIG + BIG_GAP)
        label = f"big board {k}" if big_boards > 1 else ""
        if label:
            parts.append(text(x, MARGIN + 8, label, 13, fill=INK))
    width = 2 * MARGIN + big_boards * BIG + (big_boards - 1) * BIG_GAP
    height = 2 * MARGIN + 18 + BIG
    return document(width, height, "".join(parts), title, game.spec.name)

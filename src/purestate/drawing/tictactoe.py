"""Tic-tac-toe drawn as a 3×3 grid with X and O shapes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.drawing.picture import HIGHLIGHT, INK, PLAYER_COLOURS, document, el, move_data
from purestate.games.tictactoe import State, TicTacToe

CELL = 80
MARGIN = 12


def cross(x: float, y: float, size: float, colour: str, width: float) -> str:
    """An X filling the square of side ``size`` at (x, y), inset by a fifth."""
    a, b = size * 0.2, size * 0.8
    return el(
        "path",
        d=f"M{x + a},{y + a}L{x + b},{y + b}M{x + b},{y + a}L{x + a},{y + b}",
        stroke=colour,
        stroke_width=width,
        stroke_linecap="round",
        fill="none",
    )


def nought(x: float, y: float, size: float, colour: str, width: float) -> str:
    """An O filling the square of side ``size`` at (x, y), inset by a fifth."""
    return el(
        "circle",
        cx=x + size / 2,
        cy=y + size / 2,
        r=size * 0.3,
        stroke=colour,
        stroke_width=width,
        fill="none",
    )


def draw(game: TicTacToe, state: State, title: str, last: Any, history: Sequence[Any] = ()) -> str:
    """The board: free squares a person may click carry ``data-move``."""
    legal = set(game.legal(state))
    parts = []
    for i in range(9):
        x, y = MARGIN + CELL * (i % 3), MARGIN + CELL * (i // 3)
        fill = HIGHLIGHT if i == last else "#fff"
        parts.append(
            el("rect", x=x, y=y, width=CELL, height=CELL, fill=fill, class_="cell",
               **move_data(game.format_move(i), i in legal))
        )  # fmt: skip
        if state.x >> i & 1:
            parts.append(cross(x, y, CELL, PLAYER_COLOURS[0], 8))
        elif state.o >> i & 1:
            parts.append(nought(x, y, CELL, PLAYER_COLOURS[1], 8))
    for k in (1, 2):
        a = MARGIN + CELL * k
        parts.append(
            el(
                "path",
                d=f"M{a},{MARGIN}V{MARGIN + 3 * CELL}M{MARGIN},{a}H{MARGIN + 3 * CELL}",
                stroke=INK,
                stroke_width=3,
            )
        )
    side = 2 * MARGIN + 3 * CELL
    return document(side, side, "".join(parts), title, game.spec.name)

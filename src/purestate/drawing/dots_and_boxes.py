"""Dots and boxes drawn as dots, drawn and undrawn lines, and boxes shaded by their owner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.drawing.picture import (
    INK,
    PLAYER_COLOURS,
    PLAYER_TINTS,
    document,
    el,
    move_data,
    text,
)
from purestate.games.dots_and_boxes import OWNER_MARKS, DotsAndBoxes, State

GAP = 64
"""The distance between neighbouring dots."""
MARGIN = 20
HIT = 16
"""The width of an undrawn line's clickable strip: wider than the line, easy to hit."""


def draw(
    game: DotsAndBoxes, state: State, title: str, last: Any, history: Sequence[Any] = ()
) -> str:
    """The board: every undrawn line carries ``data-move``; the score is written below."""
    b = game.board
    parts = []
    for box in range(b.num_boxes):
        r, c = divmod(box, b.cols)
        owner = 0 if state.own0 >> box & 1 else 1 if state.own1 >> box & 1 else None
        if owner is None:
            continue
        x, y = MARGIN + GAP * c, MARGIN + GAP * r
        parts.append(el("rect", x=x, y=y, width=GAP, height=GAP, fill=PLAYER_TINTS[owner]))
        parts.append(
            text(x + GAP / 2, y + GAP / 2 + 8, OWNER_MARKS[owner], 24,
                 text_anchor="middle", fill=PLAYER_COLOURS[owner], font_weight="bold")
        )  # fmt: skip
    for line in range(b.num_lines):
        kind, r, c = b.coordinates(line)
        x1, y1 = MARGIN + GAP * c, MARGIN + GAP * r
        x2, y2 = (x1 + GAP, y1) if kind == "h" else (x1, y1 + GAP)
        ends: dict[str, object] = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
        drawn = bool(state.lines >> line & 1)
        if drawn:
            colour = "#e08a00" if line == last else INK
            parts.append(el("line", **ends, stroke=colour, stroke_width=6, stroke_linecap="round"))
        else:
            parts.append(el("line", **ends, stroke="#bbb", stroke_width=2, stroke_dasharray="4 5"))
        # a transparent strip over the line takes the click: wider than the line, easy to hit
        w, h = (GAP - 12, HIT) if kind == "h" else (HIT, GAP - 12)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        parts.append(
            el("rect", x=cx - w / 2, y=cy - h / 2, width=w, height=h, fill="transparent",
               class_="edge", **move_data(game.format_move(line), not drawn))
        )  # fmt: skip
    for r in range(b.rows + 1):
        for c in range(b.cols + 1):
            parts.append(el("circle", cx=MARGIN + GAP * c, cy=MARGIN + GAP * r, r=5, fill=INK))
    width = 2 * MARGIN + GAP * b.cols
    height = 2 * MARGIN + GAP * b.rows
    a, bb = state.own0.bit_count(), state.own1.bit_count()
    score = f"A {a} – {bb} B"
    if not game.is_over(state):
        score += f" · {OWNER_MARKS[state.to_move]} to move"
    parts.append(text(MARGIN, height + 4, score, 14, fill=INK))
    return document(max(width, 180), height + 14, "".join(parts), title, game.spec.name)

"""A picture of a position as SVG text (pure: no files, no drawing library).

``svg(game, state)`` draws the board the game renders for a person (``Game.render``) in a framed
monospace panel, so every game, present or future, has a picture without code of its own:
``purestate.svg`` (``purestate.drawing``) draws a game's own vector board (its ``draw`` hook) and
falls back to this panel for a game without one.
"""

from __future__ import annotations

from typing import Any

from purestate.core.game import Game
from purestate.core.markup import escape

CHAR_WIDTH = 9.6
"""The advance of one character of the 16 px monospace font, in SVG units (about 0.6 em)."""
LINE_HEIGHT = 20
MARGIN = 12


def svg(game: Game[Any, Any], state: Any, title: str = "") -> str:
    """The position ``state`` of ``game`` as a standalone SVG document.

    Args:
        game: The game.
        state: The position.
        title: A line drawn above the board (e.g. the players and the ply).

    Returns:
        The SVG text (UTF-8 safe, escaped).
    """
    lines = ([title] if title else []) + game.render(state).splitlines()
    width = int(2 * MARGIN + CHAR_WIDTH * max((len(line) for line in lines), default=1))
    height = int(2 * MARGIN + LINE_HEIGHT * max(len(lines), 1))
    rows = []
    for i, line in enumerate(lines):
        y = MARGIN + LINE_HEIGHT * (i + 1) - 5
        weight = ' font-weight="bold"' if title and i == 0 else ""
        rows.append(
            f'<text x="{MARGIN}" y="{y}" xml:space="preserve"{weight}>{escape(line)}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
        f'<rect width="{width}" height="{height}" fill="#fbfaf5" stroke="#888"/>'
        f'<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="16" '
        f'fill="#222">{"".join(rows)}</g></svg>\n'
    )

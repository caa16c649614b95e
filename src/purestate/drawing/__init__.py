"""Boards as vector pictures (SVG): each game draws itself (``Drawn.draw``, core/game.py).

``svg(game, state)`` returns a ``Picture``: ``str()`` gives the SVG text and Jupyter displays it
(``_repr_svg_``). Every square, edge or cell a person can click carries
``data-move="<move text>"``, the text ``game.parse_move`` accepts (``game.format_move`` of a
legal move), so the browser app and tests find moves in the markup. A square or line that is
not a legal move now carries ``data-illegal="<move text>"`` instead: the app sends it to the
game, whose ``IllegalMove`` message explains why (the square is taken, another board is due).
A game without a drawing of its own gets the framed text panel of ``purestate.core.svg``.

Pure: the functions here build strings from values; nothing is read or written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from purestate.core.game import Game
from purestate.core.hooks import draw_of
from purestate.core.picture import Picture
from purestate.core.svg import svg as text_panel


def svg(
    game: Game[Any, Any],
    state: Any,
    title: str = "",
    last: Any = None,
    history: Sequence[Any] = (),
) -> Picture:
    """The position ``state`` of ``game`` as a vector picture.

    Args:
        game: The game.
        state: The position.
        title: A line drawn above the board (escaped).
        last: The move that led to ``state``, highlighted; ``None`` for no highlight.
        history: The game's states before ``state`` (``states[:i]``), for what a position does
            not record: Tron colours each trail by its player from them. Optional.

    Returns:
        The picture: ``str(picture)`` is the SVG document; notebooks display it.

    Example:
        >>> import purestate
        >>> g = purestate.make("tictactoe")
        >>> str(purestate.svg(g, g.step(g.initial(), 4), last=4)).count('data-move="')
        8
    """
    draw = draw_of(game)
    if draw is None:
        return Picture(text_panel(game, state, title))
    return Picture(draw(state, title, last, history))


__all__ = ["Picture", "svg"]

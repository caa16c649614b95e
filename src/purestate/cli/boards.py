"""Boards for a person at the terminal: the game's own text, in colour where the game says.

A game with a ``coloured_board`` hook (Tron: its trails, worked out from the states so far) gives
its board as (text, style) pieces; this module turns them into a ``rich`` text, so the game
imports no terminal library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from purestate.core.game import Game
from purestate.core.hooks import coloured_board_of


def board(game: Game[Any, Any], states: Sequence[Any]) -> Text | str:
    """The last of ``states`` (a game's positions so far) as a person reads it."""
    coloured = coloured_board_of(game)
    if coloured is None:
        return game.render(states[-1])
    text = Text()
    for piece, style in coloured(states):
        text.append(piece, style or None)
    return text

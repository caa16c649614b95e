"""Boards for a person at the terminal: the game's own text, or Tron's grid in colour.

A Tron position knows which cells are taken, not by whom, so its board takes the game's states so
far and colours each trail by its player (``games.tron.trails``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from purestate.core.game import Game
from purestate.games.tron.rules import State, Tron, trails


def board(game: Game[Any, Any], states: Sequence[Any]) -> Text | str:
    """The last of ``states`` (a game's positions so far) as a person reads it."""
    if isinstance(game, Tron):
        return tron_board(game, states)
    return game.render(states[-1])


def tron_board(game: Tron, states: Sequence[State]) -> Text:
    """The board with each cycle's trail in its colour."""
    m = game.board
    s = states[-1]
    trail = trails(states)
    text = Text()
    styles = {1: "bold blue", 2: "bold red"}
    for r in range(m.rows):
        for c in range(m.cols):
            i = r * m.cols + c
            if i == s.head0:
                text.append("1", styles[1])
            elif i == s.head1:
                text.append("2", styles[2])
            elif m.walls >> i & 1:
                text.append("#", "white")
            elif trail[0] >> i & 1:
                text.append("x", "blue")
            elif trail[1] >> i & 1:
                text.append("x", "red")
            elif s.blocked >> i & 1:
                text.append("x", "dim")
            else:
                text.append(" ")
        text.append("\n")
    last = game.render(s).splitlines()[-1]
    text.append(last)
    return text

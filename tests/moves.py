"""Positions by the moves that reach them, for the tests and properties (not a test module)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

from purestate.core.game import Game


def play_moves(game: Game[Any, Any], moves: Iterable[Any], state: Any = None) -> Any:
    """The position after ``moves``, played in order from ``state`` (default: the start) through
    the public ``game.step``."""
    return reduce(game.step, moves, game.initial() if state is None else state)

"""What both directions of the OpenSpiel bridge share: pyspiel itself, its errors, move ids.

``pyspiel_module()`` imports OpenSpiel or refuses in one line naming the extra; ``pyspiel_errors``
and ``said`` turn what pyspiel raises into one line; ``num_move_ids`` and ``format_name`` say how
a purestate game looks to OpenSpiel and PettingZoo. The two directions live beside this module:
``from_openspiel`` (OpenSpiel games as purestate games) and ``to_openspiel`` (purestate games as
pyspiel games).
"""

from __future__ import annotations

import importlib
from typing import Any

from purestate.core.game import Game, NotAGame
from purestate.core.hooks import move_id_count
from purestate.core.record import game_spec
from purestate.core.spec import SpecError

INSTALL = "pip install 'purestate[openspiel]'"


def pyspiel_module() -> Any:
    """The ``pyspiel`` module.

    Raises:
        SpecError: one line saying which extra to install when OpenSpiel is missing.
    """
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise SpecError(f"the OpenSpiel bridge needs OpenSpiel: {INSTALL}") from None


def said(e: BaseException) -> str:
    """What a pyspiel error says, on one line: SPIEL_CHECK's ``path/file.cc:123 CONDITION`` and
    its values on the next line become ``CONDITION (values)``."""
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()] or [type(e).__name__]
    head, *rest = lines
    where, _, condition = head.partition(" ")
    if condition and (".cc:" in where or ".h:" in where):
        head = f"{condition} failed"
    return head + (f" ({'; '.join(rest)})" if rest else "")


def pyspiel_errors(pyspiel: Any) -> tuple[type[BaseException], ...]:
    """What pyspiel raises for options it cannot take: its own SpielError, and what pybind11
    makes of a C++ exception (std::bad_alloc, std::length_error, ...)."""
    return (pyspiel.SpielError, RuntimeError, ValueError, TypeError, MemoryError, OverflowError)


def num_move_ids(game: Game[Any, Any]) -> int:
    """How many action ids a pyspiel game (or a PettingZoo action space) needs for ``game``.

    A bridged OpenSpiel game says (``num_distinct_actions``). Otherwise the moves are taken to
    be ints ``0 .. n - 1`` all open at the start, as on every board of the registered games
    (each empty square, each line, each direction); a move beyond that is refused when it
    comes (``check_move_id``).

    Raises:
        SpecError: if the start's moves are not non-negative ints.
    """
    return move_id_count(game)


def check_move_id(game: Game[Any, Any], move: Any, n: int) -> int:
    """``move`` as an action id below ``n``.

    Raises:
        NotAGame: for a move that is not such an id (a game whose later moves go beyond the
            ids its start offered cannot be bridged this way).
    """
    if type(move) is not int or not 0 <= move < n:
        raise NotAGame(f"{game.spec.name}: move {move!r} is not an action id below {n}")
    return move


def format_name(game: Game[Any, Any]) -> str:
    """The game's spec string, or its name when its options cannot be spelled."""
    try:
        return game_spec(game)
    except SpecError:
        return game.spec.name

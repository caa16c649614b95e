"""Exact solvers: the value of every position under perfect play.

``solve(game)`` returns a ``Solution`` for a game small enough to solve. A game with a faster
special-purpose solver names it (``GameSpec.solver``, a ``"module:function"`` string, so the game
imports nothing of this layer); every other game gets the generic memoised minimax of
``purestate.solve.minimax``. Results are memoised per game value: solving is a
pure function of the game, so a second call in the same process is free. The shell may seed the
memo with a solution it loaded from a disk cache (``remember``).

Before solving, ``require_solvable`` refuses a game too large to solve (``bounds.TooLarge``, at
once): by the positions the game declares, or, for a solver module that declares its own size
(``solver_size(game)`` and ``SIZE_LIMIT``, with ``SIZE_UNIT`` naming what it counts), by that.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from purestate.core.game import Game
from purestate.core.hooks import solver_size_of
from purestate.core.memo import LruTable
from purestate.solve.bounds import POSITION_LIMIT, require_whole_game


@runtime_checkable
class Solution(Protocol):
    """Exact values of a solved game."""

    def value(self, state: Any) -> float:
        """The return player 0 gets from ``state`` when both sides play perfectly."""
        ...

    def distance(self, state: Any) -> int | None:
        """Plies to the end when the winner hurries and the loser delays; None if not tracked."""
        ...


# -- optional hooks of a solver module and its solutions (looked up through core.hooks) ---------


class SizedSolver(Protocol):
    """A solver module that measures a game by its own unit (dots and boxes: line sets)."""

    SIZE_LIMIT: int
    SIZE_UNIT: str

    def solver_size(self, game: Any) -> int:
        """How many ``SIZE_UNIT`` solving ``game`` fills.

        Called by ``require_solvable`` before solving, instead of the game's position bound;
        a game above ``SIZE_LIMIT`` is refused at once. Pure and cheap.
        """
        ...


class CachedSolver(Protocol):
    """A solver module whose solutions the shell may keep on disk (``io/solutions.py``)."""

    def cache_name(self, game: Any) -> str:
        """The file name of ``game``'s solution in the cache folder: one per game value."""
        ...

    def from_array(self, game: Any, array: Any) -> Solution:
        """The solution from the array its ``to_array`` wrote. Raises ``ValueError`` for an
        array that does not fit ``game`` (the shell then solves again)."""
        ...


class ArraySolution(Protocol):
    """A solution that is one array (what a ``CachedSolver`` writes to disk)."""

    def to_array(self) -> Any:
        """The solution as one numpy array; ``from_array(game, to_array())`` gives it back."""
        ...


# Keyed by game value; filled here and by the shell from its disk cache (``remember``), so a table
# rather than a decorator. A solution can hold millions of positions: keep a few games only.
_MEMO: LruTable[Game[Any, Any], Solution] = LruTable(
    16, why="a solution can hold up to 10**7 positions; a process solves a few games"
)


def solver_for(game: Game[Any, Any]) -> str:
    """The ``module:function`` that solves ``game``: the one it names, else generic minimax."""
    return game.spec.solver or "purestate.solve.minimax:solve_exhaustive"


def require_solvable(
    game: Game[Any, Any], who: str = "the exact solver", limits: Mapping[str, int] | None = None
) -> None:
    """Refuse at once (``TooLarge``, one line naming an alternative) a game too large to solve.

    Args:
        game: The game.
        who: Who needs the solution, for the message (``"perfect"``).
        limits: Tighter limits by unit (``"positions"``, a solver's ``SIZE_UNIT``), for a caller
            that must answer quickly (the web server); a unit not given keeps this layer's limit.
    """
    tighter = limits or {}
    module = importlib.import_module(solver_for(game).partition(":")[0])
    own_size = solver_size_of(module)
    if own_size is None:
        limit = tighter.get("positions", POSITION_LIMIT)
        require_whole_game(game, who, "the whole game tree", limit=limit)
        return
    require_whole_game(
        game,
        who,
        "the whole game solved",
        size=own_size(game),
        limit=tighter.get(module.SIZE_UNIT, module.SIZE_LIMIT),
        unit=module.SIZE_UNIT,
    )


def solve_size(game: Game[Any, Any]) -> tuple[int | None, str]:
    """What solving ``game`` fills, and its unit: the game's own solver's count
    (``SizedSolver``: dots and boxes' ``"line sets"``), else the game's position bound (``None``
    when it declares none) in ``"positions"``. Cheap: nothing is solved."""
    module = importlib.import_module(solver_for(game).partition(":")[0])
    own_size = solver_size_of(module)
    if own_size is None:
        return game.spec.positions, "positions"
    unit: str = module.SIZE_UNIT
    return own_size(game), unit


def solve(game: Game[Any, Any]) -> Solution:
    """The exact solution of ``game`` (memoised per game).

    Raises:
        TooLarge: at once, before any search, if the game is too large to solve.
    """
    sol = _MEMO.get(game)
    if sol is None:
        require_solvable(game)
        module, _, fn = solver_for(game).partition(":")
        sol = _MEMO.put(game, getattr(importlib.import_module(module), fn)(game))
    return sol


def remember(game: Game[Any, Any], solution: Solution) -> None:
    """Seed the memo with a solution computed earlier (e.g. loaded from a disk cache)."""
    _MEMO.put(game, solution)


def forget(game: Game[Any, Any]) -> None:
    """Drop ``game``'s solution from the memo, if it holds one (the next ``solve`` computes it
    again, or the shell reads it again from its disk cache)."""
    _MEMO.pop(game, None)


def memoised(game: Game[Any, Any]) -> Solution | None:
    """The solution already in the memo, or None (the shell checks before reading a disk cache)."""
    return _MEMO.get(game)

"""Whether a game can be solved or enumerated whole: the one place that decides.

Exact solvers, MENACE's matchboxes, censuses and exact outcome rates visit every position of a
game. On ultimate tic-tac-toe or Tron that never ends: memory grows and nothing is printed. So
each of them first compares the bound the game declares (``GameSpec.positions``) with
``POSITION_LIMIT`` and refuses at once, with one line that says what would work instead. The
check reads two numbers; it builds nothing, so a refusal is immediate.

A special-purpose solver that does not walk positions one by one (dots and boxes' retrograde
table) states its own size and limit; ``purestate.solve.require_solvable`` passes them here.
"""

from __future__ import annotations

import math
from typing import Any

from purestate.core.game import Game
from purestate.core.spec import SpecError

# A walk over positions in Python keeps each one in a dict (a few hundred bytes) and spends a
# few microseconds on it: 10^7 positions is minutes and gigabytes, the most worth waiting for.
POSITION_LIMIT = 10**7


class TooLarge(SpecError):
    """A game too large for a computation that needs all of it (or more than a given limit).

    A ``SpecError``: the command line shows it as one line and exits with code 2.
    """


def about(n: int) -> str:
    """A count for a message: in full below a million, a power of 2 or 10 exactly (``2^27``,
    ``10^7``), anything else as its order of magnitude (``~10^40``)."""
    if n < 1_000_000:
        return f"{n:,}"
    if n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    k = round(math.log10(n))
    return f"10^{k}" if n == 10**k else f"~10^{k}"


def alternative(game: Game[Any, Any]) -> str:
    """What to play ``game`` with instead of a whole-game agent: its declared default opponent,
    unless that is the perfect player itself."""
    default = game.spec.default_opponent
    return "mcts" if default.partition(":")[0] in ("perfect", "solver") else default


def refusal(
    game: Game[Any, Any],
    who: str,
    needs: str,
    instead: str | None = None,
    *,
    size: int | None = None,
    limit: int = POSITION_LIMIT,
    unit: str = "positions",
) -> str | None:
    """Why ``who`` cannot do what it needs on ``game``, or None when the game is small enough.

    Args:
        game: The game.
        who: The agent or computation, for the message (``"perfect"``, ``"menace"``).
        needs: What it needs, for the message (``"the whole game tree"``).
        instead: What would work instead (default: ``alternative(game)``).
        size: How many ``unit`` the computation visits, exactly (default: the bound
            ``game.spec.positions``).
        limit: The most it may visit.
        unit: What ``size`` counts, for the message.
    """
    n = game.spec.positions if size is None else size
    if n is not None and n <= limit:
        return None
    name = game.spec.name
    up_to = "up to " if size is None else ""  # the declared figure is a bound, a size is exact
    what = (
        f"{name} declares no bound on its positions (GameSpec.positions)"
        if n is None
        else f"{name} has {up_to}{about(n)} {unit} (limit {about(limit)})"
    )
    return f"{who} needs {needs}; {what}: try {instead or alternative(game)}"


def require_whole_game(
    game: Game[Any, Any],
    who: str,
    needs: str,
    instead: str | None = None,
    *,
    size: int | None = None,
    limit: int = POSITION_LIMIT,
    unit: str = "positions",
) -> None:
    """Refuse with ``TooLarge`` unless ``game`` is small enough (arguments as ``refusal``)."""
    why = refusal(game, who, needs, instead, size=size, limit=limit, unit=unit)
    if why is not None:
        raise TooLarge(why)

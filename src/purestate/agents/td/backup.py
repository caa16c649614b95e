"""The bootstrapping chain of an episode and the one-step Q-learning backup swept along it.

Written once, used by ``QLearning.learn`` (on a table's scratch rows) and by the fused self-play
loop (on rows numbered by position): the two must compute the very same numbers in the same
order, so that the fused loop is exactly the fold it replaces. The callers reach their rows
through two small functions, ``best`` and ``slot``, so the sweep itself knows nothing of keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from purestate.agents.td.tables import Q_LIMIT, clamp

Step = tuple[int, int, float]
"""One link of the chain: (ply, the ply it bootstraps on or the episode's length, the sign of
that ply's value from this ply's mover's point of view)."""


def chain(movers: Sequence[int], seat: int, negamax: bool) -> list[Step]:
    """The plies whose values a learner bootstraps, and what each bootstraps on.

    Args:
        movers: Who moved at each ply.
        seat: The learning seat (only read by ``own`` bootstrapping).
        negamax: ``True``: every ply bootstraps on the next ply, its value negated when the turn
            passes. ``False`` (``own``): each of ``seat``'s plies bootstraps on ``seat``'s next
            decision, the opponent's plies being part of the environment.

    Returns:
        The links in episode order; a link whose target is the episode's length bootstraps on
        the end of the game (a value of 0).
    """
    n = len(movers)
    if negamax:
        return [
            (t, t + 1, 1.0 if t + 1 < n and movers[t + 1] == movers[t] else -1.0) for t in range(n)
        ]
    own = [t for t in range(n) if movers[t] == seat]
    return [(t, own[j + 1] if j + 1 < len(own) else n, 1.0) for j, t in enumerate(own)]


def q_backups(
    steps: Sequence[Step],
    movers: Sequence[int],
    phi: Sequence[float],
    seat: int,
    alpha: float,
    gamma: float,
    best: Callable[[int], float],
    slot: Callable[[int], tuple[list[float], int]],
) -> None:
    """Q-learning's one-step backups of ``seat``'s moves, swept backwards along ``steps``.

    The target of the move at ply ``t`` is ``seat``'s reward (the change of player 0's running
    margin ``phi``, signed for ``seat``) plus ``gamma`` times the signed best value of the ply it
    bootstraps on; the value moves by ``alpha`` towards it and stays within ``±Q_LIMIT``.

    Args:
        steps: ``chain(movers, seat, negamax)``.
        movers: Who moved at each ply.
        phi: Player 0's running margin before each ply, then the return.
        seat: The learning seat: only its moves change.
        alpha: Step size.
        gamma: Discount.
        best: Ply -> the largest value of the position before it (0 if unseen).
        slot: Ply -> the row of the position before it and the index of the move played; the
            row is changed in place.
    """
    n = len(movers)
    sign = 1.0 if seat == 0 else -1.0
    lo, hi = -Q_LIMIT, Q_LIMIT
    for t, t2, flip in reversed(steps):
        if movers[t] != seat:
            continue
        target = sign * (phi[t2] - phi[t])
        if t2 < n:
            nxt = best(t2)
            target += gamma * (nxt if flip > 0.0 else -nxt)
        row, i = slot(t)
        v = row[i] + alpha * (target - row[i])
        row[i] = v if lo <= v <= hi else clamp(v)

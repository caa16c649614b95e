"""The bootstrapping chain of an episode and the one-step Q-learning backup swept along it.

Written once, used by ``QLearning.learn`` (on a table's scratch rows) and by the fused self-play
loop (on rows numbered by position): the two must compute the very same numbers in the same
order, so that the fused loop is exactly the fold it replaces. The callers hand over their rows
per ply (and two small functions for the rows they have not fetched), so the sweep itself knows
nothing of keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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
    movers: Sequence[int],
    phi: Sequence[float],
    seat: int,
    negamax: bool,
    alpha: float,
    gamma: float,
    rows: list[list[float] | None],
    slots: list[int],
    read: Callable[[int], float],
    write: Callable[[int], list[float]],
) -> None:
    """Q-learning's one-step backups of ``seat``'s moves, swept backwards along its chain.

    The target of the move at ply ``t`` is ``seat``'s reward (the change of player 0's running
    margin ``phi``, signed for ``seat``) plus ``gamma`` times the signed best value of the ply it
    bootstraps on; the value moves by ``alpha`` towards it and stays within ``±Q_LIMIT``.

    The rows are reached through two lists the caller may fill beforehand (the fused loop does,
    so its hot path calls nothing) and two functions asked only for plies left at None:

    Args:
        movers: Who moved at each ply.
        phi: Player 0's running margin before each ply, then the return.
        seat: The learning seat: only its moves change.
        negamax: Bootstrap as ``chain`` says: on the next ply (negamax) or on ``seat``'s next
            decision (own).
        alpha: Step size.
        gamma: Discount.
        rows: Per ply, the row of the position before it (changed in place), or None if not
            fetched yet.
        slots: Per ply, the index in its row of the move played (read where ``rows`` is set).
        read: Ply -> the largest value of the position before it (0 if unseen), for a ply whose
            ``rows`` entry is None.
        write: Ply -> the row of the position before it, made if unseen; it also sets the ply's
            ``slots`` entry. Its answer is kept in ``rows``.
    """
    n = len(movers)
    sign = 1.0 if seat == 0 else -1.0
    lo, hi = -Q_LIMIT, Q_LIMIT
    after: dict[int, int] = {}
    if negamax:
        # the negamax chain walked without building it (the hot case): each ply bootstraps on
        # the next, its value negated when the turn passes
        order: Iterable[int] = range(n - 1, -1, -1)
    else:
        after = {t: t2 for t, t2, _ in chain(movers, seat, negamax)}
        order = reversed(after)
    for t in order:
        if movers[t] != seat:
            continue
        t2 = t + 1 if negamax else after[t]
        target = sign * (phi[t2] - phi[t])
        if t2 < n:
            nrow = rows[t2]
            nxt = read(t2) if nrow is None else max(nrow)
            target += gamma * (nxt if not negamax or movers[t2] == seat else -nxt)
        row = rows[t]
        if row is None:
            row = rows[t] = write(t)
        i = slots[t]
        v = row[i] + alpha * (target - row[i])
        row[i] = v if lo <= v <= hi else clamp(v)

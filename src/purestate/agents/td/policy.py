"""ε-greedy selection on a row of move values, from one 64-bit draw.

Written once, used by ``act`` and by both fused self-play loops, so a game played by the fused
loop is the game ``act`` would play. The high half of the draw decides whether to explore, the
low half picks the move (or breaks a tie between equal best values).
"""

from __future__ import annotations

from collections.abc import Sequence


def explore_threshold(epsilon: float) -> float:
    """The bound under which the draw's high half explores (never when ``epsilon`` is 0)."""
    return epsilon * 4294967296.0 if epsilon > 0.0 else -1.0


def explores(x: int, threshold: float) -> bool:
    """Whether the draw ``x`` explores (then ``epsilon_greedy`` needs no row)."""
    return (x >> 32) < threshold


def epsilon_greedy(
    x: int, threshold: float, width: int, row: Sequence[float] | None
) -> tuple[int, bool]:
    """The move that the draw ``x`` picks.

    Args:
        x: A 64-bit draw.
        threshold: ``explore_threshold(epsilon)``.
        width: The number of legal moves.
        row: The values of the moves in the table's order, or None for an unseen position
            (which is played at random).

    Returns:
        ``(index, greedy)``: with ``greedy`` the index is into ``row`` (the best value, the first
        when it is unique, else one of the equals at random); without, into the legal moves.
    """
    pick = x & 0xFFFFFFFF
    # ``explores`` written inline: this is the fused loops' hottest line
    if row is None or (x >> 32) < threshold:
        return (pick * width) >> 32, False
    top = max(row)
    # a unique best is the common case: find it without building a list
    if row.count(top) == 1:
        return row.index(top), True
    best = [k for k, v in enumerate(row) if v == top]
    return best[(pick * len(best)) >> 32], True

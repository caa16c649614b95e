"""``heuristics.uttt.evaluate`` on ultimate tic-tac-toe's rows (``games/kernels/ultimate.py``'s
layout: X's nine small-board masks, O's nine, the won X, won O and closed masks, the target,
the player to move), operation for operation: the same integer points, the same division and
``tanh`` (both call the C library's), the same clip."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit
from purestate.games.kernels.bits import popcount
from purestate.games.small_board import FULL, LINE_MASKS
from purestate.heuristics.uttt import BIG_LINE, LIMIT, SCALE, SMALL_LINE, SMALL_WIN

_LINES = np.array(LINE_MASKS, np.int64)
_X, _O, _WON_X, _WON_O, _CLOSED = 0, 9, 18, 19, 20


@jit
def _line_points(mine: int, theirs: int, blocked: int) -> int:
    """``sum(small_board.line_counts(mine, theirs, blocked))``: two threats plus blocks."""
    n = 0
    for line in _LINES:
        a = popcount(mine & line)
        b = popcount(theirs & line)
        # a two with the third cell free (not a drawn board), or a block of two
        if (a == 2 and b == 0 and not blocked & line) or (a == 1 and b == 2):
            n += 1
    return n


@jit
def ultimate(row: npt.NDArray[np.int64]) -> float:
    """``uttt.evaluate`` of the (non-terminal) ultimate tic-tac-toe position ``row``."""
    won_x, won_o, closed = row[_WON_X], row[_WON_O], row[_CLOSED]
    hx = SMALL_WIN * popcount(won_x)
    ho = SMALL_WIN * popcount(won_o)
    for sb in range(9):
        if closed >> sb & 1:
            continue
        mx, mo = row[_X + sb], row[_O + sb]
        hx += _line_points(mx, mo, 0) * SMALL_LINE
        ho += _line_points(mo, mx, 0) * SMALL_LINE
    wx, wo = won_x & FULL, won_o & FULL
    drawn = (closed & FULL) & ~(wx | wo)
    hx += BIG_LINE * _line_points(wx, wo, drawn)
    ho += BIG_LINE * _line_points(wo, wx, drawn)
    v = math.tanh((hx - ho) / SCALE)
    return max(-LIMIT, min(LIMIT, v))

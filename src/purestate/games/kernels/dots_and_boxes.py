"""Dots and boxes' random playouts compiled: ``DotsAndBoxes.python_playout`` on int64 masks
(boards of at most 63 lines: 3×3 has 24, 5×5 has 60)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.bits import nth_zero
from purestate.games.kernels.stream import draw, seed


@jit
def margin(
    lines: int, own0: int, own1: int, to_move: int, sides: npt.NDArray[np.int64],
    num_lines: int, s: np.uint64,
) -> int:  # fmt: skip
    """Player 0's boxes minus player 1's at the end of the random game from the position.

    ``sides[i]`` is (box bit, box mask, box bit, box mask) of the boxes line ``i`` borders
    (zeros for a missing second box).
    """
    free = num_lines
    for i in range(num_lines):
        free -= lines >> i & 1
    p = to_move
    j = 0
    while free:
        m = nth_zero(lines, int(draw(s, j) * free))
        j += 1
        lines |= 1 << m
        free -= 1
        got = 0
        if lines & sides[m, 1] == sides[m, 1]:
            got |= sides[m, 0]
        if sides[m, 3] and lines & sides[m, 3] == sides[m, 3]:
            got |= sides[m, 2]
        if got:
            if p == 0:
                own0 |= got
            else:
                own1 |= got
        else:
            p ^= 1
    a = 0
    b = 0
    while own0:
        own0 &= own0 - 1
        a += 1
    while own1:
        own1 &= own1 - 1
        b += 1
    return a - b


@jit
def playout(
    lines: int, own0: int, own1: int, to_move: int, sides: npt.NDArray[np.int64],
    num_lines: int, k: int,
) -> int:  # fmt: skip
    """``margin`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return margin(lines, own0, own1, to_move, sides, num_lines, seed(k))


@jit_parallel
def playouts(
    rows: npt.NDArray[np.int64], ks: npt.NDArray[np.int64], sides: npt.NDArray[np.int64],
    num_lines: int,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """``playout`` of every row (lines, own0, own1, to_move)."""
    out = np.empty(len(ks), np.int64)
    for i in prange(len(ks)):
        r = rows[i]
        out[i] = margin(r[0], r[1], r[2], r[3], sides, num_lines, seed(ks[i]))
    return out

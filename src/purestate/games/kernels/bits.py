"""What several kernels do to bitboards: the set bits of a word, the ``i``-th empty cell, and a
free move over the open small boards of ultimate and Xtreme tic-tac-toe."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit
from purestate.games.small_board import FREE_COUNT

FREE = np.array(FREE_COUNT, dtype=np.int64)
"""``FREE[occupied]``: the free cells of a 3×3 board (``small_board.FREE_COUNT``)."""


@jit
def popcount(b: int) -> int:
    """The set bits of ``b`` (``int.bit_count``; ``b`` not negative)."""
    n = 0
    while b:
        b &= b - 1
        n += 1
    return n


@jit
def nth_zero(occupied: int, i: int) -> int:
    """The ``i``-th clear bit of ``occupied`` from bit 0 (``i`` below the number of clear bits
    in range): the ``i``-th free cell, square or line in increasing order."""
    c = 0
    while True:
        if not occupied >> c & 1:
            if i == 0:
                return c
            i -= 1
        c += 1


@jit
def open_cells(occ: npt.NDArray[np.int64], closed: int) -> int:
    """The free cells of the small boards not closed (``occ[b]``: board ``b``'s filled cells)."""
    total = 0
    for b in range(len(occ)):
        if not closed >> b & 1:
            total += FREE[occ[b]]
    return total


@jit
def free_move(occ: npt.NDArray[np.int64], closed: int, r: int) -> tuple[int, int]:
    """The board and cell of the ``r``-th free cell of the open boards, boards and cells in
    increasing order: a free move's draw, as ``legal`` lists it."""
    b = 0
    while True:
        if not closed >> b & 1:
            n = FREE[occ[b]]
            if r < n:
                return b, nth_zero(occ[b], r)
            r -= n
        b += 1

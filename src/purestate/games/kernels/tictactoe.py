"""Tic-tac-toe's random playouts compiled: ``tictactoe.random_winner`` on machine ints."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.bits import FREE, nth_zero
from purestate.games.kernels.stream import draw, seed
from purestate.games.tictactoe import WINS

_WINS = np.array(WINS, dtype=np.bool_)


@jit
def winner(x: int, o: int, to_move: int, s: np.uint64) -> int:
    """The winner (0, 1, -1 for a draw) of the random game from any position (over or not)
    drawing from the stream with seed ``s``: ``random_winner`` move for move."""
    if _WINS[x]:
        return 0
    if _WINS[o]:
        return 1
    j = 0
    while True:
        occ = x | o
        n = FREE[occ]
        if n == 0:
            return -1
        c = nth_zero(occ, int(draw(s, j) * n))
        j += 1
        if to_move == 0:
            x |= 1 << c
            if _WINS[x]:
                return 0
        else:
            o |= 1 << c
            if _WINS[o]:
                return 1
        to_move ^= 1


@jit
def playout(packed: int, k: int) -> int:
    """The winner of the random game of key ``k`` (passed as ``compiled.as_int64``) from the
    position ``x | o << 9 | to_move << 18``."""
    return winner(packed & 511, packed >> 9 & 511, packed >> 18, seed(k))


@jit_parallel
def playouts(
    xs: npt.NDArray[np.int64],
    os: npt.NDArray[np.int64],
    ps: npt.NDArray[np.int64],
    ks: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """``playout`` of every row, on every core numba's threads have."""
    out = np.empty(len(ks), np.int64)
    for i in prange(len(ks)):
        out[i] = winner(xs[i], os[i], ps[i], seed(ks[i]))
    return out

"""Ultimate tic-tac-toe's random playouts compiled: ``UltimateTicTacToe._random_game`` on int64
masks. A player's 81 bits come in two words, boards 0-4 (45 bits) and boards 5-8 (36 bits)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.bits import FREE, free_move, nth_zero, open_cells
from purestate.games.kernels.stream import draw, seed
from purestate.games.small_board import WINS

_WINS = np.array(WINS, dtype=np.bool_)
LOW_BOARDS = 5
"""Boards 0-4 are the low word of a player's bits, boards 5-8 the high word."""


@jit
def winner(
    x_low: int, x_high: int, o_low: int, o_high: int, boards: int, target: int, to_move: int,
    s: np.uint64,
) -> int:  # fmt: skip
    """The winner (0, 1, -1 for a draw) of the random game from a position that is not over."""
    mx = np.empty(9, np.int64)
    mo = np.empty(9, np.int64)
    occ = np.empty(9, np.int64)
    for b in range(9):
        if b < LOW_BOARDS:
            mx[b] = x_low >> 9 * b & 511
            mo[b] = o_low >> 9 * b & 511
        else:
            mx[b] = x_high >> 9 * (b - LOW_BOARDS) & 511
            mo[b] = o_high >> 9 * (b - LOW_BOARDS) & 511
        occ[b] = mx[b] | mo[b]
    won_x = boards & 511
    won_o = boards >> 9 & 511
    closed = boards >> 18 & 511
    t = target
    p = to_move
    j = 0
    while True:
        if t >= 0:
            b = t
            c = nth_zero(occ[b], int(draw(s, j) * FREE[occ[b]]))
        else:
            b, c = free_move(occ, closed, int(draw(s, j) * open_cells(occ, closed)))
        j += 1
        bit = 1 << c
        filled = occ[b] | bit
        occ[b] = filled
        if p == 0:
            m = mx[b] | bit
            mx[b] = m
            won = won_x
        else:
            m = mo[b] | bit
            mo[b] = m
            won = won_o
        if _WINS[m]:
            closed |= 1 << b
            won |= 1 << b
            if _WINS[won]:
                return p
            if closed == 511:
                return -1
        elif filled == 511:
            closed |= 1 << b
            if closed == 511:
                return -1
        if p == 0:
            won_x = won
        else:
            won_o = won
        p ^= 1
        t = -1 if closed >> c & 1 else c


@jit
def playout(
    x_low: int, x_high: int, o_low: int, o_high: int, boards: int, target: int, to_move: int,
    k: int,
) -> int:  # fmt: skip
    """``winner`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return winner(x_low, x_high, o_low, o_high, boards, target, to_move, seed(k))


@jit_parallel
def playouts(rows: npt.NDArray[np.int64], ks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``playout`` of every row of ``rows`` (x_low, x_high, o_low, o_high, boards, target,
    to_move); a finished game (target ``GAME_OVER``, -2) gives its winner."""
    out = np.empty(len(ks), np.int64)
    for i in prange(len(ks)):
        r = rows[i]
        if r[5] == -2:
            out[i] = 0 if _WINS[r[4] & 511] else 1 if _WINS[r[4] >> 9 & 511] else -1
        else:
            out[i] = winner(r[0], r[1], r[2], r[3], r[4], r[5], r[6], seed(ks[i]))
    return out

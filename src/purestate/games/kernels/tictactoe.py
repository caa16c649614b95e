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


# -- row kernels (``TicTacToe.rows``): a state as the int64 row (x, o, to_move) -------------------

WIDTH = 3
"""Entries of a row: X's marks, O's marks, the player to move."""


@jit
def _over(x: int, o: int) -> bool:
    # ints, not the row: a call that passes an array costs its reference counts (about 15 ns)
    return bool(_WINS[x] or _WINS[o] or x | o == 511)


@jit
def legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The empty squares in increasing order, written to ``out``; 0 once the game is over."""
    if _over(row[0], row[1]):
        return 0
    occ = row[0] | row[1]
    k = 0
    for c in range(9):
        if not occ >> c & 1:
            out[k] = c
            k += 1
    return k


@jit
def step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """The mover's mark on square ``move``, written to ``out``."""
    p = row[2]
    out[0] = row[0]
    out[1] = row[1]
    out[p] |= 1 << move
    out[2] = 1 - p


@jit
def player(row: npt.NDArray[np.int64]) -> int:
    """The player to move, -1 once the game is over."""
    return -1 if _over(row[0], row[1]) else int(row[2])


@jit
def reward0(row: npt.NDArray[np.int64]) -> float:
    """X's reward in [0, 1] of a finished row."""
    return 1.0 if _WINS[row[0]] else 0.0 if _WINS[row[1]] else 0.5


@jit
def returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``TicTacToe.returns(state)[p]`` of a finished row."""
    if _WINS[row[0]]:
        return 1.0 if p == 0 else -1.0
    if _WINS[row[1]]:
        return -1.0 if p == 0 else 1.0
    return 0.0


@jit
def playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """X's reward at the end of ``playout``'s game from the row (over or not)."""
    w = winner(row[0], row[1], row[2], seed(k))
    return 1.0 if w == 0 else 0.0 if w == 1 else 0.5


@jit
def ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The squares that make the mover's line or fill the board, in increasing order."""
    if _over(row[0], row[1]):
        return 0
    occ = row[0] | row[1]
    mine = row[row[2]]
    k = 0
    for c in range(9):
        bit = 1 << c
        if not occ & bit and (_WINS[mine | bit] or occ | bit == 511):
            out[k] = c
            k += 1
    return k

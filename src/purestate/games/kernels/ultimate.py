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


# -- a state as one int64 row (the ``Rows`` hook: the compiled MCTS tree) --------------------------

ROW_WIDTH = 23
"""A row: X's nine small-board masks, O's nine, the boards X won, O won, the closed boards, the
target (``GAME_OVER`` -2 once over, -1 for a free move) and the player to move."""
WON_X, WON_O, CLOSED, TARGET, TO_MOVE = 18, 19, 20, 21, 22
_OVER = -2
_FULL = 511


@jit
def row_legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The legal moves of ``row`` in increasing order into ``out``; their count (0 once over)."""
    t = row[TARGET]
    if t == _OVER:
        return 0
    k = 0
    closed = row[CLOSED]
    for b in range(9):
        if (t >= 0 and b != t) or closed >> b & 1:
            continue
        occ = row[b] | row[9 + b]
        for c in range(9):
            if not occ >> c & 1:
                out[k] = 9 * b + c
                k += 1
    return k


@jit
def row_step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """The row after the legal ``move`` into ``out`` (``UltimateTicTacToe.step``)."""
    out[:] = row
    b, c, p = move // 9, move % 9, row[TO_MOVE]
    mine = out[9 * p + b] | 1 << c
    out[9 * p + b] = mine
    over = False
    if _WINS[mine]:
        out[CLOSED] |= 1 << b
        won = out[WON_X + p] | 1 << b
        out[WON_X + p] = won
        over = _WINS[won] or out[CLOSED] == _FULL
    elif out[b] | out[9 + b] == _FULL:
        out[CLOSED] |= 1 << b
        over = out[CLOSED] == _FULL
    out[TO_MOVE] = 1 - p
    out[TARGET] = _OVER if over else -1 if out[CLOSED] >> c & 1 else c


@jit
def row_player(row: npt.NDArray[np.int64]) -> int:
    """The player to move, -1 once the game is over."""
    return -1 if row[TARGET] == _OVER else int(row[TO_MOVE])


@jit
def row_reward0(row: npt.NDArray[np.int64]) -> float:
    """X's reward in [0, 1] of a finished row: 1 won, 0 lost, 0.5 drawn."""
    return 1.0 if _WINS[row[WON_X]] else 0.0 if _WINS[row[WON_O]] else 0.5


@jit
def row_returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``UltimateTicTacToe.returns(state)[p]`` of a finished row."""
    if _WINS[row[WON_X]]:
        return 1.0 if p == 0 else -1.0
    if _WINS[row[WON_O]]:
        return -1.0 if p == 0 else 1.0
    return 0.0


@jit
def row_playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """X's reward of ``playout``'s random game from ``row`` with key ``k`` (``as_int64``)."""
    if row[TARGET] == _OVER:
        return row_reward0(row)
    x_low, x_high, o_low, o_high = 0, 0, 0, 0
    for b in range(LOW_BOARDS):
        x_low |= row[b] << 9 * b
        o_low |= row[9 + b] << 9 * b
    for b in range(LOW_BOARDS, 9):
        x_high |= row[b] << 9 * (b - LOW_BOARDS)
        o_high |= row[9 + b] << 9 * (b - LOW_BOARDS)
    boards = row[WON_X] | row[WON_O] << 9 | row[CLOSED] << 18
    w = winner(x_low, x_high, o_low, o_high, boards, row[TARGET], row[TO_MOVE], seed(k))
    return 1.0 if w == 0 else 0.0 if w == 1 else 0.5


@jit
def row_ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The legal moves after which the game is over, in increasing order, into ``out``; their
    count (``UltimateTicTacToe.ending_moves``: only a board whose closing gives the mover a line
    or closes the last open board is looked at)."""
    t = row[TARGET]
    if t == _OVER:
        return 0
    p = row[TO_MOVE]
    closed = row[CLOSED]
    won = row[WON_X + p]
    k = 0
    for b in range(9):
        bit = 1 << b
        if (t >= 0 and b != t) or closed & bit:
            continue
        line = _WINS[won | bit]
        last = closed | bit == _FULL
        if not (line or last):
            continue
        mine = row[9 * p + b]
        occ = row[b] | row[9 + b]
        for c in range(9):
            cell = 1 << c
            if occ & cell:
                continue
            if _WINS[mine | cell] or (last and occ | cell == _FULL):
                out[k] = 9 * b + c
                k += 1
    return k

"""Xtreme tic-tac-toe's random playouts compiled: ``XtremeTicTacToe._random_game`` on int64
masks. A player's 162 bits come in four words of five small boards (45 bits) each."""

from __future__ import annotations

import numpy as np

from purestate.core.compiled import jit
from purestate.games.kernels.bits import FREE, free_move, nth_zero, open_cells
from purestate.games.kernels.stream import draw, seed
from purestate.games.small_board import WINS

_WINS = np.array(WINS, dtype=np.bool_)
WORD_BOARDS = 5
"""Small boards per word of a player's bits."""
_ALL = (1 << 18) - 1


@jit
def end(
    x0: int, x1: int, x2: int, x3: int, o0: int, o1: int, o2: int, o3: int, boards: int,
    target: int, to_move: int, bonus: bool, s: np.uint64,
) -> int:  # fmt: skip
    """How the random game from a position that is not over ends: the winner (0 or 1) of a
    line of small boards, or ``2 + won_x + (won_o << 18)`` when every small board closed."""
    marks = np.empty((2, 18), np.int64)
    occ = np.empty(18, np.int64)
    xs = (x0, x1, x2, x3)
    os = (o0, o1, o2, o3)
    for sb in range(18):
        w, at = divmod(sb, WORD_BOARDS)
        marks[0, sb] = xs[w] >> 9 * at & 511
        marks[1, sb] = os[w] >> 9 * at & 511
        occ[sb] = marks[0, sb] | marks[1, sb]
    won = np.empty(2, np.int64)
    won[0] = boards & _ALL
    won[1] = boards >> 18 & _ALL
    closed = boards >> 36 & _ALL
    t = target
    p = to_move
    j = 0
    while True:
        if t >= 0 and not closed >> t & 1 and not closed >> (t + 9) & 1:
            n0 = FREE[occ[t]]
            r = int(draw(s, j) * (n0 + FREE[occ[t + 9]]))
            if r < n0:
                sb = t
            else:
                sb = t + 9
                r -= n0
            c = nth_zero(occ[sb], r)
        elif t >= 0:
            sb = t + 9 if closed >> t & 1 else t
            c = nth_zero(occ[sb], int(draw(s, j) * FREE[occ[sb]]))
        else:
            sb, c = free_move(occ, closed, int(draw(s, j) * open_cells(occ, closed)))
        j += 1
        bit = 1 << c
        filled = occ[sb] | bit
        occ[sb] = filled
        m = marks[p, sb] | bit
        marks[p, sb] = m
        if _WINS[m]:
            closed |= 1 << sb
            w = won[p] | (1 << sb)
            won[p] = w
            if _WINS[(w >> 9) if sb >= 9 else (w & 511)]:
                return p
            if closed == _ALL:
                return int(2 + won[0] + (won[1] << 18))
            t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
            if bonus:
                bonus = False
                p ^= 1
            else:
                bonus = True
            continue
        if filled == 511:
            closed |= 1 << sb
            if closed == _ALL:
                return int(2 + won[0] + (won[1] << 18))
        t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
        bonus = False
        p ^= 1


@jit
def playout(
    x0: int, x1: int, x2: int, x3: int, o0: int, o1: int, o2: int, o3: int, boards: int,
    target: int, to_move: int, bonus: bool, k: int,
) -> int:  # fmt: skip
    """``end`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return end(x0, x1, x2, x3, o0, o1, o2, o3, boards, target, to_move, bonus, seed(k))

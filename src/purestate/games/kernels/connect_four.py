"""Connect four's random and decisive playouts compiled: ``ConnectFour.python_playout`` and
``python_decisive_playout`` on int64 bitboards (boards of at most 63 bits: the usual 7×6 has 49).

The pure kernels skip line and threat tests while they cannot succeed (too few stones); these
run them every ply, which gives the same answers (a test that cannot succeed finds nothing).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.stream import draw, seed


@jit
def _shr(b: int, s: int) -> int:
    return b >> s if s < 64 else 0


@jit
def _shl(b: int, s: int) -> int:
    return b << s if s < 64 else 0


@jit
def _has_line(b: int, stride: int, rows: int, connect: int) -> bool:
    # each direction: runs of 1, 2, 4, ... then the rest (Board.shifts)
    for d in (1, stride, rows, stride + 1):
        m = b
        run = 1
        while run < connect:
            s = min(run, connect - run)
            m &= _shr(m, s * d)
            run += s
        if m:
            return True
    return False


@jit
def _threats(p: int, stride: int, rows: int, connect: int) -> int:
    # the cells with j of p's stones before them and connect - 1 - j after, in some direction
    found = 0
    for d in (1, stride, rows, stride + 1):
        for j in range(connect):
            m = -1
            for t in range(1, j + 1):
                m &= _shl(p, t * d)
            for t in range(1, connect - j):
                m &= _shr(p, t * d)
            found |= m
    return found


@jit
def _pick(mask: int, columns: int, stride: int, rows: int, i: int) -> int:
    """The ``i``-th column that is not full, left to right."""
    for c in range(columns):
        if not mask >> (c * stride + rows - 1) & 1:
            if i == 0:
                return c
            i -= 1
    return -1


@jit
def _free(mask: int, columns: int, stride: int, rows: int) -> int:
    n = 0
    for c in range(columns):
        if not mask >> (c * stride + rows - 1) & 1:
            n += 1
    return n


@jit
def _drop(mask: int, c: int, stride: int, rows: int) -> int:
    """The cell a stone dropped into column ``c`` fills."""
    return (mask + (1 << c * stride)) & (((1 << rows) - 1) << c * stride)


@jit
def winner(
    x: int, o: int, to_move: int, columns: int, rows: int, connect: int, s: np.uint64
) -> int:
    """The winner (0, 1, -1 for a draw) of the random game from a position nobody has won."""
    stride = rows + 1
    mine, theirs = (x, o) if to_move == 0 else (o, x)
    mask = x | o
    mover = to_move
    j = 0
    while True:
        n = _free(mask, columns, stride, rows)
        if n == 0:
            return -1
        c = _pick(mask, columns, stride, rows, int(draw(s, j) * n))
        j += 1
        bit = _drop(mask, c, stride, rows)
        mask |= bit
        mine |= bit
        if _has_line(mine, stride, rows, connect):
            return mover
        mine, theirs = theirs, mine
        mover ^= 1


@jit
def decisive_winner(
    x: int, o: int, to_move: int, columns: int, rows: int, connect: int, anti: bool, s: np.uint64
) -> int:
    """The winner of the decisive (``anti``: anti-decisive) random game from a position that is
    not over."""
    stride = rows + 1
    full = 0
    bottoms = 0
    for c in range(columns):
        full |= ((1 << rows) - 1) << c * stride
        bottoms |= 1 << c * stride
    mine, theirs = (x, o) if to_move == 0 else (o, x)
    mask = x | o
    mover = to_move
    wins = _threats(mine, stride, rows, connect)
    losses = _threats(theirs, stride, rows, connect)
    j = 0
    while True:
        n = _free(mask, columns, stride, rows)
        if n == 0:
            return -1
        if wins & (mask + bottoms) & full:
            return mover
        i = int(draw(s, j) * n)
        j += 1
        bit = _drop(mask, _pick(mask, columns, stride, rows, i), stride, rows)
        if anti and losses & ((mask | bit) + bottoms) & full:
            for t in range(1, n):
                b = _drop(mask, _pick(mask, columns, stride, rows, (i + t) % n), stride, rows)
                if not losses & ((mask | b) + bottoms) & full:
                    bit = b
                    break
        mask |= bit
        mine |= bit
        wins = _threats(mine, stride, rows, connect)
        mine, theirs, wins, losses = theirs, mine, losses, wins
        mover ^= 1


@jit
def playout(x: int, o: int, to_move: int, columns: int, rows: int, connect: int, k: int) -> int:
    """``winner`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return winner(x, o, to_move, columns, rows, connect, seed(k))


@jit
def decisive_playout(
    x: int, o: int, to_move: int, columns: int, rows: int, connect: int, anti: bool, k: int
) -> int:
    """``decisive_winner`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return decisive_winner(x, o, to_move, columns, rows, connect, anti, seed(k))


@jit_parallel
def playouts(
    xs: npt.NDArray[np.int64],
    os: npt.NDArray[np.int64],
    ps: npt.NDArray[np.int64],
    ws: npt.NDArray[np.int64],
    ks: npt.NDArray[np.int64],
    columns: int,
    rows: int,
    connect: int,
) -> npt.NDArray[np.int64]:
    """``playout`` of every row; a row whose winner ``ws[i]`` is known already gives it."""
    out = np.empty(len(ks), np.int64)
    for i in prange(len(ks)):
        if ws[i] >= 0:
            out[i] = ws[i]
        else:
            out[i] = winner(xs[i], os[i], ps[i], columns, rows, connect, seed(ks[i]))
    return out


# -- row kernels (``ConnectFour.rows``) ----------------------------------------------------------

WIDTH = 7
"""Entries of a row: X's stones, O's stones, the player to move, the winner (-1 for none), and
the board's columns, rows and line length (so one compiled function serves every size)."""
_X, _O, _TO_MOVE, _WINNER, _COLUMNS, _ROWS, _CONNECT = range(WIDTH)


@jit
def _full(columns: int, rows: int) -> int:
    full = 0
    for c in range(columns):
        full |= ((1 << rows) - 1) << c * (rows + 1)
    return full


@jit
def _reward0(w: int) -> float:
    return 1.0 if w == 0 else 0.0 if w == 1 else 0.5


@jit
def legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The columns that are not full, left to right; 0 once the game is over."""
    if row[_WINNER] >= 0:
        return 0
    columns, rows = row[_COLUMNS], row[_ROWS]
    mask = row[_X] | row[_O]
    k = 0
    for c in range(columns):
        if not mask >> (c * (rows + 1) + rows - 1) & 1:
            out[k] = c
            k += 1
    return k


@jit
def step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """The mover's stone dropped into column ``move``, written to ``out``."""
    out[:] = row
    rows = row[_ROWS]
    p = row[_TO_MOVE]
    mine = row[p] | _drop(row[_X] | row[_O], move, rows + 1, rows)
    out[p] = mine
    out[_TO_MOVE] = 1 - p
    out[_WINNER] = p if _has_line(mine, rows + 1, rows, row[_CONNECT]) else -1


@jit
def player(row: npt.NDArray[np.int64]) -> int:
    """The player to move, -1 once somebody has a line or the board is full."""
    if row[_WINNER] >= 0 or row[_X] | row[_O] == _full(row[_COLUMNS], row[_ROWS]):
        return -1
    return int(row[_TO_MOVE])


@jit
def reward0(row: npt.NDArray[np.int64]) -> float:
    """X's reward in [0, 1] of a finished row."""
    return _reward0(row[_WINNER])


@jit
def returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``ConnectFour.returns(state)[p]`` of a finished row."""
    w = row[_WINNER]
    return 0.0 if w < 0 else 1.0 if w == p else -1.0


@jit
def playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """X's reward at the end of ``playout``'s game from the row (over or not)."""
    if row[_WINNER] >= 0:
        return _reward0(row[_WINNER])
    return _reward0(
        winner(row[_X], row[_O], row[_TO_MOVE], row[_COLUMNS], row[_ROWS], row[_CONNECT], seed(k))
    )


@jit
def decisive0(row: npt.NDArray[np.int64], k: int, anti: bool) -> float:
    """X's reward at the end of ``decisive_playout``'s game from the row (over or not)."""
    if row[_WINNER] >= 0 or row[_X] | row[_O] == _full(row[_COLUMNS], row[_ROWS]):
        return _reward0(row[_WINNER])
    return _reward0(
        decisive_winner(
            row[_X], row[_O], row[_TO_MOVE], row[_COLUMNS], row[_ROWS], row[_CONNECT], anti,
            seed(k),
        )
    )  # fmt: skip


@jit
def ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The columns after which the game is over, left to right: the mover's winning cells
    among the playable ones, or the last empty cell (``ConnectFour.ending_moves``)."""
    columns, rows = row[_COLUMNS], row[_ROWS]
    stride = rows + 1
    full = _full(columns, rows)
    mask = row[_X] | row[_O]
    if row[_WINNER] >= 0 or mask == full:
        return 0
    bottoms = 0
    for c in range(columns):
        bottoms |= 1 << c * stride
    playable = (mask + bottoms) & full
    ends = _threats(row[row[_TO_MOVE]], stride, rows, row[_CONNECT]) & playable
    if mask | playable == full and not playable & (playable - 1):
        ends = playable
    k = 0
    column = (1 << rows) - 1
    for c in range(columns):
        if ends >> c * stride & column:
            out[k] = c
            k += 1
    return k

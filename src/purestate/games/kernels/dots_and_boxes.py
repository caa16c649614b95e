"""Dots and boxes' random playouts compiled: ``DotsAndBoxes.python_playout`` on int64 masks
(boards of at most 63 lines: 3×3 has 24, 5×5 has 60)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.bits import nth_zero, popcount
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


# -- row kernels (``DotsAndBoxes.rows``) ---------------------------------------------------------

WIDTH = 7
"""Entries of a row: the drawn lines, player 0's boxes, player 1's, the player to move, and the
board's rows and columns of boxes and whether returns are margins (one compilation for every
size)."""
_LINES, _OWN0, _OWN1, _TO_MOVE, _ROWS, _COLS, _MARGIN = range(WIDTH)


@jit
def _num_lines(rows: int, cols: int) -> int:
    return (rows + 1) * cols + rows * (cols + 1)


@jit
def _box(r: int, c: int, rows: int, cols: int) -> tuple[int, int]:
    """Box ``(r, c)``'s bit and the mask of its four sides (``Board.box_masks``)."""
    num_h = (rows + 1) * cols
    mask = 1 << r * cols + c | 1 << (r + 1) * cols + c
    mask |= 1 << num_h + r * (cols + 1) + c | 1 << num_h + r * (cols + 1) + c + 1
    return 1 << r * cols + c, mask


@jit
def _borders(m: int, rows: int, cols: int) -> tuple[int, int, int, int, bool, bool]:
    """The two boxes line ``m`` may border, ``(r0, c0, r1, c1, first, second)``: above and
    below a horizontal line, left and right of a vertical one, the lower box first, each there
    only where ``first`` or ``second`` says (not beyond the board's edge)."""
    num_h = (rows + 1) * cols
    if m < num_h:
        r, c = m // cols, m % cols
        return r - 1, c, r, c, r > 0, r < rows
    r, c = (m - num_h) // (cols + 1), (m - num_h) % (cols + 1)
    return r, c - 1, r, c, c > 0, c < cols


@jit
def sides_of(rows: int, cols: int) -> npt.NDArray[np.int64]:
    """The ``sides`` table ``margin`` takes (``dots_and_boxes.kernel_sides``): row ``i`` is
    (box bit, box mask, box bit, box mask) of the one or two boxes line ``i`` borders, the lower
    box first, zeros for a missing second."""
    n = _num_lines(rows, cols)
    table = np.zeros((n, 4), np.int64)
    for i in range(n):
        r0, c0, r1, c1, first, second = _borders(i, rows, cols)
        j = 0
        if first:
            table[i, 0], table[i, 1] = _box(r0, c0, rows, cols)
            j = 2
        if second:
            table[i, j], table[i, j + 1] = _box(r1, c1, rows, cols)
    return table


@jit
def _completed(lines: int, m: int, rows: int, cols: int) -> int:
    """The boxes line ``m`` borders that ``lines`` completes (bits)."""
    r0, c0, r1, c1, first, second = _borders(m, rows, cols)
    got = 0
    for there, r, c in ((first, r0, c0), (second, r1, c1)):
        if there:
            bit, mask = _box(r, c, rows, cols)
            if lines & mask == mask:
                got |= bit
    return got


@jit
def _free(lines: int, rows: int, cols: int) -> int:
    # ints, not the row: a call that passes an array costs its reference counts (about 15 ns)
    return _num_lines(rows, cols) - popcount(lines)


@jit
def legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The undrawn lines in increasing order; 0 once every line is drawn."""
    lines = row[_LINES]
    k = 0
    for i in range(_num_lines(row[_ROWS], row[_COLS])):
        if not lines >> i & 1:
            out[k] = i
            k += 1
    return k


@jit
def step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """Line ``move`` drawn, written to ``out``; the mover keeps the turn iff it completes a
    box."""
    out[:] = row
    lines = row[_LINES] | 1 << move
    out[_LINES] = lines
    got = _completed(lines, move, row[_ROWS], row[_COLS])
    p = row[_TO_MOVE]
    if got:
        out[_OWN0 + p] |= got
    else:
        out[_TO_MOVE] = 1 - p


@jit
def player(row: npt.NDArray[np.int64]) -> int:
    """The player to move, -1 once every line is drawn."""
    return -1 if _free(row[_LINES], row[_ROWS], row[_COLS]) == 0 else int(row[_TO_MOVE])


@jit
def _reward0(d: int, margin: bool) -> float:
    """``mcts.unit_reward`` of player 0's return for a box margin ``d``, operation for
    operation: ``(r + 1) * 0.5`` clipped to [0, 1]."""
    if not margin:
        d = (d > 0) - (d < 0)
    u = (float(d) + 1.0) * 0.5
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


@jit
def reward0(row: npt.NDArray[np.int64]) -> float:
    """Player 0's reward in [0, 1] of a finished row."""
    return _reward0(popcount(row[_OWN0]) - popcount(row[_OWN1]), row[_MARGIN] != 0)


@jit
def returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``DotsAndBoxes.returns(state)[p]`` of a finished row: the margin (or its sign) as the
    rules make it, ``float(d)`` and ``float(-d)``."""
    d = popcount(row[_OWN0]) - popcount(row[_OWN1])
    if row[_MARGIN] == 0:
        d = (d > 0) - (d < 0)
    return float(d) if p == 0 else float(-d)


@jit
def playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """Player 0's reward at the end of ``random_playout``'s game from the row (over or not)."""
    rows, cols = row[_ROWS], row[_COLS]
    d = margin(
        row[_LINES], row[_OWN0], row[_OWN1], row[_TO_MOVE], sides_of(rows, cols),
        _num_lines(rows, cols), seed(k),
    )  # fmt: skip
    return _reward0(d, row[_MARGIN] != 0)


@jit
def ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The moves after which the game is over: the last undrawn line."""
    if _free(row[_LINES], row[_ROWS], row[_COLS]) != 1:
        return 0
    return legal(row, out)

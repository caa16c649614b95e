"""Exact dots and boxes by retrograde analysis over line sets (Wilson's formulation).

The future of a position depends only on the lines drawn: the boxes already scored are banked,
and the side to move faces the same choices whoever it is. So one number per line set suffices,
``V[lines]`` = the net number of boxes the player to move will still gain (their future boxes minus
the opponent's) when both sides play to maximise their margin:

    V[full] = 0
    V[s] = max over undrawn lines m of   k + V[s | m]   if m completes k >= 1 boxes (move again)
                                         -V[s | m]      otherwise (the turn passes)

Every child has one more line, so the table fills from the full board down: by the compiled kernel
where numba imports (``purestate.solve.kernels.dots_and_boxes``, 3×3 in about 0.2 s), else layer
by layer with numpy (``python_line_values``, the reference: about 1 s); the two tables are equal
entry for entry. The table has 2^lines int8 entries: 4 KB on 2×2, 16 MB on 3×3 (24 lines).
Player 0's margin under perfect play from a state is then
``own0 - own1 + V[lines]`` when player 0 is to move and ``own0 - own1 - V[lines]`` otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from attrs import field, frozen

from purestate.core import compiled
from purestate.core.memo import memo
from purestate.games.dots_and_boxes import Board, DotsAndBoxes, State

# Each line doubles the time and the table. With numpy alone (the path without numba, which the
# limit is for) 24 lines (3×3) take 1 s, 27 lines (2×5) 11 s and 265 MB at the peak; 30 lines
# would take about a minute and 2 GB. Compiled: 0.2 s and 1.8 s.
MAX_LINES = 27
# What ``purestate.solve.require_solvable`` checks before solving: this solver's own size.
SIZE_LIMIT = 1 << MAX_LINES
SIZE_UNIT = "line sets"


def solver_size(game: DotsAndBoxes) -> int:
    """The entries of the table this solver fills: one per line set."""
    return 1 << game.num_lines


@memo(size=4, why="a table is up to 2**27 bytes; a process solves a few board sizes")
def line_values(rows: int, cols: int) -> npt.NDArray[np.int8]:
    """The table ``V`` of net future boxes for the player to move, indexed by line bitboard.

    Computed by the compiled kernel where numba imports (``purestate.solve.kernels``), else by
    ``python_line_values``; the two tables are equal entry for entry. Memoised (the margin and
    win/loss games share one table) and returned read-only.

    Raises:
        ValueError: for boards of more than ``MAX_LINES`` lines.
    """
    board = _checked_board(rows, cols)
    kernel = compiled.kernels("dots_and_boxes", compiled.SOLVER_KERNELS)
    if kernel is None:
        values = _layered_values(board)
    else:
        values = kernel.line_values(_side_masks(board), board.num_lines)
    values.flags.writeable = False
    return values


def python_line_values(rows: int, cols: int) -> npt.NDArray[np.int8]:
    """``line_values`` by numpy alone, without the compiled kernel: the reference and the fallback
    (not memoised, so a test can set it beside the compiled table).

    Raises:
        ValueError: for boards of more than ``MAX_LINES`` lines.
    """
    return _layered_values(_checked_board(rows, cols))


def _checked_board(rows: int, cols: int) -> Board:
    b = DotsAndBoxes(rows, cols).board
    if b.num_lines > MAX_LINES:
        raise ValueError(
            f"a {rows}x{cols} board has {b.num_lines} lines: the 2^{b.num_lines}-entry table is "
            f"too large (at most {MAX_LINES} lines)"
        )
    return b


def _side_masks(b: Board) -> npt.NDArray[np.int64]:
    """The kernel's ``masks``: row ``i`` is the side masks of the boxes line ``i`` borders, a
    missing second box ``1 << num_lines`` (no line set holds that line)."""
    masks = np.full((b.num_lines, 2), 1 << b.num_lines, dtype=np.int64)
    for i, boxes in enumerate(b.line_boxes):
        for j, (_, mask) in enumerate(boxes):
            masks[i, j] = mask
    return masks


# The numpy path's split of a line set: its low LOW_LINES lines index a row of the table viewed as
# a matrix, its other lines the row. 2^10-entry rows keep each numpy call large and the matrices of
# one layer of rows a few MB (3×3: 8 to 12 low lines all take 0.8-0.9 s).
LOW_LINES = 10


def _layered_values(b: Board) -> npt.NDArray[np.int8]:
    """The table by numpy, layer by layer: ``V[s]`` needs only line sets with more lines.

    Viewed as a matrix, row ``h`` (the high lines) by column ``l`` (the low ``LOW_LINES``
    lines), the rows with the same number of high lines drawn depend only on rows with more, so
    they are solved together, one matrix per layer of rows: first every high line drawn, from the
    finished rows (whole rows at once), then the low lines, column layer by column layer within
    the matrix (whole columns at once). Every numpy call works on contiguous rows and the box
    tests are outer products of a row test and a column test.
    """
    n = b.num_lines
    low = min(LOW_LINES, n)
    width = 1 << low
    high_rows = np.arange(1 << (n - low), dtype=np.int64)
    columns = np.arange(width, dtype=np.int64)
    row_layer = np.bitwise_count(high_rows)
    column_layer = np.bitwise_count(columns)
    # the other sides of the one or two boxes each line borders
    others = [[mask & ~(1 << i) for _, mask in b.line_boxes[i]] for i in range(n)]

    def gained(line: int, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]) -> Any:
        """Boxes drawing ``line`` completes in each child (row ``rows[j]``, column ``cols[k]``)."""
        g = np.zeros((len(rows), len(cols)), np.int8)
        for mask in others[line]:
            high, lo = mask >> low, mask & (width - 1)
            g += ((rows & high) == high)[:, None] & ((cols & lo) == lo)[None, :]
        return g

    def backed_up(g: Any, future: Any) -> Any:
        # int8 is enough: |future| is at most the boxes, and g at most 2
        return np.where(g > 0, g + future, -future)

    # the columns of each column layer where a low line is free: the same in every row
    free_columns = [
        [columns[(column_layer == k) & ((columns >> i & 1) == 0)] for i in range(low)]
        for k in range(low)
    ]
    table = np.zeros((1 << (n - low), width), dtype=np.int8)
    for k in range(n - low, -1, -1):
        rows = np.flatnonzero(row_layer == k)
        best = np.full((len(rows), width), -128, np.int8)  # -128: below every value
        if k == n - low:
            best[:, width - 1] = 0  # the full board
        for line in range(low, n):
            bit = 1 << (line - low)
            free = np.flatnonzero((rows & bit) == 0)
            if free.size:
                children = rows[free] | bit
                v = backed_up(gained(line, children, columns), table[children])
                best[free] = np.maximum(best[free], v)
        by_column = np.ascontiguousarray(best.T)
        for c in range(low - 1, -1, -1):
            for line in range(low):
                cols = free_columns[c][line]
                children = cols | 1 << line
                v = backed_up(gained(line, rows, children).T, by_column[children])
                by_column[cols] = np.maximum(by_column[cols], v)
        table[rows] = by_column.T
    return table.reshape(-1)


@frozen(eq=False)
class DotsAndBoxesSolution:
    """The solved game: the retrograde table and the values it implies.

    Attributes:
        game: The game solved (its ``margin`` option decides whether values are margins or
            +1/0/-1).
        table: ``table[lines]`` = net future boxes for the player to move.
    """

    game: DotsAndBoxes
    table: npt.NDArray[np.int8] = field(repr=False)

    def future(self, state: State) -> int:
        """Net boxes the player to move still gains from ``state`` under perfect play."""
        return int(self.table[state.lines])

    def margin(self, state: State) -> int:
        """Player 0's final margin (own0 - own1) under perfect play from ``state``."""
        banked = state.own0.bit_count() - state.own1.bit_count()
        f = int(self.table[state.lines])
        return banked + (f if state.to_move == 0 else -f)

    def value(self, state: State) -> float:
        """Player 0's return under perfect play: the margin, or its sign with ``margin=False``."""
        m = self.margin(state)
        if not self.game.margin:
            m = (m > 0) - (m < 0)
        return float(m)

    def distance(self, state: State) -> int | None:
        """Every game lasts until the board is full: the number of undrawn lines."""
        return self.game.num_lines - state.lines.bit_count()

    def move_values(self, state: State) -> dict[int, int]:
        """For each legal move, the mover's final margin (mover minus opponent) after it."""
        g = self.game
        sign = 1 if state.to_move == 0 else -1
        return {m: sign * self.margin(g.step(state, m)) for m in g.legal(state)}

    def best_moves(self, state: State) -> tuple[int, ...]:
        """The margin-optimal moves for the player to move."""
        vals = self.move_values(state)
        top = max(vals.values())
        return tuple(m for m, v in vals.items() if v == top)

    def to_array(self) -> npt.NDArray[np.int8]:
        """The table, for a disk cache."""
        return self.table


def from_array(game: DotsAndBoxes, array: Any) -> DotsAndBoxesSolution:
    """A solution from a table written by ``to_array`` (checked for size and type).

    Raises:
        ValueError: if the array does not fit the game.
    """
    arr = np.asarray(array)
    if arr.dtype != np.int8 or arr.shape != (1 << game.num_lines,):
        raise ValueError(
            f"not a {game.rows}x{game.cols} dots-and-boxes table "
            f"(shape {arr.shape}, dtype {arr.dtype})"
        )
    return DotsAndBoxesSolution(game, arr)


def solve(game: DotsAndBoxes) -> DotsAndBoxesSolution:
    """Solve ``game`` exactly (registered in ``purestate.solve``)."""
    return DotsAndBoxesSolution(game, line_values(game.rows, game.cols))


def cache_name(game: DotsAndBoxes) -> str:
    """The disk-cache file name: one table per board size (margin or win/loss alike)."""
    return f"dots_and_boxes-{game.rows}x{game.cols}.npy"

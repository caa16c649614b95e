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
by layer with numpy (``python_line_values``, the reference: about 3.5 s); the two tables are equal
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

# Each line doubles the time and memory. With numpy alone (the path without numba, which the limit
# is for) 24 lines (3×3) take 3.5 s, 27 lines (2×5) 23 s and 0.9 GB; 28 would take about a minute
# and 2 GB, 30 several minutes and 8 GB. Compiled: 0.17 s and 1.4 s.
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


def _layered_values(b: Board) -> npt.NDArray[np.int8]:
    """The table, one numpy pass per layer (line sets with the same number of lines drawn)."""
    n = b.num_lines
    size = 1 << n
    values = np.zeros(size, dtype=np.int8)
    counts = np.bitwise_count(np.arange(size, dtype=np.uint32)).astype(np.uint8)
    box_masks = [[np.uint32(m) for _, m in b.line_boxes[i]] for i in range(n)]
    for layer in range(n - 1, -1, -1):
        states = np.flatnonzero(counts == layer).astype(np.uint32)
        best = np.full(states.shape, -128, dtype=np.int16)
        for m in range(n):
            bit = np.uint32(1 << m)
            free = (states & bit) == 0
            child = states[free] | bit
            future = values[child].astype(np.int16)
            gained = np.zeros(child.shape, dtype=np.int16)
            for mask in box_masks[m]:
                gained += (child & mask) == mask
            v = np.where(gained > 0, gained + future, -future)
            sub = best[free]
            np.maximum(sub, v, out=sub)
            best[free] = sub
        values[states] = best.astype(np.int8)
    return values


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

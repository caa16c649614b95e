"""Tables for one 3×3 small board, shared by ultimate tic-tac-toe and Xtreme tic-tac-toe.

Both games are grids of small tic-tac-toe boards whose cells are numbered 0-8 row by row, with
one 9-bit mask per player and board. Everything here is a precomputed table over the 512 masks,
so the rules and the playouts never loop over lines: ``WINS[mask]`` says whether a mask holds
three in a row, ``EMPTY_CELLS[occupied]`` lists the free cells. The same tables serve the big
board, whose "cells" are the small boards (a mask of the small boards a player has won).
"""

from __future__ import annotations

from purestate.core.memo import memo
from purestate.core.symmetry import grid_group

_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)  # fmt: skip


def line_of(bits: int) -> tuple[int, int, int] | None:
    """The first line (cells in order, end to end) all of whose cells are set in ``bits``."""
    return next((line for line in _LINES if all(bits >> c & 1 for c in line)), None)


FULL = 0x1FF
"""All nine cells of a small board."""

LINE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in _LINES)
"""The eight lines of a 3×3 board as 9-bit masks."""

LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in LINE_MASKS if m >> c & 1) for c in range(9)
)
"""``LINES_THROUGH[c]``: the masks of the lines through cell ``c`` (2, 3 or 4 of them)."""

WINS: tuple[bool, ...] = tuple(any(m & line == line for line in LINE_MASKS) for m in range(512))
"""``WINS[mask]``: whether the cells in ``mask`` contain three in a row."""

EMPTY_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(9) if not occ >> c & 1) for occ in range(512)
)
"""``EMPTY_CELLS[occupied]``: the free cells, in increasing order."""

FREE_COUNT: tuple[int, ...] = tuple(len(cells) for cells in EMPTY_CELLS)
"""``FREE_COUNT[occupied]``: how many cells are free."""

GROUP = grid_group(3, 3)
"""D4 acting on the nine cells (identity first); the big board uses the same permutations."""

CELL_MAPS: tuple[tuple[int, ...], ...] = tuple(GROUP.perms)
"""``CELL_MAPS[g][c]``: the cell that symmetry ``g`` carries cell ``c`` to."""

MASK_IMAGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(GROUP.apply_bits(g, m) for m in range(512)) for g in range(len(GROUP))
)
"""``MASK_IMAGES[g][mask]``: the image of a 9-bit mask under symmetry ``g``."""

POSITION_POINTS: tuple[int, ...] = (4, 6, 4, 6, 3, 6, 4, 6, 4)
"""Xtreme tic-tac-toe points of a small board by its position: corner 4, edge 6, centre 3."""


def line_counts(
    mine: int, theirs: int, blocked: int = 0, lines: tuple[int, ...] = LINE_MASKS
) -> tuple[int, int]:
    """Count two threats and blocks of one player on one 3×3 board.

    Args:
        mine: The player's 9-bit mask.
        theirs: The opponent's 9-bit mask.
        blocked: Cells that are nobody's and not empty either (the drawn small boards, when the
            "board" is a big board): a line through one holds no threat.
        lines: The lines to count (all eight, or ``LINES_THROUGH[c]``).

    Returns:
        ``(twos, blocks)``: lines holding two of ``mine`` and an empty third cell, and lines
        holding two of ``theirs`` and one of ``mine``.
    """
    twos = blocks = 0
    for line in lines:
        a = (mine & line).bit_count()
        b = (theirs & line).bit_count()
        if a == 2 and b == 0 and not blocked & line:
            twos += 1
        elif a == 1 and b == 2:
            blocks += 1
    return twos, blocks


# positions repeat their small boards a lot; callers pass two disjoint 9-bit masks
@memo(size=None, why="two disjoint 9-bit masks: at most 3**9 = 19,683 keys")
def cached_line_counts(mine: int, theirs: int) -> tuple[int, int]:
    """``line_counts(mine, theirs)``, memoised (both are 9-bit masks of one small board)."""
    return line_counts(mine, theirs)

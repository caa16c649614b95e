"""Sets of cells on a Tron map as int bitboards: the neighbours of a set, and the flood fill.

Bit ``r * cols + c`` stands for the cell at row ``r``, column ``c``. The maps are enclosed by
walls, so a shift by one column or one row never wraps into a free cell.

This is the one flood fill of the package: the rules (which start cells mirror each other) and
the heuristics (reachable space, fill bounds, chambers) all call ``flood``.
"""

from __future__ import annotations


def neighbours_of(bits: int, cols: int) -> int:
    """The cells next to any cell of ``bits`` (4-neighbourhood; may include ``bits`` itself)."""
    return bits << 1 | bits >> 1 | bits << cols | bits >> cols


def flood(free: int, seed: int, cols: int) -> int:
    """The cells of ``free`` reachable from the cells of ``seed`` by steps through ``free``.

    The seed cells never count themselves, whether or not they are in ``free``: a search from a
    cycle's head (which is never free) wants the room beyond the head, and a caller that wants
    the seed too ORs it in (``flood(free, seed, cols) | seed``).
    """
    avail = free & ~seed
    region = 0
    frontier = seed
    while frontier:
        # neighbours_of inlined: the flood is the inner loop of every Tron evaluation
        frontier = (frontier << 1 | frontier >> 1 | frontier << cols | frontier >> cols) & avail
        avail ^= frontier
        region |= frontier
    return region

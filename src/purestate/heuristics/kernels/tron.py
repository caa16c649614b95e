"""``heuristics.tron.voronoi_eval`` on Tron's rows (``games/kernels/tron.py``'s layout), float
for float.

The Python evaluation works on int bitboards (a BFS advances a whole frontier with a few
shifts); here the same sets are walked cell by cell, which gives the same sets and counts:

* the Voronoi split: each player's BFS distance to every empty cell (heads are obstacles except
  as sources); a cell is the player's when it is strictly nearer, a tie when both are as near,
  which is ``voronoi``'s layer by layer ``new0``/``new1``;
* once no empty cell is reachable by both, each side's ``fill_length`` through the cells it
  reaches: the same depth-first search (moves in U, D, L, R order stably sorted by their free
  neighbours, the same node count, the same stops), with ``room_beyond``'s answer, which is
  whether the parity bound of the whole flood exceeds the need (the bound only grows as cells
  are added, so where the flood stops does not change it);
* the same float operations in the same order (``endgame_value``, the territory difference).

``fill_length`` is memoised in Python; the memo changes speed, never values, so the kernel
searches afresh each time.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit
from purestate.games.kernels.tron import (
    COLS,
    FREE_CELLS,
    HEAD0,
    HEAD1,
    OUTCOME,
    RUNNING,
    SIMULTANEOUS,
    SIZE,
    TO_MOVE,
    WORDS,
)
from purestate.heuristics.tron.endgame import FILL_NODES, HALF

_WIN = 0.999  # endgame._WIN: a finished game's value


@jit
def _free_mask(row: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """1 for each empty cell of the map, 0 for the taken ones."""
    size = row[SIZE]
    free = np.zeros(size, np.uint8)
    for c in range(size):
        if not (row[WORDS + (c >> 6)] >> (c & 63)) & 1:
            free[c] = 1
    return free


@jit
def _distances(
    free: npt.NDArray[np.uint8], head: int, cols: int, queue: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The BFS distance from ``head`` to every cell of ``free`` it reaches (-1 elsewhere; the
    head, not free, is 0)."""
    dist = np.full(len(free), -1, np.int64)
    dist[head] = 0
    queue[0] = head
    start, end = 0, 1
    while start < end:
        c = queue[start]
        start += 1
        for n in (c - cols, c + cols, c - 1, c + 1):
            if free[n] and dist[n] < 0:
                dist[n] = dist[c] + 1
                queue[end] = n
                end += 1
    return dist


@jit
def _room_beyond(
    free: npt.NDArray[np.uint8],
    head: int,
    need: int,
    cols: int,
    seen: npt.NDArray[np.int64],
    mark: int,
    queue: npt.NDArray[np.int64],
    dist: npt.NDArray[np.int64],
) -> bool:
    """``graph.room_beyond``: whether the parity bound of the cells of ``free`` reachable from
    ``head`` exceeds ``need`` (``seen`` holds ``mark`` for the cells this call reached)."""
    same = 0  # cells of the head's colour (even distance) and of the other colour
    other = 0
    queue[0] = head
    dist[head] = 0
    seen[head] = mark
    start, end = 0, 1
    while start < end:
        c = queue[start]
        start += 1
        for n in (c - cols, c + cols, c - 1, c + 1):
            if free[n] and seen[n] != mark:
                seen[n] = mark
                d = dist[c] + 1
                dist[n] = d
                queue[end] = n
                end += 1
                if d & 1:
                    other += 1
                else:
                    same += 1
                if (2 * same + 1 if other > same else 2 * other) > need:
                    return True
    return False


@jit
def _steps(free: npt.NDArray[np.uint8], head: int, cols: int, out: npt.NDArray[np.int64]) -> int:
    """``fill_length``'s ``ordered_steps``: the free neighbours of ``head`` in U, D, L, R order,
    stably sorted by their own free neighbours (fewest first: wall hugging), into ``out``."""
    n = 0
    weights = np.zeros(4, np.int64)
    for c in (head - cols, head + cols, head - 1, head + 1):
        if free[c]:
            w = free[c - cols] + free[c + cols] + free[c - 1] + free[c + 1]
            # insertion after every equal weight: a stable sort
            i = n
            while i > 0 and weights[i - 1] > w:
                weights[i] = weights[i - 1]
                out[i] = out[i - 1]
                i -= 1
            weights[i] = w
            out[i] = c
            n += 1
    return n


@jit
def fill_length(region: npt.NDArray[np.uint8], head: int, cols: int, nodes: int) -> int:
    """``endgame.fill_length(region, head, t, nodes)``: how many moves a lone cycle at ``head``
    can make through the cells of ``region`` (changed during the search, restored after)."""
    size = len(region)
    queue = np.empty(size, np.int64)
    dist = np.empty(size, np.int64)
    seen = np.zeros(size, np.int64)
    # the parity bound of the head's flood: cells at odd distance have the other colour
    reach = _distances(region, head, cols, queue)
    a = 0
    b = 0
    for c in range(size):
        if reach[c] > 0:
            if reach[c] & 1:
                b += 1
            else:
                a += 1
    bound = 2 * min(a, b) + (1 if b > a else 0)
    best = 0
    if nodes < 1:
        return best
    count = 1
    levels = size + 1
    cells = np.empty(levels, np.int64)  # the cell each level's cycle stands on
    steps = np.empty((levels, 4), np.int64)
    counts = np.empty(levels, np.int64)
    tried = np.zeros(levels, np.int64)
    cells[0] = head
    counts[0] = _steps(region, head, cols, steps[0])
    depth = 0
    mark = 0
    while depth >= 0:
        if tried[depth] == counts[depth]:
            if depth > 0:
                region[cells[depth]] = 1
            depth -= 1
            continue
        n = steps[depth, tried[depth]]
        tried[depth] += 1
        region[n] = 0
        if depth + 1 > best:
            best = depth + 1
            if best >= bound:
                return best
        mark += 1
        if not _room_beyond(region, n, best - depth - 1, cols, seen, mark, queue, dist):
            region[n] = 1
            continue
        count += 1
        if count > nodes:
            return best
        depth += 1
        cells[depth] = n
        tried[depth] = 0
        counts[depth] = _steps(region, n, cols, steps[depth])
    return best


@jit
def voronoi(row: npt.NDArray[np.int64]) -> float:
    """``voronoi_eval`` of the Tron position ``row``: player 0's value."""
    o = row[OUTCOME]
    if o != RUNNING:
        return _WIN * (1.0 if o == 0 else -1.0 if o == 1 else 0.0)
    cols = row[COLS]
    free = _free_mask(row)
    queue = np.empty(len(free), np.int64)
    h0, h1 = row[HEAD0], row[HEAD1]
    d0 = _distances(free, h0, cols, queue)
    d1 = _distances(free, h1, cols, queue)
    own0 = 0
    own1 = 0
    ties = 0
    shared = False
    for c in range(len(free)):
        if not free[c]:
            continue
        a, b = d0[c], d1[c]
        if a > 0 and b > 0:
            shared = True
        if a > 0 and (b < 0 or a < b):
            own0 += 1
        elif b > 0 and (a < 0 or b < a):
            own1 += 1
        elif a > 0:
            ties += 1
    total = row[FREE_CELLS]
    simultaneous = row[SIMULTANEOUS] != 0
    if shared:
        if not simultaneous:
            if row[TO_MOVE] == 0:
                own0 += ties
            else:
                own1 += ties
        return float(HALF * 0.98 * (own0 - own1) / (total + 1))
    # separated: each side's longest fill through the cells it reaches (endgame.separated_value)
    region = np.zeros(len(free), np.uint8)
    for c in range(len(free)):
        if d0[c] > 0:
            region[c] = 1
    fill0 = fill_length(region, h0, cols, FILL_NODES)
    region[:] = 0
    for c in range(len(free)):
        if d1[c] > 0:
            region[c] = 1
    fill1 = fill_length(region, h1, cols, FILL_NODES)
    # endgame.endgame_value, operation for operation
    margin = float(fill0 - fill1)
    if not simultaneous:
        margin += -0.5 if row[TO_MOVE] == 0 else 0.5
    scale = (1.0 - HALF - 0.01) / (total + 2)
    near1 = free[h1 - cols] + free[h1 + cols] + free[h1 - 1] + free[h1 + 1]
    near0 = free[h0 - cols] + free[h0 + cols] + free[h0 - 1] + free[h0 + 1]
    hug = float((np.int64(near1) - np.int64(near0)) * (scale / 10.0))
    if margin == 0:
        return hug
    size = min(abs(margin), total + 1) * scale
    return float(math.copysign(HALF + size, margin) + hug)

"""The endgame of Tron: once the players are separated, each side's longest fill decides.

``fill_length`` is a depth-first search for the longest path of a lone cycle through its region
(wall-hugging moves first, pruned and stopped by the checkerboard parity bound, memoised), with an
explicit stack and plain returns for its two early stops. ``endgame_value`` turns both fills into
a value in the decisive band (HALF, 1), which outranks any estimate of a connected position.
"""

from __future__ import annotations

import math

from purestate.core.memo import memo
from purestate.games.tron.grid import flood
from purestate.games.tron.rules import State, Topology, Tron
from purestate.heuristics.tron.graph import free_neighbour_count, parity_bound, room_beyond
from purestate.heuristics.tron.voronoi import Voronoi

# Value scales: connected estimates stay within +-HALF, decisive endgame values in (HALF, 1).
HALF = 0.5
_WIN = 0.999


def terminal_value(game: Tron, state: State) -> float:
    """A finished game's value for player 0: its result, just inside (-1, 1)."""
    r = game.returns(state)[0]
    return _WIN * r


def endgame_value(game: Tron, state: State, fill0: int, fill1: int, free: int) -> float:
    """Player 0's value in a separated position where the players can make ``fill0`` and
    ``fill1`` more moves.

    Alternating: the mover runs out first on equal fills (it crashes on its move number
    fill + 1, the other on theirs), so the mover needs strictly more. Simultaneous: equal fills
    draw. The value lies in the decisive band (HALF, 1) (or is near 0 for a draw), with a wall
    hugging tie-break worth less than one cell.
    """
    t = game.topology
    margin = float(fill0 - fill1)
    if not game.simultaneous:
        margin += -0.5 if state.to_move == 0 else 0.5
    scale = (1.0 - HALF - 0.01) / (t.free_cells + 2)
    hug = (
        free_neighbour_count(state.head1, free, t) - free_neighbour_count(state.head0, free, t)
    ) * (scale / 10.0)
    if margin == 0:
        return hug
    size = min(abs(margin), t.free_cells + 1) * scale
    return math.copysign(HALF + size, margin) + hug


def separated_value(g: Tron, state: State, v: Voronoi, free: int) -> float:
    """The value of a separated position: each player's ``fill_length`` through the cells it
    reaches (``v``), compared by ``endgame_value`` (``free``: the empty cells)."""
    t = g.topology
    f0 = fill_length(v.reach0, state.head0, t)
    f1 = fill_length(v.reach1, state.head1, t)
    return endgame_value(g, state, f0, f1, free)


FILL_NODES = 3000
"""The node budget of one endgame fill search (``fill_length``)."""


@memo(size=20_000, why="regions are unbounded; on a 200x200 map each key is a 5 KB bitboard")
def fill_length(free: int, head: int, t: Topology, nodes: int = FILL_NODES) -> int:
    """How many moves a lone cycle at ``head`` can make through the cells of ``free``.

    A depth-first search for the longest path, wall-hugging moves first (so its first path is
    a1k0n's greedy fill), pruned by the parity bound of the cells still reachable, stopped at the
    parity bound of the whole region or after ``nodes`` nodes. The result is exact when the search
    finishes or meets the bound, and otherwise the longest path found (a lower bound). Memoised:
    a search revisits the same lone regions many times.
    """
    cols = t.cols
    nb = t.neighbours
    even = t.even
    bound = parity_bound(flood(free, 1 << head, cols), head, even)
    best = 0

    def ordered_steps(free: int, head: int) -> list[int]:
        steps = [n for n in nb[head] if free >> n & 1]
        if len(steps) > 1:
            steps.sort(key=lambda n: sum(free >> m & 1 for m in nb[n]))
        return steps

    # An explicit stack of (free cells, depth, the moves not yet tried) per node of the current
    # path: a path can be as long as the region, far deeper than Python's recursion limit. Nodes
    # are counted and moves tried in the order of the plain recursive search.
    if nodes < 1:
        return best
    count = 1  # the root is the first node
    stack = [(free, 0, iter(ordered_steps(free, head)))]
    while stack:
        here, depth, untried = stack[-1]
        n = next(untried, -1)
        if n < 0:
            stack.pop()
            continue
        rest = here ^ 1 << n
        if depth + 1 > best:
            best = depth + 1
            if best >= bound:
                return best
        if not room_beyond(rest, n, best - depth - 1, cols):
            continue
        count += 1
        if count > nodes:
            return best
        stack.append((rest, depth + 1, iter(ordered_steps(rest, n))))
    return best


# ---- chambers -----------------------------------------------------------------------------------

"""Graph measures of a Tron position on int bitboards: free cells, parity bounds, edges, cut
vertices, and the room after a move that the bots weigh.

The flood fill itself (``flood``, ``neighbours_of``) lives with the rules in
``purestate.games.tron.grid``, so the rules and the heuristics share one; it is re-exported here.
"""

from __future__ import annotations

from purestate.games.tron.grid import flood, neighbours_of
from purestate.games.tron.rules import State, Topology, Tron

__all__ = [
    "articulation_points",
    "edges",
    "flood",
    "free_cells",
    "free_neighbour_count",
    "neighbours_of",
    "parity_bound",
    "room_after",
    "room_beyond",
    "separated",
]


def free_cells(state: State, t: Topology) -> int:
    """The empty cells of the position."""
    return ((1 << t.size) - 1) & ~state.blocked


def parity_bound(region: int, head: int, even: int) -> int:
    """An upper bound on the moves a cycle at ``head`` can make inside ``region``.

    A path alternates colours of the checkerboard, starting with the colour opposite the head's,
    so with A cells of the head's colour and B of the other it is at most 2·min(A, B) + [B > A].
    """
    same = even if even >> head & 1 else ~even
    a = (region & same).bit_count()
    b = region.bit_count() - a
    return 2 * min(a, b) + (1 if b > a else 0)


def room_beyond(free: int, head: int, need: int, cols: int) -> bool:
    """Whether ``parity_bound(flood(free, 1 << head, cols), head, t.even) > need``.

    The flood stops as soon as the cells reached so far have a larger bound: a bound only grows as
    cells are added, so the answer is the same, and a search that only asks "is there room for
    more than ``need`` moves" rarely floods a big region to its end. The colours need no mask:
    the BFS layers alternate them, odd layers having the other colour than the head's.
    """
    avail = free
    frontier = 1 << head
    same = other = 0  # cells of the head's colour and of the other colour reached so far
    odd = True
    while frontier:
        # neighbours_of inlined: this loop is most of the time of an endgame fill on a big map
        frontier = (frontier << 1 | frontier >> 1 | frontier << cols | frontier >> cols) & avail
        avail ^= frontier
        if odd:
            other += frontier.bit_count()
        else:
            same += frontier.bit_count()
        odd = not odd
        if (2 * same + 1 if other > same else 2 * other) > need:
            return True
    return False


def free_neighbour_count(cell: int, free: int, t: Topology) -> int:
    """How many of the four neighbours of ``cell`` are in ``free``."""
    return sum(free >> n & 1 for n in t.neighbours[cell])


def edges(cells: int, free: int, cols: int) -> int:
    """The number of (cell of ``cells``, free neighbour) pairs: a1k0n's E, counted per cell."""
    return (
        (cells & free >> 1).bit_count()
        + (cells & free << 1).bit_count()
        + (cells & free >> cols).bit_count()
        + (cells & free << cols).bit_count()
    )


def articulation_points(cells: int, root: int, t: Topology) -> int:
    """The cut vertices of the graph on ``cells`` plus ``root`` (the head), as a bitboard.

    A cell is a cut vertex if removing it disconnects part of ``cells`` from ``root``
    (Hopcroft–Tarjan low-link DFS, iterative; the root itself is never reported).
    """
    nb = t.neighbours
    allowed = cells | 1 << root
    # discovery numbers from 1 (0: not yet seen), indexed by cell: lists beat dicts here
    disc = [0] * t.size
    low = [0] * t.size
    parent = [-1] * t.size
    disc[root] = low[root] = 1
    counter = 2
    cut = 0
    path = [root]
    pending = [iter(nb[root])]
    push, pop = path.append, path.pop
    push_it, pop_it = pending.append, pending.pop
    while path:
        v = path[-1]
        up = parent[v]
        for w in pending[-1]:
            if not allowed >> w & 1 or w == up:
                continue
            d = disc[w]
            if d:
                if d < low[v]:
                    low[v] = d
                continue
            disc[w] = low[w] = counter
            counter += 1
            parent[w] = v
            push(w)
            push_it(iter(nb[w]))
            break
        else:
            pop()
            pop_it()
            if up >= 0:
                if low[v] < low[up]:
                    low[up] = low[v]
                if up != root and low[v] >= disc[up]:
                    cut |= 1 << up
    return cut


def room_after(state: State, player: int, move: int, t: Topology) -> tuple[int, int, int]:
    """After ``player`` moves: (cells reachable from the new head, parity fill bound, free
    neighbours of the new head); all zero if the move crashes."""
    head = state.head0 if player == 0 else state.head1
    dest = head + t.deltas[move]
    free = ((1 << t.size) - 1) & ~state.blocked
    if not free >> dest & 1:
        return (0, 0, 0)
    free ^= 1 << dest
    region = flood(free, 1 << dest, t.cols)
    return (
        region.bit_count(),
        parity_bound(region, dest, t.even),
        free_neighbour_count(dest, free, t),
    )


def separated(game: Tron, state: State) -> bool:
    """Whether no empty cell is reachable by both players."""
    t = game.topology
    free = free_cells(state, t)
    return not flood(free, 1 << state.head0, t.cols) & flood(free, 1 << state.head1, t.cols)

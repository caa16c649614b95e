"""a1k0n's chamber-aware evaluation: each Voronoi territory cut at its articulation points into
chambers, of which a cycle can fill one branch, scored with his K1·N + K2·E."""

from __future__ import annotations

from typing import Any

from purestate.core.game import Game, made_for
from purestate.games.tron.grid import flood, neighbours_of
from purestate.games.tron.rules import State, Topology
from purestate.heuristics.tron.endgame import HALF
from purestate.heuristics.tron.evaluations import connected
from purestate.heuristics.tron.graph import articulation_points, edges, free_cells
from purestate.heuristics.tron.voronoi import Voronoi, territories


def layer_distance(cell: int, layers: list[int]) -> int:
    """The steps to ``cell`` from where the BFS ``layers`` start: ``d + 1`` for the first layer
    ``d`` (a bit set of cells) holding it, ``len(layers) + 1`` when none does."""
    for d, layer in enumerate(layers):
        if layer >> cell & 1:
            return d + 1
    return len(layers) + 1


class _Chamber:
    """A chamber on ``chamber_value``'s stack: its cells, how it was entered, the cut vertices
    still to explore from it, and the best children found so far."""

    __slots__ = ("best_calm", "best_front", "chamber", "children", "cut", "entry", "front", "steps")

    def __init__(self, chamber: int, entry: int, front: bool, children: int) -> None:
        self.chamber = chamber
        self.entry = entry
        self.front = front
        self.children = children
        self.best_calm = 0.0
        self.best_front = 0.0
        self.cut = 0  # the cut vertex whose side is being explored, and its distance
        self.steps = 0


# a1k0n's fit of his evaluation K1·N + K2·E (cells and edges of the chamber tree), on the 2010
# contest's maps; as a ratio it weighs one edge against one cell. Tried on our 13×13 alternating
# maps, edge weights 0.5 and 3.5 scored alike (61%) and both beat cells alone (58%).
A1K0N_K1 = 0.055
A1K0N_K2 = 0.194
EDGE_WEIGHT = A1K0N_K2 / A1K0N_K1


def chamber_value(
    region: int,
    head: int,
    mine: int,
    enemy: int,
    t: Topology,
    edge_weight: float = 0.0,
    free: int = 0,
) -> float:
    """a1k0n's chamber tree value: how much of ``mine`` a cycle at ``head`` can claim.

    The cells of ``region`` (a player's Voronoi territory: a1k0n treats the opponent's cells as
    blocked) are cut at their articulation points into chambers. From the head's chamber a cycle
    can claim the chamber's cells and then go on into one child chamber through a cut vertex, not
    into all of them: it cannot come back. A child chamber at the battlefront (next to ``enemy``
    cells) is worth the steps to reach it plus its own value, the rest of the current chamber
    being given up. The value of a chamber is the best of these choices.

    Args:
        region: The cells the tree is built on.
        head: The cycle's head (a cell outside ``region``).
        mine: The cells that count (within ``region``).
        enemy: The opponent's cells, which make a chamber a battlefront.
        t: The board.
        edge_weight: How much each (cell, free neighbour) pair of a counted cell adds to its cell
            (a1k0n's E; 0 counts cells only, N).
        free: The board's empty cells, for E (needed when ``edge_weight`` is not 0).

    Returns:
        N + edge_weight · E along the best line through the tree, in cells.
    """
    cols = t.cols
    cuts = articulation_points(region, head, t)
    open_cells = region & ~cuts
    # BFS layers from the head inside the region, for the steps to a battlefront
    layers: list[int] = []
    seen = 0
    frontier = 1 << head
    while frontier:
        frontier = neighbours_of(frontier, cols) & region & ~seen
        if frontier:
            layers.append(frontier)
        seen |= frontier
    visited = 0
    step_value = 1.0 + 2.0 * edge_weight  # a corridor cell: two free neighbours

    def worth(cells: int) -> float:
        counted = cells & mine
        n = counted.bit_count()
        return n + edge_weight * edges(counted, free, cols) if edge_weight else float(n)

    def enter(start: int, entry: int) -> _Chamber:
        """The chamber entered through the cells ``start`` from a cell at distance ``entry``
        from the head (its cells are marked visited)."""
        nonlocal visited
        start &= ~visited
        chamber = start & open_cells
        if chamber:
            chamber |= flood(open_cells & ~visited, chamber, cols)
        visited |= chamber
        front = bool((chamber | neighbours_of(chamber, cols)) & enemy)
        children = (neighbours_of(chamber, cols) | start) & cuts & ~visited
        return _Chamber(chamber, entry, front, children)

    # Depth first through the chamber tree with an explicit stack (a corridor of cut vertices
    # nests as deep as it is long). A chamber's value is known once all its children are done:
    # max(its own worth + the best calm child, the best battlefront child).
    stack = [enter(neighbours_of(1 << head, cols) & region, 0)]
    while True:
        top = stack[-1]
        while top.children:
            low_bit = top.children & -top.children
            top.children ^= low_bit
            if visited & low_bit:
                continue
            visited |= low_bit
            top.cut = low_bit
            top.steps = layer_distance(low_bit.bit_length() - 1, layers)
            stack.append(enter(neighbours_of(low_bit, cols) & region, top.steps))
            break
        else:
            stack.pop()
            value = max(worth(top.chamber) + top.best_calm, top.best_front)
            if not stack:
                return value
            parent = stack[-1]
            low_bit = parent.cut
            value += worth(low_bit)
            if top.front or top.best_front > 0 or (low_bit | neighbours_of(low_bit, cols)) & enemy:
                # walk to the cut vertex, giving up the rest of this chamber
                walk = max(0, parent.steps - parent.entry - 1) * step_value
                parent.best_front = max(parent.best_front, walk + value)
            else:
                parent.best_calm = max(parent.best_calm, value)


def chamber_counts(
    state: State, v: Voronoi, simultaneous: bool, t: Topology, edge_weight: float = 0.0
) -> tuple[float, float]:
    """Both players' ``chamber_value`` over their own Voronoi territories (ties as in
    ``territories``), the other's territory being the battlefront."""
    terr0, terr1 = territories(state, v, simultaneous)
    free = free_cells(state, t)
    c0 = chamber_value(terr0, state.head0, terr0, terr1, t, edge_weight, free)
    c1 = chamber_value(terr1, state.head1, terr1, terr0, t, edge_weight, free)
    return c0, c1


@made_for("tron")
def chamber_eval(game: Game[Any, Any], state: State) -> float:
    """a1k0n's chamber-aware evaluation, K1·ΔN + K2·ΔE over the chamber trees of both Voronoi
    territories, or the endgame fill once the players are separated."""
    g, v, known = connected(game, state)
    if v is None:
        return known
    c0, c1 = chamber_counts(state, v, g.simultaneous, g.topology, EDGE_WEIGHT)
    # at most 4 edges per cell, so the difference stays within the connected band
    return HALF * 0.98 * (c0 - c1) / ((1.0 + 4.0 * EDGE_WEIGHT) * (g.topology.free_cells + 1))

"""The BFS-distance Voronoi partition of a Tron position, and each player's territory."""

from __future__ import annotations

from attrs import frozen

from purestate.games.tron.grid import neighbours_of
from purestate.games.tron.rules import State, Topology


@frozen
class Voronoi:
    """The BFS-distance Voronoi partition of a position.

    Attributes:
        own0: Cells player 0 reaches strictly first.
        own1: Cells player 1 reaches strictly first.
        ties: Cells both reach in the same number of moves.
        reach0: Every cell player 0 can reach.
        reach1: Every cell player 1 can reach.
        distance: BFS distance from head to head through empty cells (0 if unreachable).
    """

    own0: int
    own1: int
    ties: int
    reach0: int
    reach1: int
    distance: int

    @property
    def separated(self) -> bool:
        """No empty cell is reachable by both players."""
        return not self.reach0 & self.reach1


def voronoi(state: State, t: Topology) -> Voronoi:
    """Both BFSes advanced layer by layer together (heads are obstacles except as sources)."""
    cols = t.cols
    free = ((1 << t.size) - 1) & ~state.blocked
    f0 = 1 << state.head0
    f1 = 1 << state.head1
    near1 = neighbours_of(f1, cols)
    avail0 = avail1 = free
    r0 = r1 = own0 = own1 = ties = 0
    distance = 1 if near1 & f0 else 0
    layer = 1
    while f0 or f1:
        n0 = neighbours_of(f0, cols) & avail0 if f0 else 0
        n1 = neighbours_of(f1, cols) & avail1 if f1 else 0
        new0 = n0 & ~r1
        new1 = n1 & ~r0
        tie = new0 & new1
        own0 |= new0 ^ tie
        own1 |= new1 ^ tie
        ties |= tie
        r0 |= n0
        r1 |= n1
        avail0 ^= n0
        avail1 ^= n1
        f0, f1 = n0, n1
        layer += 1
        if not distance and n0 & near1:
            distance = layer
    return Voronoi(own0, own1, ties, r0, r1, distance)


def territories(state: State, v: Voronoi, simultaneous: bool) -> tuple[int, int]:
    """Each player's Voronoi cells; ties go to the player to move (alternating) or nobody."""
    if simultaneous:
        return v.own0, v.own1
    if state.to_move == 0:
        return v.own0 | v.ties, v.own1
    return v.own0, v.own1 | v.ties

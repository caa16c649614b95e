"""Tron evaluations for search, and the board measures the Tron bots share.

Every evaluation is ``evaluate(game, state) -> float``: player 0's value, strictly inside (-1, 1),
registered in ``purestate.core.registry._EVALUATIONS`` (use them as ``alphabeta:eval=NAME``):

* ``space``: flood-fill difference (each player's reachable cells), the CS1410 TA-Bot1 stand-in.
* ``voronoi``: BFS-distance Voronoi territory difference. Under alternating rules a cell both
  players reach in the same number of moves goes to the player to move; under simultaneous rules
  it is neutral.
* ``chamber``: a1k0n's chamber-aware Voronoi (articulation points split each territory into
  chambers; a player can fill only one branch of side rooms, see ``chamber_value``), scored with
  his K1·N + K2·E.
* ``linear``: a learned linear model over the terms built from ``features`` (weights in
  ``LINEAR_WEIGHTS``, refit with ``purestate tron fit``; ``linear_evaluation(weights)`` makes an
  evaluation from other weights).

When the players are separated (no empty cell reachable by both), every evaluation except
``space`` switches to the endgame fill: each side's longest path through its own region
(``fill_length``: a depth-first search, wall-hugging moves first, pruned and stopped by the
checkerboard parity bound, memoised) decides who runs out of room first. The value then sits in
the decisive band (0.5, 1), so it outranks any estimate of a connected position, and a small
wall-hugging term breaks ties, so a search fills its area along the walls.

All sets of cells are int bitboards; a BFS advances a whole frontier with a few shifts per layer
(the maps are enclosed by walls, so a shift never wraps into a free cell). The flood fill is the
one in ``purestate.games.tron.grid``, shared with the rules.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from attrs import frozen

from purestate.core.game import Game
from purestate.games.tron.grid import flood, neighbours_of
from purestate.games.tron.rules import RUNNING, State, Topology, Tron

# Value scales: connected estimates stay within +-HALF, decisive endgame values in (HALF, 1).
HALF = 0.5
_WIN = 0.999


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


def _territories(state: State, v: Voronoi, simultaneous: bool) -> tuple[int, int]:
    """Each player's Voronoi cells; ties go to the player to move (alternating) or nobody."""
    if simultaneous:
        return v.own0, v.own1
    if state.to_move == 0:
        return v.own0 | v.ties, v.own1
    return v.own0, v.own1 | v.ties


def edges(cells: int, free: int, cols: int) -> int:
    """The number of (cell of ``cells``, free neighbour) pairs: a1k0n's E, counted per cell."""
    return (
        (cells & free >> 1).bit_count()
        + (cells & free << 1).bit_count()
        + (cells & free >> cols).bit_count()
        + (cells & free << cols).bit_count()
    )


def _terminal(game: Tron, state: State) -> float:
    r = game.returns(state)[0]
    return _WIN * r


def _tron(game: Game[Any, Any]) -> Tron:
    if not isinstance(game, Tron):
        raise TypeError(f"this evaluation is for Tron, not {game.spec.name!r}")
    return game


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


def space(game: Game[Any, Any], state: State) -> float:
    """Flood-fill difference: each player's reachable empty cells, scaled into (-0.9, 0.9)."""
    g = _tron(game)
    if state.outcome != RUNNING:
        return _terminal(g, state)
    t = g.topology
    free = free_cells(state, t)
    a = flood(free, 1 << state.head0, t.cols).bit_count()
    b = flood(free, 1 << state.head1, t.cols).bit_count()
    return 0.9 * (a - b) / (t.free_cells + 1)


def _connected(game: Game[Any, Any], state: State) -> tuple[Tron, Voronoi | None, float]:
    """The game, the Voronoi split of a running connected position, and 0.0; or, when the game is
    over or the players are separated, the game, None and the position's known value (the result,
    or both players' best fills compared)."""
    g = _tron(game)
    if state.outcome != RUNNING:
        return g, None, _terminal(g, state)
    t = g.topology
    v = voronoi(state, t)
    if v.separated:
        return g, None, _separated(g, state, v, free_cells(state, t))
    return g, v, 0.0


def _separated(g: Tron, state: State, v: Voronoi, free: int) -> float:
    t = g.topology
    f0 = fill_length(v.reach0, state.head0, t)
    f1 = fill_length(v.reach1, state.head1, t)
    return endgame_value(g, state, f0, f1, free)


def voronoi_eval(game: Game[Any, Any], state: State) -> float:
    """Voronoi territory difference (ties to the mover under alternating rules), or the endgame
    fill comparison once the players are separated."""
    g, v, known = _connected(game, state)
    if v is None:
        return known
    n0, n1 = _territories(state, v, g.simultaneous)
    return HALF * 0.98 * (n0.bit_count() - n1.bit_count()) / (g.topology.free_cells + 1)


# ---- endgame fill -------------------------------------------------------------------------------

FILL_NODES = 3000
"""The node budget of one endgame fill search (``fill_length``)."""


# at most 20,000 regions: on a 200×200 map each key is a 5 KB bitboard
@functools.lru_cache(maxsize=20_000)
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


def _layer_distance(cell: int, layers: list[int]) -> int:
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
            top.steps = _layer_distance(low_bit.bit_length() - 1, layers)
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


def _chamber_counts(
    state: State, v: Voronoi, simultaneous: bool, t: Topology, edge_weight: float = 0.0
) -> tuple[float, float]:
    terr0, terr1 = _territories(state, v, simultaneous)
    free = free_cells(state, t)
    c0 = chamber_value(terr0, state.head0, terr0, terr1, t, edge_weight, free)
    c1 = chamber_value(terr1, state.head1, terr1, terr0, t, edge_weight, free)
    return c0, c1


def chamber_eval(game: Game[Any, Any], state: State) -> float:
    """a1k0n's chamber-aware evaluation, K1·ΔN + K2·ΔE over the chamber trees of both Voronoi
    territories, or the endgame fill once the players are separated."""
    g, v, known = _connected(game, state)
    if v is None:
        return known
    c0, c1 = _chamber_counts(state, v, g.simultaneous, g.topology, EDGE_WEIGHT)
    # at most 4 edges per cell, so the difference stays within the connected band
    return HALF * 0.98 * (c0 - c1) / ((1.0 + 4.0 * EDGE_WEIGHT) * (g.topology.free_cells + 1))


# ---- features and the learned linear evaluation -------------------------------------------------

FEATURES: tuple[str, ...] = (
    "voronoi_dn",
    "voronoi_de",
    "chamber_dn",
    "separated",
    "fill_d",
    "head_distance",
    "mover",
)
FEATURES_VERSION = 2
"""Bumped whenever a feature's definition changes (2: chamber ΔN over the Voronoi territories);
data sets record it, and ``tron fit`` refuses records of another version."""


def features(game: Game[Any, Any], state: State) -> tuple[float, ...]:
    """The learned model's inputs (``FEATURES``), from player 0's side, cell counts divided by
    the map's free cells: Voronoi ΔN, Voronoi ΔE (E/4, on the scale of N), chamber ΔN, separated
    (0/1), Δ fill bound (parity), head distance (BFS; the free-cell count when separated), and
    the mover (+1 player 0, -1 player 1, 0 under simultaneous rules)."""
    g = _tron(game)
    return _features(g, state, voronoi(state, g.topology))


def _features(g: Tron, state: State, v: Voronoi) -> tuple[float, ...]:
    t = g.topology
    scale = 1.0 / (t.free_cells + 1)
    free = free_cells(state, t)
    n0, n1 = _territories(state, v, g.simultaneous)
    de = (edges(n0, free, t.cols) - edges(n1, free, t.cols)) / 4.0
    c0, c1 = _chamber_counts(state, v, g.simultaneous, t)
    fill0 = parity_bound(v.reach0, state.head0, t.even)
    fill1 = parity_bound(v.reach1, state.head1, t.even)
    mover = 0.0 if g.simultaneous else 1.0 if state.to_move == 0 else -1.0
    distance = v.distance if v.distance else t.free_cells
    return (
        (n0.bit_count() - n1.bit_count()) * scale,
        de * scale,
        (c0 - c1) * scale,
        1.0 if v.separated else 0.0,
        (fill0 - fill1) * scale,
        distance * scale,
        mover,
    )


TERMS: tuple[str, ...] = (
    "voronoi_dn",
    "voronoi_de",
    "chamber_dn",
    "fill_d",
    "separated_fill_d",
    "near_voronoi_dn",
    "mover",
)
"""The linear model's terms, built from the features by ``terms``. Each changes sign when the
players swap roles, so the model values a position for player 1 as minus its value for player 0
(a symmetric feature such as the head distance enters only through a product)."""


def terms(x: tuple[float, ...]) -> tuple[float, ...]:
    """The model's terms from the features (``FEATURES`` order): ΔN, ΔE, chamber ΔN, Δfill,
    separated·Δfill, ΔN·closeness (closeness = 1 / (1 + head distance in cells)), mover."""
    dn, de, cn, sep, fill, dist, mover = x
    return (dn, de, cn, fill, sep * fill, dn / (1.0 + 10.0 * dist), mover)


# Fitted by ``purestate tron fit positions.jsonl --terms
# voronoi_dn,chamber_dn,near_voronoi_dn,mover`` on ``purestate tron dataset --games 40 --seed 7``
# (28,855 positions from 480 games; see docs/agents/tron_bots.md): bias first, then one weight per
# TERMS name. The edge and fill terms are left out: fitted, they made a worse player.
LINEAR_WEIGHTS: tuple[float, ...] = (
    0.0000,
    -0.2605,
    0.0000,
    1.8840,
    0.0000,
    0.0000,
    0.1077,
    -0.0573,
)


def linear_value(weights: tuple[float, ...], x: tuple[float, ...]) -> float:
    """The model's raw prediction from the features: bias + Σ wᵢ·termᵢ."""
    return weights[0] + sum(w * f for w, f in zip(weights[1:], terms(x), strict=True))


def linear_evaluation(weights: tuple[float, ...]) -> Any:
    """An evaluation using the linear model with ``weights`` (bias first, then ``TERMS``).

    Connected positions: HALF·tanh(prediction). Separated positions: the endgame fill (exact
    knowledge beats a regression there).
    """
    if len(weights) != len(TERMS) + 1:
        raise ValueError(f"linear weights need {len(TERMS) + 1} numbers (bias + {TERMS})")

    def evaluate(game: Game[Any, Any], state: State) -> float:
        g, v, known = _connected(game, state)
        if v is None:
            return known
        x = _features(g, state, v)
        return HALF * 0.98 * math.tanh(linear_value(weights, x))

    return evaluate


linear = linear_evaluation(LINEAR_WEIGHTS)
"""The learned evaluation with the shipped ``LINEAR_WEIGHTS``."""


# ---- moves for bots -----------------------------------------------------------------------------


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

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
(the maps are enclosed by walls, so a shift never wraps into a free cell).

The modules, one idea each (every name is re-exported here):

* ``graph``: bitboard measures (free cells, parity bound, edges, cut vertices, the room after a
  move); the flood fill itself is ``purestate.games.tron.grid.flood``, shared with the rules.
* ``voronoi``: the Voronoi partition and each player's territory.
* ``endgame``: the value scales, the fill search and the value of a separated position.
* ``evaluations``: the prelude every evaluation shares (``connected``), ``space`` and ``voronoi``.
* ``chamber``: the chamber tree and its evaluation.
* ``linear``: the features, the terms, the fitted weights and the learned evaluation.
"""

from __future__ import annotations

from purestate.heuristics.tron.chamber import (
    A1K0N_K1,
    A1K0N_K2,
    EDGE_WEIGHT,
    chamber_counts,
    chamber_eval,
    chamber_value,
    layer_distance,
)
from purestate.heuristics.tron.endgame import (
    FILL_NODES,
    HALF,
    endgame_value,
    fill_length,
    separated_value,
    terminal_value,
)
from purestate.heuristics.tron.evaluations import as_tron, connected, space, voronoi_eval
from purestate.heuristics.tron.graph import (
    articulation_points,
    edges,
    flood,
    free_cells,
    free_neighbour_count,
    neighbours_of,
    parity_bound,
    room_after,
    room_beyond,
    separated,
)
from purestate.heuristics.tron.linear import (
    FEATURES,
    FEATURES_VERSION,
    LINEAR_WEIGHTS,
    TERMS,
    features,
    linear,
    linear_evaluation,
    linear_value,
    terms,
)
from purestate.heuristics.tron.voronoi import Voronoi, territories, voronoi

__all__ = [
    "A1K0N_K1",
    "A1K0N_K2",
    "EDGE_WEIGHT",
    "FEATURES",
    "FEATURES_VERSION",
    "FILL_NODES",
    "HALF",
    "LINEAR_WEIGHTS",
    "TERMS",
    "Voronoi",
    "articulation_points",
    "as_tron",
    "chamber_counts",
    "chamber_eval",
    "chamber_value",
    "connected",
    "edges",
    "endgame_value",
    "features",
    "fill_length",
    "flood",
    "free_cells",
    "free_neighbour_count",
    "layer_distance",
    "linear",
    "linear_evaluation",
    "linear_value",
    "neighbours_of",
    "parity_bound",
    "room_after",
    "room_beyond",
    "separated",
    "separated_value",
    "space",
    "terminal_value",
    "terms",
    "territories",
    "voronoi",
    "voronoi_eval",
]

"""The learned linear evaluation: the features of a position, the model's terms, and the fitted
weights (refit with ``purestate tron fit``)."""

from __future__ import annotations

import math
from typing import Any

from purestate.core.game import Game, made_for
from purestate.games.tron.rules import State, Tron
from purestate.heuristics.tron.chamber import chamber_counts
from purestate.heuristics.tron.endgame import HALF
from purestate.heuristics.tron.evaluations import as_tron, connected
from purestate.heuristics.tron.graph import edges, free_cells, parity_bound
from purestate.heuristics.tron.voronoi import Voronoi, territories, voronoi

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
    g = as_tron(game)
    return _features(g, state, voronoi(state, g.topology))


def _features(g: Tron, state: State, v: Voronoi) -> tuple[float, ...]:
    t = g.topology
    scale = 1.0 / (t.free_cells + 1)
    free = free_cells(state, t)
    n0, n1 = territories(state, v, g.simultaneous)
    de = (edges(n0, free, t.cols) - edges(n1, free, t.cols)) / 4.0
    c0, c1 = chamber_counts(state, v, g.simultaneous, t)
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

    @made_for("tron")
    def evaluate(game: Game[Any, Any], state: State) -> float:
        g, v, known = connected(game, state)
        if v is None:
            return known
        x = _features(g, state, v)
        return HALF * 0.98 * math.tanh(linear_value(weights, x))

    return evaluate


linear = linear_evaluation(LINEAR_WEIGHTS)
"""The learned evaluation with the shipped ``LINEAR_WEIGHTS``."""

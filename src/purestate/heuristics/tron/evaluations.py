"""The shared prelude of the Tron evaluations, and the two simplest: ``space`` and ``voronoi``."""

from __future__ import annotations

from typing import Any

from purestate.core.game import Game, made_for
from purestate.core.spec import SpecError
from purestate.games.tron.grid import flood
from purestate.games.tron.rules import RUNNING, State, Tron
from purestate.heuristics.tron.endgame import HALF, separated_value, terminal_value
from purestate.heuristics.tron.graph import free_cells
from purestate.heuristics.tron.voronoi import Voronoi, territories, voronoi


def as_tron(game: Game[Any, Any], who: str = "this evaluation") -> Tron:
    """``game`` itself if it is Tron: the one check of the Tron evaluations and bots.

    Raises:
        SpecError: one line saying that ``who`` is made for Tron, for any other game.
    """
    if not isinstance(game, Tron):
        raise SpecError(f"{who} is made for tron, not {game.spec.name}")
    return game


@made_for("tron")
def space(game: Game[Any, Any], state: State) -> float:
    """Flood-fill difference: each player's reachable empty cells, scaled into (-0.9, 0.9)."""
    g = as_tron(game)
    if state.outcome != RUNNING:
        return terminal_value(g, state)
    t = g.topology
    free = free_cells(state, t)
    a = flood(free, 1 << state.head0, t.cols).bit_count()
    b = flood(free, 1 << state.head1, t.cols).bit_count()
    return 0.9 * (a - b) / (t.free_cells + 1)


def connected(game: Game[Any, Any], state: State) -> tuple[Tron, Voronoi | None, float]:
    """The game, the Voronoi split of a running connected position, and 0.0; or, when the game is
    over or the players are separated, the game, None and the position's known value (the result,
    or both players' best fills compared)."""
    g = as_tron(game)
    if state.outcome != RUNNING:
        return g, None, terminal_value(g, state)
    t = g.topology
    v = voronoi(state, t)
    if v.separated:
        return g, None, separated_value(g, state, v, free_cells(state, t))
    return g, v, 0.0


@made_for("tron")
def voronoi_eval(game: Game[Any, Any], state: State) -> float:
    """Voronoi territory difference (ties to the mover under alternating rules), or the endgame
    fill comparison once the players are separated."""
    g, v, known = connected(game, state)
    if v is None:
        return known
    n0, n1 = territories(state, v, g.simultaneous)
    return HALF * 0.98 * (n0.bit_count() - n1.bit_count()) / (g.topology.free_cells + 1)


def _voronoi_rows(game: Game[Any, Any]) -> Any:
    """``voronoi_eval``'s compiled twin on Tron's rows (``RowEvaluation``, so that alpha-beta
    with ``eval=voronoi`` runs compiled: ``heuristics/kernels/tron.py``), for every map and
    both rule sets, or None: another game, or numba is not installed."""
    from purestate.core import compiled

    if not isinstance(game, Tron):
        return None
    kernel = compiled.kernels("tron", compiled.HEURISTIC_KERNELS)
    return None if kernel is None else kernel.voronoi


voronoi_eval.row_evaluation = _voronoi_rows  # type: ignore[attr-defined]

"""The recursive alpha-beta search that ``purestate.agents.alphabeta.search`` replaced with an
explicit stack, kept as its specification: the property tests check that both visit, count,
evaluate and store the same nodes and return the same results. (Recursion is fine here: the
tests search small games.)"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from purestate.agents.alphabeta import (
    EXACT,
    LOWER,
    POLL_NODES,
    RESOLVED,
    TIE,
    UPPER,
    Evaluate,
    SearchStats,
    zero_evaluation,
)
from purestate.core.game import Game

_INF = float("inf")


class _OutOfBudget(Exception):
    """Raised inside an iteration when the node or time budget is spent."""


def search(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    evaluate: Evaluate | None = None,
    *,
    nodes: int = 0,
    stop: Callable[[], bool] | None = None,
    ties: bool = False,
    table: dict[Hashable, tuple[int, int, float, Any]] | None = None,
) -> tuple[float, Any, SearchStats]:
    """The recursive search (see the module docstring)."""
    if game.is_over(state):
        raise ValueError("search() needs a state where someone is to move; the game is over")
    max_depth = depth if depth > 0 else game.spec.max_length
    evaluate_fn: Evaluate = evaluate if evaluate is not None else zero_evaluation
    tt: dict[Hashable, tuple[int, int, float, Any]] = {} if table is None else table
    tt_get = tt.get
    legal, step, is_over = game.legal, game.step, game.is_over
    to_move, returns = game.to_move, game.returns
    stop_fn = stop
    limit = nodes if nodes > 0 else 0
    count = 0
    evals = 0
    next_poll = POLL_NODES  # stop is asked at the first interior node past each mark
    limited = False  # the first iteration runs without budget checks

    def child_value(child: Any, d: int, alpha: float, beta: float, p: int) -> tuple[float, bool]:
        # The value for player p of the position p's move led to, searched d - 1 plies below
        # it, and whether it is proven. The sign flips only when the turn passes: in dots and
        # boxes or after an Xtreme bonus the same player moves again.
        nonlocal count, evals
        if is_over(child):
            return returns(child)[p], True
        if d <= 1:
            count += 1
            evals += 1
            v = evaluate_fn(game, child)
            return (-v if p else v), False
        if to_move(child) == p:
            return node(child, d - 1, alpha, beta)
        v, r = node(child, d - 1, -beta, -alpha)
        return -v, r

    def node(s: Any, d: int, alpha: float, beta: float) -> tuple[float, bool]:
        # Value of the non-terminal state s for its mover, searched d plies deep (d >= 1).
        nonlocal count, next_poll
        count += 1
        if limited:
            if limit and count > limit:
                raise _OutOfBudget
            if stop_fn is not None and count >= next_poll:
                next_poll = count + POLL_NODES
                if stop_fn():
                    raise _OutOfBudget
        entry = tt_get(s)
        first = None
        if entry is not None:
            e_depth, e_flag, e_value, first = entry
            if e_depth >= d and (
                e_flag == EXACT
                or (e_flag == LOWER and e_value >= beta)
                or (e_flag == UPPER and e_value <= alpha)
            ):
                return e_value, e_depth == RESOLVED
        moves = legal(s)
        if first is not None and moves[0] != first:
            moves = (first, *(m for m in moves if m != first))
        p = to_move(s)
        best = -_INF
        best_move = moves[0]
        a = alpha
        resolved = True
        for m in moves:
            v, r = child_value(step(s, m), d, a, beta, p)
            resolved = resolved and r
            if v > best:
                best = v
                best_move = m
                if v > a:
                    a = v
                    if a >= beta:
                        break
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        tt[s] = (RESOLVED if resolved else d, flag, best, best_move)
        return best, resolved

    root_moves = legal(state)
    p0 = to_move(state)

    def root(d: int, order: tuple[Any, ...]) -> tuple[float, Any, tuple[Any, ...], bool]:
        nonlocal count
        count += 1
        best = -_INF
        best_move = order[0]
        found: list[tuple[Any, float]] = []
        resolved = True
        for m in order:
            child = step(state, m)
            # With ties wanted, later moves are searched just below the best so far, so a move
            # that equals it comes back exact instead of failing low.
            a = best - TIE if ties else best
            v, r = child_value(child, d, a, _INF, p0)
            resolved = resolved and r
            found.append((m, v))
            if v > best:
                best = v
                best_move = m
        tied = tuple(m for m in root_moves if any(mm == m and v >= best - TIE for mm, v in found))
        tt[state] = (RESOLVED if resolved else d, EXACT, best, best_move)
        return best, best_move, tied, resolved

    value, best_move, tied, proven = 0.0, root_moves[0], (root_moves[0],), False
    completed = 0
    order = root_moves
    for d in range(1, max_depth + 1):
        try:
            value, best_move, tied, proven = root(d, order)
        except _OutOfBudget:
            break
        completed = d
        limited = True
        if proven:
            break
        # the best move of this iteration is searched first in the next one
        order = (best_move, *(m for m in root_moves if m != best_move))
    if not ties:
        tied = (best_move,)
    return value, best_move, SearchStats(count, completed, evals, len(tt), proven, tied)

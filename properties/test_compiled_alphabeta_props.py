"""The compiled alpha-beta is the Python alpha-beta (issue 24).

For every registered game case whose row kernels have ``returns`` (the cases with
``rows_of(game)``; none without numba, or with ``NUMBA_DISABLE_JIT=1``): from random reachable
positions, ``alphabeta.search`` compiled and with ``compiled=False`` give the same value (to the
bit, the sign of a zero included), the same move, and the same ``SearchStats``: nodes, completed
depth, evaluations, table size, proven, ties in order. Over depths (0 = the game's length),
node budgets (the iteration they cut short discarded alike), ties on and off, a ``stop``
predicate that says stop at its n-th call (the clock is read at the same nodes), the ``zero``
evaluation, an injected evaluation with a compiled twin on rows and each registered evaluation
whose twin covers the game (``uttt`` on ultimate tic-tac-toe), each twin the same float as its
evaluation on random positions. ``AlphaBeta`` with a ticking clock (``seconds``) makes the same
decision as the Python search with the same clock.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.agents import alphabeta
from purestate.agents.alphabeta import AlphaBeta, search
from purestate.agents.alphabeta_compiled import route
from purestate.agents.timing import deadline, with_clock
from purestate.core import compiled, registry
from purestate.core.game import Game
from purestate.core.hooks import made_for_of, row_evaluation_of, rows_of

from .strategies import keys, states

BUDGETS = [(1, 0), (2, 0), (3, 0), (2, 1), (3, 7), (4, 60), (0, 40), (0, 400), (5, 3_000),
           (0, 3_000)]  # fmt: skip
"""(depth, nodes) searched: 0 depth is the game's length, 0 nodes no budget."""
PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))


def _with_returns(game: Any) -> Any:
    rows = rows_of(game)
    return None if rows is None or rows.returns is None else rows


with_rows = pytest.mark.with_hook.with_args(_with_returns)


def _mix(row: npt.NDArray[np.int64]) -> float:
    # a deterministic stand-in evaluation: player 0's value strictly inside (-1, 1), from the
    # whole row, so that nearly every position has its own value and cut-offs differ
    h = np.uint64(0x9E3779B97F4A7C15)
    for k in range(len(row)):
        h = (h ^ np.uint64(row[k])) * np.uint64(0xBF58476D1CE4E5B9)
        h = h ^ (h >> np.uint64(29))
    return float(np.int64(h & np.uint64(1023)) - 511) / 512.0


class RowDigest:
    """An injected evaluation and its compiled twin on rows (``RowEvaluation``)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        rows = rows_of(game)
        assert rows is not None
        self.row_of = rows.row_of
        self.kernel = compiled.jit(_mix)

    def __call__(self, game: Game[Any, Any], state: Any) -> float:
        value: float = self.kernel(self.row_of(state))
        return value

    def row_evaluation(self, game: Game[Any, Any]) -> Any:
        return self.kernel


def _twins(game: Game[Any, Any]) -> list[Any]:
    """The registered evaluations made for ``game`` whose compiled twin covers it."""
    found = []
    for name in registry.evaluations():
        fn = registry.evaluation(name)
        games = made_for_of(fn)
        if games is not None and game.spec.name not in games:
            continue
        twin = row_evaluation_of(fn)
        if twin is not None and twin(game) is not None:
            found.append(fn)
    return found


def _stop_at(n: int) -> Callable[[], bool] | None:
    """A ``stop`` that says stop at its ``n``-th call (None: no clock)."""
    if n == 0:
        return None
    calls = itertools.count(1)
    return lambda: next(calls) >= n


def test_the_kernel_shares_the_searchs_constants() -> None:
    kernel = compiled.kernels("alphabeta_search", compiled.AGENT_KERNELS)
    if kernel is None:
        pytest.skip("no numba here")
    mine = (kernel.EXACT, kernel.LOWER, kernel.UPPER, kernel.RESOLVED, kernel.TIE)
    theirs = (alphabeta.EXACT, alphabeta.LOWER, alphabeta.UPPER, alphabeta.RESOLVED, alphabeta.TIE)
    assert mine == theirs
    assert kernel.POLL_NODES == alphabeta.POLL_NODES


@with_rows
@PER_CASE
@given(data=st.data())
def test_the_compiled_search_is_the_python_search(
    hooked_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = hooked_game
    state = data.draw(states(game), label="state")
    if game.is_over(state):
        return
    depth, nodes = data.draw(
        st.sampled_from(BUDGETS),
        label="depth, nodes",
    )
    ties = data.draw(st.booleans(), label="ties")
    stop_at = data.draw(st.sampled_from([0, 0, 1, 2, 5]), label="stop at call")
    evaluations = [None, RowDigest(game), *_twins(game)]
    evaluate = data.draw(st.sampled_from(evaluations), label="evaluation")
    assert route(game, evaluate) is not None
    found = {}
    for on in (True, False):
        stop = _stop_at(stop_at)
        value, move, stats = search(
            game, state, depth, evaluate, nodes=nodes, stop=stop, ties=ties, compiled=on
        )
        found[on] = (repr(value), move, stats)
    assert found[True] == found[False]


@with_rows
@PER_CASE
@given(data=st.data(), k=keys())
def test_a_timed_agent_decides_as_the_python_search(
    hooked_game: Game[Any, Any], data: st.DataObject, k: Any
) -> None:
    # the agent's clock ticks once a read: its budget runs out at the same node on both paths
    game = hooked_game
    state = data.draw(states(game), label="state")
    if game.is_over(state):
        return
    ticks = data.draw(st.sampled_from([1, 2, 4]), label="seconds")
    agent = with_clock(AlphaBeta(seconds=ticks, nodes=2_000), itertools.count().__next__)
    decision, (value, move, stats) = agent.analyse(game, state, k)
    stop = deadline(itertools.count().__next__, ticks, "alphabeta")
    expected = search(game, state, 0, nodes=2_000, stop=stop, ties=True, compiled=False)
    assert (repr(value), move, stats) == (repr(expected[0]), expected[1], expected[2])
    # the move is drawn from the key among the ties, which are the Python search's
    assert decision.move in expected[2].ties


@with_rows
@PER_CASE
@given(data=st.data())
def test_the_registered_twins_are_their_evaluations(
    hooked_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = hooked_game
    rows = rows_of(game)
    assert rows is not None
    state = data.draw(states(game), label="state")
    if game.is_over(state):
        return  # alpha-beta evaluates unfinished positions only
    for fn in _twins(game):
        twin = row_evaluation_of(fn)
        assert twin is not None
        assert repr(twin(game)(rows.row_of(state))) == repr(fn(game, state))

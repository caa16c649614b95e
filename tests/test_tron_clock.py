"""Tron bots on a clock: alpha-beta's ``seconds`` budget with an injected (fake) clock, in the
search, in a series and on the command line."""

from __future__ import annotations

import itertools
import json
from typing import Any

from typer.testing import CliRunner

import purestate
from purestate.agents.alphabeta import POLL_NODES, search
from purestate.agents.timing import deadline
from purestate.cli import app
from purestate.experiments import tron as series
from purestate.heuristics.tron import voronoi_eval

GAME = purestate.make("tron", map="empty_room")


def _ticking() -> tuple[Any, Any]:
    """An evaluation that counts its calls and a clock reading that count in milliseconds."""
    calls = [0]

    def evaluate(game: Any, state: Any) -> float:
        calls[0] += 1
        return voronoi_eval(game, state)

    return evaluate, lambda: calls[0] / 1000


def test_iterative_deepening_stops_at_the_budget_with_the_deepest_completed_move() -> None:
    evaluate, clock = _ticking()
    budget_ms = 60
    value, move, stats = search(
        GAME, GAME.initial(), 0, evaluate, stop=deadline(clock, budget_ms / 1000, "test")
    )
    # the budget bit: several iterations finished, and the search did not run on to the end
    assert 2 <= stats.depth < GAME.spec.max_length and not stats.proven
    # stopped within a poll of the budget (the first iteration is always completed)
    assert stats.evaluations <= budget_ms + 2 * POLL_NODES
    # what comes back is exactly the result of the deepest completed iteration
    fixed, _ = _ticking()
    assert search(GAME, GAME.initial(), stats.depth, fixed)[:2] == (value, move)


def test_a_series_without_timed_bots_plays_the_same_games_with_a_clock() -> None:
    bots = ("alphabeta:depth=2,eval=voronoi", "alphabeta:depth=2,eval=chamber")
    plain = series.Setup("center_block", "alternating", "mirror", bots, None, 5)
    ticks = itertools.count()
    clocked = series.Setup(
        "center_block", "alternating", "mirror", bots, None, 5, clock=lambda: float(next(ticks))
    )
    assert clocked == plain  # the clock is not part of what the series is
    assert _played(clocked, range(4)) == _played(plain, range(4))


def _played(setup: series.Setup, indices: range) -> list[series.GameResult]:
    """The series' games ``indices``, in order, through its public ``run_game``."""
    return [series.run_game(setup, i) for i in indices]


def test_a_timed_bot_plays_a_series_on_the_injected_clock() -> None:
    def fake() -> Any:
        ticks = itertools.count()
        return lambda: float(next(ticks))  # one second per look: a few polls per move

    bots = ("alphabeta:seconds=3,eval=chamber", "alphabeta:depth=2,eval=voronoi")
    first = _played(series.Setup("empty_room", "alternating", "mirror", bots, None, 1,
                                          clock=fake()), range(2))  # fmt: skip
    again = _played(series.Setup("empty_room", "alternating", "mirror", bots, None, 1,
                                          clock=fake()), range(2))  # fmt: skip
    assert first == again  # a fake clock makes even a time budget deterministic
    assert all(len(r.moves) > 4 for r in first)


def test_tron_run_gives_timed_bots_the_clock() -> None:
    result = CliRunner().invoke(
        app,
        ["tron", "run", "--bots", "alphabeta:seconds=0.01,eval=voronoi", "random",
         "--map", "small_room", "--no-image", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 1

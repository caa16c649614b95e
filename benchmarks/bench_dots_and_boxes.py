"""Dots and boxes speed: random playouts against OpenSpiel, and the retrograde solver.

Run: ``PYTHONPATH=src python benchmarks/bench_dots_and_boxes.py [--quick]``

Playouts: uniformly random games through each library's public API, OpenSpiel's the way a Python
caller drives it (``state.child(action)``, a clone per step, as search code does). CPU time
(``time.process_time``), the median of several repetitions. The retrograde solver is timed on 3×3
(16.7M line sets) with its peak memory (numpy allocations are traced by ``tracemalloc``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable

sys.path.insert(0, "src")

from purestate.games.dots_and_boxes import DotsAndBoxes
from purestate.solve.dots_and_boxes import line_values

QUICK = "--quick" in sys.argv
REPS = 3 if QUICK else 5
SECONDS = 0.4 if QUICK else 1.0


def rate(fn: Callable[[random.Random], None]) -> float:
    """Games per CPU second: the median over REPS runs of about SECONDS each."""
    rates = []
    for rep in range(REPS):
        rng = random.Random(rep)
        n = 0
        t0 = time.process_time()
        while (elapsed := time.process_time() - t0) < SECONDS:
            fn(rng)
            n += 1
        rates.append(n / elapsed)
    return statistics.median(rates)


def ours(rows: int, cols: int) -> Callable[[random.Random], None]:
    game = DotsAndBoxes(rows, cols)
    legal, step, is_over, returns, initial = (
        game.legal,
        game.step,
        game.is_over,
        game.returns,
        game.initial,
    )

    def playout(rng: random.Random) -> None:
        s = initial()
        pick = rng.choice
        while not is_over(s):
            s = step(s, pick(legal(s)))
        returns(s)

    return playout


def openspiel(rows: int, cols: int) -> Callable[[random.Random], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")

    def playout(rng: random.Random) -> None:
        s = game.new_initial_state()
        pick = rng.choice
        while not s.is_terminal():
            s = s.child(pick(s.legal_actions()))
        s.returns()

    return playout


def main() -> None:
    print("random playouts, games per CPU second (median of", REPS, "runs)")
    print(f"{'board':>6} {'purestate':>12} {'pyspiel':>12} {'ratio':>7}")
    for rows, cols in [(2, 2), (3, 3)]:
        us = rate(ours(rows, cols))
        peer_fn = openspiel(rows, cols)
        if peer_fn is None:
            print(f"{rows}x{cols:<4} {us:12,.0f} {'(no pyspiel)':>12}")
            continue
        peer = rate(peer_fn)
        print(f"{rows}x{cols:<4} {us:12,.0f} {peer:12,.0f} {us / peer:6.2f}x")

    print("\nretrograde solver (CPU seconds, peak traced memory)")
    boards = [(2, 2), (2, 3)] if QUICK else [(2, 2), (2, 3), (3, 3)]
    for rows, cols in boards:
        tracemalloc.start()
        t0 = time.process_time()
        table = line_values(rows, cols)
        secs = time.process_time() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"{rows}x{cols}: {len(table):>10,} line sets, value {int(table[0]):+d}, "
            f"{secs:6.2f} s, peak {peak / 2**20:6.1f} MB"
        )


if __name__ == "__main__":
    main()

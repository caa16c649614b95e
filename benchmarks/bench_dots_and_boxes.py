"""Dots and boxes speed: random playouts against OpenSpiel, and the retrograde solver.

Run: ``PYTHONPATH=src python benchmarks/bench_dots_and_boxes.py [--quick]``

Playouts: uniformly random games through each library's public API, OpenSpiel's the way a Python
caller drives it (``state.child(action)``, a clone per step, as search code does). CPU time
(``time.process_time``), the median of several repetitions.

The retrograde solver: the numpy layers (``python_line_values``, the pure path) and the compiled
kernel (``line_values`` where numba imports) taking turns in this process, CPU seconds, median and
range over the repetitions, up to 3×3 (16.7M line sets), with the numpy path's peak memory (its
allocations traced by ``tracemalloc`` in one more run, off the clock). Then the compiled path's
first call in fresh processes: with an empty numba cache (the cold compile) and again with the
cache it wrote.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable

sys.path.insert(0, "src")

from purestate.core import compiled
from purestate.games.dots_and_boxes import DotsAndBoxes
from purestate.solve.dots_and_boxes import line_values, python_line_values

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

    solver()
    first_calls()


def solver() -> None:
    print(
        f"\nretrograde solver, CPU seconds, median (range) of {REPS};",
        f"compiled: {compiled.backend()}",
    )
    boards = [(2, 2), (2, 3)] if QUICK else [(2, 2), (2, 3), (3, 3)]
    line_values(1, 1)  # compiled (or loaded from numba's cache) before the clock starts
    for rows, cols in boards:
        pure, fast = [], []
        for _ in range(REPS):
            t0 = time.process_time()
            slow_table = python_line_values(rows, cols)
            pure.append(time.process_time() - t0)
            line_values.cache_clear()
            t0 = time.process_time()
            table = line_values(rows, cols)
            fast.append(time.process_time() - t0)
        tracemalloc.start()  # once more, outside the clock: tracing slows numpy's calls
        python_line_values(rows, cols)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        same = "same table" if (table == slow_table).all() else "TABLES DIFFER"
        print(
            f"{rows}x{cols}: {len(table):>10,} line sets, value {int(table[0]):+d}, "
            f"numpy {spread(pure)} (peak {peak / 2**20:.0f} MB), compiled {spread(fast)}, "
            f"{statistics.median(pure) / statistics.median(fast):.1f}x, {same}"
        )


def spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} s ({min(xs):.3f}-{max(xs):.3f})"


FIRST_CALL = """
import time
t0 = time.process_time()
from purestate.solve.dots_and_boxes import line_values
t1 = time.process_time()
line_values(1, 1)
t2 = time.process_time()
line_values(3, 3)
t3 = time.process_time()
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}")
"""


def first_calls() -> None:
    """The compiled path as a new process meets it: numba imported and the kernel compiled (an
    empty cache folder) or loaded (the folder the first run filled), then the 3×3 solve."""
    if compiled.backend() == "python":
        print("no numba: no compile time to report")
        return
    print("\nfirst call in a fresh process, CPU seconds: import, first table (1x1), 3x3 table")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": "src"}
        for label in ("empty numba cache (cold compile)", "the cache that run wrote"):
            out = subprocess.run(
                [sys.executable, "-c", FIRST_CALL],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            imp, first, big = (float(x) for x in out)
            print(f"{label}: import {imp:.3f}, first table {first:.3f}, 3x3 {big:.3f}")


if __name__ == "__main__":
    main()

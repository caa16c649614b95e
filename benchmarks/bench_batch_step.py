"""Random games stepped a ply at a time over a batch (``core.batch.step``), pgx's way, beside the
compiled ``core.batch.playouts`` that plays each game to its end in one call (issue 24).

Run: ``PYTHONPATH=src python benchmarks/bench_batch_step.py [--reps R] [--seconds S]
[--sizes 1024,8192,65536] [--games tictactoe,connect_four]``

For each game and batch size, a Python loop over plies plays a batch of random games from the
start, as a vectorised-environment user writes it: the batch of rows made from the start
(``rows`` of one state, tiled), then each ply the keys of that ply (``key_range`` of
``fold_in(k, ply)``), a random legal move per row (``random_moves``; ``NO_MOVE`` for a
finished row), one ``step`` of every row, until every row is finished; then the rewards
(``rewards``). Beside it, the same number of games through ``core.batch.playouts`` (one compiled
call; its keys made inside the clock too). Both on numba's threads (as many as cores, or
``--threads``; the batch functions run in the calling thread below ``PARALLEL_ROWS`` rows); games
per wall second (what a user waits) and per CPU second, the median of R windows of about S wall
seconds each (min-max after), the two loops taking turns so that they see the same load.

pgx is not installed here; its figures are quoted from ``peers.md`` (same machine, 2 cores, CPU
backend): tic-tac-toe 1,175,036 games per wall second in batches of 8,192 (579,452 at 1,024),
with its ply loop inside one ``jax.jit`` (``lax.scan``); 539 games per wall second when a
Python loop calls ``jit(step)`` per move (batch 1). The ratios are to its 1,175,036.

Under OpenMP's default (active) wait, on a machine whose cores are busy, each parallel call waits
about 15 ms for its threads; run it again with ``OMP_WAIT_POLICY=passive`` in the shell to see
the difference (it must be set before numba starts its threads).

The machine may be shared: read the ratios, which come from one process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import purestate
from purestate.core import batch, compiled, keys

PGX_TICTACTOE = 1_175_036
"""pgx's tic-tac-toe games per wall second, batches of 8,192, jit + vmap + scan (peers.md)."""


def stepped_games(game: Any, size: int) -> Callable[[int], int]:
    """Plays ``size`` random games ply by ply through the batch functions (game ``i`` of batch
    ``r`` from the key ``fold_in(fold_in(root, r), ply)``'s ``i``-th ``key_range`` entry)."""
    start = batch.rows(game, [game.initial()])
    root = keys.key(7)

    def run(r: int) -> int:
        rows = np.tile(start, (size, 1))
        k = keys.fold_in(root, r)
        ply = 0
        while True:
            moves = batch.random_moves(game, rows, batch.key_range(keys.fold_in(k, ply), 0, size))
            if (moves == batch.NO_MOVE).all():
                break
            rows = batch.step(game, rows, moves)
            ply += 1
        return int(np.isfinite(batch.rewards(game, rows)).sum())

    return run


def playout_games(game: Any, size: int) -> Callable[[int], int]:
    """Plays ``size`` random games from the start in one ``core.batch.playouts`` call."""
    start = [game.initial()]
    root = keys.key(7)

    def run(r: int) -> int:
        return len(batch.playouts(game, start, batch.key_range(root, r * size, size)))

    return run


def windows(
    runs: list[Callable[[int], int]], seconds: float, reps: int
) -> list[tuple[list[float], list[float]]]:
    """Each run's games per wall and per CPU second in ``reps`` windows of about ``seconds`` wall
    seconds, the runs taking turns window by window."""
    found: list[tuple[list[float], list[float]]] = [([], []) for _ in runs]
    call = 0
    for _ in range(reps):
        for run, (wall, cpu) in zip(runs, found, strict=True):
            games = 0
            w0, c0 = time.perf_counter(), time.process_time()
            while time.perf_counter() - w0 < seconds:
                games += run(call)
                call += 1
            wall.append(games / (time.perf_counter() - w0))
            cpu.append(games / (time.process_time() - c0))
    return found


def batch_kernels() -> Any:
    found = compiled.kernels("batch")
    assert found is not None, "the batch kernels need numba"
    return found


def spread(rates: list[float]) -> str:
    return f"{statistics.median(rates):>11,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--sizes", default="1024,8192,65536")
    parser.add_argument("--games", default="tictactoe,connect_four")
    parser.add_argument("--threads", type=int, default=0, help="numba's threads (0: its default)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    import numba

    if args.threads:
        numba.set_num_threads(args.threads)
    wait = os.environ.get("OMP_WAIT_POLICY", "default")
    layer = os.environ.get("NUMBA_THREADING_LAYER", "default")
    print(
        f"{compiled.backend()}, {numba.get_num_threads()} threads, threading layer {layer},"
        f" OMP_WAIT_POLICY {wait}; parallel from {batch_kernels().PARALLEL_ROWS:,} rows"
    )
    for spec in args.games.split(","):
        game = purestate.make(spec)
        t0 = time.perf_counter()
        stepped_games(game, 64)(0)  # compile or load every batch function
        playout_games(game, 64)(0)
        print(f"\n{spec}: first calls {time.perf_counter() - t0:.2f} s wall (compile or cache)")
        print(
            "batch      step loop per wall s        per CPU s"
            "        | playouts per wall s       per CPU s        | step/playouts (wall)"
        )
        for size in sizes:
            (sw, sc), (pw, pc) = windows(
                [stepped_games(game, size), playout_games(game, size)], args.seconds, args.reps
            )
            ratio = statistics.median(sw) / statistics.median(pw)
            line = (
                f"{size:>7,}  {spread(sw)} {spread(sc)} | {spread(pw)} {spread(pc)} | {ratio:.2f}"
            )
            if spec == "tictactoe":
                line += f"; step loop / pgx {statistics.median(sw) / PGX_TICTACTOE:.2f}"
                line += f", playouts / pgx {statistics.median(pw) / PGX_TICTACTOE:.2f}"
            print(line)


if __name__ == "__main__":
    main()

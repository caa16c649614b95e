"""Sweep speed: 32 MENACE runs × 2,000 games, wall time with 1 job, 2 jobs, and Dask.

Run: ``python benchmarks/bench_sweep.py [--runs 32] [--games 2000]``. Wall time is what a user
waits for, so it is the measure here (the machine should be otherwise idle). Targets on a 2-core
machine: 2 jobs ≥ 1.8× one job; a local Dask cluster of 2 workers ≥ 1.6×. Each executor's results
are checked to be identical.
"""

from __future__ import annotations

import argparse
import time

from purestate.executors import DaskExecutor, Executor, LocalExecutor
from purestate.experiments.selfplay import Selfplay
from purestate.experiments.sweep import Chunk, ChunkResult, play_chunk


def timed(ex: Executor, chunks: list[Chunk]) -> tuple[float, list[ChunkResult]]:
    t0 = time.perf_counter()
    out = ex.run(play_chunk, chunks)
    return time.perf_counter() - t0, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=32)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    presets = ("michie", "scroggs")
    chunks = [
        Chunk(Selfplay(agent=f"menace:preset={presets[i % 2]}", seed=i), 0, args.games, None)
        for i in range(args.runs)
    ]
    one, base = timed(LocalExecutor(1), chunks)
    print(f"1 job:  {one:.1f} s wall")
    two, res = timed(LocalExecutor(2), chunks)
    assert [r.outcomes for r in res] == [r.outcomes for r in base]
    print(f"2 jobs: {two:.1f} s wall, speed-up {one / two:.2f}× (target ≥ 1.8×)")
    try:
        import dask
        from distributed import LocalCluster
    except ImportError:
        print("Dask: not installed (pip install 'purestate[dask]')")
        return
    # the workers' statistical profiler samples every 10 ms and competes for the GIL with
    # CPU-bound pure-Python tasks; a cluster run for experiments like these does not need it
    dask.config.set({"distributed.worker.profile.enabled": False})
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    ) as cluster:  # fmt: skip
        ex = DaskExecutor(cluster.scheduler_address)
        cold, res = timed(ex, chunks)
        assert [r.outcomes for r in res] == [r.outcomes for r in base]
        # a cluster's workers are long-lived: the second sweep finds them with purestate imported
        warm, res = timed(ex, chunks)
        assert [r.outcomes for r in res] == [r.outcomes for r in base]
    print(
        f"Dask, 2 workers: {cold:.1f} s wall on fresh workers ({one / cold:.2f}×), "
        f"{warm:.1f} s on warm workers ({one / warm:.2f}×) (target ≥ 1.6×)"
    )


if __name__ == "__main__":
    main()

"""Self-play on one worker and on two: the speed-up of ``selfplay --jobs 2`` for a learner that
plays in jobs (``SelfplayJobs``: ``alphazero``), and that the tables are the same bytes.

Run: ``PYTHONPATH=src python benchmarks/bench_selfplay_workers.py [--spec SPEC] [--game GAME]
[--iterations N] [--jobs K]`` (needs ``purestate[alphazero]``).

Both runs go through ``Selfplay.stretches`` as the command does: in this process (one job a
part), and on K spawned local processes started once (``executors.LocalExecutor.kept``). Each
part's wall time is split into playing (the executor's ``run``: the games) and absorbing (the
parent's training). The first iteration of each is left out of the rates: it pays for starting
the workers, importing JAX in them and compiling the network. The two runs alternate, iteration
by iteration, so a change in the machine's load hits both; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

sys.path.insert(0, "src")

import purestate
from purestate.core.hooks import selfplay_jobs_of
from purestate.core.keys import key
from purestate.executors import LocalExecutor
from purestate.io.tables import table_bytes


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spec", default="alphazero:simulations=100,games_per_iteration=64")
    p.add_argument("--game", default="tictactoe")
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    game = purestate.make(args.game)
    agent = purestate.agent(args.spec)
    spread = selfplay_jobs_of(agent)
    assert spread is not None, f"{args.spec} does not play in jobs"
    k = key(args.seed)
    tables = {n: spread.with_network(game, agent.initial_table(game, 0), k) for n in (1, args.jobs)}
    times: dict[int, list[tuple[float, float]]] = {1: [], args.jobs: []}
    games = agent.games_per_iteration
    with LocalExecutor(args.jobs, start_method="spawn").kept() as pooled:
        runs: dict[int, Any] = {1: lambda fn, items: [fn(j) for j in items], args.jobs: pooled.run}
        for it in range(args.iterations):
            part = range(it * games, (it + 1) * games)
            for n in (1, args.jobs):
                t0 = time.perf_counter()
                played = runs[n](spread.play_job, spread.jobs(game, tables[n], k, part, n))
                t1 = time.perf_counter()
                tables[n] = spread.absorb(game, tables[n], played, k)
                t2 = time.perf_counter()
                times[n].append((t1 - t0, t2 - t1))
                print(f"iteration {it} jobs {n}: play {t1 - t0:6.2f} s, train {t2 - t1:5.2f} s, "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    same = table_bytes(game, agent, tables[1], 0, 0) == table_bytes(
        game, agent, tables[args.jobs], 0, 0
    )
    print(f"same table bytes after {args.iterations} iterations: {same}")
    steady = {n: t[1:] for n, t in times.items()}
    for n, t in steady.items():
        play, train = sum(x[0] for x in t), sum(x[1] for x in t)
        print(f"jobs {n}: {len(t)} iterations, play {play:.1f} s, train {train:.1f} s, "
              f"{len(t) * games / (play + train):.2f} games/s")  # fmt: skip
    one, many = (sum(a + b for a, b in steady[n]) for n in (1, args.jobs))
    play1, playk = (sum(a for a, _ in steady[n]) for n in (1, args.jobs))
    print(
        f"speed-up 1 -> {args.jobs} jobs: {one / many:.2f}x overall, {play1 / playk:.2f}x playing"
    )


if __name__ == "__main__":
    main()

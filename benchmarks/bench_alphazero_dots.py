"""alphazero on 3×3 dots and boxes (win/draw/loss returns): training time against strength.

Run: ``PYTHONPATH=src python benchmarks/bench_alphazero_dots.py [--spec SPEC] [--games N]
[--every K]`` (needs ``purestate[alphazero]``; JAX pinned to one CPU thread).

Every ``K`` self-play games (seed 0) the table's greedy play meets ``random`` in 100 games, seats
alternating: its W/D/L, and the share of its moves in those games that are optimal per the exact
solver (``purestate.solve.solve``), with the Wilson 95% interval. CPU seconds of training are
the process's (``time.process_time``), the judging not included.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# one core: XLA's CPU backend would otherwise use every core for its thread pool
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
sys.path.insert(0, "src")

import purestate
from purestate.agents.alphazero import AlphaZero, Net
from purestate.core.agent import Greedy
from purestate.core.keys import fold_in, key
from purestate.core.learning import wilson
from purestate.solve import solve

GAME = "dots_and_boxes:rows=3,cols=3,margin=false"


def judge(
    game: object, agent: AlphaZero, table: Net, solution: object
) -> tuple[list[int], int, int]:
    """W/D/L against random over 100 games, and (optimal moves, moves) of the table's side."""
    rnd = purestate.agent("random")
    wdl, good, total = [0, 0, 0], 0, 0
    for i in range(100):
        seat = i % 2
        seats = [Greedy(agent), rnd] if seat == 0 else [rnd, Greedy(agent)]
        tables = [table, None] if seat == 0 else [None, table]
        ep = purestate.play(game, seats, tables, fold_in(key(77), i))  # type: ignore[arg-type]
        wdl[1 - ep.outcome(seat)] += 1
        for s, m, p in zip(ep.states, ep.moves, ep.movers, strict=False):
            if p != seat:
                continue
            sign = 1 if p == 0 else -1
            values = {
                o: sign * solution.value(game.step(s, o))  # type: ignore[attr-defined]
                for o in game.legal(s)  # type: ignore[attr-defined]
            }
            good += values[m] == max(values.values())
            total += 1
    return wdl, good, total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", default="alphazero:width=32")
    parser.add_argument("--games", type=int, default=1280)
    parser.add_argument("--every", type=int, default=320)
    args = parser.parse_args()
    game = purestate.make(GAME)
    agent = purestate.agent(args.spec)
    assert isinstance(agent, AlphaZero)
    solution = solve(game)
    print(f"{GAME}, {agent.spec}, seed 0, load {os.getloadavg()[0]:.2f}")
    table, done, spent = agent.initial_table(game, 0), 0, 0.0
    while done < args.games:
        t0 = time.process_time()
        table, _ = agent.selfplay_games(game, table, key(0), args.every, done)
        spent += time.process_time() - t0
        done += args.every
        wdl, good, total = judge(game, agent, table, solution)
        lo, hi = wilson(good, total)
        print(f"{done} games, {spent:.0f} CPU s: against random W/D/L {wdl}, optimal moves "
              f"{good}/{total} = {good / total:.4f} [{lo:.4f}, {hi:.4f}]", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()

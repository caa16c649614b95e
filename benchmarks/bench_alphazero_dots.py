"""alphazero (or tabular qlearning) on 3×3 dots and boxes (win/draw/loss returns): training time
against strength.

Run: ``PYTHONPATH=src python benchmarks/bench_alphazero_dots.py [--spec SPEC] [--games N]
[--every K] [--judge J] [--final F] [--seconds S]`` (needs ``purestate[alphazero]``; JAX
pinned to one CPU thread), or ``... --qlearning [--spec qlearning:...] --seconds S [--every K]``.

alphazero: every ``K`` self-play games (seed 0) the table's greedy play meets ``random`` in ``J``
games, and at the end (``N`` games, or the first stretch ending past ``S`` CPU s of training) in
``F`` (the issue's 1,000), seats alternating: its W/D/L, and
the share of its moves in those games that are optimal per the exact solver
(``purestate.solve.solve``), with the Wilson 95% interval. CPU seconds of training are the
process's (``time.process_time``), the judging not counted.

``--qlearning``: the tabular learner trains by self-play on one shared table (``selfplay``,
seed 0) in stretches of ``K`` games until its training has used ``S`` CPU seconds, then its
greedy play is judged the same way in ``F`` games.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

# one core: XLA's CPU backend would otherwise use every core for its thread pool
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
sys.path.insert(0, "src")

import purestate
from purestate.core.agent import Greedy
from purestate.core.keys import fold_in, key
from purestate.core.learning import wilson
from purestate.io.tables import load_table, save_table
from purestate.solve import solve

GAME = "dots_and_boxes:rows=3,cols=3,margin=false"


def judge(
    game: Any, agent: Any, table: Any, solution: Any, games: range
) -> tuple[list[int], int, int]:
    """W/D/L against random over ``games`` (their numbers), and (optimal moves, moves) of the
    table's side."""
    rnd = purestate.agent("random")
    wdl, good, total = [0, 0, 0], 0, 0
    for i in games:
        seat = i % 2
        seats = [Greedy(agent), rnd] if seat == 0 else [rnd, Greedy(agent)]
        tables = [table, None] if seat == 0 else [None, table]
        ep = purestate.play(game, seats, tables, fold_in(key(77), i))
        wdl[1 - ep.outcome(seat)] += 1
        for s, m, p in zip(ep.states, ep.moves, ep.movers, strict=False):
            if p != seat:
                continue
            sign = 1 if p == 0 else -1
            values = {o: sign * solution.value(game.step(s, o)) for o in game.legal(s)}
            good += values[m] == max(values.values())
            total += 1
    return wdl, good, total


def report(head: str, wdl: list[int], good: int, total: int, judged: float) -> None:
    """One line: the training point, W/D/L and the optimal-move share with its interval."""
    lo, hi = wilson(good, total)
    share = f"{good}/{total} = {good / total:.4f} [{lo:.4f}, {hi:.4f}]"
    print(
        f"{head}: against random ({sum(wdl)} games, {judged:.0f} CPU s) W/D/L {wdl}, "
        f"optimal moves {share}",
        flush=True,
    )


def judged(game: Any, agent: Any, table: Any, solution: Any, games: range, head: str) -> None:
    """Judge ``table`` in ``games`` and print the line, timing the judging apart."""
    t0 = time.process_time()
    wdl, good, total = judge(game, agent, table, solution, games)
    report(head, wdl, good, total, time.process_time() - t0)


def alphazero(args: argparse.Namespace, game: Any, solution: Any) -> None:
    """Self-play ``args.games`` games or ``args.seconds`` CPU s (a stretch of ``args.every``
    games at a time), judging after each stretch and at the end."""
    agent = purestate.agent(args.spec or "alphazero:width=32")
    print(f"{GAME}, {agent.spec}, seed 0, load {os.getloadavg()[0]:.2f}", flush=True)
    table, done, spent = agent.initial_table(game, 0), 0, 0.0
    while done < args.games and spent < args.seconds:
        t0 = time.process_time()
        table, _ = agent.selfplay_games(game, table, key(0), args.every, done)
        spent += time.process_time() - t0
        done += args.every
        last = done >= args.games or spent >= args.seconds
        if last and args.save:
            save_table(Path(args.save), game, agent, table, 0, done)
            print(f"{done} games, {spent:.0f} CPU s: saved to {args.save}", flush=True)
        games = args.final if last else args.judge
        if games:
            judged(game, agent, table, solution, range(games), f"{done} games, {spent:.0f} CPU s")


def qlearning(args: argparse.Namespace, game: Any, solution: Any) -> None:
    """Self-play in stretches of ``args.every`` games until ``args.seconds`` CPU s are spent."""
    agent = purestate.agent(args.spec or "qlearning")
    print(f"{GAME}, {agent.spec}, seed 0, load {os.getloadavg()[0]:.2f}", flush=True)
    table, done, spent = agent.initial_table(game, 0), 0, 0.0
    while spent < args.seconds:
        t0 = time.process_time()
        table = agent.selfplay(game, table, key(0), args.every, done)
        spent += time.process_time() - t0
        done += args.every
        print(f"{done} games, {spent:.0f} CPU s, {len(table.q)} positions", flush=True)
    judged(game, agent, table, solution, range(args.final), f"{done} games, {spent:.0f} CPU s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", default="")
    parser.add_argument("--games", type=int, default=1280)
    parser.add_argument("--every", type=int, default=320)
    parser.add_argument(
        "--judge", type=int, default=100, help="games at each point before the last"
    )
    parser.add_argument("--final", type=int, default=1000, help="games at the last point")
    parser.add_argument("--qlearning", action="store_true")
    parser.add_argument("--save", default="", help="write the trained alphazero table there")
    parser.add_argument("--table", default="", help="only judge this saved alphazero table")
    parser.add_argument(
        "--first", type=int, default=0, help="with --table: the first game's number"
    )
    parser.add_argument(
        "--seconds", type=float, default=3600.0, help="training CPU s (after a stretch)"
    )
    args = parser.parse_args()
    game = purestate.make(GAME)
    solution = solve(game)
    if args.table:
        agent = purestate.agent(args.spec or "alphazero:width=32")
        table = load_table(Path(args.table), game, agent).table
        games = range(args.first, args.first + args.final)
        judged(game, agent, table, solution, games, f"{args.table}, games {games}")
    else:
        (qlearning if args.qlearning else alphazero)(args, game, solution)


if __name__ == "__main__":
    main()

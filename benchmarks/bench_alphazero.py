"""alphazero on tic-tac-toe: training from scratch on one core, strength, and throughput.

Run: ``PYTHONPATH=src python benchmarks/bench_alphazero.py [--games N] [--seed S] [--spec SPEC]
[--quick]`` (needs ``purestate[alphazero]``; pins JAX to one CPU thread first).

- **Training**: ``selfplay_games`` from a fresh table for N games (default 640), seeded; CPU
  seconds of the process (``time.process_time``: one core's work; the machine's load average is
  printed beside it, since other jobs share the cores).
- **Strength** of the trained table's greedy play (search without noise, the most visited move):
  the share of the 4,520 non-terminal reachable positions where the greedy move is optimal per
  the solver (``purestate.solve.solve``), and W/D/L against ``perfect`` (random tie-break) over
  1,000 games in each seat; each with its Wilson 95% interval.
- **Throughput**: network evaluations per second (states through the jitted network, in batches
  of 1, 8 and 64), training steps per second (minibatches of ``batch``, in a run of ``steps``
  steps, with each way of taking the conv net's gradients, ``gradients=autodiff`` and ``nhwc``,
  side by side in one process), and self-play moves per second at 100 simulations (32 games at
  once) on the compiled tree and on the Python tree, side by side in one process, and the
  simulations in a greedy move of 0.1 CPU s (each leaf computed alone, as play does, and
  with numpy weights, padded to a chunk, and 8 leaves a round under virtual loss in chunks of
  8, side by side); on another
  game with ``--throughput GAME`` (a fresh network: the speed does not depend on the weights).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from typing import Any
from unittest import mock

# one core: XLA's CPU backend would otherwise use every core for its thread pool
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
sys.path.insert(0, "src")

import attrs
import numpy as np

import purestate
from purestate.agents import mcts_compiled
from purestate.agents.alphazero import AlphaZero, Net, network
from purestate.agents.alphazero.agent import evaluations
from purestate.agents.alphazero.network import ALONE, CHUNK
from purestate.agents.alphazero.training import Examples, train
from purestate.agents.mcts import Tree
from purestate.agents.timing import with_clock
from purestate.core.agent import Greedy
from purestate.core.hooks import planes_of
from purestate.core.keys import fold_in, key
from purestate.core.learning import wilson
from purestate.solve import solve
from purestate.solve.analysis import analyze_table


def optimal_share(game: Any, agent: AlphaZero, table: Net) -> tuple[int, int]:
    """(positions where the greedy move keeps the solver's value, positions), over every
    non-terminal reachable position (``analyze_table``, what ``purestate analyze`` shows)."""
    judged = analyze_table(game, agent, table, solve(game))
    return judged.optimal, judged.positions


def against_perfect(game: Any, agent: AlphaZero, table: Net, seat: int, games: int) -> list[int]:
    """[wins, draws, losses] of the greedy table from ``seat`` against ``perfect``."""
    perfect = purestate.agent("perfect")
    wdl = [0, 0, 0]
    for i in range(games):
        seats = [Greedy(agent), perfect] if seat == 0 else [perfect, Greedy(agent)]
        tables = [table, None] if seat == 0 else [None, table]
        outcome = purestate.play(game, seats, tables, fold_in(key(2024 + seat), i)).outcome(seat)
        wdl[1 - outcome] += 1
    return wdl


def interval(k: float, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.4f} [{lo:.4f}, {hi:.4f}]"


def throughput(
    game: Any, agent: AlphaZero, table: Net, autodiff: bool = True, games: int = 32
) -> None:
    rnd = purestate.agent("random")
    found: list[Any] = []
    i = 0
    while len(found) < 64:
        ep = purestate.play(game, (rnd, rnd), (None, None), fold_in(key(5), i))
        found.extend(s for s in ep.states if not game.is_over(s))
        i += 1
    for size in (1, 8, 64):
        batch = found[:size]
        evaluations(game, table, batch)  # compiled once
        calls, t0 = 0, time.process_time()
        while time.process_time() - t0 < 2.0:
            evaluations(game, table, batch)
            calls += 1
        rate = calls * size / (time.process_time() - t0)
        print(f"network evaluations/s, batches of {size}: {rate:,.0f}")
    training(game, agent, table, found, autodiff)
    selfplay(game, agent, table, games)
    timed_moves(game, agent, table, found)


def timed_moves(game: Any, agent: AlphaZero, table: Net, found: list[Any]) -> None:
    """Simulations in a greedy move of 0.1 CPU s (the thread's clock, as the commands attach),
    from 20 positions of random games, one leaf evaluated at a time, taking turns three times:
    computed alone (``network.ALONE``) with the weights placed in JAX once a search
    (``network.placed``), as ``greedy`` and ``act`` do; alone with the table's numpy weights,
    copied into JAX at every call (as before ``placed``); padded to a chunk of 8 (``CHUNK``,
    as self-play computes its batches); and ``leaves=8``: the search collects up to 8 leaves a
    round under virtual loss and computes them in one chunk of 8."""
    timed = with_clock(attrs.evolve(agent, simulations=0, seconds=0.1), time.thread_time)
    ways = {"alone": (ALONE, True, 1), "alone, numpy weights": (ALONE, False, 1),
            f"padded to {CHUNK}": (CHUNK, True, 1),
            f"leaves={CHUNK}": (CHUNK, True, CHUNK)}  # fmt: skip
    counts: dict[str, list[int]] = {way: [] for way in ways}
    for rows, _, _ in ways.values():
        evaluations(game, table, found[:1], rows)  # compiled once
    for _ in range(3):
        for way, (rows, place, leaves) in ways.items():
            with contextlib.ExitStack() as stack:
                if not place:
                    stack.enter_context(mock.patch.object(network, "placed", dict))
                for s in found[::3][:20]:
                    tree = timed.search(game, table, [Tree()], [s], [key(1)], False, rows,
                                        leaves)[0]  # fmt: skip
                    assert tree.root is not None
                    counts[way].append(tree.root.n)
    means = {way: float(np.mean(c)) for way, c in counts.items()}
    print("simulations in a greedy move of 0.1 CPU s, each leaf " + " / ".join(means) + ": "
          + " / ".join(f"{m:,.0f}" for m in means.values())
          + f" (alone {means['alone'] / means['alone, numpy weights']:.2f}x with numpy weights, "
          f"{means['alone'] / means[f'padded to {CHUNK}']:.2f}x padded, "
          f"{means[f'leaves={CHUNK}'] / means['alone']:.2f}x the simulations with "
          f"leaves={CHUNK})")  # fmt: skip


def selfplay(game: Any, agent: AlphaZero, table: Net, games: int = 32) -> None:
    """Self-play moves/s at 100 simulations, ``games`` games at once (32 unless told), on the
    compiled tree and on the Python tree (``search_many(compiled_tree=False)``), alternated three
    times in this process so both see the same load; the first round (which compiles) is left
    out. Both play the same games (the trees are the same)."""
    at100 = attrs.evolve(agent, simulations=100)
    rates: dict[str, list[float]] = {"compiled": [], "python": []}
    for rep in range(3):
        for tree, rate in rates.items():
            with contextlib.ExitStack() as stack:
                if tree == "python":  # every search on the reference tree
                    stack.enter_context(mock.patch.object(mcts_compiled, "route", no_route))
                t0 = time.process_time()
                numbers = range(table.games, table.games + games)
                played = at100.play_games(game, table, key(6), numbers)
                moves = sum(len(ep.moves) for ep in played.episodes)
                if rep:
                    rate.append(moves / (time.process_time() - t0))
    for tree, rate in rates.items():
        print(f"self-play moves/s at 100 simulations ({games} games at once), {tree} tree: "
              f"{np.mean(rate):,.1f}")  # fmt: skip
    print(f"  compiled / python: {np.mean(rates['compiled']) / np.mean(rates['python']):.2f}x")


def no_route(*args: Any) -> None:
    """``mcts_compiled.route`` that never routes: the Python tree runs."""
    return None


def training(game: Any, agent: AlphaZero, table: Net, found: list[Any], autodiff: bool) -> None:
    """Training steps per second on examples of the positions ``found`` (the speed does not
    depend on the numbers), with each way of taking the gradients, alternated twice so both
    see the same load; the first run of each (which compiles) is left out."""
    assert table.shape is not None and table.params is not None
    rows = evaluations(game, table, found)
    planes = planes_of(game)
    assert planes is not None
    x = np.stack([planes(s, game.to_move(s)) for s in found])
    mask = np.zeros((len(found), table.shape.moves), bool)
    pi = np.zeros((len(found), table.shape.moves), np.float32)
    for i, (s, (priors, _)) in enumerate(zip(found, rows, strict=True)):
        mask[i, list(game.legal(s))] = True
        pi[i, list(game.legal(s))] = priors
    examples = Examples.of(x, mask, pi, np.zeros(len(found), np.float32))
    steps = max(1, min(agent.steps, 20))
    rates: dict[str, list[float]] = {"autodiff": [], "nhwc": []} if autodiff else {"nhwc": []}
    for rep in range(3):
        for how in rates:
            t0 = time.process_time()
            train(table.shape, agent.lr, table.params, table.opt_state, examples, key(rep), steps,
                  agent.batch, how)  # fmt: skip
            if rep:
                rates[how].append(steps / (time.process_time() - t0))
    for how, r in rates.items():
        print(f"training steps/s (batch {agent.batch}, gradients={how}): {np.mean(r):,.1f}")
    if autodiff:
        print(f"  nhwc / autodiff: {np.mean(rates['nhwc']) / np.mean(rates['autodiff']):.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=640)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spec", default="alphazero")
    parser.add_argument("--quick", action="store_true", help="100 games against perfect per seat")
    parser.add_argument(
        "--throughput", metavar="GAME", help="only the throughput on GAME, with a fresh network"
    )
    parser.add_argument(
        "--no-autodiff", action="store_true",
        help="train only with gradients=nhwc (autodiff takes minutes a step on large planes)",
    )  # fmt: skip
    parser.add_argument(
        "--selfplay-games", type=int, default=32, metavar="N",
        help="games played at once in the self-play figure (fewer for long games: Xtreme)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.throughput:
        other = purestate.make(args.throughput)
        learner = purestate.agent(args.spec)
        assert isinstance(learner, AlphaZero)
        fresh = learner.with_network(other, learner.initial_table(other, 0), key(args.seed))
        print(f"{args.throughput}, {learner.spec}: {fresh.shape}, load {os.getloadavg()[0]:.2f}")
        throughput(other, learner, fresh, not args.no_autodiff, args.selfplay_games)
        return
    game = purestate.make("tictactoe")
    agent = purestate.agent(args.spec)
    assert isinstance(agent, AlphaZero)
    print(f"{agent.spec}, {args.games} games, seed {args.seed}, load {os.getloadavg()[0]:.2f}")
    table = agent.initial_table(game, 0)
    t0 = time.process_time()
    table, _ = agent.selfplay_games(game, table, key(args.seed), args.games)
    print(f"training: {time.process_time() - t0:.1f} CPU s, {table.iterations} iterations, "
          f"last losses {table.losses}")  # fmt: skip
    good, total = optimal_share(game, agent, table)
    print(f"optimal greedy move: {good} of {total} positions, {interval(good, total)}")
    games = 100 if args.quick else 1000
    for seat in (0, 1):
        w, d, lost = against_perfect(game, agent, table, seat, games)
        print(f"against perfect as {('first', 'second')[seat]}: W/D/L {w}/{d}/{lost}, "
              f"loss rate {interval(lost, games)}")  # fmt: skip
    throughput(game, agent, table)
    print(f"load at the end {os.getloadavg()[0]:.2f}; {np.__name__} {np.__version__}")


if __name__ == "__main__":
    main()

"""PUCT and injected evaluators in the MCTS tree: their cost beside UCT, and the batched driver.

Run: ``PYTHONPATH=src python benchmarks/bench_puct.py [--reps N] [--sims N] [--trees N]``

1. Simulations per CPU second from the start position, side by side in one process (order
   alternated each repetition, median of N after a warm-up): plain UCT (``mcts`` defaults), UCT
   with the rollout evaluator injected (the same playouts, each leaf yielded to the driver and
   evaluated through the ``Evaluator`` interface), PUCT with the same rollout evaluator, and
   PUCT without an evaluator (uniform priors, the playout in the loop). Ratios to plain UCT.
2. The batched driver: ``search_many`` of ``--trees`` searches at ``--sims`` simulations with a
   trivial evaluator (uniform priors, value 0: nothing but the search and the driver) against
   the same searches one at a time (``MCTS.search``, one evaluator call per leaf, every tree kept
   until the last is searched), from seeded openings of 4 random plies; CPU time of each, their
   ratio, and the evaluator calls of each.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import purestate
from purestate.agents.mcts import MCTS, Evaluation, Tree, rollout_evaluator, search_many
from purestate.core import keys
from purestate.core.keys import Key

GAMES = ("tictactoe", "connect_four")


def rates(name: str, sims: int, reps: int) -> dict[str, float]:
    """Median simulations per CPU second of each variant on ``name`` from the start."""
    game = purestate.make(name)
    rollout = rollout_evaluator("auto")
    variants = {
        "uct": MCTS(simulations=sims),
        "uct+rollout evaluator": MCTS(simulations=sims, evaluator=rollout),
        "puct+rollout evaluator": MCTS(simulations=sims, select="puct", evaluator=rollout),
        "puct (playout in loop)": MCTS(simulations=sims, select="puct"),
    }
    got: dict[str, list[float]] = {v: [] for v in variants}
    names = list(variants)
    for rep in range(reps + 1):
        order = names if rep % 2 else names[::-1]
        for v in order:
            t = time.process_time()
            tree = variants[v].search(game, Tree(), game.initial(), keys.key(rep))
            dt = time.process_time() - t
            if rep:
                got[v].append(tree.simulations / dt)
    return {v: statistics.median(r) for v, r in got.items()}


def openings(name: str, count: int) -> list[Any]:
    """``count`` positions after 4 seeded random plies (fewer where a game ended)."""
    game = purestate.make(name)
    out = []
    for i in range(count):
        k = keys.key(900 + i)
        s = game.initial()
        for ply in range(4):
            if game.is_over(s):
                break
            s = game.step(s, keys.choice(keys.fold_in(k, ply), game.legal(s)))
        if game.is_over(s):
            s = game.initial()
        out.append(s)
    return out


def trivial_counting(calls: list[int]) -> Callable[..., list[Evaluation]]:
    def evaluate(game: Any, states: Sequence[Any], leaf_keys: Sequence[Key]) -> list[Evaluation]:
        calls.append(len(states))
        out: list[Evaluation] = []
        for s in states:
            n = len(game.legal(s))
            out.append(((1.0 / n,) * n, 0.0))
        return out

    return evaluate


def batched(name: str, sims: int, trees: int, reps: int) -> tuple[float, float, int, int]:
    """Median CPU seconds of search_many and of one-at-a-time searches, and their call counts."""
    game = purestate.make(name)
    states = openings(name, trees)
    ks = [keys.key(i) for i in range(trees)]
    many_calls: list[int] = []
    one_calls: list[int] = []
    many_eval = trivial_counting(many_calls)
    one_eval = trivial_counting(one_calls)
    agent = MCTS(simulations=sims, select="puct")
    alone = MCTS(simulations=sims, select="puct", evaluator=one_eval)
    t_many: list[float] = []
    t_one: list[float] = []
    for rep in range(reps + 1):
        many_calls.clear()
        one_calls.clear()
        for which in ("many", "one") if rep % 2 else ("one", "many"):
            t = time.process_time()
            if which == "many":
                search_many(agent, game, [Tree()] * trees, states, ks, many_eval)
            else:
                # every tree kept until all are searched, as search_many and self-play keep them
                # (dropping each at once would spare the garbage collector 63 live trees)
                kept = [alone.search(game, Tree(), s, k) for s, k in zip(states, ks, strict=True)]
                del kept
            dt = time.process_time() - t
            if rep:
                (t_many if which == "many" else t_one).append(dt)
    return statistics.median(t_many), statistics.median(t_one), len(many_calls), len(one_calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--sims", type=int, default=1000, help="simulations for the rates")
    parser.add_argument("--batch-sims", type=int, default=100)
    parser.add_argument("--trees", type=int, default=64)
    args = parser.parse_args()
    print(
        f"simulations per CPU second from the start, {args.sims} simulations, median of {args.reps}"
    )
    for name in GAMES:
        r = rates(name, args.sims, args.reps)
        base = r["uct"]
        for v, rate in r.items():
            print(f"  {name:14} {v:24} {rate:9.0f}  {rate / base:5.2f}x uct")
    print(f"search_many of {args.trees} trees at {args.batch_sims} simulations, trivial evaluator")
    for name in ("connect_four", "ultimate_tictactoe"):
        many, one, many_calls, one_calls = batched(name, args.batch_sims, args.trees, args.reps)
        print(
            f"  {name:18} search_many {many:6.3f} s ({many_calls} calls)  one at a time "
            f"{one:6.3f} s ({one_calls} calls)  ratio {many / one:5.3f}"
        )


if __name__ == "__main__":
    main()

"""Tic-tac-toe speed: random playouts and solving, purestate beside OpenSpiel.

Run: ``PYTHONPATH=src python benchmarks/bench_tictactoe.py [--seconds 2] [--repeats 5]``

1. Random playouts through the public immutable API (``game.legal``, ``game.step``,
   ``game.is_over`` with a local ``random.Random``) against pyspiel ``tic_tac_toe`` with a
   ``clone()`` before every ``apply_action`` (the immutable style), in the same loop shape.
2. Solving: ``solve_exhaustive`` (a fresh solve each time) against pyspiel's
   ``minimax.alpha_beta_search`` from the empty board.
3. The rules and perfect agents' ``act`` cost, and whole games through ``purestate.play``.

CPU time (``time.process_time``), median of several repetitions. OpenSpiel is optional: without
it only our figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import purestate
from purestate.core.keys import fold_in, key
from purestate.solve.minimax import solve_exhaustive

try:
    import pyspiel
except ImportError:  # pragma: no cover - optional peer
    pyspiel = None

BATCH = 200  # games between clock readings


def rate(run_batch: Callable[[], int], seconds: float) -> float:
    """Games per CPU second of ``run_batch`` (which plays a batch and returns its size)."""
    n = 0
    t0 = time.process_time()
    while True:
        n += run_batch()
        dt = time.process_time() - t0
        if dt >= seconds:
            return n / dt


def ours_batch(name: str = "tictactoe") -> Callable[[], int]:
    """Random games through the public immutable API of the game ``name``."""
    game = purestate.make(name)
    legal, step, is_over, initial = game.legal, game.step, game.is_over, game.initial
    choice = random.Random(0).choice

    def run() -> int:
        for _ in range(BATCH):
            s = initial()
            while not is_over(s):
                s = step(s, choice(legal(s)))
        return BATCH

    return run


def pyspiel_batch(name: str = "tic_tac_toe", clone: bool = True) -> Callable[[], int]:
    """Random games of pyspiel's ``name``: with a clone per step (as immutable states cost), or
    in place on one state."""
    game = pyspiel.load_game(name)
    choice = random.Random(0).choice

    def run() -> int:
        for _ in range(BATCH):
            s = game.new_initial_state()
            while not s.is_terminal():
                if clone:
                    s = s.clone()
                s.apply_action(choice(s.legal_actions()))
        return BATCH

    return run


def median_rate(make: Callable[[], Callable[[], int]], seconds: float, repeats: int) -> float:
    return statistics.median(rate(make(), seconds) for _ in range(repeats))


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def act_cost(spec: str, states: list[Any]) -> float:
    """Microseconds per ``act`` over a list of positions (after one warm-up pass)."""
    game = purestate.make("tictactoe")
    agent = purestate.agent(spec)
    keys = [fold_in(key(1), i) for i in range(len(states))]
    for s, k in zip(states, keys, strict=True):
        agent.act(game, None, s, k)
    t0 = time.process_time()
    for _ in range(5):
        for s, k in zip(states, keys, strict=True):
            agent.act(game, None, s, k)
    return (time.process_time() - t0) / (5 * len(states)) * 1e6


def play_rate(x: str, o: str, seconds: float) -> float:
    game = purestate.make("tictactoe")
    agents = (purestate.agent(x), purestate.agent(o))
    root = key(0)
    count = [0]

    def run() -> int:
        base = count[0]
        for i in range(BATCH):
            purestate.play(game, agents, (None, None), fold_in(root, base + i))
        count[0] += BATCH
        return BATCH

    return rate(run, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    print(f"random playouts: median of {args.repeats} x {args.seconds:g} s CPU")
    ours = median_rate(ours_batch, args.seconds, args.repeats)
    print(f"  purestate (immutable API)       {ours:10,.0f} games/s")
    if pyspiel is not None:
        ref = median_rate(pyspiel_batch, args.seconds, args.repeats)
        print(f"  pyspiel (clone + apply_action)  {ref:10,.0f} games/s")
        print(f"  ratio purestate / pyspiel       {ours / ref:10.2f}x")
    else:
        print("  pyspiel not installed: peer skipped")

    game = purestate.make("tictactoe")
    t0 = time.process_time()
    solve_exhaustive(game)
    cold = time.process_time() - t0
    warm = median_time(lambda: solve_exhaustive(game), args.repeats)
    print("solving tic-tac-toe from the empty board")
    print(
        f"  purestate solve_exhaustive      {cold * 1e3:8.1f} ms first, {warm * 1e3:.1f} ms after"
    )
    if pyspiel is not None:
        from open_spiel.python.algorithms import minimax

        ref_game = pyspiel.load_game("tic_tac_toe")
        ab = median_time(
            lambda: minimax.alpha_beta_search(ref_game, maximizing_player_id=0),
            max(1, args.repeats // 2),
        )
        print(f"  pyspiel alpha_beta_search       {ab * 1e3:8.1f} ms")
        print(f"  ratio (their time / ours)       {ab / warm:8.1f}x")

    rng = random.Random(2)
    states = []
    for _ in range(2000):
        s = game.initial()
        while not game.is_over(s):
            states.append(s)
            s = game.step(s, rng.choice(game.legal(s)))
    print("agents: cost of one act (random positions) and whole games via purestate.play")
    for spec in ("random", "rules:p=0.7", "rules:p=1", "perfect", "perfect:tiebreak=fastest"):
        print(f"  act {spec:28s} {act_cost(spec, states):6.2f} us")
    for x, o in (("rules:p=0.7", "random"), ("perfect", "rules:p=0.7")):
        print(f"  play {x} vs {o}: {play_rate(x, o, args.seconds):10,.0f} games/s")


if __name__ == "__main__":
    main()

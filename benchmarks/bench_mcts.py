"""MCTS simulations per CPU second: ours vs OpenSpiel's Python ``MCTSBot``, side by side.

Run: ``PYTHONPATH=src python benchmarks/bench_mcts.py [--reps N] [--sims N]``

Peer: ``open_spiel.python.algorithms.mcts.MCTSBot(game, uct_c=2, max_simulations,
RandomRolloutEvaluator(1), solve=True)``; ours: ``mcts:simulations=N`` with its defaults (UCT
c=0.3 on [0, 1]; OpenSpiel's c=2 on [-1, 1] is our c=1; solver and decisive moves on; random
playouts through the game's own ``playout`` when it has one, else decisive playouts). One search
from the start position per repetition; the rate is the simulations actually run (both stop early
when the root is proven) divided by CPU time; median of N repetitions after one warm-up. UTTT is
measured when ``ultimate_tictactoe`` is registered. Note OpenSpiel's UTTT splits a free move into
"choose board" + "cell", so its simulations are a little shallower.
"""

from __future__ import annotations

import argparse
import statistics
import time

import purestate
from purestate.agents.mcts import MCTS, Tree
from purestate.core import keys

PEER_NAMES = {"tictactoe": "tic_tac_toe", "ultimate_tictactoe": "ultimate_tic_tac_toe"}


def ours(name: str, sims: int, reps: int) -> tuple[float, int]:
    game = purestate.make(name)
    agent = MCTS(simulations=sims)
    rates = []
    done = 0
    for rep in range(reps + 1):
        t = time.process_time()
        tree = agent.search(game, Tree(), game.initial(), keys.key(rep))
        dt = time.process_time() - t
        done = tree.simulations
        if rep:
            rates.append(tree.simulations / dt)
    return statistics.median(rates), done


def peer(name: str, sims: int, reps: int) -> tuple[float, int] | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game(PEER_NAMES[name])
    rates = []
    done = 0
    for rep in range(reps + 1):
        rs = np.random.RandomState(rep)
        bot = mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
        state = game.new_initial_state()
        t = time.process_time()
        root = bot.mcts_search(state)
        dt = time.process_time() - t
        done = root.explore_count
        if rep:
            rates.append(root.explore_count / dt)
    return statistics.median(rates), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--sims", type=int, default=1000)
    args = parser.parse_args()
    names = ["tictactoe"]
    if "ultimate_tictactoe" in purestate.games():
        names.append("ultimate_tictactoe")
    else:
        print("ultimate_tictactoe is not registered on this branch: skipped")
    print(f"{'game':20} {'ours sims/s':>12} {'pyspiel sims/s':>15} {'ratio':>7}")
    for name in names:
        rate, _ = ours(name, args.sims, args.reps)
        other = peer(name, args.sims, args.reps)
        if other is None:
            print(f"{name:20} {rate:12.0f}   (pyspiel not installed)")
            continue
        prate, _ = other
        print(f"{name:20} {rate:12.0f} {prate:15.0f} {rate / prate:6.1f}x")


if __name__ == "__main__":
    main()

"""A trained alphazero network against ``mcts`` at equal simulations, with and without playouts
mixed into its leaf values: where its strength comes from, and what equal time costs it.

Run: ``PYTHONPATH=src python benchmarks/alphazero_equal_simulations.py TABLE
[--game ultimate_tictactoe] [--simulations 1000] [--mcts-simulations N] [--mix 0.5]
[--leaves 1] [--expand-at 1] [--reuse true] [--games 20] [--seed 1]``

The searcher is the table's own greedy search (``Greedy``: PUCT with its ``c_puct``, no noise; the
compiled tree where the game has row kernels; with ``--reuse true`` it searches on from its
previous move's tree, as ``mcts`` does, which figures before run format 6 did not, and each move's
search draws from the same key, as ``Greedy`` plays) with the network of ``TABLE`` (a
``table.npz``; its agent is read from the file) as its evaluator, given the agent options ``mix``,
``leaves`` and ``expand_at``: each evaluated leaf's priors are the network's, and its value is
``(1 - mix) * network + mix * playout``, the playout one of ``mcts``'s own (``playout=auto``, from
the leaf's key; AlphaGo's mixed evaluation). ``--mix 0`` is the plain alphazero search;
``--expand-at T`` plays a leaf out until its ``T``-th visit (AlphaGo's expansion threshold).
The opponent is ``mcts`` with its defaults at ``--mcts-simulations`` (``--simulations`` unless
told), so the two sides search the same number of simulations and the comparison is of what a
simulation knows, not of its cost. Game ``i`` uses ``fold_in(key(seed), i)``; the network's
side moves first in the even games. Prints a JSON line per game and the W/D/L with its Wilson
interval.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, "src")

import purestate
from purestate.agents.alphazero import AlphaZero
from purestate.core.agent import Greedy
from purestate.core.keys import fold_in, key
from purestate.io import tables


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("table", type=Path)
    parser.add_argument("--game", default="ultimate_tictactoe")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--mcts-simulations", type=int, default=0)
    parser.add_argument("--mix", type=float, default=0.5)
    parser.add_argument("--leaves", type=int, default=1)
    parser.add_argument("--expand-at", type=int, default=1)
    parser.add_argument("--reuse", choices=("true", "false"), default="true")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = purestate.make(args.game)
    learner, loaded = tables.load_table_agent(args.table, game)
    assert isinstance(learner, AlphaZero), f"{args.table} is not an alphazero table"
    # the table's own greedy search (its c_puct, no noise), at this count of simulations
    searcher = attrs.evolve(learner, simulations=args.simulations, seconds=0.0,
                            leaves=args.leaves, mix=args.mix, expand_at=args.expand_at,
                            reuse=args.reuse == "true")  # fmt: skip
    ours = Greedy(searcher)
    theirs = purestate.agent(f"mcts:simulations={args.mcts_simulations or args.simulations}")
    w = d = losses = 0
    t0 = time.process_time()
    for i in range(args.games):
        first = i % 2 == 0
        agents: tuple[Any, Any] = (ours, theirs) if first else (theirs, ours)
        tabled = (loaded.table, None) if first else (None, loaded.table)
        ep = purestate.play(game, agents, tabled, fold_in(key(args.seed), i))
        r = ep.returns[0 if first else 1]
        w, d, losses = w + (r > 0), d + (r == 0), losses + (r < 0)
        print(json.dumps({"game": i, "first": first, "result": r, "wdl": [w, d, losses],
                          "cpu": round(time.process_time() - t0, 1)}), flush=True)  # fmt: skip
    low, high = purestate.wilson(w, args.games)
    print(f"{ours.spec} against {theirs.spec}: W/D/L {w}/{d}/{losses}, wins {w / args.games:.1%} "
          f"[{low:.1%}, {high:.1%}], score {(w + d / 2) / args.games:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()

"""alphazero with ``leaves=K`` against ``leaves=1``, the same table, equal CPU time a move.

Run: ``PYTHONPATH=src python benchmarks/alphazero_leaves_match.py TABLE [--game connect_four]
[--spec alphazero:width=32,replay=60000] [--leaves 8] [--seconds 0.1] [--games 100]``

Both sides play greedily from the same saved table (``TABLE``, a ``table.npz`` whose network
``--spec`` describes), each move searched for ``--seconds`` of the moving thread's CPU time (the
clock the commands attach). Greedy play from the start would repeat one game, so game ``2i`` and
``2i + 1`` start from the same opening of 4 random plies (``fold_in(key(77), i)``), seats
swapped. Prints a JSON line per game and the W/D/L of ``leaves=K`` with its Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, "src")

import purestate
from purestate.agents.timing import with_clock
from purestate.core.agent import Greedy
from purestate.core.keys import fold_in, key
from purestate.io import tables

OPENING = 4
"""Random plies before the greedy players take over."""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("table", type=Path)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--spec", default="alphazero:width=32,replay=60000")
    parser.add_argument("--leaves", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    game = purestate.make(args.game)
    timed = f"{args.spec},simulations=0,seconds={args.seconds}"
    many = with_clock(purestate.agent(f"{timed},leaves={args.leaves}"), time.thread_time)
    one = with_clock(purestate.agent(timed), time.thread_time)
    table = tables.load_table(args.table, game, one).table
    rnd = purestate.agent("random")
    w = d = losses = 0
    for i in range(args.games):
        first = i % 2 == 0  # leaves=K moves first in the even games
        agents = (Greedy(many), Greedy(one)) if first else (Greedy(one), Greedy(many))
        opening = purestate.play(game, (rnd, rnd), (None, None), fold_in(key(77), i // 2))
        start = opening.states[min(OPENING, len(opening.states) - 2)]
        ep = purestate.play(game, agents, (table, table), fold_in(key(31), i), start)
        r = ep.returns[0 if first else 1]
        w, d, losses = w + (r > 0), d + (r == 0), losses + (r < 0)
        print(json.dumps({"game": i, "first": first, "result": r, "wdl": [w, d, losses]}),
              flush=True)  # fmt: skip
    low, high = purestate.wilson(w, args.games)
    print(f"leaves={args.leaves} against leaves=1 at {args.seconds} CPU s a move: W/D/L "
          f"{w}/{d}/{losses}, wins {w / args.games:.1%} [{low:.1%}, {high:.1%}], "
          f"score {(w + d / 2) / args.games:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()

"""A trained alphazero network against ``mcts`` at equal simulations, with and without playouts
mixed into its leaf values: where its strength comes from, and what equal time costs it.

Run: ``PYTHONPATH=src python benchmarks/alphazero_equal_simulations.py TABLE
[--game ultimate_tictactoe] [--simulations 1000] [--mcts-simulations N] [--mix 0.5]
[--leaves 1] [--games 20] [--seed 1]``

The searcher is the table's own greedy search (``AlphaZero.searcher``: PUCT with its
``c_puct``, no noise; the compiled tree where the game has row kernels) with the network of
``TABLE`` (a ``table.npz``; its agent is read from the file) as
its evaluator: each leaf's priors are the network's, and its value is
``(1 - mix) * network + mix * playout``, the playout one of ``mcts``'s own (``playout=auto``,
from the leaf's key; AlphaGo's mixed evaluation). ``--mix 0`` is the plain alphazero search.
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, "src")

import purestate
from purestate.agents.alphazero import AlphaZero
from purestate.agents.alphazero.network import ALONE, CHUNK
from purestate.agents.mcts import MCTS, Evaluation, Tree, best_child, rollout_evaluator, search_many
from purestate.core.agent import Decision
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in, key
from purestate.io import tables


class Mixed:
    """A PUCT search whose leaves take the network's priors and a mixed value (see above)."""

    learns = False

    def __init__(self, net: Any, mix: float, search: MCTS) -> None:
        self.net, self.mix, self.search = net, mix, search
        self.playouts = rollout_evaluator("auto")
        self.spec = (
            f"network+playouts:mix={mix},simulations={search.simulations},leaves={search.leaves}"
        )

    def evaluate(self, game: Game[Any, Any], states: Sequence[Any], ks: Sequence[Key]) -> Any:
        """The network's priors; its value mixed with a playout's."""
        found = self.net(game, states, ks)
        if not self.mix:
            return found
        rolled = self.playouts(game, states, ks)
        mixed: list[Evaluation] = [
            (priors, (1.0 - self.mix) * v + self.mix * z)
            for (priors, v), (_, z) in zip(found, rolled, strict=True)
        ]
        return mixed

    def initial_table(self, game: Game[Any, Any], seat: int) -> None:
        """No table: the network is the search's evaluator."""
        return None

    def act(self, game: Game[Any, Any], table: Any, state: Any, k: Key) -> Decision[Any]:
        """The search's best move from ``state``."""
        tree = search_many(self.search, game, [Tree()], [state], [k], self.evaluate)[0]
        assert tree.root is not None
        return Decision(best_child(tree.root).move)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("table", type=Path)
    parser.add_argument("--game", default="ultimate_tictactoe")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--mcts-simulations", type=int, default=0)
    parser.add_argument("--mix", type=float, default=0.5)
    parser.add_argument("--leaves", type=int, default=1)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = purestate.make(args.game)
    learner, loaded = tables.load_table_agent(args.table, game)
    assert isinstance(learner, AlphaZero), f"{args.table} is not an alphazero table"
    net = learner.evaluator(loaded.table, ALONE if args.leaves == 1 else CHUNK)
    # the table's own greedy search (its c_puct, no noise), at this count of simulations
    search = attrs.evolve(learner.searcher(False, args.leaves), simulations=args.simulations)
    ours = Mixed(net, args.mix, search)
    theirs = purestate.agent(f"mcts:simulations={args.mcts_simulations or args.simulations}")
    w = d = losses = 0
    t0 = time.process_time()
    for i in range(args.games):
        first = i % 2 == 0
        agents: tuple[Any, Any] = (ours, theirs) if first else (theirs, ours)
        ep = purestate.play(game, agents, (None, None), fold_in(key(args.seed), i))
        r = ep.returns[0 if first else 1]
        w, d, losses = w + (r > 0), d + (r == 0), losses + (r < 0)
        print(json.dumps({"game": i, "first": first, "result": r, "wdl": [w, d, losses],
                          "cpu": round(time.process_time() - t0, 1)}), flush=True)  # fmt: skip
    low, high = purestate.wilson(w, args.games)
    print(f"{ours.spec} against {theirs.spec}: W/D/L {w}/{d}/{losses}, wins {w / args.games:.1%} "
          f"[{low:.1%}, {high:.1%}], score {(w + d / 2) / args.games:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()

"""Connect four speed: random playouts and the end-game solver, purestate beside OpenSpiel.

Run: ``PYTHONPATH=src python benchmarks/bench_connect_four.py [--seconds 2] [--repeats 5]``

1. Random playouts through the public immutable API (``game.legal``, ``game.step``,
   ``game.is_over`` with a local ``random.Random``) against pyspiel ``connect_four`` with a
   ``clone()`` before every ``apply_action``, in the same loop shape.
2. The ``playout`` hook (a whole random game on local ints from a key, as MCTS rollouts call it)
   against pyspiel playing in place (one state, ``apply_action`` until the end, one shared
   ``random.Random``). Until issue 24 the hook's contract seeded a fresh ``random.Random`` from
   each key (``keys.generator``); that seeding's cost, which the counter stream (and the
   compiled kernel, where numba is) no longer pays, is printed beside it.
3. The ``decisive_playout`` hook (a random game in which a player who can win at once does; with
   ``anti``, also avoiding a move that lets the opponent win at once), as ``mcts``'s decisive and
   anti-decisive playouts call it, beside the generic playouts of ``agents.mcts`` stepping every
   move through the public API (what a game without the hook gets).
4. The solver (``purestate.solve.connect_four.score``) over a seeded sample of positions with
   at least 30 stones, each checked against the generic memoised minimax
   (``solve_exhaustive``, which knows nothing of connect four): median and worst time.

CPU time (``time.process_time``), median of several repetitions. OpenSpiel is optional: without
it only our figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

# the same loop shapes and clock as the tic-tac-toe figures (this folder is the script's path)
from bench_tictactoe import BATCH, median_rate, ours_batch, pyspiel_batch, rate
from purestate.agents.mcts import decisive_playout
from purestate.core import keys
from purestate.games.connect_four import ConnectFour, State
from purestate.solve.connect_four import ConnectFourSolution, score
from purestate.solve.minimax import solve_exhaustive

try:
    import pyspiel
except ImportError:  # pragma: no cover - optional peer
    pyspiel = None


def paired(
    ours: Callable[[], Callable[[], int]],
    theirs: Callable[[], Callable[[], int]],
    seconds: float,
    repeats: int,
) -> tuple[float, float, float]:
    """Both rates, measured turn about so that both see the same load of a shared machine: the
    median of each and the median of the per-turn ratios."""
    pairs = [(rate(ours(), seconds), rate(theirs(), seconds)) for _ in range(repeats)]
    return (
        statistics.median(a for a, _ in pairs),
        statistics.median(b for _, b in pairs),
        statistics.median(a / b for a, b in pairs),
    )


ours_steps = partial(ours_batch, "connect_four")
pyspiel_clones = partial(pyspiel_batch, "connect_four")
pyspiel_in_place = partial(pyspiel_batch, "connect_four", clone=False)


def keyed(run_one: Callable[[keys.Key], object]) -> Callable[[], Callable[[], int]]:
    """A batch maker calling ``run_one`` with the keys 0, 1, 2, ... of one root."""

    def make() -> Callable[[], int]:
        root, count = keys.key(0), [0]

        def run() -> int:
            base = count[0]
            for i in range(BATCH):
                run_one(keys.fold_in(root, base + i))
            count[0] += BATCH
            return BATCH

        return run

    return make


GAME = ConnectFour()
START = GAME.initial()
ours_playouts = keyed(lambda k: GAME.playout(START, k))
# what the playout contract spends before its first move: a seeded generator
seeding_only = keyed(keys.generator)
ours_decisive = keyed(lambda k: GAME.decisive_playout(START, k))
ours_antidecisive = keyed(lambda k: GAME.decisive_playout(START, k, True))
stepped_decisive = keyed(lambda k: decisive_playout(GAME, START, keys.generator(k).random, False))
stepped_antidecisive = keyed(
    lambda k: decisive_playout(GAME, START, keys.generator(k).random, True)
)


def late_positions(game: ConnectFour, stones: int, n: int, seed: int) -> list[State]:
    """``n`` positions of seeded random games with ``stones`` stones, nobody having won."""
    rng, found = random.Random(seed), []
    while len(found) < n:
        s = game.initial()
        while not game.is_over(s) and (s.x | s.o).bit_count() < stones:
            s = game.step(s, rng.choice(game.legal(s)))
        if not game.is_over(s):
            found.append(s)
    return found


def agrees_with_minimax(game: ConnectFour, state: State) -> bool:
    """Whether the solver's value and plies to the end (its score, read back) are those of the
    generic memoised minimax, which knows nothing of connect four."""
    exact, ours = solve_exhaustive(game, state), ConnectFourSolution(game)
    return (ours.value(state), ours.distance(state)) == (
        exact.value(state),
        exact.distance(state),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--stones", type=int, default=30)
    args = parser.parse_args()
    peer = pyspiel is not None

    print(f"random playouts on 7x6: {args.repeats} x {args.seconds:g} s CPU each, peers in turn")
    seeding = median_rate(seeding_only, args.seconds, args.repeats)
    if peer:
        ours, ref, ratio = paired(ours_steps, pyspiel_clones, args.seconds, args.repeats)
        print(f"  purestate step loop (immutable API)   {ours:10,.0f} games/s")
        print(f"  pyspiel clone + apply_action          {ref:10,.0f} games/s")
        print(f"  ratio (goal >= 1.0)                   {ratio:10.2f}x")
        hook, ref, ratio = paired(ours_playouts, pyspiel_in_place, args.seconds, args.repeats)
        print(f"  purestate playout hook (from a key)   {hook:10,.0f} games/s")
        print(f"  pyspiel in place                      {ref:10,.0f} games/s")
        print(f"  ratio (goal >= 1.5)                   {ratio:10.2f}x")
    else:
        ours = median_rate(ours_steps, args.seconds, args.repeats)
        hook = median_rate(ours_playouts, args.seconds, args.repeats)
        print(f"  purestate step loop (immutable API)   {ours:10,.0f} games/s")
        print(f"  purestate playout hook (from a key)   {hook:10,.0f} games/s")
        print("  pyspiel not installed: peer skipped")
    print(
        f"  seeding keys.generator (before #24)   {1e6 / seeding:10.1f} us; the hook's game "
        f"now {1e6 / hook:.1f} us"
    )
    print("decisive playouts on 7x6 (the hook beside the generic stepped ones)")
    for label, fast, slow in (
        ("decisive", ours_decisive, stepped_decisive),
        ("anti-decisive", ours_antidecisive, stepped_antidecisive),
    ):
        hook, stepped, ratio = paired(fast, slow, args.seconds, args.repeats)
        print(f"  {label + ' hook':<37} {hook:10,.0f} games/s  ({1e6 / hook:.1f} us a game)")
        print(f"  {label + ' stepped (agents.mcts)':<37} {stepped:10,.0f} games/s")
        print(f"  {'ratio':<37} {ratio:10.2f}x")

    game = ConnectFour()
    positions = late_positions(game, args.stones, args.positions, seed=2026)
    times, agree = [], 0
    for s in positions:
        score.cache_clear()
        t0 = time.process_time()
        got = score(game, s)
        times.append(time.process_time() - t0)
        agree += agrees_with_minimax(game, s) and got == score(game, s)
    print(f"solver: {len(positions)} seeded positions with {args.stones}+ stones")
    print(f"  agree with plain minimax              {agree:10d} / {len(positions)}")
    print(f"  median time                           {statistics.median(times) * 1e3:10.2f} ms")
    print(f"  worst time                            {max(times) * 1e3:10.2f} ms")
    wins = sum(1 for s in positions if score(game, s) != 0)
    print(f"  decided (not drawn)                   {wins:10d}")


if __name__ == "__main__":
    main()

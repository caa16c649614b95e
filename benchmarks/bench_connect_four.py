"""Connect four speed: random playouts and the end-game solver, purestate beside OpenSpiel.

Run: ``PYTHONPATH=src python benchmarks/bench_connect_four.py [--seconds 2] [--repeats 5]``

1. Random playouts through the public immutable API (``game.legal``, ``game.step``,
   ``game.is_over`` with a local ``random.Random``) against pyspiel ``connect_four`` with a
   ``clone()`` before every ``apply_action``, in the same loop shape.
2. The ``playout`` hook (a whole random game on local ints from a key, as MCTS rollouts call it)
   against pyspiel playing in place (one state, ``apply_action`` until the end, one shared
   ``random.Random``). The hook's contract seeds a fresh ``random.Random`` from each key
   (``keys.generator``); that seeding's own cost is printed beside it.
3. The solver (``purestate.solve.connect_four.score``) over a seeded sample of positions with
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

import purestate
from purestate.core import keys
from purestate.games.connect_four import ConnectFour, State
from purestate.solve.connect_four import empty_cells, plies_to_end, score
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


def median_rate(make: Callable[[], Callable[[], int]], seconds: float, repeats: int) -> float:
    return statistics.median(rate(make(), seconds) for _ in range(repeats))


def ours_steps() -> Callable[[], int]:
    game = purestate.make("connect_four")
    legal, step, is_over, initial = game.legal, game.step, game.is_over, game.initial
    choice = random.Random(0).choice

    def run() -> int:
        for _ in range(BATCH):
            s = initial()
            while not is_over(s):
                s = step(s, choice(legal(s)))
        return BATCH

    return run


def pyspiel_clones() -> Callable[[], int]:
    game = pyspiel.load_game("connect_four")
    choice = random.Random(0).choice

    def run() -> int:
        for _ in range(BATCH):
            s = game.new_initial_state()
            while not s.is_terminal():
                s = s.clone()
                s.apply_action(choice(s.legal_actions()))
        return BATCH

    return run


def ours_playouts() -> Callable[[], int]:
    game = purestate.make("connect_four")
    playout, start, root = game.playout, game.initial(), keys.key(0)
    count = [0]

    def run() -> int:
        base = count[0]
        for i in range(BATCH):
            playout(start, keys.fold_in(root, base + i))
        count[0] += BATCH
        return BATCH

    return run


def seeding_only() -> Callable[[], int]:
    """What the playout contract spends before its first move: a key and a seeded generator."""
    root = keys.key(0)
    count = [0]

    def run() -> int:
        base = count[0]
        for i in range(BATCH):
            keys.generator(keys.fold_in(root, base + i))
        count[0] += BATCH
        return BATCH

    return run


def pyspiel_in_place() -> Callable[[], int]:
    game = pyspiel.load_game("connect_four")
    choice = random.Random(0).choice

    def run() -> int:
        for _ in range(BATCH):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
        return BATCH

    return run


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


def independent_score(game: ConnectFour, state: State) -> tuple[int, int]:
    """The score and plies to the end from plain minimax (see tests/test_connect_four.py)."""
    sol = solve_exhaustive(game, state)
    value, plies = sol.value(state), sol.distance(state)
    if value == 0:
        return 0, plies
    s = (empty_cells(game, state) - plies + 2) // 2
    return (s if (value > 0) == (state.to_move == 0) else -s), plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--stones", type=int, default=30)
    args = parser.parse_args()
    peer = pyspiel is not None

    print(f"random playouts on 7x6: median of {args.repeats} x {args.seconds:g} s CPU")
    ours = median_rate(ours_steps, args.seconds, args.repeats)
    print(f"  purestate step loop (immutable API)   {ours:10,.0f} games/s")
    if peer:
        ref = median_rate(pyspiel_clones, args.seconds, args.repeats)
        print(f"  pyspiel clone + apply_action          {ref:10,.0f} games/s")
        print(f"  ratio (goal >= 1.0)                   {ours / ref:10.2f}x")
    hook = median_rate(ours_playouts, args.seconds, args.repeats)
    seeding = median_rate(seeding_only, args.seconds, args.repeats)
    print(f"  purestate playout hook (from a key)   {hook:10,.0f} games/s")
    print(
        f"    of which seeding keys.generator     {1e6 / seeding:10.1f} us a game "
        f"(the moves: {1e6 / hook - 1e6 / seeding:.1f} us)"
    )
    if peer:
        ref = median_rate(pyspiel_in_place, args.seconds, args.repeats)
        print(f"  pyspiel in place                      {ref:10,.0f} games/s")
        print(f"  ratio (goal >= 1.5)                   {hook / ref:10.2f}x")
        moves_only = 1e6 / (1e6 / hook - 1e6 / seeding)
        print(f"  ratio without the seeding             {moves_only / ref:10.2f}x")
    else:
        print("  pyspiel not installed: peer skipped")

    game = ConnectFour()
    positions = late_positions(game, args.stones, args.positions, seed=2026)
    times, agree = [], 0
    for s in positions:
        score.cache_clear()
        t0 = time.process_time()
        got = score(game, s)
        times.append(time.process_time() - t0)
        expected, plies = independent_score(game, s)
        agree += got == expected and plies_to_end(game, s, got) == plies
    print(f"solver: {len(positions)} seeded positions with {args.stones}+ stones")
    print(f"  agree with plain minimax              {agree:10d} / {len(positions)}")
    print(f"  median time                           {statistics.median(times) * 1e3:10.2f} ms")
    print(f"  worst time                            {max(times) * 1e3:10.2f} ms")
    wins = sum(1 for s in positions if score(game, s) != 0)
    print(f"  decided (not drawn)                   {wins:10d}")


if __name__ == "__main__":
    main()

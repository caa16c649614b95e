"""Random playouts per second: ultimate (and Xtreme) tic-tac-toe against OpenSpiel.

Run: ``PYTHONPATH=src python benchmarks/bench_ultimate.py [--games N] [--reps R]``

Measures CPU time (``time.process_time``), the median of R repetitions of N games each, for:

- OpenSpiel ``ultimate_tic_tac_toe`` (C++ through pyspiel), uniform random actions, a ``clone()``
  per step (what an immutable-state API costs there) and, for reference, in place;
- our public API: ``legal`` + ``step`` per ply, a new immutable state each ply;
- our ``playout`` kernel (what Monte Carlo search calls), random to the end on local ints;
- the same two for Xtreme tic-tac-toe (no peer exists).

OpenSpiel plays a free move as two actions ("choose board", then the cell), so its games have
more actions than ours have plies; games per second is the fair unit. Peers are skipped cleanly
when pyspiel is not installed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from purestate.core import keys
from purestate.games.ultimate import UltimateTicTacToe
from purestate.games.xtreme import XtremeTicTacToe


def _median_rate(run: Callable[[int], int], games: int, reps: int) -> tuple[float, float]:
    """Games/s and plies/s, each the median over ``reps`` runs of ``games`` games."""
    rates = []
    ply_rates = []
    for r in range(reps):
        t0 = time.process_time()
        plies = run(r)
        dt = time.process_time() - t0
        rates.append(games / dt)
        ply_rates.append(plies / dt)
    return statistics.median(rates), statistics.median(ply_rates)


def _api_loop(game: Any, games: int) -> Callable[[int], int]:
    def run(rep: int) -> int:
        plies = 0
        for i in range(games):
            rand = keys.generator(keys.key(rep * games + i)).random
            s = game.initial()
            moves = game.legal(s)
            while moves:
                s = game.step(s, moves[int(rand() * len(moves))])
                moves = game.legal(s)
                plies += 1
        return plies

    return run


def _playouts(game: Any, games: int) -> Callable[[int], int]:
    def run(rep: int) -> int:
        start = game.initial()
        for i in range(games):
            game.playout(start, keys.key(rep * games + i))
        return 0

    return run


def _openspiel(games: int, clone: bool) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    peer = pyspiel.load_game("ultimate_tic_tac_toe")

    def run(rep: int) -> int:
        rand = random.Random(rep).random
        actions = 0
        for _ in range(games):
            s = peer.new_initial_state()
            while not s.is_terminal():
                legal = s.legal_actions()
                a = legal[int(rand() * len(legal))]
                if clone:
                    s = s.clone()
                s.apply_action(a)
                actions += 1
        return actions

    return run


def main() -> None:
    """Measure and print the table and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (the median is shown)")
    args = parser.parse_args()
    n, reps = args.games, args.reps
    uttt = UltimateTicTacToe()
    xt = XtremeTicTacToe()
    rows: list[tuple[str, float, float]] = []

    def measure(name: str, run: Callable[[int], int] | None, games: int = n) -> float | None:
        if run is None:
            print(f"{name:<46} skipped (pyspiel not installed)")
            return None
        games_s, plies_s = _median_rate(run, games, reps)
        rows.append((name, games_s, plies_s))
        plies = f"{plies_s:>10,.0f} plies/s" if plies_s else ""
        print(f"{name:<46} {games_s:>9,.0f} games/s {plies}", flush=True)
        return games_s

    print(f"random games, CPU time, median of {reps} x {n} games")
    peer = measure("openspiel ultimate_tic_tac_toe, clone per step", _openspiel(n, True))
    peer_inplace = measure("openspiel ultimate_tic_tac_toe, in place", _openspiel(n, False))
    api = measure("purestate ultimate_tictactoe, legal + step", _api_loop(uttt, n))
    kernel = measure("purestate ultimate_tictactoe, playout", _playouts(uttt, n))
    measure("purestate xtreme_tictactoe, legal + step", _api_loop(xt, n // 2), n // 2)
    measure("purestate xtreme_tictactoe, playout", _playouts(xt, n // 2), n // 2)
    print()
    if peer is not None and api is not None and kernel is not None:
        print(f"ratio legal + step / openspiel clone per step: {api / peer:.2f}x")
        print(f"ratio playout      / openspiel clone per step: {kernel / peer:.2f}x")
        if peer_inplace is not None:
            print(f"ratio playout      / openspiel in place:       {kernel / peer_inplace:.2f}x")


if __name__ == "__main__":
    main()

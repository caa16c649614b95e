"""Alpha-beta solve times: ours vs OpenSpiel's ``minimax.alpha_beta_search``, side by side.

Run: ``PYTHONPATH=src python benchmarks/bench_alphabeta.py [--reps N]``

Each figure is the median CPU time (``time.process_time``) of N repetitions. Our first repetition
pays for tic-tac-toe's memo tables (each position's legal moves and children are computed once per
process), so the cold time is printed too. Dots and boxes 2x2 is measured when the game is
registered (another branch adds it).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import purestate
from purestate.agents.alphabeta import search


def timed(fn: Callable[[], Any], reps: int) -> tuple[float, float, Any]:
    """(cold time, median time, last result) in CPU seconds."""
    times = []
    result = None
    for _ in range(reps):
        t = time.process_time()
        result = fn()
        times.append(time.process_time() - t)
    return times[0], statistics.median(times), result


def ours(name: str, params: dict[str, Any], reps: int) -> tuple[float, float, float]:
    game = purestate.make(name, **params)
    cold, med, (value, _, stats) = timed(lambda: search(game, game.initial(), 0), reps)
    assert stats.proven
    # value for player 0 (the mover at the start)
    return cold, med, value


def peer(name: str, params: dict[str, Any], reps: int) -> tuple[float, float] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    _, med, (value, _) = timed(
        lambda: minimax.alpha_beta_search(game, maximizing_player_id=0), reps
    )
    return med, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    cases: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
        ("tictactoe", {}, "tic_tac_toe", {}),
    ]
    if "dots_and_boxes" in purestate.games():
        # win/loss returns like OpenSpiel's default, then margins like utility_margin=true
        cases.append(("dots_and_boxes", {"margin": False}, "dots_and_boxes", {}))
        cases.append(
            ("dots_and_boxes", {"margin": True}, "dots_and_boxes", {"utility_margin": True})
        )
    else:
        print("dots_and_boxes is not registered on this branch: skipped")
    print(
        f"{'game':26} {'ours cold':>10} {'ours':>10} {'value':>6} {'pyspiel':>10} {'value':>6} "
        f"{'ratio':>7} {'cold ratio':>10}"
    )
    for name, params, peer_name, peer_params in cases:
        label = name + "".join(f":{k}={v}" for k, v in params.items())
        cold, med, value = ours(name, params, args.reps)
        other = peer(peer_name, peer_params, max(1, args.reps if name == "tictactoe" else 3))
        if other is None:
            print(f"{label:26} {cold:10.4f} {med:10.4f} {value:6.1f}   (pyspiel not installed)")
            continue
        pmed, pvalue = other
        print(
            f"{label:26} {cold:10.4f} {med:10.4f} {value:6.1f} {pmed:10.4f} {pvalue:6.1f} "
            f"{pmed / med:6.1f}x {pmed / cold:9.2f}x"
        )


if __name__ == "__main__":
    main()

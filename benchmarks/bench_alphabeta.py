"""Alpha-beta solve times: the compiled search, the Python search and OpenSpiel's Python
``minimax.alpha_beta_search``, side by side in one process.

Run: ``PYTHONPATH=src python benchmarks/bench_alphabeta.py [--reps N] [--big]``

Each case is a full solve from the start position (``search(game, initial, 0)``, value for
player 0). Each round times the three in turn (CPU time, ``time.process_time``); the figures are
the medians over the rounds and the median of the per-round ratios. Before the rounds, the
compiled search's first call is timed alone: it compiles the kernel for the game, or loads it
from numba's cache (``first``), and the Python search's first call pays for the game's memo
tables (tic-tac-toe's 5,478 positions). Both of ours must return the same value, move and
statistics (the benchmark checks it). OpenSpiel 2.0.2 exposes no C++ alpha-beta to Python
(``pyspiel`` has no ``alpha_beta_search``; its C++ ``AlphaBetaSearch`` is not bound), so its
Python one is the peer; it has no transposition table. ``--big`` adds connect four 5×4 (621,363
nodes; no peer: OpenSpiel's search without a table takes minutes there).

Then searches with an evaluation (no peer: OpenSpiel has no such evaluation): ultimate
tic-tac-toe from the start with ``eval=uttt`` (its compiled twin on rows), depth 5 and 6, the
compiled search and the Python search in turn, the same checks.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import purestate
from purestate.agents.alphabeta import search
from purestate.core import registry


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(CPU seconds, result) of one call."""
    t = time.process_time()
    result = fn()
    return time.process_time() - t, result


def peer_solver(name: str, params: dict[str, Any]) -> Callable[[], float] | None:
    """OpenSpiel's Python alpha-beta solve of the game, or None without OpenSpiel."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)

    def solve() -> float:
        value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
        return float(value)

    return solve


CASES: list[tuple[str, dict[str, Any], str | None, dict[str, Any]]] = [
    ("tictactoe", {}, "tic_tac_toe", {}),
    # win/loss returns like OpenSpiel's default, then margins like utility_margin=true
    ("dots_and_boxes", {"margin": False}, "dots_and_boxes", {}),
    ("dots_and_boxes", {"margin": True}, "dots_and_boxes", {"utility_margin": True}),
    ("connect_four", {"columns": 4, "rows": 4, "connect": 3}, "connect_four",
     {"columns": 4, "rows": 4, "x_in_row": 3}),
    ("connect_four", {"columns": 4, "rows": 4, "connect": 4}, "connect_four",
     {"columns": 4, "rows": 4, "x_in_row": 4}),
    ("connect_four", {"columns": 5, "rows": 4, "connect": 3}, "connect_four",
     {"columns": 5, "rows": 4, "x_in_row": 3}),
]  # fmt: skip
BIG: list[tuple[str, dict[str, Any], str | None, dict[str, Any]]] = [
    ("connect_four", {"columns": 5, "rows": 4, "connect": 4}, None, {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5, help="rounds per case")
    parser.add_argument("--big", action="store_true", help="add connect four 5x4 (no peer)")
    args = parser.parse_args()
    print(
        f"{'game':40} {'nodes':>8} {'first':>7} {'compiled':>9} {'python':>8} {'pyspiel':>8} "
        f"{'py/comp':>8} {'spiel/comp':>10} {'spiel/py':>8} {'value':>6}"
    )
    for name, params, peer_name, peer_params in CASES + (BIG if args.big else []):
        label = name + "".join(f":{k}={v}" for k, v in params.items())
        game = purestate.make(name, **params)
        start = game.initial()

        def compiled(game: Any = game, start: Any = start) -> Any:
            return search(game, start, 0)

        def python(game: Any = game, start: Any = start) -> Any:
            return search(game, start, 0, compiled=False)

        first, found = cpu(compiled)
        _, expected = cpu(python)
        assert found == expected and found[2].proven, (found, expected)
        peer = peer_solver(peer_name, peer_params) if peer_name else None
        times: dict[str, list[float]] = {"compiled": [], "python": [], "pyspiel": []}
        peer_value = None
        for _ in range(args.reps):
            times["compiled"].append(cpu(compiled)[0])
            times["python"].append(cpu(python)[0])
            if peer is not None:
                t, peer_value = cpu(peer)
                times["pyspiel"].append(t)
        med = {k: statistics.median(v) for k, v in times.items() if v}
        pairs = zip(times["python"], times["compiled"], strict=True)
        py_ratio = statistics.median(p / c for p, c in pairs)
        spiel = "" if peer is None else f"{med['pyspiel']:8.4f}"
        spiel_ratios = ""
        if peer is not None:
            over_c = statistics.median(
                s / c for s, c in zip(times["pyspiel"], times["compiled"], strict=True)
            )
            over_p = statistics.median(
                s / p for s, p in zip(times["pyspiel"], times["python"], strict=True)
            )
            spiel_ratios = f"{over_c:9.1f}x {over_p:7.1f}x"
            assert peer_value == found[0], (peer_value, found[0])
        print(
            f"{label:40} {found[2].nodes:8d} {first:7.3f} {med['compiled']:9.4f} "
            f"{med['python']:8.4f} {spiel:>8} {py_ratio:7.1f}x {spiel_ratios:>19} "
            f"{found[0]:6.1f}"
        )
    evaluated(max(1, args.reps // 2))


def evaluated(reps: int) -> None:
    """Ultimate tic-tac-toe from the start with ``eval=uttt``, compiled and in Python."""
    game = purestate.make("ultimate_tictactoe")
    start = game.initial()
    uttt = registry.evaluation("uttt")
    print(f"\n{'ultimate, eval=uttt':24} {'nodes':>8} {'compiled':>9} {'python':>8} {'py/comp':>8}")
    for depth in (5, 6):

        def compiled(depth: int = depth) -> Any:
            return search(game, start, depth, uttt)

        def python(depth: int = depth) -> Any:
            return search(game, start, depth, uttt, compiled=False)

        found, expected = compiled(), python()
        assert found == expected, (found, expected)
        times: dict[str, list[float]] = {"compiled": [], "python": []}
        for _ in range(reps):
            times["compiled"].append(cpu(compiled)[0])
            times["python"].append(cpu(python)[0])
        pairs = zip(times["python"], times["compiled"], strict=True)
        ratio = statistics.median(p / c for p, c in pairs)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(
            f"{'depth ' + str(depth):24} {found[2].nodes:8d} {med['compiled']:9.4f} "
            f"{med['python']:8.4f} {ratio:7.1f}x"
        )


if __name__ == "__main__":
    main()

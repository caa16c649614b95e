"""Tron: the strength grid of the Tron issue and the time per move of the depth-4 Voronoi bot.

    PYTHONPATH=src python benchmarks/bench_tron.py                 # everything, 100 games a cell
    PYTHONPATH=src python benchmarks/bench_tron.py --games 20 --only speed
    PYTHONPATH=src python benchmarks/bench_tron.py --jobs 2 --start mirror --out grid.json

Strength: for each 13×13 map and each pairing, ``--games`` games with the first player
alternating (game i: player (i mod 2) + 1 moves first), per-game keys ``fold_in(key(seed), i)``;
the first-named bot's win rate with a 95% Wilson interval, the first mover's wins, and the
issue's target. Results do not depend on ``--jobs``.

Speed: CPU time per move (``time.process_time``, median over positions from real games) of
``alphabeta:depth=4,eval=voronoi`` against the same alpha-beta with a plain recompute-everything
BFS Voronoi (Python lists and a deque per player per leaf, as the Tron project's write-up did), and
the evaluation alone. OpenSpiel has no Tron, so there is no peer to time.

Kernels (issue 24): the compiled path against the Python one, each side timed in turn every
round (CPU time of the process, ``time.process_time``, so numba's threads count too; the least of
each side over ``--reps`` rounds and their ratios): random playouts per second (the public step
loop ``core.batch.random_returns``, the pure kernel ``Tron.random_playout``, the row kernel
``playout0`` called from Python, ``playout0`` in a compiled loop as the compiled tree calls it,
and ``core.batch.playouts`` of all the keys in one call on numba's threads: set
``OMP_WAIT_POLICY=passive`` on a busy machine); MCTS simulations per second with
``playout=random`` and with the default ``auto`` (Tron's generic decisive playout, the row
kernel ``decisive0``), the Python tree against the compiled tree (``search_many(...,
compiled_tree=...)``), from each map's start and from a position some plies into a game
(``_later``); the first move of ``alphabeta:depth=4,eval=voronoi`` from the same positions and
every position of three of its games against ``tron_greedy`` (``search(..., compiled=...)``).
One call of each side first compiles the kernels or loads them from numba's cache.

    PYTHONPATH=src python benchmarks/bench_tron.py --only kernels --reps 7

Big: one whole game on an empty ``--side``×``--side`` map (default 200, the size limit) for each
of ``BIG_PAIRS``: plies, the CPU time of the game, and each bot's mean and worst CPU time per move
(``--only big``; too slow for the test suite).

    PYTHONPATH=src python benchmarks/bench_tron.py --only big --side 200

Clock: ``eval=chamber`` against ``eval=voronoi`` at equal CPU time per move (``--seconds``,
default 0.1; iterative deepening, ``time.thread_time`` injected as the command line does), on each
map from both kinds of start, ``--games`` per cell, pooled with its Wilson interval (``--only
clock``; not part of ``all``: 600 games at 0.1 s a move take hours of CPU). Timed games depend on
the machine's speed, so these figures are not reproducible game for game.

    PYTHONPATH=src python benchmarks/bench_tron.py --only clock --games 100 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import deque
from typing import Any

import numpy as np

from purestate.agents.alphabeta import search
from purestate.agents.mcts import MCTS, Tree, search_many
from purestate.core import compiled
from purestate.core.agent import Decision
from purestate.core.batch import key_range, random_returns
from purestate.core.batch import playouts as batch_playouts
from purestate.core.episode import play
from purestate.core.hooks import rows_of
from purestate.core.keys import Key, fold_in, key, split
from purestate.core.learning import wilson
from purestate.executors import LocalExecutor
from purestate.experiments import tron as series
from purestate.games.tron.maps import parse_map
from purestate.games.tron.rules import RUNNING, State, Tron
from purestate.heuristics.tron import HALF, chamber_eval, fill_length, linear, voronoi_eval

MAPS = ("empty_room", "center_block", "diagonal_blocks")
AB4 = "alphabeta:depth=4,eval=voronoi"
# (first bot, second bot, target description, target test on the first bot's win rate)
GRID: tuple[tuple[str, str, str], ...] = (
    (AB4, "tron_random", ">= 98%"),
    (AB4, "tron_wall", ">= 90% on 2 of 3 maps, >= 75% on all"),
    (AB4, "tron_greedy", ">= 85%"),
    (AB4, "alphabeta:depth=4,eval=space", "> 50%"),
    ("alphabeta:depth=4,eval=chamber", AB4, "> 55%"),
    ("alphabeta:depth=4,eval=linear", AB4, ">= 50%"),
)


def run_cell(setup: series.Setup, games: int, jobs: int) -> list[int | None]:
    """The winners of games 0..games-1 of a series (None = draw), on ``jobs`` processes."""
    results = LocalExecutor(jobs).run(series.game_task, [(setup, i) for i in range(games)])
    return [r.winner for r in results]


def strength(
    games: int, jobs: int, start: str, seed: int, only_map: str | None, cells: list[int]
) -> list[Any]:
    rows = []
    print(f"strength: {games} games per cell, start={start}, seed={seed}, first player alternating")
    print(f"{'map':16} {'bot A':32} {'bot B':32} {'A wins':>7} {'95% CI':>15} {'1st':>4} target")
    for name in MAPS:
        if only_map and name != only_map:
            continue
        for k, (a, b, target) in enumerate(GRID):
            if k not in cells:
                continue
            setup = series.Setup(name, "alternating", start, (a, b), None, seed)
            t0 = time.perf_counter()
            winners = run_cell(setup, games, jobs)
            wall = time.perf_counter() - t0
            wins = sum(w == 0 for w in winners)
            first = sum(w == i % 2 for i, w in enumerate(winners))
            low, high = wilson(wins, games)
            row = {
                "map": name,
                "a": a,
                "b": b,
                "start": start,
                "games": games,
                "a_wins": wins,
                "draws": sum(w is None for w in winners),
                "rate": wins / games,
                "ci95": [low, high],
                "first_mover_wins": first,
                "target": target,
                "seconds": wall,
            }
            rows.append(row)
            print(
                f"{name:16} {a:32} {b:32} {wins / games:7.1%} "
                f"{f'{low:.0%}-{high:.0%}':>15} {first:4d} {target}  ({wall:.0f}s)",
                flush=True,
            )
    return rows


# ---- the recompute-everything baseline --------------------------------------------------------


def _bfs(cells: list[list[bool]], start: tuple[int, int]) -> list[list[int]]:
    rows, cols = len(cells), len(cells[0])
    inf = rows * cols + 1
    dist = [[inf] * cols for _ in range(rows)]
    dist[start[0]][start[1]] = 0
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        d = dist[r][c] + 1
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cells[rr][cc] and dist[rr][cc] > d:
                dist[rr][cc] = d
                queue.append((rr, cc))
    return dist


def plain_voronoi(game: Any, state: State) -> float:
    """The same Voronoi value, recomputed from scratch with a grid of booleans and two BFSes."""
    if state.outcome != RUNNING:
        return 0.999 * game.returns(state)[0]
    m = game.board
    cells = [
        [not state.blocked >> (r * m.cols + c) & 1 for c in range(m.cols)] for r in range(m.rows)
    ]
    d0 = _bfs(cells, m.position(state.head0))
    d1 = _bfs(cells, m.position(state.head1))
    n0 = n1 = 0
    inf = m.rows * m.cols + 1
    for r in range(m.rows):
        for c in range(m.cols):
            a, b = d0[r][c], d1[r][c]
            if not cells[r][c] or (a == inf and b == inf):
                continue
            if a < b or (a == b and state.to_move == 0):
                n0 += 1
            else:
                n1 += 1
    return HALF * 0.98 * (n0 - n1) / (m.free.bit_count() + 1)


def _positions(per_map: int) -> list[tuple[Tron, State]]:
    out = []
    for name in MAPS:
        setup = series.Setup(name, "alternating", "mirror", (AB4, "tron_greedy"), None, 5)
        for i in range(per_map):
            game, ep = series.play_game(setup, i)
            out.extend((game, s) for s in ep.states[:-1][:40:4])
    return out


def _median_cpu(fn: Any, items: list[tuple[Tron, State]], reps: int) -> float:
    times = []
    for game, s in items:
        best = float("inf")
        for _ in range(reps):
            t0 = time.process_time()
            fn(game, s)
            best = min(best, time.process_time() - t0)
        times.append(best)
    return statistics.median(times)


def speed(per_map: int) -> dict[str, float]:
    items = _positions(per_map)
    print(f"speed: {len(items)} positions from depth-4 Voronoi games on {', '.join(MAPS)}")
    for game, s in items:  # the baseline computes the same value (connected positions)
        if not game.is_over(s) and abs(voronoi_eval(game, s)) < HALF:
            assert plain_voronoi(game, s) == voronoi_eval(game, s)
    ours_eval = _median_cpu(voronoi_eval, items, 20)
    plain_eval = _median_cpu(plain_voronoi, items, 5)
    # the Python search both: the bitboards against the plain BFS (``--only kernels`` times the
    # compiled search)
    ours_move = _median_cpu(lambda g, s: search(g, s, 4, voronoi_eval, compiled=False), items, 3)
    plain_move = _median_cpu(lambda g, s: search(g, s, 4, plain_voronoi), items, 1)
    print(f"  evaluation: bitboard Voronoi {ours_eval * 1e6:8.1f} us, plain BFS "
          f"{plain_eval * 1e6:8.1f} us, ratio {plain_eval / ours_eval:5.1f}x")  # fmt: skip
    print(f"  depth-4 move: bitboard {ours_move * 1e3:8.2f} ms, plain BFS "
          f"{plain_move * 1e3:8.2f} ms, ratio {plain_move / ours_move:5.1f}x (median)")  # fmt: skip
    # what the stronger evaluations cost on the same positions
    others = {"chamber": chamber_eval, "linear": linear}
    other_eval = {k: _median_cpu(ev, items, 5) for k, ev in others.items()}
    other_move = {
        k: _median_cpu(lambda g, s, ev=ev: search(g, s, 4, ev, compiled=False), items, 1)
        for k, ev in others.items()
    }
    for k in others:
        print(f"  {k:8} evaluation {other_eval[k] * 1e6:8.1f} us "
              f"({other_eval[k] / ours_eval:4.1f}x Voronoi), depth-4 move "
              f"{other_move[k] * 1e3:8.2f} ms ({other_move[k] / ours_move:4.1f}x)")  # fmt: skip
    print("  peer: OpenSpiel has no Tron; no peer to time")
    return {
        "eval_us": ours_eval * 1e6,
        "plain_eval_us": plain_eval * 1e6,
        "move_ms": ours_move * 1e3,
        "plain_move_ms": plain_move * 1e3,
        **{f"{k}_eval_us": v * 1e6 for k, v in other_eval.items()},
        **{f"{k}_move_ms": v * 1e3 for k, v in other_move.items()},
    }


# ---- the compiled path against the Python one (issue 24) -------------------------------------

KERNEL_GAMES = (
    "tron:map=small_room",
    "tron:map=empty_room",
    "tron:map=empty_room,rules=simultaneous",
    "tron:map=big_room",
)


def _game(spec: str) -> Tron:
    import purestate

    g = purestate.make_spec(spec)
    assert isinstance(g, Tron)
    return g


def _later(game: Tron, k: Key) -> State:
    """The position after random moves that do not crash, 20 or a fifth of the map's free cells
    if fewer (fewer if a player is trapped): a middle-game position to search from."""
    s = game.initial()
    for ply in range(min(20, game.topology.free_cells // 5)):
        safe = game.safe_moves(s)
        if not safe:
            break
        nxt = game.step(s, safe[fold_in(k, ply) % len(safe)])
        if game.is_over(nxt):
            break
        s = nxt
    return s


def _rounds(sides: dict[str, Any], reps: int) -> dict[str, float]:
    """The least CPU time of each side's call over ``reps`` rounds, the sides taking turns."""
    best = dict.fromkeys(sides, float("inf"))
    for _ in range(reps):
        for name, fn in sides.items():
            t0 = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t0)
    return best


def _loop(play0: Any, row: Any, ks: Any) -> float:
    total = 0.0
    for i in range(len(ks)):
        total += play0(row, ks[i])
    return total


def _in_a_loop(play0: Any, row: Any, ks: Any) -> float:
    """``playout0(row, k)`` for every key, in one compiled loop (compiled on first use)."""
    global _LOOP
    if _LOOP is None:
        import numba

        _LOOP = numba.njit(_loop)
    total: float = _LOOP(play0, row, ks)
    return total


_LOOP: Any = None


def _mcts_rates(out: dict[str, Any], agent: MCTS, k0: Key, reps: int) -> None:
    """MCTS simulations/s of ``agent`` on the Python tree and the compiled tree (the same trees)
    from the start and a later position of each kernel game, into ``out``."""
    sims = agent.simulations
    print(f"  MCTS simulations/s, mcts:simulations={sims},playout={agent.playout} (Python tree "
          "against compiled tree, the same trees):")  # fmt: skip
    for spec in KERNEL_GAMES:
        g = _game(spec)
        for label, s in (("start", g.initial()), ("later", _later(g, k0))):
            trees = {
                c: search_many(agent, g, [Tree()], [s], [k0], compiled_tree=c)[0]
                for c in (True, False)
            }
            # the same tree both (a position the solver proves early stops both early)
            done = trees[True].simulations
            assert trees[False].simulations == done > 0

            def tree(c: bool, g: Tron = g, s: State = s) -> None:
                search_many(agent, g, [Tree()], [s], [k0], compiled_tree=c)

            best = _rounds({"python": lambda: tree(False), "compiled": lambda: tree(True)}, reps)
            rate = {name: done / t for name, t in best.items()}
            out[f"mcts {agent.playout} {spec} {label}"] = rate
            ratio = best["python"] / best["compiled"]
            print(f"    {spec:42} {label:12} Python tree {rate['python']:9,.0f}  compiled "
                  f"{rate['compiled']:11,.0f}  ({ratio:5.1f}x)")  # fmt: skip


def kernels(reps: int) -> dict[str, Any]:
    """Playouts, MCTS simulations and a depth-4 Voronoi move, Python against compiled."""
    if compiled.kernels("tron") is None:
        print("kernels: numba is not installed (or NUMBA_DISABLE_JIT is set): nothing to compare")
        return {}
    out: dict[str, Any] = {}
    k0 = key(24)
    n = 20_000
    print(f"kernels: CPU time, the least of {reps} rounds per side, sides in turn; ratios of "
          "the least times")  # fmt: skip
    print(f"  random playouts/s ({n:,} from the start and {n:,} from a later position):")
    for spec in KERNEL_GAMES:
        g = _game(spec)
        rows = rows_of(g)
        assert rows is not None
        starts = (g.initial(), _later(g, k0))
        ks = [fold_in(k0, i) for i in range(n)]
        ints = [compiled.as_int64(k) for k in ks]
        row_list = [rows.row_of(s) for s in starts]
        # the same games on every path (and the kernels compiled before the clock runs)
        for s, row in zip(starts, row_list, strict=True):
            for k, i in zip(ks[:200], ints[:200], strict=True):
                assert random_returns(g, s, k) == g.random_playout(s, k)
                assert rows.playout0(row, i) == (g.random_playout(s, k)[0] + 1) / 2
        int_array = np.array(ints, np.int64)
        _in_a_loop(rows.playout0, row_list[0], int_array[:10])

        def public(g: Tron = g, starts: Any = starts, ks: list[Key] = ks) -> None:
            for s in starts:
                for k in ks:
                    random_returns(g, s, k)

        def pure(g: Tron = g, starts: Any = starts, ks: list[Key] = ks) -> None:
            for s in starts:
                for k in ks:
                    g.random_playout(s, k)

        def row_kernel(rows: Any = rows, row_list: Any = row_list, ints: list[int] = ints) -> None:
            play0 = rows.playout0
            for row in row_list:
                for i in ints:
                    play0(row, i)

        def in_a_loop(rows: Any = rows, row_list: Any = row_list, a: Any = int_array) -> None:
            for row in row_list:
                _in_a_loop(rows.playout0, row, a)

        key_array = key_range(k0, 0, n)
        assert np.array_equal(
            batch_playouts(g, starts[1:], key_array[:200]),
            np.array([g.random_playout(starts[1], Key(int(k))) for k in key_array[:200]]),
        )

        def batch(g: Tron = g, starts: Any = starts, a: Any = key_array) -> None:
            for s in starts:
                batch_playouts(g, [s], a)

        sides = {"public": public, "pure": pure, "playout0": row_kernel, "loop": in_a_loop}
        best = _rounds({**sides, "batch": batch}, reps)
        rate = {name: 2 * n / t for name, t in best.items()}
        out[f"playouts {spec}"] = rate
        ratio = {name: best["pure"] / t for name, t in best.items()}
        print(f"    {spec:42} step loop {rate['public']:9,.0f} ({ratio['public']:4.2f}x)  pure "
              f"{rate['pure']:9,.0f}  playout0 from Python {rate['playout0']:10,.0f} "
              f"({ratio['playout0']:4.1f}x)  in a compiled loop {rate['loop']:11,.0f} "
              f"({ratio['loop']:5.1f}x)  core.batch.playouts {rate['batch']:11,.0f} "
              f"({ratio['batch']:5.1f}x)")  # fmt: skip
    # random playouts, and the default (auto: the generic decisive playout, decisive0)
    for sims, playout in ((2000, "random"), (300, "auto")):
        _mcts_rates(out, MCTS(simulations=sims, playout=playout), k0, reps)
    print(f"  {AB4}, the first move (search(state, 4, voronoi_eval), the same search):")
    for spec in KERNEL_GAMES:
        g = _game(spec)
        for label, s in (("start", g.initial()), ("later", _later(g, k0))):
            found = [search(g, s, 4, voronoi_eval, compiled=c) for c in (True, False)]
            assert repr(found[0][0]) == repr(found[1][0]) and found[0][1:] == found[1][1:]

            def move(c: bool, g: Tron = g, s: State = s) -> None:
                search(g, s, 4, voronoi_eval, compiled=c)

            best = _rounds({"python": lambda: move(False), "compiled": lambda: move(True)}, reps)
            out[f"alphabeta {spec} {label}"] = {k: v * 1e3 for k, v in best.items()}
            print(f"    {spec:42} {label:12} {found[0][2].nodes:6d} nodes  Python "
                  f"{best['python'] * 1e3:8.2f} ms  compiled {best['compiled'] * 1e3:7.2f} ms  "
                  f"({best['python'] / best['compiled']:5.1f}x)")  # fmt: skip
    # whole games: every position of three games of the depth-4 Voronoi bot against
    # tron_greedy (the endgame's fill searches included), searched in order; the Python side
    # starts each round with fill_length's memo empty, as a new process does, and warms it as
    # a game does
    print(f"  {AB4}, every position of 3 games against tron_greedy, in order (CPU s):")
    for name in MAPS:
        setup = series.Setup(name, "alternating", "mirror", (AB4, "tron_greedy"), None, 5)
        positions = []
        for i in range(3):
            game, ep = series.play_game(setup, i)
            positions += [s for s in ep.states[:-1] if not game.is_over(s)]

        def replay(c: bool, g: Tron = game, positions: list[State] = positions) -> None:
            if not c:
                fill_length.cache_clear()
            for s in positions:
                search(g, s, 4, voronoi_eval, compiled=c)

        best = _rounds({"python": lambda: replay(False), "compiled": lambda: replay(True)}, reps)
        out[f"alphabeta game {name}"] = best
        ratio = best["python"] / best["compiled"]
        print(f"    {name:42} {len(positions):4d} positions  Python {best['python']:7.3f} s  "
              f"compiled {best['compiled']:7.3f} s  ({ratio:5.1f}x)")  # fmt: skip
    return out


# the default bots of ``purestate tron run`` (ta2 against random), and two longer games
BIG_PAIRS: tuple[tuple[str, str], ...] = (
    (AB4, "tron_random"),
    ("tron_greedy", "tron_wall"),
)


def empty_map_text(side: int) -> str:
    """An empty side×side room (border included), the players in opposite corners."""
    inner = [list("#" + " " * (side - 2) + "#") for _ in range(side - 2)]
    inner[0][1] = "1"
    inner[-1][-2] = "2"
    return "\n".join(["#" * side, *("".join(r) for r in inner), "#" * side]) + "\n"


class _Timed:
    """An agent that records the CPU time of each of its moves."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.times: list[float] = []

    def initial_table(self, game: Any, seat: int) -> Any:
        return self.agent.initial_table(game, seat)

    def act(self, game: Any, table: Any, state: Any, key: Any) -> Decision[Any]:
        t0 = time.process_time()
        d: Decision[Any] = self.agent.act(game, table, state, key)
        self.times.append(time.process_time() - t0)
        return d


def big(side: int, seed: int) -> list[dict[str, Any]]:
    m = parse_map(empty_map_text(side), f"empty{side}")
    print(f"big: one game per pair on an empty {side}×{side} map, seed {seed}, CPU seconds")
    rows = []
    for a, b in BIG_PAIRS:
        setup = series.Setup(m, "alternating", "map", (a, b), None, seed)
        t0 = time.process_time()
        game = series.make_game(setup, 0)
        agents = (_Timed(series.bot_agent(a, None)), _Timed(series.bot_agent(b, None)))
        tables = (agents[0].initial_table(game, 0), agents[1].initial_table(game, 1))
        _, play_key = split(series.game_key(setup, 0))
        ep = play(game, agents, tables, play_key)  # type: ignore[arg-type]
        total = time.process_time() - t0
        row: dict[str, Any] = {"side": side, "a": a, "b": b, "plies": len(ep.moves)}
        row["winner"] = None if ep.returns[0] == 0 else 1 if ep.returns[0] > 0 else 2
        row["game_s"] = total
        for name, ag in zip("ab", agents, strict=True):
            row[f"{name}_mean_move_s"] = statistics.fmean(ag.times) if ag.times else 0.0
            row[f"{name}_worst_move_s"] = max(ag.times, default=0.0)
        rows.append(row)
        print(f"  {a:32} {b:14} {row['plies']:6d} plies, winner {row['winner']}, game "
              f"{total:7.1f} s; per move: {a.split(':')[0]} mean {row['a_mean_move_s']:.2f} s "
              f"worst {row['a_worst_move_s']:.2f} s, {b} mean {row['b_mean_move_s']:.3f} s "
              f"worst {row['b_worst_move_s']:.2f} s", flush=True)  # fmt: skip
    return rows


def on_clock(games: int, jobs: int, seconds: float, seed: int, only_map: str | None) -> list[Any]:
    """Chamber against Voronoi at ``seconds`` of CPU per move, per map and start, then pooled."""
    a, b = (f"alphabeta:seconds={seconds:g},eval={e}" for e in ("chamber", "voronoi"))
    print(f"clock: {a} vs {b}, {games} games per cell, seed={seed}, first player alternating")
    rows: list[Any] = []
    for name in MAPS:
        if only_map and name != only_map:
            continue
        for start in ("map", "mirror"):
            setup = series.Setup(
                name, "alternating", start, (a, b), None, seed, clock=time.thread_time
            )
            winners = run_cell(setup, games, jobs)
            wins = sum(w == 0 for w in winners)
            low, high = wilson(wins, games)
            rows.append({"map": name, "start": start, "games": games, "a_wins": wins})
            print(f"{name:16} start={start:6} chamber {wins}/{games} = {wins / games:.1%} "
                  f"(95% CI {low:.0%}-{high:.0%})", flush=True)  # fmt: skip
    n = sum(r["games"] for r in rows)
    won = sum(r["a_wins"] for r in rows)
    if n:
        low, high = wilson(won, n)
        print(f"pooled: chamber {won}/{n} = {won / n:.1%} (95% CI {low:.1%}-{high:.1%}), "
              "target >= 70%")  # fmt: skip
    return rows


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--start", choices=("map", "mirror", "both"), default="both")
    p.add_argument("--seed", type=int, default=2020)
    p.add_argument(
        "--only", choices=("speed", "strength", "big", "clock", "kernels", "all"), default="all"
    )
    p.add_argument("--reps", type=int, default=5, help="rounds per side (kernels)")
    p.add_argument("--seconds", type=float, default=0.1, help="CPU seconds per move (clock)")
    p.add_argument("--side", type=int, default=200, help="the big map's side (big)")
    p.add_argument("--map", default=None, help="only this map (strength)")
    p.add_argument("--out", default=None, help="write the figures as JSON here")
    p.add_argument("--cells", default="", help="only these rows of the grid, e.g. 0,1,2 (0-5)")
    args = p.parse_args(argv)
    result: dict[str, Any] = {}
    if args.only in ("speed", "all"):
        result["speed"] = speed(2)
    if args.only in ("strength", "all"):
        starts = ("map", "mirror") if args.start == "both" else (args.start,)
        result["strength"] = []
        for st in starts:
            cells = (
                [int(c) for c in args.cells.split(",")] if args.cells else list(range(len(GRID)))
            )
            result["strength"] += strength(args.games, args.jobs, st, args.seed, args.map, cells)
    if args.only in ("kernels", "all"):
        result["kernels"] = kernels(args.reps)
    if args.only in ("big", "all"):
        result["big"] = big(args.side, args.seed)
    if args.only == "clock":
        result["clock"] = on_clock(args.games, args.jobs, args.seconds, args.seed, args.map)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])

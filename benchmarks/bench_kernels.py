"""The compiled playout kernels (issue 24) side by side with OpenSpiel, in one process, CPU time.

Run: ``PYTHONPATH=src python benchmarks/bench_kernels.py [--reps R] [--seconds S] [--only PART]``

Parts (``--only playouts|batch|compile|mcts|mcts-parts|mcts-tree|rows``; all by default):

- **playouts**: random games from the start, one call per game, for tic-tac-toe, connect four,
  ultimate tic-tac-toe and 3×3 dots and boxes: our compiled kernel, our pure Python kernel (the
  same games: the fallback without numba) and pyspiel's C++ game stepped in place from Python
  (``legal_actions`` + ``apply_action``, a ``random.Random`` choice; peers.md's loop). Games per
  CPU second, the median of R repetitions of S CPU-seconds each, and the ratio to pyspiel. Our
  games' keys are made before the clock starts (``KEYS``), as pyspiel's one generator is.
- **batch**: tic-tac-toe games per second through ``core.batch.playouts`` from the start, in
  batches of 8,192 up to 1,048,576 (numba's threads: as many as cores). Per CPU second and per
  wall second (the threads run at once, so wall is what a user waits).
- **compile**: the first call of every kernel in a new process, with an empty numba cache (cold)
  and again with the cache it left (warm), including numba's import.
- **mcts**: ``mcts:simulations=1000`` (defaults) searches per CPU second on ultimate
  tic-tac-toe (from the start and from a mid-game position, ``MIDGAME_PLIES`` random plies) and
  connect four (from the start), the playouts drawn three ways: ``draws=mersenne`` (the
  pure Python kernels as before this issue), ``draws=counter`` on the pure path, and
  ``draws=counter`` compiled, all three in the Python tree, and the compiled tree (today's
  default on a game with row kernels: ``core.hooks.Rows``, its nodes handed back as ``Node``
  objects), beside OpenSpiel's C++ ``MCTSBot`` (uct_c=2, one random rollout, solver on)
  searching the same position, the searches taking turns.
- **mcts-tree**: the compiled tree's hand-over on ultimate tic-tac-toe, microseconds per node
  of a 1,000-simulation tree: its ``Node`` objects into the kernel's arrays (what a reused subtree
  costs, node for node), the arrays back (the root's children made at once, the rest as read:
  ``RowNode``), then every node read and every state made from its row, beside the whole search
  (which includes its hand-over); and self-play games (both seats one tree, reused after every
  move) in CPU milliseconds per move, the compiled tree beside the Python tree.

- **mcts-parts**: where an ultimate search's time goes in the Python tree
  (``compiled_tree=False``), microseconds per simulation: each part of the work the search did
  (steps, ``legal``, ``ending_moves``, shuffles, nodes, playouts) redone alone, the rest being
  selection, backup and the loop.
- **rows**: the row kernels (``core.hooks.Rows``) of every game that has them: the first call
  of all their functions in a new process (cold numba cache, then warm), and one ``legal`` plus
  one ``step`` of a legal move per call over positions of random games, in nanoseconds: the
  pure ``game.legal``/``game.step``, the compiled functions called from Python, and the same
  called inside a compiled loop (where the compiled tree calls them), with the ratios of pure
  to compiled.

The machine may be shared: read the ratios, which come from one process.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import attrs

import purestate
from purestate.agents.mcts import MCTS, Tree, best_child, search_many
from purestate.core import batch, compiled, keys
from purestate.core.hooks import rows_of

GAMES = {
    "tictactoe": ("tic_tac_toe", {}),
    "connect_four": ("connect_four", {}),
    "ultimate_tictactoe": ("ultimate_tic_tac_toe", {}),
    "dots_and_boxes:rows=3,cols=3": ("dots_and_boxes", {"num_rows": 3, "num_cols": 3}),
}


def rates(
    runs: list[Callable[[int], int]], seconds: float, reps: int
) -> list[tuple[float, float, float]]:
    """Games per CPU second of each run: median, min, max of ``reps`` windows of about
    ``seconds`` each, the runs taking turns so that they see the same load."""
    for run in runs:
        run(10)  # warm: compiled code loaded, tables built
    found: list[list[float]] = [[] for _ in runs]
    for _ in range(reps):
        for run, out in zip(runs, found, strict=True):
            games = 0
            t0 = time.process_time()
            while (dt := time.process_time() - t0) < seconds:
                games += run(200)
            out.append(games / dt)
    return [(statistics.median(r), min(r), max(r)) for r in found]


KEYS = 1 << 16
"""Keys made before the clock starts, used in turn (a run makes them with ``key_range``, 70
million a second; ``fold_in`` one at a time costs 0.3-1 µs, a tic-tac-toe playout's worth)."""


def single_playouts(spec: str, pure: bool) -> Callable[[int], int]:
    game = purestate.make(spec)
    one: Any = getattr(game, "python_playout" if pure else "random_playout", None)
    if one is None:
        one = game.python_playout if pure else game.playout
    start = game.initial()
    made = [keys.Key(k) for k in batch.key_range(keys.key(1), 0, KEYS).tolist()]
    at = [0]

    def run(n: int) -> int:
        i = at[0]
        if i + n > KEYS:
            i = 0
        at[0] = i + n
        for k in made[i : i + n]:
            one(start, k)
        return n

    return run


def pyspiel_playouts(name: str, params: dict[str, int]) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    rnd = random.Random(0).random

    def run(n: int) -> int:
        for _ in range(n):
            s = game.new_initial_state()
            while not s.is_terminal():
                a = s.legal_actions()
                s.apply_action(a[int(rnd() * len(a))])
        return n

    return run


def part_playouts(reps: int, seconds: float) -> None:
    print(f"random playouts, one call per game, games per CPU second ({compiled.backend()})")
    print(f"{'game':30} {'compiled':>12} {'pure':>10} {'pyspiel':>10} {'c/pyspiel':>9}")
    for spec, (name, params) in GAMES.items():
        runs = [single_playouts(spec, pure=False), single_playouts(spec, pure=True)]
        peer_run = pyspiel_playouts(name, params)
        found = rates([*runs, peer_run] if peer_run else runs, seconds, reps)
        fast, slow = found[0], found[1]
        peer = found[2] if peer_run else (float("nan"),) * 3
        print(
            f"{spec:30} {fast[0]:12,.0f} {slow[0]:10,.0f} {peer[0]:10,.0f}"
            f" {fast[0] / peer[0]:8.1f}x"
            f"   (compiled {fast[1]:,.0f}-{fast[2]:,.0f}; pyspiel {peer[1]:,.0f}-{peer[2]:,.0f})"
        )


def part_batch(reps: int) -> None:
    game = purestate.make("tictactoe")
    start = [game.initial()]
    root = keys.key(2)
    batch.playouts(game, start, batch.key_range(root, 0, 64))  # compile or load
    print(f"\nbatched tic-tac-toe, games per second ({compiled.backend()})")
    for size in (8192, 65536, 1 << 20):
        cpu, wall = [], []
        for r in range(reps):
            ks = batch.key_range(root, r * size, size)
            c0, w0 = time.process_time(), time.perf_counter()
            out = batch.playouts(game, start, ks)
            cpu.append(size / (time.process_time() - c0))
            wall.append(size / (time.perf_counter() - w0))
        x_share = float((out[:, 0] > 0).mean())
        print(
            f"batch {size:>9,}: {statistics.median(cpu):12,.0f} per CPU s"
            f"  {statistics.median(wall):12,.0f} per wall s"
            f"  (wall {min(wall):,.0f}-{max(wall):,.0f}; X won {x_share:.3f})"
        )
    keys_cost = []
    for r in range(reps):
        c0 = time.process_time()
        batch.key_range(root, r << 20, 1 << 20)
        keys_cost.append((1 << 20) / (time.process_time() - c0))
    print(f"key_range alone: {statistics.median(keys_cost):,.0f} keys per CPU s")


_FIRST_CALLS = """
import time
t0 = time.perf_counter()
import numpy as np
import purestate
from purestate.agents.mcts import MCTS, Tree
from purestate.core import batch, compiled, keys
from purestate.core.hooks import rows_of
games = [purestate.make(s) for s in %r]
compiled.kernels("stream")
t1 = time.perf_counter()
parts = []
for g in games:
    one = getattr(g, "random_playout", None) or g.playout
    t = time.perf_counter()
    one(g.initial(), keys.key(0))
    if hasattr(g, "decisive_playout"):
        g.decisive_playout(g.initial(), keys.key(0), True)
    t2 = time.perf_counter()
    batch.playouts(g, [g.initial()], batch.key_range(keys.key(0), 0, 4))
    t3 = time.perf_counter()
    tree = ""
    if rows_of(g) is not None:  # the compiled MCTS tree's first search (never cached on disk)
        MCTS(simulations=10).search(g, Tree(), g.initial(), keys.key(0))
        tree = f"+tree {time.perf_counter() - t3:.2f}"
    parts.append(f"{g.spec.name} {t2 - t:.2f}+{t3 - t2:.2f}{tree}")
print(f"{t1 - t0:.2f} {time.perf_counter() - t1:.2f} {compiled.backend()}; " + ", ".join(parts))
"""


def part_compile() -> None:
    print(
        "\nfirst calls in a new process, wall seconds: imports (numba's too), then every kernel;"
        " per game: single (and decisive) + batch"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold cache", "warm cache"):
            code = _FIRST_CALLS % (list(GAMES),)
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout.split(maxsplit=2)
            print(f"{label:10}: imports {out[0]} s, first calls {out[1]} s ({out[2].strip()})")


def pure_playouts(game: Any) -> Any:
    """The same game, its playout hooks on the pure path (the fallback without numba)."""

    class Pure(type(game)):  # type: ignore[misc]
        def playout(self, state: Any, key: keys.Key, draws: keys.Draws = "counter") -> Any:
            return self.python_playout(state, key, draws)

    if hasattr(game, "decisive_playout"):
        Pure.decisive_playout = lambda self, state, key, anti=False, draws="counter": (
            self.python_decisive_playout(state, key, anti, draws)
        )
    return Pure(*(getattr(game, f.name) for f in attrs.fields(type(game)) if f.init))


MIDGAME_PLIES = 20
"""The mid-game position: this many plies of the random game of ``keys.key(20)``."""


def positions(game: Any, mid_game: bool = True) -> dict[str, tuple[Any, list[int]]]:
    """The start and (with ``mid_game``) the mid-game position: our state and pyspiel's actions
    to reach it.

    pyspiel's ultimate tic-tac-toe splits a free move into two actions (the board, then the
    cell); connect four's moves are its actions.
    """
    out: dict[str, tuple[Any, list[int]]] = {"start": (game.initial(), [])}
    if not mid_game:
        return out
    s, actions = game.initial(), []
    for ply in range(MIDGAME_PLIES):
        m = keys.choice(keys.fold_in(keys.key(20), ply), game.legal(s))
        if hasattr(s, "target"):  # ultimate: a move id is board * 9 + cell
            actions.extend([m // 9, m % 9] if s.target < 0 else [m % 9])
        else:
            actions.append(m)
        s = game.step(s, m)
    out["mid-game"] = (s, actions)
    return out


def part_mcts(reps: int) -> None:
    print("\nmcts:simulations=1000 (defaults), simulations per CPU second, beside OpenSpiel's C++")
    print("MCTSBot (uct_c=2, 1,000 simulations, one random rollout, solver on) searching the same")
    print("position, the searches taking turns; the ratio is the median of the per-round ratios")
    for spec, peer_name in (("ultimate_tictactoe", "ultimate_tic_tac_toe"),
                            ("connect_four", "connect_four")):  # fmt: skip
        game = purestate.make(spec)
        cases = (
            ("mersenne, pure (before)", MCTS(draws="mersenne"), game, False),
            ("counter, pure", MCTS(), pure_playouts(game), False),
            ("counter, compiled", MCTS(), game, False),
            ("compiled tree", MCTS(), game, True),
        )
        if rows_of(game) is None:  # no row kernels (yet): the Python tree runs anyway
            cases = cases[:-1]
        _compare(spec, peer_name, game, cases, reps, spec != "connect_four")
    # the games whose default playout is the generic decisive one (no kernel of their own):
    # format 4 drew it from the search's one generator (draws=shared, the Python tree); now
    # each from its simulation's key, which the compiled tree plays over the rows
    for spec, peer_name in (("tictactoe", "tic_tac_toe"),
                            ("dots_and_boxes:rows=3,cols=3", "dots_and_boxes")):  # fmt: skip
        game = purestate.make(spec)
        cases = (
            ("shared, Python (format 4)", MCTS(draws="shared"), game, False),
            ("counter, Python tree", MCTS(), game, False),
            ("compiled tree", MCTS(), game, True),
            # the peer's settings: one random rollout a leaf
            ("playout=random, compiled", MCTS(playout="random"), game, True),
        )
        _compare(spec, peer_name, game, cases, reps, False)


def _compare(
    spec: str,
    peer_name: str,
    game: Any,
    cases: tuple[tuple[str, MCTS, Any, bool], ...],
    reps: int,
    mid_game: bool,
) -> None:
    """Print each case's simulations per CPU second beside the C++ peer's, from the start (and
    from a mid-game position with ``mid_game``)."""
    for where, (state, actions) in positions(game, mid_game).items():
        rows: dict[str, list[float]] = {}
        peer = cpp_mcts(peer_name, actions)
        for rep in range(reps + 1):
            for label, agent, g, tree_kernel in cases:
                t = time.process_time()
                tree = search_many(
                    agent, g, [Tree()], [state], [keys.key(rep)], compiled_tree=tree_kernel
                )[0]
                rate = tree.simulations / (time.process_time() - t)
                if rep:  # the first round warms up
                    rows.setdefault(label, []).append(rate)
            if peer is not None:
                rate = peer(rep)
                if rep:
                    rows.setdefault("C++", []).append(rate)
        cpp = rows.pop("C++", None)
        for label, found in rows.items():
            med = statistics.median(found)
            vs = ""
            if cpp:
                ratio = statistics.median(a / b for a, b in zip(found, cpp, strict=True))
                vs = f"  {ratio:.2f}x C++"
            name = f"{spec} {where}"
            print(f"{name:30} {label:24} {med:10,.0f} ({min(found):,.0f}-{max(found):,.0f}){vs}")
        if cpp:
            name = f"{spec} {where}"
            med = statistics.median(cpp)
            label = "OpenSpiel C++ MCTSBot"
            print(f"{name:30} {label:24} {med:10,.0f} ({min(cpp):,.0f}-{max(cpp):,.0f})")


def timed_search(
    agent: MCTS, game: Any, state: Any, rep: int, compiled_tree: bool
) -> tuple[Any, float]:
    """The tree of round ``rep``'s search from ``state`` (the compiled tree or the Python one)
    and its CPU seconds."""
    t = time.process_time()
    tree = search_many(agent, game, [Tree()], [state], [keys.key(rep)], compiled_tree=compiled_tree)
    seconds = time.process_time() - t
    assert tree[0].root is not None
    return tree[0], seconds


def part_mcts_parts(reps: int) -> None:
    """Where a search's time goes: each part of the work a search did, redone alone.

    Every node but the root cost one ``step`` from its parent, one ``legal``, one
    ``ending_moves``, one shuffle, one ``Node`` and (if the game is not over there) one playout
    from its state with its simulation's key (made in one block); the search's time less those
    is selection, backup and the loop's own work.
    """
    from purestate.agents.mcts import Node, shuffle

    game = purestate.make("ultimate_tictactoe")
    agent = MCTS()
    print("\nultimate tic-tac-toe, mcts:simulations=1000: microseconds per simulation, by part")
    for where, (state, _) in positions(game).items():
        parts: dict[str, list[float]] = {}
        for rep in range(reps + 1):
            tree, total = timed_search(agent, game, state, rep, compiled_tree=False)
            edges = []
            stack = [tree.root]
            while stack:
                node = stack.pop()
                edges.extend((node.state, ch) for ch in node.children)
                stack.extend(node.children)
            made = [ch for _, ch in edges if ch.n]  # the expanded ones, not decisive leaves
            k = keys.split(keys.key(rep), 3)[1]
            sims = tree.simulations
            timed = {}
            t = time.process_time()
            for parent, ch in edges:
                game.step(parent, ch.move)
            timed["step"] = time.process_time() - t
            t = time.process_time()
            lists = [list(game.legal(ch.state)) for ch in made]
            timed["legal"] = time.process_time() - t
            t = time.process_time()
            for ch in made:
                game.ending_moves(ch.state)
            timed["ending_moves"] = time.process_time() - t
            bits = random.Random(rep).getrandbits
            t = time.process_time()
            for moves in lists:
                shuffle(moves, bits)
            timed["shuffle"] = time.process_time() - t
            t = time.process_time()
            for ch in made:
                Node(ch.state, ch.move, ch.mover, ch.player)
            timed["Node"] = time.process_time() - t
            live = [ch.state for ch in made if not game.is_over(ch.state)]
            t = time.process_time()
            sim_keys = batch.key_range(k, 0, sims).tolist()
            timed["keys"] = time.process_time() - t
            t = time.process_time()
            for s, sk in zip(live, sim_keys, strict=False):
                game.playout(s, sk)
            timed["playout (call, kernel)"] = time.process_time() - t
            timed["selection, backup, loop"] = total - sum(timed.values())
            if rep:
                for name, seconds in timed.items():
                    parts.setdefault(name, []).append(seconds * 1e6 / sims)
                parts.setdefault("total", []).append(total * 1e6 / sims)
        line = ", ".join(f"{name} {statistics.median(v):.1f}" for name, v in parts.items())
        print(f"{where:9} {line}")


def part_mcts_tree(reps: int) -> None:
    """The compiled tree's hand-over, per node: ``Node`` objects into arrays, arrays into nodes."""
    from purestate.agents import mcts_compiled

    game = purestate.make("ultimate_tictactoe")
    rows = rows_of(game)
    if rows is None:
        print("\nmcts-tree: no row kernels here (numba missing?)")
        return
    agent = MCTS()
    print("\nultimate tic-tac-toe, mcts:simulations=1000, compiled tree: microseconds per node")
    for where, (state, _) in positions(game).items():
        parts: dict[str, list[float]] = {}
        for rep in range(reps + 1):
            tree, total = timed_search(agent, game, state, rep, compiled_tree=True)
            root = tree.root.copy()  # plain nodes whose states are read: a reused tree
            nodes = mcts_compiled._nodes(root)
            t = time.process_time()
            arrays = mcts_compiled._Arrays(nodes, rows, 64)
            into = time.process_time() - t
            fresh = [nodes[0]]
            t = time.process_time()
            arrays.to_nodes(fresh, rows)
            back = time.process_time() - t
            t = time.process_time()
            nodes[0].size()  # every node read: all of them made from the arrays
            read = time.process_time() - t
            t = time.process_time()
            for node in mcts_compiled._nodes(nodes[0]):
                node.state  # noqa: B018 (every state made from its row)
            states = time.process_time() - t
            if rep:
                parts.setdefault("nodes -> arrays", []).append(into * 1e6 / len(nodes))
                parts.setdefault("arrays -> root's children", []).append(back * 1e6 / len(nodes))
                parts.setdefault("+ every node read", []).append(read * 1e6 / len(nodes))
                parts.setdefault("+ every state read", []).append(states * 1e6 / len(nodes))
                parts.setdefault("whole search", []).append(total * 1e6 / len(nodes))
        line = ", ".join(f"{name} {statistics.median(v):.2f}" for name, v in parts.items())
        print(f"{where:9} {len(nodes)} nodes: {line}")
    # self-play, both seats one tree reused from the position after each move (the arrays'
    # subtree copied in the compiled tree, Node.copy in the Python tree): CPU ms per move
    per_move: dict[bool, list[float]] = {True: [], False: []}
    for rep in range(reps):
        for compiled_tree in (True, False):
            state, tree, plies, seconds = game.initial(), Tree(), 0, 0.0
            while not game.is_over(state):
                t = time.process_time()
                (tree,) = search_many(
                    agent, game, [tree], [state], [keys.fold_in(keys.key(rep), plies)],
                    compiled_tree=compiled_tree,
                )  # fmt: skip
                seconds += time.process_time() - t
                state = game.step(state, best_child(tree.root).move)
                plies += 1
            per_move[compiled_tree].append(seconds * 1e3 / plies)
    ratio = statistics.median(p / c for c, p in zip(per_move[True], per_move[False], strict=True))
    print(
        f"self-play with reuse, ms per move: compiled tree {statistics.median(per_move[True]):.2f}"
        f", Python tree {statistics.median(per_move[False]):.2f} ({ratio:.1f}x; {reps} games)"
    )


def cpp_mcts(name: str, actions: list[int]) -> Callable[[int], float] | None:
    """One search of pyspiel's C++ MCTSBot from the position ``actions`` reach, per call (the
    round's seed), as simulations per CPU second; None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)

    def run(rep: int) -> float:
        evaluator = pyspiel.RandomRolloutEvaluator(1, rep)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1000, 1000, True, rep, False)
        t = time.process_time()
        bot.step(state)
        return 1000 / (time.process_time() - t)

    return run


ROW_GAMES = (*GAMES, "xtreme_tictactoe")
"""The games the rows part looks at (those whose ``rows_of`` is not None are timed)."""

_ROWS_FIRST_CALLS = """
import time
import numpy as np
import purestate
from purestate.core import compiled, keys
from purestate.core.hooks import rows_of
compiled.kernels("stream")
parts = []
for spec in %r:
    g = purestate.make(spec)
    t = time.perf_counter()
    r = rows_of(g)
    if r is None:
        continue
    row, out = r.row_of(g.initial()), np.empty(r.max_moves, np.int64)
    child = np.empty(r.width, np.int64)
    r.step(row, out[r.legal(row, out) - 1], child)
    r.player(child)
    r.playout0(child, compiled.as_int64(keys.key(0)))
    r.reward0(child)
    if r.decisive0 is not None:
        r.decisive0(child, 0, True)
    if r.ending is not None:
        r.ending(child, out)
    parts.append(f"{g.spec.name} {time.perf_counter() - t:.2f}")
print(", ".join(parts))
"""


def _row_positions(game: Any, count: int) -> list[Any]:
    """``count`` positions that are not over, from random games of ``keys.key(24)``."""
    out: list[Any] = []
    g = 0
    while len(out) < count:
        s = game.initial()
        ply = 0
        while not game.is_over(s) and len(out) < count:
            out.append(s)
            s = game.step(s, keys.choice(keys.fold_in(keys.key(24), g * 1000 + ply), game.legal(s)))
            ply += 1
        g += 1
    return out


def part_rows(reps: int) -> None:
    """The row kernels: first-call compile times, then ``legal`` + ``step`` per call."""
    import numpy as np
    from numba import njit

    from purestate.core.hooks import rows_of

    print("\nrow kernels, first call of every function in a new process, wall seconds")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold cache", "warm cache"):
            out = subprocess.run(
                [sys.executable, "-c", _ROWS_FIRST_CALLS % (ROW_GAMES,)],
                env=env, capture_output=True, text=True, check=True,
            ).stdout.strip()  # fmt: skip
            print(f"{label:10}: {out}")

    @njit
    def walk(legal: Any, step: Any, rows: Any, turn: int, rounds: int) -> int:
        moves = np.empty(512, np.int64)
        child = np.empty(rows.shape[1], np.int64)
        seen = 0
        for t in range(turn, turn + rounds):
            for i in range(rows.shape[0]):
                n = legal(rows[i], moves)
                step(rows[i], moves[(i + t) % n], child)
                seen += child[0] & 1
        return seen

    print(
        "\none legal + one step per call over 512 positions, nanoseconds per call (median of "
        f"{reps}); pure / compiled in brackets"
    )
    for spec in ROW_GAMES:
        game = purestate.make(spec)
        r = rows_of(game)
        if r is None:
            print(f"{spec}: no row kernels")
            continue
        med = _legal_step_times(game, r, walk, reps)
        print(
            f"{game.spec.name} ({spec}): pure {med['pure']:.0f}, compiled from Python "
            f"{med['from Python']:.0f} ({med['pure'] / med['from Python']:.1f}x), in a kernel "
            f"{med['in a kernel']:.1f} ({med['pure'] / med['in a kernel']:.0f}x)"
        )


def _legal_step_times(game: Any, r: Any, walk: Any, reps: int) -> dict[str, float]:
    """Nanoseconds per ``legal`` + ``step`` over 512 positions: pure, compiled called from
    Python, compiled inside ``walk`` (median of ``reps``, the three taking turns)."""
    import numpy as np

    states = _row_positions(game, 512)
    rows = np.stack([r.row_of(s) for s in states])
    legal, step = r.legal, r.step
    moves = np.empty(r.max_moves, np.int64)
    child = np.empty(r.width, np.int64)

    def pure(turn: int) -> None:
        for i, s in enumerate(states):
            ms = game.legal(s)
            game.step(s, ms[(i + turn) % len(ms)])

    def from_python(turn: int) -> None:
        for i in range(len(rows)):
            row = rows[i]
            n = legal(row, moves)
            step(row, moves[(i + turn) % n], child)

    def in_kernel(turn: int) -> None:
        # one call for many rounds: a call passing jitted functions costs about 10 µs to
        # dispatch from Python
        walk(legal, step, rows, turn, 100)

    times: dict[str, list[float]] = {"pure": [], "from Python": [], "in a kernel": []}
    runs = (("pure", pure, 1), ("from Python", from_python, 1), ("in a kernel", in_kernel, 100))
    for _, run, _ in runs:
        run(0)  # warm: compiled, tables built
    for rep in range(reps):
        for name, run, rounds in runs:
            t = time.process_time()
            for turn in range(1, 11):
                run(rep * 10 + turn)
            times[name].append((time.process_time() - t) / (10 * rounds * len(rows)) * 1e9)
    return {name: statistics.median(v) for name, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument(
        "--only",
        choices=("playouts", "batch", "compile", "mcts", "mcts-parts", "mcts-tree", "rows"),
    )
    args = parser.parse_args()
    if args.only in (None, "compile"):
        part_compile()
    if args.only in (None, "playouts"):
        part_playouts(args.reps, args.seconds)
    if args.only in (None, "batch"):
        part_batch(args.reps)
    if args.only in (None, "mcts"):
        part_mcts(args.reps)
    if args.only in (None, "mcts-parts"):
        part_mcts_parts(args.reps)
    if args.only in (None, "mcts-tree"):
        part_mcts_tree(args.reps)
    if args.only in (None, "rows"):
        part_rows(args.reps)


if __name__ == "__main__":
    main()

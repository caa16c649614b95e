"""How the compiler of the playout kernels was chosen (issue 24): one kernel, four ways.

Run: ``PYTHONPATH=src python benchmarks/compiler_choice.py [--games N]``

The kernel is tic-tac-toe's random playout on 9-bit boards drawing from the counter stream
(``keys.draw``), written once as source text and built by each compiler found: CPython as it is,
mypyc (ships with mypy), Cython (``pip install --target DIR cython`` and ``PYTHONPATH=DIR`` are
enough; it is not a dependency) and numba. Each variant's games are checked against purestate's
own pure kernel (``TicTacToe.python_playout``), then timed in this one process in CPU seconds: a
Python call per game, and a loop over games inside the compiled code. Build times are wall
seconds (a C compiler runs for mypyc and Cython); numba's first call is its compile time with an
empty cache. pyspiel's C++ game stepped in place from Python is the reference when installed.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from purestate.core import keys
from purestate.games.tictactoe import TicTacToe

# the same kernel for CPython and mypyc: ints masked to 64 bits
TYPED = """
from typing import Final
M: Final = (1 << 64) - 1
G: Final = 0x9E3779B97F4A7C15
WINS: Final = [any(m & w == w for w in (7, 56, 448, 73, 146, 292, 273, 84)) for m in range(512)]


def playout(x: int, o: int, p: int, key: int) -> int:
    s = key ^ 0x57EA
    j = 0
    z = 0
    while True:
        occ = x | o
        n = 0
        for c in range(9):
            if not (occ >> c) & 1:
                n += 1
        if n == 0:
            return -1
        if j & 1 == 0:
            z = (s + ((j >> 1) + 1) * G) & M
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
            z ^= z >> 31
            h = z >> 32
        else:
            h = z & 0xFFFFFFFF
        k = (h * n) >> 32
        j += 1
        c = 0
        for c in range(9):
            if not (occ >> c) & 1:
                if k == 0:
                    break
                k -= 1
        if p == 0:
            x |= 1 << c
            if WINS[x]:
                return 0
        else:
            o |= 1 << c
            if WINS[o]:
                return 1
        p = 1 - p


def many(key: int, n: int) -> int:
    wins = 0
    for i in range(n):
        if playout(0, 0, 0, key + i) == 0:
            wins += 1
    return wins
"""

CYTHON = """
# cython: language_level=3, boundscheck=False, wraparound=False
from libc.stdint cimport uint64_t
cdef uint64_t G = 0x9E3779B97F4A7C15ULL
cdef unsigned char WINS[512]
for _m in range(512):
    WINS[_m] = any(_m & w == w for w in (7, 56, 448, 73, 146, 292, 273, 84))

cdef int _playout(int x, int o, int p, uint64_t key) noexcept nogil:
    cdef uint64_t s = key ^ 0x57EA, z = 0, h, j = 0
    cdef int occ, n, c, k
    while True:
        occ = x | o
        n = 0
        for c in range(9):
            if not (occ >> c) & 1:
                n += 1
        if n == 0:
            return -1
        if j & 1 == 0:
            z = s + ((j >> 1) + 1) * G
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
            z = z ^ (z >> 31)
            h = z >> 32
        else:
            h = z & 0xFFFFFFFFULL
        k = <int>((h * n) >> 32)
        j += 1
        for c in range(9):
            if not (occ >> c) & 1:
                if k == 0:
                    break
                k -= 1
        if p == 0:
            x |= 1 << c
            if WINS[x]:
                return 0
        else:
            o |= 1 << c
            if WINS[o]:
                return 1
        p = 1 - p

def playout(int x, int o, int p, uint64_t key):
    return _playout(x, o, p, key)

def many(uint64_t key, int n):
    cdef int wins = 0, i
    for i in range(n):
        if _playout(0, 0, 0, key + i) == 0:
            wins += 1
    return wins
"""

NUMBA = """
import numpy as np
from numba import njit

G = np.uint64(0x9E3779B97F4A7C15)
C1 = np.uint64(0xBF58476D1CE4E5B9)
C2 = np.uint64(0x94D049BB133111EB)
HALF = np.uint64(0xFFFFFFFF)
WINS = np.array([any(m & w == w for w in (7, 56, 448, 73, 146, 292, 273, 84))
                 for m in range(512)], dtype=np.bool_)


@njit(cache=True)
def playout(x, o, p, key):
    s = np.uint64(key) ^ np.uint64(0x57EA)
    j = 0
    z = np.uint64(0)
    while True:
        occ = x | o
        n = 0
        for c in range(9):
            if not (occ >> c) & 1:
                n += 1
        if n == 0:
            return -1
        if j & 1 == 0:
            z = s + np.uint64((j >> 1) + 1) * G
            z = (z ^ (z >> np.uint64(30))) * C1
            z = (z ^ (z >> np.uint64(27))) * C2
            z = z ^ (z >> np.uint64(31))
            h = z >> np.uint64(32)
        else:
            h = z & HALF
        k = int((h * np.uint64(n)) >> np.uint64(32))
        j += 1
        c = 0
        for c in range(9):
            if not (occ >> c) & 1:
                if k == 0:
                    break
                k -= 1
        if p == 0:
            x |= 1 << c
            if WINS[x]:
                return 0
        else:
            o |= 1 << c
            if WINS[o]:
                return 1
        p = 1 - p


@njit(cache=True)
def many(key, n):
    wins = 0
    for i in range(n):
        if playout(0, 0, 0, key + i) == 0:
            wins += 1
    return wins
"""


def build(folder: Path) -> dict[str, tuple[Any, str]]:
    """The variants that build here: name -> (module, how long the build or first call took)."""
    sys.path.insert(0, str(folder))
    found: dict[str, tuple[Any, str]] = {}
    (folder / "ttt_python.py").write_text(TYPED)
    found["CPython"] = (importlib.import_module("ttt_python"), "none")
    mypyc = shutil.which("mypyc")
    if mypyc:
        (folder / "ttt_mypyc.py").write_text(TYPED)
        t = time.perf_counter()
        done = subprocess.run([mypyc, "ttt_mypyc.py"], cwd=folder, capture_output=True)
        if done.returncode == 0:
            found["mypyc"] = (
                importlib.import_module("ttt_mypyc"),
                f"{time.perf_counter() - t:.1f} s",
            )
    if importlib.util.find_spec("Cython") is not None:
        (folder / "ttt_cython.pyx").write_text(CYTHON)
        t = time.perf_counter()
        code = "from Cython.Build.Cythonize import main; main(['-i', '-3', 'ttt_cython.pyx'])"
        done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True)
        if done.returncode == 0:
            found["Cython"] = (
                importlib.import_module("ttt_cython"),
                f"{time.perf_counter() - t:.1f} s",
            )
    if importlib.util.find_spec("numba") is not None:
        (folder / "ttt_numba.py").write_text(NUMBA)
        t = time.perf_counter()
        module = importlib.import_module("ttt_numba")
        module.playout(0, 0, 0, 1)
        module.many(1, 1)
        found["numba"] = (module, f"first calls {time.perf_counter() - t:.1f} s (import included)")
    return found


def rate(run: Callable[[int], Any], n: int, reps: int) -> float:
    rates = []
    for _ in range(reps):
        t = time.process_time()
        run(n)
        rates.append(n / (time.process_time() - t))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    game = TicTacToe()
    with tempfile.TemporaryDirectory() as folder:
        variants = build(Path(folder))
        for name, (module, _) in variants.items():  # the same games as purestate's kernel
            for i in range(2000):
                k = keys.fold_in(keys.key(3), i) >> 1  # below 2**63 for every compiler
                mine = game.python_playout(game.initial(), keys.Key(k))
                w = module.playout(0, 0, 0, k)
                assert {0: (1.0, -1.0), 1: (-1.0, 1.0), -1: (0.0, 0.0)}[w] == mine, name
        print(f"{'variant':8} {'build':38} {'a call each':>14} {'loop inside':>14}  games/CPU s")
        for name, (module, built) in variants.items():
            n = args.games if name not in ("CPython", "mypyc") else args.games // 10
            play = module.playout

            def calls(count: int, play: Any = play) -> None:
                for i in range(count):
                    play(0, 0, 0, i)

            each = rate(calls, n, args.reps)
            inside = rate(lambda count, m=module: m.many(0, count), n * 4, args.reps)
            print(f"{name:8} {built:38} {each:14,.0f} {inside:14,.0f}")
    try:
        import pyspiel
    except ImportError:
        return
    peer = pyspiel.load_game("tic_tac_toe")
    rnd = random.Random(0).random

    def in_place(count: int) -> None:
        for _ in range(count):
            s = peer.new_initial_state()
            while not s.is_terminal():
                a = s.legal_actions()
                s.apply_action(a[int(rnd() * len(a))])

    print(f"{'pyspiel C++ in place':47} {rate(in_place, args.games // 10, args.reps):14,.0f}")


if __name__ == "__main__":
    main()

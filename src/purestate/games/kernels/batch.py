"""``core.batch``'s functions over many rows compiled: generic over a game's row functions
(``core.hooks.Rows``). The functions below are templates, compiled once per game with its
functions bound to their global names (``core.compiled.jit_bound``, so numba's on-disk cache
keeps each game's copies), their rows spread over numba's threads (``prange``) in chunks
(``CHUNK``).

Every row's result depends on that row alone (and its move or key), never on the rest of the
batch; ``properties/test_batch_props.py`` compares each function with the pure rules row by row.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit_bound
from purestate.core.memo import memo
from purestate.games.kernels.stream import draw, seed

NO_MOVE = -1
"""The move of a finished row: it stays as it is (``core.batch.NO_MOVE``)."""

CHUNK = 256
"""Rows per task of a loop: one scratch list of moves per task, not per row."""

# The game's row functions the templates call: ``compiled_batch`` binds them in compiled copies.
legal: Any = None
step: Any = None
player_of: Any = None
reward0: Any = None
row_returns: Any = None  # None where the game has no ``Rows.returns``: ``returns`` is not made


def masks(
    rows: npt.NDArray[np.int64], max_moves: int, mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Sets ``mask[i, m]`` for each legal move ``m`` of row ``i`` (``mask`` all False before);
    answers, per row, whether a move fell outside the mask's columns (nothing written then)."""
    n = rows.shape[0]
    width = mask.shape[1]
    outside = np.zeros(n, np.bool_)
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty(max_moves, np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            count = legal(rows[i], buf)
            for j in range(count):
                m = buf[j]
                if 0 <= m < width:
                    mask[i, m] = True
                else:
                    outside[i] = True
    return outside


def steps(
    rows: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    max_moves: int,
    out: npt.NDArray[np.int64],
) -> npt.NDArray[np.bool_]:
    """Writes row ``i`` stepped by ``moves[i]`` to ``out[i]`` (a finished row with ``NO_MOVE``:
    the row itself); answers, per row, whether its move was legal (else ``out[i]`` is the row)."""
    n = rows.shape[0]
    ok = np.zeros(n, np.bool_)
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty(max_moves, np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            row = rows[i]
            count = legal(row, buf)
            m = moves[i]
            found = False
            for j in range(count):
                if buf[j] == m:
                    found = True
                    break
            if found:
                step(row, m, out[i])
                ok[i] = True
            else:
                out[i, :] = row
                ok[i] = count == 0 and m == NO_MOVE
    return ok


def players(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The player to move of each row, -1 for a finished one."""
    n = rows.shape[0]
    out = np.empty(n, np.int64)
    for i in prange(n):
        out[i] = player_of(rows[i])
    return out


def rewards(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """``reward0`` of each finished row, NaN for a row still playing."""
    n = rows.shape[0]
    out = np.empty(n, np.float64)
    for i in prange(n):
        row = rows[i]
        out[i] = reward0(row) if player_of(row) == -1 else math.nan
    return out


def returns(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Each finished row's returns to both players (``Rows.returns``), zeros for a row still
    playing."""
    n = rows.shape[0]
    out = np.zeros((n, 2), np.float64)
    for i in prange(n):
        row = rows[i]
        if player_of(row) == -1:
            out[i, 0] = row_returns(row, 0)
            out[i, 1] = row_returns(row, 1)
    return out


def random_moves(
    rows: npt.NDArray[np.int64], ks: npt.NDArray[np.int64], max_moves: int
) -> npt.NDArray[np.int64]:
    """Each row's legal move ``legal[int(r * count)]``, ``r`` the first draw of its key's
    stream; ``NO_MOVE`` for a finished row."""
    n = rows.shape[0]
    out = np.empty(n, np.int64)
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty(max_moves, np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            count = legal(rows[i], buf)
            out[i] = NO_MOVE if count == 0 else buf[int(draw(seed(ks[i]), 0) * count)]
    return out


PARALLEL_ROWS = 1 << 16
"""The fewest rows a call spreads over numba's threads; a smaller batch runs in the calling
thread. A parallel loop costs a wake-up of the threads: under OpenMP's default (active) wait, on
a machine whose cores are busy with other work (load 6 on 2 cores), about 15 ms a call, where
``players`` of 65,536 rows takes 0.1-0.7 ms in one thread; with ``OMP_WAIT_POLICY=passive`` (or
``NUMBA_THREADING_LAYER=workqueue``) in the shell, 0.3-1 ms (``benchmarks/bench_batch_step.py``
measures both)."""

TEMPLATES: dict[str, Callable[..., Any]] = {
    "masks": masks,
    "steps": steps,
    "players": players,
    "rewards": rewards,
    "random_moves": random_moves,
}


class Compiled:
    """One game's compiled copies of the templates above, in one thread and on numba's threads;
    each compiles (or loads from the cache) on its first call."""

    def __init__(self, fns: dict[str, Any]) -> None:
        templates = dict(TEMPLATES)
        if "row_returns" in fns:
            templates["returns"] = returns
        self._serial = {name: jit_bound(t, fns) for name, t in templates.items()}
        self._parallel = {name: jit_bound(t, fns, parallel=True) for name, t in templates.items()}

    def has(self, name: str) -> bool:
        """Whether the template ``name`` was compiled for this game (``returns`` needs the
        game's ``Rows.returns``)."""
        return name in self._serial

    def of(self, name: str, rows: int) -> Any:
        """The template ``name`` compiled for a batch of ``rows`` rows."""
        return (self._parallel if rows >= PARALLEL_ROWS else self._serial)[name]


@memo(size=None, why="one set of compiled batch functions per game's row functions: a handful")
def compiled_batch(
    legal: Any, step: Any, player_of: Any, reward0: Any, row_returns: Any = None
) -> Compiled:
    """The templates compiled for one game's row functions, from numba's on-disk cache after the
    first time."""
    fns = {"legal": legal, "step": step, "player_of": player_of, "reward0": reward0}
    if row_returns is not None:
        fns["row_returns"] = row_returns
    return Compiled(fns)

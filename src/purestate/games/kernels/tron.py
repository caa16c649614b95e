"""Tron's rules and random playout compiled, on int64 rows (``Tron.row_kernels``), for compiled
callers (the MCTS tree, alpha-beta, ``core.batch``).

A row holds the position's small fields, the map's number of columns and the rule set, then the
occupied cells as a bitboard cut into 64-bit words (cell ``c`` is bit ``c % 64`` of word
``c // 64``, a map's cells row by row as everywhere in Tron). So one compilation serves every
map and both rule sets; only the row's width (``WORDS`` plus the map's words) differs between
maps. Every shipped map and every map up to ``maps.MAX_MAP_SIDE`` fits: a 200×200 map takes 625
words, about as much as the Python int of its ``State.blocked``.

The maps are enclosed by blocked cells, so a head's four neighbours are always cells of the map
and a move never leaves the bitboard (as in the rules, which shift a Python int).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from purestate.core.compiled import jit, jit_parallel
from purestate.games.kernels.stream import draw, seed

WORDS = 10
"""Entries before the bitboard: the player to move, the pending move (-1 for none), the outcome
(-1 running, 0 or 1 the winner, 2 a draw), each head (-1 once crashed), the map's columns, the
first player (who moves after a simultaneous round), 1 for simultaneous rules (0 for
alternating), the map's cells and its free cells (``Topology.free_cells``: what the evaluations
scale by). The bitboard's words follow."""
TO_MOVE, PENDING, OUTCOME, HEAD0, HEAD1, COLS, FIRST, SIMULTANEOUS, SIZE, FREE_CELLS = range(WORDS)
RUNNING, DRAW = -1, 2
_UNIT = (1.0, 0.0, 0.5)  # player 0's reward in [0, 1] by outcome (0, 1, 2: a draw)


@jit
def _taken(row: npt.NDArray[np.int64], c: int) -> bool:
    """Whether cell ``c`` is occupied in ``row``'s bitboard."""
    return bool((row[WORDS + (c >> 6)] >> (c & 63)) & 1)


@jit
def _take(row: npt.NDArray[np.int64], c: int) -> None:
    row[WORDS + (c >> 6)] |= np.int64(1) << (c & 63)


@jit
def _delta(move: int, cols: int) -> int:
    """The cell offset of direction ``move`` (U, D, L, R: ``Topology.deltas``)."""
    if move == 0:
        return -cols
    if move == 1:
        return cols
    return -1 if move == 2 else 1


@jit
def _advance(row: npt.NDArray[np.int64], move: int) -> None:
    """``Tron.step`` in place on ``row`` (a running position, ``move`` 0-3)."""
    cols = row[COLS]
    p = row[TO_MOVE]
    if row[SIMULTANEOUS] == 0:
        h = HEAD0 + p
        target = row[h] + _delta(move, cols)
        row[TO_MOVE] = 1 - p
        if _taken(row, target):
            row[h] = -1
            row[OUTCOME] = 1 - p
        else:
            _take(row, target)
            row[h] = target
        return
    pending = row[PENDING]
    if pending < 0:
        row[PENDING] = move
        row[TO_MOVE] = 1 - p
        return
    m0, m1 = (move, pending) if p == 0 else (pending, move)
    t0 = row[HEAD0] + _delta(m0, cols)
    t1 = row[HEAD1] + _delta(m1, cols)
    crash0 = _taken(row, t0)
    crash1 = _taken(row, t1)
    row[PENDING] = -1
    row[TO_MOVE] = row[FIRST]
    if t0 == t1 or (crash0 and crash1):
        row[HEAD0] = -1
        row[HEAD1] = -1
        row[OUTCOME] = DRAW
        return
    if crash0:
        row[HEAD0] = -1
        row[OUTCOME] = 1
    else:
        _take(row, t0)
        row[HEAD0] = t0
    if crash1:
        row[HEAD1] = -1
        row[OUTCOME] = 0
    else:
        _take(row, t1)
        row[HEAD1] = t1


@jit
def _ends(row: npt.NDArray[np.int64], move: int) -> bool:
    """Whether ``move`` ends the running game of ``row``."""
    cols = row[COLS]
    p = row[TO_MOVE]
    if row[SIMULTANEOUS] == 0:
        return _taken(row, row[HEAD0 + p] + _delta(move, cols))
    pending = row[PENDING]
    if pending < 0:
        return False  # the round's first move is only stored
    m0, m1 = (move, pending) if p == 0 else (pending, move)
    t0 = row[HEAD0] + _delta(m0, cols)
    t1 = row[HEAD1] + _delta(m1, cols)
    return t0 == t1 or _taken(row, t0) or _taken(row, t1)


@jit
def outcome(row: npt.NDArray[np.int64], s: np.uint64) -> int:
    """The outcome of the random game from ``row`` (running or not) drawing from the stream
    seeded ``s``: each ply the move ``int(r * 4)`` (``legal`` is always the four directions),
    ``Tron.random_playout``'s game."""
    if row[OUTCOME] != RUNNING:
        return int(row[OUTCOME])
    board = row.copy()
    j = 0
    while board[OUTCOME] == RUNNING:
        _advance(board, int(draw(s, j) * 4))
        j += 1
    return int(board[OUTCOME])


@jit_parallel
def playouts(rows: npt.NDArray[np.int64], ks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``outcome`` of each row with its key (passed as ``compiled.as_int64``), on numba's
    threads; a finished row gives its outcome."""
    out = np.empty(len(ks), np.int64)
    for i in prange(len(ks)):
        out[i] = outcome(rows[i], seed(ks[i]))
    return out


# -- row kernels (``core.hooks.Rows``) -----------------------------------------------------------


@jit
def legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The four directions while the game runs; 0 once it is over."""
    if row[OUTCOME] != RUNNING:
        return 0
    for m in range(4):
        out[m] = m
    return 4


@jit
def step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """The position after ``move``, written to ``out``."""
    out[:] = row
    _advance(out, move)


@jit
def player(row: npt.NDArray[np.int64]) -> int:
    """The player to move, -1 once the game is over."""
    return -1 if row[OUTCOME] != RUNNING else int(row[TO_MOVE])


@jit
def reward0(row: npt.NDArray[np.int64]) -> float:
    """Player 0's reward in [0, 1] of a finished row: 1 a win, 0 a loss, 0.5 a draw."""
    return _UNIT[row[OUTCOME]]


@jit
def returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``Tron.returns(state)[p]`` of a finished row."""
    o = row[OUTCOME]
    if o == 0 or o == 1:
        return 1.0 if o == p else -1.0
    return 0.0


@jit
def playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """Player 0's reward at the end of ``playout``'s game from the row (over or not)."""
    return _UNIT[outcome(row, seed(k))]


@jit
def ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The moves after which the game is over, in order: under alternating rules the mover's
    crashes; under simultaneous rules none for the round's first move, and for the second each
    move whose round ends in a crash or a collision."""
    if row[OUTCOME] != RUNNING:
        return 0
    n = 0
    for m in range(4):
        if _ends(row, m):
            out[n] = m
            n += 1
    return n

"""Observation planes: a position as 0/1 planes seen by one player, for learners that want arrays.

``planes_of(game)(game, state, player)`` is a numpy array, rows × columns × planes, the observing
player's own pieces first, as PettingZoo's classic board games and AlphaZero-style nets expect. Both
bridges show it: PettingZoo as each agent's ``observation``, OpenSpiel (``as_pyspiel``) as the
state's ``observation_tensor``. A game bridged from OpenSpiel gives its own tensor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from purestate.core.game import Game
from purestate.core.memo import memo
from purestate.core.spec import SpecError
from purestate.interop.from_openspiel import OpenSpielGame
from purestate.interop.openspiel import pyspiel_errors, pyspiel_module, said

# One function per game; each reads the attributes its State documents.


def _bits(x: int, n: int) -> np.ndarray:
    """Bits 0..n-1 of ``x`` as 0/1 (int8), through numpy: a Python loop costs far more past a
    few dozen bits (Xtreme's boards have 1,458)."""
    raw = np.frombuffer(x.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little").view(np.int8)


def _tictactoe(game: Any, s: Any, p: int) -> np.ndarray:
    mine, theirs = (s.x, s.o) if p == 0 else (s.o, s.x)
    # both marks in one number, then plane-major to plane-last
    return np.ascontiguousarray(_bits(mine | theirs << 9, 18).reshape(2, 3, 3).transpose(1, 2, 0))


@memo(size=4, why="one index table per number of big boards (1 or 2)")
def _grid_index(boards: int) -> np.ndarray:
    """For each square of ``boards`` 3×3 grids of 3×3 boards, side by side (9 rows, 9 columns
    a grid), the cell ``board * 9 + cell`` it shows."""
    index = np.zeros((9, 9 * boards), dtype=np.intp)
    for b in range(9 * boards):
        k, pos = divmod(b, 9)
        for c in range(9):
            index[3 * (pos // 3) + c // 3, 9 * k + 3 * (pos % 3) + c % 3] = b * 9 + c
    index.flags.writeable = False
    return index


def _small_boards(boards: int) -> Callable[[Any, Any, int], np.ndarray]:
    n = 9 * boards

    def planes(game: Any, s: Any, p: int) -> np.ndarray:
        won_x, won_o = s.boards & ((1 << n) - 1), (s.boards >> n) & ((1 << n) - 1)
        marks = (s.x, s.o) if p == 0 else (s.o, s.x)
        won = (won_x, won_o) if p == 0 else (won_o, won_x)
        cells = np.concatenate(
            [_bits(m, 9 * n) for m in marks]
            # a won small board shows as all nine of its cells
            + [np.repeat(_bits(w, n), 9) for w in won]
        ).reshape(4, 9 * n)
        return np.ascontiguousarray(cells[:, _grid_index(boards)].transpose(1, 2, 0))

    return planes


def _dots_and_boxes(game: Any, s: Any, p: int) -> np.ndarray:
    rows, cols = game.rows, game.cols
    num_h = (rows + 1) * cols
    out = np.zeros((rows + 1, cols + 1, 4), dtype=np.int8)
    for r in range(rows + 1):
        for c in range(cols):
            out[r, c, 0] = (s.lines >> (r * cols + c)) & 1  # the line right of dot (r, c)
    for r in range(rows):
        for c in range(cols + 1):
            out[r, c, 1] = (s.lines >> (num_h + r * (cols + 1) + c)) & 1  # the line below it
    mine, theirs = (s.own0, s.own1) if p == 0 else (s.own1, s.own0)
    for b in range(rows * cols):
        out[b // cols, b % cols, 2] = (mine >> b) & 1
        out[b // cols, b % cols, 3] = (theirs >> b) & 1
    return out


def _tron(game: Any, s: Any, p: int) -> np.ndarray:
    m = game.board
    cells = m.rows * m.cols
    out = np.zeros((m.rows, m.cols, 3), dtype=np.int8)
    out[:, :, 0] = _bits(s.blocked, cells).reshape(m.rows, m.cols)
    heads = (s.head0, s.head1) if p == 0 else (s.head1, s.head0)
    for plane, head in enumerate(heads, start=1):
        if head >= 0:
            out[head // m.cols, head % m.cols, plane] = 1
    return out


def _connect_four(game: Any, s: Any, p: int) -> np.ndarray:
    # OpenSpiel's three planes (the observer's stones here, the other's, the empty cells), rows
    # from the bottom as OpenSpiel counts them; the bitboard's spare bit per column is dropped
    b = game.board
    mine, theirs = (s.x, s.o) if p == 0 else (s.o, s.x)
    n = b.columns * b.stride
    cells = _bits(mine | theirs << n | (b.full & ~(s.x | s.o)) << 2 * n, 3 * n)
    by_column = cells.reshape(3, b.columns, b.stride)[:, :, : b.rows]
    return np.ascontiguousarray(by_column.transpose(2, 1, 0))


def _openspiel(game: Any, s: Any, p: int) -> np.ndarray:
    shape = game.native.observation_tensor_shape()
    return np.asarray(s.native.observation_tensor(p), dtype=np.float32).reshape(shape)


_PLANES: dict[str, Callable[[Any, Any, int], np.ndarray]] = {
    "tictactoe": _tictactoe,
    "ultimate_tictactoe": _small_boards(1),
    "xtreme_tictactoe": _small_boards(2),
    "dots_and_boxes": _dots_and_boxes,
    "tron": _tron,
    "connect_four": _connect_four,
}


def planes_of(game: Game[Any, Any]) -> Callable[[Any, Any, int], np.ndarray]:
    """The function ``(game, state, player) -> planes`` for ``game``.

    Raises:
        SpecError: for a game without planes (an OpenSpiel game without an observation tensor).
    """
    if isinstance(game, OpenSpielGame):
        if not game.native.get_type().provides_observation_tensor:
            raise SpecError(f"{game.spec.name} has no observation tensor for PettingZoo")
        try:  # the first observation, so that OpenSpiel's failure to make one is one line here
            _openspiel(game, game.initial(), 0)
        except pyspiel_errors(pyspiel_module()) as e:
            raise SpecError(
                f"{game.spec.name}: OpenSpiel cannot observe its start: {said(e)}"
            ) from None
        return _openspiel
    fn = _PLANES.get(game.spec.name)
    if fn is None:
        raise SpecError(f"no observation planes for {game.spec.name} yet")
    return fn

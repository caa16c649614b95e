"""Xtreme tic-tac-toe's random playouts compiled: ``XtremeTicTacToe._random_game`` on int64
masks. A player's 162 bits come in four words of five small boards (45 bits) each."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit
from purestate.games.big_board import GAME_OVER as OVER
from purestate.games.kernels.bits import FREE, free_move, nth_zero, open_cells
from purestate.games.kernels.stream import draw, seed
from purestate.games.small_board import WINS
from purestate.games.xtreme import MAX_POINTS, POINTS_OF_MASK

_WINS = np.array(WINS, dtype=np.bool_)
WORD_BOARDS = 5
"""Small boards per word of a player's bits."""
_ALL = (1 << 18) - 1


@jit
def end(
    x0: int, x1: int, x2: int, x3: int, o0: int, o1: int, o2: int, o3: int, boards: int,
    target: int, to_move: int, bonus: bool, s: np.uint64,
) -> int:  # fmt: skip
    """How the random game from a position that is not over ends: the winner (0 or 1) of a
    line of small boards, or ``2 + won_x + (won_o << 18)`` when every small board closed."""
    marks = np.empty((2, 18), np.int64)
    occ = np.empty(18, np.int64)
    xs = (x0, x1, x2, x3)
    os = (o0, o1, o2, o3)
    for sb in range(18):
        w, at = divmod(sb, WORD_BOARDS)
        marks[0, sb] = xs[w] >> 9 * at & 511
        marks[1, sb] = os[w] >> 9 * at & 511
        occ[sb] = marks[0, sb] | marks[1, sb]
    won = np.empty(2, np.int64)
    won[0] = boards & _ALL
    won[1] = boards >> 18 & _ALL
    closed = boards >> 36 & _ALL
    t = target
    p = to_move
    j = 0
    while True:
        if t >= 0 and not closed >> t & 1 and not closed >> (t + 9) & 1:
            n0 = FREE[occ[t]]
            r = int(draw(s, j) * (n0 + FREE[occ[t + 9]]))
            if r < n0:
                sb = t
            else:
                sb = t + 9
                r -= n0
            c = nth_zero(occ[sb], r)
        elif t >= 0:
            sb = t + 9 if closed >> t & 1 else t
            c = nth_zero(occ[sb], int(draw(s, j) * FREE[occ[sb]]))
        else:
            sb, c = free_move(occ, closed, int(draw(s, j) * open_cells(occ, closed)))
        j += 1
        bit = 1 << c
        filled = occ[sb] | bit
        occ[sb] = filled
        m = marks[p, sb] | bit
        marks[p, sb] = m
        if _WINS[m]:
            closed |= 1 << sb
            w = won[p] | (1 << sb)
            won[p] = w
            if _WINS[(w >> 9) if sb >= 9 else (w & 511)]:
                return p
            if closed == _ALL:
                return int(2 + won[0] + (won[1] << 18))
            t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
            if bonus:
                bonus = False
                p ^= 1
            else:
                bonus = True
            continue
        if filled == 511:
            closed |= 1 << sb
            if closed == _ALL:
                return int(2 + won[0] + (won[1] << 18))
        t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
        bonus = False
        p ^= 1


@jit
def playout(
    x0: int, x1: int, x2: int, x3: int, o0: int, o1: int, o2: int, o3: int, boards: int,
    target: int, to_move: int, bonus: bool, k: int,
) -> int:  # fmt: skip
    """``end`` drawing from key ``k`` (passed as ``compiled.as_int64``)."""
    return end(x0, x1, x2, x3, o0, o1, o2, o3, boards, target, to_move, bonus, seed(k))


# -- row kernels (``XtremeTicTacToe.rows``) ------------------------------------------------------

WIDTH = 43
"""Entries of a row: X's marks on each of the 18 small boards (9 bits each), then O's, then the
boards X has won, O has won and the closed ones, the target (``GAME_OVER`` once over), the
player to move, the bonus flag, and the reward option (``REWARDS``' index)."""
WON_X, WON_O, CLOSED, TARGET, TO_MOVE, BONUS, REWARD = range(36, WIDTH)
REWARDS = ("draw", "tiebreak", "points")
"""The ``reward`` options by their number in a row (``xtreme._REWARDS``)."""
_POINTS = np.array(POINTS_OF_MASK, np.int64)


@jit
def _line(won: int) -> bool:
    return bool(_WINS[won & 511] or _WINS[won >> 9])


@jit
def _exhausted0(won_x: int, won_o: int, reward: int) -> float:
    """X's reward in [0, 1] when every small board closed without a line: ``unit_reward`` of
    ``XtremeTicTacToe._exhausted``, operation for operation."""
    if reward == 0:
        return 0.5
    diff = _POINTS[won_x & 511] + _POINTS[won_x >> 9] - _POINTS[won_o & 511] - _POINTS[won_o >> 9]
    v = float((diff > 0) - (diff < 0)) if reward == 1 else diff / MAX_POINTS
    u = (v + 1.0) * 0.5
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


@jit
def legal(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The move ids of the playable empty cells in increasing order; 0 once over."""
    t = row[TARGET]
    if t == OVER:
        return 0
    closed = row[CLOSED]
    k = 0
    for sb in range(18):
        if closed >> sb & 1 or (t >= 0 and sb != t and sb != t + 9):
            continue
        occ = row[sb] | row[18 + sb]
        for c in range(9):  # not a call passing ``out``: its reference counts cost 15 ns
            if not occ >> c & 1:
                out[k] = 9 * sb + c
                k += 1
    return k


@jit
def step(row: npt.NDArray[np.int64], move: int, out: npt.NDArray[np.int64]) -> None:
    """The mover's mark on ``move``, written to ``out`` (``XtremeTicTacToe.step``)."""
    out[:] = row
    sb, c = move // 9, move % 9
    p = row[TO_MOVE]
    m = row[18 * p + sb] | 1 << c
    out[18 * p + sb] = m
    closed = row[CLOSED]
    if _WINS[m]:
        won = row[WON_X + p] | 1 << sb
        out[WON_X + p] = won
        closed |= 1 << sb
        out[CLOSED] = closed
        if _WINS[won >> 9 if sb >= 9 else won & 511] or closed == _ALL:
            out[TARGET], out[TO_MOVE], out[BONUS] = OVER, 1 - p, 0
            return
        out[TARGET] = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
        if row[BONUS]:
            out[TO_MOVE], out[BONUS] = 1 - p, 0
        else:
            out[BONUS] = 1
        return
    if (row[sb] | row[18 + sb] | 1 << c) == 511:
        closed |= 1 << sb
        out[CLOSED] = closed
        if closed == _ALL:
            out[TARGET], out[TO_MOVE], out[BONUS] = OVER, 1 - p, 0
            return
    out[TARGET] = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
    out[TO_MOVE], out[BONUS] = 1 - p, 0


@jit
def player(row: npt.NDArray[np.int64]) -> int:
    """The player to move (again, on a bonus move), -1 once over."""
    return -1 if row[TARGET] == OVER else int(row[TO_MOVE])


@jit
def reward0(row: npt.NDArray[np.int64]) -> float:
    """X's reward in [0, 1] of a finished row."""
    if _line(row[WON_X]):
        return 1.0
    if _line(row[WON_O]):
        return 0.0
    return _exhausted0(row[WON_X], row[WON_O], row[REWARD])


@jit
def returns(row: npt.NDArray[np.int64], p: int) -> float:
    """``XtremeTicTacToe.returns(state)[p]`` of a finished row, operation for operation (player
    1's is player 0's negated, as the rules make it)."""
    won_x, won_o = row[WON_X], row[WON_O]
    if _line(won_x):
        return 1.0 if p == 0 else -1.0
    if _line(won_o):
        return -1.0 if p == 0 else 1.0
    if row[REWARD] == 0:
        return 0.0
    diff = _POINTS[won_x & 511] + _POINTS[won_x >> 9] - _POINTS[won_o & 511] - _POINTS[won_o >> 9]
    v = float((diff > 0) - (diff < 0)) if row[REWARD] == 1 else diff / MAX_POINTS
    return v if p == 0 else -v


@jit
def playout0(row: npt.NDArray[np.int64], k: int) -> float:
    """X's reward at the end of ``playout``'s game from the row (over or not)."""
    if row[TARGET] == OVER:
        return reward0(row)  # a finished row: once per search, not per simulation
    xs = np.zeros(4, np.int64)
    os = np.zeros(4, np.int64)
    for sb in range(18):
        w, at = divmod(sb, WORD_BOARDS)
        xs[w] |= row[sb] << 9 * at
        os[w] |= row[18 + sb] << 9 * at
    boards = row[WON_X] | row[WON_O] << 18 | row[CLOSED] << 36
    e = end(
        xs[0], xs[1], xs[2], xs[3], os[0], os[1], os[2], os[3], boards, row[TARGET],
        row[TO_MOVE], row[BONUS] != 0, seed(k),
    )  # fmt: skip
    if e < 2:
        return 1.0 if e == 0 else 0.0
    return _exhausted0((e - 2) & _ALL, (e - 2) >> 18, row[REWARD])


@jit
def ending(row: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The moves after which the game is over, in ``legal``'s order: a small board won that
    completes the mover's line of boards, or the last open board closed."""
    count = legal(row, out)
    p = row[TO_MOVE]
    won = row[WON_X + p]
    closed = row[CLOSED]
    k = 0
    for i in range(count):
        m = out[i]
        sb, bit = m // 9, 1 << m % 9
        ends = closed | 1 << sb == _ALL and (row[sb] | row[18 + sb] | bit) == 511
        if _WINS[row[18 * p + sb] | bit]:
            w = won | 1 << sb
            ends = bool(_WINS[w >> 9 if sb >= 9 else w & 511]) or closed | 1 << sb == _ALL
        if ends:
            out[k] = m
            k += 1
    return k

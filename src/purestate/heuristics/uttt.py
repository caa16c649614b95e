"""The 2019 Xtreme tic-tac-toe bot's heuristic for ultimate and Xtreme tic-tac-toe, from its
README.

The 2019 bot (``Nots-and-crosses-on-steroids``, winner of the 2019 IIIT-H Xtreme tic-tac-toe
tournament) scores a *move* with these additive terms (README numbers):

Small board (the board the mark goes in):

- the move wins the small board: 10;
- each line through the cell where the move makes two of ours with the third cell empty: 1;
- each line through the cell where the move blocks two of the opponent's: 1.

Big board (only when the move wins the small board; the big board's "cells" are small boards,
and a drawn small board is not empty):

- the move completes three won boards in a line: 100;
- each line through the board where we now hold two won boards and the third is open: 10;
- each line through the board where we block two of the opponent's won boards: 10.

Two functions use these numbers:

- ``move_scores(game, state) -> tuple[float, ...]``, aligned with ``game.legal(state)``: ``1 +``
  the README points of each move, so every score is a positive playout weight (the 2019 bot
  picks playout moves with probability proportional to it) and an ordering key (the 2019
  bot sorts children by it, highest first, and stops expanding below a move scoring
  ``WIN_SCORE`` or more, which wins the game).
- ``evaluate(game, state) -> float``: a position value for player 0, strictly inside (-1, 1),
  built from the same terms counted on the board as it stands (registered as the ``uttt``
  evaluation for alpha-beta and progressive bias).

The 2019 bot's code (``bot.py``) uses other numbers than its README; ``code_move_scores`` has them,
for a faithful ``xtreme2019``: a move that wins its small board scores ``10 ×`` a big-board score
(10 if it completes a big-board line, else 2 per open two and per block of two made on the big
board, at least 1); any other move scores 2 per open two and per block of two it makes on its
small board, at least 1. A score of ``CODE_WIN_SCORE`` (100) wins the game (the 2019 bot
stops expanding there).

All of these work for ``ultimate_tictactoe`` (one big board) and ``xtreme_tictactoe`` (two; the
terms are summed over both) and raise ``ValueError`` for any other game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from attrs import frozen

from purestate.core.game import Game, made_for
from purestate.core.memo import memo
from purestate.games.big_board import BigBoardGame
from purestate.games.small_board import FULL, LINES_THROUGH, WINS, cached_line_counts, line_counts

for_big_boards = made_for("ultimate_tictactoe", "xtreme_tictactoe")
"""Declares a function made for boards of small boards, as every function here is."""

SMALL_WIN = 10
SMALL_LINE = 1
BIG_WIN = 100
BIG_LINE = 10
WIN_SCORE = 1 + SMALL_WIN + BIG_WIN
"""A move scoring at least this much wins the game (the 2019 bot prunes the branch there)."""
CODE_WIN_SCORE = 100
"""A ``code_move_scores`` score of this much wins the game."""
SCALE = 30.0
"""Heuristic points per unit of the ``tanh`` argument in ``evaluate``: a lead of two small
boards (20 points) is worth about 0.58."""
LIMIT = 0.99
"""``evaluate`` stays within [-LIMIT, LIMIT], so a proven result always outranks it."""


def _big_boards(game: Game[Any, Any]) -> int:
    # a type test, not ``game.spec``: this runs on every ply of a heavy playout
    if isinstance(game, BigBoardGame):
        return game.layout.count
    raise ValueError(
        f"the uttt heuristic plays ultimate_tictactoe and xtreme_tictactoe, not {game.spec.name}"
    )


# callers pass three disjoint 9-bit masks (masked with FULL), so there are at most 3**9 keys
@memo(size=None, why="three disjoint 9-bit masks: at most 3**9 = 19,683 keys")
def _big_lines(mine: int, theirs: int, drawn: int) -> int:
    """Big-board line points of ``mine``: two won with the third open, or a block of two."""
    return BIG_LINE * sum(line_counts(mine, theirs, drawn))


def _big_board(won_mine: int, won_theirs: int, closed: int, k: int) -> tuple[int, int, int]:
    """Big board ``k`` as a 3×3 board: its small boards won by each side and the drawn ones."""
    wm = (won_mine >> (9 * k)) & FULL
    wt = (won_theirs >> (9 * k)) & FULL
    return wm, wt, ((closed >> (9 * k)) & FULL) & ~(wm | wt)


def position_points(game: Game[Any, Any], state: Any) -> tuple[int, int]:
    """The README terms counted on the board as it stands, for X and for O.

    Per player: 10 per small board won, 1 per open small board line with two of theirs and an
    empty third, 1 per open small board line where they block two of the opponent's, 10 per
    big-board line with two of their won boards and an open third, 10 per big-board block.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    big = _big_boards(game)
    x, o, won_x, won_o, closed = state.x, state.o, state.won_x, state.won_o, state.closed
    hx = SMALL_WIN * won_x.bit_count()
    ho = SMALL_WIN * won_o.bit_count()
    for sb in range(9 * big):
        if closed >> sb & 1:
            continue
        mx = (x >> (9 * sb)) & FULL
        mo = (o >> (9 * sb)) & FULL
        twos, blocks = cached_line_counts(mx, mo)
        hx += (twos + blocks) * SMALL_LINE
        twos, blocks = cached_line_counts(mo, mx)
        ho += (twos + blocks) * SMALL_LINE
    for k in range(big):
        wx, wo, drawn = _big_board(won_x, won_o, closed, k)
        hx += _big_lines(wx, wo, drawn)
        ho += _big_lines(wo, wx, drawn)
    return hx, ho


@for_big_boards
def evaluate(game: Game[Any, Any], state: Any) -> float:
    """Player 0's value of ``state``, strictly inside (-1, 1).

    ``tanh((X's points - O's points) / SCALE)`` clipped to ±``LIMIT``, with the points of
    ``position_points``. At the end of the game: ``LIMIT`` times player 0's return.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    if game.is_over(state):
        _big_boards(game)
        return LIMIT * float(game.returns(state)[0])
    hx, ho = position_points(game, state)
    v = math.tanh((hx - ho) / SCALE)
    return max(-LIMIT, min(LIMIT, v))


def _row_evaluation(game: Game[Any, Any]) -> Any:
    """``evaluate``'s compiled twin on ``game``'s rows (``RowEvaluation``, so that alpha-beta
    with ``eval=uttt`` runs compiled): ultimate tic-tac-toe's (``heuristics/kernels/uttt.py``),
    or None: Xtreme's rows have another layout, or numba is not installed."""
    from purestate.core import compiled
    from purestate.games.ultimate import UltimateTicTacToe

    if not isinstance(game, UltimateTicTacToe):
        return None
    kernel = compiled.kernels("uttt", compiled.HEURISTIC_KERNELS)
    return None if kernel is None else kernel.ultimate


evaluate.row_evaluation = _row_evaluation  # type: ignore[attr-defined]


def move_score(game: Game[Any, Any], state: Any, move: int) -> float:
    """``1 +`` the README points of one legal ``move`` for the player to move.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return _row(state, move // 9, _README)[move % 9]


@for_big_boards
def move_scores(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """``move_score`` of every move in ``game.legal(state)``, in the same order.

    Every score is at least 1 (a positive playout weight); a score of ``WIN_SCORE`` or more
    wins the game.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return _scores(state, game.legal(state), _README)


@for_big_boards
def code_move_scores(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """The seed code's move scores (``bot.py``'s numbers), aligned with ``game.legal(state)``.

    Every score is at least 1; ``CODE_WIN_SCORE`` (100) means the move wins the game.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return _scores(state, game.legal(state), _CODE)


# Scores are computed a small board at a time: the small-board part of every cell's score depends
# only on the two players' 9-bit masks there (memoised per pair), and the big-board part is the
# same for every cell that wins the board. Heavy playouts call this on every ply.
Row = tuple[tuple[float, ...], tuple[int, ...]]
"""Per small board: the scores of the nine cells before any big-board part, and the cells that
win the board (they get the big-board part)."""


@frozen
class _Scorer:
    """One set of numbers: the small-board rows, the big-board part of a winning move (from the
    mover's and the opponent's won boards, the drawn boards and the board's position), and
    whether that part is added to the cell's score or replaces it."""

    row: Callable[[int, int], Row]
    big: Callable[[int, int, int, int], int]
    additive: bool


def _scores(state: Any, legal: tuple[int, ...], scorer: _Scorer) -> tuple[float, ...]:
    out: list[float] = []
    current = -1
    row: tuple[float, ...] = ()
    for m in legal:
        sb = m // 9
        if sb != current:
            current = sb
            row = _row(state, sb, scorer)
        out.append(row[m - 9 * sb])
    return tuple(out)


def _row(state: Any, sb: int, scorer: _Scorer) -> tuple[float, ...]:
    if state.to_move == 0:
        mine_bits, theirs_bits = state.x, state.o
    else:
        mine_bits, theirs_bits = state.o, state.x
    base, wins = scorer.row((mine_bits >> (9 * sb)) & FULL, (theirs_bits >> (9 * sb)) & FULL)
    if not wins:
        return base
    k, pos = divmod(sb, 9)
    if state.to_move == 0:
        wm, wt, drawn = _big_board(state.won_x, state.won_o, state.closed, k)
    else:
        wm, wt, drawn = _big_board(state.won_o, state.won_x, state.closed, k)
    big = float(scorer.big(wm, wt, drawn, pos))
    if scorer.additive:
        return tuple(v + big if c in wins else v for c, v in enumerate(base))
    return tuple(big if c in wins else v for c, v in enumerate(base))


# _row passes two disjoint 9-bit masks (masked with FULL), so there are at most 3**9 keys
@memo(size=None, why="two disjoint 9-bit masks: at most 3**9 = 19,683 keys")
def _readme_row(mine: int, theirs: int) -> Row:
    scores = []
    wins = []
    for cell in range(9):
        after = mine | (1 << cell)
        points = 0
        if WINS[after]:
            points += SMALL_WIN
            wins.append(cell)
        points += SMALL_LINE * sum(line_counts(after, theirs, 0, LINES_THROUGH[cell]))
        scores.append(float(1 + points))
    return (tuple(scores), tuple(wins))


def _readme_big(won: int, theirs: int, drawn: int, pos: int) -> int:
    """README big-board points of winning the board at ``pos``."""
    won_after = won | (1 << pos)
    if WINS[won_after]:
        return BIG_WIN
    return BIG_LINE * sum(line_counts(won_after, theirs, drawn, LINES_THROUGH[pos]))


def _code_line_points(mine: int, theirs: int, blocked: int, at: int) -> int:
    """The seed code's score of a mark at ``at``: -1 if it completes a line, else its points.

    ``blocked`` cells are neither empty nor anyone's (drawn small boards on the big board).
    """
    points = 0
    for line in LINES_THROUGH[at]:
        others = line & ~(1 << at)
        a = (mine & others).bit_count()
        b = (theirs & others).bit_count()
        if a == 2:
            return -1
        if (a == 1 and b == 0 and not blocked & others) or b == 2:
            points += 2
    return points if points else 1


# _row passes two disjoint 9-bit masks (masked with FULL), so there are at most 3**9 keys
@memo(size=None, why="two disjoint 9-bit masks: at most 3**9 = 19,683 keys")
def _code_row(mine: int, theirs: int) -> Row:
    scores = []
    wins = []
    for cell in range(9):
        v = _code_line_points(mine, theirs, 0, cell)
        if v < 0:
            wins.append(cell)
        scores.append(float(v))
    return (tuple(scores), tuple(wins))


def _code_big(won: int, theirs: int, drawn: int, pos: int) -> int:
    """The seed code's score of winning the small board at ``pos``: 10 × its big-board score."""
    big = _code_line_points(won, theirs, drawn, pos)
    return 10 * (10 if big < 0 else big)


_README = _Scorer(_readme_row, _readme_big, additive=True)
_CODE = _Scorer(_code_row, _code_big, additive=False)

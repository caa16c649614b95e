"""The seed bot's heuristic for ultimate and Xtreme tic-tac-toe, from its README.

The seed (``Nots-and-crosses-on-steroids``, winner of the 2019 IIIT-H Xtreme tic-tac-toe
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
  the README points of each move, so every score is a positive playout weight (the seed picks
  playout moves with probability proportional to it) and an ordering key (the seed sorts
  children by it, highest first, and stops expanding below a move scoring ``WIN_SCORE`` or more,
  which wins the game).
- ``evaluate(game, state) -> float``: a position value for player 0, strictly inside (-1, 1),
  built from the same terms counted on the board as it stands (registered as the ``uttt``
  evaluation for alpha-beta and progressive bias).

The seed's code (``bot.py``) uses other numbers than its README; ``code_move_scores`` has them,
for a faithful ``seedbot``: a move that wins its small board scores ``10 ×`` a big-board score
(10 if it completes a big-board line, else 2 per open two and per block of two made on the big
board, at least 1); any other move scores 2 per open two and per block of two it makes on its
small board, at least 1. A score of ``CODE_WIN_SCORE`` (100) wins the game (the seed stops
expanding there).

All of these work for ``ultimate_tictactoe`` (one big board) and ``xtreme_tictactoe`` (two; the
terms are summed over both) and raise ``ValueError`` for any other game.
"""

from __future__ import annotations

import math
from typing import Any

from purestate.core.game import Game
from purestate.games.small_board import FULL, LINE_MASKS, LINES_THROUGH, WINS, cached_line_counts

SMALL_WIN = 10
SMALL_LINE = 1
BIG_WIN = 100
BIG_LINE = 10
WIN_SCORE = 1 + SMALL_WIN + BIG_WIN
"""A move scoring at least this much wins the game (the seed prunes the branch there)."""
CODE_WIN_SCORE = 100
"""A ``code_move_scores`` score of this much wins the game."""
SCALE = 30.0
"""Heuristic points per unit of the ``tanh`` argument in ``evaluate``: a lead of two small
boards (20 points) is worth about 0.58."""
LIMIT = 0.99
"""``evaluate`` stays within [-LIMIT, LIMIT], so a proven result always outranks it."""

_BIG_BOARDS = {"ultimate_tictactoe": 1, "xtreme_tictactoe": 2}


def _big_boards(game: Game[Any, Any]) -> int:
    name = game.spec.name
    n = _BIG_BOARDS.get(name)
    if n is None:
        raise ValueError(
            f"the uttt heuristic plays ultimate_tictactoe and xtreme_tictactoe, not {name}"
        )
    return n


_BIG_MEMO: dict[tuple[int, int, int], int] = {}


def _big_lines(mine: int, theirs: int, drawn: int) -> int:
    """Big-board line points of ``mine``: two won with the third open, or a block of two."""
    key = (mine, theirs, drawn)
    got = _BIG_MEMO.get(key)
    if got is None:
        got = 0
        for line in LINE_MASKS:
            a = (mine & line).bit_count()
            b = (theirs & line).bit_count()
            if (a == 2 and b == 0 and not drawn & line) or (a == 1 and b == 2):
                got += BIG_LINE
        _BIG_MEMO[key] = got
    return got


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
        wx = (won_x >> (9 * k)) & FULL
        wo = (won_o >> (9 * k)) & FULL
        drawn = ((closed >> (9 * k)) & FULL) & ~(wx | wo)
        hx += _big_lines(wx, wo, drawn)
        ho += _big_lines(wo, wx, drawn)
    return hx, ho


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


def move_score(game: Game[Any, Any], state: Any, move: int) -> float:
    """``1 +`` the README points of one legal ``move`` for the player to move.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return _score(state, move)


def move_scores(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """``move_score`` of every move in ``game.legal(state)``, in the same order.

    Every score is at least 1 (a positive playout weight); a score of ``WIN_SCORE`` or more
    wins the game.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return tuple(_score(state, m) for m in game.legal(state))


_SMALL_MEMO: dict[tuple[int, int, int], int] = {}


def _small_points(mine: int, theirs: int, cell: int) -> int:
    key = (mine, theirs, cell)
    got = _SMALL_MEMO.get(key)
    if got is None:
        after = mine | (1 << cell)
        got = SMALL_WIN if WINS[after] else 0
        for line in LINES_THROUGH[cell]:
            a = (after & line).bit_count()
            b = (theirs & line).bit_count()
            if (a == 2 and b == 0) or (a == 1 and b == 2):
                got += SMALL_LINE
        _SMALL_MEMO[key] = got
    return got


def _score(state: Any, move: int) -> float:
    sb, cell = divmod(move, 9)
    if state.to_move == 0:
        mine_bits, theirs_bits, won_mine, won_theirs = state.x, state.o, state.won_x, state.won_o
    else:
        mine_bits, theirs_bits, won_mine, won_theirs = state.o, state.x, state.won_o, state.won_x
    mine = (mine_bits >> (9 * sb)) & FULL
    theirs = (theirs_bits >> (9 * sb)) & FULL
    points = _small_points(mine, theirs, cell)
    if WINS[mine | (1 << cell)]:
        k, pos = divmod(sb, 9)
        wm = ((won_mine >> (9 * k)) & FULL) | (1 << pos)
        wt = (won_theirs >> (9 * k)) & FULL
        if WINS[wm]:
            points += BIG_WIN
        else:
            drawn = ((state.closed >> (9 * k)) & FULL) & ~(wm | wt)
            for line in LINES_THROUGH[pos]:
                a = (wm & line).bit_count()
                b = (wt & line).bit_count()
                if (a == 2 and b == 0 and not drawn & line) or (a == 1 and b == 2):
                    points += BIG_LINE
    return float(1 + points)


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


_CODE_MEMO: dict[tuple[int, int, int, int], int] = {}


def _code_points(mine: int, theirs: int, blocked: int, at: int) -> int:
    key = (mine, theirs, blocked, at)
    got = _CODE_MEMO.get(key)
    if got is None:
        got = _CODE_MEMO[key] = _code_line_points(mine, theirs, blocked, at)
    return got


def _code_score(state: Any, move: int) -> float:
    sb, cell = divmod(move, 9)
    if state.to_move == 0:
        mine_bits, theirs_bits, won_mine, won_theirs = state.x, state.o, state.won_x, state.won_o
    else:
        mine_bits, theirs_bits, won_mine, won_theirs = state.o, state.x, state.won_o, state.won_x
    small = _code_points((mine_bits >> (9 * sb)) & FULL, (theirs_bits >> (9 * sb)) & FULL, 0, cell)
    if small >= 0:
        return float(small)
    k, pos = divmod(sb, 9)
    wm = (won_mine >> (9 * k)) & FULL
    wt = (won_theirs >> (9 * k)) & FULL
    drawn = ((state.closed >> (9 * k)) & FULL) & ~(wm | wt)
    big = _code_points(wm, wt, drawn, pos)
    return float(10 * (10 if big < 0 else big))


def code_move_scores(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """The seed code's move scores (``bot.py``'s numbers), aligned with ``game.legal(state)``.

    Every score is at least 1; ``CODE_WIN_SCORE`` (100) means the move wins the game.

    Raises:
        ValueError: for a game other than ultimate or Xtreme tic-tac-toe.
    """
    _big_boards(game)
    return tuple(_code_score(state, m) for m in game.legal(state))

"""Exact connect four near the end: alpha-beta (negamax) with a transposition table.

``score(game, state)`` is the value of a position for the player to move, in the convention of
Pascal Pons's solver (the one connect-four solvers and their test sets use):

* 0 when the game is a draw under perfect play;
* ``(e + 1) // 2`` when the player to move wins and ``e`` cells are empty just before the winning
  stone drops: the number of stones the winner still has in hand, the winning one included. So a
  win with the last stone of a 7×6 board scores 1, an immediate win from the empty board 21, and
  a sooner win scores more;
* minus the opponent's score when the opponent wins.

Both sides play for the score: the winner hurries, the loser delays. A finished position scores
0 for a draw and ``-(e + 2) // 2`` when the player to move has lost (``e`` empty cells now: the
winner's stone dropped when ``e + 1`` were empty).

The search works on two ints (the mover's stones and both players' stones). Before it branches it
wins at once when it can, and answers an opponent's immediate win (two of them lose, one must be
blocked); it tries the columns from the centre out, narrows its window with the best score still
possible (a win with the mover's next stone), and keeps lower and upper bounds per position in a
table local to the call. Positions with more than ``MAX_EMPTY`` empty cells are refused at once
(``TooLarge``): the search time grows about tenfold every four more.

``solve(game)`` (registered in ``purestate.solve``) is the whole game for boards of at most
``MAX_EMPTY`` cells (4×4, 5×4; what ``perfect`` can play); on bigger boards ``score`` solves the
positions near the end.
"""

from __future__ import annotations

from attrs import frozen

from purestate.core.memo import memo
from purestate.games.connect_four import Board, ConnectFour, State
from purestate.solve.bounds import TooLarge

# The most empty cells a position may have. Measured on one core: the whole 5×4 board (20 cells)
# in 0.7 s, random 7×6 positions with 20 empty cells in 0.03 s on average and 0.25 s at worst;
# with 24 empty cells they take up to 10 s and the whole 6×4 board 11 s.
MAX_EMPTY = 20
# What ``purestate.solve.require_solvable`` checks before solving a whole game.
SIZE_LIMIT = MAX_EMPTY
SIZE_UNIT = "empty cells at the start"


def solver_size(game: ConnectFour) -> int:
    """The empty cells of the start: what solving the whole game searches from."""
    return game.board.cells


def empty_cells(game: ConnectFour, state: State) -> int:
    """How many cells of ``state`` are still empty."""
    return game.board.cells - (state.x | state.o).bit_count()


@memo(size=1 << 14, why="positions of a game too big to list; one entry is a few ints")
def score(game: ConnectFour, state: State) -> int:
    """The score of ``state`` for the player to move (the convention of the module's docstring).

    Raises:
        TooLarge: at once, when ``state`` has more than ``MAX_EMPTY`` empty cells.
    """
    b = game.board
    empty = empty_cells(game, state)
    if state.winner >= 0:  # the player to move has lost: the last stone dropped on empty + 1
        return -((empty + 2) // 2)
    if empty == 0:
        return 0
    if empty > MAX_EMPTY:
        raise TooLarge(
            f"the connect_four solver takes positions with at most {MAX_EMPTY} empty cells; "
            f"this one has {empty}: play on, or ask mcts"
        )
    me, mask = (state.x, state.x | state.o) if state.to_move == 0 else (state.o, state.x | state.o)
    return _Search(b).negamax(me, mask, empty, -(empty + 1), empty + 1)


class _Search:
    """One search: the board's masks, the columns from the centre out and the table of bounds."""

    def __init__(self, b: Board) -> None:
        self.b = b
        centre = (b.columns - 1) / 2
        self.order = tuple(
            (b.top[c], b.bottom[c], b.column_mask[c])
            for c in sorted(range(b.columns), key=lambda c: (abs(c - centre), c))
        )
        # position key (me + mask is unique thanks to the spare bit) -> (lower, upper)
        self.bounds: dict[int, tuple[int, int]] = {}

    def negamax(self, me: int, mask: int, empty: int, alpha: int, beta: int) -> int:
        """The score for the mover (stones ``me``; all stones ``mask``), nobody having won yet
        and ``empty`` > 0 cells left, exact when it falls inside (alpha, beta); otherwise a bound
        on the side it fell."""
        has_line = self.b.has_line
        landings = []
        for top, bottom, column in self.order:
            if not mask & top:
                bit = (mask + bottom) & column
                if has_line(me | bit):
                    return (empty + 1) // 2
                landings.append(bit)
        if empty == 1:  # the last cell, and it does not win
            return 0
        them = mask ^ me
        threats = [bit for bit in landings if has_line(them | bit)]
        if len(threats) > 1:  # blocking one, the opponent wins with the other
            return -(empty // 2)
        if threats:
            landings = threats
        best_possible = (empty - 1) // 2  # a win with the mover's next stone
        if beta > best_possible:
            beta = best_possible
            if alpha >= beta:
                return beta
        key = me + mask
        known = self.bounds.get(key)
        if known is not None:
            lo, hi = known
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
            if alpha >= beta:
                return alpha
        else:
            lo, hi = -(empty + 1), empty + 1
        window_low = alpha
        best = -(empty + 1)
        for bit in landings:
            v = -self.negamax(them, mask | bit, empty - 1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= window_low:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.bounds[key] = (lo, hi)
        return best


def plies_to_end(game: ConnectFour, state: State, s: int) -> int:
    """The plies left under perfect play when ``state`` scores ``s`` for the player to move."""
    empty = empty_cells(game, state)
    if state.winner >= 0:
        return 0
    if s == 0:
        return empty  # a draw fills the board
    # the winning stone drops when ``w`` cells are empty, w of the winner's parity
    parity = empty % 2 if s > 0 else (empty - 1) % 2
    w = 2 * abs(s) - 1
    if w % 2 != parity:
        w += 1
    return empty - w + 1


@frozen(eq=False)
class ConnectFourSolution:
    """The solved game, searched position by position when asked.

    Attributes:
        game: The game (a board of at most ``MAX_EMPTY`` cells; any board for positions near
            the end).
    """

    game: ConnectFour

    def score(self, state: State) -> int:
        """The score for the player to move (see the module's docstring)."""
        return score(self.game, state)

    def value(self, state: State) -> float:
        """Player 0's return under perfect play: +1, 0 or -1."""
        s = score(self.game, state)
        mine = (s > 0) - (s < 0)
        return float(mine if state.to_move == 0 else -mine)

    def distance(self, state: State) -> int:
        """Plies to the end under perfect play (the winner hurrying, the loser delaying)."""
        return plies_to_end(self.game, state, score(self.game, state))

    def move_scores(self, state: State) -> dict[int, int]:
        """For each legal move, the mover's score after it (minus the opponent's score)."""
        g = self.game
        return {m: -score(g, g.step(state, m)) for m in g.legal(state)}


def solve(game: ConnectFour) -> ConnectFourSolution:
    """Solve ``game`` (registered in ``purestate.solve``; searched lazily, per position)."""
    return ConnectFourSolution(game)

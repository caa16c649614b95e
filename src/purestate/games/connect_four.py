"""Connect four: the rules on bitboards, the mirror symmetry, the codec and the board for people.

Moves are columns 0 to ``columns - 1`` left to right (OpenSpiel's ``connect_four`` numbering);
people type and read them 1-based (``4`` is the middle column of the usual board), and a game is
written, as the connect-four community writes it, as the 1-based columns played in order: ``4453``
(``decode`` reads that too). Player 0 is X and moves first; a stone drops to the lowest empty cell
of its column; whoever first has ``connect`` stones in a row (across, up or diagonally) wins, and
a full board without one is a draw.

Board layout (the classic one): column ``c`` owns the bits ``c·(rows + 1)`` up to
``c·(rows + 1) + rows - 1``, bottom cell first, plus one spare bit above its top cell that is
never set. The spare bits stop a line from wrapping from one column into the next, so a line test
is a few shifts and ands of the whole board: ``m = b & b >> d``, ``m & m >> 2d`` finds four in a row
in direction ``d`` (1 up, ``rows + 1`` across, ``rows`` and ``rows + 2`` diagonally). With the
stones ``mask`` of both players, ``mask + bottom(c)`` carries into the lowest empty cell of
column ``c``: a move is one addition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import field, frozen

from purestate.core import compiled, keys
from purestate.core.batch import python_batch
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.core.hooks import Rows
from purestate.core.memo import memo
from purestate.core.picture import (
    HIGHLIGHT,
    INK,
    PLAYER_COLOURS,
    document,
    el,
    move_data,
    text,
    winning_line,
)
from purestate.core.planes import bits
from purestate.core.symmetry import PermutationGroup

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MARKS = ("X", "O")
_WINNER_RETURNS = ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0))  # by a kernel's winner + 1 (-1: a draw)
MIN_SIZE, MAX_SIZE = 4, 9  # columns and rows; 9 keeps the 1-based columns single digits
# Positions decode checks for a way to have played their stones in turn (see ``_interleaves``):
# enough for any board that arises in a game, which the first dive finds; a board built to defeat
# the search is accepted after this many as far as the cheaper checks tell.
INTERLEAVE_BUDGET = 100_000


@frozen
class State:
    """A connect-four position.

    Attributes:
        x: X's stones (player 0) as a bitboard: bit ``c·(rows + 1) + r`` is column c, row r from
            the bottom.
        o: O's stones (player 1), the same layout.
        to_move: 0 when X is to move, 1 when O is (X has as many stones as O, or one more).
        winner: The player who has ``connect`` in a row, or -1 while nobody has (the game is also
            over when the board is full). Kept in the state so that ending tests are free.
    """

    x: int
    o: int
    to_move: int
    winner: int


# Building the new state is most of the cost of a step: ``_state`` fills the slots through
# their descriptors, skipping attrs' setattr-by-name in ``__init__``; the same frozen value.
_new = object.__new__
_set_x, _set_o, _set_to_move, _set_winner = (
    getattr(State, name).__set__ for name in ("x", "o", "to_move", "winner")
)


def _state(x: int, o: int, to_move: int, winner: int) -> State:
    s: State = _new(State)
    _set_x(s, x)
    _set_o(s, o)
    _set_to_move(s, to_move)
    _set_winner(s, winner)
    return s


class Board:
    """The bit masks and tables of one board size and line length, computed once.

    Attributes:
        columns, rows, connect: The size and the line length.
        stride: ``rows + 1`` bits per column (the spare bit on top).
        cells: ``columns · rows``.
        bottom: ``bottom[c]`` is the bit of column c's lowest cell.
        top: ``top[c]`` is the bit of column c's highest cell (set iff the column is full).
        column_mask: ``column_mask[c]`` has the bits of column c's cells.
        full: Every cell's bit.
        tops: Every column's top bit: ``mask & tops`` says which columns are full.
        legal: ``legal[mask & tops]`` is the tuple of columns not full, in increasing order.
        shifts: One tuple of shifts per direction: ``m = b``, then ``m &= m >> s`` for each ``s``,
            leaves a bit set iff ``b`` has ``connect`` in a row in that direction.
        has_line: Whether the stones it is given hold ``connect`` in a row.
        bottoms: Every column's bottom bit: ``(mask + bottoms) & full`` is the cells a move can
            fill.
        threats: The cells (any bits, filled or not) that would complete ``connect`` in a row of
            the stones it is given: ``threats(mine) & playable`` is the mover's winning moves.
    """

    def __init__(self, columns: int, rows: int, connect: int) -> None:
        self.columns, self.rows, self.connect = columns, rows, connect
        self.stride = rows + 1
        self.cells = columns * rows
        self.bottom = tuple(1 << c * self.stride for c in range(columns))
        self.top = tuple(1 << c * self.stride + rows - 1 for c in range(columns))
        self.column_mask = tuple(((1 << rows) - 1) << c * self.stride for c in range(columns))
        self.full = sum(self.column_mask)
        self.tops = sum(self.top)
        self.legal: dict[int, tuple[int, ...]] = {}
        for full_cols in range(1 << columns):
            key = sum(self.top[c] for c in range(columns) if full_cols >> c & 1)
            self.legal[key] = tuple(c for c in range(columns) if not full_cols >> c & 1)
        steps = []
        run = 1
        while run < connect:  # runs of 1, 2, 4, ... then the rest: log2(connect) shifts
            s = min(run, connect - run)
            steps.append(s)
            run += s
        self.shifts = tuple(
            tuple(s * d for s in steps) for d in (1, self.stride, rows, self.stride + 1)
        )
        # the first shift of each direction is the direction's step (runs start at 1)
        self.has_line: Callable[[int], bool] = _line_test(self.shifts)
        """Whether the stones it is given hold ``connect`` in a row."""
        self.bottoms = sum(self.bottom)
        """Every column's bottom bit: ``(mask + bottoms) & full`` is the cells a move can fill."""
        self.threats: Callable[[int], int] = _threat_test(tuple(d[0] for d in self.shifts), connect)
        """The cells (any bits, filled or not) that would complete ``connect`` in a row of the
        stones it is given: ``threats(mine) & playable`` is the mover's winning moves."""

    def column_of(self, b: int, c: int) -> int:
        """Column c of ``b`` moved down to column 0's bits."""
        return (b >> c * self.stride) & self.column_mask[0]

    def mirrored(self, b: int) -> int:
        """``b`` reflected left to right."""
        out = 0
        for c in range(self.columns):
            out |= self.column_of(b, c) << (self.columns - 1 - c) * self.stride
        return out

    def height(self, mask: int, c: int) -> int:
        """How many stones column c holds."""
        return self.column_of(mask, c).bit_length()


def _line_test(shifts: tuple[tuple[int, ...], ...]) -> Callable[[int], bool]:
    """The line test for ``Board.shifts``: straight-line code for lines of 3 or 4 (two shifts a
    direction; ``step`` runs it every move), a loop over the shifts for longer lines."""
    if any(len(d) != 2 for d in shifts):

        def general(bits: int) -> bool:
            for direction in shifts:
                m = bits
                for s in direction:
                    m &= m >> s
                if m:
                    return True
            return False

        return general
    (a1, a2), (b1, b2), (c1, c2), (d1, d2) = shifts

    def short(bits: int) -> bool:
        m = bits & bits >> a1
        if m & m >> a2:
            return True
        m = bits & bits >> b1
        if m & m >> b2:
            return True
        m = bits & bits >> c1
        if m & m >> c2:
            return True
        m = bits & bits >> d1
        return bool(m & m >> d2)

    return short


def _threat_test(directions: tuple[int, ...], connect: int) -> Callable[[int], int]:
    """The threat test for the steps ``directions`` (up, across and the two diagonals): a cell
    completes a line when the ``j`` cells before it and the ``connect - 1 - j`` after it along a
    direction are the player's, for some ``j``. Straight-line code for four in a row (the usual
    game; the decisive playout runs it every ply), a loop for other lengths. The spare bit above
    each column is never a stone, so no line wraps from one column into the next."""
    up, across, down, rise = directions
    if connect != 4:
        last = connect - 1

        def general(p: int) -> int:
            found = 0
            for d in directions:
                before, after = [-1], [-1]  # before[j]: the j cells before are p's
                for j in range(1, connect):
                    before.append(before[-1] & p << j * d)
                    after.append(after[-1] & p >> j * d)
                for j in range(connect):
                    found |= before[j] & after[last - j]
            return found

        return general

    a, a2, a3 = across, 2 * across, 3 * across
    d, d2, d3 = down, 2 * down, 3 * down
    r, r2, r3 = rise, 2 * rise, 3 * rise

    def four(p: int) -> int:
        # upwards only the three cells below can complete a line (nothing stands on a hole);
        # each other direction: 3 before, 2 before and 1 after, 1 before and 2 after, 3 after
        # (written out: the decisive playout's cost is mostly this)
        b1 = p << a
        b2 = b1 & p << a2
        f1 = p >> a
        f2 = f1 & p >> a2
        found = b2 & (p << a3 | f1) | f2 & (b1 | p >> a3) | p << up & p << 2 * up & p << 3 * up
        b1 = p << d
        b2 = b1 & p << d2
        f1 = p >> d
        f2 = f1 & p >> d2
        found |= b2 & (p << d3 | f1) | f2 & (b1 | p >> d3)
        b1 = p << r
        b2 = b1 & p << r2
        f1 = p >> r
        f2 = f1 & p >> r2
        return found | b2 & (p << r3 | f1) | f2 & (b1 | p >> r3)

    return four


@memo(size=None, why="one entry per board size and line length: at most 6 × 6 × 7 of them")
def board(columns: int, rows: int, connect: int) -> Board:
    """The precomputed masks of a board (one object per size)."""
    return Board(columns, rows, connect)


def _interleaves(b: Board, x: int, o: int) -> bool | None:
    """Whether X and O can have played these stones in turn, X first, each on top of its column.

    A depth-first search over how many stones of each column have been played, remembering
    dead ends; it tries first the columns whose next stone lets the other player move next. True
    or False, or None when ``INTERLEAVE_BUDGET`` runs out (only boards built for it get there).
    """
    cols = []
    for c in range(b.columns):
        xs, os = b.column_of(x, c), b.column_of(o, c)
        h = (xs | os).bit_length()
        cols.append(tuple(0 if xs >> r & 1 else 1 for r in range(h)))
    total = sum(len(col) for col in cols)
    dead: set[tuple[int, ...]] = set()
    budget = [INTERLEAVE_BUDGET]

    def search(heights: tuple[int, ...], played: int) -> bool | None:
        if played == total:
            return True
        if heights in dead:
            return False
        budget[0] -= 1
        if budget[0] < 0:
            return None
        colour = played & 1
        options = [
            c for c, col in enumerate(cols) if heights[c] < len(col) and col[heights[c]] == colour
        ]
        # a column whose stone after this one is the other colour first: it unlocks a reply
        options.sort(
            key=lambda c: heights[c] + 1 < len(cols[c]) and cols[c][heights[c] + 1] == colour
        )
        for c in options:
            found = search((*heights[:c], heights[c] + 1, *heights[c + 1 :]), played + 1)
            if found is not False:
                return found
        dead.add(heights)
        return False

    return search((0,) * b.columns, 0)


def why_unreachable(b: Board, x: int, o: int) -> str | None:
    """Why the stones ``x`` and ``o`` cannot arise in a game, or None if they can.

    Checks the board (stones on cells, one per cell, none floating), the counts (X first), the
    lines (one player's at most, made by the last stone played) and that the stones can have been
    played in turn (``_interleaves``, exact except on boards built to defeat it).
    """
    if x < 0 or o < 0 or (x | o) & ~b.full or x & o:
        return "stones outside the board or two stones on one cell"
    mask = x | o
    for c in range(b.columns):
        col = b.column_of(mask, c)
        if col & (col + 1):
            return f"a stone floats above an empty cell in column {c + 1}"
    nx, no = x.bit_count(), o.bit_count()
    if nx - no not in (0, 1):
        return f"{nx} X and {no} O: X moves first, so X has as many stones as O or one more"
    xl, ol = b.has_line(x), b.has_line(o)
    if xl and ol:
        return f"both players have {b.connect} in a row"
    if xl or ol:
        mine, last = (x, "X") if xl else (o, "O")
        if xl != (nx > no):
            return f"{last} has {b.connect} in a row but the other player moved after it"
        # the winning stone was played last: one of the winner's on top of a column, before
        # which nobody had a line and the rest was played in turn
        heights = [b.height(mask, c) for c in range(b.columns)]
        tops = [1 << c * b.stride + h - 1 for c, h in enumerate(heights) if h]
        last_stones = [t for t in tops if mine & t and not b.has_line(mine & ~t)]
        if not last_stones:
            return f"{last} has lines no single last stone could have made"
        if all(
            _interleaves(b, x & ~t, o) is False if xl else _interleaves(b, x, o & ~t) is False
            for t in last_stones
        ):
            return "the stones cannot have been played in turn, X first"
        return None
    if _interleaves(b, x, o) is False:
        return "the stones cannot have been played in turn, X first"
    return None


def row_of(state: State, columns: int, rows: int, connect: int) -> npt.NDArray[np.int64]:
    """The state's row for the row kernels: (x, o, to_move, winner, columns, rows, connect)."""
    import numpy as np

    return np.array(
        (state.x, state.o, state.to_move, state.winner, columns, rows, connect), np.int64
    )


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of`` undone)."""
    return _state(int(row[0]), int(row[1]), int(row[2]), int(row[3]))


@memo(size=None, why="one entry per board size and line length: at most 6 × 6 × 7 of them")
def _rows(columns: int, rows: int, connect: int) -> Rows | None:
    kernel = compiled.kernels("connect_four")
    if kernel is None:
        return None
    return Rows(
        width=kernel.WIDTH, max_moves=columns,
        row_of=partial(row_of, columns=columns, rows=rows, connect=connect), state_of=state_of,
        legal=kernel.legal, step=kernel.step, player=kernel.player, reward0=kernel.reward0,
        playout0=kernel.playout0, decisive0=kernel.decisive0, ending=kernel.ending,
        returns=kernel.returns,
    )  # fmt: skip


def _digits(columns: int) -> str:
    return f"1-{columns}"


@frozen
class ConnectFour:
    """Connect four: drop stones into columns; the first to line up ``connect`` wins.

    Attributes:
        columns: Columns across (4-9; 7 by default).
        rows: Rows up (4-9; 6 by default).
        connect: Stones in a row that win (3 up to the larger of columns and rows; 4 by default).
    """

    seat_marks: ClassVar[tuple[str, str]] = ("X, blue", "O, red")
    """What each seat plays with (``MarkedSeats``): the terminal's mark, the drawing's colour."""

    columns: int = 7
    rows: int = 6
    connect: int = 4
    _board: Board = field(init=False, eq=False, repr=False)
    _spec: GameSpec = field(init=False, eq=False, repr=False)
    # the board's hot masks, copied onto the game so the rules reach them in one look-up
    _full: int = field(init=False, eq=False, repr=False)
    _tops: int = field(init=False, eq=False, repr=False)
    _legal: dict[int, tuple[int, ...]] = field(init=False, eq=False, repr=False)
    _top: tuple[int, ...] = field(init=False, eq=False, repr=False)
    _bottom: tuple[int, ...] = field(init=False, eq=False, repr=False)
    _column_mask: tuple[int, ...] = field(init=False, eq=False, repr=False)
    _has_line: Callable[[int], bool] = field(init=False, eq=False, repr=False)
    _compiles: bool = field(init=False, eq=False, repr=False)  # the board fits the kernels

    def __attrs_post_init__(self) -> None:
        for name, v in (("columns", self.columns), ("rows", self.rows)):
            if type(v) is not int or not MIN_SIZE <= v <= MAX_SIZE:
                raise ValueError(f"{name} must be a whole number from {MIN_SIZE} to {MAX_SIZE}")
        longest = max(self.columns, self.rows)
        if type(self.connect) is not int or not 3 <= self.connect <= longest:
            raise ValueError(
                f"connect must be a whole number from 3 to {longest} (the longer side)"
            )
        b = board(self.columns, self.rows, self.connect)
        object.__setattr__(self, "_board", b)
        for name in ("full", "tops", "legal", "top", "bottom", "column_mask", "has_line"):
            object.__setattr__(self, f"_{name}", getattr(b, name))
        # every position is a colouring of column prefixes: at most 3^cells, and
        # sum over heights of 2^stones = (2^(rows+1) - 1)^columns
        bound = (2 ** (self.rows + 1) - 1) ** self.columns
        spec = GameSpec(
            "connect_four",
            2,
            b.cells,
            positions=bound,
            # a smaller board with a shorter line: the rules' sizes are options
            variants=("connect_four", "connect_four:columns=5,rows=4,connect=3"),
            solver="purestate.solve.connect_four:solve",
        )
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_compiles", self.columns * (self.rows + 1) <= 63)

    def __reduce__(self) -> tuple[type[ConnectFour], tuple[int, int, int]]:
        # the board's line tests are closures, which do not pickle: a worker process (evaluate
        # --jobs, tournament --jobs) builds the game again from its options
        return ConnectFour, (self.columns, self.rows, self.connect)

    # -- facts ------------------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        """Name and bounds: at most ``columns · rows`` plies; ``positions`` counts the ways to
        fill each column to some height with X and O, ``(2^(rows+1) - 1)^columns`` (about
        ``10^13`` on 7×6, which has 4,531,985,219,092), so nothing walks the whole game."""
        return self._spec

    @property
    def board(self) -> Board:
        """The precomputed masks of this board size."""
        return self._board

    @property
    def num_move_ids(self) -> int:
        """One move id per column."""
        return self.columns

    # -- rules ------------------------------------------------------------------------------

    def initial(self) -> State:
        """The empty board, X to move."""
        return _state(0, 0, 0, -1)

    def to_move(self, state: State) -> int:
        """0 for X, 1 for O."""
        return state.to_move

    def legal(self, state: State) -> tuple[int, ...]:
        """The columns that are not full, left to right; () once the game is over."""
        if state.winner >= 0:
            return ()
        return self._legal[(state.x | state.o) & self._tops]

    def is_over(self, state: State) -> bool:
        """A line of ``connect`` or a full board."""
        return state.winner >= 0 or (state.x | state.o) == self._full

    def returns(self, state: State) -> tuple[float, float]:
        """(+1, -1) if X won, (-1, +1) if O won, (0, 0) for a draw or an unfinished game."""
        w = state.winner
        return (0.0, 0.0) if w < 0 else (1.0, -1.0) if w == 0 else (-1.0, 1.0)

    def step(self, state: State, move: int) -> State:
        """Drop the mover's stone into column ``move``.

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)``: a plain int (not a bool)
                naming a column that is not full, in a game that is not over.
        """
        if type(move) is not int or not 0 <= move < self.columns:
            raise IllegalMove(
                f"{move!r} is not a move of connect_four (moves are column ints "
                f"0-{self.columns - 1})"
            )
        x, o = state.x, state.o
        mask = x | o
        if mask & self._top[move] or state.winner >= 0:  # a full board has every top set
            if self.is_over(state):
                raise IllegalMove("the game is over")
            raise IllegalMove(f"column {move + 1} is full")
        bit = (mask + self._bottom[move]) & self._column_mask[move]
        child: State = _new(State)  # ``_state`` written out: a call costs a tenth of a step
        if state.to_move == 0:
            x |= bit
            _set_to_move(child, 1)
            _set_winner(child, 0 if self._has_line(x) else -1)
        else:
            o |= bit
            _set_to_move(child, 0)
            _set_winner(child, 1 if self._has_line(o) else -1)
        _set_x(child, x)
        _set_o(child, o)
        return child

    def ending_moves(self, state: State) -> tuple[int, ...]:
        """The columns after which the game is over, left to right (``EndingMoves``): the
        mover's winning cells among the playable ones (the threat test, once for the whole
        board), or the last empty cell."""
        mask = state.x | state.o
        if state.winner >= 0 or mask == self._full:
            return ()
        b = self._board
        playable = (mask + b.bottoms) & self._full
        mine = state.o if state.to_move else state.x
        # nobody can win at once before holding ``connect - 1`` stones
        ends = b.threats(mine) & playable if mine.bit_count() >= self.connect - 1 else 0
        if (mask | playable) == self._full and playable.bit_count() == 1:
            ends = playable  # the last cell: the game ends, won or drawn
        if not ends:
            return ()
        column_mask = self._column_mask
        return tuple(c for c in self._legal[mask & self._tops] if ends & column_mask[c])

    def playout(
        self, state: State, key: keys.Key, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """The returns at the end of a uniformly random game from ``state`` (MCTS rollouts).

        The game ``legal(s)[int(r * len(legal(s)))]`` plays, ``r`` drawn in turn from
        ``keys.stream(key)`` (``draws="mersenne"``: from ``keys.generator(key).random``, as
        before run format 3); compiled where numba is and the board fits 63 bits, else
        ``python_playout``, with the same result.
        """
        if state.winner < 0 and draws == "counter" and self._compiles:
            kernel = compiled.kernels("connect_four")
            if kernel is not None:
                w = kernel.playout(
                    state.x, state.o, state.to_move, self.columns, self.rows, self.connect,
                    compiled.as_int64(key),
                )  # fmt: skip
                return _WINNER_RETURNS[w + 1]
        return self.python_playout(state, key, draws)

    def playouts(
        self, states: Sequence[State], ks: npt.NDArray[np.uint64]
    ) -> npt.NDArray[np.float64]:
        """The returns of ``playout(states[i], ks[i])`` for every i, as an (n, 2) array
        (``BatchPlayouts``; one state stands for all). Compiled, in one call, where numba is
        and the board fits 63 bits."""
        import numpy as np

        kernel = compiled.kernels("connect_four")
        if kernel is None or not self._compiles:
            return python_batch(self, states, ks)
        fields = np.array([(s.x, s.o, s.to_move, s.winner) for s in states], np.int64)
        if len(states) == 1:
            fields = np.repeat(fields, len(ks), axis=0)
        xs, os, ps, ws = (np.ascontiguousarray(fields[:, i]) for i in range(4))
        signed = np.ascontiguousarray(ks, np.uint64).view(np.int64)
        winners = kernel.playouts(xs, os, ps, ws, signed, self.columns, self.rows, self.connect)
        returns: npt.NDArray[np.float64] = np.array(_WINNER_RETURNS)[winners + 1]
        return returns

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows with ``kernels/connect_four.py``'s compiled rules
        (``RowKernels``; decisive playouts too); None without numba or on a board of more than
        63 bits."""
        return _rows(self.columns, self.rows, self.connect) if self._compiles else None

    def python_playout(
        self, state: State, key: keys.Key, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """``playout`` on local Python ints: the reference the compiled kernel is checked
        against, and the path without numba."""
        if state.winner >= 0:
            return self.returns(state)
        legal, tops, bottom, column_mask = self._legal, self._tops, self._bottom, self._column_mask
        rnd = keys.draws(key, draws)
        mover = state.to_move
        mine, theirs = (state.x, state.o) if mover == 0 else (state.o, state.x)
        mask = mine | theirs
        # nobody lines up ``connect`` stones before holding as many: the plies until then need
        # no line test (the mover's stone number connect drops on ply 2(k - mine) - 1)
        k = self.connect
        quiet = max(0, min(2 * (k - mine.bit_count()) - 2, 2 * (k - theirs.bit_count()) - 1))
        # lines of 3 or 4 take two shifts a direction: the line test written out below (a call
        # per ply costs a tenth of a playout); longer lines call the general test
        shifts = self._board.shifts
        short = all(len(d) == 2 for d in shifts)
        (a1, a2), (b1, b2), (c1, c2), (d1, d2) = (d[:2] for d in shifts)
        has_line = self._has_line
        while True:
            moves = legal[mask & tops]
            if not moves:
                return (0.0, 0.0)
            c = moves[int(rnd() * len(moves))]
            bit = (mask + bottom[c]) & column_mask[c]
            mask |= bit
            mine |= bit
            if quiet:
                quiet -= 1
            elif short:
                m = mine & mine >> a1
                if m & m >> a2:
                    break
                m = mine & mine >> b1
                if m & m >> b2:
                    break
                m = mine & mine >> c1
                if m & m >> c2:
                    break
                m = mine & mine >> d1
                if m & m >> d2:
                    break
            elif has_line(mine):
                break
            mine, theirs = theirs, mine
            mover ^= 1
        return (1.0, -1.0) if mover == 0 else (-1.0, 1.0)

    def decisive_playout(
        self, state: State, key: keys.Key, anti: bool = False, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """The returns at the end of a random game from ``state`` in which a player who can line
        up ``connect`` at once does (MCTS's decisive rollouts, ``DecisivePlayout``).

        Each ply the mover wins if a playable cell completes one of their lines; otherwise they
        play ``legal(s)[i]`` with ``i = int(r * len(legal(s)))``, ``r`` drawn in turn from
        ``keys.stream(key)`` (``draws="mersenne"``: ``keys.generator(key).random``), or with
        ``anti`` the first column from ``i`` on (cyclically) after which the opponent cannot win
        at once, if there is one. Compiled where numba is and the board fits 63 bits, else
        ``python_decisive_playout``, with the same result.
        """
        if draws == "counter" and self._compiles and not self.is_over(state):
            kernel = compiled.kernels("connect_four")
            if kernel is not None:
                w = kernel.decisive_playout(
                    state.x, state.o, state.to_move, self.columns, self.rows, self.connect,
                    anti, compiled.as_int64(key),
                )  # fmt: skip
                return _WINNER_RETURNS[w + 1]
        return self.python_decisive_playout(state, key, anti, draws)

    def python_decisive_playout(
        self, state: State, key: keys.Key, anti: bool = False, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """``decisive_playout`` on local Python ints (the reference, and the path without
        numba). A random move never wins, so no line test runs: each player's winning cells (the
        threat test) are worked out again only when their stones change."""
        if self.is_over(state):
            return self.returns(state)
        legal, tops, bottom, column_mask = self._legal, self._tops, self._bottom, self._column_mask
        full, bottoms, threats = self._full, self._board.bottoms, self._board.threats
        rnd = keys.draws(key, draws)
        mover = state.to_move
        mine, theirs = (state.x, state.o) if mover == 0 else (state.o, state.x)
        mask = mine | theirs
        # nobody can win at once before holding ``connect - 1`` stones: no threat test until then
        k = self.connect - 1
        wins = threats(mine) if mine.bit_count() >= k else 0
        losses = threats(theirs) if theirs.bit_count() >= k else 0
        while True:
            moves = legal[mask & tops]
            if not moves:
                return (0.0, 0.0)
            if wins & (mask + bottoms) & full:
                break
            n = len(moves)
            i = int(rnd() * n)
            bit = (mask + bottom[moves[i]]) & column_mask[moves[i]]
            if anti and losses & ((mask | bit) + bottoms) & full:
                for j in range(1, n):
                    c = moves[(i + j) % n]
                    b = (mask + bottom[c]) & column_mask[c]
                    if not losses & ((mask | b) + bottoms) & full:
                        bit = b
                        break
            mask |= bit
            mine |= bit
            if wins or mine.bit_count() >= k:
                wins = threats(mine)
            mine, theirs, wins, losses = theirs, mine, losses, wins
            mover ^= 1
        return (1.0, -1.0) if mover == 0 else (-1.0, 1.0)

    # -- symmetries -------------------------------------------------------------------------

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The identity (0) and the left-right mirror (1)."""
        return _group(self.columns).indices

    def transform(self, state: State, sym: int) -> State:
        """The board reflected left to right when ``sym`` is 1."""
        if sym == 0:
            return state
        b = self._board
        return _state(b.mirrored(state.x), b.mirrored(state.o), state.to_move, state.winner)

    def transform_move(self, move: int, sym: int) -> int:
        """The column ``move`` is carried to by ``sym``."""
        return _group(self.columns).perms[sym][move]

    def inverse(self, sym: int) -> int:
        """Each element is its own inverse."""
        return _group(self.columns).inverses[sym]

    def canonical(self, state: State) -> tuple[State, int]:
        """The image with the smaller (x, o), the identity on a tie."""
        image = self.transform(state, 1)
        if (image.x, image.o) < (state.x, state.o):
            return image, 1
        return state, 0

    # -- text -------------------------------------------------------------------------------

    def cell(self, state: State, column: int, row: int) -> str:
        """``X``, ``O`` or ``.`` for the cell at ``column``, ``row`` (rows from the bottom)."""
        bit = 1 << column * self._board.stride + row
        return MARKS[0] if state.x & bit else MARKS[1] if state.o & bit else "."

    def encode(self, state: State) -> str:
        """The rows from the top, ``/`` between them, a character a cell: ``X``, ``O`` or
        ``.``. Example on 7×6 after ``4453``: ``......./......./......./......./...O.../..OXX..``.
        """
        return "/".join(
            "".join(self.cell(state, c, r) for c in range(self.columns))
            for r in range(self.rows - 1, -1, -1)
        )

    def decode(self, text: str) -> State:
        """The position ``encode`` writes, or the one a game written as ``4453`` reaches.

        A board may use line breaks for ``/`` and spaces are ignored. Digits alone are the
        1-based columns played from the start (empty text is the start).

        Raises:
            ParseError: for text that is neither, a move sequence with an illegal move, or a board
                no game reaches (the message says why).
        """
        t = "".join(text.split())
        if t.isdigit() or not t:
            return self._replay(t)
        rows = text.replace("/", "\n").split()
        rows = ["".join(r.split()) for r in rows]
        if len(rows) != self.rows or any(
            len(r) != self.columns or set(r) - set("XO.xo") for r in rows
        ):
            raise ParseError(
                f"{text!r} is not a board: expected {self.rows} rows of {self.columns} of "
                f"X, O or '.' separated by '/', or the columns played (e.g. 4453)"
            )
        b = self._board
        x = o = 0
        for i, r in enumerate(rows):
            row = self.rows - 1 - i
            for c, ch in enumerate(r.upper()):
                if ch == "X":
                    x |= 1 << c * b.stride + row
                elif ch == "O":
                    o |= 1 << c * b.stride + row
        why = why_unreachable(b, x, o)
        if why is not None:
            raise ParseError(f"{text!r} is not a reachable position: {why}")
        winner = 0 if b.has_line(x) else 1 if b.has_line(o) else -1
        return _state(x, o, x.bit_count() - o.bit_count(), winner)

    def _replay(self, digits: str) -> State:
        s = self.initial()
        for i, ch in enumerate(digits):
            try:
                s = self.step(s, self.parse_move(s, ch))
            except (ParseError, IllegalMove) as e:
                raise ParseError(f"{digits!r}: move {i + 1} ({ch}): {e}") from None
        return s

    def moves_text(self, moves: tuple[int, ...] | list[int]) -> str:
        """A game as the connect-four community writes it: the 1-based columns, ``4453``."""
        return "".join(self.format_move(m) for m in moves)

    def render(self, state: State) -> str:
        """The board from the top (X, O, ``.``), the column numbers to type under it."""
        lines = [
            " " + " ".join(self.cell(state, c, r) for c in range(self.columns))
            for r in range(self.rows - 1, -1, -1)
        ]
        lines.append(" " + " ".join(str(c + 1) for c in range(self.columns)))
        return "\n".join(lines)

    def parse_move(self, state: State, text: str) -> int:
        """A column as people number them, 1 at the left (the number under the board)."""
        t = text.strip()
        if not t.isdigit() or not 1 <= int(t) <= self.columns:
            raise ParseError(f"{t!r} is not a column: type a number from {_digits(self.columns)}")
        move = int(t) - 1
        if move not in self.legal(state):
            if self.is_over(state):
                raise IllegalMove("the game is over")
            raise IllegalMove(f"column {move + 1} is full")
        return move

    def format_move(self, move: int) -> str:
        """The column's 1-based number."""
        return str(move + 1)

    # -- planes and picture (optional hooks: core/game.py) --------------------------------------

    plane_lines = ("the observer's stones", "the other player's stones", "the empty cells")

    @property
    def plane_shape(self) -> tuple[int, ...]:
        """A row and a column per cell, rows from the bottom; three planes."""
        return (self.rows, self.columns, 3)

    def planes(self, state: State, player: int) -> np.ndarray:
        """OpenSpiel's three planes (the observer's stones, the other's, the empty cells), rows
        from the bottom as OpenSpiel counts them."""
        b = self.board
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        n = b.columns * b.stride
        cells = bits(mine | theirs << n | (b.full & ~(state.x | state.o)) << 2 * n, 3 * n)
        # the bitboard's spare bit per column is dropped
        by_column = cells.reshape(3, b.columns, b.stride)[:, :, : b.rows]
        return by_column.transpose(2, 1, 0).copy(order="C")

    def draw(self, state: State, title: str, last: Any, history: Sequence[Any] = ()) -> str:
        """The upright frame, stones in the players' colours: each column (the whole strip)
        carries ``data-move`` while it is not full."""
        b = self.board
        legal = set(self.legal(state))
        width, height = b.columns * _CELL, b.rows * _CELL
        parts = [el("rect", x=_MARGIN, y=_MARGIN, width=width, height=height, fill=_FRAME, rx=8)]
        mask = state.x | state.o
        for c in range(b.columns):
            x = _MARGIN + c * _CELL
            top = b.height(mask, c) - 1  # the column's highest stone: the last move's if last
            for r in range(b.rows):
                y = _MARGIN + (b.rows - 1 - r) * _CELL
                mark = self.cell(state, c, r)
                fill = "#fff" if mark == "." else PLAYER_COLOURS[MARKS.index(mark)]
                ring = HIGHLIGHT if c == last and r == top else _FRAME
                parts.append(
                    el("circle", cx=x + _CELL / 2, cy=y + _CELL / 2, r=_CELL * 0.4, fill=fill,
                       stroke=ring, stroke_width=4)
                )  # fmt: skip
            parts.append(text(x + _CELL / 2, _MARGIN + height + 16, self.format_move(c), 14,
                              text_anchor="middle", fill=INK))  # fmt: skip
            # the clickable strip over the column, drawn last so it takes the clicks
            parts.append(
                el("rect", x=x, y=_MARGIN, width=_CELL, height=height, fill="transparent",
                   class_="cell", **move_data(self.format_move(c), c in legal))
            )  # fmt: skip
        line = self._winning_cells(state)
        if line:
            centres = [(_MARGIN + (c + 0.5) * _CELL, _MARGIN + (b.rows - r - 0.5) * _CELL)
                       for c, r in line]  # fmt: skip
            names = " ".join(f"{self.format_move(c)}:{r + 1}" for c, r in line)
            parts.append(winning_line(centres, 12, names))
        return document(2 * _MARGIN + width, 2 * _MARGIN + height + _LABELS, "".join(parts),
                        title, self.spec.name)  # fmt: skip

    def _winning_cells(self, state: State) -> list[tuple[int, int]]:
        """The winner's ``connect`` stones in a row as (column, row) from one end to the other,
        or [] while nobody has won (for the drawing: a scan of the cells, not the bitboard)."""
        if state.winner < 0:
            return []
        mark, n = MARKS[state.winner], self.connect
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [(c + i * dc, r + i * dr) for i in range(n)]
                    if all(0 <= x < self.columns and 0 <= y < self.rows
                           and self.cell(state, x, y) == mark for x, y in cells):  # fmt: skip
                        return cells
        return []


# the drawing's measures
_CELL = 56
_MARGIN = 12
_LABELS = 20  # the column numbers under the frame
_FRAME = "#c9d1d9"  # a grey frame: both players' colours stand out on it


@memo(size=None, why="one group per number of columns: at most 6")
def _group(columns: int) -> PermutationGroup:
    """The identity and the mirror, acting on columns."""
    return PermutationGroup.generated(columns, [tuple(range(columns - 1, -1, -1))])

"""Ultimate tic-tac-toe: nine small boards in a 3×3 grid, played as OpenSpiel plays it.

Rules (OpenSpiel ``ultimate_tic_tac_toe``, Wikipedia, CodinGame agree):

- X (player 0) moves first, anywhere. A move in cell ``c`` of a small board sends the opponent to
  small board ``c``.
- A small board that is won, or full without a line, is *closed*: nobody plays there again. A
  player sent to a closed board may play in any open board (a "free move").
- Three won small boards in a row, column or diagonal win the game. A drawn small board belongs
  to nobody. When every small board is closed and there is no line, the game is a draw.

Numbering: small boards 0-8 and cells 0-8 row by row; one move is one mark, move id
``board * 9 + cell`` (0-80). OpenSpiel splits a free move into two actions ("choose local board
b", then the cell); here it is one move, so ``legal`` at a free move lists every empty cell of
every open board.

Representation: one 81-bit int per player (bit ``board * 9 + cell``), 9-bit masks of the boards
each player won and of the closed boards, the forced target board (-1 for a free move, -2 once
the game is over) and the player to move. Rules are table look-ups on 9-bit masks
(``small_board``). ``playout`` plays a uniformly random game to the end on local ints, for Monte
Carlo search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from purestate.core import compiled, keys
from purestate.core.batch import python_batch
from purestate.core.game import GameSpec, ParseError
from purestate.core.hooks import Rows
from purestate.core.memo import memo
from purestate.games.big_board import (
    GAME_OVER,
    MARKS,
    BigBoardGame,
    BigBoards,
    PackedBoards,
)
from purestate.games.small_board import EMPTY_CELLS, FREE_COUNT, FULL, MASK_IMAGES, WINS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "GAME_OVER",
    "LAYOUT",
    "MARKS",
    "SYMMETRIES",
    "State",
    "UltimateTicTacToe",
    "make_state",
    "playable_boards",
    "winner",
]

LAYOUT = BigBoards(1, "ultimate_tictactoe")
"""One big board: the tables, symmetries, codec and texts shared with Xtreme tic-tac-toe."""
SYMMETRIES = LAYOUT.symmetries

_LOW_BITS = 45  # the compiled kernel takes a player's bits as boards 0-4 and boards 5-8
_LOW = (1 << _LOW_BITS) - 1
_WINNER_RETURNS = ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0))  # by the kernel's winner + 1
_MOVE_BOARD = LAYOUT.move_board
_MOVE_CELL = LAYOUT.move_cell
_LEGAL_IN = LAYOUT.legal_in


@frozen
class State(PackedBoards):
    """An ultimate tic-tac-toe position.

    Small boards are numbered 0-8 (``sb`` is the board); ``target`` is the board the player to
    move must play in, -1 for a free move (first move, or sent to a closed board). The fields
    and the won and closed masks are those of ``PackedBoards``.
    """

    WIDTH: ClassVar[int] = 9
    MASK: ClassVar[int] = FULL


# Building the new state is half the cost of a step. ``_state`` fills the slots through their
# descriptors, skipping attrs' setattr-by-name in ``__init__``; the result is the same frozen
# value (tests compare it with ``State(...)``).
_new = object.__new__
_set_x, _set_o, _set_boards, _set_target, _set_to_move = (
    getattr(State, name).__set__ for name in ("x", "o", "boards", "target", "to_move")
)


def _state(x: int, o: int, boards: int, target: int, to_move: int) -> State:
    s: State = _new(State)
    _set_x(s, x)
    _set_o(s, o)
    _set_boards(s, boards)
    _set_target(s, target)
    _set_to_move(s, to_move)
    return s


def make_state(
    x: int, o: int, won_x: int, won_o: int, closed: int, target: int, to_move: int
) -> State:
    """A state from its parts (the won and closed masks are packed into ``boards``)."""
    return State(x, o, won_x | won_o << 9 | closed << 18, target, to_move)


def _over(s: State) -> bool:
    return s.target == GAME_OVER


def winner(state: State) -> int | None:
    """0 if X has three small boards in a line, 1 if O has, None otherwise."""
    if WINS[state.won_x]:
        return 0
    if WINS[state.won_o]:
        return 1
    return None


def playable_boards(state: State) -> tuple[int, ...]:
    """The boards the player to move may play in (none once the game is over)."""
    return LAYOUT.playable(state)


def _valid(state: State) -> str | None:
    """Why ``state`` cannot arise in a game, or None if it can (as far as cheap checks tell)."""
    why = LAYOUT.unreachable_marks(state)
    if why is not None:
        return why
    nx, no = state.x.bit_count(), state.o.bit_count()
    if nx - no not in (0, 1):
        return f"{nx} X and {no} O: X moves first, so X has as many marks as O or one more"
    if state.to_move != nx - no:
        return "the player to move does not match the marks on the board"
    return LAYOUT.unreachable_play(state, 1 - state.to_move)


@frozen
class UltimateTicTacToe(BigBoardGame[State]):
    """Ultimate tic-tac-toe (nine small boards, closed boards free the move); X moves first."""

    layout = LAYOUT

    @property
    def spec(self) -> GameSpec:
        """Name and bounds (81 marks at most)."""
        return _SPEC

    def initial(self) -> State:
        """The empty board, X to move, free move."""
        return _EMPTY

    def legal(self, state: State) -> tuple[int, ...]:
        """The move ids of the playable empty cells in increasing order; () once over."""
        t = state.target
        if t == GAME_OVER:
            return ()
        occ = state.x | state.o
        boards = state.boards
        if t >= 0:
            return _LEGAL_IN[t][(occ >> (9 * t)) & FULL]
        return LAYOUT.free_moves(occ, boards >> 18)

    def returns(self, state: State) -> tuple[float, float]:
        """(+1, -1) if X won, (-1, +1) if O won, (0, 0) for a draw or an unfinished game."""
        boards = state.boards
        if WINS[boards & FULL]:
            return (1.0, -1.0)
        if WINS[(boards >> 9) & FULL]:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def step(self, state: State, move: int) -> State:
        """Put the mover's mark on ``move`` (= board * 9 + cell).

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)`` (a plain int, not a bool).
        """
        # the type test first: a bool indexes the tables as 0 or 1 and -1 as the last entry
        if type(move) is not int or not 0 <= move < 81:
            raise LAYOUT.illegal(state, move)
        b = _MOVE_BOARD[move]
        x, o, boards, t = state.x, state.o, state.boards, state.target
        if (b != t if t >= 0 else t == GAME_OVER) or boards >> (18 + b) & 1 or (x | o) >> move & 1:
            raise LAYOUT.illegal(state, move)
        shift = 9 * b
        if state.to_move == 0:
            x |= 1 << move
            mine = x
            won_bit = 1 << b
        else:
            o |= 1 << move
            mine = o
            won_bit = 1 << (9 + b)
        if WINS[(mine >> shift) & FULL]:
            boards |= won_bit | 1 << (18 + b)
            if WINS[boards & FULL] or WINS[(boards >> 9) & FULL] or boards >> 18 == FULL:
                return _state(x, o, boards, GAME_OVER, 1 - state.to_move)
        elif ((x | o) >> shift) & FULL == FULL:
            boards |= 1 << (18 + b)
            if boards >> 18 == FULL:
                return _state(x, o, boards, GAME_OVER, 1 - state.to_move)
        c = _MOVE_CELL[move]
        return _state(x, o, boards, -1 if boards >> (18 + c) & 1 else c, 1 - state.to_move)

    def ending_moves(self, state: State) -> tuple[int, ...]:
        """The legal moves after which the game is over, in increasing order (``EndingMoves``).

        Only a move that closes its small board can end the game, and only on a board whose
        closing would give the mover a line of won boards or close the last open board: most
        positions have no such board, and the answer costs a few look-ups instead of a step per
        legal move.
        """
        t = state.target
        if t == GAME_OVER:
            return ()
        boards = state.boards
        closed = boards >> 18
        won = boards >> 9 & FULL if state.to_move else boards & FULL
        mine_all = state.o if state.to_move else state.x
        occ_all = state.x | state.o
        out: list[int] = []
        for b in (t,) if t >= 0 else range(9):
            bit = 1 << b
            if closed & bit:
                continue
            line = WINS[won | bit]
            last = closed | bit == FULL
            if not (line or last):
                continue
            shift = 9 * b
            mine = mine_all >> shift & FULL
            occ = occ_all >> shift & FULL
            for c in EMPTY_CELLS[occ]:
                cell = 1 << c
                # winning the board ends the game (a line, or the last board closed); filling
                # it without a win ends it only when it was the last open board
                if WINS[mine | cell] or (last and occ | cell == FULL):
                    out.append(shift + c)
        return tuple(out)

    def _compiled_playout(self, state: State, key: keys.Key) -> tuple[float, float] | None:
        """``playout`` by ``kernels/ultimate.py``, or None without numba."""
        kernel = compiled.kernels("ultimate")
        if kernel is None:
            return None
        x, o = state.x, state.o
        w = kernel.playout(
            x & _LOW, x >> _LOW_BITS, o & _LOW, o >> _LOW_BITS, state.boards, state.target,
            state.to_move, compiled.as_int64(key),
        )  # fmt: skip
        return _WINNER_RETURNS[w + 1]

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows and the compiled row functions (``RowKernels``; the compiled
        MCTS tree's), or None without numba."""
        return _rows()

    def playouts(
        self, states: Sequence[State], ks: npt.NDArray[np.uint64]
    ) -> npt.NDArray[np.float64]:
        """The returns of ``playout(states[i], ks[i])`` for every i, as an (n, 2) array
        (``BatchPlayouts``; one state stands for all). Compiled, in one call, where numba is."""
        import numpy as np

        kernel = compiled.kernels("ultimate")
        if kernel is None:
            return python_batch(self, states, ks)
        rows = np.array(
            [(s.x & _LOW, s.x >> _LOW_BITS, s.o & _LOW, s.o >> _LOW_BITS, s.boards, s.target,
              s.to_move) for s in states],
            np.int64,
        )  # fmt: skip
        if len(states) == 1:
            rows = np.repeat(rows, len(ks), axis=0)
        winners = kernel.playouts(rows, np.ascontiguousarray(ks, np.uint64).view(np.int64))
        returns: npt.NDArray[np.float64] = np.array(_WINNER_RETURNS)[winners + 1]
        return returns

    def _random_game(self, state: State, rand: Callable[[], float]) -> tuple[float, float]:
        """``playout`` from a position that is not over, with ``rand`` uniform in [0, 1)."""
        mx = list(LAYOUT.small_masks(state.x))
        mo = list(LAYOUT.small_masks(state.o))
        occ = [a | b for a, b in zip(mx, mo, strict=True)]
        won_x, won_o, closed = state.won_x, state.won_o, state.closed
        t = state.target
        p = state.to_move
        while True:
            if t >= 0:
                b = t
                cells = EMPTY_CELLS[occ[b]]
                c = cells[int(rand() * len(cells))]
            else:
                # a free move: draw one of all the free cells of the open boards (written out,
                # like Xtreme's: a function call here costs the playout a few per cent)
                total = 0
                for bb in range(9):
                    if not closed >> bb & 1:
                        total += FREE_COUNT[occ[bb]]
                r = int(rand() * total)
                b = 0
                while True:
                    if not closed >> b & 1:
                        n = FREE_COUNT[occ[b]]
                        if r < n:
                            break
                        r -= n
                    b += 1
                c = EMPTY_CELLS[occ[b]][r]
            bit = 1 << c
            filled = occ[b] | bit
            occ[b] = filled
            # the two players' branches are written out: this loop is the hot path of MCTS
            if p == 0:
                m = mx[b] | bit
                mx[b] = m
                if WINS[m]:
                    closed |= 1 << b
                    won_x |= 1 << b
                    if WINS[won_x]:
                        return (1.0, -1.0)
                    if closed == FULL:
                        return (0.0, 0.0)
                elif filled == FULL:
                    closed |= 1 << b
                    if closed == FULL:
                        return (0.0, 0.0)
                p = 1
            else:
                m = mo[b] | bit
                mo[b] = m
                if WINS[m]:
                    closed |= 1 << b
                    won_o |= 1 << b
                    if WINS[won_o]:
                        return (-1.0, 1.0)
                    if closed == FULL:
                        return (0.0, 0.0)
                elif filled == FULL:
                    closed |= 1 << b
                    if closed == FULL:
                        return (0.0, 0.0)
                p = 0
            t = -1 if closed >> c & 1 else c

    def transform(self, state: State, sym: int) -> State:
        """The position rotated or reflected by ``sym`` (boards and cells move together)."""
        if sym == 0:
            return state
        images = MASK_IMAGES[sym]
        return make_state(
            LAYOUT.map_bits(state.x, sym),
            LAYOUT.map_bits(state.o, sym),
            images[state.won_x],
            images[state.won_o],
            images[state.closed],
            LAYOUT.map_target(state.target, sym),
            state.to_move,
        )

    def encode(self, state: State) -> str:
        """Nine groups of nine cells (board by board, ``X``/``O``/``.``) and the target board.

        Example: ``....X..../.../......... 4`` after X's first move in cell 4 of board 0: O must
        play in board 4. The target is ``*`` for a free move and at the end of the game.
        """
        return f"{LAYOUT.encode_cells(state)} {state.target if state.target >= 0 else '*'}"

    def decode(self, text: str) -> State:
        """The position written by ``encode``.

        Raises:
            ParseError: if the text is not a board and a target, or not a reachable position.
        """
        parts = text.split()
        if len(parts) != 2:
            raise ParseError(
                f"{text!r} is not a position: expected 81 cells (X, O or '.', groups of 9 "
                "may be separated by '/') and the target board (0-8 or *)"
            )
        x, o = LAYOUT.decode_cells(parts[0])
        t = LAYOUT.decode_target(parts[1])
        won_x, won_o, closed = LAYOUT.derived(x, o)
        if t == -1 and LAYOUT.ended(won_x, won_o, closed):
            t = GAME_OVER
        state = make_state(x, o, won_x, won_o, closed, t, x.bit_count() - o.bit_count())
        why = _valid(state)
        if why is not None:
            raise ParseError(f"{text!r} is not a reachable position: {why}")
        return state

    def render(self, state: State) -> str:
        """The 9×9 grid, the big board's status and what the player to move may do.

        Free cells where the player to move may play show their cell number (0-8); other free
        cells show ``.``. Beside the grid, the big board shows ``X``/``O`` for won boards, ``=``
        for drawn ones, ``*`` for the boards open to the player to move and ``.`` for the others.
        """
        playable = playable_boards(state)
        lines = LAYOUT.grid(state, 0, playable)
        side = ["big board    boards"]
        for br in range(3):
            status = [LAYOUT.board_symbol(state, 3 * br + bc, playable) for bc in range(3)]
            side.append(f"  {' '.join(status)}        {3 * br} {3 * br + 1} {3 * br + 2}")
        side += ["", "* = you may play there", "X/O = won, = = drawn"]
        out = [
            f"{line:<25}  {side[i] if i < len(side) else ''}".rstrip()
            for i, line in enumerate(lines)
        ]
        out.append("")
        out.append(_status_line(state))
        return "\n".join(out)


def _status_line(state: State) -> str:
    w = winner(state)
    if w is not None:
        return LAYOUT.winner_line(w)
    if _over(state):
        return "Draw: every board is closed and nobody has three in a line."
    who = MARKS[state.to_move]
    t = state.target
    if t >= 0:
        example = LAYOUT.example_move(state, t)
        return f"{who} to move in board {t}: type 'board cell', e.g. '{example}'."
    boards = ", ".join(map(str, LAYOUT.open_boards(state)))
    return f"{who} to move, free move in any open board ({boards}): type 'board cell'."


def row_of(state: State) -> npt.NDArray[np.int64]:
    """``state`` as a row of ``kernels/ultimate.py`` (``ROW_WIDTH`` int64s: X's nine small-board
    masks, O's nine, the won X, won O and closed masks, the target and the player to move)."""
    import numpy as np

    x, o, boards = state.x, state.o, state.boards
    return np.array(
        [x >> 9 * b & FULL for b in range(9)]
        + [o >> 9 * b & FULL for b in range(9)]
        + [boards & FULL, boards >> 9 & FULL, boards >> 18, state.target, state.to_move],
        np.int64,
    )


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of``'s inverse)."""
    r = row.tolist()  # plain ints, in one call
    x = o = 0
    for b in range(9):
        x |= r[b] << 9 * b
        o |= r[9 + b] << 9 * b
    return _state(x, o, r[18] | r[19] << 9 | r[20] << 18, r[21], r[22])


@memo(size=None, why="no argument: the row kernels, once per process")
def _rows() -> Rows | None:
    kernel = compiled.kernels("ultimate")
    if kernel is None:
        return None
    return Rows(
        width=kernel.ROW_WIDTH,
        max_moves=81,
        row_of=row_of,
        state_of=state_of,
        legal=kernel.row_legal,
        step=kernel.row_step,
        player=kernel.row_player,
        reward0=kernel.row_reward0,
        playout0=kernel.row_playout0,
        ending=kernel.row_ending,
        returns=kernel.row_returns,
    )


_EMPTY = make_state(0, 0, 0, 0, 0, -1, 0)
# A position is its 81 cells (empty, X or O), the target (-2 to 8) and the player to move: the
# won and closed boards follow from the cells. 3^81 · 11 · 2, about 10^40, bounds the positions.
_SPEC = GameSpec(
    "ultimate_tictactoe",
    2,
    81,
    positions=3**81 * 11 * 2,
    default_opponent="mcts:simulations=5000",  # about 0.3 s a move (docs/cli.md)
)

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

from itertools import chain

from attrs import frozen

from purestate.core import keys
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.games.small_board import (
    CELL_MAPS,
    EMPTY_CELLS,
    FREE_COUNT,
    FULL,
    MASK_IMAGES,
    WINS,
)

MARKS = ("X", "O")
SYMMETRIES: tuple[int, ...] = tuple(range(8))

_MOVE_BOARD: tuple[int, ...] = tuple(m // 9 for m in range(81))
_MOVE_CELL: tuple[int, ...] = tuple(m % 9 for m in range(81))
# _LEGAL_IN[b][occupied]: the move ids of the free cells of board b
_LEGAL_IN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(9 * b + c for c in EMPTY_CELLS[occ]) for occ in range(512)) for b in range(9)
)
# D4 acts on the board index and the cell index with the same permutation
_MOVE_MAPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(9 * CELL_MAPS[g][m // 9] + CELL_MAPS[g][m % 9] for m in range(81)) for g in SYMMETRIES
)
_INVERSES: tuple[int, ...] = tuple(
    next(h for h in SYMMETRIES if all(CELL_MAPS[h][CELL_MAPS[g][c]] == c for c in range(9)))
    for g in SYMMETRIES
)


@frozen
class State:
    """An ultimate tic-tac-toe position.

    Attributes:
        x: X's marks, bit ``board * 9 + cell``.
        o: O's marks.
        boards: Three 9-bit masks of small boards (bit = board), packed into one int because
            building a state is the cost of a step: bits 0-8 the boards X has won, 9-17 the
            boards O has won, 18-26 the closed boards (won or full). Read them as ``won_x``,
            ``won_o`` and ``closed``.
        target: The board the player to move must play in; -1 for a free move (first move, or
            sent to a closed board); -2 once the game is over (so the terminal test is one
            comparison).
        to_move: 0 when X is to move, 1 when O is.
    """

    x: int
    o: int
    boards: int
    target: int
    to_move: int

    @property
    def won_x(self) -> int:
        """The small boards X has won (bit = board)."""
        return self.boards & FULL

    @property
    def won_o(self) -> int:
        """The small boards O has won."""
        return (self.boards >> 9) & FULL

    @property
    def closed(self) -> int:
        """The small boards nobody may play in any more (won or full)."""
        return self.boards >> 18


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


GAME_OVER = -2
"""The ``target`` of a finished game."""


def _over(s: State) -> bool:
    return s.target == GAME_OVER


def _ended(boards: int) -> bool:
    """Whether the packed won/closed masks make a finished game."""
    return WINS[boards & FULL] or WINS[(boards >> 9) & FULL] or boards >> 18 == FULL


def winner(state: State) -> int | None:
    """0 if X has three small boards in a line, 1 if O has, None otherwise."""
    if WINS[state.won_x]:
        return 0
    if WINS[state.won_o]:
        return 1
    return None


def small_boards(bits: int) -> tuple[int, ...]:
    """The nine 9-bit masks of an 81-bit board."""
    return tuple((bits >> (9 * b)) & FULL for b in range(9))


def _derived(x: int, o: int) -> tuple[int, int, int]:
    """Won and closed masks computed from the marks (for decoding)."""
    won_x = won_o = closed = 0
    for b in range(9):
        mx = (x >> (9 * b)) & FULL
        mo = (o >> (9 * b)) & FULL
        if WINS[mx]:
            won_x |= 1 << b
        if WINS[mo]:
            won_o |= 1 << b
        if WINS[mx] or WINS[mo] or mx | mo == FULL:
            closed |= 1 << b
    return won_x, won_o, closed


def _map_bits(bits: int, g: int) -> int:
    """The image of an 81-bit board under symmetry ``g``."""
    if g == 0:
        return bits
    images = MASK_IMAGES[g]
    boards = CELL_MAPS[g]
    out = 0
    for b in range(9):
        m = (bits >> (9 * b)) & FULL
        if m:
            out |= images[m] << (9 * boards[b])
    return out


def open_boards(state: State) -> tuple[int, ...]:
    """The boards that are not closed, in increasing order."""
    return tuple(b for b in range(9) if not state.closed >> b & 1)


def playable_boards(state: State) -> tuple[int, ...]:
    """The boards the player to move may play in (none once the game is over)."""
    if _over(state):
        return ()
    if state.target >= 0:
        return (state.target,)
    return open_boards(state)


def _why_illegal(state: State, move: object) -> str | None:
    """Why ``move`` is not legal in ``state``, or None if it is."""
    if type(move) is not int or not 0 <= move < 81:
        return (
            f"{move!r} is not a move of ultimate_tictactoe (moves are ints board * 9 + cell, 0-80)"
        )
    if _over(state):
        return "the game is over"
    b, c = _MOVE_BOARD[move], _MOVE_CELL[move]
    if state.target >= 0 and b != state.target:
        return (
            f"you were sent to board {state.target}: play there "
            f"(free cells {_cells_text(state, state.target)})"
        )
    if state.closed >> b & 1:
        how = (
            "won by X"
            if state.won_x >> b & 1
            else "won by O"
            if state.won_o >> b & 1
            else "full (drawn)"
        )
        boards = ", ".join(map(str, open_boards(state)))
        return f"board {b} is closed ({how}); you may play in boards {boards}"
    if (state.x | state.o) >> move & 1:
        return f"cell {c} of board {b} is taken (free cells there: {_cells_text(state, b)})"
    return None


def _cells_text(state: State, b: int) -> str:
    occ = ((state.x | state.o) >> (9 * b)) & FULL
    return ", ".join(map(str, EMPTY_CELLS[occ]))


def _valid(state: State) -> str | None:
    """Why ``state`` cannot arise in a game, or None if it can (as far as cheap checks tell)."""
    x, o = state.x, state.o
    if x < 0 or o < 0 or x >> 81 or o >> 81 or x & o:
        return "marks outside the board or two marks on one cell"
    nx, no = x.bit_count(), o.bit_count()
    if nx - no not in (0, 1):
        return f"{nx} X and {no} O: X moves first, so X has as many marks as O or one more"
    if state.to_move != nx - no:
        return "the player to move does not match the marks on the board"
    if (state.won_x, state.won_o, state.closed) != _derived(x, o):
        return "the won and closed boards do not match the marks"
    if state.won_x & state.won_o:
        return "a small board has lines of both players"
    wx, wo = WINS[state.won_x], WINS[state.won_o]
    if wx and wo:
        return "both players have three boards in a line"
    if (wx and nx == no) or (wo and nx != no):
        return "a player moved after the game was won"
    t = state.target
    if not -2 <= t <= 8:
        return f"target board {t} is not a board (0-8, or * for a free move)"
    if (t == GAME_OVER) != _ended(state.boards):
        if t == GAME_OVER:
            return "the target says the game is over, but it is not"
        return "the game is over, so the target must be *"
    if t >= 0:
        if state.closed >> t & 1:
            return f"target board {t} is closed, so the move is free (write *)"
        last = o if state.to_move == 0 else x
        if not any(last >> (9 * b + t) & 1 for b in range(9)):
            return f"no mark of the last mover on a cell {t} could have sent play to board {t}"
    elif nx + no > 0 and not _over(state):
        last = o if state.to_move == 0 else x
        if not any(
            last >> (9 * b + c) & 1 for c in range(9) if state.closed >> c & 1 for b in range(9)
        ):
            return "a free move needs a last move into a cell whose board is closed"
    return None


@frozen
class UltimateTicTacToe:
    """Ultimate tic-tac-toe (nine small boards, closed boards free the move); X moves first."""

    @property
    def spec(self) -> GameSpec:
        """Name and bounds (81 marks at most)."""
        return _SPEC

    def initial(self) -> State:
        """The empty board, X to move, free move."""
        return _EMPTY

    def to_move(self, state: State) -> int:
        """0 for X, 1 for O."""
        return state.to_move

    def legal(self, state: State) -> tuple[int, ...]:
        """The move ids of the playable empty cells in increasing order; () once over."""
        t = state.target
        if t == GAME_OVER:
            return ()
        occ = state.x | state.o
        boards = state.boards
        if t >= 0:
            return _LEGAL_IN[t][(occ >> (9 * t)) & FULL]
        closed = boards >> 18
        return tuple(
            chain.from_iterable(
                _LEGAL_IN[b][(occ >> (9 * b)) & FULL] for b in range(9) if not closed >> b & 1
            )
        )

    def is_over(self, state: State) -> bool:
        """Three won boards in a line, or every board closed."""
        return _over(state)

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
            raise IllegalMove(_why_illegal(state, move) or f"{move!r} is not a move")
        b = _MOVE_BOARD[move]
        x, o, boards, t = state.x, state.o, state.boards, state.target
        if (b != t if t >= 0 else t == GAME_OVER) or boards >> (18 + b) & 1 or (x | o) >> move & 1:
            raise IllegalMove(_why_illegal(state, move) or f"{move!r} is not legal here")
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

    def playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """The result of a uniformly random game from ``state`` to the end.

        The same distribution as choosing uniformly among ``legal`` and calling ``step`` until
        the end, but on local ints with no state objects, for Monte Carlo search.

        Args:
            state: Where to start.
            key: Consumed: the randomness of the whole playout.

        Returns:
            The returns at the end, as ``returns`` gives them.
        """
        if _over(state):
            return self.returns(state)
        rand = keys.generator(key).random
        mx = list(small_boards(state.x))
        mo = list(small_boards(state.o))
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
                # a free move: draw one of all the free cells of the open boards
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

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The 8 elements of D4 acting on board and cell together, identity first."""
        return SYMMETRIES

    def transform(self, state: State, sym: int) -> State:
        """The position rotated or reflected by ``sym`` (boards and cells move together)."""
        if sym == 0:
            return state
        images = MASK_IMAGES[sym]
        t = state.target
        return make_state(
            _map_bits(state.x, sym),
            _map_bits(state.o, sym),
            images[state.won_x],
            images[state.won_o],
            images[state.closed],
            CELL_MAPS[sym][t] if t >= 0 else t,
            state.to_move,
        )

    def transform_move(self, move: int, sym: int) -> int:
        """The move ``sym`` carries ``move`` to."""
        return _MOVE_MAPS[sym][move]

    def inverse(self, sym: int) -> int:
        """The inverse element."""
        return _INVERSES[sym]

    def canonical(self, state: State) -> tuple[State, int]:
        """The image with the smallest (x, o, target) and the first symmetry that gives it."""
        # compare images by x first and map o and the target only for the contenders
        x, o, t = state.x, state.o, state.target
        best_key = (x, o, t)
        best_g = 0
        for g in SYMMETRIES[1:]:
            gx = _map_bits(x, g)
            if gx > best_key[0]:
                continue
            k = (gx, _map_bits(o, g), CELL_MAPS[g][t] if t >= 0 else t)
            if k < best_key:
                best_key, best_g = k, g
        return self.transform(state, best_g), best_g

    def encode(self, state: State) -> str:
        """Nine groups of nine cells (board by board, ``X``/``O``/``.``) and the target board.

        Example: ``....X..../.../......... 4`` after X's first move in cell 4 of board 0: O must
        play in board 4. The target is ``*`` for a free move and at the end of the game.
        """
        cells = ["X" if state.x >> i & 1 else "O" if state.o >> i & 1 else "." for i in range(81)]
        groups = "/".join("".join(cells[9 * b : 9 * b + 9]) for b in range(9))
        return f"{groups} {state.target if state.target >= 0 else '*'}"

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
        board, target = parts
        cells = [ch for ch in board.upper() if ch not in "/|"]
        if len(cells) != 81 or any(ch not in "XO." for ch in cells):
            raise ParseError(f"{board!r} is not a board: expected 81 of X, O or '.'")
        if target == "*":
            t = -1
        elif target.isdigit() and int(target) <= 8:
            t = int(target)
        else:
            raise ParseError(f"{target!r} is not a target board: expected 0-8 or *")
        x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
        won_x, won_o, closed = _derived(x, o)
        if t == -1 and _ended(won_x | won_o << 9 | closed << 18):
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
        playable = set(playable_boards(state))
        lines: list[str] = []
        for r in range(9):
            row = []
            for col in range(9):
                b = (r // 3) * 3 + col // 3
                c = (r % 3) * 3 + col % 3
                i = 9 * b + c
                if state.x >> i & 1:
                    ch = "X"
                elif state.o >> i & 1:
                    ch = "O"
                elif b in playable:
                    ch = str(c)
                else:
                    ch = "."
                row.append(ch)
            lines.append(" " + " | ".join(" ".join(row[3 * k : 3 * k + 3]) for k in range(3)))
            if r in (2, 5):
                lines.append("-------+-------+-------")
        side = ["big board    boards"]
        for br in range(3):
            status = []
            for bc in range(3):
                b = 3 * br + bc
                status.append(_board_symbol(state, b, b in playable))
            side.append(f"  {' '.join(status)}        {3 * br} {3 * br + 1} {3 * br + 2}")
        side += ["", "* = you may play there", "X/O = won, = = drawn"]
        out = [
            f"{line:<25}  {side[i] if i < len(side) else ''}".rstrip()
            for i, line in enumerate(lines)
        ]
        out.append("")
        out.append(_status_line(state))
        return "\n".join(out)

    def parse_move(self, state: State, text: str) -> int:
        """``board cell`` (``4 0``, ``4,0``, ``(4, 0)``) or a move id 0-80.

        Raises:
            ParseError: if the text is not a move.
            IllegalMove: if the move is not legal here (the message says where one may play).
        """
        tokens = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
        if not tokens or not all(t.isdigit() for t in tokens) or len(tokens) > 2:
            raise ParseError(
                f"{text.strip()!r} is not a move: type 'board cell' (each 0-8, e.g. '4 0') "
                "or a move number 0-80"
            )
        if len(tokens) == 1:
            move = int(tokens[0])
            if move > 80:
                raise ParseError(f"{move} is not a move number: they go from 0 to 80")
        else:
            b, c = int(tokens[0]), int(tokens[1])
            if b > 8 or c > 8:
                raise ParseError(f"{text.strip()!r}: boards and cells are numbered 0-8")
            move = 9 * b + c
        why = _why_illegal(state, move)
        if why is not None:
            raise IllegalMove(why)
        return move

    def format_move(self, move: int) -> str:
        """``board cell``, e.g. ``4 0``."""
        return f"{move // 9} {move % 9}"


def _board_symbol(state: State, b: int, playable: bool) -> str:
    if state.won_x >> b & 1:
        return "X"
    if state.won_o >> b & 1:
        return "O"
    if state.closed >> b & 1:
        return "="
    return "*" if playable else "."


def _status_line(state: State) -> str:
    w = winner(state)
    if w is not None:
        return f"{MARKS[w]} wins with three boards in a line."
    if _over(state):
        return "Draw: every board is closed and nobody has three in a line."
    who = MARKS[state.to_move]
    if state.target >= 0:
        t = state.target
        first = EMPTY_CELLS[((state.x | state.o) >> (9 * t)) & FULL][0]
        return f"{who} to move in board {t}: type 'board cell', e.g. '{t} {first}'."
    boards = ", ".join(map(str, open_boards(state)))
    return f"{who} to move, free move in any open board ({boards}): type 'board cell'."


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

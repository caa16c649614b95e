"""Tic-tac-toe: the rules, the D4 symmetries, the codec and the board for people.

Moves are squares 0-8 row by row (OpenSpiel's numbering). Player 0 is X and moves first. The
game has 5,478 reachable positions, so every pure function of a state is memoised: after the
first visit a step, the legal moves, the result and the canonical form are dict look-ups.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import frozen

from purestate.core import compiled, keys
from purestate.core.batch import python_batch
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.core.hooks import Rows
from purestate.core.memo import DictMemo, memo
from purestate.core.picture import (
    HIGHLIGHT,
    INK,
    PLAYER_COLOURS,
    cross,
    document,
    el,
    move_data,
    nought,
    winning_line,
)
from purestate.core.planes import bits
from purestate.core.symmetry import grid_group
from purestate.games.small_board import line_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)  # fmt: skip
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in _LINES)
FULL = (1 << 9) - 1
GROUP = grid_group(3, 3)
SYMMETRIES: tuple[int, ...] = GROUP.indices
# The order of ``encode`` texts as ints: '.' < 'O' < 'X' per cell, cell 0 most significant, so a
# base-3 number with digits 0/1/2. canonical() compares these instead of building strings.
_X3 = tuple(sum(2 * 3 ** (8 - i) for i in range(9) if b >> i & 1) for b in range(512))
_O3 = tuple(sum(3 ** (8 - i) for i in range(9) if b >> i & 1) for b in range(512))
# each symmetry's image of every 9-bit board, so transform() is two look-ups
_IMAGE = tuple(tuple(GROUP.apply_bits(g, b) for b in range(512)) for g in SYMMETRIES)
MARKS = ("X", "O")


@frozen(cache_hash=True)
class State:
    """A tic-tac-toe position.

    Attributes:
        x: Bitboard of X's marks (bit i = square i).
        o: Bitboard of O's marks.
        to_move: 0 when X is to move, 1 when O is.
    """

    x: int
    o: int
    to_move: int


def has_line(bits: int) -> bool:
    """Whether a bitboard holds three in a row."""
    return any(bits & m == m for m in LINE_MASKS)


def winner(state: State) -> int | None:
    """0 if X has three in a row, 1 if O has, None otherwise."""
    if has_line(state.x):
        return 0
    if has_line(state.o):
        return 1
    return None


class _Node:
    """Everything about one reachable position, computed once."""

    __slots__ = ("canonical", "children", "ending", "images", "legal", "over", "returns", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        w = winner(state)
        filled = state.x | state.o
        self.over: bool = w is not None or filled == FULL
        self.legal: tuple[int, ...] = (
            () if self.over else tuple(i for i in range(9) if not filled >> i & 1)
        )
        self.returns: tuple[float, float] = (
            (0.0, 0.0) if w is None else (1.0, -1.0) if w == 0 else (-1.0, 1.0)
        )
        mine = state.o if state.to_move else state.x
        # the moves that make a line or fill the last square
        self.ending: tuple[int, ...] = tuple(
            m for m in self.legal if has_line(mine | 1 << m) or filled | 1 << m == FULL
        )
        self.children: list[State | None] = [None] * 9
        self.images: tuple[State, ...] | None = None
        self.canonical: tuple[State, int] | None = None


# The node table: every rule is a look-up here, on the hottest path there is, so it is the memo
# policy's fast path (reads are plain dict look-ups on ``_NODES``; an lru_cache call would cost a
# quarter more per look-up), and a node's children and images fill in lazily. Unbounded because
# the key space is provably small: ``_node`` validates a state before inserting it and
# ``_interned`` only inserts children of valid positions. Nodes never leave this module.
_NODE_MEMO: DictMemo[State, _Node] = DictMemo(
    None, why="only validated positions are inserted: at most the 5,478 reachable ones"
)
_NODES = _NODE_MEMO.entries


def _valid(state: State) -> str | None:
    """Why ``state`` is not a reachable position, or None if it is."""
    x, o = state.x, state.o
    if not (0 <= x <= FULL and 0 <= o <= FULL) or x & o:
        return "marks outside the board or two marks on one square"
    nx, no = x.bit_count(), o.bit_count()
    if nx - no not in (0, 1):
        return f"{nx} X and {no} O: X moves first, so X has as many marks as O or one more"
    if state.to_move != nx - no:
        return "the player to move does not match the marks on the board"
    xl, ol = has_line(x), has_line(o)
    if xl and ol:
        return "both players have three in a row"
    if xl and nx == no:
        return "X has three in a row but O moved after it"
    if ol and nx != no:
        return "O has three in a row but X moved after it"
    return None


def _node(state: State) -> _Node:
    node = _NODES.get(state)
    if node is None:
        if not isinstance(state, State):
            raise IllegalMove(f"not a tic-tac-toe state: {state!r}")
        why = _valid(state)
        if why is not None:
            raise IllegalMove(f"not a reachable tic-tac-toe position: {why}")
        node = _NODE_MEMO.put(state, _Node(state))
    return node


def _interned(state: State) -> State:
    """The one shared object for a position, so later look-ups hit on identity."""
    node = _NODES.get(state)
    if node is None:
        node = _NODE_MEMO.put(state, _Node(state))
    return node.state


_SPEC = GameSpec("tictactoe", 2, 9, positions=5478, default_opponent="perfect")


@frozen
class TicTacToe:
    """Tic-tac-toe on a 3×3 board; X (player 0) moves first."""

    seat_marks: ClassVar[tuple[str, str]] = MARKS
    """What each seat plays with (``MarkedSeats``): the drawing's and the terminal's marks."""

    @property
    def spec(self) -> GameSpec:
        """Name and bounds: 5,478 reachable positions (counted in ``tests/test_tictactoe.py``),
        so the perfect player is the default opponent."""
        return _SPEC

    def initial(self) -> State:
        """The empty board, X to move."""
        return _EMPTY

    def to_move(self, state: State) -> int:
        """0 for X, 1 for O."""
        return state.to_move

    def legal(self, state: State) -> tuple[int, ...]:
        """The empty squares in increasing order; () once the game is over."""
        node = _NODES.get(state)
        return (node or _node(state)).legal

    def is_over(self, state: State) -> bool:
        """Three in a row or a full board."""
        node = _NODES.get(state)
        return (node or _node(state)).over

    def returns(self, state: State) -> tuple[float, float]:
        """(+1, -1) if X won, (-1, +1) if O won, (0, 0) for a draw or an unfinished game."""
        node = _NODES.get(state)
        return (node or _node(state)).returns

    def ending_moves(self, state: State) -> tuple[int, ...]:
        """The squares after which the game is over, in increasing order (``EndingMoves``)."""
        node = _NODES.get(state)
        return (node or _node(state)).ending

    def step(self, state: State, move: int) -> State:
        """Put the mover's mark on square ``move``.

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)``: a plain int (not a bool)
                naming an empty square of a game that is not over.
        """
        node = _NODES.get(state) or _node(state)
        # checked before the memo: a list index would take -1 as square 8 and True as square 1
        if type(move) is not int or not 0 <= move <= 8:
            raise IllegalMove(f"{move!r} is not a move of tictactoe (moves are ints 0-8)")
        child = node.children[move]
        if child is not None:
            return child
        if node.over:
            raise IllegalMove("the game is over")
        bit = 1 << move
        if (state.x | state.o) & bit:
            raise IllegalMove(f"square {move} is taken")
        if state.to_move == 0:
            child = State(state.x | bit, state.o, 1)
        else:
            child = State(state.x, state.o | bit, 0)
        child = _interned(child)
        node.children[move] = child
        return child

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The 8 elements of D4, identity first."""
        return SYMMETRIES

    def transform(self, state: State, sym: int) -> State:
        """The board rotated or reflected by ``sym``."""
        node = _NODES.get(state) or _node(state)
        if node.images is None:
            x, o, p = state.x, state.o, state.to_move
            node.images = tuple(_interned(State(img[x], img[o], p)) for img in _IMAGE)
        return node.images[sym]

    def transform_move(self, move: int, sym: int) -> int:
        """The square ``move`` is carried to by ``sym``."""
        return GROUP.perms[sym][move]

    def inverse(self, sym: int) -> int:
        """The inverse element."""
        return GROUP.inverses[sym]

    def canonical(self, state: State) -> tuple[State, int]:
        """The image whose text key is smallest, and the first symmetry that gives it."""
        node = _NODES.get(state) or _node(state)
        if node.canonical is None:
            images = [self.transform(state, g) for g in SYMMETRIES]
            best_g = min(SYMMETRIES, key=lambda g: (_X3[images[g].x] + _O3[images[g].o], g))
            node.canonical = (images[best_g], best_g)
        return node.canonical

    def encode(self, state: State) -> str:
        """Nine characters row by row: ``X``, ``O`` or ``.``."""
        return "".join(
            "X" if state.x >> i & 1 else "O" if state.o >> i & 1 else "." for i in range(9)
        )

    def decode(self, text: str) -> State:
        """The position written by ``encode`` (spaces, ``|`` and line breaks are ignored)."""
        cells = [c for c in text.upper() if c not in " |\n\t/-+"]
        cells = ["." if c in "_ " else c for c in cells]
        if len(cells) != 9 or any(c not in "XO." for c in cells):
            raise ParseError(f"{text!r} is not a board: expected 9 of X, O or '.'")
        x = sum(1 << i for i, c in enumerate(cells) if c == "X")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        state = State(x, o, x.bit_count() - o.bit_count())
        why = _valid(state)
        if why is not None:
            raise ParseError(f"{text!r} is not a reachable position: {why}")
        return state

    def render(self, state: State) -> str:
        """The board beside a guide to the free squares' numbers."""
        rows = []
        for r in range(3):
            marks = []
            guide = []
            for c in range(3):
                i = 3 * r + c
                if state.x >> i & 1:
                    marks.append("X")
                    guide.append(" ")
                elif state.o >> i & 1:
                    marks.append("O")
                    guide.append(" ")
                else:
                    marks.append(".")
                    guide.append(str(i))
            rows.append(f" {' | '.join(marks)}      {' | '.join(guide)}")
        sep = "---+---+---    ---+---+---"
        return f"\n{sep}\n".join(rows)

    def render_labels(self, labels: Mapping[int, str]) -> str:
        """The board with a short text on each square (e.g. the value of playing there).

        Squares without a label show ``.``. Used by ``purestate solve`` to show the openings.
        """
        width = max((len(t) for t in labels.values()), default=1)
        rows = [
            " " + " | ".join(labels.get(3 * r + c, ".").center(width) for c in range(3)) + " "
            for r in range(3)
        ]
        sep = "+".join("-" * (width + 2) for _ in range(3))
        return f"\n{sep}\n".join(rows)

    def parse_move(self, state: State, text: str) -> int:
        """A square number 0-8 (row by row, as the guide beside the board shows)."""
        t = text.strip()
        if not t.isdigit():
            raise ParseError(f"{t!r} is not a square: type a number from 0 to 8")
        move = int(t)
        if move > 8:
            raise ParseError(f"{move} is not a square: type a number from 0 to 8")
        if move not in self.legal(state):
            if self.is_over(state):
                raise IllegalMove("the game is over")
            raise IllegalMove(f"square {move} is taken")
        return move

    def format_move(self, move: int) -> str:
        """The square number."""
        return str(move)

    def random_playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """The module's ``random_playout``: a uniformly random game from ``state`` to the end,
        compiled where numba is."""
        return random_playout(state, key)

    def python_playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """The module's ``python_playout``: the reference the compiled kernel is checked
        against."""
        return python_playout(state, key)

    def playouts(
        self, states: Sequence[State], ks: npt.NDArray[np.uint64]
    ) -> npt.NDArray[np.float64]:
        """The returns of ``random_playout(states[i], ks[i])`` for every i, as an (n, 2) array
        (``BatchPlayouts``; one state stands for all). Compiled, in one call, where numba is."""
        for s in states:
            _node(s)  # a bad state is refused here, before any kernel sees its bits
        return batch_playouts(states, ks)

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows (x, o, to_move) with ``kernels/tictactoe.py``'s compiled
        rules (``RowKernels``); None without numba."""
        return _rows()

    # -- planes and picture (optional hooks: core/game.py) --------------------------------------

    plane_shape = (3, 3, 2)
    plane_lines = ("the observer's marks", "the other player's marks")

    def planes(self, state: State, player: int) -> np.ndarray:
        """The board as rows × columns × (the observer's marks, the other's)."""
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        # both marks in one number, then plane-major to plane-last
        planes = bits(mine | theirs << 9, 18).reshape(2, 3, 3).transpose(1, 2, 0)
        return planes.copy(order="C")

    def draw(self, state: State, title: str, last: Any, history: Sequence[Any] = ()) -> str:
        """The 3×3 grid with X and O shapes: free squares a person may click carry
        ``data-move``."""
        legal = set(self.legal(state))
        parts = []
        for i in range(9):
            x, y = _MARGIN + _CELL * (i % 3), _MARGIN + _CELL * (i // 3)
            fill = HIGHLIGHT if i == last else "#fff"
            parts.append(
                el("rect", x=x, y=y, width=_CELL, height=_CELL, fill=fill, class_="cell",
                   **move_data(self.format_move(i), i in legal))
            )  # fmt: skip
            if state.x >> i & 1:
                parts.append(cross(x, y, _CELL, PLAYER_COLOURS[0], 8))
            elif state.o >> i & 1:
                parts.append(nought(x, y, _CELL, PLAYER_COLOURS[1], 8))
        line = line_of(state.x) or line_of(state.o)
        if line is not None:
            centres = [
                (_MARGIN + _CELL * (c % 3 + 0.5), _MARGIN + _CELL * (c // 3 + 0.5)) for c in line
            ]
            parts.append(winning_line(centres, 14, " ".join(self.format_move(c) for c in line)))
        for k in (1, 2):
            a, end = _MARGIN + _CELL * k, _MARGIN + 3 * _CELL
            parts.append(el("path", d=f"M{a},{_MARGIN}V{end}M{_MARGIN},{a}H{end}", stroke=INK,
                            stroke_width=3))  # fmt: skip
        side = 2 * _MARGIN + 3 * _CELL
        return document(side, side, "".join(parts), title, self.spec.name)


# -- random playouts: the pure kernel (the reference) and the compiled one ---------------------

WINS: tuple[bool, ...] = tuple(has_line(m) for m in range(512))
"""``WINS[marks]``: whether a 9-bit board holds three in a row (the kernels' line test)."""
_FREE = tuple(tuple(i for i in range(9) if not occ >> i & 1) for occ in range(512))
_WINNER_RETURNS = ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0))  # by winner + 1 (-1: a draw)


def random_winner(x: int, o: int, to_move: int, rand: Callable[[], float]) -> int:
    """The winner (0, 1, or -1 for a draw) of the random game from a position that is not over,
    each move ``free[int(rand() * len(free))]`` of the free squares in increasing order: the
    pure kernel, which ``kernels/tictactoe.py`` compiles."""
    while True:
        free = _FREE[x | o]
        if not free:
            return -1
        bit = 1 << free[int(rand() * len(free))]
        if to_move == 0:
            x |= bit
            if WINS[x]:
                return 0
        else:
            o |= bit
            if WINS[o]:
                return 1
        to_move ^= 1


def python_playout(state: State, key: keys.Key) -> tuple[float, float]:
    """``random_playout`` on the pure path: the reference the compiled kernel is checked
    against."""
    node = _NODES.get(state) or _node(state)
    if node.over:
        return node.returns
    return _WINNER_RETURNS[random_winner(state.x, state.o, state.to_move, keys.stream(key)) + 1]


def random_playout(state: State, key: keys.Key) -> tuple[float, float]:
    """The returns at the end of the uniformly random game from ``state`` that ``key`` draws.

    Each ply plays ``legal(s)[int(r * len(legal(s)))]`` with ``r`` the next draw of
    ``keys.stream(key)``; the compiled kernel where numba is installed, else the pure one, with
    the same result. (Not the game's ``playout`` hook: with one, ``mcts:playout=auto`` would
    switch tic-tac-toe from decisive to random playouts, a change of play, not of speed.)
    """
    kernel = compiled.kernels("tictactoe")
    node = _NODES.get(state) or _node(state)
    if kernel is None or node.over:
        return python_playout(state, key)
    # one packed int and the key as int64 (``compiled.as_int64`` written out): numba's call
    # costs about a tenth of a microsecond per argument, a third of the whole playout
    packed = state.x | state.o << 9 | state.to_move << 18
    return _WINNER_RETURNS[kernel.playout(packed, key - (1 << 64) if key >> 63 else key) + 1]


def batch_playouts(states: Sequence[State], ks: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]:
    """``TicTacToe.playouts`` for valid states: one kernel call over arrays where numba is,
    ``python_playout`` state by state where it is not."""
    import numpy as np

    n = len(ks)
    kernel = compiled.kernels("tictactoe")
    if kernel is None:
        return python_batch(TicTacToe(), states, ks)
    if len(states) == 1:
        s = states[0]
        xs = np.full(n, s.x, np.int64)
        os = np.full(n, s.o, np.int64)
        ps = np.full(n, s.to_move, np.int64)
    else:
        xs = np.fromiter((s.x for s in states), np.int64, n)
        os = np.fromiter((s.o for s in states), np.int64, n)
        ps = np.fromiter((s.to_move for s in states), np.int64, n)
    winners = kernel.playouts(xs, os, ps, np.ascontiguousarray(ks, np.uint64).view(np.int64))
    returns: npt.NDArray[np.float64] = np.array(_WINNER_RETURNS)[winners + 1]
    return returns


def row_of(state: State) -> npt.NDArray[np.int64]:
    """The state's row for the row kernels: (x, o, to_move)."""
    import numpy as np

    return np.array((state.x, state.o, state.to_move), np.int64)


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of`` undone)."""
    return _interned(State(int(row[0]), int(row[1]), int(row[2])))


@memo(size=None, why="no argument: the kernels are there or not, once per process")
def _rows() -> Rows | None:
    kernel = compiled.kernels("tictactoe")
    if kernel is None:
        return None
    return Rows(
        width=kernel.WIDTH, max_moves=9, row_of=row_of, state_of=state_of, legal=kernel.legal,
        step=kernel.step, player=kernel.player, reward0=kernel.reward0,
        playout0=kernel.playout0, ending=kernel.ending, returns=kernel.returns,
    )  # fmt: skip


_CELL = 80
"""A square's side in the drawing."""
_MARGIN = 12


_EMPTY = State(0, 0, 0)
_NODE_MEMO.put(_EMPTY, _Node(_EMPTY))

"""Xtreme tic-tac-toe: ultimate tic-tac-toe on two big boards with bonus moves.

The 2-board game of the IIIT Hyderabad AI course tournament (February 2019), as its
``Description.pdf`` and official ``simulator.py`` define it (``docs/games/xtreme_tictactoe.md``):

- Two big boards ``k`` = 0, 1, each a 3×3 grid of small 3×3 boards: 18 small boards, 162 cells.
  X (player 0) moves first, anywhere.
- **Correspondence.** A move in cell ``p`` of a small board sends the next mover to small board
  ``p`` of *both* big boards: they may play in either one.
- **Closed boards.** A won small board, or a full one without a line, is closed. If exactly one
  of the two target boards is closed, the move must go in the other; if *both* are closed, the
  move is free: any empty cell of any open small board, on either big board.
- **Bonus move.** Winning a small board gives the same player one more move, aimed by the
  winning cell as usual. A bonus move that wins a small board again gives no further move: the
  turn then passes. No bonus once the game is over.
- **Win.** Three won small boards in a line on *either* big board win at once.
- **Exhaustion.** When all 18 small boards are closed without a line, each player scores the
  small boards they won: corner 4, centre 3, edge 6 points (43 per big board, 86 in all). The
  ``reward`` option says what that is worth: ``draw`` (0), ``tiebreak`` (the sign of the points
  difference) or ``points`` (the points difference / 86, the tournament's scale where a line win
  is worth all 86 points).

Numbering: small board ``sb = k * 9 + position`` (positions 0-8 row by row), move id
``sb * 9 + cell`` (0-161), typed as ``k position cell``. The course simulator's ``(k, row, col)``
is ``row = 3 * (position // 3) + cell // 3``, ``col = 3 * (position % 3) + cell % 3``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Literal

from attrs import frozen

from purestate.core import compiled, keys
from purestate.core.game import GameSpec, ParseError
from purestate.core.hooks import Rows
from purestate.core.memo import memo
from purestate.core.spec import SpecError
from purestate.games.big_board import (
    GAME_OVER,
    MARKS,
    BigBoardGame,
    BigBoards,
    PackedBoards,
)
from purestate.games.small_board import EMPTY_CELLS, FREE_COUNT, FULL, POSITION_POINTS, WINS

__all__ = [
    "ALL_CLOSED",
    "GAME_OVER",
    "LAYOUT",
    "MARKS",
    "MAX_POINTS",
    "POINTS_OF_MASK",
    "SYMMETRIES",
    "Reward",
    "State",
    "XtremeTicTacToe",
    "board_name",
    "make_state",
    "points",
    "winner",
]

LAYOUT = BigBoards(2, "xtreme_tictactoe")
"""Two big boards: the tables, symmetries, codec and texts shared with ultimate tic-tac-toe."""
ALL_CLOSED = LAYOUT.all_boards
_WORD_BITS = 45  # the compiled kernel takes a player's bits as four words of five small boards
_WORD = (1 << _WORD_BITS) - 1
MAX_POINTS = 86
SYMMETRIES = LAYOUT.symmetries
"""``g`` = D4 element ``g % 8`` on positions and cells together, then swap the big boards if
``g >= 8``."""

Reward = Literal["draw", "tiebreak", "points"]

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_MOVE_BOARD = LAYOUT.move_board
_MOVE_CELL = LAYOUT.move_cell
_LEGAL_IN = LAYOUT.legal_in
POINTS_OF_MASK: tuple[int, ...] = tuple(
    sum(POSITION_POINTS[p] for p in range(9) if m >> p & 1) for m in range(512)
)
"""``POINTS_OF_MASK[won]``: the points of the small boards of one big board in the 9-bit
``won`` (corner 4, centre 3, edge 6)."""


@frozen
class State(PackedBoards):
    """An Xtreme tic-tac-toe position.

    Small boards are ``k * 9 + position``; ``target`` is the position ``p`` of the two target
    boards ``0:p`` and ``1:p``, -1 for a free move (first move, or both targets closed). The
    other fields and the won and closed masks are those of ``PackedBoards``.

    Attributes:
        bonus: Whether this move is a bonus move (it cannot earn another one).
    """

    bonus: bool

    WIDTH: ClassVar[int] = 18
    MASK: ClassVar[int] = ALL_CLOSED


# Building the new state is most of the cost of a step. ``_state`` fills the slots through their
# descriptors, skipping attrs' setattr-by-name in ``__init__``; the result is the same frozen
# value (tests compare it with ``State(...)``).
_new = object.__new__
_set_x, _set_o, _set_boards, _set_target, _set_to_move, _set_bonus = (
    getattr(State, name).__set__ for name in ("x", "o", "boards", "target", "to_move", "bonus")
)


def _state(x: int, o: int, boards: int, target: int, to_move: int, bonus: bool) -> State:
    s: State = _new(State)
    _set_x(s, x)
    _set_o(s, o)
    _set_boards(s, boards)
    _set_target(s, target)
    _set_to_move(s, to_move)
    _set_bonus(s, bonus)
    return s


def make_state(
    x: int, o: int, won_x: int, won_o: int, closed: int, target: int, to_move: int, bonus: bool
) -> State:
    """A state from its parts (the won and closed masks are packed into ``boards``)."""
    return State(x, o, won_x | won_o << 18 | closed << 36, target, to_move, bonus)


def _line(won: int) -> bool:
    return WINS[won & FULL] or WINS[won >> 9]


def _over(s: State) -> bool:
    return s.target == GAME_OVER


def winner(state: State) -> int | None:
    """0 if X has three small boards in a line on a big board, 1 if O has, None otherwise."""
    if _line(state.won_x):
        return 0
    if _line(state.won_o):
        return 1
    return None


def points(state: State) -> tuple[int, int]:
    """The points of the small boards each player has won (corner 4, centre 3, edge 6)."""
    return (
        POINTS_OF_MASK[state.won_x & FULL] + POINTS_OF_MASK[state.won_x >> 9],
        POINTS_OF_MASK[state.won_o & FULL] + POINTS_OF_MASK[state.won_o >> 9],
    )


def board_name(sb: int) -> str:
    """A small board as people name it: ``k:position``, e.g. ``1:4``."""
    return LAYOUT.board_name(sb)


def _valid(state: State) -> str | None:
    """Why ``state`` cannot arise in a game, or None if it can (as far as cheap checks tell)."""
    why = LAYOUT.unreachable_marks(state)
    if why is not None:
        return why
    p, bonus = state.to_move, state.bonus
    if p not in (0, 1):
        return "the player to move must be X or O"
    if not state.x | state.o and (p or bonus or state.target >= 0):
        return "X makes the first move, a free one"
    if bonus and not (state.won_o if p else state.won_x):
        return "a bonus move needs a small board won by the player to move"
    # the player who made the last move: the mover again on a bonus move, else the other one
    why = LAYOUT.unreachable_play(state, p if bonus else 1 - p)
    if why is not None:
        return why
    if bonus and _over(state):
        return "no bonus move once the game is over"
    # Turns alternate, X first; a turn is one move, or two when its first move wins a small board.
    # So X's marks minus O's are (X's turns minus O's, which is ``p ^ bonus``) plus X's bonus moves
    # minus O's, and each player has made at most one bonus move per small board it won, less
    # the bonus move it is about to make and less the win that completed a line (it ended the game).
    nx, no = state.x.bit_count(), state.o.bit_count()
    extra = nx - no - (p ^ bonus)
    line = winner(state)
    most_x = state.won_x.bit_count() - (bonus and p == 0) - (line == 0)
    most_o = state.won_o.bit_count() - (bonus and p == 1) - (line == 1)
    if not -most_o <= extra <= most_x:
        return (
            f"{nx} X and {no} O with {MARKS[p]} to move: the difference is not one of the "
            "turns, plus at most one bonus move per small board won"
        )
    return None


@frozen
class XtremeTicTacToe(BigBoardGame[State]):
    """Xtreme tic-tac-toe: two big boards, correspondence to both, one bonus move per win.

    Attributes:
        reward: What a game that ends with all 18 small boards closed is worth: ``draw`` (0 for
            both), ``tiebreak`` (+1/-1 to the player with more points, 0 if equal) or ``points``
            ((points - opponent's points) / 86). A line win is +1/-1 under every option.
    """

    reward: Reward = "points"
    layout = LAYOUT

    def __attrs_post_init__(self) -> None:
        if self.reward not in ("draw", "tiebreak", "points"):
            raise SpecError(f"reward must be draw, tiebreak or points; got {self.reward!r}")

    @property
    def spec(self) -> GameSpec:
        """Name and bounds (162 marks at most); outcomes are margins under ``points``."""
        return _SPECS[self.reward]

    def initial(self) -> State:
        """Both boards empty, X to move, free move."""
        return _EMPTY

    def legal(self, state: State) -> tuple[int, ...]:
        """The move ids of the playable empty cells in increasing order; () once over."""
        t = state.target
        if t == GAME_OVER:
            return ()
        occ = state.x | state.o
        closed = state.boards >> 36
        if t >= 0:
            if closed >> t & 1:
                return _LEGAL_IN[t + 9][(occ >> (9 * t + 81)) & FULL]
            if closed >> (t + 9) & 1:
                return _LEGAL_IN[t][(occ >> (9 * t)) & FULL]
            return (
                _LEGAL_IN[t][(occ >> (9 * t)) & FULL]
                + _LEGAL_IN[t + 9][(occ >> (9 * t + 81)) & FULL]
            )
        return LAYOUT.free_moves(occ, closed)

    def returns(self, state: State) -> tuple[float, float]:
        """+1/-1 for a line; at exhaustion as the ``reward`` option says; zeros before the end."""
        if state.target != GAME_OVER:
            return (0.0, 0.0)
        won_x, won_o = state.won_x, state.won_o
        if _line(won_x):
            return (1.0, -1.0)
        if _line(won_o):
            return (-1.0, 1.0)
        return self._exhausted(won_x, won_o)

    def _exhausted(self, won_x: int, won_o: int) -> tuple[float, float]:
        if self.reward == "draw":
            return (0.0, 0.0)
        diff = (
            POINTS_OF_MASK[won_x & FULL]
            + POINTS_OF_MASK[won_x >> 9]
            - POINTS_OF_MASK[won_o & FULL]
            - POINTS_OF_MASK[won_o >> 9]
        )
        v = float((diff > 0) - (diff < 0)) if self.reward == "tiebreak" else diff / MAX_POINTS
        return (v, -v)

    def step(self, state: State, move: int) -> State:
        """Put the mover's mark on ``move`` (= (k * 9 + position) * 9 + cell).

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)`` (a plain int, not a bool).
        """
        # the type test first: a bool indexes the tables as 0 or 1 and -1 as the last entry
        if type(move) is not int or not 0 <= move < 162:
            raise LAYOUT.illegal(state, move)
        sb = _MOVE_BOARD[move]
        x, o, boards, t = state.x, state.o, state.boards, state.target
        if (
            (sb != t and sb != t + 9 if t >= 0 else t == GAME_OVER)
            or boards >> (36 + sb) & 1
            or (x | o) >> move & 1
        ):
            raise LAYOUT.illegal(state, move)
        shift = 9 * sb
        p = state.to_move
        if p == 0:
            x |= 1 << move
            mine = x
        else:
            o |= 1 << move
            mine = o
        c = _MOVE_CELL[move]
        if WINS[(mine >> shift) & FULL]:
            boards |= 1 << (18 * p + sb) | 1 << (36 + sb)
            # the won board's big board: bits 18 * p + 9 * k .. + 8 of ``boards``
            if WINS[(boards >> (18 * p + 9 * (sb >= 9))) & FULL] or boards >> 36 == ALL_CLOSED:
                return _state(x, o, boards, GAME_OVER, 1 - p, False)
            closed = boards >> 36
            target = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
            if state.bonus:
                return _state(x, o, boards, target, 1 - p, False)
            return _state(x, o, boards, target, p, True)
        if ((x | o) >> shift) & FULL == FULL:
            boards |= 1 << (36 + sb)
            if boards >> 36 == ALL_CLOSED:
                return _state(x, o, boards, GAME_OVER, 1 - p, False)
        closed = boards >> 36
        target = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
        return _state(x, o, boards, target, 1 - p, False)

    def _compiled_playout(self, state: State, key: keys.Key) -> tuple[float, float] | None:
        """``playout`` by ``kernels/xtreme.py``, or None without numba."""
        kernel = compiled.kernels("xtreme")
        if kernel is None:
            return None
        x, o = state.x, state.o
        end = kernel.playout(
            x & _WORD, x >> _WORD_BITS & _WORD, x >> 2 * _WORD_BITS & _WORD, x >> 3 * _WORD_BITS,
            o & _WORD, o >> _WORD_BITS & _WORD, o >> 2 * _WORD_BITS & _WORD, o >> 3 * _WORD_BITS,
            state.boards, state.target, state.to_move, state.bonus, compiled.as_int64(key),
        )  # fmt: skip
        if end < 2:
            return (1.0, -1.0) if end == 0 else (-1.0, 1.0)
        won = end - 2
        return self._exhausted(won & ALL_CLOSED, won >> 18)

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows with ``kernels/xtreme.py``'s compiled rules
        (``RowKernels``); None without numba. A bonus move's row names the same player again."""
        return _rows(self.reward)

    def _random_game(self, state: State, rand: Callable[[], float]) -> tuple[float, float]:
        """``playout`` from a position that is not over, with ``rand`` uniform in [0, 1)."""
        marks = [
            [(state.x >> (9 * sb)) & FULL for sb in range(18)],
            [(state.o >> (9 * sb)) & FULL for sb in range(18)],
        ]
        occ = [a | b for a, b in zip(marks[0], marks[1], strict=True)]
        won = [state.won_x, state.won_o]
        closed = state.closed
        t = state.target
        p = state.to_move
        bonus = state.bonus
        while True:
            if t >= 0 and not closed >> t & 1 and not closed >> (t + 9) & 1:
                n0 = FREE_COUNT[occ[t]]
                r = int(rand() * (n0 + FREE_COUNT[occ[t + 9]]))
                if r < n0:
                    sb = t
                else:
                    sb = t + 9
                    r -= n0
                c = EMPTY_CELLS[occ[sb]][r]
            elif t >= 0:
                sb = t + 9 if closed >> t & 1 else t
                cells = EMPTY_CELLS[occ[sb]]
                c = cells[int(rand() * len(cells))]
            else:
                # a free move: draw one of all the free cells of the open boards (written out,
                # like ultimate's: a function call here costs the playout a few per cent)
                total = 0
                for b in range(18):
                    if not closed >> b & 1:
                        total += FREE_COUNT[occ[b]]
                r = int(rand() * total)
                sb = 0
                while True:
                    if not closed >> sb & 1:
                        n = FREE_COUNT[occ[sb]]
                        if r < n:
                            break
                        r -= n
                    sb += 1
                c = EMPTY_CELLS[occ[sb]][r]
            bit = 1 << c
            filled = occ[sb] | bit
            occ[sb] = filled
            mine = marks[p]
            m = mine[sb] | bit
            mine[sb] = m
            if WINS[m]:
                closed |= 1 << sb
                w = won[p] | (1 << sb)
                won[p] = w
                if WINS[(w >> 9) if sb >= 9 else (w & FULL)]:
                    return (1.0, -1.0) if p == 0 else (-1.0, 1.0)
                if closed == ALL_CLOSED:
                    return self._exhausted(won[0], won[1])
                t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
                if bonus:
                    bonus = False
                    p ^= 1
                else:
                    bonus = True
                continue
            if filled == FULL:
                closed |= 1 << sb
                if closed == ALL_CLOSED:
                    return self._exhausted(won[0], won[1])
            t = -1 if closed >> c & 1 and closed >> (c + 9) & 1 else c
            bonus = False
            p ^= 1

    def transform(self, state: State, sym: int) -> State:
        """The position under symmetry ``sym``."""
        if sym == 0:
            return state
        return make_state(
            LAYOUT.map_bits(state.x, sym),
            LAYOUT.map_bits(state.o, sym),
            LAYOUT.map_boards(state.won_x, sym),
            LAYOUT.map_boards(state.won_o, sym),
            LAYOUT.map_boards(state.closed, sym),
            LAYOUT.map_target(state.target, sym),
            state.to_move,
            state.bonus,
        )

    def encode(self, state: State) -> str:
        """18 groups of nine cells, the target position, the mover and ``bonus`` on a bonus move.

        Groups are small boards ``0:0`` ... ``0:8`` then ``1:0`` ... ``1:8`` (``/`` between
        groups, ``|`` between the big boards). Example: ``....X..../...|... 4 O`` after X's first
        move in cell 4 of small board 0:0.
        """
        t = state.target if state.target >= 0 else "*"
        tail = " bonus" if state.bonus else ""
        return f"{LAYOUT.encode_cells(state)} {t} {MARKS[state.to_move]}{tail}"

    def decode(self, text: str) -> State:
        """The position written by ``encode``.

        Raises:
            ParseError: if the text is not a position, or not a reachable one.
        """
        parts = text.split()
        if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3].lower() != "bonus"):
            raise ParseError(
                f"{text!r} is not a position: expected 162 cells (X, O or '.'), the target "
                "position (0-8 or *), the player to move (X or O) and 'bonus' on a bonus move"
            )
        board, target, mover = parts[:3]
        x, o = LAYOUT.decode_cells(board)
        t = LAYOUT.decode_target(target)
        if mover.upper() not in MARKS:
            raise ParseError(f"{mover!r} is not a player: expected X or O")
        won_x, won_o, closed = LAYOUT.derived(x, o)
        if t == -1 and LAYOUT.ended(won_x, won_o, closed):
            t = GAME_OVER
        state = make_state(
            x, o, won_x, won_o, closed, t, MARKS.index(mover.upper()), len(parts) == 4
        )
        why = _valid(state)
        if why is not None:
            raise ParseError(f"{text!r} is not a reachable position: {why}")
        return state

    def render(self, state: State) -> str:
        """Both big boards side by side, their small boards' status, points and the next move.

        Free cells where the player to move may play show their cell number (0-8); other free
        cells show ``.``. Under each big board, its small boards show ``X``/``O`` when won,
        ``=`` when drawn, ``*`` when open to the player to move and ``.`` otherwise.
        """
        playable = LAYOUT.playable(state)
        grids = [LAYOUT.grid(state, k, playable) for k in (0, 1)]
        out = [f"{'big board 0':^23}     {'big board 1':^23}"]
        out += [f"{a}     {b}" for a, b in zip(grids[0], grids[1], strict=True)]
        out.append("")
        for br in range(3):
            rows = []
            for k in (0, 1):
                syms = [
                    LAYOUT.board_symbol(state, 9 * k + 3 * br + bc, playable) for bc in range(3)
                ]
                rows.append(f"{' '.join(syms):^23}")
            guide = f"{3 * br} {3 * br + 1} {3 * br + 2}"
            rows.append(guide)
            out.append("     ".join(rows).rstrip())
        px, po = points(state)
        out.append("* = you may play there, X/O = won, = = drawn; right: positions")
        out.append(f"points: X {px}, O {po} (corner 4, centre 3, edge 6)")
        out.append(_status_line(state, self.reward))
        return "\n".join(out)


def row_of(state: State, reward: Reward) -> npt.NDArray[np.int64]:
    """The state's row for the row kernels: X's 18 small boards, O's, the won and closed masks,
    target, to_move, bonus and the reward option's number (``kernels/xtreme.py``)."""
    import numpy as np

    row = np.empty(43, np.int64)
    for sb in range(18):
        row[sb] = state.x >> 9 * sb & FULL
        row[18 + sb] = state.o >> 9 * sb & FULL
    row[36:] = (
        state.won_x, state.won_o, state.closed, state.target, state.to_move, state.bonus,
        _REWARDS.index(reward),
    )  # fmt: skip
    return row


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of`` undone)."""
    x = sum(int(row[sb]) << 9 * sb for sb in range(18))
    o = sum(int(row[18 + sb]) << 9 * sb for sb in range(18))
    boards = int(row[36]) | int(row[37]) << 18 | int(row[38]) << 36
    return _state(x, o, boards, int(row[39]), int(row[40]), bool(row[41]))


_REWARDS: tuple[Reward, ...] = ("draw", "tiebreak", "points")
"""The reward options by their number in a row (``kernels/xtreme.py``'s ``REWARDS``)."""


@memo(size=None, why="one entry per reward option: three")
def _rows(reward: Reward) -> Rows | None:
    kernel = compiled.kernels("xtreme")
    if kernel is None:
        return None
    return Rows(
        width=kernel.WIDTH, max_moves=162, row_of=partial(row_of, reward=reward),
        state_of=state_of, legal=kernel.legal, step=kernel.step, player=kernel.player,
        reward0=kernel.reward0, playout0=kernel.playout0, ending=kernel.ending,
        returns=kernel.returns,
    )  # fmt: skip


def _status_line(state: State, reward: str) -> str:
    w = winner(state)
    if w is not None:
        return LAYOUT.winner_line(w)
    if _over(state):
        px, po = points(state)
        if px == po:
            return f"All 18 small boards are closed: {px}-{po} on points, a tie."
        lead = "X" if px > po else "O"
        score = f"{max(px, po)}-{min(px, po)}"
        return f"All 18 small boards are closed: {lead} leads {score} on points (reward={reward})."
    who = MARKS[state.to_move]
    boards = LAYOUT.playable(state)
    example = f"e.g. '{LAYOUT.example_move(state, boards[0])}'"
    if state.target >= 0:
        where = f"in small board {' or '.join(board_name(b) for b in boards)}"
    else:
        where = "anywhere open (free move)"
    line = f"{who} to move {where}: type 'big-board position cell', {example}."
    if state.bonus:
        return f"Bonus move for {who} (winning a board now earns no further move).\n{line}"
    return line


_EMPTY = make_state(0, 0, 0, 0, 0, -1, 0, False)
# A position is its 162 cells (empty, X or O), the target (-2 to 17), the player to move and the
# bonus flag (the boards follow from the cells): 3^162 · 20 · 2 · 2, about 10^79, bounds them.
_SPECS = {
    reward: GameSpec(
        "xtreme_tictactoe",
        2,
        162,
        outcomes=None if reward == "points" else (-1.0, 0.0, 1.0),
        positions=3**162 * 20 * 2 * 2,
        default_opponent="mcts:simulations=5000",  # about 0.5 s a move (docs/cli.md)
        # each reward: points (the default), the win/loss of the rules, the tie-break
        variants=(
            "xtreme_tictactoe",
            "xtreme_tictactoe:reward=draw",
            "xtreme_tictactoe:reward=tiebreak",
        ),
    )
    for reward in ("draw", "tiebreak", "points")
}

"""Boards made of small boards: what ultimate and Xtreme tic-tac-toe share.

Both games play on ``count`` big boards (ultimate one, Xtreme two), each a 3×3 grid of small 3×3
boards. Small board ``sb = k * 9 + position`` (big board ``k``, positions 0-8 row by row), move
id ``sb * 9 + cell``; a player's marks are one int with bit ``sb * 9 + cell``, and the small
boards a player has won or that are closed are masks with bit ``sb``. A position's ``target`` is
the position ``p`` the last move sent play to (small board ``p`` of every big board), -1 for a
free move and ``GAME_OVER`` at the end.

- ``PackedBoards``: the fields both states start with (the won and closed masks packed in one
  int); each game's ``State`` subclasses it.
- ``BigBoards``: what follows from the layout alone: the move tables, the symmetries (D4 on
  positions and cells together, and for two big boards the swap of the boards), decoding and
  validation, the reasons a move is illegal, the text of the boards, typed moves. One instance
  per game, its ``LAYOUT``.
- ``BigBoardGame``: the game methods both answer alike from their layout (``to_move``,
  ``is_over``, the symmetries, ``canonical``, ``parse_move``, ``format_move``, the entry of
  ``playout``).

The rules each game keeps alone (who moves next, what a finished game is worth) and the hot
paths (``legal``, ``step``, the random game of ``playout``) stay in ``ultimate.py`` and
``xtreme.py``, written out for speed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from attrs import frozen

from purestate.core import keys
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.core.memo import memo
from purestate.core.picture import (
    ACTIVE,
    HIGHLIGHT,
    INK,
    PLAYER_COLOURS,
    cross,
    document,
    el,
    move_data,
    nought,
    text,
    winning_line,
)
from purestate.core.planes import bits
from purestate.games.small_board import CELL_MAPS, EMPTY_CELLS, FULL, MASK_IMAGES, WINS, line_of

if TYPE_CHECKING:
    import numpy as np

MARKS = ("X", "O")
GAME_OVER = -2
"""The ``target`` of a finished game."""

D4_INVERSES: tuple[int, ...] = tuple(
    next(h for h in range(8) if all(CELL_MAPS[h][CELL_MAPS[g][c]] == c for c in range(9)))
    for g in range(8)
)
"""``D4_INVERSES[g]``: the inverse of the D4 element ``g``."""


@frozen
class PackedBoards:
    """The fields both games' states start with, the won and closed masks packed in ``boards``.

    Building a state is the cost of a step, so the three masks of small boards share one int:
    the lowest ``WIDTH`` bits the boards X has won, the next ``WIDTH`` the boards O has won, the
    rest the closed boards (won or full). Read them as ``won_x``, ``won_o`` and ``closed``.

    Attributes:
        x: X's marks, bit ``sb * 9 + cell``.
        o: O's marks.
        boards: The won and closed masks, packed.
        target: The position play was sent to (small board ``target`` of every big board); -1
            for a free move; ``GAME_OVER`` once the game is over (so the terminal test is one
            comparison).
        to_move: 0 when X is to move, 1 when O is.
    """

    x: int
    o: int
    boards: int
    target: int
    to_move: int
    WIDTH: ClassVar[int]
    """Bits per mask: the number of small boards."""
    MASK: ClassVar[int]
    """``(1 << WIDTH) - 1``."""

    @property
    def won_x(self) -> int:
        """The small boards X has won (bit ``sb``)."""
        return self.boards & self.MASK

    @property
    def won_o(self) -> int:
        """The small boards O has won."""
        return (self.boards >> self.WIDTH) & self.MASK

    @property
    def closed(self) -> int:
        """The small boards nobody may play in any more (won or full)."""
        return self.boards >> (2 * self.WIDTH)


def _digits(text: str) -> bool:
    # ASCII only: str.isdigit() also accepts characters like '²' that int() refuses
    return text.isascii() and text.isdigit()


class BigBoards:
    """The layout of ``count`` big boards of small boards, its tables and its texts.

    One instance per game, built at import; nothing in it changes afterwards.

    Attributes:
        count: Big boards (1 or 2).
        game: The game's registered name (for messages).
        boards: Small boards, ``9 * count``.
        moves: Cells, ``81 * count``: move ids go from 0 to ``moves - 1``.
        all_boards: The mask of every small board.
        symmetries: ``8 * count`` elements: ``g`` is the D4 element ``g % 8`` on positions and
            cells together, then (``g >= 8``) the swap of the two big boards.
        move_board: ``move_board[m]``: the small board of move ``m``.
        move_cell: ``move_cell[m]``: its cell.
        legal_in: ``legal_in[sb][occupied]``: the move ids of the free cells of small board
            ``sb`` when its occupied cells are ``occupied``.
        board_maps: ``board_maps[g][sb]``: the small board symmetry ``g`` carries ``sb`` to.
        move_maps: ``move_maps[g][m]``: the move symmetry ``g`` carries ``m`` to.
        inverses: ``inverses[g]``: the inverse of ``g``.
    """

    def __init__(self, count: int, game: str) -> None:
        """Build the tables of ``count`` (1 or 2) big boards for the game named ``game``."""
        if count not in (1, 2):
            raise ValueError(f"one or two big boards, not {count}")
        self.count = count
        self.game = game
        self.boards = 9 * count
        self.moves = 81 * count
        self.all_boards = (1 << self.boards) - 1
        self.symmetries: tuple[int, ...] = tuple(range(8 * count))
        self.move_board: tuple[int, ...] = tuple(m // 9 for m in range(self.moves))
        self.move_cell: tuple[int, ...] = tuple(m % 9 for m in range(self.moves))
        self.legal_in: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(9 * sb + c for c in EMPTY_CELLS[occ]) for occ in range(512))
            for sb in range(self.boards)
        )
        self.board_maps: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                9 * ((sb // 9) ^ (g >> 3)) + CELL_MAPS[g & 7][sb % 9] for sb in range(self.boards)
            )
            for g in self.symmetries
        )
        self.move_maps: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                9 * self.board_maps[g][m // 9] + CELL_MAPS[g & 7][m % 9] for m in range(self.moves)
            )
            for g in self.symmetries
        )
        self.inverses: tuple[int, ...] = tuple(
            D4_INVERSES[g & 7] | (g & 8) for g in self.symmetries
        )
        # the wording of messages: one big board has "boards", two have "small boards" named k:p
        self.noun = "board" if count == 1 else "small board"

    # --- masks ---------------------------------------------------------------------------

    def small_masks(self, bits: int) -> tuple[int, ...]:
        """The 9-bit masks of every small board of a player's marks, in board order."""
        return tuple((bits >> (9 * sb)) & FULL for sb in range(self.boards))

    def derived(self, x: int, o: int) -> tuple[int, int, int]:
        """The small boards X won, O won and the closed ones, computed from the marks."""
        won_x = won_o = closed = 0
        for sb in range(self.boards):
            mx = (x >> (9 * sb)) & FULL
            mo = (o >> (9 * sb)) & FULL
            if WINS[mx]:
                won_x |= 1 << sb
            if WINS[mo]:
                won_o |= 1 << sb
            if WINS[mx] or WINS[mo] or mx | mo == FULL:
                closed |= 1 << sb
        return won_x, won_o, closed

    def line(self, won: int) -> bool:
        """Whether the won small boards ``won`` hold three in a line on some big board."""
        return any(WINS[(won >> (9 * k)) & FULL] for k in range(self.count))

    def ended(self, won_x: int, won_o: int, closed: int) -> bool:
        """Whether a line or the closing of every small board has ended the game."""
        return self.line(won_x) or self.line(won_o) or closed == self.all_boards

    def targets(self, target: int) -> tuple[int, ...]:
        """The small boards a target position sends play to, one per big board."""
        return tuple(9 * k + target for k in range(self.count))

    def open_boards(self, state: PackedBoards) -> tuple[int, ...]:
        """The small boards that are not closed, in increasing order."""
        closed = state.closed
        return tuple(sb for sb in range(self.boards) if not closed >> sb & 1)

    def playable(self, state: PackedBoards) -> tuple[int, ...]:
        """The small boards the player to move may play in (none once the game is over)."""
        t = state.target
        if t == GAME_OVER:
            return ()
        if t >= 0:
            return tuple(sb for sb in self.targets(t) if not state.closed >> sb & 1)
        return self.open_boards(state)

    # --- symmetries ----------------------------------------------------------------------

    def map_bits(self, bits: int, g: int) -> int:
        """The image of a player's marks under symmetry ``g``."""
        if g == 0:
            return bits
        images = MASK_IMAGES[g & 7]
        boards = self.board_maps[g]
        out = 0
        for sb in range(self.boards):
            m = (bits >> (9 * sb)) & FULL
            if m:
                out |= images[m] << (9 * boards[sb])
        return out

    def map_boards(self, mask: int, g: int) -> int:
        """The image of a mask of small boards under symmetry ``g``."""
        images = MASK_IMAGES[g & 7]
        swap = g >> 3
        out = 0
        for k in range(self.count):
            out |= images[(mask >> (9 * k)) & FULL] << (9 * (k ^ swap))
        return out

    @staticmethod
    def map_target(target: int, g: int) -> int:
        """The image of a target under symmetry ``g`` (-1 and ``GAME_OVER`` stay)."""
        return CELL_MAPS[g & 7][target] if target >= 0 else target

    def canonical_symmetry(self, state: PackedBoards) -> int:
        """The first symmetry whose image has the smallest ``(x, o, target)``."""
        # compare images by x first and map o and the target only for the contenders
        x, o, t = state.x, state.o, state.target
        best_key = (x, o, t)
        best_g = 0
        for g in self.symmetries[1:]:
            gx = self.map_bits(x, g)
            if gx > best_key[0]:
                continue
            k = (gx, self.map_bits(o, g), CELL_MAPS[g & 7][t] if t >= 0 else t)
            if k < best_key:
                best_key, best_g = k, g
        return best_g

    # --- names and reasons ---------------------------------------------------------------

    def board_name(self, sb: int) -> str:
        """A small board as people name it: ``4`` on one big board, ``k:position`` on two."""
        return str(sb) if self.count == 1 else f"{sb // 9}:{sb % 9}"

    def boards_text(self, boards: tuple[int, ...]) -> str:
        """Small boards listed for a message: ``boards 1, 2`` on one big board, ``0:1, 1:2``."""
        names = ", ".join(self.board_name(sb) for sb in boards)
        return f"boards {names}" if self.count == 1 else names

    def free_cells_text(self, state: PackedBoards, sb: int) -> str:
        """The free cells of small board ``sb``, listed."""
        occ = ((state.x | state.o) >> (9 * sb)) & FULL
        return ", ".join(map(str, EMPTY_CELLS[occ]))

    def free_moves(self, occupied: int, closed: int) -> tuple[int, ...]:
        """The move ids of every free cell of every open small board, in increasing order."""
        legal_in = self.legal_in
        return tuple(
            chain.from_iterable(
                legal_in[sb][(occupied >> (9 * sb)) & FULL]
                for sb in range(self.boards)
                if not closed >> sb & 1
            )
        )

    def illegal(self, state: PackedBoards, move: object) -> IllegalMove:
        """The error for a move ``step`` refuses, saying why (see ``why_illegal``)."""
        return IllegalMove(self.why_illegal(state, move) or f"{move!r} is not legal here")

    def why_illegal(self, state: PackedBoards, move: object) -> str | None:
        """Why ``move`` is not legal in ``state``, or None if it is."""
        if type(move) is not int or not 0 <= move < self.moves:
            where = "board * 9 + cell" if self.count == 1 else "(k * 9 + position) * 9 + cell"
            return (
                f"{move!r} is not a move of {self.game} "
                f"(moves are ints {where}, 0-{self.moves - 1})"
            )
        t = state.target
        if t == GAME_OVER:
            return "the game is over"
        sb, c = self.move_board[move], self.move_cell[move]
        if t >= 0 and sb not in self.targets(t):
            if self.count == 1:
                return (
                    f"you were sent to board {t}: play there "
                    f"(free cells {self.free_cells_text(state, t)})"
                )
            return (
                f"you were sent to small board {t} of either big board: play in "
                f"{self.boards_text(self.playable(state))}"
            )
        if state.closed >> sb & 1:
            how = (
                "won by X"
                if state.won_x >> sb & 1
                else "won by O"
                if state.won_o >> sb & 1
                else "full (drawn)"
            )
            return (
                f"{self.noun} {self.board_name(sb)} is closed ({how}); you may play in "
                f"{self.boards_text(self.playable(state))}"
            )
        if (state.x | state.o) >> move & 1:
            return (
                f"cell {c} of {self.noun} {self.board_name(sb)} is taken "
                f"(free cells there: {self.free_cells_text(state, sb)})"
            )
        return None

    def unreachable_marks(self, state: PackedBoards) -> str | None:
        """Why the marks and the won and closed boards of ``state`` cannot arise, or None."""
        x, o = state.x, state.o
        if x < 0 or o < 0 or x >> self.moves or o >> self.moves or x & o:
            return "marks outside the board or two marks on one cell"
        won_x, won_o = state.won_x, state.won_o
        if (won_x, won_o, state.closed) != self.derived(x, o):
            return "the won and closed boards do not match the marks"
        if won_x & won_o:
            return "a small board has lines of both players"
        if self.line(won_x) and self.line(won_o):
            return "both players have three boards in a line"
        return None

    def unreachable_play(self, state: PackedBoards, last: int) -> str | None:
        """Why the end of the game or the target of ``state`` cannot arise, or None.

        Run after ``unreachable_marks``; the player to move, the number of marks and any bonus
        move are the game's to check.

        Args:
            state: The position.
            last: The player who made the last move (0 for X), if any move was made.
        """
        won_x, won_o, closed = state.won_x, state.won_o, state.closed
        if (self.line(won_x) and last != 0) or (self.line(won_o) and last != 1):
            return "a player moved after the game was won"
        t = state.target
        if not GAME_OVER <= t <= 8:
            return f"target {t} is not a position (0-8, or * for a free move)"
        if (t == GAME_OVER) != self.ended(won_x, won_o, closed):
            if t == GAME_OVER:
                return "the target says the game is over, but it is not"
            return "the game is over, so the target must be *"
        last_marks = state.o if last else state.x
        if t >= 0:
            boards = self.targets(t)
            if all(closed >> sb & 1 for sb in boards):
                if self.count == 1:
                    return f"target board {t} is closed, so the move is free (write *)"
                names = " and ".join(self.board_name(sb) for sb in boards)
                return f"both target boards {names} are closed, so the move is free (write *)"
            if not any(last_marks >> (9 * sb + t) & 1 for sb in range(self.boards)):
                return f"no mark of the last mover on a cell {t} could have sent play to {t}"
        elif t == -1 and state.x | state.o:
            # the last mark freed the move: its cell names target boards that are all closed
            freeing = [c for c in range(9) if all(closed >> sb & 1 for sb in self.targets(c))]
            if not any(
                last_marks >> (9 * sb + c) & 1 for c in freeing for sb in range(self.boards)
            ):
                return "a free move needs a last move into a cell whose target boards are closed"
        return None

    # --- text ----------------------------------------------------------------------------

    def encode_cells(self, state: PackedBoards) -> str:
        """The cells, ``X``/``O``/``.``, nine per small board: ``/`` between small boards,
        ``|`` between big boards."""
        x, o = state.x, state.o
        cells = ["X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(self.moves)]
        return "|".join(
            "/".join("".join(cells[9 * sb : 9 * sb + 9]) for sb in range(9 * k, 9 * k + 9))
            for k in range(self.count)
        )

    def decode_cells(self, board: str) -> tuple[int, int]:
        """X's and O's marks from the cells written by ``encode_cells``.

        Raises:
            ParseError: unless ``board`` is ``moves`` of X, O or '.' (``/`` and ``|`` aside).
        """
        cells = [ch for ch in board.upper() if ch not in "/|"]
        if len(cells) != self.moves or any(ch not in "XO." for ch in cells):
            raise ParseError(f"{board!r} is not a board: expected {self.moves} of X, O or '.'")
        x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
        return x, o

    def decode_target(self, text: str) -> int:
        """A target written as ``0``-``8`` or ``*`` (a free move, or the end of the game: -1).

        Raises:
            ParseError: for anything else.
        """
        if text == "*":
            return -1
        if _digits(text) and int(text) <= 8:
            return int(text)
        what = "board" if self.count == 1 else "position"
        raise ParseError(f"{text!r} is not a target {what}: expected 0-8 or *")

    def grid(self, state: PackedBoards, k: int, playable: tuple[int, ...]) -> list[str]:
        """The 9×9 cells of big board ``k``: marks, the numbers of the cells one may play, dots."""
        lines = []
        for r in range(9):
            row = []
            for col in range(9):
                sb = 9 * k + (r // 3) * 3 + col // 3
                c = (r % 3) * 3 + col % 3
                i = 9 * sb + c
                if state.x >> i & 1:
                    row.append("X")
                elif state.o >> i & 1:
                    row.append("O")
                elif sb in playable:
                    row.append(str(c))
                else:
                    row.append(".")
            lines.append(" " + " | ".join(" ".join(row[3 * j : 3 * j + 3]) for j in range(3)))
            if r in (2, 5):
                lines.append("-------+-------+-------")
        return lines

    @staticmethod
    def board_symbol(state: PackedBoards, sb: int, playable: tuple[int, ...]) -> str:
        """``X``/``O`` for a won small board, ``=`` drawn, ``*`` playable, ``.`` otherwise."""
        if state.won_x >> sb & 1:
            return "X"
        if state.won_o >> sb & 1:
            return "O"
        if state.closed >> sb & 1:
            return "="
        return "*" if sb in playable else "."

    def winner_line(self, w: int) -> str:
        """The status line of a game won by player ``w``."""
        return f"{MARKS[w]} wins with three {self.noun}s in a line."

    def example_move(self, state: PackedBoards, sb: int) -> str:
        """A move one may type in small board ``sb``: its first free cell."""
        first = EMPTY_CELLS[((state.x | state.o) >> (9 * sb)) & FULL][0]
        return self.format_move(9 * sb + first)

    def format_move(self, move: int) -> str:
        """``board cell`` on one big board (``4 0``), ``k position cell`` on two (``1 4 0``)."""
        sb, c = divmod(move, 9)
        if self.count == 1:
            return f"{sb} {c}"
        return f"{sb // 9} {sb % 9} {c}"

    def parse_move(self, text: str) -> int:
        """A move typed as ``format_move`` writes it (``,``, ``:`` and brackets allowed) or its id.

        Raises:
            ParseError: if the text is not a move; legality is the caller's to check.
        """
        tokens = text
        for sep in ",():":
            tokens = tokens.replace(sep, " ")
        parts = tokens.split()
        coords = 2 if self.count == 1 else 3
        if not parts or not all(_digits(p) for p in parts) or len(parts) not in (1, coords):
            if self.count == 1:
                how = "'board cell' (each 0-8, e.g. '4 0')"
            else:
                how = (
                    "'big-board position cell' (e.g. '1 4 0': big board 0-1, small board 0-8, "
                    "cell 0-8)"
                )
            raise ParseError(
                f"{text.strip()!r} is not a move: type {how} or a move number 0-{self.moves - 1}"
            )
        if len(parts) == 1:
            move = int(parts[0])
            if move >= self.moves:
                raise ParseError(f"{move} is not a move number: they go from 0 to {self.moves - 1}")
            return move
        *big, b, c = (int(p) for p in parts)
        k = big[0] if big else 0
        if k >= self.count or b > 8 or c > 8:
            if self.count == 1:
                raise ParseError(f"{text.strip()!r}: boards and cells are numbered 0-8")
            raise ParseError(f"{text.strip()!r}: big boards are 0-1, small boards and cells 0-8")
        return (9 * k + b) * 9 + c


S = TypeVar("S", bound=PackedBoards)


class BigBoardGame(Generic[S]):
    """The methods both games answer alike from their ``layout``; the rules are the game's.

    A subclass sets ``layout`` and writes ``spec``, ``initial``, ``legal``, ``returns``,
    ``step``, ``transform``, the random game of ``playout`` and the codec and text that differ
    (the player to move, the bonus move, the points).
    """

    seat_marks: ClassVar[tuple[str, str]] = MARKS
    """What each seat plays with (``MarkedSeats``): the drawing's and the terminal's marks."""

    __slots__ = ()
    layout: ClassVar[BigBoards]

    def to_move(self, state: S) -> int:
        """0 for X, 1 for O."""
        return state.to_move

    def is_over(self, state: S) -> bool:
        """Whether a line of small boards or the closing of every small board ended the game."""
        return state.target == GAME_OVER

    @property
    def symmetries(self) -> tuple[int, ...]:
        """D4 on positions and cells together (and, on two big boards, the swap), identity
        first."""
        return self.layout.symmetries

    @property
    def spec(self) -> GameSpec:
        """Name and bounds."""
        raise NotImplementedError

    def legal(self, state: S) -> tuple[int, ...]:
        """The legal moves."""
        raise NotImplementedError

    def returns(self, state: S) -> tuple[float, float]:
        """The players' returns (zeros before the end)."""
        raise NotImplementedError

    def transform(self, state: S, sym: int) -> S:
        """The position under symmetry ``sym``."""
        raise NotImplementedError

    def _random_game(self, state: S, rand: Callable[[], float]) -> tuple[float, float]:
        """``playout`` from a position that is not over, with ``rand`` uniform in [0, 1)."""
        raise NotImplementedError

    def _compiled_playout(self, state: S, key: keys.Key) -> tuple[float, float] | None:
        """``playout`` (counter draws, a game not over) by the game's compiled kernel, or None
        where it has none or numba is missing."""
        return None

    def playout(
        self, state: S, key: keys.Key, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """The result of a uniformly random game from ``state`` to the end.

        The same distribution as choosing uniformly among ``legal`` and calling ``step`` until
        the end, but on local ints with no state objects (the game's ``_random_game``, or its
        compiled kernel where it has one and numba is installed: the same game), for Monte Carlo
        search. Each move is ``legal(s)[int(r * len(legal(s)))]``, ``r`` the next draw.

        Args:
            state: Where to start.
            key: Consumed: the randomness of the whole playout.
            draws: ``"counter"`` (``keys.stream(key)``) or ``"mersenne"``
                (``keys.generator(key).random``, the draws before run format 3).

        Returns:
            The returns at the end, as ``returns`` gives them.
        """
        if state.target == GAME_OVER:
            return self.returns(state)
        if draws == "counter":
            fast = self._compiled_playout(state, key)
            if fast is not None:
                return fast
        return self._random_game(state, keys.draws(key, draws))

    def python_playout(
        self, state: S, key: keys.Key, draws: keys.Draws = "counter"
    ) -> tuple[float, float]:
        """``playout`` on the pure path: the reference a compiled kernel is checked against."""
        if state.target == GAME_OVER:
            return self.returns(state)
        return self._random_game(state, keys.draws(key, draws))

    def transform_move(self, move: int, sym: int) -> int:
        """The move ``sym`` carries ``move`` to."""
        return self.layout.move_maps[sym][move]

    def inverse(self, sym: int) -> int:
        """The inverse element."""
        return self.layout.inverses[sym]

    def canonical(self, state: S) -> tuple[S, int]:
        """The image with the smallest (x, o, target) and the first symmetry that gives it."""
        g = self.layout.canonical_symmetry(state)
        return self.transform(state, g), g

    def parse_move(self, state: S, text: str) -> int:
        """A move as ``format_move`` writes it (``,``, ``:`` and brackets allowed) or its id.

        Raises:
            ParseError: if the text is not a move.
            IllegalMove: if the move is not legal here (the message says where one may play).
        """
        move = self.layout.parse_move(text)
        why = self.layout.why_illegal(state, move)
        if why is not None:
            raise IllegalMove(why)
        return move

    def format_move(self, move: int) -> str:
        """``board cell`` on one big board (``4 0``), ``k position cell`` on two (``1 4 0``)."""
        return self.layout.format_move(move)

    # -- planes and picture (optional hooks: core/game.py) --------------------------------------

    plane_lines = (
        "the observer's marks",
        "the other player's marks",
        "the small boards the observer won (all nine cells)",
        "the small boards the other player won (all nine cells)",
    )

    @property
    def plane_shape(self) -> tuple[int, ...]:
        """Nine rows, nine columns a big board (side by side), four planes."""
        return (9, 9 * self.layout.count, 4)

    def planes(self, state: S, player: int) -> np.ndarray:
        """The cells as on the drawn boards (big boards side by side), four planes."""
        n = self.layout.boards
        won_x, won_o = state.boards & ((1 << n) - 1), (state.boards >> n) & ((1 << n) - 1)
        marks = (state.x, state.o) if player == 0 else (state.o, state.x)
        won = (won_x, won_o) if player == 0 else (won_o, won_x)
        import numpy as np

        cells = np.concatenate(
            [bits(m, 9 * n) for m in marks]
            # a won small board shows as all nine of its cells
            + [np.repeat(bits(w, n), 9) for w in won]
        ).reshape(4, 9 * n)
        return np.ascontiguousarray(cells[:, _grid_index(self.layout.count)].transpose(1, 2, 0))

    def draw(self, state: S, title: str, last: Any, history: Sequence[Any] = ()) -> str:
        """Every small board: cells a person may click carry ``data-move``; the boards open to
        the player to move are tinted, won boards carry their winner's big mark, drawn boards are
        grey. The boards open to the player are read off the legal moves."""
        legal = set(self.legal(state))
        active = {m // 9 for m in legal}
        big_boards = self.layout.count
        parts = []
        for sb in range(9 * big_boards):
            k, pos = divmod(sb, 9)
            bx = _MARGIN + k * (_BIG + _BIG_GAP) + (pos % 3) * (_SMALL + _GAP)
            by = _MARGIN + 18 + (pos // 3) * (_SMALL + _GAP)
            won = 0 if state.won_x >> sb & 1 else 1 if state.won_o >> sb & 1 else None
            closed = bool(state.closed >> sb & 1)
            background = ACTIVE if sb in active else "#e9e9e9" if closed and won is None else "#fff"
            parts.append(
                el("rect", x=bx, y=by, width=_SMALL, height=_SMALL, fill=background,
                   stroke="#e0a800" if sb in active else "#999",
                   stroke_width=2 if sb in active else 1, class_="small-board", data_board=sb)
            )  # fmt: skip
            for c in range(9):
                move = 9 * sb + c
                x, y = bx + _CELL * (c % 3), by + _CELL * (c // 3)
                fill = HIGHLIGHT if move == last else "transparent"
                parts.append(
                    el("rect", x=x, y=y, width=_CELL, height=_CELL, fill=fill, stroke="#ccc",
                       stroke_width=0.5, class_="cell",
                       **move_data(self.format_move(move), move in legal))
                )  # fmt: skip
                if state.x >> move & 1:
                    parts.append(cross(x, y, _CELL, PLAYER_COLOURS[0], 3))
                elif state.o >> move & 1:
                    parts.append(nought(x, y, _CELL, PLAYER_COLOURS[1], 3))
            if won is not None:
                # faint and thin: the small board's own marks stay readable under it
                shape = cross if won == 0 else nought
                parts.append(
                    el("g", shape(bx, by, _SMALL, PLAYER_COLOURS[won], 6), opacity=0.3,
                       pointer_events="none", class_="won")
                )  # fmt: skip
        for k in range(big_boards):
            x = _MARGIN + k * (_BIG + _BIG_GAP)
            if big_boards > 1:
                parts.append(text(x, _MARGIN + 8, f"big board {k}", 13, fill=INK))
            for won in (state.won_x, state.won_o):
                line = line_of(won >> 9 * k & FULL)
                if line is None:
                    continue
                centres = [
                    (x + (p % 3) * (_SMALL + _GAP) + _SMALL / 2,
                     _MARGIN + 18 + (p // 3) * (_SMALL + _GAP) + _SMALL / 2)
                    for p in line
                ]  # fmt: skip
                names = " ".join(self.layout.board_name(9 * k + p) for p in line)
                parts.append(winning_line(centres, 12, names))
        width = 2 * _MARGIN + big_boards * _BIG + (big_boards - 1) * _BIG_GAP
        height = 2 * _MARGIN + 18 + _BIG
        return document(width, height, "".join(parts), title, self.spec.name)


# the drawing's measures
_CELL = 26
_GAP = 10
"""Space between small boards of one big board."""
_MARGIN = 12
_BIG_GAP = 36
"""Space between Xtreme's two big boards."""
_SMALL = 3 * _CELL
_BIG = 3 * _SMALL + 2 * _GAP


@memo(size=4, why="one index table per number of big boards (1 or 2)")
def _grid_index(boards: int) -> np.ndarray:
    """For each square of ``boards`` 3×3 grids of 3×3 boards, side by side (9 rows, 9 columns
    a grid), the cell ``board * 9 + cell`` it shows."""
    import numpy as np

    index = np.zeros((9, 9 * boards), dtype=np.intp)
    for b in range(9 * boards):
        k, pos = divmod(b, 9)
        for c in range(9):
            index[3 * (pos // 3) + c // 3, 9 * k + 3 * (pos % 3) + c % 3] = b * 9 + c
    index.flags.writeable = False
    return index

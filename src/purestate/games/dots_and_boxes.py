"""Dots and boxes: the rules, the board's symmetries, the dbn codec and the board for people.

Sizes count **boxes** (as OpenSpiel, Wilson and Barker & Korf do): ``rows=2, cols=2`` is the
notebook's 3×3 dots, 12 lines, 4 boxes. Moves are OpenSpiel's action ids: the horizontal lines
row by row (``h(r, c) = r·cols + c``), then the vertical lines row by row
(``v(r, c) = (rows + 1)·cols + r·(cols + 1) + c``). The notebook numbers the same lines from 1
(``id + 1``); the ``numbering`` option chooses which numbers the board shows and a plain number
typed by a person means.

Rules (OpenSpiel's, the standard ones): a player draws one undrawn line; a move that completes
one or two boxes scores them and gives the same player exactly one more move; captures are
optional; the game ends when every line is drawn. Returns are the box margin (``margin=True``, the
default, as solvers and Wilson's tables give values) or +1/0/-1 (``margin=False``, OpenSpiel's
default ``utility_margin=false``).

A state is the set of drawn lines (an int, bit i = line i), the boxes each player owns (two int
masks, bit b = box b row by row) and the player to move. Hot paths (``legal``, ``step``) work on
ints with tables built once per board size, so random playouts run faster than OpenSpiel's C++
game driven from Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from attrs import field, frozen

from purestate.core import compiled, history, keys
from purestate.core.batch import python_batch
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.core.hooks import Rows
from purestate.core.memo import DictMemo, memo
from purestate.core.picture import INK, PLAYER_COLOURS, PLAYER_TINTS, document, el, move_data, text
from purestate.core.symmetry import PermutationGroup, permute_bits

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

OWNER_MARKS = ("A", "B")
CHUNK = 12  # lines per legal-move look-up table (4,096 entries each)
CANONICAL_MEMO_LIMIT = 1 << 16  # canonical forms remembered per board size
# The biggest boards whose exact solver (2^lines table) runs in a few seconds even without numba
# (3×3: 1 s; 0.2 s compiled), so ``play`` can open with the perfect player: 3×3 (24 lines); each
# further line doubles the time.
QUICK_SOLVE_LINES = 24


@frozen
class State:
    """A dots-and-boxes position.

    Attributes:
        lines: The drawn lines as a bitboard (bit i = line i, OpenSpiel's action id).
        own0: The boxes player 0 has scored (bit b = box b, row by row).
        own1: The boxes player 1 has scored.
        to_move: The player to move (0 moves first).
    """

    lines: int
    own0: int
    own1: int
    to_move: int

    def __attrs_post_init__(self) -> None:
        # a hand-built state; the rules build theirs with ``_made``, which skips this
        why = _impossible(self)
        if why is not None:
            raise IllegalMove(f"not a dots_and_boxes position: {why}")


def _impossible(state: State) -> str | None:
    """Why ``state`` is a position of no board at all, or None."""
    for name in ("lines", "own0", "own1", "to_move"):
        v = getattr(state, name)
        if type(v) is not int:
            return f"{name} must be an int, not {v!r}"
        if v < 0:
            return f"{name} must not be negative (got {v})"
    if state.to_move > 1:
        return f"to_move must be 0 or 1 (got {state.to_move})"
    if state.own0 & state.own1:
        return "a box is owned by both players"
    return None


_new = object.__new__
_setter = object.__setattr__.__get__  # as attrs' __init__ sets a frozen slotted instance's fields


def _made(lines: int, own0: int, own1: int, to_move: int) -> State:
    """A state the rules made from a valid one: ``State`` without its checks, which would cost
    every step a third more."""
    s: State = _new(State)
    put = _setter(s)
    put("lines", lines)
    put("own0", own0)
    put("own1", own1)
    put("to_move", to_move)
    return s


_EMPTY = State(0, 0, 0, 0)
_NUMBER_PREFIXES = (
    ("id:", 0),
    ("notebook:", 1),
    *((f"{old}:", 1) for old, new in history.NUMBERING_ALIASES.items() if new == "notebook"),
)
"""What a typed line may start with to say its numbering, and the offset to the move id."""


class Board:
    """Everything about one board size that the rules need, computed once per size.

    Attributes:
        rows, cols: Boxes down and across.
        num_h, num_lines, num_boxes: Counts.
        full: The bitboard with every line drawn.
        box_masks: ``box_masks[b]`` is the bitboard of box b's four sides.
        line_boxes: ``line_boxes[i]`` is a tuple of ``(box bit, box mask)`` for the one or two
            boxes line i borders.
        chunks: ``chunks[k][x]`` lists the lines ``12k + j`` for the set bits j of the 12-bit
            ``x``; the legal moves are two or three tuple look-ups, not a loop over the bits.
        group: The board's symmetries as permutations of line ids.
        box_perms: ``box_perms[g]`` is element g acting on boxes.
        canonical_memo: The canonical forms computed so far (``DictMemo``, bounded).
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.num_h = (rows + 1) * cols
        self.num_v = rows * (cols + 1)
        self.num_lines = self.num_h + self.num_v
        self.num_boxes = rows * cols
        self.full = (1 << self.num_lines) - 1
        self.box_masks = tuple(
            (1 << self.h(r, c))
            | (1 << self.h(r + 1, c))
            | (1 << self.v(r, c))
            | (1 << self.v(r, c + 1))
            for r in range(rows)
            for c in range(cols)
        )
        self.line_boxes = tuple(
            tuple((1 << b, m) for b, m in enumerate(self.box_masks) if m >> i & 1)
            for i in range(self.num_lines)
        )
        self.chunks = tuple(
            tuple(
                tuple(k + j for j in range(CHUNK) if x >> j & 1 and k + j < self.num_lines)
                for x in range(1 << min(CHUNK, self.num_lines - k))
            )
            for k in range(0, self.num_lines, CHUNK)
        )
        self.group, self.box_perms = _symmetries(self)
        # the memo policy's fast path (canonical runs once per table look-up of a learner): a
        # position's canonical form, forgotten all at once at the bound (2**lines positions)
        self.canonical_memo: DictMemo[State, tuple[State, int]] = DictMemo(
            CANONICAL_MEMO_LIMIT, why="2**lines positions: too many to keep on a big board"
        )
        # per symmetry and per byte of the line bitboard: the image bits, so that a transform is a
        # handful of look-ups instead of a loop over the bits
        self.line_images = tuple(
            tuple(
                tuple(_image_bits(perm, byte, k) for byte in range(256))
                for k in range(0, self.num_lines, 8)
            )
            for perm in self.group.perms
        )

    def h(self, r: int, c: int) -> int:
        """The id of the horizontal line at dot row r, from dot column c to c + 1."""
        return r * self.cols + c

    def v(self, r: int, c: int) -> int:
        """The id of the vertical line at dot column c, from dot row r to r + 1."""
        return self.num_h + r * (self.cols + 1) + c

    def coordinates(self, line: int) -> tuple[str, int, int]:
        """``("h", r, c)`` or ``("v", r, c)`` for a line id (OpenSpiel's action string order)."""
        if line < self.num_h:
            return ("h", line // self.cols, line % self.cols)
        k = line - self.num_h
        return ("v", k // (self.cols + 1), k % (self.cols + 1))

    def legal_of(self, lines: int) -> tuple[int, ...]:
        """The undrawn lines of a bitboard, in increasing order."""
        free = self.full & ~lines
        out: tuple[int, ...] = ()
        for table in self.chunks:
            out += table[free & 4095]
            free >>= CHUNK
        return out

    def image(self, g: int, lines: int) -> int:
        """The line bitboard under symmetry g."""
        out = 0
        for table in self.line_images[g]:
            out |= table[lines & 255]
            lines >>= 8
        return out

    def box_image(self, g: int, boxes: int) -> int:
        """A box mask under symmetry g."""
        return permute_bits(self.box_perms[g], boxes)


def _image_bits(perm: tuple[int, ...], byte: int, offset: int) -> int:
    out = 0
    for j in range(8):
        if byte >> j & 1 and offset + j < len(perm):
            out |= 1 << perm[offset + j]
    return out


def _symmetries(board: Board) -> tuple[PermutationGroup, tuple[tuple[int, ...], ...]]:
    """The symmetry group as permutations of line ids, and each element acting on boxes.

    The generators act on dots (i, j), 0 <= i <= rows, 0 <= j <= cols: the left-right mirror, the
    up-down mirror and, on square boards, the transpose (D4 then, D2 on rectangles).
    """
    rows, cols = board.rows, board.cols
    ends: dict[frozenset[tuple[int, int]], int] = {}
    for r in range(rows + 1):
        for c in range(cols):
            ends[frozenset({(r, c), (r, c + 1)})] = board.h(r, c)
    for r in range(rows):
        for c in range(cols + 1):
            ends[frozenset({(r, c), (r + 1, c)})] = board.v(r, c)
    by_id = {i: e for e, i in ends.items()}

    def line_perm(dot_map: Any) -> tuple[int, ...]:
        return tuple(ends[frozenset(dot_map(d) for d in by_id[i])] for i in range(board.num_lines))

    gens = [
        line_perm(lambda d: (d[0], cols - d[1])),
        line_perm(lambda d: (rows - d[0], d[1])),
    ]
    if rows == cols:
        gens.append(line_perm(lambda d: (d[1], d[0])))
    group = PermutationGroup.generated(board.num_lines, gens)
    box_of_mask = {m: b for b, m in enumerate(board.box_masks)}
    box_perms = []
    for perm in group.perms:
        images = []
        for m in board.box_masks:
            img = 0
            for i in range(board.num_lines):
                if m >> i & 1:
                    img |= 1 << perm[i]
            images.append(box_of_mask[img])
        box_perms.append(tuple(images))
    return group, tuple(box_perms)


# any rows and cols up to 64 boxes, and a board's tables are large: keep the sizes in use
@memo(size=32, why="one entry per board size in use; each holds large tables")
def board(rows: int, cols: int) -> Board:
    """The precomputed tables of a rows × cols board (one object per size)."""
    return Board(rows, cols)


def _image(b: Board, state: State, sym: int) -> State:
    """``state`` reflected or rotated by ``sym`` on board ``b``."""
    if sym == 0:
        return state
    return _made(
        b.image(sym, state.lines),
        b.box_image(sym, state.own0),
        b.box_image(sym, state.own1),
        state.to_move,
    )


def _canonical(b: Board, state: State) -> tuple[State, int]:
    best = state
    best_key = (state.lines, state.own0, state.own1)
    best_g = 0
    for g in range(1, len(b.group.perms)):
        lines = b.image(g, state.lines)
        if lines > best_key[0]:
            continue
        img = _image(b, state, g)
        k = (img.lines, img.own0, img.own1)
        if k < best_key:
            best, best_key, best_g = img, k, g
    return best, best_g


_KERNEL_LINES = 63  # the compiled kernel's boards: lines in one int64


@memo(size=32, why="one entry per board size in use, like ``board``")
def kernel_sides(rows: int, cols: int) -> np.ndarray:
    """The compiled kernel's table of a board size (read-only): row ``i`` is (box bit, box mask,
    box bit, box mask) of the one or two boxes line ``i`` borders, zeros for a missing second."""
    import numpy as np

    table = np.zeros((board(rows, cols).num_lines, 4), np.int64)
    for i, boxes in enumerate(board(rows, cols).line_boxes):
        for j, (box, mask) in enumerate(boxes):
            table[i, 2 * j], table[i, 2 * j + 1] = box, mask
    table.flags.writeable = False
    return table


def row_of(state: State, rows: int, cols: int, margin: bool) -> npt.NDArray[np.int64]:
    """The state's row for the row kernels: (lines, own0, own1, to_move, rows, cols, margin)."""
    import numpy as np

    fields = (state.lines, state.own0, state.own1, state.to_move, rows, cols, int(margin))
    return np.array(fields, np.int64)


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of`` undone)."""
    return _made(int(row[0]), int(row[1]), int(row[2]), int(row[3]))


@memo(size=32, why="one entry per board size and reward in use, like ``board``")
def _rows(rows: int, cols: int, margin: bool) -> Rows | None:
    kernel = compiled.kernels("dots_and_boxes")
    if kernel is None:
        return None
    return Rows(
        width=kernel.WIDTH, max_moves=board(rows, cols).num_lines,
        row_of=partial(row_of, rows=rows, cols=cols, margin=margin), state_of=state_of,
        legal=kernel.legal, step=kernel.step, player=kernel.player, reward0=kernel.reward0,
        playout0=kernel.playout0, ending=kernel.ending, returns=kernel.returns,
    )  # fmt: skip


def _parse_lines(text: str, n: int) -> int | None:
    if len(text) != n or any(ch not in "01" for ch in text):
        return None
    return sum(1 << i for i, ch in enumerate(text) if ch == "1")


@frozen
class DotsAndBoxes:
    """Dots and boxes on a rows × cols board of boxes.

    Attributes:
        rows: Boxes down (1 or more).
        cols: Boxes across (1 or more).
        margin: Returns are the box margin (True, the default) or +1/0/-1 (False).
        numbering: ``"id"`` (OpenSpiel's action ids from 0, the default) or ``"notebook"`` (the
            dots-and-boxes notebook's line numbers, id + 1; ``"seed"`` is its older name): what
            the board shows and a plain typed number means. It changes only the text for people,
            so games that differ only in it are equal.
    """

    seat_marks: ClassVar[tuple[str, str]] = ("A, blue", "B, red")
    """What each seat plays with (``MarkedSeats``): the drawing's and the terminal's marks."""

    rows: int = 2
    cols: int = 2
    margin: bool = True
    numbering: Literal["id", "notebook", "seed"] = field(
        default="id", eq=False, converter=history.numbering
    )
    _board: Board = field(init=False, eq=False, repr=False)
    # the board's hot tables, copied onto the game so the rules reach them in one look-up
    _full: int = field(init=False, eq=False, repr=False)
    _num_lines: int = field(init=False, eq=False, repr=False)
    _line_boxes: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, eq=False, repr=False)
    _chunk0: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    _chunk1: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    _chunks: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, eq=False, repr=False)
    _canonicals: dict[State, tuple[State, int]] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        for name, v in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a whole number of boxes >= 1; got {v!r}")
        if self.rows * self.cols > 64:
            raise ValueError("boards of more than 64 boxes are not supported")
        if self.numbering not in ("id", "notebook"):
            raise ValueError(f"numbering must be 'id' or 'notebook'; got {self.numbering!r}")
        b = board(self.rows, self.cols)
        object.__setattr__(self, "_board", b)
        object.__setattr__(self, "_full", b.full)
        object.__setattr__(self, "_num_lines", b.num_lines)
        object.__setattr__(self, "_line_boxes", b.line_boxes)
        object.__setattr__(self, "_chunks", b.chunks)
        object.__setattr__(self, "_canonicals", b.canonical_memo.entries)
        object.__setattr__(self, "_chunk0", b.chunks[0])
        object.__setattr__(self, "_chunk1", b.chunks[1] if len(b.chunks) > 1 else ())

    # -- facts -----------------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        """Name and bounds; ``outcomes`` is None when returns are margins.

        ``positions``: a position is its lines, the owner of each completed box and the player to
        move, so there are at most ``2 · Σ_L 2^|boxes completed by L|`` of them. Counting the
        line sets ``L`` that complete each box set ``B`` instead, that sum is
        ``Σ_B 2^(lines - sides(B))``, and ``sides(B) >= 2|B|`` (a side borders at most two
        boxes): at most ``2^(lines + 1) · (5/4)^boxes`` positions (20,000 on 2×2, which has 5,559).
        """
        n, m = self._board.num_lines, self._board.num_boxes
        return GameSpec(
            "dots_and_boxes",
            2,
            n,
            outcomes=None if self.margin else (-1.0, 0.0, 1.0),
            positions=2 ** (n + 1 - 2 * m) * 5**m,  # lines - 2·boxes = rows + cols > 0
            default_opponent="perfect" if n <= QUICK_SOLVE_LINES else "mcts:simulations=5000",
            examples=("dots_and_boxes:rows=2,cols=2", "dots_and_boxes:rows=3,cols=3"),
            # the smallest board, the default, a non-square one, the win/loss reward
            variants=(
                "dots_and_boxes:rows=1,cols=1",
                "dots_and_boxes:rows=2,cols=2",
                "dots_and_boxes:rows=2,cols=3",
                "dots_and_boxes:rows=3,cols=3,margin=false",
            ),
            solver="purestate.solve.dots_and_boxes:solve",
        )

    @property
    def board(self) -> Board:
        """The precomputed tables of this board size (line and box geometry)."""
        return self._board

    @property
    def num_lines(self) -> int:
        """How many lines (= moves in a game = OpenSpiel's number of distinct actions)."""
        return self._board.num_lines

    # -- rules -----------------------------------------------------------------------------

    def initial(self) -> State:
        """The empty board, player 0 to move."""
        return _EMPTY

    def to_move(self, state: State) -> int:
        """The player to move."""
        return state.to_move

    def legal(self, state: State) -> tuple[int, ...]:
        """The undrawn lines in increasing id order; () once every line is drawn."""
        free = self._full & ~state.lines
        if free < 4096:  # every undrawn line in the first chunk (boards up to 12 lines, endgames)
            return self._chunk0[free]
        if free < 1 << 24:
            return self._chunk0[free & 4095] + self._chunk1[free >> 12]
        out: tuple[int, ...] = ()
        for table in self._chunks:
            out += table[free & 4095]
            free >>= CHUNK
        return out

    def is_over(self, state: State) -> bool:
        """Whether every line is drawn."""
        return state.lines == self._full

    def score(self, state: State) -> tuple[float, float]:
        """The boxes each player has scored so far (learners use it for per-box rewards)."""
        a, b = state.own0.bit_count(), state.own1.bit_count()
        return (float(a - b), float(b - a))

    def returns(self, state: State) -> tuple[float, float]:
        """The box margin (or +1/0/-1 with ``margin=False``) once the board is full; else zeros."""
        if state.lines != self._full:
            return (0.0, 0.0)
        d = state.own0.bit_count() - state.own1.bit_count()
        if not self.margin:
            d = (d > 0) - (d < 0)
        return (float(d), float(-d))

    def step(self, state: State, move: int) -> State:
        """Draw line ``move``; the mover keeps the turn iff it completes a box.

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)``: a plain int (not a bool)
                naming an undrawn line.
        """
        # a bool is an int to Python: without the type test True would draw line 1
        if type(move) is not int or not 0 <= move < self._num_lines:
            raise IllegalMove(
                f"{move!r} is not a move of dots_and_boxes "
                f"(moves are line ids, ints 0-{self._num_lines - 1})"
            )
        bit = 1 << move
        lines = state.lines
        if lines & bit:
            if lines == self._full:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"line {self.format_move(move)} is already drawn")
        lines |= bit
        got = 0
        for box, mask in self._line_boxes[move]:
            if lines & mask == mask:
                got |= box
        if got:
            if state.to_move:
                return _made(lines, state.own0, state.own1 | got, 1)
            return _made(lines, state.own0 | got, state.own1, 0)
        return _made(lines, state.own0, state.own1, 1 - state.to_move)

    def completes(self, state: State, move: int) -> int:
        """How many boxes drawing ``move`` completes (0, 1 or 2)."""
        lines = state.lines | 1 << move
        return sum(1 for _, mask in self._board.line_boxes[move] if lines & mask == mask)

    def unscored(self, state: State) -> State:
        """The same drawing with no boxes scored and player 0 to move.

        The mover's future net score depends only on the lines drawn, not on who is to move or
        how the boxes drawn so far were shared; a learner with per-box rewards keys its table by
        this (4,096 keys on 2×2 instead of every history of scores).
        """
        return _made(state.lines, 0, 0, 0)

    def check(self, state: State) -> State:
        """``state``, if it is a position of this board.

        ``State(...)`` refuses what no board has (negative or non-int fields, a box owned twice,
        a player other than 0 or 1); this adds the board: every line and box on it, every owned
        box complete. The hot rules (``legal``, ``step``) take that as given; ``render`` and
        ``encode`` check.

        Raises:
            IllegalMove: saying what is impossible, in one line.
        """
        b = self._board
        if not isinstance(state, State):
            why: str | None = f"a {type(state).__qualname__} is not a dots_and_boxes State"
        else:
            why = _impossible(state)
        if why is None:
            owned = state.own0 | state.own1
            complete = sum(1 << i for i, m in enumerate(b.box_masks) if state.lines & m == m)
            if state.lines > b.full:
                why = f"lines beyond the {b.num_lines} of a {self.rows}x{self.cols} board"
            elif owned >> b.num_boxes:
                why = f"boxes beyond the {b.num_boxes} of a {self.rows}x{self.cols} board"
            elif owned & ~complete:
                box = (owned & ~complete).bit_length() - 1
                why = f"box {box} is owned but not complete"
        if why is not None:
            raise IllegalMove(f"not a dots_and_boxes position: {why}")
        return state

    # -- random playouts: the pure kernel (the reference) and the compiled one --------------

    def random_playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """The returns at the end of the uniformly random game from ``state`` that ``key``
        draws: each ply ``legal(s)[int(r * len(legal(s)))]`` with ``r`` the next draw of
        ``keys.stream(key)``. Compiled where numba is and the board has at most 63 lines, else
        ``python_playout``, with the same result.

        (Not the ``playout`` hook: with one, ``mcts:playout=auto`` would switch dots and boxes
        from decisive to random playouts, a change of play, not of speed.)
        """
        if state.lines != self._full and self._num_lines <= _KERNEL_LINES:
            kernel = compiled.kernels("dots_and_boxes")
            if kernel is not None:
                d = kernel.playout(
                    state.lines, state.own0, state.own1, state.to_move,
                    kernel_sides(self.rows, self.cols), self._num_lines, compiled.as_int64(key),
                )  # fmt: skip
                return self._margin_returns(d)
        return self.python_playout(state, key)

    def python_playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """``random_playout`` on local Python ints: the reference the compiled kernel is
        checked against, and the path without numba."""
        lines, full, line_boxes = state.lines, self._full, self._line_boxes
        own = [state.own0, state.own1]
        p = state.to_move
        rand = keys.stream(key)
        legal_of = self._board.legal_of
        while lines != full:
            moves = legal_of(lines)
            m = moves[int(rand() * len(moves))]
            lines |= 1 << m
            got = 0
            for box, mask in line_boxes[m]:
                if lines & mask == mask:
                    got |= box
            if got:
                own[p] |= got
            else:
                p ^= 1
        return self._margin_returns(own[0].bit_count() - own[1].bit_count())

    def _margin_returns(self, d: int) -> tuple[float, float]:
        if not self.margin:
            d = (d > 0) - (d < 0)
        return (float(d), float(-d))

    def playouts(
        self, states: Sequence[State], ks: npt.NDArray[np.uint64]
    ) -> npt.NDArray[np.float64]:
        """The returns of ``random_playout(states[i], ks[i])`` for every i, as an (n, 2) array
        (``BatchPlayouts``; one state stands for all). Compiled, in one call, where numba is
        and the board has at most 63 lines."""
        import numpy as np

        n = len(ks)
        kernel = compiled.kernels("dots_and_boxes")
        if kernel is None or self._num_lines > _KERNEL_LINES:
            return python_batch(self, states, ks)
        fields = np.array([(s.lines, s.own0, s.own1, s.to_move) for s in states], np.int64)
        if len(states) == 1:
            fields = np.repeat(fields, n, axis=0)
        signed = np.ascontiguousarray(ks, np.uint64).view(np.int64)
        d = kernel.playouts(fields, signed, kernel_sides(self.rows, self.cols), self._num_lines)
        if not self.margin:
            d = np.sign(d)
        return np.stack([d, -d], axis=1).astype(np.float64)

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows with ``kernels/dots_and_boxes.py``'s compiled rules
        (``RowKernels``); None without numba or on a board of more than 63 lines. The mover of
        a row is the rules' (who closes a box moves again); its rewards are ``returns``' (the
        margin, or +1/0/-1 with ``margin=False``)."""
        if self._num_lines > _KERNEL_LINES:
            return None
        return _rows(self.rows, self.cols, self.margin)

    # -- symmetries ------------------------------------------------------------------------

    @property
    def symmetries(self) -> tuple[int, ...]:
        """D4 (8 elements) on square boards, D2 (4) on rectangles; 0 is the identity."""
        return self._board.group.indices

    def transform(self, state: State, sym: int) -> State:
        """The position reflected or rotated by ``sym`` (box owners move with their boxes)."""
        return _image(self._board, state, sym)

    def transform_move(self, move: int, sym: int) -> int:
        """The line ``move`` is carried to by ``sym``."""
        return self._board.group.perms[sym][move]

    def inverse(self, sym: int) -> int:
        """The inverse element."""
        return self._board.group.inverses[sym]

    def canonical(self, state: State) -> tuple[State, int]:
        """The image with the smallest (lines, own0, own1) and the first symmetry giving it."""
        found = self._canonicals.get(state)
        if found is None:
            found = self._board.canonical_memo.put(state, _canonical(self._board, state))
        return found

    # -- text ------------------------------------------------------------------------------

    def dbn(self, state: State) -> str:
        """OpenSpiel's ``dbn_string``: one character per line in id order, ``1`` = drawn."""
        return "".join("1" if state.lines >> i & 1 else "0" for i in range(self.num_lines))

    def encode(self, state: State) -> str:
        """``DBN/P/OWNERS``: the dbn string, the player to move, one character per box.

        Box characters are ``0`` or ``1`` (the player who scored it) or ``-`` (not scored), row
        by row. Example on 2×2 after lines 0, 2, 6, 7: ``101000110000/1/1---``.
        """
        self.check(state)
        owners = "".join(
            "0" if state.own0 >> b & 1 else "1" if state.own1 >> b & 1 else "-"
            for b in range(self._board.num_boxes)
        )
        return f"{self.dbn(state)}/{state.to_move}/{owners}"

    def decode(self, text: str) -> State:
        """The state written by ``encode``; a bare dbn string is an unscored position.

        ``DBN`` alone (as OpenSpiel's ``dbn_string`` prints it) means player 0 to move and no box
        scored; ``DBN/P`` gives the player to move. Owned boxes must be complete; complete boxes
        may be unscored (a position given only by its lines).
        """
        b = self._board
        parts = text.strip().split("/")
        if len(parts) > 3:
            raise ParseError(f"{text!r} is not a position: expected DBN[/P[/OWNERS]]")
        lines = _parse_lines(parts[0].strip(), b.num_lines)
        if lines is None:
            raise ParseError(
                f"{text!r} is not a position: the dbn part needs {b.num_lines} characters "
                f"of 0 and 1 (one per line of a {self.rows}x{self.cols} board)"
            )
        to_move = 0
        if len(parts) >= 2:
            p = parts[1].strip()
            if p not in ("0", "1"):
                raise ParseError(f"{text!r}: the player to move must be 0 or 1, not {p!r}")
            to_move = int(p)
        own0 = own1 = 0
        if len(parts) == 3:
            owners = parts[2].strip()
            if len(owners) != b.num_boxes or any(ch not in "01-" for ch in owners):
                raise ParseError(
                    f"{text!r}: the owners part needs {b.num_boxes} characters of 0, 1 or -"
                )
            for i, ch in enumerate(owners):
                if ch == "-":
                    continue
                if lines & b.box_masks[i] != b.box_masks[i]:
                    raise ParseError(f"{text!r}: box {i} has an owner but is not complete")
                if ch == "0":
                    own0 |= 1 << i
                else:
                    own1 |= 1 << i
        return State(lines, own0, own1, to_move)

    def line_number(self, move: int) -> int:
        """The number a person sees for line ``move`` (id, or id + 1 with the notebook's)."""
        return move + 1 if self.numbering == "notebook" else move

    def render(self, state: State) -> str:
        """Dots, drawn lines, box owners (A = player 0, B = player 1), the numbers of the
        undrawn lines and the score."""
        b = self._board
        self.check(state)
        cell = max(5, len(str(self.line_number(b.num_lines - 1))) + 3)
        span = cell + 1
        out = []
        for r in range(b.rows + 1):
            dots = "•"
            for c in range(b.cols):
                i = b.h(r, c)
                seg = "─" * cell if state.lines >> i & 1 else str(self.line_number(i)).center(cell)
                dots += seg + "•"
            out.append(dots)
            if r == b.rows:
                break
            row = [" "] * (b.cols * span + 4)
            for c in range(b.cols + 1):
                i = b.v(r, c)
                text = "│" if state.lines >> i & 1 else str(self.line_number(i))
                row[c * span : c * span + len(text)] = list(text)
                if c < b.cols:
                    box = r * b.cols + c
                    mark = (
                        OWNER_MARKS[0]
                        if state.own0 >> box & 1
                        else OWNER_MARKS[1]
                        if state.own1 >> box & 1
                        else " "
                    )
                    row[c * span + span // 2] = mark
            out.append("".join(row).rstrip())
        a, bb = state.own0.bit_count(), state.own1.bit_count()
        status = f"A (player 0) {a} - {bb} B (player 1)"
        if self.is_over(state):
            status += ", game over"
        else:
            status += f", {OWNER_MARKS[state.to_move]} to move"
        out.append(status)
        return "\n".join(out)

    def parse_move(self, state: State, text: str) -> int:
        """A line typed by a person.

        A plain number is a line number as the board shows it (OpenSpiel id, or the notebook's
        1-based number with ``numbering=notebook``). ``id:N`` and ``notebook:N`` (or ``seed:N``)
        say which explicitly, and ``h R C`` / ``v R C`` (also ``h,0,1`` or OpenSpiel's
        ``(h,0,1)``) name a line by the dot it starts from.
        """
        t = text.strip().lower()
        b = self._board
        move: int | None = None
        for prefix, offset in _NUMBER_PREFIXES:
            if t.startswith(prefix):
                num = t[len(prefix) :].strip()
                if not num.isdigit():
                    raise ParseError(f"{text!r}: expected a number after {prefix!r}")
                move = int(num) - offset
        if move is None and t[:1] in ("h", "v", "("):
            parts = t.strip("()").replace(",", " ").split()
            if len(parts) == 3 and parts[0] in ("h", "v") and all(p.isdigit() for p in parts[1:]):
                r, c = int(parts[1]), int(parts[2])
                if parts[0] == "h" and r <= b.rows and c < b.cols:
                    move = b.h(r, c)
                elif parts[0] == "v" and r < b.rows and c <= b.cols:
                    move = b.v(r, c)
                else:
                    raise ParseError(f"{text!r}: no such line on a {self.rows}x{self.cols} board")
            else:
                raise ParseError(f"{text!r} is not a line: type e.g. 'h 0 1' or 'v 1 2'")
        if move is None:
            if not t.isdigit():
                raise ParseError(
                    f"{text!r} is not a line: type a line number as the board shows it"
                )
            move = int(t) - (1 if self.numbering == "notebook" else 0)
        if not 0 <= move < b.num_lines:
            lo, hi = self.line_number(0), self.line_number(b.num_lines - 1)
            raise ParseError(f"{text!r} is not a line (lines are numbered {lo}-{hi})")
        if state.lines >> move & 1:
            if self.is_over(state):
                raise IllegalMove("the game is over")
            raise IllegalMove(f"line {self.format_move(move)} is already drawn")
        return move

    def format_move(self, move: int) -> str:
        """The line's number as the board shows it."""
        return str(self.line_number(move))

    # -- planes and picture (optional hooks: core/game.py) --------------------------------------

    plane_lines = (
        "the horizontal line right of each dot",
        "the vertical line below each dot",
        "the boxes the observer owns (at their top left dot)",
        "the boxes the other player owns",
    )

    @property
    def plane_shape(self) -> tuple[int, ...]:
        """A row and a column per dot, four planes."""
        return (self.rows + 1, self.cols + 1, 4)

    def planes(self, state: State, player: int) -> np.ndarray:
        """The dots' grid: each dot's line to the right and below, the boxes each player owns."""
        import numpy as np

        rows, cols = self.rows, self.cols
        num_h = (rows + 1) * cols
        out = np.zeros((rows + 1, cols + 1, 4), dtype=np.int8)
        for r in range(rows + 1):
            for c in range(cols):
                out[r, c, 0] = (state.lines >> (r * cols + c)) & 1
        for r in range(rows):
            for c in range(cols + 1):
                out[r, c, 1] = (state.lines >> (num_h + r * (cols + 1) + c)) & 1
        mine, theirs = (state.own0, state.own1) if player == 0 else (state.own1, state.own0)
        for b in range(rows * cols):
            out[b // cols, b % cols, 2] = (mine >> b) & 1
            out[b // cols, b % cols, 3] = (theirs >> b) & 1
        return out

    def draw(self, state: State, title: str, last: Any, history: Sequence[Any] = ()) -> str:
        """Dots, drawn and undrawn lines and boxes shaded by their owner: every undrawn line
        carries ``data-move``; the score is written below."""
        b = self.board
        parts = []
        for box in range(b.num_boxes):
            r, c = divmod(box, b.cols)
            owner = 0 if state.own0 >> box & 1 else 1 if state.own1 >> box & 1 else None
            if owner is None:
                continue
            x, y = _MARGIN + _GAP * c, _MARGIN + _GAP * r
            parts.append(el("rect", x=x, y=y, width=_GAP, height=_GAP, fill=PLAYER_TINTS[owner]))
            parts.append(
                text(x + _GAP / 2, y + _GAP / 2 + 8, OWNER_MARKS[owner], 24,
                     text_anchor="middle", fill=PLAYER_COLOURS[owner], font_weight="bold")
            )  # fmt: skip
        for line in range(b.num_lines):
            kind, r, c = b.coordinates(line)
            x1, y1 = _MARGIN + _GAP * c, _MARGIN + _GAP * r
            x2, y2 = (x1 + _GAP, y1) if kind == "h" else (x1, y1 + _GAP)
            ends: dict[str, object] = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
            drawn = bool(state.lines >> line & 1)
            if drawn:
                colour = "#e08a00" if line == last else INK
                parts.append(
                    el("line", **ends, stroke=colour, stroke_width=6, stroke_linecap="round")
                )
            else:
                parts.append(
                    el("line", **ends, stroke="#bbb", stroke_width=2, stroke_dasharray="4 5")
                )
            # a transparent strip over the line takes the click: wider than the line, easy to hit
            w, h = (_GAP - 12, _HIT) if kind == "h" else (_HIT, _GAP - 12)
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            parts.append(
                el("rect", x=cx - w / 2, y=cy - h / 2, width=w, height=h, fill="transparent",
                   class_="edge", **move_data(self.format_move(line), not drawn))
            )  # fmt: skip
        for r in range(b.rows + 1):
            for c in range(b.cols + 1):
                parts.append(
                    el("circle", cx=_MARGIN + _GAP * c, cy=_MARGIN + _GAP * r, r=5, fill=INK)
                )
        width = 2 * _MARGIN + _GAP * b.cols
        height = 2 * _MARGIN + _GAP * b.rows
        a, bb = state.own0.bit_count(), state.own1.bit_count()
        score = f"A {a} – {bb} B"
        if not self.is_over(state):
            score += f" · {OWNER_MARKS[state.to_move]} to move"
        parts.append(text(_MARGIN, height + 4, score, 14, fill=INK))
        return document(max(width, 180), height + 14, "".join(parts), title, self.spec.name)


# the drawing's measures
_GAP = 64
"""The distance between neighbouring dots."""
_MARGIN = 20
_HIT = 16
"""The width of an undrawn line's clickable strip: wider than the line, easy to hit."""

"""Tron (light cycles): the rules, the map's symmetries, the codec and the board for people.

Two rule sets:

* ``rules="alternating"`` (default, CS1410 "Tron-141"): the players move in turn. A move leaves
  the mover's old cell as a barrier; moving into a wall, a barrier or either head crashes the
  mover, who loses. There are no draws.
* ``rules="simultaneous"`` (Google AI Challenge 2010), played as two plies per round: the round's
  first mover commits a move, which is stored in ``State.pending`` and changes nothing else; the
  second mover's move resolves both. Both old cells become walls, both heads move; two heads on
  the same square, or both crashed (a swap included), is a draw; otherwise whoever crashed loses.
  The second mover must not see the pending move: ``observation(state, player)`` is the state with
  the pending move removed, which the episode driver hands to the agent (so search from there
  plans as if it committed first: a cautious, 'paranoid' bound).

Moves are absolute directions with fixed ids (OpenSpiel has no Tron): ``U=0`` (row - 1),
``D=1`` (row + 1), ``L=2`` (col - 1), ``R=3`` (col + 1), CS1410's order. All four are always legal
while the game runs, as in CS1410: a move into an obstacle is a legal, losing move.

Map choice: the ``map`` option is a shipped map's name (resolved by ``shipped.shipped_map``,
whose drawings are values in the package, so no file is read) or a ``Map`` value (what the shell
passes for a user's map file, read by ``purestate.io.maps.load_map``). Either way the game holds a
frozen, hashable ``Map``.

Start cells: ``start="map"`` uses the map's ``1`` and ``2``. ``start="mirror"`` is the CS1410 2020
rule: player 0 starts on a cell drawn uniformly, never the centre, and player 1 on its point
mirror. Since ``initial()`` takes no key, the draw is a pure function of the ``start_seed``
option; the shell derives one seed per game from its run key. Unlike CS1410 the draw only uses
cells connected to the map's own start cells whose mirror is free (so nobody starts inside a
sealed pocket such as ``center_block``'s middle).

Symmetries: the rotations and reflections of the grid that map the map's walls and barriers onto
themselves (all 8 on ``empty_room``, 4 on ``diagonal_blocks``). They permute cells and directions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from attrs import field, frozen

from purestate.core import compiled, keys
from purestate.core.game import GameSpec, IllegalMove, ParseError
from purestate.core.hooks import Rows
from purestate.core.keys import choice, key
from purestate.core.memo import memo
from purestate.core.planes import bits
from purestate.core.symmetry import canonical_by, grid_group, permute_bits
from purestate.games.tron.grid import flood
from purestate.games.tron.maps import Map
from purestate.games.tron.shipped import shipped_map

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

U, D, L, R = 0, 1, 2, 3
MOVES: tuple[int, ...] = (U, D, L, R)
MOVE_NAMES = "UDLR"
RUNNING, DRAW = -1, 2
_OUTCOME_RETURNS = ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))  # by outcome: 0, 1 won, 2 a draw
# The Tron project's bot (``ta2``): at most about 0.5 s a move on the shipped maps (docs/cli.md)
DEFAULT_OPPONENT = "alphabeta:depth=4,eval=voronoi"
_NO_MOVE = -1

_MOVE_WORDS: dict[str, int] = {
    "U": U, "UP": U, "N": U, "NORTH": U, "\x1b[A": U, "↑": U,
    "D": D, "DOWN": D, "S": D, "SOUTH": D, "\x1b[B": D, "↓": D,
    "L": L, "LEFT": L, "W": L, "WEST": L, "\x1b[D": L, "←": L,
    "R": R, "RIGHT": R, "E": R, "EAST": R, "\x1b[C": R, "→": R,
}  # fmt: skip


@frozen(cache_hash=True)
class State:
    """A Tron position.

    Attributes:
        blocked: Bitboard of every occupied cell: walls, barriers, trails and both heads.
        head0: Player 0's head cell (``-1`` once crashed).
        head1: Player 1's head cell (``-1`` once crashed).
        to_move: The player to move (meaningless once the game is over).
        pending: Simultaneous rules only: the move the other player committed this round, or
            ``-1``. Hidden from the player to move (see ``Tron.observation``).
        outcome: ``-1`` while running, ``0`` or ``1`` for the winner, ``2`` for a draw.
    """

    blocked: int = field(repr=hex)  # hex: a big map's board has too many decimal digits
    head0: int
    head1: int
    to_move: int
    pending: int = _NO_MOVE
    outcome: int = RUNNING

    def __attrs_post_init__(self) -> None:
        # a hand-built state; the rules build theirs with ``_made``, which skips this
        why = _impossible(self)
        if why is not None:
            raise IllegalMove(f"not a tron position: {why}")


def _impossible(state: State) -> str | None:
    """Why ``state`` is a position of no map at all, or None."""
    for name in ("blocked", "head0", "head1", "to_move", "pending", "outcome"):
        v = getattr(state, name)
        if type(v) is not int:
            return f"{name} must be an int, not {v!r}"
    h0, h1 = state.head0, state.head1
    if state.blocked < 0 or min(h0, h1) < -1:
        return "a negative cell"
    if state.to_move not in (0, 1):
        return f"to_move must be 0 or 1 (got {state.to_move})"
    if not _NO_MOVE <= state.pending <= R:
        return f"pending must be -1 or a move 0-3 (got {state.pending})"
    if state.outcome not in (RUNNING, 0, 1, DRAW):
        return f"outcome must be -1 (running), 0, 1 or 2 (a draw), not {state.outcome}"
    if h0 == h1 >= 0:
        return "both heads on one cell"
    if any(h >= 0 and not state.blocked >> h & 1 for h in (h0, h1)):
        return "a head on a cell that is not blocked"
    # the loser's head is gone (-1), the winner's stays; a draw removes both
    crashed = {RUNNING: (False, False), 0: (False, True), 1: (True, False), DRAW: (True, True)}
    if (h0 < 0, h1 < 0) != crashed[state.outcome]:
        return f"the heads ({h0}, {h1}) do not fit the outcome {state.outcome}"
    if state.pending != _NO_MOVE and state.outcome != RUNNING:
        return "a pending move in a finished game"
    return None


_new = object.__new__
_setter = object.__setattr__.__get__  # as attrs' __init__ sets a frozen slotted instance's fields


def _made(
    blocked: int, head0: int, head1: int, to_move: int, pending: int = _NO_MOVE,
    outcome: int = RUNNING,
) -> State:  # fmt: skip
    """A state the rules made from a valid one: ``State`` without its checks, which would cost
    every step."""
    s: State = _new(State)
    put = _setter(s)
    put("blocked", blocked)
    put("head0", head0)
    put("head1", head1)
    put("to_move", to_move)
    put("pending", pending)
    put("outcome", outcome)
    put("_attrs_cached_hash", None)  # what attrs' own __init__ sets (cache_hash=True)
    return s


def trails(states: Iterable[State]) -> tuple[int, int]:
    """Each player's trail as a bitboard: the cells its head stood on in ``states``.

    A position records which cells are occupied, not by whom; a picture that colours each trail
    takes it from the game's states so far (``states[0]`` the start). A cell goes to whoever
    stood on it first.
    """
    t0 = t1 = 0
    for s in states:
        if s.head0 >= 0 and not t1 >> s.head0 & 1:
            t0 |= 1 << s.head0
        if s.head1 >= 0 and not t0 >> s.head1 & 1:
            t1 |= 1 << s.head1
    return t0, t1


class Topology:
    """Per-map tables computed once: sizes, masks, neighbour offsets, symmetries.

    Not a value type: it is derived from a ``Map`` and cached per map.
    """

    __slots__ = (
        "cols",
        "deltas",
        "dir_maps",
        "even",
        "free_cells",
        "group_index",
        "inverse",
        "map",
        "mirror_starts",
        "neighbours",
        "perms",
        "size",
    )

    def __init__(self, m: Map) -> None:
        self.map = m
        self.cols = m.cols
        self.size = m.size
        self.free_cells = m.free.bit_count()
        self.deltas = (-m.cols, m.cols, -1, 1)
        self.even = sum(
            1 << m.cell(r, c) for r in range(m.rows) for c in range(m.cols) if (r + c) % 2 == 0
        )
        # neighbours[c] = the four neighbours of c in move order (only used for interior cells)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(c + d for d in self.deltas) for c in range(m.size)
        )
        group = grid_group(m.rows, m.cols)
        keep = [
            g
            for g in group.indices
            if group.apply_bits(g, m.walls) == m.walls
            and group.apply_bits(g, m.barriers) == m.barriers
        ]
        self.perms: tuple[tuple[int, ...], ...] = tuple(group.perms[g] for g in keep)
        self.group_index = {g: i for i, g in enumerate(keep)}
        self.inverse: tuple[int, ...] = tuple(self.group_index[group.inverses[g]] for g in keep)
        # direction d is carried to dir_maps[sym][d]: read it off the image of a cell and its
        # neighbour (grid symmetries are affine, so one cell tells all)
        centre = m.cell(1, 1)
        step_of = {d: i for i, d in enumerate(self.deltas)}
        self.dir_maps: tuple[tuple[int, ...], ...] = tuple(
            tuple(step_of[p[centre + d] - p[centre]] for d in self.deltas) for p in self.perms
        )
        self.mirror_starts = _mirror_candidates(m)


def _mirror_candidates(m: Map) -> tuple[int, ...]:
    """Cells player 0 may start on under ``start="mirror"``, in increasing order."""
    free = m.free
    start = 1 << m.starts[0]
    component = flood(free, start, m.cols) | start  # the start cell is in its own component
    centre = m.cell(m.rows // 2, m.cols // 2)
    out = []
    for c in range(m.size):
        if not component >> c & 1 or c == centre:
            continue
        twin = m.mirror(c)
        if twin != c and component >> twin & 1:
            out.append(c)
    return tuple(out)


# any number of users' maps, each with grid-sized tables: keep the maps in use
@memo(size=64, why="users' maps are unbounded and each holds grid-sized tables")
def topology(m: Map) -> Topology:
    """The cached tables of map ``m``."""
    return Topology(m)


_ROW_HEAD = 10
"""Entries of a row before its bitboard (``games/kernels/tron.py``'s ``WORDS``)."""


def row_of(
    state: State, t: Topology, first_player: int, simultaneous: bool
) -> npt.NDArray[np.int64]:
    """The state's row for the row kernels: (to_move, pending, outcome, head0, head1), the
    map's columns, ``first_player``, ``simultaneous``, the map's cells and free cells, then
    ``blocked`` in 64-bit words, lowest cells first (``games/kernels/tron.py``)."""
    import numpy as np

    words = (t.size + 63) // 64
    row = np.empty(_ROW_HEAD + words, np.int64)
    row[:_ROW_HEAD] = (
        state.to_move, state.pending, state.outcome, state.head0, state.head1, t.cols,
        first_player, int(simultaneous), t.size, t.free_cells,
    )  # fmt: skip
    row[_ROW_HEAD:] = np.frombuffer(state.blocked.to_bytes(8 * words, "little"), "<i8")
    return row


def state_of(row: npt.NDArray[np.int64]) -> State:
    """The state of a row (``row_of`` undone)."""
    import numpy as np

    blocked = int.from_bytes(np.ascontiguousarray(row[_ROW_HEAD:], "<i8").tobytes(), "little")
    to_move, pending, outcome, h0, h1 = (int(v) for v in row[:5])
    return _made(blocked, h0, h1, to_move, pending, outcome)


@memo(size=64, why="one entry per map, first player and rule set in use: as topology's")
def _rows(t: Topology, first_player: int, simultaneous: bool) -> Rows | None:
    kernel = compiled.kernels("tron")
    if kernel is None:
        return None
    return Rows(
        width=kernel.WORDS + (t.size + 63) // 64, max_moves=4,
        row_of=partial(row_of, t=t, first_player=first_player, simultaneous=simultaneous),
        state_of=state_of, legal=kernel.legal, step=kernel.step, player=kernel.player,
        reward0=kernel.reward0, playout0=kernel.playout0, ending=kernel.ending,
        returns=kernel.returns,
    )  # fmt: skip


def _resolve_map(value: str | Map) -> Map:
    if isinstance(value, Map):
        return value
    return shipped_map(value)


def _check_player(instance: Any, attribute: Any, value: int) -> None:
    if value not in (0, 1):
        raise ValueError(f"first_player must be 0 or 1, got {value!r}")


@frozen
class Tron:
    """Tron on a map (see the module docstring for the rules).

    Attributes:
        map: A shipped map's name (``empty_room``, ``center_block``, ...) or a ``Map`` value.
        rules: ``alternating`` (CS1410, default) or ``simultaneous`` (AI Challenge 2010).
        start: ``map`` (the map's start cells) or ``mirror`` (a drawn start and its mirror).
        first_player: Who moves first (alternating) or commits first each round (simultaneous).
        start_seed: The seed of the ``mirror`` draw (ignored for ``start=map``).
    """

    seat_marks: ClassVar[tuple[str, str]] = ("blue", "red")
    """What each seat plays with (``MarkedSeats``): the drawing's and the terminal's marks."""

    map: str | Map = "empty_room"
    rules: Literal["alternating", "simultaneous"] = "alternating"
    start: Literal["map", "mirror"] = "map"
    first_player: int = field(default=0, validator=_check_player)
    start_seed: int = 0
    _t: Topology = field(init=False, eq=False, hash=False, repr=False)

    @_t.default
    def _make_topology(self) -> Topology:
        t = topology(_resolve_map(self.map))
        if self.start == "mirror" and not t.mirror_starts:
            raise ValueError(f"map {t.map.name!r} has no cell pair for mirror starts")
        return t

    # ---- facts -------------------------------------------------------------------------------

    @property
    def board(self) -> Map:
        """The map."""
        return self._t.map

    @property
    def topology(self) -> Topology:
        """The map's precomputed tables (for heuristics and bots)."""
        return self._t

    @property
    def simultaneous(self) -> bool:
        """Whether the simultaneous (AI Challenge) rules are in force."""
        return self.rules == "simultaneous"

    @property
    def spec(self) -> GameSpec:
        """Name and bounds: a game is at most as long as the map has free cells.

        A position is the set of occupied free cells, two heads (a free cell or none), the
        player to move, the pending move and the outcome: ``2^F · (F + 1)^2 · 2 · 5 · 4`` bounds
        the positions of a map with ``F`` free cells (about 10^12 already on ``small_room``).
        """
        outcomes = (-1.0, 0.0, 1.0) if self.simultaneous else (-1.0, 1.0)
        free = self._t.free_cells
        return GameSpec(
            "tron",
            2,
            free,
            True,
            outcomes,
            positions=2**free * (free + 1) ** 2 * 40,
            default_opponent=DEFAULT_OPPONENT,
            examples=("tron:map=small_room", "tron:map=empty_room"),
            # each turn order, both starts, the second player first, maps with barriers
            variants=(
                "tron:map=small_room",
                "tron:map=small_room,rules=simultaneous",
                "tron:map=diagonal_blocks,first_player=1",
                "tron:map=center_block,start=mirror,start_seed=3",
                "tron:map=empty_room,rules=simultaneous,start=mirror,start_seed=11",
            ),
        )

    def starts(self) -> tuple[int, int]:
        """The start cells of players 0 and 1 under this game's start rule."""
        m = self._t.map
        if self.start == "map":
            return m.starts
        c = choice(key(self.start_seed), self._t.mirror_starts)
        return (c, m.mirror(c))

    # ---- rules -------------------------------------------------------------------------------

    def initial(self) -> State:
        """Both cycles on their start cells; ``first_player`` to move."""
        s0, s1 = self.starts()
        blocked = self._t.map.blocked | 1 << s0 | 1 << s1
        return State(blocked, s0, s1, self.first_player)

    def to_move(self, state: State) -> int:
        """The player to move."""
        return state.to_move

    def legal(self, state: State) -> tuple[int, ...]:
        """All four directions while the game runs (a move into an obstacle loses)."""
        return MOVES if state.outcome == RUNNING else ()

    def is_over(self, state: State) -> bool:
        """Someone crashed (or, simultaneous rules, both did or they collided)."""
        return state.outcome != RUNNING

    def returns(self, state: State) -> tuple[float, float]:
        """+1 for the winner, -1 for the loser, zeros for a draw or an unfinished game."""
        o = state.outcome
        if o == 0:
            return (1.0, -1.0)
        if o == 1:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def step(self, state: State, move: int) -> State:
        """Play ``move`` (0-3 = U, D, L, R) for the player to move.

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)``: a plain int 0-3 (not a bool,
                which ``in MOVES`` would take for 0 or 1, nor a float, which the simultaneous
                rules would store as the pending move) while the game runs.
        """
        if state.outcome != RUNNING:
            raise IllegalMove("the game is over")
        if type(move) is not int or not 0 <= move <= 3:
            raise IllegalMove(f"{move!r} is not a move of tron (moves are ints 0-3: U, D, L, R)")
        p = state.to_move
        blocked = state.blocked
        if self.rules == "alternating":
            if p == 0:
                target = state.head0 + self._t.deltas[move]
                if blocked >> target & 1:
                    return _made(blocked, -1, state.head1, 1, _NO_MOVE, 1)
                return _made(blocked | 1 << target, target, state.head1, 1)
            target = state.head1 + self._t.deltas[move]
            if blocked >> target & 1:
                return _made(blocked, state.head0, -1, 0, _NO_MOVE, 0)
            return _made(blocked | 1 << target, state.head0, target, 0)
        if state.pending == _NO_MOVE:
            return _made(blocked, state.head0, state.head1, 1 - p, move)
        m0, m1 = (move, state.pending) if p == 0 else (state.pending, move)
        t0 = state.head0 + self._t.deltas[m0]
        t1 = state.head1 + self._t.deltas[m1]
        crash0 = blocked >> t0 & 1
        crash1 = blocked >> t1 & 1
        if t0 == t1 or (crash0 and crash1):
            return _made(blocked, -1, -1, self.first_player, _NO_MOVE, DRAW)
        if crash0:
            return _made(blocked | 1 << t1, -1, t1, self.first_player, _NO_MOVE, 1)
        if crash1:
            return _made(blocked | 1 << t0, t0, -1, self.first_player, _NO_MOVE, 0)
        return _made(blocked | 1 << t0 | 1 << t1, t0, t1, self.first_player)

    # ---- fast paths (optional hooks: core/game.py) ------------------------------------------

    def row_kernels(self) -> Rows | None:
        """The states as int64 rows with ``kernels/tron.py``'s compiled rules (``RowKernels``:
        ``legal``, ``step``, ``player``, ``reward0``, ``playout0``, ``ending``, ``returns``), for
        both rule sets and every map (the bitboard takes as many 64-bit words as the map needs);
        None without numba. No ``decisive0``: Tron has no ``decisive_playout`` hook."""
        return _rows(self._t, self.first_player, self.simultaneous)

    def random_playout(self, state: State, key: keys.Key) -> tuple[float, float]:
        """The returns at the end of the uniformly random game from ``state`` that ``key``
        draws: each ply ``legal(s)[int(r * 4)]``, ``r`` the next draw of ``keys.stream(key)``
        (``core.batch.random_returns``'s game), on local Python ints.

        The reference of the row kernel ``playout0``, which plays the same game for compiled
        callers (the compiled MCTS tree). From Python this loop is the faster: a random Tron
        game lasts a few plies, and building a row to call the kernel costs more than playing
        them (``benchmarks/bench_tron.py --only kernels``).

        Not the ``playout`` hook: with one, ``mcts:playout=auto`` would switch Tron from
        decisive playouts to these, a change of play, not of speed; ``mcts:playout=random``
        plays this game.
        """
        if state.outcome != RUNNING:
            return self.returns(state)
        rnd = keys.stream(key)
        deltas = self._t.deltas
        blocked, heads, p = state.blocked, [state.head0, state.head1], state.to_move
        if not self.simultaneous:
            while True:
                target = heads[p] + deltas[int(rnd() * 4)]
                if blocked >> target & 1:
                    return _OUTCOME_RETURNS[1 - p]  # the mover crashed
                blocked |= 1 << target
                heads[p] = target
                p ^= 1
        pending = state.pending
        while True:
            move = int(rnd() * 4)
            if pending == _NO_MOVE:
                pending, p = move, 1 - p
                continue
            m0, m1 = (move, pending) if p == 0 else (pending, move)
            t0, t1 = heads[0] + deltas[m0], heads[1] + deltas[m1]
            crash0, crash1 = blocked >> t0 & 1, blocked >> t1 & 1
            if t0 == t1 or (crash0 and crash1):
                return _OUTCOME_RETURNS[DRAW]
            if crash0 or crash1:
                return _OUTCOME_RETURNS[1 if crash0 else 0]
            blocked |= 1 << t0 | 1 << t1
            heads[0], heads[1] = t0, t1
            pending, p = _NO_MOVE, self.first_player

    def playouts(
        self, states: Sequence[State], ks: npt.NDArray[np.uint64]
    ) -> npt.NDArray[np.float64]:
        """The returns of ``random_playout(states[i], ks[i])`` for every i, as an (n, 2) array
        (``BatchPlayouts``; one state stands for all). Compiled, in one call on numba's threads,
        where numba is; ``random_playout`` state by state where it is not."""
        import numpy as np

        n = len(ks)
        for s in states:
            self.check(s)  # a bad state is refused here, before any kernel reads its bits
        chosen = [states[0]] * n if len(states) == 1 else states
        kernel = compiled.kernels("tron")
        if kernel is None:
            pairs = zip(chosen, ks, strict=True)
            found = [self.random_playout(s, keys.Key(int(k))) for s, k in pairs]
            return np.array(found, np.float64).reshape(n, 2)
        rows = np.array([row_of(s, self._t, self.first_player, self.simultaneous) for s in states])
        if len(states) == 1:
            rows = np.repeat(rows, n, axis=0)
        signed = np.ascontiguousarray(ks, np.uint64).view(np.int64)
        outcomes = kernel.playouts(rows, signed)
        returns: npt.NDArray[np.float64] = np.array(_OUTCOME_RETURNS)[outcomes]
        return returns

    def observation(self, state: State, player: int) -> State:
        """What ``player`` may see: the state without the other player's pending move.

        Under simultaneous rules a committed, unresolved move is hidden; the observation is the
        same board with ``player`` committing first, so a search from it cannot exploit the
        hidden move. Everything else is public, so other states come back unchanged.
        """
        if state.pending == _NO_MOVE:
            return state
        return _made(state.blocked, state.head0, state.head1, player)

    def safe_moves(self, state: State) -> tuple[int, ...]:
        """The moves of the player to move whose target cell is free (CS1410 get_safe_actions)."""
        if state.outcome != RUNNING:
            return ()
        head = state.head0 if state.to_move == 0 else state.head1
        blocked = state.blocked
        return tuple(m for m, d in enumerate(self._t.deltas) if not blocked >> (head + d) & 1)

    def check(self, state: State) -> State:
        """``state``, if it is a position of this game's map and rules.

        ``State(...)`` refuses what no map has (non-int fields, both heads on one cell, a head
        not blocked, heads that do not fit the outcome, ...); this adds the map: every blocked
        cell on the grid, its walls and barriers blocked, each head on a free cell, a pending
        move only under simultaneous rules. The hot rules (``step``, ``legal``) take that as
        given; ``decode``, ``render`` and ``encode`` check.

        Raises:
            IllegalMove: saying what is impossible, in one line.
        """
        m = self._t.map
        if not isinstance(state, State):
            why: str | None = f"a {type(state).__qualname__} is not a tron State"
        else:
            why = _impossible(state)
        if why is None:
            if state.blocked >> m.size:
                why = f"blocked cells beyond the {m.rows}x{m.cols} map {m.name!r}"
            elif state.blocked & m.blocked != m.blocked:
                why = f"a wall or barrier of map {m.name!r} is not blocked"
            elif any(h >= 0 and not m.free >> h & 1 for h in (state.head0, state.head1)):
                why = f"a head on a wall or barrier of map {m.name!r}"
            elif state.pending != _NO_MOVE and not self.simultaneous:
                why = "a pending move under alternating rules"
        if why is not None:
            raise IllegalMove(f"not a tron position: {why}")
        return state

    # ---- symmetries --------------------------------------------------------------------------

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The grid symmetries that fix the map's obstacles, identity first."""
        return tuple(range(len(self._t.perms)))

    def transform(self, state: State, sym: int) -> State:
        """The position rotated or reflected by ``sym``."""
        if sym == 0:
            return state
        t = self._t
        p = t.perms[sym]
        blocked = permute_bits(p, state.blocked)
        h0 = p[state.head0] if state.head0 >= 0 else -1
        h1 = p[state.head1] if state.head1 >= 0 else -1
        pend = t.dir_maps[sym][state.pending] if state.pending >= 0 else _NO_MOVE
        return _made(blocked, h0, h1, state.to_move, pend, state.outcome)

    def transform_move(self, move: int, sym: int) -> int:
        """The direction ``move`` is carried to by ``sym``."""
        return self._t.dir_maps[sym][move]

    def inverse(self, sym: int) -> int:
        """The inverse symmetry."""
        return self._t.inverse[sym]

    def canonical(self, state: State) -> tuple[State, int]:
        """The image with the smallest (blocked, heads, pending) and the first symmetry to it."""
        return canonical_by(
            state,
            self.symmetries,
            self.transform,
            lambda s: (s.blocked, s.head0, s.head1, s.pending, s.outcome),
        )

    # ---- text --------------------------------------------------------------------------------

    def _grid(self, state: State, empty: str) -> list[str]:
        m = self._t.map
        rows = []
        for r in range(m.rows):
            row = []
            for c in range(m.cols):
                i = r * m.cols + c
                if i == state.head0:
                    row.append("1")
                elif i == state.head1:
                    row.append("2")
                elif m.walls >> i & 1:
                    row.append("#")
                elif state.blocked >> i & 1:
                    row.append("x")
                else:
                    row.append(empty)
            rows.append("".join(row))
        return rows

    def encode(self, state: State) -> str:
        """``ROW/ROW/...;P;M;O``: the board (``#`` wall, ``x`` barrier, ``1`` ``2`` heads, ``.``
        empty), the player to move (1 or 2), the pending move (``-`` or U/D/L/R) and the outcome
        (``-`` running, ``1`` or ``2`` the winner, ``=`` a draw)."""
        self.check(state)
        pend = "-" if state.pending < 0 else MOVE_NAMES[state.pending]
        out = (
            "-"
            if state.outcome == RUNNING
            else "="
            if state.outcome == DRAW
            else str(state.outcome + 1)
        )
        return "/".join(self._grid(state, ".")) + f";{state.to_move + 1};{pend};{out}"

    def decode(self, text: str) -> State:
        """The position written by ``encode``."""
        m = self._t.map
        parts = text.strip().split(";")
        if len(parts) != 4:
            raise ParseError(f"{text!r} is not a Tron position: expected BOARD;PLAYER;PENDING;END")
        board, who, pend, out = parts
        rows = board.split("/")
        if len(rows) != m.rows or any(len(r) != m.cols for r in rows):
            raise ParseError(f"the board is not {m.rows} rows of {m.cols} cells (map {m.name!r})")
        blocked = 0
        heads = [-1, -1]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                i = r * m.cols + c
                wall = bool(m.walls >> i & 1)
                if (ch == "#") != wall:
                    raise ParseError(f"row {r + 1}, column {c + 1}: {ch!r} does not fit the map")
                if ch == "." and m.barriers >> i & 1:
                    raise ParseError(f"row {r + 1}, column {c + 1}: the map has a barrier here")
                if ch in "12":
                    if heads[int(ch) - 1] >= 0:
                        raise ParseError(f"two heads of player {ch}")
                    heads[int(ch) - 1] = i
                elif ch not in "#x.":
                    raise ParseError(f"row {r + 1}, column {c + 1}: unknown cell {ch!r}")
                if ch != ".":
                    blocked |= 1 << i
        if who not in ("1", "2"):
            raise ParseError(f"player to move {who!r} is not 1 or 2")
        if pend not in ("-", *MOVE_NAMES):
            raise ParseError(f"pending move {pend!r} is not -, U, D, L or R")
        outcomes = {"-": RUNNING, "1": 0, "2": 1, "=": DRAW}
        if out not in outcomes:
            raise ParseError(f"outcome {out!r} is not -, 1, 2 or =")
        outcome = outcomes[out]
        pending = _NO_MOVE if pend == "-" else MOVE_NAMES.index(pend)
        if outcome == RUNNING and min(heads) < 0:
            raise ParseError("a running game needs both heads on the board")
        if pending != _NO_MOVE and (not self.simultaneous or outcome != RUNNING):
            raise ParseError("a pending move exists only in a running simultaneous game")
        try:
            return self.check(State(blocked, heads[0], heads[1], int(who) - 1, pending, outcome))
        except IllegalMove as e:
            raise ParseError(f"{text!r}: {e}") from None

    def render(self, state: State) -> str:
        """The board (``#`` wall, ``x`` trail, ``1`` and ``2`` the cycles) and whose turn it is."""
        self.check(state)
        lines = self._grid(state, " ")
        o = state.outcome
        if o == DRAW:
            lines.append("draw")
        elif o != RUNNING:
            lines.append(f"player {o + 1} won")
        elif state.pending != _NO_MOVE:
            lines.append(f"player {state.to_move + 1} to move (the other move is hidden)")
        else:
            lines.append(f"player {state.to_move + 1} to move")
        return "\n".join(lines)

    def parse_move(self, state: State, text: str) -> int:
        """``U``, ``D``, ``L``, ``R`` (also up/down/left/right, N/S/W/E or an arrow key)."""
        word = text.strip().upper() if not text.startswith("\x1b") else text.strip()
        if word not in _MOVE_WORDS:
            raise ParseError(f"{text!r} is not a move: type U, D, L or R (or an arrow key)")
        if state.outcome != RUNNING:
            raise IllegalMove("the game is over")
        return _MOVE_WORDS[word]

    def format_move(self, move: int) -> str:
        """``U``, ``D``, ``L`` or ``R``."""
        return MOVE_NAMES[move]

    # ---- planes and pictures (optional hooks: core/game.py) ----------------------------------

    plane_lines = (
        "the cells taken: walls, barriers, trails and heads",
        "the observer's head",
        "the other player's head",
    )

    @property
    def plane_shape(self) -> tuple[int, ...]:
        """The map's rows and columns, three planes."""
        m = self._t.map
        return (m.rows, m.cols, 3)

    def planes(self, state: State, player: int) -> np.ndarray:
        """The taken cells and each head, the observer's first."""
        import numpy as np

        m = self._t.map
        out = np.zeros((m.rows, m.cols, 3), dtype=np.int8)
        out[:, :, 0] = bits(state.blocked, m.rows * m.cols).reshape(m.rows, m.cols)
        heads = (state.head0, state.head1) if player == 0 else (state.head1, state.head0)
        for plane, head in enumerate(heads, start=1):
            if head >= 0:
                out[head // m.cols, head % m.cols, plane] = 1
        return out

    def draw(self, state: State, title: str, last: Any, history: Sequence[State] = ()) -> str:
        """The grid (``games/tron/drawing.py``): trails in their player's colour when
        ``history`` is given; the move targets of the player to move carry ``data-move``."""
        from purestate.games.tron import drawing  # it imports this module

        return drawing.draw(self, state, title, last, history)

    def coloured_board(self, states: Sequence[State]) -> tuple[tuple[str, str], ...]:
        """``render``'s text of the last of ``states``, each trail in its player's colour."""
        from purestate.games.tron import drawing  # it imports this module

        return drawing.coloured_board(self, states)

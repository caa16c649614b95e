"""Alpha-beta compiled: ``agents.alphabeta.search``'s iterative deepening negamax on arrays,
generic over a game's row functions (``core.hooks.Rows``): ``run`` below is a template,
compiled once per game and evaluation with their functions bound to its global names
(``core.compiled.jit_bound``, so numba's on-disk cache keeps each one).

The same search as the Python one operation for operation, so it visits the same nodes in the
same order, calls the evaluation on the same states, fills the same transposition table and
returns the same value, move, ties and statistics
(``properties/test_compiled_alphabeta_props.py`` compares them):

* the line being searched is a stack of levels (level 0 the root, level ``k`` a node ``k``
  plies below it): each level's row in ``srows``, its moves (the table's best move first) in
  ``smoves``, its depth, next move, move count, player, sign flip, resolved flag and best move
  in ``sints``, its window, raised lower end and best value in ``sfloats``; the position being
  valued is the row one level below the top;
* the transposition table is open addressing over whole rows: a slot holds the row itself and
  its entry, and a probe compares every int64 of the row, so two positions never share an entry
  (no hash stands for a position; the hash only picks where to start looking);
* ``run`` returns between nodes with everything it needs in its arrays: to ask the caller's
  clock (``POLL``, at the same nodes the Python search polls ``stop``), when the table must grow
  (``ROOM``), when the stack must grow (``DEEP``), when a node or the iteration budget is spent
  (``OUT``) and when the search is over (``DONE``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit, jit_bound, jit_inline
from purestate.core.memo import memo

# the Python search's constants (agents/alphabeta.py, which checks they agree)
EXACT, LOWER, UPPER = 0, 1, 2
RESOLVED = 1 << 30
TIE = 1e-9
POLL_NODES = 16

# columns of ``sints``
DEPTH, NEXT, COUNT_MOVES, PLAYER, FLIP, NODE_RESOLVED, BEST_MOVE = range(7)
INT_COLUMNS = 7
# columns of ``sfloats``
ALPHA, BETA, A, BEST = range(4)
FLOAT_COLUMNS = 4
# entries of ``counters``: nodes, evaluations, the next poll's node count, whether budgets are
# checked (after the first iteration), the iteration's depth, the next root move, the stack's
# height, where ``run`` resumes, the last completed iteration, whether it proved the root, its
# best move, the table's entries, the valued position's depth and mover, the iteration's root
# resolved flag and best move so far, the valued position's player to move
(NODES, EVALUATIONS, NEXT_POLL, LIMITED, ITERATION, ROOT_NEXT, TOP, PHASE, COMPLETED, PROVEN,
 RESULT_MOVE, TABLE_SIZE, CHILD_DEPTH, CHILD_MOVER, ROOT_RESOLVED, ROOT_BEST_MOVE,
 CHILD_PLAYER) = range(17)  # fmt: skip
COUNTERS = 17
# entries of ``values``: the valued position's window, the iteration's best root value so far,
# the last completed iteration's value
CHILD_ALPHA, CHILD_BETA, ROOT_BEST, RESULT_VALUE = range(4)
VALUES = 4
# columns of the table's ``tints`` (its rows in ``tkeys``, its values in ``tvalues``)
T_DEPTH, T_FLAG, T_MOVE = range(3)
TABLE_COLUMNS = 3
EMPTY = -1
"""``tints[slot, T_DEPTH]`` of a free slot (a stored depth is never negative)."""

# where ``run`` resumes (``counters[PHASE]``)
ITERATE, ROOT, CHILD, LOOKUP, NEXT_CHILD = range(5)

DONE = 0
"""The search is over: the deepest iteration completed, or the root is proven."""
OUT = 1
"""The node budget ran out in an iteration: the last completed one stands."""
POLL = 2
"""A node past the poll mark: ask the clock; call again to go on (from the same node)."""
ROOM = 3
"""The table is half full: grow it (``grow_table``) and call again."""
DEEP = 4
"""The stack has no level for the next node: grow it and call again."""

_INF = np.inf
_MIX = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_S31 = np.uint64(31)

# The game's row functions and the evaluation (``core.hooks.Rows``) that ``run`` calls:
# ``searcher`` binds them in a compiled copy, one per game and evaluation.
legal: Any = None
step: Any = None
player_of: Any = None
returns_of: Any = None
evaluate: Any = None


@memo(size=None, why="one compiled search per game's row functions and evaluation: a handful")
def searcher(legal: Any, step: Any, player: Any, returns: Any, evaluation: Any) -> Any:
    """``run`` compiled for one game's row functions and a row evaluation (``zero`` or an
    injected one), from numba's on-disk cache after the first time."""
    fns = {"legal": legal, "step": step, "player_of": player, "returns_of": returns,
           "evaluate": evaluation}  # fmt: skip
    return jit_bound(run, fns)


@jit
def zero(row: npt.NDArray[np.int64]) -> float:
    """The ``zero`` evaluation on rows: every unresolved position is worth 0."""
    return 0.0


@jit_inline
def _slot(
    tkeys: npt.NDArray[np.int64], tints: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
    v: int,
) -> int:  # fmt: skip
    """The slot of the row ``rows[v]`` in the table: its own, or the free one where it would go.
    Rows are passed as a 2-d array and an index: a view of one row costs its reference
    counting, about 16 ns, more than the look-up (and the helpers here are inlined, see
    ``core.compiled.jit_inline``)."""
    width = tkeys.shape[1]
    mask = tkeys.shape[0] - 1
    h = _MIX
    for k in range(width):
        h = (h ^ np.uint64(rows[v, k])) * _C1
        h = h ^ (h >> _S31)
    i: int = np.int64(h & np.uint64(mask))  # type: ignore[assignment]
    while True:
        if tints[i, T_DEPTH] == EMPTY:
            return i
        same = True
        for k in range(width):
            if tkeys[i, k] != rows[v, k]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & mask


@jit_inline
def _store(
    tkeys: npt.NDArray[np.int64], tints: npt.NDArray[np.int64],
    tvalues: npt.NDArray[np.float64], rows: npt.NDArray[np.int64], v: int, depth: int,
    flag: int, value: float, move: int,
) -> int:  # fmt: skip
    """``table[rows[v]] = (depth, flag, value, move)``; 1 if the row is new, else 0."""
    i = _slot(tkeys, tints, rows, v)
    new = 1 if tints[i, T_DEPTH] == EMPTY else 0
    if new:
        for k in range(tkeys.shape[1]):
            tkeys[i, k] = rows[v, k]
    tints[i, T_DEPTH] = depth
    tints[i, T_FLAG] = flag
    tints[i, T_MOVE] = move
    tvalues[i] = value
    return new


@jit
def grow_table(
    tkeys: npt.NDArray[np.int64], tints: npt.NDArray[np.int64],
    tvalues: npt.NDArray[np.float64], new_keys: npt.NDArray[np.int64],
    new_ints: npt.NDArray[np.int64], new_values: npt.NDArray[np.float64],
) -> None:  # fmt: skip
    """Every entry of the table moved to the bigger one (``new_ints`` all ``EMPTY``)."""
    for i in range(tkeys.shape[0]):
        if tints[i, T_DEPTH] != EMPTY:
            _store(new_keys, new_ints, new_values, tkeys, i, tints[i, T_DEPTH],
                   tints[i, T_FLAG], tvalues[i], tints[i, T_MOVE])  # fmt: skip


@jit_inline
def _copy(src: npt.NDArray[np.int64], dst: npt.NDArray[np.int64], v: int) -> None:
    # the row into level ``v`` of the stack, entry by entry (no view)
    for k in range(len(src)):
        dst[v, k] = src[k]


@jit_inline
def _load(src: npt.NDArray[np.int64], v: int, dst: npt.NDArray[np.int64]) -> None:
    # level ``v``'s row into a flat row the game's functions take
    for k in range(len(dst)):
        dst[k] = src[v, k]


def run(
    srows: npt.NDArray[np.int64], smoves: npt.NDArray[np.int64], sints: npt.NDArray[np.int64],
    sfloats: npt.NDArray[np.float64], parent: npt.NDArray[np.int64],
    kid: npt.NDArray[np.int64], moves: npt.NDArray[np.int64],
    root_moves: npt.NDArray[np.int64], n_root: int,
    root_values: npt.NDArray[np.float64], tied: npt.NDArray[np.bool_],
    counters: npt.NDArray[np.int64], values: npt.NDArray[np.float64],
    tkeys: npt.NDArray[np.int64], tints: npt.NDArray[np.int64],
    tvalues: npt.NDArray[np.float64], ties: bool, limit: int, polls: bool, max_depth: int,
    p0: int,
) -> int:  # fmt: skip
    """The search from the root row ``srows[0]`` (its moves ``root_moves[:n_root]``, in
    ``legal``'s order; ``smoves[0]`` the order they are searched in), from where the last call
    left it, until one of ``DONE``, ``OUT``, ``POLL``, ``ROOM`` or ``DEEP``. ``polls``: a clock
    is read (``POLL`` at each mark); ``limit``: the node budget (0 none). The game's functions
    are called on the flat rows ``parent`` and ``kid`` (the position valued, also kept one level
    below the top) and write moves to ``moves``, never on views of the stack (see ``_slot``)."""
    phase = counters[PHASE]
    count = counters[NODES]
    evals = counters[EVALUATIONS]
    top = counters[TOP]
    size = counters[TABLE_SIZE]
    cap = tkeys.shape[0]
    status = DONE
    v = 0.0
    r = True
    while True:
        if phase == ITERATE:
            d = counters[ITERATION]
            if d > max_depth:
                status = DONE
                break
            count += 1
            values[ROOT_BEST] = -_INF
            counters[ROOT_BEST_MOVE] = smoves[0, 0]
            counters[ROOT_RESOLVED] = 1
            counters[ROOT_NEXT] = 0
            phase = ROOT
        if phase == ROOT:
            i = counters[ROOT_NEXT]
            d = counters[ITERATION]
            if i == n_root:
                # the iteration is complete: its ties, the root's entry, the next order
                best = values[ROOT_BEST]
                best_move = counters[ROOT_BEST_MOVE]
                resolved = counters[ROOT_RESOLVED] != 0
                for j in range(n_root):
                    tied[j] = False
                    for k in range(n_root):
                        if smoves[0, k] == root_moves[j] and root_values[k] >= best - TIE:
                            tied[j] = True
                size += _store(tkeys, tints, tvalues, srows, 0, RESOLVED if resolved else d,
                               EXACT, best, best_move)  # fmt: skip
                values[RESULT_VALUE] = best
                counters[RESULT_MOVE] = best_move
                counters[PROVEN] = 1 if resolved else 0
                counters[COMPLETED] = d
                counters[LIMITED] = 1
                if resolved:
                    status = DONE
                    break
                smoves[0, 0] = best_move
                k = 1
                for j in range(n_root):
                    if root_moves[j] != best_move:
                        smoves[0, k] = root_moves[j]
                        k += 1
                counters[ITERATION] = d + 1
                phase = ITERATE
                continue
            _load(srows, 0, parent)
            step(parent, smoves[0, i], kid)
            best = values[ROOT_BEST]
            values[CHILD_ALPHA] = best - TIE if ties else best
            values[CHILD_BETA] = _INF
            counters[CHILD_DEPTH] = d
            counters[CHILD_MOVER] = p0
            top = 0
            phase = CHILD
        pushed = False
        if phase == CHILD:
            if 2 * (size + top + 2) > cap:
                status = ROOM
                break
            p = counters[CHILD_MOVER]
            dd = counters[CHILD_DEPTH]
            q = player_of(kid)
            if q < 0:
                v, r = returns_of(kid, p), True
            elif dd <= 1:
                count += 1
                evals += 1
                e = evaluate(kid)
                v, r = (-e if p != 0 else e), False
            else:
                count += 1
                phase = LOOKUP
                counters[CHILD_PLAYER] = q
                if counters[LIMITED]:
                    if limit > 0 and count > limit:
                        status = OUT
                        break
                    if polls and count >= counters[NEXT_POLL]:
                        counters[NEXT_POLL] = count + POLL_NODES
                        status = POLL
                        break
        if phase == LOOKUP:
            if top + 2 >= srows.shape[0]:
                status = DEEP
                break
            p = counters[CHILD_MOVER]
            dd = counters[CHILD_DEPTH]
            alpha, beta = values[CHILD_ALPHA], values[CHILD_BETA]
            q = counters[CHILD_PLAYER]
            flip = q != p
            lo, hi = (-beta, -alpha) if flip else (alpha, beta)
            _copy(kid, srows, top + 1)  # where the table reads it and a push keeps it
            slot = _slot(tkeys, tints, srows, top + 1)
            has_first = False
            first = 0
            pushed = True
            if tints[slot, T_DEPTH] != EMPTY:
                e_depth, e_flag, e_value = tints[slot, T_DEPTH], tints[slot, T_FLAG], tvalues[slot]
                has_first = True
                first = tints[slot, T_MOVE]
                if e_depth >= dd - 1 and (
                    e_flag == EXACT
                    or (e_flag == LOWER and e_value >= hi)
                    or (e_flag == UPPER and e_value <= lo)
                ):
                    v, r = (-e_value if flip else e_value), e_depth == RESOLVED
                    pushed = False
            if pushed:
                lvl = top + 1
                n = legal(kid, moves)
                if has_first and moves[0] != first:
                    # the table's move first, the others in their order
                    smoves[lvl, 0] = first
                    k = 1
                    for j in range(n):
                        if moves[j] != first:
                            smoves[lvl, k] = moves[j]
                            k += 1
                else:
                    for j in range(n):
                        smoves[lvl, j] = moves[j]
                sints[lvl, DEPTH] = dd - 1
                sints[lvl, NEXT] = 0
                sints[lvl, COUNT_MOVES] = n
                sints[lvl, PLAYER] = q
                sints[lvl, FLIP] = 1 if flip else 0
                sints[lvl, NODE_RESOLVED] = 1
                sints[lvl, BEST_MOVE] = smoves[lvl, 0]
                sfloats[lvl, ALPHA] = lo
                sfloats[lvl, BETA] = hi
                sfloats[lvl, A] = lo
                sfloats[lvl, BEST] = -_INF
                top = lvl
                phase = NEXT_CHILD
        if phase != NEXT_CHILD:
            # hand the value up the line until a node has a move left to search
            while True:
                if top == 0:
                    i = counters[ROOT_NEXT]
                    root_values[i] = v
                    if not r:
                        counters[ROOT_RESOLVED] = 0
                    if v > values[ROOT_BEST]:
                        values[ROOT_BEST] = v
                        counters[ROOT_BEST_MOVE] = smoves[0, i]
                    counters[ROOT_NEXT] = i + 1
                    phase = ROOT
                    break
                if not r:
                    sints[top, NODE_RESOLVED] = 0
                if v > sfloats[top, BEST]:
                    sfloats[top, BEST] = v
                    sints[top, BEST_MOVE] = smoves[top, sints[top, NEXT] - 1]
                    if v > sfloats[top, A]:
                        sfloats[top, A] = v
                if (
                    sfloats[top, A] < sfloats[top, BETA]
                    and sints[top, NEXT] < sints[top, COUNT_MOVES]
                ):
                    phase = NEXT_CHILD
                    break
                best = sfloats[top, BEST]
                flag = (
                    UPPER if best <= sfloats[top, ALPHA]
                    else LOWER if best >= sfloats[top, BETA] else EXACT
                )  # fmt: skip
                resolved = sints[top, NODE_RESOLVED] != 0
                size += _store(tkeys, tints, tvalues, srows, top,
                               RESOLVED if resolved else sints[top, DEPTH], flag, best,
                               sints[top, BEST_MOVE])  # fmt: skip
                v, r = (-best if sints[top, FLIP] else best), resolved
                top -= 1
        if phase == NEXT_CHILD:
            j = sints[top, NEXT]
            sints[top, NEXT] = j + 1
            _load(srows, top, parent)
            step(parent, smoves[top, j], kid)
            counters[CHILD_DEPTH] = sints[top, DEPTH]
            counters[CHILD_MOVER] = sints[top, PLAYER]
            values[CHILD_ALPHA] = sfloats[top, A]
            values[CHILD_BETA] = sfloats[top, BETA]
            phase = CHILD
    counters[PHASE] = phase
    counters[NODES] = count
    counters[EVALUATIONS] = evals
    counters[TOP] = top
    counters[TABLE_SIZE] = size
    return status

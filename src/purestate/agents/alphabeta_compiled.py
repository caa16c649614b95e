"""The compiled alpha-beta behind ``alphabeta.search``: when it runs, and the search's arrays in
and out of its kernel.

``agents/kernels/alphabeta_search.py`` runs the Python search over arrays, on a game's row
kernels (``core.hooks.Rows``, with their ``returns``). ``route`` says whether a search may run
there: the game has row kernels with ``returns``, numba imports, and the evaluation is one the
kernel can run: ``zero`` (exact solves), or an evaluation that declares its compiled twin on
rows (``RowEvaluation``, looked up by ``core.hooks.row_evaluation_of``). Everything else (Tron's
``chamber`` evaluation, say, which has no twin) runs the Python search, the reference. The same
inputs give the same value, move, ties and statistics on either path
(``properties/test_compiled_alphabeta_props.py``); a clock is read at the same nodes, so a clock
that ticks once a read gives the same search too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from purestate.agents.timing import never
from purestate.core import compiled
from purestate.core.hooks import Rows, row_evaluation_of, rows_of

if TYPE_CHECKING:
    from purestate.agents.alphabeta import Evaluate, SearchStats
    from purestate.core.game import Game

START_TABLE = 1 << 8
"""The transposition table's first size (slots): small, since it doubles when half full."""
START_LEVELS = 8
"""The stack's first levels below the root (it doubles when the line goes deeper)."""

Route = tuple[Rows, Any]
"""The game's rows and the jitted evaluation of rows."""


def _kernel() -> Any:
    found: Any = compiled.kernels("alphabeta_search", compiled.AGENT_KERNELS)
    return found


def route(game: Game[Any, Any], evaluate: Evaluate | None) -> Route | None:
    """The game's rows and the row evaluation when a search of ``game`` with ``evaluate``
    (None: ``zero``) runs compiled, else None (the Python search runs)."""
    from purestate.agents.alphabeta import zero_evaluation

    rows = rows_of(game)
    if rows is None or rows.returns is None:
        return None
    kernel = _kernel()
    if kernel is None:
        return None
    if evaluate is None or evaluate is zero_evaluation:
        return rows, kernel.zero
    twin = row_evaluation_of(evaluate)
    found = None if twin is None else twin(game)
    return None if found is None else (rows, found)


def search(
    game: Game[Any, Any],
    found: Route,
    state: Any,
    depth: int,
    *,
    nodes: int,
    start_clock: Callable[[], Callable[[], bool]],
    ties: bool,
) -> tuple[float, Any, SearchStats]:
    """``alphabeta.search`` of ``state`` on the kernel (``found`` is ``route``'s answer).

    ``start_clock()`` starts a time budget (``timing.deadline``): it is called once the kernel
    is compiled (or loaded from numba's cache) and has the root set up, so the seconds a
    process's first search spends compiling do not eat its budget. The clock is read at the
    same nodes as the Python search reads ``stop``.

    Raises:
        ValueError: if ``state`` is terminal.
    """
    import numpy as np

    from purestate.agents.alphabeta import SearchStats

    if game.is_over(state):
        raise ValueError("search() needs a state where someone is to move; the game is over")
    rows, evaluation = found
    kt = _kernel()
    max_depth = depth if depth > 0 else game.spec.max_length
    run = kt.searcher(rows.legal, rows.step, rows.player, rows.returns, evaluation)
    # the stack: a level per ply of the line (it doubles on ``DEEP``)
    levels = min(max_depth, game.spec.max_length, START_LEVELS) + 2
    srows = np.zeros((levels, rows.width), np.int64)
    smoves = np.zeros((levels, rows.max_moves), np.int64)
    sints = np.zeros((levels, kt.INT_COLUMNS), np.int64)
    sfloats = np.zeros((levels, kt.FLOAT_COLUMNS), np.float64)
    srows[0] = rows.row_of(state)
    parent = np.zeros(rows.width, np.int64)
    kid = np.zeros(rows.width, np.int64)
    moves = np.zeros(rows.max_moves, np.int64)
    root_moves = np.zeros(rows.max_moves, np.int64)
    n_root = int(rows.legal(srows[0], root_moves))
    smoves[0] = root_moves
    root_values = np.zeros(rows.max_moves, np.float64)
    tied = np.zeros(rows.max_moves, np.bool_)
    counters = np.zeros(kt.COUNTERS, np.int64)
    counters[kt.NEXT_POLL] = kt.POLL_NODES
    counters[kt.ITERATION] = 1
    counters[kt.PHASE] = kt.ITERATE
    counters[kt.RESULT_MOVE] = root_moves[0]
    values = np.zeros(kt.VALUES, np.float64)
    cap = START_TABLE  # a power of two, doubled whenever it is half full
    tkeys = np.zeros((cap, rows.width), np.int64)
    tints = np.full((cap, kt.TABLE_COLUMNS), kt.EMPTY, np.int64)
    tvalues = np.zeros(cap, np.float64)
    limit = nodes if nodes > 0 else 0
    p0 = game.to_move(state)

    def resume(polls: bool, until: int) -> int:
        status: int = run(
            srows, smoves, sints, sfloats, parent, kid, moves, root_moves, n_root, root_values,
            tied, counters, values, tkeys, tints, tvalues, ties, limit, polls, until, p0,
        )  # fmt: skip
        return status

    # a call that searches nothing (no iteration is as deep as 0) compiles the kernel, or loads
    # it from numba's cache: the clock starts after it
    resume(False, 0)
    stop = start_clock()
    polls = stop is not never
    while True:
        status = resume(polls, max_depth)
        if status == kt.POLL:
            if stop():
                break
            continue
        if status == kt.ROOM:
            cap *= 2
            new_keys = np.zeros((cap, rows.width), np.int64)
            new_ints = np.full((cap, kt.TABLE_COLUMNS), kt.EMPTY, np.int64)
            new_values = np.zeros(cap, np.float64)
            kt.grow_table(tkeys, tints, tvalues, new_keys, new_ints, new_values)
            tkeys, tints, tvalues = new_keys, new_ints, new_values
            continue
        if status == kt.DEEP:
            srows = np.concatenate([srows, np.zeros_like(srows)])
            smoves = np.concatenate([smoves, np.zeros_like(smoves)])
            sints = np.concatenate([sints, np.zeros_like(sints)])
            sfloats = np.concatenate([sfloats, np.zeros_like(sfloats)])
            continue
        break  # DONE or OUT
    listed = [int(m) for m in root_moves[:n_root]]
    best_move = int(counters[kt.RESULT_MOVE])
    value = float(values[kt.RESULT_VALUE])
    proven = bool(counters[kt.PROVEN])
    if ties and counters[kt.COMPLETED] > 0:
        tied_moves = tuple(m for m, t in zip(listed, tied[:n_root].tolist(), strict=True) if t)
    else:
        tied_moves = (best_move,)
    stats = SearchStats(
        int(counters[kt.NODES]), int(counters[kt.COMPLETED]), int(counters[kt.EVALUATIONS]),
        int(counters[kt.TABLE_SIZE]), proven, tied_moves,
    )  # fmt: skip
    return value, best_move, stats

"""The MCTS tree compiled: ``agents.mcts``'s search with the solver, UCB1 with decisive expansion
or PUCT, on arrays, generic over a game's row functions (``core.hooks.Rows``): the functions
below are templates, compiled once per game with its functions bound to their global names
(``core.compiled.jit_bound``, so numba's on-disk cache keeps each game's tree).

The same search as the Python tree operation for operation, so the same key gives the same tree
(``properties/test_compiled_tree_props.py`` compares them node for node):

* a node is a row of ``ints`` (``N`` visits, ``MOVER``, ``PLAYER``, ``MOVE`` into it, its
  children as a list in the order they were made: ``FIRST``, ``NEXT`` sibling, ``LAST``; its
  untried moves ``arena[USTART : USTART + UCOUNT]``, popped from the end) and of ``floats``
  (``W``, ``PROVEN`` -1 for none, ``LOWER``, ``PRIOR``), its state a row of ``rows``;
* UCB1: a new node's moves are shuffled on the counter stream of the shuffle key (Fisher-Yates
  from the end, ``int(draw(s, j) * (i + 1))``, ``j`` counting the search's shuffle draws) and
  the moves that end the game (the game's ``ending`` kernel's, else every move stepped) become
  proven children at once; children are scored ``w / n + lg / sqrt(n)`` with ``lg = c *
  sqrt(log(N))``, the first best kept;
* PUCT: a leaf gets every child at once in ``legal``'s order, the game-ending ones proven;
  children are scored ``Q + c_prior * P * sqrt(N) / (1 + n)``, an unvisited one worth ``q0``
  (its parent's mean to the player choosing); the priors arrive with the leaf's evaluation
  (uniform after a playout), the root's mixed with Dirichlet draws made in Python;
* the backup raises results to a node's lower bound; a proven leaf proves its ancestors in turn.

``tree(...)`` is ``run`` compiled for one game's functions. It returns between simulations, its
position kept in ``counters``: when the simulation budget (or the chunk a timed search asks for)
is spent, when the root is proven, when the arrays are nearly full (``ROOM``: the caller grows
them and calls again), or in the middle of a round, at the leaves the evaluator must value
(``EVALUATE``: their count in ``counters``, each leaf, depth and simulation in ``pend``, its path
in ``paths``; the next call takes off their virtual losses and finishes their simulations with
the values and priors, in order, as ``mcts._simulations`` does)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit, jit_bound
from purestate.core.memo import memo
from purestate.games.kernels.stream import draw, seed

# columns of ``ints``
N, MOVER, PLAYER, MOVE, FIRST, NEXT, LAST, USTART, UCOUNT = range(9)
INT_COLUMNS = 9
# columns of ``floats``
W, PROVEN, LOWER, PRIOR = range(4)
FLOAT_COLUMNS = 4
# entries of ``counters``: nodes and arena entries used, shuffle draws made, simulations run,
# whether the search's first call has set the root up, and how many leaves wait for their
# evaluations (rows of ``pend``)
SIZE, USED, DRAWS, SIMS, BEGUN, PENDING = range(6)
COUNTERS = 6
# columns of ``pend``: a waiting leaf, its depth on its path (its row of ``paths``) and the number
# of its simulation (its key's)
LEAF, DEPTH, SIM = range(3)
PEND_COLUMNS = 3

DONE = 0
"""``run`` stopped: the budget or chunk is spent, or the root is proven."""
ROOM = 1
"""``run`` stopped before a simulation that might not fit the arrays: grow them, call again."""
EVALUATE = 2
"""``run`` stopped with ``counters[PENDING]`` leaves that need the evaluator (rows of ``pend``
and ``paths``): call again with their values (and priors under PUCT) to finish them."""

RANDOM, DECISIVE, ANTIDECISIVE = range(3)
"""The playout: the game's ``playout0``, or its ``decisive0`` without or with ``anti``."""

NONE = -1

# The game's row functions (``core.hooks.Rows``) the templates below call: ``tree`` binds them
# in compiled copies of ``_terminal``, ``expand`` and ``run``, one set per game.
legal: Any = None
step: Any = None
player_of: Any = None
reward0: Any = None
playout0: Any = None
decisive0: Any = None
ending: Any = None
returns: Any = None


@memo(size=None, why="one compiled tree per game's row functions: a handful per process")
def tree(
    legal: Any, step: Any, player_of: Any, reward0: Any, playout0: Any, decisive0: Any, ending: Any
) -> Any:
    """``run`` compiled for one game's row functions (``decisive0`` ``no_decisive`` and
    ``ending`` ``legal`` where the game has none), from numba's on-disk cache after the first
    time (``core.compiled.jit_bound``)."""
    fns = {"legal": legal, "step": step, "player_of": player_of, "reward0": reward0,
           "playout0": playout0, "decisive0": decisive0, "ending": ending}  # fmt: skip
    terminal = jit_bound(_terminal, {"reward0": reward0})
    grow = jit_bound(expand, {**fns, "_terminal": terminal})
    grow_all = jit_bound(expand_all, {**fns, "_terminal": terminal})
    return jit_bound(run, {**fns, "_terminal": terminal, "expand": grow, "expand_all": grow_all})


@jit
def no_decisive(row: npt.NDArray[np.int64], k: int, anti: bool) -> float:
    """The ``decisive0`` argument of a game without a decisive kernel (never called)."""
    return 0.0


GENERIC_MOVES = 256
"""The most legal moves a game may have for ``generic_decisive`` (its move buffers' size)."""


@memo(size=None, why="one compiled playout per game's row functions: a handful per process")
def generic_decisive(
    legal: Any, step: Any, player_of: Any, reward0: Any, returns: Any, ending: Any
) -> Any:
    """``_generic_decisive0`` compiled for one game's row functions (``Rows.returns`` among
    them, ``ending`` ``legal`` where the game has none; ``Rows.max_moves`` at most
    ``GENERIC_MOVES``): the ``decisive0`` of a game without a decisive kernel of its own."""
    fns = {"legal": legal, "step": step, "player_of": player_of, "reward0": reward0,
           "returns": returns, "ending": ending}  # fmt: skip
    first_win = jit_bound(_first_win, fns)
    return jit_bound(_generic_decisive0, {**fns, "_first_win": first_win})


def _first_win(
    row: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    count: int,
    q: int,
    scratch: npt.NDArray[np.int64],
) -> int:
    # the first of the ``count`` moves that ends the game with its mover ``q`` above 0, or -1
    for i in range(count):
        step(row, moves[i], scratch)
        if player_of(scratch) < 0 and returns(scratch, q) > 0.0:
            return int(moves[i])
    return -1


def _generic_decisive0(row: npt.NDArray[np.int64], k: int, anti: bool) -> float:
    """Player 0's reward at the end of ``mcts.decisive_playout``'s game from the row (over or
    not) with the draws of the counter stream of key ``k`` (passed as ``compiled.as_int64``):
    each ply the first legal move that wins at once, else legal move ``int(r * count)``; with
    ``anti``, the first from there on, cyclically, after which the opponent cannot win at once,
    if any (a template: ``generic_decisive`` binds the game's row functions). Only the moves
    ``ending`` lists can end the game, so only those are stepped to look for a win: the same
    moves in the same order as stepping every legal one, as the pure loop does."""
    s = seed(k)
    j = 0
    moves = np.empty(GENERIC_MOVES, np.int64)
    ends = np.empty(GENERIC_MOVES, np.int64)
    replies = np.empty(GENERIC_MOVES, np.int64)
    board = row.copy()
    child = np.empty_like(row)
    scratch = np.empty_like(row)
    while True:
        p = player_of(board)
        if p < 0:
            return float(reward0(board))
        chosen = _first_win(board, ends, ending(board, ends), p, child)
        if chosen < 0:
            n = legal(board, moves)
            start = int(draw(s, j) * n)
            j += 1
            chosen = moves[start]
            if anti:
                for t in range(n):
                    m = moves[(start + t) % n]
                    step(board, m, child)
                    q = player_of(child)
                    if q < 0:
                        if returns(child, p) < 0.0:
                            continue
                    elif q != p:
                        count = ending(child, replies)
                        if _first_win(child, replies, count, q, scratch) >= 0:
                            continue
                    chosen = m
                    break
        step(board, chosen, child)
        board, child = child, board


@jit
def _new_node(
    ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], v: int, move: int, mover: int
) -> None:
    ints[v, N] = 0
    ints[v, MOVER] = mover
    ints[v, PLAYER] = NONE
    ints[v, MOVE] = move
    ints[v, FIRST] = NONE
    ints[v, NEXT] = NONE
    ints[v, LAST] = NONE
    ints[v, USTART] = 0
    ints[v, UCOUNT] = 0
    floats[v, W] = 0.0
    floats[v, PROVEN] = -1.0
    floats[v, LOWER] = -1.0
    floats[v, PRIOR] = 0.0


@jit
def _append_child(ints: npt.NDArray[np.int64], v: int, ch: int) -> None:
    if ints[v, FIRST] == NONE:
        ints[v, FIRST] = ch
    else:
        ints[ints[v, LAST], NEXT] = ch
    ints[v, LAST] = ch


@jit
def prove(ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], v: int) -> bool:
    """``mcts._prove``: mark ``v`` proven if its children decide it; whether it is proven."""
    best = -1.0
    complete = ints[v, UCOUNT] == 0 and ints[v, FIRST] != NONE
    ch = ints[v, FIRST]
    while ch != NONE:
        pv = floats[ch, PROVEN]
        if pv < 0.0:
            complete = False
        elif pv > best:
            best = pv
            if best >= 1.0:
                break
        ch = ints[ch, NEXT]
    floats[v, LOWER] = best
    if best >= 1.0 or (complete and best >= 0.0):
        mover = ints[v, MOVER]
        floats[v, PROVEN] = best if mover == ints[v, PLAYER] or mover == NONE else 1.0 - best
        return True
    return False


def _terminal(rows: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], v: int, p: int) -> None:
    # a finished game's value for the player ``p`` who moved into it: 1 - reward0 for player 1,
    # which is unit_reward(returns[1]) for returns whose halves are exact (wins, draws, integer
    # margins: the differential property checks every game with rows)
    r0 = reward0(rows[v])
    floats[v, PROVEN] = r0 if p == 0 else 1.0 - r0


def expand(
    has_ending: bool, rows: npt.NDArray[np.int64], ints: npt.NDArray[np.int64],
    floats: npt.NDArray[np.float64], arena: npt.NDArray[np.int64],
    counters: npt.NDArray[np.int64], s_shuffle: np.uint64, moves: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64], v: int,
) -> None:  # fmt: skip
    """``expand_moves`` of the Python tree (decisive on): shuffle ``v``'s moves, make the moves
    that end the game proven children, keep the others untried; prove ``v`` if it can."""
    count = legal(rows[v], moves)
    j = counters[DRAWS]
    for i in range(count - 1, 0, -1):
        r = int(draw(s_shuffle, j) * (i + 1))
        j += 1
        moves[i], moves[r] = moves[r], moves[i]
    counters[DRAWS] = j
    used = counters[USED]
    ints[v, USTART] = used
    n_ends = ending(rows[v], ends) if has_ending else count
    if n_ends == 0:  # no move ends the game: all untried, nothing stepped
        arena[used : used + count] = moves[:count]
        ints[v, UCOUNT] = count
        counters[USED] = used + count
        return
    p = ints[v, PLAYER]
    size = counters[SIZE]
    for i in range(count):
        m = moves[i]
        if has_ending:
            found = False
            for e in range(n_ends):
                if ends[e] == m:
                    found = True
                    break
            if not found:
                arena[used] = m
                used += 1
                continue
        step(rows[v], m, rows[size])
        if player_of(rows[size]) < 0:
            _new_node(ints, floats, size, m, p)
            _terminal(rows, floats, size, p)
            _append_child(ints, v, size)
            size += 1
        else:
            arena[used] = m
            used += 1
    ints[v, UCOUNT] = used - ints[v, USTART]
    counters[USED] = used
    counters[SIZE] = size
    if ints[v, FIRST] != NONE:
        prove(ints, floats, v)


def expand_all(
    rows: npt.NDArray[np.int64], ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64],
    counters: npt.NDArray[np.int64], moves: npt.NDArray[np.int64], v: int,
) -> None:  # fmt: skip
    """``expand_all`` of the Python tree (PUCT): every move of ``v`` a child at once, in
    ``legal``'s order (the priors' order, so the children are consecutive nodes), the ones that
    end the game proven; prove ``v`` if they decide it."""
    count = legal(rows[v], moves)
    p = ints[v, PLAYER]
    size = counters[SIZE]
    for i in range(count):
        m = moves[i]
        step(rows[v], m, rows[size])
        _new_node(ints, floats, size, m, p)
        q = player_of(rows[size])
        if q < 0:
            _terminal(rows, floats, size, p)
        else:
            ints[size, PLAYER] = q
        _append_child(ints, v, size)
        size += 1
    counters[SIZE] = size
    prove(ints, floats, v)


@jit
def _set_prior(
    floats: npt.NDArray[np.float64], ch: int, p: float, i: int, noise: float,
    noise_draws: npt.NDArray[np.float64], noise_total: float,
) -> None:  # fmt: skip
    # ``mcts.set_priors``: the root's priors (``noise`` > 0 only there) mixed as
    # ``mcts.dirichlet_noise`` mixes them, with its draws
    if noise > 0.0:
        p = (1.0 - noise) * p + noise * noise_draws[i] / noise_total
    floats[ch, PRIOR] = p


@jit
def _priors(
    ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], v: int,
    priors: npt.NDArray[np.float64], uniform: bool, noise: float,
    noise_draws: npt.NDArray[np.float64], noise_total: float,
) -> None:  # fmt: skip
    """Node ``v``'s children's priors: ``priors`` in order, or each ``1 / count``, with the
    root's noise (``noise`` 0 elsewhere)."""
    count = 0
    ch = ints[v, FIRST]
    while ch != NONE:
        count += 1
        ch = ints[ch, NEXT]
    i = 0
    ch = ints[v, FIRST]
    while ch != NONE:
        _set_prior(floats, ch, 1.0 / count if uniform else priors[i], i, noise, noise_draws,
                   noise_total)  # fmt: skip
        i += 1
        ch = ints[ch, NEXT]


@jit
def _backup(
    ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], path: npt.NDArray[np.int64],
    depth: int, r0: float, proven: bool,
) -> None:  # fmt: skip
    """Back ``r0`` (player 0's reward) up ``path[: depth + 1]``, each node for its mover,
    raised to a node's proven lower bound; a proven leaf proves its ancestors in turn."""
    for i in range(depth, -1, -1):
        u = path[i]
        low = floats[u, LOWER]
        if low >= 0.0:
            if ints[u, PLAYER] == 0:
                if r0 < low:
                    r0 = low
            elif 1.0 - r0 < low:
                r0 = 1.0 - low
        ints[u, N] += 1
        floats[u, W] += r0 if ints[u, MOVER] == 0 else 1.0 - r0
    if proven:
        for i in range(depth - 1, -1, -1):
            if not prove(ints, floats, path[i]):
                break


def run(
    has_ending: bool, mode: int, max_moves: int, rows: npt.NDArray[np.int64],
    ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64], arena: npt.NDArray[np.int64],
    counters: npt.NDArray[np.int64], sim_keys: npt.NDArray[np.int64], key_base: int, stop: int,
    c: float, s_shuffle: np.uint64, puct: bool, evaluated: bool, c_prior: float, noise: float,
    noise_draws: npt.NDArray[np.float64], noise_total: float, leaves: int, expand_at: int,
    one_round: bool,
    pend: npt.NDArray[np.int64], paths: npt.NDArray[np.int64], values: npt.NDArray[np.float64],
    priors: npt.NDArray[np.float64],
) -> int:  # fmt: skip
    """Rounds of simulations until ``counters[SIMS] == stop``, the root (node 0) is proven, the
    arrays may not hold the next round, or (``evaluated``) a round's leaves need the evaluator
    (``DONE``, ``ROOM`` or ``EVALUATE``); with ``one_round``, ``DONE`` after each round's
    evaluations too (a timed search reads its clock between rounds). A round runs up to
    ``min(leaves, stop - SIMS)`` simulations as ``mcts._simulations`` does: a proven node's
    value backed up at once, a leaf to evaluate put in ``pend`` and ``paths`` under a virtual
    loss, a selection reaching a waiting leaf ending the round, a leaf (not the root) under
    ``expand_at`` visits played out unexpanded (PUCT). The search's first call expands
    an unexpanded root (UCB1) or mixes the noise into a reused root's priors (PUCT), and proves
    the root if its children decide it, as the Python tree does before its loop; the call after
    ``EVALUATE`` finishes the waiting leaves in order with ``values[j]`` (the evaluator's, for
    leaf ``j``'s player to move) and, under PUCT, its children's ``priors[j]``.
    ``sim_keys[i - key_base]`` is simulation ``i``'s playout key; ``noise_draws`` and
    ``noise_total`` the root's Dirichlet draws (``noise`` > 0).
    """
    moves = np.empty(max_moves, np.int64)
    ends = np.empty(max_moves, np.int64)
    if not counters[BEGUN]:
        if not puct and ints[0, PLAYER] >= 0 and ints[0, UCOUNT] == 0 and ints[0, FIRST] == NONE:
            if counters[SIZE] + max_moves > len(ints) or counters[USED] + max_moves > len(arena):
                return ROOM
            expand(has_ending, rows, ints, floats, arena, counters, s_shuffle, moves, ends, 0)
        if puct and noise > 0.0 and ints[0, FIRST] != NONE:  # a reused root, expanded already
            ch = ints[0, FIRST]
            i = 0
            while ch != NONE:
                _set_prior(floats, ch, floats[ch, PRIOR], i, noise, noise_draws, noise_total)
                i += 1
                ch = ints[ch, NEXT]
        if floats[0, PROVEN] < 0.0:
            prove(ints, floats, 0)
        counters[BEGUN] = 1
    if counters[PENDING] > 0:
        # the round's evaluated leaves, finished in order: each value is for its leaf's player
        # to move
        for j in range(counters[PENDING]):
            v = pend[j, LEAF]
            depth = pend[j, DEPTH]
            for i in range(depth + 1):  # the virtual loss off
                ints[paths[j, i], N] -= 1
            x = values[j] if ints[v, PLAYER] == 0 else -values[j]
            u = (x + 1.0) * 0.5
            r0 = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
            if puct:
                _priors(ints, floats, v, priors[j], False, noise if v == 0 else 0.0,
                        noise_draws, noise_total)  # fmt: skip
            _backup(ints, floats, paths[j], depth, r0, False)
        counters[PENDING] = 0
        if one_round:
            return DONE
    while True:
        sims = counters[SIMS]
        if floats[0, PROVEN] >= 0.0 or sims == stop:
            return DONE
        k = min(leaves, stop - sims)
        room = counters[SIZE] + k * (1 + max_moves) <= len(ints)
        if not room or counters[USED] + k * max_moves > len(arena):
            return ROOM
        waiting = 0
        for _ in range(k):
            if floats[0, PROVEN] >= 0.0:
                break
            sims = counters[SIMS]
            path = paths[waiting]  # the next waiting leaf's row, if this one waits
            v = 0
            depth = 0
            path[0] = 0
            collided = False
            shallow = False
            # selection, and expansion of one new node (UCB1) or of a leaf's children (PUCT)
            while floats[v, PROVEN] < 0.0 and ints[v, PLAYER] >= 0:
                q0, u, lg = 0.0, 0.0, 0.0
                if puct:
                    for j in range(waiting):
                        if pend[j, LEAF] == v:
                            collided = True  # a leaf of this round, waiting for its evaluation
                    if collided:
                        break
                    if ints[v, FIRST] == NONE:
                        if ints[v, N] + 1 < expand_at and v != 0:
                            shallow = True  # under the threshold: a playout, no expansion
                            break
                        expand_all(rows, ints, floats, counters, moves, v)
                        break
                    # first-play urgency: an unvisited child is worth its parent's mean to the
                    # player choosing (the root's w is kept for player 1)
                    nn = ints[v, N]
                    q0 = floats[v, W] / nn if nn else 0.5
                    mover = ints[v, MOVER]
                    if (mover if mover >= 0 else 1) != ints[v, PLAYER]:
                        q0 = 1.0 - q0
                    u = c_prior * math.sqrt(nn)
                else:
                    if ints[v, UCOUNT] > 0:
                        left = ints[v, UCOUNT] - 1
                        ints[v, UCOUNT] = left
                        m = arena[ints[v, USTART] + left]
                        ch = counters[SIZE]
                        counters[SIZE] = ch + 1
                        step(rows[v], m, rows[ch])
                        p = ints[v, PLAYER]
                        _new_node(ints, floats, ch, m, p)
                        _append_child(ints, v, ch)
                        depth += 1
                        path[depth] = ch
                        v = ch
                        q = player_of(rows[ch])
                        if q < 0:
                            _terminal(rows, floats, ch, p)
                        else:
                            ints[ch, PLAYER] = q
                            expand(has_ending, rows, ints, floats, arena, counters, s_shuffle,
                                   moves, ends, ch)  # fmt: skip
                        break
                    nv = ints[v, N]
                    lg = c * math.sqrt(math.log(nv)) if nv > 1 else 0.0
                # the first best unproven child: PUCT's score or UCB1's
                best = NONE
                best_score = -1.0
                ch = ints[v, FIRST]
                while ch != NONE:
                    if floats[ch, PROVEN] < 0.0:
                        n = ints[ch, N]
                        if puct:
                            score = (floats[ch, W] / n if n else q0) + u * floats[ch, PRIOR] / (
                                1 + n
                            )
                        else:
                            score = floats[ch, W] / n + lg / math.sqrt(n)
                        if score > best_score:
                            best_score = score
                            best = ch
                    ch = ints[ch, NEXT]
                v = best
                depth += 1
                path[depth] = v
            if collided:
                break
            # the proven value, a playout's, or the evaluator's (back in Python): player 0's
            pv = floats[v, PROVEN]
            if pv >= 0.0:
                mover = ints[v, MOVER]
                if mover == NONE:  # the root, proven as PUCT expanded it: its player's value
                    r0 = pv if ints[v, PLAYER] == 0 else 1.0 - pv
                else:
                    r0 = pv if mover == 0 else 1.0 - pv
            elif evaluated and not shallow:
                # a virtual loss on the path until the evaluation comes
                for i in range(depth + 1):
                    ints[path[i], N] += 1
                pend[waiting, LEAF] = v
                pend[waiting, DEPTH] = depth
                pend[waiting, SIM] = sims
                waiting += 1
                counters[SIMS] = sims + 1
                continue
            else:
                if mode == RANDOM:
                    r0 = playout0(rows[v], sim_keys[sims - key_base])
                else:
                    r0 = decisive0(rows[v], sim_keys[sims - key_base], mode == ANTIDECISIVE)
                if puct and not shallow:
                    _priors(ints, floats, v, priors[0], True, noise if v == 0 else 0.0,
                            noise_draws, noise_total)  # fmt: skip
            _backup(ints, floats, path, depth, r0, pv >= 0.0)
            counters[SIMS] = sims + 1
        if waiting:
            counters[PENDING] = waiting
            return EVALUATE


@jit
def find(
    rows: npt.NDArray[np.int64], ints: npt.NDArray[np.int64], size: int,
    target: npt.NDArray[np.int64], depth: int,
) -> int:  # fmt: skip
    """``mcts.find_subtree`` in arrays: the first node, level by level from the root (node 0)
    over ``depth`` levels and in children's order, whose row is ``target``; -1 if none."""
    queue = np.empty(size, np.int64)
    queue[0] = 0
    start, end = 0, 1
    width = len(target)
    for _ in range(depth):
        if start == end:
            return NONE
        level_end = end
        for i in range(start, level_end):
            v = queue[i]
            same = True
            for k in range(width):
                if rows[v, k] != target[k]:
                    same = False
                    break
            if same:
                return int(v)
            ch = ints[v, FIRST]
            while ch != NONE:
                queue[end] = ch
                end += 1
                ch = ints[ch, NEXT]
        start = level_end
    return NONE


@jit
def extract(
    rows: npt.NDArray[np.int64], ints: npt.NDArray[np.int64], floats: npt.NDArray[np.float64],
    arena: npt.NDArray[np.int64], size: int, top: int, out_rows: npt.NDArray[np.int64],
    out_ints: npt.NDArray[np.int64], out_floats: npt.NDArray[np.float64],
    out_arena: npt.NDArray[np.int64], out_counters: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    """Copy the subtree of node ``top`` into the ``out_`` arrays, ``top`` as node 0 and the rest
    in breadth-first order (the copy ``Node.copy`` makes, in arrays); sets ``SIZE`` and
    ``USED``."""
    new = np.full(size, NONE, np.int64)
    queue = np.empty(size, np.int64)
    queue[0] = top
    new[top] = 0
    end = 1
    i = 0
    while i < end:
        ch = ints[queue[i], FIRST]
        while ch != NONE:
            new[ch] = end
            queue[end] = ch
            end += 1
            ch = ints[ch, NEXT]
        i += 1
    used = 0
    for j in range(end):
        v = queue[j]
        out_rows[j] = rows[v]
        out_floats[j] = floats[v]
        for col in range(INT_COLUMNS):
            out_ints[j, col] = ints[v, col]
        for col in (FIRST, NEXT, LAST):
            if ints[v, col] != NONE:
                out_ints[j, col] = new[ints[v, col]]
        start, count = ints[v, USTART], ints[v, UCOUNT]
        out_arena[used : used + count] = arena[start : start + count]
        out_ints[j, USTART] = used
        used += count
    out_ints[0, NEXT] = NONE  # the root's siblings stay behind
    out_counters[SIZE] = end
    out_counters[USED] = used

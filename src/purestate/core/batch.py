"""Many random games at once: ``playouts(game, states, keys)`` and the keys to feed it.

For the learners and sweeps that want throughput: one call plays a random game from each state
with its key and returns every game's returns as a numpy array. A game with the
``BatchPlayouts`` hook plays them in one compiled call (tic-tac-toe, connect four, ultimate
tic-tac-toe, dots and boxes, where numba is installed); otherwise each is the game's ``playout``
hook, or the rules stepped in Python. Whatever path, game ``i`` is ``random_returns(game,
states[i], keys[i])``, the definition below: the same moves, the same returns.

And many states stepped a ply at a time, as pgx or a vectorised environment does: ``rows`` makes
a batch (an ``(n, width)`` int64 array of the game's rows, ``core.hooks.Rows``, where it has row
kernels and numba is installed; else the states as a tuple), and ``legal_mask``, ``step``,
``players``, ``done``, ``rewards``, ``returns`` and ``random_moves`` answer for every row at
once, compiled over the rows (``games/kernels/batch.py``, in the calling thread below
``PARALLEL_ROWS`` rows, on numba's threads above) or the rules over the tuple, with the same
results. None writes its input; row ``i``'s answer depends on row ``i`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from purestate.core import compiled
from purestate.core import keys as K
from purestate.core.hooks import Rows, batch_playouts_of, move_id_count, playout_of, rows_of

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np
    import numpy.typing as npt

    from purestate.core.game import Game

    Batch: TypeAlias = npt.NDArray[np.int64] | tuple[Any, ...]
    """Many states: an ``(n, width)`` int64 array of rows, or the states as a tuple."""


def random_returns(
    game: Game[Any, Any], state: Any, key: K.Key, draws: K.Draws = "counter"
) -> tuple[float, float]:
    """The returns at the end of the random game from ``state`` that ``key`` draws: each ply
    ``legal(s)[int(r * len(legal(s)))]`` with ``r`` the next draw of ``keys.stream(key)``
    (``draws="mersenne"``: of ``keys.generator(key).random``, the draws before run format 3).

    The definition every playout kernel keeps (the ``Playout`` and ``BatchPlayouts`` hooks,
    compiled or not), stepping the public rules.
    """
    rand = K.draws(key, draws)
    while not game.is_over(state):
        moves = game.legal(state)
        state = game.step(state, moves[int(rand() * len(moves))])
    r = game.returns(state)
    return (float(r[0]), float(r[1]))


def key_range(k: K.Key, start: int, count: int) -> npt.NDArray[np.uint64]:
    """``fold_in(k, i)`` for ``i`` from ``start`` to ``start + count - 1``, as a uint64 array:
    the keys of games ``start``, ``start + 1``, ... of a run, at numpy's speed (the same values
    as ``fold_in``; ``properties/test_core_props.py`` checks them)."""
    import numpy as np

    with np.errstate(over="ignore"):  # 64-bit words wrap, as ``& MASK`` does in ``mix``
        data = np.arange(start, start + count, dtype=np.uint64) ^ np.uint64(0xF01D)
        inner = _mix(data)
        return _mix(np.uint64(k) ^ inner)


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """``keys.mix`` on a uint64 array."""
    import numpy as np

    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def python_batch(
    game: Any, states: Sequence[Any], ks: npt.NDArray[np.uint64]
) -> npt.NDArray[np.float64]:
    """A ``BatchPlayouts`` hook's pure path: the game's ``python_playout`` of each state and
    key (one state for all), as an ``(n, 2)`` array: what a game's batch gives without numba."""
    import numpy as np

    n = len(ks)
    chosen = [states[0]] * n if len(states) == 1 else states
    rows = [game.python_playout(s, K.Key(int(k))) for s, k in zip(chosen, ks, strict=True)]
    return np.array(rows, dtype=np.float64).reshape(n, 2)


def playouts(
    game: Game[Any, Any], states: Sequence[Any], keys: Sequence[int] | npt.NDArray[np.uint64]
) -> npt.NDArray[np.float64]:
    """The returns of a random game from each state with each key, as an ``(n, 2)`` array.

    Args:
        game: Any game.
        states: ``n`` positions, or one position for all ``n`` games.
        keys: ``n`` keys (ints, or a uint64 array such as ``key_range`` gives).

    Returns:
        Row ``i``: ``random_returns(game, states[i], keys[i])``, compiled where the game can.

    Raises:
        ValueError: if there are neither ``n`` states nor one.
    """
    import numpy as np

    ks = np.asarray(keys, dtype=np.uint64).reshape(-1)
    n = len(ks)
    if len(states) not in (1, n):
        raise ValueError(f"playouts needs one state or one per key: {len(states)} states, {n} keys")
    if n == 0:
        return np.zeros((0, 2), dtype=np.float64)
    batch = batch_playouts_of(game)
    if batch is not None:
        out: npt.NDArray[np.float64] = np.asarray(batch(states, ks), dtype=np.float64)
        return out
    one = playout_of(game)
    chosen = [states[0]] * n if len(states) == 1 else states
    rows = [
        one(s, K.Key(int(k))) if one is not None else random_returns(game, s, K.Key(int(k)))
        for s, k in zip(chosen, ks, strict=True)
    ]
    return np.array(rows, dtype=np.float64).reshape(n, 2)


# -- many states stepped at once: the rules over a batch --------------------------------------

NO_MOVE = -1
"""The move ``step`` takes for a finished row: the row stays as it is (any other is refused)."""


def unit_reward(r: float) -> float:
    """A return in [-1, 1] as a reward in [0, 1] (clipped, so margins saturate): what MCTS scores
    a game by, and the ``Rows.reward0`` kernels compute."""
    u = (r + 1.0) * 0.5
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


def _kernels(game: Game[Any, Any]) -> tuple[Rows, Any] | None:
    """The game's rows and their compiled batch functions, or None (the pure rules run)."""
    found = rows_of(game)
    if found is None:
        return None
    module = compiled.kernels("batch")
    if module is None:
        return None
    fns = module.compiled_batch(found.legal, found.step, found.player, found.reward0, found.returns)
    return found, fns


def _array(kernels: Rows, batch: Batch) -> npt.NDArray[np.int64]:
    """The batch as a C-ordered ``(n, width)`` int64 array (the same one when it is already).

    Raises:
        ValueError: for another shape.
    """
    import numpy as np

    a = np.ascontiguousarray(batch, dtype=np.int64)
    if a.ndim != 2 or a.shape[1] != kernels.width:
        raise ValueError(f"a batch of rows is an (n, {kernels.width}) array; got shape {a.shape}")
    return a


def _pure(batch: Batch) -> tuple[Any, ...]:
    if not isinstance(batch, tuple):
        raise ValueError("this game has no row kernels here: its batch is a tuple of states")
    return batch


def rows(game: Game[Any, Any], states: Sequence[Any]) -> Batch:
    """Many states as one batch, what the functions below take: an ``(n, width)`` int64 array of
    the game's rows (``RowKernels``) where it has them and numba is installed, else the states
    themselves as a tuple (the pure rules run, with the same results).

    Args:
        game: Any game.
        states: ``n`` states of ``game``.

    Returns:
        The batch; ``states(game, rows(game, ss))`` equals ``ss``.
    """
    import numpy as np

    found = _kernels(game)
    if found is None:
        return tuple(states)
    kernels = found[0]
    if not states:
        return np.zeros((0, kernels.width), np.int64)
    return np.stack([kernels.row_of(s) for s in states]).astype(np.int64, copy=False)


def states(game: Game[Any, Any], batch: Batch) -> list[Any]:
    """The states of a batch, in order (``rows`` undone)."""
    found = _kernels(game)
    if found is None:
        return list(_pure(batch))
    kernels = found[0]
    return [kernels.state_of(r) for r in _array(kernels, batch)]


def legal_mask(game: Game[Any, Any], batch: Batch) -> npt.NDArray[np.bool_]:
    """Which moves are legal in each state: an ``(n, move_id_count(game))`` bool array whose row
    ``i`` is True exactly at the moves of ``legal(states[i])`` (none for a finished state), in
    the game's move ids (the numbering of ``alphazero``'s policy and the bridges' actions).

    Raises:
        SpecError: if the game's moves are not move ids (ints from 0).
        ValueError: if a legal move is not below ``move_id_count(game)``.
    """
    import numpy as np

    width = move_id_count(game)
    found = _kernels(game)
    if found is None:
        ss = _pure(batch)
        mask = np.zeros((len(ss), width), np.bool_)
        for i, s in enumerate(ss):
            for m in game.legal(s):
                if not (type(m) is int and 0 <= m < width):
                    raise ValueError(f"row {i}: move {m!r} is not a move id below {width}")
                mask[i, m] = True
        return mask
    kernels, fns = found
    a = _array(kernels, batch)
    mask = np.zeros((len(a), width), np.bool_)
    outside = fns.of("masks", len(a))(a, kernels.max_moves, mask)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise ValueError(f"row {i}: a legal move is not a move id below {width}")
    return mask


def step(game: Game[Any, Any], batch: Batch, moves: Sequence[Any] | npt.NDArray[np.int64]) -> Batch:
    """Each state stepped by its move, as a new batch (``batch`` is not written).

    Args:
        game: Any game.
        batch: ``n`` states (``rows``).
        moves: ``n`` moves: a legal move of each state still playing, ``NO_MOVE`` (-1) for
            each finished one, which stays as it is.

    Returns:
        Row ``i`` is ``game.step(states[i], moves[i])`` (``states[i]`` for a finished one).

    Raises:
        ValueError: if there are not ``n`` moves, or naming the first row whose move is not
            legal there.
    """
    import numpy as np

    found = _kernels(game)
    if found is None:
        ss = _pure(batch)
        ms = moves.tolist() if isinstance(moves, np.ndarray) else list(moves)
        _check_count(len(ss), len(ms))
        out = []
        for i, (s, m) in enumerate(zip(ss, ms, strict=True)):
            over = game.is_over(s)
            if over and isinstance(m, int | np.integer) and m == NO_MOVE:
                out.append(s)
            elif not over and m in game.legal(s):
                out.append(game.step(s, m))
            else:
                _refuse(i, m, over)
        return tuple(out)
    kernels, fns = found
    a = _array(kernels, batch)
    ms = np.asarray(moves)
    _check_count(len(a), len(ms))
    if ms.size and not np.issubdtype(ms.dtype, np.integer):
        raise ValueError(f"the moves of a batch of rows are ints; got {ms.dtype}")
    ms = np.ascontiguousarray(ms, dtype=np.int64).reshape(-1)
    out_rows = np.empty_like(a)
    ok = fns.of("steps", len(a))(a, ms, kernels.max_moves, out_rows)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        _refuse(i, int(ms[i]), bool(kernels.player(a[i]) == -1))
    return out_rows


def _check_count(n: int, given: int, what: str = "move") -> None:
    if given != n:
        raise ValueError(f"one {what} per row: {n} rows, {given} {what}s")


def _refuse(i: int, move: Any, over: bool) -> None:
    if over:
        raise ValueError(f"row {i} is finished: its move must be NO_MOVE ({NO_MOVE}), got {move!r}")
    raise ValueError(f"row {i}: {move!r} is not a legal move there")


def players(game: Game[Any, Any], batch: Batch) -> npt.NDArray[np.int64]:
    """The player to move in each state, -1 for a finished one."""
    import numpy as np

    found = _kernels(game)
    if found is None:
        ss = _pure(batch)
        return np.array([-1 if game.is_over(s) else game.to_move(s) for s in ss], np.int64).reshape(
            len(ss)
        )
    kernels, fns = found
    a = _array(kernels, batch)
    out: npt.NDArray[np.int64] = fns.of("players", len(a))(a)
    return out


def done(game: Game[Any, Any], batch: Batch) -> npt.NDArray[np.bool_]:
    """Whether each state is finished."""
    out: npt.NDArray[np.bool_] = players(game, batch) == -1
    return out


def rewards(game: Game[Any, Any], batch: Batch) -> npt.NDArray[np.float64]:
    """Player 0's reward in [0, 1] of each finished state, ``unit_reward(returns(s)[0])`` (what
    MCTS scores a game by: 1 a win, 0.5 a draw, 0 a loss; margins clipped), NaN for a state still
    playing. Compiled (``Rows.reward0``) where the game has row kernels."""
    import numpy as np

    found = _kernels(game)
    if found is None:
        ss = _pure(batch)
        return np.array(
            [unit_reward(game.returns(s)[0]) if game.is_over(s) else np.nan for s in ss],
            np.float64,
        ).reshape(len(ss))
    kernels, fns = found
    a = _array(kernels, batch)
    out: npt.NDArray[np.float64] = fns.of("rewards", len(a))(a)
    return out


def returns(game: Game[Any, Any], batch: Batch) -> npt.NDArray[np.float64]:
    """The returns of each state, ``game.returns(s)`` as an ``(n, 2)`` array (zeros before the
    end, as the rules say), exact whatever their scale (a margin too). Compiled
    (``Rows.returns``) where the game has row kernels with returns, the rules in Python for the
    finished rows otherwise."""
    import numpy as np

    found = _kernels(game)
    if found is not None and found[1].has("returns"):
        kernels, fns = found
        a = _array(kernels, batch)
        out: npt.NDArray[np.float64] = fns.of("returns", len(a))(a)
        return out
    ss = states(game, batch)
    finished = done(game, batch)
    out = np.zeros((len(ss), 2), np.float64)
    for i in np.flatnonzero(finished):
        out[i] = game.returns(ss[i])
    return out


def random_moves(
    game: Game[Any, Any], batch: Batch, keys: Sequence[int] | npt.NDArray[np.uint64]
) -> npt.NDArray[np.int64] | list[Any]:
    """A random legal move of each state from its key: ``legal(s)[int(r * len(legal(s)))]``,
    ``r`` the first draw of ``keys.stream(key)`` (``random_returns``' choice); ``NO_MOVE`` for a
    finished state. An int64 array for a batch of rows, a list of moves otherwise.

    Raises:
        ValueError: if there are not ``n`` keys.
    """
    import numpy as np

    ks = np.asarray(keys, dtype=np.uint64).reshape(-1)
    found = _kernels(game)
    if found is None:
        ss = _pure(batch)
        _check_count(len(ss), len(ks), "key")
        chosen: list[Any] = []
        for s, k in zip(ss, ks, strict=True):
            moves = game.legal(s)
            chosen.append(moves[int(K.draw(K.Key(int(k)), 0) * len(moves))] if moves else NO_MOVE)
        return chosen
    kernels, fns = found
    a = _array(kernels, batch)
    _check_count(len(a), len(ks), "key")
    out: npt.NDArray[np.int64] = fns.of("random_moves", len(a))(
        a, ks.view(np.int64), kernels.max_moves
    )
    return out

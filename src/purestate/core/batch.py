"""Many random games at once: ``playouts(game, states, keys)`` and the keys to feed it.

For the learners and sweeps that want throughput: one call plays a random game from each state
with its key and returns every game's returns as a numpy array. A game with the
``BatchPlayouts`` hook plays them in one compiled call (tic-tac-toe, connect four, ultimate
tic-tac-toe, dots and boxes, where numba is installed); otherwise each is the game's ``playout``
hook, or the rules stepped in Python. Whatever path, game ``i`` is ``random_returns(game,
states[i], keys[i])``, the definition below: the same moves, the same returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from purestate.core import keys as K
from purestate.core.hooks import batch_playouts_of, playout_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from purestate.core.game import Game


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

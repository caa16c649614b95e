"""Pure random keys.

A key is a 64-bit int. Nothing here holds state: every draw is a function of the key, so the
same key gives the same draw on any machine, in any process, in any order.

Conventions (as in JAX and pgx): a function that receives a key either *consumes* it (draws from
it) or *splits*/*folds* it into children, never both. Loops derive one child per step with
``fold_in(key, i)``, which is also how per-game keys are made from an experiment key, so game
``i`` of a run does not depend on how many games came before it or on which worker plays it.

The mixer is SplitMix64's finaliser: a few multiplications and shifts on Python ints, a few
hundred nanoseconds per draw.

**The counter stream.** A playout draws many numbers from one key. ``stream(k)`` gives them:
draw ``j`` of key ``k`` is ``draw(k, j)``, a 32-bit half of SplitMix64's output number ``j // 2``
from the seed ``k ^ STREAM_SALT`` (the high half for even ``j``) over 2**32, and a move is
``moves[int(r * len(moves))]``, which is exactly the multiply-shift ``(h * n) >> 32`` of the half
``h`` (no rounding: both factors fit a double's 53 bits), biased by less than ``n / 2**32``.
Every draw is a pure function of ``(k, j)`` on 64-bit words with wrapping arithmetic, so the
compiled kernels (``purestate.games.kernels``) compute the same draws as the pure Python ones, bit
for bit (``properties/test_kernels_props.py`` checks it), and a playout costs no seeding
(``generator``'s ``random.Random(int)`` costs about 9 µs, more than a whole tic-tac-toe playout).
Two draws per mix halve the pure path's cost per draw.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, NewType, TypeVar

Key = NewType("Key", int)

MASK = (1 << 64) - 1
"""A key's 64 bits: every derivation keeps ``& MASK`` of its result."""
_GOLDEN = 0x9E3779B97F4A7C15
_T = TypeVar("_T")


def mix(z: int) -> int:
    """SplitMix64's finaliser on a 64-bit int: the mixer every key derivation is defined by
    (``fold_in(k, i)`` is ``mix(k ^ mix((i & MASK) ^ 0xF01D))``)."""
    z = (z + _GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def key(seed: int) -> Key:
    """Return the root key of an experiment seed.

    Args:
        seed: Any int (negative and huge seeds are folded into 64 bits).

    Returns:
        The key.
    """
    return Key(mix(mix(seed & MASK) ^ 0x5EED))


# fold_in's inner mix of small data (plies, simulations, seats) is a table look-up: the same
# values, one mix fewer per derived key in the learners' hot loops
_SMALL = 4096
_FOLD = tuple(mix(i ^ 0xF01D) for i in range(_SMALL))


def fold_in(k: Key, data: int) -> Key:
    """Derive the child key number ``data`` of ``k`` (for game i, ply i, simulation i, ...)."""
    if 0 <= data < _SMALL:
        return Key(mix(k ^ _FOLD[data]))
    return Key(mix(k ^ mix((data & MASK) ^ 0xF01D)))


def fold_bits(k: Key, data: int) -> int:
    """``bits(fold_in(k, data))`` in one call: 64 random bits for step ``data`` of a loop.

    The two mixes are written out here because this is the per-ply draw of the fused learning
    loops; ``properties/test_core_props.py`` checks it equals the composition.
    """
    z = k ^ (_FOLD[data] if 0 <= data < _SMALL else mix((data & MASK) ^ 0xF01D))
    z = (z + _GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z = (z ^ (z >> 31)) ^ 0xB175
    z = (z + _GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def split(k: Key, n: int = 2) -> tuple[Key, ...]:
    """Derive ``n`` independent keys from ``k``."""
    return tuple(fold_in(k, i + 0x5B117) for i in range(n))


def bits(k: Key) -> int:
    """Consume ``k``: 64 random bits."""
    return mix(k ^ 0xB175)


def uniform(k: Key) -> float:
    """Consume ``k``: a float in [0, 1)."""
    return (bits(k) >> 11) * (1.0 / (1 << 53))


def below(k: Key, n: int) -> int:
    """Consume ``k``: an int in [0, n) (multiply-shift; bias below 2**-50 for board sizes)."""
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, got {n}")
    return (bits(k) * n) >> 64


def choice(k: Key, items: Sequence[_T]) -> _T:
    """Consume ``k``: one element of a non-empty sequence, uniformly."""
    return items[below(k, len(items))]


def weighted_index(k: Key, weights: Sequence[float]) -> int:
    """Consume ``k``: an index drawn with probability proportional to ``weights``.

    Raises:
        ValueError: if the weights do not sum to a positive number.
    """
    total = sum(weights)
    if total <= 0:
        raise ValueError("weighted_index() needs a positive total weight")
    target = uniform(k) * total
    acc = 0.0
    for i, w in enumerate(weights):
        acc += w
        if target < acc:
            return i
    return len(weights) - 1


STREAM_SALT = 0x57EA
"""XORed into a key to seed its counter stream (so the stream of ``k`` is not ``bits(k)``)."""
_UNIT = 1.0 / (1 << 32)
_HALF = (1 << 32) - 1


def draw(k: Key, j: int) -> float:
    """Draw ``j`` (0, 1, 2, ...) of the counter stream of ``k``: a float in [0, 1).

    The definition every playout kernel follows, Python's and the compiled ones: ``x``, SplitMix64's
    finaliser of ``(k ^ STREAM_SALT) + (j // 2 + 1) * 0x9E3779B97F4A7C15`` modulo 2**64; its high
    32 bits for even ``j``, its low 32 for odd, over 2**32. A move drawn from ``n`` is
    ``int(r * n)``, exactly ``(h * n) >> 32`` for the half ``h``.
    """
    x = mix(((k ^ STREAM_SALT) + (j >> 1) * _GOLDEN) & MASK)
    return ((x & _HALF) if j & 1 else (x >> 32)) * _UNIT


def _counter(seed: int) -> Iterator[float]:
    z = seed
    while True:
        # ``mix`` written out (a call per draw costs a tenth of a playout), two draws a mix
        z = (z + _GOLDEN) & MASK
        x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
        x ^= x >> 31
        yield (x >> 32) * _UNIT
        yield (x & _HALF) * _UNIT


def stream(k: Key) -> Callable[[], float]:
    """Consume ``k``: a function returning ``draw(k, 0)``, ``draw(k, 1)``, ... in turn.

    The draws of a playout: no seeding, a few hundred nanoseconds a draw in Python, and the same
    draws in the compiled kernels. Like ``generator``'s, the function holds its place in the
    stream, so it must stay local to the caller and never cross a function boundary.
    """
    return _counter((k ^ STREAM_SALT) & MASK).__next__


Draws = Literal["counter", "mersenne"]
"""Where a playout draws from: ``"counter"`` (``stream``, today's, compiled alike) or
``"mersenne"`` (``generator(k).random``, what playouts drew before run format 3; kept so old runs
mean what they meant, pure Python only)."""


def draws(k: Key, source: Draws) -> Callable[[], float]:
    """Consume ``k``: the draws of a playout from ``source`` (``stream(k)`` or
    ``generator(k).random``)."""
    return stream(k) if source == "counter" else generator(k).random


def generator(k: Key) -> _random.Random:
    """Consume ``k``: a fresh local ``random.Random`` for a hot loop (a rollout, a playout).

    The generator is created here and must stay local to the caller; it never crosses a function
    boundary. ``random.Random(int)`` is seeded identically on every platform.
    """
    return _random.Random(bits(k))

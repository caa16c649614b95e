"""``keys.draw`` compiled: the counter stream on unsigned 64-bit words."""

from __future__ import annotations

import numpy as np

from purestate.core import keys
from purestate.core.compiled import jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_SALT = np.uint64(keys.STREAM_SALT)
_UNIT = 1.0 / (1 << 32)
_HALF = np.uint64(0xFFFFFFFF)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@jit
def seed(k: int) -> np.uint64:
    """The stream's seed of a key passed as ``compiled.as_int64(k)``: ``k ^ STREAM_SALT``."""
    return np.uint64(k) ^ _SALT


@jit
def mix(z: np.uint64) -> np.uint64:
    """``keys.mix`` on a 64-bit word: the one SplitMix64 step every compiled draw goes through."""
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _C1
    z = (z ^ (z >> _S27)) * _C2
    return z ^ (z >> _S31)


@jit
def draw(s: np.uint64, j: int) -> float:
    """Draw ``j`` of the stream whose seed is ``s``: ``keys.draw(k, j)`` for ``s = seed(k)``."""
    z = mix(np.uint64(s) + np.uint64(j >> 1) * _GOLDEN)
    return float(z & _HALF if j & 1 else z >> _S32) * _UNIT


@jit
def key_draw(k: int, j: int) -> float:
    """``keys.draw(k, j)`` for ``k`` passed as ``compiled.as_int64(k)``: the stream as the
    kernels draw it."""
    return draw(seed(k), j)

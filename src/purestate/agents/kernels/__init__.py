"""Compiled search kernels, imported only where numba is (``purestate.core.compiled.kernels``
with ``AGENT_KERNELS``).

Each module is the numba twin of a search in ``purestate.agents``, which stays the reference and
the fallback: the same choices from the same key, checked by differential properties. A kernel
never names a game: it takes a game's compiled row functions (``core.hooks.Rows``) as arguments.
"""

"""Compiled playout kernels, one module per game, imported only where numba is
(``purestate.core.compiled.kernels``).

Each module is the numba twin of the pure Python kernels in its game's module, which stay the
reference and the fallback: the same draws (``stream.draw``, the compiled ``keys.draw``), the same
moves, the same returns, bit for bit (``properties/test_kernels_props.py``). A kernel takes and
returns plain ints and numpy arrays, never a game's state object: the game's module turns its
state into the kernel's arguments.
"""

"""Compiled solver kernels, one module per solver, imported only where numba is
(``purestate.core.compiled.kernels(name, SOLVER_KERNELS)``).

Each module is the numba twin of a pure solver in ``purestate.solve``, which stays the reference
and the fallback: the same table, entry for entry (the differential tests compare them).
"""

"""Compiled evaluations, imported only where numba is (``purestate.core.compiled.kernels`` with
``HEURISTIC_KERNELS``).

Each module is the numba twin, on a game's rows (``core.hooks.Rows``), of an evaluation in
``purestate.heuristics``, which stays the reference: the same float for the same position,
checked by a property. The evaluation hands its twin to the compiled alpha-beta through its
``row_evaluation(game)`` hook (``core.game.RowEvaluation``).
"""

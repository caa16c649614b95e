"""Compiled kernels: numba's machine code for the hot loops, where numba is installed.

The pure Python kernels (a game's ``playout``, ``decisive_playout``, ``playouts``) are the
reference. Where numba imports, a game hands the same work to its kernel module in
``purestate.games.kernels``, compiled on first use and kept in numba's on-disk cache; the two
give the same results bit for bit (both draw from ``keys.stream``; the differential properties
in ``properties/test_kernels_props.py`` check every game that has a kernel). Which path numba
offers is ``backend()``, which path a process took is ``used()``; a selfplay run records the
latter (``kernels.jsonl``), though results never depend on it.

numba is imported on the first call that wants a kernel, not when a game is imported: ``import
purestate`` and the command line's start stay as quick as before. Setting ``NUMBA_DISABLE_JIT=1``
(numba reads it) gives the pure path everywhere.

The cache is a memo on disk: a compiled function depends only on its source and numba's version,
so it changes speed, never results. numba chooses the folder (``NUMBA_CACHE_DIR`` if the shell
sets it, else ``__pycache__`` beside the kernel module if writable, else the user's cache folder);
where none is writable the kernels compile in memory on each process's first call.
"""

from __future__ import annotations

import hashlib
import importlib
import types
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, TypeVar

from purestate.core.memo import memo

_F = TypeVar("_F", bound=Callable[..., Any])


@memo(size=None, why="no argument: numba is importable or not, once per process")
def _numba() -> ModuleType | None:
    try:
        import numba
    except ImportError:  # the pure path: numba is optional where it has no wheels
        return None
    if getattr(numba.config, "DISABLE_JIT", False):
        return None
    found: ModuleType = numba  # typed alike with or without numba installed
    return found


def backend() -> str:
    """Which kernels run: ``"numba X.Y.Z"``, or ``"python"`` without numba (or with
    ``NUMBA_DISABLE_JIT=1``). Results are the same either way."""
    nb = _numba()
    return "python" if nb is None else f"numba {nb.__version__}"


def used() -> str:
    """Which kernels this process has run: ``backend()`` once a compiled kernel was asked for
    (numba is imported on that first call, never before), ``"python"`` until then. What a run
    records (``kernels.jsonl`` in a selfplay run folder): free to ask, as it imports nothing."""
    return backend() if loaded() else "python"


def loaded() -> bool:
    """Whether numba is already imported in this process (asking costs nothing then)."""
    return _numba.cache_info().currsize > 0 and _numba() is not None


GAME_KERNELS = "purestate.games.kernels"
# a string, as in the registry: core names the solvers' package without importing that layer
SOLVER_KERNELS = "purestate.solve.kernels"
AGENT_KERNELS = "purestate.agents.kernels"
HEURISTIC_KERNELS = "purestate.heuristics.kernels"


@memo(size=None, why="one entry per kernel module: a handful")
def kernels(module: str, package: str = GAME_KERNELS) -> ModuleType | None:
    """The compiled kernel module ``<package>.<module>``, or None without numba.

    ``package`` is ``GAME_KERNELS`` (the rules' playouts), ``SOLVER_KERNELS`` (the exact
    solvers'), ``AGENT_KERNELS`` (the searches': the compiled MCTS tree and alpha-beta) or
    ``HEURISTIC_KERNELS`` (evaluations' twins on rows). Importing it
    compiles nothing; each kernel compiles (or loads from the cache) on
    its first call.
    """
    if _numba() is None:
        return None
    return importlib.import_module(f"{package}.{module}")


def jit(function: _F) -> _F:
    """``numba.njit`` with the on-disk cache where numba finds a folder it may write, without
    it where it finds none (numba refuses ``cache=True`` there rather than compiling anyway).

    Only the kernel modules call this, and only once numba imported.
    """
    nb = _numba()
    assert nb is not None, "kernel modules are imported only when numba is"
    try:
        compiled: _F = nb.njit(cache=True)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        compiled = nb.njit(function)
    return compiled


def jit_bound(
    template: Callable[..., Any], bindings: Mapping[str, Any], parallel: bool = False
) -> Any:
    """``jit`` of a copy of the plain function ``template`` whose global names ``bindings`` are
    other compiled functions: one generic kernel (the compiled MCTS tree, the batch functions)
    specialised for one game's functions, kept in numba's on-disk cache like every kernel;
    ``jit_parallel`` with ``parallel`` (the batch functions' ``prange`` loops).

    numba would also specialise a kernel that takes the functions as arguments, but it keys such
    an argument by the function object of the running process: its cache never finds the entry
    again, and every process compiles anew (seconds) and adds one. Here the copy's name carries a
    digest of the bound functions' names and bytecode, and of the helpers and module constants
    they reach by name (``_fingerprint``), so each binding has its own cache entry and a changed
    game function, helper or row layout gets a new one (numba checks the template's own source).
    """
    nb = _numba()
    assert nb is not None, "kernel modules are imported only when numba is"
    digest = hashlib.sha256()
    seen: set[Any] = set()
    for name in sorted(bindings):
        found = bindings[name]
        py = getattr(found, "py_func", found)
        digest.update(f"{name}={py.__module__}.{py.__qualname__}".encode())
        _fingerprint(digest, py, seen)
    copy = types.FunctionType(
        template.__code__,
        {**template.__globals__, **bindings},
        template.__name__,
        template.__defaults__,
        template.__closure__,
    )
    # the serial and parallel copies of one template are two cache entries
    threads = "_parallel" if parallel else ""
    copy.__qualname__ = f"{template.__qualname__}{threads}_{digest.hexdigest()[:16]}"
    copy.__module__ = template.__module__
    return jit_parallel(copy) if parallel else jit(copy)


def _fingerprint(digest: Any, py: Any, seen: set[Any]) -> None:
    """Add to ``digest`` what ``py`` compiles to: its bytecode and constants, and those of every
    function it names (a numba dispatcher's Python function), with the values of the plain
    constants and arrays it names, recursively: what numba's cache does not check when they
    live in another module than the kernel compiled."""
    code = py.__code__
    if code in seen:
        return
    seen.add(code)
    digest.update(code.co_code)
    digest.update(repr(code.co_consts).encode())
    names: dict[str, Any] = getattr(py, "__globals__", {})
    for name in code.co_names:
        value: Any = names.get(name)
        inner = getattr(value, "py_func", value)
        if isinstance(inner, types.FunctionType):
            digest.update(f"{name}:".encode())
            _fingerprint(digest, inner, seen)
        elif isinstance(value, bool | int | float | str | tuple):
            digest.update(f"{name}={value!r}".encode())
        elif hasattr(value, "tobytes") and hasattr(value, "dtype"):  # a module's numpy array
            digest.update(f"{name}:{value.dtype}{value.shape}".encode())
            digest.update(value.tobytes())


def jit_inline(function: _F) -> _F:
    """``numba.njit(inline="always")``: a small helper that numba copies into each kernel that
    calls it rather than calling it. A call passing arrays costs their reference counting,
    about 15 ns an array, more than a short helper's work (the compiled alpha-beta's table
    look-ups: 1.8x the search's speed). Not cached on its own: the kernels that call it are, so
    keep it in the same module as they are (numba's cache checks the caller's file only)."""
    nb = _numba()
    assert nb is not None, "kernel modules are imported only when numba is"
    compiled: _F = nb.njit(inline="always")(function)
    return compiled


def jit_parallel(function: _F) -> _F:
    """``jit`` with numba's ``parallel=True``: its ``prange`` loops run on numba's threads
    (as many as cores, ``NUMBA_NUM_THREADS`` says otherwise), for the batch kernels."""
    nb = _numba()
    assert nb is not None, "kernel modules are imported only when numba is"
    try:
        compiled: _F = nb.njit(cache=True, parallel=True)(function)
    except RuntimeError:
        compiled = nb.njit(parallel=True)(function)
    return compiled


def as_int64(k: int) -> int:
    """A 64-bit key as the int64 a kernel takes: the same bits (numba types a Python int above
    2**63 as unsigned, which would compile every kernel twice)."""
    return k - (1 << 64) if k >> 63 else k

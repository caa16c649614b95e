"""Solutions cached on disk (shell side): load or compute, then seed ``purestate.solve``'s memo.

A solver module that can be cached provides ``cache_name(game) -> str`` (a file name that says
what was solved), its solutions provide ``to_array()`` (a numpy array) and the module
``from_array(game, array)`` (its inverse, raising ``ValueError`` on an array that does not fit).
Files are ``.npy`` under the cache folder: ``$PURESTATE_CACHE`` if set, else
``~/.cache/purestate``. Writes are atomic (temporary file, then rename); a damaged or foreign file
is ignored and recomputed, never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
from pathlib import Path
from typing import Any

from purestate.core.game import Game
from purestate.core.hooks import cache_name_of, to_array_of
from purestate.core.spec import format_spec
from purestate.io.files import FileFormatError, open_atomic, read_json, write_json
from purestate.solve import Solution, memoised, remember, require_solvable, solve, solver_for


def cache_dir() -> Path:
    """The folder of cached solutions: ``$PURESTATE_CACHE`` or ``~/.cache/purestate``."""
    env = os.environ.get("PURESTATE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "purestate"


def cache_path(game: Game[Any, Any], folder: Path | None = None) -> Path | None:
    """Where the solution of ``game`` is cached, or None if its solver cannot be cached."""
    module = importlib.import_module(solver_for(game).partition(":")[0])
    name = cache_name_of(module)
    if name is None:
        return None
    return (folder if folder is not None else cache_dir()) / str(name(game))


def _save(path: Path, array: Any) -> None:
    import numpy as np

    with open_atomic(path, binary=True) as f:
        np.save(f, np.asarray(array), allow_pickle=False)


def load_or_solve(game: Game[Any, Any], folder: Path | None = None) -> Solution:
    """The solution of ``game``: from the memo, else from the disk cache, else computed (and then
    written to the cache). Either way it ends in ``purestate.solve``'s memo, so later
    ``solve(game)`` calls in this process are free.

    Args:
        game: The game to solve.
        folder: The cache folder (default: ``cache_dir()``).

    Raises:
        TooLarge: at once, before reading or solving anything, for a game too large to solve.
    """
    import numpy as np

    known = memoised(game)
    if known is not None:
        return known
    require_solvable(game)
    path = cache_path(game, folder)
    if path is None:
        return solve(game)
    module = importlib.import_module(solver_for(game).partition(":")[0])
    if path.exists():
        try:
            sol: Solution = module.from_array(game, np.load(path, allow_pickle=False))
        except (ValueError, OSError, EOFError):
            pass  # damaged or foreign: recompute and replace it
        else:
            remember(game, sol)
            return sol
    sol = solve(game)
    to_array = to_array_of(sol)
    if to_array is not None:
        # a read-only cache folder only costs the next run the time to solve again
        with contextlib.suppress(OSError):
            _save(path, to_array())
    return sol


def _beyond_path(game: Game[Any, Any], folder: Path | None) -> Path:
    spec = format_spec(game.spec.name, game)
    digest = hashlib.sha256(spec.encode()).hexdigest()[:20]
    return (folder if folder is not None else cache_dir()) / f"counts-beyond-{digest}.json"


def known_beyond(game: Game[Any, Any], limit: int, folder: Path | None = None) -> bool:
    """Whether an earlier count found more than ``limit`` positions in ``game`` (cached).

    Walking a game until a count gives up takes seconds (3×3 dots and boxes: about 8 s to pass
    200,000 positions), so the shell remembers the largest limit each game passed, by its spec.
    A missing, damaged or foreign file only means counting again.
    """
    path = _beyond_path(game, folder)
    try:
        data = read_json(path, follow=False)
    except FileFormatError:
        return False
    if not isinstance(data, dict) or data.get("game") != format_spec(game.spec.name, game):
        return False
    passed = data.get("more_than")
    return type(passed) is int and passed >= limit


def remember_beyond(game: Game[Any, Any], limit: int, folder: Path | None = None) -> None:
    """Note that ``game`` has more than ``limit`` positions (see ``known_beyond``)."""
    if known_beyond(game, limit, folder):
        return
    data = {"game": format_spec(game.spec.name, game), "more_than": limit}
    # a read-only cache folder only costs the next run the walk again
    with contextlib.suppress(OSError):
        write_json(_beyond_path(game, folder), data)

"""What every command shares: one-line errors, seeds, output folders, spec parsing."""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from purestate.agents.timing import with_clock
from purestate.core.game import Game, IllegalMove, ParseError
from purestate.core.registry import agent, make_spec
from purestate.core.spec import SpecError
from purestate.io.files import FileFormatError
from purestate.io.tables import TableFile, load_table_agent

P = ParamSpec("P")
R = TypeVar("R")

MAX_GAMES = 10**8
"""The most games one command plays (a bound checked before anything is allocated)."""

MAX_JOBS = 256
"""The most worker processes one command starts."""

console = Console()
err_console = Console(stderr=True)


class UserError(Exception):
    """Bad input from the user: shown as one line, exit code 2."""


def error(message: str) -> None:
    """Print one error line on stderr."""
    # escaped: a message is plain text, and one naming an extra (``purestate[openspiel]``) or
    # a list must reach the user as written, not be read as markup
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)


def fail(message: str) -> NoReturn:
    """Print one error line and exit with code 2."""
    error(message)
    raise typer.Exit(2)


def friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that bad input prints one line and exits 2 instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (UserError, SpecError, ParseError, IllegalMove, FileFormatError) as e:
            fail(str(e))
        except OSError as e:  # the disk is full, a file vanished, ...: the system's own words
            where = f"{e.filename}: " if e.filename else ""
            fail(f"{where}{e.strerror or e}")
        except KeyboardInterrupt:
            error("interrupted")
            raise typer.Exit(130) from None

    return wrapper


def game_from(spec: str) -> Game[Any, Any]:
    """A game from a ``NAME[:key=value,...]`` spec (errors become UserError)."""
    try:
        return make_spec(spec)
    except SpecError as e:
        raise UserError(str(e)) from None


def agent_from(spec: str) -> Any:
    """An agent from a spec string (errors become UserError).

    Agents with a ``seconds`` budget get the clock here: reading the clock is the shell's job.
    The thread's CPU time is used, so a budget means the same on a busy or an idle machine.
    """
    try:
        return _clocked(spec)
    except SpecError as e:
        raise UserError(str(e)) from None


def _clocked(spec: str) -> Any:
    return with_clock(agent(spec), time.thread_time)


def table_from(path: Path, game: Game[Any, Any], spec: str | None) -> tuple[Any, TableFile]:
    """The agent and the table of a table file: the agent the file names, changed by ``spec``
    if given (options laid over the file's for the same agent, or another agent)."""
    try:
        return load_table_agent(path, game, _clocked, spec)
    except SpecError as e:
        raise UserError(str(e)) from None


EXPLORE_HELP = (
    "Let a learning agent explore (ε-greedy, MENACE drawing beads) instead of playing the "
    "moves its table rates best."
)


def default_jobs() -> int:
    """The number of worker processes a command uses by default: one per core."""
    return max(1, os.cpu_count() or 1)


def print_json(data: Any) -> None:
    """Print machine-readable output on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def new_run_dir(root: Path, prefix: str) -> Path:
    """A new, not yet existing folder ``root/prefix-NNN`` (neither is created here)."""
    n = 1
    while (root / f"{prefix}-{n:03d}").exists():
        n += 1
    return root / f"{prefix}-{n:03d}"

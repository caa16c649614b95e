"""The options several commands share, declared once so they read and behave the same everywhere.

Each alias is a typer ``Annotated`` type; a command gives its own default after ``=``.
The help texts here are the only ones for these options: tests/test_options.py checks that
every command that has one of these flags shows this text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from purestate.cli.common import EXPLORE_HELP, MAX_GAMES, MAX_JOBS, default_jobs

SEED_HELP = (
    "Seed of every random choice; the same command with the same seed prints the same figures."
)
JSON_HELP = "Print the figures as JSON on stdout instead of tables."
FORCE_HELP = "Replace what the output folder already holds (a run, a data set, saved games)."
JOBS_HELP = "Local worker processes (the results do not depend on it)."
DASK_HELP = "Run on the Dask scheduler at this address instead of local processes."

Seed = Annotated[int, typer.Option("--seed", help=SEED_HELP)]
AsJson = Annotated[bool, typer.Option("--json", help=JSON_HELP)]
Force = Annotated[bool, typer.Option("--force", help=FORCE_HELP)]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1, max=MAX_JOBS, help=JOBS_HELP)]
Dask = Annotated[str | None, typer.Option("--dask", help=DASK_HELP)]
Explore = Annotated[bool, typer.Option("--explore", help=EXPLORE_HELP)]
Out = Annotated[
    Path | None,
    typer.Option("--out", help="Folder for the results (default: a new one in ./runs)."),
]

RecordsOut = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Write every game into this folder (games.jsonl; `purestate replay`)."
    ),
]
"""--out of the commands that write only their games (evaluate, tron run)."""

# The default of --jobs for the commands that run many games: one process per core.
ALL_CORES = default_jobs()

# --games keeps the unit each command has always counted in (a tournament's games per pair and an
# evaluation's games per seat are what chess and game-AI tools report), so old commands give the
# same figures; every help text names the unit and what it makes in all.
GAMES_HELP = "Games {per}."


def games_option(per: str, *aliases: str, most: int = MAX_GAMES) -> Any:
    """The --games option of a command that counts its games ``per`` something.

    Args:
        per: The unit, e.g. "per seat (2 × N in all)".
        aliases: Older spellings that stay accepted (e.g. ``-multi_test``).
        most: The largest count accepted.
    """
    return typer.Option("--games", *aliases, min=1, max=most, help=GAMES_HELP.format(per=per))

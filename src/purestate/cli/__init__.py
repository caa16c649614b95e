"""The purestate command line (the imperative shell).

Every command lives in its own module under ``purestate.cli`` and is registered here. Commands
parse options, call the pure core, render and save; bad input becomes one line on stderr and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from purestate.cli import common

app = typer.Typer(
    name="purestate",
    help="Two-player board games and the agents that learn and search them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    # One import per command module; each module adds its commands to ``app``.
    from purestate.cli import (  # noqa: F401
        analyze,
        evaluate,
        games,
        menace,
        play,
        selfplay,
        solve,
        sweep,
        tournament,
        tron,
    )


_register()


def main() -> None:
    """Console-script entry point: run the app, turning known errors into one-line messages."""
    try:
        app()
    except common.UserError as e:  # raised outside a command (rare: option parsing hooks)
        common.error(str(e))
        sys.exit(2)

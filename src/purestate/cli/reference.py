"""The command line reference (docs/cli.md), generated from the app itself.

``python -m purestate.cli.reference > docs/cli.md`` rewrites the page; a test fails when the page
and ``--help`` disagree, so the reference never goes stale.
"""

from __future__ import annotations

import typer
import typer.cli

from purestate.cli import app

TITLE = "purestate command line reference"


def markdown() -> str:
    """Every command and option of ``purestate`` as Markdown, from the same text as ``--help``."""
    command = typer.main.get_command(app)
    ctx = typer.Context(command)
    return typer.cli.get_docs_for_click(obj=command, ctx=ctx, name="purestate", title=TITLE)


if __name__ == "__main__":
    print(markdown(), end="")

"""``purestate games`` and ``purestate agents``: what the registries hold."""

from __future__ import annotations

from rich.table import Table

from purestate.cli import app
from purestate.cli.common import console, friendly, print_json
from purestate.cli.options import AsJson
from purestate.core import registry
from purestate.core.spec import option_fields


@app.command("games")
@friendly
def games_command(
    as_json: AsJson = False,
) -> None:
    """List the games and their options."""
    rows: list[dict[str, str]] = []
    for name in registry.games():
        opts = option_fields(registry.game_class(name))
        rows.append({"name": name, "options": ", ".join(sorted(opts)) or "-"})
    if as_json:
        print_json(rows)
        return
    table = Table("game", "options")
    for r in rows:
        table.add_row(r["name"], r["options"])
    console.print(table)


@app.command("agents")
@friendly
def agents_command(
    as_json: AsJson = False,
) -> None:
    """List the agents and their options (use them as NAME:key=value,...)."""
    rows: list[dict[str, str]] = []
    for name in registry.agents():
        opts = option_fields(registry.agent_class(name))
        rows.append({"name": name, "options": ", ".join(sorted(opts)) or "-"})
    if as_json:
        print_json(rows)
        return
    table = Table("agent", "options")
    for r in rows:
        table.add_row(r["name"], r["options"])
    console.print(table)

"""``purestate games`` and ``purestate agents``: what the registries hold, with every option."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.table import Column, Table

from purestate.cli import app
from purestate.cli.common import console, friendly, print_json
from purestate.cli.options import AsJson
from purestate.core import registry
from purestate.core.agent import check_game
from purestate.core.game import Game
from purestate.core.spec import option_docs


def _listing(
    kind: str,
    names: tuple[str, ...],
    cls_of: Callable[[str], type],
    as_json: bool,
    aliases: dict[str, str] | None = None,
    examples: Callable[[str], tuple[str, ...]] | None = None,
) -> None:
    """Each name with its options, their defaults and meanings (the classes' docstrings), the
    old names that still stand for it (``aliases``: old name -> name) and, given ``examples``,
    the specs to try first."""
    # "options" stays the comma-separated names it always was; "details" adds defaults and meanings
    aliases = aliases or {}
    rows: list[dict[str, Any]] = []
    for n in names:
        docs = option_docs(cls_of(n))
        rows.append({"name": n, "options": ", ".join(sorted(o["name"] for o in docs)),
                     "details": docs})  # fmt: skip
        old = sorted(a for a, to in aliases.items() if to == n)
        if old:
            rows[-1]["aliases"] = old
        if examples is not None:
            rows[-1]["examples"] = list(examples(n))
    if as_json:
        print_json(rows)
        return
    # names and option names are never cut: the description column wraps instead
    width = max(len(r["name"]) for r in rows)
    table = Table(
        Column(kind, no_wrap=True, min_width=width, style="bold"),
        Column("option", no_wrap=True),
        Column("default", overflow="fold"),
        Column("meaning", overflow="fold", ratio=1),
        caption=f"use them as NAME:option=value,... (e.g. {_example(rows)})"
        + "".join(f"; {a} is an old name of {to}" for a, to in sorted(aliases.items())),
    )
    for r in rows:
        opts = r["details"] or [{"name": "-", "default": "", "help": ""}]
        for i, o in enumerate(opts):
            table.add_row(r["name"] if i == 0 else "", o["name"], o["default"], _first(o["help"]))
        table.add_section()
    console.print(table)
    if examples is not None:
        tried = ", ".join(e for r in rows for e in r["examples"])
        console.print(f"to try first: {tried}", highlight=False)


def _first(text: str) -> str:
    """The first sentence (the rest is in --json and the docstring)."""
    return re.split(r"(?<=\.)\s+(?=[A-Z])", text, maxsplit=1)[0]


def _example(rows: list[dict[str, Any]]) -> str:
    """A spec string built from the first entry that has an option."""
    for r in rows:
        if r["details"]:
            o = r["details"][0]
            return f"{r['name']}:{o['name']}={o['default']}"
    return str(rows[0]["name"])


@app.command("games")
@friendly
def games_command(
    openspiel: Annotated[
        bool,
        typer.Option(
            "--openspiel",
            help="List the OpenSpiel games purestate plays as openspiel:NAME instead "
            "(needs purestate[openspiel]).",
        ),
    ] = False,
    as_json: AsJson = False,
) -> None:
    """List the games and their options, with defaults and meanings."""
    if openspiel:
        _openspiel_listing(as_json)
        return
    _listing("game", registry.games(), registry.game_class, as_json, examples=_examples)
    if not as_json:
        console.print(
            "and OpenSpiel's two-player games as openspiel:NAME[:key=value,...]: "
            "`purestate games --openspiel` lists them",
            highlight=False,
        )


def _openspiel_listing(as_json: bool) -> None:
    """The OpenSpiel games the bridge plays (``from_openspiel.playable``)."""
    from purestate.interop.from_openspiel import PREFIX, playable

    with console.status("asking OpenSpiel which of its games purestate can play"):
        found = playable()
    if as_json:
        print_json([{"name": f"{PREFIX}:{n}", "long_name": long} for n, long in found])
        return
    table = Table(Column("game", no_wrap=True, style="bold"), "OpenSpiel's name")
    for name, long in found:
        table.add_row(f"{PREFIX}:{name}", long)
    console.print(table)
    console.print(
        f"{len(found)} games; their options are OpenSpiel's parameters, "
        f"e.g. {PREFIX}:breakthrough:rows=5,columns=5",
        highlight=False,
    )


def _examples(name: str) -> tuple[str, ...]:
    """The specs the game ``name`` shows a person first (``GameSpec.examples``)."""
    return registry.make(name).spec.examples


@app.command("agents")
@friendly
def agents_command(
    game: Annotated[
        str | None,
        typer.Option(help="Only the agents that play this game spec (with their defaults)."),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """List the agents and their options (use them as NAME:key=value,...)."""
    names = registry.agents()
    if game is not None:
        g = registry.make_spec(game)
        names = tuple(n for n in names if _plays(n, g))
    _listing("agent", names, registry.agent_class, as_json, registry.agent_aliases())


def _plays(name: str, game: Game[Any, Any]) -> bool:
    """Whether agent ``name``, with its default options, takes ``game`` (its ``check_game``);
    an agent whose optional extra is missing (``alphazero`` without JAX) plays nothing."""
    try:
        check_game(registry.agent(name), game)
    except ValueError:  # SpecError and TooLarge: the agent's one-line refusal
        return False
    return True

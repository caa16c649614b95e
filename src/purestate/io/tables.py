"""Learned tables as versioned JSON files (shell side).

A table file is one JSON object: ``format`` (the agent's format and version, e.g.
``purestate.menace/1``), ``game`` (the game's spec name), ``game_spec`` (the game with its
options, ``dots_and_boxes:rows=3,cols=3``; files written before it was kept lack it), ``agent``
(the spec string that made it), ``seat``, ``games`` (how many training games it has seen), and
the agent's own data at the top level (MENACE: ``boxes``). A file of the wrong format, game or
version is refused with one line naming the file and what is wrong; nothing is ever written over
it by a failed load.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from purestate.core.agent import Agent, Persistent
from purestate.core.game import Game
from purestate.core.hooks import supports_seat
from purestate.core.record import game_spec
from purestate.core.registry import agent as registry_agent
from purestate.core.spec import SpecError
from purestate.io.files import MAX_TABLE_BYTES, FileFormatError, read_json, write_json

_RESERVED = ("format", "game", "game_spec", "agent", "seat", "games")


@frozen
class TableFile:
    """A loaded table and what the file says about it."""

    table: Any
    agent: str
    seat: int
    games: int


def _named(game: Game[Any, Any]) -> str | None:
    """The game's spec string, or None for a game no spec names (Tron on a user's map file)."""
    try:
        return game_spec(game)
    except SpecError:
        return None


def persistent(agent: Agent) -> Persistent:
    """The agent as a ``Persistent`` learner, or a FileFormatError saying it has no table file."""
    if not isinstance(agent, Persistent):
        raise FileFormatError(f"agent {agent.spec!r} has no table to save or load")
    return agent


def table_json(game: Game[Any, Any], agent: Agent, table: Any, seat: int, games: int) -> Any:
    """The JSON document for a table."""
    p = persistent(agent)
    body = p.table_to_json(game, table)
    if not isinstance(body, dict) or any(k in body for k in _RESERVED):
        raise TypeError(f"{agent.spec}: table_to_json must return a dict without {_RESERVED}")
    # A persistent map iterates in an order that depends on how it was built; sorted keys make
    # the file a function of the table's value, so a resumed run writes the same bytes.
    body = json.loads(json.dumps(body, sort_keys=True))
    named = _named(game)
    return {
        "format": p.table_format,
        "game": game.spec.name,
        **({} if named is None else {"game_spec": named}),
        "agent": agent.spec,
        "seat": seat,
        "games": games,
        **body,
    }


def save_table(
    path: Path, game: Game[Any, Any], agent: Agent, table: Any, seat: int, games: int
) -> None:
    """Write a table file atomically."""
    write_json(path, table_json(game, agent, table, seat, games))


def load_table(path: Path, game: Game[Any, Any], agent: Agent, follow: bool = True) -> TableFile:
    """Read a table file written for ``agent``'s format and ``game``.

    Args:
        path: The table file (at most ``MAX_TABLE_BYTES``; never a pipe or a device).
        game: The game it must be for.
        agent: The agent whose format it must have.
        follow: Read through a symbolic link: true for a file the user names (``--table``),
            false for a run folder's own table.

    Raises:
        FileFormatError: one line naming the file and what is wrong.
    """
    p = persistent(agent)
    data = read_json(path, follow, MAX_TABLE_BYTES)
    if not isinstance(data, dict) or "format" not in data:
        raise FileFormatError(f"{path}: not a purestate table file (no 'format' field)")
    fmt = data["format"]
    want = p.table_format
    if fmt != want:
        fam, _, ver = str(fmt).rpartition("/")
        wfam, _, wver = want.rpartition("/")
        if fam == wfam:
            raise FileFormatError(f"{path}: format version {ver} is not supported (need {wver})")
        raise FileFormatError(f"{path}: a {fmt!r} table, but {agent.spec!r} needs {want!r}")
    if data.get("game") != game.spec.name:
        raise FileFormatError(
            f"{path}: a table for {data.get('game')!r}, not for {game.spec.name!r}"
        )
    seat = data.get("seat", 0)
    games = data.get("games", 0)
    if seat not in (0, 1) or not isinstance(games, int) or games < 0:
        raise FileFormatError(f"{path}: bad 'seat' or 'games' field")
    body = {k: v for k, v in data.items() if k not in _RESERVED}
    try:
        table = p.table_from_json(game, body)
    except (ValueError, KeyError, TypeError) as e:
        raise FileFormatError(f"{path}: {e}") from None
    if not supports_seat(p, table, seat):
        raise FileFormatError(f"{path}: its 'seat' is {seat} but its table plays the other seat")
    return TableFile(table, str(data.get("agent", agent.spec)), seat, games)


def table_game(path: Path) -> str:
    """The spec of the game a table file was written for: its ``game_spec``, or for a file from
    before that field its ``game`` (the name: the game with its default options).

    Raises:
        FileFormatError: one line naming the file when it is not a table file.
    """
    data = read_json(path, limit=MAX_TABLE_BYTES)
    spec = data.get("game_spec", data.get("game")) if isinstance(data, dict) else None
    if not isinstance(spec, str) or not spec:
        raise FileFormatError(f"{path}: not a purestate table file (no 'game' field)")
    return spec


def load_table_agent(
    path: Path,
    game: Game[Any, Any],
    make: Callable[[str], Agent] = registry_agent,
) -> tuple[Agent, TableFile]:
    """Read a table file together with the agent that wrote it (its ``agent`` field).

    ``make`` builds the agent from that spec string (the shell passes its own, which gives
    budgeted agents the clock); the table is then read as ``load_table`` reads it.

    Raises:
        FileFormatError: one line naming the file and what is wrong (no or a bad agent spec too).
    """
    data = read_json(path, limit=MAX_TABLE_BYTES)
    spec = data.get("agent") if isinstance(data, dict) else None
    if not isinstance(spec, str) or not spec:
        raise FileFormatError(
            f"{path}: no 'agent' field; name the agent that wrote it with --agent"
        )
    try:
        made = make(spec)
    except SpecError as e:
        raise FileFormatError(f"{path}: its agent {spec!r} is not usable: {e}") from None
    return made, load_table(path, game, made)

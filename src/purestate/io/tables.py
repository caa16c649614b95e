"""Learned tables as files (shell side): versioned JSON, or arrays in a zip archive.

A JSON table file (an agent with ``Persistent``) is one JSON object: ``format`` (the agent's
format and version, e.g. ``purestate.menace/1``), ``game`` (the game's spec name), ``game_spec``
(the game with its options, ``dots_and_boxes:rows=3,cols=3``; files written before it was kept
lack it), ``agent`` (the spec string that made it), ``defaults`` (the version of the defaults
that spec was written under, ``core.history.VERSION``; absent in older files), ``seat``,
``games`` (how many training games it has seen), and the agent's own data at the top level
(MENACE: ``boxes``).

An array table file (an agent with ``ArrayTable``: network parameters, optimizer state, a replay
buffer) is a ``.npz`` zip archive whose ``manifest.json`` holds the same fields, the agent's
``meta`` and each array's name, dtype, shape and SHA-256, beside one ``.npy`` entry per array
(``io.array_tables``; docs/tables.md).

Saving picks the kind by the agent's hook, loading by the file's first bytes, so no command needs
code for an agent. A file of the wrong kind, format, game or version is refused with one line
naming the file and what is wrong; nothing is ever written over it by a failed load.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from purestate.core import history
from purestate.core.agent import Agent, ArrayTable, Persistent
from purestate.core.game import Game
from purestate.core.hooks import array_table_of, supports_seat
from purestate.core.record import game_spec
from purestate.core.registry import agent as registry_agent
from purestate.core.registry import spec_then
from purestate.core.spec import SpecError, merge_spec, parse_spec
from purestate.io.array_tables import (
    SUFFIX,
    Archive,
    archive_bytes,
    is_archive,
    read_archive,
    read_manifest,
)
from purestate.io.files import (
    MAX_TABLE_BYTES,
    FileFormatError,
    json_text,
    open_atomic,
    parse_json,
    read_bytes,
    utf8_text,
)

_RESERVED = ("format", "game", "game_spec", "agent", "seat", "games", "defaults")

TABLE_PLAYER = "table:"
"""How a player is named by the table file it plays from, wherever agents are named by spec:
``table:PATH`` in a tournament's entrants, ``table:RUN/table.json`` as the browser's opponent
(inside its runs folder); ``table:PATH?SPEC`` lays ``SPEC`` over the file's agent
(``table_player``)."""

TABLE_OPTIONS = "?"
"""What separates a table player's path from the spec laid over its agent: the last ``?`` (a
spec never holds one; a path might)."""


def table_player(text: str) -> tuple[str, str | None]:
    """The path and the laid-over spec (None for none) of ``table:PATH`` or ``table:PATH?SPEC``.

    Raises:
        ValueError: text that does not start with ``TABLE_PLAYER``.
    """
    if not text.startswith(TABLE_PLAYER):
        raise ValueError(f"a table player is named {TABLE_PLAYER}PATH, not {text!r}")
    path, over, laid = text.removeprefix(TABLE_PLAYER).rpartition(TABLE_OPTIONS)
    return (path, laid) if over else (laid, None)


@frozen
class TableFile:
    """A loaded table and what the file says about it.

    Attributes:
        table: The table.
        agent: The spec string of the agent that wrote it, as the file says it.
        seat: The seat it plays.
        games: The games it had learned from.
        defaults: The version of the defaults ``agent`` was written under (its ``defaults``
            field), or None for a file from before the field.
    """

    table: Any
    agent: str
    seat: int
    games: int
    defaults: int | None = None


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
    return {**_envelope(game, agent, p.table_format, seat, games), **body}


def _envelope(
    game: Game[Any, Any], agent: Agent, fmt: str, seat: int, games: int
) -> dict[str, Any]:
    """The fields every table file has, whatever its kind."""
    named = _named(game)
    return {
        "format": fmt,
        "game": game.spec.name,
        **({} if named is None else {"game_spec": named}),
        "agent": agent.spec,
        "defaults": history.VERSION,
        "seat": seat,
        "games": games,
    }


def defaults_version(path: Path, data: Any) -> int | None:
    """The version of the defaults a table file's ``agent`` spec was written under (its
    ``defaults`` field, ``core.history.VERSION`` when it was written), or None for a file from
    before the field was kept.

    Raises:
        FileFormatError: a field that is not a version this purestate knows (a newer one's, or a
            forgery).
    """
    version = data.get("defaults") if isinstance(data, dict) else None
    if version is None:
        return None
    if type(version) is not int or not 1 <= version <= history.VERSION:
        raise FileFormatError(
            f"{path}: its 'defaults' field is {reprlib.repr(version)}, not a version this "
            f"purestate reads (1 to {history.VERSION})"
        )
    return version


def _run_version(path: Path) -> int | None:
    """The format of the run folder a table file from before the ``defaults`` field lies in
    (the ``run.json`` beside it, never through a link), which is the version of the defaults
    its run wrote it under; None when there is no such run.json or it says no known format."""
    try:
        beside = path.parent / "run.json"  # io.selfplay's RUN_FILES, which imports this module
        manifest = parse_json(beside, utf8_text(beside, read_bytes(beside, False)))
    except FileFormatError:
        return None
    return history.version_of(manifest, "run") if isinstance(manifest, dict) else None


def spelled_agent(path: Path, data: Any, spec: str) -> str:
    """A table file's agent ``spec`` as it means today: the options whose defaults changed since
    the file was written (its ``defaults`` field; for a file from before the field, the format
    of the run folder it lies in) spelled out at their old values (``core.registry.spec_then``),
    so a table plays as the agent that wrote it; a file without either, as written.

    Raises:
        FileFormatError: a bad ``defaults`` field, or a spec that is not an agent's.
    """
    version = defaults_version(path, data)
    if version is None:
        version = _run_version(path)
    if version is None or version == history.VERSION:
        return spec
    try:
        return spec_then(spec, version)
    except SpecError as e:
        raise FileFormatError(f"{path}: its agent {spec!r} is not usable: {e}") from None


def table_suffix(agent: Agent) -> str:
    """How the name of a file holding ``agent``'s table ends: ``.npz`` for an array table,
    ``.json`` otherwise."""
    return SUFFIX if array_table_of(agent) is not None else ".json"


def table_bytes(game: Game[Any, Any], agent: Agent, table: Any, seat: int, games: int) -> bytes:
    """The bytes of a table file: an array table's archive, or a JSON table's text.

    A function of the table's value: the same table gives the same bytes.

    Raises:
        FileFormatError: the agent has no table to save.
        TypeError: the agent's hook gave data a table file cannot hold (the agent's mistake).
    """
    arrays: ArrayTable | None = array_table_of(agent)
    if arrays is None:
        return json_text(table_json(game, agent, table, seat, games)).encode("utf-8")
    meta, named = arrays.table_to_arrays(game, table)
    if not isinstance(meta, dict) or not isinstance(named, dict):
        raise TypeError(f"{agent.spec}: table_to_arrays must return a dict of meta and of arrays")
    envelope = _envelope(game, agent, arrays.table_format, seat, games)
    return archive_bytes({**envelope, "meta": meta}, named)


def check_table_path(path: Path, agent: Agent) -> None:
    """Refuse, before anything is played, a file name that says the other kind of table: an
    array table is saved as ``NAME.npz``, a JSON table never is.

    Raises:
        FileFormatError: one line naming the file and the ending it needs.
    """
    want = table_suffix(agent)
    if (Path(path).suffix == SUFFIX) != (want == SUFFIX):
        kind = "an array table (a .npz archive)" if want == SUFFIX else "a JSON table"
        raise FileFormatError(
            f"{path}: {agent.spec!r} saves {kind}; give a file name ending in {want}"
        )


def save_table(
    path: Path, game: Game[Any, Any], agent: Agent, table: Any, seat: int, games: int
) -> None:
    """Write a table file atomically (the kind the agent's hook says; see ``check_table_path``).

    Raises:
        FileFormatError: the agent has no table to save, the name's ending says the other kind,
            or the table is larger than a table file may be (``MAX_TABLE_BYTES``); nothing is
            written then.
    """
    check_table_path(path, agent)
    data = table_bytes(game, agent, table, seat, games)
    check_table_size(path, data)
    with open_atomic(path, binary=True) as f:
        f.write(data)


def check_table_size(path: Path, data: bytes) -> None:
    """Refuse to write a table file larger than ``MAX_TABLE_BYTES``: no command could read it.

    Raises:
        FileFormatError: one line naming the file and the sizes.
    """
    if len(data) > MAX_TABLE_BYTES:
        raise FileFormatError(
            f"{path}: the table comes to {len(data):,} bytes, more than the "
            f"{MAX_TABLE_BYTES:,} a table file may hold; not saved"
        )


def _document(path: Path, data: bytes) -> Any:
    """What a table file says about itself: a JSON table's object, an array table's manifest
    (checked, its arrays unread)."""
    if is_archive(data):
        return read_manifest(path, data)
    return parse_json(path, utf8_text(path, data))


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
    arrays: ArrayTable | None = array_table_of(agent)
    p = persistent(agent) if arrays is None else None
    want = arrays.table_format if arrays is not None else persistent(agent).table_format
    raw = read_bytes(path, follow, MAX_TABLE_BYTES)
    archive = None
    if is_archive(raw):
        if arrays is None:
            raise FileFormatError(
                f"{path}: an array table ({SUFFIX} archive), but {agent.spec!r} saves JSON tables"
            )
        archive = read_archive(path, raw)
        data: Any = archive.manifest
    elif arrays is not None:
        raise FileFormatError(
            f"{path}: not an array table ({SUFFIX} archive), which {agent.spec!r} saves"
        )
    else:
        data = parse_json(path, utf8_text(path, raw))
    if not isinstance(data, dict) or "format" not in data:
        raise FileFormatError(f"{path}: not a purestate table file (no 'format' field)")
    fmt = data["format"]
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
    defaults = defaults_version(path, data)
    seat = data.get("seat", 0)
    games = data.get("games", 0)
    if seat not in (0, 1) or not isinstance(games, int) or games < 0:
        raise FileFormatError(f"{path}: bad 'seat' or 'games' field")
    try:
        table = _table_of(game, data, arrays, archive, p)
    except (ValueError, KeyError, TypeError) as e:
        raise FileFormatError(f"{path}: {e}") from None
    if not supports_seat(agent, table, seat):
        raise FileFormatError(f"{path}: its 'seat' is {seat} but its table plays the other seat")
    return TableFile(table, str(data.get("agent", agent.spec)), seat, games, defaults)


def _table_of(
    game: Game[Any, Any],
    data: dict[str, Any],
    arrays: ArrayTable | None,
    archive: Archive | None,
    p: Persistent | None,
) -> Any:
    """The table a checked file holds, read by the agent's own hook."""
    if arrays is not None and archive is not None:
        return arrays.table_from_arrays(game, dict(data["meta"]), dict(archive.arrays))
    if p is None:  # never: load_table read the kind of file the agent's hook writes
        raise TypeError("no table hook for this file")
    return p.table_from_json(game, {k: v for k, v in data.items() if k not in _RESERVED})


def table_game(path: Path) -> str:
    """The spec of the game a table file was written for: its ``game_spec``, or for a file from
    before that field its ``game`` (the name: the game with its default options).

    Raises:
        FileFormatError: one line naming the file when it is not a table file.
    """
    data = _document(path, read_bytes(path, limit=MAX_TABLE_BYTES))
    spec = data.get("game_spec", data.get("game")) if isinstance(data, dict) else None
    if not isinstance(spec, str) or not spec:
        raise FileFormatError(f"{path}: not a purestate table file (no 'game' field)")
    return spec


def load_table_agent(
    path: Path,
    game: Game[Any, Any],
    make: Callable[[str], Agent] = registry_agent,
    options: str | None = None,
) -> tuple[Agent, TableFile]:
    """Read a table file together with the agent that wrote it (its ``agent`` field).

    ``make`` builds the agent from that spec string (the shell passes its own, which gives
    budgeted agents the clock); the table is then read as ``load_table`` reads it. ``options``
    (a spec string, what ``--agent`` gives beside ``--table``) changes that agent: naming the
    same agent, its options are laid over the file's (``alphazero:seconds=0.1`` keeps the
    network's layout and plays with another budget); naming another agent, it replaces it.

    Raises:
        FileFormatError: one line naming the file and what is wrong (no or a bad agent spec too).
        SpecError: for bad ``options`` (the user's, not the file's).
    """
    data = _document(path, read_bytes(path, limit=MAX_TABLE_BYTES))
    spec = data.get("agent") if isinstance(data, dict) else None
    if not isinstance(spec, str) or not spec:
        if options is not None:  # a file from before the field: the user names its agent
            made = make(options)
            return made, load_table(path, game, made)
        raise FileFormatError(
            f"{path}: no 'agent' field; name the agent that wrote it with --agent"
        )
    spec = spelled_agent(path, data, spec)
    written = _canonical_name(spec)
    if options is not None:
        over = _canonical_name(options)
        if parse_spec(over)[0] != written.partition(":")[0].strip():  # another agent: its own
            made = make(over)
            return made, load_table(path, game, made)
    try:  # the file's own spec first, so that its faults are named as the file's
        made = make(spec)
    except SpecError as e:
        raise FileFormatError(f"{path}: its agent {spec!r} is not usable: {e}") from None
    if options is not None:  # a bad option here is the user's: SpecError, not the file's
        made = make(merge_spec(written, over))
    return made, load_table(path, game, made)


def _canonical_name(spec: str) -> str:
    """``spec`` with the agent's name of today (``seedbot:...`` -> ``xtreme2019:...``)."""
    name, _, rest = spec.strip().partition(":")
    today = history.agent_name(name.strip())
    return today + (":" + rest if rest else "")

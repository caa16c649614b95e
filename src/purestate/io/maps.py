"""Tron map files (shell side): the shipped maps and map files a user names.

The shipped maps are package data (``purestate/games/tron/maps/*.txt``). Reading them is I/O, so
it lives here; each map is read and parsed once per process and cached. The map files never
change while the program runs, so resolving a shipped name is as deterministic as an import:
``Tron(map="empty_room")`` calls ``shipped_map`` once to turn the name into a ``Map`` value, and
everything after that is pure.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from purestate.core.spec import SpecError
from purestate.games.tron.maps import Map, MapError, parse_map

_PACKAGE = "purestate.games.tron"


@functools.cache
def shipped_names() -> tuple[str, ...]:
    """The names of the maps shipped with purestate, sorted."""
    folder = resources.files(_PACKAGE).joinpath("maps")
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt")))


@functools.cache
def shipped_map(name: str) -> Map:
    """The shipped map called ``name`` (e.g. ``"empty_room"``), read once and cached.

    Raises:
        SpecError: if no shipped map has that name (the message lists the names).
    """
    if name not in shipped_names():
        raise SpecError(f"unknown Tron map {name!r} (maps: {', '.join(shipped_names())})")
    text = resources.files(_PACKAGE).joinpath("maps", f"{name}.txt").read_text(encoding="utf-8")
    return parse_map(text, name)


def load_map(name_or_path: str) -> Map:
    """A shipped map by name, or a map file by path (either format).

    A path is recognised by an existing file or a ``.txt`` ending or a path separator.

    Raises:
        SpecError: for an unknown name or a missing file.
        MapError: for a file that is not a valid map (naming the line and column).
    """
    looks_like_path = "/" in name_or_path or "\\" in name_or_path or name_or_path.endswith(".txt")
    path = Path(name_or_path)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise SpecError(f"{path}: cannot read it ({e.__class__.__name__})") from None
        return parse_map(text, path.stem)
    if looks_like_path:
        raise SpecError(f"{path}: no such map file")
    return shipped_map(name_or_path)


__all__ = ["Map", "MapError", "load_map", "shipped_map", "shipped_names"]

"""Tron map files (shell side): the map files a user names, and the shipped maps by name.

Reading a user's map file is I/O, so it lives here; the game receives the parsed ``Map`` value.
The shipped maps are values of the pure layers (``purestate.games.tron.shipped``), so a name
resolves without reading a file; ``load_map`` takes either.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

from purestate.core.spec import SpecError
from purestate.games.tron.maps import (
    MAX_MAP_FILE_BYTES,
    MAX_MAP_SIDE,
    Map,
    MapError,
    MapTooBig,
    parse_map,
)
from purestate.games.tron.shipped import shipped_map, shipped_names


def _refuse_oversized(path: Path, head: bytes) -> NoReturn:
    """Refuse a map file longer than ``MAX_MAP_FILE_BYTES``, from the head read so far: its
    first row or header, or its row count, already shows a size past the limit."""
    text = head[: head.rfind(b"\n") + 1].decode("utf-8", errors="replace")
    try:
        parse_map(text, path.stem)
    except MapTooBig as e:
        raise MapTooBig(f"{path}: {e}") from None
    except MapError:
        pass
    raise MapTooBig(
        f"{path}: more than {MAX_MAP_FILE_BYTES:,} bytes, more than any map within the size "
        f"limit needs ({MAX_MAP_SIDE}×{MAX_MAP_SIDE} cells)"
    )


def load_map(name_or_path: str) -> Map:
    """A shipped map by name, or a map file by path (either format).

    A path is recognised by an existing file or a ``.txt`` ending or a path separator.

    Raises:
        SpecError: for an unknown name or a missing file.
        MapError: for a file that is not a valid map (naming the file, line and column), or one
            bigger than the size limit (``MAX_MAP_SIDE``; a file of more than
            ``MAX_MAP_FILE_BYTES`` is refused unread).
    """
    looks_like_path = "/" in name_or_path or "\\" in name_or_path or name_or_path.endswith(".txt")
    path = Path(name_or_path)
    if path.is_file():
        try:
            with path.open("rb") as f:
                # never more than a map within the limit can need: a huge file is not read whole
                data = f.read(MAX_MAP_FILE_BYTES + 1)
            if len(data) > MAX_MAP_FILE_BYTES:
                _refuse_oversized(path, data)
            # universal newlines, as reading in text mode would
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except (OSError, UnicodeDecodeError) as e:
            raise SpecError(f"{path}: cannot read it ({e.__class__.__name__})") from None
        try:
            return parse_map(text, path.stem)
        except MapError as e:
            raise MapError(f"{path}: {e}") from None
    if looks_like_path:
        raise SpecError(f"{path}: no such map file")
    return shipped_map(name_or_path)


__all__ = ["Map", "MapError", "load_map", "shipped_map", "shipped_names"]

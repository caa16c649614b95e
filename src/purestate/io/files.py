"""Files on disk (shell side): atomic writes and JSON reading with one-line errors."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


class FileFormatError(ValueError):
    """A file that cannot be used: unreadable, not JSON, or of the wrong format, game or version.

    The message names the file and says what is wrong, on one line.
    """


@contextlib.contextmanager
def open_atomic(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """Open ``path`` for writing so that a crash leaves either the old file or the new one.

    Writes go to a temporary file beside ``path``, which replaces it (after an fsync) only when the
    ``with`` block ends without an exception; otherwise the temporary file is removed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); the result should have the permissions any new
        # file gets here, as if it had been written in place
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    # the only way to read the umask is to set it; set it straight back
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see ``open_atomic``)."""
    with open_atomic(path) as f:
        f.write(text)


def json_text(data: Any) -> str:
    """The text purestate writes for a JSON document (one line per item, a final newline)."""
    return json.dumps(data, indent=1) + "\n"


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically."""
    write_atomic(path, json_text(data))


def sync(f: IO[Any]) -> None:
    """Push what was written to an open file onto the disk (before a checkpoint counts on it)."""
    f.flush()
    os.fsync(f.fileno())


def read_text(path: Path) -> str:
    """Read a UTF-8 text file.

    Raises:
        FileFormatError: if it is missing or unreadable.
    """
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FileFormatError(f"{path}: cannot read it ({e.__class__.__name__})") from None


def read_json(path: Path) -> Any:
    """Read a JSON file.

    Raises:
        FileFormatError: if it is missing, unreadable or not JSON.
    """
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    except ValueError:  # the only other refusal: an integer longer than Python reads
        limit = sys.get_int_max_str_digits()
        raise FileFormatError(f"{path}: a number in it has more than {limit} digits") from None
    except RecursionError:
        raise FileFormatError(f"{path}: its JSON is nested too deeply to read") from None

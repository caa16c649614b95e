"""Files on disk (shell side): atomic writes and JSON reading with one-line errors."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
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


LINK_REFUSED = "a run folder holds only its own files, never links"
"""Why a link inside a run folder is refused (the end of the one-line error)."""


def open_own(path: Path, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
    """Open ``path`` itself, never what a symbolic link there points to, and only a regular file.

    Run folders come from anyone (a colleague's archive, a download): a link in one must not make
    a command read or write outside it, and a pipe must not make it wait forever.

    Returns:
        The open file descriptor (the caller closes it).

    Raises:
        FileFormatError: ``path`` is a symbolic link or not a regular file (one line).
        OSError: any other failure (missing, unreadable, ...), as the system reports it.
    """
    path = Path(path)
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise FileFormatError(f"{path} is a symbolic link; {LINK_REFUSED}") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileFormatError(f"{path} is not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_own_file(path: Path, mode: str = "rb") -> IO[Any]:
    """``open_own`` as a Python file object: ``"rb"``, ``"r+b"`` or ``"ab"`` (binary only)."""
    flags = {"rb": os.O_RDONLY, "r+b": os.O_RDWR, "ab": os.O_WRONLY | os.O_APPEND | os.O_CREAT}
    return os.fdopen(open_own(path, flags[mode]), mode)


def read_text(path: Path, follow: bool = True) -> str:
    """Read a UTF-8 text file.

    Args:
        path: The file.
        follow: Whether a symbolic link is read through (a file the user names) or refused (a
            file inside a run folder, see ``open_own``).

    Raises:
        FileFormatError: if it is missing or unreadable, or a link when ``follow`` is false.
    """
    path = Path(path)
    try:
        if not follow:
            with open_own_file(path) as f:
                data: bytes = f.read()
            return data.decode("utf-8")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FileFormatError(f"{path}: cannot read it ({e.__class__.__name__})") from None


def read_json(path: Path, follow: bool = True) -> Any:
    """Read a JSON file (``follow``: as in ``read_text``).

    Raises:
        FileFormatError: if it is missing, unreadable or not JSON.
    """
    text = read_text(path, follow)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    except ValueError:  # the only other refusal: an integer longer than Python reads
        limit = sys.get_int_max_str_digits()
        raise FileFormatError(f"{path}: a number in it has more than {limit} digits") from None
    except RecursionError:
        raise FileFormatError(f"{path}: its JSON is nested too deeply to read") from None

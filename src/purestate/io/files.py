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


def open_own(path: Path, flags: int = os.O_RDONLY, mode: int = 0o666, follow: bool = False) -> int:
    """Open ``path`` itself, never what a symbolic link there points to, and only a regular file.

    Run folders come from anyone (a colleague's archive, a download): a link in one must not make
    a command read or write outside it, and a pipe must not make it wait forever.

    Args:
        path: The file.
        flags: ``os.open``'s flags (for reading, writing or appending).
        mode: The permissions of a file created here (before the umask).
        follow: Read through a symbolic link to a regular file: only for a path the user typed
            themselves (a ``--table`` file), never for a file inside a folder. A pipe or a device
            is refused either way.

    Returns:
        The open file descriptor (the caller closes it).

    Raises:
        FileFormatError: ``path`` is a symbolic link or not a regular file (one line).
        OSError: any other failure (missing, unreadable, ...), as the system reports it.
    """
    path = Path(path)
    nofollow = 0 if follow else os.O_NOFOLLOW
    try:
        # O_NONBLOCK: opening a pipe with no writer returns at once (then fstat refuses it)
        fd = os.open(path, flags | nofollow | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow:
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


def open_own_file(path: Path, mode: str = "rb", follow: bool = False) -> IO[Any]:
    """``open_own`` as a Python file object: ``"rb"``, ``"r+b"`` or ``"ab"`` (binary only)."""
    flags = {"rb": os.O_RDONLY, "r+b": os.O_RDWR, "ab": os.O_WRONLY | os.O_APPEND | os.O_CREAT}
    return os.fdopen(open_own(path, flags[mode], follow=follow), mode)


MAX_JSON_BYTES = 64 << 20
"""The largest JSON document read whole (64 MiB): a run's ``run.json``, ``checkpoint.json``,
``summary.json``, a sweep's ``sweep.json``, a Tron map. The largest purestate writes, a summary
of 100 blocks per 10,000 games, is a few hundred kB."""

MAX_TABLE_BYTES = 1 << 30
"""The largest table file read (1 GiB). The largest tables purestate writes are Q-learning's
for 3×3 dots and boxes: 51 MB after 20,000 games of self-play, 89 MB after 40,000 (measured);
1 GiB leaves room for runs many times longer, and refuses a file that would need several GiB
of memory to parse."""


def read_bytes(path: Path, follow: bool = True, limit: int = MAX_JSON_BYTES) -> bytes:
    """The whole of a regular file no larger than ``limit`` bytes.

    The size is checked on the open file before anything is read, so a huge file costs no
    memory, and a pipe is refused instead of waited on.

    Args:
        path: The file.
        follow: Whether a symbolic link is read through (a file the user names) or refused (a
            file inside a run folder, see ``open_own``).
        limit: The largest size accepted.

    Raises:
        FileFormatError: one line naming the file: missing, unreadable, not a regular file, a
            link when ``follow`` is false, or larger than ``limit``.
    """
    path = Path(path)

    def too_large(size: int) -> FileFormatError:
        return FileFormatError(
            f"{path}: {size:,} bytes, larger than the {limit:,} a file of this kind may hold"
        )

    try:
        with open_own_file(path, follow=follow) as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit:
                raise too_large(size)
            data: bytes = f.read(limit + 1)  # the file may grow between fstat and read
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except OSError as e:
        raise FileFormatError(f"{path}: cannot read it ({e.__class__.__name__})") from None
    if len(data) > limit:
        raise too_large(len(data))
    return data


def read_text(path: Path, follow: bool = True, limit: int = MAX_JSON_BYTES) -> str:
    """Read a UTF-8 text file (see ``read_bytes`` for ``follow`` and ``limit``).

    Raises:
        FileFormatError: as ``read_bytes``, or if it is not UTF-8.
    """
    return utf8_text(path, read_bytes(path, follow, limit))


def utf8_text(path: Path, data: bytes) -> str:
    """``data``, read from ``path`` (for the message), as UTF-8 text.

    Raises:
        FileFormatError: one line naming the file if it is not UTF-8.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileFormatError(f"{path}: cannot read it (UnicodeDecodeError)") from None


def read_json(path: Path, follow: bool = True, limit: int = MAX_JSON_BYTES) -> Any:
    """Read a JSON file (``follow``, ``limit``: as in ``read_bytes``).

    Raises:
        FileFormatError: if it is missing, unreadable, too large or not JSON.
    """
    return parse_json(path, read_text(path, follow, limit))


def parse_json(path: Path, text: str) -> Any:
    """The JSON document ``text``, read from ``path`` (for the messages).

    Raises:
        FileFormatError: one line naming the file if it is not JSON (or nested or numbered
            beyond what Python reads).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    except ValueError:  # the only other refusal: an integer longer than Python reads
        limit = sys.get_int_max_str_digits()
        raise FileFormatError(f"{path}: a number in it has more than {limit} digits") from None
    except RecursionError:
        raise FileFormatError(f"{path}: its JSON is nested too deeply to read") from None

"""games.jsonl on disk: JSON Lines of game records (``purestate.core.record.Record``).

Every command that writes games writes them through ``record_line``; ``iter_records`` streams a
file (or a run folder's games.jsonl) back one record at a time, and ``read_records`` reads them
all, with one-line errors naming the file and the line. No line longer than ``MAX_RECORD_BYTES``
is ever held in memory: a file that is not a log (a disk image) is refused at its first long
line instead of filling the memory, and a pipe or a device (``/dev/zero``) is not read at all.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from purestate.core.record import Record, RecordError
from purestate.io.files import FileFormatError, open_own_file, sync

GAMES_FILE = "games.jsonl"

MAX_RECORD_BYTES = 1 << 20
"""The longest line of a games log read (1 MiB). The longest game purestate plays, Tron on its
largest map (200 × 200), fills at most 40,000 cells: its record is about 200 kB."""


_COMPACT = json.JSONEncoder(separators=(",", ":")).encode
"""``json.dumps`` with compact separators, its encoder made once: ``dumps`` makes a new one for
every call that passes an option, a tenth of the cost of a short record's line."""


def record_line(record: Record) -> str:
    """One line of games.jsonl (compact separators, a final newline)."""
    return _COMPACT(record.to_json()) + "\n"


def records_text(records: Iterable[Record]) -> str:
    """A whole games.jsonl."""
    return "".join(record_line(r) for r in records)


@contextlib.contextmanager
def appending(folder: Path) -> Iterator[IO[str]]:
    """A run folder's games.jsonl, open to append lines (``record_line``) to.

    The log is the folder's own: it is never written through a link, nor a pipe or a device
    (``open_own``). It is synced to the disk when the block ends without an error, so that a
    checkpoint written next can count on it.
    """
    with io.TextIOWrapper(open_own_file(folder / GAMES_FILE, "ab"), encoding="utf-8") as log:
        yield log
        sync(log)


def append_records(folder: Path, records: Iterable[Record]) -> None:
    """Append ``records`` to a run folder's games.jsonl and sync it (see ``appending``)."""
    with appending(folder) as log:
        log.writelines(record_line(r) for r in records)


def games_file(path: Path) -> Path:
    """The games log ``path`` names: the file itself, or a run folder's games.jsonl."""
    path = Path(path)
    return path / GAMES_FILE if path.is_dir() else path


def log_lines(f: IO[bytes], name: Path, limit: int = MAX_RECORD_BYTES) -> Iterator[bytes]:
    """The lines of an open log, each with its newline (the last may lack it: cut short).

    Raises:
        FileFormatError: a line longer than ``limit`` bytes, naming ``name`` and the line.
    """
    n = 0
    while True:
        line = f.readline(limit + 1)
        if not line:
            return
        n += 1
        if len(line) > limit:
            raise FileFormatError(
                f"{name}, line {n}: longer than {limit:,} bytes; not a game record"
            )
        yield line


def iter_records(path: Path, limit: int = MAX_RECORD_BYTES) -> Iterator[Record]:
    """The records of a games.jsonl (or of a run folder's), one at a time, in order.

    Blank lines are skipped. The file is read a line at a time: memory stays bounded by
    ``limit`` whatever the file holds. Only a regular file is read (a pipe would never end); a
    symbolic link is read through when ``path`` names it, never when it is a folder's
    games.jsonl.

    Raises:
        FileFormatError: naming the file and the first bad line and saying what is wrong (a
            missing or unreadable file, a line too long, not JSON, not a record).
    """
    file = games_file(path)
    # a log the user names may be a link to their file; a folder's games.jsonl is the folder's
    # own (never a link out of it); neither may be a pipe or a device
    inside = file != Path(path)
    try:
        f = open_own_file(file, follow=not inside)
    except FileNotFoundError:
        raise FileFormatError(f"{file}: no such file") from None
    except OSError as e:
        raise FileFormatError(f"{file}: cannot read it ({e.__class__.__name__})") from None
    with f:
        try:
            for n, raw in enumerate(log_lines(f, file, limit), 1):
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise FileFormatError(f"{file}, line {n}: not UTF-8 text") from None
                if not text.strip():
                    continue
                try:
                    yield Record.from_json(json.loads(text))
                except RecordError as e:
                    raise FileFormatError(f"{file}, line {n}: {e}") from None
                except (ValueError, RecursionError):
                    raise FileFormatError(f"{file}, line {n}: not a JSON record") from None
        except OSError as e:  # a folder given as a file, an I/O error midway
            raise FileFormatError(f"{file}: cannot read it ({e.__class__.__name__})") from None


def read_records(path: Path) -> list[Record]:
    """Every record of a games.jsonl (or of a run folder's), see ``iter_records``.

    Raises:
        FileFormatError: naming the file and the first bad line and saying what is wrong, or
            saying it holds no record.
    """
    records = list(iter_records(path))
    if not records:
        raise FileFormatError(f"{games_file(path)}: no game records in it")
    return records

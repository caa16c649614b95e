"""games.jsonl on disk: JSON Lines of game records (``purestate.core.record.Record``).

Every command that writes games writes them through ``record_line``; ``read_records`` reads a
file (or a run folder's games.jsonl) back with one-line errors naming the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from purestate.core.record import Record, RecordError
from purestate.io.files import FileFormatError, read_text

GAMES_FILE = "games.jsonl"


def record_line(record: Record) -> str:
    """One line of games.jsonl (compact separators, a final newline)."""
    return json.dumps(record.to_json(), separators=(",", ":")) + "\n"


def records_text(records: Iterable[Record]) -> str:
    """A whole games.jsonl."""
    return "".join(record_line(r) for r in records)


def games_file(path: Path) -> Path:
    """The games log ``path`` names: the file itself, or a run folder's games.jsonl."""
    path = Path(path)
    return path / GAMES_FILE if path.is_dir() else path


def read_records(path: Path) -> list[Record]:
    """Every record of a games.jsonl (or of a run folder's).

    Raises:
        FileFormatError: naming the file and the first bad line and saying what is wrong.
    """
    file = games_file(path)
    records = []
    for n, line in enumerate(read_text(file).splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(Record.from_json(json.loads(line)))
        except RecordError as e:
            raise FileFormatError(f"{file}, line {n}: {e}") from None
        except (ValueError, RecursionError):
            raise FileFormatError(f"{file}, line {n}: not a JSON record") from None
    if not records:
        raise FileFormatError(f"{file}: no game records in it")
    return records

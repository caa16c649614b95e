"""Files on disk (shell side): atomic writes and JSON reading with one-line errors."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class FileFormatError(ValueError):
    """A file that cannot be used: unreadable, not JSON, or of the wrong format, game or version.

    The message names the file and says what is wrong, on one line.
    """


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename, so a crash leaves either the
    old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically."""
    write_atomic(path, json.dumps(data, indent=1) + "\n")


def read_json(path: Path) -> Any:
    """Read a JSON file.

    Raises:
        FileFormatError: if it is missing, unreadable or not JSON.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FileFormatError(f"{path}: cannot read it ({e.__class__.__name__})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None

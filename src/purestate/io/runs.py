"""Run folders (shell side): one writer at a time, checkpoints that appear whole, logs cut to them.

A run folder is what ``selfplay`` (and each run of a ``sweep``) writes: tables, ``games.jsonl``,
``summary.json``, pictures. Three rules keep it trustworthy:

- **One owner.** ``run_folder`` takes a lock file (``.lock``, holding the owner's pid) for as long
  as a command writes; a second process is refused at once with one line naming the folder. The
  lock is an ``flock`` on that file, so a killed owner never leaves the folder locked.
- **Nothing replaced by accident.** A new run refuses a non-empty folder unless the command says
  ``resume`` (continue it) or ``force`` (replace it; only the files purestate writes are removed,
  and a folder holding anything else is refused).
- **Checkpoints appear as a set.** ``commit`` writes every file of a checkpoint (all tables) to a
  pending name, then ``checkpoint.json`` (the commit point: game count, log length, a digest of
  each file) atomically, then moves the pending files into place. ``recover`` finishes a commit a
  kill interrupted, or refuses a folder whose files disagree with its checkpoint. The games log
  may run ahead of the checkpoint; ``cut_log`` cuts it back (games after a checkpoint are played
  again, identically, because game ``i`` always uses the key ``fold_in(key(seed), i)``).

Temporary files left by a kill are removed when the folder is next opened.

A run folder is data, never instructions: it may come from anyone. Every name a run file gives
(a checkpoint's ``files``) must be a plain name inside the folder (``plain_name``); nothing in the
folder is read or written through a symbolic link, and a folder holding a link, a hard link, a
pipe, a device or folders nested too deep is refused when it is opened (``check_contents``); files
are read whole only up to a size cap (``io.files.read_bytes``); the checkpoint holds a
digest of the games log up to its game count (``log_digest``), so an edited log is refused.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from purestate.io.files import (
    LINK_REFUSED,
    FileFormatError,
    open_own,
    open_own_file,
    read_json,
    write_json,
)
from purestate.io.records import log_lines

LOCK = ".lock"
CHECKPOINT = "checkpoint.json"
CHECKPOINT_FORMAT = "purestate.checkpoint/1"
_PENDING = ".pending.tmp"

Mode = Literal["new", "resume", "force"]


class RunFolderError(FileFormatError):
    """A run folder that cannot be used as asked (in use, not empty, inconsistent): one line."""


def describe_os_error(path: Path, e: OSError) -> str:
    """One line for an OS error on ``path``: the path and the system's words for it."""
    reason = os.strerror(e.errno) if e.errno else e.__class__.__name__
    if e.errno == errno.ENAMETOOLONG:
        reason = "the path is too long"
    return f"{path}: {reason}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _holder(lock: Path) -> str:
    try:
        with open_own_file(lock) as f:
            pid = int(f.read(32).decode("ascii").strip() or "0")
    except (OSError, ValueError):  # FileFormatError is a ValueError
        return "another process"
    return f"process {pid}" if pid and _pid_alive(pid) else "another process"


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the folder's lock file for the duration of the block."""
    path = folder / LOCK
    while True:
        try:
            # never through a link: a .lock pointing elsewhere must not truncate its target
            fd = open_own(path, os.O_RDWR | os.O_CREAT)
        except FileFormatError as e:
            raise RunFolderError(str(e)) from None
        except OSError as e:
            raise RunFolderError(f"cannot write in {describe_os_error(folder, e)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunFolderError(
                f"{folder} is in use by {_holder(path)}; wait for it to finish or stop it"
            ) from None
        # The file may have been unlinked by its previous owner between our open and our lock:
        # then we hold a lock nobody else can see, so try again on the file that is there now.
        try:
            held = os.fstat(fd)
            same = os.path.samestat(held, os.lstat(path))
        except FileNotFoundError:
            same = False
        if same and held.st_nlink > 1:  # truncating it would truncate its other names too
            os.close(fd)
            raise RunFolderError(_hard_link(path))
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)


def clean_temporaries(folder: Path) -> None:
    """Remove the temporary files an interrupted atomic write left behind."""
    for p in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            p.unlink()


def plain_name(name: object, where: Path) -> str:
    """``name`` if it names a file directly inside a folder: no separator, no ``..``, not empty,
    not hidden (the folder's own hidden files are its lock and its temporary files), not the
    checkpoint itself.

    Args:
        name: A file name read from a run file (a checkpoint's ``files``).
        where: The file that names it (for the message).

    Raises:
        RunFolderError: one line naming ``where`` and the name.
    """
    if (
        not isinstance(name, str)
        or name.startswith(".")
        or name in ("", CHECKPOINT)
        or any(c in name for c in "/\\\0")
        or os.path.isabs(name)
    ):
        raise RunFolderError(
            f"{where} names {name!r}, not a plain file name inside its folder; "
            "a run folder's files never name paths outside it"
        )
    return name


def _hard_link(path: Path) -> str:
    return (
        f"{path} has other names (a hard link); a run folder's files are its own: "
        "copy the folder (cp -r) instead of linking it"
    )


MAX_DEPTH = 8
"""How many folder levels below a run folder ``check_contents`` looks at before refusing: a
sweep keeps its runs three levels below its own folder (``runs/<agent>/<seed>``); a few more
are allowed."""


def check_contents(folder: Path, max_depth: int = MAX_DEPTH) -> None:
    """Refuse a folder that holds anything but its own plain files and folders.

    A symbolic link (to a file or a folder) would make a command read or write outside the
    folder; a hard link would make it truncate or append to a file of another folder; a pipe
    or a device would make it wait forever or read without end. Every level is looked at,
    since a sweep keeps its runs in folders below its own; folders nested deeper than
    ``max_depth`` levels are refused (a walk without end would exhaust the stack or the time).

    Raises:
        RunFolderError: one line naming the first such entry.
    """
    # an explicit stack, not os.walk: a walk by recursion fails on a deep enough folder
    stack = [(Path(folder), 0)]
    while stack:
        where, depth = stack.pop()
        try:
            names = sorted(os.listdir(where))
        except OSError as e:
            message = f"cannot read the folder {describe_os_error(where, e)}"
            raise RunFolderError(message) from None
        for name in names:
            path = where / name
            try:
                st = os.lstat(path)
            except FileNotFoundError:  # removed meanwhile (our own temporary file)
                continue
            if stat.S_ISLNK(st.st_mode):
                raise RunFolderError(f"{path} is a symbolic link; {LINK_REFUSED}")
            if stat.S_ISDIR(st.st_mode):
                if depth + 1 > max_depth:
                    raise RunFolderError(
                        f"{path} is nested {depth + 1} folders deep in {folder}; "
                        f"a run folder holds at most {max_depth} levels of folders"
                    )
                stack.append((path, depth + 1))
                continue
            if not stat.S_ISREG(st.st_mode):
                raise RunFolderError(f"{path} is not a regular file; {LINK_REFUSED}")
            if st.st_nlink > 1:
                raise RunFolderError(_hard_link(path))


def entries(folder: Path) -> list[Path]:
    """What a folder holds, but its lock file."""
    return sorted(p for p in folder.iterdir() if p.name != LOCK)


RUN_MARKS = ("run.json", "sweep.json", CHECKPOINT)
"""Files that make a folder a run folder: no run is written inside another."""


def _enclosing_run(folder: Path) -> Path | None:
    for parent in folder.resolve().parents:
        if any((parent / mark).exists() for mark in RUN_MARKS):
            return parent
    return None


def run_holding(path: Path) -> Path | None:
    """The run folder that holds the file ``path`` (its own folder or one above), or None.

    Links are resolved first: a table reached through a link is still the run's.
    """
    where = Path(path).resolve().parent
    for folder in (where, *where.parents):
        if any((folder / mark).exists() for mark in RUN_MARKS):
            return folder
    return None


@contextlib.contextmanager
def run_folder(folder: Path, mode: Mode, owned: Collection[str]) -> Iterator[Path]:
    """Open ``folder`` for a command that writes a run into it.

    Args:
        folder: The run folder (created when missing).
        mode: ``"new"``: the folder must be missing or empty; ``"resume"``: the command checks
            the run it holds (an empty one, killed before it wrote anything, starts again);
            ``"force"``: whatever run it holds is removed first.
        owned: The names of the files and folders this command writes; ``force`` removes those and
            refuses a folder that holds anything else.

    Yields:
        The folder, locked against other processes, with any interrupted checkpoint finished and
        temporary files removed. If the block fails, the folders created here that are still
        empty are removed: no empty run folder is left behind.

    Raises:
        RunFolderError: one line saying what is wrong and what would work.
    """
    folder = Path(folder)
    try:
        if folder.exists() and not folder.is_dir():
            raise RunFolderError(f"{folder} is a file, not a folder")
        created = [p for p in (folder, *folder.parents) if not p.exists()]  # deepest first
        inside = _enclosing_run(folder)
    except OSError as e:  # a name too long for the file system, a loop of links, ...
        raise RunFolderError(f"cannot use the folder {describe_os_error(folder, e)}") from None
    if inside is not None:
        raise RunFolderError(
            f"{folder} is inside the run folder {inside}; choose a folder outside it"
        )
    try:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            message = f"cannot create the folder {describe_os_error(folder, e)}"
            raise RunFolderError(message) from None
        with _locked(folder):
            _LOG_MARKS.clear()  # what this process knew of any log may be out of date now
            check_contents(folder)
            if mode == "resume":
                recover(folder)  # before cleaning: a checkpoint's pending files finish it
            clean_temporaries(folder)
            held = entries(folder)
            if mode == "new" and held:
                raise RunFolderError(
                    f"{folder} already holds a run: add --resume {folder} to continue it, "
                    "or --force to replace it"
                )
            if mode == "force":
                foreign = [p.name for p in held if p.name not in owned]
                if foreign:
                    raise RunFolderError(
                        f"{folder} holds files purestate did not write ({foreign[0]}); "
                        "--force only replaces a run folder: choose another folder"
                    )
                for p in held:
                    if p.is_dir() and not p.is_symlink():
                        shutil.rmtree(p)
                    else:
                        p.unlink()
            try:
                yield folder
            finally:
                _LOG_MARKS.clear()
    except BaseException:
        for p in created:  # rmdir removes only what is still empty
            try:
                p.rmdir()
            except OSError as e:
                if e.errno not in (errno.ENOENT, errno.ENAMETOOLONG):  # never made: go on up
                    break
        raise


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        fd = open_own(path)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        h = hashlib.sha256()
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _pending(folder: Path, name: str) -> Path:
    return folder / f".{name}{_PENDING}"


def commit(folder: Path, files: Mapping[str, str | bytes], meta: Mapping[str, Any]) -> None:
    """Make a checkpoint visible all at once: the files in ``files`` (text, written as UTF-8, or
    bytes: an array table) and ``meta``.

    ``meta`` (for example ``{"games": 500}``) is stored in ``checkpoint.json`` with a digest of each
    file. A kill at any moment leaves either the previous checkpoint or this one (``recover``
    finishes the file moves that follow the commit point).
    """
    digests = {}
    for name, text in files.items():
        plain_name(name, folder / CHECKPOINT)
        data = text.encode("utf-8") if isinstance(text, str) else text
        _write_durably(_pending(folder, name), data)
        digests[name] = _digest(data)
    write_json(folder / CHECKPOINT, {"format": CHECKPOINT_FORMAT, **meta, "files": digests})
    for name in files:
        os.replace(_pending(folder, name), folder / name)


def _write_durably(path: Path, data: bytes) -> None:
    fd = open_own(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def recover(folder: Path) -> dict[str, Any] | None:
    """The folder's checkpoint, after finishing a commit that a kill interrupted.

    Returns:
        The checkpoint's data (``meta`` as committed, and ``files``), or None if there is none.

    Raises:
        RunFolderError: a file of the checkpoint is missing or differs from what was committed.
    """
    path = folder / CHECKPOINT
    if not os.path.lexists(path):
        return None
    data = read_json(path, follow=False)
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: not a purestate checkpoint ({CHECKPOINT_FORMAT})")
    files = data.get("files")
    if data.get("format") != CHECKPOINT_FORMAT or not isinstance(files, dict):
        raise RunFolderError(f"{path}: not a purestate checkpoint ({CHECKPOINT_FORMAT})")
    for name in files:  # every name checked before any file is moved
        plain_name(name, path)
    for name, want in files.items():
        target = folder / name
        if _file_digest(target) == want:
            continue
        pending = _pending(folder, name)
        if _file_digest(pending) == want:
            os.replace(pending, target)
            continue
        what = "is missing" if not os.path.lexists(target) else "does not match"
        raise RunFolderError(
            f"{target} {what} the checkpoint in {path}; the run cannot be resumed "
            "(--force starts it again)"
        )
    return dict(data)


_LOG_MARKS: dict[str, tuple[int, int, int, Any]] = {}
"""How far this process has digested each log it holds open in a run folder: the file's inode,
the lines and bytes digested, and the SHA-256 state after them. A log only grows while its folder
is locked by us, so a checkpoint digests only the lines logged since the last one; ``run_folder``
forgets every mark when a folder is opened or closed."""


def _remember(path: Path, lines: int, size: int, h: Any) -> None:
    with contextlib.suppress(OSError):
        _LOG_MARKS[str(path)] = (os.lstat(path).st_ino, lines, size, h.copy())


def log_digest(path: Path, games: int) -> str:
    """The SHA-256 digest of the first ``games`` lines of a games log (what a checkpoint records).

    Raises:
        RunFolderError: the log holds fewer than ``games`` whole lines.
    """
    start, size, h = 0, 0, hashlib.sha256()
    mark = _LOG_MARKS.get(str(path))
    if games and mark is not None and mark[1] <= games:
        with contextlib.suppress(OSError):
            if os.lstat(path).st_ino == mark[0]:
                start, size, h = mark[1], mark[2], mark[3].copy()
    if games > start:
        with open_own_file(path) as f:
            f.seek(size)
            for line in log_lines(f, path):
                if not line.endswith(b"\n"):
                    break
                h.update(line)
                size += len(line)
                start += 1
                if start == games:
                    break
    if start < games:
        raise RunFolderError(f"{path}: {start} games logged but the checkpoint has {games}")
    _remember(path, games, size, h)
    return h.hexdigest()


def cut_log(path: Path, games: int, seed: int) -> list[dict[str, Any]]:
    """Cut a games log back to its first ``games`` records and return them.

    Lines past ``games`` (games played after the last checkpoint, or a line cut short by a kill)
    are dropped; the records kept must be games ``0 .. games - 1`` of the run with ``seed``.
    The log is read a line at a time, never through a link, and no line longer than a record
    may be is read (``io.records.MAX_RECORD_BYTES``).

    Raises:
        RunFolderError: the log is shorter than the checkpoint, or does not belong to the run.
    """
    records: list[dict[str, Any]] = []
    size, h = 0, hashlib.sha256()
    exists = os.path.lexists(path)
    if exists:
        with open_own_file(path) as f:
            for line in log_lines(f, path) if games else ():
                if not line.endswith(b"\n"):
                    break
                i = len(records)
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):
                    record = None
                if (
                    not isinstance(record, dict)
                    or record.get("index") != i
                    or record.get("seed") != seed
                ):
                    raise RunFolderError(
                        f"{path}: line {i + 1} is not game {i} of this run (seed {seed})"
                    )
                records.append(record)
                h.update(line)
                size += len(line)
                if len(records) == games:
                    break
    if len(records) < games:
        raise RunFolderError(
            f"{path}: {len(records)} games logged but the checkpoint has {games}; "
            "the run cannot be resumed (--force starts it again)"
        )
    if exists and os.lstat(path).st_size != size:
        with open_own_file(path, "r+b") as f:
            f.truncate(size)
            f.flush()
            os.fsync(f.fileno())
    if exists:
        _remember(path, games, size, h)
    return records


def read_manifest(path: Path) -> dict[str, Any] | None:
    """A run's manifest (what was asked for: game, agents, seed, games), or None if missing."""
    if not os.path.lexists(path):
        return None
    data = read_json(path, follow=False)
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: not a purestate run manifest")
    return dict(data)


def check_manifest(
    path: Path,
    have: Mapping[str, Any],
    want: Mapping[str, Any],
    fields: Collection[str],
    canonical: Mapping[str, Callable[[Any], Any]] | None = None,
) -> None:
    """Refuse to continue the run whose manifest, read from ``path``, is ``have`` if it differs
    from ``want`` in any of ``fields``.

    ``canonical`` maps a field to how a saved value is written today (an agent's old name or
    alias to its spec), so that a run saved under an old name still resumes.
    """
    for field in fields:
        now = (canonical or {}).get(field, lambda v: v)(have.get(field))
        if now != want.get(field):
            raise RunFolderError(
                f"{path.parent} is a run with {field} {have.get(field)!r}, not "
                f"{want.get(field)!r}: resume it with the same settings, or use another folder"
            )

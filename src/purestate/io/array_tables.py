"""Array table files (shell side): a zip archive of ``.npy`` arrays and a JSON manifest.

A learner whose table is arrays (``core.agent.ArrayTable``: network parameters, optimizer state,
a replay buffer) is saved as one ``.npz`` file, a zip archive that numpy's ``numpy.load`` also
reads (``allow_pickle=False`` suffices). Its entries, stored (never compressed), in this order:

- ``manifest.json``: a JSON object with sorted keys: the envelope a JSON table has (``format``,
  ``game``, ``game_spec``, ``agent``, ``defaults``, ``seat``, ``games``), ``archive`` (this
  layout and its version, ``purestate.arrays/1``), ``meta`` (the agent's JSON-ready data) and
  ``arrays``: for each array, by name in sorted order, its ``name``, ``dtype`` (``<f4``,
  ``|b1``, ...: plain numbers and bools, little-endian), ``shape`` and ``sha256`` (of its values
  as little-endian bytes in C order).
- ``NAME.npy`` for each array, in the manifest's order: the NPY format, version 1.0, C order.

Every timestamp is 1980-01-01 00:00 and every entry's attributes are fixed, so the bytes are a
function of the table's value: a resumed run writes the same bytes as an uninterrupted one.

Reading assumes the file may be hostile (``read_archive``): it is read whole only up to a size
cap; its zip directory may list at most ``MAX_ARRAYS + 1`` entries, each stored, no larger than
the file and together no larger than it; its entries must be exactly those the manifest names, in
order (a name in the archive is never used as a path); each array's header must give the
manifest's dtype (from a short list: no objects, so nothing is ever unpickled) and shape, and its
data the manifest's size and digest. Anything else is refused with one line naming the file.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import frozen

from purestate.io.files import MAX_JSON_BYTES, FileFormatError, parse_json, utf8_text

if TYPE_CHECKING:  # numpy is imported when an archive is read or written, not with the CLI
    from numpy.typing import NDArray


ARCHIVE = "purestate.arrays/1"
"""The layout of the archive and its version (the manifest's ``archive`` field)."""

SUFFIX = ".npz"
"""The file name ending of an array table (numpy's name for a zip of ``.npy`` files)."""

MANIFEST = "manifest.json"

MAX_ARRAYS = 10_000
"""The most arrays one table may hold: a network's parameters, an optimizer's two moments and a
replay buffer are a few hundred; the cap bounds the zip directory read before any check."""

MAX_MANIFEST_BYTES = MAX_JSON_BYTES
"""The largest manifest read (64 MiB, as any JSON document purestate reads whole)."""

MAX_NAME = 200
"""The longest array name."""

MAX_DIMENSIONS = 32
"""The most dimensions an array may have (numpy's own limit is 64)."""

DTYPES = ("|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8")
"""The dtypes an array may have: bools, integers and floats, little-endian."""

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.\-]*)*")
_WHEN = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
_END = struct.Struct("<4s4H2LH")  # the end of central directory record, without a comment
_END_SIGNATURE = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"


def is_archive(data: bytes) -> bool:
    """Whether a file's first bytes are a zip archive's (an array table, or an attempt at one).

    A JSON document never starts with ``PK``, so this tells the two kinds of table file apart.
    """
    return data[:2] == b"PK"


def check_name(name: object) -> str:
    """``name`` if it may name an array: letters, digits, ``_``, ``.`` and ``-`` in parts joined
    by ``/``, none starting with ``.`` (so no ``..``), at most ``MAX_NAME`` characters.

    Raises:
        ValueError: one line quoting the name.
    """
    if not isinstance(name, str) or len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} is not an array name (letters, digits, '_', '.', '-' in parts joined by "
            f"'/', none starting with '.', at most {MAX_NAME} characters)"
        )
    return name


def stored_array(name: str, value: Any) -> NDArray[Any]:
    """``value`` as it is stored: a C-ordered, little-endian array of one of ``DTYPES``.

    Raises:
        TypeError: a value of another dtype (objects, strings, complex numbers, ...).
    """
    import numpy as np

    a = np.asarray(value)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"array {name!r} has dtype {a.dtype}; a table file holds only {DTYPES}")
    # asarray, not ascontiguousarray, which makes a 0-d array 1-d
    stored: NDArray[Any] = np.asarray(a, dtype=a.dtype.newbyteorder("<"), order="C")
    if stored.dtype.str not in DTYPES:
        raise TypeError(f"array {name!r} has dtype {a.dtype}; a table file holds only {DTYPES}")
    return stored


def _digest(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()


def _npy(a: NDArray[Any]) -> bytes:
    import numpy as np

    out = io.BytesIO()
    np.lib.format.write_array(out, a, version=(1, 0), allow_pickle=False)
    return out.getvalue()


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_WHEN)
    info.compress_type = zipfile.ZIP_STORED
    info.create_system = 3  # Unix, wherever it was written
    info.external_attr = 0o644 << 16
    return info


def archive_bytes(envelope: Mapping[str, Any], arrays: Mapping[str, Any]) -> bytes:
    """The bytes of an array table file.

    Args:
        envelope: The manifest's fields but ``archive`` and ``arrays`` (the table file's envelope
            and ``meta``), JSON-ready.
        arrays: The named arrays (anything ``numpy.asarray`` makes a plain array of).

    Raises:
        TypeError: a bad name, a dtype a table file does not hold, more than ``MAX_ARRAYS``
            arrays, or an envelope that is not JSON (NaN included): the agent's mistake.
    """
    if len(arrays) > MAX_ARRAYS:
        raise TypeError(f"{len(arrays)} arrays; a table file holds at most {MAX_ARRAYS}")
    stored = {}
    for name in sorted(arrays):
        try:
            check_name(name)
        except ValueError as e:
            raise TypeError(str(e)) from None
        stored[name] = stored_array(name, arrays[name])
    listed = [
        {
            "name": name,
            "dtype": a.dtype.str,
            "shape": list(a.shape),
            "sha256": _digest(a.data),  # C-ordered: its buffer is its values' bytes
        }
        for name, a in stored.items()
    ]
    manifest = {**envelope, "archive": ARCHIVE, "arrays": listed}
    try:
        text = json.dumps(manifest, sort_keys=True, indent=1, allow_nan=False) + "\n"
    except (TypeError, ValueError) as e:
        raise TypeError(f"the table's manifest is not JSON: {e}") from None
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED, allowZip64=False) as z:
        z.writestr(_entry(MANIFEST), text.encode("ascii"))
        for name, a in stored.items():
            z.writestr(_entry(f"{name}.npy"), _npy(a))
    return out.getvalue()


@frozen
class Archive:
    """An array table file as read: its manifest (checked) and its arrays (read-only)."""

    manifest: dict[str, Any]
    arrays: dict[str, NDArray[Any]]


def _zip(path: Path, data: bytes) -> zipfile.ZipFile:
    """The archive ``data`` once its directory is known to be small; refused otherwise."""
    if len(data) < _END.size or data[-_END.size : -_END.size + 4] != _END_SIGNATURE:
        raise FileFormatError(
            f"{path}: not a zip archive as table files are written (no end record in its last "
            f"{_END.size} bytes: cut short, or a comment added?)"
        )
    _, disk, first, here, count, _, _, comment = _END.unpack(data[-_END.size :])
    if comment or disk or first or here != count:
        raise FileFormatError(f"{path}: a zip archive of a kind no table file is (comment, disks)")
    if data[-_END.size - 20 : -_END.size - 16] == _ZIP64_LOCATOR:
        raise FileFormatError(f"{path}: a zip64 archive; a table file is never one")
    if count > MAX_ARRAYS + 1:
        raise FileFormatError(
            f"{path}: {count:,} entries, more than the {MAX_ARRAYS + 1:,} a table file may hold"
        )
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, struct.error) as e:
        raise FileFormatError(f"{path}: not a readable zip archive ({e})") from None


def _check_entry(path: Path, info: zipfile.ZipInfo, limit: int) -> None:
    """Refuse an entry that is compressed, encrypted, or says it is larger than ``limit``."""
    if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 1:
        raise FileFormatError(f"{path}: entry {info.filename!r} is compressed or encrypted")
    if info.file_size != info.compress_size or info.file_size > limit:
        raise FileFormatError(
            f"{path}: entry {info.filename!r} says {info.file_size:,} bytes, more than the "
            f"{limit:,} it may hold"
        )


def _read_entry(path: Path, z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One entry's bytes (its sizes checked by ``_check_entry`` before)."""
    try:
        return z.read(info)
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, struct.error) as e:
        raise FileFormatError(f"{path}: entry {info.filename!r} cannot be read ({e})") from None


def _listed(path: Path, manifest: Any) -> list[tuple[str, str, tuple[int, ...], str]]:
    """The manifest's arrays (name, dtype, shape, digest), every field checked."""
    if not isinstance(manifest, dict):
        raise FileFormatError(f"{path}: its {MANIFEST} is not a JSON object")
    if manifest.get("archive") != ARCHIVE:
        raise FileFormatError(
            f"{path}: its {MANIFEST} says archive {manifest.get('archive')!r}, not {ARCHIVE!r}"
        )
    if not isinstance(manifest.get("meta"), dict):
        raise FileFormatError(f"{path}: its {MANIFEST} has no 'meta' object")
    listed = manifest.get("arrays")
    if not isinstance(listed, list) or len(listed) > MAX_ARRAYS:
        raise FileFormatError(f"{path}: its {MANIFEST} has no list of at most {MAX_ARRAYS} arrays")
    out: list[tuple[str, str, tuple[int, ...], str]] = []
    for i, entry in enumerate(listed):
        where = f"{path}: array {i + 1} of its {MANIFEST}"
        if not isinstance(entry, dict) or set(entry) != {"name", "dtype", "shape", "sha256"}:
            raise FileFormatError(f"{where} is not a name, dtype, shape and sha256")
        name, dtype, shape, digest = entry["name"], entry["dtype"], entry["shape"], entry["sha256"]
        try:
            check_name(name)
        except ValueError as e:
            raise FileFormatError(f"{where}: {e}") from None
        if dtype not in DTYPES:
            raise FileFormatError(f"{where} ({name}) has dtype {dtype!r}, not one of {DTYPES}")
        if (
            not isinstance(shape, list)
            or len(shape) > MAX_DIMENSIONS
            or any(type(n) is not int or n < 0 for n in shape)
        ):
            raise FileFormatError(f"{where} ({name}) has shape {shape!r}, not a list of sizes")
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise FileFormatError(f"{where} ({name}) has no SHA-256 digest")
        if out and name <= out[-1][0]:
            raise FileFormatError(f"{where} ({name}) is not after {out[-1][0]!r} in name order")
        out.append((name, dtype, tuple(shape), digest))
    return out


def _check_entries(path: Path, infos: list[zipfile.ZipInfo], want: list[str]) -> None:
    """Refuse an archive whose entries are not exactly ``want``, in order."""
    have = [info.filename for info in infos]
    if have == want:
        return
    extra = [n for n in have if n not in want]
    if extra:
        raise FileFormatError(
            f"{path}: holds an entry {extra[0]!r} that its {MANIFEST} does not name"
        )
    missing = [n for n in want if n not in have]
    if missing:
        raise FileFormatError(f"{path}: lacks the entry {missing[0]!r} that its {MANIFEST} names")
    raise FileFormatError(f"{path}: its entries are repeated or not in the {MANIFEST}'s order")


def _array(
    path: Path, data: bytes, name: str, dtype: str, shape: tuple[int, ...], digest: str
) -> NDArray[Any]:
    """An array from its ``.npy`` bytes, refused unless its header and data are the manifest's."""
    import numpy as np

    where = f"{path}: array {name!r}"
    f = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            found, fortran, kind = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            found, fortran, kind = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"NPY version {version}")
    except (ValueError, SyntaxError, TypeError, EOFError, OverflowError) as e:
        raise FileFormatError(f"{where}: not an NPY array its manifest describes ({e})") from None
    if kind.str != dtype or tuple(found) != shape or fortran:
        raise FileFormatError(
            f"{where}: its header says {kind.str} {tuple(found)}"
            f"{' in Fortran order' if fortran else ''}, its manifest {dtype} {shape}"
        )
    start = f.tell()
    size = math.prod(shape) * np.dtype(dtype).itemsize
    if len(data) - start != size:
        raise FileFormatError(
            f"{where}: {len(data) - start:,} bytes of data, but {dtype} {shape} needs {size:,}"
        )
    if _digest(memoryview(data)[start:]) != digest:
        raise FileFormatError(f"{where}: its values do not have the SHA-256 its manifest gives")
    # a view of the bytes read: read-only, as a table's arrays are
    values = np.frombuffer(data, dtype=np.dtype(dtype), count=math.prod(shape), offset=start)
    return values.reshape(shape)


def read_manifest(path: Path, data: bytes) -> dict[str, Any]:
    """The checked manifest of the array table file ``data`` (read from ``path``), without its
    arrays: what a command reads to learn the table's game and agent.

    Raises:
        FileFormatError: one line naming the file and what is wrong.
    """
    return _read(path, data, arrays=False).manifest


def read_archive(path: Path, data: bytes) -> Archive:
    """The array table file ``data`` (read from ``path``, at most the table size cap): its
    manifest and its arrays, each checked against the manifest.

    Raises:
        FileFormatError: one line naming the file and what is wrong.
    """
    return _read(path, data, arrays=True)


def _read(path: Path, data: bytes, arrays: bool) -> Archive:
    with _zip(path, data) as z:
        infos = z.infolist()
        if not infos or infos[0].filename != MANIFEST:
            raise FileFormatError(f"{path}: a zip archive whose first entry is not {MANIFEST}")
        for i, info in enumerate(infos):
            _check_entry(path, info, len(data) if i else min(len(data), MAX_MANIFEST_BYTES))
        if sum(info.file_size for info in infos) > len(data):
            # entries overlapping in the file: each would be read again and again
            raise FileFormatError(f"{path}: its entries say they hold more than the file does")
        text = utf8_text(path, _read_entry(path, z, infos[0]))
        manifest = parse_json(path, text)
        listed = _listed(path, manifest)
        _check_entries(path, infos, [MANIFEST, *(f"{name}.npy" for name, *_ in listed)])
        found = {}
        if arrays:
            for info, (name, dtype, shape, digest) in zip(infos[1:], listed, strict=True):
                raw = _read_entry(path, z, info)
                found[name] = _array(path, raw, name, dtype, shape, digest)
    return Archive(manifest, found)

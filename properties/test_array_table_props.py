"""Array table archives: any named arrays and meta round-trip exactly, their bytes are a function
of their values (byte order and memory layout aside), and a damaged archive is either refused
with a ``FileFormatError`` or read as exactly what was written (never another exception, never
other values)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from purestate.io.array_tables import ARCHIVE, DTYPES, archive_bytes, read_archive
from purestate.io.files import FileFormatError

PATH = Path("table.npz")

PART = r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,6}"
NAMES = st.from_regex(rf"{PART}(/{PART}){{0,2}}", fullmatch=True)
ARRAYS = st.sampled_from(DTYPES).flatmap(
    lambda d: hnp.arrays(
        np.dtype(d), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
    )
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
TABLES = st.tuples(
    st.dictionaries(st.text(max_size=6), JSON, max_size=4),
    st.dictionaries(NAMES, ARRAYS, max_size=4),
)


def _same(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    """Bit for bit (NaNs included), with the same shape and stored dtype."""
    stored = a.dtype.newbyteorder("<")
    return (
        a.shape == b.shape
        and b.dtype.str == stored.str
        and a.astype(stored).tobytes() == b.tobytes()
    )


@given(TABLES)
def test_arrays_and_meta_round_trip_to_the_same_bytes(table: tuple[Any, Any]) -> None:
    meta, arrays = table
    data = archive_bytes({"format": "test/1", "meta": meta}, arrays)
    read = read_archive(PATH, data)
    assert read.manifest["meta"] == meta and read.manifest["archive"] == ARCHIVE
    assert sorted(read.arrays) == sorted(arrays)
    assert all(_same(arrays[name], read.arrays[name]) for name in arrays)
    assert all(not a.flags.writeable for a in read.arrays.values())
    assert archive_bytes({"format": "test/1", "meta": meta}, read.arrays) == data


@given(TABLES, st.data())
def test_the_bytes_do_not_depend_on_byte_order_or_layout(
    table: tuple[Any, Any], data: st.DataObject
) -> None:
    meta, arrays = table
    moved = {}
    for name, a in arrays.items():
        if data.draw(st.booleans(), label=f"big-endian {name}"):
            a = a.astype(a.dtype.newbyteorder(">"))
        if a.ndim > 1 and data.draw(st.booleans(), label=f"Fortran {name}"):
            a = np.asfortranarray(a)
        moved[name] = a
    envelope = {"format": "test/1", "meta": meta}
    assert archive_bytes(envelope, moved) == archive_bytes(envelope, arrays)


@given(TABLES, st.data())
def test_a_damaged_archive_is_refused_or_read_unchanged(
    table: tuple[Any, Any], data: st.DataObject
) -> None:
    meta, arrays = table
    whole = archive_bytes({"format": "test/1", "meta": meta}, arrays)
    if data.draw(st.booleans(), label="cut"):
        damaged = whole[: data.draw(st.integers(0, len(whole) - 1), label="length")]
    else:
        at = data.draw(st.integers(0, len(whole) - 1), label="at")
        byte = data.draw(st.integers(0, 255).filter(lambda b: b != whole[at]), label="byte")
        damaged = whole[:at] + bytes([byte]) + whole[at + 1 :]
    try:
        read = read_archive(PATH, damaged)
    except FileFormatError as e:
        assert "\n" not in str(e) and str(e).startswith(str(PATH))
        return
    # a byte nothing reads (a local header's time, say): what was written, exactly
    assert read.manifest["meta"] == meta and sorted(read.arrays) == sorted(arrays)
    assert all(_same(arrays[name], read.arrays[name]) for name in arrays)

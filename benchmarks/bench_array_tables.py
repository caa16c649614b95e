"""Array table files: how fast a table of arrays is written and read, beside numpy's own ``.npz``.

Run: ``python benchmarks/bench_array_tables.py`` (add ``--quick`` for a smaller table).

The table: 24 float32 arrays (a network's weights and an optimizer's two moments) and an int8
replay buffer, 64 MiB in all (8 MiB with ``--quick``), drawn from a seeded generator. Each
figure is the median of 5 runs of CPU time in this one process, taken in turn with numpy's
``savez``/``load`` (to and from memory) on the same arrays, so the ratio is what to read: the
archive adds a SHA-256 per array and its checks to the same stored zip.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from purestate.io.array_tables import archive_bytes, read_archive

PATH = Path("bench.npz")


def _table(mib: int) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    per = (mib << 20) // 2 // 24 // 4  # half the bytes in 24 float32 arrays
    arrays: dict[str, Any] = {
        f"{part}/layer_{i}/w": rng.standard_normal(per, dtype=np.float32)
        for part in ("params", "adam/mu", "adam/nu")
        for i in range(8)
    }
    arrays["replay/planes"] = rng.integers(0, 2, size=(mib << 20) // 2, dtype=np.int8)
    return arrays


def _cpu(f: Callable[[], Any], reps: int = 5) -> float:
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        f()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _npz(arrays: dict[str, Any]) -> bytes:
    out = io.BytesIO()
    np.savez(out, **{k.replace("/", "."): v for k, v in arrays.items()})
    return out.getvalue()


def _load_npz(data: bytes) -> None:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        for name in z.files:
            z[name]


def main() -> None:
    mib = 8 if "--quick" in sys.argv else 64
    arrays = _table(mib)
    envelope = {"format": "bench/1", "meta": {}}
    ours = archive_bytes(envelope, arrays)
    theirs = _npz(arrays)
    write_ours = _cpu(lambda: archive_bytes(envelope, arrays))
    write_theirs = _cpu(lambda: _npz(arrays))
    read_ours = _cpu(lambda: read_archive(PATH, ours))
    read_theirs = _cpu(lambda: _load_npz(theirs))
    print(f"a table of {len(arrays)} arrays, {mib} MiB ({len(ours):,} bytes; numpy's "
          f"{len(theirs):,})")  # fmt: skip
    for what, a, b in (("write", write_ours, write_theirs), ("read", read_ours, read_theirs)):
        print(
            f"{what}: {mib / a:,.0f} MiB/CPU-s (numpy.savez/load: {mib / b:,.0f}; "
            f"ratio {a / b:.2f}x the time)"
        )


if __name__ == "__main__":
    main()

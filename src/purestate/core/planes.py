"""What games' observation planes (``Planes`` in ``core/game.py``) share: bits as 0/1 arrays.

numpy is imported on first use, so importing a game does not import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def bits(x: int, n: int) -> np.ndarray:
    """Bits 0..n-1 of ``x`` as 0/1 (int8), through numpy: a Python loop costs far more past a
    few dozen bits (Xtreme's boards have 1,458)."""
    import numpy as np

    raw = np.frombuffer(x.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little").view(np.int8)

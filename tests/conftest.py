"""Shared set-up for the example-based tests."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
# solutions cached by the tests go to a fresh folder, never into the user's ~/.cache
os.environ["PURESTATE_CACHE"] = tempfile.mkdtemp(prefix="purestate-test-cache-")


@pytest.fixture
def kill_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """``kill_at[0] = n`` kills the command at its n-th durable write (an fsync or a rename);
    ``kill_at[1]`` counts the writes made (``tests.kills``)."""
    # imported here: purestate's CLI is imported only after the environment above is set
    from tests.kills import kill_writes

    yield kill_writes(monkeypatch)

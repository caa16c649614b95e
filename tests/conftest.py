"""Shared set-up for the example-based tests."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("MPLBACKEND", "Agg")
# solutions cached by the tests go to a fresh folder, never into the user's ~/.cache
os.environ["PURESTATE_CACHE"] = tempfile.mkdtemp(prefix="purestate-test-cache-")

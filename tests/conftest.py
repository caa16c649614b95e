"""Shared fixtures for the example-based tests."""

from __future__ import annotations

import os

os.environ.setdefault("MPLBACKEND", "Agg")

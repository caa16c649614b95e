"""Killing a command at each of its durable writes, and what its folder holds after (shared by
the run folder tests; the ``kill_at`` fixture is in tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from purestate.cli import app
from purestate.io.selfplay import KERNELS_FILE

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


def files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by relative path, with its bytes: the results, so not
    ``kernels.jsonl``, which has a line for each part of a run (one more once resumed)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != KERNELS_FILE
    }


def finish(*cmd: str, folder: Path) -> Result:
    """Continue a killed run in ``folder``, or start it again if the kill came before the folder
    was made."""
    if folder.exists():
        return invoke(*cmd, "--resume", str(folder))
    return invoke(*cmd, "--out", str(folder))


class Killed(Exception):
    """Stands for the process being killed at one write: nothing after it happens."""


def kill_writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``state[0] = n`` kills the command at its n-th durable write (an fsync or a rename),
    raising ``Killed``; ``state[1]`` counts the writes made."""
    state = [0, 0]
    for name in ("fsync", "replace"):
        real = getattr(os, name)

        def fake(*args: object, _real: object = real) -> object:
            state[1] += 1
            if state[1] == state[0]:
                raise Killed
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(os, name, fake)
    return state


def kill_everywhere(cmd: list[str], tmp_path: Path, kill_at: list[int]) -> int:
    """Run ``cmd`` once whole, then once killed at each of its durable writes and resumed; every
    resumed folder must hold the whole run's files byte for byte. Returns the number of writes."""
    whole = tmp_path / "whole"
    kill_at[:] = [0, 0]
    assert invoke(*cmd, "--out", str(whole)).exit_code == 0
    writes = kill_at[1]
    for n in range(1, writes + 1):
        out = tmp_path / f"k{n}"
        kill_at[:] = [n, 0]
        r = invoke(*cmd, "--out", str(out))
        assert isinstance(r.exception, Killed), (n, r.output)
        kill_at[:] = [0, 0]
        r = finish(*cmd, folder=out)
        assert r.exit_code == 0, (n, r.output)
        assert files(out) == files(whole), n
    return writes

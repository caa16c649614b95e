"""A selfplay run records which kernels played it (``kernels.jsonl``), apart from its results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from purestate.cli import app
from purestate.core import compiled
from purestate.io.files import FileFormatError
from purestate.io.selfplay import KERNELS_FILE, note_kernels

runner = CliRunner()


def lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (folder / KERNELS_FILE).read_text().splitlines()]


def test_each_part_of_a_run_has_its_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = runner.invoke(app, ["selfplay", "--games", "30", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    shown = json.loads(r.output)["kernels"]
    assert lines(out) == [{"games": [0, 30], "kernels": shown}]
    assert shown in ("python", compiled.backend())
    r = runner.invoke(app, ["selfplay", "--resume", str(out), "--more", "10", "--json"])
    assert r.exit_code == 0, r.output
    assert [x["games"] for x in lines(out)] == [[0, 30], [30, 40]]
    # a run already complete plays nothing and notes nothing
    assert runner.invoke(app, ["selfplay", "--resume", str(out)]).exit_code == 0
    assert len(lines(out)) == 2


def test_a_part_says_numba_if_any_of_its_processes_ran_a_kernel(tmp_path: Path) -> None:
    assert note_kernels(tmp_path, 0, 5, {"python"}) == "python"
    assert note_kernels(tmp_path, 5, 9, {"python", "numba 0.68.1"}) == "numba 0.68.1"
    assert lines(tmp_path) == [
        {"games": [0, 5], "kernels": "python"},
        {"games": [5, 9], "kernels": "numba 0.68.1"},
    ]


def _command(out: Path, games: int, env: dict[str, str]) -> str:
    """A run in a new process (which kernels a process ran is its own history)."""
    done = subprocess.run(
        [sys.executable, "-m", "purestate", "selfplay", "--games", str(games), "--out", str(out),
         "--no-plot", "--json"],
        env={**os.environ, **env}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return str(json.loads(done.stdout)["kernels"])


def test_a_short_menace_run_is_pure_python_and_a_long_one_compiled(tmp_path: Path) -> None:
    # the short run plays the Python twin even where numba is installed, and says so
    assert _command(tmp_path / "short", 200, {}) == "python"
    assert _command(tmp_path / "pure", 200, {"NUMBA_DISABLE_JIT": "1"}) == "python"
    if compiled.backend() == "python":
        pytest.skip("numba is not installed: the compiled path is not there to record")
    from purestate.agents.menace_compiled import COMPILED_FROM

    numba = compiled.backend()
    assert _command(tmp_path / "long", COMPILED_FROM, {}) == numba
    assert lines(tmp_path / "long") == [{"games": [0, COMPILED_FROM], "kernels": numba}]


def test_the_record_is_never_written_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.write_text("untouched")
    run = tmp_path / "run"
    run.mkdir()
    (run / KERNELS_FILE).symlink_to(outside)
    with pytest.raises(FileFormatError, match="link"):
        note_kernels(run, 0, 1, {"python"})
    assert outside.read_text() == "untouched"


def test_a_terminated_run_notes_its_part_as_after_ctrl_c(tmp_path: Path) -> None:
    # SIGTERM (kill, a job scheduler's stop) used to end the command without unwinding, so the
    # part it had played was never noted
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "purestate", "selfplay", "--opponent", "self", "--games",
           "5000000", "--checkpoint", "20000", "--no-plot", "--out", str(out)]  # fmt: skip
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while p.poll() is None and time.monotonic() < deadline:
            if (out / "checkpoint.json").exists():
                break
            time.sleep(0.01)
        assert p.poll() is None, "the run ended before its first checkpoint"
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    noted = lines(out)
    assert len(noted) == 1 and noted[0]["games"][0] == 0, noted

"""The README's tour runs, command by command, in a fresh folder.

Counts are scaled by ``PURESTATE_README_SCALE`` (default 0.02: every command runs, small); set it
to 1 to run the tour exactly as written. Interactive commands get ``q`` on their input.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import urllib.request
from importlib.util import find_spec
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"
SCALE = float(os.environ.get("PURESTATE_README_SCALE", "0.02"))


def tour() -> list[list[str]]:
    """The commands of the README's "A short tour" block, continuation lines joined."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("```", 2)[1]
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "purestate", line
            commands.append(words[1:])
    return commands


def scaled(args: list[str]) -> list[str]:
    """``args`` with game and seed counts scaled down by ``SCALE``."""
    out = list(args)
    for i, word in enumerate(out[:-1]):
        value = out[i + 1]
        if word in ("--games", "--more", "-multi_test", "--multi-test"):
            out[i + 1] = str(max(2, round(int(value) * SCALE)))
        elif word == "--seeds" and (m := re.fullmatch(r"(\d+)-(\d+)", value)):
            lo, hi = int(m[1]), int(m[2])
            out[i + 1] = f"{lo}-{lo + max(1, round((hi - lo + 1) * SCALE)) - 1}"
    return out


def test_the_tour_is_not_empty() -> None:
    assert len(tour()) >= 15


def serves(args: list[str], folder: Path) -> None:
    """``purestate serve`` runs until stopped: start it on a free port, load the start page and
    the runs page (which lists the runs the tour wrote), then stop it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "purestate", *args, "--port", "0"],
        cwd=folder, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "MPLBACKEND": "Agg", "COLUMNS": "200"},
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the server names its address once it listens
        url = re.search(r"http://\S+/", line)
        assert url, line
        with urllib.request.urlopen(url[0], timeout=30) as page:
            assert page.status == 200 and b"tictactoe" in page.read()
        with urllib.request.urlopen(url[0] + "runs", timeout=30) as page:
            assert b'href="/runs/menace"' in page.read()
    finally:
        proc.terminate()
        proc.wait(30)


def tour_command(args: list[str], folder: Path) -> str | None:
    """Run one of the tour's commands in ``folder``: what went wrong, or None."""
    if args[0] == "serve":
        serves(args, folder)
        return None
    done = subprocess.run(
        [sys.executable, "-m", "purestate", *scaled(args)],
        cwd=folder, input="q\n", capture_output=True, text=True, timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )  # fmt: skip
    if done.returncode != 0 or "Traceback" in done.stderr:
        return f"purestate {' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return None


def test_every_tour_command_runs(tmp_path: Path) -> None:
    # one test, the commands in order in one folder: later ones read the runs earlier ones
    # wrote, which separate tests could not count on (pytest-xdist spreads tests over workers)
    failed = []
    for args in tour():
        if (
            any(a.startswith(("openspiel", "--openspiel")) for a in args)
            and find_spec("pyspiel") is None
        ):
            continue  # needs purestate[openspiel]
        problem = tour_command(args, tmp_path)
        if problem is not None:
            failed.append(problem)
    assert not failed, "\n\n".join(failed)


def library_example() -> str:
    """The Python block of the README's "As a library" section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## As a library", 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_library_example_runs_and_prints_what_the_readme_says(tmp_path: Path) -> None:
    # two processes with different hash seeds: the experiment depends only on its keys
    printed = []
    for hash_seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", library_example()],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout)
    assert printed[0] == printed[1]
    lines = printed[0].splitlines()
    assert len(lines) == 2 and lines[0].count("Tally(") == 4
    # the figures the README quotes are the ones the code prints
    section = README.read_text(encoding="utf-8").split("## As a library", 1)[1]
    assert f"`{lines[1]}`" in section.split("\n## ", 1)[0]
    said = re.search(
        r"\((\d+) wins and (\d+) losses in the first 500 games, (\d+) and (\d+) in", section
    )
    assert said is not None
    tallies = re.findall(r"Tally\(wins=(\d+), draws=\d+, losses=(\d+)\)", lines[0])
    assert [*tallies[0], *tallies[-1]] == list(said.groups())

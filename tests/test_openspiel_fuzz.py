"""No OpenSpiel option crashes a process (issue 20): every integer parameter of every OpenSpiel
game the bridge accepts, at 0, -1, 1 and two huge values, given to ``purestate evaluate --game
openspiel:NAME:PARAM=V --agent random --games 1``. Each run ends with exit code 0 (played) or 2
(refused in one line), never a signal, a traceback or a hang.

The commands run through the CLI (typer's runner) in child processes, several per child: a child
reports each case before and after it runs, so a child killed by a signal names the case that
killed it, and a fresh child carries on with the cases after it. Two children run at once.

The sweep is about 200 commands over 31 games and takes about 40 s with two children.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from typing import IO

import pytest

pytestmark = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs purestate[openspiel]")

INT_MAX = 2**31 - 1
VALUES = (0, -1, 1, INT_MAX, 10**23)
"""0, -1, 1, the largest C int and one no C int holds."""

REPRODUCTIONS = (
    "connect_four:rows=0",  # these three killed the process with SIGSEGV
    "havannah:board_size=-1",
    "y:board_size=-1",
    "hex:board_size=0",  # and these printed tracebacks
    "clobber:rows=1,columns=1",
    "hex:board_size=99999999999999999999999",
    "breakthrough:rows=0",
    "go:board_size=1",
    "hex:board_size=1",  # the first move leaves no move, yet the game goes on
    "crazyhouse:insanity=2147483647",  # a move took seconds
    "gomoku:dims=3,size=64",  # 262,144 cells
)
"""Issue 20's reproductions, and what the sweep found besides."""
PER_CASE_SECONDS = 60

# The child: reads cases (JSON lists of CLI arguments) from stdin, runs each through the CLI and
# prints one line before ("@start i") and one after ("@end i CODE ERRORS EXCEPTION": the exit
# code, how many "error:" lines the command printed, plus 100 for a traceback in its output, and
# the exception that escaped it, if any).
CHILD = r"""
import json, sys
from typer.testing import CliRunner
from purestate.cli import app
{prelude}
cases = json.load(sys.stdin)
first = int(sys.argv[1])
runner = CliRunner()
for i in range(first, len(cases)):
    print(f"@start {i}", flush=True)
    r = runner.invoke(app, cases[i])
    crashed = r.exception is not None and not isinstance(r.exception, SystemExit)
    where = repr(r.exception).replace("\n", " ")[:300] if crashed else ""
    said = r.output.splitlines()
    lines = sum(ln.startswith("error: ") for ln in said) + 100 * ("Traceback" in r.output)
    print(f"@end {i} {r.exit_code} {lines} {where}", flush=True)
"""


def bridged_games() -> list[tuple[str, dict[str, int]]]:
    """The OpenSpiel games the bridge accepts with their defaults, with their integer options."""
    import pyspiel

    import purestate

    out = []
    for gt in sorted(pyspiel.registered_games(), key=lambda t: t.short_name):
        if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL or gt.max_num_players < 2:
            continue
        try:
            purestate.make(f"openspiel:{gt.short_name}")
        except purestate.SpecError:
            continue
        ints = {k: v for k, v in gt.parameter_specification.items() if type(v) is int}
        out.append((gt.short_name, ints))
    return out


def command(game: str) -> tuple[str, ...]:
    """The command line the issue ran."""
    return ("evaluate", "--game", f"openspiel:{game}", "--agent", "random", "--games", "1")


def cases() -> list[tuple[str, ...]]:
    """The command lines, one per game, integer option and value."""
    return [
        command(f"{name}:{param}={v}")
        for name, ints in bridged_games()
        for param in sorted(ints)
        for v in VALUES
    ]


def run_children(
    commands: list[tuple[str, ...]], prelude: str = "", per_case: float = PER_CASE_SECONDS
) -> list[tuple[int | str, int, str]]:
    """Each command's outcome: (exit code, error lines printed, the exception), or
    ("signal N", 0, "") / ("hang", 0, "") for the case a child died or stalled in.
    ``prelude`` is code the child runs before the cases (the runner's own test uses it)."""
    results: dict[int, tuple[int | str, int, str]] = {}
    stdin = json.dumps([list(c) for c in commands])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    first = 0
    while first < len(commands):
        child = [sys.executable, "-c", CHILD.replace("{prelude}", prelude), str(first)]
        with tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen(
                child, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env
            )
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(stdin)
            proc.stdin.close()
            lines: queue.Queue[str | None] = queue.Queue()
            reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines))
            reader.start()
            started, stalled = None, False
            while (line := _next(lines, per_case)) is not None:
                if line == "":  # no line for per_case seconds
                    proc.kill()
                    stalled = True
                    break
                if line.startswith("@start "):
                    started = int(line.split()[1])
                elif line.startswith("@end "):
                    _, i, exit_code, shown, *where = line.rstrip("\n").split(" ", 4)
                    results[int(i)] = (int(exit_code), int(shown), " ".join(where))
                    started = None
            code = proc.wait()
            reader.join()
            err.seek(0)
            stderr = err.read()
        if started is None:
            if code == 0:
                break
            raise AssertionError(f"the fuzz child failed ({code}): {stderr[-2000:]}")
        results[started] = ("hang" if stalled else f"signal {-code}", 0, "")
        first = started + 1
    return [results[i] for i in range(len(commands))]


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _next(lines: queue.Queue[str | None], seconds: float) -> str | None:
    """The child's next line, None at its end, or "" when it printed nothing for ``seconds``."""
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        return ""


def sweep(commands: list[tuple[str, ...]], workers: int = 2) -> list[tuple[int | str, int, str]]:
    """``run_children`` over ``workers`` interleaved shares of the commands, at once."""
    shares = [commands[w::workers] for w in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        done = list(pool.map(run_children, shares))
    out: list[tuple[int | str, int, str]] = [(0, 0, "")] * len(commands)
    for w, results in enumerate(done):
        out[w::workers] = results
    return out


def failures(
    commands: list[tuple[str, ...]], outcomes: list[tuple[int | str, int, str]]
) -> list[str]:
    """The cases that did not end with 0 and no error, or 2 and one error line."""
    return [
        f"{c[2]}: {code} {errors} {where}"
        for c, (code, errors, where) in zip(commands, outcomes, strict=True)
        if (code, errors, where) not in ((0, 0, ""), (2, 1, ""))
    ]


def test_the_issues_reproductions_are_refused_in_one_line() -> None:
    commands = [command(game) for game in REPRODUCTIONS]
    outcomes = run_children(commands)
    assert not failures(commands, outcomes)
    assert [code for code, _, _ in outcomes] == [2] * len(REPRODUCTIONS)


def test_no_openspiel_option_crashes_a_process() -> None:
    commands = cases()
    outcomes = sweep(commands)
    bad = failures(commands, outcomes)
    assert not bad, f"{len(bad)} of {len(commands)} cases failed:\n" + "\n".join(bad)
    refused = sum(code == 2 for code, _, _ in outcomes)
    # the sweep reaches both ends: some values play, the others are refused
    assert 0 < refused < len(commands)


CRASH_AND_HANG = """
import os, signal, time
_invoke = CliRunner.invoke
def invoke(self, app, args):
    if args == ["crash"]:
        os.kill(os.getpid(), signal.SIGSEGV)
    if args == ["hang"]:
        time.sleep(60)
    return _invoke(self, app, args)
CliRunner.invoke = invoke
"""


def test_the_fuzz_runner_names_the_case_that_kills_or_stalls_its_child() -> None:
    # the runner can fail: a case that kills its child by a signal or never ends is reported,
    # and the cases after it still run
    commands = [("--version",), ("crash",), ("games", "--bogus"), ("hang",), ("--version",)]
    outcomes = run_children(commands, prelude=CRASH_AND_HANG, per_case=5)
    assert [o[0] for o in outcomes] == [0, "signal 11", 2, "hang", 0]

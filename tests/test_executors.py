"""Local workers die with the process that started them: a ``kill -9`` of a command running on
``--jobs 2`` leaves no worker behind and no run folder locked (issue 20, finding 6)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return fields[0], int(fields[1])


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and st[1] == pid:
                out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")  # a zombie holds no files


def _locked(folder: Path) -> bool:
    """Whether some process holds the folder's lock (the check ``run_folder`` makes)."""
    try:
        fd = os.open(folder / ".lock", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _kill_with_workers(argv: list[str], workers: int = 2) -> set[int]:
    """Start ``argv``, wait until it has ``workers`` children, ``kill -9`` it; its children."""
    owner = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        children: set[int] = set()
        while len(children) < workers and owner.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
            children = _children(owner.pid)
        assert len(children) >= workers, "the command ended before its workers started"
    finally:
        owner.kill()
        owner.wait()
    return children


def _wait_for_the_end(children: set[int], folder: Path | None, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(map(_alive, children)) and (folder is None or not _locked(folder)):
            break
        time.sleep(0.05)
    survivors = [pid for pid in children if _alive(pid)]
    try:
        assert not survivors, f"workers {survivors} outlived their owner"
        assert folder is None or not _locked(folder), f"{folder} is still locked"
    finally:
        for pid in survivors:  # never leave them running after a failure
            with contextlib.suppress(OSError):
                os.kill(pid, 9)


PURESTATE = [sys.executable, "-m", "purestate"]
SWEEP = ["sweep", "--grid", "menace", "--seeds", "0-3", "--games", "3000", "--checkpoint", "0",
         "--opponent", "random", "--jobs", "2", "--json"]  # fmt: skip
TOURNAMENT = ["tournament", "-g", "tictactoe", "-a", "random", "-a", "random", "--jobs", "2",
              "--json"]  # fmt: skip


def test_a_killed_sweep_leaves_no_worker_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    children = _kill_with_workers([*PURESTATE, *SWEEP, "--out", str(out)])
    _wait_for_the_end(children, out)
    resumed = subprocess.run(
        [*PURESTATE, *SWEEP, "--resume", str(out)], capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(list(out.glob("runs/*/seed-*/summary.json"))) == 4


def test_a_killed_tournament_leaves_no_worker_and_a_usable_folder(tmp_path: Path) -> None:
    out = tmp_path / "tournament"
    children = _kill_with_workers([*PURESTATE, *TOURNAMENT, "--games", "100000", "--out", str(out)])
    _wait_for_the_end(children, out)
    again = subprocess.run(
        [*PURESTATE, *TOURNAMENT, "--games", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert (out / "standings.json").exists()


OWNER = """
import sys, time
from purestate import executors
if sys.argv[1] == "watch":  # as where the kernel cannot be asked (not Linux)
    executors._kernel_kills_orphans = lambda: False
executors.LocalExecutor(2, batch=1).run(time.sleep, [600.0] * 4)
"""


@pytest.mark.parametrize("how", ["kernel", "watch"])
def test_workers_of_a_killed_owner_end_at_once(how: str) -> None:
    children = _kill_with_workers([sys.executable, "-c", OWNER, how])
    _wait_for_the_end(children, None)


def test_small_runs_go_a_game_a_task_and_large_ones_at_most_16() -> None:
    from purestate.executors import batch_size

    assert batch_size(60, 2) == 1  # a tournament of searches: the bar moves with every game
    assert batch_size(1, 2) == 1 and batch_size(0, 2) == 1
    assert batch_size(10**6, 2) == 16
    assert all(1 <= batch_size(n, w) <= 16 for n in range(0, 2000, 37) for w in (1, 2, 8))


def test_an_evaluation_on_an_executor_plays_the_games_of_one_process() -> None:
    # a round at a time, a job a game: they come back in game order, the progress in step
    import purestate
    from purestate.core.keys import key
    from purestate.experiments import evaluate
    from purestate.experiments.evaluate import ROUND, seat_games

    game, bot = purestate.make("tictactoe"), purestate.agent("mcts:simulations=4")
    calls: list[list[range]] = []
    heard: list[int] = []

    def in_turn(fn: Any, jobs: Any, progress: Any) -> list[Any]:
        calls.append([j.indices for j in jobs])
        out = []
        for n, j in enumerate(jobs):
            out.append(fn(j))
            progress(n + 1, len(jobs))
        return out

    games = ROUND + 7
    for seat in (0, 1):
        alone = list(seat_games(game, bot, None, bot, None, seat, games, key(2)))
        calls.clear()
        spread = seat_games(game, bot, None, bot, None, seat, games, key(2), in_turn, heard.append)
        assert [ep.moves for ep in spread] == [ep.moves for ep in alone]
        assert [len(c) for c in calls] == [ROUND, 7] and heard[-1] == games
        assert [i for c in calls for r in c for i in r] == list(range(games))
    job = evaluate.SeatGames(game, bot, None, bot, None, 1, key(2), range(5, 8))
    assert [ep.moves for ep in evaluate.play_seat_games(job)] == [ep.moves for ep in alone[5:8]]


def test_every_registered_agent_pickles_to_itself() -> None:
    # workers receive agents by pickle (evaluate, tournament and sweep on --jobs or --dask)
    import pickle

    import purestate

    for name in purestate.agents():
        if name.startswith("openspiel") and find_spec("pyspiel") is None:
            continue  # needs purestate[openspiel]
        if name == "alphazero" and find_spec("jax") is None:
            continue  # needs purestate[alphazero]
        agent = purestate.agent(name)
        assert pickle.loads(pickle.dumps(agent)) == agent, name

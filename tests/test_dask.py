"""A real Dask cluster on loopback gives the same tournament and sweep as one local job."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from purestate.cli import app

distributed = pytest.importorskip("distributed")

runner = CliRunner()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_sweep_on_dask_equals_one_job(tmp_path: Path, scheduler: str) -> None:
    base = ["sweep", "--grid", "menace:preset=michie,scroggs", "--seeds", "0-1", "--games", "60",
            "--checkpoint", "25", "--block", "20", "--opponent", "random"]  # fmt: skip
    local, remote = tmp_path / "local", tmp_path / "dask"
    assert runner.invoke(app, [*base, "--out", str(local), "--jobs", "1"]).exit_code == 0
    r = runner.invoke(app, [*base, "--out", str(remote), "--dask", scheduler])
    assert r.exit_code == 0, r.output
    for f in ("aggregate.json", "aggregate.csv"):
        assert (local / f).read_text() == (remote / f).read_text()
    for p in local.rglob("games.jsonl"):
        assert p.read_text() == (remote / p.relative_to(local)).read_text()


def test_tournament_on_dask_equals_one_job(scheduler: str) -> None:
    base = ["tournament", "--game", "tictactoe", "--agents", "random", "--agents", "rules:p=0.5",
            "--agents", "perfect", "--games", "12", "--seed", "3", "--json"]  # fmt: skip
    one = runner.invoke(app, [*base, "--jobs", "1"])
    assert one.exit_code == 0, one.output
    remote = runner.invoke(app, [*base, "--dask", scheduler])
    assert remote.exit_code == 0, remote.output
    assert json.loads(one.output) == json.loads(remote.output)


def test_alphazero_selfplay_on_dask_writes_the_files_of_one_process(
    tmp_path: Path, scheduler: str
) -> None:
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    from tests.kills import files

    tiny = "alphazero:simulations=4,games_per_iteration=4,steps=3,batch=8,width=8,depth=0"
    base = ["selfplay", "--game", "tictactoe", "--agent", tiny, "--opponent", "self",
            "--games", "6", "--checkpoint", "3", "--seed", "2"]  # fmt: skip
    local, remote = tmp_path / "local", tmp_path / "dask"
    assert runner.invoke(app, [*base, "--out", str(local)]).exit_code == 0
    r = runner.invoke(app, [*base, "--out", str(remote), "--dask", scheduler, "--jobs", "2"])
    assert r.exit_code == 0, r.output
    assert files(local) == files(remote)


def test_evaluate_on_dask_equals_one_job(tmp_path: Path, scheduler: str) -> None:
    base = ["evaluate", "--agent", "mcts:simulations=10", "--opponent", "random", "--games", "12",
            "--seed", "6", "--json"]  # fmt: skip
    local = runner.invoke(app, [*base, "--out", str(tmp_path / "local")])
    remote = runner.invoke(app, [*base, "--out", str(tmp_path / "remote"), "--dask", scheduler])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert json.loads(local.stdout) == json.loads(remote.stdout)
    log = "games.jsonl"
    assert (tmp_path / "local" / log).read_bytes() == (tmp_path / "remote" / log).read_bytes()

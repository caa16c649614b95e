"""A sweep checks what it is given before it works: grid sizes and names, duplicate settings,
the executor, and the files of a folder it resumes (issue 20, findings 8, 9 and 10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import purestate.experiments.sweep as sweep
from purestate.cli import app
from purestate.core.spec import SpecError
from purestate.experiments.sweep import MAX_RUNS, MAX_SETTINGS, grid_settings, grid_size

runner = CliRunner()
SWEEP = ["sweep", "--grid", "menace", "--seeds", "0-1", "--games", "40", "--block", "20",
         "--checkpoint", "20", "--opponent", "random", "--jobs", "1", "--json"]  # fmt: skip


def one_line(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    return lines[0]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# --- duplicate settings (finding 9) ------------------------------------------------------------


@pytest.mark.parametrize(
    "grids",
    [
        ["menace:preset=michie", "menace:preset=michie"],
        ["menace:preset=michie,scroggs,michie"],
        ["menace:preset=michie", "menace"],  # michie is the default preset
        ["menace:preset=scroggs,beads=1", "menace:beads=1,preset=scroggs"],
    ],
)
def test_a_setting_given_twice_is_refused(grids: list[str]) -> None:
    with pytest.raises(SpecError, match="give each setting once"):
        grid_settings(grids)
    args = [a for g in grids for a in ("--grid", g)]
    line = one_line(runner.invoke(app, ["sweep", *args, "--seeds", "0-3", "--games", "10"]))
    assert "give each setting once" in line


def test_distinct_settings_pass_in_the_order_written() -> None:
    assert grid_settings(["menace:preset=michie,scroggs", "random"]) == (
        "menace:preset=michie",
        "menace:preset=scroggs",
        "random",
    )


# --- sizes before work (finding 10) ------------------------------------------------------------


def _huge(axes: int, name: str = "beads") -> str:
    """A menace grid of 10**axes settings whose first option is ``name``."""
    values = ",".join(str(v) for v in range(1, 11))
    options = [f"{name}={values}"] + [f"x{i}={values}" for i in range(axes - 1)]
    return "menace:" + ",".join(options)


def test_grid_size_is_counted_not_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_product(*args: object) -> None:
        raise AssertionError("the grid was expanded")

    monkeypatch.setattr(sweep.itertools, "product", no_product)
    assert grid_size(_huge(30)) == 10**30
    most = f"10,000,000 settings; a sweep takes at most {MAX_SETTINGS:,}"
    with pytest.raises(SpecError, match=most):
        grid_settings([_huge(7)])


def test_option_names_are_checked_before_the_grid_is_expanded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expanded: list[str] = []
    monkeypatch.setattr(sweep, "expand_grid", lambda g: expanded.append(g) or ())
    with pytest.raises(SpecError, match="menace has no option 'bedas'"):
        grid_settings([_huge(3, "bedas")])
    assert expanded == []


def test_runs_are_bounded_before_they_are_made() -> None:
    with pytest.raises(SpecError, match=f"make 200,000 runs; a sweep takes at most {MAX_RUNS:,}"):
        grid_settings(["menace:beads=" + ",".join(map(str, range(1, 201)))], seeds=1000)


@pytest.mark.parametrize(
    ("grid", "message"),
    [(_huge(7), "10,000,000 settings"), (_huge(2, "bedas"), "no option 'bedas'")],
)
def test_the_cli_refuses_big_or_misspelled_grids_in_one_line(
    tmp_path: Path, grid: str, message: str
) -> None:
    out = tmp_path / "s"
    line = one_line(runner.invoke(app, ["sweep", "--grid", grid, "--out", str(out)]))
    assert message in line
    assert not out.exists()


# --- the executor before any file (finding 8) --------------------------------------------------


def test_dask_missing_is_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("distributed", "distributed.comm"):  # as if the extra were not installed
        monkeypatch.setitem(sys.modules, name, None)
    out = tmp_path / "s"
    line = one_line(runner.invoke(app, [*SWEEP, "--dask", "tcp://127.0.0.1:1", "--out", str(out)]))
    assert "pip install 'purestate[dask]'" in line
    assert not out.exists()
    args = ["tournament", "-g", "tictactoe", "-a", "random", "random", "--dask", "tcp://x:1"]
    assert "purestate[dask]" in one_line(runner.invoke(app, args))


def test_a_bad_dask_address_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "s"
    line = one_line(runner.invoke(app, [*SWEEP, "--dask", "nonsense", "--out", str(out)]))
    assert "--dask 'nonsense'" in line
    assert not out.exists()


# --- the files of a folder resumed (finding 8) -------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "s"
    r = runner.invoke(app, [*SWEEP, "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _copy(finished: Path, to: Path) -> Path:
    for name, data in files(finished).items():
        (to / name).parent.mkdir(parents=True, exist_ok=True)
        (to / name).write_bytes(data)
    return to


def _summary(**change: object) -> str:
    blocks = [{"wins": 1, "draws": 0, "losses": 19}, {"wins": 0, "draws": 1, "losses": 19}]
    good = {"agent": "menace", "seed": 0, "block": 20, "opponent": "random", "games": 40,
            "wins": 1, "draws": 1, "losses": 38, "blocks": blocks}  # fmt: skip
    return json.dumps({**good, **change})


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{}", "its agent is None"),
        ("[]", "not a JSON object"),
        ("null", "not a JSON object"),
        (_summary(seed=True), "its seed is True"),
        (_summary(seed=1), "its seed is 1"),
        (_summary(block=20.0), "its block is 20.0"),
        (_summary(games=1e300), "its games are 1e+300"),
        (_summary(games=41), "its games are 41"),
        (_summary(opponent=None), "no opponent"),
        (_summary(blocks=[None, 5]), "not counts"),
        (_summary(wins=-1, draws=3), "not counts"),
        (_summary(wins="1"), "not counts"),
        (_summary(blocks=[]), "0 blocks for 40 games"),
        (_summary(wins=2), "do not add up"),
        (_summary(blocks=[{"wins": 1, "draws": 0, "losses": 19}] * 2), "blocks do not add up"),
    ],
)
def test_a_summary_that_is_not_the_runs_is_refused_naming_it(
    finished: Path, tmp_path: Path, text: str, why: str
) -> None:
    out = _copy(finished, tmp_path / "s")
    bad = out / "runs" / "menace" / "seed-0" / "summary.json"
    bad.write_text(text)
    before = files(out)
    line = one_line(runner.invoke(app, [*SWEEP, "--resume", str(out)]))
    assert str(bad) in line and why in line
    assert files(out) == before
    # what the line says to do works: the summary is written again from the checkpoint
    bad.unlink()
    r = runner.invoke(app, [*SWEEP, "--resume", str(out)])
    assert r.exit_code == 0, r.output
    assert files(out) == files(finished)


def test_a_good_summary_written_by_hand_is_accepted(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished, tmp_path / "s")
    summary = json.loads((out / "runs" / "menace" / "seed-0" / "summary.json").read_text())
    tally = {n: summary[n] for n in ("wins", "draws", "losses")}
    (out / "runs" / "menace" / "seed-0" / "summary.json").write_text(
        _summary(**tally, blocks=summary["blocks"])
    )
    assert runner.invoke(app, [*SWEEP, "--resume", str(out)]).exit_code == 0


@pytest.mark.parametrize("text", ["[]", "null", "3", '"sweep"'])
def test_a_manifest_that_is_not_a_sweep_is_refused_naming_it(
    finished: Path, tmp_path: Path, text: str
) -> None:
    out = _copy(finished, tmp_path / "s")
    (out / "sweep.json").write_text(text)
    before = files(out)
    line = one_line(runner.invoke(app, [*SWEEP, "--resume", str(out)]))
    assert str(out / "sweep.json") in line
    assert files(out) == before

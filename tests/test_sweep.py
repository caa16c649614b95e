"""Sweeps and executors: grids, seeds, identical results for any executor, resuming."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import purestate.cli.sweep as sweep_cli
from purestate.cli import app
from purestate.core.spec import SpecError
from purestate.executors import LocalExecutor
from purestate.experiments.sweep import aggregate, expand_grid, mean_band, parse_seeds
from purestate.io.files import write_json
from purestate.io.selfplay import KERNELS_FILE
from purestate.web.runs import sweep_settings

runner = CliRunner()
BASE = ["sweep", "--grid", "menace:preset=michie,scroggs", "--seeds", "0-2", "--games", "90",
        "--block", "30", "--checkpoint", "40", "--opponent", "random"]  # fmt: skip


def test_parse_seeds() -> None:
    assert parse_seeds("0-3") == (0, 1, 2, 3)
    assert parse_seeds("1,5,7-8") == (1, 5, 7, 8)
    for bad in ("3-1", "a", "1,1", ""):
        with pytest.raises(SpecError):
            parse_seeds(bad)


def test_expand_grid() -> None:
    assert expand_grid("menace:preset=michie,scroggs") == (
        "menace:preset=michie",
        "menace:preset=scroggs",
    )
    assert expand_grid("qlearning:alpha=0.1,0.2,gamma=1,0.9") == (
        "qlearning:alpha=0.1,gamma=1",
        "qlearning:alpha=0.1,gamma=0.9",
        "qlearning:alpha=0.2,gamma=1",
        "qlearning:alpha=0.2,gamma=0.9",
    )
    assert expand_grid("random") == ("random",)
    with pytest.raises(SpecError):
        expand_grid("menace:scroggs")


def test_mean_band_uses_student_t() -> None:
    mean, _low, high = mean_band([0.1, 0.2, 0.3])
    assert mean == pytest.approx(0.2)
    assert high - mean == pytest.approx(4.303 * 0.1 / 3**0.5, rel=1e-3)


def test_aggregate_means_per_block() -> None:
    runs = [
        {"agent": "a", "opponent": "o", "seed": s, "block": 10, "games": 20,
         "wins": w, "draws": 0, "losses": 20 - w, "blocks": [
             {"wins": w // 2, "draws": 0, "losses": 10 - w // 2},
             {"wins": w - w // 2, "draws": 0, "losses": 10 - (w - w // 2)}]}
        for s, w in ((0, 10), (1, 14))
    ]  # fmt: skip
    [agg] = aggregate(runs)
    assert agg["seeds"] == [0, 1]
    assert agg["blocks"][0]["wins"]["mean"] == pytest.approx((0.5 + 0.7) / 2)
    assert agg["total"]["losses"]["mean"] == pytest.approx((10 / 20 + 6 / 20) / 2)


def _files(out: Path) -> dict[str, str]:
    """The sweep's results: not its runs' ``kernels.jsonl``, a line for each command."""
    return {
        str(p.relative_to(out)): p.read_text()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix in (".json", ".jsonl", ".csv") and p.name != KERNELS_FILE
    }


def _kernel_parts(out: Path) -> dict[str, list[list[int]]]:
    """Each run's parts noted in its ``kernels.jsonl``: ``[first game, games]`` per command."""
    return {
        str(p.parent.relative_to(out)): [json.loads(x)["games"] for x in p.read_text().splitlines()]
        for p in sorted(out.rglob(KERNELS_FILE))
    }


def test_same_results_for_one_or_two_jobs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    r1 = runner.invoke(app, [*BASE, "--out", str(a), "--jobs", "1"])
    r2 = runner.invoke(app, [*BASE, "--out", str(b), "--jobs", "2"])
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    fa, fb = _files(a), _files(b)
    assert fa == fb
    assert len([k for k in fa if k.endswith("summary.json")]) == 6
    agg = json.loads(fa["aggregate.json"])
    assert [x["agent"] for x in agg] == ["menace:preset=michie", "menace:preset=scroggs"]
    assert len(agg[0]["blocks"]) == 3
    assert (a / "curves.png").exists()


class _Interrupted(LocalExecutor):
    """Runs the first round of chunks, then dies like a killed process."""

    def run(self, fn: Callable[[Any], Any], items: Sequence[Any], progress: Any = None) -> Any:
        if getattr(_Interrupted, "rounds", 0) >= 1:
            raise KeyboardInterrupt
        _Interrupted.rounds = 1  # type: ignore[attr-defined]
        return super().run(fn, items, progress)


def test_an_interrupted_sweep_resumes_to_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    assert runner.invoke(app, [*BASE, "--out", str(whole)]).exit_code == 0
    monkeypatch.setattr(sweep_cli, "executor", lambda jobs, dask: _Interrupted(1))
    r = runner.invoke(app, [*BASE, "--out", str(broken)])
    assert r.exit_code == 130 and "interrupted" in r.output
    # a run half-written past its checkpoint: extra log lines the table does not include
    some_run = next((broken / "runs").glob("*/seed-0"))
    with (some_run / "games.jsonl").open("a") as f:
        f.write('{"half": "written"}\n')
    assert not list(broken.rglob("summary.json"))
    monkeypatch.undo()
    r = runner.invoke(app, [*BASE, "--resume", str(broken)])
    assert r.exit_code == 0, r.output
    assert _files(broken) == _files(whole)
    # every run says which kernels played it: in one part, or in the part each command played
    whole_parts, broken_parts = _kernel_parts(whole), _kernel_parts(broken)
    assert len(whole_parts) == 6 and whole_parts.keys() == broken_parts.keys()
    assert all(parts == [[0, 90]] for parts in whole_parts.values()), whole_parts
    # the interrupted command committed each run's first chunk (40 games), the resumed the rest
    assert all(parts == [[0, 40], [40, 90]] for parts in broken_parts.values()), broken_parts


def test_complete_runs_are_not_redone(tmp_path: Path) -> None:
    out = tmp_path / "s"
    assert runner.invoke(app, [*BASE, "--out", str(out)]).exit_code == 0
    summary = next(out.rglob("summary.json"))
    summary.write_text(summary.read_text())  # same content; check it is not rewritten
    stamp = summary.stat().st_mtime_ns
    r = runner.invoke(app, [*BASE, "--resume", str(out), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.output)["resumed_complete"] == 6
    assert summary.stat().st_mtime_ns == stamp


def test_a_different_sweep_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "s"
    assert runner.invoke(app, [*BASE, "--out", str(out)]).exit_code == 0
    other = [("91" if a == "90" else a) for a in BASE]
    r = runner.invoke(app, [*other, "--resume", str(out)])
    assert r.exit_code == 2 and "different sweep" in r.output


def test_selfplay_resumed_in_place_after_a_checkpoint(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    common = ["selfplay", "--opponent", "random", "--seed", "4", "--no-plot"]
    assert runner.invoke(app, [*common, "--games", "70", "--out", str(whole)]).exit_code == 0
    assert runner.invoke(app, [*common, "--games", "40", "--out", str(part)]).exit_code == 0
    with (part / "games.jsonl").open("a") as f:  # games logged after the last checkpoint
        f.write('{"index": 40}\n{"index": 41}\n')
    r = runner.invoke(app, [*common, "--games", "70", "--resume", str(part / "table.json")])
    assert r.exit_code == 0, r.output
    assert (part / "games.jsonl").read_text() == (whole / "games.jsonl").read_text()
    assert (
        json.loads((part / "table.json").read_text())["boxes"]
        == json.loads((whole / "table.json").read_text())["boxes"]
    )


def test_a_chunk_stops_at_the_game_menace_refuses_and_chunks_add_up() -> None:
    # MENACE second against the perfect player empties its first box (seed 0: at game 58)
    from purestate.experiments.selfplay import Selfplay, refused
    from purestate.experiments.sweep import Chunk, play_chunk

    run = Selfplay("tictactoe", "menace", "perfect", 1, 0)
    game = run.make_game()
    stop = next(
        s.index + 1 for s in run.run(game, run.initial_tables(game), 0) if refused(s.episode, 1)
    )
    whole = play_chunk(Chunk(run, 0, stop + 20, None))
    assert whole.refused and len(whole.logs) == stop
    first = play_chunk(Chunk(run, 0, stop // 2, None))
    assert not first.refused
    rest = play_chunk(Chunk(run, stop // 2, stop, first.tables))
    assert rest.refused and first.logs + rest.logs == whole.logs
    assert rest.tables == whole.tables


def test_a_sweep_whose_summaries_name_the_agents_as_typed_still_resumes(tmp_path: Path) -> None:
    # summaries written before they named agents by their canonical specs said "menace" and
    # "rules:p=0.7" (as the sweep was typed) where today's say menace:preset=michie and rules
    typed = ["sweep", "--grid", "menace", "--seeds", "0-1", "--games", "40", "--block", "20",
             "--checkpoint", "20", "--opponent", "rules:p=0.7"]  # fmt: skip
    new, old = tmp_path / "new", tmp_path / "old"
    assert runner.invoke(app, [*typed, "--out", str(new)]).exit_code == 0, "a new sweep"
    fresh = json.loads((new / "runs" / "menace" / "seed-0" / "summary.json").read_text())
    assert (fresh["agent"], fresh["opponent"]) == ("menace:preset=michie", "rules")
    assert runner.invoke(app, [*typed, "--out", str(old)]).exit_code == 0
    kept = old / "runs" / "menace" / "seed-0" / "summary.json"
    write_json(kept, {**fresh, "agent": "menace", "opponent": "rules:p=0.7"})
    before = kept.read_bytes()
    (old / "runs" / "menace" / "seed-1" / "summary.json").unlink()  # written again, today's way
    (old / "aggregate.json").unlink()
    r = runner.invoke(app, [*typed, "--resume", str(old), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["resumed_complete"] == 2
    assert kept.read_bytes() == before  # a complete run is kept as it was
    # one setting, named as today's sweep names it, with both seeds
    assert (old / "aggregate.json").read_text() == (new / "aggregate.json").read_text()
    [setting] = json.loads((old / "aggregate.json").read_text())
    assert setting["agent"] == "menace:preset=michie" and setting["seeds"] == [0, 1]
    # and a summary of another agent is still refused
    write_json(kept, {**fresh, "agent": "menace:preset=scroggs"})
    r = runner.invoke(app, [*typed, "--resume", str(old)])
    assert r.exit_code != 0 and "its agent is 'menace:preset=scroggs'" in r.output
    # the sweep's page finds the setting's runs in the folder named as the grid was typed
    summaries = {f: json.loads((new / f).read_text()) for f in ("aggregate.json", "sweep.json")}
    runs = [{"name": f"new/runs/menace/seed-{s}"} for s in (0, 1)]
    [shown] = sweep_settings("new", summaries, runs)
    assert shown["agent"] == "menace:preset=michie" and shown["runs"] == runs

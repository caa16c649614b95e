"""Tournaments: the schedule, keys and seats, executors (K=1 vs K=2), statistics, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

import purestate
from purestate.cli import app
from purestate.executors import LocalExecutor
from purestate.experiments.tournament import (
    GameResult,
    elo,
    game_key,
    pair_results,
    play_job,
    schedule,
    standings,
)

TTT = purestate.make("tictactoe")
runner = CliRunner()


def entrants() -> list[purestate.Agent]:
    return [
        purestate.agent("random"),
        purestate.agent("mcts:simulations=60"),
        purestate.agent("alphabeta:nodes=500"),
    ]


def test_schedule_is_a_round_robin_with_alternating_seats() -> None:
    jobs = schedule(TTT, entrants(), 4, seed=7)
    assert len(jobs) == 3 * 4
    for j in jobs:
        i, k = sorted(j.entrants)
        assert j.key == game_key(7, i, k, j.index)
        first = i if j.index % 2 == 0 else k
        assert j.entrants[0] == first
    # adding an entrant at the end leaves the existing games as they were
    more = schedule(TTT, [*entrants(), purestate.agent("random")], 4, seed=7)
    assert set(jobs) <= set(more)


def test_schedule_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        schedule(TTT, entrants()[:1], 4, seed=1)
    with pytest.raises(ValueError):
        schedule(TTT, entrants(), 0, seed=1)


def test_one_or_two_processes_give_the_same_games() -> None:
    jobs = schedule(TTT, entrants(), 4, seed=3)
    seen: list[tuple[int, int]] = []
    one = LocalExecutor(1).run(play_job, jobs, lambda d, t: seen.append((d, t)))
    two = LocalExecutor(2, batch=2).run(play_job, jobs)
    assert one == two
    assert seen[-1] == (len(jobs), len(jobs))
    assert [r.entrants for r in one] == [j.entrants for j in jobs]


def test_play_job_is_repeatable() -> None:
    job = schedule(TTT, entrants(), 2, seed=11)[3]
    assert play_job(job) == play_job(job)


def test_pair_results_and_wilson_intervals() -> None:
    results = [
        GameResult((0, 1), 0, (1.0, -1.0), ()),
        GameResult((1, 0), 1, (0.0, 0.0), ()),
        GameResult((0, 1), 2, (-1.0, 1.0), ()),
        GameResult((1, 0), 3, (-1.0, 1.0), ()),
    ]
    (p,) = pair_results(2, results)
    assert (p.tally.wins, p.tally.draws, p.tally.losses) == (2, 1, 1)
    assert p.tally.score == 0.625
    low, high = p.score_interval
    assert 0 < low < 0.625 < high < 1


def test_elo_matches_the_two_player_formula_without_prior() -> None:
    games = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]  # 75% for entrant 0
    r = elo(2, games, prior=0.0)
    assert math.isclose(r[0] - r[1], 400 * math.log10(3), rel_tol=1e-6)
    assert math.isclose(r[0] + r[1], 0.0, abs_tol=1e-9)


def test_elo_is_finite_for_a_clean_sweep_and_equal_for_equal_play() -> None:
    sweep = elo(2, [(0, 1, 1.0)] * 10)
    assert math.isfinite(sweep[0]) and sweep[0] > 0 > sweep[1]
    even = elo(3, [(0, 1, 0.5), (1, 2, 0.5), (0, 2, 0.5)])
    assert all(abs(x) < 1e-6 for x in even)


def test_standings_rank_the_stronger_agent_higher_with_intervals() -> None:
    jobs = schedule(TTT, entrants(), 6, seed=5)
    results = LocalExecutor(1).run(play_job, jobs)
    table = standings(3, results, seed=5, bootstrap=50)
    by = {r.entrant: r for r in table.ratings}
    assert by[0].elo < by[1].elo and by[0].elo < by[2].elo
    for r in table.ratings:
        assert r.interval[0] <= r.elo <= r.interval[1]
    assert standings(3, results, seed=5, bootstrap=50) == table


def test_cli_json_is_the_same_for_any_number_of_jobs() -> None:
    args = ["tournament", "--game", "tictactoe", "--agents", "random", "mcts:simulations=40"]
    args += ["alphabeta:nodes=300", "--games", "4", "--seed", "2", "--json"]
    one = runner.invoke(app, [*args, "--jobs", "1"])
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    data = json.loads(one.stdout)
    assert data == json.loads(two.stdout)
    assert data["agents"] == ["random", "mcts:simulations=40", "alphabeta:nodes=300"]
    assert len(data["pairs"]) == 3
    assert sum(p["wins"] + p["draws"] + p["losses"] for p in data["pairs"]) == 12


def test_cli_writes_files_and_a_table(tmp_path: Path) -> None:
    args = ["tournament", "-g", "tictactoe", "-a", "random", "-a", "random", "-n", "2"]
    folder = tmp_path / "t"
    result = runner.invoke(app, [*args, "--seed", "1", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Elo" in result.stdout
    summary = json.loads((folder / "standings.json").read_text())
    assert summary["seed"] == 1
    assert (folder / "pairs.csv").read_text().startswith("agent,opponent,wins")
    games = (folder / "games.jsonl").read_text().splitlines()
    assert len(games) == 2
    first = json.loads(games[0])
    purestate.replay(TTT, [int(m) for m in first["moves"]])
    # the folder is a run folder: not replaced without --force
    again = runner.invoke(app, [*args, "--seed", "2", "--out", str(folder)])
    assert again.exit_code == 2 and "--force" in again.output
    assert json.loads((folder / "standings.json").read_text())["seed"] == 1
    again = runner.invoke(app, [*args, "--seed", "2", "--out", str(folder), "--force"])
    assert again.exit_code == 0, again.output
    assert json.loads((folder / "standings.json").read_text())["seed"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random"], "two agents"),
        (["--agents", "random", "nonsense"], "unknown agent"),
        (["--agents", "random", "random", "--games", "0"], "--games"),
        (["--agents", "random", "mcts:c=x"], "number"),
    ],
)
def test_cli_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--game", "tictactoe", *args, "--seed", "1"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


# -- intervals that say nothing say so (issue 21) ------------------------------------------------


def _ratings(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(app, ["tournament", "--game", "tictactoe", *args, "--json"])
    assert result.exit_code == 0, result.output
    ratings: list[dict[str, object]] = json.loads(result.output)["ratings"]
    return ratings


def test_an_interval_from_too_few_games_is_named_as_such() -> None:
    few = _ratings("--agents", "perfect", "random", "--games", "4")
    assert [r["interval_note"] for r in few] == ["too few games"] * 2
    table = CliRunner().invoke(
        app, ["tournament", "--game", "tictactoe", "--agents", "perfect", "random", "--games", "4"]
    )
    assert "too few games" in table.output
    assert f"{few[0]['elo_low']:+.0f} .. {few[0]['elo_high']:+.0f}" not in table.output


def test_a_pair_that_went_one_way_has_no_interval_and_others_keep_theirs() -> None:
    # an untrained MENACE plays its first bead every game: perfect wins all ten
    one_way = _ratings("--agents", "perfect", "menace", "--games", "10")
    assert [(r["wins"], r["losses"]) for r in one_way] == [(10, 0), (0, 10)]
    for r in one_way:
        assert r["elo_low"] == r["elo_high"]  # the bootstrap's resamples are all the same games
        assert r["interval_note"] == "every game one way"
    mixed = _ratings("--agents", "random", "rules:p=0", "--games", "20")
    assert all("interval_note" not in r for r in mixed)
    assert all(float(r["elo_high"]) - float(r["elo_low"]) >= 1.0 for r in mixed)  # type: ignore[arg-type]

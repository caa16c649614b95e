"""A tournament's sizes before its work (issue 20, finding 10): a lazy schedule, bounds on agents
and games checked before anything is built, --out before the schedule, and an Elo fit whose work
does not grow with the games (the same figures as the iteration it replaced)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import purestate
import purestate.cli.tournament as tournament_cli
from purestate.cli import app
from purestate.cli.tournament import MAX_AGENTS, MAX_TOURNAMENT_GAMES
from purestate.core.keys import fold_in, generator, key
from purestate.executors import LocalExecutor
from purestate.experiments.tournament import (
    BOOTSTRAP,
    GameJob,
    GameResult,
    elo,
    game_key,
    pairs,
    play_job,
    schedule,
    standings,
)

TTT = purestate.make("tictactoe")
runner = CliRunner()


def one_line(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    return lines[0]


def agents(n: int) -> list[purestate.Agent]:
    specs = ["random", "rules:p=0.5", "rules:p=0.9", "mcts:simulations=20", "perfect"]
    return [purestate.agent(specs[i % len(specs)]) for i in range(n)]


# --- the schedule ------------------------------------------------------------------------------


def listed(entrants: list[purestate.Agent], games: int, seed: int) -> list[GameJob]:
    """Every game of the round robin, listed as the schedule was before it was lazy."""
    jobs = []
    for i, j in pairs(len(entrants)):
        for g in range(games):
            first, second = (i, j) if g % 2 == 0 else (j, i)
            jobs.append(GameJob(TTT, (entrants[first], entrants[second]), (first, second), g,
                                game_key(seed, i, j, g)))  # fmt: skip
    return jobs


def test_the_lazy_schedule_is_the_listed_one() -> None:
    entrants = agents(5)
    plan = schedule(TTT, entrants, 3, seed=4)
    want = listed(entrants, 3, 4)
    assert len(plan) == len(want) == 30
    assert list(plan) == want
    assert [plan[k] for k in range(-30, 30)] == want + want
    assert plan[7:19] == tuple(want[7:19]) and plan[::7] == tuple(want[::7])
    for bad in (30, -31):
        with pytest.raises(IndexError):
            plan[bad]


def test_a_huge_schedule_costs_nothing_until_asked() -> None:
    plan = schedule(TTT, agents(100), 10**12, seed=1)
    assert len(plan) == 4950 * 10**12
    last = plan[-1]
    assert last.entrants == (99, 98) and last.index == 10**12 - 1
    assert last.key == game_key(1, 98, 99, 10**12 - 1)


# --- the command line --------------------------------------------------------------------------


def test_too_many_agents_are_refused_before_any_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_cli, "agent_from", lambda s: pytest.fail("an agent was made"))
    args = ["tournament", "-g", "tictactoe", "-a", *["random"] * (MAX_AGENTS + 1)]
    assert f"at most {MAX_AGENTS}" in one_line(runner.invoke(app, args))


def test_too_many_games_are_refused_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tournament_cli, "schedule", lambda *a: pytest.fail("a schedule was made"))
    out = tmp_path / "t"
    args = ["tournament", "-g", "tictactoe", "-a", "random", "random", "rules", "--out", str(out)]
    line = one_line(runner.invoke(app, [*args, "--games", str(10**8)]))
    assert "3 pairs × 100,000,000 games make 300,000,000 games" in line
    assert f"a tournament plays at most {MAX_TOURNAMENT_GAMES:,}" in line
    assert not out.exists()


def test_out_is_checked_before_the_schedule_is_built(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tournament_cli, "schedule", lambda *a: pytest.fail("a schedule was made"))
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    args = ["tournament", "-g", "tictactoe", "-a", "random", "random", "--games", "1000"]
    assert "is a file, not a folder" in one_line(runner.invoke(app, [*args, "--out", str(a_file)]))
    assert a_file.read_text() == "mine"


def test_sixty_four_agents_give_full_standings() -> None:
    args = ["tournament", "-g", "tictactoe", "-a", *["random"] * 64, "--games", "1", "--jobs", "1"]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    assert '"games_per_pair": 1' in r.stdout and r.stdout.count('"elo_low"') == 64


# --- Elo: the same figures as Hunter's iteration, with work bounded -----------------------------


def hunter(n: int, games: list[tuple[int, int, float]], prior: float = 1.0) -> list[float]:
    """The ratings by the minorisation-maximisation iteration the fit used before (to 1e-13)."""
    score = [0.5 * prior] * n
    count = [[0.0] * n for _ in range(n)]
    for a, b, s in games:
        score[a] += s
        score[b] += 1.0 - s
        count[a][b] += 1.0
        count[b][a] += 1.0
    gamma = [1.0] * n
    for _ in range(100_000):
        new = []
        for i in range(n):
            denom = prior / (gamma[i] + 1.0) + sum(
                count[i][j] / (gamma[i] + gamma[j]) for j in range(n) if count[i][j]
            )
            new.append(score[i] / denom)
        delta = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if delta < 1e-13:
            break
    ratings = [400.0 * math.log10(g) for g in gamma]
    return [r - sum(ratings) / n for r in ratings]


def played(entrants: int, games: int, seed: int) -> list[GameResult]:
    return LocalExecutor(1).run(play_job, schedule(TTT, agents(entrants), games, seed))


def _scored(results: list[GameResult]) -> list[tuple[int, int, float]]:
    out = []
    for r in results:
        o = r.outcome_for(r.entrants[0])
        out.append((r.entrants[0], r.entrants[1], (o + 1) / 2))
    return out


@pytest.mark.parametrize(("entrants", "games", "seed"), [(3, 8, 1), (5, 6, 2), (12, 1, 3)])
def test_elo_is_the_maximum_the_iteration_reached(entrants: int, games: int, seed: int) -> None:
    scored = _scored(played(entrants, games, seed))
    for got, want in zip(elo(entrants, scored), hunter(entrants, scored), strict=True):
        assert got == pytest.approx(want, abs=1e-6)


def test_the_bootstrap_draws_the_games_it_drew_before() -> None:
    """Resample ``b`` takes game ``int(u * m)`` of each pair of ``m`` games, ``u`` drawn in pair
    order from ``generator(fold_in(key(seed), 0xB00 + b))``: the intervals are the ones the
    per-game loop gave."""
    n, seed, bootstrap = 4, 6, 30
    results = played(n, 7, seed)
    scored = _scored(results)
    by_pair: dict[tuple[int, int], list[tuple[int, int, float]]] = {}
    for g in scored:
        by_pair.setdefault((min(g[:2]), max(g[:2])), []).append(g)
    samples = []
    for b in range(bootstrap):
        rng = generator(fold_in(key(seed), 0xB00 + b))
        resampled = [p[int(rng.random() * len(p))] for p in by_pair.values() for _ in p]
        samples.append(hunter(n, resampled))
    table = standings(n, results, seed=seed, bootstrap=bootstrap)
    for r in table.ratings:
        column = sorted(s[r.entrant] for s in samples)
        pos = 0.025 * (bootstrap - 1)
        low = column[int(pos)] + (column[int(pos) + 1] - column[int(pos)]) * (pos - int(pos))
        assert r.interval[0] == pytest.approx(low, abs=1e-6)
        assert min(column) - 1e-6 <= r.interval[0] <= r.elo <= r.interval[1] <= max(column) + 1e-6


def test_the_bootstrap_reports_its_progress() -> None:
    results = played(4, 2, 0)
    seen: list[tuple[int, int]] = []
    quiet = standings(4, results, seed=0)
    assert standings(4, results, seed=0, progress=lambda d, t: seen.append((d, t))) == quiet
    assert seen[-1] == (BOOTSTRAP, BOOTSTRAP) and len(seen) > 1
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})


def test_elo_without_a_prior_on_separate_groups_is_finite() -> None:
    games = [(0, 1, 1.0), (0, 1, 0.0), (0, 1, 1.0), (2, 3, 0.5), (2, 3, 1.0)]
    r = elo(4, games, prior=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(2))
    assert r[2] - r[3] == pytest.approx(400 * math.log10(3))
    assert sum(r) == pytest.approx(0.0, abs=1e-9)


def test_ratings_equal_to_a_millionth_rank_in_the_order_given() -> None:
    from purestate.core.learning import Tally
    from purestate.experiments.tournament import Rating, Standings

    tally = Tally(1, 0, 1)
    ratings = (
        Rating(0, 5.0 - 1e-9, (0.0, 9.0), tally),
        Rating(1, 5.0 + 1e-9, (0.0, 9.0), tally),
        Rating(2, 7.0, (0.0, 9.0), tally),
    )
    summary = tournament_cli.standings_summary(
        "tictactoe", ["a", "b", "c"], 1, 0, Standings((), ratings)
    )
    assert [r["agent"] for r in summary["ratings"]] == ["c", "a", "b"]

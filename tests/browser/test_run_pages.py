"""End-to-end: a run page for each kind of run, in Debian's chromium (screenshots web_run_*.png,
into docs/images when PURESTATE_SCREENSHOTS=docs/images)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from purestate.io.files import read_json
from purestate.io.records import read_records

from .conftest import shot

TIMEOUT = 20_000


def test_a_training_run_pages_its_games_and_draws_its_curve(server: str, page: Any) -> None:
    page.goto(f"{server}/runs/menace")
    page.wait_for_selector("svg.chart g.series")
    # W/D/L with their bands, then the cumulative line: labelled axes on both
    assert page.locator("svg.chart").first.locator("g.series").count() == 3
    assert "games played" in page.locator("svg.chart").first.inner_html()
    # 200 games: the first page lists 100 of them, the next the rest
    assert page.locator("table.games-table tbody tr").count() == 100
    page.locator("a[rel=next]").first.click()
    page.wait_for_selector('a[href="/runs/menace/games/199"]')
    assert page.locator("table.games-table tbody tr").count() == 100
    assert page.locator('a[href="/runs/menace/games/0"]').count() == 0
    assert "page 2 of 2" in page.inner_text(".pager")
    page.locator("a[rel=prev]").first.click()
    page.wait_for_selector('a[href="/runs/menace/games/0"]')


def test_a_tournament_page_shows_standings_and_pairs(server: str, page: Any, runs: Path) -> None:
    standings = read_json(runs / "tournament" / "standings.json")
    page.goto(f"{server}/runs/tournament")
    page.wait_for_selector("table.standings")
    agents = page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()
    assert agents == [r["agent"] for r in standings["ratings"]]
    # a 2x2 matrix: the diagonal is empty, the rest are the pair's scores
    assert page.locator("table.matrix tbody tr").count() == 2
    assert page.locator("table.matrix td.none").count() == 2
    assert page.locator("svg.chart").count() == 0  # no learning curve for a tournament
    shot(page, "run_tournament")


def test_a_sweep_page_shows_mean_curves_and_links_each_setting_s_seeds(
    server: str, page: Any
) -> None:
    page.goto(f"{server}/runs/sweep")
    page.wait_for_selector("table.settings")
    assert "No games recorded" not in page.inner_text("main")
    # two settings, three panels (wins, draws, losses): six lines with bands
    assert page.locator("svg.chart g.series").count() == 6
    rows = page.locator("table.settings tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td.seeds a").all_inner_texts() == ["seed-0", "seed-1", "seed-2"]
    shot(page, "run_sweep", full_page=False)
    rows.nth(1).locator("td.seeds a >> text=seed-2").click()
    page.wait_for_selector("svg.chart g.series")
    assert "menace:preset=scroggs" in page.inner_text("main")


def test_bot_matches_show_results_by_game_and_replay_every_ply(
    server: str, page: Any, runs: Path
) -> None:
    records = read_records(runs / "tron")
    page.goto(f"{server}/runs/tron")
    page.wait_for_selector("table.results")
    games = page.locator("table.results tbody tr td:first-child").all_inner_texts()
    # a row per game spec (the first player alternates), then both bots over all games
    assert sorted(games) == sorted([*{r.game for r in records}, "all games"])
    assert page.locator("svg.chart").count() == 0  # no learning curve without a learner
    shot(page, "run_tron")
    # the replay lists every ply and keeps the last in view
    longest = max(range(len(records)), key=lambda i: len(records[i].moves))
    page.goto(f"{server}/runs/tron/games/{longest}")
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    assert page.locator("#moves li").count() == len(records[longest].moves)
    page.click("#last")
    last = page.locator("#moves li").last
    box, view = last.bounding_box(), page.locator("#moves").bounding_box()
    assert box is not None and view is not None
    # inside the list's box: not pushed into a column or a row past its edge
    assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"] + 1
    assert view["x"] <= box["x"] and box["x"] + box["width"] <= view["x"] + view["width"] + 1


def test_a_q_learning_run_shows_its_curve_and_heat_maps(server: str, page: Any) -> None:
    page.goto(f"{server}/runs/qlearning")
    page.wait_for_selector("figure.heat svg", timeout=TIMEOUT)
    # W/D/L, and the share of optimal moves tic-tac-toe's solver counts
    assert page.locator("svg.chart g.series").count() == 4
    shot(page, "run_qlearning", full_page=False)

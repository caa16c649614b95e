"""End-to-end: the MENACE lab, time travel through a selfplay run, and Tron matches, in Debian's
chromium. The numbers on the pages are checked against the library's own fold; every test saves
screenshots (web_*.png; into docs/images when PURESTATE_SCREENSHOTS=docs/images)."""

from __future__ import annotations

from itertools import islice
from typing import Any

from purestate.core.learning import tally
from purestate.experiments.selfplay import Selfplay
from purestate.io.records import read_records

from .conftest import shot

TIMEOUT = 30_000  # ms


def library(run: Selfplay, games: int) -> tuple[list[Any], Any]:
    """The library's fold: the first ``games`` episodes and the learner's boxes after them, as
    the table file writes them (box -> {move: beads})."""
    g = run.make_game()
    tables = run.initial_tables(g)
    episodes = []
    for step in islice(run.run(g, tables), games):
        episodes.append(step.episode)
        tables = step.tables
    boxes = run.agents()[0].table_to_json(g, tables[run.seat])["boxes"]
    return episodes, {k: b["beads"] for k, b in boxes.items()}


def page_beads(page: Any) -> dict[str, dict[str, int]]:
    """Every box on the page: its data-box key -> the bead counts written on its squares."""
    beads: dict[str, dict[str, int]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-box]')].map(b =>
             [b.dataset.box, Object.fromEntries([...b.querySelectorAll('text.bead')].map(
               t => [t.dataset.bead, Number(t.textContent)]))]))"""
    )
    return beads


def new_lab(page: Any, server: str, **fields: str) -> None:
    """Open the lab, fill the form and start a new lab (the page's own first lab is replaced)."""
    page.goto(f"{server}/menace")
    page.wait_for_selector("body[data-lab]", timeout=TIMEOUT)
    first = page.get_attribute("body", "data-lab")
    for name, value in fields.items():
        page.fill(f"#setup [name={name}]", value)
    page.click("#new-lab")
    page.wait_for_function(
        f"() => document.body.dataset.lab && document.body.dataset.lab !== '{first}'",
        timeout=TIMEOUT,
    )


def test_the_lab_after_200_games_against_rules_is_the_librarys_fold(server: str, page: Any) -> None:
    new_lab(page, server, opponent="rules:p=0.7", seed="7", games="200")
    page.select_option("#speed", "0")
    shot(page, "menace_lab_start", full_page=False)
    page.click("#run")
    page.wait_for_function(
        "() => document.querySelector('#games').textContent === '200'", timeout=TIMEOUT
    )
    run = Selfplay("tictactoe", "menace:preset=michie", "rules:p=0.7", 0, 7)
    episodes, boxes = library(run, 200)
    t = tally(ep.outcome(0) for ep in episodes)
    shown = {n: int(page.inner_text(f"#{n}")) for n in ("games", "wins", "draws", "losses")}
    assert shown == {"games": 200, "wins": t.wins, "draws": t.draws, "losses": t.losses}
    on_page = page_beads(page)
    first = next(iter(boxes))
    assert page.locator("[data-box]").first.get_attribute("data-box") == first == "........."
    assert on_page[first] == boxes[first]
    assert on_page == boxes  # and every other box too
    # the last game's boxes are highlighted, with the bead drawn in each
    g = run.make_game()
    drawn = run.agents()[0].drawn(g, run.initial_tables(g)[0], episodes[-1], 0)
    used = page.locator("figure.box.used").evaluate_all("els => els.map(e => e.dataset.box)")
    assert sorted(used) == sorted(k for k, _ in drawn)
    assert page.locator("text.bead.drawn").count() == len(drawn)
    assert "refuses" not in page.inner_text("main") or page.locator("#refused").is_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "menace_lab", full_page=False)
    page.check("#used-only")
    assert page.locator("figure.box:visible").count() == len(drawn)
    page.locator("#boxes").scroll_into_view_if_needed()
    shot(page, "menace_lab_last_game", full_page=False)


def test_playing_menace_by_clicking(server: str, page: Any) -> None:
    new_lab(page, server, opponent="person", seed="1")
    page.wait_for_selector("#board svg [data-move]", timeout=TIMEOUT)
    for _ in range(2):
        move = page.locator("#board [data-move]").first.get_attribute("data-move")
        page.click(f'#board [data-move="{move}"]')
        page.wait_for_timeout(300)
    assert page.locator("#board svg circle").count() == 2  # our noughts
    # the boxes MENACE drew from in this game so far are highlighted, one bead each
    used = page.locator("figure.box.used").count()
    assert used == page.locator("text.bead.drawn").count() == 3
    shot(page, "menace_person", full_page=False)


def test_time_travel_shows_the_table_train_had_after_k_games(server: str, page: Any) -> None:
    page.goto(f"{server}/runs/menace")
    page.wait_for_selector('#travel-status[data-k="200"]', timeout=TIMEOUT)
    run = Selfplay("tictactoe", "menace:preset=michie", "rules:p=0.7", 0, 0)
    for k in (57, 0, 200):
        page.locator("#k").fill(str(k))
        page.wait_for_selector(f'#travel-status[data-k="{k}"]', timeout=TIMEOUT)
        assert page_beads(page) == library(run, k)[1], k
        if k == 57:
            page.evaluate(
                "window.scrollTo(0, document.querySelector('h2 + .travel').offsetTop - 60)"
            )
            shot(page, "run_time_travel", full_page=False)


def test_time_travel_draws_q_values_as_heat_maps(server: str, page: Any) -> None:
    page.goto(f"{server}/runs/qlearning")
    page.wait_for_selector('#travel-status[data-k="300"]', timeout=TIMEOUT)
    run = Selfplay("tictactoe", "qlearning", "random", 0, 0)
    g = run.make_game()
    k = 150
    page.locator("#k").fill(str(k))
    page.wait_for_selector(f'#travel-status[data-k="{k}"]', timeout=TIMEOUT)
    tables = run.initial_tables(g)
    for step in islice(run.run(g, tables), k):
        tables = step.tables
    q = run.agents()[0].table_to_json(g, tables[0])["q"]
    shown: dict[str, dict[str, float]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('figure.heat')].map(f =>
             [f.dataset.position, Object.fromEntries([...f.querySelectorAll('[data-q]')].map(
               c => [c.dataset.move, Number(c.dataset.q)]))]))"""
    )
    assert shown and all(shown[p] == q[p] for p in shown)
    assert f"{len(q)} positions known" in page.inner_text("#travel-status")
    page.evaluate("window.scrollTo(0, document.querySelector('h2 + .travel').offsetTop - 60)")
    shot(page, "run_time_travel_q", full_page=False)


def test_a_tron_match_is_animated(server: str, page: Any, runs: Any) -> None:
    page.goto(f"{server}/tron")
    page.click("a.watch")
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    record = read_records(runs / "tron")[0]
    last = len(record.moves)
    # the animation started by itself; it ends on the recorded result
    page.wait_for_function(
        "() => Number(document.querySelector('#status').dataset.ply) > 3", timeout=TIMEOUT
    )
    shot(page, "tron_watch")
    page.wait_for_function(
        f"() => document.querySelector('#status').dataset.ply === '{last}'", timeout=60_000
    )
    assert "result:" in page.inner_text("#status")
    page.goto(f"{server}/tron")
    shot(page, "tron")

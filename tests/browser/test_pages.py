"""End-to-end: the browser app in Debian's chromium, clicked like a person would.

Every test saves screenshots (web_*.png; into docs/images, which docs/web.md shows, when
PURESTATE_SCREENSHOTS=docs/images).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import purestate
from purestate.core.hooks import seat_name
from purestate.io.records import read_records

from .conftest import shot

TIMEOUT = 20_000  # ms: the first bot move may import the solver


def board_moves(page: Any) -> list[str]:
    """The moves of the game so far, as the page lists them ("you: 4" / "bot: 0")."""
    return [t.split(": ", 1)[1] for t in page.locator("#moves li").all_inner_texts()]


def test_a_whole_tictactoe_game_by_clicking_draws_against_perfect(server: str, page: Any) -> None:
    page.goto(f"{server}/play/tictactoe")
    page.fill("input[name=opponent]", "perfect")
    page.click("#new-game")
    page.wait_for_selector("#board svg [data-move]", timeout=TIMEOUT)
    shot(page, "play_start")
    game = purestate.make("tictactoe")
    perfect = purestate.agent("perfect")
    clicks = 0
    while True:
        page.wait_for_function(
            "() => document.querySelector('#status').textContent.match(/Your move|Game over/)",
            timeout=TIMEOUT,
        )
        if "Game over" in page.inner_text("#status"):
            break
        # our move is the perfect player's too, so the game must be drawn
        state = game.initial()
        for m in board_moves(page):
            state = game.step(state, game.parse_move(state, m))
        move = perfect.act(game, None, state, purestate.key(clicks)).move
        done = len(board_moves(page))
        page.click(f'#board [data-move="{game.format_move(move)}"]')
        clicks += 1
        page.wait_for_function(
            f"() => document.querySelectorAll('#moves li').length > {done}", timeout=TIMEOUT
        )
        if clicks == 2:
            shot(page, "play_tictactoe")
    assert clicks == 5  # X moves 5 times in a drawn game
    assert "a draw" in page.inner_text("#status")
    assert page.locator("#board [data-move]").count() == 0
    shot(page, "play_draw")


def test_an_illegal_click_is_explained_and_the_bot_move_shown(server: str, page: Any) -> None:
    page.goto(f"{server}/play/dots_and_boxes:rows=3,cols=3")
    page.fill("input[name=opponent]", "random")
    page.click("#new-game")
    page.wait_for_selector('#board [data-move="0"]', timeout=TIMEOUT)
    page.click('#board [data-move="0"]')
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('random played')",
        timeout=TIMEOUT,
    )
    # the line just drawn is no longer a move: clicking it gets the game's own explanation
    page.click('#board [data-illegal="0"]')
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.length > 0", timeout=TIMEOUT
    )
    assert page.inner_text("#message") == "illegal move: line 0 is already drawn"
    shot(page, "play_dots_and_boxes")


def test_the_bigger_boards_play(server: str, page: Any) -> None:
    page.goto(f"{server}/play/ultimate_tictactoe")
    page.fill("input[name=opponent]", "random")
    page.click("#new-game")
    page.wait_for_selector('#board [data-move="4 4"]', timeout=TIMEOUT)
    page.click('#board [data-move="4 4"]')
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('random played')",
        timeout=TIMEOUT,
    )
    # the bot was sent to board 4; its answer sends us on: only that board's cells are moves
    boards = {m.split()[0] for m in page.locator("#board [data-move]").evaluate_all(
        "els => els.map(e => e.dataset.move)")}  # fmt: skip
    assert len(boards) in (1, 8)  # one target board, or a free move when it is closed
    shot(page, "play_ultimate")
    page.goto(f"{server}/play/tron:map=small_room")
    page.fill("input[name=opponent]", "tron_random")
    page.click("#new-game")
    page.wait_for_selector('#board [data-move="R"]', timeout=TIMEOUT)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('#moves li').length >= 2", timeout=TIMEOUT
    )
    assert board_moves(page)[0] == "R"
    shot(page, "play_tron")


def test_a_tournament_game_replays_to_its_recorded_result(
    server: str, page: Any, runs: Path
) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("ul.games li")
    shot(page, "home")
    page.click("text=Runs")
    page.wait_for_selector("table.runs")
    assert page.locator("table.runs a", has_text="tournament").count() == 1
    shot(page, "runs")
    page.click("table.runs a >> text=menace")
    page.wait_for_selector("svg.chart")
    shot(page, "run_selfplay", full_page=False)  # the time travel below is long
    page.goto(f"{server}/runs/tournament")
    records = read_records(runs / "tournament")
    index = next(n for n, r in enumerate(records) if r.result != "draw")
    record = records[index]
    page.click(f'a[href="/runs/tournament/games/{index}"]')
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    assert re.search(r"ply 0/\d+", page.inner_text("#status"))
    for _ in range(2):
        page.click("#next")
    assert "ply 2/" in page.inner_text("#status")
    page.click("#back")
    assert "ply 1/" in page.inner_text("#status")
    # the slider to the end: the last board and the recorded result
    last = len(record.moves)
    page.locator("#ply").fill(str(last))
    status = page.inner_text("#status")
    winner = 0 if record.returns[0] > record.returns[1] else 1
    assert f"ply {last}/{last}" in status
    game = purestate.make_spec(record.game)
    assert f"result: {record.players[winner]} won as {seat_name(game, winner)}" in status
    final = purestate.replay(game, record.moves)
    # the final board is the library's: an O is a circle, an X a path in player 0's colour
    board = game.encode(final.final)
    assert page.locator("#board svg circle").count() == board.count("O")
    assert page.locator('#board svg path[stroke="#1f5fbf"]').count() == board.count("X")
    shot(page, "replay")

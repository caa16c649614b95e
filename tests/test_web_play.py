"""The play pages and the MENACE lab (issue 21): seats named by their marks, undo against a bot,
the note while a solver works, winning lines drawn, a lab that reaches its target and plays more,
and a saved lab holding exactly the files ``purestate selfplay`` writes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

import purestate
from purestate.cli import app as cli_app
from purestate.web.app import create_app
from purestate.web.budget import SOLVE_LIMITS, SOLVE_ONCE, solving_note

runner = CliRunner()
LOCAL = "http://127.0.0.1"
LAB = {"game": "tictactoe", "menace": {"preset": "scroggs"}, "opponent": "rules:p=0.7",
       "seat": 0, "seed": 3, "games": 20}  # fmt: skip


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    root.mkdir()
    return root


@pytest.fixture
def client(runs: Path) -> TestClient:
    return TestClient(create_app(runs), base_url=LOCAL, raise_server_exceptions=False)


def free_squares(svg: str) -> list[str]:
    return re.findall(r'data-move="([^"]+)"', svg)


@pytest.mark.parametrize(
    ("game", "seat", "you_are"),
    [
        ("tictactoe", 0, "first (X)"),
        ("tictactoe", 1, "second (O)"),
        ("dots_and_boxes:rows=2,cols=2", 1, "second (B, red)"),
        ("tron:map=small_room", 0, "first (blue)"),
    ],
)
def test_the_page_says_which_seat_you_are_by_its_mark(
    client: TestClient, game: str, seat: int, you_are: str
) -> None:
    view = client.post("/api/play", json={"game": game, "opponent": "random", "seat": seat}).json()
    assert view["you_are"] == you_are
    assert view["seat_names"][seat] == you_are and view["seat_names"][0].startswith("first (")
    # above the board, not inside the picture (which scales with the window)
    assert f"{you_are}: you" in view["title"] and "random" in view["title"]
    assert view["title"] not in view["svg"]


def test_undo_takes_back_your_move_and_the_bots_answer(client: TestClient) -> None:
    setup = {"game": "tictactoe", "opponent": "random", "seat": 0, "seed": 11}
    view = client.post("/api/play", json=setup).json()
    sid = view["id"]
    assert not view["can_undo"]
    msg = client.post(f"/api/play/{sid}/undo", json={})
    assert msg.status_code == 400 and "nothing to undo" in msg.json()["error"]
    one = client.post(f"/api/play/{sid}/move", json={"move": "4"}).json()
    two = client.post(f"/api/play/{sid}/move", json={"move": free_squares(one["svg"])[0]}).json()
    assert len(two["moves"]) == 4 and two["can_undo"]
    back = client.post(f"/api/play/{sid}/undo", json={}).json()
    assert back["moves"] == one["moves"] and back["svg"] == one["svg"] and back["your_turn"]
    back = client.post(f"/api/play/{sid}/undo", json={}).json()
    assert back["moves"] == [] and not back["can_undo"]
    # the game goes on from there, the bot answering with the same key schedule as before
    again = client.post(f"/api/play/{sid}/move", json={"move": "4"}).json()
    assert again["moves"] == one["moves"]
    # undo also reopens a finished game
    view = again
    while not view["over"]:
        view = client.post(f"/api/play/{sid}/move", json={"move": free_squares(view["svg"])[0]})
        view = view.json()
    back = client.post(f"/api/play/{sid}/undo", json={}).json()
    assert not back["over"] and back["your_turn"] and len(back["moves"]) < len(view["moves"])


def test_a_game_keeps_the_bots_search_tree_for_its_last_turn_only() -> None:
    # a search's table is its tree (hundreds of MB after seconds of mcts): a game must not keep
    # one a move for undo, only the one the next answer after an undo reuses
    from purestate.agents.mcts import Tree
    from purestate.core.registry import make_spec
    from purestate.web.play import Session

    game = make_spec("ultimate_tictactoe")
    session = Session(game, "ultimate_tictactoe", purestate.agent("mcts:simulations=200"), None,
                      0, 3)  # fmt: skip
    for _ in range(4):
        session.person_moves(game.format_move(game.legal(session.state)[0]))

    def trees() -> list[bool]:
        return [isinstance(t.tables[1], Tree) and t.tables[1].root is not None
                for t in session.turns]  # fmt: skip

    assert trees() == [False, False, False, True]  # the bot's tree after its last answer only
    session.undo()
    session.undo()  # past the last turn: the bot's next answer searches afresh
    assert trees() == [False, False] and session.match.tables[1].root is None
    session.person_moves(game.format_move(game.legal(session.state)[-1]))
    assert trees() == [False, False, False] and session.match.persons_turn()


def test_after_an_undo_the_same_clicks_meet_the_same_bot_moves_of_a_bot_that_remembers() -> None:
    # tron_wall's table is its side for the game (drawn from its first move's key), no search
    # tree: every undo snapshot keeps it
    from purestate.core.keys import key
    from purestate.core.registry import make_spec
    from purestate.web.play import Session

    game = make_spec("tron:map=empty_room")
    mine = purestate.agent("tron_greedy")

    def played(undo_at: int | None) -> list[object]:
        session = Session(game, "tron:map=empty_room", purestate.agent("tron_wall"), None, 0, 5)
        session.bot_moves()
        n = 0
        while not session.over() and n < 200:
            move = mine.act(game, None, session.match.view(0), key(len(session.moves))).move
            session.person_moves(game.format_move(move))
            n += 1
            if n == undo_at:
                session.undo()
                session.undo()
                n -= 2
                undo_at = None
        return session.moves

    whole = played(None)
    assert len(whole) > 12
    assert played(3) == whole and played(6) == whole


def test_undo_is_the_browsers_own(client: TestClient) -> None:
    sid = client.post("/api/play", json={"game": "tictactoe", "opponent": "random"}).json()["id"]
    client.post(f"/api/play/{sid}/move", json={"move": "0"})
    other = TestClient(client.app, base_url=LOCAL, raise_server_exceptions=False)
    assert other.post(f"/api/play/{sid}/undo", json={}).status_code == 404
    assert client.get(f"/api/play/{sid}").json()["moves"][0] == "0"


def test_a_solver_that_must_solve_first_says_so_and_how_long() -> None:
    game = purestate.make_spec("dots_and_boxes:rows=3,cols=3")
    perfect = purestate.agent("perfect")
    note = solving_note(perfect, game, lambda: False)
    limit, rate = SOLVE_ONCE["line sets"]
    assert note == f"solving dots_and_boxes:rows=3,cols=3 once, about {round(2**24 / rate)} s"
    assert limit >= 2**24 and SOLVE_LIMITS["line sets"] < 2**24
    # solved already (memory or disk), another agent, a small game, a game past the bound: nothing
    assert solving_note(perfect, game, lambda: True) == ""
    assert solving_note(purestate.agent("mcts"), game, lambda: False) == ""
    assert solving_note(perfect, purestate.make("tictactoe"), lambda: False) == ""
    big = purestate.make_spec("dots_and_boxes:rows=2,cols=5")
    assert solving_note(perfect, big, lambda: False) == ""


def test_the_solving_route_answers_at_once_and_never_fails(client: TestClient) -> None:
    for query in ("game=tictactoe", "game=nonsense", "game=tictactoe&opponent=table:x/t.json",
                  "game=dots_and_boxes:rows=2,cols=2&opponent=perfect"):  # fmt: skip
        answer = client.get(f"/api/solving?{query}")
        assert answer.status_code == 200 and answer.json() == {"note": ""}, query


def _won(game: str, moves: list[int]) -> str:
    g = purestate.make_spec(game)
    s = g.initial()
    for m in moves:
        s = g.step(s, m)
    assert g.is_over(s) and g.returns(s)[0] > 0
    return str(purestate.svg(g, s))


def test_the_winning_line_is_drawn() -> None:
    cells = lambda svg: re.findall(r'class="win" data-cells="([^"]+)"', svg)  # noqa: E731
    assert cells(_won("tictactoe", [0, 3, 4, 5, 8])) == ["0 4 8"]
    assert cells(_won("connect_four", [2, 3, 2, 3, 2, 3, 2])) == ["3:1 3:2 3:3 3:4"]
    # ultimate: the first seeded random game that X wins; the line joins three boards X won
    g = purestate.make("ultimate_tictactoe")
    for seed in range(200):
        ep = purestate.play(g, (purestate.agent("random"),) * 2, (None, None), purestate.key(seed))
        if ep.returns[0] > 0:
            break
    end = ep.states[-1]
    (line,) = cells(str(purestate.svg(g, end)))
    boards = [int(b) for b in line.split()]
    assert len(boards) == 3 and all(end.won_x >> b & 1 for b in boards)
    assert sorted(boards) in ([0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                              [0, 4, 8], [2, 4, 6])  # fmt: skip
    # nobody has a line while the game runs
    assert cells(str(purestate.svg(g, g.initial()))) == []
    ttt = purestate.make("tictactoe")
    assert cells(str(purestate.svg(ttt, ttt.step(ttt.initial(), 4)))) == []


def test_a_won_small_boards_mark_lets_its_cells_show() -> None:
    g = purestate.make("ultimate_tictactoe")
    s = g.initial()
    # O wins small board 4 by its top row
    for m in (40, 36, 4, 37, 13, 38):
        s = g.step(s, m)
    root = ET.fromstring(str(purestate.svg(g, s)))
    won = [e for e in root.iter() if e.get("class") == "won"]
    assert len(won) == 1 and float(won[0].get("opacity", "1")) <= 0.35
    assert won[0].get("pointer-events") == "none"


def test_a_lab_at_its_target_says_done_and_plays_more(client: TestClient) -> None:
    view = client.post("/api/menace", json=LAB).json()
    lid = view["id"]
    update = client.post(f"/api/menace/{lid}/step", json={"games": 50}).json()
    assert update["games"] == 20 and update["done"] and update["target"] == 20
    assert update["refused_at"] is None  # done because the target was reached
    more = client.post(f"/api/menace/{lid}/control", json={"games": 30}).json()
    assert more["target"] == 30
    update = client.get(f"/api/menace/{lid}").json()
    assert not update["done"]
    update = client.post(f"/api/menace/{lid}/step", json={"games": 50}).json()
    assert update["games"] == 30 and update["done"]


def test_a_second_lab_streams_at_once(client: TestClient) -> None:
    first = client.post("/api/menace", json=LAB).json()["id"]
    second = client.post("/api/menace", json=LAB).json()["id"]
    assert client.get(f"/api/menace/{first}/events").status_code == 404  # gone: the page closes it
    client.post(f"/api/menace/{second}/control", json={"running": True, "speed": 0})
    with client.stream("GET", f"/api/menace/{second}/events") as stream:
        assert stream.status_code == 200
        for line in stream.iter_lines():
            if line.startswith("data: "):
                break


def test_a_saved_lab_holds_exactly_the_files_selfplay_writes(
    client: TestClient, runs: Path, tmp_path: Path
) -> None:
    view = client.post("/api/menace", json=LAB).json()
    client.post(f"/api/menace/{view['id']}/step", json={"games": 20})
    client.post(f"/api/menace/{view['id']}/save", json={"name": "lab"})
    args = ["selfplay", "--agent", "menace:preset=scroggs", "--seed", "3", "--games", "20"]
    result = runner.invoke(cli_app, [*args, "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    lab = sorted(p.name for p in (runs / "lab").iterdir())
    assert lab == sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert "learning_curve.png" in lab
    assert (runs / "lab" / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_lab_names_the_seats_by_their_marks(client: TestClient) -> None:
    view = client.post("/api/menace", json={**LAB, "opponent": "person"}).json()
    assert view["seat_names"] == ["first (X)", "second (O)"]
    title = view["board"]["title"]
    assert title.startswith("first (X): menace") and title.endswith("second (O): you")


def _play_out(client: TestClient, lid: str, board: dict[str, object]) -> dict[str, object]:
    """Click the first free square until the game ends; the update that ended it."""
    while True:
        free = re.findall(r'data-move="(\d)"', str(board["svg"]))
        update: dict[str, object] = client.post(
            f"/api/menace/{lid}/move", json={"move": free[0]}
        ).json()
        if "ended" in update:
            return update
        board = update["board"]  # type: ignore[assignment]


def test_a_lab_against_a_person_plays_more_games_once_its_target_is_reached(
    client: TestClient,
) -> None:
    view = client.post("/api/menace", json={**LAB, "opponent": "person", "games": 1}).json()
    lid = view["id"]
    ended = _play_out(client, lid, view["board"])
    assert ended["done"] and ended["games"] == 1
    board = ended["board"]
    assert isinstance(board, dict) and board["over"]  # the finished game stays: no next one
    assert "lab is over" in client.post(f"/api/menace/{lid}/move", json={"move": "0"}).text
    # more games, as the bot-vs-bot lab is offered: the next game (game 1 of the run) begins
    answer = client.post(f"/api/menace/{lid}/control", json={"games": 3}).json()
    assert answer["target"] == 3 and answer["games"] == 1
    update = client.get(f"/api/menace/{lid}").json()
    assert not update["done"] and update["target"] == 3
    assert not update["board"]["over"] and len(update["board"]["moves"]) == 1  # MENACE opened
    ended = _play_out(client, lid, update["board"])
    assert ended["games"] == 2 and not ended["done"]
    ended = _play_out(client, lid, ended["board"])  # type: ignore[arg-type]
    assert ended["games"] == 3 and ended["done"]


def test_purestate_play_names_the_seats_as_the_page_does() -> None:
    result = runner.invoke(cli_app, ["play", "tictactoe", "--opponent", "random", "--seat",
                                     "second"], input="q\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "You are second (O); random is first (X)." in result.output

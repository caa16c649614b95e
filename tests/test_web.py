"""The browser app's server through Starlette's test client: pages, the JSON API, seeded play
equal to the library's own games, the runs pages, and the safety rules (nothing outside the runs
folder, bounded requests, a JSON message for every refusal, never a 500)."""

from __future__ import annotations

import json
import os
import time
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient  # needs httpx2, which the test extra installs
from typer.testing import CliRunner

import purestate
from purestate.cli import app as cli_app
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.keys import fold_in
from purestate.core.learning import tally
from purestate.core.spec import SpecError
from purestate.experiments.selfplay import Selfplay
from purestate.web.app import MAX_BODY, create_app
from purestate.web.lab import MAX_BATCH, MAX_LAB_GAMES

runner = CliRunner()
LOCAL = "http://127.0.0.1"  # the Host the server answers to (web.guard)
JSON = {"content-type": "application/json"}


def cli(*args: str) -> None:
    result = runner.invoke(cli_app, list(args))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    cli("selfplay", "--games", "30", "--no-plot", "--out", str(root / "sp"))
    cli("tournament", "--game", "tictactoe", "--agents", "random", "perfect", "--games", "4",
        "--seed", "1", "--jobs", "1", "--out", str(root / "tour"))  # fmt: skip
    cli("sweep", "--grid", "menace:preset=michie", "--seeds", "0-1", "--games", "10", "--jobs", "1",
        "--out", str(root / "sweep"))  # fmt: skip
    # an option the table's agent keeps when the browser lays others over it
    cli("selfplay", "--agent", "qlearning:alpha=0.3", "--opponent", "random", "--games", "40",
        "--seed", "2", "--no-plot", "--out", str(root / "ql"))  # fmt: skip
    cli("selfplay", "--opponent", "self", "--seat", "second", "--games", "25", "--seed", "4",
        "--no-plot", "--out", str(root / "two"))  # fmt: skip
    cli("tron", "run", "--bots", "random", "random", "--map", "small_room", "--games", "2",
        "--no-image", "--out", str(root / "tron"))  # fmt: skip
    return root


@pytest.fixture(scope="module")
def client(runs: Path) -> TestClient:
    return TestClient(create_app(runs), base_url=LOCAL, raise_server_exceptions=False)


def refused(response: Any, status: int, says: str) -> None:
    """A JSON refusal with this status whose message contains ``says``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert says in response.json()["error"]
    assert "Traceback" not in response.text


class Script(FixedPolicy):
    """The person's clicks as an agent, so the library's ``play`` can replay a web game."""

    spec = "script"

    def __init__(self, moves: list[Any]) -> None:
        self.moves = list(moves)

    def act(self, game: Any, table: Any, state: Any, key: Any) -> Decision[Any]:
        return Decision(self.moves.pop(0))


def test_pages_load(client: TestClient) -> None:
    for path in ("/", "/play/dots_and_boxes:rows=3,cols=3", "/runs", "/runs/tour",
                 "/runs/tour/games/2", "/runs/sp"):  # fmt: skip
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("text/html")
    assert "tictactoe" in client.get("/").text and "tron" in client.get("/").text
    # the learning curve is drawn on the run's page, the games are linked
    page = client.get("/runs/sp").text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="chart"' in page
    assert 'href="/runs/sp/games/29"' in page
    for static in ("style.css", "common.js", "play.js", "replay.js", "home.js"):
        assert client.get(f"/static/{static}").status_code == 200


def test_a_game_against_perfect_is_the_librarys_game(client: TestClient) -> None:
    # the person clicks the first free square each time, as seat 1; perfect opens
    view = client.post("/api/play", json={"game": "tictactoe", "opponent": "perfect",
                                          "seat": 1, "seed": 5}).json()  # fmt: skip
    clicks = []
    while not view["over"]:
        assert view["your_turn"]
        free = [m for m in range(9) if f'data-move="{m}"' in view["svg"]]
        clicks.append(free[0])
        view = client.post(f"/api/play/{view['id']}/move", json={"move": str(free[0])}).json()
    game = purestate.make("tictactoe")
    perfect = purestate.agent("perfect")
    ep = purestate.play(game, (perfect, Script(clicks)), (None, None),
                        fold_in(purestate.key(5), 0))  # fmt: skip
    assert view["moves"] == [str(m) for m in ep.moves]
    assert view["returns"] == list(ep.returns)
    assert view["result"] == {1.0: "you win!", 0.0: "a draw.", -1.0: "you lose."}[ep.returns[1]]
    assert client.get(f"/api/play/{view['id']}").json()["moves"] == view["moves"]


def test_the_same_seed_plays_the_same_bot_moves(client: TestClient) -> None:
    def game(seed: int) -> list[str]:
        setup = {"game": "dots_and_boxes:rows=2,cols=2", "opponent": "random", "seed": seed}
        view = client.post("/api/play", json=setup).json()
        while not view["over"]:
            first = view["svg"].split('data-move="', 1)[1].split('"', 1)[0]
            view = client.post(f"/api/play/{view['id']}/move", json={"move": first}).json()
        return list(view["moves"])

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_an_illegal_click_is_explained_by_the_game(client: TestClient) -> None:
    view = client.post("/api/play", json={"game": "tictactoe", "opponent": "random"}).json()
    view = client.post(f"/api/play/{view['id']}/move", json={"move": "4"}).json()
    refused(client.post(f"/api/play/{view['id']}/move", json={"move": "4"}), 400,
            "square 4 is taken")  # fmt: skip
    refused(client.post(f"/api/play/{view['id']}/move", json={"move": "ten"}), 400,
            "is not a square")  # fmt: skip
    # the square carries its move text as data-illegal, so a click on it gets that message
    assert 'data-illegal="4"' in client.get(f"/api/play/{view['id']}").json()["svg"]


def test_bad_setups_get_the_librarys_message(client: TestClient, runs: Path) -> None:
    refused(client.post("/api/play", json={"game": "chess"}), 400, "unknown game 'chess'")
    refused(client.post("/api/play", json={"opponent": "nobody"}), 400, "nobody")
    refused(client.post("/api/play", json={"seat": 2}), 400, "seat must be 0")
    refused(client.post("/api/play", json={"seed": "x"}), 400, "seed must be a whole number")
    # an option the compiled tree could not take is refused with the agent's line, not numba's
    huge = {"game": "ultimate_tictactoe", "opponent": f"mcts:select=puct,expand_at={10**21}"}
    refused(client.post("/api/play", json=huge), 400, "expand_at (the visits that expand a leaf)")
    refused(client.post("/api/play", content=b"[1, 2", headers=JSON), 400, "not JSON")
    refused(client.post("/api/play", json=[1]), 400, "JSON object")
    refused(client.post("/api/play/nope/move", json={"move": "1"}), 404, "no such game")
    # an evaluation for another game is refused when the bot meets the game, before any move
    for seat in (0, 1):
        refused(client.post("/api/play", json={"opponent": "alphabeta:eval=voronoi", "seat": seat}),
                400, "evaluation 'voronoi' is made for tron, not tictactoe")  # fmt: skip
    refused(client.get("/api/nothing"), 404, "no such page")
    refused(client.get("/api/play"), 405, "method not allowed")


def test_a_saved_table_is_an_opponent(client: TestClient) -> None:
    view = client.post("/api/play", json={"game": "tictactoe", "seat": 1,
                                          "opponent": "table:sp/table.json"}).json()  # fmt: skip
    assert view["opponent"].startswith("menace") and len(view["moves"]) == 1
    same = {
        "game": "tictactoe",
        "seat": 1,
        "opponent": "table:sp/table.json as menace:preset=michie",
    }
    assert client.post("/api/play", json=same).json()["opponent"] == "menace:preset=michie"
    # the tournament's spelling, table:PATH?SPEC, lays options over the file's agent (its
    # alpha=0.3 kept); " as SPEC" plays the table with SPEC's agent instead
    laid = {"game": "tictactoe", "opponent": "table:ql/table.json?qlearning:epsilon=0.05"}
    assert client.post("/api/play", json=laid).json()["opponent"] == (
        "qlearning:alpha=0.3,epsilon=0.05"
    )
    replaced = {**laid, "opponent": "table:ql/table.json as qlearning:epsilon=0.05"}
    assert client.post("/api/play", json=replaced).json()["opponent"] == "qlearning:epsilon=0.05"
    refused(client.post("/api/play", json={"opponent": "table:sp/table.json as qlearning"}),
            400, "needs")  # fmt: skip
    refused(client.post("/api/play", json={"opponent": "table:sp/table.json?qlearning"}),
            400, "needs")  # fmt: skip
    refused(client.post("/api/play", json={"opponent": "table:sp/table.json?menace:beads=x"}),
            400, "beads")  # fmt: skip
    # " as " inside a path is the path's under the ?SPEC spelling: no such table here
    refused(client.post("/api/play", json={"opponent": "table:sp as x/table.json?menace"}),
            404, "no table file 'sp as x/table.json'")  # fmt: skip
    # the path before the last "?" stays inside the runs folder
    refused(client.post("/api/play", json={"opponent": "table:../../etc/passwd?menace"}),
            400, "only names inside the runs folder")  # fmt: skip
    refused(client.post("/api/play", json={"opponent": "table:sp/games.jsonl"}), 400, "")
    refused(client.post("/api/play", json={"opponent": "table:sp/none.json"}), 404, "no table")


def test_runs_are_listed_and_replayed(client: TestClient, runs: Path) -> None:
    listed = {r["name"]: r for r in client.get("/api/runs").json()["runs"]}
    assert listed["sp"]["kind"] == "selfplay" and listed["sp"]["games"] == 30
    assert listed["tour"]["kind"] == "tournament" and listed["tour"]["games"] == 4
    # a sweep's runs sit deeper: listed, and linked from the sweep's page
    seeds = ["sweep/runs/menace__preset=michie/seed-0", "sweep/runs/menace__preset=michie/seed-1"]
    assert listed["sweep"]["kind"] == "sweep"
    assert all(listed[s]["games"] == 10 for s in seeds)
    assert [r["name"] for r in client.get("/api/runs/sweep").json()["runs"]] == seeds
    assert f'href="/runs/{seeds[1]}"' in client.get("/runs/sweep").text
    assert client.get(f"/runs/{seeds[1]}/games/9").status_code == 200
    run = client.get("/api/runs/sp").json()
    outcomes = [{"win": 1, "draw": 0, "loss": -1}[g["result"]] for g in run["games"]]
    assert run["curve"] == list(purestate.core.learning.cumulative_incentive(outcomes))
    assert run["summaries"]["summary.json"]["games"] == 30
    records = purestate.io.records.read_records(runs / "tour")
    for n, record in enumerate(records):
        g = client.get(f"/api/runs/tour/games/{n}").json()
        assert len(g["frames"]) == len(record.moves) + 1
        assert g["returns"] == list(record.returns) and g["result"] == record.result
    refused(client.get("/api/runs/tour/games/4"), 404, "games 0..3")
    refused(client.get("/runs/tour/games/9"), 404, "games 0..3")


def test_nothing_outside_the_runs_folder_is_read(
    client: TestClient, runs: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "games.jsonl").write_text((runs / "tour" / "games.jsonl").read_text())
    (outside / "table.json").write_text((runs / "sp" / "table.json").read_text())
    os.symlink(outside, runs / "link")
    try:
        assert "link" not in {r["name"] for r in client.get("/api/runs").json()["runs"]}
        refused(client.get("/api/runs/link"), 400, "is a symlink")
        refused(client.get("/api/runs/link/games/0"), 400, "is a symlink")
        refused(client.post("/api/play", json={"opponent": "table:link/table.json"}), 400,
                "is a symlink")  # fmt: skip
        refused(client.get("/api/runs/%2e%2e/games/0"), 400, "only names inside")
        refused(client.get("/api/runs/sp/%2e%2e/%2e%2e/etc"), 400, "only names inside")
        refused(client.get(f"/api/runs/{outside}"), 400, "only names inside")
        refused(client.get("/api/runs//etc"), 400, "only names inside")
        refused(client.post("/api/play", json={"opponent": f"table:{outside}/table.json"}), 400,
                "only names inside")  # fmt: skip
        refused(client.post("/api/play", json={"opponent": "table:../secret/table.json"}), 400,
                "only names inside")  # fmt: skip
    finally:
        (runs / "link").unlink()


def test_requests_are_bounded(client: TestClient) -> None:
    big = b'{"game": "' + b"x" * MAX_BODY + b'"}'
    refused(client.post("/api/play", content=big, headers=JSON), 413, "over")

    def chunks() -> Any:
        yield b'{"game": "'
        for _ in range(20):
            yield b"x" * 1024
        yield b'"}'

    refused(client.post("/api/play", content=chunks(), headers=JSON), 413, "over")
    refused(client.post("/api/play", json={"game": "tictactoe:" + "a" * 400}), 400, "longer")


def test_serve_binds_this_machine_only_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    seen: list[str] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: seen.append(self.config.host))
    cli("serve", "--runs", str(tmp_path / "r"))
    cli("serve", "--runs", str(tmp_path / "r"), "--host", "0.0.0.0", "--port", "0")
    assert seen == ["127.0.0.1", "0.0.0.0"]
    (tmp_path / "f").write_text("")
    result = runner.invoke(cli_app, ["serve", "--runs", str(tmp_path / "f")])
    assert result.exit_code == 2 and "not a folder" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_leaves_the_processs_other_log_handlers_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # uvicorn's default log config runs dictConfig, which closes every handler in the process:
    # absl's (imported with OpenSpiel) closes its stream then, which was pytest's own capture
    import logging

    import uvicorn

    closed: list[logging.Handler] = []

    class Recording(logging.NullHandler):
        def close(self) -> None:
            closed.append(self)
            super().close()

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    handler = Recording()
    logging.getLogger("someone.else").addHandler(handler)
    try:
        cli("serve", "--runs", str(tmp_path / "r"))
        assert closed == []
    finally:
        logging.getLogger("someone.else").removeHandler(handler)


def library_run(run: Selfplay, games: int) -> tuple[list[Any], tuple[Any, Any]]:
    """The library's fold: the first ``games`` episodes of ``run`` and the tables after them."""
    g = run.make_game()
    steps = list(islice(run.run(g, run.initial_tables(g)), games))
    return [s.episode for s in steps], steps[-1].tables if steps else run.initial_tables(g)


def beads_of(run: Selfplay, table: Any) -> dict[str, Any]:
    """Box key -> {move: beads}: the table as the table file (and the page) shows it."""
    g = run.make_game()
    boxes = run.agents()[0].table_to_json(g, table)["boxes"]
    return {k: b["beads"] for k, b in boxes.items()}


LAB = {"opponent": "rules:p=0.7", "seed": 3, "games": 200,
       "menace": {"preset": "scroggs", "incentives": "3/1/-1"}}  # fmt: skip


def test_the_menace_lab_plays_the_librarys_games(client: TestClient) -> None:
    view = client.post("/api/menace", json=LAB).json()
    run = Selfplay("tictactoe", "menace:preset=scroggs", "rules:p=0.7", 0, 3)
    assert view["menace"] == "menace:preset=scroggs"
    start = beads_of(run, run.initial_tables(run.make_game())[0])
    assert {b["key"]: b["beads"] for b in view["boxes"]} == start
    assert all('data-move="' in b["svg"] for b in view["boxes"])
    # batches of any size are the same games: 1 + 119 + 80
    for n in (1, 119, 80):
        update = client.post(f"/api/menace/{view['id']}/step", json={"games": n}).json()
    episodes, tables = library_run(run, 200)
    t = tally(ep.outcome(0) for ep in episodes)
    assert (update["games"], update["wins"], update["draws"], update["losses"]) == (
        200, t.wins, t.draws, t.losses)  # fmt: skip
    assert update["done"] and update["last"]["index"] == 199
    # the last batch's changed boxes carry the library's bead counts after 200 games
    after = beads_of(run, tables[0])
    assert update["beads"] and all(after[k] == v for k, v in update["beads"].items())
    changed = {k for k in after if after[k] != beads_of(run, library_run(run, 120)[1][0])[k]}
    assert changed <= set(update["beads"])
    g = run.make_game()
    used = run.agents()[0].drawn(g, tables[0], episodes[-1], 0)
    assert update["drawn"] == [[k, g.format_move(m)] for k, m in used] and used
    assert update["last"]["moves"] == [g.format_move(m) for m in episodes[-1].moves]


def test_a_saved_lab_is_a_selfplay_run_the_cli_resumes_and_evaluates(
    client: TestClient, runs: Path, tmp_path: Path
) -> None:
    view = client.post("/api/menace", json={**LAB, "games": 50}).json()
    client.post(f"/api/menace/{view['id']}/step", json={"games": 50})
    saved = client.post(f"/api/menace/{view['id']}/save", json={"name": "labs/first"}).json()
    assert saved == {"saved": "labs/first", "games": 50}
    lab = runs / "labs" / "first"
    cli("selfplay", "--agent", "menace:preset=scroggs", "--seed", "3", "--games", "50",
        "--no-plot", "--out", str(tmp_path / "cli"))  # fmt: skip
    for file in ("games.jsonl", "table.json", "summary.json", "run.json"):
        assert (lab / file).read_text() == (tmp_path / "cli" / file).read_text(), file
    # purestate selfplay continues it, to the very files of an uninterrupted 80-game run
    cli("selfplay", "--agent", "menace:preset=scroggs", "--seed", "3", "--resume", str(lab),
        "--more", "30", "--no-plot")  # fmt: skip
    cli("selfplay", "--agent", "menace:preset=scroggs", "--seed", "3", "--games", "80",
        "--no-plot", "--out", str(tmp_path / "whole"))  # fmt: skip
    for file in ("games.jsonl", "table.json", "summary.json"):
        assert (lab / file).read_text() == (tmp_path / "whole" / file).read_text(), file
    result = runner.invoke(cli_app, ["evaluate", "--table", str(lab / "table.json"), "--games",
                                     "20", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert '"games": 20' in result.output
    # the folder is new or refused; only inside the runs folder
    refused(client.post(f"/api/menace/{view['id']}/save", json={"name": "labs/first"}), 400,
            "already holds a run")  # fmt: skip
    refused(client.post(f"/api/menace/{view['id']}/save", json={"name": "../out"}), 400,
            "only names inside")  # fmt: skip
    refused(client.post(f"/api/menace/{view['id']}/save", json={"name": "sp/inner"}), 400,
            "inside the run folder")  # fmt: skip
    refused(client.post(f"/api/menace/{view['id']}/save", json={"name": str(tmp_path)}), 400,
            "only names inside")  # fmt: skip


def test_the_lab_streams_its_training_and_stops_when_the_page_goes(client: TestClient) -> None:
    view = client.post("/api/menace", json={**LAB, "games": 100_000}).json()
    lid = view["id"]
    assert client.post(f"/api/menace/{lid}/control", json={"running": True, "speed": 0}).json()[
        "running"
    ]
    seen = []
    with client.stream("GET", f"/api/menace/{lid}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in stream.headers  # compressed, it would not stream
        refused(client.get(f"/api/menace/{lid}/events"), 409, "already go to another page")
        for line in stream.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["games"])
                if len(seen) == 4:
                    break
    assert seen == sorted(seen) and seen[0] >= 1 and len(set(seen)) == 4
    # the page went: the job stopped, and no more games are played
    deadline = time.monotonic() + 10
    while client.get(f"/api/menace/{lid}").json()["running"] and time.monotonic() < deadline:
        time.sleep(0.05)
    stopped = client.get(f"/api/menace/{lid}").json()["games"]
    time.sleep(0.3)
    assert client.get(f"/api/menace/{lid}").json()["games"] == stopped < 100_000


def test_big_answers_are_compressed(client: TestClient) -> None:
    lab = client.post("/api/menace", json=LAB)
    assert lab.headers["content-encoding"] == "gzip"
    # 304 boxes drawn as SVG: the text shrinks over tenfold on the wire
    assert int(lab.headers["content-length"]) * 10 < len(lab.content)
    assert client.get("/api/menace/x").headers.get("content-encoding") is None  # a short error


def test_one_lab_per_browser_session(client: TestClient) -> None:
    first = client.post("/api/menace", json=LAB).json()["id"]
    second = client.post("/api/menace", json=LAB).json()["id"]
    refused(client.get(f"/api/menace/{first}"), 404, "no such lab")
    assert client.get(f"/api/menace/{second}").json()["games"] == 0
    other = TestClient(client.app, base_url=LOCAL, raise_server_exceptions=False)  # a browser
    other.post("/api/menace", json=LAB)
    assert client.get(f"/api/menace/{second}").status_code == 200


def test_the_lab_against_a_person_is_the_librarys_game(client: TestClient) -> None:
    setup = {**LAB, "opponent": "person", "seed": 9}
    view = client.post("/api/menace", json=setup).json()
    lid, board = view["id"], view["board"]
    assert len(board["moves"]) == 1 and board["your_turn"]  # MENACE opened
    # from its first box, highlighted while the game goes on
    assert [box for box, _ in view["update"]["drawn"]] == ["........."]
    clicks = []
    while True:
        free = [m for m in range(9) if f'data-move="{m}"' in board["svg"]]
        clicks.append(free[0])
        update = client.post(f"/api/menace/{lid}/move", json={"move": str(free[0])}).json()
        if "ended" in update:
            break
        board = update["board"]
    run = Selfplay("tictactoe", "menace:preset=scroggs", "random", 0, 9)
    g = run.make_game()
    menace = run.agents()[0]
    table = run.initial_tables(g)[0]
    ep = purestate.play(g, (menace, Script(clicks)), (table, None), fold_in(purestate.key(9), 0))
    assert update["ended"]["moves"] == [str(m) for m in ep.moves]
    assert update["games"] == 1 and update["last"]["moves"] == update["ended"]["moves"]
    learned = beads_of(run, menace.learn(g, table, ep, 0))
    assert all(learned[k] == v for k, v in update["beads"].items())
    # the next game is game 1 of the run: MENACE's opening drawn with game 1's key
    assert len(update["board"]["moves"]) == 1
    refused(client.post(f"/api/menace/{lid}/move", json={"move": "9"}), 400, "illegal move")
    refused(client.post(f"/api/menace/{lid}/step", json={"games": 1}), 400, "by clicking")
    refused(client.post(f"/api/menace/{lid}/control", json={"running": True}), 400,
            "by clicking")  # fmt: skip
    refused(client.post(f"/api/menace/{lid}/save", json={"name": "p"}), 400,
            "against a person cannot be saved")  # fmt: skip


def test_menace_refuses_to_play_when_its_first_box_empties(client: TestClient) -> None:
    setup = {"opponent": "perfect", "games": 300, "seed": 1,
             "menace": {"beads": "1", "incentives": "0/0/-1"}}  # fmt: skip
    view = client.post("/api/menace", json=setup).json()
    update = client.post(f"/api/menace/{view['id']}/step", json={"games": 300}).json()
    run = Selfplay("tictactoe", "menace:beads=1,incentives=0/0/-1", "perfect", 0, 1)
    stretch = run.play(run.make_game(), run.initial_tables(run.make_game()), 0, 300)
    assert stretch.refused and update["refused_at"] == len(stretch.episodes) < 300
    assert update["done"] and update["games"] == len(stretch.episodes)
    first = view["boxes"][0]["key"]
    assert sum(beads_of(run, stretch.tables[0])[first].values()) == 0
    # the lab is over: a step plays nothing more
    again = client.post(f"/api/menace/{view['id']}/step", json={"games": 1}).json()
    assert again["games"] == update["games"] and again["refused_at"] == update["refused_at"]


def test_bad_lab_requests_are_refused_with_a_message(client: TestClient) -> None:
    lab = client.post("/api/menace", json=LAB).json()["id"]
    for body, says in (
        ({"menace": {"beads": "x"}}, "beads"),
        ({"menace": {"preset": "nobody"}}, "preset"),
        ({"menace": {"empty": 3}}, "must be text"),
        ({"menace": "scroggs"}, "object of MENACE's options"),
        ({"opponent": "nobody"}, "nobody"),
        ({"game": "ultimate_tictactoe"}, "menace"),
        ({"game": "chess"}, "unknown game"),
        ({"seat": 2}, "seat must be"),
        ({"seed": -1}, "seed must be"),
        ({"games": MAX_LAB_GAMES + 1}, "games must be from 1"),
        ({"games": "many"}, "whole number"),
    ):
        refused(client.post("/api/menace", json={**LAB, **body}), 400, says)
    refused(client.post(f"/api/menace/{lab}/step", json={"games": MAX_BATCH + 1}), 400,
            f"games must be from 1 to {MAX_BATCH}")  # fmt: skip
    refused(client.post(f"/api/menace/{lab}/step", json={"games": 0}), 400, "games must be")
    refused(client.post(f"/api/menace/{lab}/control", json={"speed": -1}), 400, "speed")
    refused(client.post(f"/api/menace/{lab}/control", json={"running": "yes"}), 400, "true or")
    refused(client.post(f"/api/menace/{lab}/control", json={"games": 0}), 400, "games")
    refused(client.post(f"/api/menace/{lab}/save", json={"name": "x"}), 400, "no games")
    refused(client.post(f"/api/menace/{lab}/save", json={"name": ""}), 400, "not a name")
    refused(client.post(f"/api/menace/{lab}/move", json={"move": "1"}), 400, "not a person")
    for path in ("", "/events", "/step", "/move", "/save", "/control"):
        if path in ("", "/events"):
            refused(client.get(f"/api/menace/nope{path}"), 404, "no such lab")
        else:
            refused(client.post(f"/api/menace/nope{path}", json={}), 404, "no such lab")
    refused(client.get("/api/menace"), 405, "method not allowed")


SWEEP_RUN = "sweep/runs/menace__preset=michie/seed-1"


@pytest.mark.parametrize(("run", "k"), [("sp", 0), ("sp", 1), ("sp", 17), ("sp", 30),
                                        ("two", 0), ("two", 12), ("two", 25),
                                        (SWEEP_RUN, 10)])  # fmt: skip
def test_time_travel_shows_trains_menace_table_after_k_games(
    client: TestClient, runs: Path, run: str, k: int
) -> None:
    manifest = purestate.io.files.read_json(runs / run / "summary.json")
    seat = 0 if manifest["seat"] == "first" else 1
    sp = Selfplay(manifest["game"], manifest["agent"], manifest["opponent"], seat,
                  manifest["seed"])  # fmt: skip
    tables = library_run(sp, k)[1]
    table = client.get(f"/api/runs/{run}/table/{k}").json()
    assert table["kind"] == "menace" and table["k"] == k
    g = sp.make_game()
    want = sp.seats()[seat].table_to_json(g, tables[seat])["boxes"]
    assert [b["key"] for b in table["boxes"]] == list(want)
    assert {b["key"]: b["beads"] for b in table["boxes"]} == {
        k: b["beads"] for k, b in want.items()
    }
    drawn = client.get(f"/api/runs/{run}/table/{k}?boards=1").json()["boxes"]
    assert all(b["svg"].startswith("<svg") for b in drawn)
    # game k's boxes and beads, to highlight
    if k:
        ep = library_run(sp, k)[0][-1]
        used = sp.seats()[seat].drawn(g, tables[seat], ep, seat)
        assert table["drawn"] == [[key, g.format_move(m)] for key, m in used] and used
        assert table["last"]["moves"] == [g.format_move(m) for m in ep.moves]
    else:
        assert table["drawn"] == [] and "last" not in table


@pytest.mark.parametrize("k", [0, 1, 23, 40])
def test_time_travel_shows_q_values_after_k_games(client: TestClient, k: int) -> None:
    sp = Selfplay("tictactoe", "qlearning:alpha=0.3", "random", 0, 2)
    table = library_run(sp, k)[1][0]
    q = sp.agents()[0].table_to_json(sp.make_game(), table)["q"]
    got = client.get(f"/api/runs/ql/table/{k}").json()
    assert got["kind"] == "q" and got["known"] == len(q)
    assert got["positions"] or not q
    for p in got["positions"]:
        assert p["values"] == q[p["key"]] and "data-move" in p["svg"]


def test_time_travel_refusals_and_the_pages(client: TestClient) -> None:
    refused(client.get("/api/runs/tour/table/0"), 400, "not a training run")
    refused(client.get("/api/runs/sp/table/31"), 404, "k must be from 0")
    refused(client.get("/api/runs/nope/table/0"), 404, "no run")
    refused(client.get("/api/runs/%2e%2e/table/0"), 400, "only names inside")
    page = client.get("/runs/sp").text
    assert 'id="k"' in page and 'max="30"' in page and "travel.js" in page
    assert 'id="k"' not in client.get("/runs/tour").text
    lab = client.get("/menace")
    assert lab.status_code == 200 and "lab.js" in lab.text
    for static in ("lab.js", "boxes.js", "travel.js"):
        assert client.get(f"/static/{static}").status_code == 200


def test_the_tron_page_links_recorded_matches_and_maps(client: TestClient) -> None:
    page = client.get("/tron").text
    assert 'href="/runs/tron/games/0?play=1"' in page
    assert 'href="/play/tron:map=small_room"' in page
    # the page picks its runs by the game their records hold, not by a kind of their own
    listed = {r["name"]: r for r in client.get("/api/runs").json()["runs"]}
    assert listed["tron"]["game"] == "tron" and listed["tron"]["kind"] == "games"
    assert listed["tour"]["game"] == "tictactoe" and 'href="/runs/tour/' not in page
    run = client.get("/runs/tron").text
    assert "Watch game 0 animated" in run and 'href="/play/tron:map=small_room' in run
    # any run of games offers the same links
    tour = client.get("/runs/tour").text
    assert "Watch game 0 animated" in tour and 'href="/play/tictactoe"' in tour
    assert 'id="play"' in client.get("/runs/tron/games/1").text


def test_the_bots_committed_move_stays_secret_until_the_round_resolves(
    client: TestClient,
) -> None:
    # simultaneous Tron, the person second: the bot commits first each round
    spec = "tron:map=small_room,rules=simultaneous"
    view = client.post("/api/play", json={"game": spec, "opponent": "tron_random", "seat": 1,
                                          "seed": 3}).json()  # fmt: skip
    assert view["your_turn"] and view["moves"] == [] and view["bot_moves"] == []
    # the library's game with the same seed: what the bot committed
    game = purestate.make_spec(spec)
    bot = purestate.agent("tron_random")
    ply0 = fold_in(fold_in(purestate.key(3), 0), 0)  # the session's game key, its ply 0
    first = bot.act(game, None, game.observation(game.initial(), 0), ply0)
    committed = game.format_move(first.move)
    assert f'"{committed}"' not in json.dumps({k: v for k, v in view.items() if k != "svg"})
    view = client.post(f"/api/play/{view['id']}/move", json={"move": "L"}).json()
    # the round resolved: both moves are shown, the bot's announced, its next one secret again
    assert view["moves"] == [committed, "L"] and view["movers"] == [0, 1]
    assert view["bot_moves"] == [committed]
    assert client.get(f"/api/play/{view['id']}").json()["moves"] == [committed, "L"]


class Breaks(FixedPolicy):
    """Commits its scripted moves, then fails as a function made for another game would."""

    spec = "breaks"

    def __init__(self, moves: list[Any]) -> None:
        self.moves = list(moves)

    def act(self, game: Any, table: Any, state: Any, key: Any) -> Decision[Any]:
        if not self.moves:
            raise SpecError("made for another game")
        return Decision(self.moves.pop(0))


def test_a_move_the_bot_cannot_answer_is_taken_back_and_leaks_nothing() -> None:
    from purestate.web.errors import WebError
    from purestate.web.play import Session

    spec = "tron:map=small_room,rules=simultaneous"
    game = purestate.make_spec(spec)
    session = Session(game, spec, Breaks([3]), None, 1, 0)  # the bot commits R, then fails
    session.bot_moves()
    before = session.view("s")
    assert before["moves"] == [] and before["bot_moves"] == [] and before["your_turn"]
    with pytest.raises(WebError, match="cannot play"):
        session.person_moves("L")
    # the game is as it was: the person's move taken back, the bot's R still secret
    assert session.view("s") == before and len(session.moves) == 1


def test_tron_trails_are_drawn_in_their_players_colours(client: TestClient) -> None:
    from purestate.games.tron.drawing import TRAIL_COLOURS

    last = client.get("/api/runs/tron/games/0").json()["frames"][-1]
    assert all(f'fill="{c}"' in last for c in TRAIL_COLOURS)
    game = client.post("/api/play", json={"game": "tron:map=small_room", "opponent": "tron_wall",
                                          "seat": 0, "seed": 3}).json()  # fmt: skip
    for move in ("R", "D"):  # away from the walls: the bot keeps to them
        game = client.post(f"/api/play/{game['id']}/move", json={"move": move}).json()
    assert all(f'fill="{c}"' in game["svg"] for c in TRAIL_COLOURS)
    # the person (player 1) started in the top left free cell, row 1 and column 1
    assert f'x="38" y="38" width="28" height="28" fill="{TRAIL_COLOURS[0]}"' in game["svg"]


def test_a_training_runs_page_draws_rates_with_wilson_bands(client: TestClient, runs: Path) -> None:
    from purestate.core.learning import blocks, wilson

    run = client.get("/api/runs/sp").json()
    assert run["kind"] == "selfplay" and run["learner"]["agent"] == "menace:preset=michie"
    records = purestate.io.records.read_records(runs / "sp")
    outcomes = [{"win": 1, "draw": 0, "loss": -1}[r.result] for r in records]
    # 30 games: blocks of 10, each rate with the library's Wilson interval
    assert run["block"] == 10
    want = blocks(outcomes, 10)
    assert [{k: b[k] for k in ("wins", "draws", "losses")} for b in run["blocks"]] == [
        t.as_dict() for t in want
    ]
    for b, t in zip(run["blocks"], want, strict=True):
        low, high = wilson(t.wins, t.games)
        assert b["win_rate"] == {"rate": t.wins / t.games, "low": low, "high": high}
        assert b["loss_rate"]["low"] == wilson(t.losses, t.games)[0]
    # the share of optimal moves the summary counts per block, with its Wilson interval
    summary = purestate.io.files.read_json(runs / "sp" / "summary.json")
    hits = sum(b["optimal_moves"] for b in summary["blocks"])
    moves = sum(b["learner_moves"] for b in summary["blocks"])
    assert len(summary["blocks"]) == 1  # 30 games in blocks of 100
    assert run["optimal"]["points"] == [{"to": 30, "optimal": hits, "moves": moves,
                                         "rate": hits / moves, "low": wilson(hits, moves)[0],
                                         "high": wilson(hits, moves)[1]}]  # fmt: skip
    page = client.get("/runs/sp").text
    assert "share of the learner&#x27;s moves" in page or "share of the learner's moves" in page
    assert "share of the block&#x27;s games" in page or "share of the block's games" in page
    assert "bands: Wilson 95% intervals" in page and "3W + D − L" in page
    assert page.count('<g class="series"') == 4  # wins, draws, losses; optimal moves
    # the Q-learning run: the curve and the time travel of its heat maps
    ql = client.get("/runs/ql").text
    assert page.count('class="chart"') >= 2 and 'id="k"' in ql and ql.count('class="chart"') >= 2


def test_a_long_run_is_drawn_in_at_most_100_blocks_and_paged(tmp_path: Path) -> None:
    from purestate.web.runs import CURVE_BLOCKS, PAGE_GAMES, curve_block

    # the block grows with the run: 20,000 games are 100 points of 200, never a smear
    assert [curve_block(n) for n in (1, 30, 1000, 1001, 20_000, 10**6)] == [
        10, 10, 10, 20, 200, 10_000
    ]  # fmt: skip
    assert all(-(-n // curve_block(n)) <= CURVE_BLOCKS for n in range(1, 30_000, 997))
    cli("selfplay", "--games", "250", "--no-plot", "--out", str(tmp_path / "long"))
    client = TestClient(create_app(tmp_path), base_url=LOCAL, raise_server_exceptions=False)
    first = client.get("/api/runs/long").json()
    assert first["total"] == 250 and first["pages"] == 3 and first["per_page"] == PAGE_GAMES
    assert [g["index"] for g in first["games"]] == list(range(100))
    second = client.get("/api/runs/long?page=1").json()
    assert [g["index"] for g in second["games"]] == list(range(100, 200))
    page = client.get("/runs/long?page=2").text
    assert 'href="/runs/long/games/249"' in page and 'href="/runs/long/games/199"' not in page
    assert 'href="/runs/long?page=1#games"' in page and "page 3 of 3" in page
    refused(client.get("/runs/long?page=3"), 404, "pages 0..2")
    refused(client.get("/api/runs/long?page=-1"), 400, "page must be")
    # the page is computed once and remembered while the files are unchanged; a changed log
    # (a run still writing) is read again
    log = tmp_path / "long" / "games.jsonl"
    log.write_text("".join(log.read_text().splitlines(keepends=True)[:120]))
    again = client.get("/api/runs/long").json()
    assert again["total"] == 120 and again["pages"] == 2


def test_a_tournaments_page_shows_its_standings_and_pairs_as_tables(
    client: TestClient, runs: Path, tmp_path: Path
) -> None:
    standings = purestate.io.files.read_json(runs / "tour" / "standings.json")
    view = client.get("/api/runs/tour").json()
    assert "curve" not in view and "blocks" not in view  # no learning curve for a tournament
    st = view["standings"]
    assert st["agents"] == [r["agent"] for r in standings["ratings"]]
    pair = standings["pairs"][0]
    i, j = st["agents"].index(pair["agent"]), st["agents"].index(pair["opponent"])
    cell = st["matrix"][i][j]
    assert cell["wins"] == pair["wins"] and cell["score"] == pair["score"]
    # the other side of the same games
    assert st["matrix"][j][i]["wins"] == pair["losses"]
    assert st["matrix"][j][i]["score"] == pytest.approx(1 - pair["score"])
    assert st["matrix"][i][i] is None
    page = client.get("/runs/tour").text
    assert '<table class="standings">' in page and '<table class="matrix">' in page
    assert "Learning curve" not in page and "&quot;agent&quot;" not in page  # no raw JSON
    for r in standings["ratings"]:
        # the interval, or the note saying why it means nothing (too few games here)
        assert r.get("interval_note", f"{r['elo_low']:+.0f} .. {r['elo_high']:+.0f}") in page
    # a rating whose interval means nothing says why instead
    noted = runs / "tour_noted"
    noted.mkdir()
    for f in ("games.jsonl", "pairs.csv"):
        (noted / f).write_text((runs / "tour" / f).read_text())
    # (here only the first rating has a note; the others show their intervals)
    for r in standings["ratings"]:
        r.pop("interval_note", None)
    standings["ratings"][0]["interval_note"] = "too few games"
    purestate.io.files.write_json(noted / "standings.json", standings)
    try:
        page = client.get("/runs/tour_noted").text
        first, *others = standings["ratings"]
        assert '<td class="note">too few games</td>' in page
        assert f"{first['elo_low']:+.0f} .. {first['elo_high']:+.0f}" not in page
        for r in others:
            assert f"{r['elo_low']:+.0f} .. {r['elo_high']:+.0f}" in page
    finally:
        for f in noted.iterdir():
            f.unlink()
        noted.rmdir()


def test_a_sweeps_page_shows_its_mean_curves_and_its_settings_seeds(
    client: TestClient, runs: Path
) -> None:
    aggregate = purestate.io.files.read_json(runs / "sweep" / "aggregate.json")
    view = client.get("/api/runs/sweep").json()
    assert [s["agent"] for s in view["settings"]] == [a["agent"] for a in aggregate]
    assert [r["name"] for r in view["settings"][0]["runs"]] == [
        "sweep/runs/menace__preset=michie/seed-0", "sweep/runs/menace__preset=michie/seed-1"
    ]  # fmt: skip
    page = client.get("/runs/sweep").text
    assert "No games recorded" not in page and "Mean curves" in page
    assert page.count('<g class="series"') == 3 * len(aggregate)  # a line per setting and rate
    assert '<table class="settings">' in page
    assert '<a href="/runs/sweep/runs/menace__preset=michie/seed-1"' in page
    # a sweep's run is a training run: its own curve and time travel
    seed = client.get("/api/runs/sweep/runs/menace__preset=michie/seed-1").json()
    assert seed["kind"] == "selfplay" and len(seed["curve"]) == 10


def test_runs_are_sorted_with_their_numbers_read_as_numbers(tmp_path: Path) -> None:
    from purestate.web.runs import list_runs, natural

    for n in (10, 2, 1, 11):
        (tmp_path / "s" / f"seed-{n}").mkdir(parents=True)
        (tmp_path / "s" / f"seed-{n}" / "summary.json").write_text("{}")
    assert [r["name"] for r in list_runs(tmp_path)] == [f"s/seed-{n}" for n in (1, 2, 10, 11)]
    assert sorted(["b2", "a10", "a9", "a"], key=natural) == ["a", "a9", "a10", "b2"]


def test_bot_matches_show_results_by_game_and_players(client: TestClient, runs: Path) -> None:
    from purestate.core.learning import tally

    records = purestate.io.records.read_records(runs / "tron")
    view = client.get("/api/runs/tron").json()
    assert view["kind"] == "games" and "curve" not in view and "learner" not in view
    rows = view["results"]["rows"]
    # the series alternates the first player: one row per game spec, the first named's results
    assert sorted(r["game"] for r in rows) == sorted({r.game for r in records})
    for row in rows:
        mine = [r for r in records if r.game == row["game"]]
        t = tally((r.returns[0] > r.returns[1]) - (r.returns[0] < r.returns[1]) for r in mine)
        assert (row["wins"], row["draws"], row["losses"]) == (t.wins, t.draws, t.losses)
        assert row["players"] == list(mine[0].players)
    page = client.get("/runs/tron").text
    assert '<table class="results">' in page and "Learning curve" not in page


def test_results_leave_out_what_each_game_draws_afresh() -> None:
    from purestate.core.record import Record
    from purestate.web.runs import results

    def rec(game: str, returns: tuple[int, int]) -> Record:
        result = "win" if returns[0] > returns[1] else "loss" if returns[0] < returns[1] else "draw"
        return Record(game=game, players=("a", "b"), seed=0, index=0, seat=0, result=result,
                      resigned=None, returns=returns, moves=())  # fmt: skip

    mirror = "tron:map=m,start=mirror"
    got = results([rec(f"{mirror},start_seed=1", (1, -1)), rec(f"{mirror},start_seed=2", (0, 0)),
                   rec(f"{mirror},first_player=1,start_seed=3", (-1, 1))])  # fmt: skip
    assert [(r["game"], r["wins"], r["draws"], r["losses"]) for r in got["rows"]] == [
        ("tron:map=m,start=mirror", 1, 1, 0),
        ("tron:map=m,start=mirror,first_player=1", 0, 0, 1),
    ]
    # and the players over every game
    total = got["totals"]
    assert [(r["game"], r["wins"], r["draws"], r["losses"]) for r in total] == [
        ("all games", 1, 1, 1)
    ]
    assert results([rec(mirror, (1, -1))])["totals"] == []  # one game spec: no total
    # both seat orders (evaluate plays each): the first named player's results over both
    swapped = Record(game="tictactoe", players=("b", "a"), seed=0, index=1, seat=0, result="win",
                     resigned=None, returns=(1, -1), moves=())  # fmt: skip
    got = results([rec("tictactoe", (1, -1)), rec("tictactoe", (0, 0)), swapped])
    assert [r["players"] for r in got["rows"]] == [["a", "b"], ["b", "a"]]
    assert [(r["players"], r["wins"], r["draws"], r["losses"]) for r in got["totals"]] == [
        (["a", "b"], 1, 1, 1)
    ]


def test_time_travel_to_the_end_reads_the_runs_saved_table(
    client: TestClient, runs: Path, tmp_path: Path
) -> None:
    # the table after all k games is the run's table.json when it says it was saved then (no
    # replay: the first look at a long run); a table saved at another count is not used
    copy = runs / "sp_saved"
    copy.mkdir()
    try:
        for f in ("run.json", "games.jsonl", "summary.json"):
            (copy / f).write_text((runs / "sp" / f).read_text())
        saved = purestate.io.files.read_json(runs / "sp" / "table.json")
        key = next(iter(saved["boxes"]))
        saved["boxes"][key]["beads"] = {m: 99 for m in saved["boxes"][key]["beads"]}
        purestate.io.files.write_json(copy / "table.json", saved)
        boxes = {
            b["key"]: b["beads"] for b in client.get("/api/runs/sp_saved/table/30").json()["boxes"]
        }
        assert set(boxes[key].values()) == {99}
        saved["games"] = 29  # not saved after the last game: the games are replayed
        purestate.io.files.write_json(copy / "table.json", saved)
        boxes = {
            b["key"]: b["beads"] for b in client.get("/api/runs/sp_saved/table/30").json()["boxes"]
        }
        want = {b["key"]: b["beads"] for b in client.get("/api/runs/sp/table/30").json()["boxes"]}
        assert boxes == want and set(boxes[key].values()) != {99}
    finally:
        for f in copy.iterdir():
            f.unlink()
        copy.rmdir()


def test_the_runs_page_lists_a_sweeps_runs_on_the_sweeps_row(client: TestClient) -> None:
    page = client.get("/runs").text
    assert 'href="/runs/sweep"' in page and "(2 runs inside)" in page
    assert 'href="/runs/sweep/runs/' not in page  # on the sweep's page, by setting
    assert 'href="/runs/sweep/runs/menace__preset=michie/seed-0"' in client.get("/runs/sweep").text


def test_an_old_run_json_is_read_as_it_meant_when_written(tmp_path: Path) -> None:
    from purestate.core.registry import classic_spec
    from purestate.web.runs import training_manifest

    old = {
        "format": "purestate.run/1",
        "command": "selfplay",
        "game": "tictactoe",
        "agent": "menace",
        "opponent": "mcts:simulations=300",
        "seat": "first",
        "seed": 0,
    }
    purestate.io.files.write_json(tmp_path / "run.json", old)
    found = training_manifest(tmp_path)
    assert found is not None
    assert found["opponent"] == classic_spec("mcts:simulations=300") != "mcts:simulations=300"
    assert found["agent"] == "menace"

"""The browser app's server through Starlette's test client: pages, the JSON API, seeded play
equal to the library's own games, the runs pages, and the safety rules (nothing outside the runs
folder, bounded requests, a JSON message for every refusal, never a 500)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient  # needs httpx, which the test extra installs
from typer.testing import CliRunner

import purestate
from purestate.cli import app as cli_app
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.keys import fold_in
from purestate.web.app import MAX_BODY, create_app

runner = CliRunner()


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
    return root


@pytest.fixture(scope="module")
def client(runs: Path) -> TestClient:
    return TestClient(create_app(runs), raise_server_exceptions=False)


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
    refused(client.post("/api/play", content=b"[1, 2"), 400, "not JSON")
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
    refused(client.post("/api/play", json={"opponent": "table:sp/table.json as qlearning"}),
            400, "needs")  # fmt: skip
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
        refused(client.get("/api/runs/link"), 400, "leads out of the runs folder")
        refused(client.get("/api/runs/link/games/0"), 400, "leads out of the runs folder")
        refused(client.post("/api/play", json={"opponent": "table:link/table.json"}), 400,
                "leads out of the runs folder")  # fmt: skip
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
    refused(client.post("/api/play", content=big), 413, "over")

    def chunks() -> Any:
        yield b'{"game": "'
        for _ in range(20):
            yield b"x" * 1024
        yield b'"}'

    refused(client.post("/api/play", content=chunks()), 413, "over")
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

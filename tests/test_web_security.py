"""The browser app's security model (docs/web.md), most of it against a real ``purestate serve``
on 127.0.0.1 and a free port: the Host check (DNS rebinding), same-origin JSON for every change,
games and labs owned by the browser that made them, the CPU budget of every bot move, searches
abandoned when their client goes, SIGTERM and Ctrl-C, and runs read without following symlinks.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient  # needs httpx2, which the test extra installs
from typer.testing import CliRunner

from purestate.cli import app as cli_app
from purestate.web.app import create_app
from purestate.web.budget import Budget, Stopped
from purestate.web.lab import MAX_LABS
from purestate.web.owners import IDLE_SECONDS, UNCLAIMED_SECONDS, Busy, Owned
from purestate.web.play import MAX_GAMES_EACH, MAX_SESSIONS

LOCAL = "http://127.0.0.1"
WAIT = 120.0
"""Seconds a test waits for an answer before calling it a hang (never a speed claim: the machine
may be busy; a budgeted move answers in about the budget)."""


class Server:
    """``purestate serve`` in a subprocess on 127.0.0.1 and a free port."""

    def __init__(self, runs: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "purestate", "serve", "--port", "0", "--runs", str(runs),
             *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "COLUMNS": "200"},
        )  # fmt: skip
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        found = re.search(r"http://localhost:(\d+)/", line)
        assert found, line
        self.port = int(found.group(1))

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any, http.client.HTTPResponse]:
        """One request on a new connection; the status, the JSON answer and the response."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        if body is not None and "Content-Type" not in sent:
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        text = response.read()
        conn.close()
        try:
            answer = json.loads(text)
        except ValueError:
            answer = text.decode(errors="replace")
        return response.status, answer, response

    def cpu(self) -> float:
        """The server's CPU seconds so far (user + system, from /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, sig: int = signal.SIGTERM) -> tuple[float, str]:
        """Send ``sig``; the seconds until the process ended, and its stderr."""
        began = time.monotonic()
        self.proc.send_signal(sig)
        try:
            _, err = self.proc.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            pytest.fail(f"the server did not end after signal {sig}")
        return time.monotonic() - began, err


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    result = CliRunner().invoke(cli_app, ["selfplay", "--games", "20", "--no-plot", "--out",
                                          str(root / "sp")])  # fmt: skip
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(scope="module")
def server(runs: Path) -> Iterator[Server]:
    srv = Server(runs, "--move-seconds", "0.5", "--allow-host", "games.example")
    yield srv
    srv.stop()


def test_a_host_header_naming_another_site_is_refused(server: Server) -> None:
    port = server.port
    for host in ("evil.example.com", f"evil.example.com:{port}", "127.0.0.1.evil.example.com",
                 "", "localhost.", f"[::2]:{port}", "[::1]junk", f"[::1]junk:{port}",
                 "[::1]:", "[::1]:80x", "[::1].evil.example.com"):  # fmt: skip
        status, answer, _ = server.request("GET", "/api/games", headers={"Host": host})
        assert status == 421, host
        assert "answers only to" in answer["error"]
    status, _, _ = server.request("POST", "/api/play", {}, {"Host": "evil.example.com"})
    assert status == 421
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "LOCALHOST",
                 f"games.example:{port}"):  # fmt: skip
        status, _, _ = server.request("GET", "/api/games", headers={"Host": host})
        assert status == 200, host


def test_changes_need_same_origin_json(server: Server) -> None:
    crash = {"game": "openspiel:connect_four:rows=0"}
    evil = {"Origin": "http://evil.example.com"}
    for headers in (
        {**evil, "Content-Type": "text/plain"},
        {**evil, "Content-Type": "application/x-www-form-urlencoded"},
        {**evil, "Content-Type": "multipart/form-data; boundary=x"},
        {**evil, "Content-Type": "application/json"},
        {"Origin": f"http://127.0.0.1:{server.port + 1}", "Content-Type": "application/json"},
        {"Origin": "null", "Content-Type": "application/json"},
        {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
    ):
        status, answer, _ = server.request("POST", "/api/play", crash, headers)
        assert status == 403, headers
        assert "another site" in answer["error"]
        status, _, _ = server.request("POST", "/api/menace", {}, headers)
        assert status == 403, headers
    same = {"Origin": f"http://127.0.0.1:{server.port}"}
    for kind in ("text/plain", "application/x-www-form-urlencoded", ""):
        status, answer, _ = server.request("POST", "/api/play", {}, {**same, "Content-Type": kind})
        assert status == 415 and "JSON" in answer["error"], kind
    # the page's own request, and a program's (no Origin): answered
    for headers in (same, {}):
        status, answer, _ = server.request("POST", "/api/play", {"opponent": "random"}, headers)
        assert status == 200 and answer["your_turn"], headers
    assert server.proc.poll() is None


def test_the_browser_cookie_is_random_httponly_and_strict(server: Server) -> None:
    tokens = set()
    for _ in range(3):
        _, _, response = server.request("GET", "/")
        cookie = response.getheader("set-cookie")
        assert cookie is not None
        name, _, rest = cookie.partition("=")
        token, *flags = rest.split("; ")
        assert name == "purestate_browser" and len(token) >= 16
        assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= set(flags)
        tokens.add(token)
    assert len(tokens) == 3
    # a browser that has one keeps it
    _, _, response = server.request("GET", "/", headers={"Cookie": f"purestate_browser={token}"})
    assert response.getheader("set-cookie") is None


def browser(app: Any) -> TestClient:
    return TestClient(app, base_url=LOCAL, raise_server_exceptions=False)


def test_games_and_labs_belong_to_their_browser(runs: Path) -> None:
    app = create_app(runs, move_seconds=0.5)
    mine, stranger = browser(app), browser(app)
    game = mine.post("/api/play", json={"opponent": "random"}).json()["id"]
    lab = mine.post("/api/menace", json={"games": 10}).json()["id"]
    for method, path, body in (
        ("GET", f"/api/play/{game}", None),
        ("POST", f"/api/play/{game}/move", {"move": "4"}),
        ("GET", f"/api/menace/{lab}", None),
        ("GET", f"/api/menace/{lab}/events", None),
        ("POST", f"/api/menace/{lab}/step", {"games": 1}),
        ("POST", f"/api/menace/{lab}/control", {"running": True}),
        ("POST", f"/api/menace/{lab}/save", {"name": "stolen"}),
    ):
        r = stranger.request(method, path, json=body)
        assert r.status_code == 404, path
        assert "no such" in r.json()["error"]
    assert not (runs / "stolen").exists()
    # strangers filling the server get 429; nobody else's game or lab goes
    while True:
        r = browser(app).post("/api/play", json={"opponent": "random"})
        if r.status_code == 429:
            break
        assert r.status_code == 200
    assert "try again later" in r.json()["error"]
    for _ in range(MAX_LABS + 1):
        r = browser(app).post("/api/menace", json={"games": 10})
    assert r.status_code == 429
    assert mine.get(f"/api/play/{game}").status_code == 200
    assert mine.get(f"/api/menace/{lab}").status_code == 200
    # on a full server a browser's new game takes the place of its own oldest, its new lab of its
    # lab, and nobody else's
    newer = mine.post("/api/play", json={"opponent": "random"})
    assert newer.status_code == 200
    assert mine.get(f"/api/play/{game}").status_code == 404
    new_lab = mine.post("/api/menace", json={"games": 10}).json()["id"]
    assert mine.get(f"/api/menace/{lab}").status_code == 404
    assert mine.get(f"/api/menace/{new_lab}").status_code == 200
    assert browser(app).post("/api/play", json={"opponent": "random"}).status_code == 429


def test_a_browser_keeps_its_newest_games(runs: Path) -> None:
    me = browser(create_app(runs))
    ids = [me.post("/api/play", json={"opponent": "random"}).json()["id"]
           for _ in range(MAX_GAMES_EACH + 1)]  # fmt: skip
    assert me.get(f"/api/play/{ids[0]}").status_code == 404
    assert all(me.get(f"/api/play/{i}").status_code == 200 for i in ids[1:])


def test_idle_things_make_room_and_in_use_ones_do_not() -> None:
    now = [0.0]
    store: Owned[str] = Owned(2, 2, "game", busy=lambda item: item == "busy", now=lambda: now[0])
    a = store.add("busy", "alice")
    store.add("idle", "alice")
    with pytest.raises(Busy):
        store.add("x", "bob")
    now[0] = IDLE_SECONDS + 1
    store.add("x", "bob")  # alice's idle game made room, her busy one stays
    assert store.get(a, "alice") == "busy"
    with pytest.raises(Busy):
        store.room("carol")
    store.room("bob")  # bob's own oldest would make room
    with pytest.raises(Busy):
        store.add("y", "carol")
    assert MAX_SESSIONS >= MAX_GAMES_EACH


def test_things_nobody_came_back_for_make_room_after_a_minute() -> None:
    # a client without a cookie jar is a new owner with every request: its games, never asked
    # for again, must not keep a real browser out for an hour
    now = [0.0]
    store: Owned[str] = Owned(3, 2, "game", now=lambda: now[0])
    kept = store.add("kept", "alice")
    store.get(kept, "alice")  # alice came back with her cookie
    store.add("second", "bob")
    store.add("third", "bob")  # bob made another with his cookie: both his are claimed
    with pytest.raises(Busy):
        store.add("x", "carol")
    store2: Owned[str] = Owned(2, 2, "game", now=lambda: now[0])
    for i in range(2):
        store2.add(f"cookie-less {i}", f"nobody {i}")
    with pytest.raises(Busy):
        store2.add("browser's", "browser")
    now[0] = UNCLAIMED_SECONDS + 1
    mine = store2.add("browser's", "browser")  # an unclaimed one made room
    assert store2.get(mine, "browser") == "browser's"
    with pytest.raises(Busy):
        store.add("x", "carol")  # claimed things stay until IDLE_SECONDS
    assert store.get(kept, "alice") == "kept"


SEARCHES = (
    ({"game": "tictactoe", "opponent": "mcts:simulations=100000000", "seat": 1}, None),
    ({"game": "tictactoe", "opponent": "alphabeta:depth=50,nodes=0", "seat": 1}, None),
    (
        {
            "game": "dots_and_boxes:rows=4,cols=4",
            "opponent": "alphabeta:depth=50,nodes=0",
            "seat": 1,
        },
        None,
    ),
    ({"game": "tictactoe", "opponent": "mcts:simulations=0,seconds=inf", "seat": 1}, None),
    (
        {
            "game": "ultimate_tictactoe",
            "opponent": "mcts:simulations=100000000,solver=false",
            "seat": 1,
        },
        None,
    ),
    ({"game": "tron:map=empty_room", "opponent": "alphabeta:depth=0,nodes=0"}, "R"),
    (
        {
            "game": "openspiel:connect_four",
            "opponent": "openspiel_mcts:simulations=100000000",
            "seat": 1,
        },
        None,
    ),
    (
        # 100 rollouts of a 24x24 board took longer than the budget before the root had a child
        {
            "game": "openspiel:gomoku:size=24",
            "opponent": "openspiel_mcts:simulations=100000000,rollouts=100",
            "seat": 1,
        },
        None,
    ),
)


@pytest.mark.parametrize(("setup", "move"), SEARCHES, ids=[str(s["opponent"]) for s, _ in SEARCHES])
def test_every_bot_move_answers_within_the_budget(
    server: Server, setup: dict[str, Any], move: str | None
) -> None:
    if setup["game"].startswith("openspiel"):
        pytest.importorskip("pyspiel")
    me = {"Cookie": "purestate_browser=" + "t" * 24}
    status, view, _ = server.request("POST", "/api/play", setup, me)
    assert status == 200, view
    if move is not None:
        status, view, _ = server.request("POST", f"/api/play/{view['id']}/move", {"move": move}, me)
        assert status == 200, view
    assert view["moves"] and view["bot_moves"], view  # the bot has moved


def test_a_lab_step_answers_within_the_budget(server: Server) -> None:
    me = {"Cookie": "purestate_browser=" + "l" * 24}
    status, lab, _ = server.request(
        "POST", "/api/menace",
        {"opponent": "mcts:simulations=100000000,solver=false", "games": 5000}, me,
    )  # fmt: skip
    assert status == 200, lab
    status, update, _ = server.request("POST", f"/api/menace/{lab['id']}/step", {"games": 5000}, me)
    assert status == 200, update
    assert 1 <= update["games"] < 5000  # the step ended on its budget, with a game played


@pytest.mark.parametrize("opponent", ["perfect", "solver:tiebreak=first"])
def test_a_whole_game_solve_too_large_for_the_budget_is_refused(
    server: Server, opponent: str
) -> None:
    # solving 2x5 dots and boxes takes the better part of a minute and 0.9 GB, and never looks at
    # the clock: a page may not start it
    me = {"Cookie": "purestate_browser=" + "s" * 24}
    setup = {"game": "dots_and_boxes:rows=2,cols=5", "opponent": opponent, "seat": 1}
    status, answer, _ = server.request("POST", "/api/play", setup, me)
    assert status == 400, answer
    assert "in the browser needs the whole game solved" in answer["error"], answer
    # a play page may solve up to 3x3 (2^24 line sets, about 1 s, saying so while it solves)
    assert "limit 2^24" in answer["error"] and "\n" not in answer["error"]
    status, answer, _ = server.request("POST", "/api/menace", {**setup, "games": 1}, me)
    assert status == 400, answer
    assert "in the browser needs the whole game solved" in answer["error"], answer
    # a lab's steps answer within the move budget: its bound stays 2^22
    assert "limit 2^22" in answer["error"] and "\n" not in answer["error"]
    # within the bound the perfect player still plays (2x4 dots, tic-tac-toe)
    for game in ("dots_and_boxes:rows=2,cols=4", "tictactoe"):
        status, view, _ = server.request("POST", "/api/play", {**setup, "game": game}, me)
        assert status == 200, view
        assert view["bot_moves"], view


def test_uvicorn_is_quiet_about_requests_cut_by_the_server_stopping() -> None:
    import asyncio
    import logging

    from purestate.cli.serve import quiet_cancellation

    def record(exc: BaseException) -> logging.LogRecord:
        info = (type(exc), exc, None)
        return logging.LogRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI app", None, info
        )

    assert not quiet_cancellation(record(asyncio.CancelledError()))
    assert quiet_cancellation(record(ValueError("a real error")))


def test_web_specs_are_capped(runs: Path) -> None:
    client = browser(create_app(runs, move_seconds=0.5))
    view = client.post("/api/play", json={"opponent": "mcts:simulations=100000000"}).json()
    assert view["opponent"] == "mcts:simulations=1000000"
    view = client.post("/api/play", json={"opponent": "alphabeta:depth=5000,nodes=0"}).json()
    assert view["opponent"] == "alphabeta:depth=1000,nodes=0"
    if find_spec("jax") is not None and find_spec("optax") is not None:
        # a game keeps the last move's tree (reuse), whose arrays the simulations size
        asked = {"opponent": "alphazero:simulations=100000000", "seat": 1}
        view = client.post("/api/play", json=asked).json()
        assert view["opponent"] == "alphazero:simulations=1000000", view


def test_a_bot_that_breaks_takes_the_persons_move_back(runs: Path) -> None:
    from purestate.core.registry import make_spec
    from purestate.web.errors import WebError
    from purestate.web.play import Session

    class Breaking:
        spec = "breaking"

        def act(self, game: Any, table: Any, state: Any, key: Any) -> Any:
            raise ValueError("max() arg is an empty\nsequence")

    game = make_spec("tictactoe")
    session = Session(game, "tictactoe", Breaking(), None, 0, 1)
    with pytest.raises(WebError, match=r"could not move: max\(\) arg is an empty sequence$"):
        session.person_moves("1")
    assert session.moves == [] and session.states == [game.initial()]
    assert session.view("x")["your_turn"]


LONG = {
    "game": "ultimate_tictactoe",
    "opponent": "mcts:simulations=0,seconds=inf,solver=false",
    "seat": 1,
}
"""A search that runs until its budget ends (the servers below give it 100,000 s)."""


def test_a_search_stops_when_its_client_goes(runs: Path) -> None:
    srv = Server(runs, "--move-seconds", "100000")
    try:
        body = json.dumps(LONG).encode()
        with socket.create_connection(("127.0.0.1", srv.port)) as s:
            s.sendall(
                b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                b"\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            busy = srv.cpu()
            deadline = time.monotonic() + WAIT
            while srv.cpu() - busy < 1.0:  # the search is running
                assert time.monotonic() < deadline, "the search never started"
                time.sleep(0.2)
        # the client has gone: within a while the server's CPU time stands still for a second
        deadline = time.monotonic() + WAIT
        while True:
            before = srv.cpu()
            time.sleep(1.0)
            if srv.cpu() - before < 0.1:
                break
            assert time.monotonic() < deadline, "the search goes on after its client left"
        status, _, _ = srv.request("GET", "/api/games")
        assert status == 200
    finally:
        srv.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_the_server_ends_on_a_signal_while_searching(runs: Path, sig: int) -> None:
    srv = Server(runs, "--move-seconds", "100000")
    answers: list[int] = []

    def search() -> None:
        try:
            status, _, _ = srv.request("POST", "/api/play", LONG)
            answers.append(status)
        except (OSError, http.client.HTTPException):
            answers.append(0)  # the connection was cut

    asker = threading.Thread(target=search, daemon=True)
    asker.start()
    busy = srv.cpu()
    deadline = time.monotonic() + WAIT
    while srv.cpu() - busy < 1.0:
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.2)
    _, err = srv.stop(sig)
    asker.join(WAIT)
    assert "Traceback" not in err and "Error" not in err, err
    assert srv.proc.returncode == 0, err
    assert answers and answers[0] in (0, 503)


def test_the_server_ends_quietly_while_a_lab_trains_on_its_stream(runs: Path) -> None:
    srv = Server(runs)
    me = {"Cookie": "purestate_browser=" + "w" * 24}
    lab_setup = {"opponent": "mcts:simulations=2000", "games": 100000}
    _, lab, _ = srv.request("POST", "/api/menace", lab_setup, me)
    with socket.create_connection(("127.0.0.1", srv.port)) as stream:
        stream.sendall(
            f"GET /api/menace/{lab['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Cookie: {me['Cookie']}\r\n\r\n".encode()
        )
        srv.request("POST", f"/api/menace/{lab['id']}/control", {"running": True}, me)
        busy = srv.cpu()
        deadline = time.monotonic() + WAIT
        while srv.cpu() - busy < 1.0:  # the lab is training
            assert time.monotonic() < deadline, "the lab never trained"
            time.sleep(0.2)
        _, err = srv.stop()
    assert "Traceback" not in err and "Error" not in err, err
    assert srv.proc.returncode == 0, err


def test_budget_run_abandons_the_work_when_the_client_goes() -> None:
    import asyncio

    budget = Budget(1000.0)
    clock = budget.clock()
    calls = []

    def searching() -> None:
        while True:
            calls.append(clock())

    class Gone:
        async def is_disconnected(self) -> bool:
            return len(calls) > 10

    with pytest.raises(Stopped, match="has gone"):
        asyncio.run(budget.run(Gone(), searching))  # type: ignore[arg-type]
    budget.stopping.set()
    with pytest.raises(Stopped, match="stopping"):
        clock()


@pytest.mark.parametrize("name", [".", "./", "./."])
def test_a_lab_is_never_saved_into_the_runs_folder_itself(tmp_path: Path, name: str) -> None:
    client = browser(create_app(tmp_path, move_seconds=0.5))
    lab = client.post("/api/menace", json={"opponent": "random", "games": 5}).json()
    client.post(f"/api/menace/{lab['id']}/step", json={"games": 5})
    answer = client.post(f"/api/menace/{lab['id']}/save", json={"name": name})
    assert answer.status_code == 400, answer.text
    assert "name a new folder inside the runs folder" in answer.json()["error"]
    assert list(tmp_path.iterdir()) == []


def test_the_runs_listing_reads_no_huge_log_whole(tmp_path: Path) -> None:
    from purestate.web import runs as listing

    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "games.jsonl").write_bytes(b"x" * (3 << 20))  # no newline at all
    (tmp_path / "long").mkdir()
    (tmp_path / "long" / "games.jsonl").write_bytes(b"{}\n" * ((listing.COUNT_BYTES // 3) + 10))
    (tmp_path / "short").mkdir()
    (tmp_path / "short" / "games.jsonl").write_bytes(b"{}\n\n{}\n")
    client = browser(create_app(tmp_path))
    found = {r["name"]: r for r in client.get("/api/runs").json()["runs"]}
    assert (found["junk"]["games"], found["junk"]["counted"]) == (0, False)
    assert (found["long"]["games"], found["long"]["counted"]) == (listing.COUNT_BYTES // 3, False)
    assert (found["short"]["games"], found["short"]["counted"]) == (2, True)
    assert f"<td>{listing.COUNT_BYTES // 3}+</td>" in client.get("/runs").text


def test_no_run_is_read_through_a_symlink(runs: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    secret = '{"secret": "outside the runs folder"}'
    (elsewhere / "summary.json").write_text(secret)
    (elsewhere / "games.jsonl").write_text((runs / "sp" / "games.jsonl").read_text())
    (elsewhere / "table.json").write_text((runs / "sp" / "table.json").read_text())
    links = []
    for run, file in (("x", "summary.json"), ("y", "games.jsonl"), ("z", "table.json")):
        folder = runs / run
        folder.mkdir()
        (folder / "run.json").write_text('{"command": "selfplay"}')
        os.symlink(elsewhere / file, folder / file)
        links.append(folder)
    sub = runs / "w"
    sub.mkdir()
    (sub / "run.json").write_text("{}")
    os.symlink(elsewhere, sub / "inner")
    client = browser(create_app(runs))
    try:
        listed = {r["name"] for r in client.get("/api/runs").json()["runs"]}
        assert {"x", "y", "z", "w"}.isdisjoint(listed) and "sp" in listed
        for path in ("/api/runs/x", "/api/runs/y", "/api/runs/y/games/0", "/api/runs/z",
                     "/api/runs/w", "/runs/x", "/api/runs/x/table/0"):  # fmt: skip
            r = client.get(path)
            assert r.status_code == 400, path
            assert "holds a symlink" in r.json()["error"], path
            assert "secret" not in r.text
        for path in ("/api/runs/w/inner", "/api/runs/w/inner/games/0"):
            r = client.get(path)
            assert r.status_code == 400 and "is a symlink" in r.json()["error"], path
        r = client.post("/api/play", json={"opponent": "table:z/table.json"})
        assert r.status_code == 400 and "is a symlink" in r.json()["error"]
        lab = client.post("/api/menace", json={"games": 3}).json()["id"]
        client.post(f"/api/menace/{lab}/step", json={"games": 3})
        r = client.post(f"/api/menace/{lab}/save", json={"name": "w/inner/saved"})
        assert r.status_code == 400 and "is a symlink" in r.json()["error"]
        assert sorted(p.name for p in elsewhere.iterdir()) == [
            "games.jsonl", "summary.json", "table.json"]  # fmt: skip
    finally:
        for folder in (*links, sub):
            for p in folder.iterdir():
                p.unlink()
            folder.rmdir()

"""The Starlette app behind ``purestate serve``: pages, the JSON API and the static files.

Shell code: it reads the runs folder, keeps the games in play and the MENACE labs (whose training
streams to their pages as server-sent events), and writes a saved lab as a new run folder; the
rules, the moves, the bots, the learning and the pictures all come from the library. Every
refusal is a JSON ``{"error": message}`` with a 4xx status; nothing reaches the browser as a
traceback.

What the server trusts and refuses (docs/web.md, "Security model"): ``web.guard`` checks the Host,
the Origin and the JSON body of every request and names the browser by a cookie; games and labs
belong to that browser (``web.owners``); every bot move and lab step runs within the CPU budget of
``web.budget`` and is abandoned when its client goes away or the server stops; the runs folder is
read without ever following a symlink (``web.runs``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from purestate.core.memo import memo
from purestate.core.registry import agents, games, make, make_spec
from purestate.drawing import svg
from purestate.games.tron.shipped import shipped_names
from purestate.io.selfplay import TABLE_FILES
from purestate.web import pages
from purestate.web.budget import MOVE_SECONDS, Budget, Stopped
from purestate.web.errors import Conflict, NotFound, TooLarge, WebError
from purestate.web.guard import Guard, allowed_hosts, browser_of
from purestate.web.lab import MAX_BATCH, MAX_LAB_GAMES, MAX_SPEED, Lab, lab_store, new_lab
from purestate.web.owners import Owned
from purestate.web.play import MAX_GAMES_EACH, MAX_SESSIONS, Session, new_session, solving
from purestate.web.runs import game_view, inside, list_runs, run_view
from purestate.web.travel import can_travel, table_after

MAX_BODY = 16 * 1024
"""The largest request body accepted (a move or a game setup is a few hundred bytes)."""
STATIC = Path(__file__).parent / "static"
log = logging.getLogger("purestate.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                Awaitable[None]]  # fmt: skip


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BodyLimit:
    """ASGI middleware: refuse a request whose body is past ``MAX_BODY`` (declared or sent)."""

    def __init__(self, app: ASGI) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _error(413, f"the request body is over {MAX_BODY} bytes")(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _json(request: Request) -> dict[str, Any]:
    """The request's JSON object body, read up to ``MAX_BODY`` bytes.

    Raises:
        TooLarge: past the bound (a body sent without a length, in chunks).
        WebError: not a JSON object.
    """
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLarge(f"the request body is over {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise WebError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise WebError("the request body must be a JSON object")
    return data


def _int(data: dict[str, Any], name: str, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise WebError(f"{name} must be a whole number")
    return value


def _bounded(data: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = _int(data, name, default)
    if not low <= value <= high:
        raise WebError(f"{name} must be from {low} to {high}")
    return value


def _str(data: dict[str, Any], name: str, default: str = "") -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise WebError(f"{name} must be text")
    return value


@memo(size=None, why="one entry: the shipped maps never change while the server runs")
def map_pictures() -> tuple[tuple[str, str], ...]:
    """Every shipped Tron map and its start drawn by the library (the same for every request)."""
    out = []
    for name in shipped_names():
        game = make_spec(f"tron:map={name}")
        out.append((name, str(svg(game, game.initial()))))
    return tuple(out)


def table_files(root: Path) -> list[str]:
    """The table files of the runs folder's runs, as ``table:RUN/FILE`` opponent specs."""
    out = []
    for run in list_runs(root):
        for file in TABLE_FILES:
            if (inside(root, run["name"]) / file).is_file():
                out.append(f"table:{run['name']}/{file}")
    return out


KEEPALIVE = 5.0
"""Seconds between comments on an idle lab's event stream (so a closed page is noticed)."""


def _event(data: dict[str, Any]) -> str:
    return f"data: {json.dumps(data)}\n\n"


async def _lab_events(request: Request, lab: Lab, budget: Budget) -> AsyncIterator[str]:
    """The lab's training job as server-sent events: one update per step while it runs.

    The job lives in this stream: when the page closes (the client disconnects) or the browser
    starts another lab, the stream ends and the training stops with it. A step's games are played
    in a worker thread, so the server answers other requests (the page's controls) meanwhile.
    """
    try:
        yield ": the lab's updates\n\n"
        while (
            not lab.closed and not budget.stopping.is_set() and not await request.is_disconnected()
        ):
            if not (lab.running and not lab.done() and not lab.person):
                lab.wake.clear()
                try:
                    await asyncio.wait_for(lab.wake.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                continue
            n, speed = lab.step_size(), lab.speed
            started = time.perf_counter()
            try:
                update = await budget.run(None, lab.advance, n)
            except Stopped:
                return  # the server is stopping: the stream ends (its answer has begun)
            took = time.perf_counter() - started
            if speed == 0:
                lab.timed(n, took)
            if update is not None:
                yield _event(update)
            # paced: wait out the rest of the step; at top speed, let the other requests in
            await asyncio.sleep(max(0.0, n / speed - took) if speed else 0)
    finally:
        lab.streaming = False
        lab.running = False


def create_app(
    runs: Path,
    *,
    move_seconds: float = MOVE_SECONDS,
    host: str = "127.0.0.1",
    allow_hosts: Iterable[str] = (),
) -> Starlette:
    """The app serving the runs folder ``runs`` (which it reads, writes saved labs into as new
    run folders, and never leaves).

    ``app.state.stop()`` (safe to call from a signal handler) abandons every search and ends the
    labs' event streams, so that the server can stop at once.

    Args:
        runs: The runs folder (created by the caller if missing).
        move_seconds: The CPU seconds a bot may think about one move (and a lab step may take).
        host: The address the server listens on: a ``Host`` header naming it is answered.
        allow_hosts: More names the ``Host`` header may give (127.0.0.1, localhost and [::1]
            always may).
    """
    root = Path(runs).resolve()
    budget = Budget(move_seconds)
    sessions: Owned[Session] = Owned(MAX_SESSIONS, MAX_GAMES_EACH, "game")
    labs = lab_store()
    loops: list[asyncio.AbstractEventLoop] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loops.append(asyncio.get_running_loop())
        yield

    def stop() -> None:
        budget.stopping.set()
        for loop in loops:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(_wake_all)

    def _wake_all() -> None:
        for lab in labs.all():
            lab.wake.set()

    def owner(request: Request) -> str:
        return browser_of(request.scope)

    async def home(request: Request) -> Response:
        listed = await run_in_threadpool(list_runs, root)
        examples = {g: make(g).spec.examples for g in games()}
        return HTMLResponse(pages.home(examples, list(agents()), len(listed)))

    async def play_page(request: Request) -> Response:
        spec = request.path_params["spec"]
        opponents = list(agents()) + await run_in_threadpool(table_files, root)
        return HTMLResponse(pages.play(spec, opponents))

    async def runs_page(request: Request) -> Response:
        return HTMLResponse(pages.runs_list(await run_in_threadpool(list_runs, root)))

    def page_asked(request: Request) -> int:
        text = request.query_params.get("page", "0")
        if not text.isdigit() or len(text) > 9:
            raise WebError("page must be a whole number from 0")
        return int(text)

    async def run_page(request: Request) -> Response:
        view = await run_in_threadpool(
            run_view, root, request.path_params["run"], page_asked(request)
        )
        travel = await run_in_threadpool(can_travel, root, request.path_params["run"])
        return HTMLResponse(pages.run_page(view, travel))

    async def replay_page(request: Request) -> Response:
        run, index = request.path_params["run"], request.path_params["index"]
        await run_in_threadpool(game_view, root, run, index)  # a bad game is refused here
        return HTMLResponse(pages.replay_page(run, index))

    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": list(games()), "agents": list(agents())})

    async def api_play(request: Request) -> Response:
        data = await _json(request)
        game = _str(data, "game", "tictactoe")
        opponent = _str(data, "opponent")
        seat, seed = _int(data, "seat", 0), _int(data, "seed", 0)
        sessions.room(owner(request))  # a full server refuses before the bot thinks
        session = await budget.run(request, new_session, game, opponent, seat, seed, root, budget)
        return JSONResponse(session.view(sessions.add(session, owner(request))))

    async def api_session(request: Request) -> Response:
        sid = request.path_params["sid"]
        return JSONResponse(sessions.get(sid, owner(request)).view(sid))

    async def api_move(request: Request) -> Response:
        sid = request.path_params["sid"]
        session = sessions.get(sid, owner(request))
        move = _str(await _json(request), "move")

        def act(s: Session) -> dict[str, Any]:
            with s.lock:  # one move at a time per game: a double click is the second move
                s.person_moves(move)
                return s.view(sid)

        return JSONResponse(await budget.run(request, act, session))

    async def api_undo(request: Request) -> Response:
        sid = request.path_params["sid"]
        session = sessions.get(sid, owner(request))
        await _json(request)

        def undo(s: Session) -> dict[str, Any]:
            with s.lock:
                s.undo()
                return s.view(sid)

        return JSONResponse(await run_in_threadpool(undo, session))

    async def api_solving(request: Request) -> Response:
        game = request.query_params.get("game", "tictactoe")
        opponent = request.query_params.get("opponent", "")
        return JSONResponse({"note": await run_in_threadpool(solving, game, opponent)})

    async def api_runs(request: Request) -> Response:
        return JSONResponse({"runs": await run_in_threadpool(list_runs, root)})

    async def api_run(request: Request) -> Response:
        run, page = request.path_params["run"], page_asked(request)
        return JSONResponse(await run_in_threadpool(run_view, root, run, page))

    async def api_game(request: Request) -> Response:
        run, index = request.path_params["run"], request.path_params["index"]
        return JSONResponse(await run_in_threadpool(game_view, root, run, index))

    async def tron_page(request: Request) -> Response:
        listed = await run_in_threadpool(list_runs, root)
        # the Tron page is Tron's own (its shipped maps, its matches): it names its game
        tron = [r for r in listed if r["game"] == "tron" and r["games"]]
        maps = await run_in_threadpool(map_pictures)
        return HTMLResponse(pages.tron_page(tron, maps))

    async def lab_page(request: Request) -> Response:
        return HTMLResponse(pages.menace_lab(MAX_LAB_GAMES))

    async def api_lab(request: Request) -> Response:
        data = await _json(request)
        labs.room(owner(request))
        lab = await budget.run(request, new_lab, data, budget)
        # one lab, and so one training job, per browser session (the cookie web.guard sets)
        return JSONResponse(lab.view(labs.add(lab, owner(request))))

    def lab_of(request: Request) -> Lab:
        return labs.get(request.path_params["lid"], owner(request))

    async def api_lab_update(request: Request) -> Response:
        return JSONResponse(lab_of(request).update())

    async def api_lab_control(request: Request) -> Response:
        lab = lab_of(request)
        data = await _json(request)
        if "speed" in data:
            lab.speed = _bounded(data, "speed", 0, 0, MAX_SPEED)
        if "games" in data:
            lab.play_to(_bounded(data, "games", lab.target, max(1, lab.played), MAX_LAB_GAMES))
        if "running" in data:
            if not isinstance(data["running"], bool):
                raise WebError("running must be true or false")
            if data["running"] and lab.person:
                raise WebError("against a person, the games are played by clicking")
            lab.running = data["running"]
        lab.wake.set()
        return JSONResponse({"running": lab.running, "speed": lab.speed, "target": lab.target,
                             "games": lab.played})  # fmt: skip

    async def api_lab_step(request: Request) -> Response:
        lab = lab_of(request)
        n = _bounded(await _json(request), "games", 1, 1, MAX_BATCH)
        update = await budget.run(request, lab.advance, n)
        return JSONResponse(update if update is not None else lab.update())

    async def api_lab_move(request: Request) -> Response:
        lab = lab_of(request)
        move = _str(await _json(request), "move")
        return JSONResponse(await budget.run(request, lab.person_moves, move))

    async def api_lab_save(request: Request) -> Response:
        lab = lab_of(request)
        name = _str(await _json(request), "name").strip()
        return JSONResponse(await run_in_threadpool(lab.save, root, name))

    async def api_lab_events(request: Request) -> Response:
        lab = lab_of(request)
        if lab.streaming:
            raise Conflict("this lab's updates already go to another page")
        lab.streaming = True
        return StreamingResponse(
            _lab_events(request, lab, budget),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    async def api_table(request: Request) -> Response:
        run, k = request.path_params["run"], request.path_params["k"]
        boards = request.query_params.get("boards") == "1"
        return JSONResponse(await run_in_threadpool(table_after, root, run, k, boards))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return _error(exc.status, str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        words = {404: "no such page", 405: "method not allowed"}
        return _error(exc.status_code, words.get(exc.status_code, str(exc.detail)))

    async def crashed(request: Request, exc: Exception) -> Response:
        # a bug, not a bad request: logged in full on the server, one line for the browser
        log.exception("error serving %s", request.url.path)
        return _error(500, f"internal error ({type(exc).__name__}); see the server's log")

    routes = [
        Route("/", home),
        Route("/play/{spec:path}", play_page),
        Route("/runs", runs_page),
        Route("/menace", lab_page),
        Route("/tron", tron_page),
        Route("/api/menace", api_lab, methods=["POST"]),
        Route("/api/menace/{lid}", api_lab_update),
        Route("/api/menace/{lid}/events", api_lab_events),
        Route("/api/menace/{lid}/control", api_lab_control, methods=["POST"]),
        Route("/api/menace/{lid}/step", api_lab_step, methods=["POST"]),
        Route("/api/menace/{lid}/move", api_lab_move, methods=["POST"]),
        Route("/api/menace/{lid}/save", api_lab_save, methods=["POST"]),
        Route("/runs/{run:path}/games/{index:int}", replay_page),
        Route("/runs/{run:path}", run_page),
        Route("/api/games", api_games),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/play/{sid}", api_session),
        Route("/api/play/{sid}/move", api_move, methods=["POST"]),
        Route("/api/play/{sid}/undo", api_undo, methods=["POST"]),
        Route("/api/solving", api_solving),
        Route("/api/runs", api_runs),
        Route("/api/runs/{run:path}/games/{index:int}", api_game),
        Route("/api/runs/{run:path}/table/{k:int}", api_table),
        Route("/api/runs/{run:path}", api_run),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            WebError: refused,
            HTTPException: http_error,
            Exception: crashed,
        },
    )
    app.add_middleware(BodyLimit)
    # boards are SVG text: the MENACE lab's 304 boxes are 600 KB, about 40 KB compressed (server-
    # sent events are left alone by the middleware, so live updates still stream)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    # outermost: a request from elsewhere is refused before anything reads it
    app.add_middleware(Guard, hosts=allowed_hosts(host, allow_hosts))
    app.state.stop = stop
    return app


__all__ = ["MAX_BODY", "NotFound", "create_app", "table_files"]

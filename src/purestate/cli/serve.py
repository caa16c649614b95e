"""``purestate serve``: the browser app (docs/web.md) on a local uvicorn server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import sys
import threading
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from purestate.cli import app
from purestate.cli.common import UserError, err_console, friendly


@app.command("serve")
@friendly
def serve_command(
    host: Annotated[
        str,
        typer.Option(help="The address to listen on; the default is this machine only."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port (0: any free one).")] = 8000,
    runs: Annotated[
        Path,
        typer.Option(
            help="The runs folder the Runs pages show and saved labs go to; nothing outside it "
            "is read or written."
        ),
    ] = Path("runs"),
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the start page in the web browser.")
    ] = False,
    move_seconds: Annotated[
        float,
        typer.Option(
            help="The CPU seconds a bot may think about one move (and a MENACE lab step may "
            "take); a search past it plays its best move so far."
        ),
    ] = 3.0,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A name the Host header may give besides 127.0.0.1, localhost, [::1] and "
            "--host (the name other machines use with --host 0.0.0.0); repeatable."
        ),
    ] = None,
) -> None:
    """Serve the browser app: play, watch MENACE learn, browse and replay runs.

    Play any game against any agent, watch MENACE learn in the MENACE lab, browse runs, replay
    their games and travel through their learned tables. Boards, rules and bot moves come from
    the library; the pages draw and send clicks.
    Example: purestate serve --runs runs --open
    """
    import uvicorn  # the server is only needed here: the other commands start faster without it

    from purestate.web.app import create_app

    if not (math.isfinite(move_seconds) and move_seconds > 0):
        raise UserError(f"--move-seconds {move_seconds}: give a positive number of seconds")
    hosts = [h.strip() for h in allow_host or []]
    for h in hosts:
        if not h or any(c in h for c in "/@ \t"):
            raise UserError(f"--allow-host {h!r}: give a host name or address, without a port")
    if runs.exists() and not runs.is_dir():
        raise UserError(f"--runs {runs}: not a folder")
    try:
        runs.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--runs {runs}: cannot create it ({e.strerror or e})") from None
    # log_config=None: uvicorn's own config would run logging.config.dictConfig, which closes
    # every handler already installed in the process (another library's, a notebook's);
    # uvicorn's warnings still reach stderr through logging's last-resort handler
    web = create_app(runs, move_seconds=move_seconds, host=host, allow_hosts=hosts)
    # timeout_graceful_shutdown: a connection still busy a second after SIGTERM or Ctrl-C is cut
    config = uvicorn.Config(
        web, host=host, port=port, log_level="warning", log_config=None,
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    server = stopping_server(config, web.state.stop)
    logging.getLogger("uvicorn.error").addFilter(quiet_cancellation)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    if host not in ("127.0.0.1", "::1", "localhost"):
        err_console.print(
            f"[yellow]listening on {host}: other machines can reach the app (their requests "
            "must name an allowed host: --allow-host NAME)[/]"
        )

    def announce() -> None:
        # the port is known once uvicorn has bound it (--port 0 picks a free one)
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
        bound = sockets[0].getsockname()[1] if sockets else port
        url = f"http://{shown}:{bound}/"
        err_console.print(f"purestate serving {runs} at {url} (Ctrl-C stops it)")
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    server.run()
    if server.interrupted:
        err_console.print("purestate serve: stopped")
        # everything is closed and answered; what is left is memory (the games' search trees,
        # millions of objects after long searches), which the system frees at once, while the
        # interpreter would take seconds to free it object by object
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def quiet_cancellation(record: logging.LogRecord) -> bool:
    """Whether to print a log record of uvicorn's: not the traceback of a request cut by the
    server stopping (its handler cancelled past the graceful timeout), which is no error."""
    exc = record.exc_info[1] if record.exc_info else None
    return not isinstance(exc, asyncio.CancelledError)


def stopping_server(config: Any, stop: Callable[[], None]) -> Any:
    """uvicorn's server, which on SIGTERM or Ctrl-C first abandons every search of the app
    (``stop``), so that it stops at once instead of waiting for them, and then ends quietly."""
    import uvicorn

    class Server(uvicorn.Server):
        interrupted = False

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            self.interrupted = True
            stop()
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn raises the caught signal again once stopped, as if it had not been caught,
            # so Ctrl-C would end in a KeyboardInterrupt: the server has stopped cleanly instead
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    return Server(config)

"""``purestate serve``: the browser app (docs/web.md) on a local uvicorn server."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import Annotated

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
) -> None:
    """Serve the browser app: play, watch MENACE learn, browse and replay runs.

    Play any game against any agent, watch MENACE learn in the MENACE lab, browse runs, replay
    their games and travel through their learned tables. Boards, rules and bot moves come from
    the library; the pages draw and send clicks.
    Example: purestate serve --runs runs --open
    """
    import uvicorn  # the server is only needed here: the other commands start faster without it

    from purestate.web.app import create_app

    if runs.exists() and not runs.is_dir():
        raise UserError(f"--runs {runs}: not a folder")
    try:
        runs.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--runs {runs}: cannot create it ({e.strerror or e})") from None
    # log_config=None: uvicorn's own config would run logging.config.dictConfig, which closes
    # every handler already installed in the process (another library's, a notebook's);
    # uvicorn's warnings still reach stderr through logging's last-resort handler
    config = uvicorn.Config(
        create_app(runs), host=host, port=port, log_level="warning", log_config=None
    )
    server = uvicorn.Server(config)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    if host not in ("127.0.0.1", "::1", "localhost"):
        err_console.print(f"[yellow]listening on {host}: other machines can reach the app[/]")

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

"""Fixtures of the end-to-end tests: a real uvicorn server on a free port, in a thread, over a
runs folder the CLI writes, and Debian's chromium driven by Playwright.

Outside tox they skip cleanly when Playwright or /usr/bin/chromium is missing; ``tox -e
browser`` (and so CI) sets ``PURESTATE_BROWSER_TESTS=required``, under which a missing browser
fails the run instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

CHROMIUM = os.environ.get("PURESTATE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# the docs' pictures are refreshed on purpose (PURESTATE_SCREENSHOTS=docs/images tox -e browser);
# a plain run writes its screenshots to the temporary folder, leaving the checkout unchanged
IMAGES = Path(
    os.environ.get("PURESTATE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "purestate-screenshots"
)
REQUIRED = os.environ.get("PURESTATE_BROWSER_TESTS") == "required"


def _missing(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"browser tests required but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A runs folder with a tournament, short selfplay runs of MENACE and Q-learning, a Tron
    series and a sweep, written by the CLI."""
    from purestate.cli import app

    root = tmp_path_factory.mktemp("runs")
    runner = CliRunner()
    for args in (
        ["tournament", "--game", "tictactoe", "--agents", "random", "perfect", "--games", "4",
         "--seed", "1", "--jobs", "1", "--out", str(root / "tournament")],
        ["selfplay", "--games", "200", "--no-plot", "--out", str(root / "menace")],
        ["tron", "run", "--bots", "greedy", "wall", "--map", "small_room", "--games", "2",
         "--no-image", "--out", str(root / "tron")],
        ["selfplay", "--agent", "qlearning", "--opponent", "random", "--games", "300",
         "--no-plot", "--out", str(root / "qlearning")],
        ["sweep", "--grid", "menace:preset=michie,scroggs", "--seeds", "0-2", "--games", "40",
         "--block", "10", "--jobs", "1", "--out", str(root / "sweep")],
    ):  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    return root


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(runs: Path) -> Iterator[str]:
    """The app on 127.0.0.1 and a free port, served by uvicorn in a thread; its base URL."""
    import uvicorn

    from purestate.web.app import create_app

    config = uvicorn.Config(create_app(runs), host="127.0.0.1", port=_free_port(),
                            log_level="warning")  # fmt: skip
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{config.port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium from Debian, launched by Playwright (no browser download, ever)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[browser]')")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        _missing(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page, 1100×800."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    pg = context.new_page()
    yield pg
    context.close()


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot of the page as web_NAME.png in ``IMAGES`` (docs/images when refreshing
    the pictures the docs show); only
    the window's view of it unless ``full_page`` (a lab's 304 boxes are a very long page)."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / f"web_{name}.png"), full_page=full_page)

"""Run pages in the browser: the first and the warm load of a page of each kind of run.

Run: ``python benchmarks/bench_run_pages.py`` (``--quick`` for smaller runs). Needs Playwright for
Python and Debian's chromium (``/usr/bin/chromium``), as the browser tests do.

The runs are written by the CLI into a temporary folder: a MENACE selfplay run and a Q-learning
run of 20,000 tic-tac-toe games each, a Q-learning run of 2,000 games of 3x3 dots and boxes, a
tournament, a sweep of two settings by eight seeds and a Tron series. Page load is the time from
navigation until the page shows its data (the time-travel table of a training run, the standings,
the settings, the results). The first load is on a server that has read nothing yet; the warm
load is the median of 3 loads after it (the server remembers what it read and computed while the
run's files are unchanged).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bench_web import ARGS, CHROMIUM, serve
from purestate.cli import app


def runs(root: Path, quick: bool) -> dict[str, tuple[list[str], str]]:
    """Write the runs; each page's path with its command and the selector that shows its data."""
    big = "2000" if quick else "20000"
    travel = "#travel-status[data-k]"
    # fmt: off
    made = {
        "menace": (["selfplay", "--games", big, "--no-plot"], travel),
        "qlearning": (["selfplay", "--agent", "qlearning", "--opponent", "random", "--games", big,
                       "--no-plot"], travel),
        "dots_q": (["selfplay", "--game", "dots_and_boxes:rows=3,cols=3", "--agent", "qlearning",
                    "--opponent", "random", "--games", "500" if quick else "2000", "--no-plot"],
                   travel),
        "tournament": (["tournament", "--game", "tictactoe", "--agents", "random", "perfect",
                        "rules", "--games", "20", "--jobs", "1"], "table.standings"),
        "sweep": (["sweep", "--grid", "menace:preset=michie,scroggs", "--seeds", "0-7", "--games",
                   "100" if quick else "500", "--jobs", "1"], "table.settings"),
        "tron": (["tron", "run", "--bots", "greedy", "wall", "--map", "small_room", "--games",
                  "100", "--no-image"], "table.results"),
    }
    # fmt: on
    runner = CliRunner()
    for name, (args, _) in made.items():
        cmd = args[:2] if args[0] == "tron" else args[:1]
        result = runner.invoke(app, [*cmd, *args[len(cmd) :], "--out", str(root / name)])
        assert result.exit_code == 0, result.output
    return made


def load(page: Any, url: str, ready: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(ready, timeout=120_000)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    quick = "--quick" in sys.argv
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        made = runs(root, quick)
        base, server = serve(root)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1100, "height": 800})
            print(f"{'page':24} {'first':>9} {'warm':>9}")
            for name, (_, ready) in made.items():
                first = load(page, f"{base}/runs/{name}", ready)
                warm = statistics.median(load(page, f"{base}/runs/{name}", ready) for _ in range(3))
                print(f"/runs/{name:18} {first:7.0f} ms {warm:6.0f} ms")
            browser.close()
        server.should_exit = True


if __name__ == "__main__":
    main()

"""The browser app: page load times, and the MENACE lab's top speed with the page responsive.

Run: ``python benchmarks/bench_web.py`` (add ``--quick`` for shorter runs). Needs Playwright for
Python and Debian's chromium (``/usr/bin/chromium``), as the browser tests do.

* Page load: the time from navigation until the page shows its data (the board, the boxes, the
  time-travel table, the replay), median over 5 loads, in a real chromium.
* MENACE lab at top speed (tic-tac-toe, Michie's MENACE against ``rules:p=0.7``): games per
  second seen by the page (its counter, over a stretch of wall time), while the page stays
  responsive: the round-trip time of a control request from the page (``fetch`` of the control
  route) and of a click on Pause until the button says so, median and maximum of 20, and the
  longest gap between animation frames in the page while the updates stream in.
"""

from __future__ import annotations

import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from purestate.cli import app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def serve(root: Path) -> tuple[str, Any]:
    import uvicorn

    from purestate.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(root), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def load_times(page: Any, base: str, reps: int) -> dict[str, float]:
    """Milliseconds from navigation to the page's data shown, median of ``reps`` loads."""
    pages = {
        "/": "ul.games li",
        "/play/tictactoe": "#board svg [data-move]",
        "/menace": "body[data-lab] [data-box] text.bead",
        "/runs/sp": "#travel-status[data-k]",
        "/runs/sp/games/0": "#board svg",
        "/tron": "figure.map svg",
    }
    out = {}
    for path, ready in pages.items():
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            page.goto(base + path)
            page.wait_for_selector(ready, timeout=60_000)
            times.append((time.perf_counter() - start) * 1000)
        out[path] = statistics.median(times)
    return out


ROUND_TRIP = """async (id) => {
  const t = performance.now();
  await fetch(`/api/menace/${id}/control`, {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify({speed: 0})});
  return performance.now() - t;
}"""

PAUSE_CLICK = """async () => {
  const button = document.getElementById("run");
  const before = button.textContent;
  const t = performance.now();
  const changed = new Promise((done) => new MutationObserver((_, obs) => {
    if (button.textContent !== before) { obs.disconnect(); done(); }
  }).observe(button, {childList: true, characterData: true, subtree: true}));
  button.click();
  await changed;
  return performance.now() - t;
}"""

FRAME_GAPS = """(ms) => new Promise((done) => {
  let last = performance.now(), worst = 0;
  const end = last + ms;
  function frame(now) {
    worst = Math.max(worst, now - last);
    last = now;
    if (now < end) requestAnimationFrame(frame); else done(worst);
  }
  requestAnimationFrame(frame);
})"""


def lab(page: Any, base: str, seconds: float) -> dict[str, float]:
    """The lab at top speed: games per second, and the page's responsiveness meanwhile."""
    page.goto(f"{base}/menace")
    page.wait_for_selector("body[data-lab]")
    first = page.get_attribute("body", "data-lab")
    page.fill("#setup [name=games]", "100000")
    page.click("#new-lab")
    page.wait_for_function(f"() => document.body.dataset.lab !== '{first}'")
    lab_id = page.get_attribute("body", "data-lab")
    page.select_option("#speed", "0")
    page.click("#run")
    page.wait_for_function("() => Number(document.querySelector('#games').textContent) > 0")
    time.sleep(1.0)  # past the ramp-up of the step size
    g0, t0 = int(page.inner_text("#games")), time.perf_counter()
    trips = [page.evaluate(ROUND_TRIP, lab_id) for _ in range(20)]
    worst_frame = page.evaluate(FRAME_GAPS, 2000)
    time.sleep(max(0.0, seconds - (time.perf_counter() - t0)))
    g1, t1 = int(page.inner_text("#games")), time.perf_counter()
    clicks = []
    for _ in range(10):  # pause and train again: 20 clicks, each until the button changes
        clicks.append(page.evaluate(PAUSE_CLICK))
        clicks.append(page.evaluate(PAUSE_CLICK))
    page.evaluate(PAUSE_CLICK)  # leave it paused
    return {
        "games_per_second": (g1 - g0) / (t1 - t0),
        "round_trip_median_ms": statistics.median(trips),
        "round_trip_max_ms": max(trips),
        "click_median_ms": statistics.median(clicks),
        "click_max_ms": max(clicks),
        "longest_frame_gap_ms": worst_frame,
    }


def main() -> None:
    quick = "--quick" in sys.argv
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result = CliRunner().invoke(
            app, ["selfplay", "--games", "2000", "--no-plot", "--out", str(root / "sp")]
        )
        assert result.exit_code == 0, result.output
        base, server = serve(root)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1100, "height": 800})
            for path, ms in load_times(page, base, 2 if quick else 5).items():
                print(f"load {path:22} {ms:8.0f} ms")
            for name, value in lab(page, base, 4 if quick else 10).items():
                print(f"lab {name:24} {value:10.1f}")
            browser.close()
        server.should_exit = True


if __name__ == "__main__":
    main()

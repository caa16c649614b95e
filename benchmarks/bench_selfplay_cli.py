"""MENACE self-play through the CLI: games per CPU second of ``purestate selfplay``.

Run: ``PYTHONPATH=src python benchmarks/bench_selfplay_cli.py [--games N] [--reps N]
[--against OTHER_CHECKOUT]``

Each rep runs ``python -m purestate selfplay --games N --out DIR`` (MENACE against
``rules:p=0.7`` on tic-tac-toe, seed 0) as a child process and reads its CPU time (user + system,
``getrusage``), so the figure is the command a user types: start-up, the games, the games log,
checkpoint, summary (with the exact solver's optimal-move rates) and the learning curve.
``--against`` names another checkout (its ``src`` goes first on the child's ``PYTHONPATH``): the
two trees take turns rep by rep under the same load, and the ratio of their medians is printed
with the figures; the run folders of both are compared byte for byte, and the learning curves
pixel for pixel.

``--bytecode-cache`` lets the children keep the compiled bytecode of both trees in a temporary
folder (``PYTHONPYCACHEPREFIX``, one untimed run of each tree first), as an installed package
has it; without it, a shell that sets ``PYTHONDONTWRITEBYTECODE`` makes every run compile the
sources it imports again.

A second figure times the training alone in a child of each tree (``Selfplay.stretches``: the
games and the learning, without start-up, the log, the summary or the picture).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
COMPARED = ("run.json", "games.jsonl", "table.json", "summary.json", "checkpoint.json")
PICTURE = "learning_curve.png"
BYTECODE: dict[str, str] = {}
"""The children's bytecode settings (``--bytecode-cache``), added to their environment."""


def child_env(tree: Path) -> dict[str, str]:
    """The environment of a child running ``tree``'s sources."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "MPLBACKEND": "Agg", **BYTECODE}
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def same_pixels(a: Path, b: Path) -> bool:
    """Whether two PNG files hold the same pixels (their bytes may differ)."""
    from PIL import Image, ImageChops

    with Image.open(a) as x, Image.open(b) as y:
        if x.size != y.size:
            return False
        return ImageChops.difference(x.convert("RGBA"), y.convert("RGBA")).getbbox() is None


def cli_seconds(tree: Path, games: int, out: Path) -> float:
    """CPU seconds of one ``purestate selfplay`` run with ``tree``'s sources, writing ``out``."""
    env = child_env(tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "purestate", "selfplay", "--games", str(games), "--out", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


TRAINING = """
import sys, time
from purestate.experiments.selfplay import Selfplay
run = Selfplay()
game = run.make_game()
games = int(sys.argv[1])
t0 = time.process_time()
for _stretch in run.stretches(game, run.initial_tables(game), 0, games):
    pass
print(games / (time.process_time() - t0))
"""
"""The training alone, timed inside a child (``Selfplay.stretches``: games and learning)."""


def training_rate(tree: Path, games: int) -> float:
    """Games per CPU second of ``Selfplay.stretches`` alone with ``tree``'s sources."""
    env = child_env(tree)
    out = subprocess.run([sys.executable, "-c", TRAINING, str(games)], env=env, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout to alternate with")
    parser.add_argument(
        "--bytecode-cache", action="store_true", help="keep compiled bytecode between runs"
    )
    args = parser.parse_args()
    trees = {"this tree": HERE}
    if args.against is not None:
        trees["other tree"] = args.against.resolve()
    load_before = os.getloadavg()[0]
    seconds: dict[str, list[float]] = {name: [] for name in trees}
    alone: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        if args.bytecode_cache:
            BYTECODE["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "bytecode")
            for name in trees:  # untimed: compiles and caches each tree's modules
                cli_seconds(trees[name], 100, Path(tmp) / f"warm-{name.replace(' ', '-')}")
        for rep in range(args.reps):
            # the trees take turns, the first alternating, so neither always runs after the other
            order = list(trees) if rep % 2 == 0 else list(reversed(trees))
            for name in order:
                out = Path(tmp) / f"{rep}-{name.replace(' ', '-')}"
                seconds[name].append(cli_seconds(trees[name], args.games, out))
                alone[name].append(training_rate(trees[name], args.games))
        if args.against is not None:
            a, b = (Path(tmp) / f"0-{n.replace(' ', '-')}" for n in trees)
            same = [f for f in COMPARED if (a / f).read_bytes() == (b / f).read_bytes()]
            pixels = same_pixels(a / PICTURE, b / PICTURE)
            print(f"run folders byte for byte: {len(same)} of {len(COMPARED)} files equal; "
                  f"learning curves pixel for pixel: {pixels}")  # fmt: skip
    cache = "cached" if args.bytecode_cache else "compiled by each run"
    load_after = os.getloadavg()[0]
    print(f"purestate selfplay --games {args.games:,}: games per CPU second (bytecode {cache}; "
          f"load average {load_before:.1f} at the start, {load_after:.1f} at the end)")  # fmt: skip
    for name in trees:
        rates = sorted(args.games / t for t in seconds[name])
        print(
            f"  {name:<10} the command: median {statistics.median(rates):8,.0f} "
            f"(range {rates[0]:,.0f} - {rates[-1]:,.0f});  the training alone: median "
            f"{statistics.median(alone[name]):8,.0f} ({args.reps} runs each)"
        )
    if args.against is not None:
        mine, other = (statistics.median(seconds[n]) for n in trees)
        train_mine, train_other = (statistics.median(alone[n]) for n in trees)
        print(f"  ratio this/other: the command {other / mine:.2f}x, "
              f"the training alone {train_mine / train_other:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()

"""Sweeps: the same training run over many seeds and settings, as values.

A sweep is a list of ``Selfplay`` runs (every agent setting of a grid × every seed). Each run is
played in *chunks* of games: ``play_chunk`` is a pure function from (run, first game, tables) to
the chunk's outcomes, game logs and the tables after it, so an executor can ship it to any
process or machine, and the shell can write a checkpoint after each chunk. Because game ``i`` of a
run always uses ``fold_in(key(seed), i)``, a run played in one chunk or in twenty, on one worker or
on a cluster, gives the same games and the same table.

``aggregate`` turns the per-run summaries into mean W/D/L rates per block with 95% bands across
seeds (Student t), per setting.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from purestate.core.spec import SpecError, parse_spec
from purestate.experiments.selfplay import GameLog, Selfplay

MAX_SEEDS = 100_000
"""The most seeds one sweep takes (checked before the list is made)."""


def parse_seeds(text: str) -> tuple[int, ...]:
    """Seeds from ``"0-31"``, ``"1,5,9"`` or ``"0-3,10"`` (ranges inclusive).

    Raises:
        SpecError: on anything else, or an empty or repeated set.
    """
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(-?\d+)(?:-(-?\d+))?", part)
        if not m:
            raise SpecError(f"seeds {text!r}: {part!r} is not a number or a range like 0-31")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise SpecError(f"seeds {text!r}: the range {part} runs backwards")
        if len(seeds) + hi - lo + 1 > MAX_SEEDS:
            raise SpecError(f"seeds {text!r}: more than {MAX_SEEDS:,} seeds")
        seeds.extend(range(lo, hi + 1))
    if len(set(seeds)) != len(seeds):
        raise SpecError(f"seeds {text!r}: a seed is repeated")
    return tuple(seeds)


def expand_grid(grid: str) -> tuple[str, ...]:
    """Every spec of a grid: ``"menace:preset=michie,scroggs"`` -> the two specs.

    An option may list several values separated by commas; a bare item without ``=`` is another
    value of the option before it. The result is the cartesian product, in the order written.
    """
    name, _, rest = grid.strip().partition(":")
    if not name:
        raise SpecError(f"grid {grid!r}: no agent name")
    options: list[tuple[str, list[str]]] = []
    for item in filter(None, (x.strip() for x in rest.split(","))):
        if "=" in item:
            k, _, v = item.partition("=")
            options.append((k.strip(), [v.strip()]))
        elif options:
            options[-1][1].append(item)
        else:
            raise SpecError(f"grid {grid!r}: {item!r} is not key=value")
    specs = []
    for values in itertools.product(*(vals for _, vals in options)):
        body = ",".join(f"{k}={v}" for (k, _), v in zip(options, values, strict=True))
        specs.append(name + (":" + body if body else ""))
    for s in specs:
        parse_spec(s)
    return tuple(specs)


def run_name(run: Selfplay) -> str:
    """A folder name for a run: its agent setting and seed, safe on every file system."""
    slug = re.sub(r"[^A-Za-z0-9.=_-]+", "_", run.agent.replace(":", "__"))
    return f"{slug}/seed-{run.seed}"


@frozen
class Chunk:
    """What a chunk of a run asks for: play games ``start`` .. ``start + games - 1``."""

    run: Selfplay
    start: int
    games: int
    tables: Any  # tuple[Any, Any] | None (None: fresh tables)


@frozen
class ChunkResult:
    """What a chunk played.

    Attributes:
        run: The run.
        start: The first game's number.
        outcomes: The learner's outcome per game (+1 / 0 / -1).
        resigned: How many games the learner resigned.
        logs: What games.jsonl keeps of each game.
        tables: Both seats' tables after the last game.
        refused: True if the learner refused to play (MENACE's empty first box): the run is over.
    """

    run: Selfplay
    start: int
    outcomes: tuple[int, ...]
    resigned: int
    logs: tuple[GameLog, ...]
    tables: tuple[Any, Any]
    refused: bool


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play one chunk of a run (pure: the same chunk gives the same result anywhere)."""
    run = chunk.run
    game = run.make_game()
    tables = chunk.tables if chunk.tables is not None else run.initial_tables(game)
    played = run.play(game, tables, chunk.start, chunk.games)
    seat = run.seat
    return ChunkResult(
        run,
        chunk.start,
        tuple(ep.outcome(seat) for ep in played.episodes),
        sum(ep.resigned == seat for ep in played.episodes),
        tuple(GameLog.of(chunk.start + i, ep) for i, ep in enumerate(played.episodes)),
        played.tables,
        played.refused,
    )


# two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def mean_band(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence band (Student t across runs): (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, mean, mean)
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.96
    half = t * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def aggregate(summaries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean W/D/L rate per block with 95% bands, one entry per agent setting.

    Args:
        summaries: Per-run summaries as written by ``selfplay`` (``agent``, ``seed``, ``block``,
            ``blocks``, totals).

    Returns:
        One dict per setting: ``agent``, ``seeds``, ``block``, ``games`` (of the longest run),
        ``blocks`` (per block: ``games``
        and, for each of wins/draws/losses, ``mean``, ``low``, ``high`` of the rate), and totals.
    """
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for s in summaries:
        by_agent.setdefault(s["agent"], []).append(s)
    out = []
    for agent, runs in by_agent.items():
        runs = sorted(runs, key=lambda r: r["seed"])
        nblocks = max(len(r["blocks"]) for r in runs)
        block = runs[0]["block"]
        rows = []
        for b in range(nblocks):
            row: dict[str, Any] = {"first_game": b * block + 1}
            present = [r["blocks"][b] for r in runs if b < len(r["blocks"])]
            row["runs"] = len(present)
            for name in ("wins", "draws", "losses"):
                rates = [p[name] / max(1, p["wins"] + p["draws"] + p["losses"]) for p in present]
                mean, low, high = mean_band(rates)
                row[name] = {"mean": mean, "low": low, "high": high}
            rows.append(row)
        totals = {}
        for name in ("wins", "draws", "losses"):
            rates = [r[name] / max(1, r["games"]) for r in runs]
            mean, low, high = mean_band(rates)
            totals[name] = {"mean": mean, "low": low, "high": high}
        out.append(
            {
                "agent": agent,
                "opponent": runs[0]["opponent"],
                "seeds": [r["seed"] for r in runs],
                "block": block,
                "games": max(r["games"] for r in runs),
                "blocks": rows,
                "total": totals,
                "refused_runs": sum(1 for r in runs if r.get("refused")),
            }
        )
    return out

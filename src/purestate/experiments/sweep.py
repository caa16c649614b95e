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

from purestate.core import registry
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


MAX_SETTINGS = 10_000
"""The most agent settings one sweep takes (counted before the grid is expanded)."""

MAX_RUNS = 100_000
"""The most runs (settings × seeds) one sweep takes (counted before any run is made)."""


def _axes(grid: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """A grid's agent name and its options, each with the values it takes, in the order written.

    An option may list several values separated by commas; a bare item without ``=`` is another
    value of the option before it.
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
    return name, options


def _setting(name: str, options: list[tuple[str, list[str]]], values: Sequence[str]) -> str:
    body = ",".join(f"{k}={v}" for (k, _), v in zip(options, values, strict=True))
    return name + (":" + body if body else "")


def grid_size(grid: str) -> int:
    """How many settings a grid holds (the product of its options' value counts), without
    expanding it."""
    return math.prod(len(values) for _, values in _axes(grid)[1])


def expand_grid(grid: str) -> tuple[str, ...]:
    """Every spec of a grid: ``"menace:preset=michie,scroggs"`` -> the two specs.

    The result is the cartesian product of the options' values, in the order written.

    Raises:
        SpecError: on a grid that is not ``NAME[:key=v1,v2,...]``, or one of more than
            ``MAX_SETTINGS`` settings (counted before anything is expanded).
    """
    name, options = _axes(grid)
    size = math.prod(len(values) for _, values in options)
    if size > MAX_SETTINGS:
        raise SpecError(f"grid {grid!r}: {size:,} settings; a sweep takes at most {MAX_SETTINGS:,}")
    specs = [
        _setting(name, options, values)
        for values in itertools.product(*(vals for _, vals in options))
    ]
    for s in specs:
        parse_spec(s)
    return tuple(specs)


def grid_settings(grids: Sequence[str], seeds: int = 1) -> tuple[str, ...]:
    """The agent settings of a sweep's grids, each checked, sizes first.

    Before anything is expanded, the settings are counted (at most ``MAX_SETTINGS``, and at most
    ``MAX_RUNS`` runs with ``seeds`` seeds each) and each grid's first setting is built, which
    checks its agent and the name of every option it varies. Then every setting is built, and two
    settings that make the same agent (written twice, or spelled differently) are refused: each
    would count its seeds again under one name and narrow the band.

    Raises:
        SpecError: one line naming the grid or the settings at fault.
    """
    size = sum(map(grid_size, grids))
    if size > MAX_SETTINGS:
        raise SpecError(f"the grids hold {size:,} settings; a sweep takes at most {MAX_SETTINGS:,}")
    if size * seeds > MAX_RUNS:
        raise SpecError(
            f"{size:,} settings × {seeds:,} seeds make {size * seeds:,} runs; "
            f"a sweep takes at most {MAX_RUNS:,}"
        )
    for g in grids:
        name, options = _axes(g)
        registry.agent(_setting(name, options, [vals[0] for _, vals in options]))
    settings = [s for g in grids for s in expand_grid(g)]
    seen: dict[str, str] = {}
    for s in settings:
        same = registry.agent(s).spec
        if same in seen:
            if seen[same] == s:
                raise SpecError(f"the grid setting {s!r} is given twice; give each setting once")
            raise SpecError(
                f"the grid settings {seen[same]!r} and {s!r} are the same agent ({same}); "
                "give each setting once"
            )
        seen[same] = s
    return tuple(settings)


def _same(value: Any, want: Any) -> bool:
    return type(value) is type(want) and value == want  # True is not 1, 1.0 is not 1


def _counts(part: Any) -> bool:
    return isinstance(part, dict) and all(
        type(part.get(n)) is int and part[n] >= 0 for n in ("wins", "draws", "losses")
    )


def summary_problem(summary: Any, run: Selfplay, games: int, block: int) -> str | None:
    """What makes a saved run summary unfit for the sweep's aggregate, or None if nothing does.

    A summary read back from a folder is data: it must be the summary ``summarize`` writes for
    ``run`` (its agent, seed and block; W/D/L counts that add up, overall and per block; ``games``
    games, or fewer when it records the learner's refusal at its last game) before ``aggregate``
    reads it. Its agent may be spelled either way: as the agent writes its spec (``summarize``
    today) or as the sweep was typed (summaries written before, which a resumed sweep keeps).
    """
    if not isinstance(summary, dict):
        return "not a JSON object"
    if registry.agent_spec(summary.get("agent")) != run.specs()[0]:
        return f"its agent is {summary.get('agent')!r}, not {run.specs()[0]!r}"
    for field, want in (("seed", run.seed), ("block", block)):
        if not _same(summary.get(field), want):
            return f"its {field} is {summary.get(field)!r}, not {want!r}"
    if not isinstance(summary.get("opponent"), str):
        return "it names no opponent"
    played = summary.get("games")
    if type(played) is not int or not 0 <= played <= games:
        return f"its games are {played!r}, not a count up to {games}"
    # a run ends early only when its learner refuses to play: then at the refused game
    if played != games and not (
        summary.get("refused") == 1 and summary.get("first_refusal") == played
    ):
        return f"its games are {played}, not {games}, and it records no refusal at game {played}"
    blocks = summary.get("blocks")
    if not isinstance(blocks, list) or not all(map(_counts, [summary, *blocks])):
        return "its wins, draws and losses are not counts, overall and per block"
    if len(blocks) != -(-played // block):
        return f"{len(blocks)} blocks for {played} games of {block}"
    if summary["wins"] + summary["draws"] + summary["losses"] != played:
        return f"its wins, draws and losses do not add up to its {played} games"
    if any(sum(b[n] for b in blocks) != summary[n] for n in ("wins", "draws", "losses")):
        return "its blocks do not add up to its wins, draws and losses"
    return None


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

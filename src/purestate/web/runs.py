"""The runs folder as the web app reads it: listing runs, their summaries and recorded games.

Everything is read through ``inside``, which refuses a name that leads out of the runs folder
(``..``, an absolute path) or passes through a symlink, wherever it points; and a run folder is
read only when nothing in it is a symlink (``run_folder``): a run folder from someone else is
data, and a symlink in it could show the page any file of this machine. The checks look at the
links themselves (``lstat``), never through them. Nothing here writes.
"""

from __future__ import annotations

import json
import os
import re
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from purestate.core.history import upgrade
from purestate.core.hooks import seat_name
from purestate.core.learning import Tally, blocks, cumulative_incentive, tally, wilson
from purestate.core.record import Record, RecordError, replay_record
from purestate.core.registry import agent_spec, make_spec, spec_then
from purestate.core.spec import SpecError, parse_spec
from purestate.drawing import svg
from purestate.experiments.selfplay import Selfplay
from purestate.experiments.sweep import run_name
from purestate.io.files import FileFormatError, read_json
from purestate.io.records import GAMES_FILE, log_lines, read_records
from purestate.io.selfplay import REFERENCES_FILE
from purestate.web.errors import NotFound, WebError

MAX_NAME = 400
"""The longest run or file name (relative to the runs folder) a request may give."""
MAX_DEPTH = 4
"""How deep under the runs folder runs are looked for (a sweep keeps its runs in
``runs/SETTING/seed-N``)."""
MAX_RUNS = 500
"""The most runs listed: a huge folder still answers quickly."""
SUMMARY_FILES = ("run.json", "summary.json", "standings.json", "sweep.json", "aggregate.json")
"""The JSON files a run folder may hold that describe it, in the order they are shown."""
MARKERS = (GAMES_FILE, *SUMMARY_FILES)
COUNT_BYTES = 16 << 20
"""The most of a games log the runs listing reads to count its games (16 MiB, tens of
thousands of games): the listing answers every visit to the home page, even a cross-site image's,
so it stays cheap whatever a log holds; past this its count is a lower bound (``counted`` false)."""
CURVE_BLOCKS = 100
"""The most blocks (points) of a run's learning curve: the block is the smallest of
``BLOCK_SIZES`` that leaves at most this many, so 20,000 games are 100 points of 200 games."""
BLOCK_SIZES = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)
PAGE_GAMES = 100
"""Games listed on one page of a run's games."""
MAX_KEPT = {"count": 2048, "kind": 2048, "records": 4, "run": 8, "table": 16}
"""How many run folders' readings of each sort the server keeps in memory (the most recently
used): a count or a kind is a few bytes, and a big sweep lists hundreds of runs; a run's records
and its page's facts (13 MB and 9 MB for a 20,000-game tic-tac-toe run) only for the last few
runs asked, the time-travel answers (up to about 600 KB each) for the last 16 questions."""
MAX_GROUPS = 200
"""The most rows of a run's results by game and players (the rest are counted, not shown)."""


def inside(root: Path, name: str) -> Path:
    """The file or folder ``name`` (a relative path with ``/``) inside ``root``, which need not
    exist yet (a lab is saved to a new folder).

    Raises:
        WebError: if the name is empty, too long, absolute, climbs with ``..``, or passes through
            a symlink (a link in any part of the name, wherever it points).
    """
    if not name or len(name) > MAX_NAME or "\x00" in name or "\\" in name:
        raise WebError(f"{name[:80]!r} is not a name inside the runs folder")
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts:
        raise WebError(f"{name[:80]!r}: only names inside the runs folder are allowed")
    target = root.resolve()
    for part in rel.parts:
        target = target / part
        if _is_link(target):
            raise WebError(f"{name[:80]!r}: {part!r} is a symlink, which the app never follows")
    return target


def _is_link(path: Path) -> bool:
    """Whether ``path`` is a symlink (False when it does not exist), without following it."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def symlink_in(folder: Path) -> str | None:
    """The name of a symlink directly inside ``folder`` (None when it holds none)."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    return entry.name
    except OSError:
        return None
    return None


SEATS = ("first", "second")


def training_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a training run: ``run.json`` of ``purestate selfplay``, or the
    ``summary.json`` of a sweep's run (game, agent, opponent, seat and seed); None for another
    run (a tournament, a Tron series)."""
    for file in ("run.json", "summary.json"):
        path = folder / file
        if not path.is_file():
            continue
        try:
            data = read_json(path)
        except FileFormatError:
            continue
        if not isinstance(data, dict) or data.get("command", "selfplay") != "selfplay":
            continue
        # an old manifest's specs mean what they meant when it was written
        found: dict[str, Any] = upgrade(data, "run", spec_then) if file == "run.json" else data
        if (
            all(isinstance(found.get(f), str) for f in ("game", "agent", "opponent"))
            and found.get("seat") in SEATS
            and isinstance(found.get("seed"), int)
        ):
            return found
    return None


def _kind(folder: Path) -> str:
    """What wrote a run folder: the manifest's command, or what its files show (a sweep's run,
    whose summary names its learner, is a selfplay run)."""
    return kept("kind", folder, stamp(folder, MARKERS), lambda: _kind_now(folder))


def _kind_now(folder: Path) -> str:
    manifest = folder / "run.json"
    if manifest.is_file():
        try:
            data = read_json(manifest)
        except FileFormatError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("command"), str):
            return str(data["command"])
    if (folder / "sweep.json").is_file():
        return "sweep"
    if (folder / "standings.json").is_file():
        return "tournament"
    if training_manifest(folder) is not None:
        return "selfplay"
    if (folder / GAMES_FILE).is_file():
        return "games"
    return "run"


def _game(folder: Path) -> str:
    """The name of the game a run's games log starts with (``""`` without one): what the
    records hold, so a page can pick the runs of one game."""
    games = folder / GAMES_FILE
    if not games.is_file():
        return ""
    with games.open(encoding="utf-8", errors="replace") as f:
        first = f.readline(4096)
    try:
        game = json.loads(first).get("game", "")
    except (ValueError, AttributeError):
        return ""
    return str(game).partition(":")[0]


def natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key reading the numbers in a name as numbers: ``seed-2`` before ``seed-10``."""
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"(\d+)", name) if t)


def list_runs(root: Path, under: str = "") -> list[dict[str, Any]]:
    """The run folders under ``root`` (up to ``MAX_DEPTH`` deep), sorted by name (its numbers
    read as numbers: ``seed-2`` before ``seed-10``).

    A run folder holds a games log or one of ``SUMMARY_FILES``. Symlinked folders are not
    entered, and a run holding a symlink is left out (its page says why). With ``under`` (a
    run's name), only the runs inside that run (a sweep's) are listed.
    """
    base = root.resolve()
    start = inside(root, under) if under else base
    found: list[dict[str, Any]] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            children = sorted(
                (p for p in folder.iterdir() if p.is_dir() and not _is_link(p)),
                key=lambda p: natural(p.name),
            )
        except OSError:
            return
        for child in children:
            if len(found) >= MAX_RUNS or child.name.startswith("."):
                continue
            if symlink_in(child) is not None:
                continue
            if any((child / m).is_file() for m in MARKERS):
                name = child.relative_to(base).as_posix()
                games, counted = _count(child)
                found.append(
                    {"name": name, "kind": _kind(child), "game": _game(child), "games": games,
                     "counted": counted}
                )  # fmt: skip
            if depth < MAX_DEPTH:
                walk(child, depth + 1)

    walk(start, len(start.relative_to(base).parts) + 1)
    return found


T = TypeVar("T")


def stamp(folder: Path, names: Sequence[str] | None = None) -> tuple[tuple[str, int, int], ...]:
    """What tells a run folder's files changed: each file's name, size and modification time
    (of ``names``, or of every file directly inside it), read with ``lstat``, never through a
    link."""
    out = []
    try:
        listed = names if names is not None else sorted(os.listdir(folder))
    except OSError:
        return ()
    for name in listed:
        try:
            st = os.lstat(folder / name)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out.append((name, st.st_size, st.st_mtime_ns))
    return tuple(out)


class _Kept:
    """What the server computed from run folders, the most recently used of each sort (as many
    as ``MAX_KEPT`` says), each under the stamp of the files it was computed from: a changed
    file (a run still writing its games) is read again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sorts: dict[str, OrderedDict[Any, tuple[Any, Any]]] = {}

    def get(self, what: str, of: Any, when: Any, compute: Callable[[], T]) -> T:
        with self.lock:
            entries = self.sorts.setdefault(what, OrderedDict())
            hit = entries.get(of)
            if hit is not None and hit[0] == when:
                entries.move_to_end(of)
                value: T = hit[1]
                return value
        value = compute()  # outside the lock: another run's page need not wait for this one
        with self.lock:
            entries[of] = (when, value)
            entries.move_to_end(of)
            while len(entries) > MAX_KEPT.get(what, 16):
                entries.popitem(last=False)
        return value


_kept = _Kept()


def kept(what: str, of: Any, when: Any, compute: Callable[[], T]) -> T:
    """``compute()``, remembered as ``what`` of ``of`` (a run folder, or a folder and a question
    about it) while ``when`` (the ``stamp`` of the files it reads) is unchanged."""
    return _kept.get(what, of, when, compute)


def _count(folder: Path) -> tuple[int, bool]:
    """The number of non-empty lines of a run's games log (0 without one), and whether that is
    all of them: counting stops after ``COUNT_BYTES`` and at a line too long to be a record.
    Remembered while the log's size and time are unchanged (a sweep lists dozens of runs)."""
    games = folder / GAMES_FILE
    if not games.is_file():
        return 0, True
    return kept("count", folder, stamp(folder, (GAMES_FILE,)), lambda: _count_lines(games))


def _count_lines(games: Path) -> tuple[int, bool]:
    n = read = 0
    try:
        with games.open("rb") as f:
            for line in log_lines(f, games):
                read += len(line)
                if read > COUNT_BYTES:
                    return n, False
                n += bool(line.strip())
    except (OSError, FileFormatError):
        return n, False
    return n, True


def run_folder(root: Path, name: str) -> Path:
    """The run folder ``name`` names, checked to be one.

    Raises:
        NotFound: if it is not a run folder.
        WebError: if the name leads out of the runs folder or through a symlink, or the folder
            holds a symlink (none of its files is read then).
    """
    folder = inside(root, name)
    if not folder.is_dir():
        raise NotFound(f"no run {name!r} in the runs folder")
    link = symlink_in(folder)
    if link is not None:
        raise WebError(f"run {name!r} holds a symlink ({link}): the app reads no run that does")
    if not any((folder / m).is_file() for m in MARKERS):
        raise NotFound(f"no run {name!r} in the runs folder")
    return folder


def records_of(folder: Path) -> Sequence[Record]:
    """The recorded games of a run (none when it has no games log), read once while the log is
    unchanged (the caller must not change them).

    Raises:
        WebError: if the games log is malformed (the library's one-line message).
    """
    if not (folder / GAMES_FILE).is_file():
        return ()
    return kept("records", folder, stamp(folder, (GAMES_FILE,)), lambda: _read(folder))


def _read(folder: Path) -> tuple[Record, ...]:
    try:
        return tuple(read_records(folder))
    except FileFormatError as e:
        raise WebError(str(e).replace(str(folder), "<run>")) from None


def outcome(record: Record) -> int:
    """The game's result from the recorded seat's side, as +1 / 0 / -1."""
    return {"win": 1, "draw": 0, "loss": -1}[record.result]


def curve_block(games: int) -> int:
    """Games per point of a learning curve of ``games`` games: at most ``CURVE_BLOCKS`` points."""
    return next((b for b in BLOCK_SIZES if -(-games // b) <= CURVE_BLOCKS), BLOCK_SIZES[-1])


def rates(t: Tally) -> dict[str, Any]:
    """A tally with each rate and its Wilson 95% interval: ``wins``, ``draws``, ``losses``,
    ``games`` and, per result, ``{"rate", "low", "high"}`` under ``win_rate`` etc."""
    out: dict[str, Any] = {**t.as_dict(), "games": t.games}
    for name, rate in (("wins", "win_rate"), ("draws", "draw_rate"), ("losses", "loss_rate")):
        hits = getattr(t, name)
        low, high = wilson(hits, t.games)
        out[rate] = {"rate": hits / t.games if t.games else 0.0, "low": low,
                                    "high": high}  # fmt: skip
    return out


def _summaries(folder: Path) -> dict[str, Any]:
    summaries: dict[str, Any] = {}
    for file in SUMMARY_FILES:
        if (folder / file).is_file():
            try:
                summaries[file] = read_json(folder / file)
            except FileFormatError as e:
                summaries[file] = {"error": str(e).replace(str(folder), "<run>")}
    return summaries


def _facts(folder: Path) -> dict[str, Any]:
    """Everything a run's page shows that takes reading its files: computed once per change of
    the folder's files (``kept``), so that a warm page only slices it."""
    summaries = _summaries(folder)
    records = records_of(folder)
    kind = _kind(folder)
    names: dict[str, tuple[str, str]] = {}
    facts: dict[str, Any] = {
        "kind": kind,
        "summaries": summaries,
        "rows": [
            {
                "index": n,
                "game": r.game,
                "players": list(r.players),
                "seat": r.seat,
                "seat_name": _seat_names(r.game, names)[r.seat],
                "result": r.result,
                "plies": len(r.moves),
            }
            for n, r in enumerate(records)
        ],
    }
    manifest = training_manifest(folder)
    if manifest is not None:
        outcomes = [outcome(r) for r in records]
        block = curve_block(len(outcomes))
        facts["learner"] = {f: manifest[f] for f in ("game", "agent", "opponent", "seat", "seed")}
        facts["curve"] = list(cumulative_incentive(outcomes))
        facts["block"] = block
        facts["blocks"] = [rates(t) for t in blocks(outcomes, block)] if outcomes else []
        facts["optimal"] = optimal_moves(summaries.get("summary.json"), len(outcomes))
        facts["references"] = reference_points(folder)
    elif kind == "tournament":
        facts["standings"] = standings(summaries.get("standings.json"))
    elif records:
        facts["results"] = results(records)
    return facts


def reference_points(folder: Path) -> list[dict[str, Any]] | None:
    """The learner's points against fixed references (``references.json``, which ``selfplay
    --reference-games`` writes): per point the games trained and per reference its spec, games,
    wins, draws, losses, score and the score's Wilson interval; None when the run has none or the
    file does not hold them in that form (a run folder may come from anyone)."""
    path = folder / REFERENCES_FILE
    if not path.is_file():
        return None
    try:
        data = read_json(path, follow=False)
    except FileFormatError:
        return None
    points = data.get("points") if isinstance(data, dict) else None
    if not isinstance(points, list) or not points:
        return None
    numbers = ("score", "low", "high")
    counts = ("games", "wins", "draws", "losses")
    specs = None
    for p in points:
        if not isinstance(p, dict) or type(p.get("games")) is not int:
            return None
        rows = p.get("references")
        if not isinstance(rows, list) or not rows:
            return None
        for r in rows:
            if not isinstance(r, dict) or not isinstance(r.get("reference"), str):
                return None
            if not all(type(r.get(c)) is int for c in counts):
                return None
            if not all(type(r.get(n)) in (int, float) and 0 <= r[n] <= 1 for n in numbers):
                return None
        names = [r["reference"] for r in rows]
        if specs is not None and names != specs:
            return None
        specs = names
    return points


def optimal_moves(summary: Any, games: int) -> dict[str, Any] | None:
    """The share of the learner's moves the exact solver rates optimal, per block, with its
    Wilson 95% interval, from a summary whose blocks count them (``optimal_moves`` of
    ``learner_moves``; ``selfplay`` counts them in a game it can solve); consecutive blocks are
    merged so that at most ``CURVE_BLOCKS`` remain. None without such counts."""
    if not isinstance(summary, dict) or not isinstance(summary.get("blocks"), list):
        return None
    rows, block = summary["blocks"], summary.get("block")
    counts = [
        (r["optimal_moves"], r["learner_moves"])
        for r in rows
        if isinstance(r, dict)
        and isinstance(r.get("optimal_moves"), int)
        and isinstance(r.get("learner_moves"), int)
        and 0 <= r["optimal_moves"] <= r["learner_moves"]
    ]
    if not rows or len(counts) != len(rows) or not isinstance(block, int) or block < 1:
        return None
    k = -(-len(counts) // CURVE_BLOCKS)
    points = []
    for i in range(0, len(counts), k):
        hits = sum(c[0] for c in counts[i : i + k])
        moves = sum(c[1] for c in counts[i : i + k])
        low, high = wilson(hits, moves)
        rate = hits / moves if moves else 0.0
        points.append({"to": min((i + k) * block, games), "optimal": hits, "moves": moves,
                       "rate": rate, "low": low, "high": high})  # fmt: skip
    return {"block": block * k, "points": points}


def standings(data: Any) -> dict[str, Any] | None:
    """A tournament's standings (``standings.json``) as rows for tables: ``ratings`` (agent, Elo
    with its interval or the note that replaces it, W/D/L, score) and the pair ``matrix`` (row
    agent's score against the column agent, with W/D/L); None when the file is not standings."""
    if not isinstance(data, dict):
        return None
    ratings, pairs = data.get("ratings"), data.get("pairs")
    if not isinstance(ratings, list) or not isinstance(pairs, list):
        return None
    order = [str(r.get("agent")) for r in ratings if isinstance(r, dict)]
    cells: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in order}
    for p in pairs:
        if not isinstance(p, dict) or p.get("agent") not in cells or p.get("opponent") not in cells:
            continue
        try:
            w, d, lo = int(p["wins"]), int(p["draws"]), int(p["losses"])
            score, low, high = (float(p[f]) for f in ("score", "score_low", "score_high"))
        except (KeyError, TypeError, ValueError):
            continue
        a, b = str(p["agent"]), str(p["opponent"])
        cells[a][b] = {"wins": w, "draws": d, "losses": lo, "score": score, "low": low,
                       "high": high}  # fmt: skip
        # the same games from the other side
        cells[b][a] = {"wins": lo, "draws": d, "losses": w, "score": 1 - score, "low": 1 - high,
                       "high": 1 - low}  # fmt: skip
    return {
        "game": data.get("game"),
        "seed": data.get("seed"),
        "games_per_pair": data.get("games_per_pair"),
        "ratings": [r for r in ratings if isinstance(r, dict)],
        "agents": order,
        "matrix": [[cells[a].get(b) for b in order] for a in order],
    }


def _group_spec(records: Sequence[Record]) -> dict[str, str]:
    """Each record's game spec without the options that differ in every game they appear in
    (a start drawn per game, such as Tron's mirrored start seed): what to group results by."""
    parsed: list[tuple[str, dict[str, str]]] = []
    for r in records:
        try:
            parsed.append(parse_spec(r.game))
        except SpecError:
            parsed.append((r.game, {}))
    seen: dict[str, list[str]] = {}
    for _, options in parsed:
        for k, v in options.items():
            seen.setdefault(k, []).append(v)
    drawn = {k for k, vs in seen.items() if len(vs) > 1 and len(set(vs)) == len(vs)}
    out = {}
    for r, (name, options) in zip(records, parsed, strict=True):
        kept_options = [f"{k}={v}" for k, v in options.items() if k not in drawn]
        out[r.game] = name + (":" + ",".join(kept_options) if kept_options else "")
    return out


def results(records: Sequence[Record]) -> dict[str, Any]:
    """Results of a run of bot matches (no learner) by game (map, start, first player: the game
    spec, less the options drawn afresh for every game) and players in seat order: the first
    player's wins, draws and losses with the Wilson 95% interval of its score; and ``totals``,
    each pair of players over all its rows (both seat orders) when that sums several."""
    specs = _group_spec(records)
    groups: dict[tuple[str, str, str], list[int]] = {}
    for r in records:
        a, b = r.returns[0], r.returns[1]
        key = (specs[r.game], r.players[0], r.players[1])
        groups.setdefault(key, []).append((a > b) - (a < b))
    rows = [
        _result(spec, first, second, outs)
        for (spec, first, second), outs in sorted(
            groups.items(), key=lambda g: natural(" ".join(g[0]))
        )
    ]
    # each pair of players over all its rows (every game spec, both seat orders), from the side
    # of the player named first in the log, when that sums more than one row
    both: dict[tuple[str, str], list[int]] = {}
    for (_, first, second), outs in groups.items():
        if (second, first) in both and first != second:
            both[second, first].extend(-o for o in outs)
        else:
            both.setdefault((first, second), []).extend(outs)
    totals = []
    if len(rows) > len(both):
        totals = [_result("all games", a, b, outs) for (a, b), outs in both.items()]
    return {"rows": rows[:MAX_GROUPS], "more": max(0, len(rows) - MAX_GROUPS), "totals": totals}


def _result(game: str, first: str, second: str, outs: list[int]) -> dict[str, Any]:
    t = tally(outs)
    low, high = wilson(t.wins + 0.5 * t.draws, t.games)
    return {"game": game, "players": [first, second], **rates(t), "score": t.score,
            "score_low": low, "score_high": high}  # fmt: skip


def run_view(root: Path, name: str, page: int = 0) -> dict[str, Any]:
    """A run as its page shows it: the summary files, one page of ``PAGE_GAMES`` games (players,
    result, length), the runs inside it (a sweep's), and what its kind shows: a training run's
    learning curve (``curve``: the library's ``cumulative_incentive``, Scroggs' 3W + D - L over
    the games in order; ``blocks``: the library's ``blocks`` of ``block`` games with each rate's
    Wilson interval), a tournament's ``standings``, a sweep's ``settings``, a run of bot
    matches' ``results`` by game and players.

    Raises:
        NotFound: no such run, or no such page of its games.
    """
    folder = run_folder(root, name)
    facts = kept("run", folder, stamp(folder), lambda: _facts(folder))
    rows = facts["rows"]
    pages = max(1, -(-len(rows) // PAGE_GAMES))
    if not 0 <= page < pages:
        raise NotFound(f"run {name!r} has pages 0..{pages - 1} of games, not {page}")
    view = {k: v for k, v in facts.items() if k != "rows"}
    view.update(
        name=name,
        games=rows[page * PAGE_GAMES : (page + 1) * PAGE_GAMES],
        total=len(rows),
        page=page,
        pages=pages,
        per_page=PAGE_GAMES,
        runs=list_runs(root, name),
    )
    if facts["kind"] == "sweep":
        view["settings"] = sweep_settings(name, facts["summaries"], view["runs"])
    return view


def sweep_settings(name: str, summaries: dict[str, Any], runs: list[dict[str, Any]]) -> list[Any]:
    """A sweep's settings, one per agent setting of ``aggregate.json`` (its mean W/D/L per block
    with the 95% band across seeds, and its totals), each with its seeds' runs (in natural order:
    ``seed-2`` before ``seed-10``); runs of no listed setting come last, as ``other``."""
    aggregate = summaries.get("aggregate.json")
    sweep = summaries.get("sweep.json")
    out: list[dict[str, Any]] = []
    claimed: set[str] = set()
    if isinstance(aggregate, list):
        for a in aggregate:
            if not isinstance(a, dict) or not isinstance(a.get("agent"), str):
                continue
            prefix = f"{name}/runs/{_slug(a['agent'], sweep)}/"
            seeds = [r for r in runs if r["name"].startswith(prefix)]
            claimed.update(r["name"] for r in seeds)
            out.append({"agent": a["agent"], "aggregate": a, "runs": seeds})
    rest = [r for r in runs if r["name"] not in claimed]
    if rest:
        out.append({"agent": "other", "aggregate": None, "runs": rest})
    return out


def _slug(agent: str, sweep: Any) -> str:
    """The folder of an agent setting's runs inside a sweep (the sweep's own ``run_name``).

    The folder is named after the setting as the grid was typed (``sweep.json``), the aggregate
    after the agent's canonical spec (``rules`` for ``rules:p=0.7``; an aggregate written before
    that names the typed setting itself).
    """
    sweep = sweep if isinstance(sweep, dict) else {}
    grid = sweep.get("grid")
    settings = [s for s in grid if isinstance(s, str)] if isinstance(grid, list) else []
    setting = agent if agent in settings else {agent_spec(s): s for s in settings}.get(agent, agent)
    return run_name(Selfplay(str(sweep.get("game", "")), setting, "", 0, 0)).partition("/")[0]


def game_view(root: Path, name: str, index: int) -> dict[str, Any]:
    """A recorded game replayed by the library: the board after every ply, as SVG.

    Raises:
        NotFound: if the run has no game ``index``.
        WebError: if the record does not replay (the library's message).
    """
    records = records_of(run_folder(root, name))
    if not 0 <= index < len(records):
        raise NotFound(f"run {name!r} has games 0..{len(records) - 1}, not {index}")
    record = records[index]
    try:
        episode = replay_record(record)
    except RecordError as e:
        raise WebError(f"game {index}: {e}") from None
    game = make_spec(record.game)
    title = f"{record.players[0]} vs {record.players[1]}"
    frames = [
        str(svg(game, s, title, episode.moves[i - 1] if i else None, episode.states[:i]))
        for i, s in enumerate(episode.states)
    ]
    plies = [
        {"seat": p, "move": game.format_move(m)}
        for p, m in zip(episode.movers, episode.moves, strict=True)
    ]
    return {
        "run": name,
        "index": index,
        "game": record.game,
        "players": list(record.players),
        "result": record.result,
        "seat": record.seat,
        "returns": list(episode.returns),
        "resigned": episode.resigned,
        "plies": plies,
        "frames": frames,
        "ending": _ending(record),
    }


def _seat_names(spec: str, known: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """How the game ``spec`` names its seats (``"first (X)"``), remembered in ``known`` for the
    rest of a page; plain first and second for a game no spec here can build."""
    if spec not in known:
        try:
            game = make_spec(spec)
        except (SpecError, ValueError):
            known[spec] = ("first", "second")
        else:
            known[spec] = (seat_name(game, 0), seat_name(game, 1))
    return known[spec]


def _ending(record: Record) -> str:
    """The recorded result in words: who won, or a draw."""
    a, b = record.returns
    if a == b:
        return "draw"
    winner = 0 if a > b else 1
    return f"{record.players[winner]} won as {_seat_names(record.game, {})[winner]}"

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
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from purestate.core.learning import blocks, cumulative_incentive
from purestate.core.record import Record, RecordError, replay_record
from purestate.core.registry import make_spec
from purestate.drawing import svg
from purestate.io.files import FileFormatError, read_json
from purestate.io.records import GAMES_FILE, log_lines, read_records
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
CURVE_BLOCK = 10
"""Games per bar of the W/D/L chart on a run's page (the library's ``blocks``)."""


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


def _kind(folder: Path) -> str:
    """What wrote a run folder: the manifest's command, or what its files show."""
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


def list_runs(root: Path, under: str = "") -> list[dict[str, Any]]:
    """The run folders under ``root`` (up to ``MAX_DEPTH`` deep), sorted by name.

    A run folder holds a games log or one of ``SUMMARY_FILES``. Symlinked folders are not
    entered, and a run holding a symlink is left out (its page says why). With ``under`` (a
    run's name), only the runs inside that run (a sweep's) are listed.
    """
    base = root.resolve()
    start = inside(root, under) if under else base
    found: list[dict[str, Any]] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir() and not _is_link(p))
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


def _count(folder: Path) -> tuple[int, bool]:
    """The number of non-empty lines of a run's games log (0 without one), and whether that is
    all of them: counting stops after ``COUNT_BYTES`` and at a line too long to be a record."""
    games = folder / GAMES_FILE
    if not games.is_file():
        return 0, True
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


def records_of(folder: Path) -> list[Record]:
    """The recorded games of a run ([] when it has no games log).

    Raises:
        WebError: if the games log is malformed (the library's one-line message).
    """
    if not (folder / GAMES_FILE).is_file():
        return []
    try:
        return read_records(folder)
    except FileFormatError as e:
        raise WebError(str(e).replace(str(folder), "<run>")) from None


def outcome(record: Record) -> int:
    """The game's result from the recorded seat's side, as +1 / 0 / -1."""
    return {"win": 1, "draw": 0, "loss": -1}[record.result]


def run_view(root: Path, name: str) -> dict[str, Any]:
    """A run's summary files, its games (players, result, length), its learning curve and the
    runs inside it (a sweep's).

    The curve is the library's: ``cumulative_incentive`` (Scroggs' 3W + D - L) over the games in
    order, and ``blocks`` of ``CURVE_BLOCK`` games as W/D/L counts.
    """
    folder = run_folder(root, name)
    summaries = {}
    for file in SUMMARY_FILES:
        if (folder / file).is_file():
            try:
                summaries[file] = read_json(folder / file)
            except FileFormatError as e:
                summaries[file] = {"error": str(e).replace(str(folder), "<run>")}
    records = records_of(folder)
    outcomes = [outcome(r) for r in records]
    return {
        "name": name,
        "kind": _kind(folder),
        "summaries": summaries,
        "games": [
            {
                "index": n,
                "game": r.game,
                "players": list(r.players),
                "seat": r.seat,
                "result": r.result,
                "plies": len(r.moves),
            }
            for n, r in enumerate(records)
        ],
        "runs": list_runs(root, name),
        "curve": list(cumulative_incentive(outcomes)),
        "blocks": [t.as_dict() for t in blocks(outcomes, CURVE_BLOCK)] if outcomes else [],
        "block": CURVE_BLOCK,
    }


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


def _ending(record: Record) -> str:
    """The recorded result in words: who won, or a draw."""
    a, b = record.returns
    if a == b:
        return "draw"
    winner = 0 if a > b else 1
    return f"{record.players[winner]} (seat {winner}) won"

"""A selfplay run folder's files (shell side): the manifest, the checkpoint's tables, the summary.

``purestate selfplay`` (and each run of a sweep) and the browser app's MENACE lab write run
folders through these functions, so a folder either of them wrote is one
``purestate selfplay --resume`` continues and ``purestate evaluate --table`` reads.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from purestate.core.history import RUN_FORMAT, RUN_FORMATS, version_of
from purestate.core.learning import cumulative_incentive
from purestate.core.record import Record, RecordError, replay_record
from purestate.core.registry import make_spec
from purestate.core.spec import SpecError, format_spec
from purestate.experiments.selfplay import SELF, Selfplay, summarize
from purestate.io import plots
from purestate.io.array_tables import SUFFIX
from purestate.io.files import json_text, open_own_file, read_json, write_json
from purestate.io.records import GAMES_FILE
from purestate.io.runs import RunFolderError, commit, log_digest
from purestate.io.solutions import load_or_solve
from purestate.io.tables import check_table_size, table_bytes, table_suffix
from purestate.solve import require_solvable
from purestate.solve.analysis import optimal_move_rates
from purestate.solve.bounds import TooLarge

TABLE_STEMS = ("table", "opponent_table")
"""The names of a run's table files before their ending: the learner's, and a learning
opponent's own table."""

TABLE_FILES = tuple(f"{stem}{end}" for stem in TABLE_STEMS for end in (".json", SUFFIX))
"""Every name a run's table file may have: a JSON table's, or an array table's
(``io.tables.table_suffix``)."""

REFERENCES_FILE = "references.json"
"""The learner's points against fixed references (``selfplay --reference-games``), committed with
each checkpoint."""

REFERENCES_PICTURE = "references.png"

KERNELS_FILE = "kernels.jsonl"
"""Which kernels played a run (``note_kernels``): the one file of a run folder that describes
the machine rather than the results."""

RUN_FILES = (
    "run.json",
    "checkpoint.json",
    *TABLE_FILES,
    "games.jsonl",
    "summary.json",
    "learning_curve.png",
    REFERENCES_FILE,
    REFERENCES_PICTURE,
    KERNELS_FILE,
)
"""What a selfplay run folder holds (``--force`` removes exactly these)."""

SEATS = ("first", "second")


def table_files(run: Selfplay) -> tuple[str, ...]:
    """The table files of a run: the learner's (``table.json``, or ``table.npz`` for an array
    table), and a learning opponent's own table (``opponent_table.json`` or ``.npz``)."""
    learner, opp = run.agents()
    mine = f"{TABLE_STEMS[0]}{table_suffix(learner)}"
    if run.learning()[1 - run.seat] and not run.shared:
        return (mine, f"{TABLE_STEMS[1]}{table_suffix(opp)}")
    return (mine,)


def note_kernels(folder: Path, first_game: int, games: int, kernels: Iterable[str]) -> str:
    """Append to the run's ``kernels.jsonl`` which kernels played its games ``first_game`` to
    ``games`` (one command's part of the run): ``"numba X.Y.Z"`` if any process of it ran a
    compiled kernel (``core.compiled.used``), else ``"python"``. Results never depend on it (the
    differential properties), so the file is the one a run on another machine may differ in,
    and a resumed run has a line for each part. Returns what was noted.
    """
    found = sorted({k for k in kernels if k != "python"})
    noted = found[0] if found else "python"
    line = json.dumps({"games": [first_game, games], "kernels": noted}) + "\n"
    with open_own_file(folder / KERNELS_FILE, "ab") as f:
        f.write(line.encode())
    return noted


def check_run_format(path: Path, saved: dict[str, Any]) -> None:
    """Refuse a manifest of a format this version does not know (a newer one's, or a forgery):
    its fields might mean something else, so they are not guessed at.

    Raises:
        RunFolderError: one line naming the file and the formats it may have.
    """
    if version_of(saved, "run") is None:
        raise RunFolderError(
            f"{path}: format {saved.get('format')!r} is not a selfplay run's "
            f"({' or '.join(RUN_FORMATS)}); a newer purestate may have written it"
        )


def manifest(run: Selfplay, game: Any) -> dict[str, Any]:
    """The run's ``run.json`` without its game count: what a resumed run must match. Its format,
    ``RUN_FORMAT`` (``core.history``: what an older one meant, and how it is read today)."""
    learner, opponent = run.specs()
    return {"format": RUN_FORMAT, "command": "selfplay",
            "game": format_spec(game.spec.name, game),
            "agent": learner, "opponent": opponent,
            "seat": SEATS[run.seat], "seed": run.seed,
            # the specs as the user wrote them: a run resumed without them given again is
            # rebuilt from the same text
            "as_typed": {"game": run.game, "agent": run.agent,
                         "opponent": run.opponent}}  # fmt: skip


def save_checkpoint(
    folder: Path, run: Selfplay, game: Any, tables: tuple[Any, Any], games: int,
    refused_at: int | None, references: Sequence[dict[str, Any]] | None = None,
) -> None:  # fmt: skip
    """Commit both seats' tables and the game count as one checkpoint (see ``io.runs.commit``),
    with the points against the references so far when the run takes them.

    The checkpoint also holds the digest of the first ``games`` lines of games.jsonl (which must
    be logged, and synced, before): a resumed run refuses a log edited since.
    """
    learner, opp = run.agents()
    files = {}
    seats = ((learner, run.seat), (opp, 1 - run.seat))
    # the opponent's seat has a file only when it learns a table of its own
    for name, (a, seat) in zip(table_files(run), seats, strict=False):
        data = table_bytes(game, a, tables[seat], seat, games)
        check_table_size(folder / name, data)
        files[name] = data
    if references is not None:
        points = {"format": REFERENCES_FORMAT, "points": list(references)}
        files[REFERENCES_FILE] = json_text(points).encode("utf-8")
    log = log_digest(folder / GAMES_FILE, games)
    commit(folder, files, {"games": games, "refused_at": refused_at, LOG_DIGEST: log})


REFERENCES_FORMAT = "purestate.references/1"


def read_references(folder: Path, checkpoint: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The points against the references committed with ``checkpoint`` (``io.runs.recover``'s),
    or None when it has none.

    Raises:
        RunFolderError: a file that is not a list of points (one line).
    """
    if REFERENCES_FILE not in checkpoint.get("files", {}):
        return None
    path = folder / REFERENCES_FILE
    data = read_json(path, follow=False)
    points = data.get("points") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != REFERENCES_FORMAT
        or not isinstance(points, list)
        or not all(isinstance(p, dict) and type(p.get("games")) is int for p in points)
    ):
        raise RunFolderError(f"{path}: not a list of points against references")
    return points


LOG_DIGEST = "log_sha256"
"""The checkpoint's field holding the SHA-256 of games.jsonl up to its game count (runs
checkpointed before it was kept have none; their records are checked by replaying them)."""


def check_records(folder: Path, run: Selfplay, records: Sequence[Any], want: Any) -> None:
    """Refuse a games log that is not the one the run's checkpoint was taken with.

    Each record must be a well-formed record of the run's game and the learner's seat whose moves
    replay, legally, to its recorded returns and result; the log's lines must have the digest
    ``want`` that the checkpoint holds (None: a checkpoint from before digests were kept).

    Raises:
        RunFolderError: one line naming the file and, when a record is wrong, its line.
    """
    path = folder / GAMES_FILE
    game = run.make_game()
    for i, data in enumerate(records):
        try:
            record = Record.from_json(data)
            if record.seat != run.seat:
                raise RecordError(f"seat {record.seat} is not the learner's ({run.seat})")
            if make_spec(record.game) != game:
                raise RecordError(f"a game of {record.game!r}, not of this run's")
            replay_record(record)
        except (RecordError, SpecError) as e:
            raise RunFolderError(
                f"{path}, line {i + 1}: {e}; the run cannot be resumed (--force starts it again)"
            ) from None
    if want is None:
        return
    if not isinstance(want, str) or log_digest(path, len(records)) != want:
        raise RunFolderError(
            f"{path}: its first {len(records)} lines are not the ones checkpointed in "
            f"{folder / 'checkpoint.json'} (edited since?); the run cannot be resumed "
            "(--force starts it again)"
        )


def write_summary(
    out_dir: Path,
    run: Selfplay,
    game: Any,
    outcomes: Sequence[int],
    resigned: int,
    first_refusal: int | None,
    block: int,
    moves: Sequence[Sequence[Any]] | None = None,
) -> dict[str, Any]:
    """Write ``summary.json`` for the whole run in ``out_dir`` and return it.

    On a game the exact solver covers, each block also counts the learner's optimal moves, read
    from the run's games log, or from ``moves`` (every game's moves, as the log has them) when
    the caller kept them.
    """
    refusals = int(first_refusal is not None)
    summary = summarize(run, outcomes, resigned, refusals, first_refusal, block)
    # kept for readers of summaries written when "agent" and "opponent" were as typed
    summary["agent_spec"], summary["opponent_spec"] = summary["agent"], summary["opponent"]
    summary["game_spec"] = plots.game_spec_text(game)
    if _solvable(game):
        # the exact solver covers the game: score every move the learner played
        solution = load_or_solve(game)
        if moves is not None:
            rates = optimal_move_rates(game, solution, moves, run.seat, block)
        else:
            # streamed from the log (the whole run, as the summary): holding every game's moves
            # in memory would cost far more than the outcomes do
            with io.TextIOWrapper(open_own_file(out_dir / GAMES_FILE), encoding="utf-8") as log:
                games = (json.loads(line)["moves"] for line in log)
                rates = optimal_move_rates(game, solution, games, run.seat, block)
        for b, (good, moved) in zip(summary["blocks"], rates, strict=True):
            b["optimal_moves"], b["learner_moves"] = good, moved
    write_json(out_dir / "summary.json", summary)
    return summary


def write_curve(
    out_dir: Path, run: Selfplay, summary: dict[str, Any], outcomes: Sequence[int]
) -> None:
    """Write ``learning_curve.png`` for the whole run in ``out_dir`` from its ``summary``
    (``write_summary``'s) and its outcomes (the learner's, one per game)."""
    learner, opp = run.agents()
    name = run.opponent.partition(":")[0]
    opponent = plots.full_spec(name, opp) if run.opponent != SELF else SELF
    plots.learning_curve(
        out_dir / "learning_curve.png",
        summary,
        cumulative_incentive(outcomes),
        plots.curve_title(
            plots.full_spec(run.agent.partition(":")[0], learner),
            summary["seat"],
            opponent,
            summary["game_spec"],
            run.seed,
        ),
        beads=run.agent.partition(":")[0] == "menace",
    )


def write_reference_curve(
    out_dir: Path, run: Selfplay, game: Any, points: Sequence[dict[str, Any]]
) -> None:
    """Write ``references.png``, the learner's points against the references, in ``out_dir``."""
    learner, _ = run.agents()
    title = plots.curve_title(
        plots.full_spec(run.agent.partition(":")[0], learner),
        SEATS[run.seat],
        "fixed references (greedy play, seats alternating)",
        plots.game_spec_text(game),
        run.seed,
    )
    plots.reference_curve(out_dir / REFERENCES_PICTURE, points, title)


def _solvable(g: Any) -> bool:
    """Whether the exact solver covers ``g`` (then the summary scores the learner's moves)."""
    try:
        require_solvable(g)
    except TooLarge:
        return False
    return True

"""Time travel through a training run: the learned table after any number k of its games.

The tables come from the run's recorded games folded through the library's ``learn_step`` (the
step of ``train``'s fold; learning draws no randomness), from the run's fresh tables: equal to
``train``'s tables after k games. Folds are remembered every ``STRIDE`` games for the last few
runs asked about, so moving the slider replays at most ``STRIDE`` games.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from purestate.agents.menace import MenaceTable
from purestate.agents.td import QTable
from purestate.core.learning import learn_step
from purestate.core.record import RecordError, replay_record
from purestate.core.spec import SpecError
from purestate.drawing import svg
from purestate.experiments.selfplay import Selfplay
from purestate.io.files import FileFormatError
from purestate.io.records import GAMES_FILE
from purestate.io.selfplay import TABLE_STEMS
from purestate.io.tables import load_table, table_suffix
from purestate.web.errors import NotFound, WebError
from purestate.web.runs import SEATS, kept, records_of, run_folder, stamp, training_manifest

STRIDE = 100
"""Games between remembered tables of a run."""
MAX_RUNS_KEPT = 4
"""Runs whose remembered tables are kept."""
MAX_BOARDS = 60
"""The most positions a Q-table's heat maps show (those with the largest values)."""


def selfplay_of(folder: Path, name: str) -> Selfplay:
    """The training run a run folder recorded: from its manifest (``run.json`` of ``purestate
    selfplay``) or, for a sweep's run, its ``summary.json`` (``web.runs.training_manifest``).

    Raises:
        WebError: a run that is not a training run (a tournament, a Tron series).
    """
    data = training_manifest(folder)
    if data is None:
        raise WebError(
            f"run {name!r} is not a training run: it has no learned table to travel through"
        )
    return Selfplay(data["game"], data["agent"], data["opponent"], SEATS.index(data["seat"]),
                    data["seed"])  # fmt: skip


def can_travel(root: Path, name: str) -> bool:
    """Whether run ``name`` is a training run whose tables the page can travel through."""
    try:
        selfplay_of(run_folder(root, name), name)
    except WebError:
        return False
    return True


class _Fold:
    """A run's tables every ``STRIDE`` games, folded as far as asked."""

    def __init__(self, run: Selfplay, stamp: tuple[int, int]) -> None:
        self.run = run
        self.stamp = stamp
        self.game = run.make_game()
        self.agents = run.seats()
        self.learning = run.learning()
        self.snapshots: list[tuple[Any, Any]] = [run.initial_tables(self.game)]
        self.lock = threading.Lock()

    def tables(self, records: Sequence[Any], k: int) -> tuple[Any, Any]:
        """Both seats' tables after the first ``k`` recorded games."""
        with self.lock:
            base = min(k // STRIDE, len(self.snapshots) - 1)
            tables = self.snapshots[base]
            for i in range(base * STRIDE, k):
                try:
                    ep = replay_record(records[i])
                except RecordError as e:
                    raise WebError(f"game {i}: {e}") from None
                tables = learn_step(self.game, self.agents, tables, ep,
                                    learning=self.learning, shared=self.run.shared)  # fmt: skip
                if (i + 1) % STRIDE == 0 and (i + 1) // STRIDE == len(self.snapshots):
                    self.snapshots.append(tables)
            return tables


_folds: OrderedDict[Path, _Fold] = OrderedDict()
_folds_lock = threading.Lock()


def _fold_of(folder: Path, run: Selfplay) -> _Fold:
    """The remembered fold of a run folder, started again when its games log changed."""
    st = (folder / GAMES_FILE).stat() if (folder / GAMES_FILE).is_file() else None
    stamp = (st.st_mtime_ns, st.st_size) if st is not None else (0, 0)
    with _folds_lock:
        fold = _folds.get(folder)
        if fold is None or fold.stamp != stamp or fold.run != run:
            fold = _Fold(run, stamp)
            _folds[folder] = fold
        _folds.move_to_end(folder)
        while len(_folds) > MAX_RUNS_KEPT:
            _folds.popitem(last=False)
        return fold


def _saved(folder: Path, game: Any, learner: Any, seat: int, k: int) -> Any:
    """The run's saved learner's table (``table.json``, or ``table.npz`` for an array table, read
    without following a link) when it says it was saved after exactly its ``k`` recorded games, by
    this learner in this seat: what ``train`` had then, without replaying the games (the first
    look at a long run's page asks for the table after all its games). None otherwise."""
    path = folder / f"{TABLE_STEMS[0]}{table_suffix(learner)}"
    if not path.is_file():
        return None
    try:
        saved = load_table(path, game, learner, follow=False)
    except FileFormatError:
        return None
    if saved.games != k or saved.seat != seat or saved.agent != learner.spec:
        return None
    return saved.table


def table_after(root: Path, name: str, k: int, boards: bool = False) -> dict[str, Any]:
    """The learner's table of run ``name`` after its first ``k`` games, for the page.

    MENACE: ``boxes`` (key, stage, bead counts per move; with ``boards``, each box's position
    drawn). Q-learning: ``positions``, the heat maps' values per move with each position drawn
    (the ``MAX_BOARDS`` whose values are largest, the earliest in a game on ties).

    Raises:
        NotFound: no such run, or k past its games.
        WebError: not a training run, a spec the library refuses, a record that does not replay.
    """
    folder = run_folder(root, name)
    # the answer for (k, boards) is remembered while the run's files are unchanged: the page's
    # first question (the last k, with every board drawn) is the slow one
    return kept("table", (folder, k, boards), stamp(folder),
                lambda: _table_after(folder, name, k, boards))  # fmt: skip


def _table_after(folder: Path, name: str, k: int, boards: bool) -> dict[str, Any]:
    run = selfplay_of(folder, name)
    records = records_of(folder)
    if not 0 <= k <= len(records):
        raise NotFound(f"run {name!r} has {len(records)} games: k must be from 0 to that")
    try:
        fold = _fold_of(folder, run)
        game, learner = fold.game, fold.agents[run.seat]
        table = _saved(folder, game, learner, run.seat, k) if k == len(records) else None
        if table is None:
            table = fold.tables(records, k)[run.seat]
    except (SpecError, ValueError) as e:
        raise WebError(str(e)) from None
    out: dict[str, Any] = {"run": name, "k": k, "games": len(records), "agent": learner.spec}
    if isinstance(table, MenaceTable):
        data = learner.table_to_json(game, table)["boxes"]  # type: ignore[attr-defined]
        out["kind"] = "menace"
        out["boxes"] = [
            {
                "key": key,
                "stage": entry["stage"],
                "beads": entry["beads"],
                **({"svg": str(svg(game, game.decode(key)))} if boards else {}),
            }
            for key, entry in data.items()
        ]
        # the boxes and beads game k drew from (the last game folded in), to highlight
        drawn: list[list[str]] = []
        if k:
            record = records[k - 1]
            ep = replay_record(record)
            used = learner.drawn(game, table, ep, run.seat)  # type: ignore[attr-defined]
            drawn = [[key, game.format_move(m)] for key, m in used]
            out["last"] = {
                "index": k - 1,
                "moves": [game.format_move(m) for m in ep.moves],
                "result": record.result,
            }
        out["drawn"] = drawn
    elif isinstance(table, QTable):
        q = learner.table_to_json(game, table)["q"]  # type: ignore[attr-defined]
        # where learning shows: the positions whose values are largest, the earliest first on ties
        size = {p: max((abs(v) for v in q[p].values()), default=0.0) for p in q}
        chosen = sorted(q, key=lambda p: (-size[p], -len(q[p]), p))[:MAX_BOARDS]
        positions = []
        for pos in chosen:
            try:
                picture = str(svg(game, game.decode(pos)))
            except ValueError:
                continue  # a key that is not a position of the game (a learner's own form)
            positions.append({"key": pos, "values": q[pos], "svg": picture})
        out["kind"] = "q"
        out["positions"] = positions
        out["known"] = len(q)
    else:
        out["kind"] = "other"
    return out

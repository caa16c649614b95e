"""The MENACE lab: MENACE learning in the browser, one game at a time or as fast as the library
runs, against a person, any agent, or a second MENACE.

Shell code around the library's training run (``experiments.selfplay.Selfplay``): a lab is a
``Selfplay`` value and the tables and games so far. ``advance(n)`` plays the run's next ``n``
games through ``Selfplay.play`` (the library's fold, so game ``i`` is game ``i`` of
``purestate selfplay`` with the same settings and seed) and answers with one update for the whole
batch: the counters, the boxes whose beads changed, the boxes and beads drawn in the last game,
and the learning curve drawn by ``web.charts`` from the library's ``blocks`` and
``cumulative_incentive``. Against a person, MENACE's moves come from the play page's ``Session``
with game ``i``'s key, and the finished game is folded in with the library's ``learn_step``.

A step is bounded by the server's budget (``web.budget``): its games are played one by one
(``train``, the fold ``Selfplay.play`` goes through, with the same agents, seats and keys) until
the step's CPU time reaches the move budget, and a searching opponent thinks at most
``LAB_SHARE`` times less than that per move; so a step answers in about the budget whatever the
opponent, and a lab against a slow opponent simply plays fewer games per step.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from itertools import islice
from pathlib import Path
from typing import Any

from purestate.agents.menace import Menace, MenaceTable
from purestate.core import compiled
from purestate.core.episode import Episode
from purestate.core.hooks import seat_name
from purestate.core.keys import key
from purestate.core.learning import blocks, cumulative_incentive, learn_step, tally, train
from purestate.core.registry import agent
from purestate.core.spec import SpecError
from purestate.drawing import svg
from purestate.experiments.selfplay import SELF, GameLog, Selfplay, refused
from purestate.io.files import FileFormatError, write_json
from purestate.io.records import append_records
from purestate.io.runs import run_folder
from purestate.io.selfplay import (
    RUN_FILES,
    manifest,
    note_kernels,
    save_checkpoint,
    write_curve,
    write_summary,
)
from purestate.web.budget import LAB_SHARE, Budget, require_quick_solve
from purestate.web.charts import curve_svg
from purestate.web.errors import WebError
from purestate.web.owners import Owned
from purestate.web.play import MAX_SPEC, Session, game_of
from purestate.web.runs import inside

PERSON = "person"
"""The opponent that is the person at the page, clicking on the board."""
MAX_LAB_GAMES = 100_000
"""The most games one lab plays (its games are kept to be saved as a run)."""
MAX_BATCH = 5_000
"""The most games one server step plays before the page hears about them."""
STEP_SECONDS = 0.1
"""At top speed a step is sized to take about this long: ten updates a second."""
MAX_SPEED = 1_000
"""The fastest paced speed (games per second); 0 asks for top speed."""
MAX_LABS = 16
"""Labs kept in memory at once (one per browser session, ``web.owners``)."""
SUMMARY_BLOCK = 100
"""Games per block in the summary.json of a saved lab (selfplay's default)."""
OPTIONS = ("preset", "beads", "incentives", "symmetric_moves", "include_forced", "empty")
"""MENACE's options the lab's form may set (``menace``'s own spec options)."""


def menace_spec(options: dict[str, Any]) -> str:
    """The MENACE spec string of the lab's form: the options given, in the library's syntax.

    Raises:
        WebError: an option that is not text, or a spec the library refuses (its message).
    """
    parts = []
    for name in OPTIONS:
        value = options.get(name, "")
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, str):
            raise WebError(f"menace option {name} must be text")
        if value.strip():
            parts.append(f"{name}={value.strip()}")
    spec = "menace:" + ",".join(parts) if parts else "menace"
    if len(spec) > MAX_SPEC:
        raise WebError(f"the MENACE options are longer than {MAX_SPEC} characters")
    return spec


class Lab:
    """One MENACE learning in the browser: the run, its tables, its games and the pace."""

    def __init__(
        self,
        game_spec: str,
        menace: str,
        opponent: str,
        seat: int,
        seed: int,
        target: int,
        budget: Budget,
    ) -> None:
        if seat not in (0, 1):
            raise WebError("MENACE's seat must be 0 (first) or 1 (second)")
        if not 0 <= seed < 2**63:
            raise WebError("seed must be a whole number from 0 to 2**63 - 1")
        if not 1 <= target <= MAX_LAB_GAMES:
            raise WebError(f"games must be from 1 to {MAX_LAB_GAMES}")
        opponent = opponent.strip() or "rules:p=0.7"
        if len(opponent) > MAX_SPEC:
            raise WebError(f"the opponent spec is longer than {MAX_SPEC} characters")
        self.game = game_of(game_spec)
        self.person = opponent == PERSON
        # against a person the run's opponent is never asked to move: random stands in for the
        # seat so that the run's agents, seats and tables are the library's
        self.run = Selfplay(game_spec, menace, "random" if self.person else opponent, seat, seed)
        try:
            learner, rival = self.run.agents()
            if not isinstance(learner, Menace):
                raise WebError(f"{menace!r} is not MENACE")
            require_quick_solve(rival, self.game)
            self.run.check(self.game)
            self.tables: tuple[Any, Any] = self.run.initial_tables(self.game)
            clock = budget.clock(LAB_SHARE)
            self.seats = tuple(budget.bot(a, clock) for a in self.run.seats())
            self.learning = self.run.learning()
        except (SpecError, ValueError) as e:
            raise WebError(str(e)) from None
        self.budget = budget
        self.menace: Menace = learner
        self.seat = seat
        self.target = target
        self.logs: list[GameLog] = []
        self.outcomes: list[int] = []
        self.resigned = 0
        self.refused_at: int | None = None
        self.last: Episode | None = None
        self.lock = threading.Lock()
        self.running = False
        self.speed = 0
        self.batch = 1
        self.closed = False
        self.streaming = False
        self.wake = asyncio.Event()
        self.session: Session | None = None
        if self.person:
            self._next_person_game()

    @property
    def played(self) -> int:
        """Games played so far."""
        return len(self.outcomes)

    @property
    def table(self) -> MenaceTable:
        """MENACE's boxes now."""
        table: MenaceTable = self.tables[self.seat]
        return table

    def done(self) -> bool:
        """Whether the lab can play no more: its games are played, or MENACE refuses."""
        return self.refused_at is not None or self.played >= self.target

    def play_to(self, target: int) -> None:
        """Play ``target`` games in all (at least those played). Against a person whose last
        game asked for is over, the next game begins (MENACE moves first if it is to)."""
        with self.lock:
            self.target = max(target, self.played)
            over = self.session is not None and self.session.over()
            if self.person and over and not self.done():
                self._next_person_game()

    def boxes(self) -> list[dict[str, Any]]:
        """Every box, in the library's order: its key, stage, picture and beads (drawn once)."""
        data = self.menace.table_to_json(self.game, self.table)["boxes"]
        return [
            {
                "key": k,
                "stage": entry["stage"],
                "svg": str(svg(self.game, self.game.decode(k))),
                "beads": entry["beads"],
            }
            for k, entry in data.items()
        ]

    def _beads(self, keys: Any) -> dict[str, dict[str, int]]:
        fmt = self.game.format_move
        boxes = self.table.boxes
        return {k: {fmt(m): n for m, n in sorted(boxes[k].items())} for k in keys}

    def advance(self, n: int) -> dict[str, Any] | None:
        """Play the run's next ``n`` games (fewer at the lab's end, or when the step's CPU time
        reaches the server's move budget; at least one); the update, or None.

        Raises:
            Stopped: the step was abandoned (its games played so far are kept).
        """
        if self.person:
            raise WebError("against a person, the games are played by clicking")
        with self.lock:
            n = min(n, self.target - self.played)
            if n <= 0 or self.done():
                return None
            before = self.table
            run = self.run
            games = train(self.game, self.seats, self.tables, key(run.seed),
                          learning=self.learning, shared=run.shared, start=self.played)  # fmt: skip
            began = time.thread_time()
            for step in islice(games, n):
                self._absorb((step.episode,), step.tables, refused(step.episode, self.seat))
                if self.refused_at is not None or time.thread_time() - began >= self.budget.seconds:
                    break
            return self.update(before)

    def _absorb(self, episodes: Any, tables: tuple[Any, Any], refused: bool) -> None:
        for ep in episodes:
            self.logs.append(GameLog.of(self.played, ep))
            self.outcomes.append(ep.outcome(self.seat))
            self.resigned += ep.resigned == self.seat
            self.last = ep
        self.tables = tables
        if refused:
            self.refused_at = self.played

    def _next_person_game(self) -> None:
        """Set up game ``played`` against the person: MENACE moves with that game's key."""
        bot = self.run.seats()[self.seat]
        # game ``played`` of the run: its key is the run's for that game
        session = Session(self.game, self.run.game, bot, self.table, 1 - self.seat, self.run.seed,
                          self.played)  # fmt: skip
        session.bot_moves()
        self.session = session
        if session.over():  # MENACE refused at once: its first box is empty
            self._end_person_game()

    def _end_person_game(self) -> None:
        s = self.session
        assert s is not None
        ep = s.match.episode()
        tables = learn_step(self.game, self.run.seats(), self.tables, ep,
                            learning=(self.seat == 0, self.seat == 1))  # fmt: skip
        refused = s.resigned == self.seat and self.seat not in ep.movers
        self._absorb((ep,), tables, refused)

    def person_moves(self, text: str) -> dict[str, Any]:
        """The person's move in the game against MENACE; at the game's end MENACE learns and the
        next game begins. The update (with the board)."""
        if not self.person or self.session is None:
            raise WebError("this lab's opponent is not a person")
        with self.lock:
            if self.done():
                raise WebError("the lab is over: start a new one")
            before = self.table
            self.session.person_moves(text)
            ended = self.session.over()
            if ended:
                self._end_person_game()
            update = self.update(before)
            if ended:
                update["ended"] = self.session.view("")
                if not self.done():
                    self._next_person_game()
                    update["drawn"] = self.drawn()
            update["board"] = self.session.view("")
            return update

    def drawn(self) -> list[list[str]]:
        """The boxes and bead colours MENACE drew from in the last game (against a person, in
        the game being played once MENACE has moved in it), as ``[box key, move text]``."""
        now, shown = self.session, self.last
        if now is not None and now.moves and not now.over():
            # the game so far as an episode (no result yet: ``drawn`` reads only the moves)
            m = now.match
            shown = Episode(m.states, m.moves, m.movers, (0.0, 0.0))
        if shown is None:
            return []
        fmt = self.game.format_move
        return [[k, fmt(m)] for k, m in self.menace.drawn(self.game, self.table, shown, self.seat)]

    def update(self, before: MenaceTable | None = None) -> dict[str, Any]:
        """What the page shows now; with ``before``, only the boxes changed since that table."""
        t = tally(self.outcomes)
        changed = (
            self.table.boxes
            if before is None
            else [k for k, v in self.table.boxes.items() if before.boxes.get(k) is not v]
        )
        last: dict[str, Any] | None = None
        fmt = self.game.format_move
        if self.last is not None:
            last = {
                "index": self.played - 1,
                "moves": [fmt(m) for m in self.last.moves],
                "result": ("loss", "draw", "win")[self.last.outcome(self.seat) + 1],
                "resigned": self.last.resigned,
            }
        block = chart_block(self.played)
        curve = cumulative_incentive(self.outcomes)
        chart = curve_svg(curve, [b.as_dict() for b in blocks(self.outcomes, block)], block)
        return {
            "games": self.played,
            **t.as_dict(),
            "target": self.target,
            "refused_at": self.refused_at,
            "done": self.done(),
            "running": self.running and not self.done(),
            "beads": self._beads(changed),
            "drawn": self.drawn(),
            "last": last,
            "chart": chart,
            "incentive": curve[-1] if curve else 0,
            # against a person, the game being played (or the last one, once the lab is done)
            **({"board": self.session.view("")} if self.session is not None else {}),
        }

    def view(self, lab_id: str) -> dict[str, Any]:
        """The whole lab for a page that opens it: settings, every box, the first update."""
        learner, opponent = self.run.agents()
        return {
            "id": lab_id,
            "game": self.run.game,
            "menace": learner.spec,
            "opponent": PERSON if self.person else self.run.opponent,
            "opponent_spec": PERSON if self.person else (
                SELF if self.run.opponent == SELF else opponent.spec),
            "seat": self.seat,
            "seat_names": [seat_name(self.game, p) for p in (0, 1)],
            "seed": self.run.seed,
            "boxes": self.boxes(),
            "update": self.update(),
            "board": self.session.view("") if self.session is not None else None,
        }  # fmt: skip

    def step_size(self) -> int:
        """Games in the next server step: the pace's share of a step, or at top speed as many
        as take about ``STEP_SECONDS`` (learned from the last step)."""
        if self.speed > 0:
            return max(1, min(MAX_BATCH, round(self.speed * STEP_SECONDS)))
        return self.batch

    def timed(self, games: int, seconds: float) -> None:
        """Size the next top-speed step from how long ``games`` games took."""
        if games <= 0:
            return
        rate = games / max(seconds, 1e-6)
        self.batch = max(1, min(MAX_BATCH, int(rate * STEP_SECONDS), 2 * max(self.batch, games)))

    def save(self, root: Path, name: str) -> dict[str, Any]:
        """Write the lab as a selfplay run folder ``name`` in the runs folder (a new folder).

        The folder is what ``purestate selfplay --out`` writes for the same settings and number
        of games (the same files, ``learning_curve.png`` too), so ``selfplay --resume``
        continues it and ``evaluate --table`` plays its table.

        Raises:
            WebError: a lab against a person (selfplay could not continue it), no games yet, a
                name outside the runs folder, or a folder that is not new.
        """
        if self.person:
            raise WebError(
                "a lab against a person cannot be saved as a selfplay run "
                "(purestate selfplay could not continue it)"
            )
        folder = inside(root, name)
        if folder == root.resolve():  # "." or "./": the runs folder itself is no run folder
            raise WebError(f"{name[:80]!r}: name a new folder inside the runs folder")
        with self.lock:
            if not self.played:
                raise WebError("no games played yet: nothing to save")
            run, g = self.run, self.game
            try:
                with run_folder(folder, "new", RUN_FILES) as out:
                    write_json(out / "run.json", {**manifest(run, g), "games": self.played})
                    append_records(out, (x.record(run) for x in self.logs))
                    save_checkpoint(out, run, g, self.tables, self.played, self.refused_at)
                    note_kernels(out, 0, self.played, {compiled.used()})
                    summary = write_summary(out, run, g, self.outcomes, self.resigned,
                                            self.refused_at, SUMMARY_BLOCK)  # fmt: skip
                    write_curve(out, run, summary, self.outcomes)
            except FileFormatError as e:
                raise WebError(str(e).replace(str(root.resolve()), "<runs>")) from None
        return {"saved": name, "games": self.played}


def chart_block(games: int) -> int:
    """Games per bar of the lab's chart: 10, widened so that at most 100 bars are drawn."""
    return 10 * max(1, math.ceil(games / 1000))


def stop_lab(lab: Lab) -> None:
    """Stop a lab that is forgotten (its training job ends with its stream)."""
    lab.closed = True
    lab.running = False
    lab.wake.set()


def lab_store() -> Owned[Lab]:
    """The labs in memory: one per browser (a new one stops the browser's previous lab), at
    most ``MAX_LABS`` (``web.owners``)."""
    return Owned(MAX_LABS, 1, "lab", gone=stop_lab, busy=lambda lab: lab.streaming)


def new_lab(data: dict[str, Any], budget: Budget) -> Lab:
    """A lab from the page's form: ``game``, MENACE's options, ``opponent``, ``seat``, ``seed``
    and ``games`` (the number of games to play).

    Raises:
        WebError: a bad setting (the library's message for a bad spec).
    """
    options = data.get("menace", {})
    if not isinstance(options, dict):
        raise WebError("menace must be an object of MENACE's options")
    spec = menace_spec(options)
    try:
        spec = agent(spec).spec  # the library's own spelling, as selfplay's files record it
    except (SpecError, ValueError) as e:
        raise WebError(str(e)) from None
    values = []
    for name, default in (("seat", 0), ("seed", 0), ("games", 1000)):
        v = data.get(name, default)
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise WebError(f"{name} must be a whole number")
        values.append(v)
    game, opponent = data.get("game", "tictactoe"), data.get("opponent", "")
    if not isinstance(game, str) or not isinstance(opponent, str):
        raise WebError("game and opponent must be text")
    seat, seed, games = values
    return Lab(game.strip() or "tictactoe", spec, opponent, seat, seed, games, budget)

"""A self-play training run as a value: what to train, against what, and its summary.

``Selfplay`` names the game, the learner, the opponent, the learner's seat and the seed. It builds
the agents and tables and hands out the lazy ``train`` fold, or plays a stretch of it with
``play`` (through a learner's fused loop when it has one); the shell decides how many
games to take, shows progress and writes files. ``summarize`` turns the outcomes into the
figures a user reads (W/D/L per block, resignations, Scroggs' cumulative bead change).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice, pairwise
from typing import Any

from attrs import frozen

from purestate.core.agent import Agent, check_game
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.hooks import (
    Jobs,
    TrainGamesFn,
    selfplay_games_of,
    selfplay_jobs_of,
    selfplay_tables,
    train_games_of,
)
from purestate.core.keys import key
from purestate.core.learning import TrainStep, blocks, cumulative_incentive, last_loss, tally, train
from purestate.core.memo import memo
from purestate.core.record import Record, game_spec
from purestate.core.registry import agent, make_spec
from purestate.core.spec import SpecError

SELF = "self"


@frozen
class Selfplay:
    """A training run: ``agent`` (at ``seat``) learns against ``opponent`` on ``game``.

    Attributes:
        game: Game spec string.
        agent: The learner's spec string.
        opponent: The opponent's spec string, or ``"self"``: the learner plays a copy of itself that
            learns too (one shared table for TD learners; a second MENACE with its own boxes).
        seat: The learner's seat (0 moves first).
        seed: The experiment seed; game ``i`` is played with ``fold_in(key(seed), i)``.
    """

    game: str = "tictactoe"
    agent: str = "menace"
    opponent: str = "rules:p=0.7"
    seat: int = 0
    seed: int = 0

    def make_game(self) -> Game[Any, Any]:
        """The game."""
        return make_spec(self.game)

    def agents(self) -> tuple[Agent, Agent]:
        """(learner, opponent)."""
        learner = agent(self.agent)
        opp = learner if self.opponent == SELF else agent(self.opponent)
        return learner, opp

    def specs(self) -> tuple[str, str]:
        """The learner's and the opponent's specs as the agents write them (``rules`` for
        ``rules:p=0.7``), the opponent ``"self"`` for self-play: how run.json, summary.json and
        the games log name them, whatever spelling the run was given."""
        learner, opp = self.agents()
        return learner.spec, SELF if self.opponent == SELF else opp.spec

    @property
    def shared(self) -> bool:
        """Whether both seats learn on one table (self-play of a TD learner)."""
        learner, _ = self.agents()
        return self.opponent == SELF and selfplay_tables(learner) in ("shared", "only")

    def seats(self) -> tuple[Agent, Agent]:
        """The agents in seat order."""
        learner, opp = self.agents()
        return (learner, opp) if self.seat == 0 else (opp, learner)

    def learning(self) -> tuple[bool, bool]:
        """Which seats learn: the learner, and an opponent that is itself a learner."""
        learner, opp = self.agents()
        if not learner.learns:
            raise SpecError(f"agent {learner.spec!r} does not learn; use `evaluate` to play it")
        flags = [False, False]
        flags[self.seat] = True
        flags[1 - self.seat] = opp.learns
        return flags[0], flags[1]

    def check(self, game: Game[Any, Any]) -> None:
        """Refuse at once (one-line ``SpecError``) a run that cannot be played: a learner that does
        not learn, or an agent that needs more of the game than it can hold (MENACE's boxes,
        the perfect player's solution) on a game too large for it."""
        self.learning()
        learner = self.agents()[0]
        if self.opponent != SELF and selfplay_tables(learner) == "only":
            raise SpecError(
                f"{learner.spec!r} learns only against itself: train it with --opponent self "
                "and play it against others with evaluate or tournament"
            )
        for a in self.agents():
            check_game(a, game)

    def initial_tables(self, game: Game[Any, Any]) -> tuple[Any, Any]:
        """Fresh tables for both seats."""
        a0, a1 = self.seats()
        if self.shared:
            t = a0.initial_table(game, 0)
            return t, t
        return a0.initial_table(game, 0), a1.initial_table(game, 1)

    def run(
        self, game: Game[Any, Any], tables: tuple[Any, Any], start: int = 0
    ) -> Iterator[TrainStep]:
        """The lazy training fold from game number ``start`` with ``tables``."""
        return train(
            game,
            self.seats(),
            tables,
            key(self.seed),
            learning=self.learning(),
            shared=self.shared,
            start=start,
        )

    def play(
        self,
        game: Game[Any, Any],
        tables: tuple[Any, Any],
        start: int,
        games: int,
        run_games: int | None = None,
    ) -> Stretch:
        """Games ``start`` .. ``start + games - 1`` of the run from ``tables``.

        The same games and tables as that stretch of ``run``; a learner playing itself on one
        table through its fused loop (``selfplay_games``, as ``qlearning`` and ``sarsa`` have), or
        one learning against an opponent that does not learn through its own (``train_games``,
        as ``menace`` has), plays them several times faster. Stops early after a game the learner
        refused to play (MENACE's empty first box). ``run_games``, the games of the whole run
        this stretch is part of, lets a fused loop choose how to play them (MENACE's compiled
        loop pays its start on long runs only); it never changes the games.
        """
        fused = selfplay_games_of(self.agents()[0]) if self.shared else None
        if fused is not None:
            table, played = fused(game, tables[0], key(self.seed), games, start)
            return Stretch(start, played, (table, table), False)
        against_fixed = self._train_games()
        if against_fixed is not None:
            me, opp = self.seat, self.agents()[1]
            mine, played = against_fixed(game, tables[me], me, opp, tables[1 - me],
                                         key(self.seed), games, start,
                                         run_games=run_games or games)  # fmt: skip
            after = (mine, tables[1]) if me == 0 else (tables[0], mine)
            gone = bool(played) and refused(played[-1], me)
            return Stretch(start, played, after, gone)
        one_by_one = list(self._one_by_one(game, tables, start, games))
        if not one_by_one:
            return Stretch(start, (), tables, False)
        last = one_by_one[-1]
        return Stretch(start, tuple(s.episodes[0] for s in one_by_one), last.tables, last.refused)

    def _train_games(self) -> TrainGamesFn | None:
        """The learner's fused loop against an opponent that does not learn, if both hold."""
        learner, opp = self.agents()
        if self.opponent == SELF or opp.learns:
            return None
        return train_games_of(learner)

    def _one_by_one(
        self, game: Game[Any, Any], tables: tuple[Any, Any], start: int, games: int
    ) -> Iterator[Stretch]:
        """The generic fold, one game per stretch, ending after a refused game."""
        for step in islice(self.run(game, tables, start), games):
            gone = refused(step.episode, self.seat)
            yield Stretch(step.index, (step.episode,), step.tables, gone)
            if gone:
                return

    @property
    def fused(self) -> bool:
        """Whether ``play`` goes through one of the learner's fused loops (self-play on one
        table, or learning against an opponent that does not learn)."""
        shared = self.shared and selfplay_games_of(self.agents()[0]) is not None
        return shared or self._train_games() is not None

    def stretches(
        self,
        game: Game[Any, Any],
        tables: tuple[Any, Any],
        start: int,
        games: int,
        checkpoint: int = 0,
        run_jobs: RunJobs | None = None,
        workers: int = 1,
    ) -> Iterator[Stretch]:
        """Games ``start`` .. ``start + games - 1`` in stretches, for a shell that reports progress
        and saves checkpoints: one game each through the generic fold (a slow run shows every
        game), up to ``FUSED_STRETCH`` games each through a fused loop, never across a multiple of
        ``checkpoint`` games (counted from the run's first game, so a resumed run checkpoints
        where an uninterrupted one does). Ends early after a refused game.

        A learner that plays itself in jobs (``SelfplayJobs``: ``alphazero``) plays a stretch per
        part of an iteration, its games cut into ``workers`` jobs that ``run_jobs(play_job,
        jobs)`` plays (an executor's ``run``, which the shell passes; in turn here without one):
        the same stretches whatever ``workers`` and ``run_jobs`` are."""
        spread = selfplay_jobs_of(self.agents()[0]) if self.shared else None
        if spread is not None:
            yield from self._in_jobs(spread, game, tables[0], start, games, checkpoint,
                                     run_jobs or _in_turn, workers)  # fmt: skip
            return
        if not self.fused:
            yield from self._one_by_one(game, tables, start, games)
            return
        played, end = start, start + games
        while played < end:
            size = min(end - played, FUSED_STRETCH)
            if checkpoint:  # checkpoints fall on multiples of ``checkpoint`` games of the run
                size = min(size, checkpoint - played % checkpoint)
            stretch = self.play(game, tables, played, size, games)
            yield stretch
            if stretch.refused:
                return
            tables = stretch.tables
            played += len(stretch.episodes)

    def _in_jobs(
        self,
        spread: Jobs,
        game: Game[Any, Any],
        table: Any,
        start: int,
        games: int,
        checkpoint: int,
        run_jobs: RunJobs,
        workers: int,
    ) -> Iterator[Stretch]:
        """``stretches`` of a learner with ``SelfplayJobs``: a stretch per range of its
        ``iterations``, cut again at multiples of ``checkpoint``."""
        k = key(self.seed)
        table = spread.with_network(game, table, k)
        for part in spread.iterations(start, games):
            for piece in cut(part, checkpoint):
                played = run_jobs(spread.play_job, spread.jobs(game, table, k, piece, workers))
                table = spread.absorb(game, table, played, k)
                episodes = tuple(ep for p in played for ep in p.episodes)
                yield Stretch(piece.start, episodes, (table, table), False)


RunJobs = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]
"""How the shell plays a list of jobs: ``run(fn, jobs) == [fn(j) for j in jobs]`` (an
executor's ``run``), wherever it likes."""


def _in_turn(fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
    return [fn(j) for j in jobs]


def cut(part: range, every: int) -> list[range]:
    """``part`` cut after each multiple of ``every`` games (0: not cut)."""
    if not every:
        return [part]
    bounds = [part.start, *(g for g in part[1:] if g % every == 0), part.stop]
    return [range(a, b) for a, b in pairwise(bounds) if b > a]


FUSED_STRETCH = 5000
"""Games per stretch through a fused loop: long enough for the loop to pay off, short enough for
the progress bar to move every fraction of a second."""


@frozen
class Stretch:
    """Consecutive games of a training run.

    Attributes:
        start: The first game's number.
        episodes: The games.
        tables: Both seats' tables after the last game.
        refused: The learner refused to play the last game (MENACE's empty first box): the run is
            over.
    """

    start: int
    episodes: tuple[Episode, ...]
    tables: tuple[Any, Any]
    refused: bool


@frozen
class GameLog:
    """What games.jsonl keeps of a game, as a small value (cheap to ship between processes)."""

    index: int
    moves: tuple[Any, ...]
    returns: tuple[float, float]
    resigned: int | None

    @classmethod
    def of(cls, index: int, ep: Episode) -> GameLog:
        """The log of an episode."""
        return cls(index, ep.moves, ep.returns, ep.resigned)

    def record(self, run: Selfplay) -> Record:
        """The game's record (``purestate.core.record``), its result from the learner's side."""
        game, players = names(run)
        return Record.from_game(game, players, run.seed, self.index, self.moves, self.returns,
                                self.resigned, run.seat)  # fmt: skip


def game_record(index: int, run: Selfplay, ep: Episode) -> Record:
    """The record of game ``index`` of ``run``: enough to replay the game exactly."""
    return GameLog.of(index, ep).record(run)


@memo(size=256, why="one entry per run configuration; a sweep may make many")
def names(run: Selfplay) -> tuple[str, tuple[str, str]]:
    """The game's spec string and both players' specs in seat order, as records name them.

    Cached: building the agents for every logged game would cost more than the game.
    """
    a, b = run.seats()
    return game_spec(run.make_game()), (a.spec, b.spec)


def refused(ep: Episode, seat: int) -> bool:
    """Whether ``seat`` resigned before making any move (MENACE's empty first box)."""
    return ep.resigned == seat and seat not in ep.movers


def summarize(
    run: Selfplay,
    outcomes: Sequence[int],
    resigned: int,
    refusals: int,
    first_refusal: int | None,
    block: int,
    start: int = 0,
) -> dict[str, Any]:
    """The figures of a run: W/D/L overall and per block, resignations, the bead-change curve.

    The game and the agents are named by their canonical specs, as the run's records name them.
    """
    total = tally(outcomes)
    curve = cumulative_incentive(outcomes)
    agent_spec, opponent_spec = run.specs()
    return {
        "game": names(run)[0],
        "agent": agent_spec,
        "opponent": opponent_spec,
        "seat": ("first", "second")[run.seat],
        "seed": run.seed,
        "first_game": start,
        "games": len(outcomes),
        **total.as_dict(),
        "resigned": resigned,
        "refused": refusals,
        "first_refusal": first_refusal,
        "last_loss": last_loss(outcomes),
        "block": block,
        "blocks": [b.as_dict() for b in blocks(outcomes, block)] if outcomes else [],
        "bead_change": curve[-1] if curve else 0,
    }

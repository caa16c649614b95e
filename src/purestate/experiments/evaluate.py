"""Evaluation without learning: an agent against an opponent, from both seats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from attrs import evolve, field, frozen

from purestate.core.agent import Agent
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in
from purestate.experiments.selfplay import RunJobs


@frozen
class SeatGames:
    """Games ``indices`` of one seat's series (``seat_games``), for a worker.

    Attributes:
        game: The game.
        subject: The agent evaluated.
        table: Its table.
        opponent: The opponent.
        opponent_table: The opponent's table.
        seat: The subject's seat.
        key: The evaluation's key (each game's is folded from it by seat and number).
        indices: The games' numbers in the seat's series.
    """

    game: Game[Any, Any]
    subject: Agent
    table: Any = field(repr=False)
    opponent: Agent
    opponent_table: Any = field(repr=False)
    seat: int
    key: Key
    indices: tuple[int, ...]

    def __iter__(self) -> Iterator[Episode]:
        """The games, one after another."""
        agents = (self.subject, self.opponent)
        tables = (self.table, self.opponent_table)
        if self.seat:
            agents, tables = agents[::-1], tables[::-1]
        k = fold_in(self.key, self.seat)
        for i in self.indices:
            yield play(self.game, agents, tables, fold_in(k, i))


def play_seat_games(job: SeatGames) -> list[Episode]:
    """Play a ``SeatGames`` job (a pure function: the same games in any process)."""
    return list(job)


STRETCH = 32
"""Games each worker is handed per round of ``seat_games`` on an executor: few enough that the
progress bar moves and memory stays flat, enough that the tables are sent once for several."""


def seat_games(
    game: Game[Any, Any],
    subject: Agent,
    table: Any,
    opponent: Agent,
    opponent_table: Any,
    seat: int,
    games: int,
    key: Key,
    run: RunJobs | None = None,
    workers: int = 1,
) -> Iterator[Episode]:
    """Lazily play ``games`` games with ``subject`` in ``seat``; nobody learns.

    Game ``i`` uses ``fold_in(fold_in(key, seat), i)``, so each seat's series is reproducible on
    its own. With ``run`` (an executor's), rounds of ``STRETCH`` games a worker are cut into
    ``workers`` jobs of consecutive games and played there; the games come back in order, the
    same games as in this process.
    """
    job = SeatGames(game, subject, table, opponent, opponent_table, seat, key, ())
    if run is None or workers < 2:
        yield from evolve(job, indices=tuple(range(games)))
        return
    size = STRETCH * workers
    for start in range(0, games, size):
        stop = min(games, start + size)
        step = -(-(stop - start) // workers)
        jobs = [evolve(job, indices=tuple(range(a, min(stop, a + step))))
                for a in range(start, stop, step)]  # fmt: skip
        for played in run(play_seat_games, jobs):
            yield from played

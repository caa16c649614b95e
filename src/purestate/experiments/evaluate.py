"""Evaluation without learning: an agent against an opponent, from both seats."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attrs import evolve, field, frozen

from purestate.core.agent import Agent
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in


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
    indices: range

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


ROUND = 512
"""Games handed to an executor at a time by ``seat_games``: their episodes are held until the
round is in, so memory stays flat for any number of games."""

Run = Callable[[Callable[[Any], Any], Sequence[Any], Callable[[int, int], None] | None], list[Any]]
"""An executor's ``run(fn, items, progress)``: ``[fn(item) for item in items]`` wherever it
likes, ``progress(done, total)`` as items come back."""


def seat_games(
    game: Game[Any, Any],
    subject: Agent,
    table: Any,
    opponent: Agent,
    opponent_table: Any,
    seat: int,
    games: int,
    key: Key,
    run: Run | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Episode]:
    """Lazily play ``games`` games with ``subject`` in ``seat``; nobody learns.

    Game ``i`` uses ``fold_in(fold_in(key, seat), i)``, so each seat's series is reproducible on
    its own. With ``run`` (an executor's), the games are played there a ``ROUND`` at a time, one
    job a game (the executor sends them in batches), and come back in order: for agents without
    a clock, the same games as in this process. ``progress(done)`` hears of each batch as it
    comes back.
    """
    job = SeatGames(game, subject, table, opponent, opponent_table, seat, key, range(0))
    if run is None:
        yield from evolve(job, indices=range(games))
        return
    for start in range(0, games, ROUND):
        jobs = [
            evolve(job, indices=range(i, i + 1)) for i in range(start, min(games, start + ROUND))
        ]
        heard = None if progress is None else _offset(progress, start)
        for played in run(play_seat_games, jobs, heard):
            yield from played


def _offset(progress: Callable[[int], None], start: int) -> Callable[[int, int], None]:
    """An executor's ``progress(done, total)`` for a round that starts at game ``start``."""
    return lambda done, total: progress(start + done)

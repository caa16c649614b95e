"""Learning as a pure fold of episodes into tables, and the statistics of a series of games.

``train`` is lazy: it yields one ``TrainStep`` (the episode and the tables after learning from it)
per game, forever. The caller decides how many to take, when to checkpoint and what to plot.
Game ``i`` is played with ``fold_in(key, i)``, so the first k steps of a run are the steps of a
k-game run with the same key, and a run resumed at game k from the tables after game k - 1 goes
on exactly as the uninterrupted run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from attrs import frozen

from purestate.core.agent import Agent
from purestate.core.episode import Episode, play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in


@frozen
class TrainStep:
    """One game of a training run.

    Attributes:
        index: The game's number in the run (0-based).
        episode: The game.
        tables: Both seats' tables after learning from it.
    """

    index: int
    episode: Episode
    tables: tuple[Any, Any]


def train(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    tables: Sequence[Any],
    key: Key,
    *,
    learning: tuple[bool, bool] = (True, False),
    shared: bool = False,
    start: int = 0,
) -> Iterator[TrainStep]:
    """Play games forever, folding each episode into the learners' tables.

    Args:
        game: The game.
        agents: ``agents[p]`` plays as player ``p``.
        tables: The tables to start from.
        key: The run's key; game ``i`` uses ``fold_in(key, i)``.
        learning: Which seats learn.
        shared: Both seats play from one table (self-play on a shared table); ``tables[0]`` is used
            and updated from both seats' moves.
        start: The index of the first game (to resume a run).

    Yields:
        One ``TrainStep`` per game.
    """
    t0, t1 = tables[0], tables[1]
    if shared:
        t1 = t0
    i = start
    while True:
        ep = play(game, agents, (t0, t1), fold_in(key, i))
        t0, t1 = learn_step(game, agents, (t0, t1), ep, learning=learning, shared=shared)
        yield TrainStep(i, ep, (t0, t1))
        i += 1


def learn_step(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    tables: Sequence[Any],
    episode: Episode,
    *,
    learning: tuple[bool, bool] = (True, False),
    shared: bool = False,
) -> tuple[Any, Any]:
    """Both seats' tables after learning from one game: the step of ``train``'s fold.

    Learning draws no randomness, so folding a run's recorded games through this step gives the
    tables ``train`` had after them (time travel through a run without playing it again).

    Args:
        game: The game.
        agents: ``agents[p]`` played as player ``p``.
        tables: Both seats' tables before the game.
        episode: The game.
        learning: Which seats learn.
        shared: Both seats learn on one table (``tables[0]``).

    Returns:
        The tables after the game (the same table twice when ``shared``).
    """
    t0, t1 = tables[0], tables[1]
    if shared:
        for seat in (0, 1):
            if learning[seat]:
                t0 = agents[seat].learn(game, t0, episode, seat)
        return t0, t0
    if learning[0]:
        t0 = agents[0].learn(game, t0, episode, 0)
    if learning[1]:
        t1 = agents[1].learn(game, t1, episode, 1)
    return t0, t1


@frozen
class Tally:
    """Wins, draws and losses from one player's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """How many games."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games, or 0.5 when there are no games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON-ready dict."""
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}


def tally(outcomes: Iterable[int]) -> Tally:
    """Count outcomes given as +1 / 0 / -1."""
    w = d = loss = 0
    for o in outcomes:
        if o > 0:
            w += 1
        elif o < 0:
            loss += 1
        else:
            d += 1
    return Tally(w, d, loss)


def blocks(outcomes: Sequence[int], size: int) -> tuple[Tally, ...]:
    """Tallies of consecutive blocks of ``size`` games (the last block may be shorter)."""
    if size <= 0:
        raise ValueError(f"block size must be positive, got {size}")
    return tuple(tally(outcomes[i : i + size]) for i in range(0, len(outcomes), size))


def wilson(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial rate (95% by default).

    ``successes`` may be fractional: a score with draws counted as half a win is the usual use.

    Returns:
        (low, high); (0.0, 1.0) when there are no trials.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # the interval always contains p; rounding could push an end past it at p = 0 or 1
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def cumulative_incentive(
    outcomes: Iterable[int], incentives: tuple[int, int, int] = (3, 1, -1)
) -> tuple[int, ...]:
    """Scroggs' chart: the running sum of +3 per win, +1 per draw, -1 per loss."""
    win, draw, loss = incentives
    total = 0
    out = []
    for o in outcomes:
        total += win if o > 0 else loss if o < 0 else draw
        out.append(total)
    return tuple(out)


def last_loss(outcomes: Sequence[int]) -> int | None:
    """The 1-based number of the last lost game, or None if none was lost."""
    for i in range(len(outcomes) - 1, -1, -1):
        if outcomes[i] < 0:
            return i + 1
    return None

"""Round-robin tournaments as values: a schedule of game jobs, results, standings and Elo.

Everything here is pure. ``schedule`` lists the games as ``GameJob`` values; ``play_job`` plays
one (any executor can run it, in any process, in any order); ``standings`` folds the results into
per-pair W/D/L with Wilson intervals and maximum-likelihood Elo ratings with bootstrap intervals.

Keys: game ``g`` between entrants ``i < j`` uses ``fold_in(fold_in(fold_in(key(seed), i), j),
g)``, so a game does not depend on the other pairs, on how many games were scheduled, or on the
worker that plays it; adding an entrant at the end leaves the existing games unchanged. Seats
alternate: entrant ``i`` moves first in the even-numbered games of its pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from purestate.core.agent import Agent, check_game
from purestate.core.episode import play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in, generator, key
from purestate.core.learning import Tally, wilson


@frozen
class GameJob:
    """One scheduled game.

    Attributes:
        game: The game.
        agents: The agents in seat order (``agents[0]`` moves first).
        entrants: The entrants' numbers in seat order.
        index: The game's number within its pair.
        key: The game's key.
    """

    game: Game[Any, Any]
    agents: tuple[Agent, Agent]
    entrants: tuple[int, int]
    index: int
    key: Key


@frozen
class GameResult:
    """The outcome of one scheduled game.

    Attributes:
        entrants: The entrants' numbers in seat order.
        index: The game's number within its pair.
        returns: The result per seat.
        moves: The moves played (enough to replay the game).
        resigned: The seat that resigned, or None.
    """

    entrants: tuple[int, int]
    index: int
    returns: tuple[float, float]
    moves: tuple[Any, ...]
    resigned: int | None = None

    def outcome_for(self, entrant: int) -> int:
        """+1 win, 0 draw, -1 loss for ``entrant`` (who must have played this game)."""
        seat = self.entrants.index(entrant)
        r = self.returns[seat]
        return (r > 0) - (r < 0)


def pairs(n: int) -> tuple[tuple[int, int], ...]:
    """The round-robin pairs ``(i, j)``, ``i < j``, of ``n`` entrants."""
    return tuple((i, j) for i in range(n) for j in range(i + 1, n))


def game_key(seed: int, i: int, j: int, index: int) -> Key:
    """The key of game ``index`` between entrants ``i`` and ``j``."""
    return fold_in(fold_in(fold_in(key(seed), i), j), index)


def schedule(
    game: Game[Any, Any], agents: Sequence[Agent], games: int, seed: int
) -> tuple[GameJob, ...]:
    """Every game of a round robin: ``games`` per pair, seats alternating.

    Args:
        game: The game.
        agents: The entrants (two or more).
        games: Games per pair.
        seed: The tournament's seed.

    Raises:
        ValueError: with fewer than two entrants or no games.
        SpecError: at once, if an entrant cannot play the game (the perfect player on a game too
            large to solve).
    """
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if games < 1:
        raise ValueError(f"games per pair must be at least 1, got {games}")
    for a in agents:
        check_game(a, game)
    jobs = []
    for i, j in pairs(len(agents)):
        for g in range(games):
            first, second = (i, j) if g % 2 == 0 else (j, i)
            jobs.append(
                GameJob(
                    game,
                    (agents[first], agents[second]),
                    (first, second),
                    g,
                    game_key(seed, i, j, g),
                )
            )
    return tuple(jobs)


def play_job(job: GameJob) -> GameResult:
    """Play one scheduled game (a pure function: same job, same result, in any process)."""
    tables = tuple(a.initial_table(job.game, seat) for seat, a in enumerate(job.agents))
    ep = play(job.game, job.agents, tables, job.key)
    return GameResult(job.entrants, job.index, ep.returns, ep.moves, ep.resigned)


@frozen
class PairResult:
    """One pair's games from the first entrant's side.

    Attributes:
        first: The first entrant's number.
        second: The second entrant's number.
        tally: Wins, draws and losses of ``first`` against ``second``.
        score_interval: The 95% Wilson interval of ``first``'s score (a draw counts half).
    """

    first: int
    second: int
    tally: Tally
    score_interval: tuple[float, float]


@frozen
class Rating:
    """One entrant's Elo rating.

    Attributes:
        entrant: The entrant's number.
        elo: The maximum-likelihood rating, the entrants' mean being 0.
        interval: The 95% bootstrap interval.
        tally: Wins, draws and losses over all its games.
    """

    entrant: int
    elo: float
    interval: tuple[float, float]
    tally: Tally


@frozen
class Standings:
    """The tournament's figures."""

    pairs: tuple[PairResult, ...]
    ratings: tuple[Rating, ...]


def pair_results(n: int, results: Sequence[GameResult]) -> tuple[PairResult, ...]:
    """W/D/L of every pair from the lower-numbered entrant's side, with Wilson intervals."""
    out = []
    for i, j in pairs(n):
        outcomes = [r.outcome_for(i) for r in results if set(r.entrants) == {i, j}]
        t = _tally(outcomes)
        out.append(PairResult(i, j, t, wilson(t.wins + 0.5 * t.draws, t.games)))
    return tuple(out)


def _tally(outcomes: Sequence[int]) -> Tally:
    return Tally(
        sum(1 for o in outcomes if o > 0),
        sum(1 for o in outcomes if o == 0),
        sum(1 for o in outcomes if o < 0),
    )


def elo(n: int, games: Sequence[tuple[int, int, float]], prior: float = 1.0) -> tuple[float, ...]:
    """Maximum-likelihood Bradley–Terry ratings on the Elo scale, draws counting half.

    Each entrant also plays ``prior`` virtual drawn games against a virtual entrant of rating 0,
    so an entrant that won (or lost) every game still gets a finite rating. Solved by Hunter's
    minorisation–maximisation iteration; the ratings are shifted so that their mean is 0.

    Args:
        n: The number of entrants.
        games: ``(a, b, score of a)`` per game, the score being 1, 0.5 or 0.
        prior: Virtual drawn games per entrant (0 = plain maximum likelihood).

    Returns:
        The ratings, ``400·log10`` of the Bradley–Terry strengths.
    """
    score = [0.5 * prior] * n
    count = [[0.0] * n for _ in range(n)]
    for a, b, s in games:
        score[a] += s
        score[b] += 1.0 - s
        count[a][b] += 1.0
        count[b][a] += 1.0
    gamma = [1.0] * n
    for _ in range(2000):
        new = []
        for i in range(n):
            denom = prior / (gamma[i] + 1.0)
            for j in range(n):
                if count[i][j]:
                    denom += count[i][j] / (gamma[i] + gamma[j])
            new.append(score[i] / denom if denom > 0 else gamma[i])
        delta = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if delta < 1e-10:
            break
    ratings = [400.0 * math.log10(g) for g in gamma]
    mean = sum(ratings) / n
    return tuple(r - mean for r in ratings)


def standings(
    n: int, results: Sequence[GameResult], seed: int = 0, bootstrap: int = 200
) -> Standings:
    """Per-pair W/D/L with Wilson intervals and Elo ratings with 95% bootstrap intervals.

    The bootstrap resamples each pair's games with replacement (``bootstrap`` times, from keys
    derived from ``seed``) and takes the 2.5th and 97.5th percentiles of each entrant's rating.
    """
    games = [_scored(r) for r in results]
    ratings = elo(n, games)
    by_pair: dict[tuple[int, int], list[tuple[int, int, float]]] = {}
    for g in games:
        by_pair.setdefault((min(g[0], g[1]), max(g[0], g[1])), []).append(g)
    samples: list[tuple[float, ...]] = []
    for b in range(bootstrap):
        rng = generator(fold_in(key(seed), 0xB00 + b))
        resampled: list[tuple[int, int, float]] = []
        for pair_games in by_pair.values():
            m = len(pair_games)
            resampled.extend(pair_games[int(rng.random() * m)] for _ in range(m))
        samples.append(elo(n, resampled))
    out = []
    for i in range(n):
        outcomes = [r.outcome_for(i) for r in results if i in r.entrants]
        column = sorted(s[i] for s in samples)
        interval = (
            (_percentile(column, 0.025), _percentile(column, 0.975))
            if column
            else (ratings[i], ratings[i])
        )
        out.append(Rating(i, ratings[i], interval, _tally(outcomes)))
    return Standings(pair_results(n, results), tuple(out))


def _scored(r: GameResult) -> tuple[int, int, float]:
    a, b = r.entrants
    o = r.outcome_for(a)
    return (a, b, 1.0 if o > 0 else 0.5 if o == 0 else 0.0)


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    if len(sorted_values) == 1:
        return sorted_values[0]
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)

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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, overload

from attrs import frozen

from purestate.core.agent import Agent, check_game
from purestate.core.episode import play
from purestate.core.game import Game
from purestate.core.keys import Key, fold_in, generator, key
from purestate.core.learning import Tally, wilson

if TYPE_CHECKING:  # numpy is imported when standings are computed, not with the CLI
    import numpy as np


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


@frozen
class Schedule(Sequence[GameJob]):
    """Every game of a round robin, as a sequence built on demand.

    Job ``k`` is made when it is asked for (``schedule[k]``, a slice, iteration), so a schedule of
    any length costs nothing to hold; an executor takes it in slices.

    Attributes:
        game: The game.
        agents: The entrants.
        games: Games per pair.
        seed: The tournament's seed.
    """

    game: Game[Any, Any]
    agents: tuple[Agent, ...]
    games: int
    seed: int

    def __len__(self) -> int:
        n = len(self.agents)
        return n * (n - 1) // 2 * self.games

    @overload
    def __getitem__(self, index: int) -> GameJob: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[GameJob, ...]: ...

    def __getitem__(self, index: int | slice) -> GameJob | tuple[GameJob, ...]:
        size = len(self)
        if isinstance(index, slice):
            return tuple(self._job(k) for k in range(*index.indices(size)))
        k = index + size if index < 0 else index
        if not 0 <= k < size:
            raise IndexError(f"game {index} of a schedule of {size}")
        return self._job(k)

    def _job(self, k: int) -> GameJob:
        pair, g = divmod(k, self.games)
        i, j = _pair(len(self.agents), pair)
        first, second = (i, j) if g % 2 == 0 else (j, i)
        agents = self.agents
        return GameJob(
            self.game, (agents[first], agents[second]), (first, second), g,
            game_key(self.seed, i, j, g),
        )  # fmt: skip


def _pair(n: int, p: int) -> tuple[int, int]:
    """The ``p``-th pair of ``pairs(n)``, without listing them."""
    i = 0
    while p >= n - 1 - i:
        p -= n - 1 - i
        i += 1
    return i, i + 1 + p


def schedule(game: Game[Any, Any], agents: Sequence[Agent], games: int, seed: int) -> Schedule:
    """Every game of a round robin: ``games`` per pair, seats alternating.

    Pairs come in the order of ``pairs``, and a pair's games in order; entrant ``i`` of pair
    ``(i, j)`` moves first in its even-numbered games.

    Args:
        game: The game.
        agents: The entrants (two or more).
        games: Games per pair.
        seed: The tournament's seed.

    Returns:
        The games, as a sequence that makes each job when asked (nothing is built here).

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
    return Schedule(game, tuple(agents), games, seed)


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
    by_pair: dict[tuple[int, int], list[int]] = {}
    for r in results:
        i = min(r.entrants)
        by_pair.setdefault((i, max(r.entrants)), []).append(r.outcome_for(i))
    out = []
    for i, j in pairs(n):
        t = _tally(by_pair.get((i, j), ()))
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
    so an entrant that won (or lost) every game still gets a finite rating. The likelihood is
    maximised by Newton's method (a few steps; see ``_ratings``); the ratings are shifted so
    that their mean is 0.

    Args:
        n: The number of entrants.
        games: ``(a, b, score of a)`` per game, the score being 1, 0.5 or 0.
        prior: Virtual drawn games per entrant (0 = plain maximum likelihood).

    Returns:
        The ratings, ``400·log10`` of the Bradley–Terry strengths.
    """
    import numpy as np

    points = np.full(n, 0.5 * prior)
    count = np.zeros((n, n))
    for a, b, s in games:
        points[a] += s
        points[b] += 1.0 - s
        count[a, b] += 1.0
        count[b, a] += 1.0
    (ratings,) = _ratings(points[None, :], count, prior)
    return ratings


_ELO = 400.0 / math.log(10.0)
_MAX_STEP = 2.0  # natural-log units: a Newton step moves no rating more than about 350 Elo
_TOLERANCE = 1e-10  # natural-log units: about 2e-8 Elo


def _ratings(
    points: np.ndarray[Any, Any], count: np.ndarray[Any, Any], prior: float
) -> list[tuple[float, ...]]:
    """``elo`` for each row of ``points`` (each entrant's points, the prior's half included), all
    with the same games per pair ``count``, solved together.

    The log-likelihood is concave in the log-strengths ``t`` (strictly, with a prior), so Newton's
    method finds its maximum in a few steps, each one linear solve per row: the work is bounded
    by ``rows × n³`` per step however many games were played. Steps are shortened to at most
    ``_MAX_STEP`` so that a lopsided start cannot overshoot. Without a prior the likelihood does
    not change when every rating (of a group that played only among itself) moves together; the
    step is then the smallest one, which leaves those sums as they are.
    """
    import numpy as np

    rows, n = points.shape
    t = np.zeros((rows, n))
    for _ in range(100):
        # p[r, i, j]: the chance that i beats j; q[r, i]: that i beats the prior's virtual entrant
        with np.errstate(over="ignore"):  # a far weaker entrant: exp overflows, p is 0
            p = 1.0 / (1.0 + np.exp(t[:, None, :] - t[:, :, None]))
            q = 1.0 / (1.0 + np.exp(-t))
        gradient = points - np.sum(count * p, axis=2) - prior * q
        curvature = count * p * (1.0 - p)
        hessian = (
            curvature - np.eye(n) * (np.sum(curvature, axis=2) + prior * q * (1.0 - q))[:, :, None]
        )
        if prior > 0:
            step = np.linalg.solve(hessian, -gradient[:, :, None])[:, :, 0]
        else:  # the smallest step: nothing moves along the directions the games leave free
            step = (np.linalg.pinv(hessian) @ -gradient[:, :, None])[:, :, 0]
        largest = float(np.max(np.abs(step)))
        if largest > _MAX_STEP:
            step *= _MAX_STEP / largest
        t = t + step
        if largest < _TOLERANCE:
            break
    out = []
    for row in t:
        ratings = _ELO * (row - np.mean(row))
        out.append(tuple(float(x) for x in ratings))
    return out


BOOTSTRAP = 200
"""Resamples of the Elo bootstrap."""

BOOTSTRAP_BATCH = 20
"""Resamples solved together (and reported to ``progress`` together)."""


def standings(
    n: int,
    results: Sequence[GameResult],
    seed: int = 0,
    bootstrap: int = BOOTSTRAP,
    progress: Callable[[int, int], None] | None = None,
) -> Standings:
    """Per-pair W/D/L with Wilson intervals and Elo ratings with 95% bootstrap intervals.

    The bootstrap resamples each pair's games with replacement (``bootstrap`` times, from keys
    derived from ``seed``) and takes the 2.5th and 97.5th percentiles of each entrant's rating.

    Args:
        n: The number of entrants.
        results: Every game's result.
        seed: The tournament's seed.
        bootstrap: How many resamples.
        progress: Called with (resamples done, ``bootstrap``) as the bootstrap goes (the shell's
            progress bar); it must not change anything the standings depend on.
    """
    import numpy as np

    games = [_scored(r) for r in results]
    ratings = elo(n, games)
    by_pair: dict[tuple[int, int], list[tuple[int, int, float]]] = {}
    for g in games:
        by_pair.setdefault((min(g[0], g[1]), max(g[0], g[1])), []).append(g)
    # the games in pair order, and where each pair's run of them starts
    ordered = [g for pair_games in by_pair.values() for g in pair_games]
    sizes = np.array([len(p) for p in by_pair.values()], dtype=np.int64)
    starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
    spans = np.repeat(sizes, sizes)
    first = np.array([g[0] for g in ordered], dtype=np.int64)
    second = np.array([g[1] for g in ordered], dtype=np.int64)
    points = np.array([g[2] for g in ordered])
    count = np.zeros((n, n))
    np.add.at(count, (first, second), 1.0)
    np.add.at(count, (second, first), 1.0)
    samples: list[tuple[float, ...]] = []
    for lo in range(0, bootstrap, BOOTSTRAP_BATCH):
        rows = range(lo, min(bootstrap, lo + BOOTSTRAP_BATCH))
        scores = np.array([_resampled_points(n, seed, b, starts, spans, first, second, points)
                           for b in rows])  # fmt: skip
        samples.extend(_ratings(scores.reshape(len(rows), n), count, 1.0))
        if progress is not None:
            progress(len(samples), bootstrap)
    out = []
    for i, t in enumerate(_tallies(n, results)):
        column = sorted(s[i] for s in samples)
        interval = (
            (_percentile(column, 0.025), _percentile(column, 0.975))
            if column
            else (ratings[i], ratings[i])
        )
        out.append(Rating(i, ratings[i], interval, t))
    return Standings(pair_results(n, results), tuple(out))


def _resampled_points(
    n: int, seed: int, b: int, starts: np.ndarray[Any, Any], spans: np.ndarray[Any, Any],
    first: np.ndarray[Any, Any], second: np.ndarray[Any, Any], points: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:  # fmt: skip
    """Each entrant's points (``1 / 2`` for the prior included) in bootstrap resample ``b``.

    Game ``k`` of a pair of ``m`` games is replaced by the pair's game ``int(u * m)``, ``u``
    being the ``k``-th draw of the resample's generator over all games in pair order: the
    generator's Mersenne Twister state is handed to NumPy's, which draws the same numbers.
    """
    import numpy as np

    state = generator(fold_in(key(seed), 0xB00 + b)).getstate()[1]
    twister = np.random.RandomState()
    twister.set_state(("MT19937", np.array(state[:-1], dtype=np.uint32), state[-1], 0, 0.0))
    u = twister.random_sample(len(points))
    drawn = starts + (u * spans).astype(np.int64)
    got = np.bincount(first[drawn], points[drawn], minlength=n)
    got += np.bincount(second[drawn], 1.0 - points[drawn], minlength=n)
    # points are halves: every sum is exact, in any order
    return 0.5 + got


def _tallies(n: int, results: Sequence[GameResult]) -> list[Tally]:
    outcomes: list[list[int]] = [[] for _ in range(n)]
    for r in results:
        for i in set(r.entrants):
            outcomes[i].append(r.outcome_for(i))
    return [_tally(o) for o in outcomes]


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

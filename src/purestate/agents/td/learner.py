"""What the tabular learners share: a table of move values by position, its greedy policy, its
file form and the self-play entry points (``TabularLearner``); and, for Q-learning and SARSA(λ),
the options, ε-greedy acting and per-seat learning (``TDLearner``).

Everything that changes while learning lives in the table (values, the episode count that drives
the exploration schedule, the notebook learner's visit counts), so ``act`` is a pure function of
the table, the state and the key. ``learn`` returns a new table and never changes its input.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from attrs import field

from purestate.agents.td.policy import epsilon_greedy, explore_threshold, explores
from purestate.agents.td.selfplay import fold_selfplay
from purestate.agents.td.tables import (
    QTable,
    Representation,
    Work,
    counted,
    representation_for,
    table_from_json,
    table_to_json,
)
from purestate.core.agent import Decision
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.hooks import score_of, unscored_of
from purestate.core.keys import Key, bits
from purestate.core.spec import build, format_spec


class TabularLearner:
    """A learner whose table maps positions to the values of their moves.

    Subclasses declare ``name``, ``make_representation`` (how the table represents positions),
    ``act`` and ``learn``, and may override ``selfplay_loop`` (how a run of self-play games is
    computed: the plain fold by default, or a fused loop that computes the same table);
    ``floor`` is the value below which ``greedy`` sees nothing.
    """

    name: ClassVar[str] = ""
    floor: ClassVar[float] = float("-inf")
    learns = True

    @property
    def spec(self) -> str:
        """The spec string that rebuilds this learner."""
        return format_spec(self.name, self)

    def make_representation(self, game: Game[Any, Any]) -> Representation:
        """How this learner's table represents ``game``'s positions (computed once per learner
        and game)."""
        raise NotImplementedError

    def representation(self, game: Game[Any, Any]) -> Representation:
        """``make_representation``, memoised."""
        return representation_for(self, game)

    def initial_table(self, game: Game[Any, Any], seat: int) -> QTable:
        """An empty table (unseen values are 0)."""
        return QTable()

    def move_values(self, game: Game[Any, Any], table: QTable, state: Any) -> dict[Any, float]:
        """The table's value of each legal move in ``state`` (0 for unseen ones)."""
        rep, g = self.representation(game).of(state)
        vals = table.q.get(rep)
        moves = game.legal(state)
        if vals is None:
            return dict.fromkeys(moves, 0.0)
        rep_moves = game.legal(rep)
        return {m: vals[rep_moves.index(game.transform_move(m, g))] for m in moves}

    def positions(self, game: Game[Any, Any], table: QTable) -> list[Any]:
        """The positions the table covers (as it represents them: canonical and/or unscored)."""
        return list(table.q.keys())

    def greedy(self, game: Game[Any, Any], table: QTable, state: Any) -> Any:
        """The table's best move in ``state`` (the first of equals in ``game.legal`` order)."""
        best_move = None
        best = self.floor
        for m, v in self.move_values(game, table, state).items():
            if v > best:
                best, best_move = v, m
        if best_move is None:  # every value at or below the floor: the first move
            best_move = game.legal(state)[0]
        return best_move

    def act(self, game: Game[Any, Any], table: QTable, state: Any, key: Key) -> Decision[Any]:
        """The learner's move in ``state`` (a pure function of the table, the state, the key)."""
        raise NotImplementedError

    def learn(self, game: Game[Any, Any], table: QTable, episode: Episode, seat: int) -> QTable:
        """A new table updated from the moves ``seat`` played in ``episode``."""
        raise NotImplementedError

    # -- self-play ---------------------------------------------------------------------------

    def selfplay(
        self, game: Game[Any, Any], table: QTable, key: Key, games: int, start: int = 0
    ) -> QTable:
        """The table after ``games`` games of self-play on one shared table.

        Exactly the fold ``train(game, (self, self), (table, table), key, learning=(True, True),
        shared=True, start=start)`` computes (same games, same moves, same values; a test checks
        it), run as one loop on a local dict instead of one persistent map per move where the
        learner has one: the fast path for long training runs and the benchmark.
        """
        return self.selfplay_loop(game, table, key, games, start, None)

    def selfplay_games(
        self, game: Game[Any, Any], table: QTable, key: Key, games: int, start: int = 0
    ) -> tuple[QTable, tuple[Episode, ...]]:
        """``selfplay``, and the games it played (what ``purestate selfplay`` logs)."""
        played: list[Episode] = []
        return self.selfplay_loop(game, table, key, games, start, played), tuple(played)

    selfplay_loop = fold_selfplay
    """How ``selfplay`` computes games ``start`` .. ``start + games - 1`` from ``table``, each
    appended to ``played`` (unless None), and the table after the last: a loop of
    ``purestate.agents.td.selfplay``'s shape, called as a method. The fold itself here (a learner
    that learns as it goes, as the notebook's does from its visit counts, needs it); a learner
    with a faster loop that computes the same table names it instead."""

    # -- persistence -------------------------------------------------------------------------

    @property
    def table_format(self) -> str:
        """``purestate.qtable/1``."""
        return "purestate.qtable/1"

    def table_to_json(self, game: Game[Any, Any], table: QTable) -> Any:
        """``{"keys": ..., "episodes": [..], "q": {position: {move: value}}, "visits": ...}``."""
        return table_to_json(game, table, self.representation(game).kind)

    def table_from_json(self, game: Game[Any, Any], data: Any) -> QTable:
        """The table from ``table_to_json``'s data (positions decoded, moves back to ints).

        A valid table represents positions the way this learner does (``keys``); its ``q`` maps
        positions where the game is not over to ``{move: value}`` with legal moves and finite
        values within ``±Q_LIMIT`` (a move left out is worth 0); ``visits`` maps positions to
        counts and ``per_seat_games`` holds two counts, counts being whole numbers from 0 to
        ``COUNT_LIMIT``.

        Raises:
            ValueError: one line naming the first bad position, move or field.
        """
        return table_from_json(game, data, self.representation(game).kind)


def option(default: Any, tp: Any) -> Any:
    """An attrs field for an option of type ``tp`` (a ``Literal`` too) with ``default``."""
    return field(default=default, type=tp)


def td_options(alpha: float, **own: Any) -> dict[str, Any]:
    """The options Q-learning and SARSA(λ) share (documented in ``TDLearner``) as attrs fields, in
    the order they list them: ``alpha`` (at the learner's own default) and ``gamma``, then the
    learner's ``own`` fields, then the rest. A learner passes them to ``@frozen(these=...)``."""
    return {
        "alpha": option(alpha, float),
        "gamma": option(1.0, float),
        **own,
        "epsilon": option(0.5, float),
        "epsilon_end": option(0.1, float),
        "schedule": option("linear", Literal["constant", "linear"]),
        "episodes": option(10_000, int),
        "symmetric": option(True, bool),
        "rewards": option("score", Literal["score", "end"]),
        "bootstrap": option("negamax", Literal["negamax", "own"]),
    }


class TDLearner(TabularLearner):
    """What Q-learning and SARSA(λ) share: options, keys, ε-greedy acting, per-seat learning.

    Attributes:
        alpha: Step size.
        gamma: Discount per move (negamax) or per own decision (own).
        epsilon: Exploration rate (the start of a linear schedule).
        epsilon_end: Where the linear schedule ends.
        schedule: ``linear`` (epsilon to epsilon_end over ``episodes`` games, then constant) or
            ``constant`` (epsilon throughout).
        episodes: The schedule's length in training games.
        symmetric: Key the table by canonical positions.
        rewards: ``score`` (per point, e.g. per box) or ``end`` (the return only).
        bootstrap: ``negamax`` (sign flip when the turn passes) or ``own`` (own next decision).
    """

    alpha: float
    gamma: float
    epsilon: float
    epsilon_end: float
    schedule: Literal["constant", "linear"]
    episodes: int
    symmetric: bool
    rewards: Literal["score", "end"]
    bootstrap: Literal["negamax", "own"]

    def _check(self) -> None:
        if not 0.0 < self.alpha <= 1.0:
            raise ValueError(f"alpha must be in (0, 1]; got {self.alpha}")
        if not 0.0 <= self.gamma <= 1.0:
            raise ValueError(f"gamma must be in [0, 1]; got {self.gamma}")
        for name, v in (("epsilon", self.epsilon), ("epsilon_end", self.epsilon_end)):
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1]; got {v}")
        if self.episodes < 1:
            raise ValueError(f"episodes must be at least 1; got {self.episodes}")

    @classmethod
    def _from_params(cls, name: str, params: dict[str, str]) -> Any:
        # ``preset=none`` named the plain learner when a preset picked the notebook's; still
        # accepted, and means nothing
        if params.get("preset") == "none":
            params = {k: v for k, v in params.items() if k != "preset"}
        return build(cls, name, params)

    def make_representation(self, game: Game[Any, Any]) -> Representation:
        """Unscored positions where rewards are per point on a margin game, canonical ones when
        ``symmetric``."""
        unscored = unscored_of(game)
        # per-point rewards on a margin game: the future does not depend on the score so far
        if unscored is not None and (self.rewards != "score" or game.spec.outcomes is not None):
            unscored = None
        return Representation(game, unscored, self.symmetric)

    def epsilon_at(self, episodes: int) -> float:
        """The exploration rate after ``episodes`` training games."""
        if self.schedule == "constant":
            return self.epsilon
        frac = min(1.0, episodes / self.episodes)
        return self.epsilon + (self.epsilon_end - self.epsilon) * frac

    def act(self, game: Game[Any, Any], table: QTable, state: Any, key: Key) -> Decision[Any]:
        """ε-greedy on the table (ties broken at random)."""
        moves = game.legal(state)
        x = bits(key)
        threshold = explore_threshold(self.epsilon_at(table.episodes))
        rep, g, row = None, 0, None
        if not explores(x, threshold):  # only a greedy move needs the table's position
            rep, g = self.representation(game).of(state)
            row = table.q.get(rep)
        i, greedy = epsilon_greedy(x, threshold, len(moves), row)
        if not greedy:
            return Decision(moves[i])
        rep_move = game.legal(rep)[i]
        return Decision(game.transform_move(rep_move, game.inverse(g)) if g else rep_move)

    def potentials(self, game: Game[Any, Any], ep: Episode) -> list[float]:
        """Player 0's running margin along the episode; the last entry is the return."""
        score = score_of(game) if self.rewards == "score" else None
        out = [score(s)[0] if score is not None else 0.0 for s in ep.states[:-1]]
        out.append(ep.returns[0])
        return out

    def learn(self, game: Game[Any, Any], table: QTable, episode: Episode, seat: int) -> QTable:
        """A new table updated from the moves ``seat`` played in ``episode``."""
        if not episode.moves:
            return table
        work = Work(table.q, self.representation(game), game)
        self.update(game, work, episode, seat)
        return QTable(work.persist(), table.visits, counted(table.games, seat))

    def update(self, game: Game[Any, Any], work: Work, ep: Episode, seat: int) -> None:
        """Change ``work``'s rows by what ``seat`` learns from ``ep`` (the learner's rule)."""
        raise NotImplementedError

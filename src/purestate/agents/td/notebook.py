"""The dots-and-boxes notebook's Q-learner (``qlearning_notebook``), rebuilt faithfully, flaws
included, so that users can compare (see ``docs/agents/td.md``).

α 0.2, γ 0.8, +100 / -100 per box to the capturer / to the opponent's last move, +200 / -200 /
+50 on the last move for a win / loss / tie (each overwriting that move's reward), a table keyed
by the drawing alone with **no sign flip** (it bootstraps on the value of the position after its
own move as if it were its own), updates in reverse order after each game, and exploration
random → least-visited → greedy over the first 10% / next 40% / last 50% of ``episodes`` games.

``qlearning:preset=notebook`` and the older ``qlearning:preset=seed`` build this learner too.
"""

from __future__ import annotations

from typing import Any, ClassVar

from attrs import frozen

from purestate.agents.td.learner import TabularLearner
from purestate.agents.td.tables import (
    COUNT_LIMIT,
    Q_LIMIT,
    QTable,
    Representation,
    Work,
    clamp,
    counted,
)
from purestate.core.agent import Decision
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.hooks import score_of, unscored_of
from purestate.core.keys import Key, choice
from purestate.core.spec import build

_NOTEBOOK_FLOOR = -2000.0  # the notebook's "negative infinity" when it looks for the best value
_NOTEBOOK_ALPHA = 0.2  # the notebook's LEARNING_RATE
_NOTEBOOK_GAMMA = 0.8  # the notebook's DISCOUNT_RATE
NOTEBOOK_PRESET = "notebook"
"""The ``qlearning`` preset that names this learner (its older names are in ``core.history``)."""


@frozen
class QLearningNotebook(TabularLearner):
    """The notebook's Q-learner (``qlearning_notebook``): its constants, its rewards, its
    schedule; ``alpha``, ``gamma`` and ``symmetric`` are fixed (read-only) and only the length of
    the schedule is an option.

    Attributes:
        episodes: The planned number of training games: random moves over the first 10%,
            least-visited over the next 40%, greedy after.
    """

    episodes: int = 10_000

    name = "qlearning_notebook"
    floor = _NOTEBOOK_FLOOR
    alpha: ClassVar[float] = _NOTEBOOK_ALPHA
    gamma: ClassVar[float] = _NOTEBOOK_GAMMA
    symmetric: ClassVar[bool] = False

    def __attrs_post_init__(self) -> None:
        if self.episodes < 1:
            raise ValueError(f"episodes must be at least 1; got {self.episodes}")

    @classmethod
    def from_params(cls, params: dict[str, str]) -> QLearningNotebook:
        """Build from spec options (only ``episodes``)."""
        made: QLearningNotebook = build(cls, cls.name, params)
        return made

    def make_representation(self, game: Game[Any, Any]) -> Representation:
        """The drawing alone, whatever the rewards, no symmetry."""
        return Representation(game, unscored_of(game), False)

    def act(self, game: Game[Any, Any], table: QTable, state: Any, key: Key) -> Decision[Any]:
        """Random, then the least-visited next position, then greedy (by the table's games)."""
        count = table.episodes + 1  # the notebook counts games from 1
        moves = game.legal(state)
        if count < self.episodes / 10:
            return Decision(choice(key, moves))
        if count < self.episodes / 2:
            # 'simple': the move whose next position has been updated least often
            representation = self.representation(game)
            best_move, fewest = moves[0], 1_000_000
            for m in moves:
                n = table.visits.get(representation.of(game.step(state, m))[0], 0)
                if n < fewest:
                    best_move, fewest = m, n
            return Decision(best_move)
        return Decision(self.greedy(game, table, state))

    def learn(self, game: Game[Any, Any], table: QTable, episode: Episode, seat: int) -> QTable:
        """A new table updated from the moves ``seat`` played in ``episode``, last first."""
        if not episode.moves:
            return table
        ep = episode
        score = score_of(game)
        memory: tuple[list[list[Any]], list[list[Any]]] = ([], [])
        for t, (s, m, p) in enumerate(zip(ep.states, ep.moves, ep.movers, strict=False)):
            nxt = ep.states[t + 1]
            memory[p].append([s, m, nxt, 0.0])
            if score is not None and score(nxt)[p] > score(s)[p]:
                memory[p][-1][3] = 100.0
                if memory[1 - p]:
                    memory[1 - p][-1][3] = -100.0
        r = ep.returns
        for p in (0, 1):
            if memory[p]:
                memory[p][-1][3] = 50.0 if r[0] == r[1] else 200.0 if r[p] > r[1 - p] else -200.0
        work = Work(table.q, self.representation(game), game)
        counts: dict[Any, int] = {}
        alpha, gamma = _NOTEBOOK_ALPHA, _NOTEBOOK_GAMMA
        for s, m, nxt, reward in reversed(memory[seat]):
            row, i = work.slot(s, m)
            nxt_best = 0.0 if game.is_over(nxt) else work.best(nxt)
            v = (1 - alpha) * row[i] + alpha * (reward + gamma * nxt_best)
            row[i] = v if -Q_LIMIT <= v <= Q_LIMIT else clamp(v)
            position = work.of(s)[0]
            counts[position] = min(
                COUNT_LIMIT, counts.get(position, table.visits.get(position, 0)) + 1
            )
        return QTable(work.persist(), table.visits.update(counts), counted(table.games, seat))

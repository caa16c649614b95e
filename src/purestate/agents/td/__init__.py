"""Tabular temporal-difference learners: Q-learning (``qlearning``), SARSA(λ) (``sarsa``) and the
dots-and-boxes notebook's Q-learner (``qlearning_notebook``).

Q-learning and SARSA(λ) are generic over games and correct for two-player games in which the same
player may move twice in a row (dots and boxes, Xtreme tic-tac-toe's bonus move). Values are
always from the point of view of the player who moves in the position, and two ways of
bootstrapping are offered (reference §5.4):

``bootstrap=negamax`` (default)
    One table holds minimax values for whoever is to move. The target of a move is its reward
    plus the discounted value of the next position, **negated only when the turn passes** to the
    other player (as OpenSpiel's C++ tabular solvers do). Both seats' moves must reach the table,
    so train it by self-play on one shared table (``train(..., shared=True)`` calls ``learn`` once
    per seat; each call learns that seat's moves).
``bootstrap=own``
    Each seat bootstraps at **its own next decision**, treating the opponent as part of the
    environment (as OpenSpiel's Python ``QLearner`` does). Use it to learn against a fixed
    opponent; it also works on a shared table.

Rewards: ``rewards=score`` (default) pays each move the change in the mover's running margin
(``game.score`` — boxes in dots and boxes; games without a running score pay only at the end) and
the rest of the return at the end, so a game's rewards always add up to its return.
``rewards=end`` pays only the return at the end. When rewards are per point and the game's returns
are margins, the mover's future depends only on the drawing, not on the score so far; the table is
then keyed by ``game.unscored(state)`` where the game offers it (dots and boxes: 4,096 line sets on
2×2 instead of every history of scores).

``symmetric=true`` keys the table by the canonical form of the position and maps moves through
the symmetry (570 keys on 2×2 dots and boxes, 765 in tic-tac-toe).

The modules, one idea each: ``tables`` (the table, how it represents positions, its bounds and
file form), ``policy`` (ε-greedy selection), ``backup`` (the bootstrapping chain and the
Q-learning backup), ``selfplay`` (the self-play fold, and the fused loop of any learner with an
``update``, which SARSA(λ) uses), ``learner`` (what the learners share), ``qlearning`` (with its
own fused loop), ``sarsa`` and ``notebook`` (the three agents). Each learner picks its self-play
loop by overriding ``selfplay_loop``; ``selfplay`` imports no learner.
"""

from purestate.agents.td.learner import TabularLearner, TDLearner
from purestate.agents.td.notebook import QLearningNotebook
from purestate.agents.td.qlearning import QLearning
from purestate.agents.td.sarsa import Sarsa
from purestate.agents.td.tables import COUNT_LIMIT, Q_LIMIT, QTable, Values

__all__ = [
    "COUNT_LIMIT",
    "Q_LIMIT",
    "QLearning",
    "QLearningNotebook",
    "QTable",
    "Sarsa",
    "TDLearner",
    "TabularLearner",
    "Values",
]

"""Tabular Q-learning (``qlearning``): one-step targets swept backwards through the episode."""

from __future__ import annotations

from typing import Any, Literal

from attrs import frozen

from purestate.agents.td.backup import q_backups
from purestate.agents.td.learner import TDLearner
from purestate.agents.td.notebook import NOTEBOOK_PRESETS, QLearningNotebook
from purestate.agents.td.tables import Work
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.spec import SpecError


@frozen
class QLearning(TDLearner):
    """Tabular Q-learning (``qlearning``), one-step targets swept backwards through the episode.

    ``qlearning:preset=notebook`` (or its older name ``preset=seed``) builds the notebook's
    learner, ``qlearning_notebook``.

    Its options are the ones it shares with SARSA(λ), documented in ``TDLearner``.
    """

    alpha: float = 0.8
    gamma: float = 1.0
    epsilon: float = 0.5
    epsilon_end: float = 0.1
    schedule: Literal["constant", "linear"] = "linear"
    episodes: int = 10_000
    symmetric: bool = True
    rewards: Literal["score", "end"] = "score"
    bootstrap: Literal["negamax", "own"] = "negamax"

    name = "qlearning"
    selfplay_loop = "qlearning"

    def __attrs_post_init__(self) -> None:
        self._check()

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Any:
        """Build from spec options; ``preset=notebook`` (alias ``seed``) is the notebook's
        learner, ``qlearning_notebook``, which keeps only ``episodes``."""
        preset = params.get("preset")
        if preset in NOTEBOOK_PRESETS:
            rest = {k: v for k, v in params.items() if k not in ("preset", "episodes")}
            if rest:
                raise SpecError(
                    f"qlearning:preset={preset} (the notebook's learner, qlearning_notebook) "
                    f"fixes every option but 'episodes'; remove {', '.join(sorted(rest))}"
                )
            return QLearningNotebook.from_params({k: v for k, v in params.items() if k != "preset"})
        if preset not in (None, "none"):
            raise SpecError(
                f"qlearning option 'preset' must be one of none, notebook (or seed); got {preset!r}"
            )
        made: QLearning = cls._from_params("qlearning", params)
        return made

    def update(self, game: Game[Any, Any], work: Work, ep: Episode, seat: int) -> None:
        """One-step Q-learning backups of ``seat``'s moves, last move first."""
        states, moves = ep.states, ep.moves
        n = len(moves)
        slots = [0] * n

        def write(t: int) -> list[float]:
            row, slots[t] = work.slot(states[t], moves[t])
            return row

        q_backups(
            ep.movers,
            self.potentials(game, ep),
            seat,
            self.bootstrap == "negamax",
            self.alpha,
            self.gamma,
            [None] * n,
            slots,
            lambda t: work.best(states[t]),
            write,
        )

"""Tabular SARSA(λ) (``sarsa``) with eligibility traces."""

from __future__ import annotations

from typing import Any, Literal

from attrs import frozen

from purestate.agents.td.backup import chain
from purestate.agents.td.learner import TDLearner
from purestate.agents.td.notebook import NOTEBOOK_PRESETS
from purestate.agents.td.tables import Q_LIMIT, Work, clamp
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.spec import SpecError


@frozen
class Sarsa(TDLearner):
    """Tabular SARSA(λ) (``sarsa``): the textbook update with eligibility traces.

    Per step: ``δ = r + γ·Q(s', a') - Q(s, a)`` (``Q`` of a finished game is 0; with negamax
    bootstrapping ``Q(s', a')`` is negated when the turn passes), ``e(s, a) += 1`` (accumulating)
    or ``= 1`` (replacing), every traced pair moves by ``α·δ·e``, then traces decay by ``γλ``
    (and change sign when the turn passes). Traces start empty each episode. The episode is
    replayed forwards after it ends; each seat's call changes only that seat's pairs.

    Attributes:
        lam: λ, the trace decay (0 gives one-step SARSA).
        traces: ``accumulating`` or ``replacing``.

    The other options are as in ``QLearning``, documented in ``TDLearner``.
    """

    alpha: float = 0.2
    gamma: float = 1.0
    lam: float = 0.7
    traces: Literal["accumulating", "replacing"] = "replacing"
    epsilon: float = 0.5
    epsilon_end: float = 0.1
    schedule: Literal["constant", "linear"] = "linear"
    episodes: int = 10_000
    symmetric: bool = True
    rewards: Literal["score", "end"] = "score"
    bootstrap: Literal["negamax", "own"] = "negamax"

    name = "sarsa"

    def __attrs_post_init__(self) -> None:
        self._check()
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam must be in [0, 1]; got {self.lam}")

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Sarsa:
        """Build from spec options."""
        if params.get("preset") in NOTEBOOK_PRESETS:
            raise SpecError(
                "the notebook's learner is Q-learning: use qlearning_notebook "
                "(formerly qlearning:preset=seed)"
            )
        made: Sarsa = cls._from_params("sarsa", params)
        return made

    def update(self, game: Game[Any, Any], work: Work, ep: Episode, seat: int) -> None:
        """SARSA(λ) forwards through the episode, changing only ``seat``'s pairs."""
        phi = self.potentials(game, ep)
        n = len(ep.moves)
        states, moves, movers = ep.states, ep.moves, ep.movers
        a, gamma, lam = self.alpha, self.gamma, self.lam
        lo, hi = -Q_LIMIT, Q_LIMIT
        # trace per (row, index), in the point of view of the player of the current step
        traces: dict[tuple[int, int], tuple[list[float], int, float, bool]] = {}
        for t, t2, flip in chain(movers, seat, self.bootstrap == "negamax"):
            mover = movers[t]
            r = (1.0 if mover == 0 else -1.0) * (phi[t2] - phi[t])
            row, i = work.slot(states[t], moves[t])
            nxt = 0.0 if t2 >= n else flip * work.value(states[t2], moves[t2])
            delta = r + gamma * nxt - row[i]
            ident = (id(row), i)
            old = traces.get(ident)
            e = 1.0 if self.traces == "replacing" or old is None else old[2] + 1.0
            traces[ident] = (row, i, e, mover == seat)
            for trow, ti, te, mine in traces.values():
                if mine:
                    v = trow[ti] + a * delta * te
                    trow[ti] = v if lo <= v <= hi else clamp(v)
            decay = gamma * lam * flip
            if decay == 0.0:
                traces.clear()
            else:
                traces = {k: (r_, i_, e_ * decay, m_) for k, (r_, i_, e_, m_) in traces.items()}

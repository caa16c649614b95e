"""Tabular SARSA(λ) (``sarsa``) with eligibility traces."""

from __future__ import annotations

from typing import Any, Literal

from attrs import field, frozen

from purestate.agents.td.backup import chain
from purestate.agents.td.learner import TDLearner, td_options
from purestate.agents.td.notebook import NOTEBOOK_PRESET
from purestate.agents.td.selfplay import update_selfplay
from purestate.agents.td.tables import Q_LIMIT, Work, clamp
from purestate.core import history
from purestate.core.episode import Episode
from purestate.core.game import Game
from purestate.core.spec import SpecError


@frozen(
    these=td_options(
        alpha=0.2,
        # typed by the annotations below (attrs reads them; mypy needs them)
        lam=field(default=0.7),
        traces=field(default="replacing"),
    )
)
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

    lam: float
    traces: Literal["accumulating", "replacing"]

    name = "sarsa"
    selfplay_loop = update_selfplay  # its own update on rows kept for the whole run

    def __attrs_post_init__(self) -> None:
        self._check()
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam must be in [0, 1]; got {self.lam}")

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Sarsa:
        """Build from spec options."""
        # the notebook's presets are Q-learning's: a SARSA run asking for one is pointed there
        if history.preset("qlearning", params.get("preset")) == NOTEBOOK_PRESET:
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

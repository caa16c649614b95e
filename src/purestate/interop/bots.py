"""OpenSpiel's bots as purestate agents, so they sit in our tournaments and evaluations.

``openspiel_mcts`` is OpenSpiel's Python ``MCTSBot`` (UCT with random rollouts) and
``openspiel_random`` its uniform random bot. Each move builds a fresh bot on the pyspiel form of
the game (``as_pyspiel``) and of the state (``to_pyspiel``), with a NumPy ``RandomState`` seeded
from the move's key: the same key gives the same move, and no randomness is shared between
moves or games. OpenSpiel is imported when a bot first moves, so listing the agents needs no
extra.

``openspiel_mcts`` takes the clock timed agents take (``purestate.agents.timing``): a clock with
a ``limit`` (the browser app's server attaches one) bounds each move; the bot checks it before
every simulation and plays the best move of the simulations done when the limit is reached.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import field, frozen

from purestate.agents.timing import Clock, deadline, never
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.game import Game
from purestate.core.keys import Key, bits
from purestate.core.match import hides_moves
from purestate.core.spec import SpecError, format_spec
from purestate.interop.openspiel import format_name, pyspiel_module
from purestate.interop.to_openspiel import as_pyspiel, to_pyspiel


def _random_state(key: Key) -> np.random.RandomState:
    # RandomState takes a 32-bit seed: the key's low half
    return np.random.RandomState(bits(key) & 0xFFFFFFFF)


def _positive(instance: Any, attribute: Any, value: int) -> None:
    if value < 1:
        raise ValueError(f"{attribute.name} must be at least 1; got {value}")


@frozen
class OpenSpielMCTS(FixedPolicy):
    """OpenSpiel's Python ``MCTSBot``: UCT search with random-rollout leaf values.

    Attributes:
        simulations: Simulations per move (OpenSpiel's ``max_simulations``).
        uct_c: The UCT exploration constant.
        rollouts: Random rollouts per leaf evaluation.
        solve: Whether the bot backs up proven wins and losses (OpenSpiel's ``solve``).
    """

    simulations: int = field(default=1000, validator=_positive)
    uct_c: float = 2.0
    rollouts: int = field(default=1, validator=_positive)
    solve: bool = True
    # the injected clock (init argument ``clock``): not an option, not part of equality; only a
    # clock with a ``limit`` bounds the search, which otherwise runs its simulations
    _clock: Clock | None = field(default=None, alias="clock", eq=False, repr=False)

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``openspiel_mcts:simulations=200``."""
        return format_spec("openspiel_mcts", self)

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``, one line) a game of simultaneous rounds: OpenSpiel's MCTS bot
        searches sequential games only."""
        if hides_moves(game):
            raise SpecError(
                f"openspiel_mcts cannot play {format_name(game)}: its rounds are simultaneous, "
                "and OpenSpiel's MCTS bot searches sequential games only"
            )

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table; refuses a game of simultaneous rounds."""
        self.check_game(game)
        return None

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """The move OpenSpiel's MCTS bot picks, with randomness drawn from ``key``; with a clock
        whose limit is reached first, the best move of the simulations done by then."""
        self.check_game(game)
        pyspiel_module()  # one line naming the extra when OpenSpiel is missing
        from open_spiel.python.algorithms import mcts

        rs = _random_state(key)
        args = (
            as_pyspiel(game),
            self.uct_c,
            self.simulations,
            mcts.RandomRolloutEvaluator(self.rollouts, rs),
        )
        passed = deadline(self._clock, 0.0, "openspiel_mcts")
        if passed is never:
            bot = mcts.MCTSBot(*args, solve=self.solve, random_state=rs)
            return Decision(int(bot.step(to_pyspiel(game, state))))
        bot = _bounded_bot(mcts.MCTSBot)(*args, solve=self.solve, random_state=rs)
        bot.passed = passed
        try:
            return Decision(int(bot.step(to_pyspiel(game, state))))
        except _OutOfTime as out:
            return Decision(int(out.root.best_child().action))


class _OutOfTime(Exception):
    """Raised by a bounded bot before a simulation once its time is up, with the search tree."""

    def __init__(self, root: Any) -> None:
        super().__init__("out of time")
        self.root = root


def _bounded_bot(base: Any) -> Any:
    """OpenSpiel's ``MCTSBot`` class, checking ``passed()`` before each simulation.

    Every simulation starts with the tree policy (``_apply_tree_policy``), after the previous one
    was backed up, so stopping there leaves a consistent tree whose best child is a move OpenSpiel
    itself would pick after that many simulations. It stops only once the root has children
    (after the second simulation at the earliest), so there is always a move to return.
    """

    class Bounded(base):  # type: ignore[misc]
        passed: Any = None

        def _apply_tree_policy(self, root: Any, state: Any) -> Any:
            # the first simulation evaluates the root, the second expands it: before that
            # there is no move to return
            if root.children and self.passed():
                raise _OutOfTime(root)
            return super()._apply_tree_policy(root, state)

    return Bounded


@frozen
class OpenSpielRandom(FixedPolicy):
    """OpenSpiel's uniform random bot (``open_spiel.python.bots.uniform_random``)."""

    @property
    def spec(self) -> str:
        """``openspiel_random``."""
        return "openspiel_random"

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """A uniformly random legal move drawn by OpenSpiel's bot from ``key``."""
        pyspiel_module()
        from open_spiel.python.bots import uniform_random

        pstate = to_pyspiel(game, state)
        # the mover by name: in a game of simultaneous rounds the pyspiel node is everyone's
        bot = uniform_random.UniformRandomBot(game.to_move(state), _random_state(key))
        return Decision(int(bot.step(pstate)))

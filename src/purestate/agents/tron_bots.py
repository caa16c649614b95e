"""The Tron baseline bots: ``tron_random``, ``tron_wall``, ``tron_greedy``.

They are registered with a ``tron_`` prefix so that the generic ``random`` agent (any legal move,
for every game) keeps its meaning; ``purestate tron run`` accepts the CS1410 names ``random``,
``wall`` and ``greedy`` for them (and ``ta1``/``ta2`` for the alpha-beta stand-ins).

* ``tron_random`` (CS1410 RandBot): a uniformly random safe move (one whose target cell is empty);
  ``U`` when there is none.
* ``tron_wall`` (CS1410 WallBot): a direction order shuffled once per game, then the first safe
  move whose target touches an obstacle besides the mover's own head (fewer than 3 free
  neighbours); otherwise the first safe move in U, D, L, R order; ``U`` when there is none. The
  order is drawn from the key of the bot's first move and kept in the bot's table for the rest
  of the game (or fixed with ``order=ULDR``), so a game is a pure function of its key.
* ``tron_greedy``: the safe move after which the most cells are reachable (once the players are
  separated: the largest parity fill bound), ties broken towards the walls (fewest free
  neighbours of the target), then by the key.
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import field, frozen

from purestate.agents.alphabeta import AlphaBeta
from purestate.core.agent import Decision, FixedPolicy
from purestate.core.game import Game
from purestate.core.keys import Key, below, choice, fold_in
from purestate.core.spec import format_spec
from purestate.games.tron.rules import MOVE_NAMES, MOVES, State, U
from purestate.heuristics.tron import (
    LINEAR_WEIGHTS,
    as_tron,
    free_cells,
    linear_evaluation,
    room_after,
    separated,
)


class PlaysTron:
    """What the CS1410 bots share: they refuse every game but Tron, before a game starts."""

    @property
    def spec(self) -> str:
        """The bot's name (each bot gives its own)."""
        raise NotImplementedError

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``, one line) any game but Tron: the one Tron check
        (``heuristics.tron.as_tron``) the Tron evaluations make too."""
        as_tron(game, self.spec)


@frozen
class TronRandom(PlaysTron, FixedPolicy):
    """CS1410's RandBot: a uniformly random safe move."""

    @property
    def spec(self) -> str:
        """``tron_random``."""
        return "tron_random"

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table (checks that the game is Tron)."""
        as_tron(game, "tron_random")
        return None

    def act(self, game: Game[Any, Any], table: Any, state: State, key: Key) -> Decision[int]:
        """A random safe move, or ``U`` when every move crashes."""
        safe = as_tron(game, "tron_random").safe_moves(state)
        return Decision(choice(key, safe) if safe else U)


def _check_order(instance: Any, attribute: Any, value: str) -> None:
    if value != "shuffle" and sorted(value.upper()) != sorted(MOVE_NAMES):
        raise ValueError(f"order must be 'shuffle' or a permutation of UDLR, got {value!r}")


def shuffled(key: Key) -> tuple[int, ...]:
    """A uniformly random order of the four moves (Fisher–Yates on the key's draws)."""
    order = list(MOVES)
    for i in range(3, 0, -1):
        j = below(fold_in(key, i), i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


@frozen
class TronWall(PlaysTron, FixedPolicy):
    """CS1410's WallBot: hug walls and barriers in a per-game direction order.

    Attributes:
        order: ``shuffle`` (a new order per game, from the game's key) or a fixed order such as
            ``ULDR``.
    """

    order: str = field(default="shuffle", validator=_check_order)

    @property
    def spec(self) -> str:
        """``tron_wall`` plus a fixed order if one is set."""
        return format_spec("tron_wall", self)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table yet: the order is drawn on the first move (checks that the game is Tron)."""
        as_tron(game, "tron_wall")
        return None

    def act(self, game: Game[Any, Any], table: Any, state: State, key: Key) -> Decision[int]:
        """The first safe wall-hugging move in the game's order, else the first safe move."""
        g = as_tron(game, "tron_wall")
        if table is None:
            if self.order == "shuffle":
                table = shuffled(key)
            else:
                table = tuple(MOVE_NAMES.index(c) for c in self.order.upper())
        safe = g.safe_moves(state)
        if not safe:
            return Decision(U, table)
        t = g.topology
        free = free_cells(state, t)
        head = state.head0 if state.to_move == 0 else state.head1
        for m in table:
            if m in safe:
                dest = head + t.deltas[m]
                if sum(free >> n & 1 for n in t.neighbours[dest]) < 3:
                    return Decision(m, table)
        return Decision(safe[0], table)


@frozen
class TronGreedy(PlaysTron, FixedPolicy):
    """The most room after the move (fill bound once separated), hugging walls on ties."""

    @property
    def spec(self) -> str:
        """``tron_greedy``."""
        return "tron_greedy"

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table (checks that the game is Tron)."""
        as_tron(game, "tron_greedy")
        return None

    def act(self, game: Game[Any, Any], table: Any, state: State, key: Key) -> Decision[int]:
        """The safe move with the largest (room, -free neighbours), ties by the key."""
        g = as_tron(game, "tron_greedy")
        safe = g.safe_moves(state)
        if not safe:
            return Decision(U)
        t = g.topology
        alone = separated(g, state)
        scored = []
        for m in safe:
            size, bound, free_nb = room_after(state, state.to_move, m, t)
            scored.append(((bound if alone else size), -free_nb))
        best = max(scored)
        ties = [m for m, sc in zip(safe, scored, strict=True) if sc == best]
        return Decision(ties[0] if len(ties) == 1 else choice(key, ties))


@frozen
class WeightedAlphaBeta(AlphaBeta):
    """``alphabeta`` whose ``linear`` evaluation uses injected weights (from a weights file).

    The weights are injected like the alpha-beta clock: not a spec option (the spec stays
    ``alphabeta:...,eval=linear``) and not part of equality. The shell reads the file and calls
    ``with_linear_weights``.
    """

    _weights: tuple[float, ...] = field(
        default=LINEAR_WEIGHTS, alias="weights", eq=False, repr=False
    )

    def evaluation(self) -> Any:
        """The linear model with the injected weights when ``eval=linear``."""
        if self.eval == "linear":
            return linear_evaluation(self._weights)
        return AlphaBeta.evaluation(self)


def with_linear_weights(agent: Any, weights: tuple[float, ...]) -> Any:
    """``agent`` with ``weights`` for its linear evaluation, if it is ``alphabeta:eval=linear``;
    any other agent comes back unchanged."""
    if not isinstance(agent, AlphaBeta) or agent.eval != "linear":
        return agent
    options = {
        a.name: getattr(agent, a.name)
        for a in attrs.fields(AlphaBeta)
        if a.init and not a.name.startswith("_")
    }
    return WeightedAlphaBeta(**options, clock=agent._clock, weights=weights)

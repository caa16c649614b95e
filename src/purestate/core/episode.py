"""Episodes and the pure episode driver.

``play(game, agents, tables, key)`` plays one game and returns an ``Episode``: the states, the
moves, who moved, the result. The key of ply ``i`` is ``fold_in(key, i)``, so an episode depends
only on its inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from attrs import frozen

from purestate.core.agent import Agent, Decision
from purestate.core.game import Game, IllegalMove, require_game
from purestate.core.hooks import observation_of
from purestate.core.keys import Key, fold_in

Observe = Callable[[Any, int], Any]
"""A game's ``observation(state, player)`` hook."""


@frozen
class Episode:
    """One finished game.

    Attributes:
        states: ``states[0]`` is the start, ``states[i + 1]`` follows ``moves[i]``; the last state
            is where the game ended (terminal, or the position in which a player resigned).
        moves: The moves played.
        movers: ``movers[i]`` is the player who played ``moves[i]``.
        returns: The result per player.
        resigned: The player who resigned, or ``None`` if the game ended by its rules.
    """

    states: tuple[Any, ...]
    moves: tuple[Any, ...]
    movers: tuple[int, ...]
    returns: tuple[float, float]
    resigned: int | None = None

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]

    def outcome(self, seat: int) -> int:
        """+1 win, 0 draw, -1 loss for ``seat``."""
        r = self.returns[seat]
        return (r > 0) - (r < 0)


def resign_returns(loser: int) -> tuple[float, float]:
    """The result of a game the ``loser`` resigned: a loss for them, a win for the other side."""
    return (-1.0, 1.0) if loser == 0 else (1.0, -1.0)


def agent_moves(
    game: Game[Any, Any],
    agent: Agent,
    table: Any,
    state: Any,
    player: int,
    key: Key,
    observe: Observe | None,
) -> tuple[Decision[Any], Any]:
    """One ply of an agent: it acts on its view of ``state`` (``observe(state, player)`` when the
    game hides something, as ``core.hooks.observation_of`` gives it) and its move is applied to
    the true state. The decision, and the state after its move (``None`` when it resigns).

    Raises:
        IllegalMove: naming the agent, when its move is illegal (a bug in the agent).
    """
    view = state if observe is None else observe(state, player)
    decision = agent.act(game, table, view, key)
    if decision.move is None:
        return decision, None
    try:
        return decision, game.step(state, decision.move)
    except IllegalMove as err:
        raise IllegalMove(f"agent {agent.spec!r} played an illegal move: {err}") from err


def plies(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    tables: Sequence[Any],
    key: Key,
    start: Any = None,
) -> Generator[tuple[int, Any, Any], None, Episode]:
    """Play one game ply by ply: yield ``(player, move, state after the move)``, return the episode.

    The same game as ``play`` (which consumes this); a caller that watches a game as it goes
    iterates it, and gets the episode as the ``StopIteration`` value. A resignation ends the game
    without a ply. A game a person plays in is a ``core.match.Match``, whose bots take the same
    plies (``agent_moves``) with the same keys.
    """
    require_game(game, start)  # a pyspiel game, say: one line saying how to bridge it
    state = game.initial() if start is None else start
    is_over, to_move = game.is_over, game.to_move
    current = list(tables)
    states = [state]
    moves: list[Any] = []
    movers: list[int] = []
    # A game with hidden information (Tron's simultaneous rules) offers ``observation``: the
    # agent sees that view, and its move is applied to the true state.
    observe = observation_of(game)
    ply = 0
    while not is_over(state):
        p = to_move(state)
        decision, after = agent_moves(game, agents[p], current[p], state, p, fold_in(key, ply),
                                      observe)  # fmt: skip
        if decision.table is not None:
            current[p] = decision.table
        if after is None:
            return Episode(tuple(states), tuple(moves), tuple(movers), resign_returns(p), p)
        state = after
        states.append(state)
        moves.append(decision.move)
        movers.append(p)
        ply += 1
        yield p, decision.move, state
    return Episode(tuple(states), tuple(moves), tuple(movers), game.returns(state))


def play(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    tables: Sequence[Any],
    key: Key,
    start: Any = None,
) -> Episode:
    """Play one game between two agents.

    Args:
        game: The game.
        agents: ``agents[p]`` plays as player ``p`` (0 moves first).
        tables: ``tables[p]`` is the table agent ``p`` plays from.
        key: The game's key; ply ``i`` uses ``fold_in(key, i)``.
        start: The start position (default: ``game.initial()``).

    If the game has a method ``observation(state, player)``, the agent to move is shown
    ``observation(state, p)`` instead of the state (hidden information stays hidden).

    Returns:
        The episode.

    Raises:
        IllegalMove: if an agent chooses an illegal move (a bug in the agent).
    """
    # ``yield from`` keeps the episode (the generator's return value) and a C-level ``for`` loop
    # drives it: this is the hot path of evaluation and tournaments.
    ended: list[Episode] = []

    def run() -> Generator[tuple[int, Any, Any], None, None]:
        ended.append((yield from plies(game, agents, tables, key, start)))

    for _ in run():
        pass
    return ended[0]


def replay(game: Game[Any, Any], moves: Sequence[Any], resigned: int | None = None) -> Episode:
    """Rebuild the episode of a recorded game from its moves (as stored in games.jsonl)."""
    state = game.initial()
    states = [state]
    movers: list[int] = []
    for m in moves:
        movers.append(game.to_move(state))
        state = game.step(state, m)
        states.append(state)
    if resigned is not None:
        return Episode(
            tuple(states), tuple(moves), tuple(movers), resign_returns(resigned), resigned
        )
    if not game.is_over(state):
        raise ValueError("the recorded moves do not finish the game and nobody resigned")
    return Episode(tuple(states), tuple(moves), tuple(movers), game.returns(state))

"""Exact outcome rates of a match between two stochastic policies, by enumeration.

A policy here is a function ``state -> {move: probability}`` (the ``policy`` method of the
``rules`` and ``perfect`` agents, or a uniform choice for a random player). With ``Fraction``
probabilities the rates are exact: rules X against random O wins exactly 23/24 of its games.
The probability of each result from a position does not depend on how the position was reached,
so the work is proportional to the positions, not to the games.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from purestate.core.game import Game
from purestate.solve.bounds import require_whole_game

Policy = Callable[[Any], Mapping[Any, Fraction]]


def uniform_policy(game: Game[Any, Any]) -> Policy:
    """The random player's policy: every legal move with the same probability."""

    def policy(state: Any) -> dict[Any, Fraction]:
        moves = game.legal(state)
        return {m: Fraction(1, len(moves)) for m in moves}

    return policy


def exact_outcomes(
    game: Game[Any, Any], policies: Sequence[Policy], start: Any = None
) -> dict[float, Fraction]:
    """The probability of each result for player 0 when ``policies[p]`` plays player ``p``.

    Args:
        game: A game with a finite, acyclic state graph.
        policies: One policy per player.
        start: The position to start from (default: the initial position).

    Returns:
        Player 0's return -> its probability (the probabilities sum to 1).

    Raises:
        TooLarge: from the start of a game too large to walk whole (at once; a later ``start``
            is trusted to lead to a small enough part of the game).
    """
    if start is None:
        require_whole_game(game, "exact outcome rates", "every position the policies can reach")
    root = game.initial() if start is None else start
    memo: dict[Hashable, dict[float, Fraction]] = {}
    # Explicit stack: a state is finished once all the children its policy can reach are.
    stack = [root]
    while stack:
        s = stack[-1]
        if s in memo:
            stack.pop()
            continue
        if game.is_over(s):
            memo[s] = {game.returns(s)[0]: Fraction(1)}
            stack.pop()
            continue
        dist = policies[game.to_move(s)](s)
        children = [(game.step(s, m), p) for m, p in dist.items() if p]
        pending = [c for c, _ in children if c not in memo]
        if pending:
            stack.extend(pending)
            continue
        out: dict[float, Fraction] = {}
        for c, p in children:
            for r, q in memo[c].items():
                out[r] = out.get(r, Fraction(0)) + p * q
        memo[s] = out
        stack.pop()
    return dict(sorted(memo[root].items()))

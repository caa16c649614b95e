"""Hypothesis strategies shared by the property suites: keys, move sequences, reachable states."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from purestate.core.game import Game
from purestate.core.keys import Key, choice, fold_in


def keys() -> st.SearchStrategy[Key]:
    """Random keys (they shrink towards 0 and replay from the printed example)."""
    return st.integers(0, 2**64 - 1).map(Key)


@st.composite
def _trajectory(draw: st.DrawFn, game: Game[Any, Any], limit: int) -> list[Any]:
    # The length is drawn uniformly up to the bound: a list of drawn moves averages a handful of
    # plies, so the late game and finished games were almost never seen (no finished ultimate
    # game in 150 examples). The moves come from a drawn key rather than one draw each, which
    # costs a fifth as much on long games; a failure still shrinks to the fewest plies.
    plies = draw(st.integers(0, limit), label="plies")
    k = draw(keys(), label="moves key")
    s = game.initial()
    out = [s]
    for ply in range(plies):
        if game.is_over(s):
            break
        s = game.step(s, choice(fold_in(k, ply), game.legal(s)))
        out.append(s)
    return out


def trajectories(
    game: Game[Any, Any], max_plies: int | None = None
) -> st.SearchStrategy[list[Any]]:
    """The states along a game of random legal moves, from the start, up to ``max_plies`` plies
    (default: the game's bound), as likely to run into the end game as to stop in the opening."""
    return _trajectory(game, max_plies if max_plies is not None else game.spec.max_length)


def states(game: Game[Any, Any], max_plies: int | None = None) -> st.SearchStrategy[Any]:
    """Reachable states (the last state of a drawn trajectory)."""
    return trajectories(game, max_plies).map(lambda t: t[-1])

"""Hypothesis strategies shared by the property suites: keys, move sequences, reachable states."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from purestate.core.game import Game
from purestate.core.keys import Key


def keys() -> st.SearchStrategy[Key]:
    """Random keys (they shrink towards 0 and replay from the printed example)."""
    return st.integers(0, 2**64 - 1).map(Key)


def trajectories(
    game: Game[Any, Any], max_plies: int | None = None
) -> st.SearchStrategy[list[Any]]:
    """States along a game whose moves are chosen by drawn indices (shrinks to short games)."""
    limit = max_plies if max_plies is not None else game.spec.max_length

    def build(choices: list[int]) -> list[Any]:
        s = game.initial()
        out = [s]
        for c in choices:
            if game.is_over(s):
                break
            moves = game.legal(s)
            s = game.step(s, moves[c % len(moves)])
            out.append(s)
        return out

    return st.lists(st.integers(0, 10**6), max_size=limit).map(build)


def states(game: Game[Any, Any], max_plies: int | None = None) -> st.SearchStrategy[Any]:
    """Reachable states (the last state of a drawn trajectory)."""
    return trajectories(game, max_plies).map(lambda t: t[-1])

"""Properties only ultimate tic-tac-toe has: turns alternate, closed boards stay closed, playouts
end in a win, draw or loss. What every game keeps is in test_game_props.py, what it shares with
Xtreme in test_small_boards_props.py."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given

from purestate.core.keys import Key
from purestate.games.ultimate import State, UltimateTicTacToe

from .strategies import keys, states, trajectories

GAME = UltimateTicTacToe()


@given(trajectories(GAME))
def test_closed_boards_stay_closed_and_marks_add_up(path: list[State]) -> None:
    for ply, (a, b) in enumerate(pairwise(path), start=1):
        assert a.closed & ~b.closed == 0
        assert a.won_x & ~b.won_x == 0 and a.won_o & ~b.won_o == 0
        assert b.x.bit_count() + b.o.bit_count() == ply
        assert b.x.bit_count() - b.o.bit_count() == b.to_move
        new = (b.x | b.o) & ~(a.x | a.o)
        assert new.bit_count() == 1
        assert new & (a.o if a.to_move else a.x) == 0
        # nothing is ever played in a board that was closed
        assert not a.closed >> (new.bit_length() - 1) // 9 & 1
    end = path[-1]
    assert (len(GAME.legal(end)) == 0) == GAME.is_over(end)


@given(states(GAME), keys())
def test_playout_depends_only_on_state_and_key(s: State, k: int) -> None:
    r = GAME.playout(s, Key(k))
    assert r == GAME.playout(s, Key(k))
    assert r in ((1.0, -1.0), (0.0, 0.0), (-1.0, 1.0))

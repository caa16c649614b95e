"""Properties only Xtreme tic-tac-toe has: the bonus move, closed boards stay closed, playouts end
in a margin of 86ths. What every game keeps is in test_game_props.py, what it shares with ultimate
in test_small_boards_props.py."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given

from purestate.core.keys import Key
from purestate.games.xtreme import State, XtremeTicTacToe

from .strategies import keys, states, trajectories

GAME = XtremeTicTacToe()


@given(trajectories(GAME))
def test_closed_boards_stay_closed_and_marks_add_up(path: list[State]) -> None:
    for ply, (a, b) in enumerate(pairwise(path), start=1):
        assert a.closed & ~b.closed == 0
        assert a.won_x & ~b.won_x == 0 and a.won_o & ~b.won_o == 0
        assert b.x.bit_count() + b.o.bit_count() == ply
        new = (b.x | b.o) & ~(a.x | a.o)
        assert new.bit_count() == 1
        # the mark is the mover's; the same player moves again iff they just won a small board
        # on a move that was not itself a bonus move, and the game goes on
        assert new & (a.o if a.to_move else a.x) == 0
        took = (b.won_x | b.won_o) != (a.won_x | a.won_o)
        assert b.bonus == (took and not a.bonus and not GAME.is_over(b))
        assert (b.to_move == a.to_move) == b.bonus
        # nothing is ever played in a board that was closed
        assert not a.closed >> (new.bit_length() - 1) // 9 & 1
    end = path[-1]
    assert (len(GAME.legal(end)) == 0) == GAME.is_over(end)


@given(states(GAME), keys())
def test_playout_depends_only_on_state_and_key(s: State, k: int) -> None:
    r = GAME.playout(s, Key(k))
    assert r == GAME.playout(s, Key(k))
    assert r[0] == -r[1] and -1.0 <= r[0] <= 1.0
    assert r[0] in (1.0, -1.0) or abs(r[0] * 86 - round(r[0] * 86)) < 1e-9

"""Connect four only: stone counts and gravity, the mirror against the rules, the codec's two
texts, and the solver against plain minimax. What every game keeps is in test_game_props.py."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.moves import play_moves

from purestate.core.keys import choice, fold_in
from purestate.games.connect_four import ConnectFour, State
from purestate.solve.connect_four import ConnectFourSolution, score
from purestate.solve.minimax import solve_exhaustive

from .strategies import keys, trajectories

GAMES = (ConnectFour(), ConnectFour(5, 4, 3), ConnectFour(4, 4, 4), ConnectFour(9, 9, 5))
SMALL = (ConnectFour(5, 4, 3), ConnectFour(4, 4, 4))
LATE = 12  # empty cells plain minimax solves in a blink


@st.composite
def game_and_trajectory(draw: st.DrawFn) -> tuple[ConnectFour, list[State]]:
    game = draw(st.sampled_from(GAMES))
    return game, draw(trajectories(game))


@given(game_and_trajectory())
def test_stones_differ_by_at_most_one_and_never_float(
    case: tuple[ConnectFour, list[State]],
) -> None:
    game, traj = case
    b = game.board
    for s in traj:
        diff = s.x.bit_count() - s.o.bit_count()
        assert diff in (0, 1) and game.to_move(s) == diff
        assert s.x & s.o == 0 and (s.x | s.o) & ~b.full == 0
        mask = s.x | s.o
        for c in range(game.columns):
            column = b.column_of(mask, c)
            assert column & (column + 1) == 0  # stones from the bottom up, no gap
        assert (s.winner >= 0) == (b.has_line(s.x) or b.has_line(s.o))


@given(game_and_trajectory())
def test_the_mirror_commutes_with_the_rules_along_a_game(
    case: tuple[ConnectFour, list[State]],
) -> None:
    game, traj = case
    mirrored = game.transform(traj[0], 1)
    for before, after in itertools.pairwise(traj):
        (move,) = [m for m in game.legal(before) if game.step(before, m) == after]
        mirrored = game.step(mirrored, game.transform_move(move, 1))
        assert mirrored == game.transform(after, 1)
        assert game.legal(mirrored) == tuple(
            sorted(game.transform_move(m, 1) for m in game.legal(after))
        )
        assert game.returns(mirrored) == game.returns(after)
    rep, sym = game.canonical(traj[-1])
    assert game.transform(traj[-1], sym) == rep == game.canonical(game.transform(traj[-1], 1))[0]


@given(game_and_trajectory())
def test_the_columns_played_and_the_board_decode_to_the_same_position(
    case: tuple[ConnectFour, list[State]],
) -> None:
    game, traj = case
    moves = []
    for before, after in itertools.pairwise(traj):
        moves.extend(m for m in game.legal(before) if game.step(before, m) == after)
    text = game.moves_text(moves)
    assert game.decode(text) == traj[-1] == game.decode(game.encode(traj[-1]))
    assert play_moves(game, [int(ch) - 1 for ch in text]) == traj[-1]


@st.composite
def late_state(draw: st.DrawFn) -> tuple[ConnectFour, State]:
    """A small board and a random position with at most ``LATE`` empty cells (or a game over)."""
    game = draw(st.sampled_from(SMALL))
    cells = game.board.cells
    plies = draw(st.integers(cells - LATE, cells), label="plies")
    k = draw(keys(), label="moves key")
    s = game.initial()
    for ply in range(plies):
        if game.is_over(s):
            break
        s = game.step(s, choice(fold_in(k, ply), game.legal(s)))
    return game, s


@settings(max_examples=max(1, settings().max_examples // 3))
@given(late_state())
def test_the_solvers_value_has_minimaxs_sign(case: tuple[ConnectFour, State]) -> None:
    game, state = case
    exact = solve_exhaustive(game, state)
    s = score(game, state)
    mover = 1 if state.to_move == 0 else -1
    assert (s > 0) - (s < 0) == mover * exact.value(state)
    assert ConnectFourSolution(game).value(state) == exact.value(state)

"""Dots and boxes only: box ownership, the extra-move rule, margins, the score under symmetry, the
DBN text and unscored positions, and the solver answering the same on its compiled and numpy paths.
What every game keeps is in test_game_props.py."""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from purestate import solve as solve_api
from purestate.core.game import IllegalMove
from purestate.games.dots_and_boxes import DotsAndBoxes, State
from purestate.solve.dots_and_boxes import DotsAndBoxesSolution, python_line_values

from .strategies import states, trajectories

GAMES = [DotsAndBoxes(1, 1), DotsAndBoxes(2, 2), DotsAndBoxes(2, 3), DotsAndBoxes(3, 3)]


def _boxes_complete(game: DotsAndBoxes, lines: int) -> int:
    return sum(1 << b for b, m in enumerate(game.board.box_masks) if lines & m == m)


@given(st.data())
def test_a_box_is_owned_iff_it_is_complete(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    for s in data.draw(trajectories(game)):
        assert s.own0 & s.own1 == 0
        assert s.own0 | s.own1 == _boxes_complete(game, s.lines)


@given(st.data())
def test_the_turn_passes_iff_no_box_is_completed(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    traj = data.draw(trajectories(game))
    for a, b in itertools.pairwise(traj):
        gained = (b.own0 | b.own1).bit_count() - (a.own0 | a.own1).bit_count()
        assert 0 <= gained <= 2
        assert (b.to_move == a.to_move) == (gained > 0)
        assert b.lines.bit_count() == a.lines.bit_count() + 1


@given(st.data())
def test_returns_are_the_box_margin_at_the_end(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    end = data.draw(trajectories(game, game.num_lines))[-1]
    if game.is_over(end):
        a, b = end.own0.bit_count(), end.own1.bit_count()
        assert a + b == game.rows * game.cols
        assert game.returns(end) == (a - b, b - a)
        wl = DotsAndBoxes(game.rows, game.cols, margin=False).returns(end)
        assert wl[0] == (a > b) - (a < b)
    else:
        assert game.returns(end) == (0.0, 0.0)


@given(st.data())
def test_the_score_is_unchanged_by_the_symmetries(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    s = data.draw(trajectories(game))[-1]
    g = data.draw(st.sampled_from(game.symmetries))
    assert game.score(game.transform(s, g)) == game.score(s)


@given(st.data())
def test_dbn_and_unscored_keep_the_lines(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    s = data.draw(trajectories(game))[-1]
    assert game.decode(game.dbn(s)) == State(s.lines, 0, 0, 0)
    u = game.unscored(s)
    assert game.legal(u) == game.legal(s)
    assert game.decode(game.encode(u)) == u


FIELDS = ("lines", "own0", "own1", "to_move")


def _rebuilt(s: State) -> State:
    """The state built by hand, through the checking constructor (the rules skip it)."""
    return State(s.lines, s.own0, s.own1, s.to_move)


@given(st.data())
def test_every_reachable_state_passes_the_checks(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    for s in data.draw(trajectories(game)):
        for image in (s, game.unscored(s), game.canonical(s)[0]):
            assert game.check(_rebuilt(image)) == image
        assert game.decode(game.encode(s)) == s


@given(
    st.data(),
    st.sampled_from(FIELDS),
    st.one_of(
        st.integers(max_value=-1),
        st.booleans(),
        st.floats(allow_nan=False),
        st.just("1"),
        st.integers(min_value=1, max_value=64).map(lambda k: 1 << k),  # beyond the board or 0/1
    ),
)
def test_a_mutated_state_is_refused_in_one_line(
    data: st.DataObject, name: str, value: object
) -> None:
    game = data.draw(st.sampled_from(GAMES))
    s = data.draw(trajectories(game))[-1]
    fields = {f: getattr(s, f) for f in FIELDS}
    fields[name] = value
    b = game.board
    try:
        mutated = State(**fields)  # type: ignore[arg-type]
        game.check(mutated)
    except IllegalMove as e:
        assert str(e).startswith("not a dots_and_boxes position: ") and "\n" not in str(e)
        return
    # accepted: only a value that makes another position of this board (an int in range, with
    # owned boxes complete)
    assert type(value) is int and value >= 0
    assert mutated.to_move in (0, 1) and mutated.lines <= b.full
    assert (mutated.own0 | mutated.own1) & ~_boxes_complete(game, mutated.lines) == 0


@given(st.data())
def test_owning_a_box_that_is_not_complete_is_refused(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    s = data.draw(trajectories(game))[-1]
    open_boxes = ~_boxes_complete(game, s.lines) & ((1 << game.board.num_boxes) - 1)
    if not open_boxes:
        return
    box = open_boxes & -open_boxes
    with pytest.raises(IllegalMove, match="owned but not complete"):
        game.check(State(s.lines, s.own0 | box, s.own1 & ~box, s.to_move))


@functools.cache
def _numpy_solution(game: DotsAndBoxes) -> DotsAndBoxesSolution:
    return DotsAndBoxesSolution(game, python_line_values(game.rows, game.cols))


SOLVED = [DotsAndBoxes(2, 2), DotsAndBoxes(2, 3), DotsAndBoxes(3, 2, margin=False)]


@given(st.data())
def test_the_solver_answers_the_same_on_both_paths(data: st.DataObject) -> None:
    # the default solution (the compiled table where numba imports) and the numpy reference's
    game = data.draw(st.sampled_from(SOLVED))
    state = data.draw(states(game))
    default = solve_api.solve(game)
    reference = _numpy_solution(game)
    assert isinstance(default, DotsAndBoxesSolution)
    assert default.value(state) == reference.value(state)
    assert default.distance(state) == reference.distance(state)
    if not game.is_over(state):
        assert default.move_values(state) == reference.move_values(state)
        assert default.best_moves(state) == reference.best_moves(state)

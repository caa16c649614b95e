"""Dots and boxes only: box ownership, the extra-move rule, margins, the score under symmetry, the
DBN text and unscored positions. What every game keeps is in test_game_props.py."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from purestate.games.dots_and_boxes import DotsAndBoxes, State

from .strategies import trajectories

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

"""Properties shared by the two games made of small boards (ultimate and Xtreme tic-tac-toe):
the uttt heuristic respects the symmetries and the legal moves, moves can be typed as indices,
the board says whose move it is. The rules each game keeps alone are in its own file."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from purestate.games.ultimate import UltimateTicTacToe
from purestate.games.xtreme import XtremeTicTacToe
from purestate.heuristics import uttt as heuristic

from .strategies import states

GAMES = [UltimateTicTacToe(), XtremeTicTacToe()]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec.name)
@given(data=st.data())
def test_the_heuristic_commutes_with_the_symmetries_and_the_legal_moves(
    game: Any, data: st.DataObject
) -> None:
    s = data.draw(states(game), label="state")
    g = data.draw(st.sampled_from(game.symmetries), label="symmetry")
    img = game.transform(s, g)
    assert heuristic.evaluate(game, img) == heuristic.evaluate(game, s)
    assert -1.0 < heuristic.evaluate(game, s) < 1.0
    for scorer in (heuristic.move_scores, heuristic.code_move_scores):
        scores = scorer(game, s)
        assert len(scores) == len(game.legal(s))
        assert all(v >= 1.0 for v in scores)
        by_move = dict(zip(game.legal(img), scorer(game, img), strict=True))
        for m, v in zip(game.legal(s), scores, strict=True):
            assert by_move[game.transform_move(m, g)] == v


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec.name)
@given(data=st.data())
def test_moves_are_listed_in_order_and_typed_as_indices(game: Any, data: st.DataObject) -> None:
    s = data.draw(states(game), label="state")
    assert list(game.legal(s)) == sorted(game.legal(s))
    for m in game.legal(s):
        assert game.parse_move(s, str(m)) == m
    assert ("to move" in game.render(s)) != game.is_over(s)

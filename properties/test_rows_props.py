"""Every game's row kernels (the ``RowKernels`` hook, ``core.hooks.Rows``) agree with its pure
rules (issue 24): the compiled MCTS tree plays on rows, so it must see the same game.

Generic over the registered game cases (the root conftest's ``registered_game``): a case whose
``rows_of(game)`` is None (no hook, no numba, ``NUMBA_DISABLE_JIT=1``, a board the kernels do not
fit) is skipped. From random reachable positions and keys: the row round-trips through
``state_of``; ``legal`` lists ``game.legal`` in its order; ``step`` of every legal move is the row
of ``game.step`` (its input left alone); ``player`` is the player to move (-1 once over);
``reward0`` of a finished row is ``unit_reward(returns[0])``; ``ending`` is the ``ending_moves``
hook's answer; ``playout0`` and ``decisive0`` are player 0's unit reward of the game's
``playout`` and ``decisive_playout`` hooks with the same key on the counter stream (the generic
``random_returns`` for a game without the playout hook).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.agents.mcts import unit_reward
from purestate.core import batch, compiled
from purestate.core.game import Game
from purestate.core.hooks import (
    Rows,
    decisive_playout_of,
    ending_moves_of,
    playout_of,
    rows_of,
)

from .strategies import keys, states

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))


def rows(game: Game[Any, Any]) -> Rows:
    """The game's row kernels, or a clean skip where it has none (or numba is missing)."""
    found = rows_of(game)
    if found is None:
        pytest.skip("no row kernels for this game here (no hook, or no numba)")
    return found


def moves_of(r: Rows, row: Any) -> list[int]:
    out = np.empty(r.max_moves, np.int64)
    count = r.legal(row, out)
    assert 0 <= count <= r.max_moves
    return [int(m) for m in out[:count]]


@PER_CASE
@given(data=st.data())
def test_rows_step_like_the_rules(registered_game: Game[Any, Any], data: st.DataObject) -> None:
    game = registered_game
    r = rows(game)
    s = data.draw(states(game), label="state")
    row = r.row_of(s)
    assert row.dtype == np.int64 and row.shape == (r.width,)
    assert r.state_of(row) == s
    over = game.is_over(s)
    assert r.player(row) == (-1 if over else game.to_move(s))
    assert moves_of(r, row) == list(game.legal(s))
    if over:
        assert r.reward0(row) == unit_reward(game.returns(s)[0])
        return
    if r.ending is not None:
        hook = ending_moves_of(game)
        assert hook is not None, "a game with an ending kernel has the ending_moves hook"
        out = np.empty(r.max_moves, np.int64)
        count = r.ending(row, out)
        assert [int(m) for m in out[:count]] == list(hook(s))
    before = row.copy()
    child = np.empty(r.width, np.int64)
    for m in game.legal(s):
        nxt = game.step(s, m)
        r.step(row, m, child)
        assert np.array_equal(child, r.row_of(nxt)), m
        assert r.player(child) == (-1 if game.is_over(nxt) else game.to_move(nxt))
        if game.is_over(nxt):
            assert r.reward0(child) == unit_reward(game.returns(nxt)[0])
    assert np.array_equal(row, before)  # step writes only its output


@PER_CASE
@given(data=st.data())
def test_row_playouts_play_the_hooks_games(
    registered_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = registered_game
    r = rows(game)
    s = data.draw(states(game), label="state")
    k = data.draw(keys(), label="key")
    row = r.row_of(s)
    hook = playout_of(game)
    returns = hook(s, k, "counter") if hook is not None else batch.random_returns(game, s, k)
    assert r.playout0(row, compiled.as_int64(k)) == unit_reward(returns[0])
    if r.decisive0 is not None:
        decisive = decisive_playout_of(game)
        assert decisive is not None, "a game with a decisive kernel has the decisive hook"
        for anti in (False, True):
            got = r.decisive0(row, compiled.as_int64(k), anti)
            assert got == unit_reward(decisive(s, k, anti, "counter")[0])

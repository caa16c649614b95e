"""The row kernels (``core.hooks.Rows``) are the pure rules on int64 rows, bit for bit (issue 24).

For every registered game case whose ``rows_of(game)`` is not None, from random reachable
positions: the row round-trips, and each compiled function agrees with the pure rules (the same
moves in ``legal``'s order, the same successors, players, floats and playouts). Without numba
(or with ``NUMBA_DISABLE_JIT=1``) no game offers rows and these tests have no cases.

One test per function of ``Rows``, so that another file of the same checks merges by union.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.agents.mcts import decisive_playout, random_playout, unit_reward
from purestate.core import compiled
from purestate.core import keys as K
from purestate.core.game import Game
from purestate.core.hooks import (
    Rows,
    decisive_playout_of,
    ending_moves_of,
    playout_of,
    rows_of,
)
from purestate.core.keys import Key

from .strategies import keys, states

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))
with_rows = pytest.mark.with_hook.with_args(rows_of)


def _state_and_row(game: Game[Any, Any], data: st.DataObject) -> tuple[Rows, Any, Any]:
    rows = rows_of(game)
    assert rows is not None
    s = data.draw(states(game), label="state")
    row = rows.row_of(s)
    assert row.dtype == np.int64 and row.shape == (rows.width,)
    return rows, s, row


def _moves(rows: Rows, fn: Any, row: Any) -> tuple[int, ...]:
    out = np.full(rows.max_moves, -7, np.int64)
    before = row.copy()
    count = fn(row, out)
    assert 0 <= count <= rows.max_moves
    assert np.array_equal(row, before)
    return tuple(int(m) for m in out[:count])


@with_rows
@PER_CASE
@given(data=st.data())
def test_row_of_round_trips(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    rows, s, row = _state_and_row(hooked_game, data)
    assert row.dtype == np.int64 and row.shape == (rows.width,)
    assert rows.state_of(row) == s
    assert np.array_equal(rows.row_of(rows.state_of(row)), row)


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_legal_is_the_rules(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    rows, s, row = _state_and_row(hooked_game, data)
    moves = _moves(rows, rows.legal, row)
    assert moves == tuple(hooked_game.legal(s))
    assert all(m >= 0 for m in moves)  # the kernels mark "no move" with -1


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_step_is_the_rules(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    before = row.copy()
    for m in game.legal(s):
        out = np.full(rows.width, -7, np.int64)
        rows.step(row, m, out)
        assert np.array_equal(row, before)
        child = game.step(s, m)
        assert np.array_equal(out, rows.row_of(child)), m
        assert rows.state_of(out) == child


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_player_is_to_move(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    assert rows.player(row) == (-1 if game.is_over(s) else game.to_move(s))


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_reward0_is_the_returns(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    rows, s = _finished(hooked_game, data)
    assert rows.reward0(rows.row_of(s)) == unit_reward(hooked_game.returns(s)[0])


def _finished(game: Game[Any, Any], data: st.DataObject) -> tuple[Rows, Any]:
    """The rows and a finished state: the end of the drawn game (every finished state is the
    end of some trajectory)."""
    rows, s, _ = _state_and_row(game, data)
    while not game.is_over(s):
        s = game.step(s, data.draw(st.sampled_from(game.legal(s)), label="move"))
    return rows, s


@with_rows
@PER_CASE
@given(data=st.data(), k=keys())
def test_rows_playout0_is_the_playout(
    hooked_game: Game[Any, Any], data: st.DataObject, k: Key
) -> None:
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    hook = playout_of(game)
    returns = hook(s, k, "counter") if hook is not None else random_playout(game, s, k)
    assert rows.playout0(row, compiled.as_int64(k)) == unit_reward(returns[0])


@with_rows
@PER_CASE
@given(data=st.data(), k=keys(), anti=st.booleans())
def test_rows_decisive0_is_the_decisive_playout(
    hooked_game: Game[Any, Any], data: st.DataObject, k: Key, anti: bool
) -> None:
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    hook = decisive_playout_of(game)
    if rows.decisive0 is None:
        return
    assert hook is not None, "a decisive row kernel plays the decisive_playout hook's game"
    expected = unit_reward(hook(s, k, anti, "counter")[0])
    assert rows.decisive0(row, compiled.as_int64(k), anti) == expected


@with_rows
@PER_CASE
@given(data=st.data(), k=keys(), anti=st.booleans())
def test_the_generic_decisive_playout_compiled_is_the_generic_loop(
    hooked_game: Game[Any, Any], data: st.DataObject, k: Key, anti: bool
) -> None:
    # what the compiled tree plays for a decisive playout on a game without a decisive kernel
    # (tic-tac-toe, dots and boxes and Tron by default): mcts.decisive_playout's game on the
    # counter stream of the simulation's key, held here on every game with rows
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    tree = compiled.kernels("mcts_tree", compiled.AGENT_KERNELS)
    assert tree is not None and rows.returns is not None
    assert rows.max_moves <= tree.GENERIC_MOVES
    expected = game.returns(decisive_playout(game, s, K.stream(k), anti))
    # looking for wins among the game's ending moves, and (a game without them) among all
    for ending in {rows.ending or rows.legal, rows.legal}:
        play = tree.generic_decisive(
            rows.legal, rows.step, rows.player, rows.reward0, rows.returns, ending
        )
        assert play(row, compiled.as_int64(k), anti) == unit_reward(expected[0])
        assert np.array_equal(row, rows.row_of(s))  # the row is left as it was


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_ending_is_the_ending_moves(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    game = hooked_game
    rows, s, row = _state_and_row(game, data)
    if rows.ending is None:
        return
    hook = ending_moves_of(game)
    if hook is not None:
        expected = tuple(hook(s))
    else:
        expected = tuple(m for m in game.legal(s) if game.is_over(game.step(s, m)))
    assert _moves(rows, rows.ending, row) == expected


@with_rows
@PER_CASE
@given(data=st.data())
def test_rows_returns_are_the_returns(hooked_game: Game[Any, Any], data: st.DataObject) -> None:
    rows, s = _finished(hooked_game, data)
    if rows.returns is None:
        return
    row = rows.row_of(s)
    for p in (0, 1):
        # to the bit: margins unclipped, and the sign of a zero as the rules give it
        assert repr(rows.returns(row, p)) == repr(hooked_game.returns(s)[p])

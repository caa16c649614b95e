"""The batch functions (``core.batch``: ``rows``, ``step``, ``legal_mask``, ...) are the pure rules
row by row (issue 24).

For every registered game case with row kernels (``rows_of``), over batches of random positions
(finished ones too) and on both paths: compiled over the int64 rows, and the pure rules over a
tuple of states (the same game with its row kernels hidden). Each row's result is the rules' for
that state; the input is never written; a row's result does not depend on the rest of the batch;
an illegal move is refused with one ``ValueError`` naming its row. Without numba no game offers
rows and these tests have no cases.
"""

from __future__ import annotations

import math
import re
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.core import batch as B
from purestate.core import compiled
from purestate.core import keys as K
from purestate.core.game import Game
from purestate.core.hooks import move_id_count, rows_of

from .strategies import keys, states

PER_CASE = settings(max_examples=max(1, settings().max_examples // 5))
with_rows = pytest.mark.with_hook.with_args(rows_of)
PATHS = pytest.mark.parametrize("path", ["compiled", "pure"])


class _NoRows:
    """A game with its row kernels hidden: what the batch functions do for a game without them."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "row_kernels":
            raise AttributeError(name)
        return getattr(self._game, name)


def _game(game: Game[Any, Any], path: str) -> Game[Any, Any]:
    return game if path == "compiled" else cast(Game[Any, Any], _NoRows(game))


def _finished(game: Game[Any, Any], s: Any, k: K.Key) -> Any:
    rand = K.stream(k)
    while not game.is_over(s):
        moves = game.legal(s)
        s = game.step(s, moves[int(rand() * len(moves))])
    return s


@st.composite
def _states(draw: st.DrawFn, game: Game[Any, Any]) -> list[Any]:
    """One to six reachable states, some played to their end (a board game of full length, as
    dots and boxes, seldom ends in a drawn trajectory)."""
    n = draw(st.integers(1, 6), label="rows")
    out = []
    for i in range(n):
        s = draw(states(game), label=f"state {i}")
        if draw(st.booleans(), label=f"finish {i}"):
            s = _finished(game, s, draw(keys(), label=f"finish key {i}"))
        out.append(s)
    return out


def _moves(game: Game[Any, Any], ss: list[Any], data: st.DataObject) -> list[Any]:
    return [
        B.NO_MOVE if game.is_over(s) else data.draw(st.sampled_from(game.legal(s)), label="move")
        for s in ss
    ]


def _copy(batch: Any) -> Any:
    return batch.copy() if isinstance(batch, np.ndarray) else batch


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return bool(isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b))
    return bool(a == b)


def _batch(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> tuple[Game[Any, Any], list[Any], Any, Any]:
    """The game on ``path``, drawn states, their batch and a copy of it (to see it unchanged)."""
    game = _game(hooked_game, path)
    ss = data.draw(_states(hooked_game), label="states")
    batch = B.rows(game, ss)
    return game, ss, batch, _copy(batch)


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_batch_rows_round_trip(hooked_game: Game[Any, Any], path: str, data: st.DataObject) -> None:
    game, ss, batch, _ = _batch(hooked_game, path, data)
    if path == "compiled":
        kernels = rows_of(hooked_game)
        assert kernels is not None
        assert isinstance(batch, np.ndarray) and batch.dtype == np.int64
        assert batch.shape == (len(ss), kernels.width)
        for r, s in zip(batch, ss, strict=True):
            assert np.array_equal(r, kernels.row_of(s))
    else:
        assert batch == tuple(ss)
    assert B.states(game, batch) == ss


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_batch_step_is_the_rules(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> None:
    game, ss, batch, before = _batch(hooked_game, path, data)
    moves = _moves(hooked_game, ss, data)
    stepped = B.step(game, batch, np.array(moves, np.int64) if path == "compiled" else moves)
    assert _same(batch, before), "step wrote its input"
    expected = [
        s if m == B.NO_MOVE else hooked_game.step(s, m) for s, m in zip(ss, moves, strict=True)
    ]
    assert B.states(game, stepped) == expected
    assert _same(stepped, B.rows(game, expected))


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_batch_legal_mask_is_the_rules(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> None:
    game, ss, batch, before = _batch(hooked_game, path, data)
    mask = B.legal_mask(game, batch)
    assert _same(batch, before)
    assert mask.dtype == np.bool_ and mask.shape == (len(ss), move_id_count(hooked_game))
    for row, s in zip(mask, ss, strict=True):
        assert tuple(np.flatnonzero(row)) == tuple(sorted(hooked_game.legal(s)))


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_batch_players_rewards_returns_are_the_rules(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> None:
    game, ss, batch, before = _batch(hooked_game, path, data)
    players, done = B.players(game, batch), B.done(game, batch)
    rewards, returns = B.rewards(game, batch), B.returns(game, batch)
    assert _same(batch, before)
    assert players.dtype == np.int64 and done.dtype == np.bool_
    assert rewards.dtype == np.float64 and returns.shape == (len(ss), 2)
    for i, s in enumerate(ss):
        over = hooked_game.is_over(s)
        assert players[i] == (-1 if over else hooked_game.to_move(s))
        assert done[i] == over
        assert tuple(returns[i]) == tuple(hooked_game.returns(s))
        if over:
            assert rewards[i] == B.unit_reward(hooked_game.returns(s)[0])
        else:
            assert math.isnan(rewards[i])


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_batch_random_moves_draw_from_the_keys(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> None:
    game, ss, batch, before = _batch(hooked_game, path, data)
    ks = [data.draw(keys(), label="key") for _ in ss]
    chosen = B.random_moves(game, batch, np.array(ks, np.uint64))
    assert _same(batch, before)
    for m, s, k in zip(chosen, ss, ks, strict=True):
        legal = hooked_game.legal(s)
        assert m == (legal[int(K.draw(k, 0) * len(legal))] if legal else B.NO_MOVE)


@with_rows
@PER_CASE
@given(data=st.data())
def test_a_row_does_not_depend_on_the_batch(
    hooked_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = hooked_game
    ss = data.draw(_states(game), label="states")
    moves = np.array(_moves(game, ss, data), np.int64)
    ks = np.array([data.draw(keys(), label="key") for _ in ss], np.uint64)
    order = np.array(data.draw(st.permutations(range(len(ss))), label="order"), np.int64)
    batch = B.rows(game, ss)
    shuffled = B.rows(game, [ss[i] for i in order])
    assert np.array_equal(B.step(game, shuffled, moves[order]), B.step(game, batch, moves)[order])
    assert np.array_equal(B.legal_mask(game, shuffled), B.legal_mask(game, batch)[order])
    assert np.array_equal(B.players(game, shuffled), B.players(game, batch)[order])
    assert np.array_equal(B.rewards(game, shuffled), B.rewards(game, batch)[order], equal_nan=True)
    assert np.array_equal(
        B.random_moves(game, shuffled, ks[order]), B.random_moves(game, batch, ks)[order]
    )
    j = data.draw(st.integers(0, len(ss) - 1), label="alone")
    alone = B.rows(game, [ss[j]])
    assert np.array_equal(B.step(game, alone, moves[j : j + 1])[0], B.step(game, batch, moves)[j])


@with_rows
@PATHS
@PER_CASE
@given(data=st.data())
def test_an_illegal_move_is_refused_naming_its_row(
    hooked_game: Game[Any, Any], path: str, data: st.DataObject
) -> None:
    game, ss, batch, before = _batch(hooked_game, path, data)
    moves = _moves(hooked_game, ss, data)
    j = data.draw(st.integers(0, len(ss) - 1), label="bad row")
    legal, over = set(hooked_game.legal(ss[j])), hooked_game.is_over(ss[j])
    # past the last move id too; NO_MOVE is the one legal move of a finished row
    ids = range(B.NO_MOVE, move_id_count(hooked_game) + 2)
    wrong = [m for m in ids if m not in legal and not (over and m == B.NO_MOVE)]
    moves[j] = data.draw(st.sampled_from(wrong), label="illegal move")
    with pytest.raises(ValueError, match=rf"^row {j}\b"):
        B.step(game, batch, np.array(moves, np.int64) if path == "compiled" else moves)
    assert _same(batch, before)
    with pytest.raises(ValueError, match=re.escape(f"{len(ss)} rows, {len(ss) + 1} moves")):
        B.step(game, batch, [*moves, 0])


@settings(max_examples=max(1, settings().max_examples // 10))
@given(data=st.data())
def test_a_game_without_rows_is_batched_by_its_rules(
    conformance_game: Game[Any, Any], data: st.DataObject
) -> None:
    game = _game(conformance_game, "pure")
    ss = data.draw(_states(conformance_game), label="states")
    moves = _moves(conformance_game, ss, data)
    batch = B.rows(game, ss)
    assert batch == tuple(ss)
    stepped = B.step(game, batch, moves)
    expected = [s if m == B.NO_MOVE else game.step(s, m) for s, m in zip(ss, moves, strict=True)]
    assert B.states(game, stepped) == expected
    assert list(B.done(game, batch)) == [game.is_over(s) for s in ss]
    assert [tuple(r) for r in B.returns(game, batch)] == [tuple(game.returns(s)) for s in ss]


@with_rows
@settings(max_examples=3)
@given(data=st.data())
def test_a_batch_on_the_threads_is_the_rows_one_at_a_time(
    hooked_game: Game[Any, Any], data: st.DataObject
) -> None:
    """A batch of ``PARALLEL_ROWS`` rows (numba's threads) gives each row what a batch of that
    row alone gives (the calling thread)."""
    game = hooked_game
    module = compiled.kernels("batch")
    assert module is not None, "a game offers rows only where numba imports"
    ss = data.draw(_states(game), label="states")
    moves = np.array(_moves(game, ss, data), np.int64)
    ks = np.array([data.draw(keys(), label="key") for _ in ss], np.uint64)
    small = B.rows(game, ss)
    times = -(-module.PARALLEL_ROWS // len(ss))
    large = np.tile(small, (times, 1))
    before = large.copy()
    assert np.array_equal(
        B.step(game, large, np.tile(moves, times)), np.tile(B.step(game, small, moves), (times, 1))
    )
    assert np.array_equal(B.legal_mask(game, large), np.tile(B.legal_mask(game, small), (times, 1)))
    assert np.array_equal(B.players(game, large), np.tile(B.players(game, small), times))
    assert np.array_equal(
        B.rewards(game, large), np.tile(B.rewards(game, small), times), equal_nan=True
    )
    assert np.array_equal(
        B.random_moves(game, large, np.tile(ks, times)),
        np.tile(B.random_moves(game, small, ks), times),
    )
    assert np.array_equal(large, before)

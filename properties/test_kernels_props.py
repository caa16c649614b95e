"""The compiled kernels play the pure kernels' games, bit for bit (issue 24).

Over random positions and keys: the counter stream compiled equals ``keys.draw``; every game
with a compiled kernel (tic-tac-toe, connect four on boards of at most 63 bits, ultimate and
Xtreme tic-tac-toe, dots and boxes of at most 63 lines) returns from each playout what its pure
Python kernel returns, which is the game ``core.batch.random_returns`` defines; and a batch is
its games one by one (Tron's too: its single playouts, ``Rows.playout0``, are held to the pure
kernel in ``test_tron_props.py`` and ``test_rows_props.py``). Without numba the compiled side is
skipped and the pure side still runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from purestate.core import batch, compiled
from purestate.core import keys as K
from purestate.games.connect_four import ConnectFour
from purestate.games.dots_and_boxes import DotsAndBoxes
from purestate.games.tictactoe import TicTacToe
from purestate.games.tron import Tron
from purestate.games.ultimate import UltimateTicTacToe
from purestate.games.xtreme import XtremeTicTacToe

from .strategies import keys, states

TTT = TicTacToe()
UTTT = UltimateTicTacToe()
C4 = (ConnectFour(), ConnectFour(5, 4, 3), ConnectFour(9, 6, 6), ConnectFour(4, 4, 4))
XTREME = tuple(XtremeTicTacToe(reward=r) for r in ("points", "draw", "tiebreak"))
DOTS = (DotsAndBoxes(1, 1), DotsAndBoxes(2, 3, margin=False), DotsAndBoxes(3, 3))
TRON = (Tron("small_room", rules="simultaneous", first_player=1), Tron("diagonal_blocks"))


def kernel(name: str) -> Any:
    """The compiled kernel module, or a clean skip where numba is not installed."""
    found = compiled.kernels(name)
    if found is None:
        pytest.skip("numba is not installed (or NUMBA_DISABLE_JIT is set): no compiled side")
    return found


@given(keys(), st.one_of(st.integers(0, 100), st.integers(0, 2**63 - 2)))
def test_the_counter_stream_is_the_same_compiled(k: K.Key, j: int) -> None:
    stream = kernel("stream")
    assert stream.key_draw(compiled.as_int64(k), j) == K.draw(k, j)
    assert 0.0 <= K.draw(k, j) < 1.0


@given(keys(), st.integers(1, 40))
def test_stream_gives_the_draws_in_order(k: K.Key, n: int) -> None:
    rand = K.stream(k)
    assert [rand() for _ in range(n)] == [K.draw(k, j) for j in range(n)]


@given(keys(), st.integers(0, 2**40), st.integers(0, 50))
def test_key_range_is_fold_in(k: K.Key, start: int, n: int) -> None:
    assert [int(x) for x in batch.key_range(k, start, n)] == [
        K.fold_in(k, i) for i in range(start, start + n)
    ]


@given(states(TTT), keys())
def test_tictactoe_compiled_is_pure(s: Any, k: K.Key) -> None:
    pure = TTT.python_playout(s, k)
    assert pure == batch.random_returns(TTT, s, k)
    ttt = kernel("tictactoe")
    packed = s.x | s.o << 9 | s.to_move << 18
    w = ttt.playout(packed, compiled.as_int64(k)) if not TTT.is_over(s) else None
    assert TTT.random_playout(s, k) == pure
    if w is not None:
        assert {0: (1.0, -1.0), 1: (-1.0, 1.0), -1: (0.0, 0.0)}[w] == pure


@given(st.sampled_from(C4), st.data(), keys())
def test_connect_four_compiled_is_pure(game: ConnectFour, data: st.DataObject, k: K.Key) -> None:
    s = data.draw(states(game))
    assert game.python_playout(s, k) == batch.random_returns(game, s, k)
    kernel("connect_four")
    assert game.playout(s, k) == game.python_playout(s, k)
    for anti in (False, True):
        assert game.decisive_playout(s, k, anti) == game.python_decisive_playout(s, k, anti)


# (game, its kernel module, the method that runs the kernel where numba is)
SINGLE = (
    *((UTTT, "ultimate", "playout"),),
    *((g, "xtreme", "playout") for g in XTREME),
    *((g, "dots_and_boxes", "random_playout") for g in DOTS),
)


@given(st.sampled_from(SINGLE), st.data(), keys())
def test_ultimate_xtreme_and_dots_compiled_is_pure(
    case: tuple[Any, str, str], data: st.DataObject, k: K.Key
) -> None:
    game, module, method = case
    s = data.draw(states(game))
    pure = game.python_playout(s, k)
    assert pure == batch.random_returns(game, s, k)
    kernel(module)
    assert getattr(game, method)(s, k) == pure


@settings(max_examples=max(1, settings().max_examples // 3))  # n games of each example
@given(
    st.sampled_from((TTT, UTTT, C4[0], C4[1], DOTS[1], DOTS[2], *TRON)),
    st.data(),
    keys(),
    st.integers(1, 12),
)
def test_a_batch_is_its_games_one_by_one(game: Any, data: st.DataObject, k: K.Key, n: int) -> None:
    positions = [data.draw(states(game)) for _ in range(n)]
    ks = batch.key_range(k, 0, n)
    one_by_one = [
        batch.random_returns(game, s, K.Key(int(x))) for s, x in zip(positions, ks, strict=True)
    ]
    assert [tuple(r) for r in batch.playouts(game, positions, ks)] == one_by_one
    # one position stands for all
    first = [batch.random_returns(game, positions[0], K.Key(int(x))) for x in ks]
    assert [tuple(r) for r in batch.playouts(game, positions[:1], ks)] == first
    assert batch.playouts(game, positions[:1], ks).dtype == np.float64
    assert batch.playouts(game, positions[:1], ks[:0]).shape == (0, 2)

"""The retrograde solver against the solved values in the reference (§1.2, §5.2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.moves import play_moves

from purestate import solve as solve_api
from purestate.core import compiled
from purestate.games.dots_and_boxes import DotsAndBoxes, State
from purestate.io.solutions import cache_path, load_or_solve
from purestate.solve.dots_and_boxes import (
    DotsAndBoxesSolution,
    from_array,
    line_values,
    python_line_values,
)


@pytest.mark.parametrize(
    ("rows", "cols", "value"),
    [(1, 1, -1), (1, 2, 0), (1, 3, -1), (2, 2, 2), (2, 3, -2), (3, 2, -2)],
)
def test_values_of_small_boards(rows: int, cols: int, value: int) -> None:
    game = DotsAndBoxes(rows, cols)
    assert solve_api.solve(game).value(game.initial()) == value


def test_2x2_openings_and_histogram() -> None:
    game = DotsAndBoxes()
    sol = solve_api.solve(game)
    openings = [sol.value(game.step(game.initial(), m)) for m in range(12)]
    assert openings == [2, 2, 0, 0, 2, 2, 2, 0, 2, 2, 0, 2]
    v, n = np.unique(line_values(2, 2), return_counts=True)
    assert dict(zip(v.tolist(), n.tolist(), strict=True)) == {
        -4: 49, -3: 32, -2: 432, -1: 176, 0: 896, 1: 252, 2: 977, 3: 300, 4: 982
    }  # fmt: skip


def test_1x2_only_the_middle_line_keeps_the_tie() -> None:
    game = DotsAndBoxes(1, 2)
    sol = solve_api.solve(game)
    assert [sol.value(game.step(game.initial(), m)) for m in range(7)] == [-2] * 5 + [0, -2]


def test_3x3_value_and_every_opening() -> None:
    game = DotsAndBoxes(3, 3)
    sol = solve_api.solve(game)
    assert sol.value(game.initial()) == -3
    assert [sol.value(game.step(game.initial(), m)) for m in range(24)] == [-3] * 24


def test_value_counts_banked_boxes_and_whose_turn() -> None:
    game = DotsAndBoxes()
    sol = solve_api.solve(game)
    s = play_moves(game, [0, 2, 6, 7])  # player 1 has box 0 and moves again
    assert isinstance(sol, DotsAndBoxesSolution)
    assert sol.value(s) == -1 + (-sol.future(s))
    flipped = State(s.lines, s.own0, s.own1, 0)
    assert sol.value(flipped) == -1 + sol.future(s)
    # a value is the best child's value for the mover
    for state in (game.initial(), s):
        sign = 1 if state.to_move == 0 else -1
        assert sign * sol.value(state) == max(sol.move_values(state).values())


def test_win_loss_values() -> None:
    game = DotsAndBoxes(margin=False)
    sol = solve_api.solve(game)
    assert sol.value(game.initial()) == 1.0
    assert (
        solve_api.solve(DotsAndBoxes(2, 3, margin=False)).value(DotsAndBoxes(2, 3).initial()) == -1
    )


def test_solution_agrees_with_playing_it_out() -> None:
    game = DotsAndBoxes(2, 3)
    sol = solve_api.solve(game)
    s = game.initial()
    while not game.is_over(s):
        s = game.step(s, sol.best_moves(s)[0])
    assert game.returns(s)[0] == sol.value(game.initial()) == -2


def test_agrees_with_generic_minimax() -> None:
    minimax = pytest.importorskip("purestate.solve.minimax")
    for rows, cols in [(1, 1), (1, 2), (2, 2)]:
        game = DotsAndBoxes(rows, cols)
        generic = minimax.solve_exhaustive(game)
        retro = solve_api.solve(game)
        s = game.initial()
        states = [s]
        for m in game.legal(s):
            states.append(game.step(s, m))
        for st in states:
            assert generic.value(st) == retro.value(st)


def test_disk_cache_round_trip(tmp_path: Path) -> None:
    game = DotsAndBoxes(1, 3)
    path = cache_path(game, tmp_path)
    assert path is not None and path.name == "dots_and_boxes-1x3.npy"
    solve_api.forget(game)
    first = load_or_solve(game, tmp_path)
    assert path.exists()
    solve_api.forget(game)
    again = load_or_solve(game, tmp_path)
    assert again is not first
    assert isinstance(again, DotsAndBoxesSolution) and isinstance(first, DotsAndBoxesSolution)
    assert np.array_equal(again.table, first.table)
    assert solve_api.solve(game) is again  # the loaded table seeded the memo
    # a damaged file is recomputed and replaced
    solve_api.forget(game)
    path.write_bytes(b"not numpy")
    fixed = load_or_solve(game, tmp_path)
    assert fixed.value(game.initial()) == -1
    assert np.load(path).shape == (1 << 10,)


def test_from_array_refuses_a_foreign_table() -> None:
    with pytest.raises(ValueError):
        from_array(DotsAndBoxes(), np.zeros(10, dtype=np.int8))


def test_too_large_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="too large"):
        line_values(4, 4)


def _brute_force(game: DotsAndBoxes) -> dict[State, float]:
    """Player 0's minimax return of every reachable state, by plain recursion over the rules."""
    memo: dict[State, float] = {}

    def value(s: State) -> float:
        v = memo.get(s)
        if v is None:
            if game.is_over(s):
                v = game.returns(s)[0]
            else:
                children = [value(game.step(s, m)) for m in game.legal(s)]
                v = max(children) if game.to_move(s) == 0 else min(children)
            memo[s] = v
        return v

    value(game.initial())
    return memo


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 2), (1, 3), (2, 2)])
@pytest.mark.parametrize("margin", [True, False])
def test_retrograde_agrees_with_brute_force_on_every_reachable_state(
    rows: int, cols: int, margin: bool
) -> None:
    game = DotsAndBoxes(rows, cols, margin=margin)
    sol = solve_api.solve(game)
    for state, v in _brute_force(game).items():
        assert sol.value(state) == v, game.encode(state)


def _require_compiled_solver() -> None:
    if compiled.kernels("dots_and_boxes", compiled.SOLVER_KERNELS) is None:
        pytest.skip("numba is not installed (or NUMBA_DISABLE_JIT is set): no compiled side")


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (3, 3),
    ],
)
def test_compiled_table_is_the_numpy_table_on_every_line_set(rows: int, cols: int) -> None:
    _require_compiled_solver()
    fast = line_values(rows, cols)
    slow = python_line_values(rows, cols)
    assert fast.dtype == slow.dtype == np.int8
    assert fast.shape == slow.shape == (1 << DotsAndBoxes(rows, cols).num_lines,)
    differ = np.flatnonzero(fast != slow)
    assert differ.size == 0, f"{differ.size} line sets differ, first {differ[:5].tolist()}"


def test_a_cache_the_numpy_solver_wrote_reads_as_the_compiled_table(tmp_path: Path) -> None:
    game = DotsAndBoxes(2, 3)
    path = cache_path(game, tmp_path)
    assert path is not None
    np.save(path, python_line_values(2, 3), allow_pickle=False)
    solve_api.forget(game)
    try:
        sol = load_or_solve(game, tmp_path)
        assert isinstance(sol, DotsAndBoxesSolution)
        assert np.array_equal(sol.table, line_values(2, 3))
        assert sol.value(game.initial()) == -2
        assert sol.distance(game.initial()) == 17
    finally:
        solve_api.forget(game)
